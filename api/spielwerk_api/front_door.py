"""What every request passes before Litestar routes it: sizes, media types, HEAD, panics.

``SpielwerkApp`` is the Litestar app with one wrapper around it (no Litestar middleware, so
the hot path pays for a few comparisons only):

- the request line and headers are at most ``max_header_bytes`` (431): the server's own
  protocol (``serving.py``) refuses a larger head before parsing it, this refuses it under
  any server;
- a body in another media type than JSON is refused (415) instead of being read as JSON;
- ``HEAD`` answers like ``GET`` wherever ``GET`` exists, without the body;
- a game spelled with hyphens in a path (``/v1/schotten-totten/…``, ``/v1/games/the-game``)
  is redirected (308) to the one spelling, the registry's names with underscores;
- an engine panic (PyO3's ``PanicException``, a ``BaseException`` that Litestar's exception
  handlers never see) is answered as a problem instead of the server's plain-text 500.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import quote, unquote

import spielwerk
from litestar import Litestar

from .problems import PROBLEM_JSON, TYPE_PREFIX, ProblemDetails, chosen_language, german, query_language
from .schemas import encode

log = logging.getLogger("spielwerk_api")

# The methods that write (and may carry a body): the media type check here and the seat
# cookie's cross-site check (match_routes.py) both ask this.
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Path segments spelled with hyphens, and the registry's name each redirects to: derived
# from the registry's names, so a new game with an underscore gets its alias by itself.
HYPHENATED = {name.replace("_", "-"): name for name in spielwerk.list_games() if "_" in name}
# Set on the scope of a HEAD request Litestar is routing as GET (the problems name it).
HEAD = "spielwerk.head"


def is_json(content_type: bytes) -> bool:
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == b"application/json" or (media.startswith(b"application/") and media.endswith(b"+json"))


def problem_message(status: int, code: str, title: str, detail: str) -> bytes:
    problem = ProblemDetails(type=TYPE_PREFIX + code, title=title, status=status, detail=detail, code=code)
    return encode(problem)


def scope_language(scope: Any) -> str:
    """``"de"`` or ``"en"`` for an answer sent before routing, by the app's one rule
    (``problems.chosen_language``): the raw query's ``lang``, else ``Accept-Language``."""
    query = (scope.get("query_string") or b"").decode("latin-1")
    accept = next((v for n, v in scope.get("headers") or [] if n == b"accept-language"), b"")
    return chosen_language(query_language(query), accept.decode("latin-1"))


async def send_problem(
    send: Any,
    scope: Any,
    status: int,
    code: str,
    title: str,
    detail: str,
    extra_headers: list[tuple[bytes, bytes]] | None = None,
    de: str | None = None,
) -> None:
    """Sends a problem before routing, in the request's language as the app's own
    problems are (``scope_language``): German is the catalogue's title and the German
    detail ``de`` (with the English one's values), else the catalogue's detail."""
    if scope_language(scope) == "de":
        title, german_detail = german(code, status)
        detail = de or german_detail
    body = problem_message(status, code, title, detail)
    headers = [
        (b"content-type", PROBLEM_JSON.encode()),
        (b"content-length", str(len(body)).encode()),
        *(extra_headers or []),
    ]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def is_panic(error: BaseException) -> bool:
    # pyo3_runtime.PanicException: the module exists only once a panic was raised.
    return type(error).__name__ == "PanicException" and type(error).__module__ == "pyo3_runtime"


