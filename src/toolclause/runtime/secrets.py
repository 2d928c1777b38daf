"""The result check for secrets: what a tool returns is masked before the model reads it.

A tool that hands back a live API key, a bearer token, a card number or a resident registration
number puts it in the model's context, the host's logs and whatever the model says next — with
or without an output schema that names the field.  The gate looks at every text in a success
(its data, its summary and its widget `_meta`) for the shapes `lexicon.secret_values` knows,
replaces each with `[masked <kind>]`, and logs a warning naming the tool, the kind and the
JSON Pointer — never the value.  `Toolbox(mask_secrets=False)` turns the check off for a tool
set whose results are meant to carry such values to a trusted host.
"""

from __future__ import annotations

import logging
from typing import Any

from ..lexicon.secret_values import KINDS, may_hold_secret, secrets_in
from ..model import escape_token

logger = logging.getLogger("toolclause.runtime")

_MAX_DEPTH = 64  # the output check already refused anything deeper than JSON encoders take


def masked(kind: str) -> str:
    return f"[masked {kind}]"


def mask_text(text: str) -> tuple[str, list[str]]:
    """`text` with every secret masked, and the kinds found (in order)."""
    pieces, kinds, last = [], [], 0
    for start, end, kind in secrets_in(text):
        pieces += [text[last:start], masked(kind)]
        kinds.append(kind)
        last = end
    if not kinds:
        return text, []
    pieces.append(text[last:])
    return "".join(pieces), kinds


def mask_value(value: Any, pointer: str = "") -> tuple[Any, list[tuple[str, str]]]:
    """JSON data with every secret in its texts masked, and (pointer, kind) for each one found.

    Data that holds nothing is returned as it is (the same object): the common case gathers the
    texts once and looks at them together (`may_hold_secret`), a few microseconds.
    """
    texts: list[str] = []
    if _texts(value, texts, 0) and not may_hold_secret("\x00".join(texts)):
        return value, []
    found: list[tuple[str, str]] = []
    return _walk(value, pointer, found, 0), found


def _texts(value: Any, out: list[str], depth: int) -> bool:
    """Gather the strings of JSON data into `out`; False when it is too deep to gather (then walk it all)."""
    if depth >= _MAX_DEPTH:
        return False
    kind = type(value)
    items = value.values() if kind is dict else value if kind is list else (value,)
    for item in items:
        found = type(item)
        if found is str:
            out.append(item)
        elif (found is dict or found is list) and not _texts(item, out, depth + 1):
            return False
    return True


def _walk(value: Any, pointer: str, found: list[tuple[str, str]], depth: int) -> Any:
    if isinstance(value, str):
        if not may_hold_secret(value):
            return value
        text, kinds = mask_text(value)
        found += [(pointer, kind) for kind in kinds]
        return text
    if depth >= _MAX_DEPTH:
        return value
    if isinstance(value, dict):
        return {key: _walk(item, f"{pointer}/{escape_token(str(key))}", found, depth + 1)
                for key, item in value.items()}
    if isinstance(value, list):
        return [_walk(item, f"{pointer}/{n}", found, depth + 1) for n, item in enumerate(value)]
    return value


def report(tool: str, where: str, found: list[tuple[str, str]], trace_id: str) -> None:
    """One warning per result: the tool, and each secret's kind and pointer (never its value)."""
    places = ", ".join(f"{KINDS.get(kind, kind)} at {where}{pointer or ''}" for pointer, kind in found[:20])
    logger.warning("secret in a result: %s returned %s; masked before the model reads it (trace %s)",
                   tool, places, trace_id,
                   extra={"tool": tool, "trace_id": trace_id,
                          "secrets": [{"pointer": where + p, "kind": k} for p, k in found[:20]]})


__all__ = ["mask_text", "mask_value", "masked", "report"]
