"""Family W: widget templates, their mime types and CSPs, invocation texts — on server snapshots."""

from __future__ import annotations

import glob
import json

import pytest

import toolclause
from toolclause.rules.widgets import RULES

BOARD = "ui://widget/board.html"
SKYBRIDGE = "text/html+skybridge"
MCP_APP = "text/html;profile=mcp-app"
OPENAI_CSP = {"connect_domains": ["https://api.example.com"], "resource_domains": ["https://cdn.example.com"]}


def tool(name="show_board", meta=None):
    out = {"name": name, "description": "Shows the kanban board of one project.",
           "inputSchema": {"type": "object", "properties": {"project": {"type": "string", "description": "Project id"}},
                           "required": ["project"]}}
    if meta is not None:
        out["_meta"] = meta
    return out


def resource(uri=BOARD, mime=SKYBRIDGE, meta=None, **extra):
    out = {"uri": uri, "name": "board"}
    if mime is not None:
        out["mimeType"] = mime
    if meta is not None:
        out["_meta"] = meta
    out.update(extra)
    return out


def snapshot(tools, resources):
    return {"tools": tools, "resources": resources}


def lint(obj, code):
    return [d for d in toolclause.lint(obj, select=[code]) if d.code == code]


def test_registered_in_code_order():
    assert [r.code for r in RULES] == ["W001", "W002", "W003", "W004", "W005"]


# --------------------------------------------------------------------------- the loader

def test_a_snapshot_attaches_its_resources_to_every_tool():
    tools = toolclause.load(snapshot([tool("a"), tool("b")], [resource()]))
    assert [t.origin.resources for t in tools] == [(resource(),), (resource(),)]


def test_saved_json_rpc_responses_are_a_snapshot_too():
    document = [{"jsonrpc": "2.0", "id": 1, "result": {"tools": [tool()]}},
                {"jsonrpc": "2.0", "id": 2, "result": {"resources": [resource()]}},
                {"jsonrpc": "2.0", "id": 3,
                 "result": {"resourceTemplates": [{"uriTemplate": "ui://x/{id}", "name": "x"}]}}]
    (loaded,) = toolclause.load(document)  # the resource results are not reported as unreadable tools
    assert [r.get("uri") or r.get("uriTemplate") for r in loaded.origin.resources] == [BOARD, "ui://x/{id}"]


def test_a_plain_tool_file_knows_no_resources():
    assert toolclause.load(tool())[0].origin.resources is None
    assert toolclause.load({"tools": [tool()]})[0].origin.resources is None


# --------------------------------------------------------------------------- W001

def test_w001_template_the_server_does_not_declare():
    (found,) = lint(snapshot([tool(meta={"openai/outputTemplate": "ui://widget/bord.html"})], [resource()]), "W001")
    assert "'ui://widget/bord.html'" in found.message and f"did you mean '{BOARD}'?" in found.message
    assert found.pointer == "/tools/0/_meta/openai~1outputTemplate"
    assert found.severity.label == "error"


def test_w001_mcp_apps_resource_uri():
    (found,) = lint(snapshot([tool(meta={"ui": {"resourceUri": "ui://app/main.html"}})], [resource()]), "W001")
    assert found.pointer == "/tools/0/_meta/ui/resourceUri" and "_meta.ui.resourceUri" in found.message


def test_w001_a_server_with_no_resources():
    (found,) = lint(snapshot([tool(meta={"openai/outputTemplate": BOARD})], []), "W001")
    assert "declares no resources" in found.message


@pytest.mark.parametrize("document", [
    tool(meta={"openai/outputTemplate": "ui://widget/nowhere.html"}),  # no resource list: unknown, not missing
    snapshot([tool(meta={"openai/outputTemplate": BOARD})], [resource()]),
    snapshot([tool(meta={"openai/outputTemplate": "ui://widget/board-7.html"})],
             [{"uriTemplate": "ui://widget/board-{id}.html", "name": "boards"}]),  # a template declares it
    snapshot([tool(meta={"openai/outputTemplate": 5, "ui": "x"})], [resource()]),
    snapshot([tool(meta=["not", "an", "object"])], [resource()]),
])
def test_w001_clean(document):
    assert lint(document, "W001") == []


# --------------------------------------------------------------------------- W002

def test_w002_plain_html_widget():
    (found,) = lint(snapshot([tool(meta={"openai/outputTemplate": BOARD})], [resource(mime="text/html")]), "W002")
    assert "served as 'text/html'" in found.message and f"'{SKYBRIDGE}'" in found.message


