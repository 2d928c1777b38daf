"""`toolclause test`: every example and fixture of a contracts folder, checked.

- a tool's valid example (inline `examples.valid` or `examples/<tool>/valid/*.json`) must pass
  the gate, exactly as `Toolbox.call` would check it (parse, strict nulls, defaults,
  validation), and its `result`, when it gives one, must satisfy the tool's outputSchema;
- an invalid example must be refused by the gate without reaching the function, with the
  code it declares (`VALIDATION_ERROR`, `INVALID_ARGUMENTS_JSON`, …);
- a handoff or state schema's samples (its own `examples` keyword, or files under
  `examples/<schema name or $id>/valid|invalid/`) must satisfy it, or, under `invalid/`,
  must not; schemas refer to each other by `$id`;
- a file that cannot be read fails, with its reason.

A fixture file is checked against the tool or schema of its own contracts folder: when
two folders read in one run each have a tool of one name, each folder's fixtures meet
their own, and a fixture whose name only another folder has fails, saying so.

Each check is a `Case`; a failed one carries `Failure`s that point into the file
(JSON Pointer, line, column) and say why.  Nothing here prints or exits.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import Any

from ..loading import load_paths
from ..loading.contract_files import FIXTURE, belongs_to, contracts_folder, holds, inline_fixtures
from ..loading.result import LoadResult
from ..loading.text import parse_document
from ..model import Fixture, Origin, SchemaDocument, ToolContract
from .schemas import SchemaSet

VALID, INVALID = "valid", "invalid"
KIND_ARGUMENTS, KIND_SAMPLE, KIND_ROUTE, KIND_UNREADABLE = "arguments", "sample", "route", "unreadable"


@dataclass(frozen=True, slots=True)
class Failure:
    """One reason a case failed, located in the file."""

    pointer: str
    line: int | None
    column: int | None
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"pointer": self.pointer, "line": self.line, "column": self.column, "message": self.message}


@dataclass(frozen=True, slots=True)
class Case:
    """One example checked.

    kind     "arguments" (a tool's example arguments), "sample" (a handoff or state sample),
             "unreadable" (a file that could not be read)
    subject  the tool or schema the example belongs to
    expect   "valid" or "invalid"
    """

    file: str
    pointer: str
    line: int | None
    column: int | None
    kind: str
    subject: str
    expect: str
    failures: tuple[Failure, ...] = ()

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def name(self) -> str:
        return f"{self.subject} {self.expect} {self.pointer or '(file)'}" if self.kind != KIND_UNREADABLE \
            else f"{self.file} (unreadable)"

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "pointer": self.pointer, "line": self.line, "column": self.column,
                "kind": self.kind, "subject": self.subject, "expect": self.expect,
                "outcome": "passed" if self.passed else "failed", "failures": [f.to_dict() for f in self.failures]}


@dataclass
class CheckRun:
    """Every case, in file order, and how long the run took."""

    cases: list[Case] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def passed(self) -> int:
        return sum(1 for c in self.cases if c.passed)

    @property
    def failed(self) -> int:
        return len(self.cases) - self.passed

    def by_file(self) -> dict[str, list[Case]]:
        out: dict[str, list[Case]] = {}
        for case in sorted(self.cases, key=lambda c: (c.file, c.line or 0, c.pointer)):
            out.setdefault(case.file, []).append(case)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"version": 1, "passed": self.passed, "failed": self.failed, "seconds": round(self.seconds, 3),
                "cases": [c.to_dict() for c in sorted(self.cases, key=lambda c: (c.file, c.line or 0, c.pointer))]}


# --------------------------------------------------------------------------- the gate, without the function

class _Probe:
    """An executor that never runs anything: it notes that a call got through and returns the example's result."""

    def __init__(self) -> None:
        self.reached = False
        self.result: Any = None

    def run(self, tool: Any, arguments: dict[str, Any]) -> Any:
        self.reached = True
        return self.result

    async def arun(self, tool: Any, arguments: dict[str, Any]) -> Any:  # pragma: no cover - never awaited
        return self.run(tool, arguments)

    def close(self) -> None:
        pass


def _takes_anything(**arguments: Any) -> None:
    """Stands for the tool's function: the probe never calls it."""


@contextmanager
def quiet_runtime() -> Iterator[None]:
    """The gate logs every output violation as an error; an example's violation is a test result instead."""
    runtime_logger = logging.getLogger("toolclause.runtime")
    before = runtime_logger.disabled
    runtime_logger.disabled = True
    try:
        yield
    finally:
        runtime_logger.disabled = before


class ProbeBox:
    """Tools registered behind a probe: `call()` says what the gate answers and whether the call got through.

    A Toolbox holds one tool per name, but two contracts folders may each have their own tool of
    one name; a namesake goes into a further box, so that every tool is called as itself.
    """

    def __init__(self, tools: Iterable[ToolContract]) -> None:
        from ..runtime import ToolRegistrationError

        self.probe = _Probe()
        self._boxes: list[Any] = []
        self._box_of: dict[int, Any] = {}  # by id(): a ToolContract holds dicts, so it does not hash
        self._refused: dict[int, str] = {}
        for tool in tools:
            box = self._box_without(tool.name)
            try:
                box.add(tool, _takes_anything)
            except ToolRegistrationError as exc:
                self._refused[id(tool)] = str(exc)
            else:
                self._box_of[id(tool)] = box

    def _box_without(self, name: str) -> Any:
        from ..runtime import Toolbox

        for box in self._boxes:
            if name not in box:
                return box
        self._boxes.append(Toolbox(store="memory://", lint="off", executor=self.probe))
        return self._boxes[-1]

    def refusal(self, tool: ToolContract) -> str | None:
        """Why the tool could not be registered, or None."""
        return self._refused.get(id(tool))

    def call(self, tool: ToolContract, arguments: Any, result: Any = None) -> tuple[bool, Any]:
        self.probe.reached, self.probe.result = False, result
        outcome = self._box_of[id(tool)].call(tool.name, arguments)
        return self.probe.reached, outcome

    def close(self) -> None:
        for box in self._boxes:
            box.close()


# --------------------------------------------------------------------------- the run

def check_contracts(paths: Iterable[str | Path]) -> CheckRun:
    """Load the contracts under `paths` and check every example and fixture in them."""
    started = time.perf_counter()
    loaded = load_paths([str(p) for p in paths])
    schemas = SchemaSet([*loaded.handoffs, *loaded.states])
    run = CheckRun()
    for problem in loaded.unreadable:
        run.cases.append(Case(problem.file, problem.pointer, problem.line, None, KIND_UNREADABLE,
                              PurePath(problem.file).name, VALID,
                              (Failure(problem.pointer, problem.line, None, problem.message),)))
    documents = _Documents()
    box = ProbeBox(loaded.tools)
    try:
        with quiet_runtime():
            for fixture, tool in _fixtures_with_their_tools(loaded):
                if tool is not None:
                    run.cases.append(_tool_case(box, tool, fixture, documents.entry(fixture, tool)))
                else:
                    run.cases += _schema_cases(schemas, fixture) or [
                        _unknown_subject(fixture, loaded.tools, schemas.documents)]
            for document in schemas.documents:
                samples = document.schema.get("examples")
                for index, sample in enumerate(samples if isinstance(samples, list) else []):
                    pointer = f"/examples/{index}"
                    run.cases.append(_sample_case(schemas, document, True, sample, document.origin, pointer))
                run.cases += _route_cases(document)
    finally:
        box.close()
    run.seconds = time.perf_counter() - started
    return run


def _fixtures_with_their_tools(loaded: LoadResult) -> list[tuple[Fixture, ToolContract | None]]:
    """Each fixture file with the first tool of its name in its own contracts folder (or None), then each
    inline example with the tool that carries it."""
    by_name: dict[str, list[ToolContract]] = {}
    for tool in loaded.tools:
        by_name.setdefault(tool.name, []).append(tool)
    files = [(fixture, next((t for t in by_name.get(fixture.tool, ()) if belongs_to(fixture, t)), None))
             for fixture in loaded.fixtures]
    return files + [(fixture, tool) for tool in loaded.tools for fixture in inline_fixtures(tool)]


def _schema_cases(schemas: SchemaSet, fixture: Fixture) -> list[Case]:
    """A sample file checked against the schemas of its own contracts folder that its folder names
    (by `$id`, else by file stem); none when it names none."""
    folder = contracts_folder(fixture.origin.file)
    own = [d for d in schemas.documents if holds(folder, d.origin.file)]
    named = [d for d in own if d.id == fixture.tool] or [d for d in own if d.name == fixture.tool]
    return [_sample_case(schemas, document, fixture.valid, fixture.arguments, fixture.origin, fixture.origin.base)
            for document in named]


class _Documents:
    """The example as written (its wrapper, its `result`): fixture files re-read once, inline ones from the tool."""

    def __init__(self) -> None:
        self._files: dict[str, Any] = {}

    def entry(self, fixture: Fixture, tool: ToolContract) -> Any:
        if fixture.origin.base:  # an inline example of `tool`: "…/examples/valid/3"
            group, index = fixture.origin.base.rsplit("/", 2)[1:]
            examples = tool.extra.get("examples") or {}
            entries = examples.get(group) if isinstance(examples, dict) else None
            if isinstance(entries, list) and index.isdigit() and int(index) < len(entries):
                return entries[int(index)]
            return fixture.arguments
        file = fixture.origin.file
        if file not in self._files:
            try:
                text = Path(file).read_text(encoding="utf-8")
                doc, _, problem = parse_document(text, file, "json" if file.lower().endswith(".json") else "yaml")
                self._files[file] = fixture.arguments if problem is not None else doc
            except (OSError, UnicodeDecodeError):
                self._files[file] = fixture.arguments
        return self._files[file]


def _locate(origin: Origin, pointer: str) -> tuple[int | None, int | None]:
    line, column = origin.position(pointer)
    return line, column


def _failure(origin: Origin, pointer: str, message: str) -> Failure:
    line, column = _locate(origin, pointer)
    return Failure(pointer, line, column, message)


def _case(origin: Origin, pointer: str, kind: str, subject: str, valid: bool, failures: list[Failure]) -> Case:
    line, column = _locate(origin, pointer)
    return Case(origin.file, pointer, line, column, kind, subject, VALID if valid else INVALID, tuple(failures))


def _tool_case(box: ProbeBox, tool: ToolContract, fixture: Fixture, entry: Any) -> Case:
    base = fixture.origin.base
    wrapped = isinstance(entry, dict) and (
        isinstance(entry.get("arguments"), dict) if fixture.valid else "arguments" in entry)
    arguments_pointer = base + "/arguments" if wrapped else base
    has_result = fixture.valid and wrapped and "result" in entry
    failures: list[Failure] = []
    refused = box.refusal(tool)
    if refused is not None:
        failures.append(_failure(fixture.origin, base,
                                 f"the tool cannot be registered, so no call can pass: {refused}"))
        return _case(fixture.origin, base, KIND_ARGUMENTS, fixture.tool, fixture.valid, failures)
    reached, outcome = box.call(tool, fixture.arguments, entry.get("result") if has_result else None)
    error = outcome.error
    if fixture.valid:
        if not reached:
            details = [d for d in error.details if isinstance(d, dict)]
            failures.append(_failure(fixture.origin, arguments_pointer, f"valid example refused with {error.code}"
                                     + ("" if details else f": {error.message}")))
            failures += [_failure(fixture.origin, arguments_pointer + str(d.get("path", "")),
                                  _detail_phrase(d)) for d in details]
        elif has_result and error is not None and error.code == "OUTPUT_CONTRACT_VIOLATION":
            result_pointer = base + "/result"
            details = [d for d in error.details if isinstance(d, dict)] or [{"path": "", "problem": "type"}]
            failures += [_failure(fixture.origin, result_pointer + str(d.get("path", "")),
                                  "the example's result breaks the outputSchema: " + _detail_phrase(d))
                         for d in details]
    elif reached:
        failures.append(_failure(fixture.origin, arguments_pointer,
                                 "invalid example passed the gate: the function would have run"
                                 + (f" (expected {fixture.expected_code})" if fixture.expected_code else "")))
    elif fixture.expected_code is not None and error.code != fixture.expected_code:
        failures.append(_failure(fixture.origin, arguments_pointer,
                                 f"refused with {error.code}, but the example declares {fixture.expected_code}: "
                                 f"{error.message}"))
    return _case(fixture.origin, base, KIND_ARGUMENTS, fixture.tool, fixture.valid, failures)


def _detail_phrase(detail: dict[str, Any]) -> str:
    from ..runtime.validation import describe

    phrases = describe([detail]) if "problem" in detail and "path" in detail else []
    return phrases[0] if phrases else str(detail.get("problem") or detail.get("message") or "invalid")


def _sample_case(schemas: SchemaSet, document: SchemaDocument, valid: bool, sample: Any, origin: Origin,
                 pointer: str) -> Case:
    problems = schemas.check(document, sample)
    label = f"{document.kind} {document.id or document.name}"
    failures: list[Failure] = []
    if valid:
        failures = [_failure(origin, pointer + p.path, f"does not satisfy {label}: {p.message}") for p in problems]
    elif not problems:
        failures = [_failure(origin, pointer, f"an invalid sample satisfies {label}")]
    elif any(p.message.startswith("the schema cannot be compiled") for p in problems):
        failures = [_failure(origin, pointer, problems[0].message)]
    return _case(origin, pointer, KIND_SAMPLE, document.name, valid, failures)


def _route_cases(document: SchemaDocument) -> list[Case]:
    """A handoff's routing rules (`x-routes`): each must be {"when": <expression>, "to": "<agent>"}."""
    from .expressions import Expression, ExpressionError
    from .handoffs import ROUTES_KEY

    rules = document.schema.get(ROUTES_KEY)
    if rules is None or document.kind != "handoff":
        return []
    if not isinstance(rules, list):
        return [_case(document.origin, f"/{ROUTES_KEY}", KIND_ROUTE, document.name, True,
                      [_failure(document.origin, f"/{ROUTES_KEY}", "routing rules are a list of {when, to}")])]
    out = []
    for index, rule in enumerate(rules):
        pointer = f"/{ROUTES_KEY}/{index}"
        failures = []
        if not isinstance(rule, dict) or not isinstance(rule.get("to"), str) or not rule["to"]:
            failures.append(_failure(document.origin, pointer, 'a rule is {"when": "<expression>", "to": "<agent>"}'))
        elif rule.get("when") is not None:
            try:
                Expression.parse(rule["when"])
            except ExpressionError as exc:
                failures.append(_failure(document.origin, pointer + "/when", f"the rule does not parse: {exc}"))
        out.append(_case(document.origin, pointer, KIND_ROUTE, document.name, True, failures))
    return out


def _unknown_subject(fixture: Fixture, tools: list[ToolContract], documents: list[SchemaDocument]) -> Case:
    """A fixture file whose folder names no tool or schema of its own contracts folder."""
    from ..suggest import closest

    folder = contracts_folder(fixture.origin.file)
    elsewhere = [t.origin.file for t in tools if t.name == fixture.tool] + [
        d.origin.file for d in documents if fixture.tool in (d.name, d.id)]
    own_names = sorted({t.name for t in tools if holds(folder, t.origin.file)}
                       | {d.name for d in documents if holds(folder, d.origin.file)})
    message = f"no tool or schema named '{fixture.tool}'"
    if elsewhere:
        # a namesake in another folder may take other arguments: checking against it proves nothing here
        message += (f" in its contracts folder {folder}; the one in {elsewhere[0]} belongs to another "
                    f"contracts folder")
    elif (guess := closest(fixture.tool, own_names) if own_names else None) is not None:
        message += f"; did you mean '{guess}'?"
    message += " (the folder under examples/ names it)"
    kind = KIND_ARGUMENTS if fixture.origin.format == FIXTURE else KIND_SAMPLE
    return _case(fixture.origin, fixture.origin.base, kind, fixture.tool, fixture.valid,
                 [_failure(fixture.origin, fixture.origin.base, message)])


__all__ = ["Case", "Failure", "ProbeBox", "CheckRun", "check_contracts", "quiet_runtime"]
