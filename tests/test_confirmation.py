"""Prepare / commit: an irreversible tool runs only with the token of the preview the user confirmed."""

from __future__ import annotations

import time
import uuid

import pytest

from toolclause import Toolbox
from toolclause.runtime import ToolboxConfigError, ToolRegistrationError


def make_box(url: str = "memory://", orders: list | None = None, **options) -> Toolbox:
    orders = orders if orders is not None else []
    box = Toolbox(url, lint="off", **options)

    @box.tool(read_only=True, idempotency="content")
    def create_order_preview(items: list[str], address: str) -> dict:
        """Prices an order and shows what would be charged, without placing it."""
        return {"total": 10 * len(items), "items": items, "address": address}

    @box.tool(confirm="create_order_preview")
    def place_order(items: list[str], address: str) -> dict:
        """Places the order and charges the card."""
        orders.append(items)
        return {"order": len(orders)}

    box.orders = orders  # type: ignore[attr-defined]
    return box


ARGS = {"items": ["pizza"], "address": "Gangnam-daero 1"}


def preview(box: Toolbox, args=ARGS, **options) -> str:
    result = box.call("create_order_preview", args, **options)
    assert result.ok, result
    return result.meta["toolclause/confirmation"]["token"]


def test_a_commit_runs_once_with_the_token_of_its_preview(store_url):
    box = make_box(store_url)
    token = preview(box)
    assert box.call("place_order", {**ARGS, "confirmation_token": token}).data == {"order": 1}
    again = box.call("place_order", {**ARGS, "confirmation_token": token})  # a retry: one order
    assert again.replayed and again.data == {"order": 1} and box.orders == [["pizza"]]
    box.close()


def test_the_same_preview_gives_the_same_token_so_one_order():
    box = make_box()
    first, second = box.call("create_order_preview", ARGS), box.call("create_order_preview", ARGS)
    assert second.replayed and first.meta == second.meta and first.data == second.data
    assert set(first.meta["toolclause/confirmation"]) == {"token", "expiresAt", "commitTool", "arguments"}
    assert first.data["confirmation"] == {"commitTool": "place_order", "confirmedBy": "user",
                                          "expiresAt": first.meta["toolclause/confirmation"]["expiresAt"]}


def test_the_token_is_never_in_what_the_model_reads():
    box = make_box()
    result = box.call("create_order_preview", ARGS, call_id="c1")
    token = result.meta["toolclause/confirmation"]["token"]
    mcp = result.to_mcp()
    model_reads = [str(result.to_dict()), result.to_openai()["content"], result.to_anthropic()["content"],
                   str(mcp["content"]), str(mcp["structuredContent"])]
    assert all(token not in text for text in model_reads)
    assert mcp["_meta"]["toolclause/confirmation"]["token"] == token  # the widget's part
    # what the widget sends back is exactly the commit's arguments and the token
    arguments = result.meta["toolclause/confirmation"]["arguments"]
    assert arguments == {**ARGS, "confirmation_token": token}
    assert box.call("place_order", arguments).data == {"order": 1}
    assert box.call("place_order", arguments).replayed and box.orders == [["pizza"]]


def test_no_token_a_forged_token_and_changed_arguments():
    box = make_box()
    missing = box.call("place_order", ARGS)
    assert missing.error.code == "CONFIRMATION_REQUIRED" and missing.error.user_action == "ask_user"
    assert "create_order_preview" in missing.error.message and "do not retry" in missing.error.message
    token = preview(box)
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    assert box.call("place_order", {**ARGS, "confirmation_token": forged}).error.code == "CONFIRMATION_REQUIRED"
    changed = box.call("place_order", {"items": ["pizza", "cola"], "address": ARGS["address"],
                                       "confirmation_token": token})
    assert changed.error.code == "CONFIRMATION_MISMATCH" and changed.error.user_action == "re_prepare"
    other_user = box.call("place_order", {**ARGS, "confirmation_token": token}, principal="mallory")
    assert other_user.error.code == "CONFIRMATION_MISMATCH"
    assert box.orders == []


def test_another_secret_never_accepts_the_token():
    one = make_box(confirmation_secret="secret-one-0123456789abcdef")
    two = make_box(confirmation_secret="secret-two-0123456789abcdef")
    token = preview(one)
    assert two.call("place_order", {**ARGS, "confirmation_token": token}).error.code == "CONFIRMATION_REQUIRED"


