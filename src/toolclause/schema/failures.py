"""What failed when a compiled validator says no: the JSON Schema keyword, as a stable code.

jsonschema-rs names each error by a kind class (`ValidationErrorKind.MinLength`);
toolclause names it by the keyword the schema's author wrote (`minLength`), so
the code reads the same in a runtime envelope's `details[].problem`, in a
meta-schema error and in the schema itself.  `KIND_KEYWORDS` maps the kinds
that always come from one keyword; the others (`Contains`, which `minContains`
and `maxContains` report too, and `PropertyNames`, which reports the keyword
inside it) take the keyword at the end of the error's schema path.
"""

from __future__ import annotations

from typing import Any

from ..model import Code, code_table

FAILED_KEYWORDS = code_table([
    Code("type", "the value is not of the declared type"),
    Code("enum", "the value is not one of the listed values"),
    Code("const", "the value is not the fixed value"),
    Code("multipleOf", "a number that is not a multiple of multipleOf"),
    Code("minimum", "a number below minimum"),
    Code("maximum", "a number above maximum"),
    Code("exclusiveMinimum", "a number not above exclusiveMinimum"),
    Code("exclusiveMaximum", "a number not below exclusiveMaximum"),
    Code("minLength", "a string shorter than minLength"),
    Code("maxLength", "a string longer than maxLength"),
    Code("pattern", "a string that does not match the pattern (or whose check gave up)"),
    Code("format", "a string not in the declared format"),
    Code("minItems", "an array with fewer items than minItems"),
    Code("maxItems", "an array with more items than maxItems"),
    Code("uniqueItems", "an array with a repeated item"),
    Code("contains", "an array without an item that matches contains"),
    Code("minContains", "an array with fewer matching items than minContains"),
    Code("maxContains", "an array with more matching items than maxContains"),
    Code("additionalItems", "an array with items beyond those declared (draft 7 and before)"),
    Code("unevaluatedItems", "an array with items no keyword evaluated"),
    Code("minProperties", "an object with fewer properties than minProperties"),
    Code("maxProperties", "an object with more properties than maxProperties"),
    Code("required", "a required property is missing (also from dependentRequired and dependencies)"),
    Code("additionalProperties", "an object with a property it does not declare"),
    Code("unevaluatedProperties", "an object with properties no keyword evaluated"),
    Code("not", "the value matches what not forbids"),
    Code("anyOf", "the value matches none of the alternatives"),
    Code("oneOf", "the value matches none, or several, of the alternatives"),
    Code("false", "the schema is false: no value is allowed here"),
    Code("contentEncoding", "a string not in the declared content encoding"),
    Code("contentMediaType", "a string not of the declared media type"),
])
"""{code: Code} for every keyword a compiled validator reports."""

KIND_KEYWORDS = {
    "Type": "type", "Enum": "enum", "Constant": "const", "MultipleOf": "multipleOf",
    "Minimum": "minimum", "Maximum": "maximum", "ExclusiveMinimum": "exclusiveMinimum",
    "ExclusiveMaximum": "exclusiveMaximum", "MinLength": "minLength", "MaxLength": "maxLength",
    "Pattern": "pattern", "BacktrackLimitExceeded": "pattern", "RegexEngineFailure": "pattern",
    "Format": "format", "MinItems": "minItems", "MaxItems": "maxItems", "UniqueItems": "uniqueItems",
    "AdditionalItems": "additionalItems", "UnevaluatedItems": "unevaluatedItems",
    "MinProperties": "minProperties", "MaxProperties": "maxProperties", "Required": "required",
    "AdditionalProperties": "additionalProperties", "UnevaluatedProperties": "unevaluatedProperties",
    "Not": "not", "AnyOf": "anyOf", "OneOfNotValid": "oneOf", "OneOfMultipleValid": "oneOf",
    "FalseSchema": "false", "ContentEncoding": "contentEncoding", "FromUtf8": "contentEncoding",
    "ContentMediaType": "contentMediaType",
}
"""jsonschema-rs error kind (class name) → the keyword it always reports."""


def failed_keyword(error: Any) -> str:
    """The code of one jsonschema-rs `ValidationError`: the keyword that failed."""
    name = type(error.kind).__name__
    keyword = KIND_KEYWORDS.get(name)
    if keyword is not None:
        return keyword
    path = list(error.schema_path)
    return str(path[-1]) if path else name


__all__ = ["FAILED_KEYWORDS", "KIND_KEYWORDS", "failed_keyword"]

