"""Idempotent calls per store, side by side with AWS Lambda Powertools' idempotency utility on the same Redis.

One process, one thread, pinned to one core (the servers run on the other).  The workload is
one tool that changes state, called through the whole gate (JSON text in → envelope out:
parse, validate, claim, run, check output, store the outcome):

  new keys/s   every call a fresh idempotency key: a claim, a run and a stored outcome
  replays/s    the same key again and again: the stored outcome answered, `replayed: true`
               (with toolclause's in-process cache of completed records, and without it)

Powertools runs `idempotent_function` with its RedisCachePersistenceLayer against the same
Redis, in a venv of its own (bench/.venvs/, created on the first run), with its local cache
off (its default) and on.  It runs without payload validation: with `payload_validation_jmespath`,
version 3.37.0's Redis layer refuses every replay (its completed record loses the validation
hash), so it cannot tell a key reused with other arguments, which toolclause checks on every call.

PostgreSQL runs twice: as configured by default (a claim waits for its commit to reach the
disk; every other change does not) and with `?synchronous_commit=off` (claims do not wait
either).  Redis runs as the server is configured; the CI server keeps nothing on disk.

Targets: SQLite ≥ 1,000 new keys/s and ≥ 10,000 replays/s; Redis and PostgreSQL at
least as fast as Powertools on Redis.  Figures only, nothing asserts.

    .venv/bin/python bench/idempotency.py [--seconds 3] [--rounds 3] [--stores sqlite,redis,postgresql]
                                          [--no-powertools]

Rounds interleave the rows (every store, then Powertools, again and again) and each figure is
its best round, so load from elsewhere on the machine weighs on every row alike.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
VENV = HERE / ".venvs" / "aws-lambda-powertools"
POWERTOOLS = "aws-lambda-powertools[redis,aws-sdk]==3.37.0"
REDIS = os.environ.get("TOOLCLAUSE_BENCH_REDIS", "redis://127.0.0.1:6379/0")
POSTGRES = os.environ.get("TOOLCLAUSE_BENCH_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres")
ARGUMENTS = '{{"order_id": "o-1", "amount": 100, "idempotency_key": "{key}"}}'


def measure(fn, seconds: float) -> float:
    done, started = 0, time.perf_counter()
    while True:
        for _ in range(50):
            fn()
        done += 50
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return done / elapsed


def make_box(url: str, cache: bool):
    from toolclause import Toolbox

    box = Toolbox(url, lint="off", replay_cache=256 if cache else 0)

    @box.tool(idempotency="key", destructive=True)
    def charge(order_id: str, amount: int) -> dict:
        """Charges the card for an order and returns the payment."""
        return {"order_id": order_id, "charged": amount}

    return box


def bench_store(url: str, seconds: float) -> dict[str, float]:
    run = uuid.uuid4().hex[:8]
    out = {}
    for cache in (False, True):
        box = make_box(url, cache)
        counter = iter(range(10 ** 9))
        if not cache:
            out["new_keys_per_s"] = measure(
                lambda box=box, counter=counter: box.call("charge", ARGUMENTS.format(key=f"k-{run}-{next(counter)}")),
                seconds)
        replay = ARGUMENTS.format(key=f"k-{run}-replay")
        assert box.call("charge", replay).ok
        assert box.call("charge", replay).replayed
        label = "replays_cached_per_s" if cache else "replays_per_s"
        out[label] = measure(lambda box=box, replay=replay: box.call("charge", replay), seconds)
        box.close()
    return out


def postgres_database() -> str | None:
    try:
        import psycopg

        with psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = 'toolclause_bench'").fetchone():
                conn.execute("CREATE DATABASE toolclause_bench")
        return POSTGRES.rsplit("/", 1)[0] + "/toolclause_bench"
    except Exception as exc:  # noqa: BLE001 - the bench prints why and goes on
        print(f"  postgresql: skipped ({exc})")
        return None


def purge(url: str) -> None:
    from toolclause.stores import open_store

    store = open_store(url)
    store.purge(time.time() + 10 ** 9)  # everything this bench wrote
    store.close()


def powertools(seconds: float) -> dict:
    python = VENV / "bin" / "python"
    if not python.exists():
        print(f"  installing {POWERTOOLS} into {VENV} (first run only)")
        subprocess.run([shutil.which("python3") or sys.executable, "-m", "venv", str(VENV)], check=True)
        done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                               POWERTOOLS], capture_output=True, text=True)
        if done.returncode != 0:
            return {"error": done.stderr.strip().splitlines()[-1:]}
    done = subprocess.run([str(python), "-W", "ignore", str(HERE / "idempotency_powertools.py"), REDIS,
                           str(seconds)], capture_output=True, text=True, timeout=600)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    return json.loads(lines[-1]) if lines else {"error": done.stderr.strip().splitlines()[-1:]}


def one_round(names: list[str], urls: dict[str, str], seconds: float, powertools_too: bool) -> dict[str, dict]:
    rows: dict[str, dict] = {}
    for name in names:
        url = postgres_database() if name.startswith("postgresql") else urls[name]
        if url is None:
            continue
        if name.endswith("=off"):
            url += "?synchronous_commit=off"
        print(f"  toolclause on {name} …", flush=True)
        rows[f"toolclause, {name}"] = bench_store(url, seconds)
        if name != "memory":
            purge(url)
    if powertools_too:
        print("  Powertools on redis …", flush=True)
        pt = powertools(seconds)
        if "error" in pt:
            print(f"  Powertools: {pt['error']}")
        else:
            rows[f"Powertools {pt['version']}, redis"] = {
                "new_keys_per_s": pt["no_cache"]["new_keys_per_s"], "replays_per_s": pt["no_cache"]["replays_per_s"],
                "replays_cached_per_s": pt["local_cache"]["replays_per_s"]}
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, every row measured once per round; "
                                                              "each figure is its best round")
    parser.add_argument("--stores", default="sqlite,redis,postgresql")
    parser.add_argument("--no-powertools", action="store_true")
    options = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})
    names = options.stores.split(",")
    if "postgresql" in names:  # also with claims that do not wait for the disk (see docs/runtime.md)
        names.insert(names.index("postgresql") + 1, "postgresql, synchronous_commit=off")
    best: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as folder:
        urls = {"memory": "memory://", "sqlite": f"sqlite:///{folder}/state.db",
                "redis": f"{REDIS}?namespace=bench-{uuid.uuid4().hex[:6]}"}
        for round_number in range(options.rounds):
            print(f"round {round_number + 1} of {options.rounds}", flush=True)
            for label, figures in one_round(names, urls, options.seconds, not options.no_powertools).items():
                kept = best.setdefault(label, {})
                for key, value in figures.items():
                    kept[key] = max(kept.get(key, 0), value)
    print(f"\nidempotent calls, one process, one thread (best of {options.rounds} rounds of {options.seconds:g} s)")
    print(f"{'':46}{'new keys/s':>12}{'replays/s':>12}{'replays/s, cached':>20}")
    for label, f in best.items():
        print(f"{label:46}{f['new_keys_per_s']:>12,.0f}{f['replays_per_s']:>12,.0f}{f['replays_cached_per_s']:>20,.0f}")


if __name__ == "__main__":
    main()
