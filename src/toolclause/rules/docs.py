"""A rule's documentation, parsed: its sections and its JSON examples.

The same text feeds `toolclause rules CODE` and the tests that prove every
*Example* triggers its rule and every *Use instead* does not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .. import _lazy_re as re
from .base import Rule
from .options import describe_options

SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Fix safety")
_FENCE = re.compile(r"```json\n(.*?)\n```", re.S)


@dataclass(frozen=True)
class RuleDoc:
    code: str
    name: str
    sections: dict[str, str]

    def examples(self, section: str) -> list[Any]:
        """Every ```json block of a section, parsed."""
        return [json.loads(block) for block in _FENCE.findall(self.sections.get(section, ""))]


def parse_doc(rule: type[Rule]) -> RuleDoc:
    text = rule.documentation()
    sections: dict[str, str] = {}
    current = None
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("## "):
            if current:
                sections[current] = "\n".join(lines).strip()
            current, lines = line[3:].strip(), []
        elif current:
            lines.append(line)
    if current:
        sections[current] = "\n".join(lines).strip()
    if rule.CONF:  # written from the rule's declaration, so it cannot drift from what configuration accepts
        where = (f"Set in `[tool.toolclause.rules.{rule.code}]` (pyproject.toml) "
                 f"or `[rules.{rule.code}]` (toolclause.toml).")
        sections["Options"] = "\n".join([*describe_options(rule), "", where])
    return RuleDoc(rule.code, rule.name, sections)
