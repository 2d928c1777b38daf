"""R001 and R003, the binding rules: their documentation is complete and its examples are tests."""

from __future__ import annotations

import re

import pytest

import toolclause
from toolclause import ToolError
from toolclause.rules.docs import SECTIONS
from toolclause.rules.result import BINDING_CHECKS, RULES
from toolclause.rules.result import r001_unstructured_error as r001
from toolclause.rules.result import r003_default_mismatch as r003

_JSON = re.compile(r"```json\n(.*?)\n```", re.S)
_PYTHON = re.compile(r"```python\n(.*?)\n```", re.S)


def _sections(module) -> dict[str, str]:
    out, current = {}, None
    for line in module.__doc__.splitlines():
        if line.startswith("## "):
            current = line[3:].strip()
            out[current] = ""
        elif current:
            out[current] += line + "\n"
    return out


def _bind(section: str, tmp_path, index: int):
    """The section's contract and its function, written to a real file so inspect can read its source."""
    contract = toolclause.load(_JSON.findall(section)[0])[0]
    source = "from toolclause import ToolError\n\n" + _PYTHON.findall(section)[0] + "\n"
    path = tmp_path / f"example_{index}.py"
    path.write_text(source)
    namespace: dict = {}
    exec(compile(source, str(path), "exec"), namespace)
    fn = next(v for k, v in namespace.items() if callable(v) and k == contract.name)
    return contract, fn


@pytest.mark.parametrize("module", BINDING_CHECKS, ids=lambda m: m.CODE)
def test_documentation_examples_are_tests(module, tmp_path):
    sections = _sections(module)
    assert all(sections.get(s, "").strip() for s in SECTIONS), module.CODE
    assert module.__doc__.splitlines()[0] == f"{module.NAME} ({module.CODE})"
    contract, fn = _bind(sections["Example"], tmp_path, 0)
    assert module.CODE in [d.code for d in module.check_binding(contract, fn)]
    contract, fn = _bind(sections["Use instead"], tmp_path, 1)
    assert module.check_binding(contract, fn) == []


def test_binding_rules_are_catalogued_but_never_run_on_files():
    from toolclause import lint
    from toolclause.linting.config import LintConfig
    from toolclause.linting.engine import active_rules
    from toolclause.rules import BY_CODE

    binding = [r for r in RULES if r.binding_only]
    assert [r.code for r in binding] == ["R001", "R003"]  # R002 reads contract files like any rule
    assert BY_CODE["R003"].summary().startswith("Compares a tool's contract")
    assert {"R001", "R003"}.isdisjoint(r.code for r in active_rules(LintConfig()))
    tool = {"name": "t", "description": "Looks up one thing by id and returns it.",
            "inputSchema": {"type": "object", "properties": {"units": {"type": "string", "default": "metric"}}}}
    assert lint(tool, select=["R"]) == []


def _contract(properties: dict, required: list[str], errors=None):
    tool = {"name": "t", "description": "Does one thing.",
            "inputSchema": {"type": "object", "properties": properties, "required": required}}
    if errors is not None:
        tool["errors"] = errors
    return toolclause.load(tool)[0]


def test_r003_cases():
    contract = _contract({"a": {"type": "string"}, "b": {"type": "integer", "default": 1},
                          "c": {"type": "boolean", "default": False}, "d": {"type": "string"},
                          "e": {"type": "number", "default": 1}}, ["a"])

    def fn(a, b=1, c=False, d=None, e=1.0, **rest):
        return {}

    assert r003.check_binding(contract, fn) == []  # None defaults and 1 == 1.0 are fine

    def wrong(a="x", b=2, c=0, d="metric", e=1):
        return {}

    messages = [d.message for d in r003.check_binding(contract, wrong)]
    assert len(messages) == 3, messages
    assert any("'b': the schema's default is 1 but the function's is 2" in m for m in messages)
    assert any("'c'" in m for m in messages)  # False is not 0
    assert any("'d': the function's default is \"metric\" but the schema declares no default" in m for m in messages)

    def no_default(a, b, c=False, d=None, e=1):
        return {}

    (finding,) = r003.check_binding(contract, no_default)
    assert "'b': the schema's default is 1 but the function's parameter has no default" in finding.message

    def required_missing(a, d, b=1, c=False, e=1):
        return {}

    (finding,) = r003.check_binding(contract, required_missing)
    assert "'d' is optional in the schema but the function's parameter has no default" in finding.message


def test_r001_cases():
    contract = _contract({"x": {"type": "string"}}, ["x"], errors=[{"code": "NOT_FOUND"}])

    def clean(x):
        try:
            int(x)
        except ValueError:
            raise ToolError("NOT_FOUND", "none") from None
        if x == "slow":
            raise TimeoutError("upstream")
        if x == "rate":
            raise ToolError("RATE_LIMITED", "later")

        def helper():
            raise ValueError("nested functions are not this tool's body")
        return {}

    assert r001.check_binding(contract, clean) == []

    def caught_locally(x):
        try:
            raise KeyError(x)
        except LookupError:
            return {}

    assert r001.check_binding(contract, caught_locally) == []

    def messy(x):
        if x == "a":
            raise ValueError("bad")
        raise ToolError(code="GONE", message="gone")

    messages = [d.message for d in r001.check_binding(contract, messy)]
    assert len(messages) == 2
    assert "raises ValueError" in messages[0] and "'GONE' is not declared" in messages[1]
    assert r001.check_binding(contract, len) == []  # no Python source: nothing to say
