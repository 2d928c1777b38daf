"""Hidden instructions in tool text, as data: phrases, secret paths, invisible Unicode.

Written from published attack patterns — Invariant Labs' tool-poisoning example
(an `<IMPORTANT>` block that reads `~/.cursor/mcp.json` and `~/.ssh/id_rsa` and
passes them as a `sidenote` argument, with "do not mention that you first need
to read the file"), shadowing ("when send_email is used, always BCC …"), prompt
override ("ignore previous instructions"), and ASCII smuggling with Unicode tag
characters, zero-width characters and bidi overrides.

Each detector needs an *instruction*, not a topic: "The API key is sent in the
Authorization header", "Reads a file from the workspace" and "Connects with the
key at ~/.ssh/id_rsa" describe a tool and never match.  A request to read a
secret file must be imperative (`read ~/.ssh/id_rsa`, not `reads the key from`);
a request to pass something as an argument must name a secret *and* a parameter
that is not the secret's own (`pass the API key as 'api_key'` is how auth works).

Everything is compiled at import; `suspicious()` is the cheap test every tool
must pass before the detectors run.
"""

from __future__ import annotations

import unicodedata

from ... import _lazy_re as re

_I = re.IGNORECASE

# --------------------------------------------------------------------------- invisible and deceptive Unicode

# Tag characters (U+E0000–U+E007F) spell ASCII no one sees: "ASCII smuggling".
TAG_CHARS = re.compile("[\U000E0000-\U000E007F]+")
# A subdivision flag (🏴 + tag letters + cancel tag) is the one legitimate use of tag characters.
FLAG_SEQUENCE = re.compile("\U0001F3F4[\U000E0030-\U000E0039\U000E0061-\U000E007A]{2,7}\U000E007F")
BIDI_CONTROLS = re.compile("[\u202A-\u202E\u2066-\u2069]")
RTL_LETTERS = re.compile("[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC]")
# Zero-width space, word joiner, invisible operators, Mongolian vowel separator, and a
# BOM anywhere but the start (a leading BOM is an encoding accident, not a message).
ZERO_WIDTH = re.compile("[\u200B\u2060-\u2064\u180E]|(?<!^)\uFEFF")
# ZWNJ/ZWJ join emoji (👨‍👩‍👧) and shape Persian and Indic script; only between ASCII they hide.
JOINERS_IN_ASCII = re.compile("(?:(?<=[\x00-\x7f])|^)[\u200C\u200D]+(?=[\x00-\x7f]|$)")
INVISIBLE = re.compile("[\U000E0000-\U000E007F\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060-\u2064\u180E\uFEFF]")
# Characters that show nothing (or a blank) and split a word so that matching misses it: the soft
# hyphen ("Ign\u00adore"), the combining grapheme joiner, the Hangul fillers, Khmer inherent vowels
# and Mongolian variation selectors.
HIDING = re.compile("[\u00AD\u034F\u115F\u1160\u3164\uFFA0\u17B4\u17B5\u180B-\u180D]")
# Variation selectors: one after an emoji or a CJK ideograph picks its form; a run of them
# encodes bytes (VS1-16 = 0-15, VS17-256 = 16-255) behind an emoji no one sees.
VARIATION_RUN = re.compile("[\uFE00-\uFE0F\U000E0100-\U000E01EF]{2,}")
STRAY_IDEOGRAPHIC_VS = re.compile("(?<![\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF\U00020000-\U0003FFFF])"
                                  "[\U000E0100-\U000E01EF]")
# Everything removed before matching: whatever hides inside a word, or spells nothing.
_REMOVED = re.compile("[\U000E0000-\U000E007F\u202A-\u202E\u2066-\u2069\u200B-\u200F\u2060-\u2064\u180E\uFEFF"
                      "\u00AD\u034F\u115F\u1160\u3164\uFFA0\u17B4\u17B5\u180B-\u180D\uFE00-\uFE0F"
                      "\U000E0100-\U000E01EF]")


