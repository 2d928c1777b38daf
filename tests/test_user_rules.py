"""A team's own rules: the example plugin package (examples/acme-toolclause) installed with pip and found by its
entry point, YAML rule packs, the clash and limit checks that stop a run naming the key, and the lint cache's
key following each plugin's version and each pack's content."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause.cli import lint_cache
from toolclause.cli.main import cli

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "acme-toolclause"
PACK = (EXAMPLE / "rules" / "acme.yaml").read_text(encoding="utf-8")
INTERNAL = {"name": "fetch_report",
            "description": "Fetches a report from ＲＥＰＯＲＴＳ．ＣＯＲＰ．ＩＮＴＥＲＮＡＬ as text.",
            "inputSchema": {"type": "object", "properties": {
                "id": {"type": "string", "description": "The report's id on the Intranet.ACME.example wiki"}}}}


def _wheel(folder: Path) -> Path:
    """The example package as a wheel, made here: a wheel is a zip of the package and its dist-info, and
    building one with setuptools would need `wheel` and the network."""
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text())["project"]
    name, version = project["name"].replace("-", "_"), project["version"]
    info = f"{name}-{version}.dist-info"
    files = {f"acme_toolclause/{p.name}": p.read_bytes() for p in (EXAMPLE / "src" / "acme_toolclause").glob("*.py")}
    points = project["entry-points"]["toolclause.rules"]
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {version}\n".encode()
    files[f"{info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    files[f"{info}/entry_points.txt"] = ("[toolclause.rules]\n" + "".join(
        f"{code} = {target}\n" for code, target in points.items())).encode()
    record = [f"{path},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},"
              f"{len(data)}" for path, data in files.items()]
    files[f"{info}/RECORD"] = ("\n".join([*record, f"{info}/RECORD,,"]) + "\n").encode()
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, data in files.items():
            archive.writestr(path, data)
    return wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """Where pip installed the example plugin (a folder for PYTHONPATH / sys.path)."""
    folder = tmp_path_factory.mktemp("plugin")
    target = folder / "site"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
                           "--target", str(target), str(_wheel(folder))], capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    return target


def _env(site: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
            "TOOLCLAUSE_NO_CACHE": "1"}


@pytest.mark.timeout(600)
def test_the_installed_example_plugin_runs_through_lint_and_its_own_tests_pass(installed: Path):
    done = subprocess.run([sys.executable, "-m", "toolclause", "lint", "tools", "--format", "json"], cwd=EXAMPLE,
                          env=_env(installed), capture_output=True, text=True, timeout=240)
    findings = json.loads(done.stdout)["diagnostics"]
    assert sorted((d["code"], d["tool"]) for d in findings) == [("ACME001", "charge_card"), ("ACME101", "charge_card")]
    assert done.returncode == 1, done.stderr  # its configuration fails on warnings
    own = subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", "--rootdir", str(EXAMPLE),
                          str(EXAMPLE / "tests")], cwd=EXAMPLE, env=_env(installed), capture_output=True, text=True,
                         timeout=240)
    assert own.returncode == 0 and "1 passed" in own.stdout and "skipped" not in own.stdout, own.stdout + own.stderr


def test_a_plugin_is_loaded_only_when_named_and_must_be_installed(tmp_path: Path, installed: Path, monkeypatch):
    monkeypatch.syspath_prepend(str(installed))  # importlib.metadata finds the dist-info there, as site-packages
    tool = tmp_path / "charge.json"
    tool.write_text((EXAMPLE / "tools" / "charge_card.json").read_text())
    (tmp_path / "toolclause.toml").write_text('fail-on = "never"\n')
    unnamed = CliRunner().invoke(cli, ["lint", str(tool), "--config", str(tmp_path / "toolclause.toml")])
    assert unnamed.exit_code == 0 and "ACME001" not in unnamed.output
    # a configuration names only codes its rules have: a user code needs its plugin or pack named
    (tmp_path / "toolclause.toml").write_text('select = ["ACME001"]\n')
    unknown = CliRunner().invoke(cli, ["lint", str(tool), "--config", str(tmp_path / "toolclause.toml")])
    assert unknown.exit_code == 2 and "'ACME001' is not a rule code" in unknown.output
    (tmp_path / "toolclause.toml").write_text('plugins = ["acme-toolclause"]\nselect = ["ACME"]\n')
    named = CliRunner().invoke(cli, ["lint", str(tool), "--config", str(tmp_path / "toolclause.toml")])
    assert "ACME001" in named.output
    (tmp_path / "toolclause.toml").write_text('plugins = ["acme-toolclause-missing"]\n')
    missing = CliRunner().invoke(cli, ["lint", str(tool), "--config", str(tmp_path / "toolclause.toml")])
    assert missing.exit_code == 2 and "no installed distribution 'acme-toolclause-missing'" in missing.output


def _pack_run(tmp_path: Path, pack: str, *argv: str, tool: dict = INTERNAL) -> tuple[int, str]:
    (tmp_path / "acme.yaml").write_text(pack)
    (tmp_path / "toolclause.toml").write_text('rule-packs = ["acme.yaml"]\n')
    (tmp_path / "tool.json").write_text(json.dumps(tool))
    result = CliRunner().invoke(cli, ["lint", str(tmp_path / "tool.json"),
                                      "--config", str(tmp_path / "toolclause.toml"), "--select", "ACME",
                                      "--format", "json", "--fail-on", "never", *argv])
    return result.exit_code, result.output


def test_a_pack_compares_literals_case_folded_after_unicode_normalisation(tmp_path: Path):
    code, output = _pack_run(tmp_path, PACK)
    findings = json.loads(output)["diagnostics"]
    assert [(d["code"], d["pointer"]) for d in findings] == [
        ("ACME101", "/description"), ("ACME101", "/inputSchema/properties/id/description")]
    assert findings[0]["message"] == "names an internal host: the tool's description contains 'corp.internal'"
    assert findings[0]["tags"] == ["MCP10:2025"]
    assert json.loads(_pack_run(tmp_path, PACK, "--ignore", "ACME101")[1])["diagnostics"] == []


def test_a_pack_reads_what_the_server_says_besides_its_tools(tmp_path: Path):
    snapshot = {"instructions": "Internal docs live at https://corp.internal/docs.",
                "tools": [{"name": "ping", "description": "Answers pong.", "inputSchema": {"type": "object"}}]}
    findings = json.loads(_pack_run(tmp_path, PACK, tool=snapshot)[1])["diagnostics"]
    assert len(findings) == 1 and "the server's instructions (/instructions in the listing)" in findings[0]["message"]


@pytest.mark.parametrize(("change", "says"), [
    (("severity: warning", "severity: warning\n    owner: me"), "rules[0]: unknown key 'owner'"),
    (("pack: {name: acme", "pack: {nmae: acme"), "pack: unknown key 'nmae'"),
    (("code: ACME101", "code: SEC101"), "starts with 'S', a family of the built-in rules"),
    (("code: ACME101", "code: MCP1"), "starts with 'M', a family of the built-in rules"),
    (("code: ACME101", "code: acme-101"), "must be upper-case letters then digits"),
    (("fields: [description", "fields: [summary"), "unknown field 'summary'"),
    (("severity: warning", "severity: loud"), "unknown severity 'loud'"),
    (('literals: ["corp.internal"', "literals: [" + ", ".join(f'"h{i}"' for i in range(501)) + ', "corp.internal"'),
     "rules[0].literals: 503 entries; at most 500"),
])
def test_a_pack_that_cannot_be_used_stops_the_run_naming_the_key(tmp_path: Path, change: tuple[str, str], says: str):
    pack = PACK.replace(*change)
    assert pack != PACK
    code, output = _pack_run(tmp_path, pack)
    assert code == 2 and says in output, output


def test_two_rules_may_not_share_a_code_and_a_pack_has_a_size_limit(tmp_path: Path):
    rule = PACK.split("rules:\n", 1)[1]
    code, output = _pack_run(tmp_path, PACK + rule)
    assert code == 2 and "'ACME101' is the code of another rule" in output
    code, output = _pack_run(tmp_path, PACK + "# " + "x" * (1024 * 1024) + "\n")
    assert code == 2 and "over 1024 KiB" in output


def test_the_cache_key_follows_each_packs_content_and_each_plugins_version(tmp_path: Path, installed: Path,
                                                                          monkeypatch):
    monkeypatch.syspath_prepend(str(installed))
    (tmp_path / "tool.json").write_text(json.dumps(INTERNAL))
    (tmp_path / "acme.yaml").write_text(PACK)
    (tmp_path / "toolclause.toml").write_text('plugins = ["acme-toolclause"]\nrule-packs = ["acme.yaml"]\n')
    key = lint_cache.run_key({}, ["tool.json"], str(tmp_path), None)
    assert key == lint_cache.run_key({}, ["tool.json"], str(tmp_path), None)
    (tmp_path / "acme.yaml").write_text(PACK.replace("corp.internal", "corp.local"))
    changed = lint_cache.run_key({}, ["tool.json"], str(tmp_path), None)
    assert changed != key
    info = next(installed.glob("acme_toolclause-*.dist-info"))
    metadata = info / "METADATA"
    metadata.write_text(metadata.read_text().replace("Version: 1.0.0", "Version: 1.0.1"))
    assert lint_cache.run_key({}, ["tool.json"], str(tmp_path), None) != changed
    metadata.write_text(metadata.read_text().replace("Version: 1.0.1", "Version: 1.0.0"))
