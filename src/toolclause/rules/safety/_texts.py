"""Every text a model reads in a tool, with its pointer: the haystack for X007 and X008.

A model is given the whole tool: name, title, description, and the schema
verbatim — descriptions and titles at every depth, enum values, constants,
defaults, examples and property names.  Attackers hide instructions in the
places people do not look (a nested property's description, an enum value), so
all of them are read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import islice
from typing import Any

from ... import _lazy_re as re
from ...model import ToolContract, escape_token
from .._literals import needed_literals
from ..base import IdentityMemo, LintContext
from ._poisoning import text_words

_TEXT_KEYS = ("description", "title", "$comment")
_VALUE_KEYS = ("const", "default", "example", "examples")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_ONES = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames")
MAX_DEPTH = 32
MAX_VALUES = 200


class Text:
    __slots__ = ("pointer", "text", "where", "is_name")

    def __init__(self, pointer: str, text: str, where: str, is_name: bool = False) -> None:
        self.pointer = pointer
        self.text = text
        self.where = where
        self.is_name = is_name


def tool_texts(tool: ToolContract) -> Iterator[Text]:
    if isinstance(tool.name, str):
        yield Text("/name", tool.name, "the tool name", True)
    if isinstance(tool.title, str):
        yield Text("/title", tool.title, "the title")
    if isinstance(tool.description, str):
        yield Text("/description", tool.description, "the description")
    annotations = tool.annotations
    if isinstance(annotations, dict) and isinstance(annotations.get("title"), str):
        yield Text("/annotations/title", annotations["title"], "the annotations title")
    yield from schema_texts(tool.input_schema, "/inputSchema", "")
    yield from schema_texts(tool.output_schema, "/outputSchema", "")


def _label(path: str, what: str) -> str:
    return f"the {what} of '{path}'" if path else f"the schema's {what}"


def schema_texts(schema: Any, pointer: str, path: str, depth: int = 0) -> Iterator[Text]:
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return
    for key in _TEXT_KEYS:
        value = schema.get(key)
        if isinstance(value, str):
            yield Text(f"{pointer}/{escape_token(key)}", value, _label(path, key))
    enum = schema.get("enum")
    if isinstance(enum, list):
        for index, value in enumerate(enum[:MAX_VALUES]):
            if isinstance(value, str):
                yield Text(f"{pointer}/enum/{index}", value, _label(path, "enum value"))
    for key in _VALUE_KEYS:
        if key in schema:
            yield from _values(schema[key], f"{pointer}/{key}", _label(path, key), 0)
    for key in _SCHEMA_MAPS:
        children = schema.get(key)
        if not isinstance(children, dict):
            continue
        for name, sub in children.items():
            if not isinstance(name, str):
                continue
            child_pointer = f"{pointer}/{key}/{escape_token(name)}"
            child_path = f"{path}.{name}" if path else name
            if key == "properties":
                yield Text(child_pointer, name, f"the property name '{child_path}'", True)
            yield from schema_texts(sub, child_pointer, child_path, depth + 1)
    for key in _SCHEMA_LISTS:
        children = schema.get(key)
        if isinstance(children, list):
            for index, sub in enumerate(children[:MAX_VALUES]):
                yield from schema_texts(sub, f"{pointer}/{key}/{index}", path, depth + 1)
    for key in _SCHEMA_ONES:
        sub = schema.get(key)
        if isinstance(sub, dict):
            yield from schema_texts(sub, f"{pointer}/{key}", f"{path}[]" if key == "items" else path, depth + 1)
        elif key == "items" and isinstance(sub, list):
            for index, item in enumerate(sub[:MAX_VALUES]):
                yield from schema_texts(item, f"{pointer}/items/{index}", f"{path}[]", depth + 1)


def _values(value: Any, pointer: str, where: str, depth: int) -> Iterator[Text]:
    """Strings inside a default, const or example, however they are nested (bounded)."""
    if isinstance(value, str):
        yield Text(pointer, value, where)
    elif depth < 4 and isinstance(value, list):
        for index, item in enumerate(value[:MAX_VALUES]):
            yield from _values(item, f"{pointer}/{index}", where, depth + 1)
    elif depth < 4 and isinstance(value, dict):
        for key, item in list(value.items())[:MAX_VALUES]:
            yield from _values(item, f"{pointer}/{escape_token(str(key))}", where, depth + 1)


# --------------------------------------------------------------------------- the fast paths

def find_in_prose(tool: ToolContract, ctx: LintContext | None,
                  pattern: re.Pattern[str]) -> tuple[Text, re.Match[str]] | None:
    """The first of `tool_texts` that is not a name and that `pattern` finds, with the match; or None.

    What `next((t, m) for t in tool_texts(tool) if not t.is_name and (m := pattern.search(t.text)))`
    gives, without building a pointer and a label for every text of every tool: the pattern (one with
    no anchors, so a match in one text is a match in all of them joined by line breaks) first runs once
    over the plain texts joined; texts are looked at one by one, and a `Text` built, only then.
    """
    _, lowered, joined = ctx.state(_Texts).get(tool, _read_texts) if ctx is not None else _read_texts(tool)
    fast = _twin_and_needs(pattern) if lowered else None
    if fast is not None:
        twin, needs = fast
        # a word the twin cannot match without (see rules._literals): a few C substring searches
        # rule out nearly every tool before the long pattern runs
        if needs is not None and not any(word in joined for word in needs):
            return None
    if (pattern if fast is None else twin).search(joined) is None:
        return None
    for index, text in prose_texts(tool):
        found = pattern.search(text)
        if found is not None:
            return nth_text(tool, index), found
    return None


_twins: dict[tuple[str, int], tuple[re.Pattern[str], frozenset[str] | None] | None] = {}
_UPPER_LITERAL = re.compile(r"(?<!\\)[A-Z]")  # an upper-case letter that is not an escape (\S, \W, \b …)


def _twin_and_needs(pattern: re.Pattern[str]) -> tuple[re.Pattern[str], frozenset[str] | None] | None:
    """The case-sensitive twin of a case-insensitive pattern written in lower case, and the literals
    one of which its every match holds (None if there is no such set: see rules._literals); or None.

    On ASCII text, such a pattern finds a match exactly where its twin finds one in the text
    lower-cased (re.IGNORECASE relates ASCII letters only to their own other case, or to non-ASCII
    letters the text does not hold), and the twin runs about three times as fast.
    """
    key = (pattern.pattern, pattern.flags)
    if key not in _twins:
        source = pattern.pattern
        lower_case = (pattern.flags & re.IGNORECASE and "\\\\" not in source  # (an escaped backslash: not read)
                      and not _UPPER_LITERAL.search(source))
        # kept with the module patterns (see toolclause._lazy_re): a twin is made from a rule's own
        # pattern, never from linted text, so there are as many as there are such patterns
        if lower_case:
            flags = int(pattern.flags & ~re.IGNORECASE)
            _twins[key] = (re.compiled_pattern(source, flags), needed_literals(source, flags))
        else:
            _twins[key] = None
    return _twins[key]


def prose_texts(tool: ToolContract) -> list[tuple[int, str]]:
    """(index in `tool_texts`, text) of each text that is not a name; `nth_text` gives its `Text`."""
    texts: list[tuple[bool, str]] = []  # (is a name, text), in the order of `tool_texts`
    add = texts.append
    if isinstance(tool.name, str):
        add((True, tool.name))
    for value in (tool.title, tool.description):
        if isinstance(value, str):
            add((False, value))
    annotations = tool.annotations
    if isinstance(annotations, dict) and isinstance(annotations.get("title"), str):
        add((False, annotations["title"]))
    _plain_schema(tool.input_schema, 0, add)
    _plain_schema(tool.output_schema, 0, add)
    return [(index, text) for index, (is_name, text) in enumerate(texts) if not is_name]


def nth_text(tool: ToolContract, index: int) -> Text:
    return next(islice(tool_texts(tool), index, None))


def _joined_prose(tool: ToolContract) -> str:
    return "\n".join([text for _, text in prose_texts(tool)])


# The keys `schema_texts` reads, in its order: all of them, or the four a usual node has.
_EVERY_KEY = (_TEXT_KEYS, _VALUE_KEYS, _SCHEMA_MAPS, _SCHEMA_LISTS, _SCHEMA_ONES)
_USUAL_KEYS = (("description",), (), ("properties",), (), ("items",))
_UNUSUAL = frozenset(_TEXT_KEYS + _VALUE_KEYS + _SCHEMA_MAPS + _SCHEMA_LISTS + _SCHEMA_ONES) - {
    "description", "enum", "properties", "items"}


def _plain_schema(schema: Any, depth: int, add: Callable[[tuple[bool, str]], None]) -> None:
    """`schema_texts` without pointers or labels: the same texts in the same order (a test compares them)."""
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return
    # most nodes hold none of the rarer keys: a lookup each of those is saved there
    text_keys, value_keys, maps, lists, ones = _USUAL_KEYS if _UNUSUAL.isdisjoint(schema) else _EVERY_KEY
    for key in text_keys:
        value = schema.get(key)
        if isinstance(value, str):
            add((False, value))
    enum = schema.get("enum")
    if isinstance(enum, list):
        for value in enum[:MAX_VALUES]:
            if isinstance(value, str):
                add((False, value))
    for key in value_keys:
        if key in schema:
            _plain_values(schema[key], 0, add)
    for key in maps:
        children = schema.get(key)
        if isinstance(children, dict):
            for name, sub in children.items():
                if isinstance(name, str):
                    if key == "properties":
                        add((True, name))
                    _plain_schema(sub, depth + 1, add)
    for key in lists:
        children = schema.get(key)
        if isinstance(children, list):
            for sub in children[:MAX_VALUES]:
                _plain_schema(sub, depth + 1, add)
    for key in ones:
        sub = schema.get(key)
        if isinstance(sub, dict):
            _plain_schema(sub, depth + 1, add)
        elif key == "items" and isinstance(sub, list):
            for item in sub[:MAX_VALUES]:
                _plain_schema(item, depth + 1, add)


def _plain_values(value: Any, depth: int, add: Callable[[tuple[bool, str]], None]) -> None:
    if isinstance(value, str):
        add((False, value))
    elif depth < 4 and isinstance(value, list):
        for item in value[:MAX_VALUES]:
            _plain_values(item, depth + 1, add)
    elif depth < 4 and isinstance(value, dict):
        for _, item in list(value.items())[:MAX_VALUES]:
            _plain_values(item, depth + 1, add)


# --------------------------------------------------------------------------- the joined text

class _Texts(IdentityMemo[ToolContract, tuple[str, bool, str]]):
    """Each tool's texts for one run, read in one pass (X007, X008 and X010 read them):
    (every text joined and lower-cased; whether the prose is lower-cased; the prose joined).

    ASCII prose is kept lower-cased, for the patterns' case-sensitive twins (see `_twin_and_needs`).
    """


def lowered_text(tool: ToolContract, ctx: LintContext | None) -> str:
    """All of `tool_texts` joined and lower-cased, built without pointers; X007 and X008 share it."""
    return (ctx.state(_Texts).get(tool, _read_texts) if ctx is not None else _read_texts(tool))[0]


def lowered_prose(tool: ToolContract, ctx: LintContext | None) -> str:
    """Every prose text of the tool (not its names) joined by line breaks and lower-cased, from the same memo:
    for a cheap test that rules a tool out before its texts are read one by one."""
    _, lowered, joined = ctx.state(_Texts).get(tool, _read_texts) if ctx is not None else _read_texts(tool)
    return joined if lowered else joined.lower()


def text_and_words(tool: ToolContract, ctx: LintContext | None) -> tuple[str, list[bytes]]:
    """`lowered_text` and its words.  The words are split again for each rule that asks (one C pass),
    not kept: kept for every tool of the run, they took more memory than the tools' texts."""
    text = lowered_text(tool, ctx)
    return text, text_words(text)


