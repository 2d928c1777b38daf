"""`toolclause fuzz --server CMD | --url URL`: the mistakes models make, thrown at a live MCP server.

The calls are those a Toolbox is fuzzed with (workflow/fuzz.py: valid arguments from each
tool's inputSchema, then the mistakes of workflow/mistakes.py), sent as `tools/call`.  A
live server is a black box: what it does with a call is seen only in its answer, so the
checks are about the answer:

    valid-rejected    a valid call was refused as invalid arguments
    accepted          a mistaken call was answered as a success (the server did not hold it to its
                      inputSchema; the function may have run with it)
    protocol-error    a mistaken call was answered with a JSON-RPC error instead of a result with
                      `isError: true`: the model never sees it (MCP: input validation errors are
                      tool execution errors, so the model can correct itself)
    unstructured      an error result that says nothing (no text, no structured content)
    path-not-named    the error names neither the offending property nor its JSON Pointer
    output-violation  a valid call's result breaks the tool's outputSchema, or has no
                      structuredContent while the tool declares one
    crash             a valid call ended in a JSON-RPC error, or in INTERNAL_ERROR
    error-as-success  the tool returned an error as a successful result
    leak              an answer carries internals: a traceback, exception text, file paths
    no-answer         no answer within the per-call timeout

Only a Toolbox can be watched from inside, so two checks are Toolbox-only: `reached-function`
(a mistaken call that ran the function; `accepted` is what a live server shows of it) and
`null-seen` (what the function received).  Over MCP a call's arguments are an object, so the
one mistake that double-encodes the whole call is not sent.

Only tools annotated `readOnlyHint: true` are called unless `include_writes` is given: every
other tool would run its side effect (an order placed, a row deleted) with made-up arguments.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.shared.exceptions import MCPError

from ..runtime.envelope import envelope_in
from ..runtime.validation import HIDDEN
from ..schema.validators import ARGUMENTS, COMPILE_ERRORS, compile_schema
from ..workflow.fuzz import (
    INPUT_CODES,
    NOT_ABOUT_ARGUMENTS,
    VALID,
    FuzzReport,
    Planned,
    ToolFuzz,
    error_like,
    leaks_in,
    plan_calls,
    record,
    scratch_hypothesis_home,
    shorten,
    tool_seed,
)
from .live import DEFAULT_TIMEOUT, LiveServerError, list_tools, printable, run_server, run_url

# how servers that are not toolclause word a refusal of the arguments (the SDK's pydantic, jsonschema, zod)
_REFUSED_WORDS = re.compile(
    r"validation error|invalid (?:argument|param|input)|is a required property|required property|missing required|"
    r"input should be|field required|unexpected keyword|not valid under|is not of type|additional properties|"
    r"invalid_type|expected (?:string|number|integer|boolean|object|array)", re.IGNORECASE)


@dataclass
class LiveFuzzReport(FuzzReport):
    """A FuzzReport of a live server, with the tools left out and why."""

    server: str = ""
    skipped: dict[str, str] = field(default_factory=dict)  # tool → why it was not called

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "server": self.server, "skipped": dict(self.skipped)}


@dataclass(frozen=True)
class Answer:
    """What the server answered to one tools/call."""

    is_error: bool = False
    text: str = ""                 # the text blocks, joined
    structured: Any = None         # structuredContent (None when absent)
    has_structured: bool = False
    rpc_error: tuple[int, str] | None = None  # a JSON-RPC error: code, message
    timed_out: bool = False

    @property
    def said(self) -> str:
        """Everything the model would read of it, as one text."""
        parts = [self.text]
        if self.has_structured:
            parts.append(json.dumps(self.structured, ensure_ascii=False, default=str))
        if self.rpc_error is not None:
            parts.append(self.rpc_error[1])
        return "\n".join(p for p in parts if p)

    @property
    def error(self) -> dict[str, Any] | None:
        """A toolclause-style envelope's error: `structuredContent.error`, or the envelope an error's
        text holds as JSON (what `toolclause serve` sends), if the server sends one."""
        error = self.structured.get("error") if isinstance(self.structured, dict) else None
        if isinstance(error, dict):
            return error
        found = envelope_in({"content": [{"type": "text", "text": self.text}]}) if self.is_error else None
        return found["error"] if found is not None else None

    @property
    def code(self) -> str | None:
        """The envelope's error code, if the server sends one."""
        code = (self.error or {}).get("code")
        return code if isinstance(code, str) else None

    @property
    def details(self) -> list[Any] | None:
        details = (self.error or {}).get("details")
        return details if isinstance(details, list) else None


def _quote(text: str, limit: int = 160) -> str:
    return printable(text, limit)


# --------------------------------------------------------------------------- the checks

def refused_arguments(answer: Answer) -> bool:
    """An answer that refuses the call's arguments (rather than a business error or a success)."""
    if answer.rpc_error is not None:
        return answer.rpc_error[0] == types.INVALID_PARAMS
    if not answer.is_error:
        return False
    if answer.code is not None:
        # the gate's refusal names the paths; a tool's own ToolError("VALIDATION_ERROR") has no details and
        # is a business answer, as it is when a Toolbox is fuzzed (the function ran)
        return answer.code in INPUT_CODES and bool(answer.details)
    return bool(_REFUSED_WORDS.search(answer.said))


