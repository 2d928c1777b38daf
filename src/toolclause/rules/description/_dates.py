"""Evidence that a string holds a date or a time, and the format it implies (used by D007)."""

from __future__ import annotations

from functools import lru_cache

from ... import _lazy_re as re
from ...lexicon import identifier_words, split_identifier
from ...lexicon.gates import lowered_for_gate, may_contain

_TEMPLATE = re.compile(r"(?<![A-Za-z])(?:[Yy]{2,4}|[M]{1,2}|[Dd]{1,2}|[Hh]{1,2}|mm|ss)"
                       r"(?:[-/.: T](?:[Yy]{2,4}|[Mm]{1,2}|[Dd]{1,2}|[Hh]{1,2}|ss|SS)|(?<=[Yy])(?:MM|mm)(?=DD|dd))+"
                       r"Z?(?![A-Za-z])|(?<![A-Za-z])[Yy]{4}[Mm]{2}[Dd]{2}(?![A-Za-z])")
# a date standing alone, not inside a code such as `ADV-2024-01-15-XY7Q`
_ISO_EXAMPLE = re.compile(r"(?<![A-Za-z0-9-])\d{4}-\d{2}-\d{2}(T\d{2}:\d{2})?(?![A-Za-z0-9]*-?[A-Z]{2})")
_ISO_NAMED = re.compile(r"\bISO[ -]?8601\b|\bRFC[ -]?3339\b", re.I)
_EPOCH = re.compile(r"\b(?:unix|epoch|milliseconds|seconds\s+since|relative|natural\s+language|today|tomorrow|"
                    r"yesterday|ago|now)\b|오늘|내일|어제|유닉스", re.I)
# an example that is a number of seconds (Slack's '1234567890.123456')
_SECONDS_EXAMPLE = re.compile(r"(?<![\d-])\d{9,13}(?:\.\d+)?(?![\d-])")
_EN_HEAD = re.compile(r"^(?:the\s+|a\s+|an\s+)?((?:[\w-]+\s+){0,3}?)"
                      r"(date\s+and\s+time|datetime|date-time|date|timestamp)\b"
                      r"(?!\s*(?:range|format|type|field|column|string\s+format))", re.I)
_SINCE = re.compile(r"\b(?:since|until|till|before|after|through)\s+(?:this|that|the|a|which)\s+(date|time|timestamp|"
                    r"datetime|date-time)\b", re.I)
_KO_HEAD = re.compile(r"(날짜|일자|일시|생년월일)(?!\s*(?:범위|형식|수|기간|차이|필드))")
_TIME_WORDS = re.compile(r"\b(?:time|hour|hh|datetime|date-time|timestamp)\b|시간|시각|일시", re.I)

# Name words that make a date-ish name about something else ("date_format", "time_zone", "days").
_NOT_A_DATE = frozenset("""
format formats type types zone timezone tz range unit units interval duration period offset count days hours
minutes seconds ago relative window span frequency id ids name field column key filter sort order by style mode
option options preference locale limit spent taken elapsed diff difference length
""".split())
_DATE_ONLY = frozenset({"date", "birthday", "birthdate", "dob"})
_AT_VERBS = frozenset("start end begin due remind send publish expire expires starts ends occur occurs".split())
_TIME_OWNERS = frozenset("""
start end begin finish departure arrival pickup dropoff pick drop meeting event appointment check checkin checkout
due reservation booking delivery open close opening closing create update modify expiry expire release launch
schedule scheduled visit session
""".split())
_PRE_NOT_DATE = frozenset("format type range number count sort order by field column".split())


def _template_regex(template: str) -> str:
    out = ""
    for run in re.finditer(r"([A-Za-z])\1*|[^A-Za-z]", template):
        text = run.group(0)
        if text.isalpha() and text != "T":
            out += rf"\d{{{len(text)}}}" if len(text) > 1 else r"\d{1,2}"
        else:
            out += re.escape(text)
    return "^" + out + "$"


@lru_cache(maxsize=65536)
def name_evidence(key: str) -> str | None:
    """'date', 'date-time' or None from a property name."""
    parts = identifier_words(key)
    if not parts or _NOT_A_DATE.intersection(parts):
        return None
    last = parts[-1]
    if "datetime" in parts or "timestamp" in parts or ("date" in parts and "time" in parts):
        return "date-time"
    if "date" in parts or last in _DATE_ONLY:
        return "date"
    if len(parts) >= 2 and last == "at" and (parts[-2].endswith("ed") or parts[-2] in _AT_VERBS):
        return "date-time"
    if len(parts) >= 2 and last == "time" and parts[-2] in _TIME_OWNERS:
        return "date-time"
    return None


