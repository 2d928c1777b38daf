"""sensitive-output (X010)

## What it does
Finds secrets and personal data a tool hands back to the model: an output
schema property named like a password, token, API key, private key, card
number, CVV, social security number (주민등록번호, 계좌번호, 비밀번호 …), at
any depth, and `_meta` keys or values that hold one (`api_key`, a string shaped
like `sk-…`, `AKIA…`, `ghp_…` or a PEM private key).  Names about the secret
rather than the secret itself (`password_expires_at`, `has_token`,
`card_number_last4`, `secret_name`) and non-string fields are left alone.

What the caller just made is another matter:

- a tool that reads, lists or changes things and returns a secret: a
  **warning** — the caller did not ask for it, and every call repeats it;
- a tool that creates (or rotates, resets, generates) the thing and returns
  its new secret once — a webhook's signing secret, a new client's secret,
  a database user's password: **info**.  Masking it would lose it; say in the
  description that it is returned only once, and make a retry return the
  first result rather than create a second thing with a second secret.  A
  create whose description or field already says so is not reported;
- a field the schema documents as returned only by the create call ("Only
  returned on the initial create response"), in the shared schema of a get,
  list or update tool: not reported, since that tool never fills it.

It also finds a tool that harvests the conversation: text that asks the model
to send the user's messages verbatim, the whole conversation or chat history,
or its system prompt or instructions as arguments.  That is personal data
(and the operator's instructions) leaving for the tool's server, whatever the
tool says it is for.  A model or provider name ("include your model name" for
analytics) is no one's secret and is not reported.

## Why is this bad?
Whatever a tool returns lands in the model's context: it is logged, may be
repeated to the user or to another tool, and can be exfiltrated by any injected
instruction.  Return an id, a masked value or a reference, never the secret.

## Example
```json
{"name": "get_api_client", "description": "Returns one API client with its credentials.",
 "inputSchema": {"type": "object", "properties": {"client_id": {"type": "string", "description": "Client id"}}},
 "outputSchema": {"type": "object",
                  "properties": {"client_id": {"type": "string"}, "client_secret": {"type": "string"}}}}
```

## Use instead
```json
{"name": "get_api_client", "description": "Returns one API client; its secret is never returned.",
 "inputSchema": {"type": "object", "properties": {"client_id": {"type": "string", "description": "Client id"}}},
 "outputSchema": {"type": "object",
                  "properties": {"client_id": {"type": "string"}, "secret_last4": {"type": "string"}}}}
```

## Fix safety
No fix: what to return instead is the author's decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ... import _lazy_re as re
from ...lexicon import identifier_words
from ...lexicon.secret_values import CREDENTIAL
from ...model import Severity, ToolContract, escape_token
from ...schema.walk import NodeKind, SchemaNode
from ..base import Finding, LintContext, Rule
from ._analysis import analyse
from ._texts import find_in_prose
from ._words import HARVESTING, NOT_THE_SECRET, SENSITIVE_FIELDS

_SECRET_VALUE = CREDENTIAL  # the gate masks the same shapes in results (lexicon/secret_values.py)


def sensitive(name: object) -> str | None:
    """What secret a field name holds ('a password'), or None."""
    if not isinstance(name, str) or not name:
        return None
    parts = identifier_words(name)
    if not parts or NOT_THE_SECRET.intersection(parts):
        return None
    joined = "".join(parts)
    found = SENSITIVE_FIELDS.get(joined)
    if found:
        return found
    # `user_password`, `stripe_api_key`, `customer_ssn`: the secret word closes the name
    for size in (3, 2, 1):
        if len(parts) > size:
            found = SENSITIVE_FIELDS.get("".join(parts[-size:]))
            if found and (size > 1 or parts[-1] not in ("secret", "pwd")):
                return found
    return None


_HARVESTING = re.compile("|".join(f"(?:{p})" for p in HARVESTING), re.I)
# "Only returned on the initial create response", "shown only once", "returned once at creation"
_RETURNED_ONCE = re.compile(
    r"\b(?:only|once)\s+(?:be\s+)?(?:returned|shown|included|provided|displayed|visible|available)\b"
    r"|\b(?:returned|shown|included|provided|displayed|visible|available)\s+(?:only\s+)?once\b"
    r"|\b(?:returned|shown|included|provided)\s+only\s+(?:on|in|at|upon|when|by)\b[^.\n]{0,30}\b(?:creat|initial|first)",
    re.I)
# A name verb that makes a new secret the caller has not seen yet.
_MAKES_A_SECRET = frozenset("create creates generate generates regenerate regenerates rotate rotates reset resets "
                            "issue issues mint mints provision provisions register registers new".split())


def _makes_what_it_returns(tool: ToolContract, ctx: LintContext) -> bool:
    """Does the tool create (or rotate, reset, generate) the thing whose secret it returns?"""
    if isinstance(tool.name, str) and _MAKES_A_SECRET.intersection(identifier_words(tool.name)):
        return True
    creates = analyse(tool, ctx).creates
    return creates is not None and not creates.where.startswith("parameter")


def _says_once(*texts: object) -> bool:
    return any(isinstance(t, str) and _RETURNED_ONCE.search(t) for t in texts)


class SensitiveOutput(Rule):
    code = "X010"
    name = "sensitive-output"
    severity = Severity.WARNING
    tags = ("MCP01:2025", "MCP10:2025")  # OWASP MCP Top 10 (see rules/owasp.py)
    node_kinds = frozenset({NodeKind.PROPERTY})
    roles = frozenset({"output"})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        what = sensitive(node.key)
        if what is None:
            return
        kind = node.schema.get("type")
        if kind in ("boolean", "integer", "number", "array", "object", "null"):
            return
        once = _says_once(node.schema.get("description"))
        if _makes_what_it_returns(tool, ctx):
            if once or _says_once(tool.description):
                return  # a new secret, returned once on purpose, and the text says so
            yield Finding(node.pointer, (
                f"'{tool.name}' returns the new {what.split(' ', 1)[1]} in '{node.key}' of what it creates: masking "
                f"it would lose it, but say in the description that it is returned only once and must be stored "
                f"now, and make a retry return the first result rather than create a second one with a new secret"),
                severity=Severity.INFO)
            return
        if once:
            return  # "Only returned on the initial create response": this tool never fills it
        yield Finding(node.pointer, (
            f"the result carries {what} in '{node.key}'; everything a tool returns enters the model's context and "
            f"its logs — return an id, a masked value or a reference instead"))

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if isinstance(tool.meta, Mapping) and tool.meta:
            yield from _meta_findings(tool.meta, "/_meta", 0)
        harvesting = find_in_prose(tool, ctx, _HARVESTING)
        if harvesting is not None:
            item, found = harvesting
            yield Finding(item.pointer, (
                f"{item.where} asks for the conversation or the operator's instructions ('{found.group(0)[:80]}'): "
                f"the user's words and the operator's instructions would leave for this tool's server; ask only "
                f"for the values the tool needs"))


def _meta_findings(value: Any, pointer: str, depth: int) -> Iterable[Finding]:
    if depth > 4:
        return
    if isinstance(value, Mapping):
        for key, sub in value.items():
            where = f"{pointer}/{escape_token(key)}"
            what = sensitive(key) if isinstance(key, str) else None
            if what is not None and isinstance(sub, str) and sub:
                yield Finding(where, f"_meta carries {what} in '{key}'; _meta travels with the tool to every "
                                     f"client — move the secret to the server's configuration")
                continue
            yield from _meta_findings(sub, where, depth + 1)
    elif isinstance(value, list):
        for index, sub in enumerate(value[:100]):
            yield from _meta_findings(sub, f"{pointer}/{index}", depth + 1)
    elif isinstance(value, str) and _SECRET_VALUE.search(value):
        yield Finding(pointer, "_meta holds a value shaped like a credential (an API key, access token or private "
                               "key); _meta travels with the tool to every client — remove it and rotate the secret")
