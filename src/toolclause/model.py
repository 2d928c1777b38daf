"""The frozen data every layer shares: tool contracts, problems and diagnostics.

No I/O happens here.  A `ToolContract` is the canonical form of one tool (the MCP
Tool object plus toolclause's optional keys) together with an `Origin` that says
where each part of it came from in the user's file, so that every diagnostic can
point into the document the user actually wrote.

Every problem toolclause reports has one shape, `Problem` (code, message,
pointer, context), whose code comes from a table of `Code`s kept beside the
layer that reports it (see `Problem`).

Schemas inside a contract are plain dicts for speed and for hand-off to the
compiled validator; treat them as read-only.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, TypeVar


class Severity(enum.IntEnum):
    """Ordered so that `severity >= threshold` reads naturally."""

    INFO = 1
    WARNING = 2
    ERROR = 3

    @property
    def label(self) -> str:
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Severity:
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"unknown severity {text!r}; use error, warning or info") from None


# --------------------------------------------------------------------------- pointers


def escape_token(token: str | int) -> str:
    """RFC 6901: '~' → '~0', '/' → '~1'."""
    return str(token).replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join_pointer(base: str, *tokens: str | int) -> str:
    return base + "".join("/" + escape_token(t) for t in tokens)


def split_pointer(pointer: str) -> list[str]:
    if not pointer:
        return []
    if "~" not in pointer:
        return pointer[1:].split("/")
    return [unescape_token(t) for t in pointer[1:].split("/")]


def resolve_pointer(document: Any, pointer: str) -> Any:
    """Return the value at `pointer`, raising KeyError when it does not exist."""
    node = document
    for token in split_pointer(pointer):
        if isinstance(node, dict):
            node = node[token]
        elif isinstance(node, list):
            if not token.isdigit() or int(token) >= len(node):
                raise KeyError(token)
            node = node[int(token)]
        else:
            raise KeyError(token)
    return node


@dataclass(frozen=True, slots=True)
class PointerMap:
    """Maps a pointer in the canonical tool to a pointer in the user's document.

    Each entry maps a canonical prefix to the original node it came from
    (`/inputSchema` → `/function/parameters`; for a converted list of parameter
    records `/inputSchema/properties/city` → `/parameters/2` and
    `/inputSchema/properties/city/description` → `/parameters/2/desc`).
    Lookup takes the longest matching entry and appends the rest of the pointer.
    A pointer that then names nothing in the original (a node the loader
    synthesised) is trimmed to its nearest real ancestor by the caller.
    """

    entries: Mapping[str, str] = field(default_factory=dict)
    # the longest entry, in pointer tokens: lookup starts there instead of at the
    # full pointer (maps of JSON-Schema-native shapes are all one token deep)
    depth: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "depth", max((key.count("/") for key in self.entries), default=0))

    def to_original(self, canonical: str) -> str:
        probe = canonical
        if probe.count("/") > self.depth:
            # start at the first `depth` tokens: no entry is longer
            cut = 0
            for _ in range(self.depth):
                cut = probe.find("/", cut + 1)
            probe = probe[:cut]
        while True:
            target = self.entries.get(probe)
            if target is not None:
                return target + canonical[len(probe):]
            if not probe:
                return canonical
            probe = probe[: probe.rfind("/")]


# --------------------------------------------------------------------------- contracts


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a tool came from.

    `file` is the path as given ("-" for standard input, "server:…" for live
    servers).  `base` is the pointer of the tool object inside that document
    (for JSONL, inside the line's record).  `line` is the record's line for JSONL.
    `group` names the tool list the tool belongs to: duplicate names and
    indistinct tools are only a problem inside one list.
    `locate` turns an original pointer into (line, column), computed lazily.
    """

    file: str
    format: str
    base: str = ""
    line: int | None = None
    group: str = ""
    pointers: PointerMap = field(default_factory=PointerMap)
    locate: Callable[[str], tuple[int, int] | None] | None = field(default=None, compare=False, repr=False)
    # The resources the tool's server declares (MCP wire shape: uri, name, mimeType, _meta;
    # templates carry uriTemplate), from a server snapshot or a live server.  None means
    # unknown (a plain tool file), which is not the same as a server that declares none.
    resources: tuple[Mapping[str, Any], ...] | None = field(default=None, compare=False, repr=False)
    # What else the server gives the model to read (its instructions, prompts, resource descriptions):
    # (pointer in the document, text, what it is), from a server snapshot or a live server.
    server_texts: tuple[tuple[str, str, str], ...] = field(default=(), compare=False, repr=False)

    def original_pointer(self, canonical: str) -> str:
        return self.base + self.pointers.to_original(canonical)

    def position(self, original_pointer: str) -> tuple[int | None, int | None]:
        if self.locate is None:
            return (self.line, None)
        found = self.locate(original_pointer)
        if found is None:
            return (self.line, None)
        return found


@dataclass(frozen=True, slots=True)
class ToolContract:
    """One tool in canonical (MCP Tool) form.

    `input_schema` is None when the source declares no parameters at all (the
    tool takes no arguments).  `extra` holds toolclause's own optional keys
    (`$id`, `version`, `errors`, `examples`) and `raw` the tool object exactly as
    found, so nothing the user wrote is lost.
    """

    name: str
    description: str | None = None
    title: str | None = None
    input_schema: dict[str, Any] | None = None
    output_schema: dict[str, Any] | None = None
    annotations: Mapping[str, Any] | None = None
    meta: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    raw: Any = None
    origin: Origin = field(default_factory=lambda: Origin(file="<memory>", format="mcp"))

    @property
    def ignored_codes(self) -> frozenset[str]:
        """Codes silenced by the contract itself with `x-toolclause-ignore` (its bare codes)."""
        codes = self.extra.get("x-toolclause-ignore")
        if isinstance(codes, list):  # bare codes; a table entry is a governed suppression (rules/governance)
            return frozenset(c.upper() for c in codes if isinstance(c, str))
        return frozenset()

    def to_mcp(self) -> dict[str, Any]:
        """The MCP Tool object (toolclause's extra keys stripped)."""
        tool: dict[str, Any] = {"name": self.name}
        if self.title is not None:
            tool["title"] = self.title
        if self.description is not None:
            tool["description"] = self.description
        no_arguments = {"type": "object", "properties": {}}
        tool["inputSchema"] = self.input_schema if self.input_schema is not None else no_arguments
        if self.output_schema is not None:
            tool["outputSchema"] = self.output_schema
        if self.annotations is not None:
            tool["annotations"] = dict(self.annotations)
        if self.meta is not None:
            tool["_meta"] = dict(self.meta)
        return tool


