"""`toolclause fuzz`: the gate under the calls models really make.

For each tool of a `Toolbox`: valid arguments generated from its input schema
(hypothesis-jsonschema, seeded), then the mistakes of `mistakes.py` made of
them.  Every call goes through `box.call` as a model's would (JSON text in), and
the function is watched, so the checks are about what really happened:

    valid-rejected     a valid call was refused by the gate
    reached-function   a mistaken call got through to the function (an open schema)
    unstructured       a refusal without a code and a details list naming paths
    path-not-named     a refusal whose details do not name the offending path
    null-seen          null for an optional property reached the function as null
    output-violation   a valid call's result broke the tool's outputSchema
    crash              a valid call ended in INTERNAL_ERROR
    error-as-success   the tool returned an error as a successful result (it swallowed an exception)
    leak               an envelope carries internals: a traceback, exception text, file paths

Every tool's run is reproducible from the report's seed.  Nothing here prints.
"""

from __future__ import annotations

import json
import os
import random
import re
import tempfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..runtime.validation import HIDDEN
from ..schema.validators import ARGUMENTS, COMPILE_ERRORS, compile_schema
from .fixtures import quiet_runtime
from .mistakes import KINDS, Mistake, mistakes_of

VALID = "valid"
INPUT_CODES = frozenset({"VALIDATION_ERROR", "INVALID_ARGUMENTS_JSON", "REPEATED_INVALID_CALL"})
NOT_ABOUT_ARGUMENTS = frozenset({"IDEMPOTENCY_KEY_REQUIRED", "IDEMPOTENCY_IN_PROGRESS", "IDEMPOTENCY_KEY_REUSED",
                                 "CONFIRMATION_REQUIRED", "CONFIRMATION_MISMATCH", "CONFIRMATION_EXPIRED",
                                 "CONFIRMATION_USED", "OUTCOME_UNKNOWN", "RATE_LIMITED", "PERSISTENCE_ERROR"})
BASES = 3  # valid calls each mistake is made of

_LEAKS = [re.compile(p) for p in (
    r"Traceback \(most recent call last\)", r"File \"[^\"]+\", line \d+",
    r"\b[A-Z][A-Za-z]*(?:Error|Exception)\b(?::|\(| at 0x)", r"(?:^|[\s'\"(])/(?:usr|home|var|opt|tmp|srv|root)/\S+",
    r"site-packages", r"\bat 0x[0-9a-f]{6,}\b")]
_ERROR_WORDS = re.compile(r"^\s*(?:error|exception|traceback|failed|failure)\b", re.IGNORECASE)
_ERROR_KEYS = frozenset({"error", "exception", "traceback", "stack", "stacktrace", "err"})


@dataclass(frozen=True, slots=True)
class Finding:
    tool: str
    kind: str       # "valid" or a mistake kind
    check: str      # which check failed (see the module docstring)
    message: str
    arguments: str  # the call as sent (JSON, shortened)

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "kind": self.kind, "check": self.check, "message": self.message,
                "arguments": self.arguments}


@dataclass
class KindStats:
    sent: int = 0
    failed: int = 0
    skipped: int = 0  # mistakes the schema itself accepts: no mistake for this tool

    def to_dict(self) -> dict[str, int]:
        return {"sent": self.sent, "failed": self.failed, "skipped": self.skipped}

    def add(self, other: KindStats) -> None:
        self.sent += other.sent
        self.failed += other.failed
        self.skipped += other.skipped


@dataclass
class ToolFuzz:
    tool: str
    seed: int
    kinds: dict[str, KindStats] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    note: str | None = None  # why no valid arguments could be generated, if so

    def to_dict(self) -> dict[str, Any]:
        return {"tool": self.tool, "seed": self.seed, "note": self.note,
                "kinds": {k: s.to_dict() for k, s in self.kinds.items()},
                "findings": [f.to_dict() for f in self.findings]}


