"""The playground's Starlette app: the page, its assets, and the JSON API the page calls.

    GET  /                      the page
    GET  /static/NAME           its script and styles (shipped in the package)
    GET  /api/meta              targets, export targets, the rule catalogue, the files (when opened on a PATH)
    GET  /api/rules/CODE        one rule's documentation (`toolclause rules CODE`)
    POST /api/lint              {text, name?, targets?, seq?}      → findings, detected format (seq echoed)
    POST /api/fix               {text, name?, targets?, keys}      → the text with those safe fixes applied
    POST /api/export            {text, name?, target, strict?}     → the export, its losses, a check of it
    POST /api/diff              {old, new}                         → the classified changes
    GET  /api/file?path=P       a file of the folder
    POST /api/save              {path, text}                       → written back (only when the user asks)

It serves only this machine: the host must be a loopback name (a page on
another site cannot reach it through DNS rebinding), every POST must be JSON
(a cross-site form cannot send that without the browser asking first), and the
page's Content-Security-Policy lets it talk to nothing but this server.

The work of a request (lint, fix, export, diff, save) runs in a worker thread,
never in the event loop: a slow lint of a large file does not hold up the
page's other requests.  A body over `MAX_BODY_BYTES` is refused with a 413
saying how large it was and what to do instead; it is never kept or parsed.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..linting.config import LintConfig
from . import service
from .assets import asset_text, media_type

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}

Handler = Callable[[Request], Awaitable[Response]]

# a diff sends two texts; the rest is the JSON around them
MAX_BODY_BYTES = 2 * service.MAX_TEXT_CHARS + 64 * 1024


class TooLarge(service.RequestError):
    """A request body over MAX_BODY_BYTES: answered 413."""


def _error(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


def _ok(data: Any) -> JSONResponse:
    return JSONResponse(data, headers=SECURITY_HEADERS)


async def _json_body(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise service.RequestError("send the request as application/json")
    chunks, size = [], 0
    async for chunk in request.stream():  # the rest of a body too large is read and dropped, so the answer arrives
        size += len(chunk)
        if size <= MAX_BODY_BYTES:
            chunks.append(chunk)
    if size > MAX_BODY_BYTES:
        raise TooLarge(_too_large(size))
    try:
        body = json.loads(b"".join(chunks))
    except (ValueError, RecursionError):
        raise service.RequestError("the request is not valid JSON") from None
    if not isinstance(body, dict):
        raise service.RequestError("the request must be a JSON object")
    return body


def _too_large(size: int) -> str:
    return (f"the request is {size:,} bytes; the playground takes at most "
            f"{MAX_BODY_BYTES:,} (a definition of up to {service.MAX_TEXT_CHARS:,} characters): "
            "check a file that large with `toolclause lint FILE`")


def create_app(path: str | Path | None = None) -> Starlette:
    """The app; opened on `path` (a folder or a file) it lists those tool files and can save them back."""
    workspace = service.workspace_for(path)
    config = workspace.config if workspace is not None else LintConfig()

    def api(handler: Callable[[dict[str, Any]], Any]) -> Handler:
        async def endpoint(request: Request) -> Response:
            try:
                body = await _json_body(request)
                # in a worker thread: the event loop stays free for the page's other requests
                return _ok(await run_in_threadpool(handler, body))
            except TooLarge as exc:
                return _error(str(exc), 413)
            except service.RequestError as exc:
                return _error(str(exc))
        return endpoint

    async def page(request: Request) -> Response:
        return Response(asset_text("index.html"), media_type=media_type("index.html"), headers=SECURITY_HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            return Response(asset_text(name), media_type=media_type(name), headers=SECURITY_HEADERS)
        except (FileNotFoundError, StopIteration):
            return _error(f"no asset {name!r}", 404)

    async def meta(request: Request) -> Response:
        data = service.rules_catalogue()
        data["root"] = str(workspace.root) if workspace is not None else None
        data["files"] = workspace.files() if workspace is not None else []
        data["configured_targets"] = sorted(config.targets)
        data["max_text_chars"] = service.MAX_TEXT_CHARS
        return _ok(data)

    async def rule(request: Request) -> Response:
        doc = service.rule_documentation(request.path_params["code"])
        return _ok(doc) if doc is not None else _error(f"unknown rule {request.path_params['code']!r}", 404)

    async def read_file(request: Request) -> Response:
        if workspace is None:
            return _error("the playground was not opened on a folder", 404)
        try:
            return _ok(await run_in_threadpool(workspace.read, request.query_params.get("path")))
        except service.RequestError as exc:
            return _error(str(exc), 404)

    def save(body: dict[str, Any]) -> Any:
        if workspace is None:
            raise service.RequestError("the playground was not opened on a folder; there is nothing to save to")
        return workspace.save(body)

    routes = [
        Route("/", page),
        Route("/static/{name}", static),
        Route("/api/meta", meta),
        Route("/api/rules/{code}", rule),
        Route("/api/lint", api(lambda body: service.lint_request(body, config)), methods=["POST"]),
        Route("/api/fix", api(lambda body: service.fix_request(body, config)), methods=["POST"]),
        Route("/api/export", api(service.export_request), methods=["POST"]),
        Route("/api/diff", api(service.diff_request), methods=["POST"]),
        Route("/api/file", read_file),
        Route("/api/save", api(save), methods=["POST"]),
    ]
    app = Starlette(routes=routes)
    return _local_only(app)


def _local_only(app: Any) -> Any:
    """Refuse requests whose Host is not this machine (DNS rebinding), before the app sees them."""

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), "")
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            if name.lower() not in LOCAL_HOSTS:
                await _error("this playground answers only on localhost", 403)(scope, receive, send)
                return
        await app(scope, receive, send)

    return guarded


__all__ = ["MAX_BODY_BYTES", "create_app"]
