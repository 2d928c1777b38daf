"""Registration: every decorator form, signatures → schemas, contracts + functions, refusals."""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

from toolclause import Toolbox, ToolError
from toolclause.runtime import ToolboxConfigError, ToolRegistrationError

DOC = "Find restaurant candidates by area, food and price. Not for ordering or payment."


def test_every_decorator_form_registers_and_leaves_the_function_callable():
    box = Toolbox("memory://")

    @box.tool
    def alpha_lookup(x: int) -> dict:
        """Looks up one alpha record by its number and returns it."""
        return {"x": x}

    @box.tool()
    def beta_lookup(x: int) -> dict:
        """Looks up one beta record by its number and returns it."""
        return {"x": x}

    @box.tool("gamma.lookup")
    def gamma(x: int) -> dict:
        """Looks up one gamma record by its number and returns it."""
        return {"x": x}

    def delta_lookup(x: int) -> dict:
        """Looks up one delta record by its number and returns it."""
        return {"x": x}

    assert box.tool(delta_lookup) is delta_lookup
    assert box.names == ["alpha_lookup", "beta_lookup", "gamma.lookup", "delta_lookup"]
    assert alpha_lookup(2) == {"x": 2} and gamma(3) == {"x": 3}
    assert box.call("gamma.lookup", {"x": 1}).data == {"x": 1}


def test_annotations_title_and_description_from_options_and_docstring():
    box = Toolbox("memory://")

    @box.tool(read_only=True, destructive=False, idempotent=True, open_world=False, title="Search restaurants")
    def search_restaurants(query: str) -> dict:
        """Find restaurant candidates by area, food and price. Not for ordering or payment.

        Args:
            query: What to eat, such as pizza or 냉면.
        """
        return {}

    tool = box.contract("search_restaurants").to_mcp()
    assert tool["annotations"] == {"title": "Search restaurants", "readOnlyHint": True, "destructiveHint": False,
                                   "idempotentHint": True, "openWorldHint": False}
    assert tool["title"] == "Search restaurants"
    assert tool["description"] == DOC
    assert tool["inputSchema"]["properties"]["query"]["description"] == "What to eat, such as pizza or 냉면."


class Filters(BaseModel):
    cuisine: str = Field(description="Kind of food, e.g. korean")
    max_price: int = Field(default=30, description="Highest price per person in euros")


def test_signature_to_schema_literal_annotated_models_optional_defaults():
    box = Toolbox("memory://", lint="warn")
    seen = {}

    @box.tool
    def search_restaurants(query: Annotated[str, Field(description="What to eat")],
                           price_level: Literal["low", "medium", "high"] = "medium",
                           filters: Filters | None = None, limit: int = 10) -> list[str]:
        """Find restaurant candidates by area, food and price. Not for ordering or payment."""
        seen["filters"] = filters
        return [query]

    schema = box.contract("search_restaurants").input_schema
    props = schema["properties"]
    assert props["query"] == {"type": "string", "description": "What to eat"}
    assert props["price_level"]["enum"] == ["low", "medium", "high"] and props["price_level"]["default"] == "medium"
    assert props["limit"]["default"] == 10
    assert schema["required"] == ["query"] and schema["additionalProperties"] is False
    assert "Filters" in schema["$defs"]
    out = box.contract("search_restaurants").output_schema
    assert out["x-toolclause-wrapped"] is True and out["properties"]["result"]["type"] == "array"
    result = box.call("search_restaurants", {"query": "pizza", "filters": {"cuisine": "korean"}})
    assert result.ok and result.data == ["pizza"]
    assert isinstance(seen["filters"], Filters) and seen["filters"].max_price == 30
    assert result.to_mcp()["structuredContent"] == {"result": ["pizza"]}


@dataclasses.dataclass
class Receipt:
    order_id: str
    total: float


def test_object_return_is_not_wrapped_and_model_results_are_dumped():
    box = Toolbox("memory://", lint="warn")

    @box.tool
    def make_receipt(order_id: str) -> Receipt:
        """Builds the receipt of one order from its id."""
        return Receipt(order_id, 12.5)

    out = box.contract("make_receipt").output_schema
    assert out["type"] == "object" and "x-toolclause-wrapped" not in out and "$ref" not in out
    result = box.call("make_receipt", '{"order_id": "ord_1"}')
    assert result.ok and result.data == {"order_id": "ord_1", "total": 12.5}
    assert result.to_mcp()["structuredContent"] == {"order_id": "ord_1", "total": 12.5}


