"""`toolclause init`: the files a new project starts with, as data.

`project_files()` returns every file as (relative path, text).  The contracts pass
`toolclause lint`, `toolclause test` and (once exported) `toolclause export --check`
as they are; the CI workflow runs all of them, plus `diff --fail-on breaking`
against the base branch of a pull request.  Nothing here writes: the command
writes only the files that are not there yet.
"""

from __future__ import annotations

import json
from typing import Any

CONTRACTS = "contracts"
BUILD = "build"
EXPORT_TARGET, EXPORT_STRICT = "openai-chat", True

TOOL: dict[str, Any] = {
    "$id": "urn:example:tool:get_order_status",
    "version": 1,
    "name": "get_order_status",
    "title": "Get an order's status",
    "description": ("Look up where one order stands: its status and, once shipped, the tracking number. "
                    "Read-only; it never changes the order. Use it before answering any question about an "
                    "order's delivery."),
    "inputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "pattern": "^ord_[A-Za-z0-9]{4,32}$",
                         "description": "The order's id as shown on the receipt, e.g. ord_8F2K."},
            "include_items": {"type": "boolean",
                              "description": "Also list the order's items (name and quantity); false when left out."},
        },
        "required": ["order_id"],
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "properties": {
            "order_id": {"type": "string", "description": "The order asked about."},
            "status": {"type": "string", "enum": ["pending", "shipped", "delivered", "cancelled"],
                       "description": "Where the order stands."},
            "tracking_number": {"type": ["string", "null"], "maxLength": 64,
                                "description": "The carrier's tracking number once shipped, else null."},
        },
        "required": ["order_id", "status", "tracking_number"],
        "additionalProperties": False,
    },
    "annotations": {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
    "errors": [{"code": "ORDER_NOT_FOUND", "retryable": False, "userAction": "check_order_id",
                "description": "No order has that id."}],
    "examples": {
        "valid": [{"arguments": {"order_id": "ord_8F2K"},
                   "result": {"order_id": "ord_8F2K", "status": "shipped", "tracking_number": "1Z999AA10123456784"}}],
        "invalid": [{"arguments": {"order": "ord_8F2K"}, "code": "VALIDATION_ERROR"}],
    },
}

HANDOFF: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:example:handoff:triage_to_billing",
    "title": "What the triage agent hands to the billing agent",
    "type": "object",
    "properties": {
        "intent": {"type": "string", "enum": ["refund", "invoice_question"],
                   "description": "What the customer wants from billing."},
        "confidence": {"type": "number", "minimum": 0, "maximum": 1,
                       "description": "How sure triage is of the intent, 0 to 1."},
        "order_id": {"type": "string", "pattern": "^ord_[A-Za-z0-9]{4,32}$", "description": "The order concerned."},
        "summary": {"type": "string", "maxLength": 500, "description": "The request in one or two sentences."},
    },
    "required": ["intent", "confidence", "order_id", "summary"],
    "additionalProperties": False,
    "x-routes": [{"when": "intent == 'refund' and confidence >= 0.8", "to": "billing_agent"},
                 {"to": "human_review"}],
    "examples": [{"intent": "refund", "confidence": 0.92, "order_id": "ord_8F2K",
                  "summary": "The parcel arrived damaged; the customer wants the money back."}],
}

STATE: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "urn:example:state:refund_flow",
    "version": 1,
    "title": "A refund in progress, saved between steps",
    "type": "object",
    "properties": {
        "step": {"type": "string", "enum": ["triaged", "approved", "refunded"], "description": "The last step done."},
        "handoff": {"$ref": "urn:example:handoff:triage_to_billing"},
        "refund_id": {"type": ["string", "null"], "description": "The refund, once created."},
    },
    "required": ["step", "handoff", "refund_id"],
    "additionalProperties": False,
    "examples": [{"step": "triaged", "refund_id": None,
                  "handoff": {"intent": "refund", "confidence": 0.92, "order_id": "ord_8F2K",
                              "summary": "The parcel arrived damaged; the customer wants the money back."}}],
}

