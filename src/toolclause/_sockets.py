"""The listening socket every HTTP server of the project starts on (serve, proxy, playground).

It is created with `IPPROTO_TCP` named explicitly: asyncio turns on `TCP_NODELAY` for an
accepted connection only when the socket says its protocol is TCP, and a socket made with
the default protocol 0 does not.  Without `TCP_NODELAY` the last small write of a response
waits for the client's delayed ACK, about 40 ms, for every client that reads a response to
its end (httpx, `http.client`, gateways).
"""

from __future__ import annotations

import socket


def listening_socket(host: str, port: int, backlog: int = 128) -> socket.socket:
    """A TCP socket listening on host:port (port 0: any free port); OSError when it cannot bind."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host, port))
        sock.listen(backlog)
    except OSError:
        sock.close()
        raise
    return sock
