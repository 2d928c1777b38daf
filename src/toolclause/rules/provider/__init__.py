"""Family P: provider and protocol compatibility (`toolclause rules` lists them).

The rules are imported when `RULES` is first read, not with the package: a run
without a target imports the three it runs (P004-P006) and leaves the checks of
OpenAI, Anthropic, Gemini and MCP unimported (see `rules._index`).
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name != "RULES":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from .p001_openai_strict_incompatible import OpenAIStrictIncompatible
    from .p002_anthropic_strict_incompatible import AnthropicStrictIncompatible
    from .p003_gemini_incompatible import GeminiIncompatible
    from .p004_description_too_long import DescriptionTooLong
    from .p005_too_many_tools import TooManyTools
    from .p006_schema_too_large import SchemaTooLarge
    from .p007_mcp_invalid_tool import McpInvalidTool

    rules = (
        OpenAIStrictIncompatible,
        AnthropicStrictIncompatible,
        GeminiIncompatible,
        DescriptionTooLong,
        TooManyTools,
        SchemaTooLarge,
        McpInvalidTool,
    )
    globals()["RULES"] = rules
    return rules
