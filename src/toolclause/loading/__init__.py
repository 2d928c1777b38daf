"""Bytes, files and folders → ToolContracts, with a source map.

Containers recognised around tool objects: a list, `{"tools": [...]}` (also an
MCP `tools/list` result), a JSON-RPC response, Gemini `functionDeclarations`,
a BFCL entry (`{"id", "question", "function": [...]}`) and the corpus record
wrapper (`{"source", "origin", "format", "tool"}`).  Files are JSON, JSONL or
YAML; `-` is standard input.

Nothing here raises on bad input: every file or record that cannot be read
becomes an `Unreadable` naming the file, the pointer and the reason.
"""

from __future__ import annotations

import io
import json
import os
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from .._gc import gc_paused
from ..model import Origin, ToolContract, Unreadable, escape_token
from .positions import json_positions, lazy_locator, yaml_positions
from .shapes import TOOL_FORMATS, ShapeError, detect_tool_format, read_tool

MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
"""A JSON or YAML document (or one JSONL record) larger than this is not read."""

MAX_NESTING = 500
"""Documents nested deeper than this are refused before any rule sees them."""

SUFFIXES = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".yaml": "yaml", ".yml": "yaml"}
SKIP_DIRS = {".git", ".venv", "venv", "node_modules", "__pycache__", ".toolclause", ".mypy_cache", ".pytest_cache"}
INPUT_FORMATS = ("auto",) + TOOL_FORMATS
RESOURCE_LISTS = ("resources", "resourceTemplates")  # the resources/list and resources/templates/list keys


@dataclass
class LoadResult:
    tools: list[ToolContract] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    files: int = 0
    documents: dict[str, Any] = field(default_factory=dict)  # file → parsed document, for --fix

    def extend(self, other: "LoadResult") -> None:
        self.tools.extend(other.tools)
        self.unreadable.extend(other.unreadable)
        self.files += other.files
        self.documents.update(other.documents)


# --------------------------------------------------------------------------- containers

def _is_record_wrapper(obj: Mapping[str, Any]) -> bool:
    return "tool" in obj and "origin" in obj and "source" in obj


def iter_tool_objects(doc: Any, pointer: str = "", group: str = "", depth: int = 0) -> Iterator[tuple[Any, str, str, str | None]]:
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


def contracts_from_document(doc: Any, file: str, input_format: str | None = None, locate=None,
                            line: int | None = None, group_prefix: str = "") -> tuple[list[ToolContract], list[Unreadable]]:
    """Read every tool in one parsed document (a whole file, or one JSONL record)."""
    with gc_paused():  # contracts, origins and pointer maps are acyclic: see toolclause._gc
        return _contracts_from_document(doc, file, input_format, locate, line, group_prefix)


def _contracts_from_document(doc: Any, file: str, input_format: str | None, locate,
                             line: int | None, group_prefix: str) -> tuple[list[ToolContract], list[Unreadable]]:
    tools: list[ToolContract] = []
    problems: list[Unreadable] = []
    fmt = None if input_format in (None, "auto") else input_format
    resources = declared_resources(doc)
    for obj, pointer, group, hint in iter_tool_objects(doc):
        origin = Origin(file=file, format="", base=pointer, line=line, group=group_prefix + group, locate=locate)
        try:
            tool = read_tool(obj, origin, fmt or hint)
            if resources is not None:  # the readers rebuild Origin, so the resources go on afterwards
                tool = replace(tool, origin=replace(tool.origin, resources=resources))
            tools.append(tool)
        except ShapeError as exc:
            problems.append(Unreadable(file, str(exc), pointer, line))
    return tools, problems


# --------------------------------------------------------------------------- text

def _nesting_depth_exceeds(text: str, limit: int) -> bool:
    """Cheap pre-check: bracket depth outside strings, without parsing."""
    if text.count("[") + text.count("{") < limit:
        return False
    depth = 0
    in_string = False
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _json_error(file: str, exc: json.JSONDecodeError, line_offset: int = 0) -> str:
    return f"invalid JSON at line {exc.lineno + line_offset}, column {exc.colno}: {exc.msg}"


def parse_json(text: str, file: str) -> tuple[Any, str | None]:
    if _nesting_depth_exceeds(text, MAX_NESTING):
        return None, f"nested deeper than {MAX_NESTING} levels; no tool definition is that deep, so it was not read"
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, _json_error(file, exc)
    except RecursionError:
        return None, f"nested too deeply to read (over {MAX_NESTING} levels)"


