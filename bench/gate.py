"""The gate's cost per valid call, beside the ways people validate tool arguments today.

One tool (search_restaurants: 2 required strings, an optional enum, an int with
a default), one JSON string of arguments, each path timed in the same process:

  bare function            the function alone, arguments already a dict
  Toolbox.call             JSON string in → Result out (parse, nulls, defaults, validate, run, check output)
  json.loads + jsonschema-rs   the baseline: parse + a compiled validator's is_valid
  pydantic validate_call   the decorated function called with the parsed dict
  python-jsonschema validate   jsonschema.validate(parsed, schema) (compiles every call, as the call is written)
  python-jsonschema compiled   a Draft202012Validator built once, .validate()
  MCP SDK MCPServer path   mcp 2.x: Tool.from_function(fn).fn_metadata.validate_arguments(json.loads(s))
                           (pre_parse_json + the pydantic argument model: what MCPServer runs before the tool)

Targets: Toolbox.call ≤ 2× the jsonschema-rs baseline; ≥ 10× faster
than python-jsonschema.  Figures only, nothing asserts.

    .venv/bin/python bench/gate.py [--seconds 0.5] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from typing import Literal

import jsonschema
import jsonschema_rs
import pydantic

from toolclause import Toolbox


def search_restaurants(query: str, location: str, price_level: Literal["low", "medium", "high"] | None = None,
                       limit: int = 10) -> dict:
    """Find restaurant candidates by area, food and price. Not for ordering or payment."""
    return {"query": query, "location": location, "count": 0}


ARGUMENTS = '{"query": "pizza", "location": "강남역", "price_level": "low"}'


def per_call(fn, seconds: float, repeat: int) -> float:
    """Best per-call time in µs over `repeat` batches, each sized to take about `seconds`."""
    n = 1
    while True:
        started = time.perf_counter()
        for _ in range(n):
            fn()
        elapsed = time.perf_counter() - started
        if elapsed > seconds / 10:
            break
        n *= 4
    n = max(1, int(n * seconds / max(elapsed, 1e-9)))
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - started) / n)
    return best * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.4, help="time per batch")
    parser.add_argument("--repeat", type=int, default=5, help="best of N batches")
    args = parser.parse_args()
    logging.getLogger("toolclause.runtime").setLevel(logging.WARNING)  # the default: no per-call record

    box = Toolbox("memory://", lint="warn")
    box.tool(search_restaurants)
    timed_box = Toolbox("memory://", lint="warn", timeout=30)
    timed_box.tool(search_restaurants)
    schema = box.contract("search_restaurants").input_schema
    parsed = json.loads(ARGUMENTS)
    assert box.call("search_restaurants", ARGUMENTS).ok

    compiled = jsonschema_rs.validator_for(schema)
    validated = pydantic.validate_call(search_restaurants)
    draft = jsonschema.Draft202012Validator(schema)
    loads = json.loads

    from mcp.server.mcpserver.tools.base import Tool

    mcp_tool = Tool.from_function(search_restaurants)
    meta = mcp_tool.fn_metadata

    def mcp_path():
        meta.validate_arguments(loads(ARGUMENTS))

    def mcp_path_and_call():
        search_restaurants(**meta.validate_arguments(loads(ARGUMENTS)))

    cases = [
        ("bare function (dict in)", lambda: search_restaurants(**parsed)),
        ("Toolbox.call (JSON string in → Result)", lambda: box.call("search_restaurants", ARGUMENTS)),
        ("Toolbox.call with a 30 s timeout (thread)", lambda: timed_box.call("search_restaurants", ARGUMENTS)),
        ("json.loads + jsonschema-rs is_valid", lambda: compiled.is_valid(loads(ARGUMENTS))),
        ("json.loads + pydantic validate_call + call", lambda: validated(**loads(ARGUMENTS))),
        ("json.loads + jsonschema.validate (per call)", lambda: jsonschema.validate(loads(ARGUMENTS), schema)),
        ("json.loads + jsonschema compiled .validate", lambda: draft.validate(loads(ARGUMENTS))),
        ("MCP SDK MCPServer: validate_arguments", mcp_path),
        ("MCP SDK MCPServer: validate_arguments + call", mcp_path_and_call),
    ]
    figures = {}
    for label, fn in cases:
        figures[label] = per_call(fn, args.seconds, args.repeat)
    baseline = figures["json.loads + jsonschema-rs is_valid"]
    ours = figures["Toolbox.call (JSON string in → Result)"]
    width = max(len(label) for label in figures)
    print(f"cost per valid call (best of {args.repeat}), one tool, arguments {ARGUMENTS}")
    print(f"{'path':<{width}}  {'µs/call':>9}  {'× rs baseline':>13}  {'Toolbox.call is ×faster':>23}")
    for label, micros in figures.items():
        print(f"{label:<{width}}  {micros:9.2f}  {micros / baseline:13.2f}  {micros / ours:23.2f}")
    print()
    bare = figures["bare function (dict in)"]
    print(f"target 1: Toolbox.call ≤ 2× (json.loads + jsonschema-rs): {ours / baseline:.2f}× "
          f"({(ours - bare) / baseline:.2f}× without the function's own run time, which the baseline leaves out)")
    slow = figures["json.loads + jsonschema.validate (per call)"]
    slow_compiled = figures["json.loads + jsonschema compiled .validate"]
    print(f"target 2: ≥ 10× faster than python-jsonschema: {slow / ours:.1f}× (jsonschema.validate), "
          f"{slow_compiled / ours:.1f}× (a compiled Draft202012Validator)")
    sdk = figures["MCP SDK MCPServer: validate_arguments"]
    print(f"MCP SDK's own server-side argument validation: {sdk / ours:.1f}× "
          f"the cost of a whole Toolbox.call")
    box.close()
    timed_box.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
