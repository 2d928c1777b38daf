"""Every code in use is in its table, and every table entry is in use (as pydantic-core's test_all_errors).

The source is read with `ast`: a code is the argument of a known call (a
`Change` kind, an `Unreadable` code, …).  It must be a string literal, a choice
between literals, or a lookup in a module-level dict of literals, so that this
test can see every code without running anything.  A function that forwards
its own parameter (`def add(self, kind, …): self._add(kind, …)`) is checked at
its call sites instead, and a code passed on from another record (`exc.code`)
where that record is made.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import toolclause
from toolclause.diffing import DIFF_KINDS, diff
from toolclause.diffing.kinds import EFFECTS
from toolclause.loading import UNREADABLE
from toolclause.loading.codes import UnreadableCode
from toolclause.model import Code, code_table

SRC = Path(toolclause.__file__).parent


@dataclass
class Uses:
    codes: dict[str, list[str]] = field(default_factory=dict)  # code → where ("file:line")
    unresolved: list[str] = field(default_factory=list)        # arguments this test cannot read


def _literal_strings(node: ast.AST) -> set[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List)):
        found: set[str] = set()
        for item in node.elts:
            inner = _literal_strings(item)
            if inner is None:
                return None
            found |= inner
        return found
    if isinstance(node, ast.Dict):
        return _literal_strings(ast.Tuple(elts=list(node.values)))
    return None


class _Finder(ast.NodeVisitor):
    def __init__(self, calls: Mapping[str, int], where: str, module_dicts: dict[str, ast.AST], uses: Uses) -> None:
        self.calls, self.where, self.dicts, self.uses = calls, where, module_dicts, uses
        self.params: list[set[str]] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        names = {a.arg for a in node.args.args + node.args.kwonlyargs + node.args.posonlyargs}
        self.params.append(names)
        self.generic_visit(node)
        self.params.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node: ast.Call) -> None:
        name = ast.unparse(node.func)  # "Unreadable", "self.add", "kinds.change"
        if name in self.calls and len(node.args) > self.calls[name]:
            self._record(node.args[self.calls[name]], node.lineno)
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        # an envelope record written as a literal: {"path": …, "problem": …}
        if "dict:problem" in self.calls:
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and key.value == "problem":
                    self._record(value, node.lineno)
        self.generic_visit(node)

    def _record(self, arg: ast.AST, line: int) -> None:
        codes = self._resolve(arg)
        if codes is None:
            self.uses.unresolved.append(f"{self.where}:{line}: {ast.unparse(arg)}")
        for code in codes or ():
            self.uses.codes.setdefault(code, []).append(f"{self.where}:{line}")

    def _resolve(self, node: ast.AST) -> set[str] | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return {node.value}
        if isinstance(node, ast.IfExp):
            body, orelse = self._resolve(node.body), self._resolve(node.orelse)
            return None if body is None or orelse is None else body | orelse
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in self.dicts:
            return _literal_strings(self.dicts[node.value.id])
        if isinstance(node, ast.Name) and self.params and node.id in self.params[-1]:
            return set()  # forwarded: checked where the function is called
        if isinstance(node, ast.Attribute) and node.attr == "code":
            return set()  # passed on from another record, checked where that one is made
        return None


def codes_in_use(files: Iterable[Path], calls: Mapping[str, int]) -> Uses:
    """The codes passed as argument `calls[name]` of every call to `name` (as written: "self.add") in `files`."""
    uses = Uses()
    for file in files:
        tree = ast.parse(file.read_text(encoding="utf-8"))
        module_dicts = {target.id: stmt.value for stmt in tree.body if isinstance(stmt, ast.Assign)
                        and isinstance(stmt.value, ast.Dict) for target in stmt.targets if isinstance(target, ast.Name)}
        _Finder(calls, str(file.relative_to(SRC)), module_dicts, uses).visit(tree)
    return uses


def check_table(table: Mapping[str, Code], uses: Uses) -> None:
    assert not uses.unresolved, "codes this test cannot read (use a literal or a module-level dict of literals):\n" \
                                + "\n".join(uses.unresolved)
    unknown = {code: where for code, where in uses.codes.items() if code not in table}
    assert not unknown, f"codes in use that their table does not list: {unknown}"
    unused = sorted(set(table) - set(uses.codes))
    assert not unused, f"table entries nothing uses: {unused}"


ALL_SOURCES = sorted(SRC.rglob("*.py"))


# --------------------------------------------------------------------------- the tables


def test_unreadable_codes():
    check_table(UNREADABLE, codes_in_use(ALL_SOURCES, {"Unreadable": 0, "ShapeError": 0}))


def test_diff_kinds():
    check_table(DIFF_KINDS, codes_in_use(sorted((SRC / "diffing").glob("*.py")),
                                         {"change": 0, "self.add": 0, "self._add": 0, "Change": 0}))


# --------------------------------------------------------------------------- the test's own reach


def test_the_scanner_sees_literals_choices_and_lookups_and_refuses_the_rest(tmp_path: Path):
    source = tmp_path / "sample.py"
    source.write_text(
        'KINDS = {"a": "from-dict", "b": ("nested",)}\n'
        'def add(kind): record(kind)\n'
        'record("literal")\n'
        'record("yes" if x else "no")\n'
        'record(KINDS[key])\n'
        'record(f"{key}-added")\n'
        'record(name)\n')
    global SRC
    saved, SRC = SRC, tmp_path
    try:
        uses = codes_in_use([source], {"record": 0})
    finally:
        SRC = saved
    assert set(uses.codes) == {"literal", "yes", "no", "from-dict", "nested"}
    assert [u.split(": ", 1)[1] for u in uses.unresolved] == ["f'{key}-added'", "name"]


def test_a_code_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        code_table([Code("x", "one"), Code("x", "two")])


def test_only_not_a_tool_is_skipped_in_a_folder():
    assert [c for c, entry in UNREADABLE.items() if isinstance(entry, UnreadableCode) and entry.skippable] == \
        ["not-a-tool"]


def test_diff_kinds_have_effects_and_the_changes_found_agree_with_them():
    from test_diff import CASES

    assert {kind.effect for kind in DIFF_KINDS.values()} <= set(EFFECTS)
    for _, old, new, _ in CASES:
        for change in diff(old, new).changes:
            effect = DIFF_KINDS[change.kind].effect
            assert change.impact in effect.on_input + effect.on_output, (change.kind, change.impact)
