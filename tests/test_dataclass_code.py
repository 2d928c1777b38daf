"""The dataclass methods the command line keeps between runs are the ones dataclasses compiles."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
import types

import pytest

from toolclause import _dataclass_code, _kept

# every method dataclasses makes for a few of the package's classes, as code: the same with and without
# the kept code, and the same when it is read back from the file
PROBE = r"""
import sys
import toolclause._dataclass_code
if sys.argv[1] == "plain":
    toolclause._dataclass_code.install = lambda: None  # importing toolclause.cli would install it
import toolclause.cli.running as running, toolclause.linting.config as config, toolclause.model as model
out = []
for cls in (model.ToolContract, model.Diagnostic, model.Fix, model.Origin, config.LintConfig, running.LintRequest):
    for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        f = cls.__dict__.get(name)
        code = getattr(f, "__code__", None)
        out.append((cls.__name__, name) if code is None else (
            cls.__name__, name, code.co_code, code.co_consts, code.co_names, code.co_varnames, code.co_filename,
            code.co_flags, repr(f.__annotations__), f.__qualname__, repr(f.__defaults__), repr(f.__kwdefaults__)))
print(repr(out))
"""


def _methods(how: str, env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", PROBE, how], capture_output=True, text=True, timeout=120, env=env,
                          check=True)
    return done.stdout


def test_classes_made_with_the_kept_code_are_the_classes_dataclasses_makes(tmp_path, monkeypatch):
    import os

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    made = _methods("plain", env)
    assert "_return_type" not in made  # the annotations were evaluated, as dataclasses does
    assert _methods("kept", env) == made  # compiled, then written
    assert _dataclass_code.CACHE_FILE.is_file()
    assert _methods("kept", env) == made  # read back


@pytest.fixture
def kept(tmp_path, monkeypatch):
    path = tmp_path / "__pycache__" / "code"
    monkeypatch.setattr(_dataclass_code, "KEPT", _kept.Kept(path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.setattr(dataclasses, "exec", _dataclass_code._exec, raising=False)
    return path


def _make(module: str) -> type:
    """A dataclass made in a module of that name (dataclasses compiles its methods in the module's globals)."""
    made = types.ModuleType(module)
    sys.modules[module] = made
    try:
        exec("from dataclasses import dataclass\n@dataclass(frozen=True)\nclass Point:\n    x: int\n    y: int = 0\n",
             made.__dict__)
    finally:
        del sys.modules[module]
    return made.Point


def test_the_package_s_classes_are_kept_and_others_compile_as_before(kept):
    point = _make("toolclause.probe")
    assert point(1) == point(1, 0) and repr(point(1)) == "Point(x=1, y=0)"
    assert _dataclass_code.KEPT.added > 0 and _dataclass_code.KEPT.values
    added = _dataclass_code.KEPT.added
    again = _make("toolclause.probe")  # from what was kept
    assert _dataclass_code.KEPT.added == added and hash(again(1)) == hash(point(1))
    _make("elsewhere")
    assert _dataclass_code.KEPT.added == added  # another package's class: not kept
    _dataclass_code.save()
    assert kept.is_file()


def test_a_damaged_file_or_entry_is_ignored(kept):
    kept.parent.mkdir()
    kept.write_bytes(b"not a marshal file")
    assert repr(_make("toolclause.probe")(2)) == "Point(x=2, y=0)"
    values = _dataclass_code.KEPT.values
    values.update({source: "not code" for source in values})
    assert repr(_make("toolclause.probe")(3)) == "Point(x=3, y=0)"


def test_nothing_is_written_when_writing_bytecode_is_off(kept, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    _make("toolclause.probe")
    _dataclass_code.save()
    assert not kept.exists()
