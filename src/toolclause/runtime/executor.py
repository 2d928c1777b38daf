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
raises `DeadlineExceeded` when the tool's own timeout passed; anything else it
raises is translated at the boundary like any exception a tool raises.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from typing import Any, Protocol

from .registration import BoundTool


class DeadlineExceeded(Exception):
    """The tool did not finish within its own timeout (not a TimeoutError the tool itself raised)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no result within {seconds:g} s")
        self.seconds = seconds


class Executor(Protocol):
    def run(self, tool: BoundTool, arguments: dict[str, Any]) -> Any: ...

    async def arun(self, tool: BoundTool, arguments: dict[str, Any]) -> Any: ...

    def close(self) -> None: ...


class LocalExecutor:
    """`tool.fn(**arguments)`: a sync tool in the caller's thread (in a worker thread when it has a
    timeout), an async tool on the caller's loop or, from `call()`, on a loop of its own."""

    def __init__(self) -> None:
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def run(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        if tool.is_async:
            return self._run_coroutine(tool, arguments)
        if tool.timeout is not None:
            return self._run_in_thread(tool, arguments)
        return tool.fn(**arguments)

    async def arun(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        coro = tool.fn(**arguments) if tool.is_async else asyncio.to_thread(tool.fn, **arguments)
        return await (with_deadline(coro, tool.timeout) if tool.timeout is not None else coro)

    def close(self) -> None:
        """Stop the worker threads (used for timeouts and for async tools called from a running loop)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def _run_coroutine(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        coro = tool.fn(**arguments)
        if tool.timeout is not None:
            coro = with_deadline(coro, tool.timeout)
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return asyncio.run(coro)
        # called from inside an event loop (use acall there): run on a fresh loop in a worker thread
        return self._workers().submit(asyncio.run, coro).result()

    def _run_in_thread(self, tool: BoundTool, arguments: dict[str, Any]) -> Any:
        future = self._workers().submit(tool.fn, **arguments)
        try:
            return future.result(timeout=tool.timeout)
        except TimeoutError:
            if not future.done():
                raise DeadlineExceeded(tool.timeout or 0) from None
            raise

    def _workers(self) -> concurrent.futures.ThreadPoolExecutor:
        if self._pool is None:
            with self._lock:
                if self._pool is None:
                    self._pool = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="toolclause")
        return self._pool


async def with_deadline(coro: Any, seconds: float) -> Any:
    scope = asyncio.timeout(seconds)
    try:
        async with scope:
            return await coro
    except TimeoutError:
        if scope.expired():
            raise DeadlineExceeded(seconds) from None
        raise


__all__ = ["DeadlineExceeded", "Executor", "LocalExecutor", "with_deadline"]
