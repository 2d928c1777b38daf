"""The AWS Lambda Powertools side of bench/idempotency.py, run in its own venv (it never imports toolclause).

It runs without payload validation: with `payload_validation_jmespath`, version 3.37.0's Redis
layer refuses every replay (the completed record it writes lacks the validation hash).

    python idempotency_powertools.py REDIS_URL SECONDS

Prints one JSON line: new keys/s and replays/s through `idempotent_function` with the
RedisCachePersistenceLayer, with its local cache off (the default) and on.
"""

from __future__ import annotations

import json
import os
import sys
import time
import uuid
from urllib.parse import urlsplit


def measure(fn, seconds: float) -> float:
    done, started = 0, time.perf_counter()
    while True:
        for _ in range(50):
            fn()
        done += 50
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return done / elapsed


def main() -> None:
    import redis
    from aws_lambda_powertools.utilities.idempotency import IdempotencyConfig, idempotent_function
    from aws_lambda_powertools.utilities.idempotency.persistence.redis import RedisCachePersistenceLayer

    url, seconds = sys.argv[1], float(sys.argv[2])
    parts = urlsplit(url)
    client = redis.Redis(host=parts.hostname or "127.0.0.1", port=parts.port or 6379,
                         db=int((parts.path or "/0").strip("/") or 0))
    out = {"version": __import__("aws_lambda_powertools").__version__}
    for cached in (False, True):
        layer = RedisCachePersistenceLayer(client=client)
        # no payload_validation_jmespath: see the module docstring
        config = IdempotencyConfig(event_key_jmespath="idempotency_key", expires_after_seconds=86400,
                                   use_local_cache=cached)
        run = uuid.uuid4().hex[:8]

        @idempotent_function(data_keyword_argument="order", persistence_store=layer, config=config,
                             key_prefix=f"bench-{run}")
        def charge(order: dict) -> dict:
            return {"order_id": order["order_id"], "charged": order["amount"]}

        counter = iter(range(10 ** 9))
        new_keys = measure(lambda charge=charge, run=run, counter=counter: charge(order={
            "order_id": "o", "amount": 100, "idempotency_key": f"k-{run}-{next(counter)}"}), seconds)
        charge(order={"order_id": "o", "amount": 100, "idempotency_key": f"k-{run}-replay"})
        replays = measure(lambda charge=charge, run=run: charge(order={
            "order_id": "o", "amount": 100, "idempotency_key": f"k-{run}-replay"}), seconds)
        label = "local_cache" if cached else "no_cache"
        out[label] = {"new_keys_per_s": round(new_keys), "replays_per_s": round(replays)}
    for name in client.scan_iter(match="bench-*", count=1000):
        client.delete(name)
    print(json.dumps(out))


if __name__ == "__main__":
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
    main()
