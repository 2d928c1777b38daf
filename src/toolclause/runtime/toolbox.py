"""`Toolbox`: register tools (explicitly with `add`, or with the `tool` decorator) and call them through the gate.

    box = Toolbox(store="memory://")

    @box.tool(read_only=True)
    def search_restaurants(query: str, location: str,
                           price_level: Literal["low", "medium", "high"] | None = None) -> list[dict]:
        \"\"\"Find restaurant candidates by area, food and price. Not for ordering or payment.\"\"\"

    box.add("contracts/tools/create_refund.json", create_refund)
    result = box.call("search_restaurants", '{"query": "pizza", "location": "강남역"}')
    result.to_mcp()
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, overload

from ..model import ToolContract
from ..stores.errors import StoreConfigError
from ..stores.url import DEFAULT_STORE, StoreURL
from .budget import DEFAULT_BUDGET, CorrectionBudget
from .claim import ClaimStage, PassThrough
from .errors import ToolboxConfigError, ToolRegistrationError
from .executor import Executor
from .gate import Gate
from .registration import LINT_MODES, BoundTool, annotations_for, from_contract, from_function
from .registry import ExportedDocument, ExportedTools, ToolRegistry, exported


class Toolbox(Gate):
    """A set of tools and the gate in front of them.

    store: where idempotency records will live ("memory://", "sqlite:///path",
        "postgresql://…", "redis://…"); checked now, used once the claim stage
        has stores (runtime-semantics.md §3).
    lint: "error" (default: an error-severity lint finding refuses a tool),
        "warn" (registered anyway; the findings are logged and kept) or "off".
    timeout: default seconds per call for every tool (None: no limit); a tool's
        own `timeout=` wins.  Enforcing a limit on a sync tool in `call()` runs
        it in a worker thread.
    correction_budget: failed attempts a model may make at one tool in one run
        after its first mistake (3).
    max_argument_bytes: raw arguments larger than this are refused (1 MiB).
    executor: what runs a tool once its call passed the gate (default: its Python function).
    """

    def __init__(self, store: str = DEFAULT_STORE, *, lint: str = "error", timeout: float | None = None,
                 correction_budget: int = DEFAULT_BUDGET, max_argument_bytes: int = 1024 * 1024,
                 claim_stage: ClaimStage | None = None, executor: Executor | None = None) -> None:
        try:
            self.store = StoreURL.parse(store)
        except StoreConfigError as exc:
            raise ToolboxConfigError(str(exc)) from None
        if lint not in LINT_MODES:
            raise ToolboxConfigError(f"lint must be one of {', '.join(LINT_MODES)}, not {lint!r}")
        if timeout is not None and (not isinstance(timeout, (int, float)) or timeout <= 0):
            raise ToolboxConfigError("timeout must be a positive number of seconds or None")
        self.lint = lint
        self.timeout = timeout
        # the claim stage (idempotency, confirmation) plugs in here; until the stores land it is a pass-through
        super().__init__(ToolRegistry(), executor=executor, claim=claim_stage if claim_stage is not None
                         else PassThrough(), budget=CorrectionBudget(correction_budget),
                         max_argument_bytes=max_argument_bytes)

    # ------------------------------------------------------------------ registration

    @overload
    def tool(self, fn: Callable[..., Any], /) -> Callable[..., Any]: ...

    @overload
    def tool(self, name: str | None = None, /, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]: ...

    def tool(self, name_or_fn: Any = None, /, *, name: str | None = None, description: str | None = None,
             title: str | None = None, read_only: bool | None = None, destructive: bool | None = None,
             idempotent: bool | None = None, open_world: bool | None = None, idempotency: str | None = None,
             errors: Iterable[Any] | None = None, timeout: float | None = None,
             meta: Mapping[str, Any] | None = None) -> Any:
        """Register a function as a tool: `@box.tool`, `@box.tool()`, `@box.tool("name")` or `box.tool(fn)`.

        The function is returned unchanged (still callable directly).  Options:
        read_only/destructive/idempotent/open_world/title → MCP annotations;
        idempotency="key" adds a required `idempotency_key` argument (the
        function receives it only if it declares it); errors=[code or {code,
        retryable, userAction, description}] declares business errors.
        """
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            if not callable(fn):
                raise ToolRegistrationError(f"box.tool expects a function, not {type(fn).__name__}")
            bound = from_function(
                fn, name=name or (name_or_fn if isinstance(name_or_fn, str) else None), description=description,
                title=title, annotations=annotations_for(read_only, destructive, idempotent, open_world, title),
                idempotency=idempotency, errors=errors, timeout=timeout if timeout is not None else self.timeout,
                meta=meta, lint=self.lint)
            self._register(bound)
            return fn

        if callable(name_or_fn) and not isinstance(name_or_fn, str):
            return register(name_or_fn)
        if name_or_fn is not None and not isinstance(name_or_fn, str):
            raise ToolRegistrationError(f"box.tool takes a function or a name, not {type(name_or_fn).__name__}")
        return register

    def add(self, contract: Any, fn: Callable[..., Any], *, idempotency: str | None = None,
            timeout: float | None = None) -> ToolContract:
        """Register `fn` under an explicit contract: a path, a dict, a JSON string or a ToolContract (one tool)."""
        if not callable(fn):
            raise ToolRegistrationError(f"box.add needs a function as its second argument, not {type(fn).__name__}")
        if isinstance(contract, ToolContract):
            found = [contract]
        else:
            from ..loading import load

            try:
                found = load(contract)
            except ValueError as exc:
                raise ToolRegistrationError(f"the contract cannot be read: {exc}") from exc
        if len(found) != 1:
            raise ToolRegistrationError(f"box.add takes one tool per contract; this one holds {len(found)}")
        bound = from_contract(found[0], fn, idempotency=idempotency,
                              timeout=timeout if timeout is not None else self.timeout, lint=self.lint)
        self._register(bound)
        return bound.contract

    def _register(self, bound: BoundTool) -> None:
        self.registry.add(bound)

    # ------------------------------------------------------------------ reading

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)

    @property
    def names(self) -> list[str]:
        return list(self._tools)

    def contract(self, name: str) -> ToolContract:
        return self._tools[name].contract

    @property
    def contracts(self) -> list[ToolContract]:
        return [t.contract for t in self._tools.values()]

    @property
    def diagnostics(self) -> dict[str, tuple]:
        """Every tool's registration findings (warnings and, with lint="warn", errors)."""
        return {name: t.diagnostics for name, t in self._tools.items() if t.diagnostics}

    def export(self, target: str, strict: bool = False) -> ExportedTools | ExportedDocument:
        """The tools in one target's shape, ready for that SDK (a list of dicts, or the target's document).

        The value also carries `.routing`: where the export had to rename a
        tool (`math.add` → `math_add` for OpenAI) or, in strict mode, a
        property, pass it back to route a call made with the exported names —
        `box.call(name, arguments, routing=tools.routing)` (or `routing=tools`).
        Exporting never changes how `call()` routes on its own.  `.losses`
        lists what the target could not express.
        """
        from ..exporting import export

        return exported(export(self.contracts, target, strict=strict))


__all__ = ["PassThrough", "Toolbox"]
