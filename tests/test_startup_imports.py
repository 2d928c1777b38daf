"""What a command imports: each pays only for what it runs (start-up is most of a small lint run).

Run in a fresh interpreter, since this test process has imported everything already.
A failure here means a new eager import: import it inside the function that needs it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import toolclause

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

PROBE = r"""
import json, sys
from toolclause.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m == "toolclause" or m.startswith("toolclause."))))
"""


def imported_by(*argv: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def under(modules: set[str], *packages: str) -> set[str]:
    return {m for m in modules if any(m == f"toolclause.{p}" or m.startswith(f"toolclause.{p}.") for p in packages)}


def test_version_and_help_import_only_the_command_line():
    for argv in (["--version"], ["--help"], ["lint", "--help"]):
        modules = imported_by(*argv)
        assert under(modules, "loading", "schema", "rules", "linting", "report", "exporting", "diffing", "runtime",
                     "stores", "workflow", "mcp", "web") == set(), argv


def test_the_executable_answers_version_as_the_command_line_does_without_loading_it():
    from click.testing import CliRunner

    from toolclause.cli.main import cli

    probe = "import json, sys; from toolclause.__main__ import console; console(); print(json.dumps([*sys.modules]))"
    done = subprocess.run([sys.executable, "-c", probe, "--version"], capture_output=True, text=True, timeout=60)
    answer, modules = done.stdout.splitlines()
    expected = f"toolclause, version {toolclause.__version__}\n"
    assert answer + "\n" == CliRunner().invoke(cli, ["--version"]).output == expected
    # the package root and its version: not click, the command line, or typing
    assert {m for m in json.loads(modules) if m.split(".")[0] in ("toolclause", "click", "typing")} == {
        "toolclause", "toolclause.__main__", "toolclause._provided", "toolclause._version"}
    # any other arguments go to the command line
    done = subprocess.run([sys.executable, "-m", "toolclause", "--version", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and done.stdout.startswith("toolclause, version")


def test_a_lint_run_imports_one_reporter_and_no_exporter_diff_runtime_or_mcp_client():
    modules = imported_by("lint", str(EXAMPLES / "mcp"), "--format", "json", "--fail-on", "never", "-o", "/dev/null")
    assert "toolclause.linting.engine" in modules  # it did lint
    assert under(modules, "exporting", "diffing", "runtime", "stores", "workflow", "mcp", "web") == set()
    assert under(modules, "report") == {"toolclause.report", "toolclause.report.base", "toolclause.report.json"}


# What a plain `toolclause lint FILE` imports of the package besides the rules: the engine, the loaders, one
# reporter.  A module added here is paid by every lint run, however small; prefer importing it where it is used.
PLAIN_LINT = {
    "toolclause", "toolclause._dataclass_code", "toolclause._gc", "toolclause._kept", "toolclause._lazy_re",
    "toolclause._provided", "toolclause._version",
    "toolclause.cli", "toolclause.cli._validator_import", "toolclause.cli.lint_cache", "toolclause.cli.main",
    "toolclause.cli.running", "toolclause.cli.sources", "toolclause.formats", "toolclause.lexicon",
    "toolclause.lexicon.english", "toolclause.lexicon.gates",
    "toolclause.lexicon.korean", "toolclause.lexicon.secret_values", "toolclause.lexicon.text", "toolclause.linting",
    "toolclause.linting.config", "toolclause.linting.engine",
    "toolclause.linting.placement", "toolclause.linting.run", "toolclause.loading", "toolclause.loading.codes",
    "toolclause.loading.contract_files",
    "toolclause.loading.documents", "toolclause.loading.files", "toolclause.loading.positions",
    "toolclause.loading.result", "toolclause.loading.shapes", "toolclause.loading.sources", "toolclause.loading.text",
    "toolclause.model", "toolclause.report", "toolclause.report.base", "toolclause.report.json", "toolclause.rules",
    "toolclause.schema", "toolclause.schema.failures", "toolclause.schema.keywords", "toolclause.schema.meta",
    "toolclause.schema.nullability", "toolclause.schema.refs", "toolclause.schema.validators",
    "toolclause.schema.walk", "toolclause.suggest", "toolclause.targets",
}
# the rules a run without a target leaves unimported: those of the provider targets
TARGET_RULES = {"toolclause.rules.provider.p001_openai_strict_incompatible",
                "toolclause.rules.provider.p002_anthropic_strict_incompatible",
                "toolclause.rules.provider.p003_gemini_incompatible",
                "toolclause.rules.provider.p007_mcp_invalid_tool"}
# nor the rules of MCP client configurations (family M), which run only with --mcp-config
CLIENT_CONFIG_RULES = {"toolclause.rules.clients", "toolclause.rules.clients._launch",
                       "toolclause.rules.clients._secrets"} | {
    f"toolclause.rules.clients.{name}" for name in ("m001_literal_credential", "m002_unpinned_runner",
                                                    "m003_plain_http_remote", "m004_shell_wrapper")}
# the fixer, baselines, strict-mode sizes and a live lint's alarm are for the runs that use them; jsonschema-rs
# comes without email.utils and the sockets it imports (see cli/_validator_import.py)
NOT_IN_A_PLAIN_LINT = {"toolclause.cli.fixing", "toolclause.linting.fix", "toolclause.linting.fix_text",
                       "toolclause.linting.baseline", "toolclause.schema.strict_size", "difflib", "traceback",
                       "signal", "email.utils", "socket"}


def rule_modules() -> set[str]:
    """Every module of the rules package, from the files (but the documentation parser, the measured
    precision and the OWASP names, for `toolclause rules` and SARIF, and YAML rule packs, for the runs that
    name one)."""
    rules = Path(toolclause.__file__).parent / "rules"
    return {"toolclause." + ".".join(path.relative_to(rules.parent).with_suffix("").parts).removesuffix(".__init__")
            for path in rules.rglob("*.py")} - {"toolclause.rules", "toolclause.rules.docs",
                                                 "toolclause.rules.measured", "toolclause.rules.owasp",
                                                 "toolclause.rules.packs"}


def imported_in(folder: Path, *argv: str) -> set[str]:
    """All modules (not only the package's) a fresh interpreter imported running argv in folder."""
    probe = PROBE.replace('m == "toolclause" or m.startswith("toolclause.")', "True")
    env = {k: v for k, v in os.environ.items() if k != "TOOLCLAUSE_NO_CACHE"}  # as users run it: the cache on
    done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True, timeout=120,
                          cwd=folder, env=env)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def _plain_lint(folder: Path, *argv: str) -> tuple[set[str], set[str]]:
    """(the package's modules, every module) that `toolclause lint tools.json ARGV` imports in folder."""
    tools = [{"name": "get_weather", "description": "Returns the current weather for a city.",
              "inputSchema": {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}},
                              "required": ["city"]}},
             {"name": "list_cities", "description": "Lists the cities with a weather station.",
              "inputSchema": {"type": "object", "properties": {}}}]
    (folder / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
    modules = imported_in(folder, "lint", "tools.json", *argv)
    return {m for m in modules if m == "toolclause" or m.startswith("toolclause.")}, modules


def test_a_plain_lint_imports_exactly_these_modules_and_none_of_the_optional_libraries(tmp_path):
    ours, modules = _plain_lint(tmp_path, "--format", "json")
    assert ours == PLAIN_LINT | (rule_modules() - TARGET_RULES - CLIENT_CONFIG_RULES)
    assert "jsonschema_rs" in modules  # S001 checks every schema against its meta-schema with it
    assert NOT_IN_A_PLAIN_LINT & modules == set()
    # did-you-mean, TOML (no configuration file here), package resources, temporary files and the text
    # reporter's rich are each imported by the run that needs them
    assert {"rapidfuzz", "tomllib", "importlib.resources", "tempfile", "logging", "rich"} & modules == set()


def test_the_text_report_adds_its_reporter_and_rich_alone(tmp_path):
    ours, modules = _plain_lint(tmp_path)
    text = {"toolclause.report.text", "toolclause.linting.fix"}  # the fixer's can_write_back: "fixable" marks
    rules = rule_modules() - TARGET_RULES - CLIENT_CONFIG_RULES
    assert ours == (PLAIN_LINT - {"toolclause.report.json"}) | text | rules
    assert NOT_IN_A_PLAIN_LINT - {"toolclause.linting.fix"} & modules == set()


def test_a_target_imports_its_rules(tmp_path):
    ours, _ = _plain_lint(tmp_path, "--format", "json", "--target", "mcp")
    assert "toolclause.rules.provider.p007_mcp_invalid_tool" in ours
    assert TARGET_RULES - ours == TARGET_RULES - {"toolclause.rules.provider.p007_mcp_invalid_tool"}


def test_jsonschema_rs_imported_by_the_command_line_has_its_own_build_date_and_email_utils_stays_real():
    probe = r"""
import sys
from toolclause.cli._validator_import import import_jsonschema_rs
import_jsonschema_rs()
assert "email.utils" not in sys.modules
import email.utils
import jsonschema_rs.jsonschema_rs as extension
built = extension.__build__["info-time"]
print(repr(built) == repr(email.utils.parsedate_to_datetime(built.strftime("%a, %d %b %Y %H:%M:%S %z"))),
      hasattr(email.utils, "formatdate"))
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["True", "True"], done.stderr


def test_the_stand_in_reads_dates_as_email_utils_does():
    import email.utils

    from toolclause.cli._validator_import import _parsedate_to_datetime

    for text in ("Thu, 12 Nov 2026 07:50:16 +0000", "Mon, 02 Jan 2006 15:04:05 -0700", "Mon, 2 Jan 2006 15:04:05 +0530",
                 "Mon, 2 Jan 2006 15:04:05 -0000", "Mon, 2 Jan 2006 15:04:05 GMT", "2 Jan 2006 15:04:05 +0100"):
        assert repr(_parsedate_to_datetime(text)) == repr(email.utils.parsedate_to_datetime(text)), text
