"""A client-side deadline for a blocking database driver: past it, the connection's socket is shut down.

A server that hangs (stopped, or cut off by a network partition that sends no reset) never
answers, and a driver blocked reading its socket would wait as long; a server-side
`statement_timeout` cannot help, since the server is not running.  `Deadlines.watch(conn)`
registers the connection for the length of one operation; one daemon thread shuts down the
socket of any connection still registered when its deadline passes, which wakes the blocked
driver with an error at once.  The connection is then broken, and the caller drops it.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager


class Watch:
    """One operation under a deadline: `cut` says whether the deadline passed and the socket was shut."""

    __slots__ = ("cut", "deadline", "fileno")

    def __init__(self, fileno: int, deadline: float) -> None:
        self.fileno = fileno
        self.deadline = deadline
        self.cut = False


class Deadlines:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._watches: set[Watch] = set()
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None

    @contextmanager
    def watch(self, fileno: Callable[[], int]) -> Iterator[Watch]:
        """Bound the block inside to `seconds`; `fileno()` is the connection's socket, read now."""
        watch = Watch(fileno(), time.monotonic() + self.seconds)
        with self._lock:
            idle = not self._watches
            self._watches.add(watch)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="toolclause-store-deadlines", daemon=True)
                self._thread.start()
            elif idle:
                # the thread sleeps without a deadline; with watches it already wakes no later than this
                # one's (every watch lasts `seconds`, so a new one is never due before the others)
                self._lock.notify()
        try:
            yield watch
        finally:
            with self._lock:  # after this, the socket is never cut: the connection may go back to the pool
                self._watches.discard(watch)

    def _run(self) -> None:
        with self._lock:
            while True:
                now = time.monotonic()
                for watch in [w for w in self._watches if w.deadline <= now]:
                    self._watches.discard(watch)
                    watch.cut = True
                    _shut(watch.fileno)
                if not self._watches:
                    # nothing to watch: sleep until a watch is added (or a while, then end the thread)
                    if not self._lock.wait(60.0) and not self._watches:
                        self._thread = None
                        return
                    continue
                self._lock.wait(max(min(w.deadline for w in self._watches) - now, 0.001))


def _shut(fileno: int) -> None:
    """Shut down the socket behind `fileno` (a duplicate descriptor, so the driver's own stays valid)."""
    try:
        with socket.socket(fileno=socket.dup(fileno)) as sock:
            sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already closed: the operation ended on its own


__all__ = ["Deadlines", "Watch"]
