"""indistinct-tools (D008)

## What it does
Finds two tools in one list whose descriptions say the same thing — the same
content words (ignoring case, punctuation, filler and plural/tense endings) in
nearly the same order (rapidfuzz ratio ≥ 90) — when neither description
draws a contrast ("use X instead", "unlike X", "rather than", "without
purging data", "X 대신", "X와 달리") or names the other tool.

Names that already tell the two apart are not reported: one against all
(`get_member` / `get_all_members`, `delete_file` / `delete_files`, `bulk_*`)
and antonyms (`mark_done` / `mark_undone`, `lock` / `unlock`, `enable` /
`disable`, `start` / `stop`): their descriptions may well read alike.

Tools are grouped by their set of content words first (a hash), so only tools
that could match are ever compared: a list of 5,000 tools costs one pass.

## Why is this bad?
A model chooses a tool by its description.  When two read the same, it picks
one at random, and half of the calls go to the wrong tool.

## Example
```json
[{"name": "get_user", "description": "Returns the profile of one user.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}}}},
 {"name": "fetch_user", "description": "Returns the profile of a user.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}}}}]
```

## Use instead
```json
[{"name": "get_user", "description": "Returns the profile of one user from the live directory.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}}}},
 {"name": "fetch_user",
  "description": "Returns a user's profile from last night's cache; use get_user instead when it must be current.",
  "inputSchema": {"type": "object", "properties": {"user_id": {"type": "string", "description": "User id"}}}}]
```

## Fix safety
No fix: only the author knows how the tools differ.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from ... import _lazy_re as re
from ...lexicon import identifier_words, is_filler, stem, text_words, verb_class
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule

MIN_RATIO = 90.0
_CONTRAST = re.compile(r"\b(?:instead|unlike|rather\s+than|as\s+opposed\s+to|in\s+contrast|differs?\s+from|without|"
                       r"but\s+not|except)\b"
                       r"|대신|와\s*달리|과\s*달리|와\s*다르게|과\s*다르게", re.I)


_MANY = frozenset("all many batch bulk multiple every each".split())
_NEGATIONS = ("un", "in", "dis", "de", "non")
_ANTONYMS = tuple(frozenset(pair.split()) for pair in (
    "enable disable", "show hide", "add remove", "start stop", "open close", "lock unlock", "on off", "in out",
    "up down", "push pull", "import export", "upload download", "increase decrease", "grant revoke", "allow deny",
    "accept reject", "approve reject", "attach detach", "connect disconnect", "follow unfollow", "mute unmute",
    "pin unpin", "star unstar", "block unblock", "archive unarchive", "publish unpublish", "subscribe unsubscribe",
    "before after", "next previous", "first last", "min max", "encode decode", "encrypt decrypt", "zoom_in zoom_out",
    "get set", "read write", "create delete", "buy sell"))


# verbs that name the same job: two tools differing only by these are look-alikes
_SYNONYMS = tuple(frozenset(group.split()) for group in (
    "get fetch retrieve read obtain lookup load show describe view", "list enumerate browse",
    "create add new make insert post", "update edit modify change patch set put", "delete remove destroy drop erase",
    "search find query lookup", "run execute invoke call trigger", "send post publish"))


def _singular(word: str) -> str:
    return word[:-1] if word.endswith("s") and not word.endswith("ss") and len(word) > 3 else word


def names_tell_apart(first: str, second: str) -> bool:
    """One against all (`get_member` / `get_all_members`) or antonyms (`mark_done` / `mark_undone`)."""
    a, b = identifier_words(first), identifier_words(second)
    only_a, only_b = set(a) - set(b), set(b) - set(a)
    if (only_a | only_b) and (only_a | only_b) <= _MANY:
        return True
    # the same object under two different verbs: `get_incident` / `list_incidents`, `FetchSender` /
    # `ListSender`, `create_page` / `update_page` are two jobs, whatever their generated descriptions say
    verbs_a = {_singular(w) for w in a} - {_singular(w) for w in b}
    verbs_b = {_singular(w) for w in b} - {_singular(w) for w in a}
    if len(verbs_a) == len(verbs_b) == 1 and all(verb_class(w) for w in verbs_a | verbs_b):
        (x,), (y,) = verbs_a, verbs_b
        return not any(x in group and y in group for group in _SYNONYMS)  # `get_user` / `fetch_user`: one job
    if [_singular(w) for w in a if w not in _MANY] == [_singular(w) for w in b if w not in _MANY]:
        return True  # `delete_file` / `delete_files`, `get_member` / `get_all_members`
    for x in only_a:
        for y in only_b:
            if any(x == n + y or y == n + x for n in _NEGATIONS) or frozenset((x, y)) in _ANTONYMS:
                return True
    return False


def content_stems(text: str) -> list[str]:
    return [stem(w) for w in text_words(text) if not is_filler(w)]


class IndistinctTools(Rule):
    code = "D008"
    name = "indistinct-tools"
    severity = Severity.WARNING

    def summarise_member(self, tool: ToolContract, ctx: LintContext) -> tuple[str, ...] | None:
        """The content words of the tool's description, stemmed (None without a description and a name)."""
        if not isinstance(tool.description, str) or not isinstance(tool.name, str):
            return None
        return tuple(content_stems(tool.description)) or None

    def check_summaries(self, tools: Sequence[ToolContract], stems: Sequence[tuple[str, ...] | None],
                        ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        if len(tools) < 2:
            return
        buckets: dict[frozenset[str], list[tuple[ToolContract, str]]] = defaultdict(list)
        for tool, words in zip(tools, stems, strict=True):
            if words:
                buckets[frozenset(words)].append((tool, " ".join(words)))
        for members in buckets.values():
            if len(members) > 1:
                yield from self._compare(members)

    def _compare(self, members: list[tuple[ToolContract, str]]) -> Iterable[tuple[ToolContract, Finding]]:
        from rapidfuzz import fuzz  # only tools whose descriptions share every content word get this far

        # Each tool is compared with the first tool of each cluster, not with every other tool.
        clusters: list[tuple[ToolContract, str]] = []
        for tool, text in members:
            twin = next((c for c in clusters if c[0].name != tool.name and fuzz.ratio(text, c[1]) >= MIN_RATIO), None)
            if twin is None:
                if all(c[0].name != tool.name for c in clusters):
                    clusters.append((tool, text))
                continue
            other = twin[0]
            if self._contrasted(tool, other) or names_tell_apart(tool.name, other.name):
                continue
            yield tool, Finding("/description", (
                f"tools '{tool.name}' and '{other.name}' have near-identical descriptions, so a model cannot tell "
                f"them apart; say what each does that the other does not (or 'use {other.name} instead when …')"),
                Fix("make the descriptions say how the tools differ", safe=False))

    @staticmethod
    def _contrasted(tool: ToolContract, other: ToolContract) -> bool:
        for first, second in ((tool, other), (other, tool)):
            text = first.description or ""
            if _CONTRAST.search(text) or second.name in text:
                return True
        return False
