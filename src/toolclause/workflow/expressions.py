"""A small, safe expression language for routing rules: parsed by hand, evaluated over JSON, never `eval`.

    intent == "refund" and confidence >= 0.8
    customer.tier in ["gold", "platinum"] or not (amount < 100)
    items[0].sku != null

Grammar (lowest precedence first):

    expr        := and ("or" and)*
    and         := not ("and" not)*
    not         := "not" not | comparison
    comparison  := operand (("==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not in") operand)?
    operand     := NUMBER | STRING | true | false | null | list | path | "(" expr ")"
    list        := "[" (operand ("," operand)*)? "]"
    path        := NAME ("." NAME | "[" (INTEGER | STRING) "]")*

A path that is not in the object is null; an ordering between values of
different kinds (a number and a string, anything and null) is false, never an
error.  `==` compares JSON values (1 == 1.0; true is not 1).  Expressions are at
most 2,000 characters and 50 levels deep.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..schema.keywords import json_kind

MAX_LENGTH, MAX_DEPTH = 2000, 50
KEYWORDS = {"and", "or", "not", "in", "true", "false", "null"}

_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<number>-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<op>==|!=|<=|>=|<|>|\(|\)|\[|\]|,|\.)
  | (?P<name>[A-Za-z_$][A-Za-z0-9_$-]*)
""", re.VERBOSE)

Evaluator = Callable[[Any], Any]


class ExpressionError(ValueError):
    """An expression that cannot be parsed: the message says what and where (a column from 1)."""

    def __init__(self, message: str, column: int) -> None:
        super().__init__(f"{message} (column {column})")
        self.column = column


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str    # number, string, op, name, end
    text: str
    column: int


def _tokens(source: str) -> list[_Token]:
    out, position = [], 0
    while position < len(source):
        found = _TOKEN.match(source, position)
        if found is None:
            raise ExpressionError(f"unexpected character {source[position]!r}", position + 1)
        kind = found.lastgroup or ""
        if kind != "space":
            out.append(_Token(kind, found.group(), position + 1))
        position = found.end()
    out.append(_Token("end", "", len(source) + 1))
    return out


def _string(text: str) -> str:
    body = text[1:-1]
    if text[0] == "'":
        body = body.replace("\\'", "'").replace('"', '\\"')
    try:
        value = json.loads(f'"{body}"')
    except ValueError:
        raise ValueError("bad escape") from None
    return str(value)


