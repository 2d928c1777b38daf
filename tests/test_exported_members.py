"""The public surface is what `__all__` says, and each name is the function or class it is documented as.

    from toolclause import Toolbox, ToolError, Result, load, lint, export, diff, route
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

import toolclause

INIT = Path(toolclause.__file__)
FUNCTIONS = {"load", "lint", "export", "diff", "route", "to_provider"}
CLASSES = {"Toolbox", "ToolError", "ToolRegistrationError", "Result", "Reply", "Diagnostic", "DiffReport",
           "ExportResult", "LintConfig", "LintReport", "Loss", "ProviderSchema", "Severity", "ToolContract"}


def public_attributes(module: types.ModuleType) -> set[str]:
    """Names a user sees on the module: not private, not a submodule (subpackages appear once imported)."""
    return {name for name, value in vars(module).items()
            if not name.startswith("_") and not isinstance(value, types.ModuleType)}


def test_all_is_sorted_and_lists_exactly_the_documented_names():
    assert toolclause.__all__ == sorted(toolclause.__all__)
    assert set(toolclause.__all__) == FUNCTIONS | CLASSES | {"__version__"}


def test_every_public_attribute_is_in_all():
    for name in toolclause.__all__:
        getattr(toolclause, name)  # resolve every lazy name first, so vars() holds them all
    assert public_attributes(toolclause) <= set(toolclause.__all__)
    assert set(dir(toolclause)) >= set(toolclause.__all__)


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_each_function_is_a_function(name):
    value = getattr(toolclause, name)
    assert inspect.isfunction(value), f"toolclause.{name} is {type(value).__name__}, not a function"
    assert value.__doc__ and value.__name__ == name


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_each_class_is_a_class(name):
    value = getattr(toolclause, name)
    assert inspect.isclass(value), f"toolclause.{name} is {type(value).__name__}, not a class"
    assert value.__name__ == name


def test_the_runtime_names_are_the_runtime_classes():
    from toolclause.runtime import Result, Toolbox, ToolError

    assert (toolclause.Toolbox, toolclause.ToolError, toolclause.Result) == (Toolbox, ToolError, Result)
    assert issubclass(toolclause.ToolError, Exception)


def test_type_checkers_see_the_same_names_as_run_time():
    """The imports under TYPE_CHECKING name each public name from the module `__getattr__` imports it from."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test))
    for_checkers = {alias.name: "." * node.level + (node.module or "")
                    for node in block.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert for_checkers == toolclause._HOMES
    assert set(for_checkers) == set(toolclause.__all__) - {"__version__"}


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Tools'"):
        toolclause.Tools  # noqa: B018
    with pytest.raises(ImportError):
        exec("from toolclause import Tools", {})


def test_subpackages_and_functions_no_longer_shadow_each_other():
    exporting = importlib.import_module("toolclause.exporting")
    diffing = importlib.import_module("toolclause.diffing")
    loading = importlib.import_module("toolclause.loading")
    assert "openai-chat" in exporting.TARGETS
    assert toolclause.export is exporting.export and toolclause.load is loading.load
    assert inspect.isfunction(toolclause.diff) and toolclause.diff is not diffing


def test_diff_takes_what_the_command_takes(tmp_path):
    old = {"name": "get_weather", "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    new = {**old, "inputSchema": {**old["inputSchema"], "required": ["city"]}}
    (tmp_path / "old.json").write_text(json.dumps(old))
    (tmp_path / "new.json").write_text(json.dumps(new))
    expected = [("required-added", "breaking-calls")]
    sides = [(tmp_path / "old.json", tmp_path / "new.json"),               # paths
             (str(tmp_path / "old.json"), str(tmp_path / "new.json")),     # as the command line gives them
             (old, new),                                                   # parsed documents
             (toolclause.load(old), toolclause.load(new)),                 # contracts
             (toolclause.load(old)[0], toolclause.load(new)[0])]           # one contract
    for before, after in sides:
        report = toolclause.diff(before, after)
        assert isinstance(report, toolclause.DiffReport) and not report.unreadable
        assert [(c.kind, c.impact.label) for c in report.changes] == expected


def test_diff_reports_what_it_cannot_read(tmp_path):
    report = toolclause.diff(tmp_path / "missing.json", tmp_path / "missing.json")
    assert report.changes == [] and report.unreadable


# --------------------------------------------------------------------------- start-up stays cheap

def _modules_after(code: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, timeout=120, check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_importing_the_package_imports_nothing_heavy():
    loaded = _modules_after("import toolclause")
    # _provided: where the package root registers Toolbox.mcp_server (a dict, no imports)
    assert not {m for m in loaded if m.startswith("toolclause.")} - {"toolclause._version", "toolclause._provided"}
    assert "pydantic" not in loaded and "jsonschema_rs" not in loaded


def test_linting_files_never_imports_the_runtime_exporters_or_diff():
    example = Path(__file__).parent / "fixtures" / "cli" / "openai_weather.json"
    arguments = ["lint", str(example), "--target", "all", "--fail-on", "never", "-o", os.devnull]
    loaded = _modules_after(f"from toolclause.cli.main import main\ntry:\n    main({arguments!r})\n"
                            "except SystemExit:\n    pass")
    assert "toolclause.linting.engine" in loaded  # it did lint
    heavy = {"toolclause.runtime", "toolclause.exporting", "toolclause.diffing", "toolclause.mcp.live", "pydantic",
             "mcp"}
    assert not heavy & loaded
