"""unknown-keyword (S006)

## What it does
Finds keys of a schema node that no JSON Schema draft (nor a common extension
such as OpenAPI's `nullable` or Gemini's `propertyOrdering`) defines, but that
are close to one that exists: `require`, `properites`, `enums`, `minimun`,
`additionalProperty`, `max_length`, `Description`.  It names the keyword meant.
Other unknown keys (vendor extensions such as `example_value`, `x-*` keys) are
left alone, and property names inside `properties` are never keywords.

## Why is this bad?
Validators ignore keywords they do not know, so the misspelt constraint is
silently dropped: `require` makes every argument optional, `enums` lets any
string through, `minimun` allows any number.

## Example
```json
{"name": "set_temperature", "description": "Set the thermostat target temperature in degrees Celsius.",
 "inputSchema": {"type": "object",
                 "properties": {"celsius": {"type": "number", "minimun": 5, "maximum": 30},
                                "mode": {"type": "string", "enums": ["heat", "cool"]}},
                 "require": ["celsius"]}}
```

## Use instead
```json
{"name": "set_temperature", "description": "Set the thermostat target temperature in degrees Celsius.",
 "inputSchema": {"type": "object",
                 "properties": {"celsius": {"type": "number", "minimum": 5, "maximum": 30},
                                "mode": {"type": "string", "enum": ["heat", "cool"]}},
                 "required": ["celsius"]}}
```

## Fix safety
The keyword meant is a guess from spelling, and renaming it turns on a
constraint that was never enforced, so `--fix` does not apply it.
"""

from __future__ import annotations

from typing import Iterable

from rapidfuzz.distance import OSA

from ...model import Edit, Fix, Severity, ToolContract, escape_token
from ...schema.keywords import (
    GEMINI_SNAKE_CASE, KNOWN_KEYWORDS, STANDARD_KEYWORDS, fits_keyword, is_known_keyword,
)
from ...schema.walk import SchemaNode
from ...suggest import closest
from ..base import Finding, LintContext, Rule
from ._common import is_openapi_schema

# Suggest only standard keywords, and only for what reads as a slip of the keyboard: an
# unknown key is usually a deliberate extension (`required_if`, `contentType`), so a loose
# guess would be a false alarm.
_CANDIDATES = sorted(STANDARD_KEYWORDS | {"nullable", "example"})
_CUTOFF = 80.0
_guesses: dict[str, str | None] = {}


def _fold(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def is_misspelling(key: str, keyword: str) -> bool:
    """A typo, a case or separator slip, or the plural/singular of the keyword — not a longer
    word built on it (`required_if`, `ifThen`, `examplesList`, `multiple` for `multipleOf`)."""
    a, b = _fold(key), _fold(keyword)
    if a == b:
        return True
    if a + "s" == b or b + "s" == a or a.endswith("y") and a[:-1] + "ies" == b or b.endswith("y") and b[:-1] + "ies" == a:
        return True
    shorter, longer = sorted((a, b), key=len)
    if (longer.startswith(shorter) or longer.endswith(shorter)) and len(longer) - len(shorter) >= 2:
        return False
    return OSA.distance(a, b) <= (1 if len(b) <= 6 else 2)


def intended_keyword(key: str) -> str | None:
    """The keyword an unknown key most likely misspells, or None (memoised: keys repeat a lot)."""
    if key not in _guesses:
        if len(_guesses) > 50_000:
            _guesses.clear()
        meant = closest(key, _CANDIDATES, cutoff=_CUTOFF) if len(key) >= 3 else None
        _guesses[key] = meant if meant is not None and is_misspelling(key, meant) else None
    return _guesses[key]


class UnknownKeyword(Rule):
    code = "S006"
    name = "unknown-keyword"
    severity = Severity.WARNING
    all_nodes = True
    roles = frozenset({"input", "output"})

    def skips(self, keys: tuple, declared: object, kind: object, role: str) -> bool:
        # nodes whose keys are all known are most nodes: the engine then never calls check_node
        return KNOWN_KEYWORDS.issuperset(keys)

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        unknown = schema.keys() - KNOWN_KEYWORDS  # one C-level set operation for the common case
        if not unknown:
            return
        for key in [k for k in schema if k in unknown]:  # in document order
            if not isinstance(key, str) or is_known_keyword(key):
                continue
            meant = intended_keyword(key)
            if meant is None or meant in schema or not fits_keyword(meant, schema[key]):
                continue  # the real keyword is there too, or the value could not be meant for it
            if key in GEMINI_SNAKE_CASE and is_openapi_schema(tool, node.role):
                continue  # Gemini's protobuf JSON accepts snake_case field names
            pointer = f"{node.pointer}/{escape_token(key)}"
            message = (f"'{key}' is not a JSON Schema keyword, so validators ignore it; "
                       f"did you mean '{meant}'?")
            yield Finding(pointer, message, Fix(
                f"rename '{key}' to '{meant}'", safe=False,
                edits=(Edit("set", f"{node.pointer}/{escape_token(meant)}", schema[key]), Edit("remove", pointer))))
