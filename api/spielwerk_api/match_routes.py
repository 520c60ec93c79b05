"""Match routes: seats guarded by tokens, moves, checks, resigning, chat, events, replays.

A request names its seat with ``Authorization: Bearer <token>`` or the seat cookie
(``matches/access.py``: the guard and the dependencies that hand a handler its ``Seat``);
without either it sees what a spectator sees (the engine's ``public_view``). Writes need
the token.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncGenerator
from typing import Annotated, Any

from litestar import Controller, Request, Response, get, post
from litestar.datastructures import Cookie, ResponseHeader
from litestar.di import NamedDependency, Provide
from litestar.params import HeaderParameter, JSONBody, Parameter
from litestar.response import Redirect, ServerSentEvent, ServerSentEventMessage

from . import schemas
from .matches import STATUS_DE, Match, Matches
from .matches.access import (
    SEAT_COOKIE,
    MatchId,
    Seat,
    provide_seat,
    provide_seat_now,
    provide_viewer,
    refuse_cross_site,
    seat_guard,
)
from .problems import Problem, language, problem_responses
from .rules import legal_moves, rejection
from .sessions import session_player
from .streams import Streams, Ticket

# What a route that reads a seat's token may answer besides its own problems.
SEAT_PROBLEMS = problem_responses(401, 403, 404)
# The seat that writes, the seat that asks (the time decided first, C11), a seat or a
# spectator; a route for a seat is guarded (no token or cookie: 401 before any read).
WRITER = {"seat": Provide(provide_seat)}
ASKER = {"seat": Provide(provide_seat_now)}
VIEWER = {"seat": Provide(provide_viewer)}


EVENTS_DOC = """The text/event-stream format (HTML's server-sent events). Events:

- `version`: data is the match as the seat sees it at that version (`MatchOut`), one event
  per version in order; the first is the version now.
- `seats`: data is the match now (`MatchOut`, same version): a person took an open seat
  from the lobby (`open_seats` shrank; when none is left, the match has begun).
- `rules`: data is the match now (`MatchOut`, same version): a seat left the table or came
  back, so `rules_due` counts the leave rule down (C11) or no longer does.
- `chat`: data is a message of the table talk (`ChatOut`).
- `end`: data is `{status, version, result}` once the match is over and every version is
  sent; then the stream closes (a client does not reconnect).

Every event has `id: VERSION-MESSAGE`, the newest version and message id sent so far; a
client that reconnects with `Last-Event-ID` gets every version and message after it (an
`EventSource` does that by itself), unless it is more than 50 versions behind: then it gets
what a first connection gets, the view now and then live events (missed messages:
`GET …/chat?after=`). An idle stream sends a comment (`: heartbeat`) every
15 s. Browsers name the seat by the cookie of its invitation link (`GET
/v1/matches/{id}/seats/{seat}/join`), programs by `Authorization: Bearer`."""


# An event's id as this server writes it: `VERSION-MESSAGE` (or `VERSION`).
LAST_EVENT_ID = re.compile(r"([0-9]+)(?:-([0-9]*))?")
# A stream reconnecting with a `Last-Event-ID` more versions behind than this starts like a
# first connection: with the view now (the versions it missed are not sent one by one).
CATCH_UP_VERSIONS = 50
# Messages per page of `GET …/chat`: unless asked, and at most.
CHAT_PAGE = 100
CHAT_PAGE_MAX = 500
# Plies a match's log answers at most (its latest): rebuilt from the plies, so bounded.
LOG_MAX = 200
# How long a browser keeps the seat cookie (a match with clocks ends long before).
SEAT_COOKIE_S = 7 * 86_400


def seat_cookie(request: Request[Any, Any, Any], match_id: str, token: str) -> Cookie:
    return Cookie(
        key=SEAT_COOKIE,
        value=token,
        path=f"/v1/matches/{match_id}",
        max_age=SEAT_COOKIE_S,
        httponly=True,
        samesite="strict",
        # Over https (a trusted proxy's X-Forwarded-Proto counts: proxy.py), or always when
        # the operator says the site is served over TLS only (Settings.secure_cookies).
        secure=request.url.scheme == "https" or bool(getattr(request.app.state, "secure_cookies", False)),
    )


def invitation(match_id: str, seat: int, token: str) -> str:
    """The link that takes the seat in a browser (``GET …/join``): it sets the seat cookie
    and opens the match on the page."""
    return f"/v1/matches/{match_id}/seats/{seat}/join?token={token}"


class MatchRoutes(Controller):
    path = "/v1/matches"
    tags = ("matches",)
    # A seat is named by its token (Bearer) or its cookie; without either: a spectator.
    security = ({"bearer": []}, {"seatCookie": []}, {})

    @post(
        "/",
        status_code=201,
        summary="Start a match; each person seat gets a secret token, shown only here",
        responses=problem_responses(404, 413, 422, 429),
        response_headers=[
            ResponseHeader(name="Location", description="the new match", documentation_only=True)
        ],
        security=[{}],
    )
    async def create(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        data: JSONBody[schemas.NewMatch],
    ) -> Response[schemas.MatchCreated]:
        player = await session_player(request)
        if player is not None:
            refuse_cross_site(request, what="session")  # no other site creates in a player's name
        created = await matches.create(data, request.client.host if request.client else None, player)
        for seat in created.seats:
            if seat.token is not None:
                seat.invitation = invitation(created.id, seat.seat, seat.token)
        return Response(created, status_code=201, headers={"Location": f"/v1/matches/{created.id}"})

    @post(
        "/{id:str}/seats/{seat:int}/join",
        status_code=200,
        summary="Take a seat: its token (or, for an open seat, none) for the seat cookie",
        responses=problem_responses(403, 404, 409, 413, 422),
    )
    async def join(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        id: MatchId,
        seat: Annotated[int, Parameter(ge=0, le=7)],
        data: JSONBody[schemas.JoinBody],
    ) -> Response[schemas.Joined]:
        refuse_cross_site(request)  # no other site puts its seat into this browser
        player = await session_player(request)
        if data.token is None:
            # An open seat from the lobby: its token, once, to whoever came first; it belongs
            # to the logged-in player, or shows the guest's name.
            token = await matches.join(id, seat, player, data.name)
            joined = schemas.Joined(id=id, seat=seat, token=token)
            return Response(joined, cookies=[seat_cookie(request, id, token)])
        m = await matches.known(id)
        await matches.seats.require(m, data.token, seat)
        if player is not None:
            await matches.claim(m, seat, player)
        return Response(schemas.Joined(id=id, seat=seat), cookies=[seat_cookie(request, id, data.token)])

    @get(
        "/",
        summary="The lobby: matches waiting for a person, and recently finished ones with their replays",
        responses=problem_responses(),
        security=[{}],
    )
    async def lobby(
        self,
        request: Request[Any, Any, Any],
        matches: NamedDependency[Matches],
        limit: Annotated[int, Parameter(ge=1, le=50, description="matches per list")] = 20,
        offset: Annotated[int, Parameter(ge=0, le=10_000, description="matches skipped per list")] = 0,
    ) -> schemas.Lobby:
        return await matches.lobby(limit, offset, language(request))

    @get(
        "/{id:str}/seats/{seat:int}/join",
        status_code=303,
        summary="The invitation link: sets the seat cookie and opens the match on the page",
        responses=problem_responses(403, 404),
    )
    async def invited(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        id: MatchId,
        seat: Annotated[int, Parameter(ge=0, le=7)],
        token: Annotated[str, Parameter(max_length=200, description="the seat's token")],
    ) -> Redirect:
        m = await matches.known(id)
        await matches.seats.require(m, token, seat)
        player = await session_player(request)
        if player is not None:
            # (A link followed from another site carries no session: SameSite=Strict.)
            await matches.claim(m, seat, player)
        return Redirect(
            f"/#/match/{id}",
            status_code=303,
            cookies=[seat_cookie(request, id, token)],
            # The link (with the token) is no page's referrer, nor kept by any cache.
            headers={"Referrer-Policy": "no-referrer", "Cache-Control": "no-store"},
        )

    @get(
        "/{id:str}",
        summary="The match as the token's seat sees it (spectators: the public view)",
        responses=SEAT_PROBLEMS,
        dependencies=VIEWER,
    )
    async def show(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        id: MatchId,
        seat: NamedDependency[Seat],
    ) -> schemas.MatchOut:
        now = matches.clock.now()
        absent = await matches.seats.absent(seat.match, now)
        return seat.match.out(seat.number, now, lang=language(request), absent=absent)

    @get(
        "/{id:str}/moves",
        summary="The legal moves of the token's seat",
        responses=SEAT_PROBLEMS,
        guards=[seat_guard],
        dependencies=ASKER,
    )
    async def moves(
        self, request: Request[Any, Any, Any], id: MatchId, seat: NamedDependency[Seat]
    ) -> schemas.Moves:
        m = seat.match
        if m.status != "running" or m.waiting() or seat.number not in m.to_move():
            return schemas.Moves(moves=[])
        assert seat.number is not None
        return legal_moves(m.state, seat.number, language(request))

    @post(
        "/{id:str}/moves",
        status_code=200,
        summary="Make a move against the version you saw",
        responses=problem_responses(401, 403, 404, 409, 413, 422),
        guards=[seat_guard],
        dependencies=WRITER,
    )
    async def play(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        id: MatchId,
        seat: NamedDependency[Seat],
        data: JSONBody[schemas.PlayBody],
    ) -> schemas.MatchOut:
        player = seat.number
        assert player is not None  # (the guard: a seat is required)
        m = await matches.play(id, player, data.version, data.move)
        return m.out(player, matches.clock.now(), lang=language(request))

    @post(
        "/{id:str}/check",
        status_code=200,
        summary="Would this move be legal for the token's seat, and why not?",
        responses=problem_responses(401, 403, 404, 413, 422),
        guards=[seat_guard],
        dependencies=ASKER,
    )
    async def check(
        self,
        request: Request[Any, Any, Any],
        id: MatchId,
        seat: NamedDependency[Seat],
        data: JSONBody[schemas.CheckBody],
    ) -> schemas.Rejection:
        m = seat.match
        lang = language(request)
        if m.status != "running":
            reason = (
                f"die Partie ist {STATUS_DE.get(m.status, m.status)}"
                if lang == "de"
                else f"the match is {m.status}"
            )
            return schemas.Rejection(legal=False, reason=reason, code="match_over")
        if m.waiting():
            reason = (
                "die Partie beginnt, sobald jeder Platz für Personen vergeben ist"
                if lang == "de"
                else "the match begins once every person seat is taken"
            )
            return schemas.Rejection(legal=False, reason=reason, code="waiting_for_players")
        return rejection(m.state.check_move(data.move, seat.number), lang)

    @post(
        "/{id:str}/resign",
        status_code=200,
        summary="Give up: the seat (Dog: its team) loses",
        responses=problem_responses(401, 403, 404, 409),
        guards=[seat_guard],
        dependencies=WRITER,
    )
    async def resign(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        id: MatchId,
        seat: NamedDependency[Seat],
    ) -> schemas.MatchOut:
        player = seat.number
        assert player is not None  # (the guard: a seat is required)
        m = await matches.resign(id, player)
        return m.out(player, matches.clock.now(), lang=language(request))

    @post(
        "/{id:str}/chat",
        status_code=201,
        summary="Table talk, in every game (The Game's without numbers, T7)",
        responses=problem_responses(401, 403, 404, 409, 413, 422, 429),
        response_headers=[
            ResponseHeader(name="Location", description="the message said", documentation_only=True)
        ],
        guards=[seat_guard],
        dependencies=WRITER,
    )
    async def chat(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        id: MatchId,
        seat: NamedDependency[Seat],
        data: JSONBody[schemas.ChatBody],
    ) -> Response[schemas.ChatOut]:
        player = seat.number
        assert player is not None  # (the guard: a seat is required)
        said = await matches.chat(id, player, data.text, language(request))
        return Response(said, status_code=201, headers={"Location": f"/v1/matches/{id}/chat/{said.id}"})

    @get(
        "/{id:str}/chat/{message:int}",
        summary="One message said at the table, by its id",
        responses=problem_responses(404),
    )
    async def chat_message(
        self,
        matches: NamedDependency[Matches],
        id: MatchId,
        message: Annotated[int, Parameter(ge=1, le=2**53 - 1)],
    ) -> schemas.ChatOut:
        await matches.known(id)
        found = await matches.talk.log(id, message - 1, 1)
        if not found or found[0].id != message:
            raise Problem(
                404,
                "unknown_message",
                f"match '{id}' has no message {message}",
                de=f"Partie '{id}' hat keine Nachricht {message}",
            )
        return found[0]

    @get(
        "/{id:str}/chat",
        summary="The messages said at the table, in order: those after message `after`, at most `limit`",
        description=(
            "A page of the table talk: the messages whose id is above `after` (0: from the"
            f" first), at most `limit` ({CHAT_PAGE} unless asked, {CHAT_PAGE_MAX} at most). The"
            " next page is `after` = the last id received; an empty list: nothing more."
        ),
        responses=problem_responses(400, 404),
    )
    async def chat_log(
        self,
        matches: NamedDependency[Matches],
        id: MatchId,
        after: Annotated[
            int, Parameter(ge=0, le=2**53 - 1, description="the last message id already received (0: none)")
        ] = 0,
        limit: Annotated[int, Parameter(ge=1, le=CHAT_PAGE_MAX, description="messages per page")] = CHAT_PAGE,
    ) -> list[schemas.ChatOut]:
        await matches.known(id)
        return await matches.talk.log(id, after, limit)

    @get(
        "/{id:str}/log",
        summary="What happened: the latest plies, who made them and their texts as the seat may read them",
        responses=SEAT_PROBLEMS,
        dependencies=VIEWER,
    )
    async def log(
        self,
        request: Request[Any, Any, Any],
        id: MatchId,
        seat: NamedDependency[Seat],
        limit: Annotated[int, Parameter(ge=1, le=LOG_MAX, description="plies, the latest")] = LOG_MAX,
    ) -> schemas.MatchLog:
        return seat.match.log(seat.number, language(request), limit)

    @get(
        "/{id:str}/replay",
        summary="After the end: seed, options, every action and every hidden card",
        responses=problem_responses(404, 409),
    )
    async def replay(
        self, matches: NamedDependency[Matches], request: Request[Any, Any, Any], id: MatchId
    ) -> schemas.Replay:
        return matches.replay(await matches.current(id), language(request))

    @get(
        "/{id:str}/events",
        summary="Server-sent events: one per new version with the seat's view, and chat",
        description=EVENTS_DOC,
        # Documents the stream as what it is (the default would claim JSON).
        media_type="text/event-stream",
        responses=problem_responses(401, 403, 404, 429, 503),
        dependencies=VIEWER,
    )
    async def events(
        self,
        matches: NamedDependency[Matches],
        streams: NamedDependency[Streams],
        request: Request[Any, Any, Any],
        id: MatchId,
        seat: NamedDependency[Seat],
        last_seen: Annotated[
            str | None,
            HeaderParameter(
                name="Last-Event-ID",
                max_length=40,
                description="the id of the last event received: the stream sends everything after it",
            ),
        ] = None,
    ) -> ServerSentEvent:
        after = last_event_id(last_seen)
        # Refused here, before the stream's answer begins, when the worker holds its most.
        ticket = streams.open(seat.match, request.client.host if request.client else "", seat.number)
        return ServerSentEvent(
            stream(matches, streams, ticket, seat.match, seat.number, after, language(request))
        )


def last_event_id(value: str | None) -> tuple[int, int] | None:
    """The version and message a reconnecting client saw last (``id:`` of its last event,
    ``VERSION-MESSAGE``); ``None`` for a first connection or an id this server never sent."""
    if not value or len(value) > 40:
        return None
    # ASCII digits only: `str.isdigit` also takes "²", which `int` refuses.
    sent = LAST_EVENT_ID.fullmatch(value.strip())
    if sent is None:
        return None
    return int(sent[1]), int(sent[2] or 0)


async def stream(
    matches: Matches,
    streams: Streams,
    ticket: Ticket,
    m: Match,
    seat: int | None,
    after: tuple[int, int] | None,
    lang: str = "en",
) -> AsyncGenerator[ServerSentEventMessage, None]:
    """The seat's view now, then one event per new version, and the table talk; with
    ``after`` (``Last-Event-ID``), every version and message after it instead. Every event
    has the id ``VERSION-MESSAGE`` of the newest of each sent so far. Once the match is
    over and every version is sent: an ``end`` event, and the stream closes.

    Notes only say that something happened (never what a seat sees): each stream builds its
    own seat's view. An idle stream waits for a note and costs nothing but a heartbeat
    comment every ``streams.heartbeat_s`` (``streams.py``).
    """
    watch = ticket.watch

    async def keep_present() -> None:
        # C11: an open event stream counts as being at the table.
        while True:
            await matches.seats.touch(m, seat, force=True)
            # Every sixth of the leave time: well inside the third after which the others'
            # pages count the seat down as gone (``Seats.absent``).
            await asyncio.sleep(max(1.0, min(20.0, (m.rules["leave_s"] or 120.0) / 6)))

    present = asyncio.create_task(keep_present()) if seat is not None else None
    try:
        # Notes of other workers reach this stream from here on (PostgreSQL's LISTEN):
        # nothing stored after this is missed.
        await watch.ready.wait()
        newest = await matches.talk.last(m.id)
        watch.chat = max(watch.chat, newest)
        if after is None or m.version - after[0] > CATCH_UP_VERSIONS:
            # A first connection, or one so far behind (`Last-Event-ID: 0-0` after a long
            # game) that sending every version it missed would rebuild the history: the
            # view now is the first event, then live events (the missed messages are
            # `GET …/chat?after=`).
            said = newest
            sent = m.version - 1
        else:
            sent, said = min(after[0], m.version), after[1]
        # Open seats as the page last saw them: a seat taken from the lobby begins the match
        # without a new version, and is sent as a `seats` event with the view now.
        open_seats = len(m.free_seats())
        # The seats the leave rule counts down as this stream last said (``rules`` events).
        gone: set[int | None] = set()
        while True:
            if watch.open_seats < open_seats and m.status == "running":
                m = await matches.get(m.id)  # (reads the seats taken, on any worker)
                open_seats = min(len(m.free_seats()), watch.open_seats)
                now = matches.clock.now()
                absent = await matches.seats.absent(m, now)
                gone = {a[2] for a in absent}
                data = schemas.encode(m.out(seat, now, lang=lang, absent=absent)).decode()
                yield ServerSentEventMessage(event="seats", id=f"{sent}-{said}", data=data)
                continue
            if watch.version > sent or m.version > sent:
                m = await watch.latest(matches)
                now = matches.clock.now()
                # (The leave rule's countdown is the latest version's only: the presence rows.)
                absent = await matches.seats.absent(m, now) if m.status == "running" else []
                gone = {a[2] for a in absent}
                for version, snapshot in m.past(sent + 1):
                    sent = version
                    out = m.out(seat, now, version, snapshot, lang, absent)
                    data = schemas.encode(out).decode()
                    yield ServerSentEventMessage(event="version", id=f"{sent}-{said}", data=data)
                continue
            if watch.chat > said:
                # One read per new message for every stream of the match (``Watch.messages``).
                messages = await watch.messages(matches, said)
                for msg in messages:
                    said = msg.id
                    data = schemas.encode(msg).decode()
                    yield ServerSentEventMessage(event="chat", id=f"{sent}-{said}", data=data)
                if not messages:
                    said = watch.chat  # (a note of a message whose match was deleted)
                continue
            if m.status != "running":
                result = m.out(None, 0, lang=lang).result
                end = schemas.StreamEnd(status=m.status, version=m.version, result=result)  # type: ignore[arg-type]
                data = schemas.encode(end).decode()
                yield ServerSentEventMessage(event="end", id=f"{sent}-{said}", data=data)
                return
            changed = watch.changed
            try:
                await asyncio.wait_for(changed.wait(), streams.heartbeat_s)
            except TimeoutError:
                now = matches.clock.now()
                absent = await matches.seats.absent(m, now)
                if {a[2] for a in absent} != gone:
                    # A seat left the table or came back: the leave rule's countdown (C11)
                    # changes with no new version. The view now, as a `rules` event.
                    gone = {a[2] for a in absent}
                    data = schemas.encode(m.out(seat, now, lang=lang, absent=absent)).decode()
                    yield ServerSentEventMessage(event="rules", id=f"{sent}-{said}", data=data)
                else:
                    yield ServerSentEventMessage(comment="heartbeat", data=None)
    finally:
        ticket.release()
        if present is not None:
            present.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await present
