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
# "ISO 8601", "RFC 3339", and "ISO format" / "ISO string" / "ISO date" (not "ISO 4217", "ISO 639")
_ISO_NAMED = re.compile(r"(?<![A-Za-z])(?:ISO[ -]?8601|RFC[ -]?3339)(?!\d)"
                        r"|\bISO(?=[ -](?:format|formatted|string|timestamp|date|datetime|date-time)\b)", re.I)
_EPOCH = re.compile(r"\b(?:unix|epoch|milliseconds|seconds\s+since|relative|natural\s+language|today|tomorrow|"
                    r"yesterday|ago|now)\b|오늘|내일|어제|유닉스"
                    # Lark/Feishu: 时间戳 (a timestamp) is Unix seconds or milliseconds, 秒级/毫秒 say which
                    r"|毫秒|秒级|1970-01-01|\((?:ms|s)\)", re.I)
# an example that is a number of seconds (Slack's '1234567890.123456')
_SECONDS_EXAMPLE = re.compile(r"(?<![\d-])\d{9,13}(?:\.\d+)?(?![\d-])")
_EN_HEAD = re.compile(r"^(?:the\s+|a\s+|an\s+)?((?:[\w-]+\s+){0,3}?)"
                      r"(date\s+and\s+time|datetime|date-time|date|timestamp)\b"
                      r"(?!\s*(?:range|format|type|field|column|string\s+format|sort|order|precision|granularity|resolution|"
                      r"zone|offset|unit|bucket))", re.I)
_SINCE = re.compile(r"\b(?:since|until|till|before|after|through)\s+(?:this|that|the|a|which)\s+(date|time|timestamp|"
                    r"datetime|date-time)\b", re.I)
# 일시 at the start of a text or before 적 means "temporary" (일시적 출국 사유, 일시 정지), not "date and time"
_KO_HEAD = re.compile(r"(날짜|일자|(?<=\S)일시(?!적)|(?<=\S\s)일시(?!적)|생년월일)"
                      r"(?!\s*(?:범위|형식|수|기간|차이|필드))")
_TIME_WORDS = re.compile(r"\b(?:time|hour|hh|datetime|date-time|timestamp)\b|시간|시각|일시", re.I)