def load_json_text(text: str, file: str, input_format: str | None = None) -> LoadResult:
    result = LoadResult(files=1)
    doc, error = parse_json(text, file)
    if error:
        result.unreadable.append(Unreadable(file, error))
        return result
    result.documents[file] = doc
    locate = lazy_locator(lambda: json_positions(text))
    tools, problems = contracts_from_document(doc, file, input_format, locate)
    result.tools.extend(tools)
    result.unreadable.extend(problems)
    return result


def _looks_like_jsonl(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0]
    try:
        json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        return False
    return True


def load_jsonl_lines(lines: Iterable[str], file: str, input_format: str | None = None) -> LoadResult:
    result = LoadResult(files=1)
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        if len(text) > MAX_DOCUMENT_BYTES:
            result.unreadable.append(Unreadable(file, f"record over {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB", "", number))
            continue
        doc, error = parse_json(text, file)
        if error:
            result.unreadable.append(Unreadable(file, error.replace("line 1, ", ""), "", number))
            continue
        # JSONL findings are located by record line (and the pointer into the record);
        # indexing columns of every record would cost more than the lint itself
        locate = None
        # one JSONL file is one tool list, unless records say otherwise (the wrapper's origin)
        tools, problems = contracts_from_document(doc, file, input_format, locate, line=number,
                                                  group_prefix="" if not isinstance(doc, list) else f"line {number}:")
        result.tools.extend(tools)
        result.unreadable.extend(problems)
    return result


def load_yaml_text(text: str, file: str, input_format: str | None = None) -> LoadResult:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    result = LoadResult(files=1)
    if _nesting_depth_exceeds(text, MAX_NESTING) or text.count("\n  ") > 0 and _yaml_indent_depth(text) > MAX_NESTING:
        result.unreadable.append(Unreadable(file, f"nested deeper than {MAX_NESTING} levels; not read"))
        return result
    yaml = YAML(typ="rt")
    try:
        tree = yaml.load(text)
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        result.unreadable.append(Unreadable(file, f"invalid YAML{where}: {problem}"))
        return result
    except RecursionError:
        result.unreadable.append(Unreadable(file, f"nested too deeply to read (over {MAX_NESTING} levels)"))
        return result
    doc = _plain(tree)
    result.documents[file] = doc
    locate = lazy_locator(lambda: yaml_positions(tree))
    tools, problems = contracts_from_document(doc, file, input_format, locate)
    result.tools.extend(tools)
    result.unreadable.extend(problems)
    return result


