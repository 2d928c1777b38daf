"""Registration: a function (and optionally a contract) → a `BoundTool`, checked and compiled once.

Two ways in, one result:
- `from_function` — the signature is the contract (signature.py);
- `from_contract` — a contract file/dict/ToolContract is the contract; the
  function must be able to take every property (by name or `**kwargs`) and
  its defaults must be the schema's (R003).

Either way the contract is linted (`lint="error"`: an error-severity
diagnostic refuses the tool; `"warn"`: registered, errors logged; `"off"`:
not linted), the binding rules R001/R003 run, and the input and output
schemas are compiled.  A schema the validator cannot compile always refuses.
"""

from __future__ import annotations

import dataclasses
import inspect
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..linting.config import LintConfig
from ..linting.engine import lint_contracts
from ..model import Diagnostic, Origin, Severity, ToolContract
from ..rules.result import r001_unstructured_error, r003_default_mismatch
from ..schema.normalize import reshaped_by_strict
from ..schema.validators import ARGUMENTS, compile_schema
from .errors import CodeSpec, ToolRegistrationError
from .numbers import integer_plan
from .signature import (
    IDEMPOTENCY_KEY,
    IDEMPOTENCY_KEY_SCHEMA,
    WRAPPED_KEY,
    accepts_any_keyword,
    describe_function,
    output_schema_for,
)

logger = logging.getLogger("toolclause.runtime")

LINT_MODES = ("error", "warn", "off")
IDEMPOTENCY_MODES = (None, "key", "content")
_IMMUTABLE = (str, int, float, bool, type(None))


@dataclass
class BoundTool:
    """A registered tool: its contract, its function and everything the call path needs, precomputed."""

    contract: ToolContract
    fn: Callable[..., Any]
    is_async: bool
    validator: Any
    output_validator: Any | None
    wrapped: bool
    defaults: tuple[tuple[str, Any, bool], ...]      # (name, default, needs a copy per call)
    drop: frozenset[str]                             # keys the gate consumes (idempotency_key)
    reject_unknown: frozenset[str] | None            # names the function takes, when the schema leaves keys open
    converters: Mapping[str, Any] = field(default_factory=dict)
    output_adapter: Any | None = None
    errors: Mapping[str, CodeSpec] = field(default_factory=dict)
    timeout: float | None = None
    idempotency: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    integers: Mapping[str, Any] = field(default_factory=dict)  # whole-number floats made ints here (numbers.py)
    reshaped: bool = False  # the strict export sends some value in another shape: canonicalise every call
    any_object: bool = False  # the output schema accepts every object: a dict of JSON data needs no check

    name: str = ""  # the contract's name, copied: read on every call

    def __post_init__(self) -> None:
        self.name = self.contract.name

    @property
    def mutating(self) -> bool:
        return self.idempotency is not None or bool((self.contract.annotations or {}).get("destructiveHint"))


def annotations_for(read_only: bool | None, destructive: bool | None, idempotent: bool | None,
                    open_world: bool | None, title: str | None) -> dict[str, Any] | None:
    hints = {"title": title, "readOnlyHint": read_only, "destructiveHint": destructive,
             "idempotentHint": idempotent, "openWorldHint": open_world}
    found = {k: v for k, v in hints.items() if v is not None}
    return found or None


def from_function(fn: Callable[..., Any], *, name: str | None, description: str | None, title: str | None,
                  annotations: Mapping[str, Any] | None, idempotency: str | None, errors: Any,
                  timeout: float | None, meta: Mapping[str, Any] | None, lint: str) -> BoundTool:
    _check_idempotency(idempotency)
    tool_name = name or getattr(fn, "__name__", None)
    if not tool_name or tool_name == "<lambda>":
        raise ToolRegistrationError("a lambda needs a name: box.tool(fn, name='…')")
    variadic = _variadic_problems(fn)
    if variadic:
        raise ToolRegistrationError(f"tool '{tool_name}' was not registered" + "".join(f"\n  {p}" for p in variadic))
    try:
        signature = describe_function(fn, skip=frozenset({IDEMPOTENCY_KEY}) if idempotency == "key" else frozenset())
    except Exception as exc:  # pydantic cannot build a schema for some annotation: say which tool
        raise ToolRegistrationError(f"{tool_name}: cannot build a schema from the signature: {exc}") from exc
    schema = signature.input_schema
    if idempotency == "key":
        schema["properties"][IDEMPOTENCY_KEY] = dict(IDEMPOTENCY_KEY_SCHEMA)
        schema.setdefault("required", []).append(IDEMPOTENCY_KEY)
    extra: dict[str, Any] = {}
    if errors:
        extra["errors"] = _errors_list(errors, tool_name)
    origin = Origin(file=f"<python:{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', tool_name)}>",
                    format="mcp")
    contract = ToolContract(name=tool_name, description=description or signature.description, title=title,
                            input_schema=schema, output_schema=signature.output_schema,
                            annotations=dict(annotations) if annotations else None,
                            meta=dict(meta) if meta else None, extra=extra, origin=origin)
    return _bind(contract, fn, idempotency=idempotency, timeout=timeout, lint=lint,
                 converters=signature.converters, output_adapter=signature.output_adapter)


