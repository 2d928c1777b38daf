"""Property: whatever a tool raises or returns, `call` and `acall` return a Result whose wire shapes are JSON.

Generated tools raise every built-in exception type (except KeyboardInterrupt in
the caller's own thread: there it is the user's Ctrl-C and must propagate) or
return values of every kind Python has — with each return annotation, sync or
async, with or without a timeout.  Each call runs under a timeout of the test's
own, so a hang fails the test instead of stalling the suite.
"""

from __future__ import annotations

import asyncio
import builtins
import collections
import datetime
import decimal
import enum
import fractions
import json
import pathlib
import threading
import uuid
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolclause import Result, Toolbox

CALL_TIMEOUT = 20.0


def _builtin_exceptions() -> list[type[BaseException]]:
    found = [v for v in vars(builtins).values() if isinstance(v, type) and issubclass(v, BaseException)]
    return sorted((t for t in found if t is not KeyboardInterrupt), key=lambda t: t.__name__)


def _instance(exc_type: type[BaseException]) -> BaseException:
    if issubclass(exc_type, BaseExceptionGroup):
        inner = [SystemExit(2)] if not issubclass(exc_type, Exception) else [ValueError("inner")]
        return exc_type("a group", inner)
    try:
        return exc_type("secret text the envelope must not carry")
    except TypeError:  # UnicodeDecodeError and friends want more arguments: an uninitialised one
        return exc_type.__new__(exc_type)


class Colour(enum.Enum):
    RED = "red"


class Opaque:
    def __repr__(self) -> str:
        raise RuntimeError("a repr that fails")


def _self_list() -> list:
    items: list = []
    items.append(items)
    return items


def _self_dict() -> dict:
    node: dict = {}
    node["self"] = node
    return node


def _deep(n: int) -> list:
    out: list = []
    for _ in range(n):
        out = [out]
    return out


def _generator():
    yield 1


PYTHON_VALUES = [
    None, True, 0, -1, 10 ** 400, 1.5, float("nan"), float("inf"), -0.0, 1 + 2j, "text", "\udc80", b"\xff\x00",
    bytearray(b"ab"), memoryview(b"ab"), [], [1, "a"], (1, 2), {1, 2}, frozenset({3}), {"a": 1}, {1: "a"},
    {(1, 2): "tuple key"}, {None: 1}, collections.OrderedDict(a=1), collections.defaultdict(list),
    datetime.datetime(2024, 1, 1), datetime.date(2024, 1, 1), datetime.timedelta(seconds=3),
    decimal.Decimal("1.1"), decimal.Decimal("NaN"), fractions.Fraction(1, 3), uuid.UUID(int=1),
    pathlib.PurePosixPath("/etc/passwd"), Colour.RED, Opaque(), object(), Opaque, len, range(3), ..., NotImplemented,
    _self_list(), _self_dict(), _deep(5000), {"nested": {"when": datetime.time(1, 2)}}, _generator(),
    ValueError("an exception returned, not raised"),
]
ANNOTATIONS = [None, dict, list, int, str, float, Any, dict[str, int], list[str]]


def _tool(outcome: Any, raises: bool, is_async: bool, annotation: Any):
    def sync_tool():
        if raises:
            raise outcome
        return outcome

    async def async_tool():
        if raises:
            raise outcome
        return outcome

    fn = async_tool if is_async else sync_tool
    fn.__doc__ = "Does one generated thing."
    if annotation is not None:
        fn.__annotations__ = {"return": annotation}
    return fn


def _call_bounded(box: Toolbox, arguments: Any) -> Result:
    """box.call in a thread joined with a timeout: a hang fails, an exception is re-raised here."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(box.call("generated", arguments))
        except BaseException as exc:  # noqa: BLE001 - reported below
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(CALL_TIMEOUT)
    assert outcome, f"call() did not return within {CALL_TIMEOUT} s"
    if isinstance(outcome[0], BaseException):
        raise AssertionError(f"call() raised {type(outcome[0]).__name__}") from outcome[0]
    return outcome[0]


def _acall_bounded(box: Toolbox, arguments: Any) -> Result:
    async def main() -> Result:
        return await asyncio.wait_for(box.acall("generated", arguments), CALL_TIMEOUT)

    try:
        return asyncio.run(main())
    except TimeoutError:
        raise AssertionError(f"acall() did not return within {CALL_TIMEOUT} s") from None


def _check(result: Result) -> None:
    assert isinstance(result, Result)
    json.dumps(result.to_mcp(), allow_nan=False)
    json.loads(result.to_openai("c")["content"])
    json.loads(result.to_anthropic("c")["content"])
    if not result.ok:
        assert "secret text" not in result.error.message


outcomes = st.one_of(
    st.tuples(st.sampled_from(_builtin_exceptions()).map(_instance), st.just(True)),
    st.tuples(st.sampled_from(PYTHON_VALUES), st.just(False)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(outcome=outcomes, is_async=st.booleans(), annotation=st.sampled_from(ANNOTATIONS),
       timeout=st.sampled_from([None, 5.0]),
       arguments=st.sampled_from([{}, "{}", b"{}", None, '{"x": 1e2}', {"x": [1, {"y": None}]}, "[", 7]))
def test_call_and_acall_never_raise_and_never_hang(outcome, is_async, annotation, timeout, arguments):
    value, raises = outcome
    box = Toolbox("memory://", lint="off")
    box.tool(_tool(value, raises, is_async, annotation), name="generated", timeout=timeout)
    try:
        _check(_call_bounded(box, arguments))
        _check(_acall_bounded(box, arguments))
    finally:
        box.close()


def test_every_builtin_exception_type_and_every_value_is_covered_once():
    """The sample above is random; this runs each exception type and each value once through both entry points."""
    for value in PYTHON_VALUES:
        box = Toolbox("memory://", lint="off")
        box.tool(_tool(value, False, False, None), name="generated")
        _check(_call_bounded(box, {}))
        _check(_acall_bounded(box, {}))
        box.close()
    for exc_type in _builtin_exceptions():
        box = Toolbox("memory://", lint="off")
        box.tool(_tool(_instance(exc_type), True, False, dict), name="generated")
        for result in (_call_bounded(box, {}), _acall_bounded(box, {})):
            _check(result)
            assert result.error.code in ("INTERNAL_ERROR", "UPSTREAM_TIMEOUT", "UPSTREAM_UNAVAILABLE"), exc_type
        box.close()
