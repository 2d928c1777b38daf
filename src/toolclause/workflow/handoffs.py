"""Handoffs: what one agent hands to another, validated by `$id` and routed by rules written as data.

    contracts/handoffs/triage_to_billing.json
    {"$id": "urn:example:handoff:triage_to_billing", "type": "object", ...,
     "x-routes": [{"when": "intent == 'refund' and confidence >= 0.8", "to": "billing_agent"},
                  {"when": "intent == 'refund'", "to": "human_review"},
                  {"to": "triage_agent"}]}                       # no `when`: the fallback

    handoffs = Handoffs("contracts/handoffs")
    route = handoffs.route({"intent": "refund", "confidence": 0.93, ...})
    route.to, route.schema_id, route.rule        # "billing_agent", "urn:…", 0

Rules are tried in order; the first whose `when` holds wins.  `when` is the
small expression language of `expressions.py` (no `eval`).  An object that does
not conform raises `HandoffError` with code `HANDOFF_INVALID` and a details
list naming each offending path; no matching rule is `NO_ROUTE`; a schema that
cannot be told (several handoffs and nothing names one) is `UNKNOWN_HANDOFF`.
A rule that does not parse refuses the whole folder at construction
(`HandoffConfigError`, naming the file and the rule's pointer).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..loading.contract_files import HANDOFF
from ..model import SchemaDocument
from .expressions import Expression, ExpressionError
from .schemas import Problem, SchemaSet, load_schemas

ROUTES_KEY = "x-routes"


class HandoffConfigError(ValueError):
    """The handoff folder cannot be used: unreadable files, a bad rule."""


class HandoffError(Exception):
    """A handoff refused: code (HANDOFF_INVALID, NO_ROUTE, UNKNOWN_HANDOFF), message, details."""

    def __init__(self, code: str, message: str, details: Iterable[Mapping[str, Any]] = ()) -> None:
        super().__init__(message)
        self.code, self.message, self.details = code, message, [dict(d) for d in details]

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "details": self.details}


@dataclass(frozen=True, slots=True)
class Rule:
    when: Expression | None
    to: str
    pointer: str  # in the schema file


@dataclass(frozen=True, slots=True)
class Route:
    """Where a handoff goes: the target, the schema it conformed to, the index of the rule that matched."""

    to: str
    schema_id: str
    rule: int
    when: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"to": self.to, "schema": self.schema_id, "rule": self.rule, "when": self.when}


@dataclass
class _Handoff:
    document: SchemaDocument
    rules: list[Rule] = field(default_factory=list)


def _rules(document: SchemaDocument) -> list[Rule]:
    raw = document.schema.get(ROUTES_KEY)
    if raw is None:
        return []
    where = f"{document.origin.file}: {ROUTES_KEY}"
    if not isinstance(raw, list):
        raise HandoffConfigError(f"{where} must be a list of {{when, to}} rules")
    rules = []
    for index, entry in enumerate(raw):
        pointer = f"/{ROUTES_KEY}/{index}"
        if not isinstance(entry, dict) or not isinstance(entry.get("to"), str) or not entry["to"]:
            raise HandoffConfigError(f"{document.origin.file}{pointer}: a rule is {{\"when\": …, \"to\": \"agent\"}}")
        when = entry.get("when")
        try:
            parsed = None if when is None else Expression.parse(when)
        except ExpressionError as exc:
            line = document.origin.position(pointer + "/when")[0]
            raise HandoffConfigError(f"{document.origin.file}{':' + str(line) if line else ''} {pointer}/when: "
                                     f"{exc}") from None
        rules.append(Rule(parsed, entry["to"], pointer))
    return rules


def _details(problems: list[Problem]) -> list[dict[str, Any]]:
    return [{"path": p.path, "message": p.message} for p in problems]


class Handoffs:
    """The handoff schemas of a folder (or given documents), by `$id`, with their routing rules."""

    def __init__(self, source: str | Path | Iterable[SchemaDocument] = "contracts/handoffs") -> None:
        references: list[SchemaDocument] = []
        if isinstance(source, (str, Path)):
            try:
                documents, references = load_schemas(source, HANDOFF)
            except ValueError as exc:
                raise HandoffConfigError(str(exc)) from None
        else:
            documents = list(source)
        self.schemas = SchemaSet(documents, references)
        self._handoffs = [_Handoff(d, _rules(d)) for d in documents]

    @property
    def ids(self) -> list[str]:
        return [h.document.id or h.document.name for h in self._handoffs]

    def schema(self, id_or_name: str) -> Mapping[str, Any]:
        """A handoff's JSON Schema (for a Structured Outputs `response_format` or an Agents SDK `output_type`)."""
        return self._find(id_or_name).document.schema

    def document(self, id_or_name: str) -> SchemaDocument:
        """A handoff schema's document: its file's stem (`name`), `$id`, schema and origin."""
        return self._find(id_or_name).document

    def output_type(self, id_or_name: str, *, strict: bool = True) -> Any:
        """The handoff schema as an OpenAI Agents SDK `output_type` (`Agent(output_type=…)`; the `agents` extra):
        the model is given the schema (strict-projected when `strict`), and its answer is checked against
        the schema as written (`ModelBehaviorError` naming the paths when it does not conform)."""
        try:
            from .output_types import HandoffOutput
        except ImportError as exc:  # the SDK is an optional extra
            raise ImportError("output_type needs the OpenAI Agents SDK: pip install 'toolclause[agents]'") from exc
        return HandoffOutput(self, id_or_name, strict=strict)

    def _find(self, id_or_name: str) -> _Handoff:
        for handoff in self._handoffs:
            if id_or_name in (handoff.document.id, handoff.document.name):
                return handoff
        raise HandoffError("UNKNOWN_HANDOFF", f"no handoff schema named {id_or_name!r}; the schemas are: "
                                              f"{', '.join(self.ids[:20]) or 'none'}",
                           [{"path": "", "message": "unknown schema", "allowed": self.ids[:20]}])

    def _choose(self, obj: Any, schema: str | None) -> _Handoff:
        if schema is not None:
            return self._find(schema)
        named = obj.get("$schema") if isinstance(obj, dict) else None
        if isinstance(named, str):
            return self._find(named)
        if len(self._handoffs) == 1:
            return self._handoffs[0]
        fitting = [h for h in self._handoffs if not self.schemas.check(h.document, obj)]
        if len(fitting) == 1:
            return fitting[0]
        raise HandoffError("UNKNOWN_HANDOFF", (
            "the object fits none of the handoff schemas" if not fitting else
            f"the object fits {len(fitting)} handoff schemas") + "; name one with schema= or a \"$schema\" key",
            [{"path": "", "message": "which schema", "allowed": [h.document.id or h.document.name
                                                                  for h in (fitting or self._handoffs)][:20]}])

    def validate(self, obj: Any, schema: str | None = None) -> Any:
        """The object, if it conforms to its handoff schema; else HandoffError HANDOFF_INVALID."""
        handoff = self._choose(obj, schema)
        self._check(handoff, obj)
        return obj

    def _check(self, handoff: _Handoff, obj: Any) -> None:
        body = {k: v for k, v in obj.items() if k != "$schema"} if isinstance(obj, dict) else obj
        problems = self.schemas.check(handoff.document, body)
        if problems:
            label = handoff.document.id or handoff.document.name
            raise HandoffError("HANDOFF_INVALID", f"the handoff does not conform to {label}: "
                                                  + "; ".join(p.message for p in problems[:5]), _details(problems))

    def route(self, obj: Any, schema: str | None = None) -> Route:
        """Validate the object, then return the first rule's target whose `when` holds."""
        handoff = self._choose(obj, schema)
        self._check(handoff, obj)
        label = handoff.document.id or handoff.document.name
        for index, rule in enumerate(handoff.rules):
            if rule.when is None or rule.when(obj):
                return Route(rule.to, label, index, rule.when.source if rule.when else None)
        tried = [r.when.source for r in handoff.rules if r.when is not None]
        raise HandoffError("NO_ROUTE", f"no routing rule of {label} matches the handoff"
                                       + (f" (tried: {'; '.join(tried[:5])})" if tried else " (it has no rules)"),
                           [{"path": "", "message": "no rule matched", "rules": tried[:20]}])


__all__ = ["HandoffConfigError", "HandoffError", "Handoffs", "ROUTES_KEY", "Route", "Rule"]