def from_contract(contract: ToolContract, fn: Callable[..., Any], *, idempotency: str | None,
                  timeout: float | None, lint: str) -> BoundTool:
    _check_idempotency(idempotency)
    schema: dict[str, Any] = (contract.input_schema if isinstance(contract.input_schema, dict)
                              else {"type": "object", "properties": {}})
    if idempotency == "key" and IDEMPOTENCY_KEY not in (schema.get("properties") or {}):
        properties = {**(schema.get("properties") or {}), IDEMPOTENCY_KEY: dict(IDEMPOTENCY_KEY_SCHEMA)}
        schema = {**schema, "properties": properties, "required": [*(schema.get("required") or []), IDEMPOTENCY_KEY]}
        contract = dataclasses.replace(contract, input_schema=schema)
    adapter = None
    if contract.output_schema is None:
        # the contract is the source of truth; the return annotation only serialises the result
        adapter = output_schema_for(inspect.signature(fn).return_annotation)[2] if _annotated_return(fn) else None
    return _bind(contract, fn, idempotency=idempotency, timeout=timeout, lint=lint, converters={},
                 output_adapter=adapter)


def _annotated_return(fn: Callable[..., Any]) -> bool:
    try:
        ret = inspect.signature(fn).return_annotation
    except (TypeError, ValueError):
        return False
    return ret is not inspect.Signature.empty and not isinstance(ret, str)


def _variadic_problems(fn: Callable[..., Any]) -> list[str]:
    """`*args` and `**kwargs` in a signature that is the contract: nothing could ever reach them.

    The schema made from the signature lists the named parameters only and refuses
    other keys, and a model passes arguments by name, so both would stay empty forever.
    """
    try:
        parameters = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return []  # describe_function reports a signature it cannot read
    problems = []
    for name, param in parameters.items():
        if param.kind is param.VAR_POSITIONAL:
            problems.append(f"parameter '*{name}' would never receive anything: a tool's arguments are passed "
                            f"by name; declare each argument as a named parameter")
        elif param.kind is param.VAR_KEYWORD:
            problems.append(f"parameter '**{name}' would never receive anything: the schema made from the "
                            f"signature lists only the named parameters and refuses other keys; declare each "
                            f"argument as a named parameter, or register the function under a contract that "
                            f"lists them (box.add(contract, fn))")
    if problems and not any(p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters.values()):
        problems.append("a decorator between @box.tool and the function keeps the function's signature "
                        "with functools.wraps")
    return problems


def _check_idempotency(mode: str | None) -> None:
    if mode not in IDEMPOTENCY_MODES:
        raise ToolRegistrationError(f"idempotency must be 'key', 'content' or None, not {mode!r}")


def _errors_list(errors: Any, tool: str) -> list[dict[str, Any]]:
    out = []
    for entry in errors:
        if isinstance(entry, str):
            out.append({"code": entry})
        elif isinstance(entry, Mapping) and isinstance(entry.get("code"), str):
            out.append(dict(entry))
        else:
            raise ToolRegistrationError(f"{tool}: each declared error is a code or {{code, retryable, userAction, "
                                        f"description}}, not {entry!r}")
    return out


def _declared_errors(contract: ToolContract) -> dict[str, CodeSpec]:
    out: dict[str, CodeSpec] = {}
    entries = contract.extra.get("errors")
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, str):
            entry = {"code": entry}
        if isinstance(entry, Mapping) and isinstance(entry.get("code"), str):
            action = entry.get("userAction")
            action = action if isinstance(action, str) else "contact_support"
            out[entry["code"]] = CodeSpec("business", entry.get("retryable") is True, action)
    return out


