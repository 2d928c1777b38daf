"""Family X: safe tool design — one job per tool, reads apart from writes, idempotency, no hidden instructions."""

from __future__ import annotations

from .x001_god_tool import GodTool
from .x002_missing_idempotency_key import MissingIdempotencyKey
from .x003_irreversible_without_confirmation import IrreversibleWithoutConfirmation
from .x004_read_tool_not_annotated import ReadToolNotAnnotated
from .x005_contradictory_annotations import ContradictoryAnnotations
from .x006_destructive_not_annotated import DestructiveNotAnnotated
from .x007_tool_poisoning import ToolPoisoning
from .x008_cross_tool_instruction import CrossToolInstruction
from .x009_unrestricted_execution import UnrestrictedExecution
from .x010_sensitive_output import SensitiveOutput

RULES: tuple = (
    GodTool,
    MissingIdempotencyKey,
    IrreversibleWithoutConfirmation,
    ReadToolNotAnnotated,
    ContradictoryAnnotations,
    DestructiveNotAnnotated,
    ToolPoisoning,
    CrossToolInstruction,
    UnrestrictedExecution,
    SensitiveOutput,
)
