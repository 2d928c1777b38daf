"""Exporting a contracts folder to structured-output: handoff and state schemas, not fixtures or tools; a
schema that refers to another by `$id` goes out with a copy of it under `$defs`; findings name the file."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema_rs
import pytest
from click.testing import CliRunner

from test_export_honest import strict_problems
from toolclause.cli.main import cli
from toolclause.exporting import export
from toolclause.exporting.bundling import bundle_schema
from toolclause.model import Origin, SchemaDocument
from toolclause.workflow.scaffold import project_files

HANDOFF_ID = "urn:example:handoff:triage_to_billing"
STATE = "contracts/state/refund_flow.json"
HANDOFF = "contracts/handoffs/triage_to_billing.json"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A new project as `toolclause init` writes it, the working folder."""
    for relative, text in project_files():
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(cli, ["export", *args, "--target", "structured-output"])


def _edit(path: Path, change) -> None:
    schema = json.loads(path.read_text())
    change(schema)
    path.write_text(json.dumps(schema, indent=2))


def _sample_state(project: Path) -> dict:
    return json.loads((project / STATE).read_text())["examples"][0]


# --------------------------------------------------------------------------- a state schema that names a handoff by $id

@pytest.mark.parametrize("paths", [("contracts/state",), ("contracts/state", "contracts/handoffs"), (STATE,)])
def test_a_state_schema_that_refers_to_a_handoff_by_id_exports_with_the_handoff_under_defs(project, paths):
    done = run(*paths, "--strict")
    assert done.exit_code == 0, done.output
    schema = json.loads(done.stdout)["refund_flow"]["openai"]["json_schema"]["schema"]
    assert schema["properties"]["handoff"] == {"$ref": "#/$defs/triage_to_billing"}
    handoff = schema["$defs"]["triage_to_billing"]
    assert set(handoff["properties"]) == {"intent", "confidence", "order_id", "summary"} and "$id" not in handoff
    assert strict_problems(schema) == []
    # self-contained: it compiles with nothing to fetch, and the project's own sample satisfies it
    assert jsonschema_rs.validator_for(schema).is_valid(_sample_state(project))


def test_the_anthropic_format_inlines_the_handoff(project):
    done = run("contracts/state", "--strict")
    schema = json.loads(done.stdout)["refund_flow"]["anthropic"]["format"]["schema"]
    assert "$defs" not in schema and "urn:" not in json.dumps(schema)
    assert schema["properties"]["handoff"]["properties"]["intent"]["enum"] == ["refund", "invoice_question"]


def test_the_python_api_bundles_the_same_way(project):
    result = export(project / "contracts" / "state", "structured-output", strict=True)
    schema = result.payload["refund_flow"]["openai"]["json_schema"]["schema"]
    assert schema["properties"]["handoff"] == {"$ref": "#/$defs/triage_to_billing"}
    assert not [loss for loss in result.losses if loss.code == "external-ref"]


def test_a_ref_to_an_id_no_schema_of_the_project_has_is_refused_naming_the_file_and_pointer(project):
    _edit(project / STATE, lambda s: s["properties"]["handoff"].update({"$ref": "urn:example:handoff:nowhere"}))
    done = run("contracts/state", "--strict")
    assert done.exit_code == 1
    assert "<memory>" not in done.stderr
    line = next(n for n, text in enumerate((project / STATE).read_text().splitlines(), 1) if "nowhere" in text)
    assert f"{STATE}:{line}" in done.stderr and "S005" in done.stderr and "/properties/handoff/$ref" in done.stderr


def test_a_ref_to_a_misspelt_id_is_refused_with_the_id_meant(project):
    _edit(project / STATE, lambda s: s["properties"]["handoff"].update({"$ref": HANDOFF_ID[:-2]}))
    done = run("contracts/state")
    assert done.exit_code == 1 and f"did you mean '{HANDOFF_ID}'?" in done.stderr


def test_a_handoff_without_id_is_refused_naming_its_file(project):
    _edit(project / HANDOFF, lambda s: s.pop("$id"))
    done = run("contracts/")
    assert done.exit_code == 2 and HANDOFF in done.stderr and "needs a string $id" in done.stderr


def test_lint_errors_of_a_handoff_the_state_carries_name_the_handoff_file(project):
    _edit(project / HANDOFF, lambda s: s["required"].append("custmer"))
    done = run("contracts/state")
    assert done.exit_code == 1 and "S003" in done.stderr
    assert HANDOFF in done.stderr and "<memory>" not in done.stderr


