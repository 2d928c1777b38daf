"""Every code in use is in its table, and every table entry is in use (as pydantic-core's test_all_errors).

The source is read with `ast`: a code is the argument of a known call (a
`Change` kind, an `Unreadable` code, …).  It must be a string literal, a choice
between literals, or a lookup in a module-level dict of literals, so that this
test can see every code without running anything.  A function that forwards
its own parameter (`def add(self, kind, …): self._add(kind, …)`) is checked at
its call sites instead, and a code passed on from another record (`exc.code`)
where that record is made.  Codes that come from a compiled validator's
errors are checked by triggering every one of them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema_rs
import pytest

import toolclause
from toolclause.diffing import DIFF_KINDS, diff
from toolclause.diffing.kinds import EFFECTS
from toolclause.exporting.base import LOSSES
from toolclause.exporting.check import DRIFT
from toolclause.loading import UNREADABLE
from toolclause.loading.codes import UnreadableCode
from toolclause.model import Code, code_table
from toolclause.runtime.errors import PROBLEMS
from toolclause.runtime.validation import schema_errors
from toolclause.schema.failures import FAILED_KEYWORDS, KIND_KEYWORDS
from toolclause.schema.meta import meta_errors
from toolclause.schema.validators import ARGUMENTS, compile_schema

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
        if isinstance(node, ast.Attribute) and node.attr in ("code", "problem"):
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


def test_export_loss_codes():
    check_table(LOSSES, codes_in_use(sorted((SRC / "exporting").glob("*.py")), {"self.lose": 0, "Loss": 0}))


def test_export_drift_codes():
    check_table(DRIFT, codes_in_use([SRC / "exporting" / "check.py"], {"_drift": 0, "Drift": 0}))


# pydantic's own error type, kept as the problem of a parameter model's records (see PROBLEMS)
PYDANTIC_PROBLEM = "e['type']"


def test_runtime_problem_codes_written_in_the_source():
    uses = codes_in_use(sorted((SRC / "runtime").glob("*.py")),
                        {"_record": 1, "ParseProblem": 0, "dict:problem": 0})
    assert [u for u in uses.unresolved if not u.endswith(PYDANTIC_PROBLEM)] == []
    uses.unresolved = []
    unknown = {code: where for code, where in uses.codes.items() if code not in PROBLEMS}
    assert not unknown
    call_level = set(PROBLEMS) - set(FAILED_KEYWORDS)
    assert call_level <= set(uses.codes), call_level - set(uses.codes)


# one failing (schema, arguments) per keyword a compiled validator reports
D7 = "http://json-schema.org/draft-07/schema#"
FAILURES = [
    ("type", {"type": "string"}, 1), ("enum", {"enum": [1]}, 2), ("const", {"const": 1}, 2),
    ("multipleOf", {"multipleOf": 2}, 3), ("minimum", {"minimum": 1}, 0), ("maximum", {"maximum": 1}, 2),
    ("exclusiveMinimum", {"exclusiveMinimum": 1}, 1), ("exclusiveMaximum", {"exclusiveMaximum": 1}, 1),
    ("minLength", {"minLength": 2}, "a"), ("maxLength", {"maxLength": 1}, "ab"), ("pattern", {"pattern": "^a"}, "b"),
    ("format", {"format": "email"}, "x"), ("minItems", {"minItems": 1}, []), ("maxItems", {"maxItems": 1}, [1, 2]),
    ("uniqueItems", {"uniqueItems": True}, [1, 1]), ("contains", {"contains": {"const": 1}}, [2]),
    ("minContains", {"contains": {"const": 1}, "minContains": 2}, [1]),
    ("maxContains", {"contains": {"const": 1}, "maxContains": 1}, [1, 1]),
    ("additionalItems", {"$schema": D7, "items": [{}], "additionalItems": False}, [1, 2]),
    ("unevaluatedItems", {"prefixItems": [{}], "unevaluatedItems": False}, [1, 2]),
    ("minProperties", {"minProperties": 1}, {}), ("maxProperties", {"maxProperties": 0}, {"a": 1}),
    ("required", {"required": ["a"]}, {}),
    ("additionalProperties", {"properties": {"a": {}}, "additionalProperties": False}, {"b": 1}),
    ("unevaluatedProperties", {"unevaluatedProperties": False}, {"a": 1}), ("not", {"not": {}}, 1),
    ("anyOf", {"anyOf": [{"type": "string"}]}, 1), ("oneOf", {"oneOf": [{}, {}]}, 1), ("false", {"items": False}, [1]),
    ("contentEncoding", {"$schema": D7, "contentEncoding": "base64"}, "!!"),
    ("contentMediaType", {"$schema": D7, "contentMediaType": "application/json"}, "{"),
]


@pytest.mark.parametrize("code, schema, instance", FAILURES, ids=[f[0] for f in FAILURES])
def test_every_failed_keyword_is_what_the_runtime_reports(code, schema, instance):
    records, _ = schema_errors(compile_schema(schema, ARGUMENTS), instance, schema)
    assert [r["problem"] for r in records] == [code]


def test_failed_keywords_all_occur_and_every_validator_error_kind_is_placed():
    assert {f[0] for f in FAILURES} == set(FAILED_KEYWORDS)
    assert set(KIND_KEYWORDS.values()) <= set(FAILED_KEYWORDS)
    kinds = {name for name in dir(jsonschema_rs.ValidationErrorKind) if name[:1].isupper()}
    # these take the keyword at the end of the schema path (see schema/failures.py)
    by_path = {"Contains", "PropertyNames", "Custom", "Referencing"}
    assert kinds == set(KIND_KEYWORDS) | by_path, kinds ^ (set(KIND_KEYWORDS) | by_path)


def test_meta_schema_errors_are_coded_by_the_keyword_that_failed():
    errors = meta_errors({"type": "object", "properties": {"a": {"minLength": -1, "enum": "x", "required": 3}}})
    assert {(e.pointer, e.code) for e in errors} == {
        ("/properties/a/minLength", "minimum"), ("/properties/a/enum", "type"), ("/properties/a/required", "type")}
    assert all(e.code in FAILED_KEYWORDS for e in errors)


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


def test_only_empty_files_and_not_a_tool_are_skipped_in_a_folder():
    assert [c for c, entry in UNREADABLE.items() if isinstance(entry, UnreadableCode) and entry.skippable] == \
        ["empty", "not-a-tool"]


def test_diff_kinds_have_effects_and_the_changes_found_agree_with_them():
    from test_diff import CASES

    assert {kind.effect for kind in DIFF_KINDS.values()} <= set(EFFECTS)
    for _, old, new, _ in CASES:
        for change in diff(old, new).changes:
            effect = DIFF_KINDS[change.kind].effect
            assert change.impact in effect.on_input + effect.on_output, (change.kind, change.impact)
