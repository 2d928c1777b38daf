"""The gate in front of a server's own tools, as the server lists them: what the FastMCP and SDK integrations share.

    gated = ListedGate(store="sqlite:///state.db", idempotency={"place_order": "key"})
    tool = gated.tool(listed, source=tool_object, closed=True)    # built once per tool object
    result, answer = await gated.call(tool, lift(raw_params), downstream, run=session_id)

Each tool's listed `inputSchema` is its contract: a Toolbox of one tool (lint off, as the proxy does)
validates, repairs and claims, and its executor hands the validated arguments on to the server's own
handler (`Downstream`), whose answer comes back unchanged when the gate passes it.  Every tool's
Toolbox shares one claim stage, so one store holds every key.

Idempotency, per tool: "key" (listed in `idempotency`, or found as the proxy finds it: a top-level
string argument named like `idempotency_key`, `request_id`, …) runs once per key, the key coming from
`params.idempotencyKey` (SEP-3182), `_meta.idempotencyKey`, or that argument; "content" runs once per
set of arguments.  A duplicate of a call still running is refused at once (never waited for).

`closed=True` (a schema pydantic made: FastMCP's and the SDK's function tools) closes every object
that lists its properties and says nothing of others, as pydantic models are closed when they validate
(extra keys dropped or refused) although their JSON Schema leaves them open: an extra key anywhere is
then a VALIDATION_ERROR with did-you-mean instead of a value silently lost.
"""

from __future__ import annotations

import contextvars
import os
import threading
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..loading import contracts_from_document
from ..runtime import Toolbox
from ..runtime.envelope import Result
from ..runtime.errors import CodeSpec, ToolboxConfigError, standard_error
from ..runtime.idempotency import IdempotencyStage
from ..stores.base import Store
from ..stores.errors import StoreConfigError
from ..stores.opening import open_store
from ..stores.url import DEFAULT_STORE
from .proxy import key_parameter
from .raw_call import KEY_FIELD, RawCall

MODES = ("key", "content")
TOOL_ERROR = "TOOL_ERROR"     # the tool itself answered with an error (FastMCP's ToolError, an isError result)
STORE_ENV = "TOOLCLAUSE_STORE"
_OPEN_KEYWORDS = ("additionalProperties", "patternProperties", "unevaluatedProperties")
_VALUES = frozenset({"const", "enum", "default", "examples", "required"})
_NAMED = frozenset({"properties", "$defs", "definitions", "patternProperties", "dependentSchemas"})


@dataclass(slots=True)
class Downstream:
    """One call's way on to the server's own handler.

    run: sends the validated arguments on and returns the server's answer (its own result object);
    read: that answer → the JSON data the gate checks against the outputSchema and stores for replays
    (raising a runtime ToolError for an error answer).  `answer` keeps what `run` returned.
    """

    run: Callable[[dict[str, Any]], Awaitable[Any]]
    read: Callable[[Any], Any]
    answer: Any = None


_DOWNSTREAM: contextvars.ContextVar[Downstream | None] = contextvars.ContextVar("toolclause_downstream", default=None)


class _HandOn:
    """The executor of every gated tool: the call goes on to the server's own handler (runtime Executor)."""

    def run(self, tool: Any, arguments: dict[str, Any]) -> Any:
        raise RuntimeError("a server's own tools are called asynchronously: use acall")

    async def arun(self, tool: Any, arguments: dict[str, Any]) -> Any:
        downstream = _DOWNSTREAM.get()
        if downstream is None:
            raise RuntimeError("a gated tool ran outside ListedGate.call")
        downstream.answer = await downstream.run(arguments)
        return downstream.read(downstream.answer)

    def close(self) -> None:
        pass


def _unbound(**arguments: Any) -> Any:  # pragma: no cover - bound for the contract; _HandOn runs the calls
    raise RuntimeError("a gated tool runs on the server's own handler")


@dataclass(frozen=True, slots=True)
class GatedTool:
    """One listed tool and the gate built for it; `source` (the server's tool object) is kept so that an
    identity check against it stays meaningful."""

    name: str
    box: Toolbox
    source: Any
    key_argument: str | None
    has_output_schema: bool
    listed: Mapping[str, Any] = field(repr=False)