def _yaml_indent_depth(text: str) -> int:
    return max((len(line) - len(line.lstrip(" "))) // 2 for line in text.splitlines() or [""])


def _plain(node: Any) -> Any:
    """ruamel's commented containers → plain dicts and lists (iteratively)."""
    if not isinstance(node, (dict, list)):
        return node
    root: Any = {} if isinstance(node, dict) else []
    stack = [(node, root)]
    while stack:
        src, dst = stack.pop()
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for key, value in items:
            if isinstance(value, (dict, list)):
                child: Any = {} if isinstance(value, dict) else []
                stack.append((value, child))
                value = child
            elif type(value).__module__.startswith("ruamel"):
                value = _scalar(value)
            if isinstance(dst, dict):
                dst[str(key)] = value
            else:
                dst.append(value)
    return root


def _scalar(value: Any) -> Any:
    for kind in (bool, int, float, str):
        if isinstance(value, kind):
            return kind(value)
    return value


# --------------------------------------------------------------------------- files

def detect_kind(path: str, text: str) -> str:
    """'json', 'jsonl' or 'yaml', from the file name, else from the text.

    A `.json` file whose first line is a complete JSON value followed by more
    lines is JSON Lines (BFCL ships its data that way).
    """
    suffix = Path(path).suffix.lower()
    kind = SUFFIXES.get(suffix)
    stripped = text.lstrip("\ufeff \t\r\n")
    if kind is None:
        if stripped[:1] not in ("{", "["):
            return "yaml"
        kind = "json"
    if kind == "json":
        first, _, rest = stripped.partition("\n")
        if rest.strip() and _looks_like_jsonl(first):
            return "jsonl"
    return kind


def load_text(text: str, file: str, kind: str | None = None, input_format: str | None = None) -> LoadResult:
    kind = kind or detect_kind(file, text)  # BFCL and others ship JSON Lines under a .json name
    if kind == "jsonl":
        return load_jsonl_lines(text.splitlines(), file, input_format)
    if kind == "yaml":
        return load_yaml_text(text, file, input_format)
    return load_json_text(text, file, input_format)


def _decode(data: bytes, file: str) -> tuple[str | None, Unreadable | None]:
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return None, Unreadable(file, f"not UTF-8 text (byte {exc.start})")


def _too_large(file: str, size: int) -> Unreadable:
    return Unreadable(file, f"file is {size / 1024 / 1024:.1f} MiB; documents over "
                            f"{MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB are not read (split it, or use JSONL)")


def load_file(path: Path, input_format: str | None = None, display: str | None = None) -> LoadResult:
    with gc_paused():  # parsing allocates only acyclic containers: see toolclause._gc
        return _load_file(path, input_format, display)


def _load_file(path: Path, input_format: str | None, display: str | None) -> LoadResult:
    file = display or str(path)
    try:
        size = path.stat().st_size
        kind = SUFFIXES.get(path.suffix.lower())
        if kind == "jsonl":
            with path.open("r", encoding="utf-8-sig", errors="strict") as handle:
                return load_jsonl_lines(handle, file, input_format)
        if size > MAX_DOCUMENT_BYTES:
            return LoadResult(files=1, unreadable=[_too_large(file, size)])
        data = path.read_bytes()
    except UnicodeDecodeError as exc:
        return LoadResult(files=1, unreadable=[Unreadable(file, f"not UTF-8 text (byte {exc.start})")])
    except OSError as exc:
        return LoadResult(files=1, unreadable=[Unreadable(file, f"cannot read: {exc.strerror or exc}")])
    text, problem = _decode(data, file)
    if problem:
        return LoadResult(files=1, unreadable=[problem])
    return load_text(text, file, None, input_format)


def load_stdin(stream: io.BufferedReader | None = None, input_format: str | None = None) -> LoadResult:
    stream = stream or sys.stdin.buffer
    data = stream.read(MAX_DOCUMENT_BYTES + 1)
    if len(data) > MAX_DOCUMENT_BYTES:
        return LoadResult(files=1, unreadable=[_too_large("-", len(data))])
    text, problem = _decode(data, "-")
    if problem:
        return LoadResult(files=1, unreadable=[problem])
    return load_text(text, "-", None, input_format)


def iter_files(folder: Path) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if Path(name).suffix.lower() in SUFFIXES:
                yield Path(root) / name


def load_paths(paths: Iterable[str | Path], input_format: str | None = None,
               on_file: "Callable[[str], None] | None" = None) -> LoadResult:
    """Load every file given; folders are searched for .json, .jsonl, .yaml and .yml files.

    In a folder, a file that holds no tool at all (a package.json, a fixture) is
    skipped rather than reported; a file named explicitly is always reported.
    """
    result = LoadResult()
    for raw in paths:
        if str(raw) == "-":
            result.extend(load_stdin(input_format=input_format))
            continue
        path = Path(raw)
        if path.is_dir():
            for file in iter_files(path):
                if on_file is not None:
                    on_file(str(file))
                loaded = load_file(file, input_format)
                if not loaded.tools and loaded.unreadable and all(u.pointer == "" and "not a tool" in u.message or
                                                                  u.pointer and "not a tool" in u.message
                                                                  for u in loaded.unreadable):
                    continue
                result.extend(loaded)
        elif path.exists():
            if on_file is not None:
                on_file(str(path))
            result.extend(load_file(path, input_format))
        else:
            result.files += 1
            result.unreadable.append(Unreadable(str(raw), "no such file or folder"))
    return result


def load(source: Any, input_format: str | None = None) -> list[ToolContract]:
    """Python API: a path, a list of paths, a JSON string, or an already-parsed object → contracts.

    Raises ValueError listing what could not be read.
    """
    if isinstance(source, (str, Path)) and (isinstance(source, Path) or not source.lstrip()[:1] in "{["):
        result = load_paths([source], input_format)
    elif isinstance(source, str):
        result = load_text(source, "<string>", None, input_format)
    elif isinstance(source, (list, tuple)) and source and all(isinstance(s, (str, Path)) for s in source):
        result = load_paths(source, input_format)
    else:
        tools, problems = contracts_from_document(source, "<object>", input_format)
        result = LoadResult(tools=tools, unreadable=problems)
    if result.unreadable:
        raise ValueError("; ".join(f"{u.file}{u.pointer}: {u.message}" for u in result.unreadable))
    return result.tools


__all__ = ["LoadResult", "detect_kind", "load", "load_paths", "load_file", "load_text", "load_stdin",
           "contracts_from_document", "INPUT_FORMATS", "MAX_DOCUMENT_BYTES"]
