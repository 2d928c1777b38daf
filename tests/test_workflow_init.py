"""`toolclause init`: a project that passes lint, test and export --check at once, written without overwriting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from toolclause.cli.main import cli


def load_yaml(path: Path) -> dict:
    return YAML(typ="safe").load(path.read_text())


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "shop"
    code, out, _ = run("init", str(root))
    assert code == 0, out
    monkeypatch.chdir(root)
    return root


def test_init_says_what_it_wrote_and_the_project_passes_lint_test_and_export_check(tmp_path: Path):
    root = tmp_path / "shop"
    code, out, err = run("init", str(root))
    assert code == 0
    written = sorted(line.split(maxsplit=1)[1] for line in out.splitlines() if line.startswith("wrote "))
    assert written == sorted(str(root / p) for p in [
        "contracts/tools/get_order_status.json", "contracts/handoffs/triage_to_billing.json",
        "contracts/state/refund_flow.json", "contracts/examples/get_order_status/valid/with_items.json",
        "contracts/examples/get_order_status/invalid/bad_id.json",
        "contracts/examples/triage_to_billing/invalid/too_sure.json", ".github/workflows/toolclause.yml",
        ".pre-commit-config.yaml", "toolclause.toml", "build/openai-chat-strict.json"])
    assert all((root / Path(p).relative_to(root)).is_file() for p in written)
    assert "10 file(s) written, 0 kept" in err


def test_the_new_project_is_clean(project: Path):
    code, out, _ = run("lint", "contracts/", "--select", "ALL", "--fail-on", "info")
    assert code == 0, out
    code, out, _ = run("test", "contracts/")
    assert code == 0 and "9 passed, 0 failed" in out, out
    code, out, err = run("export", "contracts/", "--target", "openai-chat", "--strict", "-o", "build/", "--check")
    assert code == 0, out + err


def test_init_never_overwrites_and_says_what_it_kept(project: Path):
    tool = project / "contracts" / "tools" / "get_order_status.json"
    tool.write_text(tool.read_text().replace("Look up", "Find"))
    (project / ".pre-commit-config.yaml").write_text("repos: []\n")
    before = {p: p.read_bytes() for p in project.rglob("*") if p.is_file()}
    code, out, err = run("init", ".")
    assert code == 0
    assert not [line for line in out.splitlines() if line.startswith("wrote")]
    assert "kept  .pre-commit-config.yaml (already there)" in out
    assert {p: p.read_bytes() for p in project.rglob("*") if p.is_file()} == before
    assert "0 file(s) written, 10 kept" in err


def test_a_project_configured_in_pyproject_gets_no_toolclause_toml(tmp_path: Path):
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.toolclause]\nignore = ["D009"]\n')
    code, out, _ = run("init", str(tmp_path))
    assert code == 0 and not (tmp_path / "toolclause.toml").exists()
    assert f"kept  {tmp_path / 'pyproject.toml'} (already there)" in out


def test_a_broken_fixture_in_the_new_project_fails_precisely(project: Path):
    fixture = project / "contracts" / "examples" / "get_order_status" / "valid" / "with_items.json"
    fixture.write_text('{\n  "order_id": "ord_8F2K",\n  "include_items": "yes"\n}\n')
    code, out, _ = run("test", "contracts/")
    assert code == 1
    assert "contracts/examples/get_order_status/valid/with_items.json F" in out
    assert "    /include_items (line 3): 'include_items' must be boolean" in out
    assert out.splitlines()[-1].strip("= ").startswith("8 passed, 1 failed")


def test_the_workflow_runs_every_check_and_is_a_valid_github_workflow(project: Path):
    workflow = load_yaml(project / ".github" / "workflows" / "toolclause.yml")
    steps = workflow["jobs"]["contracts"]["steps"]
    runs = [s.get("run", "") for s in steps]
    uses = [s.get("uses", "") for s in steps]
    assert any(r.startswith("toolclause lint contracts/ --format sarif -o toolclause.sarif") for r in runs)
    assert any(u.startswith("github/codeql-action/upload-sarif") for u in uses)
    assert "toolclause export contracts/ --target openai-chat --strict -o build/ --check" in runs
    assert any("toolclause diff \"git:origin/${{ github.base_ref }}:contracts/\" contracts/ --fail-on breaking" in r
               for r in runs)
    assert any(r.startswith("toolclause test contracts/") for r in runs)
    assert workflow["jobs"]["contracts"]["permissions"]["security-events"] == "write"
    # GitHub's own schema for workflow files (SchemaStore's, as check-jsonschema ships it), when installed
    check_jsonschema = pytest.importorskip("check_jsonschema")
    import jsonschema_rs

    schema_file = Path(check_jsonschema.__file__).parent / "builtin_schemas" / "vendor" / "github-workflows.json"
    validator = jsonschema_rs.validator_for(json.loads(schema_file.read_text()))
    assert validator.is_valid(workflow)
    broken = dict(workflow, jobs={"contracts": {"steps": steps}})  # no runs-on: GitHub refuses it
    assert not validator.is_valid(broken)


def test_the_new_handoff_routes_and_a_broken_rule_fails_the_tests(project: Path):
    from toolclause.workflow.handoffs import Handoffs

    sample = {"intent": "refund", "confidence": 0.92, "order_id": "ord_8F2K", "summary": "Damaged parcel."}
    assert Handoffs("contracts/handoffs").route(sample).to == "billing_agent"
    assert Handoffs("contracts/handoffs").route({**sample, "confidence": 0.5}).to == "human_review"
    handoff = project / "contracts" / "handoffs" / "triage_to_billing.json"
    handoff.write_text(handoff.read_text().replace("confidence >= 0.8", "confidence => 0.8"))
    code, out, _ = run("test", "contracts/")
    assert code == 1 and "/x-routes/0/when" in out and "the rule does not parse" in out


def test_the_pre_commit_hooks_run_lint_and_test(project: Path):
    config = load_yaml(project / ".pre-commit-config.yaml")
    hooks = {h["id"]: h for repo in config["repos"] for h in repo["hooks"]}
    assert hooks["toolclause-lint"]["entry"] == "toolclause lint contracts/"
    assert hooks["toolclause-test"]["entry"] == "toolclause test contracts/"


def test_init_refuses_a_file_as_its_folder(tmp_path: Path):
    (tmp_path / "f").write_text("")
    assert run("init", str(tmp_path / "f"))[0] == 2
