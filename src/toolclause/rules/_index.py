"""Which rule lives where, and when it runs: enough to choose a run's rules without importing them.

Importing every rule module costs more than linting a short file, so a run
imports only the rules it selects: without a target, the checks of OpenAI,
Anthropic, Gemini and MCP (P001-P003, P007) stay unimported.  Each entry
repeats what its rule class declares (code, targets, binding_only), in the
registry's order; a test checks that the two agree.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .base import Rule


class RuleEntry(NamedTuple):  # a NamedTuple: made in a tenth of a dataclass's time, at every start
    code: str
    where: str  # "module:Class"; a module starting with "." is inside toolclause.rules
    targets: frozenset[str] = frozenset()
    binding_only: bool = False
    client_config: bool = False  # runs on MCP client configuration files, never on tools (family M)
    tags: tuple[str, ...] = ()  # OWASP MCP Top 10 IDs (reports carry them without importing the rule)

    @classmethod
    def of(cls, rule: type[Rule]) -> RuleEntry:
        """The entry of a rule class already imported (a test's own rule; the check of this index)."""
        return cls(rule.code, f"{rule.__module__}:{rule.__qualname__}", rule.targets, rule.binding_only,
                   rule.client_config, rule.tags)

    @property
    def module(self) -> str:
        module = self.where.partition(":")[0]
        return f"{__package__}{module}" if module.startswith(".") else module

    def load(self) -> type[Rule]:
        found: type[Rule] = getattr(importlib.import_module(self.module), self.where.partition(":")[2])
        return found


INDEX: tuple[RuleEntry, ...] = (
    RuleEntry("S001", ".schema.s001_invalid_schema:InvalidSchema"),
    RuleEntry("S002", ".schema.s002_unknown_type:UnknownType"),
    RuleEntry("S003", ".schema.s003_required_not_defined:RequiredNotDefined"),
    RuleEntry("S004", ".schema.s004_root_not_object:RootNotObject"),
    RuleEntry("S005", ".schema.s005_unresolvable_ref:UnresolvableRef"),
    RuleEntry("S006", ".schema.s006_unknown_keyword:UnknownKeyword"),
    RuleEntry("S007", ".schema.s007_enum_type_mismatch:EnumTypeMismatch"),
    RuleEntry("S008", ".schema.s008_invalid_default:InvalidDefault"),
    RuleEntry("S009", ".schema.s009_impossible_constraints:ImpossibleConstraints"),
    RuleEntry("S010", ".schema.s010_invalid_pattern:InvalidPattern"),
    RuleEntry("S011", ".schema.s011_duplicate_tool_name:DuplicateToolName"),
    RuleEntry("N001", ".naming.n001_invalid_tool_name:InvalidToolName"),
    RuleEntry("N002", ".naming.n002_generic_tool_name:GenericToolName"),
    RuleEntry("N003", ".naming.n003_compound_tool_name:CompoundToolName"),
    RuleEntry("N004", ".naming.n004_inconsistent_naming:InconsistentNaming"),
    RuleEntry("N005", ".naming.n005_invalid_property_name:InvalidPropertyName"),
    RuleEntry("D001", ".description.d001_missing_tool_description:MissingToolDescription"),
    RuleEntry("D002", ".description.d002_vague_tool_description:VagueToolDescription"),
    RuleEntry("D003", ".description.d003_missing_property_description:MissingPropertyDescription"),
    RuleEntry("D004", ".description.d004_missing_property_type:MissingPropertyType"),
    RuleEntry("D005", ".description.d005_closed_set_without_enum:ClosedSetWithoutEnum"),
    RuleEntry("D006", ".description.d006_opaque_enum_values:OpaqueEnumValues"),
    RuleEntry("D007", ".description.d007_unformatted_date:UnformattedDate"),
    RuleEntry("D008", ".description.d008_indistinct_tools:IndistinctTools"),
    RuleEntry("D009", ".description.d009_undocumented_result:UndocumentedResult"),
    RuleEntry("C001", ".tightness.c001_open_object:OpenObject"),
    RuleEntry("C002", ".tightness.c002_array_without_items:ArrayWithoutItems"),
    RuleEntry("C003", ".tightness.c003_unbounded_array:UnboundedArray"),
    RuleEntry("C004", ".tightness.c004_default_not_applied:DefaultNotApplied"),
    RuleEntry("C005", ".tightness.c005_unbounded_number:UnboundedNumber"),
    RuleEntry("T001", ".consistency.t001_either_or_not_encoded:EitherOrNotEncoded"),
    RuleEntry("T002", ".consistency.t002_counted_as_number:CountedAsNumber"),
    RuleEntry("T003", ".consistency.t003_framework_parameter_leaked:FrameworkParameterLeaked"),
    RuleEntry("T004", ".consistency.t004_bound_rejects_documented_value:BoundRejectsDocumentedValue"),
    RuleEntry("T005", ".consistency.t005_name_spelt_otherwise:NameSpeltOtherwise"),
    RuleEntry("T006", ".consistency.t006_speaks_to_the_model:SpeaksToTheModel"),
    RuleEntry("T007", ".consistency.t007_limit_stated_not_encoded:LimitStatedNotEncoded"),
    RuleEntry("T008", ".consistency.t008_format_stated_not_encoded:FormatStatedNotEncoded"),
    RuleEntry("P001", ".provider.p001_openai_strict_incompatible:OpenAIStrictIncompatible",
              frozenset({"openai", "openai-strict"})),
    RuleEntry("P002", ".provider.p002_anthropic_strict_incompatible:AnthropicStrictIncompatible",
              frozenset({"anthropic", "anthropic-strict"})),
    RuleEntry("P003", ".provider.p003_gemini_incompatible:GeminiIncompatible", frozenset({"gemini"})),
    RuleEntry("P004", ".provider.p004_description_too_long:DescriptionTooLong"),
    RuleEntry("P005", ".provider.p005_too_many_tools:TooManyTools"),
    RuleEntry("P006", ".provider.p006_schema_too_large:SchemaTooLarge"),
    RuleEntry("P007", ".provider.p007_mcp_invalid_tool:McpInvalidTool", frozenset({"mcp"})),
    RuleEntry("X001", ".safety.x001_god_tool:GodTool", tags=("MCP02:2025",)),
    RuleEntry("X002", ".safety.x002_missing_idempotency_key:MissingIdempotencyKey"),
    RuleEntry("X003", ".safety.x003_irreversible_without_confirmation:IrreversibleWithoutConfirmation"),
    RuleEntry("X004", ".safety.x004_read_tool_not_annotated:ReadToolNotAnnotated"),
    RuleEntry("X005", ".safety.x005_contradictory_annotations:ContradictoryAnnotations", tags=("MCP03:2025",)),
    RuleEntry("X006", ".safety.x006_destructive_not_annotated:DestructiveNotAnnotated"),
    RuleEntry("X007", ".safety.x007_tool_poisoning:ToolPoisoning", tags=("MCP03:2025", "MCP06:2025")),
    RuleEntry("X008", ".safety.x008_cross_tool_instruction:CrossToolInstruction", tags=("MCP03:2025", "MCP06:2025")),
    RuleEntry("X009", ".safety.x009_unrestricted_execution:UnrestrictedExecution", tags=("MCP05:2025",)),
    RuleEntry("X010", ".safety.x010_sensitive_output:SensitiveOutput", tags=("MCP01:2025", "MCP10:2025")),
    RuleEntry("W001", ".widgets.w001_template_not_found:TemplateNotFound"),
    RuleEntry("W002", ".widgets.w002_widget_mime_type:WidgetMimeType"),
    RuleEntry("W003", ".widgets.w003_widget_csp:WidgetCsp"),
    RuleEntry("W004", ".widgets.w004_invocation_text_too_long:InvocationTextTooLong"),
    RuleEntry("W005", ".widgets.w005_widget_metadata:WidgetMetadata"),
    RuleEntry("R001", ".result.r001_unstructured_error:UnstructuredError", binding_only=True),
    RuleEntry("R002", ".result.r002_output_schema_mismatch:OutputSchemaMismatch"),
    RuleEntry("R003", ".result.r003_default_mismatch:DefaultMismatch", binding_only=True),
    RuleEntry("R004", ".result.r004_no_results_as_error:NoResultsAsError"),
    RuleEntry("G001", ".governance.g001_expired_suppression:ExpiredSuppression"),
    RuleEntry("G002", ".governance.g002_invalid_suppression:InvalidSuppression"),
    RuleEntry("M001", ".clients.m001_literal_credential:LiteralCredential", client_config=True, tags=("MCP01:2025",)),
    RuleEntry("M002", ".clients.m002_unpinned_runner:UnpinnedRunner", client_config=True, tags=("MCP04:2025",)),
    RuleEntry("M003", ".clients.m003_plain_http_remote:PlainHttpRemote",
              client_config=True, tags=("MCP01:2025", "MCP07:2025")),
    RuleEntry("M004", ".clients.m004_shell_wrapper:ShellWrapper",
              client_config=True, tags=("MCP05:2025", "MCP04:2025")),
)
