"""name-spelt-otherwise (T005)

## What it does
Reports a name the text tells the model to use, spelt otherwise than the tool
or property it means: `listFollowedProjects` in a description when the list's
tool is `list_followed_projects`, `is_revision` in the parameter list of a
tool whose property is `isRevision`.

Two names are the same name spelt otherwise when they differ only in case and
in their `_` and `-` separators (`snake_case`, `camelCase`, `kebab-case`).  It
reads every description of a tool (the tool's and its properties', at every
depth) for:

- a **tool name**: a multi-word identifier that no tool of the list is called,
  nor any property or enum value of this tool, but that one tool of the list is
  called when spelt otherwise;
- a **property name** in the tool description's parameter list (a line such
  as `- is_revision: …`, `` * `is_revision` (bool): … `` or `is_revision: …`,
  or named in passing in the line of another property: "- revisesThought: If
  is_revision is true"), or written in backticks there, that no property of the
  tool has at any depth, but that a property has when spelt otherwise.  A list
  under a "Returns:" heading names result fields and is left alone.

A name that exists as written somewhere in the tool (a nested property, an
enum value) is left alone: the text may well mean that one.  The message quotes
the sentence.

## Why is this bad?
The model copies names from the text.  It calls `listFollowedProjects` and the
host answers that no such tool exists; it sends `is_revision` and, in a schema
that is not closed, the argument is dropped without a word, so the function
runs without it.  The author meant the existing name; the text should spell it
as the schema does.

## Example
```json
{"tools": [
  {"name": "list_followed_projects", "description": "List the projects the user follows, with their slugs.",
   "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}},
  {"name": "get_pipeline_status", "description": "Get the latest pipeline status of a project.",
   "inputSchema": {"type": "object",
                   "properties": {"projectSlug": {
                       "type": "string", "description": "The project slug from the listFollowedProjects tool"}},
                   "required": ["projectSlug"], "additionalProperties": false}}]}
```

## Use instead
```json
{"tools": [
  {"name": "list_followed_projects", "description": "List the projects the user follows, with their slugs.",
   "inputSchema": {"type": "object", "properties": {}, "additionalProperties": false}},
  {"name": "get_pipeline_status", "description": "Get the latest pipeline status of a project.",
   "inputSchema": {"type": "object",
                   "properties": {"projectSlug": {
                       "type": "string", "description": "The project slug from the list_followed_projects tool"}},
                   "required": ["projectSlug"], "additionalProperties": false}}]}
```

## Fix safety
Not applied by `--fix`: the fix rewrites prose (the name as the schema spells
it), which the author should read; `--fix --unsafe-fixes` applies it.  It
changes no schema keyword.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ... import _lazy_re as re
from ...model import Edit, Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ..safety._texts import Text, lowered_prose, tool_texts
from ._prose import quoted, sentences

# an identifier of two words or more: snake_case, kebab-case, camelCase, PascalCase
_IDENTIFIER = re.compile(r"(?<![\w$.@/-])([A-Za-z][A-Za-z0-9]*(?:[_-][A-Za-z0-9]+)+|[a-z]+[0-9]*(?:[A-Z][a-z0-9]*)+|"
                         r"[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)(?![\w$@/-]|\.\w)")
# a line of a parameter list: "- name: …", "* `name` (string): …", "name: …", "- <name>: …"
_LIST_HEAD = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?[`<'\"]?([A-Za-z_$][\w$-]*)[`>'\"]?(?:\*\*)?\s*"
                        r"(?:\([^)\n]{0,40}\))?"
                        r"\s*(?::|—|–|\s-\s)", re.MULTILINE)
_BACKTICKED = re.compile(r"`([A-Za-z_$][\w$-]*)`")
_SEPARATORS = re.compile(r"[_-]")
_DROP_SEPARATORS = str.maketrans("", "", "_-")
_WORD = re.compile(r"[a-z0-9]+")
# a heading that opens the part of a description about what comes back ("Returns:", "## Response") or about the
# arguments ("Args:", "Parameters:"): a list under the first names result fields, not properties
_HEADING = re.compile(r"^[ \t]*(?:#+[ \t]*)?(?:\*\*)?"
                      r"(?P<results>returns?|return\s+values?|responses?|outputs?|results?|"
                      r"response\s+format|반환(?:값)?|응답|결과|返回(?:值)?|出力|戻り値)?(?P<args>args|arguments|parameters|"
                      r"params|inputs?|매개\s*변수|파라미터|인자|参数|引数)?(?:\*\*)?[ \t]*:?(?:\*\*)?[ \t]*$",
                      re.IGNORECASE | re.MULTILINE)


def folded(name: str) -> str:
    """The name without case and separators: `list_followed_projects`, `listFollowedProjects` → the same."""
    return _SEPARATORS.sub("", name).lower()


def _multiword(name: str) -> bool:
    return bool(_IDENTIFIER.fullmatch(name))


def _schema_names(schema: Any, names: set[str], tops: dict[str, str], depth: int = 0) -> None:
    """Every property name and string enum value at every depth (into `names`); the names of the top-level
    properties, or of a single wrapper object's (`params`), by their folded form (into `tops`)."""
    if not isinstance(schema, dict) or depth > 64:
        return
    for key in ("enum",):
        values = schema.get(key)
        if isinstance(values, list):
            names.update(v for v in values if isinstance(v, str))
    if isinstance(schema.get("const"), str):
        names.add(schema["const"])
    for key, value in schema.items():
        if key in ("properties", "patternProperties", "$defs", "definitions") and isinstance(value, dict):
            for name, sub in value.items():
                if isinstance(name, str):
                    names.add(name)
                    if key == "properties" and depth <= 2:
                        tops.setdefault(folded(name), name)
                _schema_names(sub, names, tops, depth + 1)
        elif isinstance(value, dict):
            _schema_names(value, names, tops, depth + 1)
        elif isinstance(value, list):
            for item in value:
                _schema_names(item, names, tops, depth + 1)


