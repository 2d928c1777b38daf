"""Family D: descriptions and ambiguity.  Positive and negative cases, Korean too, and bad input.

Several cases are regressions from false positives found on ../shared/corpora
(written here as small fixtures, never copied).
"""

from __future__ import annotations

import time

import pytest

import toolclause
from toolclause.linting.config import LintConfig
from toolclause.rules.options import RuleOptionError

DESC = "Looks up one order by its id and returns its status, items and delivery date."


def tool(name="get_order", description=DESC, properties=None, **extra):
    out = {"name": name, "inputSchema": {"type": "object", "properties": properties or {}}}
    if description is not None:
        out["description"] = description
    out.update(extra)
    return out


def prop(**schema):
    return tool(properties={"p": schema})


def lint(obj, code, config=None):
    return [d for d in toolclause.lint(obj, select=[code], config=config) if d.code == code]


# --------------------------------------------------------------------------- D001

@pytest.mark.parametrize("description, words", [(None, "no description"), ("", "empty"),
                                                ("   \n", "only whitespace"), (5, "a number")])
def test_d001_missing_or_blank(description, words):
    [d] = lint(tool(description=description), "D001")
    assert words in d.message


def test_d001_present_passes():
    assert lint(tool(), "D001") == []
    assert lint(tool(description="주문 상태를 조회합니다."), "D001") == []


# --------------------------------------------------------------------------- D002

STRING = {"type": "string", "description": "A value."}


UNDESCRIBED = {"id": {"type": "string"}}


def test_d002_restates_the_name_english_and_korean():
    [d] = lint(tool("get_items", "Fetch items from database", UNDESCRIBED), "D002")
    assert "only restates the name 'get_items'" in d.message and ": 25 characters < 40;" in d.message
    [d] = lint(tool("get_status", "상태 조회", UNDESCRIBED), "D002")
    assert "only restates the name 'get_status'" in d.message and "'상태'" in d.message
    [d] = lint(tool("get_order_status", "해당 주문 상태를 조회합니다", UNDESCRIBED), "D002")
    assert "restates" in d.message


@pytest.mark.parametrize("name, description, reported", [
    ("lookup_customer", "Gets a customer record.", True),  # which customer? nothing can say
    ("get_status", "Get a status.", True),
    ("users_get_current", "Get the current user.", False),  # settled without a parameter
    ("users_list", "Get all users.", False),
    ("documents_list", "List all documents.", False),
])
def test_d002_a_restatement_without_parameters_needs_one_thing_left_open(name, description, reported):
    assert len(lint(tool(name, description), "D002")) == reported


def test_d002_restatement_with_an_empty_noun_and_an_undescribed_id():
    """Judged right on kubernetes: its only parameter 'id' is undescribed, and nothing says where it comes from."""
    stop = tool("stop_port_forward", "Stop a port-forward process", {"id": {"type": "string"}})
    [d] = lint(stop, "D002")
    assert "its words 'stop', 'port', 'forward' repeat the name, and 'process' names nothing" in d.message
    # clean twin: the parameter says what the id is
    stop["inputSchema"]["properties"]["id"]["description"] = "The id port_forward returned"
    assert lint(stop, "D002") == []


@pytest.mark.parametrize("name, description, properties", [
    ("jira_add_issues_to_sprint", "Add issues to a Jira sprint.", {"sprint_id": STRING, "issue_keys": STRING}),
    ("merge_pull_request", "Merge a pull request", {"owner": STRING, "repo": STRING, "pull_number": STRING}),
])
def test_d002_a_restatement_the_parameters_make_up_for_is_not_reported(name, description, properties):
    assert lint(tool(name, description, properties), "D002") == []


def test_d002_generic_verb_name_that_names_nothing_it_acts_on():
    """Judged right on server-postgres: "Run a read-only SQL query" for `query` does not say which database."""
    [d] = lint(tool("query", "Run a read-only SQL query", {"sql": {"type": "string"}}), "D002")
    assert "the name 'query' is a bare verb" in d.message and "25 characters < 40" in d.message
    # clean twin: it names the database
    assert lint(tool("query", "Run a read-only SQL query on the orders DB", {"sql": {"type": "string"}}), "D002") == []
    assert len(lint(tool("call", "Call a tool"), "D002")) == 1
    assert lint(tool("search", "Search the web"), "D002") == []
    assert lint(tool("get", "Get a weather forecast"), "D002") == []


@pytest.mark.parametrize("name, description, words", [
    ("get_weather", "Current weather for a city", "names no action"),
    ("sql_tool", "SQL query tool", "names no action"),
    ("calc", "Calculator", "single word"),
    ("get_weather", "현재 날씨", "names no action"),
])
def test_d002_no_action_or_a_bare_word(name, description, words):
    [d] = lint(tool(name, description), "D002")
    assert words in d.message