def test_an_expired_token_is_refused_unless_it_was_already_used():
    box = make_box(confirmation_ttl=0.3)
    used, unused = preview(box), preview(box, {**ARGS, "address": "elsewhere"})
    assert box.call("place_order", {**ARGS, "confirmation_token": used}).ok
    time.sleep(0.5)
    expired = box.call("place_order", {**ARGS, "address": "elsewhere", "confirmation_token": unused})
    assert expired.error.code == "CONFIRMATION_EXPIRED" and expired.error.user_action == "re_prepare"
    assert box.call("place_order", {**ARGS, "confirmation_token": used}).replayed  # the order stands
    assert len(box.orders) == 1
    assert preview(box) != used  # the preview's record lasts no longer than its token


def test_the_key_decides_a_commit_whatever_the_token(store_url):
    box, elsewhere = make_box(store_url), make_box()  # elsewhere: another replica's preview, another token
    cart = {"items": ["soup"], "address": f"Teheran-ro {uuid.uuid4().hex}"}  # the stores outlive one test
    key, other_key = f"order-{uuid.uuid4().hex}", f"order-{uuid.uuid4().hex}"
    first, second = preview(box, cart), preview(elsewhere, cart)
    assert first != second
    assert box.call("place_order", {**cart, "confirmation_token": first}, idempotency_key=key).data == {"order": 1}
    again = box.call("place_order", {**cart, "confirmation_token": second}, idempotency_key=key)
    assert again.replayed and again.data == {"order": 1} and len(box.orders) == 1
    other = {**cart, "address": "elsewhere"}
    reused = box.call("place_order", {**other, "confirmation_token": preview(box, other)}, idempotency_key=key)
    assert reused.error.code == "IDEMPOTENCY_KEY_REUSED" and not reused.error.retryable
    assert len(box.orders) == 1
    # the token the replay did not use still places its own order once, under its own key
    assert box.call("place_order", {**cart, "confirmation_token": second}, idempotency_key=other_key).ok
    assert box.call("place_order", {**cart, "confirmation_token": second}).error.code == "CONFIRMATION_USED"
    assert len(box.orders) == 2
    box.close()


def test_a_used_token_with_another_key_is_confirmation_used():
    box = make_box()
    token = preview(box)
    assert box.call("place_order", {**ARGS, "confirmation_token": token}, idempotency_key="call-1").ok
    assert box.call("place_order", {**ARGS, "confirmation_token": token}, idempotency_key="call-1").replayed
    used = box.call("place_order", {**ARGS, "confirmation_token": token}, idempotency_key="call-2")
    assert used.error.code == "CONFIRMATION_USED" and len(box.orders) == 1


def test_the_commit_contract_says_what_it_is():
    box = make_box()
    contract = box.contract("place_order")
    assert contract.annotations == {"destructiveHint": True, "idempotentHint": False}
    assert "confirmed" in contract.description
    assert "confirmation_token" in contract.input_schema["properties"]
    assert "confirmation_token" not in contract.input_schema.get("required", [])
    assert "confirmation" in box.contract("create_order_preview").output_schema["properties"]
    assert "token" not in box.contract("create_order_preview").output_schema["properties"]["confirmation"][
        "properties"]
    assert contract.meta == {"openai/widgetAccessible": True}  # the preview's widget may call it


def test_a_secret_is_required_outside_development_mode(monkeypatch):
    monkeypatch.delenv("TOOLCLAUSE_CONFIRMATION_SECRET")
    with pytest.raises(ToolboxConfigError, match="needs a secret"):
        make_box()
    with pytest.raises(ToolboxConfigError, match="at least 16 bytes"):
        make_box(confirmation_secret="short")
    box = make_box(development=True)
    assert box.call("place_order", {**ARGS, "confirmation_token": preview(box)}).ok


def test_a_commit_must_take_its_previews_arguments():
    box = Toolbox("memory://", lint="off")

    @box.tool(read_only=True)
    def quote_refund(order_id: str) -> dict:
        """Shows the refund an order would get."""
        return {}

    with pytest.raises(ToolRegistrationError, match="differ in amount"):
        @box.tool(confirm=quote_refund)
        def refund(order_id: str, amount: int) -> dict:
            """Refunds an order once the user confirmed the quote."""
            return {}

    with pytest.raises(ToolRegistrationError, match="not a registered tool"):
        @box.tool(confirm="nothing_here")
        def refund_all(order_id: str) -> dict:
            """Refunds every order once the user confirmed."""
            return {}
