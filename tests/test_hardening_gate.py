"""The gate under hostile input: nothing raises, nothing hangs, nothing is fetched, nothing is echoed."""

from __future__ import annotations

import asyncio
import datetime
import json
import threading
from pathlib import Path

import pytest

from test_schema_validators import schema_server  # noqa: F401 - a fixture: a server that records every request
from toolclause import Toolbox
from toolclause.runtime.arguments import MAX_ARGUMENT_DEPTH
from toolclause.runtime.errors import MAX_DETAIL_TEXT, MAX_MESSAGE_CHARS, CallError, ToolError, ToolRegistrationError
from toolclause.runtime.validation import MAX_PATH_CHARS

SECRET = "sk-live-4242 /etc/passwd"


def _box(**options) -> Toolbox:
    return Toolbox("memory://", lint="off", **options)


def _acall(box: Toolbox, name: str, arguments=None, **kw):
    """acall, bounded: a hang fails the test instead of stalling the suite."""
    return asyncio.run(asyncio.wait_for(box.acall(name, arguments, **kw), 10))


def _wire(result) -> str:
    """What leaves the process, for every protocol: each must be valid JSON."""
    return "".join((json.dumps(result.to_mcp(), allow_nan=False), result.to_openai("c")["content"],
                    result.to_anthropic("c")["content"]))


# --------------------------------------------------------------------------- tools that raise


def test_stop_iteration_in_a_sync_tool_does_not_hang_acall():
    box = _box()

    @box.tool
    def first_order() -> dict:
        """Returns the first order of an empty list."""
        return {"order": next(iter([]))}

    assert box.call("first_order", {}).error.code == "INTERNAL_ERROR"
    assert _acall(box, "first_order", {}).error.code == "INTERNAL_ERROR"
    box.close()


@pytest.mark.parametrize("raised", [SystemExit(3), GeneratorExit(), asyncio.CancelledError(), StopIteration(),
                                    StopAsyncIteration()], ids=lambda e: type(e).__name__)
@pytest.mark.parametrize("kind", ["sync", "sync-timeout", "async"])
def test_what_a_tool_raises_never_escapes_call_or_acall(raised, kind):
    box = _box()

    def boom() -> dict:
        """Fails."""
        raise raised

    async def aboom() -> dict:
        """Fails."""
        raise raised

    box.tool(aboom if kind == "async" else boom, name="boom", timeout=5 if kind == "sync-timeout" else None)
    for result in (box.call("boom", {}), _acall(box, "boom", {})):
        assert result.error.code == "INTERNAL_ERROR" and type(raised).__name__ not in result.error.message
    box.close()


def test_a_real_cancellation_of_acall_still_cancels():
    box = _box()
    started = threading.Event()

    @box.tool
    async def wait_forever() -> dict:
        """Waits."""
        started.set()
        await asyncio.sleep(60)
        return {}

    async def main():
        task = asyncio.ensure_future(box.acall("wait_forever", {}))
        while not started.is_set():
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)

    asyncio.run(main())
    with pytest.raises(TimeoutError):  # a timeout around acall is a cancellation too: it must fire
        asyncio.run(asyncio.wait_for(box.acall("wait_forever", {}), 0.2))


# --------------------------------------------------------------------------- what the envelope shows


def test_an_unknown_key_is_never_echoed_but_a_near_miss_still_gets_did_you_mean():
    box = _box()

    def search(query: str) -> dict:
        return {}

    contract = {"name": "search", "description": "Searches the catalogue by text.",
                "inputSchema": {"type": "object", "required": ["query"], "properties": {"query": {"type": "string"}}}}
    box.add(contract, search)
    result = box.call("search", {"query": "a", SECRET: 1})
    assert result.error.code == "VALIDATION_ERROR" and "sk-live" not in _wire(result)
    assert "not a parameter" in result.error.message and result.error.details[0]["path"] == "/*"
    closed = _box()

    @closed.tool
    def find(query: str) -> dict:
        """Finds things by text."""
        return {}

    assert "sk-live" not in _wire(closed.call("find", {"query": "a", SECRET: 1}))
    near = closed.call("find", {"qeury": "a"})
    assert "'qeury' given, 'query' expected" in near.error.message


def test_paths_hide_free_form_keys_and_are_capped():
    box = _box()

    @box.tool
    def tally(counts: dict[str, int], groups: list[dict[str, int]]) -> dict:
        """Adds counts up."""
        return {}

    long_key = "k" * 100_000
    result = box.call("tally", {"counts": {SECRET: "x"}, "groups": [{long_key: "x"}]})
    paths = [d["path"] for d in result.error.details]
    assert sorted(paths) == ["/counts/*", "/groups/0/*"]
    assert "sk-live" not in _wire(result) and long_key[:300] not in _wire(result)
    deep = {"counts": {"a": 1}, "groups": [{"a": 1}]}
    assert box.call("tally", deep).ok


def test_python_style_argument_text_is_masked():
    box = _box()

    @box.tool
    def find(query: str) -> dict:
        """Finds things by text."""
        return {}

    result = box.call("find", "{'query': 'my secret password', flag: True}")
    context = result.error.details[0]["context"]
    assert result.error.code == "INVALID_ARGUMENTS_JSON"
    assert context == "{'…': '…', xxxx: True}"


