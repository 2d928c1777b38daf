"""RFC 8785 canonical JSON, checked against the RFC's own examples, and the fingerprint built on it."""

from __future__ import annotations

import hashlib
import json
import math
import struct

import pytest

from toolclause.schema.fingerprint import canonical_json, fingerprint, number

# RFC 8785 Appendix B: IEEE 754 doubles (as hex) and their canonical text
APPENDIX_B = [
    ("0000000000000000", "0"), ("8000000000000000", "0"), ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"), ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"), ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"), ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"), ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"), ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"), ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"), ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"), ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"), ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"), ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


@pytest.mark.parametrize("bits, expected", APPENDIX_B)
def test_appendix_b_numbers(bits, expected):
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    assert number(value) == expected
    assert canonical_json([value]) == f"[{expected}]"


@pytest.mark.parametrize("bits", ["7fffffffffffffff", "7ff0000000000000", "fff0000000000000"])
def test_nan_and_infinity_have_no_canonical_form(bits):
    with pytest.raises(ValueError):
        canonical_json({"x": struct.unpack(">d", bytes.fromhex(bits))[0]})


# RFC 8785 §3.2.2: the whole transformation, and §3.2.4: its UTF-8 bytes
RFC_INPUT = r'''{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}'''
RFC_OUTPUT = (r'''{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'''
              r'''"string":"€$\u000f\nA'B\"\\\\\"/"}''')
RFC_BYTES = """
7b 22 6c 69 74 65 72 61 6c 73 22 3a 5b 6e 75 6c 6c 2c 74 72
75 65 2c 66 61 6c 73 65 5d 2c 22 6e 75 6d 62 65 72 73 22 3a
5b 33 33 33 33 33 33 33 33 33 2e 33 33 33 33 33 33 33 2c 31
65 2b 33 30 2c 34 2e 35 2c 30 2e 30 30 32 2c 31 65 2d 32 37
5d 2c 22 73 74 72 69 6e 67 22 3a 22 e2 82 ac 24 5c 75 30 30
30 66 5c 6e 41 27 42 5c 22 5c 5c 5c 5c 5c 22 2f 22 7d"""


def test_the_rfc_example_end_to_end():
    text = canonical_json(json.loads(RFC_INPUT))
    assert text == RFC_OUTPUT
    assert text.encode("utf-8") == bytes.fromhex(RFC_BYTES.replace("\n", " "))
    assert fingerprint(json.loads(RFC_INPUT)) == hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_members_sort_by_utf16_code_units():
    # RFC 8785 §3.2.3: the surrogate pair of U+1F600 sorts before U+FB33, unlike code point order
    source = json.loads(r'''{"\u20ac": "Euro Sign", "\r": "Carriage Return",
        "\ufb33": "Hebrew Letter Dalet With Dagesh", "1": "One", "\ud83d\ude00": "Emoji: Grinning Face",
        "\u0080": "Control", "\u00f6": "Latin Small Letter O With Diaeresis"}''')
    order = [value for value in json.loads(canonical_json(source)).values()]
    assert order == ["Carriage Return", "One", "Control", "Latin Small Letter O With Diaeresis", "Euro Sign",
                     "Emoji: Grinning Face", "Hebrew Letter Dalet With Dagesh"]


def test_the_same_meaning_gives_the_same_fingerprint_and_another_does_not():
    assert fingerprint({"a": 4.50, "b": [1, {"y": True, "x": None}]}) == \
        fingerprint(json.loads('{"b": [1.0, {"x": null, "y": true}], "a": 45e-1}'))
    assert fingerprint({"a": 1}) != fingerprint({"a": "1"})
    assert fingerprint({"a": [1, 2]}) != fingerprint({"a": [2, 1]})


def test_values_beyond_i_json_stay_distinct_and_deterministic():
    big = 2 ** 53 + 1  # no double holds it: its digits are kept rather than rounded onto 2**53
    assert canonical_json(big) == "9007199254740993" and fingerprint(big) != fingerprint(2 ** 53)
    assert canonical_json(10 ** 21) == "1e+21"  # an integer a double holds exactly: the number rule
    assert canonical_json("\ud800x") == '"\\ud800x"'  # a lone surrogate (json.loads makes them) is escaped
    with pytest.raises(TypeError):
        canonical_json({"when": object()})
    with pytest.raises(TypeError):
        canonical_json({1: "a"})
    assert math.isfinite(float(canonical_json(1e308)))
