"""Compiled validators: the one place a JSON Schema becomes a jsonschema-rs validator.

Every compile takes one of a few named `Settings`, so the real differences
between callers are spelled out instead of scattered over keyword arguments:

    ARGUMENTS  a call's arguments at run time: formats asserted (an email
               must be an email), patterns bounded
    VALUES     a schema and its own values while linting (the meta-schema
               check, defaults, examples): formats are annotations,
               patterns bounded
    DRAFT      as the schema's draft says (formats asserted by drafts 4-7
               only), patterns unbounded: fixed documents and diff evidence

The draft is always detected from `$schema` (2020-12 without one).

Nothing is ever fetched while compiling.  jsonschema-rs would otherwise
retrieve a `$ref` to an `http(s)://` or `file://` URI on its own, so a tool
definition could make the linter, the differ or the gate read local files or
call any host.  Every compile passes a retriever that refuses each such
reference; a schema that needs one does not compile, which every caller
already treats as "cannot be checked".

`ValidatorMemo` keeps compiled validators by a key the caller chooses, for
callers that compile the same schema again and again.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import jsonschema_rs

# A pattern that backtracks catastrophically gives up instead of hanging the process.
_BOUNDED_PATTERNS = jsonschema_rs.FancyRegexOptions(backtrack_limit=100_000)

COMPILE_ERRORS: tuple[type[BaseException], ...] = (ValueError, jsonschema_rs.ValidationError,
                                                   jsonschema_rs.ReferencingError)
"""What compiling a schema that cannot be compiled raises."""


class RetrievalRefused(ValueError):
    """A schema referred to another document; nothing is fetched while compiling."""


def refuse_retrieval(uri: str) -> Any:
    raise RetrievalRefused(f"'{uri}' was not fetched: references to other documents are not followed")


@dataclass(frozen=True, slots=True)
class Settings:
    name: str
    assert_formats: bool | None  # None: as the draft says
    bounded_patterns: bool


ARGUMENTS = Settings("arguments", assert_formats=True, bounded_patterns=True)
VALUES = Settings("values", assert_formats=False, bounded_patterns=True)
DRAFT = Settings("draft", assert_formats=None, bounded_patterns=False)


def compile_schema(schema: Mapping[str, Any] | bool, settings: Settings, registry: Any = None) -> Any:
    """A compiled validator; raises one of COMPILE_ERRORS when the schema cannot be compiled.

    `registry` (a jsonschema_rs.Registry) supplies documents the schema may
    refer to; anything else it refers to is refused, never fetched.
    """
    options: dict[str, Any] = {"retriever": refuse_retrieval}
    if settings.assert_formats is not None:
        options["validate_formats"] = settings.assert_formats
    if settings.bounded_patterns:
        options["pattern_options"] = _BOUNDED_PATTERNS
    if registry is not None:
        options["registry"] = registry
    document = dict(schema) if isinstance(schema, Mapping) and not isinstance(schema, dict) else schema
    return jsonschema_rs.validator_for(document, **options)


class ValidatorMemo(dict):
    """Compiled validators by key, emptied all at once past `limit` entries (a bounded memo).

    A plain dict underneath, so whatever empties the package's memo dicts (the
    benchmarks' cold runs) empties these too.
    """

    def __init__(self, limit: int | None = None) -> None:
        super().__init__()
        self.limit = limit

    def compiled(self, key: Hashable, build: Callable[[], Any]) -> Any:
        """The validator kept for `key`, or `build()`'s, kept too (None, "cannot be compiled", as well)."""
        if key in self:
            return self[key]
        value = build()
        if self.limit is not None and len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value
