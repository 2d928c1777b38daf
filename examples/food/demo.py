"""`make demo`: the food app from contracts to a retry storm, driven by the official MCP client.

1. lint the contracts against every target; 2. export them for OpenAI (strict) and MCP;
3. start two `toolclause serve --transport http` replicas on one SQLite store and lint one live;
4. a scripted session: a search, a model-style invalid call and its actionable error, a preview,
   a commit whose cart differs from the preview, the confirmed order sent five times across the
   two replicas (one order), its status, a cancellation twice, an unknown order.
Everything runs in a temporary folder; exit 1 if any step did not behave as shown.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack, asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from rich.console import Console
from rich.panel import Panel
from rich.table import Table

from toolclause.mcp.serving import http_process
from toolclause.runtime.envelope import envelope_in

HERE = Path(__file__).resolve().parent
TOOLCLAUSE = [sys.executable, "-m", "toolclause.cli.main"]
console = Console(highlight=False, width=None if sys.stdout.isatty() else 100)
checks: list[tuple[str, bool, str]] = []


def check(step: str, ok: bool, detail: str) -> None:
    checks.append((step, ok, detail))
    mark = "[green]✓[/green]" if ok else "[red]✗[/red]"
    console.print(f"  {mark} {detail}")


def heading(text: str) -> None:
    console.print()
    console.rule(f"[bold]{text}", align="left")


def run(*argv: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TOOLCLAUSE, *argv], capture_output=True, text=True, env=env, timeout=120)


# --------------------------------------------------------------------------- 1-2: lint and export

def lint_and_export(env: dict[str, str], out: Path) -> None:
    heading("1. lint the contracts (every target)")
    done = run("lint", str(HERE / "contracts"), "--target", "all", "--format", "json", "--fail-on", "warning", env=env)
    report = json.loads(done.stdout)
    s = report["summary"]
    check("lint", done.returncode == 0 and s["error"] == 0 and s["warning"] == 0,
          f"{report['tools']} tools in {report['files']} files: {s['error']} errors, {s['warning']} warnings, "
          f"{s['info']} info")

    heading("2. export them")
    for target, strict in (("openai-chat", True), ("mcp", False)):
        path = out / f"{target}.json"
        done = run("export", str(HERE / "contracts"), "--target", target, *(["--strict"] if strict else []),
                   "-o", str(path), env=env)
        tools = json.loads(path.read_text(encoding="utf-8")) if done.returncode == 0 else []
        losses = done.stderr.count("could not be kept")
        check(f"export {target}", done.returncode == 0 and len(tools) == 6,
              f"{target}{' --strict' if strict else ''}: {len(tools)} tools → {path.name}"
              f"{' (with losses, see stderr)' if losses else ', nothing lost'}")


# --------------------------------------------------------------------------- 3: the servers

@contextmanager
def replica(env: dict[str, str], label: str):
    """`toolclause serve app.py:box --transport http --port 0`; yields its URL."""
    with http_process(f"{HERE / 'app.py'}:box", env=env) as url:
        check(f"serve {label}", True, f"replica {label}: {url}")
        yield url


@asynccontextmanager
async def session(url: str):
    async with streamable_http_client(url) as (read, write), ClientSession(read, write) as s:
        await s.initialize()
        yield s


def error_code(result: Any) -> str | None:
    """A failed call's code, from the envelope its text carries (`{"ok": false, "error": {…}, "traceId": …}`)."""
    envelope = envelope_in(result) if result.is_error else None
    return envelope["error"]["code"] if envelope else None


def shown(result: Any) -> str:
    """What a person reads of a result: 'CODE: message' for an error, else its text."""
    envelope = envelope_in(result) if result.is_error else None
    if envelope is not None:
        return f"{envelope['error']['code']}: {envelope['error']['message']}"
    return result.content[0].text if result.content else ""


# --------------------------------------------------------------------------- 4: the session