# Name words that make a date-ish name about something else ("date_format", "time_zone", "days").
_NOT_A_DATE = frozenset("""
format formats type types zone timezone tz range unit units interval duration period offset count days hours
minutes seconds ago relative window span frequency id ids name field column key filter sort order by style mode
option options preference locale limit spent taken elapsed diff difference length
formatter formatting pattern mask template restrict restriction
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
    """(kind, template): kind 'date' / 'date-time' / 'pattern' / 'iso' / 'iso-date'; template the written format.

    'iso' is "ISO 8601" with no word saying date or time; 'iso-date' is "ISO 8601 date".
    """
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
        if _TIME_WORDS.search(text):
            return "date-time", None
        return ("iso-date" if _DATE_WORD.search(text) else "iso"), None
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


_DATE_WORD = re.compile(r"\bdates?\b(?![- _]?time)|날짜|일자|日期", re.I)

# "a date or a date range (2024-01-01..2024-03-31)", "a timestamp or a plain date", "a date or a commit SHA":
# more than one documented form, so one `format` would reject some of them.  "The start of the date
# range" is one bound of a range, a single date: only a value that *is* a range counts.
_MANY_FORMS = re.compile(
    r"\b(?:by|as|is|accepts?|takes?|a|an)\s+(?:(?:date|time|timestamp)\s+)?range\b|\{(?:start|end|from|to)\}"
    r"|\d\.\.\d|\.\.\s*\d{4}|\d{4}-\d\d-\d\d\s*(?:to|/)\s*\d{4}"
    r"|\bor\s+(?:a|an)\s+(?:plain\s+|full\s+|relative\s+)?(?:date|time|timestamp|datetime|duration|sha|commit|tag|"
    r"version|number|keyword|period|range|offset|id)\b"
    r"|\bor\s+(?:(?:a|an)\s+)?(?:date|time|timestamp)\s+range\b|\bor\s+(?:(?:a|an)\s+)?(?:date|day)[- ]only\b"
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
                "ago", "now", "오늘", "내일", "어제", "유닉스", "毫秒", "秒级", "1970-01-01", "(ms)", "(s)")

# "The API version the developer is targeting ('YYYY-MM', e.g. '2026-07')": a version label, not a date to format
_VERSION_HEAD = re.compile(r"^\W*(?:\(optional\)\s*)?(?:the\s+|an?\s+)?(?:[\w-]+\s+){0,3}?versions?\b"
                           r"(?!\s+(?:date|released?|history))", re.I)
# "createTime > \"2026-03-18T00:00:00-03:00\"", "created:>2024-01-01", "Chat API createTime syntax": a date inside
# an expression, which is no date itself
_EXPRESSION = re.compile(r"[<>]=?\s*\\?[\"']?\d{4}-\d\d|\bsyntax\b", re.I)
# "A JSON string of column values … { \"date\": \"YYYY-MM-DD\" }": the date is one field inside a JSON value
_STRUCTURED = re.compile(r"\bJSON\b|\{\s*\\?[\"'][^\"'{}]*\\?[\"']\s*:", re.I)
# "Event start time. String format: …": the description says first that the value is a date or a time
_SAYS_TIME_FIRST = re.compile(r"^\W*(?:\(optional\)\s*)?(?:the\s+|an?\s+)?(?:[\w-]+\s+){0,3}?"
                              r"(?:date|time|timestamp|datetime|date-time|date\s+and\s+time)\b", re.I)
# "Display format, default \"yyyy/MM/dd\"": the value is itself a format template
_DEFAULT_BEFORE = re.compile(r"(?:default(?:s\s+to)?|默认(?:为|值为?)?|기본값?)\s*[:：]?\s*[\"'“`]?\s*$", re.I)

# The forms a description documents.  Each is one shape: a date, an RFC 3339 date-time, a date and time
# that is no RFC 3339 date-time (no offset, no seconds, "+0000"), a time of day, a value that is no date
# at all ('2023', 'd5'), a word that clears the field ('remove', ''), or a template we cannot read.
_EXAMPLE_VALUE = re.compile(
    r"(?<![A-Za-z0-9-])\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    r"(?![\d:])(?![A-Za-z0-9]*-?[A-Z]{2})")
_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:\d{2})", re.I)
_TIME_EXAMPLE = re.compile(r"(?<![\dT:.\-/+±])(?<!\d )\d{2}:\d{2}(?::\d{2})?(?![\d:])")
_OTHER_DATE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}")
_OFFSET = re.compile(r"[+-]\d{2}:?\d{2}")
_DIGITS_ONLY = re.compile(r"[\d.:/+-]*\d[\d.:/+-]*")
_NATURAL = re.compile(r"[^\x00-\x7f]")
_OTHER_DATE_BARE = re.compile(r"(?<![\w./-])(?:\d{1,2}([./])\d{1,2}\1\d{4}|\d{4}([./])\d{1,2}\2\d{1,2})(?![\w./-])")
_RANGE_JOIN = re.compile(r"\s*(?:to|through|until|~|到|至|–)\s*|\s+-\s+")
_QUOTED_VALUE = re.compile(r"""["'`“‘]([\w.:/+-]{1,24})["'`”’]""")
_CLEARS = re.compile(r"""["'`“‘]([A-Za-z_]{0,12})["'`”’]\s*(?:\([^)]{0,30}\)\s*)?(?:to|will)\s+"""
                     r"(?:clear|remove|unset|reset|delete|empty)\b"
                     r"|\bempty\s+string\s+(?:to|will)\s+(?:clear|remove|unset|reset)\b|空字符串", re.I)
_DATE_ONLY_WORDS = re.compile(r"\b(?:date[- ]only|all[- ]day|full[- ]day)\b", re.I)
_NO_OFFSET_WORDS = re.compile(r"\b(?:without\s+(?:an?\s+|the\s+)?(?:utc\s+)?offset|omit\s+the\s+offset"
                              r"|no\s+time\s*zone(?:\s+indicator)?|wall[- ]clock)\b", re.I)


def _template_shape(written: str) -> str:
    canonical = written.upper()
    if canonical == "YYYY-MM-DD":
        return "date"
    if re.fullmatch(r"YYYY-MM-DDTHH:MM:SS(?:Z|[+-]HH:?MM)", canonical):
        return "date-time"
    return "pattern:" + canonical


def _example_shape(value: str) -> str:
    if len(value) == 10:
        return "date"
    return "date-time" if _RFC3339.fullmatch(value) else "local"


def documented_forms(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """({shape: the first text showing it}, {template as written: its regex}) for a description."""
    shapes: dict[str, str] = {}
    templates: dict[str, str] = {}
    unreadable_to = -1
    for match in _TEMPLATE.finditer(text):
        written = match.group(0)
        if match.start() < unreadable_to:
            continue  # the '±hh:mm' of 'YYYY-MM-DDThh:mmss±hh:mm'
        if re.match(r"[:±+\w]", text[match.end():match.end() + 1]):
            # 'YYYY-MM-DDThh:mmss±hh:mm' read only to 'YYYY-MM-DDThh': the whole run is one format we cannot read
            run = re.match(r"\S*", text[match.start():])
            unreadable_to = match.start() + (run.end() if run else 0)
            shapes.setdefault("unreadable", text[match.start():unreadable_to].rstrip(").,;'\""))
            continue
        joined = _RANGE_JOIN.match(text, match.end())
        second = _TEMPLATE.match(text, joined.end()) if joined else None
        if second is not None:
            # 'YYYY-MM-DD to YYYY-MM-DD': one value holding a range, which no format keyword fits
            end = second.end()
            unreadable_to = end
            shapes.setdefault("unreadable", text[match.start():end])
            continue
        templates[written] = _template_regex(written)
        shapes.setdefault(_template_shape(written), written)

    def fits_template(value: str) -> bool:
        return any(re.match(regex, value) for regex in templates.values())

    for match in _EXAMPLE_VALUE.finditer(text):
        if not fits_template(match.group(0)):
            shapes.setdefault(_example_shape(match.group(0)), match.group(0))
    for match in _TIME_EXAMPLE.finditer(text):
        if not fits_template(match.group(0)):
            shapes.setdefault("time", match.group(0))
    for match in _OTHER_DATE_BARE.finditer(text):
        if not fits_template(match.group(0)):
            shapes.setdefault("dmy", match.group(0))  # "2024-01-15 or 15/01/2024"
    for match in _QUOTED_VALUE.finditer(text):
        value = match.group(1)
        if any(c.isdigit() for c in value) and not _EXAMPLE_VALUE.fullmatch(value) \
                and not _TIME_EXAMPLE.fullmatch(value) and not fits_template(value) and not _TEMPLATE.search(value):
            # '15.01.2024' is a date written another way; '2023' (a year), '2023-1' (a half) are no dates
            if _OTHER_DATE.fullmatch(value):
                shapes.setdefault("dmy", value)
            elif _DIGITS_ONLY.fullmatch(value) and not _OFFSET.fullmatch(value):  # '+05:00' is part of one
                shapes.setdefault("other", value)
            elif _NATURAL.search(value):
                shapes.setdefault("natural", value)  # '每周一上午10点' (every Monday at 10): words, not a form
    clears = _CLEARS.search(text)
    if clears:
        shapes.setdefault("clears", clears.group(0))
    words = _DATE_ONLY_WORDS.search(text)
    if words:
        shapes.setdefault("date", words.group(0))
    words = _NO_OFFSET_WORDS.search(text)
    if words and not any(shape.startswith("pattern:") for shape in shapes):  # the template shows the form
        shapes.setdefault("local", words.group(0))
    return shapes, templates


@lru_cache(maxsize=65536)
def date_suggestion(key: str, description: str) -> tuple[str, str, str | None] | None:
    """(what triggered it, JSON keyword, value) for a string that holds a date or time; None if it does not.

    The keyword is 'format' or 'pattern'; 'forms' when the description documents more than one form (or a
    word that clears the field); 'local' when its one documented form is a date and time that RFC 3339's
    date-time would reject.  The value is None when no pattern can be derived from what the description says.
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
    if by_name is None and ("version" in key_words or "versions" in key_words or _VERSION_HEAD.match(description)
                            or _EXPRESSION.search(description)):
        return None
    if by_name is None and _STRUCTURED.search(description) and not _SAYS_TIME_FIRST.match(description):
        return None
    kind, template = description_evidence(description)
    # `time`, `pickup_time`: a time of day when the description shows one ('18:30') or gives a format
    time_key = "time" in key_words and not _NOT_A_DATE.intersection(key_words)
    shapes, templates = documented_forms(description) if kind or by_name or time_key else ({}, {})
    if not (kind or by_name or time_key and (list(shapes) == ["time"]
                                             or not shapes and _OTHER_FORMAT.search(description))):
        return None  # "Comment text in Markdown format", "ISO 4217 format": a format, but of no date
    if "natural" in shapes:
        return None  # "'每周一上午10点'" (every Monday at ten): natural language, which no pattern describes
    if by_name is None and template and _DEFAULT_BEFORE.search(description[: description.find(template)]):
        return None  # "显示格式。默认为 \"yyyy/MM/dd\"": the value is a format template itself
    if _MANY_FORMS.search(description):
        return _SEVERAL
    if by_name is None and "other" in shapes:
        return None  # "'2023' (a year), '2023-1' (a half), '2023-12-31' (a day)": a period, not only a date
    if len(shapes) - ("clears" in shapes) > 1:
        return _SEVERAL
    if "clears" in shapes:
        word = _QUOTED_VALUE.search(shapes.pop("clears"))
        shown = repr(word.group(0).strip("'\"`“”‘’")) if word else "an empty string"
        return f"its description also takes {shown} to clear it, which a format would reject", "forms", None
    shape, shown = next(iter(shapes.items())) if shapes else (None, "")
    opaque_stamp = by_name == "date-time" and "timestamp" in key_words or by_name is None and "ts" in key_words
    if shape is None and opaque_stamp and not _ISO_NAMED.search(description):
        # `timestamp` is as often Unix seconds, or an id ("the timestamp of the message to react to"), as
        # ISO 8601, and Slack's `ts` / `thread_ts` always are: with no documented form there is nothing a
        # format could be checked against
        return None
    if shape == "date" and by_name == "date-time" and template is None:
        return (f"its name '{key}' says date and time but its description shows the date {shown!r}, so a single "
                f"format would reject one"), "forms", None
    if shape in ("other", "unreadable", "dmy"):
        return f"its description gives the format {shown!r}, which no format keyword fits", "pattern", None
    if shape == "time":
        return f"its description shows the time of day {shown!r}", "pattern", None
    if shape is not None and shape.startswith("pattern:"):
        return f"its description gives the format '{shown}'", "pattern", templates[shown]
    if shape == "local":
        return (f"its description documents the form {shown!r}, which is no RFC 3339 date-time (that needs seconds "
                f"and an offset such as Z or +09:00)"), "local", None
    if shape is not None:  # 'date' or 'date-time', from a template, an example or "date-only"
        if template:
            return f"its description gives the format '{template}'", "format", shape
        if by_name == "date" and shape == "date-time":
            return f"its description shows the date and time {shown!r}", "format", "date-time"
        return f"its description shows {shown!r}", "format", shape
    if _OTHER_FORMAT.search(description) and not _ISO_NAMED.search(description):
        # "format is [day, month, year]": a format we cannot read; do not guess another.
        return "its description gives a format of its own", "pattern", None
    if kind in ("iso", "iso-date"):
        if kind == "iso-date" and by_name == "date-time":
            return ("its description says ISO 8601 date but its name says date and time, so a single format "
                    "would reject one"), "forms", None
        if kind == "iso" and by_name == "date":
            # plain ISO 8601 takes a date or a date and time; "format": "date" would refuse the second
            return ("its description says ISO 8601, which takes a date or a date and time, so a single format "
                    "would reject one"), "forms", None
        return "its description says ISO 8601", "format", "date" if kind == "iso-date" else by_name or "date-time"
    if by_name:
        if kind == "date-time" and by_name == "date":
            by_name = "date-time"
        what = "date" if by_name == "date" else "date and time"
        if split_identifier(key)[-1] == "time":
            what += "; use \"format\": \"time\" instead if it is only a time of day"
        return f"its name '{key}' says it holds a {what}", "format", by_name
    return "its description says it is a " + ("date" if kind == "date" else "date and time"), "format", kind


_SEVERAL = ("its description allows more than one form, so a single format would reject one", "forms", None)
