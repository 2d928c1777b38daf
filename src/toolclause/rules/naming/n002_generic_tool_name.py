"""generic-tool-name (N002)

## What it does
Finds tool names of one or two words, all generic — verbs that fit any tool (`run`,
`process`, `execute`, `submit`, `handle`, `do`, `get`) and nouns that name
nothing (`data`, `items`, `request`, `action`): `run`, `process_data`,
`handle_request`, `get_items`.  The message lists the words that triggered it.
A generic-looking word that the description writes as a proper name —
`actions_get` for "GitHub Actions", `pipelines_get` for "Pipelines" — names a
product, and the name is not reported.

## Why is this bad?
A model picks a tool by its name first.  `process_data` says neither what is
processed nor how, so the model must read every description to choose — and in
a list of tools it guesses.  Names like `resize_image` or `search_orders` choose
themselves.

## Example
```json
{"name": "process_data", "description": "Resizes an image to the given width and height and returns the new image URL.",
 "inputSchema": {"type": "object", "properties": {"url": {"type": "string", "description": "Image URL"}}}}
```

## Use instead
```json
{"name": "resize_image", "description": "Resizes an image to the given width and height and returns the new image URL.",
 "inputSchema": {"type": "object", "properties": {"url": {"type": "string", "description": "Image URL"}}}}
```

## Fix safety
No fix: only the author knows what the tool acts on.
"""

from __future__ import annotations

from collections.abc import Iterable

from ... import _lazy_re as re
from ...lexicon import is_generic, split_identifier
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule

_CAPITALISED = re.compile(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-z]+)\b")


def _product_name(words: list[str], description: object) -> bool:
    """Whether a name word is written as a proper noun inside the description ("GitHub Actions")."""
    if not isinstance(description, str):
        return False
    proper = {m.group(1).lower() for m in _CAPITALISED.finditer(description[:500])}
    return any(w in proper for w in words if len(w) > 3)


class GenericToolName(Rule):
    code = "N002"
    name = "generic-tool-name"
    severity = Severity.WARNING

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        parts = split_identifier(tool.name)
        named = [w for w in parts if not w.isdigit()]
        # Three or more words tend to form a term of art ("get_action_value" in reinforcement learning).
        if not named or len(named) > 2 or not all(is_generic(w) for w in parts):
            return
        if _product_name(named, tool.description):
            return
        shown = " + ".join(f"'{w}'" for w in named)
        kind = "the word" if len(named) == 1 else "name words"
        yield Finding("/name", f"tool name '{tool.name}' is generic: {kind} {shown} say nothing about what it "
                               f"acts on or does; name the action and its object "
                               f"(e.g. 'resize_image', 'search_orders')",
                      Fix("rename the tool after what it does and what it acts on", safe=False))