def test_w002_mcp_apps_wants_its_own_type():
    document = snapshot([tool(meta={"ui": {"resourceUri": BOARD}})], [resource(mime=SKYBRIDGE)])
    (found,) = lint(document, "W002")
    assert MCP_APP in found.message


@pytest.mark.parametrize("meta, mime", [
    ({"ui": {"resourceUri": BOARD}}, MCP_APP),
    ({"ui": {"resourceUri": BOARD}}, "text/html; profile=mcp-app"),
    ({"openai/outputTemplate": BOARD}, "Text/HTML+Skybridge"),
    ({"openai/outputTemplate": BOARD, "ui": {"resourceUri": BOARD}}, MCP_APP),  # both hosts: either type works
    ({"openai/outputTemplate": BOARD}, None),  # listed without a type and never read: unknown
])
def test_w002_clean(meta, mime):
    assert lint(snapshot([tool(meta=meta)], [resource(mime=mime)]), "W002") == []


def test_w002_what_was_read_wins_over_the_list():
    read_right = resource(mime="text/html", contents=[{"uri": BOARD, "mimeType": SKYBRIDGE}])
    assert lint(snapshot([tool(meta={"openai/outputTemplate": BOARD})], [read_right]), "W002") == []
    read_without_type = resource(mime=None, contents=[{"uri": BOARD}])
    (found,) = lint(snapshot([tool(meta={"openai/outputTemplate": BOARD})], [read_without_type]), "W002")
    assert "declares no mimeType" in found.message


def test_w002_one_finding_per_resource_naming_the_other_tools():
    tools = [tool("show_board", {"openai/outputTemplate": BOARD}),
             tool("show_sprint", {"openai/outputTemplate": BOARD})]
    (found,) = lint(snapshot(tools, [resource(mime="text/html")]), "W002")
    assert found.tool == "show_board" and "also the widget of show_sprint" in found.message


# --------------------------------------------------------------------------- W003

@pytest.mark.parametrize("source", ["*", "https://*", "https:", "http://*:8080", "*://*", "wss://*"])
def test_w003_wildcard_sources(source):
    csp = {"connect_domains": [source], "resource_domains": ["https://cdn.example.com"]}
    document = snapshot([tool(meta={"openai/outputTemplate": BOARD})], [resource(meta={"openai/widgetCSP": csp})])
    (found,) = lint(document, "W003")
    assert f"connect_domains '{source}'" in found.message and found.severity.label == "warning"


def test_w003_mcp_apps_csp():
    csp = {"connectDomains": ["https://api.example.com"], "resourceDomains": ["*"]}
    document = snapshot([tool(meta={"ui": {"resourceUri": BOARD}})],
                        [resource(mime=MCP_APP, meta={"ui": {"csp": csp}})])
    (found,) = lint(document, "W003")
    assert "resourceDomains '*'" in found.message


def test_w003_missing_csp_from_the_listing_alone_and_from_the_read_resource():
    meta = {"openai/outputTemplate": BOARD}
    (listed,) = lint(snapshot([tool(meta=meta)], [resource()]), "W003")
    assert "in its listing (nor was it read)" in listed.message and listed.severity.label == "info"
    (found,) = lint(snapshot([tool(meta=meta)], [resource(contents=[{"uri": BOARD, "mimeType": SKYBRIDGE}])]), "W003")
    assert 'declares no Content Security Policy (_meta["openai/widgetCSP"]);' in found.message
    # the tool's own _meta may carry it (the seeds' form)
    with_csp = {**meta, "openai/widgetCSP": "default-src 'self'"}
    assert lint(snapshot([tool(meta=with_csp)], [resource()]), "W003") == []


@pytest.mark.parametrize("policy", ["default-src 'self'; img-src *", "connect-src https://*; img-src 'self'",
                                    "default-src https:"])
def test_w003_a_wildcard_in_a_csp_string(policy):
    document = snapshot([tool(meta={"openai/outputTemplate": BOARD})], [resource(meta={"openai/widgetCSP": policy})])
    (found,) = lint(document, "W003")
    assert "allows any host" in found.message and found.severity.label == "warning"


def test_w003_the_seeds_csp_string_is_a_csp():
    policy = "default-src 'self'; img-src https://cdn.example.com"
    document = snapshot([tool(meta={"openai/outputTemplate": BOARD})], [resource(meta={"openai/widgetCSP": policy})])
    assert lint(document, "W003") == []


