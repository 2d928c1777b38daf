"""Stage 5 of a call: run the tool.  The gate hands valid arguments to an `Executor`.

`LocalExecutor` calls the Python function bound to the tool.  Another executor
can run the same tool elsewhere — a proxy forwards the call to a remote MCP
server — while every other stage of the gate stays as it is:

    class Forwarder:
        def run(self, tool, arguments): ...            # return the tool's result, or raise
        async def arun(self, tool, arguments): ...
        def close(self): ...

    Gate(registry, executor=Forwarder(session))

An executor returns the tool's result as a Python value (the gate checks it
against the output schema), raises `ToolError` for a business failure, and
raises `DeadlineExceeded` when the tool's own timeout passed (saying whether
the call had started); anything else it raises is translated at the boundary
like any exception a tool raises.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import weakref
from collections.abc import Callable
from typing import Any, Protocol

from .policy import DEFAULT_CONCURRENCY
from .registration import BoundTool


class DeadlineExceeded(Exception):
    """The tool did not finish within its own timeout (not a TimeoutError the tool itself raised).

    `started` says whether it ever began: a call still queued when its deadline
    passed never runs.  `future` is the run still going on in a worker thread
    (a thread cannot be stopped), so its outcome can be recorded when it ends.
    """

    def __init__(self, seconds: float, started: bool = True, future: concurrent.futures.Future | None = None) -> None:
        super().__init__(f"no result within {seconds:g} s" + ("" if started else " (never started)"))
        self.seconds = seconds
        self.started = started
        self.future = future


class ToolRaised(Exception):
    """A tool raised something that must not cross the gate as it is: `SystemExit`, `GeneratorExit`,
    a `CancelledError` of its own making, or — from a worker thread — anything that is not an
    `Exception`, and `StopIteration` (an asyncio future cannot hold one: `acall` would wait forever).
    The original is the `__cause__`, for the log; the model sees INTERNAL_ERROR.
    """


def _in_thread(fn: Callable[..., Any], arguments: dict[str, Any]) -> Any:
    """`fn(**arguments)` in a worker thread; whatever it raises there reaches the caller as an Exception."""
    try:
        return fn(**arguments)
    except StopIteration as exc:
        raise ToolRaised(f"the tool raised {type(exc).__name__}") from exc
    except Exception:
        raise
    except BaseException as exc:  # noqa: BLE001 - in a worker thread, even KeyboardInterrupt is the tool's own
        raise ToolRaised(f"the tool raised {type(exc).__name__}") from exc


class Executor(Protocol):
    def run(self, tool: BoundTool, arguments: dict[str, Any]) -> Any: ...

    async def arun(self, tool: BoundTool, arguments: dict[str, Any]) -> Any: ...

    def close(self) -> None: ...


class LocalExecutor:
    """`tool.fn(**arguments)`.

    A sync tool runs in the caller's thread, or — when it has a timeout, or is
    called with `acall` — in worker threads of its own, at most `cap(tool)` at
    once, so a slow tool queues only its own calls.  A queued call whose
    deadline passes is cancelled before it starts.  An async tool is awaited
    (from `call()`, on a loop of its own), at most `cap(tool)` at once per loop.
    """

    def __init__(self, cap: Callable[[BoundTool], int] = lambda tool: DEFAULT_CONCURRENCY) -> None:
        self._cap = cap
        self._pools: dict[str, concurrent.futures.ThreadPoolExecutor] = {}
        self._semaphores: weakref.WeakKeyDictionary[Any, dict[str, asyncio.Semaphore]] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def run(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        if tool.is_async:
            return self._run_coroutine(tool, arguments)
        if tool.timeout is not None:
            return self._run_in_thread(tool, arguments)
        return tool.fn(**arguments)

    async def arun(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        if tool.is_async:
            return await self._await_capped(tool, arguments)
        future = self._pool(tool).submit(_in_thread, tool.fn, arguments)
        waiting = asyncio.wrap_future(future)
        if tool.timeout is None:
            return await waiting
        done, _ = await asyncio.wait({waiting}, timeout=tool.timeout)
        if done:
            return waiting.result()
        return _late(future, tool.timeout)

    def close(self) -> None:
        """Stop the worker threads; calls still queued are cancelled."""
        with self._lock:
            pools, self._pools = self._pools, {}
        for pool in pools.values():
            pool.shutdown(wait=False, cancel_futures=True)

    def _run_coroutine(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        coro = tool.fn(**arguments)
        if tool.timeout is not None:
            coro = with_deadline(coro, tool.timeout)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(coro)
        # called from inside an event loop (use acall there): run on a fresh loop in a worker thread
        return self._pool(tool).submit(_in_thread, asyncio.run, {"main": coro}).result()

    def _run_in_thread(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        future = self._pool(tool).submit(_in_thread, tool.fn, arguments)
        try:
            return future.result(timeout=tool.timeout)
        except TimeoutError:
            if future.done():
                raise  # the tool's own TimeoutError
        return _late(future, tool.timeout or 0)

    async def _await_capped(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        semaphore = self._semaphore(tool)
        if tool.timeout is None:
            async with semaphore:
                return await tool.fn(**arguments)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + tool.timeout
        try:
            async with asyncio.timeout_at(deadline):
                await semaphore.acquire()
        except TimeoutError:
            raise DeadlineExceeded(tool.timeout, started=False) from None
        try:
            return await with_deadline(tool.fn(**arguments), max(deadline - loop.time(), 0.0), tool.timeout)
        finally:
            semaphore.release()

    def _pool(self, tool: BoundTool) -> concurrent.futures.ThreadPoolExecutor:
        pool = self._pools.get(tool.name)
        if pool is None:
            with self._lock:
                pool = self._pools.get(tool.name)
                if pool is None:
                    pool = self._pools[tool.name] = concurrent.futures.ThreadPoolExecutor(
                        max_workers=self._cap(tool), thread_name_prefix=f"toolclause-{tool.name}"[:40])
        return pool

    def _semaphore(self, tool: BoundTool) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        with self._lock:
            per_loop = self._semaphores.setdefault(loop, {})
            if tool.name not in per_loop:
                per_loop[tool.name] = asyncio.Semaphore(self._cap(tool))
            return per_loop[tool.name]


def _late(future: concurrent.futures.Future, seconds: float) -> Any:
    """The deadline passed: cancel the call if it has not started, else say it is still running."""
    if future.cancel():
        raise DeadlineExceeded(seconds, started=False)
    if future.done():  # it finished between the deadline and now
        return future.result()
    raise DeadlineExceeded(seconds, started=True, future=future)


async def with_deadline(coro: Any, seconds: float, reported: float | None = None) -> Any:
    scope = asyncio.timeout(seconds)
    try:
        async with scope:
            return await coro
    except TimeoutError:
        if scope.expired():
            raise DeadlineExceeded(reported if reported is not None else seconds) from None
        raise


__all__ = ["DeadlineExceeded", "Executor", "LocalExecutor", "ToolRaised", "with_deadline"]
