"""JSON with comments and trailing commas (JSONC, as VS Code, Zed and other MCP clients write it) read as JSON,
with every character kept in its place.

Comments and trailing commas are replaced by spaces (a comment's line breaks are kept), never removed, so
the text parses with the json module and an offset in it is the same offset in the file as written: the
JSON position maps (`positions.json_locator`) give line and column in the user's own file.
"""

from __future__ import annotations

from .. import _lazy_re as re

# after a comma: white space and comments up to a closing bracket make it a trailing comma
_CLOSES_AFTER = re.compile(r"(?:\s|//[^\n]*|/\*.*?\*/)*[}\]]", re.S)


def _blank(text: str) -> str:
    """Spaces for every character but line breaks."""
    return "".join(c if c in "\r\n" else " " for c in text)


def blank_jsonc(text: str) -> str:
    """`text` with its comments and trailing commas blanked (see the module's docstring).

    A comment or a string that is never closed runs to the end of the text; the json module then
    says where the text is broken, as it would for the file."""
    if "/" not in text and "," not in text:
        return text
    out: list[str] = []
    i, n = 0, len(text)
    start = 0  # text[start:i] is kept as it is
    while i < n:
        char = text[i]
        if char == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
            i += 1
        elif char == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(text[start:i])
            out.append(_blank(text[i:end]))
            i = start = end
        elif char == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(text[start:i])
            out.append(_blank(text[i:end]))
            i = start = end
        elif char == "," and _CLOSES_AFTER.match(text, i + 1):
            out.append(text[start:i])
            out.append(" ")
            i = start = i + 1
        else:
            i += 1
    out.append(text[start:])
    return "".join(out)


__all__ = ["blank_jsonc"]