def _bind(contract: ToolContract, fn: Callable[..., Any], *, idempotency: str | None, timeout: float | None,
          lint: str, converters: Mapping[str, Any], output_adapter: Any) -> BoundTool:
    if timeout is not None and (not isinstance(timeout, (int, float)) or timeout <= 0):
        raise ToolRegistrationError(f"{contract.name}: timeout must be a positive number of seconds")
    schema: dict[str, Any] = (contract.input_schema if contract.input_schema is not None
                              else {"type": "object", "properties": {}})
    parameters = inspect.signature(fn).parameters
    gate_supplies_key = idempotency == "key" and IDEMPOTENCY_KEY not in parameters
    supplied = frozenset({IDEMPOTENCY_KEY}) if gate_supplies_key else frozenset()
    diagnostics = _lint(contract, lint)
    diagnostics += r003_default_mismatch.check_binding(contract, fn, supplied)
    diagnostics += r001_unstructured_error.check_binding(contract, fn)
    binding_problems = _binding_problems(contract, schema, fn, supplied)
    refusing = [d for d in diagnostics if d.severity >= Severity.ERROR and (lint == "error" or d.code == "R003")]
    if refusing or binding_problems:
        raise ToolRegistrationError(f"tool '{contract.name}' was not registered"
                                    + "".join(f"\n  {p}" for p in binding_problems), refusing)
    for d in diagnostics:
        level = logging.WARNING if d.severity >= Severity.ERROR else logging.DEBUG
        logger.log(level, "%s: %s %s at %s: %s", contract.name, d.code, d.name, d.pointer or "/", d.message)
    try:
        validator = compile_schema(schema, ARGUMENTS)
        output_validator = (compile_schema(contract.output_schema, ARGUMENTS)
                            if contract.output_schema is not None else None)
    except Exception as exc:  # jsonschema-rs raises ValueError / ValidationError / ReferencingError
        raise ToolRegistrationError(f"tool '{contract.name}': its schema cannot be compiled: {exc}") from exc
    properties: dict[str, Any] = schema["properties"] if isinstance(schema.get("properties"), dict) else {}
    defaults = tuple((n, p["default"], not isinstance(p["default"], _IMMUTABLE))
                     for n, p in properties.items() if isinstance(p, dict) and "default" in p
                     and _default_fits(p, schema))
    closed = schema.get("additionalProperties") is False
    takes = frozenset(n for n, p in parameters.items() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD))
    reject_unknown = None if closed or accepts_any_keyword(fn) else takes | supplied
    return BoundTool(contract=contract, fn=fn, is_async=inspect.iscoroutinefunction(inspect.unwrap(fn)),
                     validator=validator, output_validator=output_validator,
                     wrapped=bool((contract.output_schema or {}).get(WRAPPED_KEY)), defaults=defaults,
                     drop=supplied, reject_unknown=reject_unknown, converters=converters,
                     output_adapter=output_adapter, errors={**_declared_errors(contract)}, timeout=timeout,
                     idempotency=idempotency, diagnostics=tuple(diagnostics), integers=integer_plan(schema),
                     reshaped=reshaped_by_strict(schema), any_object=_accepts_any_object(contract.output_schema))


# A Toolbox is not a provider: a name like `math.add` is fine here (MCP allows dots) and
# `export()` maps it for providers that do not (name_map routes calls back).  So N001
# informs at registration instead of refusing.
_REGISTRATION_LINT = LintConfig(severity={"N001": Severity.WARNING})


def _default_fits(prop: Mapping[str, Any], root: Mapping[str, Any]) -> bool:
    """Whether a property's default satisfies the property's own schema.

    A default that does not (`"type": "string", "default": null`, common in
    definitions written from Python's `x=None`) is not injected: null there
    means "not given", as in strict mode, and injecting it would make the gate
    refuse a call the model never got wrong.  S008 reports such defaults.
    """
    wrapper = {k: root[k] for k in ("$defs", "definitions", "$schema") if k in root}
    wrapper.update({k: v for k, v in prop.items() if k != "default"})
    try:
        return bool(compile_schema(wrapper, ARGUMENTS).is_valid(prop["default"]))
    except Exception:  # noqa: BLE001 - a schema the validator cannot read: keep the author's default
        return True


# keywords that describe a schema without narrowing what it accepts
_ANNOTATIONS = frozenset({"title", "description", "$schema", "$id", "$comment", "examples", "default",
                          "deprecated", "readOnly", "writeOnly"})


def _accepts_any_object(schema: Any) -> bool:
    """Whether an output schema is `{"type": "object"}` and nothing that narrows it."""
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return False
    return all(key == "type" or key in _ANNOTATIONS or (key == "additionalProperties" and value is True)
               for key, value in schema.items())


def _lint(contract: ToolContract, mode: str) -> list[Diagnostic]:
    if mode == "off":
        return []
    return list(lint_contracts([contract], _REGISTRATION_LINT))


def _binding_problems(contract: ToolContract, schema: Mapping[str, Any], fn: Callable[..., Any],
                      supplied: frozenset[str]) -> list[str]:
    """Properties the function cannot take, and required parameters the schema never sends."""
    parameters = inspect.signature(fn).parameters
    properties: dict[str, Any] = schema["properties"] if isinstance(schema.get("properties"), dict) else {}
    required = set(schema.get("required") or []) if isinstance(schema.get("required"), list) else set()
    problems = []
    if not accepts_any_keyword(fn):
        for name in properties:
            if name not in parameters and name not in supplied:
                problems.append(f"the schema has a property '{name}' that {fn.__name__}() does not take; "
                                f"add the parameter or **kwargs")
    for name, param in parameters.items():
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD) or param.default is not param.empty:
            continue
        if param.kind is param.POSITIONAL_ONLY:
            problems.append(f"parameter '{name}' is positional-only; a tool's arguments are passed by name")
        elif name not in properties:
            problems.append(f"{fn.__name__}() requires '{name}', which the schema does not declare")
        elif name not in required and "default" not in properties[name]:
            pass  # R003 reports it, with the rule's code
    return problems


__all__ = ["BoundTool", "LINT_MODES", "annotations_for", "from_contract", "from_function"]