def test_every_envelope_field_is_capped_whoever_built_it():
    box = _box()

    @box.tool(errors=["TOO_LOUD"])
    def loud() -> dict:
        """Fails loudly."""
        raise ToolError("TOO_LOUD", "m" * 100_000, user_action="u" * 1000,
                        details=[{"path": "/" + "p" * 10_000, "n": float("nan"), "big": 10 ** 5000,
                                  "nested": [[[[["deep"]]]]], "obj": object()}] * 50)

    error = box.call("loud", {}).error
    assert len(error.message) <= MAX_MESSAGE_CHARS and len(error.user_action) <= 64
    assert len(error.details) == 20 and len(error.details[0]["path"]) <= MAX_DETAIL_TEXT
    assert error.details[0]["n"] is None and error.details[0]["obj"] == "object"
    _wire(box.call("loud", {}))
    assert CallError("X" * 500, "m", True, "fix").code.endswith("…")
    assert MAX_PATH_CHARS <= MAX_DETAIL_TEXT


# --------------------------------------------------------------------------- the output stage


def test_output_is_converted_to_json_or_reported():
    box = _box()

    @box.tool
    def odd() -> dict:
        """Returns values with no JSON type of their own."""
        return {"when": datetime.datetime(2024, 1, 2, 3, 4), "raw": b"ab", "tags": {"x"}, "pair": (1, 2), 7: "seven"}

    result = box.call("odd", {})
    assert result.ok and result.data == {"when": "2024-01-02T03:04:00", "raw": "ab", "tags": ["x"], "pair": [1, 2],
                                         "7": "seven"}
    _wire(result)

    @box.tool
    def not_a_number() -> dict:
        """Returns NaN."""
        return {"value": float("nan")}

    @box.tool
    def loop() -> list:
        """Returns a list that holds itself."""
        items: list = []
        items.append(items)
        return items

    @box.tool
    def binary() -> dict:
        """Returns bytes that are not text."""
        return {"raw": b"\xff\xfe"}

    for name in ("not_a_number", "loop", "binary"):
        for result in (box.call(name, {}), _acall(box, name, {})):
            assert result.error.code == "OUTPUT_CONTRACT_VIOLATION", name
            _wire(result)


# --------------------------------------------------------------------------- arguments


def test_a_whole_float_reaches_an_int_parameter_as_an_int():
    box = _box()
    got = []

    @box.tool
    def page(limit: int, sizes: list[int], start: int | None = None, scale: float = 1.0) -> dict:
        """Lists one page."""
        got.append((limit, sizes, start, scale))
        return {}

    assert box.call("page", '{"limit": 1e2, "sizes": [2.0, 3], "start": 5.0, "scale": 2.0}').ok
    assert got[-1] == (100, [2, 3], 5, 2.0)
    assert [type(v) for v in (got[-1][0], *got[-1][1], got[-1][2])] == [int, int, int, int]
    assert box.call("page", '{"limit": 1.5, "sizes": []}').error.code == "VALIDATION_ERROR"


def test_dict_arguments_are_capped_like_text_and_in_depth():
    box = _box()

    @box.tool
    def store(data: dict) -> dict:
        """Stores data."""
        return {}

    big = box.call("store", {"data": {"text": "x" * (2 * 1024 * 1024)}})
    assert big.error.code == "INVALID_ARGUMENTS_JSON" and big.error.details[0]["problem"] == "maxSize"
    deep: dict = {}
    node = deep
    for _ in range(3000):
        node["a"] = {}
        node = node["a"]
    for result in (box.call("store", {"data": deep}), _acall(box, "store", {"data": deep})):
        assert result.error.code == "INVALID_ARGUMENTS_JSON" and result.error.details[0]["problem"] == "depth"
    cyclic: dict = {}
    cyclic["self"] = cyclic
    assert box.call("store", {"data": cyclic}).error.details[0]["problem"] == "depth"
    fine: dict = {}
    node = fine
    for _ in range(MAX_ARGUMENT_DEPTH - 3):
        node["a"] = {}
        node = node["a"]
    assert box.call("store", {"data": fine}).ok


def test_without_run_one_callers_mistakes_never_refuse_another_callers_call():
    box = _box()

    @box.tool
    def count(n: int) -> dict:
        """Counts to n."""
        return {}

    for _ in range(6):
        assert box.call("count", {"n": "same"}).error.code == "VALIDATION_ERROR"
    assert box.call("count", {"n": "same"}, run="a").error.code == "VALIDATION_ERROR"
    assert box.call("count", {"n": "same"}, run="a").error.code == "REPEATED_INVALID_CALL"
    assert box.call("count", {"n": "same"}, run="b").error.code == "VALIDATION_ERROR"


# --------------------------------------------------------------------------- registration fetches nothing


@pytest.mark.parametrize("lint", ["error", "warn", "off"])
def test_registration_never_fetches_a_remote_schema_or_reads_a_file_ref(lint, schema_server, tmp_path: Path):  # noqa: F811
    base, requests = schema_server
    local = tmp_path / "integer.json"
    local.write_text('{"type": "integer"}', encoding="utf-8")
    schemas = [
        {"$schema": f"{base}/meta.json", "type": "object", "properties": {"n": {"type": "integer"}}},
        {"type": "object", "properties": {"n": {"$ref": f"{base}/integer.json"}}},
        {"type": "object", "properties": {"n": {"$ref": local.as_uri()}}},
        {"$id": f"{base}/root.json", "type": "object", "properties": {"n": {"$ref": "integer.json"}}},
    ]
    def count_items(**arguments) -> dict:
        return {}

    for schema in schemas:
        box = Toolbox("memory://", lint=lint)
        tool = {"name": "count_items", "description": "Counts the items of one order, by order id.",
                "inputSchema": schema}
        with pytest.raises(ToolRegistrationError) as refused:
            box.add(tool, count_items)
        reference = schema.get("$schema") or schema["properties"]["n"]["$ref"]
        assert reference in str(refused.value)
    assert requests == []
