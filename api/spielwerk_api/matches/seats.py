"""Seats: the token (or the seat cookie that carries it) that opens a seat, the open seats
taken meanwhile on any worker, and each person's signs of life (C11: leaving for a minute
loses).

How a request names its seat over HTTP is ``access.py``.
"""

from __future__ import annotations

import hashlib
import hmac
import math

from sqlalchemy import select, update

from ..clock import Clock
from ..db import Base, PresenceRow, SeatJoinRow
from ..problems import Problem
from .limits import PRESENCE_READ_S, PRESENCE_WRITE_S
from .match import Match
from .store import Store

PRESENCE = Base.metadata.tables["presence"]


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def token_required() -> Problem:
    """401: the request names no seat (the guard's refusal and ``seat_of``'s, one text)."""
    return Problem(
        401,
        "token_required",
        "this needs a seat's token: send 'Authorization: Bearer <token>'",
        headers={"WWW-Authenticate": 'Bearer realm="spielwerk"'},
        de="dafür braucht es das Token eines Platzes: 'Authorization: Bearer <Token>'",
    )


def seat_of(m: Match, authorization: str | None, *, required: bool) -> int | None:
    """The seat a bearer token opens; every seat's hash is compared in constant time."""
    if not authorization:
        if required:
            raise token_required()
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Problem(
            401,
            "token_required",
            "the Authorization header must be 'Bearer <token>'",
            headers={"WWW-Authenticate": 'Bearer realm="spielwerk"'},
            de="die Kopfzeile Authorization ist 'Bearer <Token>'",
        )
    presented = hash_token(token.strip())
    seat = None
    for s, h in enumerate(m.token_hashes):
        if h is not None and hmac.compare_digest(h, presented):
            seat = s
    if seat is None:
        raise Problem(
            403,
            "wrong_token",
            "this token opens no seat of this match",
            de="dieses Token öffnet keinen Platz dieser Partie",
        )
    return seat


class Seats:
    """The seats of a worker's matches as the store has them, and presence."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self.presence_written: dict[tuple[str, int], float] = {}
        # When each person seat of a match was last seen, as read for ``absent`` (at most
        # every ``PRESENCE_READ_S`` per match and worker; this worker's own writes go in).
        self.presence_read: dict[str, tuple[float, dict[int, float]]] = {}

    async def taken(self, m: Match) -> None:
        """The open seats of ``m`` taken meanwhile (on any worker): their tokens' hashes, and
        the names of whoever took a seat (from the lobby or by its invitation)."""
        async with self.store.sessions() as session:
            rows = (await session.execute(select(SeatJoinRow).where(SeatJoinRow.match_id == m.id))).scalars()
            joined = {}
            for r in rows:
                if m.seats[r.seat].get("open"):
                    # (A seat with a token has a row only to name the player who opened
                    # its invitation: it began with the match.)
                    m.token_hashes[r.seat] = r.token_hash
                    joined[r.seat] = r.at
                if r.name is not None:
                    m.named(r.seat, r.name, player=r.player_id is not None)
        m.seats_taken(joined)

    async def seat_for(self, m: Match, authorization: str | None, *, required: bool) -> int | None:
        """``seat_of``, and when the token opens no seat this worker knows while the match
        has open seats: again after reading the seats taken meanwhile (on another worker)."""
        try:
            return seat_of(m, authorization, required=required)
        except Problem as wrong:
            if wrong.code != "wrong_token" or not m.free_seats():
                raise
        await self.taken(m)
        return seat_of(m, authorization, required=required)

    async def require(self, m: Match, token: str, seat: int) -> None:
        """Refuses (403 ``wrong_token``) a token that does not open ``seat``: the invitation
        link and ``POST …/join`` with a token, one check for both."""
        if await self.seat_for(m, f"Bearer {token}", required=True) != seat:
            raise Problem(
                403,
                "wrong_token",
                f"this token opens no seat {seat} of this match",
                de=f"dieses Token öffnet nicht Platz {seat} dieser Partie",
            )

    async def touch(self, m: Match, seat: int | None, *, force: bool = False) -> None:
        """A sign of life from a person's seat (C11: leaving for a minute loses)."""
        if seat is None or m.status != "running":
            return
        now = self.clock.now()
        key = (m.id, seat)
        if not force and now - self.presence_written.get(key, -math.inf) < PRESENCE_WRITE_S:
            return
        if len(self.presence_written) > 100_000:
            self.presence_written.clear()  # only a throttle: forgetting it costs a write
        self.presence_written[key] = now
        read = self.presence_read.get(m.id)
        if read is not None:
            read[1][seat] = now
        async with self.store.writing() as session:
            await session.execute(
                update(PresenceRow)
                .where(PresenceRow.match_id == m.id, PresenceRow.seat == seat)
                .values(last_seen=now)
            )

    async def leaving(
        self, m: Match, now: float, *, fresh: bool = False
    ) -> list[tuple[float, str, int | None]]:
        """When the leave rule (C11) ends the match for each person seat, as last seen: the
        sweep's decision (``fresh``: read now) and the page's countdown (``absent``) alike."""
        leave_s = m.rules["leave_s"]
        if leave_s <= 0 or m.status != "running" or m.waiting():
            return []
        read = self.presence_read.get(m.id)
        if fresh or read is None or now - read[0] > PRESENCE_READ_S:
            # A core statement on the store's connection (inline on SQLite): streams ask on
            # every heartbeat.
            seen = select(PRESENCE.c.seat, PRESENCE.c.last_seen).where(PRESENCE.c.match_id == m.id)
            rows = await self.store.read(lambda conn: conn.execute(seen).all())
            read = (now, {r.seat: r.last_seen for r in rows})
            if len(self.presence_read) > 10_000:
                self.presence_read.clear()  # only a cache: forgetting it costs a read
            self.presence_read[m.id] = read
        return [(last + leave_s, "left", seat) for seat, last in read[1].items()]

    async def absent(self, m: Match, now: float) -> list[tuple[float, str, int | None]]:
        """The leave rule as a page counts it down: each person seat not seen for more than a
        third of ``leave_s`` (an open page is seen every sixth of it: its event stream), with
        the moment the sweep ends the match for it."""
        # Unseen for over a third of leave_s is the same as under two thirds left to the end.
        leave_s = m.rules["leave_s"]
        return [due for due in await self.leaving(m, now) if due[0] - now < 2 * leave_s / 3]

    # -- creating -------------------------------------------------------------------
