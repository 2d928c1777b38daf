"""format-stated-not-encoded (T008)

## What it does
Reports a string property whose text says it holds a UUID or an e-mail
address while the schema declares no `format` (nor `pattern`, `enum` or
`const`): "The cluster UUID", "格式为标准的 uuidv4", "User's Google email
address", "이메일 주소".  It suggests `"format": "uuid"` or `"format": "email"`.

Only a value that is one such thing is reported: a text that offers another
form beside it ("the UUID or the name of the project", "an email address or a
user id"), or that takes several ("comma-separated emails", "a list of
addresses"), is left alone, as is a property whose name says it is something
else (`email_subject`, `email_template`).  It is info: JSON Schema's `format` is
an annotation that many validators do not enforce, so the gain is what the
model and the validators that do read it learn.

## Why is this bad?
The model reads "UUID" in prose and may still send the cluster's name; a
`format` puts the expectation where clients, forms and strict validators look,
and toolclause's own gate refuses a value that is not one, with an error that
says which form was expected.

## Example
```json
{"name": "get_migration", "description": "Get the migration status of a database cluster.",
 "inputSchema": {"type": "object",
                 "properties": {"id": {"type": "string", "description": "The cluster UUID"}},
                 "required": ["id"], "additionalProperties": false}}
```

## Use instead
```json
{"name": "get_migration", "description": "Get the migration status of a database cluster.",
 "inputSchema": {"type": "object",
                 "properties": {"id": {"type": "string", "format": "uuid", "description": "The cluster UUID"}},
                 "required": ["id"], "additionalProperties": false}}
```

## Fix safety
Not applied by `--fix`: a validator that enforces formats would then refuse a
value of another form the function may accept; `--fix --unsafe-fixes` adds it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ... import _lazy_re as re
from ...model import Edit, Fix, Severity, ToolContract
from ...schema.walk import NodeKind, SchemaNode
from .._reach import unused_definition
from ..base import Finding, LintContext, Rule
from ._prose import quoted, sentences
from .t007_limit_stated_not_encoded import plain_kind

_FORMATS = (
    ("uuid", re.compile(r"\b(?:uuid(?:v?4)?|guid)s?\b", re.IGNORECASE)),
    ("email", re.compile(r"\be-?mail(?:\s+address)?\b|이메일|电子邮(?:件|箱)(?:地址)?|邮箱|メールアドレス",
                         re.IGNORECASE)),
)
# another form beside it, or several values in one string
_NOT_ONE_FORM = re.compile(r"\bor\b|\b(?:and/or|either|list|array|comma|separated|multiple|several|one\s+or\s+more)\b"
                           r"|\b(?:e-?mails|uuids|guids|addresses)\b|또는|혹은|或|または|,\s*(?:or|and)\b|/",
                           re.IGNORECASE)
# names of things that are about an e-mail or an id without being one
_OTHER_THINGS = frozenset("subject body template text content message format type status domain provider settings "
                          "config verified enabled count prefix suffix pattern".split())
_SETTLED = ("format", "pattern", "enum", "const", "contentEncoding", "$ref")
_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _settled(schema: dict[str, Any]) -> bool:
    places = [schema] + [b for b in schema.get("anyOf") or schema.get("oneOf") or () if isinstance(b, dict)]
    return any(key in place for place in places for key in _SETTLED)


class FormatStatedNotEncoded(Rule):
    code = "T008"
    name = "format-stated-not-encoded"
    severity = Severity.INFO
    node_kinds = frozenset({NodeKind.PROPERTY})

    def check_node(self, node: SchemaNode, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        schema = node.schema
        description = schema.get("description")
        if not isinstance(node.key, str) or not isinstance(description, str) or _settled(schema):
            return
        if plain_kind(schema) != "string" or unused_definition(tool, node, ctx):
            return
        words = {t.lower() for t in _TOKEN.findall(node.key)}
        if words & _OTHER_THINGS:
            return
        first = next(iter(sentences(description)), "")
        for form, pattern in _FORMATS:
            found = pattern.search(first)
            if found is None or _NOT_ONE_FORM.search(first) or found.group(0).lower() == node.key.lower():
                continue  # "the same uuid twice within an hour…": the text names the property, not its form
            if form == "email" and not words & {"email", "mail", "address", "recipient", "sender", "from", "to",
                                                "cc", "bcc", "user", "owner", "login", "contact"}:
                continue  # "the project the e-mail goes to": the text speaks of an e-mail, not of this value
            yield Finding(node.pointer,
                          f"the description of '{node.key}' says: '{quoted(first)}', but the schema declares no "
                          f"\"format\"; add \"format\": \"{form}\"",
                          Fix(f"add \"format\": \"{form}\"", safe=False,
                              edits=(Edit("set", node.pointer + "/format", form),)))
            return