@pytest.mark.parametrize("name, description", [
    ("get_weather", "Get the current weather for a city"),  # twin of "Current weather for a city"
    ("sql_tool", "Runs SQL on the analytics warehouse"),      # twin of "SQL query tool"
    ("calc", "Evaluates an arithmetic expression"),            # twin of "Calculator"
    ("get_weather", "현재 날씨를 알려줍니다"),                    # twin of "현재 날씨"
])
def test_d002_clean_twins_state_an_action(name, description):
    assert lint(tool(name, description), "D002") == []


@pytest.mark.parametrize("name, description, properties", [
    # judged wrong: short, but they say what the tool does and what comes back
    ("echo", "Echoes back the input string", {"message": STRING}),
    ("get_current_time", "Get current time in a specific timezone", {"timezone": STRING}),
    # judged debatable: short but clear action tools
    ("click", "Clicks on the provided element", {"uid": STRING}),
    ("add_issue_comment", "Add a comment to an existing issue", {"issue_number": STRING, "body": STRING}),
    ("git_checkout", "Switches branches", {"repo_path": STRING, "branch_name": STRING}),
    ("search_repositories", "Search for GitLab projects", {"search": STRING}),
    ("slack_get_channel_history", "Get recent messages from a channel", {"channel_id": STRING}),
    ("puppeteer_fill", "Fill out an input field", {"selector": STRING, "value": STRING}),
    ("hover", "Hover over the provided element", {"uid": STRING}),
    ("kubectl_scale", "Scale a Kubernetes deployment", {"name": STRING, "replicas": {"type": "integer"}}),
    ("read_graph", "Read the entire knowledge graph", None),
    ("append_insight", "Add a business insight to the memo", {"insight": STRING}),
    ("browser_click", "Perform click on a web page", {"ref": STRING}),
    ("git_reset", "Unstages all staged changes", {"repo_path": STRING}),
    ("get_time", "Return the server's current UTC time as ISO 8601.", None),
])
def test_d002_short_descriptions_that_say_what_the_tool_does_are_clean(name, description, properties):
    assert lint(tool(name, description, properties), "D002") == []


def test_d002_korean_is_weighted_and_informative_korean_passes():
    # 19 Hangul-heavy characters: long enough once weighted (×2.5)
    assert lint(tool("get_weather", "현재 날씨를 도시 이름으로 조회합니다"), "D002") == []
    [d] = lint(tool("get_weather", "날씨 확인", {"city": {"type": "string"}}), "D002")
    assert "Hangul/Han weigh 2.5" in d.message and "restates" in d.message


def test_d002_option_min_length_bounds_what_is_judged():
    short = tool("lookup_customer", description="Gets a customer record.")
    [d] = lint(short, "D002")
    assert "only restates the name 'lookup_customer'" in d.message and "'record' names nothing" in d.message
    assert lint(short, "D002", LintConfig(rule_options={"D002": {"min-length": 10}})) == []
    [d] = lint(short, "D002", LintConfig(rule_options={"D002": {"min-length": 30.5}}))
    assert "23 characters < 30.5" in d.message
    # a higher bound judges more descriptions, still only by what they leave out
    long = tool("get_items", "Fetch all of the items from the backend database", UNDESCRIBED)
    assert lint(long, "D002") == []
    assert len(lint(long, "D002", LintConfig(rule_options={"D002": {"min-length": 60}}))) == 1
    assert lint(tool("get_weather", "Get the weather for a city by its name"), "D002",
                LintConfig(rule_options={"D002": {"min-length": 200}})) == []
    # a value of the wrong type is an error naming the rule and the option, not a silent default
    with pytest.raises(RuleOptionError, match="D002.*'min-length' must be a number"):
        lint(short, "D002", LintConfig(rule_options={"D002": {"min-length": "oops"}}))


@pytest.mark.parametrize("description", [
    "根据城市名称获取当前天气、温度和湿度信息。",
    "获取天气",                       # short Chinese: not read, so not judged
    "天気を取得",                      # Japanese
    "Clima actual de una ciudad",    # Spanish
    "Tìm thời tiết ở địa điểm",      # Vietnamese
])
def test_d002_languages_it_cannot_read_are_not_judged(description):
    assert lint(tool("get_weather", description), "D002") == []


# --------------------------------------------------------------------------- D003 / D004

def test_d003_nested_and_empty_descriptions():
    props = {"address": {"type": "object", "description": "Where to ship",
                         "properties": {"city": {"type": "string"}}},
             "items": {"type": "array", "description": "",
                       "items": {"type": "object", "properties": {"sku": {"type": "string", "description": "SKU"}}}}}
    found = {d.pointer.split("/properties/", 1)[1]: d.message for d in lint(tool(properties=props), "D003")}
    assert set(found) == {"address/properties/city", "items"}
    assert "'address.city'" in found["address/properties/city"] and "empty description" in found["items"]


def test_d003_description_from_a_ref_counts():
    schema = {"type": "object", "properties": {"to": {"$ref": "#/$defs/addr"}},
              "$defs": {"addr": {"type": "string", "description": "Street address (도로명 주소)"}}}
    assert lint({"name": "ship", "description": DESC, "inputSchema": schema}, "D003") == []


