"""default-mismatch (R003)

## What it does
Compares a tool's contract with the Python function bound to it (`box.add`,
`@box.tool`) and reports, for each top-level property:
- the schema declares a `default` and the function's parameter has none, or a
  different one;
- the function's parameter has a default (other than `None`) that the schema
  does not declare, on a property the schema makes optional;
- the schema makes the property optional (not in `required`) while the
  function's parameter has no default.

It needs the function, so it runs where a function is bound: at registration
in a `Toolbox` (an error refuses the tool) and, later, when `toolclause lint`
imports a Python module holding a `Toolbox`.  It cannot run on contract files
alone, so it is not in the file linter's registry (`RULES = ()`); call
`check_binding(contract, fn)`.

## Why is this bad?
The model reads the schema's default and leaves the argument out expecting that
value; the function then uses its own.  A call the model believes asks for
`"metric"` runs with `"imperial"`, and nothing reports it.  An optional
property with no function default is worse: every call that leaves it out
fails inside the function.

## Example
```json
{"name": "get_weather", "description": "Current weather for one city.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string"},
                                "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"}},
                 "required": ["city"]}}
```
```python
def get_weather(city: str, units: str = "imperial") -> dict: ...
```

## Use instead
```json
{"name": "get_weather", "description": "Current weather for one city.",
 "inputSchema": {"type": "object",
                 "properties": {"city": {"type": "string"},
                                "units": {"type": "string", "enum": ["metric", "imperial"], "default": "metric"}},
                 "required": ["city"]}}
```
```python
def get_weather(city: str, units: str = "metric") -> dict: ...
```

## Fix safety
Which default is right is the author's decision, so nothing is changed
automatically; the message names both values.
"""

from __future__ import annotations

import enum
import inspect
import json
from collections.abc import Callable
from typing import Any

from ...model import Diagnostic, Severity, ToolContract, escape_token
from ..base import Rule

CODE = "R003"
NAME = "default-mismatch"
SEVERITY = Severity.ERROR
_MISSING = object()


def check_binding(contract: ToolContract, fn: Callable[..., Any],
                  supplied: frozenset[str] = frozenset()) -> list[Diagnostic]:
    """Defaults of `contract`'s input schema against `fn`'s; `supplied` names parameters the gate fills itself."""
    schema = contract.input_schema
    if not isinstance(schema, dict) or not isinstance(schema.get("properties"), dict):
        return []
    try:
        parameters = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return []
    required = listed if isinstance(listed := schema.get("required"), list) else []
    out: list[Diagnostic] = []
    for name, prop in schema["properties"].items():
        param = parameters.get(name)
        if param is None or name in supplied or not isinstance(prop, dict):
            continue  # taken by **kwargs, or not bound: the registration reports that separately
        pointer = f"/inputSchema/properties/{escape_token(name)}"
        has_default = param.default is not inspect.Parameter.empty
        if "default" in prop:
            if not has_default:
                out.append(_diag(contract, pointer + "/default",
                                 f"'{name}': the schema's default is {_show(prop['default'])} but the function's "
                                 f"parameter has no default; give it `= {_show(prop['default'])}`"))
            elif not _same(prop["default"], param.default):
                out.append(_diag(contract, pointer + "/default",
                                 f"'{name}': the schema's default is {_show(prop['default'])} but the function's is "
                                 f"{_show(param.default)}; make them one value"))
        elif has_default and param.default is not None and name not in required:
            # (a required property always arrives, so the function's default never applies)
            out.append(_diag(contract, pointer,
                             f"'{name}': the function's default is {_show(param.default)} but the schema declares "
                             f"no default; add \"default\": {_show(param.default)} so the model knows"))
        elif not has_default and name not in required:
            out.append(_diag(contract, pointer,
                             f"'{name}' is optional in the schema but the function's parameter has no default: "
                             f"a call without it fails; add it to 'required' or give the parameter a default"))
    return out


def _diag(contract: ToolContract, pointer: str, message: str) -> Diagnostic:
    return Diagnostic(CODE, NAME, SEVERITY, message, tool=contract.name, file=contract.origin.file, pointer=pointer)


def _plain(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _same(schema_value: Any, python_value: Any) -> bool:
    python_value = _plain(python_value)
    if isinstance(schema_value, bool) or isinstance(python_value, bool):
        return type(schema_value) is type(python_value) and schema_value == python_value
    try:
        return json.dumps(schema_value, sort_keys=True) == json.dumps(python_value, sort_keys=True) or \
            schema_value == python_value
    except (TypeError, ValueError):
        return schema_value == python_value


def _show(value: Any) -> str:
    try:
        text = json.dumps(_plain(value), ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


class DefaultMismatch(Rule):
    """The catalogue entry: the check itself is `check_binding`, run where a function is bound."""

    code = CODE
    name = NAME
    severity = SEVERITY
    binding_only = True
