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
# a rule that relies on a provider's or protocol's documentation (family P) cites it in this section
REFERENCES = "References"
_FENCE = re.compile(r"```json\n(.*?)\n```", re.S)
_URL = re.compile(r"https://[^\s)>\]]+")
REPOSITORY = "https://github.com/toolclause/toolclause"  # the repository named in README.md


@dataclass(frozen=True)
class RuleDoc:
    code: str
    name: str
    sections: dict[str, str]

    def examples(self, section: str) -> list[Any]:
        """Every ```json block of a section, parsed."""
        return [json.loads(block) for block in _FENCE.findall(self.sections.get(section, ""))]


def documentation_url(rule: type[Rule]) -> str:
    """Where the rule's documentation is published: its module in the repository, whose docstring
    is the text `toolclause rules CODE` prints."""
    return f"{REPOSITORY}/blob/main/src/{rule.__module__.replace('.', '/')}.py"


def references(rule: type[Rule]) -> list[str]:
    """The documentation the rule relies on (its *References* section's URLs), in order."""
    return _URL.findall(parse_doc(rule).sections.get(REFERENCES, ""))


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
