"""toolclause diff: every change kind, classified by what the schemas accept."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path

import pytest

from toolclause.diffing import DiffInputError, diff
from toolclause.diffing.model import Impact

BC, BR, RISKY, OK = Impact.BREAKING_CALLS, Impact.BREAKING_RESULTS, Impact.RISKY, Impact.COMPATIBLE


def tool(properties=None, required=None, closed=False, output=None, **extra):
    schema = {"type": "object", "properties": properties or {}}
    if required:
        schema["required"] = required
    if closed:
        schema["additionalProperties"] = False
    out = {"name": "t", "description": "Does one thing.", "inputSchema": schema, **extra}
    if output is not None:
        out["outputSchema"] = output
    return out


S = {"type": "string"}
INT = {"type": "integer"}
OBJ = lambda props, **kw: {"type": "object", "properties": props, **kw}  # noqa: E731
ARR = lambda items, **kw: {"type": "array", "items": items, **kw}  # noqa: E731
BY_X, BY_Y, BY_Z = ({"type": "object", "properties": {k: S}, "required": [k]} for k in "xyz")

# (id, old, new, expected {(kind, impact)})
CASES = [
    ("required-added", tool({"a": S}), tool({"a": S}, ["a"]), {("required-added", BC)}),
    ("required-removed", tool({"a": S}, ["a"]), tool({"a": S}), {("required-removed", OK)}),
    ("optional-property-added", tool({"a": S}), tool({"a": S, "b": INT}), {("property-added", OK)}),
    ("required-property-added", tool({"a": S}), tool({"a": S, "b": INT}, ["b"]), {("required-added", BC)}),
    ("property-removed-closed", tool({"a": S, "b": INT}, closed=True), tool({"a": S}, closed=True),
     {("property-removed", BC)}),
    ("property-removed-open", tool({"a": S, "b": INT}), tool({"a": S}), {("property-removed", RISKY)}),
    ("type-narrowed", tool({"a": {"type": ["string", "null"]}}), tool({"a": S}), {("type-narrowed", BC)}),
    ("type-widened", tool({"a": S}), tool({"a": {"type": ["string", "null"]}}), {("type-widened", OK)}),
    ("type-changed", tool({"a": S}), tool({"a": INT}), {("type-changed", BC)}),
    ("number-to-integer", tool({"a": {"type": "number"}}), tool({"a": INT}), {("type-narrowed", BC)}),
    ("alias-is-not-a-change", tool({"a": {"type": "float"}}), tool({"a": {"type": "number"}}), set()),
    ("integer-to-number", tool({"a": INT}), tool({"a": {"type": "number"}}), {("type-widened", OK)}),
    ("type-added", tool({"a": {}}), tool({"a": S}), {("type-added", BC)}),
    ("type-removed", tool({"a": S}), tool({"a": {}}), {("type-removed", OK)}),
    ("enum-value-removed", tool({"a": {"type": "string", "enum": ["x", "y"]}}),
     tool({"a": {"type": "string", "enum": ["x"]}}), {("enum-value-removed", BC)}),
    ("enum-value-added", tool({"a": {"type": "string", "enum": ["x"]}}),
     tool({"a": {"type": "string", "enum": ["x", "y"]}}), {("enum-value-added", OK)}),
    ("enum-added", tool({"a": S}), tool({"a": {"type": "string", "enum": ["x"]}}), {("enum-added", BC)}),
    ("enum-removed", tool({"a": {"type": "string", "enum": ["x"]}}), tool({"a": S}), {("enum-removed", OK)}),
    ("const-added", tool({"a": S}), tool({"a": {"type": "string", "const": "x"}}), {("const-added", BC)}),
    ("const-changed", tool({"a": {"const": "x"}}), tool({"a": {"const": "y"}}), {("const-changed", BC)}),
    ("maximum-tightened", tool({"a": {"type": "integer", "maximum": 10}}),
     tool({"a": {"type": "integer", "maximum": 5}}), {("bound-tightened", BC)}),
    ("maximum-loosened", tool({"a": {"type": "integer", "maximum": 5}}),
     tool({"a": {"type": "integer", "maximum": 10}}), {("bound-loosened", OK)}),
    ("minimum-added", tool({"a": INT}), tool({"a": {"type": "integer", "minimum": 1}}), {("bound-added", BC)}),
    ("minimum-removed", tool({"a": {"type": "integer", "minimum": 1}}), tool({"a": INT}), {("bound-removed", OK)}),
    ("exclusive-minimum-tightened", tool({"a": {"type": "number", "exclusiveMinimum": 0}}),
     tool({"a": {"type": "number", "exclusiveMinimum": 1}}), {("bound-tightened", BC)}),
    ("max-length-tightened", tool({"a": {"type": "string", "maxLength": 100}}),
     tool({"a": {"type": "string", "maxLength": 10}}), {("bound-tightened", BC)}),
    ("min-length-loosened", tool({"a": {"type": "string", "minLength": 5}}),
     tool({"a": {"type": "string", "minLength": 1}}), {("bound-loosened", OK)}),
    ("max-items-tightened", tool({"a": ARR(S, maxItems=10)}), tool({"a": ARR(S, maxItems=3)}),
     {("bound-tightened", BC)}),
    ("min-items-added", tool({"a": ARR(S)}), tool({"a": ARR(S, minItems=1)}), {("bound-added", BC)}),
    ("multiple-of-added", tool({"a": INT}), tool({"a": {"type": "integer", "multipleOf": 5}}),
     {("multiple-of-added", BC)}),
    ("multiple-of-divisor", tool({"a": {"type": "integer", "multipleOf": 10}}),
     tool({"a": {"type": "integer", "multipleOf": 5}}), {("multiple-of-loosened", OK)}),
    ("pattern-added", tool({"a": S}), tool({"a": {"type": "string", "pattern": "^[a-z]+$"}}), {("pattern-added", BC)}),
    ("pattern-changed", tool({"a": {"type": "string", "pattern": "^[a-z]+$"}}),
     tool({"a": {"type": "string", "pattern": "^[a-z]{2}$"}}), {("pattern-changed", BC)}),
    ("pattern-removed", tool({"a": {"type": "string", "pattern": "^x"}}), tool({"a": S}), {("pattern-removed", OK)}),
    ("format-added", tool({"a": S}), tool({"a": {"type": "string", "format": "date"}}), {("format-added", BC)}),
    ("format-removed", tool({"a": {"type": "string", "format": "date"}}), tool({"a": S}), {("format-removed", OK)}),
    ("additional-properties-closed", tool({"a": S}), tool({"a": S}, closed=True),
     {("additional-properties-closed", BC)}),
    ("additional-properties-opened", tool({"a": S}, closed=True), tool({"a": S}),
     {("additional-properties-opened", OK)}),
    ("nested-object-required-added", tool({"o": OBJ({"x": S})}), tool({"o": OBJ({"x": S}, required=["x"])}),
     {("required-added", BC)}),
    ("nested-object-closed", tool({"o": OBJ({"x": S})}), tool({"o": OBJ({"x": S}, additionalProperties=False)}),
     {("additional-properties-closed", BC)}),
    ("array-of-objects-type-narrowed", tool({"l": ARR(OBJ({"x": {"type": ["string", "integer"]}}))}),
     tool({"l": ARR(OBJ({"x": S}))}), {("type-narrowed", BC)}),
    ("array-of-objects-enum-removed", tool({"l": ARR(OBJ({"k": {"enum": ["a", "b"]}}))}),
     tool({"l": ARR(OBJ({"k": {"enum": ["a"]}}))}), {("enum-value-removed", BC)}),
    ("items-added", tool({"l": {"type": "array"}}), tool({"l": ARR(S)}), {("items-added", BC)}),
    ("unique-items-added", tool({"l": ARR(S)}), tool({"l": ARR(S, uniqueItems=True)}), {("unique-items-added", BC)}),
    # branches of one type (objects told apart by what they require) stay branches; see test_diff_equivalence.py
    ("anyof-branch-removed", tool({"a": {"anyOf": [BY_X, BY_Y, BY_Z]}}), tool({"a": {"anyOf": [BY_X, BY_Y]}}),
     {("branch-removed", BC)}),
    ("anyof-branch-added", tool({"a": {"anyOf": [BY_X, BY_Y]}}), tool({"a": {"anyOf": [BY_X, BY_Y, BY_Z]}}),
     {("branch-added", OK)}),
    ("anyof-branch-narrowed", tool({"a": {"anyOf": [{"type": "string", "maxLength": 9}, INT]}}),
     tool({"a": {"anyOf": [{"type": "string", "maxLength": 3}, INT]}}), {("bound-tightened", BC)}),
    ("ref-target-narrowed", tool({"a": {"$ref": "#/$defs/A"}}, **{}) | {"inputSchema": {
        "type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"type": "string", "maxLength": 9}}}},
     tool() | {"inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                               "$defs": {"A": {"type": "string", "maxLength": 2}}}},
     {("bound-tightened", BC)}),
    ("ref-inlined-same-meaning", tool() | {"inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}},
                                                           "$defs": {"A": S}}},
     tool({"a": S}), set()),
    ("description-changed", tool({"a": {"type": "string", "description": "x"}}),
     tool({"a": {"type": "string", "description": "y"}}), {("description-changed", RISKY)}),
    ("default-changed", tool({"a": {"type": "integer", "default": 1}}), tool({"a": {"type": "integer", "default": 2}}),
     {("default-changed", RISKY)}),
    ("tool-description-changed", tool(), tool() | {"description": "Does another thing."},
     {("tool-description-changed", RISKY)}),
    ("tool-title-changed", tool(title="A"), tool(title="B"), {("tool-title-changed", RISKY)}),
    ("read-only-removed", tool(annotations={"readOnlyHint": True}), tool(annotations={"readOnlyHint": False}),
     {("read-only-removed", RISKY)}),
    ("annotation-changed", tool(annotations={"openWorldHint": True}), tool(annotations={"openWorldHint": False}),
     {("annotation-changed", RISKY)}),
    ("output-property-removed", tool(output=OBJ({"id": S, "n": INT})), tool(output=OBJ({"id": S})),
     {("property-removed", BR)}),
    ("output-type-changed", tool(output=OBJ({"id": S})), tool(output=OBJ({"id": INT})), {("type-changed", BR)}),
    ("output-type-narrowed", tool(output=OBJ({"id": {"type": ["string", "null"]}})), tool(output=OBJ({"id": S})),
     {("type-narrowed", OK)}),
    ("output-const-changed", tool(output=OBJ({"v": {"const": 1}})), tool(output=OBJ({"v": {"const": 2}})),
     {("const-changed", BR)}),
    ("output-type-widened", tool(output=OBJ({"id": S})), tool(output=OBJ({"id": {"type": ["string", "null"]}})),
     {("type-widened", BR)}),
    ("output-required-removed", tool(output=OBJ({"id": S}, required=["id"])), tool(output=OBJ({"id": S})),
     {("required-removed", BR)}),
    ("output-enum-value-added", tool(output=OBJ({"s": {"enum": ["ok"]}})),
     tool(output=OBJ({"s": {"enum": ["ok", "x"]}})), {("enum-value-added", BR)}),
    ("output-property-added", tool(output=OBJ({"id": S})), tool(output=OBJ({"id": S, "n": INT})),
     {("property-added", OK)}),
    ("output-schema-removed", tool(output=OBJ({"id": S})), tool(), {("output-schema-removed", BR)}),
    ("output-schema-added", tool(), tool(output=OBJ({"id": S})), {("output-schema-added", OK)}),
    ("error-code-removed", tool(errors=[{"code": "NOT_FOUND"}, {"code": "LIMIT"}]), tool(errors=[{"code": "LIMIT"}]),
     {("error-code-removed", BR)}),
    ("error-code-added", tool(errors=[{"code": "LIMIT"}]), tool(errors=[{"code": "LIMIT"}, {"code": "GONE"}]),
     {("error-code-added", OK)}),
]


@pytest.mark.parametrize("old, new, expected", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_change_kind_is_classified(old, new, expected):
    found = {(c.kind, c.impact) for c in diff(old, new).changes}
    assert found == expected


def test_there_are_at_least_forty_change_kinds():
    kinds = {kind for case in CASES for kind, _ in case[3]}
    assert len(CASES) >= 40 and len(kinds) >= 35


def test_tools_matched_by_name_then_by_id_across_renames():
    old = [dict(tool(), name="get_wx", **{"$id": "urn:wx"}), dict(tool(), name="gone")]
    new = [dict(tool(), name="get_weather", **{"$id": "urn:wx"}), dict(tool(), name="fresh")]
    found = {(c.kind, c.tool, c.impact) for c in diff(old, new).changes}
    assert found == {("tool-renamed", "get_weather", BC), ("tool-removed", "gone", BC), ("tool-added", "fresh", OK)}


def test_breaking_change_lists_the_examples_it_breaks():
    old = tool({"size": {"type": "string", "enum": ["s", "m", "l"]}, "qty": {"type": "integer", "maximum": 10}},
               examples={"valid": [{"size": "l", "qty": 1}, {"size": "s", "qty": 9}, {"size": "m", "qty": 1}]})
    new = tool({"size": {"type": "string", "enum": ["s", "m"]}, "qty": {"type": "integer", "maximum": 5}})
    breaks = {c.kind: c.breaks for c in diff(old, new).changes}
    assert breaks == {"enum-value-removed": ("examples.valid[0]",), "bound-tightened": ("examples.valid[1]",)}


def test_fixture_files_in_a_contracts_folder_are_evidence(tmp_path: Path):
    for side, maximum in (("old", 10), ("new", 5)):
        folder = tmp_path / side
        (folder / "tools").mkdir(parents=True)
        (folder / "tools" / "t.json").write_text(json.dumps(tool({"n": {"type": "integer", "maximum": maximum}})))
        (folder / "examples" / "t" / "valid").mkdir(parents=True)
        (folder / "examples" / "t" / "valid" / "big.json").write_text('{"n": 8}')
    (change,) = diff(tmp_path / "old", tmp_path / "new").changes
    assert change.kind == "bound-tightened" and change.breaks == ("examples/t/valid/big.json",)


def test_reference_cycles_terminate():
    schema = {"type": "object", "properties": {"node": {"$ref": "#/$defs/N"}},
              "$defs": {"N": {"type": "object", "properties": {"child": {"$ref": "#/$defs/N"}}}}}
    narrowed = copy.deepcopy(schema)
    narrowed["$defs"]["N"]["required"] = ["child"]
    changes = diff(tool() | {"inputSchema": schema}, tool() | {"inputSchema": narrowed}).changes
    assert [(c.kind, c.impact) for c in changes] == [("required-added", BC)]


def test_identical_versions_have_no_changes():
    same = tool({"a": S, "o": OBJ({"x": ARR(INT)})}, ["a"], closed=True, output=OBJ({"id": S}))
    assert diff(same, copy.deepcopy(same)).changes == []


def test_git_ref_side(tmp_path: Path):
    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    (tmp_path / "tools").mkdir()
    path = tmp_path / "tools" / "t.json"
    path.write_text(json.dumps(tool({"a": S})))
    git("add", ".")
    git("commit", "-qm", "v1")
    path.write_text(json.dumps(tool({"a": S}, ["a"])))
    import os

    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        report = diff("git:HEAD:tools/", "tools/")
        file_report = diff("git:HEAD:tools/t.json", str(path))
    finally:
        os.chdir(cwd)
    assert [(c.kind, c.impact) for c in report.changes] == [("required-added", BC)]
    assert [(c.kind, c.impact) for c in file_report.changes] == [("required-added", BC)]


def test_cli_diff_formats_and_exit_codes(tmp_path: Path):
    from click.testing import CliRunner

    from toolclause.cli.main import cli

    old, new = tmp_path / "old.json", tmp_path / "new.json"
    old.write_text(json.dumps(tool({"a": S})))
    new.write_text(json.dumps(tool({"a": S}, ["a"])))
    runner = CliRunner()
    text = runner.invoke(cli, ["diff", str(old), str(new)])
    assert text.exit_code == 1 and "breaking-calls" in text.output and "required-added" in text.output
    as_json = runner.invoke(cli, ["diff", str(old), str(new), "--format", "json"])
    assert json.loads(as_json.output)["summary"]["breaking-calls"] == 1
    markdown = runner.invoke(cli, ["diff", str(old), str(new), "--format", "markdown", "--fail-on", "never"])
    assert markdown.exit_code == 0 and "| breaking-calls | `t` | required-added |" in markdown.output
    assert runner.invoke(cli, ["diff", str(old), str(old), "--fail-on", "any"]).exit_code == 0
    desc = tmp_path / "desc.json"
    desc.write_text(json.dumps(tool({"a": S}) | {"description": "Another text."}))
    assert runner.invoke(cli, ["diff", str(old), str(desc)]).exit_code == 0
    assert runner.invoke(cli, ["diff", str(old), str(desc), "--fail-on", "any"]).exit_code == 1
    bad = runner.invoke(cli, ["diff", "git:no-such-ref:x.json", str(new)])
    assert bad.exit_code == 2 and "toolclause: error:" in bad.output
    missing = runner.invoke(cli, ["diff", str(tmp_path / "nope.json"), str(new)])
    assert missing.exit_code == 2


def test_an_unreadable_side_stops_the_diff_before_any_change_is_reported(tmp_path: Path):
    from click.testing import CliRunner

    from toolclause.cli.main import cli

    new = tmp_path / "new.json"
    new.write_text(json.dumps([tool({"a": S}), dict(tool(), name="u")]))
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{not json")
    for old in (tmp_path / "typo.json", garbled):
        for args in ([str(old), str(new)], [str(new), str(old)]):
            result = CliRunner().invoke(cli, ["diff", *args])
            assert result.exit_code == 2, result.output
            assert "tool-added" not in result.output and "tool-removed" not in result.output
            assert old.name in result.output


def test_git_paths_are_read_as_git_reads_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """`REF:path` is from the repository's root wherever diff runs; `REF:./path` is from the current folder."""
    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    git("init", "-q")
    git("config", "user.email", "t@example.com")
    git("config", "user.name", "t")
    (tmp_path / "tools" / "more").mkdir(parents=True)
    path = tmp_path / "tools" / "t.json"
    path.write_text(json.dumps(tool({"a": S})))
    git("add", ".")
    git("commit", "-qm", "v1")
    path.write_text(json.dumps(tool({"a": S}, ["a"])))
    monkeypatch.chdir(tmp_path / "tools" / "more")
    for spec in ("git:HEAD:tools/t.json", "git:HEAD:../t.json", "git:HEAD:tools/",
                 "git:HEAD:..", "git:HEAD:./../"):
        assert [c.kind for c in diff(spec, str(path)).changes] == ["required-added"], spec
    monkeypatch.chdir(tmp_path / "tools")
    assert [c.kind for c in diff("git:HEAD:./t.json", "t.json").changes] == ["required-added"]
    for wrong in ("git:HEAD:t.json", "git:HEAD:../../t.json"):
        with pytest.raises(DiffInputError):
            diff(wrong, "t.json")