def _read_texts(tool: ToolContract) -> tuple[str, bool, str]:
    """`_Texts`' entry for one tool.  This runs for every tool of every lint, so it is a flat loop over
    plain dicts (exact class checks, a handful of lookups a node, no generators); `tool_texts` with its
    pointers runs only for the few tools whose text looks suspicious.

    The prose is gathered in the same pass, in another order and past `schema_texts`' bounds: it is
    only searched whole, to rule a tool out (see `find_in_prose`), and a pattern that finds nothing in
    the prose texts joined by line breaks finds nothing in more of them joined in any order either.
    """
    prose: list[str] = [v for v in (tool.title, tool.description) if v.__class__ is str]
    out: list[str] = [tool.name, *prose] if tool.name.__class__ is str else prose[:]
    append, add = out.append, prose.append
    annotations = tool.annotations
    if annotations.__class__ is dict and annotations.get("title").__class__ is str:
        append(annotations["title"])
        add(annotations["title"])
    stack = [s for s in (tool.input_schema, tool.output_schema) if s.__class__ is dict]
    pop, push = stack.pop, stack.append
    budget = 20_000  # nodes; a pathological schema is read whole instead
    while stack and budget:
        budget -= 1
        schema = pop()
        value = schema.get("description")
        if value.__class__ is str:
            append(value)
            add(value)
        properties = schema.get("properties")
        if properties.__class__ is dict:
            for name, sub in properties.items():
                append(name)
                if sub.__class__ is dict:
                    push(sub)
        items = schema.get("items")
        if items.__class__ is dict:
            push(items)
        enum = schema.get("enum")
        if enum.__class__ is list:
            append(repr(enum))
            prose.extend([v for v in enum if v.__class__ is str])
        if not _RARE_KEYS.isdisjoint(schema):
            _rare(schema, append, push, add)
    if stack:
        everything = repr((tool.raw, tool.input_schema, tool.output_schema)).lower()
        joined = _joined_prose(tool)
    else:
        everything, joined = "\n".join(out).lower(), "\n".join(prose)
    return (everything, True, joined.lower()) if joined.isascii() else (everything, False, joined)