def test_d004_missing_type_suggests_from_evidence():
    [d] = lint(prop(description="음량 0-100", default=50), "D004")
    assert '"type": "integer"' in d.message
    [d] = lint(prop(description="Filters", properties={"a": {"type": "string", "description": "A"}}), "D004")
    assert '"type": "object"' in d.message
    [d] = lint(prop(description="Anything"), "D004")
    assert "must guess" in d.message
    for ok in ({"enum": ["a"]}, {"$ref": "#/x"}, {"anyOf": [{"type": "string"}]}, {"type": "str"}, {"const": 1}):
        assert lint(prop(**ok), "D004") == []


# --------------------------------------------------------------------------- D005

@pytest.mark.parametrize("description, enum", [
    ("Temperature unit, celsius or fahrenheit.", ["celsius", "fahrenheit"]),
    ("Sort order: 'asc' or 'desc'.", ["asc", "desc"]),
    ("Must be one of: red, green, blue.", ["red", "green", "blue"]),
    ("Line to take: A-LINE, B-LINE, C-LINE", ["A-LINE", "B-LINE", "C-LINE"]),
    ("Valid options are 'movie', 'series', and 'episode'.", ["movie", "series", "episode"]),
    ("Valid values: ``FULL_THEME`` | ``OKTA_DEFAULT``.", ["FULL_THEME", "OKTA_DEFAULT"]),
    ("정렬 순서: 'asc' 또는 'desc'", ["asc", "desc"]),
    ("정렬 방식: 오름차순, 내림차순 중 하나", ["오름차순", "내림차순"]),
    ("온도 단위 (섭씨 또는 화씨)", ["섭씨", "화씨"]),
])
def test_d005_closed_sets(description, enum):
    [d] = lint(tool(properties={"mode": {"type": "string", "description": description}}), "D005")
    assert d.fix.edits[0].value == enum


@pytest.mark.parametrize("description", [
    "Units, e.g. celsius or fahrenheit",
    "Resolution of the photo (e.g., high, medium, low)",    # corpus regression: 'e.g.,' inside the list
    "Language code such as 'en' or 'ko'",
    "Type of hash, e.g., SHA-256, MD5.",                     # corpus regression
    "The city, state or country.",
    "Location in the format 'City, State' or 'City, Country'",  # corpus regression: formats, not values
    "A list of which each element is one of the following: FREE_CANCELLATION | PAY_LATER.",  # corpus regression
    "Use 'me' or 'self' for the current user; otherwise a user id",
    "Date in 'YYYY-MM-DD' or 'DD/MM/YYYY' format",
    "The ID or URL of the page",
    "Currency: USD, EUR, GBP",
    "정렬 방식 (예: asc, desc)",
    "도시 또는 지역 이름",
    "필터 ('A', 'B', 'C' 등)",
    "游客的年龄范围，比如'青年', '中年', '老年'。",             # corpus regression: 比如 = for example
    "Options include 'easy', 'medium', 'hard'.",
])
def test_d005_examples_and_open_lists_are_not_closed_sets(description):
    assert lint(tool(properties={"mode": {"type": "string", "description": description}}), "D005") == []


def test_d005_only_for_free_strings():
    described = "Sort order: 'asc' or 'desc'."
    for schema in ({"type": "string", "enum": ["asc", "desc"]}, {"type": "integer"},
                   {"type": "string", "pattern": "^a"}):
        assert lint(tool(properties={"order": {**schema, "description": described}}), "D005") == []
    # free-text properties: quoted words are syntax help unless a cue says "one of"
    query = {"type": "string", "description": "Combine terms with 'AND' or 'OR'"}
    assert lint(tool(properties={"query": query}), "D005") == []


# --------------------------------------------------------------------------- D006

def test_d006_opaque_codes():
    [d] = lint(prop(type="string", enum=["SVC_PREM", "SVC_STD"], description="Service tier"), "D006")
    assert "'SVC_PREM'" in d.message
    [d] = lint(prop(type="string", enum=["A1", "B2", "C3"], description="좌석 등급"), "D006")
    assert "'A1'" in d.message


@pytest.mark.parametrize("values, description", [
    (["DHL", "UPS", "FedEx"], "Courier"),                     # corpus regression: names, not codes
    (["en", "fr", "zh"], "Language"),
    (["en_US", "fr_FR"], "Locale"),
    (["P1", "P2", "P3"], "Priority"),
    (["mp3", "wav"], "Format"),
    (["GPT_4_TURBO", "CLAUDE_3_HAIKU"], "Model"),
    (["view", "str_replace"], "Command"),
    (["A1", "B2"], "좌석 등급: A1 = 일반석, B2 = 비즈니스석"),   # explained in the description
])
def test_d006_readable_or_explained_values_pass(values, description):
    assert lint(prop(type="string", enum=values, description=description), "D006") == []


# --------------------------------------------------------------------------- D007

