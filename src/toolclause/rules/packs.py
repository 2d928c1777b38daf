"""Data-only rule packs: a team's own rules written in YAML, no Python (`rule-packs = ["rules/acme.yaml"]`).

    pack: {name: acme, version: "1.0.0"}
    rules:
      - code: ACME101
        severity: warning
        fields: [description, property-description, instructions]
        literals: ["corp.internal"]
        message: names an internal host
        tags: ["MCP10:2025"]

Each rule reports a tool whose chosen texts contain one of its literals, compared case-folded after
Unicode normalisation (NFKC: `ＣＯＲＰ.internal` and `Corp.Internal` are `corp.internal`).  A pack is
checked whole before any linting: an unknown key, a code that clashes with the built-in families or
another rule, an unknown field, and a pack over its limits are `PackError`s naming the key.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from .. import _lazy_re as re
from ..model import Severity, ToolContract
from ..schema.walk import NodeKind, walk
from . import CODES
from .base import Finding, LintContext, Rule, server_texts_once

MAX_PACK_BYTES = 1024 * 1024
MAX_RULES = 200
MAX_LITERALS = 500
MAX_LITERAL_CHARS = 200
MAX_MESSAGE_CHARS = 500
MAX_TEXT_CHARS = 100_000  # of one text searched (a description longer than this is searched in its start)

# the built-in families' letters: a user code starting with one would be chosen by that family's selector
BUILT_IN_FAMILIES = frozenset(code[0] for code in CODES)
USER_CODE = re.compile(r"[A-Z][A-Z0-9]{1,9}[0-9]")
PACK_KEYS = ("pack", "rules")
HEAD_KEYS = ("name", "version")
RULE_KEYS = ("code", "name", "severity", "fields", "literals", "message", "tags")
FIELDS = {
    "name": "the tool's name",
    "title": "the tool's title",
    "description": "the tool's description",
    "property-name": "a property's name",
    "property-description": "a property's description",
    "output-description": "a description in the output schema",
    "instructions": "what the server gives the model besides its tools (instructions, prompts, resources)",
}


class PackError(ValueError):
    """A rule pack that cannot be used (names the key)."""


def fold(text: str) -> str:
    """Text as literals are compared: Unicode-normalised (NFKC), then case-folded."""
    return unicodedata.normalize("NFKC", text[:MAX_TEXT_CHARS]).casefold()


def check_user_code(code: Any, where: str, taken: Iterable[str] = ()) -> str:
    """A user rule's code, when it clashes with nothing; PackError (a ValueError) naming `where` otherwise."""
    if not isinstance(code, str) or not USER_CODE.fullmatch(code):
        raise PackError(f"{where} must be upper-case letters then digits, like ACME101, not {str(code)[:40]!r}")
    if code[0] in BUILT_IN_FAMILIES:
        raise PackError(f"{where}: {code!r} starts with {code[0]!r}, a family of the built-in rules "
                        f"({', '.join(sorted(BUILT_IN_FAMILIES))}), whose selectors would choose it; "
                        f"start it with a letter of your own (ACME101)")
    if code in set(taken):
        raise PackError(f"{where}: {code!r} is the code of another rule")
    return code


@dataclass(frozen=True)
class PackRuleSpec:
    code: str
    name: str
    severity: Severity
    fields: tuple[str, ...]
    literals: tuple[str, ...]  # folded
    message: str
    tags: tuple[str, ...]


@dataclass(frozen=True)
class Pack:
    name: str
    version: str
    source: str
    rules: tuple[PackRuleSpec, ...]


def _unknown(mapping: Mapping[str, Any], known: Sequence[str], where: str) -> None:
    for key in mapping:
        if key not in known:
            raise PackError(f"{where}: unknown key {str(key)[:40]!r}; known: {', '.join(known)}")


def _strings(value: Any, where: str, limit: int, chars: int = MAX_LITERAL_CHARS) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v.strip() for v in value):
        raise PackError(f"{where} must be a list of non-empty strings")
    if len(value) > limit:
        raise PackError(f"{where}: {len(value)} entries; at most {limit}")
    if any(len(v) > chars for v in value):
        raise PackError(f"{where}: an entry over {chars} characters")
    return tuple(value)


def _rule(entry: Any, where: str, taken: list[str]) -> PackRuleSpec:
    if not isinstance(entry, Mapping):
        raise PackError(f"{where} must be a table of {', '.join(RULE_KEYS)}")
    _unknown(entry, RULE_KEYS, where)
    for key in ("code", "fields", "literals", "message"):
        if key not in entry:
            raise PackError(f"{where}.{key} is missing")
    code = check_user_code(entry["code"], f"{where}.code", taken)
    fields = _strings(entry["fields"], f"{where}.fields", len(FIELDS))
    for field in fields:
        if field not in FIELDS:
            raise PackError(f"{where}.fields: unknown field {field!r}; known: {', '.join(FIELDS)}")
    message = entry["message"]
    if not isinstance(message, str) or not message.strip() or len(message) > MAX_MESSAGE_CHARS:
        raise PackError(f"{where}.message must be text of 1 to {MAX_MESSAGE_CHARS} characters")
    try:
        severity = Severity.parse(str(entry.get("severity", "warning")))
    except ValueError as exc:
        raise PackError(f"{where}.severity: {exc}") from None
    name = entry.get("name", code.lower())
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name):
        raise PackError(f"{where}.name must be a lower-case slug (no-internal-host), not {str(name)[:40]!r}")
    tags = _strings(entry["tags"], f"{where}.tags", 20, 40) if "tags" in entry else ()
    taken.append(code)
    return PackRuleSpec(code, name, severity, fields, tuple(dict.fromkeys(fold(v) for v in _strings(
        entry["literals"], f"{where}.literals", MAX_LITERALS))), message.strip(), tags)


