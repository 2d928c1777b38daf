"""unstructured-error (R001)

## What it does
Reads the source of the function bound to a tool and reports the failures the
model could not act on:
- `raise ValueError(...)` (and the other built-in exceptions that mean "your
  input is wrong" or "this is a bug") in the function's own body: the model
  gets INTERNAL_ERROR with no code, no field and no next step;
- `raise ToolError("CODE", ...)` with a business code the contract's `errors`
  does not declare (the standard codes of the runtime taxonomy need no
  declaration).

Timeouts and connection errors are not reported: the gate maps them to
UPSTREAM_TIMEOUT / UPSTREAM_UNAVAILABLE, which are structured.  A `raise` inside
a `try` whose handler catches that exception is not reported either.

It needs the function, so it runs at registration in a `Toolbox` (a warning:
the tool is registered and the findings are kept in `box.diagnostics`), and
through `check_binding(contract, fn)`.  It is not in the file linter's
registry (`RULES = ()`).

## Why is this bad?
An unstructured failure reaches the model as "internal error": it cannot tell
a typo in an order id from an outage, so it retries the identical call or
gives up.  An undeclared code is returned, but no client, test or
documentation knows it exists.

## Example
```json
{"name": "get_order", "description": "One order by its id.",
 "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}
```
```python
def get_order(order_id: str) -> dict:
    if not order_id.startswith("ord_"):
        raise ValueError("bad id")
    return {}
```

## Use instead
```json
{"name": "get_order", "description": "One order by its id.",
 "inputSchema": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]},
 "errors": [{"code": "ORDER_NOT_FOUND", "retryable": false, "userAction": "check_order_id"}]}
```
```python
def get_order(order_id: str) -> dict:
    if not order_id.startswith("ord_"):
        raise ToolError("ORDER_NOT_FOUND", "No order with that id.", user_action="check_order_id")
    return {}
```

## Fix safety
Choosing a code and a message is the author's decision; nothing is changed
automatically.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import textwrap
from collections.abc import Callable, Iterator
from typing import Any

from ...model import Diagnostic, Severity, ToolContract
from ..base import Rule

CODE = "R001"
NAME = "unstructured-error"
SEVERITY = Severity.WARNING

# exceptions that say "bad input" or "bug"; the gate can only call them INTERNAL_ERROR
UNSTRUCTURED = frozenset({
    "Exception", "ValueError", "TypeError", "KeyError", "IndexError", "LookupError", "RuntimeError",
    "AssertionError", "NotImplementedError", "AttributeError", "PermissionError", "FileNotFoundError",
    "ArithmeticError", "ZeroDivisionError", "UnicodeError",
})


# the runtime taxonomy (docs/runtime.md); runtime/errors.py's CODES must list the same
# codes (a test checks), kept here because rules sit below the runtime and never import it
STANDARD_CODES = frozenset({
    "INVALID_ARGUMENTS_JSON", "VALIDATION_ERROR", "UNKNOWN_TOOL", "REPEATED_INVALID_CALL",
    "IDEMPOTENCY_KEY_REQUIRED", "IDEMPOTENCY_IN_PROGRESS", "IDEMPOTENCY_KEY_REUSED", "CONFIRMATION_REQUIRED",
    "CONFIRMATION_MISMATCH", "CONFIRMATION_EXPIRED", "CONFIRMATION_USED", "OUTCOME_UNKNOWN",
    "AUTH_REQUIRED", "PERMISSION_DENIED", "SESSION_EXPIRED",
    "UPSTREAM_UNAVAILABLE", "UPSTREAM_TIMEOUT", "RATE_LIMITED", "PERSISTENCE_ERROR", "INTERNAL_ERROR",
    "OUTPUT_CONTRACT_VIOLATION", "UPSTREAM_TOOL_ERROR", "UPSTREAM_ANSWER_TOO_LARGE",
})


def declared_codes(contract: ToolContract) -> set[str]:
    errors = contract.extra.get("errors")
    codes: set[str] = set()
    if isinstance(errors, list):
        for entry in errors:
            if isinstance(entry, dict) and isinstance(entry.get("code"), str):
                codes.add(entry["code"])
            elif isinstance(entry, str):
                codes.add(entry)
    return codes


def check_binding(contract: ToolContract, fn: Callable[..., Any]) -> list[Diagnostic]:
    """Unstructured raises and undeclared ToolError codes in `fn`'s own source; [] when it has no source."""
    try:
        lines, start = inspect.getsourcelines(inspect.unwrap(fn))
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return []
    declared = declared_codes(contract)
    out: list[Diagnostic] = []
    function = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if function is None:
        return []
    for raised, caught in _raises(function.body, frozenset()):
        name = _exception_name(raised)
        if name is None or _is_caught(name, caught):
            continue
        line = start + getattr(raised, "lineno", 1) - 1
        if name in UNSTRUCTURED:
            out.append(_diag(contract, f"raises {name} (line {line}): the model gets "
                                       f"INTERNAL_ERROR with nothing to act on; raise ToolError(code, message) with a "
                                       f"code declared in the contract's 'errors'"))
        elif name == "ToolError":
            code = _first_string(raised)
            if code is not None and code not in declared and code not in STANDARD_CODES:
                out.append(_diag(contract, f"raises ToolError('{code}') but '{code}' is not declared in the "
                                           f"contract's 'errors'; declare it (errors=[…] or the contract file)"))
    return out


