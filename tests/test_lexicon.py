"""The shared lexicon: identifiers, words, stems and verb classes, English and Korean."""

from __future__ import annotations

import pytest

from toolclause.lexicon import (
    NameStyle,
    VerbClass,
    english_equivalents,
    is_filler,
    is_generic,
    name_style,
    says_result,
    split_identifier,
    stem_ko,
    verb_class,
    weighted_length,
    words,
)


@pytest.mark.parametrize("name, expected", [
    ("getUserById", ["get", "user", "by", "id"]),
    ("get_user_by_id", ["get", "user", "by", "id"]),
    ("get-user-by-id", ["get", "user", "by", "id"]),
    ("users.get_by_id", ["users", "get", "by", "id"]),
    ("HTTPServerError", ["http", "server", "error"]),
    ("oauth2Token", ["oauth", "2", "token"]),
    ("", []),
])
def test_split_identifier(name, expected):
    assert split_identifier(name) == expected


@pytest.mark.parametrize("bad", [None, 5, ["get"], {"a": 1}])
def test_split_identifier_and_words_take_anything(bad):
    assert split_identifier(bad) == []
    assert words(bad) == []
    assert name_style(bad) is None


def test_words_tokenises_english_and_hangul():
    assert words("Calls getUserById, then 상태를 조회합니다.") == [
        "calls", "get", "user", "by", "id", "then", "상태를", "조회합니다"]


@pytest.mark.parametrize("word, cls", [
    ("get", VerbClass.READ),
    ("search", VerbClass.READ),
    ("create", VerbClass.WRITE),
    ("pay", VerbClass.WRITE | VerbClass.IRREVERSIBLE),
    ("delete", VerbClass.IRREVERSIBLE | VerbClass.DESTRUCTIVE),
    ("cancel", VerbClass.DESTRUCTIVE),
    ("조회합니다", VerbClass.READ),
    ("검색하고", VerbClass.READ),
    ("주문", VerbClass.WRITE),
    ("결제합니다", VerbClass.WRITE | VerbClass.IRREVERSIBLE),
    ("삭제한", VerbClass.IRREVERSIBLE | VerbClass.DESTRUCTIVE),
    ("취소", VerbClass.DESTRUCTIVE),
    ("weather", VerbClass.NONE),
    ("날씨", VerbClass.NONE),
])
def test_verb_class(word, cls):
    assert verb_class(word) == cls


def test_mutating_covers_writes_and_destruction():
    assert verb_class("remove") & VerbClass.MUTATING
    assert verb_class("해지") & VerbClass.MUTATING
    assert not verb_class("list") & VerbClass.MUTATING


def test_korean_stems_and_translations():
    assert stem_ko("조회합니다") == "조회"
    assert stem_ko("목록을") == "목록"
    assert "get" in english_equivalents("조회합니다")
    assert "status" in english_equivalents("상태를")
    assert english_equivalents("무지개") == frozenset()


def test_generic_filler_and_result_words():
    assert is_generic("process") and is_generic("data") and not is_generic("invoice")
    assert not is_generic("job")  # a real object in schedulers
    assert is_filler("the") and is_filler("database") and is_filler("해당")
    assert says_result("returns") and says_result("identifying") and says_result("반환합니다")
    assert not says_result("sends")


def test_weighted_length_counts_dense_scripts_more():
    assert weighted_length("abcd") == 4
    assert weighted_length("상태 조회") == 4 * 2.5 + 1
    assert weighted_length("获取天气") == 10


@pytest.mark.parametrize("name, style", [
    ("get_user", NameStyle.SNAKE), ("getUser", NameStyle.CAMEL), ("GetUser", NameStyle.PASCAL),
    ("get-user", NameStyle.KEBAB), ("search", None), ("copilot_searchCodebase", None),
    ("weather.get_forecast", NameStyle.SNAKE),
])
def test_name_style(name, style):
    assert name_style(name) is style
