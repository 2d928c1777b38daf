"""Lower layers never import higher ones, read from the imports of every module.

Every `import` and `from … import` counts, wherever it stands: at the top of a
module, inside a function (an import deferred for start-up time is still a
dependency), or under `if TYPE_CHECKING:`.  A module's layer is its first name
under `toolclause` (`toolclause.linting.fix` is in `linting`); a module may
import its own layer and any layer below it.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "toolclause"

# lowest first; the names of one row may import one another
LAYERS: list[tuple[str, frozenset[str]]] = [
    # self-contained helpers every layer may use: version, GC pausing, compiled patterns and dataclass
    # methods kept between runs, provider facts, format names, did-you-mean, word lists; features a lower
    # layer names and a higher one implements (_provided)
    ("foundation", frozenset({"_version", "_gc", "_kept", "_lazy_re", "_dataclass_code", "targets", "formats",
                              "suggest", "lexicon", "_provided", "_sockets", "_http_limits"})),
    ("model", frozenset({"model"})),            # frozen data, no I/O
    ("loading", frozenset({"loading"})),        # bytes, files → contracts with a source map
    ("schema", frozenset({"schema"})),          # JSON Schema walking, meta-validation, normalisation
    ("routing", frozenset({"routing"})),        # tool routing: the few tools that fit a request (Toolbox.select)
    ("rules", frozenset({"rules"})),            # one file per rule
    ("linting", frozenset({"linting"})),        # engine, configuration, fixes, baselines
    ("exporting", frozenset({"exporting"})),    # one module per target
    ("diffing", frozenset({"diffing"})),        # change classification
    ("stores", frozenset({"stores"})),          # idempotency stores, below the runtime
    ("runtime", frozenset({"runtime"})),        # Toolbox, the gate, the envelope
    ("workflow", frozenset({"workflow"})),      # handoffs, routing, checkpoints, fixtures, fuzzing
    ("mcp", frozenset({"mcp"})),                # live servers, serving, proxying
    ("web", frozenset({"web"})),                # the playground
    ("lsp", frozenset({"lsp"})),                # the language server (findings in the editor)
    ("report", frozenset({"report"})),          # reporters: a finished run → text
    ("cli", frozenset({"cli"})),                # parsing, file I/O, printing, exit codes
    # the package's public names (`toolclause/__init__.py` and its helpers) stand on everything
    ("surface", frozenset({"__init__", "_api", "__main__"})),  # __main__: `python -m toolclause`
]
RANK = {name: rank for rank, (_, names) in enumerate(LAYERS) for name in names}
LAYER_OF_RANK = [layer for layer, _ in LAYERS]


@dataclass(frozen=True)
class Import:
    importer: str   # dotted module name
    imported: str   # dotted module name (a name taken from a package resolves to the package or its submodule)
    line: int


def module_name(path: Path, root: Path = PACKAGE) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_module(dotted: str, root: Path = PACKAGE) -> bool:
    relative = Path(*dotted.split(".")[1:]) if "." in dotted else Path()
    return (root / relative).with_suffix(".py").is_file() or (root / relative / "__init__.py").is_file()


def imports_of(source: str, module: str, is_package: bool, root: Path = PACKAGE) -> list[Import]:
    """Every import of a `toolclause` module in `source`, relative ones resolved."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [Import(module, alias.name, node.lineno) for alias in node.names
                      if alias.name.split(".")[0] == "toolclause"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != "toolclause":
                continue
            for alias in node.names:
                # `from .. import linting` names a module; `from ..linting import fix` names one in a package
                candidate = f"{base}.{alias.name}"
                found.append(Import(module, candidate if is_module(candidate, root) else base, node.lineno))
    return found


def layer_rank(dotted: str) -> int | None:
    parts = dotted.split(".")
    return RANK.get(parts[1] if len(parts) > 1 else "__init__")


def violations(root: Path = PACKAGE) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        module = module_name(path, root)
        own = layer_rank(module)
        for imp in imports_of(path.read_text(encoding="utf-8"), module, path.name == "__init__.py", root):
            other = layer_rank(imp.imported)
            if own is not None and other is not None and other > own:
                out.append(f"{path.relative_to(root.parent)}:{imp.line}: {module} ({LAYER_OF_RANK[own]}) imports "
                           f"{imp.imported} ({LAYER_OF_RANK[other]}, a higher layer)")
    return out


def test_every_module_has_a_layer():
    unplaced = sorted({module_name(p) for p in PACKAGE.rglob("*.py") if layer_rank(module_name(p)) is None})
    assert unplaced == [], "place these in LAYERS (tests/test_layers.py) and in the README's layout"


def test_the_readme_describes_every_package():
    readme = (PACKAGE.parents[1] / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("| package | what it holds |"):]
    present = {p.relative_to(PACKAGE).parts[0].removesuffix(".py") for p in PACKAGE.glob("*")
               if p.suffix == ".py" or (p / "__init__.py").is_file()}
    missing = sorted(name for name in present if f"`{name}`" not in layout and f"`{name}/`" not in layout)
    assert missing == [], "add a line for each to the layout table in README.md (Development)"


def test_no_module_imports_a_higher_layer():
    assert violations() == []


def test_report_never_imports_cli():
    report = [imp for path in (PACKAGE / "report").rglob("*.py")
              for imp in imports_of(path.read_text(encoding="utf-8"), module_name(path), path.name == "__init__.py")]
    assert report and not [imp for imp in report if imp.imported.startswith("toolclause.cli")]


# --------------------------------------------------------------------------- the checker itself can fail

@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "toolclause"
    for package in ("", "model", "linting", "report", "cli"):
        (root / package).mkdir(parents=True, exist_ok=True)
        (root / package / "__init__.py").write_text("")
    (root / "_version.py").write_text("__version__ = '0'\n")
    (root / "cli" / "running.py").write_text("")
    return root


def test_a_deferred_import_of_a_higher_layer_is_caught(tree: Path):
    (tree / "linting" / "fix.py").write_text("def f():\n    from ..cli.running import x\n    return x\n")
    assert violations(tree) == ["toolclause/linting/fix.py:2: toolclause.linting.fix (linting) imports "
                                "toolclause.cli.running (cli, a higher layer)"]


def test_a_type_checking_import_and_the_package_root_are_caught(tree: Path):
    (tree / "report" / "text.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                             "    from toolclause.cli import running\n")
    (tree / "model" / "data.py").write_text("from .. import __version__\nfrom .._version import __version__\n")
    assert violations(tree) == [
        "toolclause/model/data.py:1: toolclause.model.data (model) imports toolclause (surface, a higher layer)",
        "toolclause/report/text.py:3: toolclause.report.text (report) imports toolclause.cli.running "
        "(cli, a higher layer)"]


def test_imports_of_lower_layers_and_other_packages_pass(tree: Path):
    (tree / "cli" / "main.py").write_text("import json\nimport toolclause.model\nfrom ..report import x\n"
                                          "from . import running\nfrom .._version import __version__\n")
    assert violations(tree) == []
