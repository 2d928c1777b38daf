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

import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, overload

from ..model import ToolContract
from ..stores.base import Store
from ..stores.errors import StoreConfigError
from ..stores.opening import open_store
from ..stores.url import DEFAULT_STORE, StoreURL
from .budget import DEFAULT_BUDGET, CorrectionBudget
from .claim import ClaimStage, PassThrough
from .confirmation import DEFAULT_TTL, Confirmations, link_commit
from .envelope import Result
from .errors import ToolboxConfigError, ToolRegistrationError
from .executor import Executor, LocalExecutor
from .gate import Gate, new_trace_id
from .idempotency import CACHE_SIZE, LEASE, RETENTION, IdempotencyStage
from .policy import DEFAULT_CONCURRENCY, DEFAULT_POLICY, policy_for
from .registration import LINT_MODES, BoundTool, annotations_for, from_contract, from_function
from .registry import ExportedDocument, ExportedTools, ToolRegistry, exported

if TYPE_CHECKING:
    from ..routing import Router
    from .adapters.specs import ToolSpec


class Toolbox(Gate):
    """A set of tools and the gate in front of them.

    store: where idempotency records live: "sqlite:///path" (one machine), "redis://…" or
        "postgresql://…" (several processes or hosts), "memory://" (tests).  Default: the
        TOOLCLAUSE_STORE environment variable, else sqlite:///.toolclause/state.db, opened by
        the first call that needs a record (listing or exporting the tools never creates it).
        A URL given here is opened now, so a missing driver or an unreachable server fails
        here, not at the first call.
    lint: "error" (default: an error-severity lint finding refuses a tool),
        "warn" (registered anyway; the findings are logged and kept) or "off".
    timeout: default seconds per call for every tool (None: no limit); a tool's
        own `timeout=` wins.  Enforcing a limit on a sync tool in `call()` runs
        it in a worker thread.
    correction_budget: failed attempts a model may make at one tool in one run
        (`call(..., run=…)`) after its first mistake (3).  Calls without `run=` have no budget.
    max_argument_bytes: raw arguments larger than this are refused (1 MiB).
    executor: what runs a tool once its call passed the gate (default: its Python function).
    retention: seconds a completed record is kept and replayed (24 h).
    lease: seconds an in-progress claim holds for a tool without a timeout (300; a tool with a
        timeout holds timeout + 30 s); renewed while the tool runs.
    max_concurrency: calls one tool may run at once in worker threads (8); a tool's own wins.
    confirmation_secret: the key that signs confirmation tokens (else TOOLCLAUSE_CONFIRMATION_SECRET);
        without one, declaring a tool with `confirm=` is refused unless `development=True`.
    confirmation_ttl: seconds a confirmation token stays valid (600).
    replay_cache: completed records kept in this process to answer replays without the store
        (256; 0: none).
    mask_secrets: check every success for secrets (live API keys, bearer tokens, card numbers,
        resident registration numbers) and mask them before the model reads them, logging the tool
        and the pointer (True); see runtime/secrets.py.
    """

    def __init__(self, store: str | None = None, *, lint: str = "error", timeout: float | None = None,
                 correction_budget: int = DEFAULT_BUDGET, max_argument_bytes: int = 1024 * 1024,
                 claim_stage: ClaimStage | None = None, executor: Executor | None = None,
                 retention: float = RETENTION, lease: float = LEASE, max_concurrency: int = DEFAULT_CONCURRENCY,
                 confirmation_secret: str | bytes | None = None, confirmation_ttl: float = DEFAULT_TTL,
                 development: bool = False, replay_cache: int = CACHE_SIZE, mask_secrets: bool = True) -> None:
        explicit = store is not None or bool(os.environ.get(STORE_ENV))
        try:
            self.store = StoreURL.parse(store if store is not None else os.environ.get(STORE_ENV) or DEFAULT_STORE)
        except StoreConfigError as exc:
            raise ToolboxConfigError(str(exc)) from None
        if lint not in LINT_MODES:
            raise ToolboxConfigError(f"lint must be one of {', '.join(LINT_MODES)}, not {lint!r}")
        for label, value in (("timeout", timeout), ("retention", retention), ("lease", lease),
                             ("confirmation_ttl", confirmation_ttl)):
            if value is not None and (not isinstance(value, (int, float)) or value <= 0):
                raise ToolboxConfigError(f"{label} must be a positive number of seconds")
        self.lint = lint
        self.timeout = timeout
        self.retention, self.lease, self.max_concurrency = retention, lease, max_concurrency
        self.replay_cache = replay_cache
        self._confirmation_settings = (confirmation_secret, development, confirmation_ttl)
        self._opened: Store | None = None
        self._router: tuple[Any, Router] | None = None  # select()'s index, and the tools it was built from
        registry = ToolRegistry()
        super().__init__(registry, executor=executor if executor is not None else LocalExecutor(self._cap),
                         claim=claim_stage if claim_stage is not None else PassThrough(),
                         budget=CorrectionBudget(correction_budget), max_argument_bytes=max_argument_bytes,
                         mask_secrets=mask_secrets)
        if explicit and claim_stage is None:
            self._open_store()

    @property
    def state_store(self) -> Store:
        """The opened store of idempotency records (opened now if it was not yet)."""
        return self._open_store()

    def _open_store(self) -> Store:
        if self._opened is None:
            try:
                self._opened = open_store(self.store)
            except StoreConfigError as exc:
                raise ToolboxConfigError(str(exc)) from None
        return self._opened

    def _cap(self, tool: BoundTool) -> int:
        return self.registry.policies.get(tool.name, DEFAULT_POLICY).max_concurrency

    # ------------------------------------------------------------------ registration

    @overload
    def tool(self, fn: Callable[..., Any], /) -> Callable[..., Any]: ...

    @overload  # the options by name, so a type checker catches `read_onyl=True`
    def tool(self, name_or_fn: str | None = None, /, *, name: str | None = None, description: str | None = None,
             title: str | None = None, read_only: bool | None = None, destructive: bool | None = None,
             idempotent: bool | None = None, open_world: bool | None = None, idempotency: str | None = None,
             errors: Iterable[Any] | None = None, timeout: float | None = None,
             meta: Mapping[str, Any] | None = None, volatile: Iterable[str] = (), confirm: Any = None,
             max_concurrency: int | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]: ...

    def tool(self, name_or_fn: Any = None, /, *, name: str | None = None, description: str | None = None,
             title: str | None = None, read_only: bool | None = None, destructive: bool | None = None,
             idempotent: bool | None = None, open_world: bool | None = None, idempotency: str | None = None,
             errors: Iterable[Any] | None = None, timeout: float | None = None,
             meta: Mapping[str, Any] | None = None, volatile: Iterable[str] = (), confirm: Any = None,
             max_concurrency: int | None = None) -> Any:
        """Register a function as a tool: `@box.tool`, `@box.tool()`, `@box.tool("name")` or `box.tool(fn)`.

        The function is returned unchanged (still callable directly).  Options:
        read_only/destructive/idempotent/open_world/title → MCP annotations;
        errors=[code or {code, retryable, userAction, description}] declares
        business errors; timeout= seconds; max_concurrency= calls at once.

        idempotency="key" adds a required `idempotency_key` argument (the
        function receives it only if it declares it); "host" takes the key from
        the host only (`call(..., idempotency_key=…)`), never from the model;
        "content" keys the call by its arguments.  One execution per key; a
        duplicate gets the stored outcome.  volatile= names arguments left out
        of the comparison.  A tool annotated idempotent=True runs again when
        a crashed run's lease expires; any other answers OUTCOME_UNKNOWN.

        confirm="preview_tool" (or the preview's function) makes this a commit
        tool: it takes the preview's arguments plus `confirmation_token`, and
        runs only with a token from that preview (see `docs/runtime.md`).
        """
        def register(fn: Callable[..., Any]) -> Callable[..., Any]:
            if not callable(fn):
                raise ToolRegistrationError(f"box.tool expects a function, not {type(fn).__name__}")
            _check_mode(idempotency)
            commit = confirm is not None
            bound = from_function(
                fn, name=name or (name_or_fn if isinstance(name_or_fn, str) else None), description=description,
                title=title, annotations=annotations_for(
                    read_only, True if commit and destructive is None else destructive,
                    False if commit and idempotent is None else idempotent, open_world, title),
                idempotency=None if idempotency == "host" else idempotency, errors=errors,
                timeout=timeout if timeout is not None else self.timeout, meta=meta, lint=self.lint)
            self._register(bound, idempotency, volatile=volatile, confirm=confirm, max_concurrency=max_concurrency)
            return fn

        if callable(name_or_fn) and not isinstance(name_or_fn, str):
            return register(name_or_fn)
        if name_or_fn is not None and not isinstance(name_or_fn, str):
            raise ToolRegistrationError(f"box.tool takes a function or a name, not {type(name_or_fn).__name__}")
        return register

    def add(self, contract: Any, fn: Callable[..., Any], *, idempotency: str | None = None,
            timeout: float | None = None, volatile: Iterable[str] = (), confirm: Any = None,
            max_concurrency: int | None = None, key_optional: bool = False) -> ToolContract:
        """Register `fn` under an explicit contract: a path, a dict, a JSON string or a ToolContract (one tool).

        key_optional: with idempotency="key" or "host", a call that brings no key runs without being
        deduplicated instead of answering IDEMPOTENCY_KEY_REQUIRED (for a tool whose own schema makes
        its key optional, such as a proxied server's).
        """
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
        _check_mode(idempotency)
        bound = from_contract(found[0], fn, idempotency=None if idempotency == "host" else idempotency,
                              timeout=timeout if timeout is not None else self.timeout, lint=self.lint)
        bound = self._register(bound, idempotency, volatile=volatile, confirm=confirm,
                               max_concurrency=max_concurrency, key_optional=key_optional)
        return bound.contract

    def _register(self, bound: BoundTool, mode: str | None = None, *, volatile: Iterable[str] = (),
                  confirm: Any = None, max_concurrency: int | None = None, key_optional: bool = False) -> BoundTool:
        try:
            policy = policy_for(bound, mode, volatile=volatile, max_concurrency=max_concurrency,
                                default_concurrency=self.max_concurrency, key_optional=key_optional)
        except ValueError as exc:
            raise ToolRegistrationError(str(exc)) from None
        if confirm is not None:
            if self.confirmations is None:
                self.confirmations = Confirmations.from_settings(*self._confirmation_settings)
            bound, policy = link_commit(self.registry, bound, policy, confirm)
        self.registry.add(bound, policy)
        if policy.claims and not self._claim.active:
            self._claim = IdempotencyStage(self._open_store, retention=self.retention, lease=self.lease,
                                           cache_size=self.replay_cache, confirmations=lambda: self.confirmations,
                                           trace=new_trace_id)
        self._refresh_special()
        return bound

    def close(self) -> None:
        """Stop the worker threads and the lease renewals, and close the store's connections."""
        super().close()
        closing = getattr(self._claim, "close", None)
        if closing is not None:
            closing()
        elif self._opened is not None:
            self._opened.close()

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

    def select(self, request: str, k: int = 8, *, min_score: float = 0.0) -> list[str]:
        """The names of the `k` tools that fit `request` best, best first; [] when none fits (`toolclause.route`
        over this box's tools: lexical, English and Korean).  The index is built once and again only when
        the tools change."""
        from ..routing import Router

        key = (tuple((name, id(tool.contract)) for name, tool in self._tools.items()), min_score)
        if self._router is None or self._router[0] != key:
            self._router = (key, Router(self.contracts, min_score=min_score))
        return self._router[1].select(request, k)

    @property
    def diagnostics(self) -> dict[str, tuple]:
        """Every tool's registration findings (warnings and, with lint="warn", errors)."""
        return {name: t.diagnostics for name, t in self._tools.items() if t.diagnostics}

    def validate(self, name: str, arguments: Any = None, *, run: Any = None, routing: Any = None,
                 idempotency_key: str | None = None) -> dict[str, Any] | Result:
        """Parse, normalise and validate a call without running anything: its JSON arguments, or a failed Result.

        The arguments come back normalised (strict-mode nulls dropped, defaults applied), ready
        for `call()`.  A failure counts against `run`'s correction budget as `call()` counts it.
        """
        from .adapters.specs import validate

        return validate(self, name, arguments, run=run, routing=routing, idempotency_key=idempotency_key)

    def tool_specs(self, target: str, strict: bool = False) -> list[ToolSpec]:
        """Each tool as `target` exports it: exported name, description, parameters, definition, contract,
        losses, and the routing to call it by those names (`call(spec.name, args, routing=spec.routing)`)."""
        from .adapters.specs import tool_specs

        return tool_specs(self, target, strict)

    def as_pydantic_ai_toolset(self, **options: Any) -> Any:
        """A PydanticAI toolset whose argument validation is this gate (docs/frameworks.md)."""
        from .adapters.pydantic_ai import toolset

        return toolset(self, **options)

    def as_agents_sdk_tools(self, **options: Any) -> list[Any]:
        """OpenAI Agents SDK `FunctionTool`s that hand the model's raw arguments to this gate (docs/frameworks.md)."""
        from .adapters.agents_sdk import function_tools

        return function_tools(self, **options)

    def as_langchain_tools(self, **options: Any) -> list[Any]:
        """LangChain `StructuredTool`s calling through this gate; errors reach the model (docs/frameworks.md)."""
        from .adapters.langchain import structured_tools

        return structured_tools(self, **options)

    def as_anthropic_tools(self, **options: Any) -> list[Any]:
        """Anthropic SDK tool-runner tools calling through this gate (docs/frameworks.md)."""
        from .adapters.anthropic import runner_tools

        return runner_tools(self, **options)

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

    def mcp_server(self, **options: Any) -> Any:
        """The official MCP SDK's server for these tools, every call through this gate (docs/serving.md).

        Options: name, version, instructions, widgets=[toolclause.mcp.serving.Widget(…)], page_size, route_k
        (list a `find_tools` tool, then per session only the K tools routed for the user's request).
        Serving belongs to the `toolclause.mcp` layer, above the runtime: see toolclause._provided.
        """
        from .._provided import provided

        return provided("mcp_server")(self, **options)


STORE_ENV = "TOOLCLAUSE_STORE"
IDEMPOTENCY_MODES = (None, "key", "host", "content")


def _check_mode(mode: Any) -> None:
    if mode not in IDEMPOTENCY_MODES:
        raise ToolRegistrationError(f"idempotency must be 'key', 'host', 'content' or None, not {mode!r}")


__all__ = ["PassThrough", "STORE_ENV", "Toolbox"]
