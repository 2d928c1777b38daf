"""Projections: a canonical schema rewritten into what one target takes.

Each `Profile` encodes what one provider documents (see targets.py for the
sources); `project()` runs the projector (_projector.py) with it and returns the
schema, the losses and the property renames.  The strict profiles follow
OpenAI's `strict: true` subset and Anthropic's strict tool use; the Gemini ones
its two schema fields; the plain ones only repair what the envelope rejects in
any mode (a root without `properties`, a root `anyOf`, property names).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..schema.nullability import allows_null, make_nullable
from ..schema.regex_features import unsupported_regex_features
from ..schema.strict_size import openai_strict_size
from ..targets import (
    ANTHROPIC_STRICT_FORMATS,
    ANTHROPIC_STRICT_KEYWORDS,
    ANTHROPIC_STRICT_MIN_ITEMS,
    GEMINI_JSON_SCHEMA_KEYWORDS,
    GEMINI_SCHEMA_FIELDS,
    OPENAI_STRICT_FORMATS,
    OPENAI_STRICT_KEYWORDS,
    OPENAI_STRICT_MAX_NESTING,
    OPENAI_STRICT_MAX_PROPERTIES,
    OPENAI_STRICT_MAX_TOTAL_CHARS,
    PROPERTY_NAME_RULES,
    NameRule,
)
from ._projector import MAX_PROJECTED_NODES, Projector, TooLargeToInline
from .base import Loss

__all__ = ["PROFILES", "Profile", "Projection", "allows_null", "make_nullable", "project", "openai_size_losses"]


@dataclass(frozen=True)
class Profile:
    name: str
    keep: frozenset[str] | None = None          # keywords the target takes; None: all
    all_required: bool = False                  # every property required, optional ones nullable
    close_objects: bool = False                 # additionalProperties: false on every object
    objects_need_properties: bool = False       # `properties` on every object
    need_type: bool = False                     # a type (or anyOf/enum/const/$ref) on every schema
    formats: frozenset[str] | None = None       # the formats kept; None: all
    one_of_to_any_of: bool = False
    inline_refs: str = "none"                   # none | siblings | all
    recursion: bool = True                      # a recursive $ref may stay
    merge_root_composition: bool = False        # a root anyOf/oneOf becomes one object
    root_object: bool = True
    property_rule: NameRule | None = None
    property_top_only: bool = False
    min_items: frozenset[int] | None = None     # the only minItems values kept (others clamp to 1)
    enum_scalars: bool = False                  # enums of objects/arrays are dropped
    const_to_enum: bool = False
    openapi: bool = False                       # Gemini `parameters`: one type + nullable, string enums
    regex_check: Callable[[str], Any] | None = None
    array_items: bool = False                   # `items` on every array (OpenAI rejects one without, in any mode)


PROFILES: dict[str, Profile] = {
    "openai": Profile("openai", objects_need_properties=True, merge_root_composition=True, array_items=True),
    "openai-strict": Profile(
        "openai-strict", keep=OPENAI_STRICT_KEYWORDS, all_required=True, close_objects=True,
        objects_need_properties=True, need_type=True, formats=OPENAI_STRICT_FORMATS, one_of_to_any_of=True,
        inline_refs="siblings", merge_root_composition=True, array_items=True),
    "anthropic": Profile("anthropic", merge_root_composition=True, property_rule=PROPERTY_NAME_RULES["anthropic"],
                         property_top_only=True),
    "anthropic-strict": Profile(
        "anthropic-strict", keep=ANTHROPIC_STRICT_KEYWORDS, close_objects=True, formats=ANTHROPIC_STRICT_FORMATS,
        one_of_to_any_of=True, inline_refs="all", recursion=False, merge_root_composition=True,
        property_rule=PROPERTY_NAME_RULES["anthropic"], property_top_only=True,
        min_items=ANTHROPIC_STRICT_MIN_ITEMS, enum_scalars=True,
        regex_check=unsupported_regex_features),
    "gemini": Profile(
        "gemini", keep=GEMINI_JSON_SCHEMA_KEYWORDS, one_of_to_any_of=True, inline_refs="siblings",
        const_to_enum=True, property_rule=PROPERTY_NAME_RULES["gemini"]),
    "gemini-openapi": Profile(
        "gemini-openapi", keep=frozenset(k for k in GEMINI_SCHEMA_FIELDS if "_" not in k), one_of_to_any_of=True,
        inline_refs="all", recursion=False, const_to_enum=True, property_rule=PROPERTY_NAME_RULES["gemini"],
        openapi=True, merge_root_composition=True),
    "mcp": Profile("mcp"),
}


@dataclass
class Projection:
    schema: dict[str, Any]
    losses: list[Loss]
    renames: dict[str, dict[str, str]]   # canonical object pointer (below the root) → {exported: canonical}


def project(schema: dict[str, Any] | None, profile: Profile | str, tool: str, base: str = "/inputSchema") -> Projection:
    """Project one schema; the contract's own dict is never modified."""
    if isinstance(profile, str):
        profile = PROFILES[profile]
    if schema is None:
        schema = {"type": "object", "properties": {}}
    if not isinstance(schema, dict):  # `"inputSchema": false` and the like: loaded as written, never exportable
        return _without_arguments(Loss("root-not-object", f"the schema is {type(schema).__name__} "
                                                          f"{str(schema)[:40]}, not an object; the tool goes out "
                                                          f"without arguments", base, tool=tool, keyword="type"))
    projector = Projector(profile, tool, schema, base)
    try:
        out = projector.project_root()
    except TooLargeToInline:
        return _without_arguments(Loss("too-large-to-inline",
                                       f"inlining its $refs would write over {MAX_PROJECTED_NODES:,} schema nodes; "
                                       f"the tool goes out without arguments", base, tool=tool, keyword="$ref"))
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, RecursionError) as exc:
        # a keyword holding the wrong kind of value somewhere the projection did not foresee:
        # this tool is reported and goes out without arguments; the rest of the export goes on
        return _without_arguments(Loss("malformed-schema", f"the schema could not be projected "
                                                           f"({type(exc).__name__}: {str(exc)[:120]}); the tool "
                                                           f"goes out without arguments", base, tool=tool, keyword=""))
    losses = projector.losses
    if profile.name == "openai-strict":
        losses += openai_size_losses(out, tool, base)
    return Projection(out, losses, projector.renames)


