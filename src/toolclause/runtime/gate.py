"""The gate: the path of one call, shared by `call` and `acall`.

    parse → normalise (strict nulls, defaults) → validate → claim → execute → check output → envelope

A `Gate` is composed of four parts, each replaceable on its own:

- a `ToolRegistry` (registry.py): the bound tools, found by name or through an export's `Routing`;
- a claim stage (claim.py): idempotency and confirmation, between validation and execution;
- an `Executor` (executor.py): runs the tool — the Python function, or a call forwarded elsewhere;
- a `CorrectionBudget` (budget.py): stops a model repeating the same invalid call.

Each stage either hands the arguments on or returns a `Result` that ends the
call; no stage after a failing one runs.  The fast path (a valid call to a
sync tool with no timeout) costs one `json.loads`, one compiled validator
check and a few dict operations; everything else is on the failure path.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import re
import time
from collections.abc import Mapping
from typing import Any

from ..schema.fingerprint import fingerprint
from ..schema.keywords import json_type
from ..schema.normalize import to_canonical_arguments
from ..stores.errors import PersistenceError
from .arguments import MAX_ARGUMENT_BYTES, ParseProblem, fast_object, parse_arguments
from .budget import CorrectionBudget
from .claim import CallContext, ClaimStage, PassThrough
from .confirmation import CONFIRMATION_META, Confirmations
from .envelope import Result
from .errors import CODES, CallError, ToolError, default_user_action, infrastructure_code, standard_error
from .executor import DeadlineExceeded, Executor, LocalExecutor, ToolRaised
from .numbers import INTEGER, apply_integers
from .policy import CONFIRMATION_TOKEN, DEFAULT_POLICY, CallPolicy, host_key
from .registration import BoundTool
from .registry import Routing, ToolRegistry
from .reply import Reply
from .secrets import mask_value, report
from .signature import IDEMPOTENCY_KEY, flat_json, json_data, to_json_value
from .validation import (
    HIDDEN,
    declared_names,
    public,
    readable_path,
    safe_path,
    schema_errors,
    unknown_key_path,
    validation_message,
)

logger = logging.getLogger("toolclause.runtime")
_INFO = logging.INFO
_log_enabled = logger.isEnabledFor
_perf = time.perf_counter
_TRACE_PREFIX = os.urandom(4).hex()
# a name a tool could have (MCP's and the providers' characters): only such a name is kept on a refused call
_TOOL_NAME = re.compile(r"[A-Za-z0-9_.\-]{1,128}")
_trace_counter = itertools.count(1)


def new_trace_id() -> str:
    """Unique within a process and across processes (random prefix + counter); cheap enough for every call."""
    return f"{_TRACE_PREFIX}{next(_trace_counter):08x}"


def _strict_route(routing: Any) -> bool:
    """Whether a call came by a strict export's route (a Routing, or an export result that carries one)."""
    return routing is not None and getattr(getattr(routing, "routing", routing), "strict", False) is True


def _contains_null(value: Any) -> bool:
    if type(value) is dict:
        items: Any = value.values()
    elif type(value) is list:
        items = value
    else:
        return value is None
    for item in items:
        if item is None:
            return True
        if (type(item) is dict or type(item) is list) and _contains_null(item):
            return True
    return False


