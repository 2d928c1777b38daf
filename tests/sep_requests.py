"""tools/call requests the SDK's typed models cannot send: SEP-3182's `params.idempotencyKey`, and
double-encoded arguments (a JSON string where the object belongs), as some providers send them.

Each is a subclass of the SDK's request model, sent with a client session's own `send_request`,
so the bytes on the wire are what such a client really sends.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as mt


class KeyedParams(mt.CallToolRequestParams):
    idempotency_key: str | None = None  # on the wire: params.idempotencyKey


class KeyedCall(mt.CallToolRequest):
    params: KeyedParams


class TextParams(mt.CallToolRequestParams):
    arguments: str  # type: ignore[assignment]


class TextCall(mt.CallToolRequest):
    params: TextParams


async def call_with_key(session: Any, name: str, arguments: dict[str, Any], key: str) -> mt.CallToolResult:
    """A tools/call carrying SEP-3182's `params.idempotencyKey`."""
    request = KeyedCall(params=KeyedParams(name=name, arguments=arguments, idempotency_key=key))
    result: mt.CallToolResult = await session.send_request(request, mt.CallToolResult)
    return result


async def call_with_text(session: Any, name: str, text: str) -> mt.CallToolResult:
    """A tools/call whose arguments are JSON text (double-encoded)."""
    result: mt.CallToolResult = await session.send_request(TextCall(params=TextParams(name=name, arguments=text)),
                                                           mt.CallToolResult)
    return result


def envelope(result: Any) -> dict[str, Any]:
    """The gate's envelope in an error result's one text block."""
    assert result.is_error, result
    found: dict[str, Any] = json.loads(result.content[0].text)
    return found


def text_of(result: Any) -> str:
    return " ".join(getattr(block, "text", "") for block in result.content)
