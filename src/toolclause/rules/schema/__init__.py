"""Family S: is the schema valid JSON Schema at all? (`toolclause rules` lists them)"""

from __future__ import annotations

from .s001_invalid_schema import InvalidSchema
from .s002_unknown_type import UnknownType
from .s003_required_not_defined import RequiredNotDefined
from .s004_root_not_object import RootNotObject
from .s005_unresolvable_ref import UnresolvableRef
from .s006_unknown_keyword import UnknownKeyword
from .s007_enum_type_mismatch import EnumTypeMismatch
from .s008_invalid_default import InvalidDefault
from .s009_impossible_constraints import ImpossibleConstraints
from .s010_invalid_pattern import InvalidPattern
from .s011_duplicate_tool_name import DuplicateToolName

RULES = (
    InvalidSchema,
    UnknownType,
    RequiredNotDefined,
    RootNotObject,
    UnresolvableRef,
    UnknownKeyword,
    EnumTypeMismatch,
    InvalidDefault,
    ImpossibleConstraints,
    InvalidPattern,
    DuplicateToolName,
)
