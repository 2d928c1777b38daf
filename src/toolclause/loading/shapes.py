"""Read one tool object, in any of the shapes people write, into a ToolContract.

Each reader keeps the original object untouched (`raw`) and records where every
canonical part came from (`PointerMap`), so diagnostics land in the user's file.
Readers convert formats that are not JSON Schema (a bare property map, a list of
parameter records) into JSON Schema; they never repair JSON Schema that is wrong
(a `"type": "dict"` stays "dict" for rule S002 to report).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from typing import Any

from ..model import Origin, PointerMap, ToolContract, escape_token

EXTRA_KEYS = ("$id", "version", "errors", "examples", "x-toolclause-ignore")
# Provider formats whose tools may declare `"strict": true` themselves; the declaration is kept in
# `extra["strict"]`, and lint checks such a tool against that provider's strict mode (DECLARED_STRICT_TARGETS)
STRICT_FORMATS = frozenset({"openai-chat", "openai-responses", "function", "anthropic"})


class ShapeError(ValueError):
    """The object is not a tool in any shape toolclause reads; `code` is from `codes.UNREADABLE`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _str_or_none(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _extras(obj: Mapping[str, Any], fmt: str = "") -> dict[str, Any]:
    found = {k: obj[k] for k in EXTRA_KEYS if k in obj}
    if fmt in STRICT_FORMATS and isinstance(obj.get("strict"), bool):
        found["strict"] = obj["strict"]
    return found


# --------------------------------------------------------------------------- JSON Schema shapes

def _schema_tool(obj: Mapping[str, Any], fmt: str, prefix: str, name_key: str, description_key: str,
                 input_key: str | None, output_key: str | None, origin: Origin) -> ToolContract:
    """A tool whose parameters are already a JSON Schema under some key."""
    return ToolContract(
        name=str(obj.get(name_key) or ""),
        description=_str_or_none(obj.get(description_key)),
        title=_str_or_none(obj.get("title")),
        input_schema=obj.get(input_key) if input_key else None,
        output_schema=obj.get(output_key) if output_key else None,
        annotations=obj.get("annotations") if isinstance(obj.get("annotations"), dict) else None,
        meta=obj.get("_meta") if isinstance(obj.get("_meta"), dict) else None,
        extra=_extras(obj, fmt),
        raw=obj,
        origin=_with_map(origin, fmt, _schema_tool_map(prefix, name_key, description_key, input_key, output_key)),
    )


@functools.lru_cache(maxsize=256)
def _schema_tool_map(prefix: str, name_key: str, description_key: str, input_key: str | None,
                     output_key: str | None) -> PointerMap:
    # the same few layouts repeat across thousands of tools: build each map once
    entries = {"/name": f"{prefix}/{name_key}", "/description": f"{prefix}/{description_key}"}
    if input_key is not None:
        entries["/inputSchema"] = f"{prefix}/{input_key}"
    if output_key is not None:
        entries["/outputSchema"] = f"{prefix}/{output_key}"
    for key in ("title", "annotations", "_meta", "strict") + EXTRA_KEYS:
        entries["/" + escape_token(key)] = f"{prefix}/{escape_token(key)}"
    return PointerMap(entries)


def _with_map(origin: Origin, fmt: str, entries: dict[str, str] | PointerMap) -> Origin:
    pointers = entries if isinstance(entries, PointerMap) else PointerMap(entries)
    return Origin(file=origin.file, format=fmt, base=origin.base, line=origin.line, group=origin.group,
                  pointers=pointers, locate=origin.locate)


def _present(obj: Mapping[str, Any], *keys: str) -> str | None:
    for key in keys:
        if key in obj:
            return key
    return None


def read_mcp(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    return _schema_tool(obj, "mcp", "", "name", "description", "inputSchema", _present(obj, "outputSchema"), origin)


def read_anthropic(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    return _schema_tool(obj, "anthropic", "", "name", "description", "input_schema", None, origin)


def read_openai_chat(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    inner = obj.get("function")
    if not isinstance(inner, dict):
        raise ShapeError("malformed-tool", "an OpenAI tool whose 'function' is not an object")
    tool = _schema_tool(inner, "openai-chat", "/function", "name", "description",
                        _present(inner, "parameters"), None, origin)
    return _rebase_raw(tool, obj)


def read_function(obj: Mapping[str, Any], origin: Origin, fmt: str = "function") -> ToolContract:
    """Bare function objects, OpenAI Responses tools and BFCL definitions."""
    return _schema_tool(obj, fmt, "", "name", "description", _present(obj, "parameters"),
                        _present(obj, "response"), origin)


def read_acebench(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    return _schema_tool(obj, "acebench", "", "name", "description", "arguments", _present(obj, "results"), origin)


def read_gemini(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    input_key = _present(obj, "parametersJsonSchema", "parameters_json_schema", "parameters")
    output_key = _present(obj, "responseJsonSchema", "response_json_schema", "response")
    return _schema_tool(obj, "gemini", "", "name", "description", input_key, output_key, origin)


def read_vscode(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    """VS Code `languageModelTools`: the model reads `modelDescription`."""
    return _schema_tool(obj, "vscode", "", "name", "modelDescription", _present(obj, "inputSchema"), None, origin)


def _rebase_raw(tool: ToolContract, outer: Any) -> ToolContract:
    # pointers are relative to the outer object, so `raw` must be the outer object
    return dataclasses.replace(tool, raw=outer)


# --------------------------------------------------------------------------- converted shapes

_RECORD_DESCRIPTION_KEYS = ("description", "desc")
_NON_SCHEMA_RECORD_KEYS = {"name", "desc", "required", "optional", "allowed_values", "default_value",
                           "example_value", "possible_values"}


def _property_from_map_entry(entry: Any, pointer: str, canon: str, entries: dict[str, str]) -> tuple[Any, bool | None]:
    """A property in a bare map: a JSON-Schema-like dict that may carry its own
    `required: true` (draft-3 style), `allowed_values` and `default_value`."""
    if not isinstance(entry, dict):
        return entry, None
    prop: dict[str, Any] = {}
    required_flag: bool | None = None
    for key, value in entry.items():
        if key == "required" and isinstance(value, bool):
            required_flag = value
        elif key == "optional" and isinstance(value, bool):
            required_flag = not value
        elif key == "desc" and "description" not in entry:
            prop["description"] = value
            entries[canon + "/description"] = pointer + "/desc"
        elif key == "allowed_values":
            if isinstance(value, list) and value:
                prop["enum"] = value
                entries[canon + "/enum"] = pointer + "/allowed_values"
        elif key == "default_value":
            prop["default"] = value
            entries[canon + "/default"] = pointer + "/default_value"
        elif key in ("name", "possible_values", "example_value"):
            continue
        else:
            prop[key] = value
    return prop, required_flag


def _object_from_property_map(props: Any, pointer: str, canon: str, entries: dict[str, str],
                              required: Any = None, required_pointer: str | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    entries[canon] = pointer
    entries[canon + "/properties"] = pointer
    required_names: list[str] = []
    if isinstance(props, dict):
        for name, entry in props.items():
            prop_canon = f"{canon}/properties/{escape_token(name)}"
            prop_pointer = f"{pointer}/{escape_token(name)}"
            entries[prop_canon] = prop_pointer
            prop, flag = _property_from_map_entry(entry, prop_pointer, prop_canon, entries)
            schema["properties"][name] = prop
            if flag:
                entries[f"{canon}/required/{len(required_names)}"] = prop_pointer + "/required"
                required_names.append(name)
    if isinstance(required, list):
        schema["required"] = list(required)
        if required_pointer:
            entries[canon + "/required"] = required_pointer
    elif required_names:
        schema["required"] = required_names
    return schema


def _object_from_records(records: Any, pointer: str, canon: str, entries: dict[str, str],
                         default_required: bool, extra_required: list[Any] | None = None) -> dict[str, Any]:
    """A list of parameter records ({name, type, desc|description, …})."""
    schema: dict[str, Any] = {"type": "object", "properties": {}}
    entries[canon] = pointer
    entries[canon + "/properties"] = pointer
    required: list[str] = []
    for index, record in enumerate(records if isinstance(records, list) else []):
        if not isinstance(record, dict) or not isinstance(record.get("name"), str):
            continue
        name = record["name"]
        prop_canon = f"{canon}/properties/{escape_token(name)}"
        prop_pointer = f"{pointer}/{index}"
        entries[prop_canon] = prop_pointer
        prop: dict[str, Any] = {}
        for key, value in record.items():
            if key in _NON_SCHEMA_RECORD_KEYS:
                continue
            prop[key] = value
        for key in _RECORD_DESCRIPTION_KEYS:
            if key in record:
                prop["description"] = record[key]
                entries[prop_canon + "/description"] = f"{prop_pointer}/{key}"
                break
        schema["properties"][name] = prop
        flag = record.get("required")
        if isinstance(flag, bool):
            is_required = flag
        elif isinstance(record.get("optional"), bool):
            is_required = not record["optional"]
        else:
            is_required = default_required
        if is_required:
            entries[f"{canon}/required/{len(required)}"] = prop_pointer
            required.append(name)
    if extra_required:
        for name in extra_required:
            if isinstance(name, str) and name not in required:
                required.append(name)
    if required:
        schema["required"] = required
    return schema


def _converted(obj: Mapping[str, Any], fmt: str, name_key: str, description_key: str | None,
               input_schema: Any, output_schema: Any, entries: dict[str, str], origin: Origin) -> ToolContract:
    entries["/name"] = "/" + name_key
    if description_key:
        entries["/description"] = "/" + description_key
    if "annotations" in obj:
        entries["/annotations"] = "/annotations"
    return ToolContract(
        name=str(obj.get(name_key) or ""),
        description=_str_or_none(obj.get(description_key)) if description_key else None,
        title=_str_or_none(obj.get("title")),
        input_schema=input_schema,
        output_schema=output_schema,
        annotations=obj.get("annotations") if isinstance(obj.get("annotations"), dict) else None,
        extra=_extras(obj),
        raw=obj,
        origin=_with_map(origin, fmt, entries),
    )


def read_seal_tools(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    """Seal-Tools: `api_name`, `api_description`, bare property maps for parameters and responses."""
    entries: dict[str, str] = {}
    input_schema = _object_from_property_map(obj.get("parameters"), "/parameters", "/inputSchema", entries,
                                             obj.get("required"), "/required")
    output_schema = None
    if isinstance(obj.get("responses"), dict):
        output_schema = _object_from_property_map(obj["responses"], "/responses", "/outputSchema", entries)
    return _converted(obj, "seal-tools", "api_name", "api_description", input_schema, output_schema, entries, origin)


_NESTFUL_INPUT_KEYS = ("parameters", "arguments", "query_parameters", "path_parameters")


def read_property_map_tool(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    """NESTFUL and similar: `name`, `description`, parameters as a property map with
    per-property `required`, outputs in `output_parameters`."""
    entries: dict[str, str] = {}
    keys = [k for k in _NESTFUL_INPUT_KEYS if isinstance(obj.get(k), dict)]
    input_schema = None
    if len(keys) == 1:
        input_schema = _object_from_property_map(obj[keys[0]], "/" + keys[0], "/inputSchema", entries)
    elif keys:
        # query and path parameters of one endpoint: one argument object
        input_schema = {"type": "object", "properties": {}}
        required: list[str] = []
        entries["/inputSchema"] = ""
        for key in keys:
            part = _object_from_property_map(obj[key], "/" + key, "/inputSchema", entries)
            input_schema["properties"].update(part["properties"])
            required.extend(part.get("required", []))
        entries["/inputSchema"] = "/" + keys[0]
        entries["/inputSchema/properties"] = "/" + keys[0]
        if required:
            input_schema["required"] = required
    output_schema = None
    if isinstance(obj.get("output_parameters"), dict):
        output_schema = _object_from_property_map(obj["output_parameters"], "/output_parameters", "/outputSchema",
                                                  entries)
    return _converted(obj, "property-map", "name", "description", input_schema, output_schema, entries, origin)


def read_parameter_list_tool(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    """Docker's catalog (`name`, `description`, `arguments: [{name, type, desc}]`) and
    TaskBench (`id`, `desc`, `parameters: [{name, type, desc}]`): a parameter is
    required unless the record says `optional: true` or `required: false`."""
    entries: dict[str, str] = {}
    name_key = "name" if "name" in obj else "id"
    description_key = _present(obj, "description", "desc")
    list_key = "arguments" if isinstance(obj.get("arguments"), list) else "parameters"
    input_schema = None
    if isinstance(obj.get(list_key), list):
        input_schema = _object_from_records(obj[list_key], "/" + list_key, "/inputSchema", entries,
                                            default_required=True)
    return _converted(obj, "parameter-list", name_key, description_key, input_schema, None, entries, origin)


def read_rapidapi(obj: Mapping[str, Any], origin: Origin) -> ToolContract:
    """ToolBench's RapidAPI records: `required_parameters` and `optional_parameters` lists."""
    entries: dict[str, str] = {}
    records = []
    for key in ("required_parameters", "optional_parameters"):
        for index, record in enumerate(obj.get(key) or []):
            records.append((key, index, record))
    input_schema: dict[str, Any] | None = None
    if "required_parameters" in obj or "optional_parameters" in obj:
        input_schema = {"type": "object", "properties": {}}
        entries["/inputSchema"] = "/required_parameters" if "required_parameters" in obj else "/optional_parameters"
        required: list[str] = []
        for key, index, record in records:
            if not isinstance(record, dict) or not isinstance(record.get("name"), str):
                continue
            name = record["name"]
            canon = f"/inputSchema/properties/{escape_token(name)}"
            pointer = f"/{key}/{index}"
            entries[canon] = pointer
            input_schema["properties"][name] = {k: v for k, v in record.items() if k != "name"}
            if key == "required_parameters":
                entries[f"/inputSchema/required/{len(required)}"] = pointer
                required.append(name)
        if required:
            input_schema["required"] = required
    description = _present(obj, "api_description")
    return _converted(obj, "rapidapi", "api_name", description, input_schema, None, entries, origin)


# --------------------------------------------------------------------------- detection

Reader = Callable[[Mapping[str, Any], Origin], ToolContract]

READERS: dict[str, Reader] = {
    "mcp": read_mcp,
    "anthropic": read_anthropic,
    "openai-chat": read_openai_chat,
    "openai-responses": lambda o, origin: read_function(o, origin, "openai-responses"),
    "function": read_function,
    "bfcl": lambda o, origin: read_function(o, origin, "bfcl"),
    "acebench": read_acebench,
    "gemini": read_gemini,
    "vscode": read_vscode,
    "seal-tools": read_seal_tools,
    "property-map": read_property_map_tool,
    "parameter-list": read_parameter_list_tool,
    "rapidapi": read_rapidapi,
}

# the command line's names for these shapes are toolclause.formats.TOOL_FORMATS (known without importing
# this module); tests/test_formats.py keeps the two in step

# Shapes whose arguments are not written as JSON Schema: the loader builds the schema,
# so a canonical node is not always a node of the user's file.
CONVERTED_FORMATS = frozenset({"seal-tools", "property-map", "parameter-list", "rapidapi"})


def _is_schema_like(value: Any) -> bool:
    """A JSON Schema object, as opposed to a bare map of property name → property."""
    if not isinstance(value, dict):
        return False
    if not value:
        return True
    if isinstance(value.get("type"), (str, list)) or isinstance(value.get("properties"), dict):
        return True
    composed = any(k in value for k in ("$ref", "anyOf", "oneOf", "allOf"))
    return composed and not all(isinstance(v, dict) for v in value.values())


# What a tool without parameters may hold beside its name and description (the keys of the
# shapes above, and what tool files carry along); `_private` and `x-` keys are anyone's.
_TOOL_KEYS = frozenset({"name", "description", "title", "type", "strict", "annotations", "tags", "examples",
                        "errors", "returns", "results", "response", "outputSchema", "output_schema", "meta",
                        "icons", "category", "deprecated", "version", "$id", "$schema",
                        # the providers' own optional fields: Gemini, Anthropic, OpenAI, MCP
                        "behavior", "responseJsonSchema", "response_json_schema", "cache_control",
                        "defer_loading", "allowed_callers", "input_examples", "eager_input_streaming", "execution"})


def foreign_keys(obj: Mapping[str, Any]) -> list[str]:
    """The keys of an object with a name and no parameters that no tool has (`entry`, `language`, `scripts`).

    None when one of them holds a JSON Schema: that is a tool with its parameters under a
    misspelt key (`paramters`, `inputschema`), which S006 reports.
    """
    found = [str(k) for k in obj if k not in _TOOL_KEYS and not str(k).startswith(("_", "x-"))]
    if any(_is_schema_like(obj[k]) for k in found):
        return []
    return found


def detect_tool_format(obj: Mapping[str, Any]) -> str | None:
    """Name the shape of one tool object, or None if it is not a tool."""
    if obj.get("type") == "function" and isinstance(obj.get("function"), dict):
        return "openai-chat"
    if "inputSchema" in obj:
        return "vscode" if "modelDescription" in obj else "mcp"
    if "input_schema" in obj:
        return "anthropic"
    if "parametersJsonSchema" in obj or "parameters_json_schema" in obj:
        return "gemini"
    if "modelDescription" in obj and "name" in obj:
        return "vscode"
    if "api_name" in obj:
        if "required_parameters" in obj or "optional_parameters" in obj or "tool_name" in obj:
            return "rapidapi"
        return "seal-tools"
    if "name" in obj or "id" in obj and ("desc" in obj or "parameters" in obj):
        params = obj.get("parameters")
        args = obj.get("arguments")
        if isinstance(params, list) or isinstance(args, list):
            return "parameter-list"
        if isinstance(args, dict):
            return "acebench" if _is_schema_like(args) else "property-map"
        if isinstance(params, dict):
            if _is_schema_like(params):
                if obj.get("type") == "function":
                    return "openai-responses"
                return "bfcl" if params.get("type") == "dict" else "function"
            return "property-map"
        if any(isinstance(obj.get(k), dict) for k in _NESTFUL_INPUT_KEYS[2:]) or "output_parameters" in obj:
            return "property-map"
        if "name" in obj and ("description" in obj or "annotations" in obj or "parameters" in obj):
            if "parameters" not in obj and obj.get("type") != "function" and foreign_keys(obj):
                return None  # a pre-commit hook, a package.json: a name and a description, and other business
            return "openai-responses" if obj.get("type") == "function" else "function"
        if "id" in obj and "desc" in obj:
            return "parameter-list"
    return None


def _lists_mcp_servers(obj: dict) -> bool:
    """A client configuration's server table (where `--mcp-config` finds it) whose entries each start one."""
    from .mcp_config import configured_servers  # only a document that is no tool asks

    table = configured_servers(obj)
    return table is not None and bool(table) and all(
        isinstance(entry, dict) and ("command" in entry or "url" in entry) for entry in table.values())


def read_tool(obj: Any, origin: Origin, fmt: str | None = None) -> ToolContract:
    if not isinstance(obj, dict):
        raise ShapeError("not-an-object", f"expected a tool object, found {type(obj).__name__}")
    fmt = fmt or detect_tool_format(obj)
    if fmt is None:
        if not obj:
            raise ShapeError("not-a-tool", "an empty object, not a tool definition: a tool has at least a \"name\"")
        keys = ", ".join(list(obj)[:6])
        if "name" in obj and "description" in obj:
            others = ", ".join(foreign_keys(obj)[:4])
            raise ShapeError("not-a-tool", f"not a tool definition: it has a name and a description, but no "
                                           f"parameters and keys no tool has ({others}); if it is a tool, name "
                                           f"its shape with --input-format function")
        if _lists_mcp_servers(obj):
            raise ShapeError("not-a-tool", f"an MCP client's configuration, not tool definitions (keys: {keys}); "
                                           f"lint the servers it starts with --mcp-config {origin.file or 'FILE'}")
        raise ShapeError("not-a-tool", f"not a tool definition in any known shape (keys: {keys}); "
                                       f"name the shape with --input-format")
    reader = READERS.get(fmt)
    if reader is None:
        raise ShapeError("unknown-input-format", f"unknown input format {fmt!r}")
    return reader(obj, origin)
