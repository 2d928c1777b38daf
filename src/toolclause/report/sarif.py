"""`--format sarif`: SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.

Every rule of the catalogue is described in `tool.driver.rules` (from its
documentation, with `helpUri` where that documentation is published, for a
provider rule the provider documentation it relies on under its help text and
`properties.references`, and for a security rule `properties.tags`: `security` and
its OWASP MCP Top 10 IDs as `owasp-mcp/MCP03:2025`); each finding is a result that names its file (relative, under
%SRCROOT%), its line and column when known, the tool as a logical location and
the JSON Pointer as a property.  `partialFingerprints` use the same identity as
the baseline (code, file, tool name, pointer inside the tool, fingerprint of
what was found), so a finding keeps its identity when lines move or tools are
inserted above it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .._version import __version__
from ..linting.baseline import found_at
from ..model import Diagnostic, Severity
from ..rules import ALL_RULES
from ..rules.base import Rule
from ..rules.docs import REFERENCES, REPOSITORY, documentation_url, parse_doc, references
from ..rules.owasp import sarif_tags
from .base import LintRun, first_sentence, value_encoder

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = REPOSITORY
_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _rule_descriptor(rule: type[Rule]) -> dict[str, Any]:
    doc = parse_doc(rule)
    what = doc.sections.get("What it does", "").strip()
    why = doc.sections.get("Why is this bad?", "").strip()
    summary = rule.summary() or rule.name
    cited = references(rule)
    help_text = " ".join((what + "\n\n" + why).split()) or summary
    if cited:
        help_text += " " + REFERENCES + ": " + " ".join(cited)
    descriptor: dict[str, Any] = {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": first_sentence(summary)},
        "fullDescription": {"text": " ".join(what.split()) or summary},
        "helpUri": documentation_url(rule),
        "help": {"text": help_text, "markdown": rule.documentation() or summary},
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {"fixable": bool(rule.fixable), "targets": sorted(rule.targets)},
    }
    if cited:
        descriptor["properties"]["references"] = cited
    if rule.tags:  # code scanning groups alerts by these: `security`, `owasp-mcp/MCP03:2025`
        descriptor["properties"]["tags"] = sarif_tags(rule.tags)
    return descriptor


def _unknown_descriptor(d: Diagnostic) -> dict[str, Any]:
    # a finding from a rule outside the catalogue (the engine's own depth check)
    return {"id": d.code, "name": d.name, "shortDescription": {"text": d.name},
            "defaultConfiguration": {"level": _LEVEL[d.severity]}}


def fingerprint(d: Diagnostic, uri: str) -> str:
    identity = "\x1f".join((d.code, uri, d.tool or "", *found_at(d)))
    return hashlib.sha256(identity.encode("utf-8")).hexdigest()


def _uri(path: str) -> str:
    return "stdin" if path == "-" else quote(path, safe="/")


def _artifact(path: str) -> dict[str, Any]:
    artifact = {"uri": _uri(path)}
    if not Path(path).is_absolute() and path != "-":
        artifact["uriBaseId"] = "%SRCROOT%"
    return artifact


def _result(d: Diagnostic, rule_index: int, path: str, artifact: dict[str, Any]) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": dict(artifact)}
    if d.line is not None and d.line >= 1:
        region: dict[str, Any] = {"startLine": d.line}
        if d.column is not None and d.column >= 1:
            region["startColumn"] = d.column
        physical["region"] = region
    location: dict[str, Any] = {"physicalLocation": physical}
    if d.tool:
        location["logicalLocations"] = [{"name": d.tool, "fullyQualifiedName": f"{d.tool}{d.pointer}",
                                         "kind": "function"}]
    message = d.message
    if d.fix is not None:
        message += f" (fix: {d.fix.description})"
    result: dict[str, Any] = {
        "ruleId": d.code,
        "ruleIndex": rule_index,
        "level": _LEVEL[d.severity],
        "message": {"text": message},
        "locations": [location],
        "partialFingerprints": {"toolclauseFinding/v2": fingerprint(d, path)},
        "properties": {"tool": d.tool, "pointer": d.pointer, "name": d.name},
    }
    if d.fix is not None:
        result["properties"]["fix"] = {"description": d.fix.description, "safe": d.fix.safe}
    return result


def _notification(problem: Any, run: LintRun) -> dict[str, Any]:
    path = run.relative_path(problem.file)
    where = f" at {problem.pointer}" if problem.pointer else ""
    physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(path)}}
    if problem.line:
        physical["region"] = {"startLine": problem.line}
    return {"level": "error", "message": {"text": f"cannot read {path}{where}: {problem.message}"},
            "locations": [{"physicalLocation": physical}]}


def build(run: LintRun) -> dict[str, Any]:
    """The SARIF log as one dict (`chunks` writes the same log without holding every result at once)."""
    rules, index = _rules(run)
    log = _log(run, rules)
    log["runs"][0]["results"] = list(_results(run, index))
    return log


def _rules(run: LintRun) -> tuple[list[dict[str, Any]], dict[str, int]]:
    """Every rule's descriptor, then one for each code a finding has that no rule has, as first found."""
    rules = [_rule_descriptor(rule) for rule in ALL_RULES]
    index = {rule.code: position for position, rule in enumerate(ALL_RULES)}
    for d in run.report.diagnostics:
        if d.code not in index:
            index[d.code] = len(rules)
            rules.append(_unknown_descriptor(d))
    return rules, index


def _results(run: LintRun, index: dict[str, int]) -> Iterator[dict[str, Any]]:
    artifacts: dict[str | None, tuple[str, dict[str, Any]]] = {}
    for d in run.report.diagnostics:
        if d.file not in artifacts:  # a few files, many findings: work a path out once
            path = run.relative_path(d.file)
            artifacts[d.file] = (path, _artifact(path))
        yield _result(d, index[d.code], *artifacts[d.file])


def _log(run: LintRun, rules: list[dict[str, Any]], results: Any = None) -> dict[str, Any]:
    root = Path(run.cwd).resolve().as_uri().rstrip("/") + "/"
    invocation: dict[str, Any] = {"executionSuccessful": not run.report.unreadable}
    if run.report.unreadable:
        invocation["toolExecutionNotifications"] = [_notification(u, run) for u in run.report.unreadable]
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "toolclause", "version": __version__, "semanticVersion": __version__,
                                "informationUri": INFORMATION_URI, "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"uri": root}},
            "invocations": [invocation],
            "results": results,
            "properties": {"tools": run.report.tools, "files": run.report.files,
                           "hiddenByBaseline": run.hidden_by_baseline},
        }],
    }


# compact: SARIF is read by machines, and json's C encoder only runs without indent
_encode = value_encoder((",", ":"))
_RESULTS_HERE = "\x00toolclause: the results\x00"  # written as \u0000…\u0000: no path or message holds it


def chunks(run: LintRun) -> Iterator[str]:
    """The log in pieces, a result each: the bytes `render` writes, without a dict for every finding
    (nor the whole text) in memory at once."""
    rules, index = _rules(run)
    # only numbers follow the results, so the last place the marker is written is theirs
    head, tail = _encode(_log(run, rules, _RESULTS_HERE)).rsplit(_encode(_RESULTS_HERE), 1)
    yield head + "["
    first = True
    for result in _results(run, index):
        yield _encode(result) if first else "," + _encode(result)
        first = False
    yield "]" + tail + "\n"


def render(run: LintRun, *, color: bool = False) -> str:
    return "".join(chunks(run))