@pytest.mark.parametrize("name, description, addition", [
    ("start_date", "First day", ("format", "date")),
    ("created_at", "Creation moment", ("format", "date-time")),
    ("when", "YYYY-MM-DD", ("format", "date")),
    ("when", "Date of the appointment", ("format", "date")),
    ("when", "Date in MM/DD/YYYY", ("pattern", r"^\d{2}/\d{2}/\d{4}$")),
    ("since", "Timestamp (YYYY-MM-DDTHH:MM:SS)", ("pattern", r"^\d{4}\-\d{2}\-\d{2}T\d{2}:\d{2}:\d{2}$")),
    ("since", "ISO 8601 timestamp", ("format", "date-time")),
    ("d", "예약 날짜", ("format", "date")),
    ("d", "출발 일시", ("format", "date-time")),
])
def test_d007_dates(name, description, addition):
    [d] = lint(tool(properties={name: {"type": "string", "description": description}}), "D007")
    assert (d.fix.edits[0].pointer.rsplit("/", 1)[-1], d.fix.edits[0].value) == addition


@pytest.mark.parametrize("name, schema", [
    ("update", {"type": "string", "description": "The update to apply"}),
    ("data", {"type": "string", "description": "Payload"}),
    ("format_type", {"type": "string", "description": "Output format"}),
    ("timestamp", {"type": "integer", "description": "Unix timestamp"}),
    ("timestamp", {"type": "string", "description": "Unix epoch seconds"}),
    ("cooking_time", {"type": "string", "description": "How long to cook"}),
    ("date", {"type": "string", "description": "The date, e.g. tomorrow"}),
    ("start_date", {"type": "string", "format": "date", "description": "시작 날짜"}),
    ("d", {"type": "string", "description": "날짜 범위"}),
])
def test_d007_negatives(name, schema):
    assert lint(tool(properties={name: schema}), "D007") == []


def test_d007_own_format_gets_no_wrong_suggestion():
    check_out = {"type": "string", "description": "Format is [day, month, year]."}
    [d] = lint(tool(properties={"check_out_date": check_out}), "D007")
    assert not d.fix.edits and '"pattern"' in d.message


# --------------------------------------------------------------------------- D008

def test_d008_near_identical_descriptions():
    tools = [tool("get_user", "Returns the profile of one user."), tool("fetch_user", "Returns the profile of a user.")]
    [d] = lint(tools, "D008")
    assert d.tool == "fetch_user" and "'get_user'" in d.message


def test_d008_korean_and_contrast():
    ko = [tool("get_user", "사용자 프로필을 조회합니다."), tool("fetch_user", "사용자 프로필을 조회합니다")]
    assert len(lint(ko, "D008")) == 1
    contrasted = [tool("get_user", "사용자 프로필을 조회합니다."),
                  tool("fetch_user", "사용자 프로필을 조회합니다. 최신 정보는 get_user 대신 사용하지 마세요")]
    assert lint(contrasted, "D008") == []
    different = [tool("to_celsius", "Converts a temperature to Celsius."),
                 tool("to_fahrenheit", "Converts a temperature to Fahrenheit.")]
    assert lint(different, "D008") == []


def test_d008_is_near_linear_on_5000_tools():
    tools = [tool(f"tool_{i}", f"Looks up record number {i} in archive {i % 97} and returns its fields.")
             for i in range(5000)]
    contracts = toolclause.load(tools)
    start = time.perf_counter()
    toolclause.lint(contracts, select=["D008"])
    assert time.perf_counter() - start < 5.0  # all pairs in Python would take minutes


# --------------------------------------------------------------------------- D009

def test_d009_writes_that_do_not_say_what_comes_back():
    [d] = lint(tool("send_invoice", "Emails the invoice to the customer on file."), "D009")
    assert "returns" in d.message
    assert len(lint(tool("send_invoice", "고객에게 청구서를 이메일로 발송합니다."), "D009")) == 1


@pytest.mark.parametrize("description", [
    "Emails the invoice and returns the delivery id.",
    "고객에게 청구서를 발송하고 발송 ID를 반환합니다.",
    "Lists open orders.",
    "Calculates the shipping cost.",
    "주문 목록을 조회합니다.",
    "分析社交互动数据，提供社交网络结构。",  # Chinese is not judged
    "顧客に請求書をメールで送信します。",    # nor Japanese
    "Envía la factura al cliente por correo electrónico.",  # nor Spanish
])
def test_d009_negatives(description):
    assert lint(tool("send_invoice", description), "D009") == []


def test_d009_output_schema_documents_the_result():
    assert lint(tool("send_invoice", "Emails the invoice.", outputSchema={"type": "object"}), "D009") == []


@pytest.mark.parametrize("name, description", [
    # judged wrong: the verb's meaning is the result
    ("echo", "Echoes back the input string"),
    ("puppeteer_screenshot", "Take a screenshot of the current page or a specific element"),
    # the same, for encoders and other utilities whose result is obvious
    ("base64_encode", "Encodes text."),
    ("browser_snapshot", "Capture accessibility snapshot of the current page"),
    ("export_report", "Exports the monthly report."),
    ("capture_screen", "화면을 캡처합니다."),
])
def test_d009_verbs_whose_meaning_is_the_result(name, description):
    assert lint(tool(name, description), "D009") == []