def hyphen_redirect(scope: Any) -> bytes | None:
    """Where a path with a game spelled with hyphens (``/v1/GAME/…``, ``/v1/games/GAME/…``)
    is redirected, else ``None``. Built from the raw path as the client sent it: only the
    game's segment changes, every other byte (percent-encodings such as ``%2F`` or ``%20``)
    and the query string stay as they were. The target begins with ``/v1/``, so it never
    leaves this site (no ``//host`` open redirect)."""
    path = scope.get("path", "")
    if "-" not in path or not path.startswith("/v1/"):
        return None
    raw: bytes | None = scope.get("raw_path")
    if not raw:
        # (A server that sends no raw path: the decoded one, encoded again.)
        raw = quote(path, safe="/!$&'()*+,;=:@~").encode()
    # (ASGI's raw path has no query; some servers and test clients leave it on.)
    segments = raw.partition(b"?")[0].split(b"/")
    names = [unquote(segment.decode("latin-1")) for segment in segments[:4]]
    if len(names) < 3 or names[0] != "" or names[1] != "v1":
        return None
    # The game's place: /v1/GAME/… or /v1/games/GAME/… (a match id is no game).
    at = 3 if len(names) > 3 and names[2] == "games" else 2
    if len(names) <= at:
        return None
    game = HYPHENATED.get(names[at])
    if game is None:
        return None
    segments[at] = game.encode()
    query = scope.get("query_string") or b""
    return b"/".join(segments) + (b"?" + query if query else b"")


class SpielwerkApp(Litestar):
    """Litestar with the guards above; ``max_header_bytes`` is set by ``create_app``."""

    max_header_bytes: int = 16 * 1024

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await super().__call__(scope, receive, send)
            return
        headers = scope["headers"]
        size = len(scope.get("raw_path") or b"") + len(scope.get("query_string") or b"")
        content_type = None
        has_body = False
        for name, value in headers:
            size += len(name) + len(value) + 4
            if name == b"content-type":
                content_type = value
            elif name == b"content-length":
                has_body = value.strip() not in (b"0", b"")
            elif name == b"transfer-encoding":
                has_body = True
        if size > self.max_header_bytes:
            await send_problem(
                send,
                scope,
                431,
                "headers_too_large",
                "Request Header Fields Too Large",
                f"the request line and headers take {size} bytes; at most {self.max_header_bytes} are read",
                [(b"connection", b"close")],
                de=f"Anfragezeile und Kopfzeilen sind {size} Bytes groß; gelesen werden höchstens"
                f" {self.max_header_bytes}",
            )
            return
        method = scope["method"]
        location = hyphen_redirect(scope)
        if location is not None:
            shown = location[:200].decode("latin-1")
            await send_problem(
                send,
                scope,
                308,
                "moved",
                "Permanent Redirect",
                f"games are spelled with underscores, as GET /v1/games names them: {shown}",
                [(b"location", location)],
                de=f"Spiele werden mit Unterstrichen geschrieben, wie GET /v1/games sie nennt: {shown}",
            )
            return
        if has_body and content_type is not None and method in WRITES and not is_json(content_type):
            given = content_type[:80].decode("latin-1")
            await send_problem(
                send,
                scope,
                415,
                "unsupported_media_type",
                "Unsupported Media Type",
                f"request bodies are JSON (Content-Type: application/json), not '{given}'",
                [(b"accept", b"application/json")],
                de=f"Der Rumpf einer Anfrage ist JSON (Content-Type: application/json), nicht '{given}'",
            )
            return
        started = False
        completed = False
        head = method == "HEAD"

        async def guarded_send(message: Any) -> None:
            nonlocal started, completed
            if message["type"] == "http.response.start":
                started = True
            elif head and message["type"] == "http.response.body":
                # The headers of GET's answer, no body; a stream (the events) ends here too:
                # the server reports the request as done, and Litestar stops the stream.
                if completed:
                    return
                completed = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        if head:
            scope = {**scope, "method": "GET", HEAD: True}
        try:
            await super().__call__(scope, receive, guarded_send)
        except BaseException as error:
            if not is_panic(error):
                raise
            # The engine's backtrace went to stderr already (Rust's panic hook); one line here.
            log.error("engine panic on %s %s: %s", method, scope.get("path", "")[:200], str(error)[:200])
            if started:
                return
            await send_problem(
                send,
                scope,
                500,
                "engine_panic",
                "Internal Server Error",
                "the engine failed on this input instead of refusing it; the fault was logged",
            )
