"""`toolclause test [DIR]`: every example and fixture of a contracts folder, checked like CI runs ajv.

Output like pytest's: a line per file with a mark per example (`.` passed, `F` failed),
then each failure with its file, line, column, JSON Pointer and reason, and a closing
line `N passed, N failed in S s`.  `--format json` prints one object, `--format junit`
a JUnit XML document.  Exit: 0 all passed, 1 any failed, 2 a folder that is not there.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .. import _lazy_re as re

if TYPE_CHECKING:
    from ..workflow.fixtures import Case, CheckRun

TEST_FORMATS = ("text", "json", "junit")
_NOT_XML = re.compile("[^\u0009\u000a\u000d\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class CheckError(click.ClickException):
    exit_code = 2

    def show(self, file: Any = None) -> None:
        click.echo(f"toolclause: error: {self.format_message()}", err=True)


def _where(file: str, line: int | None, column: int | None) -> str:
    return file + (f":{line}" if line else "") + (f":{column}" if line and column else "")


def render_text(run: CheckRun, color: bool = False) -> str:
    def paint(text: str, fg: str) -> str:
        return click.style(text, fg=fg, bold=True) if color else text

    out: list[str] = []
    grouped = run.by_file()
    for file, cases in grouped.items():
        marks = "".join(paint(".", "green") if c.passed else paint("F", "red") for c in cases)
        out.append(f"{file} {marks}")
    failed = [c for cases in grouped.values() for c in cases if not c.passed]
    if failed:
        out += ["", paint(" FAILURES ".center(70, "="), "red")]
        for case in failed:
            out.append(_failure_block(case))
    summary = f"{run.passed} passed, {run.failed} failed in {run.seconds:.2f}s"
    if not run.cases:
        summary = "no examples, fixtures or samples found; 0 passed, 0 failed"
    out.append(paint(f" {summary} ".center(70, "="), "red" if run.failed else "green"))
    return "\n".join(out) + "\n"


def _failure_block(case: Case) -> str:
    head = f"{_where(case.file, case.line, case.column)} {case.pointer or '/'} " + (
        f"({case.subject}, {case.expect} {case.kind})" if case.kind != "unreadable" else "(unreadable)")
    lines = [head]
    for failure in case.failures:
        lines.append(f"    {failure.pointer or '/'}" + (f" (line {failure.line})" if failure.line else "")
                     + f": {failure.message}")
    return "\n".join(lines)


def render_json(run: CheckRun) -> str:
    return json.dumps(run.to_dict(), ensure_ascii=False, indent=2) + "\n"


def _clean(text: object) -> str:
    return _NOT_XML.sub("\ufffd", str(text))


def render_junit(run: CheckRun) -> str:
    import xml.etree.ElementTree as ET

    root = ET.Element("testsuites", name="toolclause test", tests=str(len(run.cases)), failures=str(run.failed),
                      time=f"{run.seconds:.3f}")
    for file, cases in run.by_file().items():
        suite = ET.SubElement(root, "testsuite", name=_clean(file), tests=str(len(cases)),
                              failures=str(sum(1 for c in cases if not c.passed)))
        for case in cases:
            element = ET.SubElement(suite, "testcase", classname=_clean(file), name=_clean(case.name))
            if not case.passed:
                failure = ET.SubElement(element, "failure", message=_clean(case.failures[0].message))
                failure.text = _clean("\n".join(f"{_where(case.file, f.line, f.column)} {f.pointer or '/'}: "
                                                f"{f.message}" for f in case.failures))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def default_folder() -> str:
    return "contracts" if Path("contracts").is_dir() else "."


@click.command("test")
@click.argument("folders", nargs=-1, metavar="[DIR]...")
@click.option("--format", "output_format", type=click.Choice(TEST_FORMATS), default="text", show_default=True)
@click.option("--output", "-o", metavar="FILE", help="Write the report to FILE instead of standard output.")
def run_tests(folders: tuple[str, ...], output_format: str, output: str | None) -> None:
    """Check every example, fixture and sample in DIR (default: ./contracts, else .) against its schema."""
    chosen = folders or (default_folder(),)
    for folder in chosen:
        if not Path(folder).exists():
            raise CheckError(f"{folder}: no such file or folder")
    from ..workflow.fixtures import check_contracts

    run = check_contracts(chosen)
    if output_format == "json":
        text = render_json(run)
    elif output_format == "junit":
        text = render_junit(run)
    else:
        from .main import wants_color

        text = render_text(run, color=output is None and wants_color(sys.stdout))
    if output is None:
        click.echo(text, nl=False)
    else:
        try:
            Path(output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CheckError(f"--output {output}: cannot write: {exc.strerror or exc}") from None
        click.echo(f"toolclause: test: {run.passed} passed, {run.failed} failed; report written to {output}",
                   err=True)
    if run.failed:
        click.get_current_context().exit(1)


__all__ = ["TEST_FORMATS", "render_json", "render_junit", "render_text", "run_tests"]
