"""A process that calls one idempotent tool from many threads at once (driven by test_exactly_once_processes.py).

    python exactly_once_worker.py contend STORE_URL LEDGER START_AT KEYS_JSON
        one thread per entry of KEYS_JSON (a list of lists of keys, called in order), all released at
        START_AT (epoch seconds); prints one JSON line: every thread's envelopes
    python exactly_once_worker.py hold STORE_URL LEDGER TOOL KEY
        one call that writes "started" to LEDGER and then sleeps (the test kills this process)

The tools count their executions by appending a line to LEDGER (O_APPEND: one write per line),
outside the store, so the count is the truth the store's answers are checked against.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time

from toolclause import Toolbox

LEASE = 1.0            # short, so a killed holder's lease runs out within the test
CONTENTION_LEASE = 30.0  # long: under 100 contending threads on 2 cores a renewal can lag a second


def build(url: str, ledger: str, pause: float, lease: float = LEASE) -> Toolbox:
    box = Toolbox(url, lint="off", lease=lease)

    def record(line: str) -> None:
        fd = os.open(ledger, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, (line + "\n").encode())
        finally:
            os.close(fd)

    @box.tool(idempotency="key", destructive=True)
    def charge(order_id: str, amount: int) -> dict:
        """Charges the card for an order and returns the payment."""
        record(f"charge {order_id} {os.getpid()}")
        time.sleep(pause)
        return {"order_id": order_id, "charged_by": os.getpid()}

    @box.tool(idempotency="key", idempotent=True)
    def set_status(order_id: str, status: str) -> dict:
        """Sets an order's status (repeating it changes nothing more) and returns it."""
        record(f"set_status {order_id} {os.getpid()}")
        time.sleep(pause)
        return {"order_id": order_id, "status": status}

    return box


def contend(url: str, ledger: str, start_at: float, keys_json: str) -> None:
    box = build(url, ledger, pause=0.2, lease=CONTENTION_LEASE)
    plans = json.loads(keys_json)
    results: list[list[dict]] = [[] for _ in plans]

    def worker(i: int) -> None:
        time.sleep(max(0.0, start_at - time.time()))
        for key in plans[i]:
            result = box.call("charge", {"order_id": key, "amount": 100, "idempotency_key": key})
            results[i].append(result.to_dict())

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(plans))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    box.close()
    print(json.dumps(results))


def hold(url: str, ledger: str, tool: str, key: str) -> None:
    box = build(url, ledger, pause=600)
    args = {"order_id": key, "idempotency_key": key}
    box.call(tool, {**args, "amount": 1} if tool == "charge" else {**args, "status": "shipped"})


if __name__ == "__main__":
    mode, *rest = sys.argv[1:]
    if mode == "contend":
        contend(rest[0], rest[1], float(rest[2]), rest[3])
    else:
        hold(*rest)
