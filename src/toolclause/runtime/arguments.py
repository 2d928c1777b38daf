"""Stage 1 of a call: whatever the model sent → a dict, or an INVALID_ARGUMENTS_JSON problem.

Accepted: a dict; a str or bytes holding a JSON object; the same double-encoded
(a JSON string whose content is a JSON object, which several providers send);
empty or whitespace-only text (= no arguments, `{}`).  Anything else is refused
with line, column and at most 200 characters of context — with string contents
and digits masked, since arguments may hold personal data.  Never `{}` for text
that fails to parse.  Raw text over `max_bytes` (1 MiB by default) is refused
before it is parsed.
"""

from __future__ import annotations

import json
import json.scanner
from dataclasses import dataclass
from typing import Any, cast

from ..model import Problem

MAX_ARGUMENT_BYTES = 1024 * 1024
MAX_ARGUMENT_DEPTH = 256  # nesting a dict handed over may have (JSON text is bounded by its parser)
CONTEXT_CHARS = 200



@dataclass(frozen=True, slots=True)
class ParseProblem(Problem):
    """Why the arguments are not a JSON object.

    `code` is the envelope's `problem` (from `errors.PROBLEMS`: syntax, encoding,
    type, maxSize); `context` the rest of the `details` entry (`expected`, and for
    syntax errors `line`, `column` and the masked `context` text).
    """

    @property
    def detail(self) -> dict[str, Any]:
        """The envelope's `details` entry."""
        return {"path": self.pointer, "problem": self.code, **self.context}


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# one decoder built once: json.loads(..., parse_constant=…) would build a new one per call
_decoder = json.JSONDecoder(parse_constant=_reject_constant)
_loads = _decoder.decode
# the C scanner, without decode()'s two whitespace regexes (typeshed types its argument as the scanner class)
_scan = json.scanner.make_scanner(cast(Any, _decoder))


def fast_object(text: str) -> dict[str, Any] | None:
    """The common case in one C call: text that is exactly one JSON object, no surrounding whitespace.

    None means "take the full path" (whitespace, an error, anything unusual),
    which gives the same answer with a proper message.
    """
    try:
        value, end = _scan(text, 0)
    except (StopIteration, ValueError, RecursionError):
        return None
    return value if end == len(text) and type(value) is dict else None


def parse_arguments(raw: Any, max_bytes: int = MAX_ARGUMENT_BYTES) -> dict[str, Any] | ParseProblem:
    """The arguments as a fresh dict (safe to mutate), or the problem."""
    if type(raw) is dict:
        return _bounded(dict(raw), max_bytes)
    if raw is None:
        return {}
    if isinstance(raw, (bytes, bytearray, memoryview)):
        raw = bytes(raw)
        if len(raw) > max_bytes:
            return _too_large(len(raw), max_bytes)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return ParseProblem("encoding", f"the arguments are not UTF-8 text (bad byte at offset {exc.start})",
                                context={"expected": "UTF-8 JSON object"})
        return _parse_text(text, max_bytes)
    if isinstance(raw, str):
        # a str of n characters is at most 4n bytes: measure exactly only when it may matter
        if len(raw) > max_bytes or (len(raw) * 4 > max_bytes and len(raw.encode("utf-8", "surrogatepass")) > max_bytes):
            return _too_large(len(raw.encode("utf-8", "surrogatepass")), max_bytes)
        return _parse_text(raw, max_bytes)
    if isinstance(raw, dict):  # a dict subclass or mapping-like dict
        return _bounded(dict(raw), max_bytes)
    return ParseProblem("type", f"the arguments are {_kind(raw)}, not a JSON object", context={"expected": "object"})


def _parse_text(text: str, max_bytes: int) -> dict[str, Any] | ParseProblem:
    try:
        value = _loads(text)
    except json.JSONDecodeError as exc:
        if not text.strip():
            return {}
        return _syntax_problem(text, exc)
    except (ValueError, RecursionError) as exc:
        reason = ("nested too deeply" if isinstance(exc, RecursionError) else
                  "NaN and Infinity are not JSON" if str(exc).endswith(" is not JSON") else
                  "a number has too many digits; send it as a string")
        return ParseProblem("syntax", f"the arguments are not valid JSON: {reason}",
                            context={"expected": "JSON object"})
    if type(value) is dict:
        return value
    if isinstance(value, str):
        # double encoding: a JSON string whose content is the JSON object
        inner = value.strip()
        if inner.startswith("{"):
            try:
                decoded = _loads(inner)
            except json.JSONDecodeError as exc:
                return _syntax_problem(inner, exc, prefix="the arguments are a JSON string holding invalid JSON")
            except (ValueError, RecursionError):
                decoded = None
            if type(decoded) is dict:
                return decoded
        elif not inner:
            return {}
    return ParseProblem("type", f"the arguments are {_kind(value)}, not a JSON object", context={"expected": "object"})


