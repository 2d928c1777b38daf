"""The Anthropic SDK with the gate: its tool runner, and the plain streaming loop, against a scripted Messages API.

The SDK runs for real; only the server is scripted (an httpx transport answering
as the Messages API does), one assistant turn per request.
"""

from __future__ import annotations

import asyncio
import json

import anthropic
import httpx2

from adapter_scenario import CHARGE, MISTAKES, RIGHT, STATUS, Ledger, assert_toolclause_errors, make_box

MODEL = "claude-test"


class MessagesAPI:
    """Answers each request with the next scripted tool call (name, id, raw JSON text), then "done"."""

    def __init__(self, calls: list[tuple[str, str, str]]) -> None:
        self.calls = list(calls)
        self.tool_results: list[dict] = []
        self.tools: list[dict] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        body = json.loads(request.content)
        self.tools = body.get("tools", [])
        last = body["messages"][-1]
        if isinstance(last["content"], list):
            self.tool_results += [b for b in last["content"] if b.get("type") == "tool_result"]
        if not self.calls:
            return self._answer(body, [{"type": "text", "text": "done"}], "end_turn")
        name, call_id, arguments = self.calls.pop(0)
        return self._answer(body, [{"type": "tool_use", "id": call_id, "name": name, "input": arguments}], "tool_use")

    def _answer(self, body: dict, content: list[dict], stop: str) -> httpx2.Response:
        if not body.get("stream"):
            for block in content:  # a non-streamed message always holds parsed input
                if block["type"] == "tool_use":
                    block["input"] = json.loads(block["input"])
            return httpx2.Response(200, json={
                "id": "msg_1", "type": "message", "role": "assistant", "model": MODEL, "content": content,
                "stop_reason": stop, "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}})
        return httpx2.Response(200, headers={"content-type": "text/event-stream"}, content=_events(content, stop))


def _events(content: list[dict], stop: str) -> bytes:
    """The server-sent events of one streamed message: a tool call's input arrives as raw JSON text."""
    events = [{"type": "message_start", "message": {
        "id": "msg_1", "type": "message", "role": "assistant", "model": MODEL, "content": [], "stop_reason": None,
        "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}}]
    for index, block in enumerate(content):
        if block["type"] == "tool_use":
            events += [{"type": "content_block_start", "index": index,
                        "content_block": {**block, "input": {}}},
                       {"type": "content_block_delta", "index": index,
                        "delta": {"type": "input_json_delta", "partial_json": block["input"]}}]
        else:
            events += [{"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}},
                       {"type": "content_block_delta", "index": index,
                        "delta": {"type": "text_delta", "text": block["text"]}}]
        events.append({"type": "content_block_stop", "index": index})
    events += [{"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                "usage": {"output_tokens": 1}}, {"type": "message_stop"}]
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def client_for(api: MessagesAPI) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="test", http_client=httpx2.Client(transport=httpx2.MockTransport(api)))


def scripted(calls: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    return [(name, f"toolu_{n}", arguments) for n, (name, arguments) in enumerate(calls)]


# --------------------------------------------------------------------------- the SDK's tool runner

def run_runner(box, calls, **options) -> MessagesAPI:
    api = MessagesAPI(calls)
    runner = client_for(api).beta.messages.tool_runner(
        model=MODEL, max_tokens=256, messages=[{"role": "user", "content": "find me pizza"}],
        tools=box.as_anthropic_tools(**options))
    assert runner.until_done().content[0].text == "done"
    return api


def test_the_runner_hands_every_mistake_toolclauses_error_and_runs_the_right_call_once():
    ledger = Ledger()
    parsed = [("search", arguments) for _, arguments, _ in MISTAKES[:3]]  # a runner's input is parsed JSON
    api = run_runner(make_box(ledger), scripted([*parsed, ("search", RIGHT)]))
    assert ledger.of("search") == [("pizza", 3)]
    *errors, answer = api.tool_results
    assert all(r["is_error"] for r in errors) and not answer.get("is_error")
    for result, (_, _, expected) in zip(errors, MISTAKES[:3], strict=True):
        assert expected in json.loads(result["content"])["error"]["message"]
    assert json.loads(answer["content"]) == ["pizza 0", "pizza 1", "pizza 2"]


def test_the_runner_sends_the_anthropic_export():
    box = make_box(Ledger())
    api = run_runner(box, [])
    assert api.tools == box.export("anthropic")
    strict = run_runner(box, [], strict=True)
    assert strict.tools == box.export("anthropic", strict=True)


def test_the_runner_routes_an_exported_name_back_to_its_tool():
    ledger = Ledger()
    api = run_runner(make_box(ledger), scripted([STATUS]))
    assert ledger.of("orders.status") == ["o-1"] and not api.tool_results[0].get("is_error")


def test_the_runner_runs_a_charge_with_a_retried_key_once():
    ledger = Ledger()
    api = run_runner(make_box(ledger), scripted([("charge", CHARGE), ("charge", CHARGE)]))
    assert ledger.of("charge") == ["o-1"]
    assert [json.loads(r["content"]) for r in api.tool_results] == [{"payment": 1, "amount": 5}] * 2


def test_the_async_runner_goes_through_acall():
    ledger = Ledger()
    box = make_box(ledger)
    api = MessagesAPI(scripted([("search", MISTAKES[0][1]), ("search", RIGHT)]))

    async def main():
        client = anthropic.AsyncAnthropic(api_key="test",
                                          http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(api)))
        runner = client.beta.messages.tool_runner(
            model=MODEL, max_tokens=256, messages=[{"role": "user", "content": "pizza"}],
            tools=box.as_anthropic_tools(asynchronous=True))
        return await runner.until_done()

    assert asyncio.run(main()).content[0].text == "done"
    assert [r.get("is_error", False) for r in api.tool_results] == [True, False]
    assert ledger.of("search") == [("pizza", 3)]


# --------------------------------------------------------------------------- the plain loop, streamed

def plain_loop(client: anthropic.Anthropic, box, run: str) -> str:
    """The loop docs/frameworks.md shows: a tool call's input, as the stream sent it, goes to the gate."""
    tools = box.export("anthropic")
    messages: list[dict] = [{"role": "user", "content": "find me pizza"}]
    while True:
        calls: dict[int, list[str]] = {}
        text = ""
        for event in client.messages.create(model=MODEL, max_tokens=256, messages=messages, tools=tools,
                                            stream=True):
            if event.type == "content_block_start" and event.content_block.type == "tool_use":
                calls[event.index] = [event.content_block.id, event.content_block.name, ""]
            elif event.type == "content_block_delta" and event.delta.type == "input_json_delta":
                calls[event.index][2] += event.delta.partial_json
            elif event.type == "content_block_delta" and event.delta.type == "text_delta":
                text += event.delta.text
        if not calls:
            return text
        messages.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": call_id, "name": name, "input": {}} for call_id, name, _ in calls.values()]})
        messages.append({"role": "user", "content": [
            box.call(name, arguments, routing=tools, run=run, call_id=call_id).to_anthropic(call_id)
            for call_id, name, arguments in calls.values()]})


def test_the_plain_loop_hands_broken_json_to_the_gate_too():
    ledger = Ledger()
    box = make_box(ledger)
    api = MessagesAPI(scripted([("search", arguments) for _, arguments, _ in MISTAKES] + [("search", RIGHT)]))
    assert plain_loop(client_for(api), box, run="conversation-1") == "done"
    assert ledger.of("search") == [("pizza", 3)]
    *errors, answer = api.tool_results
    assert [r["is_error"] for r in errors] == [True] * 4 and answer["is_error"] is False
    assert_toolclause_errors([r["content"] for r in errors])
    assert json.loads(errors[-1]["content"])["error"]["code"] == "INVALID_ARGUMENTS_JSON"


def test_the_plain_loop_keys_a_host_keyed_tool_by_the_tool_use_id():
    ledger = Ledger()
    receipt = json.dumps({"order_id": "o-1"})
    api = MessagesAPI([("send_receipt", "toolu_7", receipt), ("send_receipt", "toolu_7", receipt),
                       ("send_receipt", "toolu_8", receipt)])
    plain_loop(client_for(api), make_box(ledger), run="conversation-2")
    assert ledger.of("send_receipt") == ["o-1", "o-1"]  # toolu_7 once (delivered twice), toolu_8 once