@dataclass(frozen=True, slots=True)
class SchemaDocument:
    """A contract that is a JSON Schema of its own rather than a tool.

    kind     "handoff" (an object one agent hands to another, `handoffs/*.json`) or
             "state" (a workflow checkpoint, `state/*.json`)
    name     the file's stem ("triage_to_billing")
    schema   the JSON Schema as written
    id       its `$id` (every handoff has one)
    version  its `version` (every state schema has one: a checkpoint names the version it was written with)
    origin   the file, with `format` = kind; `origin.position("/properties/x")` locates a part
    """

    kind: str
    name: str
    schema: Mapping[str, Any]
    id: str | None
    version: int | None
    origin: Origin


@dataclass(frozen=True, slots=True)
class Fixture:
    """Example arguments for one tool: a call that must pass, or one that must fail.

    tool           the tool's name (the folder name for a fixture file)
    valid          whether the call must pass
    arguments      the arguments as written (anything: an invalid example may not even be an object)
    expected_code  for an invalid example, the error code it must get ("VALIDATION_ERROR"), if it names one
    origin         the file; `origin.base` is the example's pointer in it ("" for a fixture file,
                   "/examples/valid/0" for an example inside a tool file)
    """

    tool: str
    valid: bool
    arguments: Any
    expected_code: str | None
    origin: Origin

    def position(self) -> tuple[int | None, int | None]:
        return self.origin.position(self.origin.base)


# --------------------------------------------------------------------------- problems

NO_CONTEXT: Mapping[str, Any] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem, in one shape everywhere (like pydantic-core's error records).

    code      a stable slug from the code table of the layer that reports it; programs
              branch on it, never on the message
    message   one sentence for people; its wording may change
    pointer   a JSON Pointer to where it is (into the document, the schema or the
              arguments: each record says which)
    context   the values the message was built from, so nothing has to parse it

    The records of each layer extend it with their own fields: `Unreadable` (the
    file and line), the diff's `Change` (impact, tool, old pointer), the export's
    `Loss` and `Drift`, the meta-schema's `MetaError`, the runtime's `ParseProblem`.
    `Diagnostic`, whose field order callers rely on, has the same four attributes.
    """

    code: str
    message: str
    pointer: str = ""
    context: Mapping[str, Any] = field(default_factory=lambda: NO_CONTEXT)  # one shared empty map


@dataclass(frozen=True, slots=True)
class Code:
    """One entry of a code table: the stable slug and what it means."""

    code: str
    summary: str


CodeT = TypeVar("CodeT", bound=Code)


def code_table(entries: Iterable[CodeT]) -> Mapping[str, CodeT]:
    """A read-only {code: entry} table; a code listed twice is a programming error."""
    table: dict[str, CodeT] = {}
    for entry in entries:
        if entry.code in table:
            raise ValueError(f"code {entry.code!r} is listed twice")
        table[entry.code] = entry
    return MappingProxyType(table)


# --------------------------------------------------------------------------- diagnostics


@dataclass(frozen=True, slots=True)
class Edit:
    """One change to a document at a pointer.

    op: "set" (add or replace the value), "remove" (delete the key).
    The pointer is canonical when a rule makes it and original once the engine
    has translated it.
    """

    op: str
    pointer: str
    value: Any = None


@dataclass(frozen=True, slots=True)
class Fix:
    description: str
    safe: bool = False
    edits: tuple[Edit, ...] = ()


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding.  Shared by the linter, the reporters and the runtime's details."""

    code: str
    name: str
    severity: Severity
    message: str
    tool: str | None = None
    file: str | None = None
    pointer: str = ""
    line: int | None = None
    column: int | None = None
    fix: Fix | None = None
    # the tool it was found on (not part of its value): baselines read what was found there
    contract: ToolContract | None = field(default=None, compare=False, repr=False)

    @property
    def context(self) -> Mapping[str, Any]:
        """The `Problem` view of a finding: what it carries besides code, message and pointer."""
        return {"name": self.name, "severity": self.severity.label, "tool": self.tool, "file": self.file,
                "line": self.line, "column": self.column}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "name": self.name,
            "severity": self.severity.label,
            "tool": self.tool,
            "file": self.file,
            "pointer": self.pointer,
            "line": self.line,
            "column": self.column,
            "message": self.message,
        }
        if self.fix is not None:
            out["fix"] = {"description": self.fix.description, "safe": self.fix.safe}
        return out


@dataclass(frozen=True, slots=True)
class Unreadable(Problem):
    """A file or record that could not be read; reported and counted, never fatal.

    `code` comes from `toolclause.loading.codes.UNREADABLE`; `pointer` is into the
    file (for JSONL, into the record on `line`).
    """

    file: str = field(kw_only=True)
    line: int | None = field(default=None, kw_only=True)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "pointer": self.pointer, "message": self.message}
        if self.line is not None:
            out["line"] = self.line
        return out
