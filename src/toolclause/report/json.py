"""`--format json`: one object (version, tools, files, diagnostics, summary, unreadable), nothing more or less.

With --show-suppressed, a last key `suppressed` lists the findings governed suppressions hid, each with its
`suppressedBy` (code, tool, reason, owner, until, file, pointer).  A finding of a security rule carries
`tags`: the OWASP MCP Top 10 IDs it is an instance of (`["MCP03:2025"]`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from ..model import Diagnostic
from ..rules import tags_of
from .base import LintRun, value_encoder


def chunks(run: LintRun) -> Iterator[str]:
    """The report in pieces, one finding per line: readable, greppable, and fast (json's C encoder only
    runs without `indent`, which matters at 40,000 findings).  Written piece by piece, a report of any
    size never stands whole in memory, nor does a dict for every finding."""
    report = run.report
    head = {"version": 1, "tools": report.tools, "files": report.files}
    yield "{\n" + "".join(f"  {json.dumps(k)}: {json.dumps(v)},\n" for k, v in head.items())
    yield '  "diagnostics": '
    yield from _items((_finding(d) for d in report.diagnostics), "  ")
    yield f',\n  "summary": {json.dumps(report.summary)},\n'
    yield '  "unreadable": '
    yield from _items((u.to_dict() for u in report.unreadable), "  ")
    if run.suppressed is not None:  # --show-suppressed
        yield ',\n  "suppressed": '
        yield from _items(({**_finding(s.diagnostic), "suppressedBy": s.by.record()} for s in run.suppressed), "  ")
    yield "\n}\n"


def _finding(d: Diagnostic) -> dict:
    """The finding's record, with `tags` (OWASP MCP Top 10 IDs) where its rule has any."""
    record = d.to_dict()
    tags = tags_of(d.code)
    if tags:
        record["tags"] = list(tags)
    return record


def _items(items: Iterable[dict], indent: str) -> Iterator[str]:
    dumps = value_encoder()  # json.dumps(item, ensure_ascii=False) would build an encoder for every finding
    first = True
    for item in items:
        yield ("[\n" if first else ",\n") + indent + "  " + dumps(item)
        first = False
    yield "[]" if first else "\n" + indent + "]"


def render(run: LintRun, *, color: bool = False) -> str:
    return "".join(chunks(run))