def description_evidence(text: str) -> tuple[str | None, str | None]:
    """(kind, template): kind 'date' / 'date-time' / 'pattern'; template the written format, if any."""
    template = _TEMPLATE.search(text)
    if template:
        written = template.group(0)
        canonical = written.upper()
        if canonical == "YYYY-MM-DD":
            return "date", written
        if re.fullmatch(r"YYYY-MM-DDTHH:MM:SS(?:Z|[+-]HH:?MM)", canonical):
            return "date-time", written
        # Without an offset "YYYY-MM-DDTHH:MM:SS" is not RFC 3339 date-time: keep what it says.
        return "pattern", written
    example = _ISO_EXAMPLE.search(text)
    if example:
        return ("date-time" if example.group(1) else "date"), None
    if _ISO_NAMED.search(text):
        return ("date-time" if _TIME_WORDS.search(text) else "iso"), None
    head = _EN_HEAD.match(text.strip())
    if head and not _PRE_NOT_DATE.intersection(head.group(1).lower().split()):
        return ("date" if head.group(2).lower() == "date" else "date-time"), None
    since = _SINCE.search(text)
    if since:
        return ("date" if since.group(1).lower() == "date" else "date-time"), None
    first = re.split(r"[.,(:;]|\n", text, maxsplit=1)[0]
    korean = _KO_HEAD.search(first)
    if korean:
        return ("date-time" if korean.group(1) == "일시" else "date"), None
    return None, None


# "a date or a date range (2024-01-01..2024-03-31)", "a timestamp or a plain date", "a date or a commit SHA":
# more than one documented form, so one `format` would reject some of them
_MANY_FORMS = re.compile(
    r"\b(?:date|time|timestamp)\s+range\b|\d\.\.\d|\.\.\s*\d{4}|\d{4}-\d\d-\d\d\s*(?:to|/)\s*\d{4}"
    r"|\bor\s+(?:a|an)\s+(?:plain\s+|full\s+|relative\s+)?(?:date|time|timestamp|datetime|duration|sha|commit|tag|"
    r"version|number|keyword|period|range|offset|id)\b"
    r"|\beither\b", re.I)
# "The name of the timestamp to sort by": the value names a field, it is no date
_NAMES_A_FIELD = re.compile(r"^\s*(?:the\s+)?(?:name|type|kind|field|column|key|property)\s+of\b", re.I)
# Property names that hold search text or an expression: a date in their example is a qualifier inside it
_FREE_TEXT = frozenset("query q search text expression expr filter prompt jql cql sql keyword keywords terms".split())
_DATE_WORDS = frozenset("date time datetime timestamp day".split())
_OTHER_FORMAT = re.compile(r"\bformat|형식|格式", re.I)
_HINT = re.compile(r"date|time|stamp|[Yy]{2}|[Hh]{2}|MM|DD|ISO|RFC|\d{4}-\d\d|날짜|일자|일시|생년월일", re.I)
# Every match of _HINT / _EPOCH contains one of these ("-" stands in for \d{4}-\d\d): most
# descriptions hold none, and the substring tests cost far less than the searches.
_HINT_WORDS = ("date", "time", "stamp", "yy", "hh", "mm", "dd", "iso", "rfc", "-", "날짜", "일자", "일시", "생년월일")
_EPOCH_WORDS = ("unix", "epoch", "milliseconds", "seconds", "relative", "natural", "today", "tomorrow", "yesterday",
                "ago", "now", "오늘", "내일", "어제", "유닉스")


@lru_cache(maxsize=65536)
def date_suggestion(key: str, description: str) -> tuple[str, str, str | None] | None:
    """(what triggered it, JSON keyword, value) for a string that holds a date or time; None if it does not.

    The value is None when the description gives a format of its own that no pattern can be derived from.
    """
    by_name = name_evidence(key)
    key_words = identifier_words(key)
    if by_name is None and _FREE_TEXT.intersection(key_words) and not _DATE_WORDS.intersection(key_words):
        return None
    if _NAMES_A_FIELD.match(description):
        return None
    lowered = lowered_for_gate(description)
    if by_name is None and not (may_contain(lowered, _HINT_WORDS) and _HINT.search(description)):
        return None
    if may_contain(lowered, _EPOCH_WORDS) and _EPOCH.search(description):
        return None
    if _SECONDS_EXAMPLE.search(description):
        return None
    kind, template = description_evidence(description)
    if (kind or by_name) and _MANY_FORMS.search(description):
        return "its description allows more than one form, so a single format would reject one", "forms", None
    if by_name == "date-time" and "timestamp" in key_words and template is None \
            and not _ISO_NAMED.search(description) and not _ISO_EXAMPLE.search(description):
        # `timestamp` is as often Unix seconds, or an id ("the timestamp of the message to react to"), as
        # ISO 8601: with no documented form there is nothing a format could be checked against
        return None
    if kind == "pattern" and template:
        return f"its description gives the format '{template}'", "pattern", _template_regex(template)
    if kind in ("date", "date-time") and template:
        return f"its description gives the format '{template}'", "format", kind
    if template is None and _OTHER_FORMAT.search(description) and not _ISO_EXAMPLE.search(description) \
            and not _ISO_NAMED.search(description):
        # "format is [day, month, year]": a format we cannot read; do not guess another.
        return "its description gives a format of its own", "pattern", None
    if kind == "iso":
        kind = by_name or "date-time"
        return "its description says ISO 8601", "format", kind
    if by_name:
        if kind == "date-time" and by_name == "date":
            by_name = "date-time"
        what = "date" if by_name == "date" else "date and time"
        if split_identifier(key)[-1] == "time":
            what += "; use \"format\": \"time\" instead if it is only a time of day"
        return f"its name '{key}' says it holds a {what}", "format", by_name
    if kind:
        return "its description says it is a " + ("date" if kind == "date" else "date and time"), "format", kind
    return None