async def scripted(a: str, b: str, db: Path) -> None:
    async with session(a) as client:
        heading("4. what the model sees: tools/list")
        listed = (await client.list_tools()).tools
        table = Table("tool", "hints", "widget", box=None, padding=(0, 2))
        for t in listed:
            hints = t.annotations.model_dump(exclude_none=True, by_alias=True) if t.annotations else {}
            table.add_row(t.name, " ".join(k.removesuffix("Hint") for k, v in hints.items() if v is True),
                          (t.meta or {}).get("openai/outputTemplate", ""))
        console.print(table)
        check("list", len(listed) == 6, f"{len(listed)} tools, each with inputSchema and outputSchema: "
              f"{all(t.output_schema for t in listed)}")

        heading("5. a valid search")
        found = await client.call_tool("search_restaurants",
                                       {"query": "pizza", "location": "gangnam", "price_level": None})
        rows = found.structured_content["restaurants"]
        table = Table("id", "name", "price", "rating", "open", box=None, padding=(0, 2))
        for r in rows:
            table.add_row(r["id"], r["name"], r["price_level"], str(r["rating"]), "yes" if r["open_now"] else "no")
        console.print(table)
        check("search", not found.is_error and len(rows) == 3, f"{len(rows)} pizza places in gangnam")

        heading("6. a model-style invalid call, and the error it can act on")
        bad = {"restaurant": "Napoli Pizzeria", "items": "2 margheritas", "address": "Teheran-ro, gangnam"}
        console.print(f"  model sends create_order_preview {json.dumps(bad)}")
        wrong = await client.call_tool("create_order_preview", bad)
        console.print(Panel(shown(wrong), title="isError: true", border_style="yellow", expand=False))
        check("invalid call", error_code(wrong) == "VALIDATION_ERROR",
              "VALIDATION_ERROR naming every field, and nothing ran")
        closed = await client.call_tool("create_order_preview", {
            "restaurant_id": "r_truffle", "items": [{"item_id": "m_truffle", "quantity": 1}],
            "address": "7 Gangnam-daero, gangnam"})
        check("business error", error_code(closed) == "RESTAURANT_CLOSED",
              f"declared business error: {shown(closed)}")

        heading("7. preview → the user confirms in the widget → order")
        cart = {"restaurant_id": "r_napoli", "items": [{"item_id": "m_margherita", "quantity": 2},
                                                        {"item_id": "m_cola", "quantity": 2}],
                "address": "12 Teheran-ro, gangnam"}
        preview = await client.call_tool("create_order_preview", cart)
        p = preview.structured_content
        # the token is in the result's _meta, which the widget reads and the model never does
        token = preview.meta["toolclause/confirmation"]["token"]
        check("hidden from the model", token not in json.dumps(p) + preview.content[0].text,
              "the confirmation token is only in _meta: the model cannot place the order itself")
        alone = await client.call_tool("place_order", {**cart, "confirmation_token": None,
                                                       "idempotency_key": str(uuid.uuid4())})
        check("model alone", error_code(alone) == "CONFIRMATION_REQUIRED",
              "the model calling place_order on its own: CONFIRMATION_REQUIRED, userAction ask_user")
        for line in p["lines"]:
            console.print(f"  {line['quantity']} × {line['name']:<12} {line['line_total']:>8,} won")
        console.print(f"  delivery          {p['delivery_fee']:>8,} won\n  [bold]total             "
                      f"{p['total']:>8,} won[/bold]   token {token[:24]}…")
        check("preview", not preview.is_error and p["total"] == 40000, f"total {p['total']:,} won, token issued")
        changed = {**cart, "items": [{"item_id": "m_margherita", "quantity": 3}], "confirmation_token": token,
                   "idempotency_key": str(uuid.uuid4())}
        tampered = await client.call_tool("place_order", changed)
        check("mismatch", error_code(tampered) == "CONFIRMATION_MISMATCH",
              "a commit with another cart than the user saw: CONFIRMATION_MISMATCH, nothing ordered")

        heading("8. a retry storm: the confirmed order sent 5 times, across two replicas")
        order = {**cart, "confirmation_token": token, "idempotency_key": str(uuid.uuid4())}
        answers: list[tuple[str, int, Any]] = []

        async def send(n: int, url: str, label: str) -> None:
            async with session(url) as s:
                waited = 0
                for _ in range(20):  # a client retries IDEMPOTENCY_IN_PROGRESS after a moment
                    result = await s.call_tool("place_order", order)
                    if error_code(result) != "IDEMPOTENCY_IN_PROGRESS":
                        break
                    waited += 1
                    await anyio.sleep(0.2)
                answers.append((f"call {n} → replica {label}", waited, result))

        async with anyio.create_task_group() as group:
            for n in range(5):
                group.start_soon(send, n + 1, a if n % 2 == 0 else b, "A" if n % 2 == 0 else "B")
        ids = set()
        for who, waited, result in answers:
            sc = result.structured_content
            retried = f" ({waited}× IDEMPOTENCY_IN_PROGRESS first)" if waited else ""
            if result.is_error:
                console.print(f"  {who}: {error_code(result)}{retried}")
            else:
                ids.add(sc["order_id"])
                how = "replayed" if (result.meta or {}).get("toolclause/replayed") else "ran"
                console.print(f"  {who}: order {sc['order_id']} {sc['status']}, {sc['total']:,} won — {how}{retried}")
        with sqlite3.connect(db) as conn:
            orders = conn.execute("SELECT COUNT(*) FROM orders").fetchone()[0]
        check("exactly once", len(ids) == 1 and orders == 1,
              f"5 calls, {len(ids)} order id, {orders} row in the orders table")
        order_id = next(iter(ids)) if ids else "ord_0000000000"

        heading("9. after the order")
        status = await client.call_tool("get_order_status", {"order_id": order_id})
        check("status", not status.is_error and status.structured_content["status"] == "placed",
              f"get_order_status: {status.structured_content.get('status')}")
        first = await client.call_tool("cancel_order", {"order_id": order_id, "reason": "changed_mind"})
        again = await client.call_tool("cancel_order", {"order_id": order_id, "reason": "changed_mind"})
        check("cancel", first.structured_content.get("refunded") == p["total"] and
              again.structured_content.get("already_cancelled") is True,
              "cancel_order refunds once; cancelling again changes nothing and says so")
        missing = await client.call_tool("get_order_status", {"order_id": "ord_0000000000"})
        check("not found", error_code(missing) == "ORDER_NOT_FOUND",
              shown(missing))