FIXTURES: dict[str, Any] = {
    "get_order_status/valid/with_items.json": {"order_id": "ord_8F2K", "include_items": True},
    "get_order_status/invalid/bad_id.json": {"arguments": {"order_id": "8F2K"}, "code": "VALIDATION_ERROR"},
    "triage_to_billing/invalid/too_sure.json": {"intent": "refund", "confidence": 1.5, "order_id": "ord_8F2K",
                                                "summary": "Confidence above 1 is refused."},
}

CONFIG = """\
# toolclause: what `toolclause lint` checks (https://github.com/toolclause/toolclause)
targets = ["openai", "anthropic", "mcp"]
fail-on = "error"
"""

EXPORT_COMMAND = (f"toolclause export {CONTRACTS}/ --target {EXPORT_TARGET}{' --strict' if EXPORT_STRICT else ''} "
                  f"-o {BUILD}/")

WORKFLOW = """\
# Tool contracts: lint (findings in code scanning), exports up to date, no breaking change
# against the base branch, every example and fixture checked.
name: tool contracts

on:
  push:
    branches: [main]
  pull_request:

permissions:
  contents: read

jobs:
  contracts:
    runs-on: ubuntu-latest
    permissions:
      contents: read
      security-events: write
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: actions/setup-python@v5
        with:
          python-version: "3.12"
      - name: Install toolclause
        run: pip install "toolclause @ git+https://github.com/toolclause/toolclause@v0.1.0"
      - name: Lint the contracts
        run: toolclause lint CONTRACTS/ --format sarif -o toolclause.sarif
      - name: Upload the findings to code scanning
        if: always()
        uses: github/codeql-action/upload-sarif@v3
        with:
          sarif_file: toolclause.sarif
      - name: Exports are up to date
        run: EXPORT --check
      - name: No breaking change against the base branch
        if: github.event_name == 'pull_request'
        run: toolclause diff "git:origin/${{ github.base_ref }}:CONTRACTS/" CONTRACTS/ --fail-on breaking
      - name: Examples, fixtures and samples
        run: toolclause test CONTRACTS/ --format junit -o toolclause-test.xml
""".replace("CONTRACTS", CONTRACTS).replace("EXPORT", EXPORT_COMMAND)

PRE_COMMIT = """\
repos:
  - repo: local
    hooks:
      - id: toolclause-lint
        name: toolclause lint
        entry: toolclause lint CONTRACTS/
        language: system
        files: ^CONTRACTS/
        pass_filenames: false
      - id: toolclause-test
        name: toolclause test
        entry: toolclause test CONTRACTS/
        language: system
        files: ^CONTRACTS/
        pass_filenames: false
""".replace("CONTRACTS", CONTRACTS)


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def project_files(with_config: bool = True) -> list[tuple[str, str]]:
    """Every file of a new project, (path relative to the project, text), the export excepted.

    with_config: write `toolclause.toml` (not when the project configures toolclause in pyproject.toml).
    """
    files = [
        (f"{CONTRACTS}/tools/get_order_status.json", _json(TOOL)),
        (f"{CONTRACTS}/handoffs/triage_to_billing.json", _json(HANDOFF)),
        (f"{CONTRACTS}/state/refund_flow.json", _json(STATE)),
        *((f"{CONTRACTS}/examples/{path}", _json(value)) for path, value in FIXTURES.items()),
        (".github/workflows/toolclause.yml", WORKFLOW),
        (".pre-commit-config.yaml", PRE_COMMIT),
    ]
    if with_config:
        files.append(("toolclause.toml", CONFIG))
    return files


__all__ = ["BUILD", "CONTRACTS", "EXPORT_STRICT", "EXPORT_TARGET", "project_files"]
