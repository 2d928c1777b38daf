"""The bound tools of a gate, and the routing from names a provider saw back to them.

`ToolRegistry` holds the tools by canonical name.  An export may have to
rename a tool (`math.add` → `math_add` for OpenAI) or, in strict mode, a
property; the export's `Routing` says how to map a call back.  Routing is a
value the host holds and passes to `call(..., routing=…)`: exporting never
changes how a gate routes calls, and two exports (strict and not, two
providers) never overwrite each other's names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..model import ToolContract
from .errors import ToolRegistrationError
from .policy import CallPolicy
from .registration import BoundTool

PropertyMap = Mapping[str, Mapping[str, str]]  # canonical schema pointer → {exported key: canonical key}


@dataclass(frozen=True, slots=True)
class Routing:
    """How the names one export used map back to this gate's tools."""

    target: str
    strict: bool = False
    names: Mapping[str, str] = field(default_factory=dict)             # exported name → canonical name
    properties: Mapping[str, PropertyMap] = field(default_factory=dict)  # exported name → property renames

    @classmethod
    def of(cls, result: Any) -> Routing:
        """From an `ExportResult`."""
        return cls(result.target, result.strict, dict(result.name_map), dict(result.property_map))

    def resolve(self, name: str) -> tuple[str, PropertyMap] | None:
        """(canonical name, property renames) for an exported name; None when this export did not move it."""
        canonical = self.names.get(name)
        renames = self.properties.get(name)
        if canonical is None and renames is None:
            return None
        return canonical if canonical is not None else name, renames or {}

    def __bool__(self) -> bool:
        return bool(self.names or self.properties)


class _Exported:
    """What `Toolbox.export` returns: the payload itself, carrying how to route calls back."""

    routing: Routing
    losses: list[Any]

    def _carry(self, result: Any) -> None:
        self.routing = Routing.of(result)
        self.losses = list(result.losses)


class ExportedTools(_Exported, list):
    """A list of tools ready for the provider's SDK, with `.routing` and `.losses`."""


class ExportedDocument(_Exported, dict):
    """A document ready for the provider (a Gemini Tool, a tools/list result …), with `.routing` and `.losses`."""


def exported(result: Any) -> ExportedTools | ExportedDocument:
    payload = result.payload
    out: ExportedTools | ExportedDocument = ExportedTools(payload) if isinstance(payload, list) \
        else ExportedDocument(payload)
    out._carry(result)
    return out


class ToolRegistry:
    """Bound tools by canonical name."""

    __slots__ = ("tools", "policies")

    def __init__(self) -> None:
        self.tools: dict[str, BoundTool] = {}
        self.policies: dict[str, CallPolicy] = {}  # what the gate does around each tool (policy.py)

    def add(self, bound: BoundTool, policy: CallPolicy | None = None) -> None:
        if bound.name in self.tools:
            raise ToolRegistrationError(f"a tool named '{bound.name}' is already registered")
        self.tools[bound.name] = bound
        if policy is not None:
            self.policies[bound.name] = policy

    def replace(self, bound: BoundTool, policy: CallPolicy | None = None) -> None:
        """Swap a registered tool for a re-bound copy of itself (same name), and its policy."""
        self.tools[bound.name] = bound
        if policy is not None:
            self.policies[bound.name] = policy

    def find(self, fn: Any) -> BoundTool | None:
        """The tool bound to a function (for declarations that name a tool by its function)."""
        return next((t for t in self.tools.values() if t.fn is fn), None)

    def resolve(self, name: Any, routing: Routing | None) -> tuple[BoundTool | None, PropertyMap | None]:
        """The tool a call names (through `routing` when it moved the name), and its property renames."""
        if routing is not None:
            found = getattr(routing, "routing", routing).resolve(name)
            if found is not None:
                return self.tools.get(found[0]), found[1]
        return self.tools.get(name) if isinstance(name, str) else None, None

    def contracts(self) -> list[ToolContract]:
        return [t.contract for t in self.tools.values()]


__all__ = ["ExportedDocument", "ExportedTools", "PropertyMap", "Routing", "ToolRegistry", "exported"]
