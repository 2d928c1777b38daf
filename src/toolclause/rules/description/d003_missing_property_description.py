"""missing-property-description (D003)

## What it does
Finds a property of the input schema, at any depth (inside nested objects and
array items too), with no description or an empty one.  A property that takes
its description from a `$ref` target or a composition branch is not reported.

Nor is one whose meaning the schema already carries: a `const` or one-value
`enum` (a discriminator such as `"type": {"const": "page_id"}`), an `enum` of
readable words (`direction: ascending | descending`), an array whose items
carry one of these, a boolean whose name says
what it switches (`include_diffs`, `allNamespaces`), a `pattern`, or one half of
a standard pair (`latitude`/`longitude`; `from`/`to`, `x`/`y`, `width`/`height`,
`min`/`max`, `start`/`end` inside an object that is itself described;
`owner`/`repo`), a pagination parameter (`page`, `per_page`, `limit`, `offset`,
`cursor`), free prose the model writes in its own words (`title`, `body`,
`content`, `text`, `message`, `comment`), a name that says what its `format`
says (`url` with `"format": "uri"`), or an object (or array of objects) whose every property is described.  A
definition (`$defs`) that nothing in the tool references is skipped: no argument
is ever checked against it.

Severity follows the name.  A name that leaves open what to send is a warning:
a word of several meanings (`id`, `type`, `mode`, `scope`, `format`, `depth`,
`filter`, `target`, `value`), an abbreviation of one or two letters (`ts`, `q`),
the id of a handle the server made (`sessionId`, `process_id`: returned by which
call?), or a duration, size or amount without its unit in the name (`timeout`,
`max_age`, `amount`; not `timeout_ms`).  A bare `id` or `value` is a warning
at the top level of a tool whose description does not speak of it; inside an
object its parent says whose it is.  Any name inside an object is info: its
holder and its neighbours give the context.  An object or an array is info: what it holds is in its parts.  A
property the tool description documents by name is info too (the model reads
that text already; moving it is tidying).  A name that says everything
(`invoice_id`, `query`, `branch_name`, `path`) is reported as info: a
description still helps, but its absence is not a defect.

## Why is this bad?
The name alone rarely says what to send: `date` in which format, `amount` in
which currency and unit, `id` of what.  The model fills the gap with a guess,
and the call fails validation or — worse — succeeds with the wrong value.

## Example
```json
{"name": "create_refund", "description": "Refunds part or all of one payment; returns the refund id.",
 "inputSchema": {"type": "object",
                 "properties": {"amount": {"type": "integer"}}}}
```

## Use instead
```json
{"name": "create_refund", "description": "Refunds part or all of one payment; returns the refund id.",
 "inputSchema": {"type": "object",
                 "properties": {"amount": {"type": "integer",
                                           "description": "Amount to refund, in cents (환불 금액, 센트)"}}}}
```

## Fix safety
No fix: only the author knows what the value means.
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import identifier_words
from ...model import Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._common import property_path, resolve_local, text_of

# Pairs whose halves explain each other; the first needs no described parent.
_ALWAYS_PAIRS = (frozenset({"latitude", "longitude"}), frozenset({"lat", "lng"}), frozenset({"lat", "lon"}),
                 frozenset({"owner", "repo"}))
# Free prose the model writes in its own words: the name is the whole instruction.
_PROSE = frozenset("title body content text message comment note subject summary reason explanation".split())
# Names that leave open what to send (which id, which unit, which of several meanings): a property named so
# needs its description, a warning.  A name that says everything (`invoice_id`, `query`, `repo`) is info.
_AMBIGUOUS = frozenset("""
id ids key keys type types kind mode scope format level depth target value values data options opts flags flag
filter filters status state ts amt qty num n k q t v code ref session handle token pid context input output args
params payload spec expression expr selector range unit units precision resolution weight score threshold
""".split())
# Plain where they stand: the id or value of the object that holds them, or of the tool's one object.
_PLAIN_BY_PLACE = frozenset({"id", "ids", "value", "values"})
# The first word of an id that names a handle the server made (which call returned it?): `sessionId`.
_HANDLES = frozenset("session process run job task request operation execution thread connection terminal tab "
                     "element node instance transaction lease lock".split())
# Quantities whose unit the name must carry: `timeout` in seconds or milliseconds?
_UNITLESS = frozenset("timeout delay interval duration ttl age wait period retention window size frequency "
                      "amount price cost rate radius distance".split())
_UNIT_WORDS = frozenset("ms millis milliseconds sec secs second seconds s min mins minute minutes hour hours h "
                        "day days bytes byte kb mb gb kib mib gib px pixels percent pct cents usd m km meters "
                        "metres miles".split())
# Pagination parameters: their meaning is the convention itself.
_PAGINATION = frozenset("page perpage pagesize offset limit cursor startcursor nextcursor pagetoken maxresults "
                         "maxcount numresults".split())
# A name that says the same as its `format`: `url` with "uri", `email` with "email".
_FORMAT_NAMES = {"uri": ("url", "uri", "link", "href"), "url": ("url", "uri", "link", "href"), "email": ("email",),
                 "date": ("date",), "date-time": ("datetime", "timestamp", "time"), "uuid": ("uuid", "id"),
                 "hostname": ("host", "hostname"), "ipv4": ("ip",), "ipv6": ("ip",)}
_DESCRIBED_PAIRS = (frozenset({"from", "to"}), frozenset({"x", "y"}), frozenset({"width", "height"}),
                    frozenset({"min", "max"}), frozenset({"start", "end"}), frozenset({"key", "value"}),
                    frozenset({"name", "value"}))
# One-word boolean names that say what they switch on.
_PLAIN_FLAGS = frozenset("""
recursive verbose force headless all async archived enabled disabled private public draft hidden strict
overwrite append sync exact global quiet watch follow previous readonly
""".split())


def _readable(values: list) -> bool:
    """Enum values a model reads as words: `ascending`, `in_progress`, `image/png` (not `A1`, `SVC_PREM`)."""
    strings = [v for v in values if isinstance(v, str)]
    return len(strings) == len(values) and all(sum(c.isalpha() for c in v) >= 2 and
                                               (not v.isupper() or _spoken_capitals(v)) for v in strings)


def _spoken_capitals(value: str) -> bool:
    """Capitals a model reads as words (`BUILT_IN`, `CUSTOM`), not codes (`SVC_PREM`): every part has a vowel."""
    parts = [p for p in re.split(r"[_\-\s]+", value) if p]
    return bool(parts) and all(any(c in "AEIOUY" for c in p) for p in parts)


def _described_container(schema: dict) -> bool:
    """An array of objects (or an object) whose every property is described: the parts say what the whole holds."""
    target = schema.get("items") if schema.get("type") == "array" else schema
    if not isinstance(target, dict):
        return False
    properties = target.get("properties")
    # an object of one described key says it all; a list of such objects needs more than one to go by
    least = 2 if target is not schema else 1
    return (isinstance(properties, dict) and len(properties) >= least
            and all(isinstance(p, dict) and text_of(p) for p in properties.values()))


def _values_carried(schema: dict) -> bool:
    """A const, a pattern or an enum of readable words (or one value) says what goes in, in the schema
    itself or in every branch of its `anyOf`/`oneOf` (`kind: anyOf [enum of words, null]`)."""
    if "const" in schema or "pattern" in schema:
        return True
    values = schema.get("enum")
    if isinstance(values, list) and bool(values) and (len(values) == 1 or _readable(values)):
        return True
    for keyword in ("anyOf", "oneOf"):
        branches = [b for b in schema.get(keyword) or () if isinstance(b, dict) and b.get("type") != "null"]
        if branches and all(_values_carried(b) for b in branches):
            return True
    return False


def _accepts_only_empty(schema: dict) -> bool:
    """An object closed with no properties: `{}` is its only value, so there is nothing to describe."""
    return (schema.get("type") == "object" and schema.get("additionalProperties") is False
            and not schema.get("properties") and not schema.get("patternProperties"))


def meaning_carried(node: SchemaNode) -> bool:
    """Whether the schema itself says what the property means, so a description would only repeat it."""
    schema = node.schema
    if _values_carried(schema):
        return True
    items = schema.get("items")
    if schema.get("type") == "array" and isinstance(items, dict) and _values_carried(items):
        return True  # `formats: ["markdown", "html", …]`, a list of domains with a pattern
    key = node.key if isinstance(node.key, str) else ""
    words = identifier_words(key)
    if schema.get("type") == "boolean" and (len(words) >= 2 or (words and words[0] in _PLAIN_FLAGS)):
        return True
    if "".join(words) in _PAGINATION and schema.get("type") in ("integer", "number", "string"):
        return True
    if len(words) == 1 and words[0] in _PROSE and schema.get("type") == "string":
        return True
    declared_format = schema.get("format")
    if isinstance(declared_format, str) and any(w in _FORMAT_NAMES.get(declared_format, ()) for w in words):
        return True
    if _described_container(schema):
        return True
    parent = node.parent
    siblings = parent.schema.get("properties") if parent is not None else None
    if isinstance(siblings, dict) and key:
        lowered = key.lower()
        names = {k.lower() for k in siblings if isinstance(k, str)}
        for pair in _ALWAYS_PAIRS:
            if lowered in pair and pair <= names:
                return True
        described = parent is not None and (text_of(parent.schema) or (
            parent.parent is not None and parent.parent.kind is NodeKind.PROPERTY and text_of(parent.parent.schema)))
        for pair in _DESCRIBED_PAIRS:
            if lowered in pair and pair <= names and described:
                return True
    return False


def _described_elsewhere(schema: dict, tool: ToolContract) -> bool:
    """A `$ref` target or a composition branch may carry the description."""
    target = resolve_local(tool, schema.get("$ref"))
    if target is not None and text_of(target):
        return True
    if "$ref" in schema and target is None:
        return True  # unresolvable here: give it the benefit of the doubt (S005 reports bad refs)
    for keyword in ("allOf", "anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list):
            for branch in branches:
                if not isinstance(branch, dict):
                    continue
                if text_of(branch) or text_of(resolve_local(tool, branch.get("$ref")) or {}):
                    return True
    return False


def _documented_in_tool_description(node: SchemaNode, tool: ToolContract) -> str | None:
    """The line of the tool description that documents a top-level property by name, as a list entry or a
    term (`- file_path: Path to the file`, `'offset' (start line, default: 0)`), shortened; or None."""
    text = tool.description
    key = node.key
    parent = node.parent
    if not isinstance(text, str) or not isinstance(key, str) or key not in text or parent is None or not parent.is_root:
        return None
    term = re.compile(r"(?:^|\n)[ \t]*(?:[-*•][ \t]*)?[`'\"]?" + re.escape(key) + r"[`'\"]?[ \t]*(?:[:=(—–]|-[ \t])")
    found = term.search(text)
    if found is None:
        return None
    line = text[found.start():].strip().split("\n", 1)[0].strip()
    return line if len(line) <= 80 else line[:79] + "…"


def ambiguous_name(node: SchemaNode, tool: ToolContract) -> bool:
    """Whether the property's name leaves open what to send: an abbreviation, a word of several meanings, an
    id of a handle the server made, or a quantity without its unit.  Only at the top level: inside an
    object its holder and neighbours give the context (judged marginal there).  An object or array is not:
    what it holds is in its parts.  A bare `id` or `value` is, unless the tool description speaks of it
    (`by page ID`)."""
    words = identifier_words(node.key) if isinstance(node.key, str) else ()
    if not words or node.schema.get("type") in ("object", "array", None):
        return False  # a container says it in its parts; an untyped property's defect is its type (D004)
    if node.parent is None or not node.parent.is_root:
        return False
    if len(words) == 1 and words[0] in _PLAIN_BY_PLACE:
        return not (isinstance(tool.description, str) and words[0].rstrip("s") in tool.description.lower())
    if len(words) == 1 and (words[0] in _AMBIGUOUS or len(words[0]) <= 2):
        return True
    if words[-1] in ("id", "ids") and words[0] in _HANDLES:
        return True
    declared = node.schema.get("type")
    return (declared in ("integer", "number") and any(w in _UNITLESS for w in words)
            and not any(w in _UNIT_WORDS for w in words))


class MissingPropertyDescription(Rule):
    code = "D003"
    name = "missing-property-description"
    severity = Severity.WARNING
    node_kinds = frozenset({NodeKind.PROPERTY})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if text_of(schema) or _described_elsewhere(schema, tool) or meaning_carried(node) or \
                _accepts_only_empty(schema):
            return
        if unused_definition(tool, node, ctx):
            return
        path = property_path(node)
        what = "an empty description" if "description" in schema else "no description"
        title = text_of(schema, "title")
        note = f" (only the title '{title}')" if title else ""
        container = schema.get("type") in ("object", "array") or "properties" in schema or "items" in schema
        advice = ("say what it holds and when to send it" if container
                  else "say what value it expects (meaning, format, unit, example)")
        # a name that says what to send makes the description a nicety (info); one that leaves it open, a defect
        severity = None if ambiguous_name(node, tool) else Severity.INFO
        documented = _documented_in_tool_description(node, tool)
        if documented is not None:
            yield Finding(node.pointer, (
                f"property '{path}' has {what}{note}, but the tool description documents it ('{documented}'); move "
                f"that text into the property's description, where a model filling in '{path}' reads it and where "
                f"hosts that shorten tool descriptions keep it"),
                Fix(f"move the tool description's text about '{path}' into its description", safe=False),
                Severity.INFO)  # the model reads it already: moving it is tidying, not a defect
            return
        yield Finding(node.pointer, f"property '{path}' has {what}{note}; {advice}",
                      Fix(f"add a description to '{path}'", safe=False), severity)