def _names(answer: Answer, paths: Iterable[str]) -> bool:
    """The error names one of `paths`: a detail's path (a toolclause envelope), or in its text the
    pointer or the property's own name."""
    details = answer.details
    said = answer.said
    for path in paths:
        if not path:
            return True
        if details is not None and any(isinstance(d, dict) and isinstance(d.get("path"), str)
                                       and (d["path"] == path or d["path"].startswith(path + "/")
                                            or path.startswith(d["path"] + "/") and d["path"]
                                            or d["path"] == path.rpartition("/")[0] + "/" + HIDDEN)
                                       for d in details):
            return True
        key = path.rpartition("/")[2].replace("~1", "/").replace("~0", "~")
        if path in said or (key and re.search(r"(?<![A-Za-z0-9_])" + re.escape(key) + r"(?![A-Za-z0-9_])", said)):
            return True
    return False


def _leaks(answer: Answer, sent: str) -> list[tuple[str, str]]:
    leaked = leaks_in(answer.said[:8000])
    if leaked and leaked not in sent:
        where = "error" if answer.is_error or answer.rpc_error else "result"
        return [("leak", f"the {where} carries internals ({leaked!r})")]
    return []


def valid_problems(answer: Answer, sent: str, output: Any, timeout: float) -> list[tuple[str, str]]:
    if answer.timed_out:
        return [("no-answer", f"no answer within {timeout:g} s")]
    if answer.rpc_error is not None:
        code, message = answer.rpc_error
        check = "valid-rejected" if code == types.INVALID_PARAMS else "crash"
        return [(check, f"a valid call was answered with JSON-RPC error {code}: {_quote(message)}")]
    problems = _leaks(answer, sent)
    if answer.is_error:
        if answer.code in NOT_ABOUT_ARGUMENTS:
            return problems
        if refused_arguments(answer):
            return [("valid-rejected", f"a valid call was refused: {_quote(answer.said)}"), *problems]
        if answer.code == "INTERNAL_ERROR":
            return [("crash", "a valid call crashed the tool (INTERNAL_ERROR)"), *problems]
        if answer.code == "OUTPUT_CONTRACT_VIOLATION":
            return [("output-violation", "the result breaks the outputSchema (the server's own check)"), *problems]
        if not answer.said.strip():
            return [("unstructured", "a valid call ended in an error that says nothing (no text, no "
                                     "structuredContent)"), *problems]
        return problems  # a business error (not found, closed): a valid call may rightly get one
    if error_like(answer.structured if answer.has_structured else answer.text):
        problems.append(("error-as-success", "returned an error as a successful result: it caught an exception "
                                             "and returned it; answer isError: true so the model knows it failed"))
    if output is not None:
        if not answer.has_structured:
            problems.append(("output-violation", "the tool declares an outputSchema but the result has no "
                                                 "structuredContent"))
        else:
            error = _first_error(output, answer.structured)
            if error is not None:
                problems.append(("output-violation", f"the result breaks the outputSchema ({error})"))
    return problems


def mistake_problems(planned: Planned, answer: Answer, timeout: float,
                     open_schema: bool = True) -> list[tuple[str, str]]:
    mistake = planned.mistake
    assert mistake is not None
    if answer.timed_out:
        return [("no-answer", f"no answer within {timeout:g} s")]
    what = f"{mistake.kind}{': ' + mistake.detail if mistake.detail else ''}"
    if answer.rpc_error is not None:
        code, message = answer.rpc_error
        return [("protocol-error", f"a mistaken call ({what}) was answered with JSON-RPC error {code} "
                                   f"({_quote(message, 100)}), which the model never sees; answer a result with "
                                   f"isError: true naming the argument")]
    if not answer.is_error:
        if not mistake.refuse:
            return []  # null for an optional property, taken as "not given": fine
        why = ("its schema is open: close it with additionalProperties: false" if mistake.needs_open and open_schema
               else "the server did not hold it to its inputSchema")
        return [("accepted", f"a mistaken call ({what}) was answered as a success; {why}")]
    problems = _leaks(answer, "")
    if answer.code in NOT_ABOUT_ARGUMENTS:
        return problems
    if not answer.said.strip():
        return [("unstructured", f"a mistaken call ({what}) got an error that says nothing"), *problems]
    if not _names(answer, (mistake.path, *mistake.also)):
        problems.append(("path-not-named", f"the error does not name {mistake.path or 'the arguments'}: "
                                           f"{_quote(answer.said, 120)!r}"))
    return problems


def _first_error(validator: Any, value: Any) -> str | None:
    try:
        for error in validator.iter_errors(value):
            where = "/" + "/".join(str(part) for part in error.instance_path)
            return f"at {where}: {_quote(str(error.message), 120)}"
    except (ValueError, TypeError):
        return None
    return None


# --------------------------------------------------------------------------- the run

def read_only(tool: Mapping[str, Any]) -> bool:
    annotations = tool.get("annotations")
    return isinstance(annotations, dict) and annotations.get("readOnlyHint") is True


