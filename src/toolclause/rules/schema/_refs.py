"""What S005 says about a `$ref` that does not resolve (resolution itself: `toolclause.schema.refs`)."""

from __future__ import annotations

from typing import Any

from ...model import escape_token, split_pointer
from ...schema.refs import RefIndex, Resolution
from ...suggest import closest
from ..base import IdentityMemo


def problem(resolution: Resolution, root: Any) -> str:
    """Why a local reference points nowhere, with the closest names that exist."""
    if resolution.anchor is not None:
        return f"no subschema declares the anchor '{resolution.anchor}'"
    return missing_part(root, resolution.pointer or "")


def missing_part(root: Any, pointer: str) -> str:
    """Which step of a pointer fails, and the closest names that exist there."""
    node = root
    walked = ""
    for token in split_pointer(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
            walked += "/" + escape_token(token)
            continue
        if isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
            walked += "/" + token
            continue
        where = f"'{walked}'" if walked else "the root"
        if isinstance(node, dict):
            guess = closest(token, [k for k in node if isinstance(k, str)])
            if guess:
                return f"{where} has no '{token}' (did you mean '#{walked}/{escape_token(guess)}'?)"
            return f"{where} has no '{token}'"
        return f"{where} is not an object, so it has no '{token}'"
    return "it does not exist"


class RefIndexes(IdentityMemo[Any, RefIndex]):
    """One RefIndex per root schema for one run (`ctx.state(RefIndexes)`)."""

    def __call__(self, root: Any) -> RefIndex:
        return self.get(root, RefIndex)
