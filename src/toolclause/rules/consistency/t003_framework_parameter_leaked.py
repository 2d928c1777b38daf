"""framework-parameter-leaked (T003)

## What it does
Reports a property no model can supply: an object a framework injects into the
function, published as an argument.

It looks at top-level properties for FastMCP's `ctx: Context`, the OpenAI
Agents SDK's `RunContextWrapper`, Google ADK's `ToolContext`, LangChain's
`config: RunnableConfig` or `run_manager: CallbackManagerForToolRun`, a
Starlette `Request`, an MCP `ServerSession`, or a method's `self`/`cls`.  It is
reported when the property's name is one such frameworks use (`ctx`, `context`,
`run_context`, `tool_context`, `request`, `session`, `config`,
`callback_manager`, `run_manager`, `self`, `cls`) *and* its schema carries the
framework's mark: a `$ref`, `title` or description naming the framework's
class, an object whose properties are the framework's own (`request_context`,
`fastmcp`, `lifespan_context`, `recursion_limit`, `configurable`, …), or, for
`self` and `cls`, a schema with no type at all.  An error when the property is
required (every call fails, or the model invents an object), a warning when it
is optional.

Not reported: a domain field that happens to be called `context` or `session`
and is a described string, number or enum ("additional context for the
search", "the chat session id").

## Why is this bad?
The framework did not recognise its own parameter (a string annotation it could
not resolve, a subclass, a decorator in the wrong order) and published it as an
argument.  The model is asked for something it cannot know; when the property
is required every call either fails validation or carries an invented value
that the function then receives instead of the real context.

## Example
```json
{"name": "summarise_file", "description": "Summarise one text file the server can read.",
 "inputSchema": {"type": "object",
                 "properties": {"path": {"type": "string", "description": "File to summarise"},
                                "ctx": {"$ref": "#/$defs/Context"}},
                 "required": ["path", "ctx"],
                 "$defs": {"Context": {"type": "object", "title": "Context", "properties": {}}}}}
```

## Use instead
```json
{"name": "summarise_file", "description": "Summarise one text file the server can read.",
 "inputSchema": {"type": "object",
                 "properties": {"path": {"type": "string", "description": "File to summarise"}},
                 "required": ["path"]}}
```

## Fix safety
Not applied by `--fix`: the schema is generated from the function, so the fix
belongs there (annotate the parameter with the framework's own type, resolvable
at registration); removing the property from a published schema alone would
leave the function still expecting it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ... import _lazy_re as re
from ...model import Fix, Severity, ToolContract
from ...schema.refs import value_at
from ..base import Finding, LintContext, Rule
from ._prose import quoted

_NAMES = frozenset({"ctx", "context", "run_context", "tool_context", "request", "session", "config",
                    "callback_manager", "run_manager", "callbacks", "self", "cls"})
# the framework classes, by the name a schema generator gives their definition or title
_CLASSES = {
    "Context": "FastMCP's Context", "FastMCPContext": "FastMCP's Context", "RequestContext": "MCP's RequestContext",
    "RunContext": "a run context", "RunContextWrapper": "the OpenAI Agents SDK's RunContextWrapper",
    "ToolContext": "Google ADK's ToolContext", "InvocationContext": "Google ADK's InvocationContext",
    "CallbackContext": "Google ADK's CallbackContext", "CallToolResult": "MCP's CallToolResult",
    "Request": "a web framework's Request", "ServerSession": "MCP's ServerSession",
    "CallbackManager": "LangChain's CallbackManager", "AsyncCallbackManager": "LangChain's CallbackManager",
    "CallbackManagerForToolRun": "LangChain's CallbackManagerForToolRun",
    "AsyncCallbackManagerForToolRun": "LangChain's CallbackManagerForToolRun",
    "RunnableConfig": "LangChain's RunnableConfig",
}
# properties only a framework's object has: one of these marks it
_STRONG_PROPERTIES = frozenset({"request_context", "fastmcp", "lifespan_context", "_request_context", "_fastmcp",
                                "recursion_limit", "max_concurrency", "inheritable_handlers", "parent_run_id",
                                "inheritable_tags", "inheritable_metadata", "tool_call_id", "invocation_id",
                                "agent_name", "function_call_id"})
# a class named in prose: as a word of its own, spelt as the class is (not "the react context object")
_NAMED = re.compile(r"(?<![\w.])(?:(?:mcp\.server\.fastmcp|fastmcp|agents|google\.adk\.tools|langchain_core\.runnables|"
                    r"starlette\.requests|mcp\.server\.session)\.)?(Context|RunContextWrapper|ToolContext|RunContext|"
                    r"InvocationContext|CallbackContext|CallToolResult|ServerSession|RunnableConfig|"
                    r"CallbackManager\w*|AsyncCallbackManager\w*|RequestContext)(?![\w])")
# "Context" alone is also an English word: it counts in code quotes, qualified, or beside a framework's name
_COMMON = frozenset({"Context", "RunContext", "RequestContext"})
_FRAMEWORK_WORDS = re.compile(r"`|\b(?:fastmcp|mcp|injected|framework|langchain|agents\s+sdk|adk)\b", re.IGNORECASE)
_PLAIN_TYPES = frozenset({"string", "number", "integer", "boolean"})


def _auto_title(name: str) -> str:
    """The title pydantic gives a field of this name ('run_context' → 'Run Context')."""
    return " ".join(part.capitalize() for part in name.split("_") if part)


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """The definition a local `$ref` names (its last segment) and the schema it points to (the schema itself
    when there is no such reference)."""
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return None, schema
    target = value_at(root, ref[1:])
    name = ref.rsplit("/", 1)[-1]
    return name, target if isinstance(target, dict) else {}


def _branches(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The schema, or the non-null branches of an `anyOf`/`oneOf` (Optional[Context] → Context)."""
    found = [schema]
    for keyword in ("anyOf", "oneOf", "allOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list):
            found.extend(b for b in branches if isinstance(b, dict) and b.get("type") != "null")
    return found


def _is_plain(schema: dict[str, Any]) -> bool:
    """A described value a model can give: a string, number or boolean, or a closed set of values."""
    declared = schema.get("type")
    types = {declared} if isinstance(declared, str) else set(declared) if isinstance(declared, list) else set()
    return bool(types - {"null"}) and types - {"null"} <= _PLAIN_TYPES or "enum" in schema or "const" in schema


def described_class(description: str) -> str | None:
    """The framework class a description names, spelt as the class is ("the FastMCP `Context`"), or None."""
    for found in _NAMED.finditer(description):
        qualified = found.group(0) != found.group(1)
        if found.group(1) not in _COMMON or qualified or _FRAMEWORK_WORDS.search(description):
            return found.group(1)
    return None


def framework_mark(name: str, schema: dict[str, Any], root: dict[str, Any]) -> str | None:
    """What marks the property as a framework's object ('its $ref names FastMCP's Context'), or None."""
    for branch in _branches(schema):
        if _is_plain(branch):
            continue
        definition, target = _resolve(branch, root)
        props = target.get("properties")
        own = set(props) if isinstance(props, dict) else set()
        domain = own - _STRONG_PROPERTIES
        if own & _STRONG_PROPERTIES:
            shown = ", ".join(sorted(own & _STRONG_PROPERTIES)[:3])
            return f"its schema holds a framework's own fields ({shown})"
        if definition in _CLASSES and not domain and not _is_plain(target):
            return f"its $ref names {_CLASSES[definition]}"
        for holder in (branch, target):
            title = holder.get("title")
            if isinstance(title, str) and title in _CLASSES and title != _auto_title(name) and not domain \
                    and not _is_plain(holder):
                return f"its title names {_CLASSES[title]}"
        description = branch.get("description")
        if not isinstance(description, str):
            description = target.get("description")
        if isinstance(description, str) and not domain:
            named = described_class(description)
            if named is not None:
                return f"its description names {_CLASSES.get(named, named)}: '{quoted(description)}'"
    if name in ("self", "cls") and not ({"type", "$ref", "enum", "const", "properties", "anyOf", "oneOf", "allOf",
                                          "items"} & set(schema)):
        return f"'{name}' with no type is a method's {'instance' if name == 'self' else 'class'}, not an argument"
    return None


class FrameworkParameterLeaked(Rule):
    code = "T003"
    name = "framework-parameter-leaked"
    severity = Severity.ERROR

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        root = tool.input_schema
        if not isinstance(root, dict):
            return
        props = root.get("properties")
        if not isinstance(props, dict) or _NAMES.isdisjoint(props):
            return
        required = root.get("required")
        required = required if isinstance(required, list) else []
        for name in _NAMES.intersection(props):
            schema = props[name]
            if not isinstance(schema, dict):
                continue
            mark = framework_mark(name, schema, root)
            if mark is None:
                continue
            pointer = f"/inputSchema/properties/{name}"
            fix = Fix(f"declare '{name}' with the framework's own type, resolvable where the tool is registered, so "
                      f"that the framework injects it and leaves it out of the schema", safe=False)
            if name in required:
                yield Finding(pointer, f"'{name}' is a parameter the framework injects, not one the model can give "
                                       f"({mark}), and it is required: every call fails validation or carries an "
                                       f"invented object", fix)
            else:
                yield Finding(pointer, f"'{name}' is a parameter the framework injects, not one the model can give "
                                       f"({mark}); the model is invited to send one, which the function would "
                                       f"receive in place of the real one", fix, severity=Severity.WARNING)

