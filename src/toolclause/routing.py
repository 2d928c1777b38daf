"""Tool routing: the few tools that fit a request, out of many, ranked (lexical, no model).

    router = Router(contracts)
    router.select("find the area of a triangle with base 10", k=8)   # ['calculate_triangle_area', …]
    route(contracts, "…", k=8)                                       # the same, for one request

Each tool is indexed as weighted fields: its name split into words
(`calculate_triangle_area`, `getUserById`, `math.factorial`) counts most, then its
description, its parameters' names, their descriptions and enum values.  Words
are lower-cased and stemmed (English and Korean), the lexicon's stand-ins
(get/fetch/retrieve, find/search, …) meet, and tools are scored with BM25F
(k1 = 1.2, b = 0.75 over the weighted length).  A request that shares too little
with the best tool routes to nothing: `select` returns [] ("none").
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .lexicon import english
from .lexicon.text import identifier_words, is_hangul, stem
from .model import ToolContract

K1, B = 1.2, 0.75
FIELD_WEIGHTS = {"name": 3.0, "description": 1.0, "parameter": 1.0, "parameter_text": 0.4, "enum": 0.5}
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]*|[0-9]+|[\uac00-\ud7a3]+|[\u3400-\u4dbf\u4e00-\u9fff]+")
STOP = frozenset("""
a an the of to in on for at by with from and or but if then than as is are was were be been being this that these
those it its i me my we our you your he she they them their what which who whom whose when where why how can could
would should will shall may might must do does did done have has had please let want need like
some any all each every about into over under up down out also just only more most very much many there here
so not no yes ok hi hello
""".split())

# Korean words a request or a description uses most for what tools do, with the English a tool says it in:
# a Korean request meets English tools, and an English one meets tools described in Korean.
GLOSSARY = {
    "검색": "search", "찾": "search", "찾아": "search", "조회": "get", "확인": "check", "목록": "list",
    "보여": "show", "알려": "tell", "가져오": "get", "불러오": "load", "읽": "read", "생성": "create",
    "만들": "create", "추가": "add", "등록": "register", "수정": "update", "변경": "change", "업데이트": "update",
    "삭제": "delete", "제거": "remove", "취소": "cancel", "보내": "send", "전송": "send", "발송": "send",
    "결제": "pay", "구매": "buy", "주문": "order", "환불": "refund", "예약": "book", "계산": "calculate",
    "변환": "convert", "번역": "translate", "요약": "summarize", "분석": "analyze", "추천": "recommend",
    "식당": "restaurant", "음식": "food", "메뉴": "menu", "날씨": "weather", "기온": "temperature",
    "온도": "temperature", "주소": "address", "위치": "location", "지역": "location", "근처": "near",
    "가격": "price", "가격대": "price", "날짜": "date", "시간": "time", "파일": "file", "문서": "document",
    "사용자": "user", "고객": "customer", "이메일": "email", "메일": "email", "메시지": "message",
    "티켓": "ticket", "댓글": "comment", "상품": "product", "재고": "stock", "배송": "shipping",
    "주문번호": "order", "영화": "movie", "음악": "music", "노래": "song", "항공편": "flight", "호텔": "hotel",
    "환율": "exchange", "주식": "stock", "뉴스": "news", "지도": "map", "경로": "route", "거리": "distance",
    "면적": "area", "넓이": "area", "삼각형": "triangle", "원": "circle", "평균": "average", "합계": "sum",
    "계좌": "account", "잔액": "balance", "송금": "transfer", "피자": "pizza", "초밥": "sushi", "커피": "coffee",
}

_CANONICAL: dict[str, str] = {}
for _group in english.SYNONYMS:
    _first = sorted(_group)[0]
    for _word in _group:
        _CANONICAL.setdefault(stem(_word), stem(_first))


def terms(text: str) -> list[str]:
    """The index terms of free text: words, lower-cased, stop words out, stemmed, stand-ins merged."""
    out = []
    for raw in _WORD.findall(text):
        for word in identifier_words(raw) if not raw.isdigit() else (raw,):
            if word in STOP or (len(word) == 1 and not word.isdigit()):
                continue
            stemmed = stem(word)
            out.append(_CANONICAL.get(stemmed, stemmed))
            if is_hangul(word):
                out += _korean(word, stemmed)
    return out


def _korean(word: str, stemmed: str) -> list[str]:
    """A Korean word's bigrams (피자집 meets 피자) and the English of any glossary word it starts with."""
    out = [word[i:i + 2] for i in range(len(word) - 1)] if len(word) > 2 else []
    for size in range(min(len(stemmed), 4), 0, -1):
        english_word = GLOSSARY.get(stemmed[:size])
        if english_word is not None:
            out.append(_CANONICAL.get(stem(english_word), stem(english_word)))
            break
    return out