_RARE_KEYS = frozenset(("title", "$comment", "const", "default", "example", "examples", "patternProperties",
                        "$defs", "definitions", "dependentSchemas", "anyOf", "oneOf", "allOf", "prefixItems",
                        "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames"))


def _rare(schema: dict, append: Any, push: Any, add: Any) -> None:
    for key in ("title", "$comment"):
        if schema.get(key).__class__ is str:
            append(schema[key])
            add(schema[key])
    for key in _VALUE_KEYS:
        if key in schema:
            value = schema[key]
            append(value if value.__class__ is str else repr(value))
            _plain_values(value, 0, lambda pair: add(pair[1]))
    for key in _SCHEMA_MAPS:
        value = schema.get(key)
        if value.__class__ is dict and key != "properties":
            for sub in value.values():
                if sub.__class__ is dict:
                    push(sub)
    for key in _SCHEMA_LISTS:
        value = schema.get(key)
        if value.__class__ is list:
            for sub in value:
                if sub.__class__ is dict:
                    push(sub)
    for key in _SCHEMA_ONES:
        value = schema.get(key)
        if value.__class__ is dict and key != "items":
            push(value)
    items = schema.get("items")
    if items.__class__ is list:
        for sub in items:
            if sub.__class__ is dict:
                push(sub)