def _raises(body: list[ast.stmt], caught: frozenset[str]) -> Iterator[tuple[ast.expr, frozenset[str]]]:
    """(raised expression, names caught around it) for every raise, not descending into nested functions."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(stmt, ast.Raise) and stmt.exc is not None:
            yield stmt.exc, caught
            continue
        if isinstance(stmt, (ast.Try, ast.TryStar)):
            names = set(caught)
            for handler in stmt.handlers:
                names |= _handler_names(handler)
            yield from _raises(stmt.body, frozenset(names))
            for part in (*[h.body for h in stmt.handlers], stmt.orelse, stmt.finalbody):
                yield from _raises(part, caught)
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from _raises(inner, caught)
        if isinstance(stmt, ast.Match):
            for case in stmt.cases:
                yield from _raises(case.body, caught)


def _is_caught(name: str, caught: frozenset[str]) -> bool:
    """Whether a handler around the raise catches it: by name, or by a built-in base class."""
    if name in caught or "BaseException" in caught:
        return True
    raised = getattr(builtins, name, None)
    if not (isinstance(raised, type) and issubclass(raised, BaseException)):
        return "Exception" in caught  # a project's own exception: any broad handler catches it
    for handler in caught:
        base = getattr(builtins, handler, None)
        if isinstance(base, type) and issubclass(raised, base):
            return True
    return False


def _handler_names(handler: ast.ExceptHandler) -> set[str]:
    if handler.type is None:
        return {"BaseException"}
    nodes = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return {n for n in (_name(node) for node in nodes) if n}


def _exception_name(node: ast.expr) -> str | None:
    return _name(node.func if isinstance(node, ast.Call) else node)


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _first_string(call: ast.expr) -> str | None:
    if isinstance(call, ast.Call):
        if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
            return call.args[0].value
        for keyword in call.keywords:
            value = keyword.value
            if keyword.arg == "code" and isinstance(value, ast.Constant) and isinstance(value.value, str):
                return value.value
    return None


def _diag(contract: ToolContract, message: str) -> Diagnostic:
    return Diagnostic(CODE, NAME, SEVERITY, f"{contract.name} {message}", tool=contract.name,
                      file=contract.origin.file, pointer="/errors")


class UnstructuredError(Rule):
    """The catalogue entry: the check itself is `check_binding`, run where a function is bound."""

    code = CODE
    name = NAME
    severity = SEVERITY
    binding_only = True
