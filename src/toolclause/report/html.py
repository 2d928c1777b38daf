"""`--format html`: one self-contained page (styles and script inline), for people and for printing.

Summary first — counts per severity, per code and per tool — then the findings by file
and tool, each with the lines of the file it points at.  Severity is a symbol and a
word, never a colour alone.  The page works without its script (which only filters)
and prints cleanly.

This is the one reporter that reads files: it quotes the source lines around each
finding.  A file it cannot read again (standard input, a live server, a file that has
gone) is reported without the quotation, never as an error.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from pathlib import Path

from ..linting.fix import can_write_back
from ..model import Diagnostic, Severity
from ..rules import BY_CODE
from ..rules.docs import documentation_url
from ..web.assets import asset_text
from .base import LintRun, plural

CONTEXT_LINES = 1  # lines quoted above and below a finding's line
MAX_QUOTED_FILE_BYTES = 8 * 1024 * 1024
MAX_QUOTED_LINE_CHARS = 400
SYMBOL = {Severity.ERROR: "✖", Severity.WARNING: "▲", Severity.INFO: "ℹ"}
_ANCHOR = re.compile(r"[^A-Za-z0-9_-]+")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _severity(severity: Severity) -> str:
    return f'<span class="sev sev-{severity.label}">{SYMBOL[severity]} {severity.label}</span>'


class _Sources:
    """Each file's lines, read once, for quoting; None when the file cannot be read again."""

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.files: dict[str, list[str] | None] = {}

    def lines(self, file: str | None) -> list[str] | None:
        if not file or not can_write_back(file):
            return None
        if file not in self.files:
            self.files[file] = self._read(file)
        return self.files[file]

    def _read(self, file: str) -> list[str] | None:
        path = Path(file) if Path(file).is_absolute() else Path(self.cwd, file)
        try:
            if path.stat().st_size > MAX_QUOTED_FILE_BYTES:
                return None
            return path.read_text(encoding="utf-8-sig", errors="replace").splitlines()
        except OSError:
            return None


def _anchor(*parts: object) -> str:
    return "t-" + _ANCHOR.sub("-", "-".join(str(p) for p in parts)).strip("-")


def _quote(d: Diagnostic, lines: list[str] | None) -> str:
    if lines is None or d.line is None or not 1 <= d.line <= len(lines):
        return ""
    first, last = max(1, d.line - CONTEXT_LINES), min(len(lines), d.line + CONTEXT_LINES)
    rows = []
    for number in range(first, last + 1):
        text = lines[number - 1]
        if len(text) > MAX_QUOTED_LINE_CHARS:
            text = text[:MAX_QUOTED_LINE_CHARS] + " …"
        here = number == d.line
        rows.append(f'<span class="src-line{" here" if here else ""}"><span class="ln">{number}</span>'
                    f'<span class="mark">{"▶" if here else " "}</span>{_e(text) or " "}</span>')
        if here and d.column is not None and d.column <= MAX_QUOTED_LINE_CHARS:
            rows.append(f'<span class="src-line caret" aria-hidden="true"><span class="ln"></span><span class="mark">'
                        f' </span>{" " * (d.column - 1)}^</span>')
    label = f"lines {first}–{last}"
    return f'<pre class="source" aria-label="{label}">{"".join(rows)}</pre>'


def _finding(d: Diagnostic, sources: _Sources, shown: str) -> str:
    where = f"{d.line}:{d.column}" if d.line is not None and d.column is not None else (str(d.line) if d.line else "-")
    parts = [f'<li class="finding sev-{d.severity.label}" data-severity="{d.severity.label}" data-code="{_e(d.code)}">',
             f'<p class="head"><span class="pos">{_e(shown)}:{_e(where)}</span> {_severity(d.severity)} '
             f'<code class="code">{_e(d.code)}</code> <span class="name">{_e(d.name)}</span></p>',
             f'<p class="message">{_e(d.message)}</p>']
    if d.fix is not None:
        kind = "safe: <code>--fix</code> applies it" if d.fix.safe and d.fix.edits else "needs your judgement"
        parts.append(f'<p class="fix">Fix: {_e(d.fix.description)} <span class="muted">({kind})</span></p>')
    if d.pointer:
        parts.append(f'<p class="pointer muted">at <code>{_e(d.pointer)}</code></p>')
    rule = BY_CODE.get(d.code)
    if rule is None or not rule.client_config:  # a client configuration holds credentials beside what is found
        parts.append(_quote(d, sources.lines(d.file)))
    parts.append("</li>")
    return "".join(parts)


def _grouped(run: LintRun) -> dict[str, dict[str, list[Diagnostic]]]:
    files: dict[str, dict[str, list[Diagnostic]]] = {}
    for file, tools in run.tools_by_file.items():
        for tool in tools:
            files.setdefault(file, {}).setdefault(tool, [])
    for d in run.report.diagnostics:
        files.setdefault(d.file or "<no file>", {}).setdefault(d.tool or "<no tool>", []).append(d)
    return files


def _counts_line(run: LintRun) -> str:
    summary = run.report.summary
    text = (f"{plural(summary['error'], 'error')}, {plural(summary['warning'], 'warning')}, {summary['info']} info "
            f"in {plural(run.report.tools, 'tool')}, {plural(run.report.files, 'file')}")
    if run.report.unreadable:
        text += f"; {len(run.report.unreadable)} unreadable"
    if run.hidden_by_baseline:
        text += f"; {run.hidden_by_baseline} hidden by the baseline"
    return text


