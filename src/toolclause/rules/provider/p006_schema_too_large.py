"""schema-too-large (P006)

## What it does
Estimates the prompt tokens each tool costs and reports a tool over the
`tool-tokens` budget (default 1,000) and a list whose tools together pass the
`list-tokens` budget (default 10,000).

A tool up to three and a half times its budget is reported as info (worth
trimming, not a defect: on real servers the text of such tools was mostly
needed, and blind judges found tools just over three times it marginal), unless a
fifth of it or more is definitions (`$defs`) its schema never references, which
is a warning that says to remove them.  The list total is a warning, unless
its tools are modest (on average under 40% of the tool budget): such a list is
long rather than bloated, which P005 reports, and its cost is info.

The estimate is what a function-calling request sends of each tool (its name,
description and inputSchema; the outputSchema, annotations and `_meta` stay with
the host) written as compact JSON, in UTF-8 bytes, divided by 4.  For English
JSON that is close to what OpenAI's and Anthropic's tokenizers count; for
Korean, Chinese or Japanese text a character takes 3 bytes, i.e. 0.75 estimated
tokens, which still errs low.  Providers wrap each tool in their own framing,
so real costs are a little higher: a finding is never an overestimate.

## Why is this bad?
Every tool definition is sent on every turn.  A 3,000-token tool costs that
much on every request whether or not it is called, crowds the context, and
makes the model's choice among tools worse.

## Example
```json
{"name": "set_shipping", "description": "Record where the customer lives and where the order ships to.",
 "inputSchema": {"type": "object", "additionalProperties": false, "required": ["home_country", "ship_to_country"],
   "properties": {"home_country": {"type": "string", "description": "Country of residence",
     "enum": ["Afghanistan", "Albania", "Algeria", "Andorra", "Angola", "Antigua and Barbuda", "Argentina",
              "Armenia", "Australia", "Austria", "Azerbaijan", "Bahamas", "Bahrain", "Bangladesh", "Barbados",
              "Belarus", "Belgium", "Belize", "Benin", "Bhutan", "Bolivia", "Bosnia and Herzegovina", "Botswana",
              "Brazil", "Brunei", "Bulgaria", "Burkina Faso", "Burundi", "Cabo Verde", "Cambodia", "Cameroon",
              "Canada", "Central African Republic", "Chad", "Chile", "China", "Colombia", "Comoros", "Congo",
              "Costa Rica", "Croatia", "Cuba", "Cyprus", "Czechia", "Denmark", "Djibouti", "Dominica",
              "Dominican Republic", "Ecuador", "Egypt", "El Salvador", "Equatorial Guinea", "Eritrea", "Estonia",
              "Eswatini", "Ethiopia", "Fiji", "Finland", "France", "Gabon", "Gambia", "Georgia", "Germany",
              "Ghana", "Greece", "Grenada", "Guatemala", "Guinea", "Guinea-Bissau", "Guyana", "Haiti", "Honduras",
              "Hungary", "Iceland", "India", "Indonesia", "Iran", "Iraq", "Ireland", "Israel", "Italy", "Jamaica",
              "Japan", "Jordan", "Kazakhstan", "Kenya", "Kiribati", "Kuwait", "Kyrgyzstan", "Laos", "Latvia",
              "Lebanon", "Lesotho", "Liberia", "Libya", "Liechtenstein", "Lithuania", "Luxembourg", "Madagascar",
              "Malawi", "Malaysia", "Maldives", "Mali", "Malta", "Marshall Islands", "Mauritania", "Mauritius",
              "Mexico", "Micronesia", "Moldova", "Monaco", "Mongolia", "Montenegro", "Morocco", "Mozambique",
              "Myanmar", "Namibia", "Nauru", "Nepal", "Netherlands", "New Zealand", "Nicaragua", "Niger",
              "Nigeria", "North Korea", "North Macedonia", "Norway", "Oman", "Pakistan", "Palau", "Panama",
              "Papua New Guinea", "Paraguay", "Peru", "Philippines", "Poland", "Portugal", "Qatar", "Romania",
              "Russia", "Rwanda", "Saint Kitts and Nevis", "Saint Lucia", "Saint Vincent and the Grenadines",
              "Samoa", "San Marino", "Sao Tome and Principe", "Saudi Arabia", "Senegal", "Serbia", "Seychelles",
              "Sierra Leone", "Singapore", "Slovakia", "Slovenia", "Solomon Islands", "Somalia", "South Africa",
              "South Korea", "South Sudan", "Spain", "Sri Lanka", "Sudan", "Suriname", "Sweden", "Switzerland",
              "Syria", "Tajikistan", "Tanzania", "Thailand", "Timor-Leste", "Togo", "Tonga",
              "Trinidad and Tobago", "Tunisia", "Turkey", "Turkmenistan", "Tuvalu", "Uganda", "Ukraine",
              "United Arab Emirates", "United Kingdom", "United States", "Uruguay", "Uzbekistan", "Vanuatu",
              "Venezuela", "Vietnam", "Yemen", "Zambia", "Zimbabwe"]},
                  "ship_to_country": {"type": "string", "description": "Destination country",
     "enum": ["Afghanistan", "Albania", "Algeria", "Andorra", "Angola", "Antigua and Barbuda", "Argentina",
              "Armenia", "Australia", "Austria", "Azerbaijan", "Bahamas", "Bahrain", "Bangladesh", "Barbados",
              "Belarus", "Belgium", "Belize", "Benin", "Bhutan", "Bolivia", "Bosnia and Herzegovina", "Botswana",
              "Brazil", "Brunei", "Bulgaria", "Burkina Faso", "Burundi", "Cabo Verde", "Cambodia", "Cameroon",
              "Canada", "Central African Republic", "Chad", "Chile", "China", "Colombia", "Comoros", "Congo",
              "Costa Rica", "Croatia", "Cuba", "Cyprus", "Czechia", "Denmark", "Djibouti", "Dominica",
              "Dominican Republic", "Ecuador", "Egypt", "El Salvador", "Equatorial Guinea", "Eritrea", "Estonia",
              "Eswatini", "Ethiopia", "Fiji", "Finland", "France", "Gabon", "Gambia", "Georgia", "Germany",
              "Ghana", "Greece", "Grenada", "Guatemala", "Guinea", "Guinea-Bissau", "Guyana", "Haiti", "Honduras",
              "Hungary", "Iceland", "India", "Indonesia", "Iran", "Iraq", "Ireland", "Israel", "Italy", "Jamaica",
              "Japan", "Jordan", "Kazakhstan", "Kenya", "Kiribati", "Kuwait", "Kyrgyzstan", "Laos", "Latvia",
              "Lebanon", "Lesotho", "Liberia", "Libya", "Liechtenstein", "Lithuania", "Luxembourg", "Madagascar",
              "Malawi", "Malaysia", "Maldives", "Mali", "Malta", "Marshall Islands", "Mauritania", "Mauritius",
              "Mexico", "Micronesia", "Moldova", "Monaco", "Mongolia", "Montenegro", "Morocco", "Mozambique",
              "Myanmar", "Namibia", "Nauru", "Nepal", "Netherlands", "New Zealand", "Nicaragua", "Niger",
              "Nigeria", "North Korea", "North Macedonia", "Norway", "Oman", "Pakistan", "Palau", "Panama",
              "Papua New Guinea", "Paraguay", "Peru", "Philippines", "Poland", "Portugal", "Qatar", "Romania",
              "Russia", "Rwanda", "Saint Kitts and Nevis", "Saint Lucia", "Saint Vincent and the Grenadines",
              "Samoa", "San Marino", "Sao Tome and Principe", "Saudi Arabia", "Senegal", "Serbia", "Seychelles",
              "Sierra Leone", "Singapore", "Slovakia", "Slovenia", "Solomon Islands", "Somalia", "South Africa",
              "South Korea", "South Sudan", "Spain", "Sri Lanka", "Sudan", "Suriname", "Sweden", "Switzerland",
              "Syria", "Tajikistan", "Tanzania", "Thailand", "Timor-Leste", "Togo", "Tonga",
              "Trinidad and Tobago", "Tunisia", "Turkey", "Turkmenistan", "Tuvalu", "Uganda", "Ukraine",
              "United Arab Emirates", "United Kingdom", "United States", "Uruguay", "Uzbekistan", "Vanuatu",
              "Venezuela", "Vietnam", "Yemen", "Zambia", "Zimbabwe"]}}}}
```

## Use instead
```json
{"name": "set_shipping", "description": "Record where the customer lives and where the order ships to.",
 "inputSchema": {"type": "object", "additionalProperties": false, "required": ["home_country", "ship_to_country"],
   "properties": {"home_country": {"type": "string", "pattern": "^[A-Z]{2}$",
                                   "description": "Country of residence, ISO 3166-1 alpha-2 code (KR, US, DE)"},
                  "ship_to_country": {"type": "string", "pattern": "^[A-Z]{2}$",
                                      "description": "Destination country, ISO 3166-1 alpha-2 code"}}}}
```

## Fix safety
No automatic fix: shorten descriptions, replace long enums with a code and a
pattern, or split the tool.

## References
- OpenAI, Function calling (function definitions count as input tokens on every request):
  https://developers.openai.com/api/docs/guides/function-calling
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from ...model import Severity, ToolContract
from .._reach import DEFINITION_KEYWORDS, used_definitions
from ..base import Finding, IdentityMemo, LintContext, Rule

TOOL_BUDGET_KEY, TOOL_BUDGET_DEFAULT = "tool-tokens", 1000
LIST_BUDGET_KEY, LIST_BUDGET_DEFAULT = "list-tokens", 10_000
BYTES_PER_TOKEN = 4
MATERIAL_EXCESS = 3.5   # a tool more than 3.5 times its budget is a warning; less, info (worth trimming)
UNUSED_SHARE = 0.2      # unreferenced definitions making a fifth of a tool over budget: remove them (warning)
MODEST_SHARE = 0.4      # a list whose average tool costs under 40% of the tool budget is long, not bloated (info)


def budget_per_tool(ctx: LintContext) -> int:
    return _budget(ctx, TOOL_BUDGET_KEY, TOOL_BUDGET_DEFAULT)


def _budget(ctx: LintContext, key: str, default: int) -> int:
    value = ctx.budget(key, default)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else default


def _walk_size(value: Any) -> int:
    """Compact-JSON byte length without recursion, for schemas too deep for json.dumps."""
    size, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            size += 2 + max(len(item) - 1, 0)  # braces and commas
            for key, sub in item.items():
                size += len(json.dumps(str(key), ensure_ascii=False).encode()) + 1
                stack.append(sub)
        elif isinstance(item, list):
            size += 2 + max(len(item) - 1, 0)
            stack.extend(item)
        else:
            size += len(json.dumps(item, ensure_ascii=False, default=str).encode())
    return size


_compact = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=str).encode  # one encoder a run


def calling_shape(tool: ToolContract) -> dict[str, Any]:
    """What a function-calling request sends of the tool: name, description and input schema.

    The output schema, annotations and `_meta` stay with the host: no provider puts them in the prompt.
    """
    shape: dict[str, Any] = {"name": tool.name}
    if tool.description is not None:
        shape["description"] = tool.description
    shape["inputSchema"] = tool.input_schema if tool.input_schema is not None else {"type": "object", "properties": {}}
    return shape


def unused_definitions_share(tool: ToolContract) -> float:
    """The share of the tool's estimated size that is definitions its schema never references."""
    schema = tool.input_schema
    if not isinstance(schema, dict) or not any(isinstance(schema.get(k), dict) for k in DEFINITION_KEYWORDS):
        return 0.0
    used = used_definitions(schema)
    unused = {k: {n: d for n, d in schema[k].items() if f"/{k}/{n}" not in used}
              for k in DEFINITION_KEYWORDS if isinstance(schema.get(k), dict)}
    unused_size = sum(_walk_size(v) for v in unused.values())
    return unused_size / max(1, _walk_size(calling_shape(tool)))