def test_idempotency_key_is_added_and_reaches_only_functions_that_declare_it():
    box = Toolbox("memory://", lint="warn")
    got = {}

    @box.tool(idempotency="key")
    def send_receipt(order_id: str) -> dict:
        """Sends the receipt of one order to the customer's e-mail."""
        got["plain"] = order_id
        return {}

    @box.tool(idempotency="key")
    def send_invoice(order_id: str, idempotency_key: str) -> dict:
        """Sends the invoice of one order to the customer's e-mail."""
        got["key"] = idempotency_key
        return {}

    schema = box.contract("send_receipt").input_schema
    assert "idempotency_key" in schema["required"] and schema["properties"]["idempotency_key"]["type"] == "string"
    assert box.call("send_receipt", {"order_id": "o1", "idempotency_key": "k-1"}).ok
    assert box.call("send_invoice", {"order_id": "o1", "idempotency_key": "k-2"}).ok
    assert got == {"plain": "o1", "key": "k-2"}
    missing = box.call("send_receipt", {"order_id": "o1"})
    assert missing.error.code == "VALIDATION_ERROR" and missing.error.details[0]["path"] == "/idempotency_key"
    # the host's key wins and satisfies the schema
    assert box.call("send_invoice", {"order_id": "o2"}, idempotency_key="host:run1:call7").ok
    assert got["key"] == "host:run1:call7"


CONTRACT = {"name": "create_refund", "description": "Refunds part or all of one paid order to the customer.",
            "inputSchema": {"type": "object", "additionalProperties": False,
                            "properties": {"order_id": {"type": "string", "description": "The order to refund"},
                                           "reason": {"type": "string", "description": "Why, in a sentence",
                                                      "default": "customer request"}},
                            "required": ["order_id"]},
            "errors": [{"code": "ORDER_NOT_FOUND", "retryable": False, "userAction": "check_order_id"}]}


def test_add_binds_a_contract_file_and_a_function(tmp_path):
    path = tmp_path / "create_refund.json"
    path.write_text(json.dumps(CONTRACT))

    def create_refund(order_id: str, reason: str = "customer request") -> dict:
        if order_id == "missing":
            raise ToolError("ORDER_NOT_FOUND", "No order with that id.")
        return {"refunded": order_id, "reason": reason}

    box = Toolbox("memory://", lint="warn")
    contract = box.add(path, create_refund)
    assert contract.name == "create_refund"
    assert box.call("create_refund", {"order_id": "o1"}).data == {"refunded": "o1", "reason": "customer request"}
    failed = box.call("create_refund", {"order_id": "missing"})
    assert failed.error.code == "ORDER_NOT_FOUND" and failed.error.user_action == "check_order_id"


def test_r003_refuses_a_function_whose_default_differs():
    def create_refund(order_id: str, reason: str = "other") -> dict:
        return {}

    with pytest.raises(ToolRegistrationError) as info:
        Toolbox("memory://", lint="warn").add(CONTRACT, create_refund)
    assert [d.code for d in info.value.diagnostics] == ["R003"]
    assert "'reason': the schema's default is \"customer request\" but the function's is \"other\"" in str(info.value)


def test_binding_refuses_properties_the_function_cannot_take():
    def create_refund(order_id: str) -> dict:
        return {}

    with pytest.raises(ToolRegistrationError, match="property 'reason' that create_refund\\(\\) does not take"):
        Toolbox("memory://", lint="warn").add(CONTRACT, create_refund)


def test_a_signature_with_args_or_kwargs_is_refused_and_a_contract_may_still_use_kwargs():
    box = Toolbox("memory://")

    def search(query: str, *terms: str, **filters: str) -> dict:
        return {"query": query, "terms": terms, "filters": filters}

    with pytest.raises(ToolRegistrationError) as info:
        box.tool(search)
    message = str(info.value)
    assert message.startswith("tool 'search' was not registered")
    assert "parameter '*terms' would never receive anything: a tool's arguments are passed by name" in message
    assert "parameter '**filters' would never receive anything" in message and "box.add(contract, fn)" in message
    assert "functools.wraps" not in message  # it has a named parameter: not a wrapper that lost its signature
    assert "search" not in box

    def undecorated(*args, **kwargs):  # a decorator without functools.wraps hides the real signature
        return search(*args, **kwargs)

    with pytest.raises(ToolRegistrationError, match="functools.wraps"):
        box.tool(undecorated, name="search")

    # under a contract, **kwargs takes the properties by name: registered and called
    def create_refund(**arguments: str) -> dict:
        return arguments

    box.add(CONTRACT, create_refund)
    assert box.call("create_refund", {"order_id": "o1"}).data == {"order_id": "o1", "reason": "customer request"}