@pytest.mark.parametrize("name, description", [
    # judged debatable: a state change whose only result is that it happened
    ("kill_process", "Terminate a running process by PID."),
    ("firecrawl_monitor_delete", "Permanently delete a monitor and stop its schedule. This cannot be undone."),
    ("force_terminate", "Force terminate a running terminal session."),
    ("create_branch", "Create a new branch in a GitHub repository"),
    ("git_create_branch", "Creates a new branch from an optional base branch"),
    ("kubectl_apply", "Apply a Kubernetes YAML manifest from a string or file"),
    ("slack_add_reaction", "Add a reaction emoji to a message"),
    ("close_page", "Closes the page by its index. The last open page cannot be closed."),
    ("browser_close", "Close the page"),
    ("append_insight", "Add a business insight to the memo"),
    ("browser_resize", "Resize the browser window"),
    ("browser_click", "Perform click on a web page"),
    ("stop_port_forward", "Stop a port-forward process"),
    ("end_session", "세션을 종료합니다."),
    ("add_memo", "메모에 인사이트를 추가합니다."),
])
def test_d009_state_changes_that_only_confirm(name, description):
    assert lint(tool(name, description), "D009") == []


@pytest.mark.parametrize("name, description", [
    # judged right: the result is content the model needs next
    ("performance_stop_trace", "Stop the active performance trace recording on the target webpage."),
    ("git_commit", "Records changes to the repository"),
    ("merge_pull_request", "Merge a pull request"),
    ("fork_repository", "Fork a GitHub repository to your account or specified organization"),
    # creations whose id or content comes back
    ("create_invoice", "Creates an invoice for the customer."),
    ("create_node", "Create a new node (folder or document) in the repository"),
    ("create_snapshot", "Create a Grafana snapshot from a full dashboard payload."),
    ("add_date", "Add days to a date."),
    ("setup_project", "Set up a new project."),
])
def test_d009_still_reports_results_the_model_needs(name, description):
    assert len(lint(tool(name, description), "D009")) == 1


@pytest.mark.parametrize("name, description", [
    ("performance_stop_trace", "Stop the active trace recording; returns the trace summary and insights."),
    ("git_commit", "Records changes to the repository and returns the new commit hash."),
    ("merge_pull_request", "Merge a pull request; responds with the merge commit SHA."),
    ("fork_repository", "Fork a GitHub repository and return the new fork's full name and URL."),
    ("create_invoice", "Creates an invoice for the customer and returns its id."),
    ("create_snapshot", "Create a Grafana snapshot; returns its key and URL."),
])
def test_d009_clean_twins_say_what_comes_back(name, description):
    assert lint(tool(name, description), "D009") == []


# --------------------------------------------------------------------------- bad input never crashes

@pytest.mark.parametrize("bad", [
    {"name": None, "description": 5, "inputSchema": {"type": "object", "properties": ["a", "b"]}},
    {"name": 5, "inputSchema": {"type": 5, "properties": {"x": 5, "y": {"type": ["string", 3], "description": 7,
                                                                         "enum": "nope"}}}},
    {"name": "x", "inputSchema": "not a schema", "outputSchema": []},
    {"name": "x", "description": ["a"],
     "inputSchema": {"properties": {"": {}, "a b": {"properties": 3, "default": {"x": 1}, "enum": [None, 3, "A1"]},
                                    "d": {"type": "string", "description": None, "$ref": 5}}}},
])
def test_bad_input_never_crashes(bad):
    for code in ("D001", "D002", "D003", "D004", "D005", "D006", "D007", "D008", "D009"):
        lint([bad, bad], code)


@pytest.mark.parametrize("description, documented", [
    ("Reads a file.\nTakes:\n- file_path: Path to the file to read", "- file_path: Path to the file to read"),
    ("Reads a file. Options:\n  * 'file_path' (absolute, or relative to the workspace)",
     "* 'file_path' (absolute, or relative to the workspace)"),
    ("Reads the file_path given and returns its text.", None),  # named in passing, not documented
])
def test_d003_a_property_documented_in_the_tool_description_is_asked_to_move_there(description, documented):
    (found,) = lint(tool(description=description, properties={"file_path": {"type": "string"}}), "D003")
    if documented is None:
        assert "documents it" not in found.message
    else:
        assert f"documents it ('{documented}')" in found.message and "move that text" in found.message


# --------------------------------------------------------------------------- D005: "or ALL", glosses, wrapped lists

def _enum(description, key="mode", **schema):
    found = lint(tool(properties={key: {"type": "string", "description": description, **schema}}), "D005")
    return [(d.severity.label, d.fix.edits[0].value if d.fix and d.fix.edits else None) for d in found]