class ListedGate:
    """The gate over a server's listed tools (module docstring).

    store: a store URL ("sqlite:///…", "redis://…", "postgresql://…", "memory://") or an opened Store;
        default TOOLCLAUSE_STORE, else sqlite:///.toolclause/state.db, opened by the first keyed call.
    idempotency: tool name → "key" or "content".
    correction_budget: failed attempts one session may make at one tool after its first mistake.
    """

    def __init__(self, *, store: str | Store | None = None, idempotency: Mapping[str, str] | None = None,
                 correction_budget: int = 3) -> None:
        modes = dict(idempotency or {})
        for name, mode in modes.items():
            if mode not in MODES:
                raise ToolboxConfigError(f"idempotency[{name!r}] is one of {', '.join(MODES)}, not {mode!r}")
        self.idempotency = modes
        self.correction_budget = correction_budget
        self._store: Store | None = store if isinstance(store, Store) else None
        self._url = None if isinstance(store, Store) else (store or os.environ.get(STORE_ENV) or DEFAULT_STORE)
        # the first keyed calls claim from worker threads at once: one store, opened once, for all of them
        self._opening = threading.Lock()
        if isinstance(store, str):
            self._open_store()  # a URL given here is opened now, as a Toolbox does: a bad one fails here
        self._stage = IdempotencyStage(self._open_store)
        self._executor = _HandOn()
        self._tools: dict[str, GatedTool] = {}

    def _open_store(self) -> Store:
        with self._opening:
            if self._store is None:
                assert self._url is not None
                try:
                    self._store = open_store(self._url)
                except StoreConfigError as exc:
                    raise ToolboxConfigError(str(exc)) from None
            return self._store

    def close(self) -> None:
        """Close the store this gate opened (a Store given to it is the caller's to close)."""
        if self._url is not None and self._store is not None:
            self._stage.close()
            self._store = None

    # ------------------------------------------------------------------ the contract of one tool

    def known(self, name: str) -> GatedTool | None:
        """The gate last built for the tool `name`, if any."""
        return self._tools.get(name)

    def tool(self, name: str, listed: Mapping[str, Any] | Callable[[], Mapping[str, Any]], source: Any = None, *,
             closed: bool = False) -> GatedTool | None:
        """The gate for the tool `name` as listed (MCP wire shape, or a function that lists it, called only when
        the gate must be built); built again only when `source` (the server's tool object) or the listing changed.

        None for a listing toolclause cannot read as a tool (the call then goes on ungated, as it would
        without the gate: the server's own validation answers it).
        """
        known = self._tools.get(name)
        if known is not None and source is not None and known.source is source:
            return known
        wire = listed() if callable(listed) else listed
        if known is not None and known.listed == wire:
            return known
        built = self._build(wire, source, closed)
        if built is not None:
            self._tools[built.name] = built
        return built

    def _build(self, listed: Mapping[str, Any], source: Any, closed: bool) -> GatedTool | None:
        wire = dict(listed)
        if closed and isinstance(wire.get("inputSchema"), Mapping):
            wire["inputSchema"] = closed_objects(wire["inputSchema"])
        contracts, _ = contracts_from_document({"tools": [wire]}, "server", "mcp")
        if len(contracts) != 1:
            return None
        contract = contracts[0]
        argument = key_parameter(contract.input_schema)
        mode = self.idempotency.get(contract.name)
        box = Toolbox(lint="off", executor=self._executor, claim_stage=self._stage,
                      correction_budget=self.correction_budget)
        required = (contract.input_schema or {}).get("required") or []
        try:
            if mode == "content":
                box.add(contract, _unbound, idempotency="content")
            elif mode == "key" or argument is not None:
                # the key comes from the request or from the tool's own argument, never added to its schema
                box.add(contract, _unbound, idempotency="host",
                        key_optional=mode != "key" and argument not in required)
            else:
                box.add(contract, _unbound)
        except Exception:  # noqa: BLE001 - a schema the gate cannot compile: the server's own validation stays
            return None
        errors = box.registry.tools[contract.name].errors
        if isinstance(errors, dict):  # the tool's own errors are declared by the tool answering with them
            errors.setdefault(TOOL_ERROR, CodeSpec("business", False, "contact_support"))
        return GatedTool(contract.name, box, source, argument, contract.output_schema is not None, listed)

    # ------------------------------------------------------------------ one call

    async def call(self, tool: GatedTool, raw: RawCall, downstream: Downstream, *, run: Any = None,
                   principal: str | None = None) -> tuple[Result, Any]:
        """The gate's Result and the server's own answer (None when the server was not called: a refusal,
        or a stored outcome replayed)."""
        key = raw.key
        if key is None and tool.key_argument is not None and isinstance(raw.arguments, Mapping):
            found = raw.arguments.get(tool.key_argument)
            key = found if isinstance(found, str) else None
        token = _DOWNSTREAM.set(downstream)
        try:
            result = await tool.box.acall(tool.name, raw.arguments, idempotency_key=key, principal=principal,
                                          run=run)
        finally:
            _DOWNSTREAM.reset(token)
        if not result.ok and result.error is not None and result.error.code == "IDEMPOTENCY_KEY_REQUIRED":
            result.error = standard_error("IDEMPOTENCY_KEY_REQUIRED", (
                f"{tool.name}: this tool changes state and needs an idempotency key; send one as the request's "
                f"params.{KEY_FIELD} or _meta.{KEY_FIELD}: a new key for a new operation, the same key when "
                f"retrying"))
        return result, downstream.answer if result.ok and not result.replayed else None


def closed_objects(schema: Any) -> Any:
    """`schema` with every object that lists properties and says nothing of others closed
    (`additionalProperties: false`), at any depth: how a pydantic model validates, not how it is listed."""
    if isinstance(schema, list):
        return [closed_objects(item) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _VALUES:
            out[key] = value
        elif key in _NAMED and isinstance(value, Mapping):  # names → schemas: the names are not schemas
            out[key] = {name: closed_objects(item) for name, item in value.items()}
        else:
            out[key] = closed_objects(value)
    if isinstance(out.get("properties"), Mapping) and not any(k in out for k in _OPEN_KEYWORDS):
        out["additionalProperties"] = False
    return out


__all__ = ["Downstream", "GatedTool", "ListedGate", "TOOL_ERROR", "closed_objects"]