def result_sections(text: str) -> list[tuple[int, int]]:
    """The spans of `text` under a "Returns:"-like heading, up to the next heading of arguments."""
    spans: list[tuple[int, int]] = []
    start: int | None = None
    for found in _HEADING.finditer(text):
        if found.group("results") and start is None:
            start = found.end()
        elif found.group("args") and start is not None:
            spans.append((start, found.start()))
            start = None
    if start is not None:
        spans.append((start, len(text)))
    return spans


def _sentence_at(text: str, at: int) -> str:
    """The sentence (or list item) of `text` that holds the character at `at`."""
    line_start = text.rfind("\n", 0, at) + 1
    line_end = text.find("\n", at)
    line = text[line_start:line_end if line_end >= 0 else len(text)]
    offset = at - line_start
    for sentence in sentences(line):
        start = line.find(sentence)
        if start <= offset < start + len(sentence) or start < 0:
            return sentence
    return " ".join(line.split())


class NameSpeltOtherwise(Rule):
    code = "T005"
    name = "name-spelt-otherwise"
    severity = Severity.WARNING

    def survey_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> tuple[frozenset[str], dict[str, str]]:
        """The list's tool names as written, and by their folded form (a form two tools share is left out;
        so is a list of one tool, which can name no other)."""
        written = frozenset(t.name for t in tools if isinstance(t.name, str))
        by_fold: dict[str, str] = {}
        shared: set[str] = set()
        for name in written:
            key = folded(name)
            if key in by_fold:
                shared.add(key)
            by_fold[key] = name
        if len(by_fold) < 2:
            return written, {}
        return written, {k: v for k, v in by_fold.items() if k not in shared}

    def check_member(self, tool: ToolContract, survey: tuple[frozenset[str], dict[str, str]],
                     ctx: LintContext) -> Iterable[Finding]:
        tool_names, tools_by_fold = survey
        description = tool.description if isinstance(tool.description, str) else ""
        # the cheap tests first, as every tool of every list passes here: does any prose hold another tool's
        # name in some spelling (its words with `_` and `-` dropped), does the description list or quote names
        mentions_tool = bool(tools_by_fold) and any(
            word in tools_by_fold and tools_by_fold[word] != tool.name
            for word in set(_WORD.findall(lowered_prose(tool, ctx).translate(_DROP_SEPARATORS))))
        if not mentions_tool and not (description and ("`" in description or _LIST_HEAD.search(description))):
            return
        texts = [t for t in tool_texts(tool) if not t.is_name and not t.pointer.startswith("/outputSchema")]
        if not texts:
            return
        names: set[str] = set()
        properties: dict[str, str] = {}
        _schema_names(tool.input_schema, names, properties)
        known = names | tool_names
        for text in texts:
            reported: set[str] = set()  # once a text: its fix rewrites every mention in it
            for word, at, meant, kind in self._mentions(text, tool, known, tools_by_fold, properties):
                if word not in reported:
                    reported.add(word)
                    yield self._finding(text, word, at, meant, kind)

    @staticmethod
    def _mentions(text: Text, tool: ToolContract, known: set[str], tools_by_fold: dict[str, str],
                  properties: dict[str, str]) -> Iterator[tuple[str, int, str, str]]:
        """(word, where, the name meant, "tool" or "property") for each name the text spells otherwise."""
        body = text.text
        if tools_by_fold:
            for found in _IDENTIFIER.finditer(body):
                word = found.group(1)
                if word in known or "_" not in word and word.islower() and word.count("-") == 1:
                    continue  # "port-forward" is English, not the tool port_forward
                meant = tools_by_fold.get(folded(word))
                if meant is not None and meant != tool.name:
                    yield word, found.start(1), meant, "tool"
        if text.pointer != "/description" or not properties:
            return
        results = result_sections(body)
        for pattern in (_LIST_HEAD, _BACKTICKED):
            for found in pattern.finditer(body):
                word = found.group(1)
                if word in known or not _multiword(word) or any(a <= found.start() < b for a, b in results):
                    continue
                meant = properties.get(folded(word))
                if meant is not None:
                    yield word, found.start(1), meant, "property"
        # an item of the parameter list that documents a real property may name another one in passing:
        # "- revisesThought: If is_revision is true, …"
        for head in _LIST_HEAD.finditer(body):
            if head.group(1) not in known or any(a <= head.start() < b for a, b in results):
                continue
            line_end = body.find("\n", head.end())
            for found in _IDENTIFIER.finditer(body, head.end(), line_end if line_end >= 0 else len(body)):
                word = found.group(1)
                if word.isupper() or body[found.start(1) - 1] in "'\"":
                    continue  # a value in an example ('rotation_id: "ROTATION_ID"'), not a name
                meant = properties.get(folded(word))
                if meant is not None and word not in known:
                    yield word, found.start(1), meant, "property"

    @staticmethod
    def _finding(text: Text, word: str, at: int, meant: str, kind: str) -> Finding:
        sentence = _sentence_at(text.text, at)
        fixed = re.sub(rf"(?<![\w$-]){re.escape(word)}(?![\w$-])", meant, text.text)
        consequence = ("a model that calls the name it read is told no such tool exists" if kind == "tool" else
                       "a model that sends the name it read gets it refused, or dropped unread where the schema is "
                       "open")
        return Finding(text.pointer,
                       f"{text.where} says: '{quoted(sentence)}', but no {kind} is named '{word}'; the {kind} is "
                       f"'{meant}': {consequence}; spell it '{meant}'",
                       Fix(f"write '{meant}' for '{word}' in {text.where}", safe=False,
                           edits=(Edit("set", text.pointer, fixed),)))