@pytest.mark.parametrize("key, description, enum", [
    ("severity", "Severity: sev1, sev2, sev3 or ALL.", ["sev1", "sev2", "sev3", "ALL"]),   # "ALL" as written
    ("status", "Filter: 'open', 'closed' or 'all'.", ["open", "closed", "all"]),
    ("status", "Filter by status: open, closed, or all", ["open", "closed", "all"]),
    ("line", "노선: 1호선, 2호선, 3호선 중 하나", ["1호선", "2호선", "3호선"]),
    ("alignment", "Text alignment - 'START' (left), 'CENTER', 'END' (right), or 'JUSTIFIED'",
     ["START", "CENTER", "END", "JUSTIFIED"]),                                              # glosses between values
    ("send_updates", '"all" (default), "externalOnly", or "none".', ["all", "externalOnly", "none"]),
    ("type", 'Order type — "market", "limit", "stop",\n  "trailing_stop".',
     ["market", "limit", "stop", "trailing_stop"]),                                          # wrapped onto a new line
    ("align", "Horizontal text alignment - LEFT,\nCENTER, or RIGHT.", ["LEFT", "CENTER", "RIGHT"]),
    ("border", "SOLID (default), SOLID_MEDIUM,\nDASHED, or DOTTED.", ["SOLID", "SOLID_MEDIUM", "DASHED", "DOTTED"]),
    ("time_in_force", '"gtc" (default) or "ioc". Crypto does not\n support "day" or "fok".', ["gtc", "ioc"]),
    ("tls", 'Must be one of: `\\"1.2\\"` or `\\"1.3\\"`.', ["1.2", "1.3"]),              # escaped quotes dropped
    ("exec_err_state", "State on execution error: NoData, Alerting, OK (required for 'create', 'update')",
     ["NoData", "Alerting", "OK"]),
    ("state", "New state for the sprint (future|active|closed)", ["future", "active", "closed"]),
])
def test_d005_lists_ending_in_all_glossed_and_wrapped(key, description, enum):
    assert _enum(description, key) == [("warning", enum)]
    assert _enum(description, key, enum=enum) == []                                        # the clean twin


@pytest.mark.parametrize("key, description", [
    ("mode", "Currency: USD, EUR or GBP"),                        # a label that is not the property's
    ("mode", "Currency: USD, EUR, GBP"),
    ("mode", "one of a, b or all of them"),                       # "all of them" is no value
    ("rule_group", "The rule group name (required for 'create', 'update')"),    # another parameter's values
    ("rule_uid", "The UID (required for 'get', 'update'; optional for 'create')"),
    ("role", "Permission role. Used by \"grant\" and \"update\"."),
    ("limit_price", "Required if the order's `type` field was `limit` or `stop_limit`."),
    ("mode", "Crypto does not support 'day' or 'fok'."),          # the values it refuses
    ("output_dir", "If not set, the platform scans for these directory names: `_static`, `dist`, `public`."),
    ("operation", "The operation to check. Common values: 'read', 'update', 'delete'."),
    ("vendor", "Valid values — AWS: 'CONFLUENT', 'MSK', 'S3'. Azure: 'EVENTHUB', 'CONFLUENT'. GCP: 'CONFLUENT'."),
    ("fields", 'JSON string of field values. Examples:\n- {"summary": "Access issue", "description": "x"}'),
    ("version", "For quarterly APIs use 'YYYY-MM'; for App Home use canonical 'v1.0' or 'v1.1' names."),
    ("timeframe", "Any of:\n - `[1-59]Min` or `[1-59]T`\n - `1Day` or `1D` creates 1-day bars"),
    ("style", "Named style - 'NORMAL_TEXT', 'TITLE',\n 'HEADING_1' through 'HEADING_6'."),  # a range, not listed out
    ("end", "The end time. Supported formats are RFC3339 or relative. Valid units are 'ns', 'us' (or 'µs'), 'ms'."),
    ("period", "시점: '2023'(사업연도), '2023-1'(부가 1기), '2023-12-31'(날짜)"),   # dates are examples of forms
])
def test_d005_lists_that_are_not_the_whole_set(key, description):
    assert _enum(description, key) == []


# --------------------------------------------------------------------------- D005: closed by name, values unsaid

@pytest.mark.parametrize("key, description", [
    ("priority", "Ticket priority."), ("severity", "Severity of the incident"), ("status", "The status of the order"),
    ("sort_order", "The sort order."), ("visibility", "Who can see it."), ("role", "The role of the member."),
    ("category", "Category to file under"), ("plan", "Subscription plan"), ("level", "Log level"),
    ("tier", "Pricing tier"), ("alert_state", "The alert's state"),
])
def test_d005_closed_set_names_whose_values_are_unsaid_are_info(key, description):
    [d] = lint(tool(properties={key: {"type": "string", "description": description}}), "D005")
    assert d.severity.label == "info" and d.fix is None
    assert "say which values it takes, or add an \"enum\"" in d.message
    for settled in ({"enum": ["a", "b"]}, {"const": "a"}, {"pattern": "^P[1-4]$"}, {"format": "x"}):  # clean twins
        assert _enum(description, key, **settled) == []


def test_d005_a_transit_line_is_a_closed_set_a_line_of_text_is_not():
    subway = tool("get_subway_line", "Gets the status of one subway line.",
                  {"line": {"type": "string", "description": "Which line to check"}})
    [d] = lint(subway, "D005")
    assert d.severity.label == "info"
    assert _enum("Line of the file to edit", "line") == [] and _enum("Which line", "line") == []


