"""The user confirms a commit through MCP elicitation, in a client that shows no widget.

A commit tool (`confirm=`) runs only with a token from its preview, and the token goes only to
the user's side (the preview result's `_meta`, which a widget reads and a model never does).  A
client without widgets has no confirm button, so when the model calls the commit without a
token this toolbox signed, and the client declared the `elicitation` capability, the server:

1. runs the preview with the same arguments (read-only, so running it again is harmless);
2. asks the user — `elicitation/create` with the preview's summary (or its data) and one
   boolean field, `confirm`;
3. commits with the preview's token only if the user accepted with `confirm: true`.

The user declining, cancelling or the client failing to ask: CONFIRMATION_REQUIRED, with a
message telling the model not to retry on its own.  A client without elicitation gets the
gate's own CONFIRMATION_REQUIRED (`userAction: ask_user`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

import mcp_types as types

from ..runtime.confirmation import CONFIRMATION_META
from ..runtime.envelope import Result
from ..runtime.errors import standard_error
from ..runtime.gate import new_trace_id
from ..runtime.policy import CONFIRMATION_TOKEN
from ..runtime.signature import IDEMPOTENCY_KEY
from ..runtime.toolbox import Toolbox

logger = logging.getLogger("toolclause.mcp")

MAX_QUESTION_CHARS = 1500
CONFIRM_FIELD = "confirm"


async def confirm_through_elicitation(box: Toolbox, ctx: Any, name: str, arguments: Mapping[str, Any] | None,
                                      routing: Any = None,
                                      principal: str | None = None) -> Result | dict[str, Any] | None:
    """The arguments to commit with (the user confirmed), a Result to answer instead (a failed preview,
    the user said no), or None: not a commit the server can ask about — the gate answers it as it is."""
    prepare = _preview_of(box, name, routing)
    if prepare is None or not isinstance(arguments, Mapping) or not _can_ask(ctx):
        return None
    confirmations = box.confirmations
    if confirmations is not None and confirmations.open(arguments.get(CONFIRMATION_TOKEN)) is not None:
        return None  # a token the user's side produced (the widget's button): the gate checks it
    previewed = {k: v for k, v in arguments.items() if k not in (CONFIRMATION_TOKEN, IDEMPOTENCY_KEY)}
    # the token is bound to the caller: the preview runs as the one whose commit it confirms
    preview = await box.acall(prepare, previewed, routing=routing, principal=principal)
    if not preview.ok:
        return preview
    issued = (preview.meta or {}).get(CONFIRMATION_META)
    if not isinstance(issued, dict) or not isinstance(issued.get("token"), str):
        return None
    try:
        answer = await ctx.session.elicit_form(_question(name, prepare, preview), _FORM,
                                               related_request_id=getattr(ctx, "request_id", None))
    except Exception:  # noqa: BLE001 - a client that cannot ask has not confirmed
        logger.info("elicitation for %s failed; the commit is refused", name, exc_info=True)
        answer = None
    if answer is not None and answer.action == "accept" and (answer.content or {}).get(CONFIRM_FIELD) is True:
        return {**arguments, CONFIRMATION_TOKEN: issued["token"]}
    said = "declined" if answer is not None and answer.action == "decline" else "did not confirm"
    return Result(False, error=standard_error(
        "CONFIRMATION_REQUIRED", f"{name}: the user {said} the preview from {prepare}, so nothing was done. Do not "
                                 f"call {name} again unless the user asks for it"),
        trace_id=new_trace_id(), tool=name)


_FORM: dict[str, Any] = {
    "type": "object",
    "properties": {CONFIRM_FIELD: {"type": "boolean", "title": "Confirm",
                                   "description": "Yes: do exactly what the preview shows."}},
    "required": [CONFIRM_FIELD],
}


def _preview_of(box: Toolbox, name: str, routing: Any) -> str | None:
    tool = box.registry.tools.get(name) if routing is None else box.registry.resolve(name, routing)[0]
    policy = box.registry.policies.get(tool.name) if tool is not None else None
    return policy.commit_of if policy is not None else None


def _can_ask(ctx: Any) -> bool:
    session = getattr(ctx, "session", None)
    if session is None:
        return False
    try:
        return bool(session.check_client_capability(types.ClientCapabilities(
            elicitation=types.ElicitationCapability(form=types.FormElicitationCapability()))))
    except Exception:  # noqa: BLE001 - a session that cannot say has not declared it
        return False


def _question(commit: str, prepare: str, preview: Result) -> str:
    """What the user reads: the preview's own summary, else its data as JSON (the confirmation note left out)."""
    if preview.summary:
        shown = preview.summary
    else:
        data = {k: v for k, v in preview.data.items() if k != "confirmation"} if isinstance(preview.data, dict) \
            else preview.data
        shown = json.dumps(data, ensure_ascii=False, indent=1)
    if len(shown) > MAX_QUESTION_CHARS:
        shown = shown[: MAX_QUESTION_CHARS - 1] + "…"
    return f"Confirm {commit}? This is what {prepare} shows:\n{shown}"


__all__ = ["CONFIRM_FIELD", "confirm_through_elicitation"]
