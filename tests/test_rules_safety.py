"""Family X: safe tool design.  Triggers, clean cases, explanations, and bad input."""

from __future__ import annotations

import glob

import pytest

import toolclause
from toolclause.rules.safety import RULES

X_CODES = [r.code for r in RULES]


def tool(name, description="Does one thing and returns the result.", properties=None, **extra):
    out = {"name": name, "description": description,
           "inputSchema": {"type": "object", "properties": properties if properties is not None else {}}}
    out.update(extra)
    return out


def lint(obj, code):
    return [d for d in toolclause.lint(obj, select=[code]) if d.code == code]


def test_registered_in_code_order():
    assert X_CODES == [f"X{i:03d}" for i in range(1, 11)]


# --------------------------------------------------------------------------- X001

@pytest.mark.parametrize("key, values", [
    ("action", ["create", "get", "update", "delete"]),
    ("operation", ["list", "add_item", "remove_item"]),
    ("command", ["view", "create", "str_replace"]),
    ("작업", ["조회", "삭제"]),
])
def test_x001_selector_spanning_reads_and_writes(key, values):
    found = lint(tool("manage", properties={key: {"type": "string", "enum": values}}), "X001")
    assert len(found) == 1 and f"'{key}'" in found[0].message


@pytest.mark.parametrize("key, values", [
    ("action", ["get", "list", "search"]),            # reads only
    ("method", ["GET", "POST", "DELETE"]),            # an HTTP client
    ("type", ["book", "article", "view", "post", "video", "audio"]),  # a category, not verbs
    ("metric_type", ["readSpeed", "writeSpeed"]),     # a measurement
    ("access_mode", ["read-only", "edit"]),
    ("action", "create"),                              # malformed enum
    ("action", [{"op": "get"}, {"op": "delete"}, 5, None]),
])
def test_x001_clean(key, values):
    assert not lint(tool("manage", properties={key: {"type": "string", "enum": values}}), "X001")


# --------------------------------------------------------------------------- X002

@pytest.mark.parametrize("name, description", [
    ("create_order", "Places an order."),
    ("send_email", "Sends an e-mail."),
    ("pay_invoice", "Pays an invoice."),
    ("book_table", "Books a table."),
    ("order", "주문을 생성합니다."),
    ("payments", "결제를 진행합니다."),
])
def test_x002_creating_without_key(name, description):
    (finding,) = lint(tool(name, description, {"x": {"type": "string"}}), "X002")
    assert "idempotency" in finding.message and "'" in finding.message


@pytest.mark.parametrize("name, description, properties, extra", [
    ("create_order", "Places an order.", {"idempotency_key": {"type": "string"}}, {}),
    ("create_order", "Places an order.", {"clientRequestToken": {"type": "string"}}, {}),
    ("send_email", "Sends an e-mail.", {"dedupe_key": {"type": "string"}}, {}),
    ("create_order", "Places an order.", {}, {"annotations": {"idempotentHint": True}}),
    ("get_order_status", "Get the status of an order.", {}, {}),
    ("order_history", "Lists past orders.", {}, {}),
    ("add_numbers", "Adds two numbers.", {}, {}),
    ("create_recipe_guide", "Generates a recipe guide for a dish.", {}, {}),
    ("electric_field", "Calculate the electric field produced by a charge.", {}, {}),
    ("repair_book", "Repairs a damaged book's binding.", {}, {}),
    # values built in memory and returned: nothing is stored or sent twice (corpus false positives)
    ("create_polygon", "Create a polygon from a list of vertices.", {}, {}),
    ("CompositeRuntimeField.createChildRuntimeField", "Creates a child runtime field.", {}, {}),
    ("maybeAddJsSyntheticRestParameter", "Adds a synthetic rest parameter to a JS function.", {}, {}),
    ("create_histogram", "Create a histogram based on provided data.", {}, {}),
])
def test_x002_clean(name, description, properties, extra):
    assert not lint(tool(name, description, properties, **extra), "X002")


# --------------------------------------------------------------------------- X003

def test_x003_irreversible_without_confirmation():
    (finding,) = lint(tool("transfer_funds", "Moves money now.", {"amount": {"type": "number"}}), "X003")
    assert "'transfer'" in finding.message and "dry_run" in finding.message


def test_x003_korean_description():
    assert lint(tool("remittance", "해외로 송금합니다.", {"amount": {"type": "number"}}), "X003")


@pytest.mark.parametrize("properties", [{"dry_run": {"type": "boolean"}}, {"confirm": {"type": "boolean"}},
                                        {"previewOnly": {"type": "boolean"}}])