def test_a_gemini_file_and_its_json_schema_twin_are_compared_by_what_they_mean(tmp_path: Path):
    gemini = {"name": "set_owner", "description": "Sets or clears the owner of one ticket and returns it.",
              "parameters": {"type": "OBJECT", "properties": {
                  "ticket": {"type": "STRING"}, "owner": {"type": "STRING", "nullable": True},
                  "level": {"type": "STRING", "enum": ["low", "high"], "nullable": True},
                  "tags": {"type": "ARRAY", "items": {"type": "STRING"}}}, "required": ["ticket"]}}
    twin = {"name": "set_owner", "description": gemini["description"],
            "inputSchema": {"type": "object", "properties": {
                "ticket": {"type": "string"}, "owner": {"type": ["string", "null"]},
                "level": {"type": ["string", "null"], "enum": ["low", "high", None]},  # Gemini's nullable enum
                "tags": {"type": "array", "items": {"type": "string"}}}, "required": ["ticket"]}}
    (tmp_path / "gemini.json").write_text(json.dumps([{"functionDeclarations": [gemini]}]))
    (tmp_path / "mcp.json").write_text(json.dumps({"tools": [twin]}))
    assert diff(str(tmp_path / "gemini.json"), str(tmp_path / "mcp.json")).changes == []
    assert diff(str(tmp_path / "mcp.json"), str(tmp_path / "gemini.json")).changes == []
    narrowed = copy.deepcopy(gemini)
    narrowed["parameters"]["properties"]["owner"] = {"type": "STRING"}  # null no longer accepted
    (tmp_path / "narrowed.json").write_text(json.dumps([{"functionDeclarations": [narrowed]}]))
    changes = diff(str(tmp_path / "mcp.json"), str(tmp_path / "narrowed.json")).changes
    assert [c.impact for c in changes] == [BC] and changes[0].new_pointer == "/inputSchema/properties/owner/type"
