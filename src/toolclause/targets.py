"""What each provider target accepts — the numbers of ../shared/provider-rules.md as data.

One place for these facts so that lint rules (N001, N005, P001–P007) and the
exporters agree.  Each entry cites the section of provider-rules.md it encodes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class NameRule:
    pattern: re.Pattern[str]
    max_length: int
    explain: str  # what the rule allows, in words, for messages


# §1.2, §2, §3, §4 — tool names
TOOL_NAME_RULES: dict[str, NameRule] = {
    # the intersection of OpenAI, Anthropic and Gemini; the default when no target is selected
    "default": NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64, "letters, digits, '_' and '-', 1 to 64 characters"),
    "openai": NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64, "letters, digits, '_' and '-', at most 64 characters"),
    "anthropic": NameRule(re.compile(r"[a-zA-Z0-9_-]{1,64}"), 64, "letters, digits, '_' and '-', 1 to 64 characters"),
    # SDK allows 128 and ':' since 2026; servers still reported 64 — lint at 64 with no colon for portability
    "gemini": NameRule(re.compile(r"[a-zA-Z_][a-zA-Z0-9_.-]{0,63}"), 64,
                       "a letter or '_' first, then letters, digits, '_', '.' or '-', at most 64 characters"),
    "mcp": NameRule(re.compile(r"[A-Za-z0-9_.-]{1,128}"), 128, "letters, digits, '_', '-' and '.', 1 to 128 characters"),
}
TOOL_NAME_RULES["openai-strict"] = TOOL_NAME_RULES["openai"]
TOOL_NAME_RULES["anthropic-strict"] = TOOL_NAME_RULES["anthropic"]

# §2 (Anthropic: top-level property keys), §3 (Gemini: parameter names)
PROPERTY_NAME_RULES: dict[str, NameRule] = {
    "default": NameRule(re.compile(r"[a-zA-Z0-9_.-]{1,64}"), 64, "letters, digits, '_', '.' and '-', 1 to 64 characters"),
    "anthropic": NameRule(re.compile(r"[a-zA-Z0-9_.-]{1,64}"), 64, "letters, digits, '_', '.' and '-', 1 to 64 characters"),
    "gemini": NameRule(re.compile(r"[a-zA-Z_][a-zA-Z0-9_]{0,63}"), 64,
                       "a letter or '_' first, then letters, digits and '_', at most 64 characters"),
}
PROPERTY_NAME_RULES["anthropic-strict"] = PROPERTY_NAME_RULES["anthropic"]

JSON_SCHEMA_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