def estimate_tokens(tool: ToolContract) -> int:
    """Compact JSON of what a function-calling request sends (name, description, input schema), in UTF-8
    bytes, divided by 4 (rounded up)."""
    shape = calling_shape(tool)
    try:
        text = _compact(shape)
        # an ASCII str's length is its UTF-8 length (isascii is O(1)): most tools skip the encode
        size = len(text) if text.isascii() else len(text.encode())
    except (RecursionError, ValueError, TypeError):
        size = _walk_size(shape)
    return -(-size // BYTES_PER_TOKEN)


class _Estimates(IdentityMemo[ToolContract, int]):
    """Each tool's estimated prompt tokens, for one run."""


class SchemaTooLarge(Rule):
    code = "P006"
    name = "schema-too-large"
    severity = Severity.WARNING

    @staticmethod
    def _tokens(tool: ToolContract, ctx: LintContext) -> int:
        # check_tool and summarise_member both ask: estimated once a run
        return ctx.state(_Estimates).get(tool, estimate_tokens)

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        budget = budget_per_tool(ctx)
        tokens = self._tokens(tool, ctx)
        if tokens > budget:
            message = (f"this tool costs about {tokens:,} prompt tokens on every turn (its name, description and "
                       f"input schema as a function-calling request sends them, compact JSON / 4), over the budget "
                       f"of {budget:,} ({TOOL_BUDGET_KEY}); ")
            share = unused_definitions_share(tool)
            if share >= UNUSED_SHARE:
                yield Finding("", message + f"{share:.0%} of it is definitions the schema never references: "
                                            f"remove them from $defs")
                return
            # a tool over its budget is worth trimming, and judges found the text mostly needed: a defect only
            # from three and a half times the budget
            severity = None if tokens > budget * MATERIAL_EXCESS else Severity.INFO
            yield Finding("", message + "shorten descriptions, replace long enums, or split the tool",
                          severity=severity)

    def summarise_member(self, tool: ToolContract, ctx: LintContext) -> int:
        return self._tokens(tool, ctx)

    def check_summaries(self, tools: Sequence[ToolContract], tokens: Sequence[int],
                        ctx: LintContext) -> Iterable[tuple[ToolContract, Finding]]:
        if not tools:
            return
        budget = _budget(ctx, LIST_BUDGET_KEY, LIST_BUDGET_DEFAULT)
        costs = [(cost, index) for index, cost in enumerate(tokens)]
        total = sum(tokens)
        if total <= budget:
            return
        largest = sorted(costs, reverse=True)[:3]
        named = ", ".join(f"'{tools[i].name}' ({c:,})" for c, i in largest)
        # a list of modest tools is long rather than bloated: its count is P005's finding, its cost a fact
        modest = total / len(tools) <= budget_per_tool(ctx) * MODEST_SHARE
        yield tools[largest[0][1]], Finding(
            "", f"the {len(tools)} tools of this list cost about {total:,} prompt tokens on every turn, over the "
                f"budget of {budget:,} ({LIST_BUDGET_KEY}); the largest are {named} — trim them or load tools on "
                f"demand", severity=Severity.INFO if modest else None)
