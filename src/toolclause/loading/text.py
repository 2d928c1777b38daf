"""Text → parsed documents → tools: JSON, JSON Lines and YAML.

Nothing here raises on bad input: text that cannot be parsed becomes an
`Unreadable` naming the file, the record's line for JSONL, and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import replace
from itertools import accumulate
from pathlib import Path
from typing import Any

from .. import _lazy_re as re
from ..model import Unreadable
from .documents import contracts_from_document
from .positions import json_duplicate_keys, json_locator, lazy_locator, yaml_positions
from .result import DuplicateKey, LoadResult

MAX_DOCUMENT_BYTES = 32 * 1024 * 1024
"""A JSON or YAML document (or one JSONL record) larger than this is not read."""

MAX_NESTING = 500
"""Documents nested deeper than this are refused before any rule sees them."""

MAX_ALIAS_NODES = 100_000
"""How many nodes YAML aliases may add to a document when expanded; past it the document is an alias bomb."""

# .jsonc: JSON with comments and trailing commas (as editors write settings), read with every position kept
SUFFIXES = {".json": "json", ".jsonc": "jsonc", ".jsonl": "jsonl", ".ndjson": "jsonl", ".yaml": "yaml",
            ".yml": "yaml"}


# a string (to its closing quote, or to the end of an unterminated one), or a run of text that is neither a
# string nor a bracket: removing both leaves the brackets outside strings
_NOT_A_BRACKET = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?\Z)|[^"\[\]{}]++', re.S)
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _nesting_depth_exceeds(text: str, limit: int) -> bool:
    """Cheap pre-check: bracket depth outside strings, without parsing (and without a Python loop per character)."""
    if text.count("[") + text.count("{") < limit:
        return False
    brackets = _NOT_A_BRACKET.sub("", text)
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > limit


# the bytes of UTF-8 text that are neither a quote nor a bracket (ASCII bytes never occur inside a
# multi-byte character, so these are the text's own quotes and brackets)
_NOT_QUOTE_OR_BRACKET = bytes(b for b in range(256) if b not in b'"[]{}')
_QUOTED = re.compile(rb'"[^"]*+"')
_BYTE_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def _parsed_json_nesting_exceeds(text: str, limit: int) -> bool:
    """`_nesting_depth_exceeds` for text json.loads has read, at a third of its cost: in well-formed JSON a
    backslash only occurs inside a string, so escapes can be taken out of the whole text at once, and the
    quotes left pair up; a pair with no bracket between them holds no bracket, and goes without a search."""
    if text.count("[") + text.count("{") < limit:
        return False
    raw = text.encode("utf-8", "surrogatepass")
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"")  # escaped backslashes first: in \\" the quote closes the string
    marks = raw.replace(b'\\"', b"").translate(None, _NOT_QUOTE_OR_BRACKET).replace(b'""', b"")
    if b'"' in marks:
        marks = _QUOTED.sub(b"", marks)  # the strings that hold brackets, and their brackets
    return max(accumulate(map(_BYTE_DEPTH_STEP.__getitem__, marks)), default=0) > limit


class _RepeatedKey(Exception):
    pass


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise _RepeatedKey()
    return found


# json.loads with a check that no object repeats a key (a parser silently keeps the last value)
_loads_unique = json.JSONDecoder(object_pairs_hook=_unique_pairs).decode


def parse_json(text: str, file: str, duplicates: list[DuplicateKey] | None = None,
               line: int | None = None) -> tuple[Any, Unreadable | None]:
    """The document, or the problem; keys an object repeats are added to `duplicates` (when given).

    The nesting limit is checked after json.loads, which reads deep text in bounded time (it stops at
    the interpreter's recursion limit): on the text it has read the check is cheaper, and text it could
    not read is checked the long way, so a deep document is called too deep whether or not it parses.
    """
    too_deep = Unreadable("too-deep", f"nested deeper than {MAX_NESTING} levels; no tool definition is that "
                                      f"deep, so it was not read", file=file)
    try:
        if duplicates is None:
            doc = json.loads(text)
        else:
            try:
                doc = _loads_unique(text)
            except _RepeatedKey:
                doc = json.loads(text)
                if not _parsed_json_nesting_exceeds(text, MAX_NESTING):
                    duplicates.extend(DuplicateKey(file, pointer, key, line or at)
                                      for pointer, key, at in json_duplicate_keys(text))
    except json.JSONDecodeError as exc:
        if _nesting_depth_exceeds(text, MAX_NESTING):
            return None, too_deep
        return None, Unreadable("invalid-json", f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
                                                f"{_client_configuration_hint(file)}", file=file)
    except RecursionError:
        if _nesting_depth_exceeds(text, MAX_NESTING):
            return None, too_deep
        return None, Unreadable("too-deep", f"nested too deeply to read (over {MAX_NESTING} levels)", file=file)
    except ValueError as exc:  # an integer longer than Python converts (sys.get_int_max_str_digits)
        if _nesting_depth_exceeds(text, MAX_NESTING):
            return None, too_deep
        return None, _number_too_long(exc, file)
    if _parsed_json_nesting_exceeds(text, MAX_NESTING):
        return None, too_deep
    return doc, None


# The files MCP clients keep their servers in: JSON with comments, which lint reads with --mcp-config.
_CLIENT_CONFIGURATIONS = ("mcp.json", "claude_desktop_config.json")


def _client_configuration_hint(file: str | None) -> str:
    name = (file or "").replace("\\", "/").rsplit("/", 1)[-1]
    return ("; if this is an MCP client's configuration, lint the servers it starts with --mcp-config "
            f"{file} (which allows comments)") if name in _CLIENT_CONFIGURATIONS else ""


def _number_too_long(exc: ValueError, file: str) -> Unreadable:
    detail = str(exc).split(";")[0]
    return Unreadable("number-too-long", f"a number too long to read ({detail[:120]})", file=file)


def parse_document(text: str, file: str, kind: str, duplicates: list[DuplicateKey] | None = None
                   ) -> tuple[Any, Any, Unreadable | None]:
    """(document, its lazy pointer → position locator, None) for JSON, JSON with comments (`jsonc`) or YAML text,
    or (None, None, the problem)."""
    if kind == "yaml":
        tree, problem = parse_yaml(text, file)
        if problem:
            return None, None, problem
        return _plain(tree), lazy_locator(lambda: yaml_positions(tree)), None
    if kind == "jsonc":  # comments and trailing commas blanked in place: offsets stay the file's own
        from .jsonc import blank_jsonc

        text = blank_jsonc(text)
    doc, problem = parse_json(text, file, duplicates)
    if problem:
        return None, None, problem
    return doc, json_locator(text), None


def _empty(file: str, what: str) -> Unreadable:
    if file == "-":
        return Unreadable("empty", f"standard input is {what}: nothing to lint (pipe a tool definition in, "
                                   f"e.g. toolclause lint - < tools.json)", file=file)
    return Unreadable("empty", f"the file is {what}: no tool definition in it", file=file)


def _load_document_text(text: str, file: str, kind: str, input_format: str | None) -> LoadResult:
    if not text.strip():
        return LoadResult(files=1, unreadable=[_empty(file, "empty")])
    duplicates: list[DuplicateKey] = []
    doc, locate, problem = parse_document(text, file, kind, duplicates)
    if problem:
        return LoadResult(files=1, unreadable=[problem])
    if doc is None and kind == "yaml":
        return LoadResult(files=1, unreadable=[_empty(file, "only YAML comments")])
    tools, problems = contracts_from_document(doc, file, input_format, locate)
    return LoadResult(tools=tools, unreadable=problems, files=1, documents={file: doc},  # the document: for --fix
                      duplicate_keys=duplicates)


def load_json_text(text: str, file: str, input_format: str | None = None) -> LoadResult:
    return _load_document_text(text, file, "json", input_format)


def _looks_like_jsonl(text: str) -> bool:
    first = text.lstrip().split("\n", 1)[0]
    try:
        json.loads(first)
    except (json.JSONDecodeError, RecursionError):
        return False
    return True


def load_jsonl_lines(lines: Iterable[str], file: str, input_format: str | None = None) -> LoadResult:
    result = LoadResult(files=1)
    records = 0
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        records += 1
        if len(text) > MAX_DOCUMENT_BYTES:
            result.unreadable.append(Unreadable("too-large", f"record over {MAX_DOCUMENT_BYTES // (1024 * 1024)} MiB",
                                                file=file, line=number))
            continue
        doc, problem = parse_json(text, file, result.duplicate_keys, number)
        if problem:
            result.unreadable.append(replace(problem, message=problem.message.replace("line 1, ", ""), line=number))
            continue
        # JSONL findings are located by record line (and the pointer into the record);
        # indexing columns of every record would cost more than the lint itself
        locate = None
        # one JSONL file is one tool list, unless records say otherwise (the wrapper's origin)
        tools, problems = contracts_from_document(doc, file, input_format, locate, line=number,
                                                  group_prefix="" if not isinstance(doc, list) else f"line {number}:")
        result.tools.extend(tools)
        result.unreadable.extend(problems)
    if not records:
        result.unreadable.append(_empty(file, "empty"))
    return result


def load_yaml_text(text: str, file: str, input_format: str | None = None) -> LoadResult:
    return _load_document_text(text, file, "yaml", input_format)


def parse_yaml(text: str, file: str) -> tuple[Any, Unreadable | None]:
    """ruamel's round-trip tree (it keeps positions), or the problem."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    if _nesting_depth_exceeds(text, MAX_NESTING) or text.count("\n  ") > 0 and _yaml_indent_depth(text) > MAX_NESTING:
        return None, Unreadable("too-deep", f"nested deeper than {MAX_NESTING} levels; not read", file=file)
    yaml = YAML(typ="rt")
    try:
        tree = _documents(list(yaml.load_all(text)))
    except YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        if "'\\t'" in problem:
            problem += " (YAML indents with spaces only: replace the tab with spaces)"
        return None, Unreadable("invalid-yaml", f"invalid YAML{where}: {problem}", file=file)
    except RecursionError:
        return None, Unreadable("too-deep", f"nested too deeply to read (over {MAX_NESTING} levels)", file=file)
    except ValueError as exc:
        return None, _number_too_long(exc, file)
    if isinstance(tree, (dict, list)) and _alias_expansion_exceeds(tree, MAX_ALIAS_NODES):
        return None, Unreadable("too-many-aliases", f"YAML aliases expand this document by more than "
                                                    f"{MAX_ALIAS_NODES:,} nodes, or into itself; not read", file=file)
    return tree, None


def _documents(trees: list[Any]) -> Any:
    """One YAML document as it is; several (`---`) as a list of them, pointers starting at the document's index.

    Empty documents (a leading `---`, one holding only comments) are left out.
    """
    from ruamel.yaml.comments import CommentedSeq

    found = [tree for tree in trees if tree is not None]
    if len(found) <= 1:
        return found[0] if found else None
    documents = CommentedSeq(found)
    for index, tree in enumerate(found):
        lc = getattr(tree, "lc", None)
        if lc is not None and lc.line is not None:
            documents.lc.add_kv_line_col(index, [lc.line, lc.col])
    return documents


def _alias_expansion_exceeds(tree: Any, budget: int) -> bool:
    """Whether expanding the aliases would add more than `budget` nodes, or never end.

    The loaded tree shares one object per anchor, so it is small; every reader
    after this one (positions, rules, export) sees it expanded.  Sizes are
    counted once per distinct container (memoised by identity), so a bomb of
    nine nested levels costs nine counts, not 9**9.
    """
    size: dict[int, int] = {}  # id → expanded node count, for containers already counted
    open_: set[int] = set()  # containers being counted: meeting one again is a cycle
    distinct = 0
    stack: list[tuple[Any, bool]] = [(tree, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            children = node.values() if isinstance(node, dict) else node
            size[key] = 1 + sum(size.get(id(c), 1) for c in children)
            open_.discard(key)
            if size[key] - distinct > budget:
                return True
            continue
        if key in size:
            continue
        if key in open_:
            return True
        open_.add(key)
        stack.append((node, True))
        containers = [c for c in (node.values() if isinstance(node, dict) else node) if isinstance(c, (dict, list))]
        distinct += 1 + len(node) - len(containers)  # this container and its scalars
        stack.extend((c, False) for c in containers if id(c) not in size)
    return False


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


def detect_kind(path: str, text: str) -> str:
    """'json', 'jsonc', 'jsonl' or 'yaml', from the file name, else from the text.

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
    if kind == "jsonc":
        return _load_document_text(text, file, "jsonc", input_format)
    return load_json_text(text, file, input_format)
