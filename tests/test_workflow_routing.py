"""Tool routing: the few tools that fit a request, in English and Korean, and none when nothing fits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from toolclause import load
from toolclause.cli.main import cli
from toolclause.workflow.routing import Router, route, terms

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora" / "bfcl"


@pytest.fixture(scope="module")
def router() -> Router:
    return Router(load(str(EXAMPLES)))


@pytest.mark.parametrize("request_text, best", [
    ("refund my duplicate order", "create_refund"),
    ("주문 환불해 주세요", "create_refund"),                     # Korean request, English tool
    ("강남역 근처 피자집 찾아줘", "search_restaurants"),           # Korean request, Korean tool (compound word)
    ("find a pizza place near Gangnam station", "search_restaurants"),  # English request, Korean tool
    ("show the comments on ticket 42", "list_ticket_comments"),
    ("티켓 댓글 목록 보여줘", "list_ticket_comments"),
    ("what is 5 factorial", "math.factorial"),
])
def test_the_tool_that_fits_comes_first(router: Router, request_text: str, best: str):
    assert router.select(request_text, k=3)[0] == best


def test_nothing_fits_is_none_and_k_bounds_the_list(router: Router):
    assert router.select("what is the capital of France", k=8) == []
    assert router.select("ㅋㅋ", k=8) == []
    assert len(router.select("read a file and search the menu to order", k=2)) == 2
    strict = Router(load(str(EXAMPLES)), min_score=100.0)
    assert strict.select("refund my duplicate order") == []


def test_terms_split_names_stem_and_merge_stand_ins():
    assert terms("getUserById") == terms("get user id") == terms("fetch user ID")
    assert terms("Fetching the items") == terms("retrieve item")
    assert "피자" in terms("피자집") and terms("search")[0] in terms("찾아줘")


def test_route_takes_contracts_or_anything_load_reads():
    assert route(str(EXAMPLES), "refund my duplicate order", k=1) == ["create_refund"]
    assert route(load(str(EXAMPLES)), "refund my duplicate order", k=1) == ["create_refund"]


def test_the_route_command():
    out = CliRunner().invoke(cli, ["route", str(EXAMPLES), "주문 환불해 주세요", "-k", "2", "--format", "json"])
    assert out.exit_code == 0
    assert json.loads(out.stdout)["tools"][0]["name"] == "create_refund"
    out = CliRunner().invoke(cli, ["route", str(EXAMPLES), "what is the capital of France"])
    assert out.exit_code == 0 and out.stdout == "none\n"
    assert CliRunner().invoke(cli, ["route", str(EXAMPLES / "nowhere"), "x"]).exit_code == 2


@pytest.mark.skipif(not (SHARED / "queries.jsonl").is_file(), reason="the BFCL corpus is not beside the repository")
def test_recall_at_5_on_a_slice_of_bfcl_beats_the_target():
    tools = []
    for line in (SHARED / "tools.jsonl").open(encoding="utf-8"):
        try:
            tools += load(json.loads(line)["tool"], "bfcl")
        except ValueError:
            pass
    router = Router(tools)
    queries = [json.loads(line) for line in (SHARED / "queries.jsonl").open(encoding="utf-8")]
    answered = [q for q in queries if q["answer_functions"]][::5]
    recall = sum(len(set(q["answer_functions"]) & set(router.select(q["question"], 5))) / len(q["answer_functions"])
                 for q in answered) / len(answered)
    assert recall >= 0.85