async def call(session: ClientSession, name: str, arguments: dict[str, Any], timeout: float) -> Answer:
    """One tools/call, as the server answered it (the SDK's result checks are not applied: they are ours)."""
    request = types.CallToolRequest(params=types.CallToolRequestParams(name=name, arguments=arguments))
    try:
        with anyio.fail_after(timeout):
            result = await session.send_request(request, types.CallToolResult)
    except TimeoutError:
        return Answer(timed_out=True)
    except MCPError as exc:
        return Answer(is_error=True, rpc_error=(int(exc.error.code), str(exc.error.message)))
    text = "\n".join(block.text for block in result.content if isinstance(block, types.TextContent))
    has = result.structured_content is not None or "structured_content" in result.model_fields_set
    return Answer(is_error=bool(result.is_error), text=text, structured=result.structured_content,
                  has_structured=has and result.structured_content is not None)


def _output_validator(tool: Mapping[str, Any]) -> Any:
    schema = tool.get("outputSchema")
    if not isinstance(schema, dict):
        return None
    try:
        return compile_schema(schema, ARGUMENTS)  # as the gate checks a result
    except COMPILE_ERRORS:
        return None


async def fuzz_session(session: ClientSession, phase: list[str], *, examples: int, seed: int,
                       tools: Iterable[str] | None, include_writes: bool, timeout: float, server: str,
                       progress: Callable[[int, int, str], None] | None = None) -> LiveFuzzReport:
    try:
        with anyio.fail_after(timeout):
            _, listed = await list_tools(session, phase)
    except TimeoutError:
        raise LiveServerError(f"had not answered {phase[0]} after {timeout:g} s (raise --timeout if it is just slow)") \
            from None
    report = LiveFuzzReport(seed=seed, examples=examples, server=server)
    wanted = set(tools) if tools is not None else None
    chosen = []
    for tool in listed:
        name = tool.get("name")
        if not isinstance(name, str) or (wanted is not None and name not in wanted):
            continue
        if not include_writes and not read_only(tool):
            report.skipped[name] = "not annotated readOnlyHint: true (calling it would run its side effects)"
            continue
        chosen.append(tool)
    if wanted is not None:
        missing = sorted(wanted - {t.get("name") for t in listed})
        if missing:
            raise LiveServerError(f"lists no tool named {', '.join(missing)} (it lists: "
                                  f"{', '.join(str(t.get('name')) for t in listed[:20])})")
    for done, tool in enumerate(chosen):
        if progress is not None:
            progress(done, len(chosen), tool["name"])
        phase[0] = f"tools/call {tool['name']}"
        report.tools.append(await _fuzz_tool(session, tool, examples, tool_seed(seed, tool["name"]), timeout))
    if progress is not None:
        progress(len(chosen), len(chosen), "")
    return report


async def _fuzz_tool(session: ClientSession, tool: Mapping[str, Any], examples: int, seed: int,
                     timeout: float) -> ToolFuzz:
    name = tool["name"]
    out, calls = plan_calls(name, tool.get("inputSchema"), examples, seed)
    output = _output_validator(tool)
    schema = tool.get("inputSchema")
    open_schema = not (isinstance(schema, dict) and schema.get("additionalProperties") is False)
    for planned in calls:
        if not isinstance(planned.arguments, dict):
            continue  # the whole call double-encoded: tools/call carries an object, so no client can send it
        answer = await call(session, name, planned.arguments, timeout)
        sent = json.dumps(planned.arguments, ensure_ascii=False)
        if planned.mistake is None:
            record(out, VALID, sent, valid_problems(answer, sent, output, timeout))
        else:
            problems = mistake_problems(planned, answer, timeout, open_schema)
            record(out, planned.kind, shorten(planned.arguments), problems)
    return out


def fuzz_server(command: str | None = None, url: str | None = None, *, headers: Mapping[str, str] | None = None,
                examples: int = 25, seed: int = 0, tools: Iterable[str] | None = None, include_writes: bool = False,
                timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None,
                progress: Callable[[int, int, str], None] | None = None) -> LiveFuzzReport:
    """Fuzz the live MCP server started by `command` (stdio) or reached at `url` (Streamable HTTP).

    `timeout` bounds the start and the listing, and each call (not the whole run).  A server that
    cannot be started, reached or listed is a LiveServerError (one line naming it).
    """
    if (command is None) == (url is None):
        raise ValueError("give a command or a url, not both")
    chosen = list(tools) if tools is not None else None

    async def work(session: ClientSession, phase: list[str]) -> LiveFuzzReport:
        return await fuzz_session(session, phase, examples=examples, seed=seed, tools=chosen,
                                  include_writes=include_writes, timeout=timeout, server=command or str(url),
                                  progress=progress)

    with scratch_hypothesis_home():
        if command is not None:
            return run_server(command, work, None, cwd)
        return run_url(str(url), work, None, headers)


__all__ = ["Answer", "LiveFuzzReport", "call", "fuzz_server", "fuzz_session", "mistake_problems",
           "read_only", "refused_arguments", "valid_problems"]
