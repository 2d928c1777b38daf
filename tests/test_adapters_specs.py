"""What every adapter needs from a Toolbox: `validate` (the gate without execution) and `tool_specs`."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Annotated

import pytest
from pydantic import AfterValidator, BaseModel

import toolclause
from toolclause import Result, Toolbox, ToolRegistrationError


class Order(BaseModel):
    sku: Annotated[str, AfterValidator(lambda s: s if s.isupper() else _refuse())]


def make_box(ran: list) -> Toolbox:
    box = Toolbox("memory://", lint="off")

    @box.tool(name="math.add", read_only=True)
    def add(left: int, right: int = 2) -> int:
        """Adds two integers and returns the sum."""
        ran.append("add")
        return left + right

    @box.tool(idempotency="key")
    def place(order: Order, note: str | None = None) -> dict:
        """Places an order for one item and returns its number."""
        ran.append("place")
        return {"number": 1}

    return box


def _refuse() -> str:
    raise ValueError("a sku is upper case")


def test_validate_returns_the_normalised_json_arguments_and_runs_nothing():
    ran: list = []
    box = make_box(ran)
    assert box.validate("math.add", '{"left": 1}') == {"left": 1, "right": 2}
    assert box.validate("math.add", {"left": 1, "right": 5}) == {"left": 1, "right": 5}
    checked = box.validate("place", {"order": {"sku": "AB"}}, idempotency_key="k-1")
    assert checked == {"order": {"sku": "AB"}, "note": None, "idempotency_key": "k-1"}  # JSON, not the model
    assert ran == []
    assert box.call("place", checked).ok and ran == ["place"]


def test_validate_reports_what_call_would_report_without_echoing_values():
    box = make_box([])
    sent = '{"lefft": 1, "right": "secret-value"}'
    failed = box.validate("math.add", sent)
    assert isinstance(failed, Result) and not failed.ok
    assert failed.error.code == "VALIDATION_ERROR"
    assert "'lefft' given, 'left' expected" in failed.error.message
    assert "secret-value" not in json.dumps(failed.to_dict())
    assert failed.to_dict()["error"] == make_box([]).call("math.add", sent).to_dict()["error"]
    broken = box.validate("math.add", '{"left": 1')
    assert broken.error.code == "INVALID_ARGUMENTS_JSON" and broken.error.details[0]["problem"] == "syntax"
    unknown = box.validate("math_ad", "{}")
    assert unknown.error.code == "UNKNOWN_TOOL"


def test_a_parameter_model_that_refuses_is_a_validation_error_before_any_claim():
    ran: list = []
    box = make_box(ran)
    failed = box.validate("place", {"order": {"sku": "lower"}}, idempotency_key="k-2")
    assert isinstance(failed, Result) and failed.error.code == "VALIDATION_ERROR"
    assert "lower" not in json.dumps(failed.to_dict())
    assert ran == []


def test_validate_counts_against_the_run_budget_like_call():
    box = make_box([])
    first = box.validate("math.add", '{"left": "x"}', run="run-1")
    again = box.validate("math.add", '{"left": "x"}', run="run-1")
    assert first.error.code == "VALIDATION_ERROR" and again.error.code == "REPEATED_INVALID_CALL"
    other_run = box.validate("math.add", '{"left": "x"}', run="run-2")
    assert other_run.error.code == "VALIDATION_ERROR"


def test_validate_takes_exported_names_and_strict_nulls_through_routing():
    box = make_box([])
    spec = next(s for s in box.tool_specs("openai-chat", strict=True) if s.tool == "math.add")
    assert spec.name == "math_add"
    assert box.validate(spec.name, '{"left": 1, "right": null}', routing=spec.routing) == {"left": 1, "right": 2}


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"])
@pytest.mark.parametrize("strict", [False, True])
def test_tool_specs_name_every_tool_as_its_export_does(target, strict):
    box = make_box([])
    specs = box.tool_specs(target, strict=strict)
    assert [s.tool for s in specs] == ["math.add", "place"]
    exported = box.export(target, strict=strict)
    text = json.dumps(exported)
    for spec in specs:
        assert spec.contract is box.contract(spec.tool)
        assert (spec.target, spec.strict) == (target, strict)
        assert json.dumps(spec.definition) in text and spec.definition["name" if "name" in spec.definition else
                                                                          "function"]
        assert spec.parameters["type"] == "object" and "properties" in spec.parameters
        assert all(loss.tool == spec.tool for loss in spec.losses)
        assert box.call(spec.name, {"left": 1} if spec.tool == "math.add" else {"order": {"sku": "A"}},
                        routing=spec.routing, idempotency_key="k").ok
    assert sum(len(s.losses) for s in specs) == len(exported.losses)


def test_tool_specs_carry_the_losses_of_their_own_tool():
    specs = {s.tool: s for s in make_box([]).tool_specs("openai-chat", strict=True)}
    assert specs["math.add"].losses == ()
    assert {loss.keyword for loss in specs["place"].losses} >= {"minLength", "maxLength"}
    assert specs["math.add"].definition["type"] == "function"
    assert specs["math.add"].definition["function"]["parameters"] is specs["math.add"].parameters


def test_registration_error_is_public():
    assert toolclause.ToolRegistrationError is ToolRegistrationError
    box = make_box([])
    with pytest.raises(ToolRegistrationError, match="already registered"):
        box.tool(name="math.add")(lambda left: left)


@pytest.mark.parametrize("module,method,extra", [
    ("pydantic_ai", "as_pydantic_ai_toolset", "pydantic-ai"), ("agents", "as_agents_sdk_tools", "agents"),
    ("langchain_core", "as_langchain_tools", "langchain"), ("anthropic", "as_anthropic_tools", "anthropic")])
def test_an_adapter_whose_framework_is_missing_names_the_extra_to_install(module, method, extra):
    code = (f"import sys; sys.modules[{module!r}] = None\n"
            "from toolclause import Toolbox\n"
            f"try:\n    Toolbox('memory://').{method}()\n"
            "except ImportError as exc:\n    print(exc)\n")
    assert f"pip install 'toolclause[{extra}]'" in _python(code)


def test_importing_toolclause_and_making_a_toolbox_imports_no_framework():
    code = ("import sys, json\nfrom toolclause import Toolbox\nbox = Toolbox('memory://')\n"
            "box.tool_specs('openai-chat'); box.validate('x', '{}')\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('pydantic_ai', 'agents', 'langchain_core', 'langgraph'))))")
    assert json.loads(_python(code).splitlines()[-1]) == []


def _python(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True).stdout