def test_x003_confirmation_parameter(properties):
    assert not lint(tool("delete_repo", "Deletes a repository.", properties), "X003")


def test_x003_preview_tool_in_the_same_list():
    tools = [tool("place_order", "Places the order."), tool("preview_order", "Shows the order total.")]
    assert not lint(tools, "X003")
    assert lint([tools[0], tool("preview_invoice", "Shows an invoice.")], "X003")


# --------------------------------------------------------------------------- X004 / X005 / X006

def test_x004_read_tool_without_hint():
    (finding,) = lint(tool("get_invoice", "Returns one invoice."), "X004")
    assert "readOnlyHint" in finding.message and finding.severity.label == "info"
    assert lint(tool("invoices", "인보이스 목록을 조회합니다."), "X004")


@pytest.mark.parametrize("obj", [
    tool("get_invoice", "Returns one invoice.", annotations={"readOnlyHint": True}),
    tool("get_invoice", "Returns one invoice.", annotations={"readOnlyHint": False}),  # deliberate
    tool("get_or_create_user", "Returns the user, creating it when missing."),
    tool("search_and_delete", "Finds files and deletes them."),
    {"name": "get_invoice", "description": "Returns one invoice.", "parameters": {"type": "object", "properties": {}}},
])
def test_x004_clean(obj):
    assert not lint(obj, "X004")


def test_x005_read_only_hint_on_a_write():
    (finding,) = lint(tool("delete_file", "Deletes a file.", annotations={"readOnlyHint": True}), "X005")
    assert "'delete'" in finding.message
    assert lint(tool("orders", "주문을 생성합니다.", annotations={"readOnlyHint": True}), "X005")


def test_x005_a_verb_in_the_name_is_a_subject_when_title_and_description_say_it_reads():
    # Azure MCP's extension_cli_install, titled "Get CLI installation instructions": it only returns text
    instructions = tool("extension_cli_install", "Provide installation instructions for the Azure CLI.",
                        annotations={"readOnlyHint": True, "title": "Get CLI installation instructions"})
    assert not lint(instructions, "X005")
    # a read verb first is not enough where the text also changes things, nor a title alone that says nothing
    assert lint(tool("delete_file", "Gets the file and deletes it.", annotations={"readOnlyHint": True}), "X005")
    assert lint(tool("install_package", "Installs a package.",
                     annotations={"readOnlyHint": True, "title": "Package installer"}), "X005")


def test_x005_destructive_read_only():
    both = lint(tool("get_user", "Returns a user.", annotations={"readOnlyHint": True, "destructiveHint": True}),
                "X005")
    assert len(both) == 1
    assert lint(tool("get_user", "Returns a user.", annotations={"destructiveHint": True}), "X005")


@pytest.mark.parametrize("obj", [
    tool("list_builds", "List builds for a commit.", annotations={"readOnlyHint": True}),
    tool("delete_file", "Deletes a file.", annotations={"readOnlyHint": False, "destructiveHint": True}),
    tool("delete_file", "Deletes a file."),
])
def test_x005_clean(obj):
    assert not lint(obj, "X005")


def test_x006_only_an_explicit_false():
    assert lint(tool("delete_repo", "Deletes a repo.", annotations={"destructiveHint": False}), "X006")
    assert lint(tool("subscription", "구독을 해지합니다.", annotations={"destructiveHint": False}), "X006")
    # MCP's default for destructiveHint is true: absent means destructive, which is right
    assert not lint(tool("delete_repo", "Deletes a repo."), "X006")
    assert not lint(tool("delete_repo", "Deletes a repo.", annotations={"readOnlyHint": False}), "X006")
    assert not lint(tool("get_repo", "Returns a repo.", annotations={"destructiveHint": False}), "X006")


# --------------------------------------------------------------------------- X009 / X010

@pytest.mark.parametrize("name, description, param", [
    ("execute_sql", "Runs SQL.", "query"),
    ("run_shell", "Runs a command.", "command"),
    ("python_repl", "Evaluates Python.", "code"),
    ("eval", "Evaluates JavaScript.", "expression"),
    ("http_request", "Makes an HTTP request.", "url"),
])
def test_x009_unrestricted(name, description, param):
    (finding,) = lint(tool(name, description, {param: {"type": "string"}}), "X009")
    assert f"'{param}'" in finding.message


