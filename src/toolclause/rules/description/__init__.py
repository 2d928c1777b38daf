"""Family D rules: descriptions and ambiguity (`toolclause rules` lists them)."""

from __future__ import annotations

from .d001_missing_tool_description import MissingToolDescription
from .d002_vague_tool_description import VagueToolDescription
from .d003_missing_property_description import MissingPropertyDescription
from .d004_missing_property_type import MissingPropertyType
from .d005_closed_set_without_enum import ClosedSetWithoutEnum
from .d006_opaque_enum_values import OpaqueEnumValues
from .d007_unformatted_date import UnformattedDate
from .d008_indistinct_tools import IndistinctTools
from .d009_undocumented_result import UndocumentedResult

RULES = (
    MissingToolDescription,
    VagueToolDescription,
    MissingPropertyDescription,
    MissingPropertyType,
    ClosedSetWithoutEnum,
    OpaqueEnumValues,
    UnformattedDate,
    IndistinctTools,
    UndocumentedResult,
)
