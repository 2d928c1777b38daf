"""counted-as-number (T002)

## What it does
Reports a property typed `"number"` whose name says it counts or indexes whole
things, so that `2.5` validates; `"type": "integer"` says what is meant.

It reads names that count or index whole things — `page`, `page_size`, `per_page`, `limit`, `count`, `max_results`,
`top_k`, `offset`, `retries`, `num_*`, `*_count`, `depth`, `index`,
`line_number`, `port`, `year`, `issue_number`, an id such as `page_id`.  A
name that may also be a measure (`limit`, `offset`, `depth`) counts only where
its description says what it counts.

Left alone: names that hold measures rather than counts (amounts, prices,
ratios, durations, temperatures, coordinates, scores, percentages, weights,
sizes), and a property whose description allows fractions ("fractional pages",
"0.5 for half") or gives it a unit of measure ("depth in meters").

## Why is this bad?
JSON Schema's `number` accepts any decimal.  A model that reads `"page":
{"type": "number"}` may send `1.5`; the schema lets it through and the function
fails (or silently truncates) on a value the contract promised it would never
see.  `integer` says what the function means and is enforced.  Schemas
generated from TypeScript often say `number` because zod's `z.number()` does;
`z.number().int()` gives `integer`.

## Example
```json
{"name": "list_orders", "description": "List the account's orders, newest first.",
 "inputSchema": {"type": "object",
                 "properties": {"page": {"type": "number", "minimum": 1, "description": "Page to return"}},
                 "additionalProperties": false}}
```

## Use instead
```json
{"name": "list_orders", "description": "List the account's orders, newest first.",
 "inputSchema": {"type": "object",
                 "properties": {"page": {"type": "integer", "minimum": 1, "description": "Page to return"}},
                 "additionalProperties": false}}
```

## Fix safety
Safe, and applied by `--fix`, when every value the property itself states
(`default`, `examples`, `enum`, `const`, `minimum`, `maximum` and the exclusive
bounds, `multipleOf`) is a whole number: `"type": "integer"` then rejects only
fractions.  Otherwise the finding is only a suggestion (and reported as info):
the fractional value it names would no longer validate.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from ... import _lazy_re as re
from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule, original_value
from ._prose import quoted, sentences

_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")

# a whole name (tokens joined by "_") → what it is
_WHOLE_NAMES = {
    "page": "a page number", "pageno": "a page number", "pagenum": "a page number",
    "page_number": "a page number", "page_index": "a page index", "page_idx": "a page index",
    "page_size": "a page size", "per_page": "a page size", "pagesize": "a page size", "perpage": "a page size",
    "limit": "a limit on a count", "count": "a count", "offset": "an offset", "skip": "an offset",
    "start_index": "an index", "start_at": "an index", "top_k": "a count", "topk": "a count", "top_n": "a count",
    "topn": "a count",
    "retries": "a retry count", "max_retries": "a retry count", "retry_count": "a retry count",
    "num_retries": "a retry count", "attempts": "an attempt count", "max_attempts": "an attempt count",
    "depth": "a depth", "max_depth": "a depth", "index": "an index", "idx": "an index",
    "line": "a line number", "line_number": "a line number", "lineno": "a line number",
    "start_line": "a line number", "end_line": "a line number", "from_line": "a line number",
    "to_line": "a line number", "first_line": "a line number", "last_line": "a line number",
    "port": "a port number", "year": "a year", "pid": "a process id",
    "replicas": "a replica count", "batch_size": "a batch size", "chunk_size": "a chunk size",
    "top": "a limit on a count",
}
# `max_<word>` / `<word>_limit` / `num_<word>` count these; `max_price`, `price_limit` do not
_COUNTED = frozenset("""
results result items item rows row records record entries entry pages hits matches documents docs files lines
messages comments issues users tokens chars characters words sentences paragraphs passages sections chunks
candidates suggestions events logs nodes edges children levels depth retries attempts tries redirects steps
iterations epochs workers threads connections commits repos repositories tags labels images videos articles papers
citations references links urls tweets posts products tables columns queries answers questions choices
""".split())
_ORDINALS = frozenset("issue pull pr line page row column col step chapter episode season week order position "
                      "rank item build run job revision block".split())
# `<word>_index` indexes these; `price_index`, `uv_index` are measures, and `order_index`, `position` may be
# fractional on purpose (an item sorted between two others)
_INDEXED = frozenset("issue pull pr line page row column col step chapter episode season week item build run job "
                     "revision block start end from to tab slide sheet element cell match occurrence result message "
                     "node child array list char character word token chunk paragraph section frame track layer "
                     "zero one".split())
# a token here makes the property a measure, whatever else its name says
_MEASURES = frozenset("""
amount price cost fee rate ratio fraction percent percentage pct share weight height width length size radius
distance duration time timeout delay interval seconds secs ms millis milliseconds minutes mins hours hrs days
temperature temp lat lng lon latitude longitude coord coordinate x y z score threshold probability prob
confidence similarity factor multiplier scale zoom speed volume budget balance salary tax discount value level
version frequency hz ppm bpm quality opacity alpha gamma beta lambda sigma mean avg average
""".split())
_MEASURE_WORDS = r"|\bunits?\b|单位|단위|/\s*(?:ml|l|kg|g|m|s|h)\b|厘米|毫米|公里|米|千克|克|秒|分钟|小时|摄氏"
_FRACTIONS = re.compile(
    r"\bfraction(?:al|s)?\b|\bdecimals?\b|\bfloat(?:ing)?\b|\bhalf\b|\bpartial\b|(?<![\w.])\d*\.\d+(?![\w.])"
    r"|\b(?:meters?|metres?|km|kilomet\w+|miles?|feet|foot|ft|inch(?:es)?|cm|mm|pixels?|px|percent\w*|"
    r"seconds?|minutes?|hours?|ms|milliseconds?|degrees?|kg|grams?|pounds?|lbs?|time\s*zones?|utc|gmt)\b"
    r"|%|소수|분수|미터|초\b|퍼센트" + _MEASURE_WORDS,
    re.IGNORECASE)
# a name that also names a measure (`limit` of a budget, `offset` of a sensor, `depth` of a hole) counts only where
# the description (or, for a depth, the tool's name) says what it counts
_COUNTING = re.compile(
    r"\b(?:number|count|results?|items?|records?|rows?|entries|documents?|docs|messages?|objects?|keys?|files?|lines?|"
    r"pages?|users?|issues?|events?|logs?|traces?|channels?|tables?|projects?|members?|how\s+many|per\s+page|return|"
    r"returned|fetch|retrieve|list|show|max(?:imum)?|up\s+to|at\s+most|paginat\w*|skip|skipped|first|start(?:ing)?|"
    r"zero-based|[01]-based|index)\b|数量|个数|条数|개수|건수|페이지|分页|跳过|结果|결과", re.IGNORECASE)
_NOT_COUNTING = re.compile(r"\b(?:budget|cost|price|spend\w*|money|amount(?!\s+of\s+(?:records|results|items|rows|"
                           r"entries|data))|threshold|alert|trigger\w*|quota|rate|usage|correction|calibrat\w*)\b"
                           r"|预算|金额|阈值|校正|예산|금액", re.IGNORECASE)
_STRUCTURE = re.compile(r"\b(?:levels?|tree|nest\w*|recurs\w*|child\w*|hierarch\w*|director\w*|folders?|"
                        r"subfolders?|subdirector\w*|subtasks?|subpages?|expan\w*|expand|crawl\w*|travers\w*|links?|hops?|snapshot|graph|depth\s+of\s+"
                        r"(?:children|the\s+tree|expansion|search|recursion))\b|层级|层次|目录|계층|하위|단계",
                        re.IGNORECASE)
_AMBIGUOUS = frozenset({"limit", "offset", "skip", "depth", "max_depth", "top"})
_WHOLE_KEYS = ("default", "enum", "const", "examples", "example", "minimum", "maximum", "exclusiveMinimum",
               "exclusiveMaximum", "multipleOf")


def tokens(name: str) -> list[str]:
    """'maxResults' → ['max', 'results']; 'top_k' → ['top', 'k']."""
    return [t.lower() for t in _TOKEN.findall(name)]


def counted_by_name(name: str) -> str | None:
    """What the name says the property counts or indexes ('a page number'), or None."""
    words = tokens(name)
    if not words:
        return None
    joined = "_".join(words)
    if joined in _WHOLE_NAMES:
        return _WHOLE_NAMES[joined]
    if any(w in _MEASURES for w in words):
        return None
    last = words[-1]
    if last in ("id", "ids") or (len(words) == 1 and joined.endswith("id") and joined in ("pid", "uid", "gid")):
        return "an id"
    if len(words) >= 2:
        first = words[0]
        if last == "count" or (first in ("num", "n", "number") and words[1] != "of" and words[1] in _COUNTED):
            return "a count"
        if first in ("number", "num", "n", "count") and len(words) >= 3 and words[1] == "of" and words[2] in _COUNTED:
            return "a count"
        if first == "max" and len(words) == 2 and words[1] in _COUNTED:
            return "a limit on a count"
        # `max_num_results`, `max_preview_rows_per_table`, `limit_per_table`: a limit on what is counted before
        # "per"
        counted = words[:words.index("per")] if "per" in words else words
        if first in ("max", "limit") and len(words) <= 5 and (
                counted[-1] in _COUNTED or counted == ["limit"] or counted[-2:] == ["num", counted[-1]]):
            return "a limit on a count"
        if last == "limit" and len(words) == 2 and first in _COUNTED:
            return "a limit on a count"
        if last in ("index", "idx") and first in _INDEXED:
            return "an index"
        if last in ("number", "num", "no") and len(words) == 2 and first in _ORDINALS:
            return f"{'an' if first[0] in 'aeiou' else 'a'} {first} number"
        if last == "year" and len(words) == 2 and first in ("start", "end", "from", "to", "birth", "release",
                                                             "fiscal", "publication", "publish", "model", "tax"):
            return "a year"
        if last == "port" and len(words) == 2:
            return "a port number"
    for first, second in pairwise(words):  # perPage, pageSize, topK written in any case style
        if first + "_" + second in ("per_page", "page_size", "top_k", "top_n") and len(words) <= 3:
            return _WHOLE_NAMES[first + "_" + second]
    return None


def _numbers(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [v for item in value for v in _numbers(item)]
    return [value] if isinstance(value, (int, float)) and not isinstance(value, bool) else []


def fractional_values(schema: dict[str, Any]) -> list[tuple[str, Any]]:
    """The values the property states that are not whole numbers (a default of 2.5, a bound of 0.5)."""
    found: list[tuple[str, Any]] = []
    for key in _WHOLE_KEYS:
        if key in schema:
            found.extend((key, v) for v in _numbers(schema[key]) if isinstance(v, float) and not v.is_integer())
    return found


def _integer_type(declared: Any) -> Any:
    if isinstance(declared, list):
        return ["integer" if t == "number" else t for t in declared]
    return "integer"


class CountedAsNumber(Rule):
    code = "T002"
    name = "counted-as-number"
    severity = Severity.WARNING
    fixable = True
    node_kinds = frozenset({NodeKind.PROPERTY, NodeKind.ITEMS})
    node_types = frozenset({"number"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        declared = schema.get("type")
        key: str | None
        if node.kind is NodeKind.ITEMS:
            # the elements of `assignee_ids`: each an id, named by the array
            parent = node.parent
            if parent is None or parent.kind is not NodeKind.PROPERTY or not isinstance(parent.key, str) or \
                    counted_by_name(parent.key) != "an id" or not node.pointer.endswith("/items"):
                return
            key = parent.key
        else:
            key = node.key
        if key is None or not (declared == "number" or isinstance(declared, list) and "number" in declared
                               and "integer" not in declared and "string" not in declared):
            return
        multiple = schema.get("multipleOf")
        if isinstance(multiple, (int, float)) and not isinstance(multiple, bool) and float(multiple).is_integer():
            return  # multipleOf 1 already admits whole numbers only
        what = counted_by_name(key)
        if what is None:
            return
        description = schema.get("description")
        description = description.strip() if isinstance(description, str) else ""
        if description and _FRACTIONS.search(description):
            return  # "fractional pages", "0.5 for half", "depth in meters": a measure, or fractions on purpose
        if not self._counts(key, description, tool):
            return
        if unused_definition(tool, node, ctx):
            return
        name = key if node.kind is NodeKind.PROPERTY else f"{key}[]"
        fractions = fractional_values(schema)
        # --fix writes where the user wrote "number"; a property a loader built from another shape is left to them
        written = original_value(tool, node.pointer + "/type") == declared
        integer = _integer_type(declared)
        read = f" (the description says: '{quoted(sentences(description)[0])}')" if description else ""
        said = f"'{name}' is typed \"number\" but its name says it is {what}{read}, so a fractional value such as " \
               f"2.5 validates"
        if fractions:
            shown = ", ".join(f"{key} {value}" for key, value in fractions[:3])
            yield Finding(node.pointer,
                          f"{said}; \"type\": \"integer\" would say so, but the property itself states a fraction "
                          f"({shown}): check which is meant",
                          Fix("change \"type\" to \"integer\" and make its stated values whole", safe=False),
                          severity=Severity.INFO)
            return
        yield Finding(node.pointer,
                      f"{said}; use \"type\": \"integer\" (safe: every value the property states is whole)",
                      Fix("change \"type\" from \"number\" to \"integer\"", safe=written,
                          edits=(Edit("set", node.pointer + "/type", integer),) if written else ()))

    @staticmethod
    def _counts(name: str, description: str, tool: ToolContract) -> bool:
        """Whether a name that may also name a measure is used for a count here."""
        joined = "_".join(tokens(name))
        if joined not in _AMBIGUOUS:
            return True
        if joined in ("depth", "max_depth"):
            return bool(_STRUCTURE.search(description) or _STRUCTURE.search(tool.name.replace("_", " ")))
        if not description:
            return True
        return bool(_COUNTING.search(description)) and not _NOT_COUNTING.search(description)