class Gate:
    """Calls through the stages; `Toolbox` is a gate that also registers Python functions."""

    def __init__(self, registry: ToolRegistry, *, executor: Executor | None = None,
                 claim: ClaimStage | None = None, budget: CorrectionBudget | None = None,
                 max_argument_bytes: int = MAX_ARGUMENT_BYTES, mask_secrets: bool = True) -> None:
        self.registry = registry
        self.mask_secrets = mask_secrets  # results are checked for secrets before the model reads them (secrets.py)
        self.executor: Executor = executor if executor is not None else LocalExecutor()
        self._claim: Any = claim if claim is not None else PassThrough()
        self._budget = budget if budget is not None else CorrectionBudget()
        self.max_argument_bytes = max_argument_bytes
        # a str this short cannot exceed the byte cap, whatever its characters
        self._fast_bytes = max_argument_bytes // 4
        self._tools = registry.tools  # the same dict: read on every call
        self.confirmations: Confirmations | None = None
        # tools whose calls go through the claim stage or carry a confirmation (name → policy)
        self._special: dict[str, CallPolicy] = {}
        self._refresh_special()

    def _refresh_special(self) -> None:
        """Which tools take the slow path: all of them for a stage that claims every call."""
        everything = self._claim.active and not getattr(self._claim, "selective", False)
        self._special.clear()
        for name, policy in self.registry.policies.items():
            if everything or policy.claims or policy.prepares is not None:
                self._special[name] = policy
        if everything:
            for name in self._tools:
                self._special.setdefault(name, DEFAULT_POLICY)

    # ------------------------------------------------------------------ public entry points

    def call(self, name: str, arguments: Any = None, *, run: Any = None, call_id: str | None = None,
             idempotency_key: str | None = None, principal: str | None = None, routing: Routing | None = None,
             headers: Mapping[str, str] | None = None, meta: Mapping[str, Any] | None = None,
             wait: float | bool = False) -> Result:
        """Run one tool call through the gate; never raises for anything the model or the tool did.

        routing: what `export()` returned (or its `.routing`), to call a tool by the name and property
            names that export gave it.
        idempotency_key / headers / meta: a key from the host side (its own, an `Idempotency-Key`
            header, the MCP request's `_meta.idempotencyKey`), which wins over the model's argument.
        principal: whose call this is; keys and confirmations of one principal never match another's.
        wait: for a duplicate of a call still running, wait up to this many seconds (True: 10) for
            its outcome instead of answering IDEMPOTENCY_IN_PROGRESS at once.
        """
        started = _perf()
        try:
            tool, prepared, policy, idempotency_key = self._admit(name, arguments, run, idempotency_key, routing,
                                                                  headers, meta)
            if policy is _REFUSED:
                return self._done(prepared, name, started, run, call_id)
            ticket = token_fp = None
            if policy is not None:
                prepared, ticket, token_fp = self._claim_and_finish(tool, policy, prepared, run, idempotency_key,
                                                                    principal, call_id, wait)
                if type(ticket) is Result:
                    return self._done(ticket, name, started, run, call_id)
            error: Exception | None
            try:
                value = self.executor.run(tool, prepared)
            except DeadlineExceeded as exc:
                return self._done(self._timed_out(tool, exc, ticket), name, started, run, call_id, exc)
            except Exception as exc:  # noqa: BLE001 - the boundary: every exception becomes an envelope
                result, error = self._failure(tool, exc), exc
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise  # in this thread, Ctrl-C is the user's, not the tool's
                error = _raised(exc)
                result = self._failure(tool, error)
            else:
                result, error = self._output(tool, value), None
            if token_fp is not None:
                result = self._with_confirmation(tool, policy, result, principal, *token_fp)
            if ticket is not None:
                result = self._settle(tool, ticket, result, error)
            return self._done(result, name, started, run, call_id, error)
        except Exception as exc:  # noqa: BLE001 - call() never raises for anything the model or the tool did
            return self._crashed(name, exc, started, run, call_id)

    async def acall(self, name: str, arguments: Any = None, *, run: Any = None, call_id: str | None = None,
                    idempotency_key: str | None = None, principal: str | None = None,
                    routing: Routing | None = None, headers: Mapping[str, str] | None = None,
                    meta: Mapping[str, Any] | None = None, wait: float | bool = False) -> Result:
        """The async twin of `call`: async tools are awaited, sync ones run in worker threads.

        The claim stage's store calls run in a worker thread, so a slow store never blocks the loop.
        """
        started = _perf()
        try:
            tool, prepared, policy, idempotency_key = self._admit(name, arguments, run, idempotency_key, routing,
                                                                  headers, meta)
            if policy is _REFUSED:
                return self._done(prepared, name, started, run, call_id)
            ticket = token_fp = None
            if policy is not None:
                prepared, ticket, token_fp = await asyncio.to_thread(
                    self._claim_and_finish, tool, policy, prepared, run, idempotency_key, principal, call_id, wait)
                if type(ticket) is Result:
                    return self._done(ticket, name, started, run, call_id)
            error: Exception | None
            try:
                value = await self.executor.arun(tool, prepared)
            except DeadlineExceeded as exc:
                return self._done(self._timed_out(tool, exc, ticket), name, started, run, call_id, exc)
            except Exception as exc:  # noqa: BLE001
                result, error = self._failure(tool, exc), exc
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt) or _being_cancelled(exc):
                    raise  # Ctrl-C, or this task really was cancelled: that must go on
                error = _raised(exc)
                result = self._failure(tool, error)
            else:
                result, error = self._output(tool, value), None
            if token_fp is not None:
                result = self._with_confirmation(tool, policy, result, principal, *token_fp)
            if ticket is not None:
                result = await asyncio.to_thread(self._settle, tool, ticket, result, error)
            return self._done(result, name, started, run, call_id, error)
        except Exception as exc:  # noqa: BLE001 - acall() never raises for anything the model or the tool did
            return self._crashed(name, exc, started, run, call_id)

    # ------------------------------------------------------------------ stages 1–3

    def _admit(self, name: str, raw: Any, run: Any, key: str | None, routing: Routing | None,
               headers: Mapping[str, str] | None = None, meta: Mapping[str, Any] | None = None,
               finish: bool = True) -> tuple[Any, Any, Any, str | None]:
        """What `call` and `acall` do before the claim: the host's key, then parse, normalise, validate.

        (tool, the arguments for the function, its policy when the claim stage must see the call, the
        key) — or (tool or None, the Result that ends the call, _REFUSED, the key).  The claim itself
        is the caller's (a worker thread in `acall`).  finish=False: the validated JSON arguments, not
        yet converted for the function (`Toolbox.validate`).
        """
        if headers or meta:
            key = host_key(key, headers, meta)
        property_map = None
        if routing is None and type(name) is str:
            tool = self._tools.get(name)
        else:  # an exported name or strict renames (see registry.Routing)
            tool, property_map = self.registry.resolve(name, routing)
        if tool is None:
            return None, self._unknown_tool(name), _REFUSED, key
        parsed: dict[str, Any] | ParseProblem | None = None
        if type(raw) is str and raw[:1] == "{" and len(raw) <= self._fast_bytes:
            parsed = fast_object(raw)
        if parsed is None:
            parsed = parse_arguments(raw, self.max_argument_bytes)
        if isinstance(parsed, ParseProblem):
            return tool, self._invalid(tool, run, raw, "INVALID_ARGUMENTS_JSON",
                                       f"{tool.name}: {parsed.message}; send the arguments as one JSON object",
                                       [parsed.detail]), _REFUSED, key
        args = parsed
        if key is not None and tool.idempotency == "key":
            args[IDEMPOTENCY_KEY] = key
        # a strict model's shapes (renamed keys, null for "not given", map pairs, {"set": …}) → the canonical ones
        if property_map or tool.reshaped or \
                ((raw is None or type(raw) is not str or "null" in raw) and _contains_null(args)):
            # null keeps a meaning of its own ("clear the owner") unless the call came through a strict export
            args = to_canonical_arguments(args, tool.contract.input_schema, property_map,
                                          strict_nulls=_strict_route(routing))
        for field, default, mutable in tool.defaults:
            if field not in args:
                args[field] = _copy(default) if mutable else default
        try:
            valid = tool.validator.is_valid(args)
        except (ValueError, TypeError, OverflowError):  # a Python value with no JSON meaning (a dict input)
            refused = self._invalid(tool, run, repr(args), "INVALID_ARGUMENTS_JSON",
                                    f"{tool.name}: the arguments hold a value that is not JSON",
                                    [{"path": "", "problem": "type", "expected": "JSON values only"}])
            return tool, refused, _REFUSED, key
        unknown = tool.reject_unknown is not None and not tool.reject_unknown.issuperset(args)
        if not valid or unknown:
            return tool, self._validation_failure(tool, args, run, valid), _REFUSED, key
        if self._budget.runs:  # something to forget: this tool's earlier mistakes in this run
            self._budget.record_success(run, tool.name)
        policy = self._special.get(tool.name) if self._special else None
        if not finish or policy is not None:
            return tool, args, policy, key  # converted after the claim: a claim fingerprints the JSON arguments
        prepared = self._finish(tool, args, run, tool.drop)
        return tool, prepared, _REFUSED if type(prepared) is Result else None, key

    def _prepare(self, name: str, raw: Any, run: Any, key: str | None, routing: Routing | None,
                 finish: bool = True) -> tuple[Any, Any]:
        """(tool, the arguments for the function) or (tool or None, a failed Result): `_admit` without a host."""
        tool, prepared, _, _ = self._admit(name, raw, run, key, routing, finish=finish)
        return tool, prepared

    def _finish(self, tool: BoundTool, args: dict[str, Any], run: Any, drop: frozenset[str]) -> Any:
        """The validated arguments as the function takes them (converted; the gate's own keys dropped)."""
        if tool.integers:
            for key, where in tool.integers.items():  # whole-number floats for integer parameters (numbers.py)
                value = args.get(key)
                if type(value) is float or (where is not INTEGER and value is not None):
                    apply_integers(args, tool.integers)
                    break
        if tool.converters:
            converted = self._convert(tool, args, run)
            if type(converted) is Result:
                return converted
        for key in drop:
            args.pop(key, None)
        return args

    def _validation_failure(self, tool: BoundTool, args: dict[str, Any], run: Any, valid: bool) -> Result:
        records, truncated = schema_errors(tool.validator, args, tool.contract.input_schema or {}, True) if not valid \
            else ([], False)
        if tool.reject_unknown is not None:
            declared = sorted(tool.reject_unknown)
            names = declared_names(tool.contract.input_schema or {})
            seen = {r["path"] for r in records}
            for key in args:
                path = unknown_key_path((), key, declared, names) if type(key) is str else "/" + HIDDEN
                if key not in tool.reject_unknown and path not in seen:
                    records.insert(0, {"path": path, "problem": "additionalProperties", "allowed": declared[:20]})
        return self._invalid(tool, run, args, "VALIDATION_ERROR", validation_message(tool.name, records, truncated),
                             records)

    def _convert(self, tool: BoundTool, args: dict[str, Any], run: Any) -> Result | None:
        import pydantic

        records = []
        for key, adapter in tool.converters.items():
            if key in args:
                try:
                    args[key] = adapter.validate_python(args[key])
                except pydantic.ValidationError as exc:
                    names = declared_names(tool.contract.input_schema or {})
                    for e in exc.errors(include_input=False, include_url=False)[:20]:
                        records.append({"path": safe_path((key, *e["loc"]), names), "problem": e["type"],
                                        "expected": e["msg"]})
        if not records:
            return None
        message = f"{tool.name}: {len(records)} problem(s) in the arguments: " + "; ".join(
            f"'{readable_path(r['path'])}': {r['expected']}" for r in records)
        return self._invalid(tool, run, args, "VALIDATION_ERROR", message, records)

    def _invalid(self, tool: BoundTool, run: Any, fingerprinted: Any, code: str, message: str,
                 records: list[dict[str, Any]]) -> Result:
        verdict = self._budget.record_failure(run, tool.name, fingerprinted)
        if verdict == "repeated":
            code, message = "REPEATED_INVALID_CALL", (
                f"{tool.name}: these are the same invalid arguments as an earlier call; sending them again will fail "
                f"again. Change this: " + message.split(": ", 1)[-1])
        elif verdict == "exhausted":
            code, message = "REPEATED_INVALID_CALL", (
                f"{tool.name}: {self._budget.budget} corrections have failed; stop guessing and ask the user for the "
                f"values. Still wrong: " + message.split(": ", 1)[-1])
        return Result(False, error=standard_error(code, message, public(records)), trace_id=new_trace_id(),
                      tool=tool.name)

    def _unknown_tool(self, name: Any) -> Result:
        from ..suggest import closest

        names = sorted(self._tools)
        guess = closest(name[:64], names) if isinstance(name, str) and names else None
        # the name the caller sent is not repeated: it may hold control characters or a secret pasted by
        # mistake, and a log or a host would show it; the tools that exist are what the model needs
        message = "no tool by that name" + (f"; did you mean '{guess}'?" if guess else
                                             f"; the tools are: {', '.join(names[:20])}" if names else "")
        plain = isinstance(name, str) and _TOOL_NAME.fullmatch(name) is not None
        return Result(False, error=standard_error("UNKNOWN_TOOL", message, [
            {"path": "/name", "problem": "unknownTool", "allowed": names[:20]}]), trace_id=new_trace_id(),
            tool=name if plain else "")

    # ------------------------------------------------------------------ stage 4: claim

    def _claim_and_finish(self, tool: BoundTool, policy: CallPolicy, args: dict[str, Any], run: Any,
                          key: str | None, principal: str | None, call_id: str | None,
                          wait: float | bool) -> tuple[Any, Any, tuple[str, dict[str, Any]] | None]:
        """(arguments for the function, a ticket or None, a preview's (fingerprint, JSON arguments)) — or a
        Result as the ticket."""
        token_fp = (fingerprint(policy.fingerprinted(args)), dict(args)) if policy.prepares is not None else None
        ticket: Any = None
        if policy.claims or not getattr(self._claim, "selective", False):
            waiting = (10.0 if wait is True else float(wait or 0.0))
            context = CallContext(tool.name, args, principal, key, run, policy.mutating, call_id, waiting,
                                  tool.timeout, policy)
            try:
                ticket = self._claim.claim(context)
            except PersistenceError:
                logger.error("claim store failed before %s ran; nothing was executed", tool.name, exc_info=True)
                return args, Result(False, error=standard_error(
                    "PERSISTENCE_ERROR", f"{tool.name}: the call could not be recorded, so it was not run; "
                                         f"the same call may be tried again", user_action="retry_later"),
                    trace_id=new_trace_id(), tool=tool.name), None
            if type(ticket) is Result:
                return args, ticket, None
        prepared = self._finish(tool, args, run, policy.drop | tool.drop)
        if type(prepared) is Result and ticket is not None:
            self._release_quietly(tool, ticket)
            return args, prepared, None
        if type(prepared) is Result:
            return args, prepared, None
        return prepared, ticket, token_fp

    def _settle(self, tool: BoundTool, ticket: Any, result: Result, raised: Exception | None = None) -> Result:
        """Store the outcome of a run that started (or release its claim when nothing can have happened)."""
        if raised is not None and not isinstance(raised, ToolError) and not result.ok and self._unsafe_rerun(tool):
            result = self._unknown_after_start(tool, result, raised)
        try:
            # every Result built with ok=False carries its error; mypy cannot see that through `ok`
            if result.ok or not (result.error.retryable or result.error.code in _TRANSIENT):  # type: ignore[union-attr]
                self._claim.complete(ticket, result)
            else:
                self._claim.release(ticket)
        except PersistenceError:
            logger.error("claim store failed after %s ran; the outcome was not saved", tool.name, exc_info=True)
            return Result(False, error=standard_error(
                "PERSISTENCE_ERROR", f"{tool.name}: the call ran but its result could not be saved; check whether "
                                     f"it took effect before trying again"), trace_id=new_trace_id(), tool=tool.name)
        return result

    def _unsafe_rerun(self, tool: BoundTool) -> bool:
        """Whether running the tool again could repeat an effect: it changes state and is not annotated idempotent."""
        policy = self.registry.policies.get(tool.name, DEFAULT_POLICY)
        return policy.mutating and not policy.rerun_after_lease

    def _unknown_after_start(self, tool: BoundTool, failure: Result, raised: Exception) -> Result:
        """A tool that changes state raised something unexpected after it started: it may have taken effect.

        The answer is stored and replayed, so a retry with the key never runs it again; a tool that
        knows nothing happened says so with a retryable ToolError, which releases the key instead.
        """
        trace = failure.trace_id or new_trace_id()
        logger.error("%s raised %s after it started (trace %s); recorded as OUTCOME_UNKNOWN so that a retry with "
                     "its key does not run it again", tool.name, type(raised).__name__, trace, exc_info=raised)
        return Result(False, error=CallError(
            "OUTCOME_UNKNOWN", f"{tool.name}: failed after it started, so it may or may not have taken effect "
                               f"(logged under trace {trace}). Check before doing this again; a retry with this "
                               f"key gets this same answer and does not run it twice", False, "reconcile"),
            trace_id=trace, tool=tool.name)

    def _release_quietly(self, tool: BoundTool, ticket: Any) -> None:
        try:
            self._claim.release(ticket)
        except PersistenceError:
            logger.error("claim store failed while releasing a claim on %s", tool.name, exc_info=True)

    def _with_confirmation(self, tool: BoundTool, policy: Any, result: Result, principal: str | None,
                           fp: str, arguments: Mapping[str, Any]) -> Result:
        """A preview's result, with the token its commit tool requires — for the user's side only.

        The model reads `data` (and the summary): it learns that the user must confirm, and until
        when.  The token, with the arguments to commit, goes in the widget-only `meta`
        (`toolclause/confirmation`), so only the user's side — a widget's confirm button, a host
        that asks the user — can commit; a model that calls the commit on its own is refused.
        """
        if result.ok and isinstance(result.data, dict) and self.confirmations is not None:
            issued = self.confirmations.issue(policy.prepares, principal or "", fp)
            result.data = {**result.data, "confirmation": {
                "commitTool": issued["commitTool"], "expiresAt": issued["expiresAt"], "confirmedBy": "user"}}
            commit_arguments = {k: v for k, v in arguments.items() if k not in policy.drop | {IDEMPOTENCY_KEY}}
            result.meta = {**(result.meta or {}), CONFIRMATION_META: {
                **issued, "arguments": {**commit_arguments, CONFIRMATION_TOKEN: issued["token"]}}}
        return result

    # ------------------------------------------------------------------ stage 5: timeouts

    def _timed_out(self, tool: BoundTool, exc: DeadlineExceeded, ticket: Any) -> Result:
        trace = new_trace_id()
        policy = self.registry.policies.get(tool.name, DEFAULT_POLICY)
        if not exc.started:
            if ticket is not None:
                self._release_quietly(tool, ticket)
            return Result(False, error=standard_error(
                "UPSTREAM_TIMEOUT", f"{tool.name}: did not start within {exc.seconds:g} s (earlier calls to it were "
                                    f"still running), so nothing was done; the same call may succeed later"),
                trace_id=trace, tool=tool.name)
        if not policy.mutating:
            if ticket is not None:
                self._release_quietly(tool, ticket)
            return Result(False, error=standard_error(
                "UPSTREAM_TIMEOUT", f"{tool.name}: did not finish within {exc.seconds:g} s; the same call may "
                                    f"succeed later"), trace_id=trace, tool=tool.name)
        safe = ticket is not None and exc.future is not None
        if ticket is not None and exc.future is not None:
            exc.future.add_done_callback(lambda done: self._settle_late(tool, ticket, done))
        elif ticket is not None:
            self._claim.abandon(ticket)
        advice = ("retry with the same idempotency key to get its outcome: it will not run twice" if safe else
                  "check whether it took effect before calling again")
        return Result(False, error=CallError(
            "OUTCOME_UNKNOWN", f"{tool.name}: did not finish within {exc.seconds:g} s and may still take effect; "
                               f"{advice}", safe, "retry_later" if safe else "reconcile"),
            trace_id=trace, tool=tool.name)

    def _settle_late(self, tool: BoundTool, ticket: Any, future: Any) -> None:
        """A run that outlived its deadline has ended: record its outcome for the retries to find."""
        if future.cancelled():
            self._release_quietly(tool, ticket)
            return
        failure = future.exception()
        result = self._failure(tool, failure) if failure is not None else self._output(tool, future.result())
        self._settle(tool, ticket, result, failure)

    def close(self) -> None:
        """Stop the executor's worker threads."""
        self.executor.close()

    # ------------------------------------------------------------------ stage 6: output, and failures

    def _output(self, tool: BoundTool, value: Any) -> Result:
        reply = None
        if type(value) is Reply:  # the data, plus the tool's own summary and widget-only _meta
            reply, value = value, value.data
        result = self._checked_output(tool, value)
        if not result.ok:
            return result
        if reply is not None:
            result.summary = reply.summary
            if reply.meta:
                try:
                    result.meta = json_data(to_json_value(reply.meta, None))
                except Exception:  # noqa: BLE001 - a _meta with no JSON form breaks the tool's contract too
                    return self._violation(tool, [{"path": "/_meta", "problem": "type",
                                                   "expected": "JSON data"}], reply.meta)
        return self._masked(tool, result) if self.mask_secrets else result

    def _masked(self, tool: BoundTool, result: Result) -> Result:
        """The success with every secret in what it carries masked, each one logged (never its value)."""
        for where in ("data", "summary", "meta"):
            value = getattr(result, where)
            if value is None:
                continue
            masked, found = mask_value(value)
            if found:
                result.trace_id = result.trace_id or new_trace_id()
                report(tool.name, {"data": "", "summary": "summary", "meta": "_meta"}[where], found, result.trace_id)
                setattr(result, where, masked)
        return result

    def _checked_output(self, tool: BoundTool, value: Any) -> Result:
        if tool.any_object and type(value) is dict and flat_json(value):
            return Result(True, value, None, "", tool.name)  # JSON data, and an object is all the schema asks
        try:
            data = value if type(value) is dict else to_json_value(value, tool.output_adapter)
            data = json_data(data)
            checked = tool.output_validator is None or tool.output_validator.is_valid(
                {"result": data} if tool.wrapped else data)
        except Exception:  # noqa: BLE001 - a value with no JSON form is a contract violation too
            return self._violation(tool, [{"path": "", "problem": "type", "expected": "a JSON value"}], value)
        if not checked:
            records, _ = schema_errors(tool.output_validator, {"result": data} if tool.wrapped else data,
                                       tool.contract.output_schema or {}, True)
            return self._violation(tool, records, data)
        return Result(True, data, None, "", tool.name, None, tool.wrapped)

    def _violation(self, tool: BoundTool, records: list[dict[str, Any]], data: Any) -> Result:
        trace = new_trace_id()
        logger.error("OUTPUT_CONTRACT_VIOLATION: %s returned a result that breaks its outputSchema (trace %s): %s",
                     tool.name, trace, records, extra={"tool": tool.name, "trace_id": trace,
                                                        "result_type": json_type(data)})
        return Result(False, error=standard_error(
            "OUTPUT_CONTRACT_VIOLATION", f"{tool.name}: the tool's result does not match its own output schema; "
                                         f"this is a server bug, logged under trace {trace}", public(records)),
            trace_id=trace, tool=tool.name)

    def _failure(self, tool: BoundTool, exc: Exception) -> Result:
        trace = new_trace_id()
        if isinstance(exc, ToolError):
            return Result(False, error=self._business(tool, exc), trace_id=trace, tool=tool.name)
        if isinstance(exc, DeadlineExceeded):
            return Result(False, error=standard_error(
                "UPSTREAM_TIMEOUT", f"{tool.name}: did not finish within {exc.seconds:g} s; the same call may "
                                    f"succeed later"), trace_id=trace, tool=tool.name)
        code = infrastructure_code(exc)
        if code == "UPSTREAM_TIMEOUT":
            message = f"{tool.name}: a service it depends on did not answer in time; the same call may succeed later"
        elif code == "UPSTREAM_UNAVAILABLE":
            message = f"{tool.name}: a service it depends on is unavailable; the same call may succeed later"
        else:
            code, message = "INTERNAL_ERROR", (f"{tool.name}: the tool failed unexpectedly; this is not caused by the "
                                               f"arguments. The failure is logged under trace {trace}")
        return Result(False, error=standard_error(code, message), trace_id=trace, tool=tool.name)

    def _business(self, tool: BoundTool, exc: ToolError) -> CallError:
        declared = tool.errors.get(exc.code)
        standard = CODES.get(exc.code)
        if declared is None and standard is None:
            logger.warning("contract gap: %s raised ToolError %s, which its contract does not declare in 'errors'",
                           tool.name, exc.code, extra={"tool": tool.name, "code": exc.code})
        spec = declared or standard
        retryable = exc.retryable if exc.retryable is not None else (spec.retryable if spec else False)
        action = exc.user_action or (spec.user_action if spec else default_user_action(exc.code))
        return CallError(exc.code, str(exc.message), bool(retryable), action, tuple(exc.details))

    def _crashed(self, name: Any, exc: Exception, started: float, run: Any, call_id: str | None) -> Result:
        """The last line of defence: a failure in the gate itself (or in a part plugged into it)."""
        shown = name if isinstance(name, str) and len(name) <= 64 else "<tool>"
        trace = new_trace_id()
        try:
            return self._done(Result(False, error=standard_error(
                "INTERNAL_ERROR", f"{shown}: the call failed unexpectedly; this is not caused by the arguments. "
                                  f"The failure is logged under trace {trace}"), trace_id=trace, tool=shown),
                shown, started, run, call_id, exc)
        except Exception:  # noqa: BLE001 - a logging handler that fails must not turn this into a raise
            return Result(False, error=standard_error("INTERNAL_ERROR", f"{shown}: the call failed unexpectedly"),
                          trace_id=trace, tool=shown)

    # ------------------------------------------------------------------ the record

    def _done(self, result: Result, name: Any, started: float, run: Any, call_id: str | None,
              exc: BaseException | None = None) -> Result:
        if call_id is not None:
            result.call_id = call_id
        if result.ok and not _log_enabled(_INFO):
            return result
        if not result.trace_id:
            result.trace_id = new_trace_id()
        outcome = "ok" if result.ok else result.error.code  # type: ignore[union-attr]  # not ok: error is set
        level = _LEVELS.get(outcome, logging.WARNING) if not result.ok else _INFO
        if not logger.isEnabledFor(level):
            return result
        ms = (_perf() - started) * 1000
        logger.log(level, "tool call %s → %s in %.2f ms (trace %s)", result.tool or name, outcome, ms,
                   result.trace_id, exc_info=exc if outcome in _WITH_TRACEBACK else None,
                   extra={"tool": result.tool or name, "outcome": outcome, "duration_ms": round(ms, 3),
                          "trace_id": result.trace_id, "run": run})
        return result


