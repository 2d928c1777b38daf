"""undocumented-result (D009)

## What it does
Finds a tool with no `outputSchema` whose description says nothing about what
comes back, where the model needs it: a tool that creates, sends, computes or
changes something and never says whether an id, the new object or nothing at
all comes back ("Creates an invoice", "Records changes to the repository").

A result counts as said by "returns", "responds with", "outputs", "반환",
"결과", "돌려줍니다", and by a verb whose meaning is its result, in the
description or the name: get, list, search, calculate, convert, 조회, 검색,
계산 …, and echo, screenshot, capture, snapshot, render, export, download,
encode, decode, hash (`base64_encode`, "Take a screenshot", "Echoes back the
input string"; 캡처, 내보내기, 인코딩 …).

Not reported either: a tool whose job is a state change with nothing to give
back beyond success, where a structured error already tells failure apart.
It deletes, removes, kills, terminates, stops, closes, cancels, clears or
resets; sets, applies, toggles, enables, disables, switches or scales; clicks,
types, presses, hovers, scrolls, resizes, navigates or waits in a page; adds,
appends or attaches one item to something that exists ("Add a reaction emoji to
a message"); or creates a ref the caller names (a branch, tag, directory or
table).  Korean: 삭제, 종료, 중지, 닫기, 설정, 클릭 …, and 추가 into something
(메모에 추가).  Stopping a recording (a trace, a screencast) is reported: its
result is the recording.  Descriptions in languages the lexicon does not read
(Chinese, Japanese, Spanish …) are not judged.

## Why is this bad?
The model has to call the tool to learn what it gives back, and cannot plan
the next step ("then send the order id to the user") in advance.  It also
cannot tell a silent success from a failure.

## Example
```json
{"name": "send_invoice", "description": "고객에게 청구서를 이메일로 발송합니다.",
 "inputSchema": {"type": "object", "properties": {"invoice_id": {"type": "string", "description": "청구서 번호"}}}}
```

## Use instead
```json
{"name": "send_invoice", "description": "고객에게 청구서를 이메일로 발송하고, 발송 ID와 발송 시각을 반환합니다.",
 "inputSchema": {"type": "object", "properties": {"invoice_id": {"type": "string", "description": "청구서 번호"}}}}
```

## Fix safety
No fix: only the author knows what the tool returns.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...lexicon import (
    VerbClass,
    computes,
    english,
    is_hangul,
    korean_stem,
    says_result,
    split_identifier,
    text_words,
    verb_class,
)
from ...model import Fix, Severity, ToolContract
from ..base import Finding, LintContext, Rule
from ._reading import lead_verbs, readable, sentences, verb_base

# Verbs whose meaning is their result: the echo is the input, the screenshot the image, the export the file.
RESULT_VERBS = frozenset("""
echo screenshot capture snapshot render export download read encode decode convert format hash base64 dump
serialize deserialize stringify encrypt decrypt compress decompress minify prettify beautify tokenize
checksum digest
""".split())
KOREAN_RESULT_STEMS = frozenset("""
캡처 스크린샷 스냅샷 내보내 내보내기 다운로드 인코딩 디코딩 해시 암호화 복호화 렌더링
""".split())

# State changes whose only result is that they happened.
NO_RESULT_VERBS = frozenset("""
delete remove erase purge destroy drop kill terminate stop end halt abort cancel close quit exit clear reset
cleanup clean unstage uninstall unsubscribe unfollow unlink detach disconnect reconnect revoke dismiss set
toggle enable disable apply emulate scale switch checkout select focus click tap hover drag scroll swipe press
type fill resize wait sleep navigate go reload refresh mark unmark pin unpin star unstar mute unmute lock
unlock pause resume shutdown reboot restart power assign unassign flush reindex vacuum optimize handle accept
""".split())
ADD_VERBS = frozenset("add append attach".split())  # one item, *to* something that exists
CREATE_VERBS = frozenset("create make".split())
REF_NOUNS = frozenset("""
branch branches tag tags ref refs directory directories folder folders dir dirs table tables
""".split())
# Values "add … to" computes with: the result is the new value.
VALUE_NOUNS = frozenset("date dates time times number numbers value values sum total amount list string text".split())
# A recording's result is the recording: stopping one gives it back.
RECORDING_NOUNS = frozenset("trace traces tracing recording screencast profile profiling".split())
_PREPOSITIONS = frozenset("in on at from for with by of to into onto using via".split())

KOREAN_NO_RESULT = frozenset("""
삭제 제거 취소 해지 초기화 종료 중지 중단 닫 설정 활성화 비활성화 클릭 선택 이동 대기 전환 적용 연결 해제
""".split())
KOREAN_ADD = frozenset("추가 첨부".split())


def says_what_comes_back(description: str, name: str) -> bool:
    if any(says_result(w) for w in text_words(description)):
        return True
    name_words = split_identifier(name)
    if any(verb_class(w) & VerbClass.READ or computes(w) for w in name_words):
        return True
    found = sentences(description)
    first = found[0] if found else ()
    if any(is_hangul(w) and korean_stem(w, KOREAN_RESULT_STEMS) for w in first):
        return True
    for index, verb in lead_verbs(first):
        if _gives_itself(verb, first[index + 1:]):
            return True
    for index, word in enumerate(name_words):
        own = verb_base(word)
        if own and not _vague(own):  # the name's own verb: `base64_encode`, not `create_snapshot`
            return _gives_itself(own, tuple(name_words[index + 1:]))
    return False


def _gives_itself(verb: str, rest: tuple[str, ...]) -> bool:
    """Is the verb's meaning its result ("Echoes back …", "Take a screenshot …", `take_screenshot`)?"""
    if verb in RESULT_VERBS:
        return True
    return verb in ("take", "grab") and any(w in RESULT_VERBS for w in rest[:3])