def _equal(a: Any, b: Any) -> bool:
    if json_kind(a) != json_kind(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return bool(a == b)


def _ordered(op: str) -> Callable[[Any, Any], bool]:
    compare: Callable[[Any, Any], bool] = {
        "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}[op]

    def check(a: Any, b: Any) -> bool:
        kinds = (json_kind(a), json_kind(b))
        return kinds[0] == kinds[1] and kinds[0] in ("number", "string") and compare(a, b)
    return check


def _contains(a: Any, b: Any) -> bool:
    if isinstance(b, list):
        return any(_equal(a, item) for item in b)
    if isinstance(b, str) and isinstance(a, str):
        return a in b
    if isinstance(b, dict) and isinstance(a, str):
        return a in b
    return False


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": _equal, "!=": lambda a, b: not _equal(a, b), "<": _ordered("<"), "<=": _ordered("<="),
    ">": _ordered(">"), ">=": _ordered(">="), "in": _contains, "not in": lambda a, b: not _contains(a, b)}


class _Parser:
    def __init__(self, source: str) -> None:
        self.tokens = _tokens(source)
        self.at = 0
        self.depth = 0

    def peek(self, offset: int = 0) -> _Token:
        return self.tokens[min(self.at + offset, len(self.tokens) - 1)]

    def take(self) -> _Token:
        token = self.peek()
        self.at += 1
        return token

    def word(self, text: str, offset: int = 0) -> bool:
        token = self.peek(offset)
        return token.kind == "name" and token.text == text

    def expect(self, text: str) -> None:
        token = self.take()
        if token.text != text or token.kind not in ("op",):
            raise ExpressionError(f"expected {text!r}, found {token.text or 'the end'!r}", token.column)

    def parse(self) -> Evaluator:
        evaluator = self.expression()
        token = self.peek()
        if token.kind != "end":
            raise ExpressionError(f"unexpected {token.text!r}", token.column)
        return evaluator

    def deeper(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ExpressionError(f"nested more than {MAX_DEPTH} levels deep", self.peek().column)

    def expression(self) -> Evaluator:
        self.deeper()
        parts = [self.conjunction()]
        while self.word("or"):
            self.take()
            parts.append(self.conjunction())
        self.depth -= 1
        if len(parts) == 1:
            return parts[0]
        return lambda obj: any(_truthy(part(obj)) for part in parts)

    def conjunction(self) -> Evaluator:
        parts = [self.negation()]
        while self.word("and"):
            self.take()
            parts.append(self.negation())
        if len(parts) == 1:
            return parts[0]
        return lambda obj: all(_truthy(part(obj)) for part in parts)

    def negation(self) -> Evaluator:
        if self.word("not") and not self.word("in", 1):
            self.take()
            self.deeper()
            inner = self.negation()
            self.depth -= 1
            return lambda obj: not _truthy(inner(obj))
        return self.comparison()

    def comparison(self) -> Evaluator:
        left = self.operand()
        token = self.peek()
        op = None
        if token.kind == "op" and token.text in _COMPARE:
            op = self.take().text
        elif self.word("in"):
            self.take()
            op = "in"
        elif self.word("not") and self.word("in", 1):
            self.take()
            self.take()
            op = "not in"
        if op is None:
            return left
        right = self.operand()
        compare = _COMPARE[op]
        return lambda obj: compare(left(obj), right(obj))

    def operand(self) -> Evaluator:
        token = self.take()
        if token.kind == "number":
            value: Any = float(token.text) if any(c in token.text for c in ".eE") else int(token.text)
            return lambda obj: value
        if token.kind == "string":
            try:
                text = _string(token.text)
            except ValueError:
                raise ExpressionError("a string with a bad escape", token.column) from None
            return lambda obj: text
        if token.kind == "op" and token.text == "(":
            inner = self.expression()
            self.expect(")")
            return inner
        if token.kind == "op" and token.text == "[":
            self.deeper()
            items: list[Evaluator] = []
            if not (self.peek().kind == "op" and self.peek().text == "]"):
                items.append(self.operand())
                while self.peek().kind == "op" and self.peek().text == ",":
                    self.take()
                    items.append(self.operand())
            self.expect("]")
            self.depth -= 1
            return lambda obj: [item(obj) for item in items]
        if token.kind == "name":
            if token.text in ("true", "false", "null"):
                constant = {"true": True, "false": False, "null": None}[token.text]
                return lambda obj: constant
            if token.text in KEYWORDS:
                raise ExpressionError(f"expected a value, found {token.text!r}", token.column)
            return self.path(token.text)
        raise ExpressionError(f"expected a value, found {token.text or 'the end'!r}", token.column)

    def path(self, first: str) -> Evaluator:
        steps: list[str | int] = [first]
        while self.peek().kind == "op" and self.peek().text in (".", "["):
            if self.take().text == ".":
                token = self.take()
                if token.kind != "name":
                    raise ExpressionError(f"expected a name after '.', found {token.text or 'the end'!r}", token.column)
                steps.append(token.text)
            else:
                token = self.take()
                if token.kind == "number" and token.text.isdigit():
                    steps.append(int(token.text))
                elif token.kind == "string":
                    steps.append(_string(token.text))
                else:
                    raise ExpressionError("expected an index or a quoted key inside [ ]", token.column)
                self.expect("]")
        return lambda obj: _lookup(obj, steps)


def _lookup(obj: Any, steps: list[str | int]) -> Any:
    for step in steps:
        if isinstance(step, int) and isinstance(obj, list) and step < len(obj):
            obj = obj[step]
        elif isinstance(step, str) and isinstance(obj, dict) and step in obj:
            obj = obj[step]
        else:
            return None
    return obj


def _truthy(value: Any) -> bool:
    return value is not None and value is not False and value != 0 and value != "" and value != [] and value != {}


@dataclass(frozen=True)
class Expression:
    """A parsed rule: `Expression.parse("intent == 'refund'")(obj)` → True or False."""

    source: str
    evaluate: Evaluator

    @classmethod
    def parse(cls, source: str) -> Expression:
        if not isinstance(source, str):
            raise ExpressionError(f"an expression is text, not {type(source).__name__}", 1)
        if len(source) > MAX_LENGTH:
            raise ExpressionError(f"longer than {MAX_LENGTH} characters", MAX_LENGTH)
        if not source.strip():
            raise ExpressionError("an empty expression", 1)
        return cls(source, _Parser(source).parse())

    def __call__(self, obj: Any) -> bool:
        return _truthy(self.evaluate(obj))


__all__ = ["Expression", "ExpressionError"]
