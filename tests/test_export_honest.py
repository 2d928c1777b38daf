"""Export never ships what the target rejects and never changes meaning silently: strict projections the
target accepts, every change a reported loss, maps kept as {key, value} pairs, lint errors refused."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema_rs
import pytest
from click.testing import CliRunner

from toolclause.cli.main import cli
from toolclause.exporting import export, to_canonical_arguments, to_strict_arguments
from toolclause.targets import OPENAI_STRICT_KEYWORDS

USER = {"name": "update_user", "description": "Updates one user's email, tags and labels; returns the user.",
        "inputSchema": {"type": "object", "additionalProperties": False,
                        "properties": {"email": {"type": "string", "description": "The new email address."},
                                       "tags": {"type": "array", "description": "Tags to set."},
                                       "labels": {"type": "object", "description": "Labels by name.",
                                                  "additionalProperties": {"type": "string"}, "maxProperties": 5}},
                        "required": ["emial"]}}


def _parameters(result):
    return result.payload[0]["function"]["parameters"]


def strict_problems(schema, pointer=""):
    """An independent check of OpenAI's strict subset: closed objects with properties, every property
    required, items on every array, only the keywords strict mode takes."""
    if not isinstance(schema, dict):
        return [f"{pointer}: not a schema"]
    problems = [f"{pointer}: keyword {k}" for k in schema if k not in OPENAI_STRICT_KEYWORDS]
    types = schema.get("type")
    types = [types] if isinstance(types, str) else types or []
    if "object" in types:
        if schema.get("additionalProperties") is not False or not isinstance(schema.get("properties"), dict):
            problems.append(f"{pointer}: open object")
        elif sorted(schema.get("required") or []) != sorted(schema["properties"]):
            problems.append(f"{pointer}: required {schema.get('required')} is not every property")
        for name, sub in (schema.get("properties") or {}).items():
            problems += strict_problems(sub, f"{pointer}/properties/{name}")
    if "array" in types:
        if not isinstance(schema.get("items"), dict):
            problems.append(f"{pointer}: array without items")
        else:
            problems += strict_problems(schema["items"], f"{pointer}/items")
    if not types and not any(k in schema for k in ("anyOf", "$ref", "enum", "const")):
        problems.append(f"{pointer}: no type")
    for i, branch in enumerate(schema.get("anyOf") or []):
        problems += strict_problems(branch, f"{pointer}/anyOf/{i}")
    for name, sub in (schema.get("$defs") or {}).items():
        problems += strict_problems(sub, f"{pointer}/$defs/{name}")
    return problems


# --------------------------------------------------------------------------- structured-output from the CLI

def test_structured_output_strict_from_the_cli(tmp_path: Path):
    (tmp_path / "handoff.json").write_text(json.dumps({"type": "object", "properties": {"ticket": {"type": "string"}}}))
    for source in (tmp_path, tmp_path / "handoff.json"):
        run = CliRunner().invoke(cli, ["export", str(source), "--target", "structured-output", "--strict"])
        assert run.exit_code == 0, run.output
        schema = json.loads(run.stdout)["handoff"]["openai"]["json_schema"]["schema"]
        assert schema["required"] == ["ticket"] and strict_problems(schema) == []


# --------------------------------------------------------------------------- strict: accepted, every change reported

def test_a_required_name_that_is_no_property_is_reported_not_dropped_silently():
    result = export(USER, "openai-chat", strict=True)
    (loss,) = [candidate for candidate in result.losses if candidate.code == "required-not-a-property"]
    assert loss.pointer == "/inputSchema/required/0" and "'emial'" in loss.lost and "'email'" in loss.lost
    assert _parameters(result)["properties"]["email"]["type"] == ["string", "null"]  # still optional, and said so
    anthropic = export(USER, "anthropic", strict=True)
    assert "emial" not in anthropic.payload[0]["input_schema"].get("required", [])
    assert any(loss.code == "required-not-a-property" for loss in anthropic.losses)


def test_required_follows_a_renamed_property():
    tool = {"name": "t", "description": "Sets a header value on the next request; returns nothing.",
            "inputSchema": {"type": "object", "properties": {"Content Type": {"type": "string"}},
                            "required": ["Content Type"]}}
    for strict in (False, True):
        schema = export(tool, "anthropic", strict=strict).payload[0]["input_schema"]
        assert schema["required"] == list(schema["properties"]) != ["Content Type"]


def test_an_array_without_items_gets_items_the_target_accepts():
    strict = export(USER, "openai-chat", strict=True)
    tags = _parameters(strict)["properties"]["tags"]
    assert tags["type"] == ["array", "null"] and {"type": "string"} in tags["items"]["anyOf"]
    assert any(loss.pointer == "/inputSchema/properties/tags/items" and loss.code == "any-value-narrowed"
               for loss in strict.losses)
    plain = export(USER, "openai-chat")
    assert _parameters(plain)["properties"]["tags"]["items"] == {}  # any element, as before: nothing lost
    assert not any(loss.pointer.startswith("/inputSchema/properties/tags") for loss in plain.losses)


def test_a_map_goes_out_as_key_value_pairs_and_comes_back_as_the_map():
    result = export(USER, "openai-chat", strict=True)
    parameters = _parameters(result)
    labels = parameters["properties"]["labels"]
    assert labels["type"] == ["array", "null"] and labels["maxItems"] == 5
    assert labels["items"]["properties"]["value"] == {"type": "string"}
    assert not any("labels" in loss.pointer for loss in result.losses)
    assert strict_problems(parameters) == []
    canonical = {"email": "a@example.com", "labels": {"team": "core", "tier": "gold"}}
    sent = to_strict_arguments(canonical, parameters)
    assert sent["labels"] == [{"key": "team", "value": "core"}, {"key": "tier", "value": "gold"}]
    jsonschema_rs.validator_for(parameters).validate(sent)
    assert to_canonical_arguments(sent, USER["inputSchema"]) == canonical


def test_map_values_are_walked_back_too():
    schema = {"type": "object", "properties": {"people": {"type": "object", "additionalProperties": {
        "type": "object", "properties": {"age": {"type": "integer"}, "nick": {"type": "string"}}}}}}
    tool = {"name": "t", "description": "Stores people by id and returns how many were stored.", "inputSchema": schema}
    parameters = _parameters(export(tool, "openai-chat", strict=True))
    assert strict_problems(parameters) == []
    canonical = {"people": {"ann": {"age": 3}}}
    sent = to_strict_arguments(canonical, parameters)
    assert sent == {"people": [{"key": "ann", "value": {"age": 3, "nick": None}}]}
    jsonschema_rs.validator_for(parameters).validate(sent)
    assert to_canonical_arguments(sent, schema) == canonical


def test_a_list_that_is_not_pairs_is_left_as_sent():
    schema = {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}
    assert to_canonical_arguments({"m": [1, 2]}, schema) == {"m": [1, 2]}
    assert to_canonical_arguments({"m": [{"key": 1, "value": "x"}]}, schema) == {"m": [{"key": 1, "value": "x"}]}


def test_the_strict_projection_passes_the_independent_check():
    tool = {**USER, "inputSchema": {k: v for k, v in USER["inputSchema"].items() if k != "required"}}
    assert strict_problems(_parameters(export(tool, "openai-chat", strict=True))) == []
    assert strict_problems(_parameters(export(USER, "openai-chat", strict=True))) == []


def test_an_unreadable_jsonl_line_is_named_by_its_number(tmp_path: Path):
    (tmp_path / "t.jsonl").write_text('{"name": "a", "inputSchema": {"type": "object"}}\n{bad\n')
    run = CliRunner().invoke(cli, ["export", str(tmp_path / "t.jsonl"), "--target", "mcp"])
    assert run.exit_code == 2 and f"{tmp_path / 't.jsonl'}:2" in run.output


CORPORA = Path(__file__).resolve().parents[1].parent / "shared" / "corpora"


@pytest.mark.skipif(not CORPORA.exists(), reason="../shared/corpora is absent")
def test_every_strict_openai_tool_of_the_corpus_passes_the_independent_check():
    from toolclause.exporting import with_fixed_types
    from toolclause.loading import load_paths

    tools = [with_fixed_types(t) for t in load_paths(sorted(str(p) for p in CORPORA.glob("*/tools.jsonl"))).tools]
    problems = [f"{tool['function']['name']}{problem}" for tool in export(tools, "openai-chat", True).payload
                for problem in strict_problems(tool["function"]["parameters"])]
    assert len(tools) > 1000 and problems == []


# --------------------------------------------------------------------------- tools lint calls errors are refused

def _write(folder: Path, tools) -> Path:
    path = folder / "tools.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    return path


def test_tools_with_lint_errors_are_refused_unless_allowed(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    source = _write(tmp_path, [USER])
    refused = CliRunner().invoke(cli, ["export", str(source), "--target", "openai-chat", "--strict",
                                       "-o", str(tmp_path / "out.json")])
    assert refused.exit_code == 1 and refused.stdout == "" and not (tmp_path / "out.json").exists()
    assert "refused: lint reports 1 error(s) in 1 tool(s)" in refused.stderr
    assert "update_user  S003" in refused.stderr and "--allow-lint-errors" in refused.stderr
    shipped = CliRunner().invoke(cli, ["export", str(source), "--target", "openai-chat", "--strict",
                                       "--allow-lint-errors"])
    assert shipped.exit_code == 0 and json.loads(shipped.stdout)[0]["function"]["name"] == "update_user"
    assert "'emial' is required but is not a property" in shipped.stderr
    (tmp_path / "toolclause.toml").write_text('ignore = ["S003"]\n', encoding="utf-8")  # the project's own choice
    assert CliRunner().invoke(cli, ["export", str(source), "--target", "openai-chat", "--strict"]).exit_code == 0


def test_a_refusal_lists_the_first_findings_and_counts_the_rest(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tools = [{"name": f"get_{i}", "description": "Reads one record by its id and returns it whole.",
              "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["idd"]}}
             for i in range(12)] + [{"name": "get_0", "description": "Reads one record by its id and returns it.",
                                     "inputSchema": {"type": "object", "properties": {}}}]
    refused = CliRunner().invoke(cli, ["export", str(_write(tmp_path, tools)), "--target", "mcp"])
    lines = refused.stderr.splitlines()
    assert refused.exit_code == 1 and "13 error(s) in 12 tool(s)" in lines[0]
    assert len([line for line in lines if "  S003  " in line]) == 10
    assert lines[-1] == "  and 3 more: S003 ×2, S011 ×1"


def test_names_the_export_maps_itself_are_not_refused(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tool = {"name": "math.factorial", "description": "Computes n factorial and returns it as an integer.",
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}
    run = CliRunner().invoke(cli, ["export", str(_write(tmp_path, [tool])), "--target", "openai-chat"])
    assert run.exit_code == 0 and "math_factorial" in run.stdout


def test_structured_output_schemas_are_held_to_the_schema_rules(tmp_path: Path):
    (tmp_path / "handoff.json").write_text(json.dumps({"type": "object", "properties": {"a": {"type": "string"}},
                                                       "required": ["b"]}))
    run = CliRunner().invoke(cli, ["export", str(tmp_path), "--target", "structured-output"])
    assert run.exit_code == 1 and "S003" in run.stderr and "D001" not in run.stderr


# --------------------------------------------------------------------------- one shape; no flag passes silently

def test_the_output_has_one_shape_whatever_was_renamed(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    plain = {"name": "get_weather", "description": "Returns the current weather of one city by name.",
             "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    dotted = {**plain, "name": "weather.get"}
    shapes = []
    for tools in ([plain], [dotted]):
        out = tmp_path / "out.json"
        args = ["export", str(_write(tmp_path, tools)), "--target", "openai-chat", "-o", str(out)]
        run = CliRunner().invoke(cli, args)
        assert run.exit_code == 0, run.output
        shapes.append(type(json.loads(out.read_text())).__name__)
        stdout = CliRunner().invoke(cli, ["export", str(tmp_path / "tools.json"), "--target", "openai-chat"]).stdout
        assert json.loads(stdout) == json.loads(out.read_text())
    assert shapes == ["list", "list"]
    assert json.loads((tmp_path / "out.names.json").read_text()) == {"nameMap": {"weather_get": "weather.get"}}
    check = CliRunner().invoke(cli, ["export", str(tmp_path / "tools.json"), "--target", "openai-chat", "-o",
                                     str(tmp_path / "out.json"), "--check"])
    assert check.exit_code == 0, check.output
    (tmp_path / "out.names.json").unlink()
    drift = CliRunner().invoke(cli, ["export", str(tmp_path / "tools.json"), "--target", "openai-chat", "-o",
                                     str(tmp_path / "out.json"), "--check"])
    assert drift.exit_code == 1  # the map is part of the export


@pytest.mark.parametrize("args,said", [
    (["--target", "gemini", "--strict"], "--strict changes nothing for gemini"),
    (["--target", "mcp", "--strict"], "--strict changes nothing for mcp"),
    (["--target", "openai-chat", "--gemini-schema", "openapi"], "--gemini-schema is for --target gemini"),
    (["--target", "anthropic", "--mcp-shape", "list"], "--mcp-shape is for --target mcp"),
    (["--target", "a2a"], "give the agent's address with --set url="),
])
def test_a_flag_that_changes_nothing_is_a_warning(tmp_path: Path, monkeypatch, args, said):
    monkeypatch.chdir(tmp_path)
    tool = {"name": "get_weather", "description": "Returns the current weather of one city by name.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    run = CliRunner().invoke(cli, ["export", str(_write(tmp_path, [tool])), *args])
    assert run.exit_code == 0 and "warning: " in run.stderr and said in run.stderr
    quiet = CliRunner().invoke(cli, ["export", str(tmp_path / "tools.json"), "--target", "a2a", "--set", "url=https://x.example/a2a"])
    assert "warning" not in quiet.stderr


@pytest.mark.parametrize("args,said", [
    (["--target", "openai-chat", "--set", "url=https://x"], "openai-chat takes no setting 'url' (it has no settings)"),
    (["--target", "a2a", "--set", "nmae=shop"], "a2a takes no setting 'nmae' (its settings: name,"),
    (["--target", "gemini", "--set", "shape=list"], "gemini takes no setting 'shape' (its settings: schema)"),
])
def test_a_setting_the_target_does_not_read_is_a_usage_error(tmp_path: Path, monkeypatch, args, said):
    monkeypatch.chdir(tmp_path)
    tool = {"name": "get_weather", "description": "Returns the current weather of one city by name.",
            "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}
    run = CliRunner().invoke(cli, ["export", str(_write(tmp_path, [tool])), *args])
    assert run.exit_code == 2 and said in run.stderr and run.stdout == ""
    with pytest.raises(ValueError, match="takes no setting"):
        export(tool, args[1], settings={args[3].split("=")[0]: "x"})


def test_moved_constraints_are_written_as_words():
    tool = {"name": "search", "description": "Searches the catalogue by text and returns matching items.",
            "inputSchema": {"type": "object", "additionalProperties": False, "properties": {
                "q": {"type": "string", "description": "Text to look for", "minLength": 1, "maxLength": 64},
                "band": {"type": "string", "description": "Price band.", "default": None},
                "page": {"type": "integer", "minimum": 1}}}}
    properties = _parameters(export(tool, "openai-chat", strict=True))["properties"]
    assert properties["q"]["description"] == "Text to look for. At least 1 character; at most 64 characters."
    assert properties["band"]["description"] == "Price band. Defaults to null."
    openapi = export(tool, "gemini", settings={"schema": "openapi"}).payload[0]["functionDeclarations"][0]["parameters"]
    assert openapi["description"] == "No properties besides those listed."
    assert "{" not in json.dumps([p.get("description", "") for p in openapi["properties"].values()])


def test_gemini_capitalised_types_are_read_as_the_gemini_format_they_are(tmp_path: Path):
    declaration = {"name": "set_owner", "description": "Sets or clears the owner of one ticket and returns it.",
                   "parameters": {"type": "OBJECT", "properties": {
                       "ticket": {"type": "STRING"}, "owner": {"type": "STRING", "nullable": True},
                       "tags": {"type": "ARRAY", "items": {"type": "STRING"}}}, "required": ["ticket"]}}
    source = tmp_path / "gemini.json"
    source.write_text(json.dumps([{"functionDeclarations": [declaration]}]))
    mcp = export(str(source), "mcp")
    assert mcp.losses == []
    schema = mcp.payload[0]["inputSchema"]
    assert schema["type"] == "object" and schema["properties"]["ticket"] == {"type": "string"}
    assert schema["properties"]["owner"] == {"type": ["string", "null"]}
    strict = export(str(source), "openai-chat", strict=True)
    assert strict.losses == [] and _parameters(strict)["properties"]["ticket"] == {"type": "string"}
    json_schema = {**declaration, "parameters": None, "parametersJsonSchema": {"type": "object", "properties": {
        "kind": {"type": "STRING"}}}}
    source.write_text(json.dumps([{"functionDeclarations": [json_schema]}]))
    assert any(loss.code == "unknown-type-dropped" for loss in export(str(source), "mcp").losses)  # not Gemini's Schema


# --------------------------------------------------------------------------- null with a meaning of its own

TICKET = {"name": "update_ticket", "description": "Updates the fields of one ticket that are given and returns it.",
          "inputSchema": {"type": "object", "additionalProperties": False, "required": ["id"], "properties": {
              "id": {"type": "string", "description": "The ticket id."},
              "owner": {"type": ["string", "null"], "description": "The new owner; pass null to clear the owner."},
              "due": {"type": ["string", "null"], "description": "The new due date; null removes it."},
              "title": {"type": "string", "description": "The new title."}}}}


def test_a_null_that_means_clear_stays_apart_from_not_given():
    result = export(TICKET, "openai-chat", strict=True)
    parameters = _parameters(result)
    owner = parameters["properties"]["owner"]
    assert owner["anyOf"][1] == {"type": "null"} and owner["anyOf"][0]["required"] == ["set"]
    assert strict_problems(parameters) == [] and result.losses == []
    only_title = to_strict_arguments({"id": "T1", "title": "Renamed"}, parameters)
    assert only_title == {"id": "T1", "title": "Renamed", "owner": None, "due": None}
    jsonschema_rs.validator_for(parameters).validate(only_title)
    assert to_canonical_arguments(only_title, TICKET["inputSchema"]) == {"id": "T1", "title": "Renamed"}
    clear = to_strict_arguments({"id": "T1", "owner": None}, parameters)
    assert clear["owner"] == {"set": None}
    assert to_canonical_arguments(clear, TICKET["inputSchema"]) == {"id": "T1", "owner": None}


def test_a_strict_call_changing_one_field_does_not_clear_the_others(tmp_path: Path):
    from toolclause import Toolbox

    received = []
    contract = tmp_path / "update_ticket.json"
    contract.write_text(json.dumps(TICKET), encoding="utf-8")
    box = Toolbox(store="memory://", lint="warn")
    box.add(str(contract), lambda **arguments: received.append(arguments) or {"id": arguments["id"]})
    (spec,) = box.tool_specs("openai-chat", strict=True)
    # what a model under the strict export sends to change the title only (its calls come by the strict route)
    result = box.call(spec.name, '{"id": "T1", "title": "Renamed", "owner": null, "due": null}',
                      routing=spec.routing)
    assert result.error is None and received == [{"id": "T1", "title": "Renamed"}]
    box.call(spec.name, '{"id": "T1", "title": null, "owner": {"set": null}, "due": null}', routing=spec.routing)
    assert received[-1] == {"id": "T1", "owner": None}
    # a caller that read the canonical schema (an MCP client) clears the owner with null: that null is kept
    box.call("update_ticket", '{"id": "T1", "owner": null}')
    assert received[-1] == {"id": "T1", "owner": None}
    box.call("update_ticket", '{"id": "T1", "title": "Renamed again"}')
    assert received[-1] == {"id": "T1", "title": "Renamed again"}


def test_a_null_meaning_that_cannot_be_kept_apart_is_a_loss():
    tool = {**TICKET, "inputSchema": {"type": "object", "properties": {
        "filter": {"description": "Filter to apply; null clears the saved filter."}}}}
    result = export(tool, "openai-chat", strict=True)
    assert [(loss.code, loss.pointer) for loss in result.losses if loss.code == "null-meaning-merged"] == \
        [("null-meaning-merged", "/inputSchema/properties/filter")]


def test_more_declarations_than_one_gemini_request_takes_is_a_loss():
    tools = [{"name": f"get_{i}", "description": "Reads one record by its id and returns it whole.",
              "inputSchema": {"type": "object", "properties": {}}} for i in range(513)]
    (loss,) = export(tools, "gemini").losses
    assert loss.code == "too-many-declarations" and loss.tool == "get_512"
    assert export(tools[:512], "gemini").losses == []
