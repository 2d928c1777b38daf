"""Canonical JSON (RFC 8785, the JSON Canonicalization Scheme) and the fingerprint of arguments.

Two argument sets that mean the same JSON give the same fingerprint, whatever
order their keys came in, however their numbers were written (`4.50`, `4.5`,
`45e-1`) and whatever escapes their strings used:

    >>> canonical_json({"b": [1.0, 2e-3], "a": "€"})
    '{"a":"€","b":[1,0.002]}'
    >>> fingerprint({"b": 1, "a": 2}) == fingerprint({"a": 2, "b": 1.0})
    True

The rules (RFC 8785 §3.2): no whitespace; object members sorted by the UTF-16
code units of their names; strings with only `"`, `\\`, and the control
characters escaped (`\\b \\t \\n \\f \\r`, else `\\u00xx`); numbers as IEEE 754
doubles in ECMAScript's `Number.prototype.toString` form.  NaN and the
infinities have no JSON form and raise `ValueError`, as the RFC requires.

Beyond I-JSON, where the RFC gives no answer, the form stays deterministic so
that distinct values never share a fingerprint: an integer that no double
holds exactly (beyond ±2⁵³ and not a double) keeps all its digits, and a lone
surrogate is escaped as `\\udxxx`.

The fingerprint is the SHA-256 of the canonical form's UTF-8 bytes, in hex.
Idempotency records compare it to catch a key reused with other arguments; the
correction budget uses it to recognise the same invalid call.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
for _code in range(0x20):
    _ESCAPES.setdefault(chr(_code), f"\\u{_code:04x}")
for _code in range(0xD800, 0xE000):  # only ever alone: a pair is one code point in a Python str
    _ESCAPES[chr(_code)] = f"\\u{_code:04x}"
_NEEDS_ESCAPE = frozenset(_ESCAPES)
_MAX_DEPTH = 512


def canonical_json(value: Any) -> str:
    """The RFC 8785 form of a JSON value (dict, list, str, int, float, bool, None)."""
    parts: list[str] = []
    _write(value, parts, 0)
    return "".join(parts)


def fingerprint(value: Any) -> str:
    """SHA-256 (hex) of the canonical form's UTF-8 bytes."""
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


def _write(value: Any, out: list[str], depth: int) -> None:
    if depth > _MAX_DEPTH:
        raise ValueError("the value is nested too deeply to canonicalise")
    if value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, str):
        out.append(_string(value))
    elif isinstance(value, int):
        out.append(_integer(value))
    elif isinstance(value, float):
        out.append(number(value))
    elif isinstance(value, dict):
        names = list(value)
        for name in names:
            if not isinstance(name, str):
                raise TypeError(f"an object member name must be a string, not {type(name).__name__}")
        names.sort(key=_utf16)
        out.append("{")
        for i, name in enumerate(names):
            if i:
                out.append(",")
            out.append(_string(name))
            out.append(":")
            _write(value[name], out, depth + 1)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for i, item in enumerate(value):
            if i:
                out.append(",")
            _write(item, out, depth + 1)
        out.append("]")
    else:
        raise TypeError(f"{type(value).__name__} is not a JSON value")


def _utf16(name: str) -> bytes:
    # big-endian UTF-16 bytes compare as the sequence of 16-bit code units does
    return name.encode("utf-16-be", "surrogatepass")


def _string(text: str) -> str:
    if _NEEDS_ESCAPE.isdisjoint(text):
        return f'"{text}"'
    return '"' + "".join(_ESCAPES.get(ch, ch) for ch in text) + '"'


def _integer(value: int) -> str:
    if -(2 ** 53) <= value <= 2 ** 53:
        return str(value)
    try:
        as_double = float(value)
    except OverflowError:
        return str(value)
    return number(as_double) if int(as_double) == value else str(value)


def number(value: float) -> str:
    """ECMAScript's Number.prototype.toString for a finite double (RFC 8785 §3.2.2.3).

        >>> number(1e21), number(1e-7), number(123.0), number(-0.0)
        ('1e+21', '1e-7', '123', '0')
    """
    if math.isnan(value) or math.isinf(value):
        raise ValueError(f"{value} has no JSON form")
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    # repr() gives the shortest digits that read back as the same double, as ECMAScript does
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + (int(exponent) if exponent else 0)  # the decimal point's place in whole+fraction
    point -= len(whole + fraction) - len((whole + fraction).lstrip("0"))
    digits = digits.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + digits
    e = n - 1
    exp = f"e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + (digits if k == 1 else digits[0] + "." + digits[1:]) + exp


__all__ = ["canonical_json", "fingerprint", "number"]
