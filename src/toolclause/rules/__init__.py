"""The rule registry: every rule, listed explicitly, family by family.

No import side effects register anything; a rule exists when it is in a family's
`RULES` tuple.  Codes are public and never reused (see `toolclause rules`).
"""

from __future__ import annotations

from .base import Rule
from .description import RULES as DESCRIPTION_RULES
from .naming import RULES as NAMING_RULES
from .provider import RULES as PROVIDER_RULES
from .result import RULES as RESULT_RULES
from .safety import RULES as SAFETY_RULES
from .schema import RULES as SCHEMA_RULES
from .tightness import RULES as TIGHTNESS_RULES
from .widgets import RULES as WIDGET_RULES

ALL_RULES: tuple[type[Rule], ...] = (
    *SCHEMA_RULES,
    *NAMING_RULES,
    *DESCRIPTION_RULES,
    *TIGHTNESS_RULES,
    *PROVIDER_RULES,
    *SAFETY_RULES,
    *WIDGET_RULES,
    *RESULT_RULES,
)

BY_CODE: dict[str, type[Rule]] = {rule.code: rule for rule in ALL_RULES}

if len(BY_CODE) != len(ALL_RULES):  # pragma: no cover - caught by the registry test
    raise RuntimeError("two rules share a code")

__all__ = ["ALL_RULES", "BY_CODE", "Rule"]
