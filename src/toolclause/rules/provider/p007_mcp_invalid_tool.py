"""mcp-invalid-tool (P007)

## What it does
With the `mcp` target, validates each tool as the MCP Tool object it is (or
will be exported as) against the `Tool` definition of the official MCP schema,
version 2025-11-25 (bundled with toolclause): annotation values of the wrong
type (`"readOnlyHint": "yes"`), an `inputSchema` that is not an object with
`"type": "object"`, a `_meta` or `annotations` that is not an object, malformed
`icons` or `execution`.  Values the loader could not keep (a non-object
`annotations`, a non-string `title`) are checked as originally written.  It
also checks two rules of the specification text that the schema file cannot
express:

- the tool name: 1 to 128 characters of `A-Z a-z 0-9 _ - .`;
- `_meta` key names: an optional prefix of dot-separated labels and a `/`
  (each label starts with a letter and ends with a letter or digit), then a
  name that begins and ends with a letter or digit and may hold `-`, `_` and
  `.` in between.  The OpenAI Apps SDK keys `openai/toolInvocation/invoking`
  and `…/invoked`, which that platform requires, are not reported.

## Why is this bad?
MCP clients validate what a server lists; a tool that breaks the schema is
dropped or fails the whole `tools/list` response, and a wrongly typed hint
(`"false"` is truthy in JavaScript) misleads every client that reads it.

## Example
```json
{"name": "delete_file", "description": "Delete one file from the workspace by path.",
 "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
 "annotations": {"destructiveHint": "true"}}
```

## Use instead
```json
{"name": "delete_file", "description": "Delete one file from the workspace by path.",
 "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
 "annotations": {"destructiveHint": true}}
```

## Fix safety
Not applied by `--fix`: a wrong value needs the author to say what was meant
(`"true"` → `true` is likely, `"yes"` or `1` is a guess).

## References
- MCP specification 2025-11-25, Tools:
  https://modelcontextprotocol.io/specification/2025-11-25/server/tools
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from typing import Any

from ...model import Severity, ToolContract, escape_token, join_pointer
from ...schema.refs import MISSING
from ...schema.validators import DRAFT, compile_schema
from ...targets import APPS_SDK_META_KEYS, MCP_META_KEY, MCP_SCHEMA_VERSION, TOOL_NAME_RULES
from ..base import Finding, LintContext, Rule, original_value

_SCHEMA_FILE = f"mcp-{MCP_SCHEMA_VERSION}-tool.json"
# canonical fields whose original value the loader may have coerced or dropped
_ORIGINAL_FIELDS = ("name", "title", "description", "annotations", "_meta")
# Tool fields a ToolContract does not carry; for MCP sources they are read from the original
_MCP_ONLY_FIELDS = ("inputSchema", "outputSchema", "icons", "execution")
_MAX_ERRORS = 20


@functools.cache
def tool_validator() -> Any:
    """The compiled validator for the MCP Tool definition (compiled once per process)."""
    from importlib import resources  # read once, by the first run that needs it

    text = resources.files("toolclause").joinpath("data", _SCHEMA_FILE).read_text(encoding="utf-8")
    return compile_schema(json.loads(text), DRAFT)


def mcp_shape(tool: ToolContract) -> dict[str, Any]:
    """tool.to_mcp(), with the values the loader coerced or could not keep put back."""
    shape = tool.to_mcp()
    fields = _ORIGINAL_FIELDS + (_MCP_ONLY_FIELDS if tool.origin.format == "mcp" else ())
    for field in fields:
        value = original_value(tool, "/" + field)
        if value is not MISSING:
            shape[field] = value
    return shape


class McpInvalidTool(Rule):
    code = "P007"
    name = "mcp-invalid-tool"
    severity = Severity.ERROR
    targets = frozenset({"mcp"})

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        shape = mcp_shape(tool)
        yield from self._schema_errors(shape)
        name = shape.get("name")
        rule = TOOL_NAME_RULES["mcp"]
        if isinstance(name, str) and not rule.pattern.fullmatch(name):
            yield Finding("/name", f"MCP {MCP_SCHEMA_VERSION} tool names are {rule.explain} "
                                   f"(no spaces, '/' or ','); {name[:80]!r} is not")
        meta = shape.get("_meta")
        if isinstance(meta, dict):
            for key in meta:
                if isinstance(key, str) and key not in APPS_SDK_META_KEYS and not MCP_META_KEY.fullmatch(key):
                    yield Finding("/_meta/" + escape_token(key),
                                  f"_meta key {key!r} breaks the MCP key format: an optional prefix of "
                                  f"dot-separated labels ending in '/' (e.g. 'com.example/'), then a name that "
                                  f"starts and ends with a letter or digit")

    def _schema_errors(self, shape: dict[str, Any]) -> Iterable[Finding]:
        try:
            errors = list(tool_validator().iter_errors(shape))
        except (ValueError, RecursionError, OverflowError):
            return  # too deep or not JSON; S001 reports depth, the loader reports non-JSON input
        for error in errors[:_MAX_ERRORS]:
            path = list(error.instance_path)
            pointer = join_pointer("", *path)
            where = pointer or "the tool object"
            yield Finding(pointer, f"{where}: {error.message} (MCP {MCP_SCHEMA_VERSION} Tool schema)")