def _bounded(args: dict[str, Any], max_bytes: int) -> dict[str, Any] | ParseProblem:
    """A dict handed over (what SDKs pass) under the same size limit as text, and at most MAX_ARGUMENT_DEPTH deep.

    Its size is what its JSON text would take, counted as it goes and given up
    as soon as the limit is passed; a dict that holds itself is too deep.  The
    common case — text keys, flat values, short texts — is one loop.
    """
    size = 0
    for key, value in args.items():
        kind = type(value)
        if type(key) is not str or not (kind is str or kind is int or kind is bool or kind is float or value is None):
            break
        size += len(key) + (len(value) if kind is str else 0) + 8
    else:
        if size * 4 <= max_bytes:
            return args
    size = 0
    stack: list[tuple[Any, int]] = [(args, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_ARGUMENT_DEPTH:
            return ParseProblem("depth", f"the arguments are nested more than {MAX_ARGUMENT_DEPTH} levels deep",
                                context={"expected": f"at most {MAX_ARGUMENT_DEPTH} levels of nesting"})
        kind = type(node)
        if kind is str:
            length = len(node)
            if max_bytes - size >= length > (max_bytes - size) // 4:  # near the limit: count the bytes themselves
                length = len(node.encode("utf-8", "surrogatepass"))
            size += length + 3
        elif kind is dict or isinstance(node, dict):
            size += 2
            for key, item in node.items():
                stack.append((item, depth + 1))
                stack.append((key, depth + 1) if type(key) is str else (None, depth + 1))
        elif kind is list or kind is tuple:
            size += 2
            stack.extend((item, depth + 1) for item in node)
        else:
            size += 8
        if size > max_bytes:
            return ParseProblem("maxSize", f"the arguments are larger than the limit of {max_bytes:,} bytes",
                                context={"expected": f"at most {max_bytes} bytes"})
    return args


def _too_large(size: int, limit: int) -> ParseProblem:
    return ParseProblem("maxSize", f"the arguments are {size:,} bytes; the limit is {limit:,} bytes",
                        context={"expected": f"at most {limit} bytes"})


def _syntax_problem(text: str, exc: json.JSONDecodeError, prefix: str = "the arguments are not valid JSON"
                    ) -> ParseProblem:
    start = max(0, exc.pos - CONTEXT_CHARS // 2)
    end = min(len(text), start + CONTEXT_CHARS)
    context = mask_values(text, start, end)
    return ParseProblem("syntax", f"{prefix}: {exc.msg} at line {exc.lineno}, column {exc.colno}",
                        context={"expected": "JSON object", "line": exc.lineno, "column": exc.colno,
                                 "context": context})


_KEPT_WORDS = frozenset({"true", "false", "null", "True", "False", "None"})


def mask_values(text: str, start: int, end: int) -> str:
    """text[start:end] with the contents of string literals replaced by '…', digits by '0' and words by 'x's.

    The structure (braces, quotes, commas, colons) stays, so the model sees
    *where* the syntax broke without the envelope repeating what the user wrote.
    Keys are masked too: a key can hold anything a value can.  Single-quoted
    text (Python's repr, a common mistake) counts as a string literal, and a
    bare word other than true/false/null (or Python's True/False/None) keeps
    only its length.
    """
    quote = ""  # the quote character of the string literal we are in, if any
    escaped = False
    for ch in text[:start]:  # the string state at the window's start
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch == '"' or ch == "'":
            quote = ch
    out: list[str] = []
    word: list[str] = []
    masked_run = False
    for ch in text[start:end]:
        if quote:
            if escaped:
                escaped = False
                continue
            if ch == "\\":
                escaped = True
                continue
            if ch == quote:
                quote = ""
                masked_run = False
                out.append(ch)
            elif not masked_run:
                out.append("…")
                masked_run = True
            continue
        if ch.isalpha():
            word.append(ch)
            continue
        if word:
            out.append(_masked_word(word))
            word = []
        if ch == '"' or ch == "'":
            quote = ch
            out.append(ch)
        elif ch.isdigit():
            out.append("0")
        else:
            out.append(ch)
    if word:
        out.append(_masked_word(word))
    return "".join(out)


def _masked_word(letters: list[str]) -> str:
    word = "".join(letters)
    return word if word in _KEPT_WORDS else "x" * len(word)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    return f"a {type(value).__name__} object"