def decode_variation_selectors(run: str) -> str:
    """The bytes a run of variation selectors encodes, as text (what the smuggled payload says)."""
    data = bytes(ord(c) - 0xFE00 if ord(c) <= 0xFE0F else ord(c) - 0xE0100 + 16 for c in run)
    return data.decode("utf-8", "replace")


def normalised(text: str) -> str:
    """The text as it reads: invisible characters removed, then NFKC (fullwidth 'Ｉｇｎｏｒｅ' → 'Ignore')."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFKC", _REMOVED.sub("", text))
LATIN = re.compile("[A-Za-z]")
LOOKALIKE_SCRIPTS = re.compile("[\u0370-\u03FF\u0400-\u04FF]")

UNICODE_NAMES = {
    "\u200B": "U+200B zero-width space", "\u200C": "U+200C zero-width non-joiner", "\u200D": "U+200D zero-width joiner",
    "\u2060": "U+2060 word joiner", "\uFEFF": "U+FEFF zero-width no-break space", "\u180E": "U+180E vowel separator",
    "\u202A": "U+202A left-to-right embedding", "\u202B": "U+202B right-to-left embedding",
    "\u202C": "U+202C pop directional formatting", "\u202D": "U+202D left-to-right override",
    "\u202E": "U+202E right-to-left override", "\u2066": "U+2066 left-to-right isolate",
    "\u2067": "U+2067 right-to-left isolate", "\u2068": "U+2068 first strong isolate",
    "\u2069": "U+2069 pop directional isolate", "\u00AD": "U+00AD soft hyphen",
    "\u034F": "U+034F combining grapheme joiner", "\u115F": "U+115F Hangul choseong filler",
    "\u1160": "U+1160 Hangul jungseong filler", "\u3164": "U+3164 Hangul filler",
    "\uFFA0": "U+FFA0 halfwidth Hangul filler", "\u17B4": "U+17B4 Khmer vowel inherent aq",
    "\u17B5": "U+17B5 Khmer vowel inherent aa", "\u180B": "U+180B Mongolian variation selector",
    "\u180C": "U+180C Mongolian variation selector", "\u180D": "U+180D Mongolian variation selector",
}

# --------------------------------------------------------------------------- phrases

_NOT = r"(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t|may\s+not|can\s*not|cannot)"
_TELL = r"(?:tell|inform|notify|alert|warn|reveal|disclose|mention)"
_USER = r"(?:the\s+)?(?:user|users|human|customer|operator)"

# (label, anchors, pattern): the label says in a message what the text tries to do; the pattern runs
# only on lower-cased text holding one of the anchors.
PHRASES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (label, anchors, re.compile(pattern, _I)) for label, anchors, pattern in (
    ("tells the model to ignore its instructions",
     ("ignor", "disregard", "forget", "overrid", "bypass"),
     r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+|the\s+|your\s+|of\s+|my\s+)*"
     r"(?:previous|prior|above|earlier|preceding|former|system|original|existing|safety)\s+"
     r"(?:instructions?|prompts?|rules?|directions?|directives?|messages?|guidelines?|context|constraints?)"),
    ("tells the model to change roles",
     ("you are now",),
     r"\byou\s+are\s+now\s+(?:in\s+)?(?:developer|admin|god|dan|jailbreak|unrestricted)\s+mode\b"),
    ("tells the model to keep something from the user",
     ("tell", "inform", "notif", "alert", "warn", "reveal", "disclos", "mention", "hide", "conceal", "secret", "covert",
      "surrepti", "know", "notic", "aware"),
     rf"\b{_NOT}\s+(?:ever\s+)?{_TELL}\s+{_USER}\b[^.\n]{{0,20}}?\b(?:about\s+)?(?:this|that|it|anything)\b"
     rf"|\b{_NOT}\s+(?:ever\s+)?(?:{_TELL}|show)\s+(?:this|that|it|anything(?:\s+about\s+(?:this|it))?)\s+(?:to\s+)?{_USER}\b"
     rf"|\b{_NOT}\s+(?:mention|reveal|disclose)\s+(?:that\s+you|this\s+(?:instruction|step|note|side\s+effect))"
     rf"|\bwithout\s+(?:telling|informing|notifying|alerting)\s+{_USER}\b"
     rf"|\bwithout\s+{_USER}(?:'s)?\s+(?:knowing|knowledge|noticing|being\s+aware)"
     rf"|\b(?:hide|conceal)\s+(?:this|it|these\s+\w+|that\s+you\s+\w+)\s+from\s+{_USER}\b"
     rf"|\bkeep\s+(?:this|it)\s+(?:a\s+)?secret\b"
     rf"|\b{_USER}\s+(?:must|should|need|does|may)\s*(?:not|n't)\s+(?:know|notice|be\s+(?:told|informed|aware))"
     r"|\b(?:secretly|covertly|surreptitiously)\s+(?:\w+\s+)?(?:send|copy|forward|upload|include|add|pass|read|bcc|cc|"
     r"exfiltrate|transmit|collect)"),
    ("holds a hidden instruction block",
     ("<", "[inst"),
     r"<\s*/?\s*(?:important|system|system[_-]?prompt|secret|hidden|admin|sudo|"
     r"assistant[_-]?instructions?|ai[_-]?instructions?)\s*>"
     r"|\[/?INST\]|<<\s*/?SYS\s*>>|<\|(?:im_start|im_end|system|endoftext|start_header_id)\|>"),
    ("asks the model to reveal its prompt",
     ("prompt", "instructions"),
     r"\b(?:reveal|print|output|repeat|include|send|pass|leak|dump)\s+(?:\w+\s+){0,2}?(?:your|the)\s+"
     r"(?:system\s+prompt|initial\s+(?:prompt|instructions)|hidden\s+instructions|original\s+instructions)"),
    ("sends data to an address the user did not give",
     ("@", "://"),
     r"\b(?:always|also|must|secretly|silently|additionally|quietly)\s+(?:\w+\s+){0,2}?(?:bcc|cc)\s*:?\s*"
     r"[\w.+-]+@[\w-]+\.[a-z]{2,}"
     r"|\b(?:always|also|must|secretly|silently|additionally|quietly)\s+(?:\w+\s+){0,2}?"
     r"(?:send|forward|copy|upload|post|report|leak)\s+(?:a\s+copy|copies|all|every|everything|each|"
     r"the\s+(?:conversation|data|results?|contents?|messages?|e-?mails?|files?|keys?|credentials))\b"
     r"[^.\n]{0,60}?\bto\s+(?:[\w.+-]+@[\w-]+\.[a-z]{2,}|https?://)"),
    ("tells the model to ignore its instructions (Korean)",
     ("무시", "잊"),
     r"(?:이전|앞의|위의|기존|모든|시스템)\s*(?:의\s*)?(?:지시|지침|명령|규칙|프롬프트|instructions?)\S*\s*(?:모두\s*|전부\s*)?"
     r"(?:무시|잊)"),
    ("tells the model to keep something from the user (Korean)",
     ("알리지", "말하지", "알려주지", "보고하지", "언급하지", "보여주지", "공개하지", "밝히지",
      "모르게", "몰래", "사용자가"),
     r"사용자(?:에게|한테|가|는|에게는)?\s*(?:이\s*(?:사실|내용|것|지시)\S*\s*)?(?:절대\s*)?"
     r"(?:알리지|말하지|알려주지|보고하지|언급하지|보여주지|공개하지|밝히지)\s*(?:마|말|않)"
     r"|사용자\s*(?:모르게|몰래)|몰래\s*\S*(?:전송|보내|읽|첨부|복사|포함)|사용자가\s*(?:알|눈치\S*)\s*(?:수\s*)?(?:없|못)"),
    ("tells the model to ignore its instructions (Chinese)",
     ("忽略", "不要", "保密", "隐瞒"),
     r"忽略(?:之前|以上|先前|前面|所有|上述)的?(?:所有)?(?:指令|指示|说明|规则|提示)"
     r"|不要(?:告诉|通知|让)用户|对用户(?:保密|隐瞒)"),
))

# --------------------------------------------------------------------------- secrets

SECRET_PATH = re.compile(
    r"\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials|\.cursor/mcp\.json|\bmcp\.json\b"
    r"|claude_desktop_config\.json|\.netrc\b|\.pgpass\b|/etc/(?:passwd|shadow)\b|\.git-credentials\b"
    r"|\.docker/config\.json|\.kube/config\b|\.(?:bash|zsh)_history\b|\bwallet\.dat\b|\.gnupg\b|\.npmrc\b"
    r"|\.pypirc\b|(?<![\w.])\.env\b(?![.\w-])", _I)
# An imperative: at the start of a clause or after a modal ("you must read", "please open").
_IMPERATIVE = (r"(?:^|[.!:;,(\n]\s*|\b(?:must|should|please|first|then|also|and|now|you|to\s+first|need\s+to"
               r"|have\s+to)\s+)")
READ_REQUEST = re.compile(
    _IMPERATIVE +
    r"(?:read|open|cat|dump|print|output|load|fetch|access|grab|copy|extract|collect|retrieve|get|send|upload|"
    r"include|attach|pass|provide|append|forward)\b", _I)
# Asking for what a secret file holds with a verb that is no read: "put the full contents of ~/.aws/credentials
# here" (matched on the text before the path).
CONTENTS_REQUEST = re.compile(
    _IMPERATIVE
    + r"(?P<verb>put|paste|insert|add|give|show|return|write|echo|share|embed|display|reveal|list|type|fill)\b"
    r"[^.\n]{0,40}?\b(?:contents?|text|body|lines?)\s+of\s+(?:the\s+|your\s+)?(?:file\s+)?(?:at\s+|in\s+)?"
    r"[`'\"]?[~$\w/.{}-]*$", _I)
# Where the user keeps what a tool returns: "Place the returned credentials in your project's `.env` file".  The
# secret file is the destination, and nothing is read from it (matched on the text before the path).
STORED_IN = re.compile(
    r"\b(?P<verb>place|put|store|save|keep|add|append|insert|write|paste|set|copy)\b[^.\n]{0,80}?\b(?:in|into|to|inside)\s+"
    r"[^\n]{0,40}$", _I)
# ... and passed on from there: "… stored in ~/.ssh/id_rsa into 'x'", "… as the note argument".
SENT_ON = re.compile(r"\b(?:as|into|in|inside|via|through|to)\s+(?:the\s+|a\s+|an\s+)?(?:['\"`][\w-]+['\"`]"
                     r"|[\w-]+\s+(?:argument|parameter|param|field|property))", _I)
READS_FROM = re.compile(r"\b(?:read|open|cat|dump|print|output|load|fetch|access|grab|extract|collect|retrieve|"
                        r"get|send|upload|forward|contents?|content)\b", _I)
# Passing something along inside an argument: "pass its content as 'sidenote'".
SMUGGLE = re.compile(
    r"\b(?:pass|send|include|put|provide|add|append|insert|attach|place|embed|encode|copy)\b[^.\n]{0,80}?"
    r"\b(?:as|in|into|inside|within|via|through)\s+(?:the\s+|a\s+|an\s+)?['\"`]?(?P<arg>[\w-]+)['\"`]?"
    r"(?:\s+(?:argument|parameter|param|field|property|variable|value))?", _I)
SECRET_WORDS = re.compile(
    r"\b(?:private\s+keys?|ssh\s+keys?|api\s+keys?|access\s+tokens?|credentials|passwords?|secrets|"
    r"environment\s+variables|env\s+vars|(?:conversation|chat)\s+history|(?:entire|full|whole)\s+conversation|"
    r"system\s+prompt|previous\s+messages|contents?\s+of\s+(?:the\s+)?(?:file|\S*\.ssh|~))", _I)
# An argument that is itself the place for a credential is how authentication works.
AUTH_ARGUMENT = re.compile(r"key|token|password|passwd|secret|auth|credential|bearer|header|env", _I)
# Tools whose job is files, keys or configuration may name these paths in passing.
FILE_TOOL_WORDS = frozenset("""
ssh sftp scp env dotenv file files read fs filesystem key keys credential credentials secret secrets config
vault path cat open load git docker kube kubectl aws gpg keychain dir directory
""".split())

# --------------------------------------------------------------------------- the gates

def _words(text: str) -> frozenset[bytes]:
    return frozenset(w.encode() for w in text.split())


# Word pairs without which no phrase detector can match (words taken after punctuation
# becomes space): a word of the first set alone, or one of each set in a pair.
STRONG_WORDS = _words("ignore disregard forget override overrides bypass jailbreak secretly covertly surreptitiously "
                      "conceal bcc cc")
WORD_PAIRS = (
    # keeping things from the user
    (_words("tell telling inform informing notify notifying alert alerting warn reveal disclose mention hide secret "
            "know knowing knowledge notice noticing told informed aware"),
     _words("user users human customer operator user's users' keep")),
    # role change
    (_words("developer admin dan god unrestricted"), _words("mode")),
    # prompt leak
    (_words("prompt instructions"), _words("reveal print output repeat include send pass leak dump")),
    # secrets handed over in an argument
    (_words("key keys token tokens credentials password passwords secrets variables vars conversation history "
            "messages contents"),
     _words("pass send include put provide add append insert attach place embed encode copy")),
)
ALL_WORDS = STRONG_WORDS.union(*(first | second for first, second in WORD_PAIRS))
SYMBOL_SUBSTRINGS = ("<", "@", "://", "[inst", "/etc/")
# Secret paths: each regex starts with one literal character, which the search skips to at C speed.
SECRET_PATH_GATES = (
    re.compile(r"\.(?:ssh|aws|env|netrc|pgpass|git-cred|docker/|kube/|gnupg|npmrc|pypirc|json(?<=mcp\.json)"
               r"|dat(?<=wallet\.dat))"),
    re.compile(r"_(?:history(?<=sh_history)|rsa|dsa|ecdsa|ed25519|desktop(?<=claude_desktop))"),
)
_PUNCTUATION_CHARS = b"!\"#$%&()*+,-./:;=>?[\\]^_`{|}~\t\n\r"
_PUNCTUATION = bytes.maketrans(_PUNCTUATION_CHARS, b" " * len(_PUNCTUATION_CHARS))
CJK_ANCHORS = ("무시", "잊", "알리지", "말하지", "알려주지", "보고하지", "언급하지", "보여주지", "공개하지", "밝히지",
               "모르게", "몰래", "눈치", "사용자가", "忽略", "不要告诉", "不要通知", "不要让用户", "保密", "隐瞒")
STRANGE_CHARACTERS = re.compile(
    "[\U000E0000-\U000E007F\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060-\u2064\u180E\uFEFF"
    "\u0370-\u03FF\u0400-\u04FF"
    # what hides inside a word, variation selectors, fullwidth letters (matched once normalised)
    "\u00AD\u034F\u115F\u1160\u3164\uFFA0\u17B4\u17B5\u180B-\u180D\uFE00-\uFE0F\U000E0100-\U000E01EF"
    "\uFF21-\uFF3A\uFF41-\uFF5A]")


def text_words(lowered: str) -> list[bytes]:
    """The words of lower-cased text, punctuation dropped, as bytes (one C pass each step)."""
    return lowered.encode().translate(_PUNCTUATION).split()


def suspicious(lowered: str, words: list[bytes] | None = None) -> bool:
    """Could any detector match this lower-cased text?  False for nearly every tool, at C speed."""
    for symbol in SYMBOL_SUBSTRINGS:
        if symbol in lowered:
            return True
    for gate in SECRET_PATH_GATES:
        if gate.search(lowered) is not None:
            return True
    if words is None:
        words = text_words(lowered)
    present = ALL_WORDS.intersection(words)
    if present:
        if not STRONG_WORDS.isdisjoint(present):
            return True
        for first, second in WORD_PAIRS:
            if not first.isdisjoint(present) and not second.isdisjoint(present):
                return True
    if lowered.isascii():
        return False
    for anchor in CJK_ANCHORS:
        if anchor in lowered:
            return True
    return STRANGE_CHARACTERS.search(lowered) is not None
