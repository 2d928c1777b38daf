"""What a secret or a personal number looks like as a value, for lint rule X010 and the gate's result check.

`CREDENTIAL` is X010's pattern for a credential in a contract's `_meta` (an OpenAI-style
`sk-…` key, an AWS access key id, a GitHub or Slack token, a PEM private key).  `secrets_in`
adds what the gate also looks for in a tool's result before the model reads it: live API keys
(`sk_live_…`, `rk_live_…`, Google's `AIza…`), bearer tokens and JWTs, card numbers (13 to 19
digits with a card network's first digit that pass the Luhn check) and Korean resident
registration numbers (주민등록번호: a birth date, then the digit for century and sex).
Each is matched on shape and checked where a check exists, so an order id or a timestamp is
not taken for one.
"""

from __future__ import annotations

from collections.abc import Iterator

from .. import _lazy_re as re

CREDENTIAL = re.compile(
    r"\bsk-[A-Za-z0-9_-]{20,}|\bAKIA[0-9A-Z]{16}\b|\bgh[pousr]_[A-Za-z0-9]{30,}|\bxox[abprs]-[A-Za-z0-9-]{10,}"
    r"|-----BEGIN (?:RSA |EC |OPENSSH |DSA )?PRIVATE KEY-----")

_LIVE_KEY = re.compile(r"\b(?:sk|rk)_live_[A-Za-z0-9]{16,}|\bAIza[0-9A-Za-z_-]{35}\b|\bwhsec_[A-Za-z0-9]{24,}")
_BEARER = re.compile(r"\bBearer\s+[A-Za-z0-9._~+/-]{16,}=*", re.IGNORECASE)
_JWT = re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")
_CARD = re.compile(r"(?<![\d-])[3-6]\d{3}(?:[ -]?\d){9,15}(?![\d-])")
_RESIDENT = re.compile(r"(?<!\d)(\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(-?)([1-8])\d{6}(?!\d)")
# a cheap first look: text with none of these cannot hold any of the secrets above.  Byte substring tests
# (digits folded to 0 first) cost a few microseconds on a typical result, where one regex alternation —
# which Python's engine tries at every position — costs ten times more; a hit only means the real patterns run.
_LOOKS_LIKE = (b"sk", b"AKIA", b"gh", b"xox", b"PRIVATE", b"AIza", b"whsec", b"eyJ", b"earer", b"EARER")
_DIGIT_RUNS = (b"000000", b"0000 0000", b"0000-0000")  # six digits in a row, or a card's 4+4 group
_FOLD_DIGITS = bytes.maketrans(b"123456789", b"000000000")

KINDS = {"credential": "an API key or credential", "live_key": "a live API key", "bearer": "a bearer token",
         "jwt": "a signed token (JWT)", "card": "a card number", "resident": "a resident registration number"}


def may_hold_secret(text: str) -> bool:
    """False when `text` certainly holds none of the secrets `secrets_in` finds (one fast search)."""
    raw = text.encode("utf-8", "surrogatepass")
    for piece in _LOOKS_LIKE:
        if piece in raw:
            return True
    folded = raw.translate(_FOLD_DIGITS)
    return any(run in folded for run in _DIGIT_RUNS)


def secrets_in(text: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, kind) of every secret in `text`, in order; `kind` is a key of KINDS."""
    found: list[tuple[int, int, str]] = []
    for kind, pattern in (("credential", CREDENTIAL), ("live_key", _LIVE_KEY), ("bearer", _BEARER), ("jwt", _JWT)):
        found += [(m.start(), m.end(), kind) for m in pattern.finditer(text)]
    found += [(m.start(), m.end(), "card") for m in _CARD.finditer(text) if _luhn(m.group())]
    found += [(m.start(), m.end(), "resident") for m in _RESIDENT.finditer(text) if _resident(m)]
    end = -1
    for start, stop, kind in sorted(found):
        if start >= end:  # overlapping matches (a JWT after "Bearer"): the first, longest one counts
            end = stop
            yield start, stop, kind


def _luhn(text: str) -> bool:
    digits = [int(c) for c in text if c.isdigit()]
    if not 13 <= len(digits) <= 19:
        return False
    total = 0
    for n, digit in enumerate(reversed(digits)):
        if n % 2:
            digit = digit * 2 - 9 if digit > 4 else digit * 2
        total += digit
    return total % 10 == 0


def _resident(match: re.Match[str]) -> bool:
    """A resident number with its hyphen has a plausible date; one without needs its check digit too
    (numbers issued before October 2020 carry one), so thirteen digits of anything are not taken."""
    if match.group(4):
        return True
    digits = [int(c) for c in match.group() if c.isdigit()]
    weights = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
    check = (11 - sum(d * w for d, w in zip(digits, weights, strict=False)) % 11) % 10
    return check == digits[12]


__all__ = ["CREDENTIAL", "KINDS", "may_hold_secret", "secrets_in"]
