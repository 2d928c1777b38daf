"""Family S: is the schema valid JSON Schema at all? (see RULES.md)"""

from __future__ import annotations

from .s003_required_not_defined import RequiredNotDefined

RULES = (
    RequiredNotDefined,
)
