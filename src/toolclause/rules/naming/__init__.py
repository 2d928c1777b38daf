"""Family N rules (see RULES.md)."""

from __future__ import annotations

RULES: tuple = ()
