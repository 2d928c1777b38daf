"""Serving the playground on this machine with uvicorn (loopback only)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import uvicorn

from .._sockets import listening_socket
from .app import create_app

HOST = "127.0.0.1"


def bind(port: int) -> socket.socket:
    """A listening socket on the loopback address (port 0: any free port); OSError when it is taken."""
    return listening_socket(HOST, port)


def url_of(sock: socket.socket) -> str:
    return f"http://{HOST}:{sock.getsockname()[1]}/"


def make_server(path: str | Path | None) -> uvicorn.Server:
    return uvicorn.Server(uvicorn.Config(create_app(path), log_level="warning", access_log=False, lifespan="off"))


def serve(sock: socket.socket, path: str | Path | None) -> None:
    """Serve until interrupted (Ctrl-C)."""
    make_server(path).run(sockets=[sock])


@contextmanager
def running(path: str | Path | None = None, port: int = 0) -> Iterator[str]:
    """The playground served in a background thread for the block; yields its URL (tests, screenshots)."""
    sock = bind(port)
    server = make_server(path)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(500):
            if server.started:
                break
            threading.Event().wait(0.01)
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


__all__ = ["HOST", "bind", "running", "serve", "url_of"]