@pytest.mark.parametrize("name, description, properties", [
    ("run_search", "Searches the catalogue.", {"query": {"type": "string"}}),
    ("get_country_code", "Returns a country's code.", {"code": {"type": "string"}}),
    ("run_shell", "Runs one allowed command.", {"command": {"type": "string", "enum": ["uptime", "df"]}}),
    ("calculate", "Calculates.", {"expression": {"type": "string"}}),
    ("run_script", "Runs a stored script.", {"script_name": {"type": "string"}}),
])
def test_x009_clean(name, description, properties):
    assert not lint(tool(name, description, properties), "X009")


def test_x010_sensitive_output_and_meta():
    out = {"type": "object", "properties": {"user": {"type": "object", "properties": {
        "password": {"type": "string"}, "주민등록번호": {"type": "string"}}}}}
    found = lint(tool("get_account", outputSchema=out), "X010")
    assert {d.pointer for d in found} == {"/outputSchema/properties/user/properties/password",
                                         "/outputSchema/properties/user/properties/주민등록번호"}
    meta = lint(tool("x", _meta={"api_key": "abc", "note": "sk-" + "a" * 30}), "X010")
    assert len(meta) == 2


def test_x010_clean():
    out = {"type": "object", "properties": {"password_expires_at": {"type": "string"},
                                            "has_token": {"type": "boolean"},
                                            "card_number_last4": {"type": "string"},
                                            "next_page_token": {"type": "string"},
                                            "secret_name": {"type": "string"}}}
    assert not lint(tool("get_account", outputSchema=out), "X010")
    # input parameters are not output
    assert not lint(tool("login", properties={"password": {"type": "string"}}), "X010")


# --------------------------------------------------------------------------- bad input

BAD = [
    {"name": "delete_x", "description": 5, "inputSchema": {"type": "object", "properties": []}},
    {"name": "create_x", "description": None, "annotations": ["readOnlyHint"], "inputSchema": {"type": "object"}},
    {"name": "get_x", "description": ["a"], "annotations": {"readOnlyHint": "yes", "destructiveHint": 1},
     "inputSchema": {"type": "object", "properties": {"action": {"enum": [{"a": 1}, ["get"], None, 3]}}}},
    {"name": "send", "title": 7, "_meta": ["x"], "outputSchema": {"properties": {"password": 5}},
     "inputSchema": {"type": "object", "properties": {"q": {"description": {"x": 1}, "default": {"a": ["b", 3]},
                                                            "examples": "ignore"}}}},
    {"name": "execute_sql", "inputSchema": {"type": "object", "properties": {"query": True, "sql": {"type": 5}}}},
    {"name": "x", "inputSchema": {"type": "object", "properties": {"a": {"enum": "create"}, "b": {"anyOf": "x"},
                                                                   "c": {"items": [1, {"description": 2}]}}}},
]


@pytest.mark.parametrize("obj", BAD)
def test_bad_input_never_crashes(obj):
    toolclause.lint(obj, select=["X"])


def test_deep_schema_is_bounded():
    schema = {"type": "string", "description": "leaf"}
    for _ in range(300):
        schema = {"type": "object", "properties": {"a": schema}}
    toolclause.lint({"name": "deep", "description": "x", "inputSchema": schema}, select=["X007", "X008"])


# --------------------------------------------------------------------------- corpus

@pytest.mark.skipif(not glob.glob("/work/shared/corpora/*/tools.jsonl"), reason="corpora not present")
def test_corpus_has_no_poisoning_and_no_contradiction():
    from toolclause.linting.config import LintConfig
    from toolclause.linting.engine import lint_contracts
    from toolclause.loading import load_paths

    tools = load_paths(sorted(glob.glob("/work/shared/corpora/*/tools.jsonl"))).tools
    found = lint_contracts(tools, LintConfig(select=("X005", "X007", "X008")))
    assert not found, [(d.tool, d.code, d.message) for d in found[:5]]


def test_x009_a_routers_command_picks_a_subcommand_and_runs_nothing():
    # Azure MCP's `sql` router: `command` names one of its sub-commands, `parameters` carries their arguments
    props = {"command": {"type": "string", "description": "The command to execute against the specified tool."},
             "parameters": {"type": "object"}}
    assert not lint(tool("sql", "Azure SQL operations - commands for managing databases.", props), "X009")
    routed = tool("sql", "Azure SQL operations. This tool is a hierarchical MCP command router.",
                  {"command": {"type": "string"}})
    assert not lint(routed, "X009")
    # a tool that runs the SQL it is given is still reported
    assert lint(tool("sql", "Runs a SQL statement.", {"command": {"type": "string", "description": "The SQL"}}),
                "X009")