_REFUSED: Any = object()  # _admit's policy for a call that ended before the claim (a Result in its place)
_TRANSIENT = frozenset({"UPSTREAM_TIMEOUT", "UPSTREAM_UNAVAILABLE", "RATE_LIMITED", "INTERNAL_ERROR"})
_WITH_TRACEBACK = frozenset({"INTERNAL_ERROR", "UPSTREAM_TIMEOUT", "UPSTREAM_UNAVAILABLE"})
_LEVELS = {code: logging.INFO for code in ("INVALID_ARGUMENTS_JSON", "VALIDATION_ERROR", "UNKNOWN_TOOL",
                                            "REPEATED_INVALID_CALL")}
_LEVELS.update({"INTERNAL_ERROR": logging.ERROR, "OUTPUT_CONTRACT_VIOLATION": logging.ERROR,
                "PERSISTENCE_ERROR": logging.ERROR})


def _raised(exc: BaseException) -> ToolRaised:
    """A SystemExit, GeneratorExit or CancelledError the tool raised itself, as an Exception the gate reports."""
    wrapped = ToolRaised(f"the tool raised {type(exc).__name__}")
    wrapped.__cause__ = exc
    return wrapped


def _being_cancelled(exc: BaseException) -> bool:
    """Whether a CancelledError is a real cancellation of the awaiting task (not one the tool raised)."""
    if not isinstance(exc, asyncio.CancelledError):
        return False
    task = asyncio.current_task()
    return task is None or task.cancelling() > 0


def _copy(value: Any) -> Any:
    import copy

    return copy.deepcopy(value)
