"""The event streams a worker holds: woken by notes of new versions, never by a timer.

One ``Watch`` per match with open streams on this worker keeps the newest version heard of
and the newest message of its table talk, and wakes every stream of the match when either
changes. A note says only that version N was stored or message N said: each stream reads
what it sends (its seat's view, the message) itself. Notes arrive

- in process, from ``publish`` (every version this worker stores, every chat said here);
- from other workers through PostgreSQL's LISTEN/NOTIFY (``pg_channels.py``): one
  subscription per watched match, not per stream;
- on SQLite with several workers, whose notes cannot reach each other, from one query per
  worker every ``Settings.stream_poll_s`` for the versions and the latest messages of all
  its watched matches (and
  on PostgreSQL every ``pg_stream_poll_s``, for notes lost with a connection). One worker
  on SQLite stores every version itself: nothing polls.

A stream reads the database only for a version its worker does not have, and one read per
match serves all its streams. The worker holds at most ``max_streams`` spectators' streams,
``max_streams_per_match`` per match and ``max_streams_per_client`` per client; more are
refused (503, or 429 for the client's own, with ``Retry-After``). A seat's own stream is
never crowded out by spectators: it is refused only past ``SEAT_STREAMS`` for the seat (its
tabs) or twice ``max_streams`` on the worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import weakref
from typing import Any

from litestar.channels import ChannelsPlugin
from sqlalchemy import func, select

from . import schemas
from .matches import MATCHES, Match, Matches
from .problems import Problem

CHAT = MATCHES.metadata.tables["chat"]

log = logging.getLogger("spielwerk_api")

# Messages a stream reads at once (it reads on until it has them all).
CHAT_BATCH = 100
# Messages a watch keeps for its streams (one read per new message serves them all).
CHAT_KEPT = 256
# Event streams one seat may hold on a worker (a player's tabs and devices).
SEAT_STREAMS = 8
# Seats' streams one client may hold, as a multiple of its spectators' share (a person at a
# few matches in a few tabs).
SEAT_STREAMS_PER_CLIENT_FACTOR = 4
# Matches per query of the fallback look at versions.
POLL_BATCH = 500
RETRY_AFTER_S = 10


def channel(match_id: str) -> str:
    # Letters, digits and underscores only: PostgreSQL's LISTEN takes the name as is.
    return f"match_{match_id}"


class Watch:
    """The streams of one match on this worker."""

    def __init__(self, match_id: str, version: int, open_seats: int = 0) -> None:
        self.match_id = match_id
        # The newest version heard of (stored here, noted by another worker, or polled).
        self.version = version
        # The fewest open seats heard of: a person who takes an open lobby seat stores no
        # version, yet every seat's page must learn at once that the match has begun.
        self.open_seats = open_seats
        # The id of the newest message of the table talk heard of (0: none).
        self.chat = 0
        self.streams = 0
        # Of them, spectators' (no seat): the ones the per-match cap counts.
        self.spectators = 0
        # The latest messages read, shared by the streams (``messages``).
        self.said: list[schemas.ChatOut] = []
        self.said_from = 0
        self.said_upto = 0
        self.chat_reading: asyncio.Future[bool] | None = None
        self.changed = asyncio.Event()
        self.listening: asyncio.Task[None] | None = None
        self.reading: asyncio.Future[Match] | None = None
        # Set once notes of other workers reach the watch (at once where none can).
        self.ready = asyncio.Event()

    async def messages(self, matches: Matches, after: int) -> list[schemas.ChatOut]:
        """The messages after ``after`` (at most ``CHAT_BATCH``), read once for every stream
        of the match: the watch keeps the latest ones it read (``said``: every message of the
        match with an id in ``(said_from, said_upto]``), and a stream behind them reads on its
        own."""
        if not self.said and self.said_upto < after:
            self.said_from = self.said_upto = after  # (nothing kept yet: from here on)
        if after < self.said_from:
            return await matches.talk.log(self.match_id, after, CHAT_BATCH)
        while self.said_upto < self.chat and not [m for m in self.said if m.id > after][:1]:
            if self.chat_reading is None or self.chat_reading.done():
                self.chat_reading = asyncio.ensure_future(self._read_on(matches))
            # Shielded: a stream that closes meanwhile does not cancel the others' read.
            if not await asyncio.shield(self.chat_reading):
                break  # (nothing more to read: a note of a message whose match was deleted)
        return [m for m in self.said if m.id > after][:CHAT_BATCH]

    async def _read_on(self, matches: Matches) -> bool:
        heard = self.chat
        read = await matches.talk.log(self.match_id, self.said_upto, CHAT_BATCH)
        self.said.extend(read)
        if read:
            self.said_upto = read[-1].id
        if len(read) < CHAT_BATCH:
            self.said_upto = max(self.said_upto, heard)
        if len(self.said) > CHAT_KEPT:
            self.said_from = self.said[-CHAT_KEPT - 1].id
            del self.said[:-CHAT_KEPT]
        return bool(read)

    def wake(self) -> None:
        changed, self.changed = self.changed, asyncio.Event()
        changed.set()

    async def latest(self, matches: Matches) -> Match:
        """The match at the newest version heard of: from the worker's cache when it has that
        version, else read once for every stream of the match."""
        m = await matches.known(self.match_id)
        if m.version >= self.version:
            return m
        if self.reading is None or self.reading.done():
            self.reading = asyncio.ensure_future(matches.get(self.match_id))
        # Shielded: a stream that closes meanwhile does not cancel the others' read.
        return await asyncio.shield(self.reading)


def _count_down(counts: dict[Any, int], key: Any) -> None:
    left = counts.get(key, 1) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


class Ticket:
    """A stream's place on the worker, given back when the stream ends (or, if it never
    started, when it is dropped)."""

    def __init__(
        self, streams: Streams, watch: Watch, client: str | None, seat: tuple[str, int] | None
    ) -> None:
        self.watch = watch
        self._release = weakref.finalize(self, streams._release, watch, client, seat)

    def release(self) -> None:
        self._release()


class Streams:
    def __init__(
        self,
        matches: Matches,
        *,
        max_streams: int,
        max_per_match: int,
        max_per_client: int = 64,
        channels: ChannelsPlugin | None = None,
        poll_s: float = 0.0,
        heartbeat_s: float = 15.0,
    ) -> None:
        self.matches = matches
        # An idle stream sends a comment this often: proxies and browsers keep it open, and a
        # page sees a dead link within that time.
        self.heartbeat_s = heartbeat_s
        # Spectators' streams: in all, per match and per client (its address). A seat's own
        # stream is not counted there, so no stranger can lock a player out of their match:
        # a seat holds at most SEAT_STREAMS (its tabs), and the worker at most twice
        # max_streams in all.
        self.max_streams = max_streams
        self.max_per_match = max_per_match
        self.max_per_client = max_per_client
        self.channels = channels
        self.poll_s = poll_s
        self.watches: dict[str, Watch] = {}
        self.total = 0
        self.spectators = 0
        self.by_client: dict[str, int] = {}
        self.by_seat: dict[tuple[str, int], int] = {}
        # Seats' streams per client: a stranger with many matches of their own cannot fill
        # the worker's hard cap either.
        self.seats_by_client: dict[str, int] = {}
        # Notes this worker publishes come back from PostgreSQL too: they were heard already.
        self.origin = secrets.token_hex(8)

    # -- places -----------------------------------------------------------------------

    def open(self, m: Match, client: str = "", seat: int | None = None) -> Ticket:
        watch = self.watches.get(m.id)
        if seat is None:
            self._admit_spectator(m, watch, client)
        else:
            held = self.by_seat.get((m.id, seat), 0)
            if held >= SEAT_STREAMS:
                raise Problem(
                    429,
                    "too_many_streams",
                    f"seat {seat} of match '{m.id}' holds {held} event streams on this worker, as many as a"
                    " seat may; close one (a tab) first",
                    headers={"Retry-After": str(RETRY_AFTER_S)},
                    de=f"Platz {seat} der Partie '{m.id}' hält auf diesem Worker {held} Ereignisströme,"
                    " so viele, wie ein Platz darf; schließe zuerst einen (einen Tab)",
                )
            mine = self.seats_by_client.get(client, 0)
            if mine >= SEAT_STREAMS_PER_CLIENT_FACTOR * self.max_per_client:
                raise Problem(
                    429,
                    "too_many_streams",
                    f"this client holds {mine} seats' event streams on this worker, as many as a client may;"
                    " close one first",
                    headers={"Retry-After": str(RETRY_AFTER_S)},
                    de=f"dieser Client hält auf diesem Worker {mine} Ereignisströme von Plätzen, so viele,"
                    " wie ein Client darf; schließe zuerst einen",
                )
            if self.total >= 2 * self.max_streams:
                raise self._full(
                    f"this worker holds {self.total} event streams, as many as it may",
                    f"dieser Worker hält {self.total} Ereignisströme, so viele, wie er darf",
                )
        if watch is None:
            watch = self.watches[m.id] = Watch(m.id, m.version, len(m.free_seats()))
            if self.channels is not None:
                watch.listening = asyncio.create_task(self._listen(watch))
            else:
                watch.ready.set()
        watch.version = max(watch.version, m.version)
        watch.open_seats = min(watch.open_seats, len(m.free_seats()))
        watch.streams += 1
        self.total += 1
        if seat is None:
            watch.spectators += 1
            self.spectators += 1
            self.by_client[client] = self.by_client.get(client, 0) + 1
            return Ticket(self, watch, client, None)
        self.by_seat[(m.id, seat)] = self.by_seat.get((m.id, seat), 0) + 1
        self.seats_by_client[client] = self.seats_by_client.get(client, 0) + 1
        return Ticket(self, watch, client, (m.id, seat))

    def _admit_spectator(self, m: Match, watch: Watch | None, client: str) -> None:
        if self.spectators >= self.max_streams:
            raise self._full(
                f"this worker holds {self.spectators} spectators' event streams, as many as it may",
                f"dieser Worker hält {self.spectators} Ereignisströme von Zuschauern, so viele, wie er darf",
            )
        if watch is not None and watch.spectators >= self.max_per_match:
            raise self._full(
                f"match '{m.id}' has {watch.spectators} spectators' event streams on this worker,"
                " as many as it may",
                f"Partie '{m.id}' hat auf diesem Worker {watch.spectators} Ereignisströme von Zuschauern,"
                " so viele, wie sie darf",
            )
        mine = self.by_client.get(client, 0)
        if mine >= self.max_per_client:
            raise Problem(
                429,
                "too_many_streams",
                f"this client holds {mine} spectators' event streams on this worker, as many as a client may;"
                " close one first",
                headers={"Retry-After": str(RETRY_AFTER_S)},
                de=f"dieser Client hält auf diesem Worker {mine} Ereignisströme als Zuschauer, so viele,"
                " wie ein Client darf; schließe zuerst einen",
            )

    @staticmethod
    def _full(detail: str, de: str) -> Problem:
        return Problem(
            503,
            "too_many_streams",
            f"{detail}; try again later",
            headers={"Retry-After": str(RETRY_AFTER_S)},
            de=f"{de}; versuche es später",
        )

    def _release(self, watch: Watch, client: str | None, seat: tuple[str, int] | None) -> None:
        watch.streams -= 1
        self.total -= 1
        if seat is None:
            watch.spectators -= 1
            self.spectators -= 1
            _count_down(self.by_client, client or "")
        else:
            _count_down(self.by_seat, seat)
            _count_down(self.seats_by_client, client or "")
        if watch.streams == 0 and self.watches.get(watch.match_id) is watch:
            del self.watches[watch.match_id]
            if watch.listening is not None:
                watch.listening.cancel()

    # -- notes ------------------------------------------------------------------------

    def heard(self, match_id: str, note: dict[str, Any]) -> None:
        """A note of a new version, of a seat taken or of table talk (in process or from
        another worker)."""
        watch = self.watches.get(match_id)
        if watch is None:
            return
        news = False
        if note.get("kind") == "chat":
            if isinstance(note.get("chat"), int) and note["chat"] > watch.chat:
                watch.chat = note["chat"]
                news = True
        else:
            if isinstance(note.get("version"), int) and note["version"] > watch.version:
                watch.version = note["version"]
                news = True
            if isinstance(note.get("open_seats"), int) and note["open_seats"] < watch.open_seats:
                watch.open_seats = note["open_seats"]
                news = True
        if news:
            watch.wake()

    def note(self, payload: dict[str, Any]) -> bytes:
        """The note other workers hear (they know it is not their own)."""
        return json.dumps({**payload, "origin": self.origin}, separators=(",", ":")).encode()

    async def _listen(self, watch: Watch) -> None:
        assert self.channels is not None
        try:
            subscriber = await self.channels.subscribe([channel(watch.match_id)])
        except Exception:  # the fallback look at versions still wakes the streams
            log.exception("listening for notes of match %s failed", watch.match_id)
            watch.ready.set()
            return
        try:
            # A version another worker stored before the LISTEN was in place: heard now.
            with contextlib.suppress(Exception):
                await self.poll([watch.match_id])
            watch.ready.set()
            async for raw in subscriber.iter_events():
                try:
                    note = json.loads(raw)
                except ValueError:
                    continue
                if isinstance(note, dict) and note.get("origin") != self.origin:
                    self.heard(watch.match_id, note)
        finally:
            with contextlib.suppress(Exception):
                await self.channels.unsubscribe(subscriber)

    async def poll_forever(self) -> None:
        """The fallback: the versions of every watched match, in one query per batch."""
        while True:
            await asyncio.sleep(self.poll_s)
            try:
                await self.poll()
            except Exception:  # a lost connection: the next round tries again
                log.exception("looking at the versions of watched matches failed")

    async def poll(self, ids: list[str] | None = None) -> None:
        ids = list(self.watches) if ids is None else ids
        for start in range(0, len(ids), POLL_BATCH):
            batch = ids[start : start + POLL_BATCH]
            query = select(MATCHES.c.id, MATCHES.c.version, MATCHES.c.open_seats).where(
                MATCHES.c.id.in_(batch)
            )
            said = (
                select(CHAT.c.match_id, func.max(CHAT.c.id))
                .where(CHAT.c.match_id.in_(batch))
                .group_by(CHAT.c.match_id)
            )
            async with self.matches.store.engine.connect() as conn:
                rows = (await conn.execute(query)).all()
                chats = (await conn.execute(said)).all()
            for match_id, version, open_seats in rows:
                self.heard(match_id, {"kind": "version", "version": version, "open_seats": open_seats})
            for match_id, chat in chats:
                self.heard(match_id, {"kind": "chat", "chat": chat})
