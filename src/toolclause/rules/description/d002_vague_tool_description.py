"""vague-tool-description (D002)

## What it does
Finds a short tool description — under 40 characters (option `min-length`) —
that leaves out what the tool does:

* it only restates the tool name ("Fetch items from database" for
  `get_items`, "상태 조회" for `get_status`, "Stop a port-forward process" for
  `stop_port_forward`), and the schema does not make up for it: a parameter
  is undescribed, or there is none though the description speaks of one
  thing ("Gets a customer record": which one?).  Beside a described
  `sprint_id` and `issue_keys`, "Add issues to a Jira sprint" is short but
  clear, and so is "Get the current user." without parameters.  A
  restatement's content words (minus filler such as "the", "from",
  "database", 해당, 정보, and empty nouns such as "record", "process",
  "item") are all name words or their stand-ins (fetch/retrieve for get;
  조회 for get, 상태 for status, 목록 for list);
* the tool's name is a bare generic verb (`query`, `run`, `execute`,
  `process`, `search`, `get`, `fetch`, `call` …) and the description names
  nothing it acts on beyond it: "Run a read-only SQL query" for `query` does
  not say which database;
* it names no action at all ("Current weather for a city", "SQL query tool"),
  or is one bare word ("Calculator").

A short description that states an action and its object is not reported:
"Clicks on the provided element", "Echoes back the input string", "Get current
time in a specific timezone".  Length alone is not a judgement of quality;
`min-length` only bounds which descriptions are judged, since a longer one
has room to say more than the name.  Hangul and Han characters weigh 2.5
Latin characters each (a Hangul syllable spells two or three letters; a Han
character is usually a whole word), so "현재 날씨를 도시 이름으로 조회합니다" is
long enough like its English translation.  Only English and Korean are read:
a short Chinese, Japanese or Spanish description is not judged.

## Why is this bad?
A model chooses between tools by their descriptions.  One that repeats the
name, or names no action or object, adds nothing: the model still does not know
what is fetched, from where, when this tool is the right one, or what comes
back.  A generic name makes it worse: beside other servers' tools, `query`
with "Run a SQL query" could be any database.

Measured: see docs/precision.md.

## Example
```json
{"name": "query", "description": "Run a read-only SQL query",
 "inputSchema": {"type": "object", "properties": {"sql": {"type": "string", "description": "The SQL to run"}}}}
```
```json
{"name": "get_status", "description": "상태 조회",
 "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}}}
```

## Use instead
```json
{"name": "query",
 "description": "Run a read-only SQL query on the shop's PostgreSQL orders database; returns rows as JSON.",
 "inputSchema": {"type": "object", "properties": {"sql": {"type": "string", "description": "The SQL to run"}}}}
```
```json
{"name": "get_status", "description": "주문 번호로 배송 상태(준비, 배송 중, 완료)와 예상 도착일을 조회합니다.",
 "inputSchema": {"type": "object", "properties": {"id": {"type": "string", "description": "주문 번호"}}}}
```

## Fix safety
No fix: only the author knows what the tool is for.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...lexicon import (
    DENSE_WEIGHT,
    english_equivalents,
    is_filler,
    is_generic,
    is_hangul,
    split_identifier,
    synonyms,
    text_words,
    weighted_length,
)
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._common import resolve_local, text_of
from ._reading import korean_verb, lead_verbs, names_no_action, readable, sentences

DEFAULT_MIN_LENGTH = 40

# Names that are a verb and nothing else: the description has to name what they act on.
GENERIC_NAMES = frozenset("""
query queries run execute exec process search find lookup get fetch call invoke handle perform do request
""".split())

# Nouns that name no object of their own: "a customer record" is the customer, "a port-forward process" the
# port-forward.  With the lexicon's generic nouns and verbs they add nothing to a restated name.
_EMPTY_NOUNS = frozenset("record records entry entries process processes".split())

# Words that speak of one thing among many ("a customer", "a specific task", 어떤): which one is a parameter's job.
_INDEFINITE = frozenset("a an one specific given particular certain 특정 어떤 하나".split())

# Words saying what kind of input a generic tool takes, not what it acts on ("a read-only SQL query").
_NOT_A_TARGET = frozenset("""
sql query queries statement statements command commands code script scripts snippet snippets expression
expressions text string strings keyword keywords term terms value values key keys id ids name names argument
arguments args parameter parameters param params input inputs option options read write only readonly new
arbitrary custom simple basic single multiple raw plain generic general operation operations another other
something anything request requests
""".split())


def _name_stems(name: str) -> set[str]:
    stems: set[str] = set()
    for word in split_identifier(name):
        stems |= synonyms(word)
    return stems


def restated_words(description: str, name: str) -> tuple[list[str], list[str]] | None:
    """(the words repeating a name word, the empty words) when that is all the description says; else None."""
    name_stems = _name_stems(name)
    if not name_stems:
        return None
    repeated: list[str] = []
    empty: list[str] = []
    for word in text_words(description):
        if word.isdigit() or is_filler(word):
            continue
        stand_ins = english_equivalents(word) if is_hangul(word) else synonyms(word)
        if not stand_ins.isdisjoint(name_stems):
            repeated.append(word)
        elif not is_hangul(word) and (is_generic(word) or word in _EMPTY_NOUNS):
            empty.append(word)
        else:
            return None
    return (repeated, empty) if repeated else None


def parameters_explain(tool: ToolContract, description: str) -> bool:
    """Does the schema make up for a description that restates the name?

    It does when every parameter is described: "Add issues to a Jira sprint" beside a described
    `sprint_id` and `issue_keys` is short but clear.  A tool with no parameters needs none when what it
    acts on is settled ("Get the current user.", "List all documents."), not when the description speaks
    of one thing it has no way to be told ("Gets a customer record.": which customer?).
    """
    schema = tool.input_schema
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict) or not properties:
        return _INDEFINITE.isdisjoint(text_words(description))
    for sub in properties.values():
        if not isinstance(sub, dict):
            return False
        if not (text_of(sub) or text_of(resolve_local(tool, sub.get("$ref")) or {})):
            return False
    return True


def names_a_target(description: str, name: str) -> bool:
    """Does the description name something the tool acts on beyond its name (a system, a kind of data)?"""
    name_stems = _name_stems(name)
    for sentence in sentences(description):
        verbs = {i for i, _ in lead_verbs(sentence)}
        for i, word in enumerate(sentence):
            if i in verbs or word.isdigit() or is_filler(word):
                continue
            if is_hangul(word):
                if korean_verb(word) or not english_equivalents(word).isdisjoint(name_stems):
                    continue
                return True
            if is_generic(word) or word in _NOT_A_TARGET or not synonyms(word).isdisjoint(name_stems):
                continue
            return True
    return False


def _generic_name(name: str) -> bool:
    words = split_identifier(name)
    return len(words) == 1 and words[0] in GENERIC_NAMES


def _problem(tool: ToolContract, text: str, name: str) -> tuple[str, str] | None:
    """What leaves the short description vague, and what to add; None when it says what the tool does."""
    advice = "say what it acts on, when to call it and what it returns"
    restated = restated_words(text, name) if name else None
    if restated and not parameters_explain(tool, text):
        repeated, empty = restated
        shown = ", ".join(f"'{w}'" for w in repeated)
        nothing = f", and {', '.join(repr(w) for w in empty)} name{'s' if len(empty) == 1 else ''} nothing" \
            if empty else ""
        its = f"its words {shown} repeat" if len(repeated) > 1 else f"its word {shown} repeats"
        return f"the description only restates the name '{name}' ({its} the name{nothing})", advice
    if not readable(text):
        return None
    if name and _generic_name(name) and not names_a_target(text, name):
        return (f"the name '{name}' is a bare verb and the description names nothing it acts on beyond it",
                "say which system or data it works on (beside other servers' tools it could be any), when to "
                "call it and what it returns")
    words = [w for w in text_words(text) if not w.isdigit()]
    if len(words) <= 1:
        return "the description is a single word, not a sentence saying what the tool does", advice
    if names_no_action(text, split_identifier(name)):
        return "the description names no action: it does not say what the tool does", advice
    return None


class VagueToolDescription(Rule):
    code = "D002"
    name = "vague-tool-description"
    severity = Severity.WARNING
    CONF = {"min-length": float}
    DEFAULT = {"min-length": DEFAULT_MIN_LENGTH}

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        text = tool.description.strip() if isinstance(tool.description, str) else ""
        if not text:
            return  # D001
        minimum = ctx.options_for(self)["min-length"]
        length = weighted_length(text)
        if length >= minimum:
            return  # the common case: room to say more than the name, so nothing is judged
        found = _problem(tool, text, tool.name if isinstance(tool.name, str) else "")
        if found is None:
            return
        problem, advice = found
        measured = f"{length:g} character{'' if length == 1 else 's'}" + (
            f" (Hangul/Han weigh {DENSE_WEIGHT:g})" if length != len(text) else "")
        yield Finding("/description", f"{problem}: {measured} < {minimum:g}; {advice}",
                      Fix("say what the tool acts on, when to call it (and when not), and what it returns",
                          safe=False))