def _job(description: str, name: str) -> tuple[str, tuple[str, ...]] | None:
    """The verb naming the tool's job and the words after it: the description's lead verb, else the name's."""
    found = sentences(description)
    if found:
        first = found[0]
        korean = [stem for i, stem in lead_verbs(first) if is_hangul(first[i])]
        if korean:
            return korean[-1], first  # Korean puts its main verb last
        for i, base in lead_verbs(first):
            if _vague(base) and i + 1 < len(first) and verb_base(first[i + 1]):
                i, base = i + 1, verb_base(first[i + 1]) or base  # "Perform click on a web page"
            if not _vague(base):
                return base, first[i + 1:]
    words = split_identifier(name)
    for i, word in enumerate(words):
        named = verb_base(word)
        if named and not _vague(named):
            return named, tuple(words[i + 1:])
    return None


def _vague(verb: str) -> bool:
    """A verb that does not name the job by itself ("perform", "handle"); "apply" and "make" do."""
    return verb in english.GENERIC_VERBS and verb not in NO_RESULT_VERBS | CREATE_VERBS


def only_confirms(description: str, name: str) -> bool:
    """Is the tool's job a state change whose only result is that it happened?"""
    job = _job(description, name)
    if job is None:
        return False
    verb, rest = job
    if is_hangul(verb):
        if verb in KOREAN_ADD:
            return any(w.endswith(("에", "에게")) for w in rest)
        return verb in KOREAN_NO_RESULT
    if verb in ("stop", "end", "finish", "halt"):
        return not any(w in RECORDING_NOUNS for w in rest)  # stopping a trace gives the trace
    if verb == "set" and rest[:1] == ("up",):
        return False  # "Set up a new project" makes one
    if verb in NO_RESULT_VERBS:
        return True
    if verb in ADD_VERBS:  # into something that exists, not a sum ("Add days to a date")
        into = next((i for i, w in enumerate(rest) if w in ("to", "into", "onto")), None)
        return into is not None and not any(w in VALUE_NOUNS for w in rest[into + 1:into + 3])
    if verb in CREATE_VERBS:  # the thing made is a ref the caller names: "a new branch", not "a new node"
        thing = []
        for word in rest[:3]:
            if word in _PREPOSITIONS:
                break
            thing.append(word)
        return any(w in REF_NOUNS for w in (thing or split_identifier(name)))
    return False


class UndocumentedResult(Rule):
    code = "D009"
    name = "undocumented-result"
    severity = Severity.INFO

    def check_tool(self, tool: ToolContract, ctx: LintContext) -> Iterable[Finding]:
        if tool.output_schema is not None:
            return
        text = tool.description.strip() if isinstance(tool.description, str) else ""
        if not text or not readable(text):
            return  # D001 reports a missing description
        name = tool.name if isinstance(tool.name, str) else ""
        if says_what_comes_back(text, name) or only_confirms(text, name):
            return
        yield Finding("/description", "the description does not say what the tool returns and there is no "
                                      "outputSchema; add \"returns …\" (an id, the new object, a status) "
                                      "or an outputSchema",
                      Fix("say what comes back, or add an outputSchema", safe=False))