# --------------------------------------------------------------------------- a whole contracts folder

def test_exporting_a_contracts_folder_exports_its_handoffs_and_state_and_leaves_fixtures_and_tools(project):
    done = run("contracts/")
    assert done.exit_code == 0, done.output
    assert "S004" not in done.stderr and "<memory>" not in done.stderr
    assert set(json.loads(done.stdout)) == {"triage_to_billing", "refund_flow"}


def test_lint_of_the_same_folder_reads_the_fixtures_as_fixtures(project):
    done = CliRunner().invoke(cli, ["lint", "contracts/"])
    assert done.exit_code == 0 and "1 tool" in done.stdout


def test_a_fixture_named_on_its_own_is_refused_with_what_to_export_instead(project):
    done = run("contracts/examples/get_order_status/invalid/bad_id.json")
    assert done.exit_code == 2
    assert "bad_id.json" in done.stderr and "fixture" in done.stderr


# --------------------------------------------------------------------------- bundling itself

def _document(name: str, schema: dict) -> SchemaDocument:
    origin = Origin(file=f"{name}.json", format="handoff")
    return SchemaDocument("handoff", name, schema, schema.get("$id"), None, origin)


def test_bundling_moves_the_copys_own_refs_and_keeps_names_apart():
    handoff = _document("customer", {"$id": "urn:x:customer", "type": "object",
                                     "properties": {"address": {"$ref": "#/$defs/address"},
                                                    "me": {"$ref": "urn:x:customer#/properties/address"}},
                                     "$defs": {"address": {"type": "string"}}})
    state = _document("state", {"$id": "urn:x:state", "type": "object",
                                "properties": {"who": {"$ref": "urn:x:customer"},
                                               "where": {"$ref": "urn:x:customer#/properties/address"},
                                               "again": {"$ref": "urn:x:state#/properties/who"}},
                                "$defs": {"customer": {"type": "integer"}}})
    schema, copied = bundle_schema(state, {"urn:x:customer": handoff, "urn:x:state": state})
    assert copied == [handoff]
    assert schema["properties"] == {"who": {"$ref": "#/$defs/customer_2"},
                                    "where": {"$ref": "#/$defs/customer_2/properties/address"},
                                    "again": {"$ref": "#/properties/who"}}
    copy = schema["$defs"]["customer_2"]
    assert "$id" not in copy and schema["$defs"]["customer"] == {"type": "integer"}
    assert copy["properties"] == {"address": {"$ref": "#/$defs/customer_2/$defs/address"},
                                  "me": {"$ref": "#/$defs/customer_2/properties/address"}}
    assert jsonschema_rs.validator_for(schema).is_valid({"who": {"address": "x", "me": "y"}, "where": "z"})
    assert state.schema["properties"]["who"] == {"$ref": "urn:x:customer"}  # the document is never changed


def test_bundling_leaves_data_and_unknown_ids_alone():
    state = _document("state", {"type": "object", "properties": {"a": {"$ref": "urn:x:unknown"},
                                                                 "b": {"const": {"$ref": "urn:x:customer"}}}})
    other = _document("customer", {"$id": "urn:x:customer", "type": "string"})
    schema, copied = bundle_schema(state, {"urn:x:customer": other})
    assert copied == [] and schema == state.schema


def test_a_schema_file_too_large_or_of_no_schema_is_refused_naming_it(project, monkeypatch):
    from toolclause.loading import files

    with monkeypatch.context() as patched:
        patched.setattr(files, "MAX_DOCUMENT_BYTES", 64)  # the loader's limit (32 MiB), made small
        done = run(STATE)
    assert done.exit_code == 2 and STATE in done.stderr and "MiB are not read" in done.stderr
    (project / HANDOFF).write_text("[1]")
    done = run("contracts/handoffs")
    assert done.exit_code == 2 and HANDOFF in done.stderr and "not list" in done.stderr


def test_a_named_pipe_is_refused_as_the_loader_refuses_it_not_read_until_it_blocks(project):
    import os

    pipe = project / "contracts" / "state" / "pipe.json"
    os.mkfifo(pipe)
    done = run("contracts/state/pipe.json")
    assert done.exit_code == 2 and "a named pipe, not a regular file" in done.stderr
