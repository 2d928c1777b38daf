"""Tool routing: the few tools that fit a request, in English and Korean, and none when nothing fits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

import pytest
from click.testing import CliRunner

from toolclause import Toolbox, load
from toolclause.cli.main import cli
from toolclause.routing import Router, route, terms

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


@pytest.mark.parametrize("k", [0, -1, 2.5, True, "3"])
def test_k_must_be_a_whole_number_of_tools(router: Router, k):
    # -1 once sliced off the last match and returned the rest
    with pytest.raises(ValueError, match="k must be a whole number of tools"):
        router.select("read a file", k=k)


def test_the_request_must_be_text(router: Router):
    with pytest.raises(TypeError, match="request must be the user's request as text"):
        router.select(None)  # type: ignore[arg-type]


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


def test_a_toolbox_selects_its_own_tools_and_sees_tools_added_later():
    box = Toolbox(store="memory://")

    @box.tool(read_only=True)
    def search_restaurants(query: str, location: str, price: Literal["low", "medium", "high"] | None = None) -> dict:
        """Find restaurants by food and area (e.g. pizza near Gangnam), optionally at one price level."""
        return {}

    @box.tool(read_only=True)
    def get_weather(city: str, unit: Literal["celsius", "fahrenheit"] = "celsius") -> dict:
        """Current weather for a city: temperature and conditions."""
        return {}

    assert box.select("강남역 근처 피자집 찾아줘", k=8)[0] == "search_restaurants"
    assert box.select("what's the weather in Seoul", k=1) == ["get_weather"]
    assert box.select("refund my duplicate order") == []
    assert box.select("refund my duplicate order", min_score=0.0) == route(box.contracts, "refund my duplicate order")

    @box.tool(idempotency="key")
    def create_refund(order_id: str, reason: str) -> dict:
        """Refund an order that was charged twice or not delivered; returns the refund id."""
        return {}

    assert box.select("refund my duplicate order", k=1) == ["create_refund"]
    assert box.select("주문 환불해 주세요", k=8)[0] == "create_refund"
    assert box.select("what is the capital of France") == []
    assert box.select("find pizza", k=8, min_score=1000.0) == []
