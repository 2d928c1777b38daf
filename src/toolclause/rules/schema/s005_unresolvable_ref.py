"""unresolvable-ref (S005)

## What it does
Resolves every `$ref` against the tool's own schema, the way a provider or MCP
client must: JSON pointers (`#/$defs/Address`), anchors (`#home`, `$anchor`)
and embedded `$id`s.  It reports a reference that points nowhere (with the
closest name that does exist), one that points at something that is not a
schema, and one to another document or a URL, which no provider fetches.
With `--target anthropic-strict` it also reports references that make the
schema recursive, which Anthropic's strict tool use rejects.

## Why is this bad?
A reference that does not resolve makes the whole tool unusable: clients fail
with "can't resolve reference", or drop the parameter's schema so the model
writes whatever it likes.  MCP forbids dereferencing network references, and
providers never fetch them.

## Example
```json
{"name": "create_order", "description": "Create a delivery order for the signed-in customer.",
 "inputSchema": {"type": "object",
                 "properties": {"address": {"$ref": "#/$defs/Adress"}},
                 "required": ["address"],
                 "$defs": {"Address": {"type": "object", "properties": {"street": {"type": "string"}}}}}}
```

## Use instead
```json
{"name": "create_order", "description": "Create a delivery order for the signed-in customer.",
 "inputSchema": {"type": "object",
                 "properties": {"address": {"$ref": "#/$defs/Address"}},
                 "required": ["address"],
                 "$defs": {"Address": {"type": "object", "properties": {"street": {"type": "string"}}}}}}
```

## Fix safety
The closest existing name is a guess, and an external schema has to be
copied in by a person, so nothing is applied by `--fix`.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...model import Fix, Severity, ToolContract
from ...schema.keywords import describe_value
from ...schema.refs import resolve_ref, split_ref
from ...schema.walk import SchemaNode
from ..base import Finding, LintContext, Rule
from ._common import root_of
from ._ref_cycles import recursive_refs
from ._refs import RefIndexes, problem

_INLINE = "copy the schema under '$defs' and refer to it as '#/$defs/<name>'"


class UnresolvableRef(Rule):
    code = "S005"
    name = "unresolvable-ref"
    severity = Severity.ERROR
    keywords = frozenset({"$ref"})
    roles = frozenset({"input", "output"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        ref = node.schema.get("$ref")
        root = root_of(tool, node.role)
        if not isinstance(ref, str) or not isinstance(root, dict) or _under_embedded_resource(node):
            return  # a non-string $ref is S001's; inside an embedded $id the base URI changes
        pointer = node.pointer + "/$ref"
        resolution = resolve_ref(root, ref, ctx.state(RefIndexes))
        if resolution.external:
            yield Finding(pointer, _external_message(ref), Fix(_INLINE))
        elif not resolution.ok:
            yield Finding(pointer, f"$ref '{ref}' points nowhere: {problem(resolution, root)}",
                          Fix("point the $ref at an existing definition, or add the definition"))
        elif not isinstance(resolution.target, (dict, bool)):
            yield Finding(pointer, f"$ref '{ref}' points at {describe_value(resolution.target)}, not at a schema",
                          Fix("point the $ref at a schema"))

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if "anthropic-strict" not in ctx.targets or not isinstance(tool.input_schema, dict):
            return
        for location, ref, chain in recursive_refs(tool.input_schema):
            loop = " → ".join(chain)
            yield Finding(f"/inputSchema{location}/$ref",
                          f"$ref '{ref}' makes the schema recursive ({loop}); Anthropic strict tool use rejects "
                          f"recursive schemas: unroll it to a fixed depth or turn strict mode off for this tool",
                          Fix("replace the recursion with a fixed number of nested levels"))


def _under_embedded_resource(node: SchemaNode) -> bool:
    """A subschema with its own `$id` (below the root) starts a new base URI; refs under it
    are resolved against that, which is beyond what this rule models."""
    current = node
    while current is not None and current.parent is not None:
        for key in ("$id", "id"):
            ident = current.schema.get(key)
            if isinstance(ident, str) and not ident.startswith("#"):
                return True
        current = current.parent
    return False


def _external_message(ref: str) -> str:
    document, _ = split_ref(ref)
    if document.startswith(("http://", "https://")):
        return (f"$ref '{ref}' is a network reference: providers and MCP clients do not fetch it (MCP forbids "
                f"dereferencing network references), so the model never sees that schema; {_INLINE}")
    return (f"$ref '{ref}' refers to another document ('{document}'), which providers and MCP clients cannot "
            f"load; {_INLINE}")
