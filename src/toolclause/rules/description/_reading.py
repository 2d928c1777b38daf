"""What D002 and D009 read in a description: whether they can read it, and which verbs lead it.

The lexicon knows verbs by what they do to the world (read, write, destroy).  A
description also starts with verbs that are none of these (click, hover, echo,
switch, scale), and a rule asking "does this say what the tool does?" needs
them too: they are here, as base forms.  English is read by its lead verbs (the
first verb of a sentence, or the word after "to"), inflections stripped;
Korean by verb stems and verb endings.
"""

from __future__ import annotations

from functools import lru_cache

from ... import _lazy_re as re
from ...lexicon import english, has_hangul, is_hangul, korean, korean_stem, text_words

# Verbs a tool description leads with that the lexicon's classes leave out (base forms).
ACTIONS = frozenset("""
click tap hover drag drop scroll swipe press type fill focus select navigate go reload refresh resize
switch checkout echo repeat close open stop start begin end finish halt abort quit exit wait sleep pause
resume play record capture take screenshot snapshot render draw print emulate simulate scale upgrade
downgrade install uninstall cleanup clean fork clone push pull fetch sync stage unstage rebase tag
trigger launch spawn restart kill terminate toggle enable disable connect disconnect reconnect attach
detach link unlink mount unmount lock unlock mark pin unpin star unstar follow unfollow react reply
comment mention notify remind accept dismiss confirm deny grant revoke block unblock ban mute unmute
restore backup rollback undo redo retry monitor track watch listen poll ask answer speak say tell
encode decode hash encrypt decrypt compress decompress zip unzip export import download copy paste
duplicate replace sort split join combine group tokenize serialize stringify minify beautify prettify
escape unescape sign build compile test lint review forward flush invalidate demonstrate demo forecast request
expand collapse highlight annotate tile move rotate crop zoom pan shutdown reboot power unassign
""".split())

VERBS = (english.READ | english.WRITE | english.IRREVERSIBLE | english.DESTRUCTIVE | english.COMPUTE
         | english.GENERIC_VERBS | english.RESULT_WORDS | ACTIONS)

# Words that follow an English verb, never a noun, at the start of a sentence ("Clicks on the …").
_AFTER_A_VERB = frozenset("a an the all any one two three several both multiple each every some your its this these "
                          "those up out back over onto into".split())
# Words that may open a sentence before its verb ("Permanently delete …", "This tool fetches …").
_LEAD_INS = frozenset("""
this tool function api endpoint method it will can may should must please simply quickly permanently safely
directly also then first optionally forcefully force automatically only just to you we i
""".split())
# Words that open a clause but are never its verb ("If a dialog is open, …", "For a page, …").
_NEVER_VERBS = english.FILLER | frozenset("if when while where whenever how what which who whether after before "
                                          "once unless since because so there here note e g i e".split())
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")

# Korean stems the lexicon leaves out, and the endings only a verb takes.
KOREAN_ACTIONS = frozenset("""
실행 클릭 이동 입력 선택 닫 열 종료 중지 중단 시작 설정 캡처 스크린샷 전환 적용 연결 해제 대기 활성화 비활성화 첨부
내보내 다운로드 인코딩 디코딩 암호화 복호화 렌더링 반복 복사 정렬 업데이트 처리 수행 호출 요청 보내 열기 엽니 열어
""".split())
_KOREAN_VERB_ENDINGS = ("니다", "다", "요", "함", "됨", "하기", "하는", "하고", "하여", "해서")
_KOREAN_VERB_STEMS = (korean.READ | korean.WRITE | korean.DESTRUCTIVE | korean.IRREVERSIBLE | korean.COMPUTE
                      | korean.RESULT_WORDS | KOREAN_ACTIONS)

# Function words of the Latin-script languages most often met besides English: two of them, outnumbering
# English ones, mark a description the lexicon cannot read ("Obtiene el clima de una ciudad").
_FOREIGN = frozenset("""
el la los las del una unos unas que para por con según su sus es y le les des du est et pour avec sur dans
der die das und mit für von ist ein eine den dem zu auf um os um uma do da dos das com em il gli della di che
""".split())
_ENGLISH = frozenset("a an the of for to in on with and or is are by from this that".split())
_HAN_OR_KANA = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]")
_LETTERS = re.compile(r"[^\W\d_]+")
_ACCENTED = re.compile(r"[\u00c0-\u024f\u1e00-\u1eff]")


@lru_cache(maxsize=32768)
def readable(text: str) -> bool:
    """English or Korean: the lexicon reads these.  Chinese, Japanese, other scripts, Spanish or Vietnamese are not."""
    if has_hangul(text):
        return True
    if _HAN_OR_KANA.search(text) or not _LATIN.search(text):
        return False
    letters = _LETTERS.findall(text)
    accented = sum(bool(_ACCENTED.search(w)) for w in letters)
    if accented >= 2 and accented * 4 >= len(letters):
        return False  # "Tìm thời tiết ở địa điểm"
    found = text_words(text)
    foreign = sum(w in _FOREIGN for w in found)
    return foreign < 2 or foreign <= sum(w in _ENGLISH for w in found)