@pytest.mark.parametrize("key, description", [
    ("priority", "Ticket priority (free text)."), ("priority", "Priority id."), ("status", "Status message to show"),
    ("status", "A filter expression on status"), ("category", "Search query for the category"),
    ("priority", "Ticket priority, e.g. high"), ("priority", "Priority from 1 to 5"),
    ("role", "IAM role ARN"), ("state", "Workflow state name"), ("state", "The U.S. state where the city is located"),
    ("plan", "The step-by-step execution plan in markdown"), ("evaluation_plan", "Plan for evaluating the project"),
    ("role", "成员的角色，可选值* assignee* follower"), ("status", "解决状态（如未解决、处理中、已解决）"),
    ("level", "Level: low or high"),
])
def test_d005_closed_set_names_not_reported_when_the_description_says_what_they_hold(key, description):
    assert [s for s, _ in _enum(description, key) if s == "info"] == []


def test_d005_closed_set_names_only_for_free_strings():
    assert lint(tool(properties={"priority": {"type": "integer", "description": "Ticket priority."}}), "D005") == []
    assert lint(tool(properties={"priority": {"type": "string"}}), "D005") == []   # no description: D003's finding


# --------------------------------------------------------------------------- D007: versions, ids, several forms

def _date(key, description):
    found = lint(tool(properties={key: {"type": "string", "description": description}}), "D007")
    return [(d.fix.edits[0].value if d.fix.edits else None, d.message) for d in found]


@pytest.mark.parametrize("key, description", [
    ("version", "API version, e.g. 2025-01"),                           # a version label, not a date
    ("api_version", "API version to use (e.g. \"2024-06-01\")"),
    ("api_version", "2024-06-01"),
    ("v", "The API version (2024-06-01)"),
    ("ts", "Message timestamp, e.g. \"1234567890.123456\""),              # Slack: Unix seconds, an id
    ("ts", "Timestamp of the message"),
    ("thread_ts", "The timestamp of the parent message"),
    ("date", "YYYY-MM-DD or relative dates like 'yesterday'"),
    ("sort", "Timestamp sort order: 'asc' or 'desc'"),                   # an order, not a time
    ("body", "Comment text in Markdown format"),                         # a format, but of no date
    ("currency", "The currency of all prices in ISO 4217 format."),
    ("address", "Full formatted address."),
    ("reason", "일시적 출국 사유"),                                        # 일시적 = temporary
    ("reason", "일시 출국 사유."),
    ("start_time", "待查询的起始时间，秒级时间戳"),                           # Unix seconds
    ("due", "截止时间的时间戳，距1970-01-01 00:00:00 UTC的毫秒数"),
    ("time_filter", 'Filter using createTime syntax: \'createTime > "2026-03-18T00:00:00-03:00"\''),
    ("column_values", 'A JSON string of column values. Date columns use { "date": "YYYY-MM-DD" }.'),
    ("date_formatter", "Display format, default \"yyyy/MM/dd\""),
    ("display", "显示格式。默认为 \"yyyy/MM/dd\""),
    ("period", "시점: '2023'(사업연도), '2023-1'(부가 1기), '2023-12-31'(날짜)"),
    ("date_restrict", "Restrict results by date (e.g., \"d5\" for past 5 days)."),
    ("schedule", "查询的时间安排，例如：'每周一上午10点'"),
])
def test_d007_versions_ids_and_other_values_are_not_dates_to_format(key, description):
    assert _date(key, description) == []


@pytest.mark.parametrize("key, description", [
    ("since", "Filter commits from this date (format: 'YYYY-MM-DD' or 'YYYY-MM-DDTHH:MM:SS')"),
    ("initial", "Format: 2100-12-31, 23:59, 2100-12-31T23:59"),
    ("time_min", "Start of the interval (e.g., '2024-05-12T10:00:00Z' or '2024-05-12')."),
    ("start", "Event start time: '2025-01-01T10:00:00' for timed events or '2025-01-01' for all-day events"),
    ("end_date", "End date (ISO 8601 or date-only)"),
    ("deadline_date", 'The deadline date (YYYY-MM-DD). Use "remove" to clear the deadline.'),
    ("birthday", "Birthday as 'YYYY-MM-DD', 'MM-DD' (no year), or 'clear'/'' to remove."),
    ("depart_at", "Departure time in ISO 8601 (YYYY-MM-DDThh:mm:ssZ, or YYYY-MM-DDThh:mm)."),
    ("when", "Date: 2024-01-15 or 15/01/2024"),
    ("start_time", "Start time. Without an offset, pass the zone. Date-only values create all-day events."),
])
def test_d007_several_documented_forms_get_a_description_request_not_a_format(key, description):
    [(value, message)] = _date(key, description)
    assert value is None and "say in the description which forms it takes" in message