# --------------------------------------------------------------------------- W005

GOOD_META = {"openai/widgetCSP": OPENAI_CSP, "openai/widgetDomain": "https://board.example.com",
             "openai/widgetPrefersBorder": True, "openai/widgetDescription": "The project's kanban board."}


@pytest.mark.parametrize(("key", "value", "said"), [
    ("openai/widgetDomain", "chatgpt.com", "not an origin"),
    ("openai/widgetDomain", "https://chatgpt.com/widgets", "not an origin"),
    ("openai/widgetDomain", "http://board.example.com", "not an origin"),
    ("openai/widgetDomain", "https://*.example.com", "not an origin"),
    ("openai/widgetPrefersBorder", "true", "a JSON boolean"),
    ("openai/widgetPrefersBorder", 1, "a JSON boolean"),
    ("openai/widgetDescription", "", "one short sentence"),
    ("openai/widgetDescription", "A board. " * 30, "keep it under 200"),
])
def test_w005_widget_settings(key, value, said):
    document = snapshot([tool(meta={"openai/outputTemplate": BOARD})], [resource(meta={**GOOD_META, key: value})])
    (found,) = lint(document, "W005")
    assert said in found.message and key in found.message and found.severity.label == "warning"


def test_w005_a_missing_description_is_info_and_good_settings_are_clean():
    meta = {k: v for k, v in GOOD_META.items() if k != "openai/widgetDescription"}
    (found,) = lint(snapshot([tool(meta={"openai/outputTemplate": BOARD})], [resource(meta=meta)]), "W005")
    assert "widgetDescription" in found.message and found.severity.label == "info"
    assert lint(snapshot([tool(meta={"openai/outputTemplate": BOARD})], [resource(meta=GOOD_META)]), "W005") == []
    assert lint(snapshot([tool(meta={"openai/outputTemplate": BOARD, **GOOD_META})], [resource()]), "W005") == []
    mcp_apps = snapshot([tool(meta={"ui": {"resourceUri": BOARD}})], [resource(mime=MCP_APP)])
    assert lint(mcp_apps, "W005") == []  # the Apps SDK's keys only


@pytest.mark.parametrize("res", [
    resource(meta={"openai/widgetCSP": OPENAI_CSP}),
    resource(meta={"openai/widgetCSP": {"connect_domains": ["https://*.example.com"], "resource_domains": ["data:"]}}),
    resource(contents=[{"uri": BOARD, "_meta": {"openai/widgetCSP": OPENAI_CSP}}]),  # on the read resource
    resource(meta={"openai/widgetCSP": {"connect_domains": "https://api.example.com", "resource_domains": 5}}),
    resource(meta={"openai/widgetCSP": ["*"]}),  # not a policy object: not this rule's to judge
])
def test_w003_clean(res):
    assert lint(snapshot([tool(meta={"openai/outputTemplate": BOARD})], [res]), "W003") == []


# --------------------------------------------------------------------------- W004

def test_w004_long_invocation_text():
    text = "Fetching every card, column and assignee of your project board now"
    assert len(text) == 66
    meta = {"openai/toolInvocation/invoked": "Done", "openai/toolInvocation/invoking": text}
    (found,) = lint(tool(meta=meta), "W004")
    assert "66 characters" in found.message and found.pointer == "/_meta/openai~1toolInvocation~1invoking"


def test_w004_counts_korean_by_syllable():
    assert lint(tool(meta={"openai/toolInvocation/invoking": "칸" * 64}), "W004") == []
    (found,) = lint(tool(meta={"openai/toolInvocation/invoked": "칸" * 65}), "W004")
    assert "65 characters" in found.message


@pytest.mark.parametrize("meta", [{"openai/toolInvocation/invoking": "x" * 64}, {"openai/toolInvocation/invoking": 7},
                                  {"openai/toolInvocation/invoked": None}, None])
def test_w004_clean(meta):
    assert lint(tool(meta=meta), "W004") == []


# --------------------------------------------------------------------------- real tools

def test_the_corpora_hold_no_false_template_findings():
    """The corpora are plain tool lists (no resources), so W001–W003 must say nothing there."""
    records = []
    for path in sorted(glob.glob("/work/shared/corpora/*/tools.jsonl"))[:4]:
        with open(path, encoding="utf-8") as handle:
            records.extend(json.loads(line) for line in handle if line.strip())
    if not records:
        pytest.skip("no corpora here")
    found = toolclause.lint(records, select=["W001", "W002", "W003"])
    assert found == []

