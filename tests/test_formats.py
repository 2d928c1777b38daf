"""The command line's format choices (toolclause.formats) name exactly what the readers and reporters implement."""

from pathlib import Path

from toolclause import formats, report
from toolclause.loading import INPUT_FORMATS
from toolclause.loading.shapes import READERS
from toolclause.report import REPORTERS
from toolclause.report.diff import render


def test_every_tool_format_has_a_reader_and_every_reader_a_name():
    assert formats.TOOL_FORMATS == tuple(READERS)
    assert INPUT_FORMATS == ("auto", *READERS)


def test_every_report_format_has_a_reporter_module():
    assert formats.REPORT_FORMATS == tuple(REPORTERS)
    for name in formats.REPORT_FORMATS:
        assert callable(REPORTERS[name])
    reporters = {p.stem for p in Path(report.__file__).parent.glob("*.py")} - {"__init__", "base", "diff", "drift",
                                                                              "rules"}
    assert reporters <= set(formats.REPORT_FORMATS), "a reporter module that the command line does not offer"


def test_every_diff_format_renders_a_report():
    from toolclause import diff

    old = [{"name": "get_menu", "description": "The menu.", "inputSchema": {"type": "object"}}]
    report = diff(old, [])
    for name in formats.DIFF_FORMATS:
        assert "get_menu" in render(report, name)