@pytest.mark.parametrize("key, description", [
    ("time_min", "Start of time range (ISO 8601, e.g., '2024-01-01T00:00:00')."),     # no offset
    ("started", "Start time in ISO format. Example: '2023-08-01T12:00:00.000+0000'"),  # offset without a colon
    ("start_hour", "ISO8601 date and time (e.g. 2022-06-30T12:00)."),                   # no seconds
])
def test_d007_a_date_time_that_rfc3339_rejects_gets_a_pattern_not_date_time(key, description):
    [(value, message)] = _date(key, description)
    assert value is None and "no RFC 3339 date-time" in message and '"format": "date-time" would reject it' in message


@pytest.mark.parametrize("key, description, value", [
    ("due_on", "ISO 8601 date string", "date"),                          # a date, not a date-time
    ("deadline", "Due date ISO 8601 (null to unset)", "date"),
    ("start", "Start date of the day off in ISO format.", "date"),
    ("due_at", "ISO 8601 datetime string", "date-time"),
    ("since", "The start (inclusive) of the date range. This should follow the YYYY-MM-DD format. "
              "The date range is limited to 90 days.", "date"),            # a bound of a range is one date
    ("start_time", "ISO 8601 start time (e.g. \"2025-04-19T20:00:00+00:00\").", "date-time"),
    ("release_date", "Release date, e.g. 2025-01-15", "date"),            # the clean twin of the versions
    ("interaction_date", "交互的日期（ISO 8601格式）。", "date"),
])
def test_d007_the_format_fits_every_documented_form(key, description, value):
    [(found, _)] = _date(key, description)
    assert found == value


@pytest.mark.parametrize("key, description", [
    ("analysis_period", "分析的时间跨度，格式为'YYYY-MM-DD to YYYY-MM-DD'。"),   # one value holding a range
    ("date_range", "The date range, formatted as 'YYYY-MM-DD to YYYY-MM-DD'."),
    ("depart_at", "ISO 8601 date-time string (format string: YYYY-MM-DDThh:mmss±hh:mm)."),  # read only in part
    ("time", "The tentative time for the reservation in 24-hour format, such as '18:00'."),
    ("time", "Preferred time of flight. Format XX:XXAM or XX:XXPM."),
])
def test_d007_forms_no_format_keyword_fits_get_a_pattern_request_without_a_guess(key, description):
    [(value, message)] = _date(key, description)
    assert value is None and 'add a "pattern"' in message and '"format": "date"' not in message


def test_d007_reads_a_nullable_string_written_as_an_anyof():
    tool = {"name": "get_trades", "description": "Get the stock trades of a symbol in a time window.",
            "inputSchema": {"type": "object", "properties": {"asof": {
                "anyOf": [{"type": "string"}, {"type": "null"}], "default": None,
                "description": "As-of date (YYYY-MM-DD) for point-in-time symbol mapping."}}}}
    (d,) = [d for d in toolclause.lint(tool, select=["D007"])]
    assert d.pointer == "/inputSchema/properties/asof" and '"format": "date"' in d.message
    tool["inputSchema"]["properties"]["asof"]["anyOf"][0]["format"] = "date"
    assert toolclause.lint(tool, select=["D007"]) == []


def test_d005_reads_a_list_that_defines_each_value_on_its_line():
    description = ('Control "anyone with the link" access for the file.\n- "off": Disable access.\n'
                   '- "reader": Anyone with the link can view.\n- "writer": Anyone with the link can edit.')
    tool = {"name": "share_file", "description": "Share a Drive file with people or a link.",
            "inputSchema": {"type": "object", "properties": {"link_sharing": {"type": "string",
                                                                              "description": description}}}}
    (d,) = toolclause.lint(tool, select=["D005"])
    assert d.fix.edits[0].value == ["off", "reader", "writer"]
    fields = "A JSON object with these fields:\n- `name`: the name\n- `email`: the address"
    tool["inputSchema"]["properties"]["link_sharing"]["description"] = fields
    assert toolclause.lint(tool, select=["D005"]) == []


def test_d007_reads_the_args_section_of_the_tool_description_for_an_undescribed_property():
    tool = {"name": "get_esg_index_info",
            "description": "ESG 지수 정보를 조회합니다.\n\n    Args:\n        basDd: 기준일자 (YYYYMMDD)\n",
            "inputSchema": {"type": "object", "properties": {"basDd": {"title": "Basdd", "type": "string"}}}}
    (d,) = toolclause.lint(tool, select=["D007"])
    assert d.pointer == "/inputSchema/properties/basDd" and "YYYYMMDD" in d.message


def test_d005_puts_the_enum_of_a_nullable_string_in_its_string_branch():
    tool = {"name": "get_trades", "description": "Get the stock trades of a symbol in a time window.",
            "inputSchema": {"type": "object", "properties": {"feed": {
                "anyOf": [{"type": "string"}, {"type": "null"}], "default": None,
                "description": 'Data feed: "sip", "iex", "otc" or "boats".'}}}}
    (d,) = toolclause.lint(tool, select=["D005"])
    assert d.pointer == "/inputSchema/properties/feed"
    assert [(e.pointer, e.value) for e in d.fix.edits] == [("/inputSchema/properties/feed/anyOf/0/enum",
                                                            ["sip", "iex", "otc", "boats"])]
