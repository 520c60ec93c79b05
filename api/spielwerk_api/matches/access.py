"""How a request names its seat: ``Authorization: Bearer <token>`` (programs) or the seat
cookie its invitation link set (browsers: an ``EventSource`` sends no header); without
either it sees what a spectator sees.

A route reaches its seat through Litestar: the guard ``seat_guard`` refuses a request that
names no seat before anything is read, and the dependencies ``provide_seat`` (writes),
``provide_seat_now`` (reads that decide the time first, C11) and ``provide_viewer`` (a seat
or a spectator) hand the handler a ``Seat``: the match as read for it and the seat's number.

The cookie is ``HttpOnly``, ``SameSite=Strict`` and scoped to the match's path, so a browser
sends it only to that match and never with a request another site starts; a write that
carries only the cookie is refused besides when its ``Origin`` or ``Sec-Fetch-Site`` names
another site.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from litestar.connection import ASGIConnection
from litestar.di import NamedDependency
from litestar.handlers import BaseRouteHandler
from litestar.params import Parameter

from ..front_door import WRITES
from ..problems import Problem
from .match import Match
from .seats import token_required
from .service import Matches

Connection = ASGIConnection[Any, Any, Any, Any]
# The seat cookie's name; its path is the match's (``/v1/matches/{id}``).
SEAT_COOKIE = "spielwerk_seat"
MatchId = Annotated[str, Parameter(description="the id POST /v1/matches answered", max_length=32)]


@dataclass(frozen=True)
class Seat:
    """The seat a request's token or cookie opens (``None``: a spectator), with the match as
    read for it."""

    match: Match
    number: int | None


def connection_method(connection: Connection) -> str:
    return str(connection.scope.get("method", "GET"))


def authorization(request: Connection) -> str | None:
    """The seat's credentials as ``Bearer <token>``: the header, else the seat cookie (after
    the cross-site checks of a write)."""
    header = request.headers.get("authorization")
    if header is not None:
        return header
    token = request.cookies.get(SEAT_COOKIE)
    if not token:
        return None
    if connection_method(request) in WRITES:
        refuse_cross_site(request)
    return f"Bearer {token}"


def own_origin(request: Connection) -> str:
    return f"{request.url.scheme}://{request.headers.get('host', '')}"


def refuse_cross_site(request: Connection, what: str = "seat") -> None:
    """A write that names its seat by the cookie (or acts for a player by the session
    cookie, ``what="session"``) comes from this site's pages only (or from an origin the
    operator allowed: ``Settings.cors_origins``)."""
    cookie_en, cookie_de = (
        ("seat cookie", "Platz-Cookie") if what == "seat" else ("session cookie", "Sitzungs-Cookie")
    )
    fetch_site = request.headers.get("sec-fetch-site")
    if fetch_site is not None and fetch_site not in ("same-origin", "none"):
        raise Problem(
            403,
            "cross_site",
            f"a write with the {cookie_en} must come from this site's own pages"
            f" (Sec-Fetch-Site: {fetch_site[:20]}); programs send 'Authorization: Bearer <token>'",
            de=f"ein Zug mit dem {cookie_de} muss von den Seiten dieser Website kommen"
            f" (Sec-Fetch-Site: {fetch_site[:20]}); Programme senden 'Authorization: Bearer <Token>'",
        )
    origin = request.headers.get("origin")
    allowed = getattr(request.app.state, "cors_origins", ())
    if origin is not None and origin != own_origin(request) and origin not in allowed:
        raise Problem(
            403,
            "cross_site",
            f"a write with the {cookie_en} must come from this site's own pages, not from '{origin[:80]}';"
            " programs send 'Authorization: Bearer <token>'",
            de=f"ein Zug mit dem {cookie_de} muss von den Seiten dieser Website kommen, nicht von"
            f" '{origin[:80]}'; Programme senden 'Authorization: Bearer <Token>'",
        )


async def seat_guard(connection: Connection, _: BaseRouteHandler) -> None:
    """A route that acts for a seat: refused (401) without a token or a seat cookie, and a
    write by cookie from another site (403), before the match is read."""
    if authorization(connection) is None:
        raise token_required()


async def _seat(
    matches: Matches,
    request: Connection,
    match_id: str,
    *,
    required: bool,
    fresh: bool,
) -> Seat:
    # A route that writes reads the match afresh under its lock anyway: finding the seat
    # needs only the tokens, so it skips a database round trip (fresh=False). A read
    # decides the time first (C11).
    m = await matches.current(match_id) if fresh else await matches.known(match_id)
    seat = await matches.seats.seat_for(m, authorization(request), required=required)
    await matches.seats.touch(m, seat)
    return Seat(m, seat)


async def provide_seat(matches: NamedDependency[Matches], request: Connection, id: MatchId) -> Seat:
    """The seat that writes (a move, resigning, table talk); the match as this worker knows
    it (the write reads it again under the match's lock)."""
    return await _seat(matches, request, id, required=True, fresh=False)


async def provide_seat_now(matches: NamedDependency[Matches], request: Connection, id: MatchId) -> Seat:
    """The seat that asks (its moves, a check), with the match as it is now (C11 first)."""
    return await _seat(matches, request, id, required=True, fresh=True)


async def provide_viewer(matches: NamedDependency[Matches], request: Connection, id: MatchId) -> Seat:
    """A seat, or a spectator without credentials, with the match as it is now."""
    return await _seat(matches, request, id, required=False, fresh=True)