def lemmas(word: str) -> tuple[str, ...]:
    """The word and the base forms it may be an inflection of: `switches` → switch, `clicked` → click."""
    out = [word]
    size = len(word)
    if size > 4 and word.endswith("ies"):
        out.append(word[:-3] + "y")
    if size > 3 and word.endswith("es"):
        out.append(word[:-2])
    if size > 2 and word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])
    if size > 5 and word.endswith("ing"):
        base = word[:-3]
        out += [base, base + "e"] + ([base[:-1]] if base[-1] == base[-2] else [])
    if size > 4 and word.endswith("ed"):
        base = word[:-2]
        out += [base, word[:-1]] + ([base[:-1]] if base[-1] == base[-2] else [])
        if base.endswith("i"):
            out.append(base[:-1] + "y")
    return tuple(out)


@lru_cache(maxsize=65536)
def verb_base(word: str) -> str | None:
    """The base form of an English verb the rules know (`echoes` → echo, `adds` → add), else None."""
    forms = lemmas(word)
    for form in (*forms[1:], forms[0]):
        if form in VERBS:
            return form
    return None


def korean_verb(word: str) -> str | None:
    """The verb stem of a Korean word (`종료합니다` → 종료), or the word itself when only its ending is a verb's."""
    if not is_hangul(word):
        return None
    found = korean_stem(word, _KOREAN_VERB_STEMS)
    if found:
        return found
    return word if word.endswith(_KOREAN_VERB_ENDINGS) and len(word) > 1 else None


def sentences(text: str) -> list[tuple[str, ...]]:
    """The words of each sentence (split at . ! ? ; : and line breaks)."""
    return [words for part in _SENTENCE.split(text) if (words := text_words(part))]


def lead_verbs(sentence: tuple[str, ...]) -> list[tuple[int, str]]:
    """The English verbs that lead a sentence, as (position, base form), in order.

    A sentence's first word after lead-ins ("Permanently", "This tool") is its
    verb when it is a known verb or a determiner follows it ("Unstages all …");
    a known verb after "to", "and", "or" or "then" leads too ("Used to list …",
    "Drag and drop").  Korean words give their verb stems.
    """
    out: list[tuple[int, str]] = []
    start = 0
    while start < len(sentence) - 1 and sentence[start] in _LEAD_INS and not verb_base(sentence[start]):
        start += 1
    for i in range(start, len(sentence)):
        word = sentence[i]
        if is_hangul(word):
            stem = korean_verb(word)
            if stem:
                out.append((i, stem))
            continue
        if i != start and sentence[i - 1] not in ("to", "and", "or", "then", "that", "which"):
            continue
        base = verb_base(word)
        if base:
            out.append((i, base))
        elif i == start and i + 1 < len(sentence) and sentence[i + 1] in _AFTER_A_VERB \
                and word not in _NEVER_VERBS:
            out.append((i, word))
    return out


def states_action(text: str) -> bool:
    """Does some sentence of the description lead with a verb it knows (or a Korean verb)?"""
    return any(lead_verbs(sentence) for sentence in sentences(text))


# Signs that a description is a noun phrase ("Current weather for a city", "SQL query tool"): what opens it
# or closes it.  An unknown opening word is not one: it may be an imperative the lists lack ("Redeem …").
_ADJECTIVES = frozenset("""
current latest recent real realtime detailed random daily weekly basic simple quick full complete advanced
automated automatic historical live local global public private official total various available old top
""".split())
_NOUN_SUFFIXES = ("ed", "ic", "ical", "ous", "tion", "sion", "ness", "ity")
_TOOL_NOUNS = frozenset("""
tool tools utility helper api function endpoint wrapper info information details lookup checker generator
converter calculator finder viewer manager client integration
""".split())
_DETERMINERS = frozenset("a an the".split())


def names_no_action(text: str, name_words: tuple[str, ...] | list[str]) -> bool:
    """Is the description a noun phrase: no verb leads any sentence, and its words show a noun phrase?

    It opens with an article, an adjective ("Current …", "Automated …"), a noun ending ("Conversion …"),
    a name word after the name's first ("Weather …" for `get_weather`) or a noun before "for"/"of"
    ("Quote for a postcode"), or ends on a tool noun ("SQL query tool", "Cluster info").
    """
    if states_action(text):
        return False
    found = sentences(text)
    if not found:
        return False
    first = found[0]
    opening = first[0]
    if is_hangul(opening):
        return True  # Korean: no verb stem and no verb ending anywhere
    if opening in _DETERMINERS or opening in _ADJECTIVES or opening.isdigit():
        return True
    if opening.endswith(_NOUN_SUFFIXES) and not verb_base(opening):
        return True
    if opening in name_words[1:] and opening != name_words[0]:
        return True
    if len(first) > 1 and first[1] in ("for", "of"):
        return True
    return first[-1] in _TOOL_NOUNS
