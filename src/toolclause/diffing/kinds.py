"""Every kind of change a diff reports, with its classification.

A change's `kind` is a stable slug from `DIFF_KINDS`; its impact comes from the
kind's `Effect` and from where the change is.  A schema can be the tool's input
(arguments: the question is whether a call that was valid still is) or its
output (results: whether a consumer written for the old results still copes),
so one kind of schema change is classified differently on each side: removing
an enum value breaks calls in an input schema and only narrows what consumers
receive in an output schema.  Changes to the tool itself (its name, its
annotations) have one impact wherever they are.

One kind depends on more than its place: a property removed from an input
object breaks calls only when the object is closed (`additionalProperties:
false`); the comparer says which, and the table lists both.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Code, code_table
from .model import Change, Impact

_CALLS, _RESULTS, _RISKY, _OK = Impact.BREAKING_CALLS, Impact.BREAKING_RESULTS, Impact.RISKY, Impact.COMPATIBLE


@dataclass(frozen=True, slots=True)
class Effect:
    """What a kind of change does, as the impacts it can have in an input and in an output schema."""

    label: str
    on_input: tuple[Impact, ...]
    on_output: tuple[Impact, ...]

    def impacts(self, role: str) -> tuple[Impact, ...]:
        return self.on_input if role == "input" else self.on_output


# fewer instances are valid: old calls may fail; old consumers are fine
NARROWS = Effect("narrows", (_CALLS,), (_OK,))
# more instances are valid: old calls still pass; old consumers may meet the unexpected
WIDENS = Effect("widens", (_OK,), (_RESULTS,))
# neither narrower nor wider: some old instances fail and some new ones are unexpected
CHANGES = Effect("changes", (_CALLS,), (_RESULTS,))
# what is valid is the same, but the model may now call or fill in differently
GUIDANCE = Effect("guidance", (_RISKY,), (_RISKY,))
# a property no longer declared: see the module docstring
UNDECLARES = Effect("undeclares", (_CALLS, _RISKY), (_RESULTS,))
# changes to the tool itself, the same wherever they are
ADDS = Effect("adds", (_OK,), (_OK,))
BREAKS_CALLS = Effect("breaks-calls", (_CALLS,), (_CALLS,))
BREAKS_RESULTS = Effect("breaks-results", (_RESULTS,), (_RESULTS,))

EFFECTS = (NARROWS, WIDENS, CHANGES, GUIDANCE, UNDECLARES, ADDS, BREAKS_CALLS, BREAKS_RESULTS)


@dataclass(frozen=True, slots=True)
class DiffKind(Code):
    effect: Effect

    def impact(self, role: str) -> Impact:
        """The impact of this kind in an input or output schema; an error for a kind that depends on more."""
        impacts = self.effect.impacts(role)
        if len(impacts) != 1:
            raise ValueError(f"the impact of {self.code!r} depends on the schema; the comparer must give it")
        return impacts[0]


def _kinds(effect: Effect, *entries: tuple[str, str]) -> list[DiffKind]:
    return [DiffKind(code, summary, effect) for code, summary in entries]


DIFF_KINDS = code_table([
    # ------------------------------------------------------------------ the tool
    *_kinds(BREAKS_CALLS,
            ("tool-removed", "a tool is gone; every call to it fails"),
            ("tool-renamed", "a tool has a new name (matched by its $id); calls by the old name fail")),
    *_kinds(ADDS,
            ("tool-added", "a new tool"),
            ("output-schema-added", "the tool now declares an outputSchema"),
            ("error-code-added", "the tool declares a new business error code")),
    *_kinds(BREAKS_RESULTS,
            ("output-schema-removed", "the tool no longer declares an outputSchema"),
            ("error-code-removed", "a declared business error code was removed"),
            # the widget contract: ChatGPT caches a widget at registration (diffing/widgets.py)
            ("widget-template-changed", "the tool's widget template (outputTemplate, ui.resourceUri) changed"),
            ("widget-mime-type-changed", "the widget resource is served with another mime type"),
            ("widget-csp-changed", "the widget resource's Content Security Policy changed"),
            ("widget-domain-changed", "the widget resource's openai/widgetDomain changed")),
    *_kinds(GUIDANCE,
            ("tool-description-changed", "the tool's description changed; the model chooses tools by it"),
            ("tool-title-changed", "the tool's title changed"),
            ("read-only-removed", "readOnlyHint is no longer true: the tool may now change state"),
            ("annotation-changed", "an annotation other than a removed readOnlyHint changed"),
            # ------------------------------------------------------------------ any schema
            ("description-changed", "a schema's description changed; the model reads it to fill arguments"),
            ("title-changed", "a schema's title changed"),
            ("default-changed", "a default changed, so a call that omits the value means something else")),
    # ------------------------------------------------------------------ what a schema accepts
    *_kinds(NARROWS,
            ("schema-restricted", "a schema that accepted anything now constrains the value"),
            ("schema-forbidden", "a schema now rejects every value (false)"),
            ("type-added", "a type is now declared where there was none"),
            ("type-narrowed", "fewer types are accepted"),
            ("enum-added", "the value is now limited to a list"),
            ("enum-value-removed", "values were removed from an enum"),
            ("const-added", "the value is now fixed"),
            ("exclusiveMinimum-added", "a draft-04 exclusiveMinimum flag was turned on"),
            ("exclusiveMaximum-added", "a draft-04 exclusiveMaximum flag was turned on"),
            ("bound-added", "a minimum, maximum, length, item or property bound was added"),
            ("bound-tightened", "a bound was tightened"),
            ("multiple-of-added", "values must now be multiples of a number"),
            ("pattern-added", "a string must now match a pattern"),
            ("format-added", "a string must now have a format"),
            ("nullable-removed", "an OpenAPI nullable: true was removed"),
            ("required-added", "a property is now required"),
            ("additional-properties-closed", "an object no longer accepts properties it does not declare"),
            ("items-added", "an array's items are now constrained"),
            ("unique-items-added", "an array's items must now be unique"),
            ("anyOf-added", "the value must now match an anyOf"),
            ("oneOf-added", "the value must now match a oneOf"),
            ("branch-removed", "an alternative of an anyOf or oneOf was removed"),
            ("all-of-added", "a further allOf constraint was added")),
    *_kinds(WIDENS,
            ("schema-unrestricted", "a constrained schema now accepts anything"),
            ("schema-allowed", "a schema that rejected everything (false) now accepts values"),
            ("type-removed", "the type is no longer declared"),
            ("type-widened", "more types are accepted"),
            ("enum-removed", "the value is no longer limited to a list"),
            ("enum-value-added", "values were added to an enum"),
            ("const-removed", "the value is no longer fixed"),
            ("exclusiveMinimum-removed", "a draft-04 exclusiveMinimum flag was turned off"),
            ("exclusiveMaximum-removed", "a draft-04 exclusiveMaximum flag was turned off"),
            ("bound-removed", "a bound was removed"),
            ("bound-loosened", "a bound was loosened"),
            ("multiple-of-removed", "values need no longer be multiples of a number"),
            ("multiple-of-loosened", "multipleOf changed to a divisor of the old one"),
            ("pattern-removed", "a string need no longer match a pattern"),
            ("format-removed", "a string need no longer have a format"),
            ("required-removed", "a property is no longer required"),
            ("additional-properties-opened", "an object now accepts properties it does not declare"),
            ("items-removed", "an array's items are no longer constrained"),
            ("unique-items-removed", "an array's items need no longer be unique"),
            ("anyOf-removed", "an anyOf was removed"),
            ("oneOf-removed", "a oneOf was removed"),
            ("branch-added", "an alternative was added to an anyOf or oneOf"),
            ("all-of-removed", "an allOf constraint was removed")),
    *_kinds(CHANGES,
            ("type-changed", "the type changed to one that neither contains nor is contained by the old"),
            ("const-changed", "the fixed value changed"),
            ("multiple-of-changed", "multipleOf changed to a number that is not a divisor of the old one"),
            ("pattern-changed", "a string's pattern changed"),
            ("format-changed", "a string's format changed")),
    *_kinds(ADDS,
            ("property-added", "an optional property (or any result property) was added")),
    *_kinds(UNDECLARES,
            ("property-removed", "a property is no longer declared: breaking calls when the object is closed, "
                                 "risky when it is open; breaking results in an output schema")),
])
"""Every diff kind: {code: DiffKind}."""




def change(kind: str, tool: str, old_pointer: str, new_pointer: str, message: str, *, role: str = "input",
           impact: Impact | None = None) -> Change:
    """A `Change` of a kind from `DIFF_KINDS`, classified by the table unless `impact` is given.

    `role` says whether the change is in an input or an output schema (changes to
    the tool itself have one impact either way).
    """
    entry = DIFF_KINDS[kind]
    return Change(kind, message, new_pointer, impact=impact or entry.impact(role), tool=tool, old_pointer=old_pointer)


__all__ = ["DIFF_KINDS", "DiffKind", "EFFECTS", "Effect", "change"]