def parse_pack(document: Any, source: str, taken: Iterable[str] = ()) -> Pack:
    """A parsed YAML document as a pack; PackError naming the key when it cannot be used."""
    if not isinstance(document, Mapping):
        raise PackError(f"{source}: a rule pack is a table with 'pack' and 'rules'")
    _unknown(document, PACK_KEYS, source)
    head = document.get("pack")
    if not isinstance(head, Mapping):
        raise PackError(f"{source}: pack must be a table {{name, version}}")
    _unknown(head, HEAD_KEYS, f"{source}: pack")
    name, version = head.get("name"), head.get("version")
    if not isinstance(name, str) or not name.strip() or not isinstance(version, (str, int, float)):
        raise PackError(f"{source}: pack needs a name and a version (\"1.0.0\")")
    rules = document.get("rules")
    if not isinstance(rules, list) or not rules:
        raise PackError(f"{source}: rules must be a list of rules")
    if len(rules) > MAX_RULES:
        raise PackError(f"{source}: {len(rules)} rules; a pack holds at most {MAX_RULES}")
    codes = list(taken)
    specs = tuple(_rule(entry, f"{source}: rules[{index}]", codes) for index, entry in enumerate(rules))
    return Pack(name.strip(), str(version), source, specs)


class PackRule(Rule):
    """The rule one pack entry makes (`pack_rule_class`): literals looked for in the chosen texts."""

    spec: ClassVar[PackRuleSpec]
    pack: ClassVar[Pack]

    @classmethod
    def documentation(cls) -> str:
        spec, pack = cls.spec, cls.pack
        fields = ", ".join(FIELDS[f] for f in spec.fields)
        return (f"{spec.name} ({spec.code})\n\n## What it does\nFrom the rule pack {pack.name} {pack.version} "
                f"({pack.source}): reports a tool when {fields} contains any of: "
                f"{', '.join(repr(v) for v in spec.literals[:20])}{' …' if len(spec.literals) > 20 else ''} "
                f"(case-folded, Unicode-normalised).\n\n## Why is this bad?\n{spec.message}.")

    def _texts(self, tool: ToolContract) -> Iterator[tuple[str, str, str]]:
        fields = self.spec.fields
        if "name" in fields:
            yield "/name", tool.name, FIELDS["name"]
        if "title" in fields and isinstance(tool.title, str):
            yield "/title", tool.title, FIELDS["title"]
        if "description" in fields and isinstance(tool.description, str):
            yield "/description", tool.description, FIELDS["description"]
        wanted = {"property-name", "property-description", "output-description"} & set(fields)
        for role, schema, base in (("input", tool.input_schema, "/inputSchema"),
                                   ("output", tool.output_schema, "/outputSchema")) if wanted else ():
            if not isinstance(schema, dict):
                continue
            for node in walk(schema, base, role)[0]:
                description = node.schema.get("description")
                if role == "output" and "output-description" in wanted and isinstance(description, str):
                    yield f"{node.pointer}/description", description, FIELDS["output-description"]
                if role != "input" or node.kind is not NodeKind.PROPERTY:
                    continue
                if "property-name" in wanted:
                    yield node.pointer, node.pointer.rsplit("/", 1)[-1], FIELDS["property-name"]
                if "property-description" in wanted and isinstance(description, str):
                    yield f"{node.pointer}/description", description, FIELDS["property-description"]

    def _found(self, text: str) -> str | None:
        folded = fold(text)
        return next((literal for literal in self.spec.literals if literal in folded), None)

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterator[Finding]:
        for pointer, text, what in self._texts(tool):
            literal = self._found(text)
            if literal is not None:
                yield Finding(pointer, f"{self.spec.message}: {what} contains {literal!r}")

    def check_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> Iterator[tuple[ToolContract, Finding]]:
        if "instructions" not in self.spec.fields:
            return
        for tool, pointer, text, where in server_texts_once(tools):
            literal = self._found(text)
            if literal is not None:
                yield tool, Finding("", f"{self.spec.message}: {where} ({pointer} in the listing) contains "
                                        f"{literal!r}")


def pack_rule_class(pack: Pack, spec: PackRuleSpec) -> type[Rule]:
    """A Rule class for one entry of a pack (made once per run's configuration)."""
    return type(f"PackRule_{spec.code}", (PackRule,), {
        "code": spec.code, "name": spec.name, "severity": spec.severity, "tags": spec.tags,
        "spec": spec, "pack": pack, "__module__": __name__})


__all__ = ["BUILT_IN_FAMILIES", "FIELDS", "Pack", "PackError", "PackRule", "PackRuleSpec", "check_user_code",
           "fold", "pack_rule_class", "parse_pack"]
