"""The gate's parts: a registry, a claim stage, an executor and a correction budget, each replaceable."""

from __future__ import annotations

import asyncio
import datetime

import pytest

from toolclause import Toolbox, ToolError
from toolclause.runtime.budget import CorrectionBudget
from toolclause.runtime.gate import Gate
from toolclause.runtime.registry import ToolRegistry

SEARCH_FILES = {
    "name": "search files",
    "description": "Searches the files of the workspace by text and content type.",
    "inputSchema": {"type": "object", "additionalProperties": False, "required": ["query"],
                    "properties": {"query": {"type": "string", "description": "Text to find."},
                                   "Content-Type": {"type": "string", "description": "MIME type to keep."}}},
}


class Forwarder:
    """An executor that never calls the Python function: what a proxy to a remote server supplies."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def run(self, tool, arguments):
        self.calls.append((tool.name, dict(arguments)))
        if arguments.get("query") == "missing":
            raise ToolError("NOT_FOUND", "Nothing by that name.")
        return {"forwarded": tool.name, "arguments": arguments}

    async def arun(self, tool, arguments):
        return self.run(tool, arguments)

    def close(self):
        self.calls.append(("closed", {}))


def _never(**kwargs):
    raise AssertionError("the forwarding executor runs the call, not the local function")


def test_an_executor_replaces_the_function_call_and_every_other_stage_stays():
    forwarder = Forwarder()
    box = Toolbox("memory://", lint="off", executor=forwarder)
    box.add(SEARCH_FILES, _never)
    ok = box.call("search files", '{"query": "report"}')
    assert ok.ok and ok.data == {"forwarded": "search files", "arguments": {"query": "report"}}
    assert box.call("search files", '{"qery": "report"}').error.code == "VALIDATION_ERROR"  # never forwarded
    assert box.call("search files", {"query": "missing"}).error.code == "NOT_FOUND"
    assert asyncio.run(box.acall("search files", {"query": "a"})).ok
    assert [name for name, _ in forwarder.calls] == ["search files"] * 3
    box.close()
    assert forwarder.calls[-1][0] == "closed"


def test_a_gate_is_built_from_its_parts():
    registry = ToolRegistry()
    helper = Toolbox("memory://", lint="off")
    helper.add(SEARCH_FILES, _never)
    registry.add(helper.registry.tools["search files"])
    gate = Gate(registry, executor=Forwarder(), budget=CorrectionBudget(0))
    assert gate.call("search files", {"query": "x"}).ok
    assert gate.call("search files", {}, run="r").error.code == "VALIDATION_ERROR"
    assert gate.call("search files", {"q": 1}, run="r").error.code == "REPEATED_INVALID_CALL"  # a budget of 0


def test_routing_renames_tools_and_properties_only_for_the_export_it_came_from():
    received = []

    def search(query: str, **options) -> dict:
        received.append({"query": query, **options})
        return {}

    box = Toolbox("memory://", lint="off")
    box.add(SEARCH_FILES, search)
    gemini = box.export("gemini")
    assert gemini.routing.properties == {
        "search_files": {"": {"Content_Type": "Content-Type"}}}
    mcp = box.export("mcp")
    assert mcp.routing.names == {"search_files": "search files"} and not mcp.routing.properties
    assert box.call("search_files", {"query": "q", "Content_Type": "text/plain"}, routing=gemini).ok
    assert received[-1] == {"query": "q", "Content-Type": "text/plain"}
    # the other export kept the property's name, so its routing does not rename it
    refused = box.call("search_files", {"query": "q", "Content_Type": "text/plain"}, routing=mcp)
    assert refused.error.code == "VALIDATION_ERROR"
    assert box.call("search files", {"query": "q", "Content-Type": "a/b"}, routing=mcp).ok
    assert not box.export("anthropic").routing.properties


def test_the_budget_knows_the_same_json_however_it_was_written():
    box = Toolbox("memory://", lint="off")

    @box.tool
    def pick(count: int) -> dict:
        """Picks a number of items from the queue and returns them."""
        return {}

    assert box.call("pick", '{"count": "1.0"}', run="r").error.code == "VALIDATION_ERROR"
    assert box.call("pick", '{ "count" : "1.0" }', run="r").error.code == "REPEATED_INVALID_CALL"
    assert box.call("pick", '{"count": "1.5"}', run="r").error.code == "VALIDATION_ERROR"


NO_ARGUMENTS = {"type": "object", "properties": {}}


@pytest.mark.parametrize(("output", "skips"), [
    ({"type": "object"}, True),
    ({"type": "object", "additionalProperties": True, "description": "Anything."}, True),
    ({"type": "object", "properties": {"n": {"type": "integer"}}}, False),
    ({"type": "object", "additionalProperties": {"type": "integer"}}, False),
    ({"type": "object", "required": ["n"]}, False),
    ({"type": ["object", "null"]}, False),
])
def test_a_result_is_checked_by_the_validator_only_where_the_schema_asks_more_than_an_object(output, skips):
    box = Toolbox(lint="off")
    box.add({"name": "get_stats", "description": "Returns the counters.", "inputSchema": NO_ARGUMENTS,
             "outputSchema": output}, lambda: {"n": 1})
    assert box._tools["get_stats"].any_object is skips
    assert box.call("get_stats", {}).data == {"n": 1}


def test_the_shortcut_for_an_object_result_refuses_and_converts_as_the_full_check_does():
    box = Toolbox(lint="off")
    results = iter([{"n": float("nan")}, {"when": datetime.date(2024, 1, 2)}, {"ok": True, "ratio": 0.5},
                    {"nested": {"n": float("inf")}}, {1: "one"}])
    box.add({"name": "get_stats", "description": "Returns the counters.", "inputSchema": NO_ARGUMENTS,
             "outputSchema": {"type": "object"}}, lambda: next(results))
    assert box.call("get_stats", {}).error.code == "OUTPUT_CONTRACT_VIOLATION"
    assert box.call("get_stats", {}).data == {"when": "2024-01-02"}
    assert box.call("get_stats", {}).data == {"ok": True, "ratio": 0.5}
    assert box.call("get_stats", {}).error.code == "OUTPUT_CONTRACT_VIOLATION"
    assert box.call("get_stats", {}).error.code == "OUTPUT_CONTRACT_VIOLATION"  # a key that is not text