def _summary(run: LintRun, files: dict[str, dict[str, list[Diagnostic]]]) -> str:
    summary = run.report.summary
    severities = "".join(f'<tr><th scope="row">{_severity(s)}</th><td class="num">{summary[s.label]}</td></tr>'
                         for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))
    by_code: Counter[tuple[str, str, Severity]] = Counter((d.code, d.name, d.severity) for d in run.report.diagnostics)
    codes = "".join(f'<tr><td>{_code_link(code)}</td><td>{_e(name)}</td><td>{_severity(severity)}</td>'
                    f'<td class="num">{count}</td></tr>'
                    for (code, name, severity), count in sorted(by_code.items(), key=lambda kv: (-kv[1], kv[0][0])))
    tools = []
    for file, by_tool in files.items():
        for tool, found in by_tool.items():
            counts = Counter(d.severity for d in found)
            cells = "".join(f'<td class="num">{counts[s] or ""}</td>'
                            for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))
            name = f'<a href="#{_anchor(file, tool)}">{_e(tool)}</a>' if found else f"{_e(tool)} <span>✓ clean</span>"
            tools.append(f"<tr><td>{_e(run.relative_path(file))}</td><td>{name}</td>{cells}</tr>")
    return (
        '<section id="summary" aria-labelledby="summary-title"><h2 id="summary-title">Summary</h2>'
        f'<p class="total">{_e(_counts_line(run))}</p><div class="tables">'
        f'<table><caption>By severity</caption><tbody>{severities}</tbody></table>'
        + (f'<table><caption>By rule</caption><thead><tr><th scope="col">Code</th><th scope="col">Rule</th>'
           f'<th scope="col">Severity</th><th scope="col">Findings</th></tr></thead><tbody>{codes}</tbody></table>'
           if codes else "")
        + '</div>'
        + (f'<table class="tools"><caption>By tool</caption><thead><tr><th scope="col">File</th>'
           f'<th scope="col">Tool</th><th scope="col">✖ errors</th><th scope="col">▲ warnings</th>'
           f'<th scope="col">ℹ info</th></tr></thead><tbody>{"".join(tools)}</tbody></table>' if tools else "")
        + "</section>")


def _code_link(code: str) -> str:
    """A rule's code, linked to its documentation (the address SARIF gives as the rule's helpUri)."""
    rule = BY_CODE.get(code)
    if rule is None:
        return f"<code>{_e(code)}</code>"
    return f'<a href="{_e(documentation_url(rule))}"><code>{_e(code)}</code></a>'


def _unreadable(run: LintRun) -> str:
    if not run.report.unreadable:
        return ""
    items = "".join(f'<li><span class="pos">{_e(run.relative_path(u.file))}'
                    f'{":" + str(u.line) if u.line is not None else ""}</span> {_e(u.message)}'
                    f'{f" <code>{_e(u.pointer)}</code>" if u.pointer else ""}</li>' for u in run.report.unreadable)
    return (f'<section id="unreadable" aria-labelledby="unreadable-title"><h2 id="unreadable-title">✖ Unreadable '
            f'({len(run.report.unreadable)}; nothing in them was checked)</h2><ul>{items}</ul></section>')


def _findings(run: LintRun, files: dict[str, dict[str, list[Diagnostic]]], sources: _Sources) -> str:
    parts = ['<section id="findings" aria-labelledby="findings-title"><h2 id="findings-title">Findings</h2>'
             '<div class="filters" hidden><fieldset><legend>Show</legend>'
             + "".join(f'<label><input type="checkbox" value="{s.label}" checked> {SYMBOL[s]} {s.label}</label>'
                       for s in (Severity.ERROR, Severity.WARNING, Severity.INFO))
             + '</fieldset><label>Filter <input type="search" id="filter" placeholder="code, tool or text"></label>'
             '</div>']
    any_found = False
    for file, by_tool in files.items():
        found_tools = {tool: found for tool, found in by_tool.items() if found}
        if not found_tools:
            continue
        any_found = True
        shown = run.relative_path(file)
        parts.append(f'<section class="file"><h3>{_e(shown)}</h3>')
        for tool, found in found_tools.items():
            parts.append(f'<section class="tool" id="{_anchor(file, tool)}"><h4>{_e(tool)} '
                         f'<span class="muted">({plural(len(found), "finding")})</span></h4><ol>')
            parts.extend(_finding(d, sources, shown) for d in found)
            parts.append("</ol></section>")
        parts.append("</section>")
    if not any_found:
        parts.append('<p class="clean">✓ No findings.</p>')
    parts.append("</section>")
    return "".join(parts)


def _fixes(run: LintRun) -> str:
    fixes = run.fixes
    if fixes is None:
        return ""
    items = [f"<li>fixed {_e(d.file)}:{d.line or '-'} <code>{_e(d.code)}</code> "
             f"{_e(d.fix.description if d.fix else '')}</li>" for d in fixes.applied]
    items += [f"<li>not fixed {_e(s.diagnostic.file)}:{s.diagnostic.line or '-'} <code>{_e(s.diagnostic.code)}</code> "
              f"{_e(s.reason)}</li>" for s in fixes.skipped]
    items += [f"<li>{_e(note)}</li>" for note in fixes.notes]
    return (f'<section id="fixes"><h2>Fixes</h2><p>Fixed {plural(len(fixes.applied), "finding")} in '
            f'{plural(len(fixes.files_changed), "file")}.</p><ul>{"".join(items)}</ul></section>')


def render(run: LintRun, *, color: bool = False) -> str:
    """The page (`color` is ignored: severity is shown by symbol and word, styled by the page itself)."""
    files = _grouped(run)
    sources = _Sources(run.cwd)
    title = f"toolclause lint report: {_counts_line(run)}"
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{asset_text('report.css')}</style></head><body>"
        f'<header><h1>toolclause lint report</h1></header><main>'
        + _summary(run, files) + _unreadable(run) + _fixes(run) + _findings(run, files, sources)
        + f"</main><script>{asset_text('report.js')}</script></body></html>\n")
