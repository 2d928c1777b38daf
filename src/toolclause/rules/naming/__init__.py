"""Family N rules: tool and property names (`toolclause rules` lists them)."""

from __future__ import annotations

from .n001_invalid_tool_name import InvalidToolName
from .n002_generic_tool_name import GenericToolName
from .n003_compound_tool_name import CompoundToolName
from .n004_inconsistent_naming import InconsistentNaming
from .n005_invalid_property_name import InvalidPropertyName

RULES = (
    InvalidToolName,
    GenericToolName,
    CompoundToolName,
    InconsistentNaming,
    InvalidPropertyName,
)
