"""`toolclause rules [CODE]`'s report: the catalogue, or one rule's documentation.

The documentation is the rule module's docstring — the same text the doc tests
run — rendered with rich on a terminal, as plain text otherwise, or as JSON.
"""

from __future__ import annotations

import io
import json
import re
import shutil
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from ..rules import ALL_RULES
from ..rules.base import Rule
from ..rules.docs import SECTIONS, parse_doc
from ..rules.measured import measured_line, of_code, precision_cell, rationale
from ..rules.owasp import named
from ..suggest import closest
from .base import first_sentence

_FENCE = re.compile(r"^```\w*\s*$")


class UnknownRule(LookupError):
    """No rule has that code or name; the message suggests the closest one."""


def rule_record(rule: type[Rule], with_documentation: bool = False) -> dict[str, Any]:
    record: dict[str, Any] = {
        "code": rule.code,
        "name": rule.name,
        "severity": rule.severity.label,
        "targets": sorted(rule.targets),
        "fixable": bool(rule.fixable),
        "summary": rule.summary(),
    }
    if rule.tags:  # the OWASP MCP Top 10 IDs of a security rule
        record["tags"] = list(rule.tags)
    if with_documentation:
        record["documentation"] = parse_doc(rule).sections
        record["measured"] = of_code(rule.code)
        record["severityRationale"] = rationale(rule)
    return record


def find_rule(query: str) -> type[Rule]:
    """A rule by code (any case) or by name; UnknownRule with a suggestion otherwise."""
    wanted = query.strip()
    for rule in ALL_RULES:
        if rule.code == wanted.upper() or rule.name == wanted.lower():
            return rule
    candidates = [r.code for r in ALL_RULES] + [r.name for r in ALL_RULES]
    hint = closest(wanted.upper() if re.fullmatch(r"[A-Za-z]\d+", wanted) else wanted, candidates)
    message = f"unknown rule {query!r}"
    message += f"; did you mean {hint!r}?" if hint else "; `toolclause rules` lists them all"
    raise UnknownRule(message)


def _console(color: bool) -> tuple[Console, io.StringIO]:
    buffer = io.StringIO()
    return Console(file=buffer, force_terminal=color, no_color=not color, color_system="standard" if color else None,
                   highlight=False, emoji=False, width=shutil.get_terminal_size((120, 24)).columns), buffer


def catalogue_text(color: bool) -> str:
    if not color:
        rows = [(r.code, r.name, r.severity.label, ",".join(sorted(r.targets)) or "-", "yes" if r.fixable else "no",
                 precision_cell(r.code), first_sentence(r.summary())) for r in ALL_RULES]
        header = ("CODE", "NAME", "SEVERITY", "TARGETS", "FIX", "PRECISION", "SUMMARY")
        widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(6)]
        lines = ["  ".join(str(cell).ljust(widths[i]) if i < 6 else str(cell) for i, cell in enumerate(row)).rstrip()
                 for row in [header, *rows]]
        lines.append("\nPRECISION: findings judged right at warning or error on real MCP servers (judged).")
        lines.append(f"\n{len(rows)} rules; `toolclause rules CODE` shows one rule's documentation.")
        return "\n".join(lines) + "\n"
    console, buffer = _console(color)
    table = Table(show_lines=False, header_style="bold")
    for column in ("Code", "Name", "Severity", "Targets", "Fix", "Precision", "Summary"):
        table.add_column(column, overflow="fold")
    for r in ALL_RULES:
        table.add_row(r.code, r.name, r.severity.label, ", ".join(sorted(r.targets)) or "-",
                      "yes" if r.fixable else "", precision_cell(r.code), first_sentence(r.summary()))
    console.print(table)
    console.print(f"{len(ALL_RULES)} rules; `toolclause rules CODE` shows one rule's documentation.")
    return buffer.getvalue()


def _plain_section(body: str) -> list[str]:
    out = []
    in_code = False
    for line in body.splitlines():
        if _FENCE.match(line.strip()):
            in_code = not in_code
            continue
        out.append(("    " if in_code else "  ") + line if line.strip() else "")
    return out


def documentation_text(rule: type[Rule], color: bool) -> str:
    doc = parse_doc(rule)
    targets = ", ".join(sorted(rule.targets)) or "every target (portable)"
    facts = f"severity: {rule.severity.label}   fixable: {'yes' if rule.fixable else 'no'}   targets: {targets}"
    why = f"severity {rationale(rule)}"
    measured = f"measured {measured_line(rule.code, rule.client_config)}"
    owasp = [f"OWASP MCP Top 10: {'; '.join(named(rule.tags))}"] if rule.tags else []
    if color:
        console, buffer = _console(color)
        console.print(f"[bold]{rule.code}[/bold]  {rule.name}")
        console.print(facts, style="dim")
        console.print(why, style="dim")
        console.print(measured, style="dim")
        for line in owasp:
            console.print(line, style="dim")
        body = "\n\n".join(f"## {title}\n{doc.sections[title]}" for title in _ordered(doc.sections))
        console.print(Markdown(body))
        return buffer.getvalue()
    lines = [f"{rule.code}  {rule.name}", facts, why, measured, *owasp]
    for title in _ordered(doc.sections):
        lines += ["", title, "-" * len(title), *_plain_section(doc.sections[title])]
    return "\n".join(lines) + "\n"


def _ordered(sections: dict[str, str]) -> list[str]:
    return [s for s in SECTIONS if s in sections] + [s for s in sections if s not in SECTIONS]


def render_rules(code: str | None, output_format: str, color: bool) -> str:
    if code is None:
        if output_format == "json":
            return json.dumps({"version": 1, "rules": [rule_record(r) for r in ALL_RULES]},
                              indent=2, ensure_ascii=False) + "\n"
        return catalogue_text(color)
    rule = find_rule(code)
    if output_format == "json":
        return json.dumps(rule_record(rule, with_documentation=True), indent=2, ensure_ascii=False) + "\n"
    return documentation_text(rule, color)
