"""duplicate-tool-name (S011)

## What it does
Finds tools in one list that share a name, and reports each one after the
first, saying where the first one is.  A folder's files are one tool set
(one contract per file is the usual layout), so two files naming the same
tool are reported too, naming the other file and its line.

## Why is this bad?
A model calls a tool by name, so two tools with one name cannot both be
reached: providers reject the request ("tool names must be unique"), MCP
clients keep one and drop the other, and a call may run the wrong code.

## Example
```json
[{"name": "search", "description": "Search the product catalogue by keyword and category.",
  "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
 {"name": "search", "description": "Search the help-centre articles for an answer to a question.",
  "inputSchema": {"type": "object", "properties": {"question": {"type": "string"}}, "required": ["question"]}}]
```

## Use instead
```json
[{"name": "search_products", "description": "Search the product catalogue by keyword and category.",
  "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
 {"name": "search_help_articles", "description": "Search the help-centre articles for an answer to a question.",
  "inputSchema": {"type": "object", "properties": {"question": {"type": "string"}}, "required": ["question"]}}]
```

## Fix safety
Choosing a new name needs a person (and callers follow the name), so `--fix`
applies nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule


class DuplicateToolName(Rule):
    code = "S011"
    name = "duplicate-tool-name"
    severity = Severity.ERROR

    def survey_tools(self, tools: Sequence[ToolContract], ctx: LintContext) -> dict[str, tuple[int, ToolContract]]:
        """Each name's first tool, and its place in the list."""
        first_by_name: dict[str, tuple[int, ToolContract]] = {}
        for position, tool in enumerate(tools):
            if isinstance(tool.name, str) and tool.name and tool.name not in first_by_name:
                first_by_name[tool.name] = (position, tool)
        return first_by_name

    def check_member(self, tool: ToolContract, first_by_name: dict[str, tuple[int, ToolContract]],
                     ctx: LintContext) -> Iterable[Finding]:
        if not isinstance(tool.name, str) or not tool.name:
            return  # an absent name is another rule's finding
        first_position, first = first_by_name[tool.name]
        if first is tool:
            return
        if first.origin.file != tool.origin.file:
            # one tool set across files (a folder of contracts): say which file holds the other one
            where = _where(first)
            message = (f"tool name '{tool.name}' is already used by a tool in {first.origin.file}"
                       f"{f' ({where})' if where else ''}; tool names must be unique within a tool set, "
                       f"and the files of one folder are one set")
        else:
            message = (f"tool name '{tool.name}' is already used by tool #{first_position + 1} of "
                       f"this list ({_where(first) or f'in {first.origin.file}'}); tool names must be unique "
                       f"within a list")
        yield Finding("/name", message, Fix("rename one of the tools"))


def _where(tool: ToolContract) -> str:
    origin = tool.origin
    parts: list[str] = []
    if origin.line is not None:
        parts.append(f"line {origin.line}")
    elif origin.locate is not None:
        line, _ = origin.position(origin.original_pointer("/name"))
        if line is not None:
            parts.append(f"line {line}")
    if origin.base:
        parts.append(f"at {origin.base}")
    return ", ".join(parts)