def main() -> int:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="toolclause-demo-") as tmp, ExitStack() as stack:
        folder = Path(tmp)
        db = folder / "food.db"
        env = {**os.environ, "FOOD_DB": str(db), "TOOLCLAUSE_STORE": f"sqlite:///{folder / 'state.db'}",
               "TOOLCLAUSE_CONFIRMATION_SECRET": uuid.uuid4().hex + uuid.uuid4().hex, "NO_COLOR": "1"}
        console.print(Panel("[bold]toolclause[/bold]: the food app's contracts, linted, exported, served through "
                            "the gate and driven by the official MCP client", expand=False))
        lint_and_export(env, folder)
        heading("3. serve: two replicas on one SQLite store")
        a = stack.enter_context(replica(env, "A"))
        b = stack.enter_context(replica(env, "B"))
        live = run("lint", "--url", a, "--format", "json", "--fail-on", "warning", env=env)
        report = json.loads(live.stdout) if live.stdout else {"summary": {"error": -1, "warning": -1}}
        check("live lint", live.returncode == 0,
              f"toolclause lint --url {a}: {report['summary']['error']} errors, {report['summary']['warning']} "
              f"warnings (the widget resource included)")
        anyio.run(scripted, a, b, db)

    heading("summary")
    table = Table("step", "result", box=None, padding=(0, 2))
    for step, ok, _ in checks:
        table.add_row(step, "[green]ok[/green]" if ok else "[red]FAILED[/red]")
    console.print(table)
    failed = [step for step, ok, _ in checks if not ok]
    console.print(f"{len(checks) - len(failed)}/{len(checks)} checks passed in {time.monotonic() - started:.1f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