def _without_arguments(loss: Loss) -> Projection:
    return Projection({"type": "object", "properties": {}}, [loss], {})


# --------------------------------------------------------------------------- OpenAI size limits (strict mode)

def openai_size_losses(schema: dict[str, Any], tool: str, base: str) -> list[Loss]:
    """The limits strict mode rejects outright; a projection cannot shrink a schema, so they are losses."""
    size = openai_strict_size(schema, base)
    losses = [Loss("enum-too-large", f"the enum of {figures.values} values is over strict mode's size limits; "
                                     f"OpenAI will reject it", pointer, tool=tool, keyword="enum")
              for pointer, figures in size.large_enums]
    if size.too_many_properties:
        losses.append(Loss("too-many-properties", f"{size.properties} properties: over strict mode's "
                                                  f"{OPENAI_STRICT_MAX_PROPERTIES}; OpenAI will reject it",
                           base, tool=tool, keyword="properties"))
    if size.too_many_chars:
        losses.append(Loss("too-large", f"{size.chars} characters of names and enum values: over strict "
                                        f"mode's {OPENAI_STRICT_MAX_TOTAL_CHARS}; OpenAI will reject it",
                           base, tool=tool, keyword="size"))
    if size.too_deep:
        losses.append(Loss("too-deep", f"{size.depth} levels of nesting: over strict mode's "
                                       f"{OPENAI_STRICT_MAX_NESTING}; OpenAI will reject it",
                           base, tool=tool, keyword="nesting"))
    return losses
