"""Find regular-expression features a constrained-decoding grammar cannot take.

A tiny scanner, not a parser: it skips escaped characters and character
classes so `\\\\b` (a literal backslash and b) and `[\\b]` (backspace) are not
taken for a word boundary.
"""

from __future__ import annotations


def unsupported_regex_features(pattern: str) -> list[str]:
    """Names of the backreference / lookaround / word-boundary features used in `pattern`."""
    found: list[str] = []
    index, length, in_class = 0, len(pattern), False
    while index < length:
        char = pattern[index]
        if char == "\\" and index + 1 < length:
            following = pattern[index + 1]
            if not in_class:
                if following in "123456789":
                    found.append(f"backreference \\{following}")
                elif following == "k" and pattern.startswith("<", index + 2):
                    found.append("named backreference \\k<…>")
                elif following in "bB":
                    found.append(f"word boundary \\{following}")
            index += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            # a ']' right after '[' or '[^' is a literal member, not the end
            if pattern.startswith("]", index + 1):
                index += 1
            elif pattern.startswith("^]", index + 1):
                index += 2
        elif char == "(" and pattern.startswith("?", index + 1):
            for opener, name in (("(?<=", "lookbehind (?<=…)"), ("(?<!", "negative lookbehind (?<!…)"),
                                 ("(?=", "lookahead (?=…)"), ("(?!", "negative lookahead (?!…)")):
                if pattern.startswith(opener, index):
                    found.append(name)
                    break
        index += 1
    return list(dict.fromkeys(found))