def _name_terms(name: str) -> list[str]:
    return terms(" ".join(identifier_words(name)))


def _fields(tool: ToolContract) -> dict[str, list[str]]:
    fields: dict[str, list[str]] = {"name": _name_terms(tool.name), "description": terms(tool.description or "")}
    if tool.title:
        fields["description"] += terms(tool.title)
    schema = tool.input_schema if isinstance(tool.input_schema, Mapping) else {}
    parameter, parameter_text, enum = [], [], []
    properties = schema.get("properties")
    for key, prop in (properties.items() if isinstance(properties, Mapping) else []):
        parameter += _name_terms(str(key))
        if isinstance(prop, Mapping):
            if isinstance(prop.get("description"), str):
                parameter_text += terms(prop["description"])
            values = prop.get("enum")
            if isinstance(values, list):
                enum += [t for v in values[:50] if isinstance(v, str) for t in terms(v)]
    fields.update(parameter=parameter, parameter_text=parameter_text, enum=enum)
    return fields


@dataclass(frozen=True, slots=True)
class Match:
    name: str
    score: float


class Router:
    """An index of tools; `select(request, k)` ranks them for one request (best first)."""

    def __init__(self, tools: Iterable[ToolContract], *, min_score: float = 0.0) -> None:
        self.names: list[str] = []
        weighted: list[defaultdict[str, float]] = []
        seen: dict[str, int] = {}
        for tool in tools:
            counts: defaultdict[str, float] = defaultdict(float)
            for field, words in _fields(tool).items():
                for word in words:
                    counts[word] += FIELD_WEIGHTS[field]
            if tool.name in seen:  # one name, several definitions: one entry with all their words
                merged = weighted[seen[tool.name]]
                for word, weight in counts.items():
                    merged[word] += weight
                continue
            seen[tool.name] = len(self.names)
            self.names.append(tool.name)
            weighted.append(counts)
        self.min_score = min_score
        count = max(len(self.names), 1)
        lengths = [sum(c.values()) for c in weighted]
        average = (sum(lengths) / count) or 1.0
        document_frequency: Counter[str] = Counter()
        for counts in weighted:
            document_frequency.update(counts.keys())
        self.idf = {t: math.log(1 + (count - n + 0.5) / (n + 0.5)) for t, n in document_frequency.items()}
        self.postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for index, counts in enumerate(weighted):
            norm = K1 * (1 - B + B * lengths[index] / average)
            for term, tf in counts.items():
                self.postings[term].append((index, tf * (K1 + 1) / (tf + norm)))

    def scores(self, request: str) -> list[Match]:
        """Every tool that shares a word with the request, best first."""
        query = Counter(terms(request))
        totals: dict[int, float] = defaultdict(float)
        for term, times in query.items():
            idf = self.idf.get(term)
            if idf is None:
                continue
            weight = idf * (1 + math.log(times))
            for index, part in self.postings[term]:
                totals[index] += weight * part
        ranked = sorted(totals.items(), key=lambda item: (-item[1], self.names[item[0]]))
        return [Match(self.names[i], s) for i, s in ranked]

    def select(self, request: str, k: int = 8) -> list[str]:
        """The names of the `k` tools that fit `request` best; [] when none fits."""
        if not isinstance(request, str):
            raise TypeError(f"request must be the user's request as text, not {type(request).__name__}")
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a whole number of tools, 1 or more, not {k!r}")
        found = self.scores(request)
        if not found or found[0].score < self.min_score:
            return []
        return [m.name for m in found[:k]]


def route(tools: Iterable[ToolContract] | Any, request: str, k: int = 8) -> list[str]:
    """The `k` tools (names, best first) that fit `request`, out of `tools` (contracts, or anything `load` reads)."""
    if not isinstance(tools, (list, tuple)) or not all(isinstance(t, ToolContract) for t in tools):
        from .loading import load

        tools = load(tools)
    return Router(tools).select(request, k)


__all__ = ["Match", "Router", "route", "terms"]