def test_lint_errors_refuse_registration_and_lint_modes_control_it():
    broken = {"name": "get_weather", "description": "Current weather for one city, in metric units.",
              "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["citty"]}}

    def get_weather(city: str = "Seoul", citty: str = "") -> dict:
        return {}

    with pytest.raises(ToolRegistrationError) as info:
        Toolbox("memory://").add(broken, get_weather)
    assert "S003" in [d.code for d in info.value.diagnostics] and "did you mean 'city'" in str(info.value)
    # "off" skips linting; R003 still runs because it protects the call path
    with pytest.raises(ToolRegistrationError, match="R003"):
        Toolbox("memory://", lint="off").add(broken, get_weather)


def test_store_urls_are_opened_by_the_constructor(tmp_path, monkeypatch):
    from store_servers import free_port

    url = f"sqlite:///{tmp_path}/state.db"
    assert Toolbox(url).store.url == url and (tmp_path / "state.db").exists()
    port = free_port()  # nothing listens there: the constructor says so, not the first call
    for unreachable in (f"postgresql://u:secret@127.0.0.1:{port}/db", f"postgresql+psycopg://127.0.0.1:{port}/db",
                        f"redis://127.0.0.1:{port}/0"):
        with pytest.raises(ToolboxConfigError, match="cannot reach") as caught:
            Toolbox(unreachable)
        assert "secret" not in str(caught.value)
    # without a URL: TOOLCLAUSE_STORE, else the SQLite file, opened only when a tool needs records
    monkeypatch.delenv("TOOLCLAUSE_STORE")
    monkeypatch.chdir(tmp_path)
    box = Toolbox(lint="off")
    assert box.store.url == "sqlite:///.toolclause/state.db"

    @box.tool(read_only=True)
    def look(q: str) -> dict:
        """Looks a word up in the glossary and returns its entry."""
        return {}

    assert not (tmp_path / ".toolclause").exists()

    @box.tool(idempotency="key")
    def note(text: str) -> dict:
        """Writes a note to the journal and returns its id."""
        return {}

    assert not (tmp_path / ".toolclause").exists()  # listing or exporting the tools writes nothing
    assert box.call("note", {"text": "hi", "idempotency_key": "k1"}).ok
    assert box.call("note", {"text": "hi", "idempotency_key": "k1"}).replayed
    assert (tmp_path / ".toolclause" / "state.db").exists()
    box.close()


def test_duplicate_names_bad_options_and_store_urls():
    box = Toolbox("memory://", lint="off")

    def ping() -> dict:
        """Checks that the service answers."""
        return {}

    box.tool(ping)
    with pytest.raises(ToolRegistrationError, match="already registered"):
        box.tool(ping)
    with pytest.raises(ToolRegistrationError, match="idempotency"):
        box.tool(idempotency="maybe")(lambda: None)
    assert Toolbox("memory://").store.url == "memory://"
    with pytest.raises(ToolboxConfigError, match="unknown store scheme 'mongodb://'"):
        Toolbox("mongodb://h")
    with pytest.raises(ToolboxConfigError):
        Toolbox("memory://", lint="strict")


def test_export_routes_exported_names_back():
    box = Toolbox("memory://", lint="off")

    @box.tool("math.factorial")
    def factorial(n: int) -> int:
        """Computes n! for a whole number n."""
        out = 1
        for i in range(2, n + 1):
            out *= i
        return out

    payload = box.export("openai-chat", strict=True)
    assert isinstance(payload, list) and payload[0]["function"]["name"] == "math_factorial"
    assert payload.routing.names == {"math_factorial": "math.factorial"}
    # exporting changes nothing by itself: the exported name is routed only with the export's routing
    assert box.call("math_factorial", '{"n": 5}').error.code == "UNKNOWN_TOOL"
    for routing in (payload.routing, payload):
        result = box.call("math_factorial", '{"n": 5}', routing=routing)
        assert result.ok and result.data == 120 and result.to_mcp()["structuredContent"] == {"result": 120}
    assert box.call("math.factorial", '{"n": 3}', routing=payload.routing).data == 6


def test_r001_findings_are_kept_as_warnings():
    box = Toolbox("memory://", lint="warn")

    @box.tool
    def get_order(order_id: str) -> dict:
        """Returns one order by its id."""
        if not order_id:
            raise ValueError("empty id")
        return {}

    codes = [d.code for d in box.diagnostics["get_order"]]
    assert "R001" in codes