@dataclass
class FuzzReport:
    seed: int
    examples: int
    tools: list[ToolFuzz] = field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [f for t in self.tools for f in t.findings]

    @property
    def failed(self) -> bool:
        return bool(self.findings)

    def totals(self) -> dict[str, KindStats]:
        out = {kind: KindStats() for kind in (VALID, *KINDS)}
        for tool in self.tools:
            for kind, stats in tool.kinds.items():
                out[kind].add(stats)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"version": 1, "seed": self.seed, "examples": self.examples,
                "tools": [t.to_dict() for t in self.tools],
                "totals": {k: s.to_dict() for k, s in self.totals().items()},
                "findings": len(self.findings), "calls": sum(s.sent for s in self.totals().values())}


# --------------------------------------------------------------------------- watching the function

class _Watch:
    """Wraps the box's executor: notes whether a call reached the function, and with what."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.reached = False
        self.arguments: dict[str, Any] | None = None

    def reset(self) -> None:
        self.reached, self.arguments = False, None

    def run(self, tool: Any, arguments: dict[str, Any]) -> Any:
        self.reached, self.arguments = True, dict(arguments)
        return self.inner.run(tool, arguments)

    async def arun(self, tool: Any, arguments: dict[str, Any]) -> Any:  # pragma: no cover - call() only
        self.reached, self.arguments = True, dict(arguments)
        return await self.inner.arun(tool, arguments)

    def close(self) -> None:
        self.inner.close()


# --------------------------------------------------------------------------- generating valid calls

def tool_seed(seed: int, name: str) -> int:
    return (seed * 1_000_003 + zlib.crc32(name.encode("utf-8"))) & 0xFFFFFFFF


def _declared_only(schema: Mapping[str, Any]) -> dict[str, Any]:
    """The schema with only its declared properties at the top: a valid call a model makes names no others."""
    out = dict(schema)
    if isinstance(out.get("properties"), dict) and "additionalProperties" not in out \
            and "patternProperties" not in out:
        out["additionalProperties"] = False
    return out


def generate(schema: Mapping[str, Any], count: int, seed: int) -> list[Any]:
    """Up to `count` values valid under `schema` (hypothesis-jsonschema, derandomised by `seed`)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fixed_seed
    from hypothesis_jsonschema import from_schema

    found: list[Any] = []

    @fixed_seed(seed)
    @settings(max_examples=count, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @given(from_schema(dict(schema)))
    def collect(value: Any) -> None:
        found.append(value)

    collect()
    return found


def shorten(value: Any, limit: int = 300) -> str:
    try:
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------- the checks

def leaks_in(text: str) -> str | None:
    for pattern in _LEAKS:
        found = pattern.search(text)
        if found:
            return found.group(0).strip()[:80]
    return None


def error_like(data: Any) -> bool:
    """A successful result that is really an error the tool caught and returned."""
    if isinstance(data, str):
        return bool(_ERROR_WORDS.match(data))
    if isinstance(data, dict):
        if set(k.lower() for k in data if isinstance(k, str)) & _ERROR_KEYS:
            return True
        if len(data) == 1 and "result" in data:
            return error_like(data["result"])
    return False


def _names_path(details: Iterable[Any], path: str) -> bool:
    for detail in details:
        named = detail.get("path") if isinstance(detail, dict) else None
        if not isinstance(named, str):
            continue
        if not path or named == path or named.startswith(path + "/") or path.startswith(named + "/") and named:
            return True
        if named == path.rpartition("/")[0] + "/" + HIDDEN:  # an undeclared key: the gate never repeats it
            return True
    return False


class _Fuzzer:
    def __init__(self, box: Any, watch: _Watch) -> None:
        self.box, self.watch = box, watch

    def call(self, name: str, arguments: Any, number: int) -> Any:
        self.watch.reset()
        sent = arguments if isinstance(arguments, str) else json.dumps(arguments, ensure_ascii=False)
        return self.box.call(name, sent, call_id=f"toolclause-fuzz-{number}")

    def envelope_problems(self, result: Any, sent: str = "") -> list[tuple[str, str]]:
        """Internals in an envelope; text the call itself sent (a tool that echoes) is not a leak."""
        problems = []
        if not result.ok:
            text = json.dumps(result.to_dict()["error"], ensure_ascii=False)
            leaked = leaks_in(text)
            if leaked:
                problems.append(("leak", f"the error envelope carries internals ({leaked!r})"))
        else:
            if error_like(result.data):
                problems.append(("error-as-success", "returned an error as a successful result: it caught an "
                                                     "exception and returned it; raise ToolError instead so the "
                                                     "model gets a structured, retryable-or-not error"))
            leaked = leaks_in(shorten(result.data, 4000))
            if leaked and leaked not in sent:
                problems.append(("leak", f"the result carries internals ({leaked!r})"))
        return problems


def _not_about_arguments(result: Any) -> bool:
    """A refusal that says nothing of the arguments, or a replay (the stored outcome of an earlier run of the
    same call, so the function rightly did not run again)."""
    return result.error.code in NOT_ABOUT_ARGUMENTS or result.replayed


def _valid_problems(fuzzer: _Fuzzer, result: Any, sent: str) -> list[tuple[str, str]]:
    watch = fuzzer.watch
    if not watch.reached:
        if _not_about_arguments(result):
            return []
        if result.error.code in INPUT_CODES:
            return [("valid-rejected", f"a valid call was refused with {result.error.code}: {result.error.message}")]
        return [("unstructured", f"a valid call was refused with {result.error.code} before the function ran")]
    problems = fuzzer.envelope_problems(result, sent)
    if not result.ok and result.error.code == "OUTPUT_CONTRACT_VIOLATION":
        paths = ", ".join(str(d.get("path") or "/") for d in result.error.details if isinstance(d, dict))
        problems.append(("output-violation", f"the result breaks the outputSchema (at {paths or '/'})"))
    elif not result.ok and result.error.code == "INTERNAL_ERROR":
        problems.append(("crash", "a valid call crashed the tool (INTERNAL_ERROR)"))
    return problems


def _mistake_problems(fuzzer: _Fuzzer, mistake: Mistake, result: Any) -> list[tuple[str, str]]:
    watch = fuzzer.watch
    if not mistake.refuse:
        if not watch.reached:
            if _not_about_arguments(result):
                return []
            return [("valid-rejected", f"the gate should accept this ({mistake.kind}) but refused it with "
                                       f"{result.error.code}: {result.error.message}")]
        problems = []
        if mistake.absent is not None and watch.arguments is not None and mistake.absent in watch.arguments \
                and watch.arguments[mistake.absent] is None:
            problems.append(("null-seen", f"null for the optional '{mistake.absent}' reached the function as "
                                          f"None instead of 'not given'"))
        return problems
    if watch.reached:
        why = ("the schema is open: close it with additionalProperties: false" if mistake.needs_open
               else "the gate let it through")
        return [("reached-function", f"a mistaken call ({mistake.kind}{': ' + mistake.detail if mistake.detail else ''}"
                                     f") reached the function; {why}")]
    problems = fuzzer.envelope_problems(result)
    error = result.error
    details = list(error.details)
    if error.code not in INPUT_CODES or not details or not all(isinstance(d, dict) and "path" in d for d in details):
        problems.append(("unstructured", f"refused with {error.code} without details naming the paths"))
    elif not any(_names_path(details, path) for path in (mistake.path, *mistake.also)):
        named = ", ".join(str(d.get("path")) for d in details)
        problems.append(("path-not-named", f"the error names {named or 'no path'}, not {mistake.path}"))
    return problems


# --------------------------------------------------------------------------- the run

@contextmanager
def scratch_hypothesis_home() -> Iterator[None]:
    """Hypothesis keeps caches in ./.hypothesis; a fuzz run leaves nothing in the user's folder."""
    from hypothesis import configuration

    if os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    before = getattr(configuration, "__hypothesis_home_directory", None)
    with tempfile.TemporaryDirectory(prefix="toolclause-fuzz-") as home:
        configuration.set_hypothesis_home_dir(home)
        try:
            yield
        finally:
            configuration.set_hypothesis_home_dir(before)


def fuzz_toolbox(box: Any, *, examples: int = 25, seed: int = 0, tools: Iterable[str] | None = None,
                 progress: Callable[[int, int, str], None] | None = None) -> FuzzReport:
    """Fuzz every tool of `box` (or those named in `tools`) through its own gate."""
    names = [n for n in box.names if tools is None or n in set(tools)]
    report = FuzzReport(seed=seed, examples=examples)
    watch = _Watch(box.executor)
    box.executor = watch
    fuzzer = _Fuzzer(box, watch)
    try:
        with quiet_runtime(), scratch_hypothesis_home():
            for done, name in enumerate(names):
                if progress is not None:
                    progress(done, len(names), name)
                report.tools.append(_fuzz_tool(fuzzer, name, examples, tool_seed(seed, name)))
            if progress is not None:
                progress(len(names), len(names), "")
    finally:
        box.executor = watch.inner
    return report


@dataclass(frozen=True, slots=True)
class Planned:
    """One call to make: a valid one (`mistake` None) or a mistake made of a valid one."""

    kind: str
    arguments: Any              # a dict, or JSON text (the whole call double-encoded)
    mistake: Mistake | None = None


def plan_calls(name: str, schema: Any, examples: int, seed: int) -> tuple[ToolFuzz, list[Planned]]:
    """The calls to make on one tool, valid ones first, and its (empty) record: the mistakes its schema
    itself accepts are counted as skipped there, and a schema that cannot be fuzzed is noted."""
    schema = schema if isinstance(schema, dict) else {"type": "object"}
    out = ToolFuzz(name, seed, {kind: KindStats() for kind in (VALID, *KINDS)})
    try:
        validator = compile_schema(schema, ARGUMENTS)
    except COMPILE_ERRORS as exc:
        out.note = f"the input schema cannot be compiled: {str(exc).splitlines()[0][:200]}"
        return out, []
    try:
        generated = generate(_declared_only(schema), examples, seed)
    except Exception as exc:  # noqa: BLE001 - hypothesis-jsonschema refuses some schemas; say so, go on
        generated = []
        out.note = f"no valid arguments could be generated: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    valid = [v for v in generated if isinstance(v, dict) and _is_valid(validator, v)]
    calls = [Planned(VALID, arguments) for arguments in valid]
    rng = random.Random(seed)
    bases = sorted({json.dumps(v, sort_keys=True): v for v in valid}.values(), key=lambda v: -len(v))[:BASES]
    rng.shuffle(bases)
    for base in bases:
        for mistake in mistakes_of(base, schema):
            if mistake.refuse and not mistake.needs_open and _is_valid(validator, _decoded(mistake.arguments)):
                out.kinds[mistake.kind].skipped += 1
                continue
            calls.append(Planned(mistake.kind, mistake.arguments, mistake))
    return out, calls


def _fuzz_tool(fuzzer: _Fuzzer, name: str, examples: int, seed: int) -> ToolFuzz:
    out, calls = plan_calls(name, fuzzer.box.contract(name).input_schema, examples, seed)
    for number, planned in enumerate(calls, 1):
        result = fuzzer.call(name, planned.arguments, number)
        if planned.mistake is None:
            sent = json.dumps(planned.arguments, ensure_ascii=False)
            record(out, VALID, sent, _valid_problems(fuzzer, result, sent))
        else:
            record(out, planned.kind, shorten(planned.arguments), _mistake_problems(fuzzer, planned.mistake, result))
    return out


def _decoded(arguments: Any) -> Any:
    if isinstance(arguments, str):
        try:
            return json.loads(arguments)
        except ValueError:
            return arguments
    return arguments


def _is_valid(validator: Any, value: Any) -> bool:
    try:
        return bool(validator.is_valid(value))
    except (ValueError, TypeError, OverflowError):
        return False


def record(out: ToolFuzz, kind: str, arguments: str, problems: list[tuple[str, str]]) -> None:
    stats = out.kinds[kind]
    stats.sent += 1
    if problems:
        stats.failed += 1
        out.findings += [Finding(out.tool, kind, check, message, shorten(arguments)) for check, message in problems]


__all__ = ["Finding", "FuzzReport", "KindStats", "Planned", "ToolFuzz", "error_like", "fuzz_toolbox", "generate",
           "leaks_in", "plan_calls", "record", "scratch_hypothesis_home", "shorten", "tool_seed"]
