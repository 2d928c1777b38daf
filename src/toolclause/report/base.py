"""What every reporter is given: the finished run, as data."""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING

from .. import _lazy_re as re
from ..linting.engine import LintReport
from ..linting.run import Fixes
from ..model import Diagnostic, Severity

if TYPE_CHECKING:
    from ..linting.suppressions import Suppressed


@dataclass
class FixSummary(Fixes):
    """What `--fix` did (the pipeline's `Fixes`: findings fixed, fixes not applied, files written), and
    for `--diff` what it would write."""

    diff: str | None = None  # --diff: what --fix would write, as a unified diff (nothing was written)


def failing_severity(fail_on: str) -> Severity | None:
    """The least severity that fails a run under `--fail-on` (error, warning, info), or None for never:
    the exit code and the JUnit report both ask here, so a failed test means an exit 1."""
    return None if fail_on == "never" else Severity.parse(fail_on)


@dataclass
class LintRun:
    """A finished lint run: the report (after the baseline), and what surrounded it.

    `tools_by_file` lists each file's tool names in order (JUnit needs the tools
    with no findings too).  `hidden_by_baseline` counts findings the baseline
    accepted.  `cwd` is where paths given as relative are relative to.
    """

    report: LintReport
    tools_by_file: dict[str, list[str]] = field(default_factory=dict)
    hidden_by_baseline: int = 0
    fixes: FixSummary | None = None
    baseline_written: str | None = None
    cwd: str = field(default_factory=os.getcwd)
    statistics: bool = False  # --statistics: a count per code after the findings
    notes: list[str] = field(default_factory=list)  # advice about the run itself (an old baseline)
    fail_on: str = "error"  # --fail-on: the findings that fail the run (JUnit shows only those as failures)
    # --show-suppressed: what governed suppressions hid, with the suppression (None: not asked for)
    suppressed: list[Suppressed] | None = None

    def relative_path(self, file: str | None) -> str:
        """A path for reports that want one relative to the working directory, '/' separated."""
        if not file:
            return ""
        if file == "-" or file.startswith("<"):
            return file
        if os.path.isabs(file):
            try:
                relative = os.path.relpath(file, self.cwd)
            except ValueError:
                return PurePath(file).as_posix()
            if not relative.startswith(".."):
                file = relative
        return PurePath(os.path.normpath(file)).as_posix()


def value_encoder(separators: tuple[str, str] = (", ", ": ")) -> Callable[[object], str]:
    """`json.JSONEncoder(ensure_ascii=False, separators=…).encode` for the acyclic values of a report, a
    finding at a time: json's C encoder made once and called directly.  `encode` builds a new one and
    goes through two Python functions for every value, half the cost of writing a small finding."""
    encoder = json.JSONEncoder(ensure_ascii=False, separators=separators)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - an interpreter without json's C accelerator
        return encoder.encode
    item_separator, key_separator = separators
    try:  # the arguments JSONEncoder.iterencode passes; markers None: no check for cycles (a report's
        # values have none); indent None: one line
        encode_one = make(None, encoder.default, json.encoder.encode_basestring, None, key_separator,
                          item_separator, False, False, True)
    except TypeError:  # pragma: no cover - a json module whose accelerator takes other arguments
        return encoder.encode
    join = "".join
    return lambda value: join(encode_one(value, 0))


def statistics_lines(diagnostics: Iterable[Diagnostic]) -> list[str]:
    """`--statistics`: how many findings of each code, most first (as ruff and flake8 print them).

        12  P001  error    openai-strict-incompatible
         3  C002  warning  array-without-items
    """
    counts: Counter[tuple[str, str, str]] = Counter((d.code, d.severity.label, d.name) for d in diagnostics)
    if not counts:
        return []
    width = len(str(max(counts.values())))
    rows = sorted(counts.items(), key=lambda item: (-item[1], item[0][0], item[0][1]))
    return [f"{count:>{width}}  {code}  {severity:<7}  {name}" for (code, severity, name), count in rows] + [""]


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'])")


def first_sentence(text: str) -> str:
    """The first sentence of a rule's summary, for one-line listings."""
    return _SENTENCE_END.split(" ".join(text.split()), maxsplit=1)[0]
