"""Names a target rejects become valid, unique names — and the way back is kept.

`math.factorial` is a fine MCP name and a 400 at OpenAI; `Content-Type` is a
fine Anthropic property and a rejected Gemini parameter.  The mapping is
deterministic (the same input always gives the same names, so `--check` is
stable) and exported beside the tools so a runtime can route a call back.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from ..targets import PROPERTY_NAME_RULES, TOOL_NAME_RULES, NameRule


def _sanitise(name: str, rule: NameRule) -> str:
    """Replace each run of characters the rule rejects by '_' and satisfy its first-character rule.

    A name with no usable character at all (`검색`) becomes `tool_<hash>`, so two
    such names still differ.
    """
    kept = "".join(char if rule.pattern.fullmatch("a" + char) else "_" for char in name)
    text = re.sub(r"_{2,}", "_", kept).strip("_")
    if not text:
        return "tool_" + hashlib.sha1(name.encode("utf-8")).hexdigest()[:8]
    if not rule.pattern.fullmatch(text[:1]):
        text = "_" + text  # e.g. Gemini: a digit may not come first
    return text


def _shorten(name: str, limit: int, original: str) -> str:
    if len(name) <= limit:
        return name
    digest = hashlib.sha1(original.encode("utf-8")).hexdigest()[:8]
    return name[: limit - 9].rstrip("_") + "_" + digest


def valid_names(names: Iterable[str], rule: NameRule) -> dict[str, str]:
    """{original: exported} for every name; unchanged where the rule accepts it and it is unique.

    Valid names keep priority: a sanitised name never takes a name the input
    already uses; collisions get `_2`, `_3`, … (shortened to the length limit).
    """
    names = list(names)
    taken = {n for n in names if rule.pattern.fullmatch(n)}
    out: dict[str, str] = {}
    used: set[str] = set()
    for name in names:
        if name in out:
            continue
        if name in taken and name not in used:
            out[name] = name
            used.add(name)
            continue
        base = _shorten(_sanitise(name, rule), rule.max_length, name)
        candidate, counter = base, 2
        while candidate in used or (candidate in taken and candidate != name):
            suffix = f"_{counter}"
            candidate = base[: rule.max_length - len(suffix)] + suffix
            counter += 1
        out[name] = candidate
        used.add(candidate)
    return out


def tool_name_rule(family: str) -> NameRule:
    return TOOL_NAME_RULES[family]


def property_name_rule(family: str) -> NameRule | None:
    return PROPERTY_NAME_RULES.get(family)
