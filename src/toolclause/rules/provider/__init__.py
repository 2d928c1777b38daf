"""Family P: provider and protocol compatibility (`toolclause rules` lists them)."""

from __future__ import annotations

from .p001_openai_strict_incompatible import OpenAIStrictIncompatible
from .p002_anthropic_strict_incompatible import AnthropicStrictIncompatible
from .p003_gemini_incompatible import GeminiIncompatible
from .p004_description_too_long import DescriptionTooLong
from .p005_too_many_tools import TooManyTools
from .p006_schema_too_large import SchemaTooLarge
from .p007_mcp_invalid_tool import McpInvalidTool

RULES = (
    OpenAIStrictIncompatible,
    AnthropicStrictIncompatible,
    GeminiIncompatible,
    DescriptionTooLong,
    TooManyTools,
    SchemaTooLarge,
    McpInvalidTool,
)
