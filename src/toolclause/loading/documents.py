"""A parsed document → the tools in it.

Containers recognised around tool objects: a list, `{"tools": [...]}` (also an
MCP `tools/list` result), a JSON-RPC response, Gemini `functionDeclarations`,
a BFCL entry (`{"id", "question", "function": [...]}`) and the corpus record
wrapper (`{"source", "origin", "format", "tool"}`).  A server snapshot may hold
its resources beside its tools; they go onto each tool's `Origin`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from .._gc import gc_paused
from ..model import Origin, ToolContract, Unreadable
from .shapes import ShapeError, detect_tool_format, read_tool

RESOURCE_LISTS = ("resources", "resourceTemplates")  # the resources/list and resources/templates/list keys


def _is_record_wrapper(obj: Mapping[str, Any]) -> bool:
    return "tool" in obj and "origin" in obj and "source" in obj


def iter_tool_objects(doc: Any, pointer: str = "", group: str = "",
                      depth: int = 0) -> Iterator[tuple[Any, str, str, str | None]]:
    """Yield (object, pointer, group, format hint) for every tool-shaped place in a document.

    Objects that are neither a tool nor a known container are yielded too, so the
    caller can report them as unreadable with their pointer.
    """
    if depth > 4:
        yield doc, pointer, group, None
        return
    if isinstance(doc, list):
        for index, item in enumerate(doc):
            yield from iter_tool_objects(item, f"{pointer}/{index}", group or pointer or "/", depth + 1)
        return
    if not isinstance(doc, dict):
        yield doc, pointer, group, None
        return
    if _is_record_wrapper(doc):
        ref = f"{doc.get('origin')}#{doc.get('ref', '')}"
        yield doc["tool"], pointer + "/tool", ref, None
        return
    if "jsonrpc" in doc and isinstance(doc.get("result"), dict):
        yield from iter_tool_objects(doc["result"], pointer + "/result", group, depth + 1)
        return
    for key in ("functionDeclarations", "function_declarations"):
        if isinstance(doc.get(key), list):
            for index, item in enumerate(doc[key]):
                yield item, f"{pointer}/{key}/{index}", group or pointer or "/", "gemini"
            return
    if isinstance(doc.get("tools"), list) and detect_tool_format(doc) is None:
        yield from iter_tool_objects(doc["tools"], pointer + "/tools", "", depth + 1)
        return
    if isinstance(doc.get("function"), list) and ("question" in doc or "id" in doc):
        entry_group = str(doc.get("id", pointer))
        for index, item in enumerate(doc["function"]):
            yield item, f"{pointer}/function/{index}", entry_group, None
        return
    if _is_resource_listing(doc):
        return  # a resources/list result saved beside tools/list in a server snapshot: no tools in it
    yield doc, pointer, group, None


def _is_resource_listing(obj: Mapping[str, Any]) -> bool:
    return "name" not in obj and "tools" not in obj and any(
        isinstance(obj.get(key), list) for key in RESOURCE_LISTS)


def declared_resources(doc: Any) -> tuple[Mapping[str, Any], ...] | None:
    """The resources a server snapshot declares, or None when the document holds no resource list.

    A snapshot is `{"tools": [...], "resources": [...]}` (resourceTemplates too), or the
    saved JSON-RPC responses of tools/list and resources/list, as a list.  An empty list
    is an answer (the server declares none); no list at all means unknown.
    """
    found: list[Mapping[str, Any]] | None = None
    for item in doc if isinstance(doc, list) else (doc,):
        if not isinstance(item, dict):
            continue
        if "jsonrpc" in item and isinstance(item.get("result"), dict):
            item = item["result"]
        if "name" in item:
            continue  # a tool object; its own keys say nothing about the server
        for key in RESOURCE_LISTS:
            value = item.get(key)
            if isinstance(value, list):
                found = (found or []) + [r for r in value if isinstance(r, dict)]
    return tuple(found) if found is not None else None


def server_texts(doc: Any) -> tuple[tuple[str, str, str], ...]:
    """(pointer, text, what it is) for what a server snapshot gives the model besides its tools: the
    server's instructions, its prompts' and resources' titles and descriptions, prompt arguments'."""
    if not isinstance(doc, dict) or not isinstance(doc.get("tools"), list):
        return ()
    found: list[tuple[str, str, str]] = []
    if isinstance(doc.get("instructions"), str):
        found.append(("/instructions", doc["instructions"], "the server's instructions"))
    for listing, kind in (("prompts", "prompt"), *((key, "resource") for key in RESOURCE_LISTS)):
        items = doc.get(listing)
        for index, item in enumerate(items if isinstance(items, list) else ()):
            if not isinstance(item, dict):
                continue
            name = str(item.get("name") or item.get("uri") or index)[:80]
            for key in ("title", "description"):
                if isinstance(item.get(key), str):
                    found.append((f"/{listing}/{index}/{key}", item[key], f"the {key} of {kind} '{name}'"))
            arguments = item.get("arguments")
            for number, argument in enumerate(arguments if isinstance(arguments, list) else ()):
                if isinstance(argument, dict) and isinstance(argument.get("description"), str):
                    found.append((f"/{listing}/{index}/arguments/{number}/description", argument["description"],
                                  f"the description of argument '{str(argument.get('name'))[:80]}' of {kind} "
                                  f"'{name}'"))
    return tuple(found)


def contracts_from_document(doc: Any, file: str, input_format: str | None = None, locate: Any = None,
                            line: int | None = None,
                            group_prefix: str = "") -> tuple[list[ToolContract], list[Unreadable]]:
    """Read every tool in one parsed document (a whole file, or one JSONL record)."""
    with gc_paused():  # contracts, origins and pointer maps are acyclic: see toolclause._gc
        return _contracts_from_document(doc, file, input_format, locate, line, group_prefix)


def _contracts_from_document(doc: Any, file: str, input_format: str | None, locate,
                             line: int | None, group_prefix: str) -> tuple[list[ToolContract], list[Unreadable]]:
    tools: list[ToolContract] = []
    problems: list[Unreadable] = []
    fmt = None if input_format in (None, "auto") else input_format
    resources = declared_resources(doc)
    texts = server_texts(doc)
    for obj, pointer, group, hint in iter_tool_objects(doc):
        origin = Origin(file=file, format="", base=pointer, line=line, group=group_prefix + group, locate=locate)
        try:
            tool = read_tool(obj, origin, fmt or hint)
            if resources is not None or texts:  # the readers rebuild Origin, so these go on afterwards
                tool = replace(tool, origin=replace(tool.origin, resources=resources, server_texts=texts))
            tools.append(tool)
        except ShapeError as exc:
            problems.append(Unreadable(exc.code, str(exc), pointer, file=file, line=line))
    return tools, problems
