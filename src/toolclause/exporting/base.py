"""The records every exporter shares: options, losses and results.

Each target module (`openai_chat`, `anthropic`, …) exposes the same function,
`export_tools(tools, options) -> ExportResult`, in the manner of cattrs'
`preconf` modules: the contracts know nothing of formats, one module per format.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import Code, Problem, code_table


@dataclass(frozen=True, slots=True)
class Loss(Problem):
    """Something of the canonical contract a projection could not keep.

    `code` is from `LOSSES`; `pointer` is canonical
    ("/inputSchema/properties/city/minLength"; "" for the tool as a whole);
    `keyword` the JSON Schema keyword or envelope field concerned; `message`
    (also `lost`) says in words what the exported copy no longer enforces.
    """

    tool: str = field(kw_only=True)
    keyword: str = field(kw_only=True)

    @property
    def lost(self) -> str:
        return self.message

    def to_dict(self) -> dict[str, str]:
        return {"tool": self.tool, "pointer": self.pointer, "keyword": self.keyword, "lost": self.lost}

    def __str__(self) -> str:
        return f"{self.tool} {self.pointer or '/'}: {self.lost}"


LOSSES = code_table([
    # the shape of the schema
    Code("root-not-object", "the arguments' root schema is not an object; the tool goes out without arguments"),
    Code("root-alternatives-merged", "a root anyOf/oneOf was merged into one object"),
    Code("not-a-schema", "a schema that is not an object, exported as any value"),
    Code("malformed-schema", "a schema whose keywords have values of the wrong kind; the tool goes out without "
                             "arguments"),
    Code("unknown-type-dropped", "a type name JSON Schema does not have was dropped"),
    Code("any-value-narrowed", "an untyped schema was narrowed to the scalar types"),
    # keywords the target cannot express
    Code("keyword-unsupported", "a keyword the target does not take, stated in the description instead"),
    Code("structured-enum-dropped", "an enum of objects or arrays, listed in the description instead"),
    Code("enum-as-strings", "Gemini `parameters` takes string enum values only"),
    Code("one-of-as-any-of", "oneOf became anyOf"),
    Code("extra-any-of-dropped", "a second anyOf beside another was dropped"),
    Code("all-of-conflict", "allOf branches set one keyword differently; the first value is kept"),
    Code("free-map-closed", "a map with free keys became a closed object"),
    Code("required-not-a-property", "a required name that is not a property, left out of a closed object"),
    Code("null-meaning-merged", "an optional property whose null means something, which strict mode also sends "
                                "for not given"),
    Code("free-object-closed", "a free-form object became the empty object"),
    # references
    Code("external-ref", "a $ref to another document, exported as any value"),
    Code("unresolved-ref", "a $ref that resolves to nothing, exported as any value"),
    Code("recursion-unrolled", "a recursive $ref unrolled to a fixed depth"),
    Code("too-large-to-inline", "$refs that would inline into more schema nodes than the budget; the tool goes "
                                "out without arguments"),
    # the provider's limits
    Code("enum-too-large", "an enum over OpenAI strict mode's size limits"),
    Code("too-many-properties", "more properties than OpenAI strict mode takes"),
    Code("too-large", "more characters of names and enum values than OpenAI strict mode takes"),
    Code("too-deep", "more nesting than OpenAI strict mode takes"),
    Code("too-many-declarations", "more function declarations than one Gemini request takes"),
    Code("strict-turned-off", "an Anthropic tool past the per-request strict limits goes out with strict: false"),
    Code("output-schema-dropped", "an outputSchema whose root is not an object cannot be declared under MCP"),
])
"""{code: Code} for every `Loss`."""


@dataclass(frozen=True, slots=True)
class ExportOptions:
    """What an exporter may be told besides the target.

    `settings` holds target-specific keys (documented in each target module):
    gemini `schema` = "json" | "openapi"; mcp `shape` = "tools" | "list";
    a2a `name`, `description`, `url`, `version`, `protocolBinding`.
    """

    strict: bool = False
    settings: Mapping[str, Any] = field(default_factory=dict)

    def setting(self, key: str, default: Any = None) -> Any:
        return self.settings.get(key, default)


@dataclass(slots=True)
class ExportResult:
    """What an export produced.

    `payload` is what the provider takes (a list of tools for OpenAI and
    Anthropic, a Gemini `Tool` object, MCP Tool objects or a `tools/list`
    result, response formats, an AgentCard).  `name_map` maps every exported
    tool name that differs from its canonical name back to it;
    `property_map` maps, per exported tool name, a canonical schema pointer of
    an object to the property keys renamed there ({exported: canonical}).
    """

    target: str
    strict: bool
    payload: Any
    losses: list[Loss] = field(default_factory=list)
    name_map: dict[str, str] = field(default_factory=dict)
    property_map: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)

    @property
    def tools(self) -> Any:
        return self.payload

    def routing(self) -> dict[str, Any]:
        """The map a runtime needs to route a call back to the canonical tool ({} when nothing moved)."""
        out: dict[str, Any] = {}
        if self.name_map:
            out["nameMap"] = dict(self.name_map)
        if self.property_map:
            out["propertyMap"] = self.property_map
        return out

    def document(self) -> Any:
        """The document `toolclause export` writes: the payload, in the one shape of its target whatever
        was renamed (the routing map goes beside it: `routing()`, `files()`)."""
        return self.payload

    def files(self, stem: str) -> dict[str, Any]:
        """The files `-o DIR` writes: the payload and, when names moved, the map beside it."""
        out: dict[str, Any] = {f"{stem}.json": self.payload}
        routing = self.routing()
        if routing:
            out[f"{stem}.names.json"] = routing
        return out


def dumps(document: Any) -> str:
    """The one serialisation every output and golden file uses (stable, diff-friendly)."""
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
