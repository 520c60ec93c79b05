"""Matches: seats with tokens, moves stored ply by ply, bots, the match rules (C11, D13).

The database holds the truth (``db.py``); each worker keeps the replayed state of the
matches it serves and catches up with the plies other workers stored before every answer.
A write is checked against the engine first, then stored only where the match still has the
version the client saw: the answer comes after the commit, and nothing changes on an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import math
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import spielwerk
import sqlalchemy
from spielwerk.the_game import check_talk
from sqlalchemy import and_, bindparam, case, delete, func, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from . import bots, engine, schemas
from .clock import Clock
from .db import Base, ChatRow, MatchRow, OutageRow, PlyRow, PresenceRow, SeatJoinRow, WorkerRow, inline_sqlite
from .problems import Problem, engine_fields

log = logging.getLogger("spielwerk_api")
T = TypeVar("T")

# The languages of texts for people; a match keeps its last move in each.
LANGUAGES = ("de", "en")


def result_out(result: dict[str, Any], text: str) -> schemas.MatchResult:
    """A stored result as it is sent: its line ``text`` in the asked language (the stored
    ``texts`` hold the line in each language, for lists that have no state to ask)."""
    return schemas.MatchResult(**{**{k: v for k, v in result.items() if k != "texts"}, "text": text})


Texts = dict[str, str]
# A match's status in German, for texts.
STATUS_DE = {"running": "im Gange", "finished": "beendet", "aborted": "abgebrochen"}

# Which rule counts where several end a match at the same moment: a match whose first
# move never came is aborted rather than lost.
PRECEDENCE = {"bot": -1, "aborted": 0, "time": 1, "no_move": 2, "left": 3, "playing_time": 4}
# How many past versions each worker keeps per match, so an event stream that falls a few
# versions behind (bots answering at once) still sends every version's own view; a stream
# further behind skips to the oldest version kept.
RECENT_STATES = 64
# Presence is written at most this often per seat and worker (a request is a sign of life).
PRESENCE_WRITE_S = 5.0
# A bot's turn is due for the sweep (of any worker) only once no ply came for this long: the
# worker that drives the match is searching meanwhile, and a second one would search twice.
BOT_STALLED_S = 10.0
# Rule-based bots' plies are stored in chunks of at most this many plies or this much
# deciding, so a match of them played out at once leaves the event loop to others in between.
FAST_PLIES = 64
FAST_S = 0.002


@dataclass
class Limits:
    """What a worker spends on strangers; ``Settings`` (app.py) holds them, README lists them."""

    # Matches whose replayed state a worker keeps (least recently used go first).
    cache_matches: int = 512
    # Threads that run searches (the engine releases the GIL while it searches).
    search_threads: int = 1
    # Stateless bot moves waiting for a thread beyond this are refused (503, Retry-After).
    search_waiting: int = 64
    # Every search stops after this (and after its iterations, whichever comes first).
    search_time_ms: int = 1_000
    # Seconds of search a match may spend on this worker; then its search bots play as the
    # game's heuristic bot (microseconds a move) to the end.
    match_search_s: float = 300.0
    # Running matches of search bots alone: in all, and per client on this worker (429).
    bot_matches: int = 32
    bot_matches_per_client: int = 2
    # Matches of bots alone are deleted this long after they were created (0: kept).
    bot_match_retention_s: float = 86_400.0
    # How often a worker says it is alive; a start after a silence longer than
    # ``outage_after_s`` counts the silence as an outage that runs on nobody's time.
    heartbeat_s: float = 1.0
    outage_after_s: float = 2.5
    # A match with an open seat nobody took for this long is aborted (it never began) and
    # no longer listed; 0: it waits as long as it takes.
    open_match_s: float = 3_600.0
    # Messages of table talk stored per match; more are refused (409 chat_full).
    chat_messages_per_match: int = 1_000


@dataclass
class Ply:
    kind: str
    seat: int | None
    action: int | None
    at: float


@dataclass
class Match:
    """A match as replayed from its record: the engine state and the clocks."""

    id: str
    game: spielwerk.Game
    seed: int
    seats: list[dict[str, Any]]
    token_hashes: list[str | None]
    clock: dict[str, float] | None
    rules: dict[str, float]
    created_at: float
    state: spielwerk.State
    version: int = 0
    status: str = "running"
    result: dict[str, Any] | None = None
    plies: list[Ply] = field(default_factory=list)
    # Remaining time of each seat at `last_at` (with a clock).
    clocks: list[float] | None = None
    last_at: float = 0.0
    # Since when each seat to move has been to move (its turn or its last action).
    to_move_since: dict[int, float] = field(default_factory=dict)
    moved: set[int] = field(default_factory=set)
    # The state and the last move's text of the latest versions.
    recent: OrderedDict[int, tuple[spielwerk.State, Texts | None, bool]] = field(default_factory=OrderedDict)
    # The text of the last ply, and whether it was an action of the game (whose text some
    # seats may not see: Dog's exchange picks) rather than how the match ended.
    # The last move's text by language ("de", "en"), from the engine.
    last_move: Texts | None = None
    last_is_action: bool = False
    # The server's outages since the match began, (start, end) in order: time that runs on
    # nobody's clock and counts for no rule (C11, D13).
    pauses: list[tuple[float, float]] = field(default_factory=list)
    # The last version this worker stored itself (its bots move on only from their own plies).
    stored_here: int = -1
    # When the match began: at its creation, or, with open seats, once the last of them was
    # taken (``None`` while one is free: the match waits, and no rule's time runs).
    started_at: float | None = None

    @property
    def n(self) -> int:
        return len(self.seats)

    def persons(self) -> list[int]:
        return [s for s, spec in enumerate(self.seats) if spec["kind"] == "person"]

    def free_seats(self) -> list[int]:
        """Open person seats nobody has taken yet (as far as this worker knows)."""
        return [s for s, spec in enumerate(self.seats) if spec.get("open") and self.token_hashes[s] is None]

    def waiting(self) -> bool:
        """Whether the match still waits for a person to take an open seat: no seat moves
        and no rule's time runs (clocks, first and untimed moves, leaving, Dog's playing
        time) until every person seat is taken."""
        if self.started_at is None and not self.free_seats():
            self.started_at = self.created_at  # (taken as this worker learnt: not earlier)
        return self.started_at is None

    def seats_taken(self, joined: dict[int, float]) -> None:
        """Open seats taken (seat: when); the match begins when the last of them is."""
        if self.started_at is None and not self.free_seats():
            self.started_at = max([self.created_at, *joined.values()])

    def since(self, at: float) -> float:
        """``at``, or the match's start if that came later (time before it runs for no rule)."""
        return max(at, self.started_at if self.started_at is not None else at)

    def to_move(self) -> list[int]:
        return [] if self.state.is_terminal() or self.status != "running" else self.state.seats_to_move()

    # -- replay ---------------------------------------------------------------------

    def start(self) -> None:
        self.last_at = self.created_at
        if not any(spec.get("open") for spec in self.seats):
            self.started_at = self.created_at
        if self.clock is not None:
            self.clocks = [self.clock["initial_s"]] * self.n
        self.to_move_since = dict.fromkeys(self.to_move(), self.created_at)
        self.remember()

    def replay(self, ply: Ply) -> None:
        """Apply one stored ply (they were checked when stored)."""
        if ply.kind == "move":
            assert ply.action is not None and ply.seat is not None
            before = set(self.to_move())
            self.charge(ply.at)
            self.last_move = action_texts(self.state, ply.action)
            self.last_is_action = True
            self.state.apply_action(ply.action, ply.seat)
            self.moved.add(ply.seat)
            if self.clocks is not None and self.clock is not None:
                self.clocks[ply.seat] += self.clock["increment_s"]
            after = set(self.to_move())
            self.to_move_since = {
                s: (ply.at if s == ply.seat or s not in before else self.to_move_since.get(s, ply.at))
                for s in after
            }
            if self.state.is_terminal():
                self.status = "finished"
                self.result = {
                    "returns": self.state.returns(),
                    "reason": "end",
                    "text": self.state.result_text() or "",
                }
                # Dog's team points (D13), as the engine counts them for the result text.
                points = self.state.public_view().get("outcome", {}).get("points")
                if points is not None:
                    self.result["points"] = points
                self.result["texts"] = {lang: self.result_text(lang) for lang in LANGUAGES}
        else:
            self.charge(ply.at)
            self.status = "aborted" if ply.kind == "aborted" else "finished"
            self.result = self.ending(ply.kind, ply.seat)
            self.to_move_since = {}
            self.last_move = {lang: self.result_text(lang) for lang in LANGUAGES}
            self.result["texts"] = dict(self.last_move)
            self.last_is_action = False
        self.plies.append(ply)
        self.version += 1
        self.remember()

    def charge(self, at: float) -> None:
        """The time since the last ply runs on the clock of every seat to move."""
        if self.clocks is not None and not self.waiting():
            spent = self.elapsed(self.since(self.last_at), at)
            for s in self.to_move():
                self.clocks[s] -= spent
        self.last_at = max(self.last_at, at)

    def elapsed(self, start: float, end: float) -> float:
        """Seconds from ``start`` to ``end`` the server was up."""
        out = end - start
        if out <= 0:
            return 0.0
        for began, ended in self.pauses:
            out -= max(0.0, min(end, ended) - max(start, began))
        return max(0.0, out)

    def later(self, start: float, span: float) -> float:
        """The moment ``span`` seconds of the server's uptime after ``start``."""
        at = start + span
        for began, ended in self.pauses:
            if ended <= start:
                continue
            if began >= at:
                break
            at += ended - max(began, start)
        return at

    def fork(self) -> Match:
        """A copy to try a ply on before it is stored (the past versions stay behind)."""
        return replace(
            self,
            state=self.state.clone(),
            plies=list(self.plies),
            clocks=list(self.clocks) if self.clocks is not None else None,
            to_move_since=dict(self.to_move_since),
            moved=set(self.moved),
            recent=OrderedDict(),
        )

    def adopt(self, fork: Match) -> None:
        """Take over a fork's plies once they are stored."""
        recent = self.recent
        recent.update(fork.recent)
        # A seat taken while the fork was out (its start) stays known.
        started_at = self.started_at if fork.started_at is None else fork.started_at
        self.__dict__.update(fork.__dict__)
        self.recent = recent
        self.started_at = started_at
        self.trim()

    def remember(self) -> None:
        self.recent[self.version] = (self.state.clone(), self.last_move, self.last_is_action)
        self.trim()

    def trim(self) -> None:
        while len(self.recent) > RECENT_STATES:
            self.recent.popitem(last=False)

    def at(self, version: int) -> tuple[spielwerk.State, Texts | None, bool]:
        """The state and last move of a recent version (the latest if it is no longer kept)."""
        return self.recent.get(version, (self.state, self.last_move, self.last_is_action))

    def past(self, first: int) -> Iterator[tuple[int, tuple[spielwerk.State, Texts | None, bool]]]:
        """Every version from ``first`` to the latest with its state and last move: from the
        versions kept (``recent``), else rebuilt from the stored plies, in one pass."""
        first = max(first, 0)
        if all(v in self.recent for v in range(first, self.version + 1)):
            for v in range(first, self.version + 1):
                yield v, self.recent[v]
            return
        state = self.game.new_initial_state(self.seed)
        last: tuple[Texts | None, bool] = (None, False)
        if first == 0:
            yield 0, (state.clone(), None, False)
        for v, ply in enumerate(self.plies, start=1):
            if v == self.version:
                break  # the latest version is the match's own (with how it ended)
            assert ply.kind == "move" and ply.action is not None and ply.seat is not None
            last = (action_texts(state, ply.action), True)
            state.apply_action(ply.action, ply.seat)
            if v >= first:
                yield v, (self.recent.get(v) or (state.clone(), *last))
        if self.version >= max(first, 1):
            yield self.version, (self.state, self.last_move, self.last_is_action)

    # -- results --------------------------------------------------------------------

    def result_text(self, lang: str) -> str:
        """The result line in ``lang``, from the engine: the game's own end, or the match
        rule's (the state is the one the match ended at)."""
        if self.result is None:
            return ""
        if self.result["reason"] == "end":
            return self.state.result_text(lang) or ""
        return str(self.state.match_ending(self.result["reason"], self.result.get("seat"), lang)["text"])

    def ending(self, kind: str, seat: int | None) -> dict[str, Any]:
        """The result of a match ended by a match rule instead of the game: the engine's
        (R1, C11, D13), with the rule and the seat it concerns."""
        ending = self.state.match_ending(kind, seat)
        out = {"returns": ending["returns"], "reason": kind, "text": ending["text"]}
        if seat is not None:
            out["seat"] = seat
        if ending["points"] is not None:
            out["points"] = ending["points"]
        return out

    # -- match rules ----------------------------------------------------------------

    def first_move_rule(self) -> bool:
        """C11: against a person, each player has a minute for their first move."""
        return self.rules["first_move_s"] > 0 and len(self.persons()) >= 2

    def due(self) -> list[tuple[float, str, int | None]]:
        """Every moment a match rule ends the match, with the rule and the seat."""
        if self.status != "running":
            return []
        out: list[tuple[float, str, int | None]] = []
        if self.waiting():
            # Nobody took the open seat in time: the match never began, and it is aborted
            # (listed no longer). 0 (or a match stored before this rule): it waits on.
            open_s = self.rules.get("open_s", 0)
            if open_s > 0:
                out.append((self.later(self.created_at, open_s), "aborted", self.free_seats()[0]))
            return out
        persons = set(self.persons())
        last = self.since(self.last_at)
        for s in self.to_move():
            if s not in persons:
                # A bot moves at once; it is due here only if its worker stopped before it did.
                out.append((last + BOT_STALLED_S, "bot", s))
            if self.clocks is not None:
                out.append((self.later(last, max(self.clocks[s], 0.0)), "time", s))
            if s not in persons:
                continue
            if s not in self.moved and self.first_move_rule():
                since = self.since(self.to_move_since.get(s, self.last_at))
                out.append((self.later(since, self.rules["first_move_s"]), "aborted", s))
            if self.clocks is None and self.rules["untimed_move_s"] > 0:
                since = self.since(self.to_move_since.get(s, self.last_at))
                out.append((self.later(since, self.rules["untimed_move_s"]), "no_move", s))
        if self.rules.get("playing_time_s", 0) > 0:
            start = self.since(self.created_at)
            out.append((self.later(start, self.rules["playing_time_s"]), "playing_time", None))
        return out

    def deadline(self) -> float | None:
        due = self.due()
        return min(d[0] for d in due) if due else None

    def ended_by(self, now: float) -> tuple[str, int | None] | None:
        """The rule that has ended the match by ``now`` (not counting leaving, which needs
        the presence rows), with the seat it concerns; ``None`` if none has."""
        due = [d for d in self.due() if d[0] <= now and d[1] != "bot"]
        if not due:
            return None
        _, kind, seat = min(due, key=lambda d: (d[0], PRECEDENCE[d[1]]))
        return kind, seat

    def bots_to_move(self) -> list[int]:
        if self.waiting():
            return []  # bots too wait for the match to begin
        return [s for s in self.to_move() if self.seats[s]["kind"] == "bot"]

    def clocks_at(self, now: float) -> list[float] | None:
        if self.clocks is None:
            return None
        running = set(self.to_move()) if not self.waiting() else set()
        spent = self.elapsed(self.since(self.last_at), now)
        return [round(max(0.0, c - (spent if s in running else 0.0)), 3) for s, c in enumerate(self.clocks)]

    # -- what a seat sees -------------------------------------------------------------

    def out(
        self,
        seat: int | None,
        now: float,
        version: int | None = None,
        snapshot: tuple[spielwerk.State, Texts | None, bool] | None = None,
        lang: str = "en",
    ) -> schemas.MatchOut:
        """What ``seat`` sees at ``version`` (the latest by default); ``snapshot`` is that
        version's state and last move where the caller has it (``past``). The last move and
        the result line are in ``lang`` ("de" or "en")."""
        latest = version is None or version == self.version
        if snapshot is not None:
            state, last_move, is_action = snapshot
        elif version is None:
            state, last_move, is_action = self.state, self.last_move, self.last_is_action
        else:
            state, last_move, is_action = self.at(version)
        if is_action and not sees_last_action(state, seat):
            last_move = None  # e.g. the card a Dog player gave the partner (D4)
        status = self.status if latest else "running"
        view = state.view(seat) if seat is not None else state.public_view()
        result = (
            result_out(self.result, self.result_text(lang))
            if self.result is not None and status != "running"
            else None
        )
        waiting = latest and status == "running" and self.waiting()
        # A match waiting for a person moves nobody (its moves are refused): none to move.
        to_move = [] if status != "running" or waiting or state.is_terminal() else state.seats_to_move()
        return schemas.MatchOut(
            id=self.id,
            game=self.game.name,
            options=self.game.options(),
            version=self.version if version is None else version,
            status=status,  # type: ignore[arg-type]
            seat=seat,
            # The engine's terminal marker whenever the match is over, however it ended.
            current_player=state.current_player() if status == "running" else spielwerk.TERMINAL,
            seats_to_move=to_move,
            view=view,
            clocks=self.clocks_at(now),
            result=result,
            last_move=last_move.get(lang, last_move["en"]) if last_move is not None else None,
            open_seats=self.free_seats() if waiting else [],
            ranked=self.game.ranked(),
        )


def action_texts(state: spielwerk.State, action: int) -> Texts:
    """The action's text in every language, from the engine (before it is applied)."""
    return {lang: state.action_to_string(action, lang) for lang in LANGUAGES}


def sees_last_action(state: spielwerk.State, seat: int | None) -> bool:
    """Whether ``seat`` (``None``: every seat, for spectators) saw the last action.

    The engine's ``history_for`` marks the actions a seat did not see.
    """
    seats = range(state.game.num_players()) if seat is None else (seat,)
    for p in seats:
        history = state.history_for(p)
        if history and history[-1] is None:
            return False
    return True


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


Publish = Callable[[str, dict[str, Any]], Awaitable[None]]


MATCHES = Base.metadata.tables["matches"]
PLIES = Base.metadata.tables["plies"]
# The hot path's statements, built once (building one costs as much as running it on SQLite).
READ_RECORD = select(MATCHES).where(MATCHES.c.id == bindparam("match_id"))
READ_VERSION = select(MATCHES.c.version).where(MATCHES.c.id == bindparam("match_id"))
READ_PLIES = (
    select(PLIES)
    .where(PLIES.c.match_id == bindparam("match_id"), PLIES.c.ply > bindparam("after"))
    .order_by(PLIES.c.ply)
)
# Moves the match on only where it still has the version the plies were made against.
STORE_VERSION = (
    update(MATCHES)
    .where(MATCHES.c.id == bindparam("match_id"), MATCHES.c.version == bindparam("seen"))
    .values(
        version=bindparam("version"),
        status=bindparam("status"),
        result=bindparam("result", type_=MATCHES.c.result.type),
        deadline=bindparam("deadline"),
    )
)
STORE_PLIES = insert(PLIES)


def _read_match(conn: Connection, match_id: str, known: int | None) -> tuple[Any, list[Any]]:
    """The match's record (``None`` if there is none; only its version when ``known``, the
    version a worker holds, says it has the rest) and its plies after ``known``."""
    record = conn.execute(READ_RECORD if known is None else READ_VERSION, {"match_id": match_id}).first()
    if record is None or (known is not None and record.version <= known):
        return record, []
    plies = conn.execute(READ_PLIES, {"match_id": match_id, "after": known or 0}).all()
    return record, list(plies)


class Matches:
    """The match service: every route and the sweeper go through it."""

    def __init__(
        self,
        db: AsyncEngine,
        clock: Clock,
        publish: Publish,
        cache_size: int | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.engine = db
        self.inline = inline_sqlite(db)
        self.sessions = async_sessionmaker(db, expire_on_commit=False)
        self.clock = clock
        self.publish = publish
        self.limits = limits or Limits()
        self.cache: OrderedDict[str, Match] = OrderedDict()
        self.cache_size = cache_size if cache_size is not None else self.limits.cache_matches
        self.locks: dict[str, asyncio.Lock] = {}
        self.presence_written: dict[tuple[str, int], float] = {}
        self.background: set[asyncio.Task[Any]] = set()
        self.pool = bots.SearchPool(self.limits.search_threads, self.limits.search_waiting)
        # The task that moves each match's bots on from this worker, one per match.
        self.drivers: dict[str, asyncio.Task[None]] = {}
        # Seconds of search each match spent on this worker, and the running matches of
        # bots alone each client started here.
        self.spent: dict[str, float] = {}
        self.clients: dict[str, set[str]] = {}
        # The server's outages (every worker silent), in order (``open``).
        self.outages: list[tuple[float, float]] = []
        self.worker_id = secrets.token_hex(12)
        # SQLite takes one writer at a time. Without this lock, a worker's pooled connections
        # would queue for it in SQLite's busy handler, which sleeps in steps of up to 100 ms
        # (seconds of latency under load); in turn here they wait only as long as the writer.
        self.write_turn: contextlib.AbstractAsyncContextManager[Any] = (
            asyncio.Lock() if db.dialect.name == "sqlite" else contextlib.nullcontext()
        )

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[AsyncSession]:
        """A write transaction, committed on leaving (one at a time per worker on SQLite)."""
        async with self.write_turn, self.sessions.begin() as session:
            yield session

    # -- loading --------------------------------------------------------------------

    async def get(self, match_id: str) -> Match:
        """The match as stored now: from this worker's cache, caught up with new plies."""
        cached = self.cache.get(match_id)
        known = cached.version if cached is not None else None
        record, plies = await self._read(lambda conn: _read_match(conn, match_id, known))
        m = self.cache.get(match_id) or cached  # (evicted meanwhile: the copy read against)
        if m is None:
            if record is None:
                raise Problem(
                    404,
                    "unknown_match",
                    f"no match with id '{match_id[:40]}'",
                    de=f"keine Partie mit der Kennung '{match_id[:40]}'",
                )
            m = self._build(record)
        if m.status == "running" and m.free_seats():
            # Seats taken meanwhile (on any worker), read after the plies: every join
            # stored before a ply read here is seen, so the match began before its first ply.
            await self.taken_seats(m)
        for p in plies:
            # Several requests may catch up the same cached match at once (every event
            # stream wakes on the same note): a ply another one replayed meanwhile is done.
            if p.ply > m.version:
                m.replay(Ply(p.kind, p.seat, p.action, p.at))
        self._keep(m)
        return m

    async def taken_seats(self, m: Match) -> None:
        """The open seats of ``m`` taken meanwhile (on any worker): their tokens' hashes."""
        async with self.sessions() as session:
            rows = (await session.execute(select(SeatJoinRow).where(SeatJoinRow.match_id == m.id))).scalars()
            joined = {}
            for r in rows:
                m.token_hashes[r.seat] = r.token_hash
                joined[r.seat] = r.at
        m.seats_taken(joined)

    async def join(self, match_id: str, seat: int) -> str:
        """Takes the open seat ``seat`` of the match: its new token. First come first served:
        the primary key of ``seat_joins`` lets exactly one of two joins at once win, on any
        number of workers; the other gets 409."""
        m = await self.current(match_id)
        if not 0 <= seat < m.n or not m.seats[seat].get("open"):
            raise Problem(
                409,
                "seat_not_open",
                f"seat {seat} of this match is not open to join; it needs its token",
                de=f"Platz {seat} dieser Partie ist nicht offen; er braucht sein Token",
            )
        taken = Problem(
            409, "seat_taken", f"seat {seat} was taken already", de=f"Platz {seat} ist schon vergeben"
        )
        if m.token_hashes[seat] is not None:
            raise taken
        self._running(m)
        token = secrets.token_urlsafe(24)
        now = self.clock.now()
        try:
            async with self.writing() as session:
                session.add(SeatJoinRow(match_id=match_id, seat=seat, token_hash=hash_token(token), at=now))
                await session.flush()
                m.token_hashes[seat] = hash_token(token)
                m.seats_taken({seat: now})
                values: dict[str, Any] = {"open_seats": MatchRow.open_seats - 1}
                if not m.waiting():
                    # The last open seat: the match begins now. Its rules' times start
                    # here, and every person is present from here (none lost by waiting).
                    values["deadline"] = m.deadline()
                    await session.execute(
                        update(PresenceRow).where(PresenceRow.match_id == match_id).values(last_seen=now)
                    )
                await session.execute(update(MatchRow).where(MatchRow.id == match_id).values(**values))
                session.add(PresenceRow(match_id=match_id, seat=seat, last_seen=now))
        except BaseException as failed:
            m.token_hashes[seat] = None
            m.started_at = None
            if isinstance(failed, IntegrityError):
                await self.taken_seats(m)
                raise taken from None
            raise
        if not m.waiting():
            await self.advance_bots(m)  # bots to move first move now
        return token

    async def lobby(self, limit: int, offset: int, lang: str = "en") -> schemas.Lobby:
        """Running matches with an open seat, and finished ones with a person, newest first;
        result lines in ``lang``."""
        waiting = (
            select(MatchRow)
            .where(MatchRow.open_seats > 0, MatchRow.status == "running")
            .order_by(MatchRow.created_at.desc())
            .limit(limit)
            .offset(offset)
        )
        ended = (
            select(MatchRow)
            # (A match whose open seat nobody took never began: it has no game to show.)
            .where(MatchRow.status != "running", MatchRow.bots_only.is_(False), MatchRow.open_seats == 0)
            .order_by(MatchRow.created_at.desc())
            .limit(limit)
            .offset(offset)
        )
        async with self.sessions() as session:
            open_rows = list((await session.execute(waiting)).scalars())
            finished_rows = list((await session.execute(ended)).scalars())
            ids = [r.id for r in open_rows]
            joined = (
                (
                    await session.execute(
                        select(SeatJoinRow.match_id, SeatJoinRow.seat).where(SeatJoinRow.match_id.in_(ids))
                    )
                ).all()
                if ids
                else []
            )
        taken = {(j.match_id, j.seat) for j in joined}

        def listed(r: Any, free: list[int]) -> schemas.LobbyMatch:
            finished = r.status != "running"
            return schemas.LobbyMatch(
                id=r.id,
                game=r.game,
                options=r.options,
                status=r.status,
                seats=[
                    {"kind": s["kind"], **({"bot": s["bot"]} if s["kind"] == "bot" else {})} for s in r.seats
                ],
                free_seats=free,
                clock=r.clock,
                created_at=r.created_at,
                ranked=engine.load_game(r.game, r.options).ranked(),
                # The stored line in each language (a result stored before both were: English).
                result=result_out(r.result, r.result.get("texts", {}).get(lang) or r.result["text"])
                if finished and r.result
                else None,
                replay=f"/v1/matches/{r.id}/replay" if finished else None,
            )

        return schemas.Lobby(
            open=[
                listed(
                    r, [s for s, spec in enumerate(r.seats) if spec.get("open") and (r.id, s) not in taken]
                )
                for r in open_rows
            ],
            finished=[listed(r, []) for r in finished_rows],
            limit=limit,
            offset=offset,
        )

    def _keep(self, m: Match) -> None:
        """Caches the match as the most recently used; the least recently used go beyond
        the cache's size (they are read again from the database when asked for)."""
        self.cache[m.id] = m
        self.cache.move_to_end(m.id)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)

    async def current(self, match_id: str) -> Match:
        """The match as ``get`` reads it, after deciding the time (C11): a rule whose moment
        has passed ends the match now, whatever the sweep is doing."""
        m = await self.get(match_id)
        if m.status == "running" and m.ended_by(self.clock.now()) is not None:
            async with self.lock(match_id):
                m = await self.get(match_id)
                await self._settle(m)
                m = await self.get(match_id)
        return m

    async def known(self, match_id: str) -> Match:
        """The match as this worker last saw it (loaded if it has not): enough to find a seat by
        its token, which never changes. Writes take ``get`` again under the match's lock."""
        m = self.cache.get(match_id)
        return m if m is not None else await self.get(match_id)

    def _build(self, r: Any) -> Match:
        game = engine.load_game(r.game, r.options)
        m = Match(
            id=r.id,
            game=game,
            seed=r.seed,
            seats=r.seats,
            token_hashes=r.token_hashes,
            clock=r.clock,
            rules=r.rules,
            created_at=r.created_at,
            state=game.new_initial_state(r.seed),
            pauses=[p for p in self.outages if p[1] > r.created_at],
        )
        m.start()
        return m

    def close(self) -> None:
        """Stops this worker's bots and searches and closes the inline SQLite engine's
        connections (the async engine is the caller's)."""
        for task in list(self.drivers.values()) + list(self.background):
            task.cancel()
        self.pool.close()
        if self.inline is not None:
            self.inline.dispose()

    # -- being alive ------------------------------------------------------------------

    async def open(self) -> None:
        """On start: if every worker was silent for longer than ``outage_after_s``, that
        silence was an outage, and it runs on nobody's time: it is recorded (matches replay
        their clocks around it), and the stored presence and deadlines move past it. Then
        this worker says it is alive, and bots whose turn came meanwhile move, in the
        background (the worker serves at once)."""
        now = self.clock.now()
        async with self.sessions() as session:
            last = (await session.execute(select(func.max(WorkerRow.alive_at)))).scalar()
        if last is not None and now - last > self.limits.outage_after_s:
            await self._record_outage(last, now)
        async with self.sessions() as session:
            rows = (await session.execute(select(OutageRow.began, OutageRow.ended))).all()
        self.outages = sorted((r.began, r.ended) for r in rows)
        await self.beat()
        for work in (self._resume_quietly(), self._beat_forever()):
            task = asyncio.create_task(work)
            self.background.add(task)
            task.add_done_callback(self.background.discard)

    async def _record_outage(self, began: float, ended: float) -> None:
        shift = ended - began
        running = select(MatchRow.id).where(MatchRow.status == "running")
        try:
            async with self.writing() as session:
                # The outage's start is its key: of workers starting together, one records it.
                session.add(OutageRow(began=began, ended=ended))
                await session.flush()
                await session.execute(
                    update(PresenceRow)
                    .where(PresenceRow.last_seen < ended, PresenceRow.match_id.in_(running))
                    .values(
                        last_seen=case(
                            (PresenceRow.last_seen <= began, PresenceRow.last_seen + shift), else_=ended
                        )
                    )
                )
                await session.execute(
                    update(MatchRow)
                    .where(MatchRow.status == "running", MatchRow.deadline > began)
                    .values(deadline=MatchRow.deadline + shift)
                )
        except IntegrityError:
            return  # another worker recorded it
        log.warning("the server was down for %.1f s: that time runs on nobody's clock", shift)

    async def beat(self) -> None:
        """This worker is alive now (``open``, every ``heartbeat_s`` and on leaving)."""
        now = self.clock.now()
        async with self.writing() as session:
            await session.merge(WorkerRow(id=self.worker_id, alive_at=now))
            # Workers long gone: only the latest sign of life counts.
            await session.execute(delete(WorkerRow).where(WorkerRow.alive_at < now - 86_400))
        async with self.sessions() as session:
            outages = (await session.execute(select(func.count()).select_from(OutageRow))).scalar_one()
        if outages != len(self.outages):
            # Another worker, starting while this one was silent too long (a stalled loop),
            # recorded an outage: the cached matches replay their clocks around it.
            async with self.sessions() as session:
                rows = (await session.execute(select(OutageRow.began, OutageRow.ended))).all()
            self.outages = sorted((r.began, r.ended) for r in rows)
            self.cache.clear()

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.limits.heartbeat_s)
            try:
                await self.beat()
            except Exception:  # a lost connection: the next beat tries again
                log.exception("saying this worker is alive failed")

    async def _resume_quietly(self) -> None:
        try:
            await self.resume_bots()
        except Exception:  # logged; the sweep picks the bots up
            log.exception("resuming the bots failed")

    async def _read(self, body: Callable[[Connection], T]) -> T:
        """Runs ``body`` on a connection: inline on SQLite (``db.inline_sqlite``)."""
        if self.inline is not None:
            with self.inline.connect() as conn:
                return body(conn)
        async with self.engine.connect() as conn:
            return await conn.run_sync(body)

    async def _write(self, body: Callable[[Connection], T]) -> T:
        """Runs ``body`` in a write transaction, committed on return: inline on SQLite, and
        there after this worker's other writers (``write_turn``). Blocking the loop while
        another of its own writers held SQLite's lock would wait for a commit that cannot
        come."""
        if self.inline is not None:
            async with self.write_turn:
                with self.inline.begin() as conn:
                    return body(conn)
        async with self.engine.begin() as conn:
            return await conn.run_sync(body)

    def lock(self, match_id: str) -> asyncio.Lock:
        if len(self.locks) > 4 * self.cache_size:
            self.locks = {k: v for k, v in self.locks.items() if v.locked()}
        return self.locks.setdefault(match_id, asyncio.Lock())

    # -- seats ----------------------------------------------------------------------

    def seat_of(self, m: Match, authorization: str | None, *, required: bool) -> int | None:
        """The seat a bearer token opens; every seat's hash is compared in constant time."""
        if not authorization:
            if required:
                raise Problem(
                    401,
                    "token_required",
                    "this needs a seat's token: send 'Authorization: Bearer <token>'",
                    headers={"WWW-Authenticate": 'Bearer realm="spielwerk"'},
                )
            return None
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Problem(
                401,
                "token_required",
                "the Authorization header must be 'Bearer <token>'",
                headers={"WWW-Authenticate": 'Bearer realm="spielwerk"'},
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

    async def seat_for(self, m: Match, authorization: str | None, *, required: bool) -> int | None:
        """``seat_of``, and when the token opens no seat this worker knows while the match
        has open seats: again after reading the seats taken meanwhile (on another worker)."""
        try:
            return self.seat_of(m, authorization, required=required)
        except Problem as wrong:
            if wrong.code != "wrong_token" or not m.free_seats():
                raise
        await self.taken_seats(m)
        return self.seat_of(m, authorization, required=required)

    async def require_seat(self, m: Match, token: str, seat: int) -> None:
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
        async with self.writing() as session:
            await session.execute(
                update(PresenceRow)
                .where(PresenceRow.match_id == m.id, PresenceRow.seat == seat)
                .values(last_seen=now)
            )

    # -- creating -------------------------------------------------------------------

    async def create(self, spec: schemas.NewMatch, client: str | None = None) -> schemas.MatchCreated:
        """A new match; ``client`` (its address) counts the matches of search bots alone
        each client runs at once on this worker."""
        game = engine.load_game(spec.game, spec.options)
        if len(spec.seats) != game.num_players():
            raise Problem(
                422,
                "wrong_seat_count",
                f"{game.name} with these options has {game.num_players()} seats;"
                f" {len(spec.seats)} were given",
            )
        if spec.rules.playing_time_s > 0 and not game.has_playing_time():
            # The engine says which games have one (Dog's D13).
            raise Problem(
                422,
                "invalid_rules",
                f"{game.name} has no playing time (D13 is Dog's)",
                de=f"{game.name} hat keine Spielzeit (D13 gilt für Dog)",
            )
        seats: list[dict[str, Any]] = []
        for seat_spec in spec.seats:
            if isinstance(seat_spec, schemas.BotSeat):
                bots.check(seat_spec.bot, game, seat_spec.params)
                seats.append({"kind": "bot", "bot": seat_spec.bot, "params": seat_spec.params})
            else:
                seats.append({"kind": "person", "open": True} if seat_spec.open else {"kind": "person"})
        tokens = [
            secrets.token_urlsafe(24) if s["kind"] == "person" and not s.get("open") else None for s in seats
        ]
        open_seats = sum(1 for s in seats if s.get("open"))
        bots_only = all(s["kind"] == "bot" for s in seats)
        searching = bots_only and any(bots.searches(game.name, s["bot"]) for s in seats)
        if searching:
            await self._admit_bots_alone(client)
        seed = int(spec.seed) if spec.seed is not None else secrets.randbits(63)
        now = self.clock.now()
        match_id = secrets.token_hex(12)
        clock = (
            {"initial_s": spec.clock.initial_s, "increment_s": spec.clock.increment_s} if spec.clock else None
        )
        rules = {
            "first_move_s": spec.rules.first_move_s,
            "leave_s": spec.rules.leave_s,
            "untimed_move_s": spec.rules.untimed_move_s,
            "playing_time_s": spec.rules.playing_time_s,
            # How long the match waits for its open seats to be taken (Limits.open_match_s).
            "open_s": self.limits.open_match_s if open_seats else 0.0,
        }
        m = Match(
            id=match_id,
            game=game,
            seed=seed,
            seats=seats,
            token_hashes=[hash_token(t) if t else None for t in tokens],
            clock=clock,
            rules=rules,
            created_at=now,
            state=game.new_initial_state(seed),
        )
        m.start()
        async with self.writing() as session:
            session.add(
                MatchRow(
                    id=match_id,
                    game=game.name,
                    options=game.options(),
                    seed=seed,
                    seats=seats,
                    token_hashes=m.token_hashes,
                    clock=clock,
                    rules=rules,
                    created_at=now,
                    version=0,
                    status="running",
                    result=None,
                    deadline=m.deadline(),
                    leave_s=spec.rules.leave_s,
                    bots_only=bots_only,
                    open_seats=open_seats,
                )
            )
            await session.flush()
            # An open seat is present from when it is taken on (``join``).
            session.add_all(
                PresenceRow(match_id=match_id, seat=p, last_seen=now)
                for p in m.persons()
                if tokens[p] is not None
            )
        self._keep(m)
        if searching:
            # Search bots alone: they play on in the background (such a game may take
            # minutes); the sweeper picks the match up if this worker stops.
            self._drive(match_id, client)
        else:
            await self.advance_bots(m)
        return schemas.MatchCreated(
            id=match_id,
            version=m.version,
            seats=[
                schemas.SeatOut(
                    seat=s,
                    kind=kind["kind"],
                    bot=kind.get("bot"),
                    token=tokens[s],
                    open=bool(kind.get("open")),
                )
                for s, kind in enumerate(seats)
            ],
        )

    # -- writing --------------------------------------------------------------------

    async def _commit(self, m: Match, plies: list[Ply]) -> None:
        """Store plies where the match still has version ``m.version``, then take them over.

        The conditional UPDATE and the primary key of ``plies`` both refuse a second writer
        that saw the same version, on any number of workers; the loser gets 409.
        """
        probe = m.fork()
        for ply in plies:
            probe.replay(ply)
        stale = Problem(
            409,
            "stale_version",
            "the match moved on meanwhile; fetch it and try again",
            de="die Partie ist inzwischen weiter; hole sie neu und versuche es noch einmal",
        )
        moved_on = {
            "match_id": m.id,
            "seen": m.version,
            "version": probe.version,
            "status": probe.status,
            "result": probe.result,
            "deadline": probe.deadline(),
        }
        rows = [
            {"match_id": m.id, "ply": m.version + i, "kind": p.kind, "seat": p.seat, "action": p.action}
            | {"at": p.at}
            for i, p in enumerate(plies, start=1)
        ]

        def store(conn: Connection) -> bool:
            # Core statements, not the ORM: every move passes here, and the ORM's session
            # and unit of work cost about as much again as the two statements themselves.
            if conn.execute(STORE_VERSION, moved_on).rowcount != 1:
                return False
            conn.execute(STORE_PLIES, rows)
            return True

        try:
            if not await self._write(store):
                raise stale
        except IntegrityError:
            raise stale from None
        first = m.version + 1
        m.adopt(probe)
        m.stored_here = m.version
        for version in range(first, m.version + 1):
            await self.publish(m.id, {"kind": "version", "version": version})

    async def play(self, match_id: str, seat: int, version: int, move: dict[str, Any]) -> Match:
        async with self.lock(match_id):
            # Optimistic: a move made against the version this worker holds goes straight to
            # the conditional UPDATE, which refuses it if any worker stored a ply meanwhile;
            # only then is the match read again. That saves a read on every move.
            m = self.cache.get(match_id)
            if m is None or m.version != version or m.status != "running" or m.waiting():
                m = await self.get(match_id)
            if await self._settle(m):  # C11: the time is decided first
                m = await self.get(match_id)
            self._running(m)
            self._at_version(m, version)
            self._begun(m)
            action = m.state.action_from_json(move)
            trial = m.state.clone()
            trial.apply_action(action, seat)  # the engine's reason if illegal
            try:
                await self._commit(m, [Ply("move", seat, action, self.clock.now())])
            except Problem as stale:
                if stale.code != "stale_version":
                    raise
                m = await self.get(match_id)
                self._running(m)
                self._at_version(m, version)
                raise
        await self.advance_bots(m)
        return self.cache.get(match_id) or m

    @staticmethod
    def _at_version(m: Match, version: int) -> None:
        if version != m.version:
            raise Problem(
                409,
                "stale_version",
                f"the move was made against version {version}; the match is at version {m.version}",
                de=f"der Zug galt Version {version}; die Partie ist bei Version {m.version}",
                version=m.version,
            )

    async def resign(self, match_id: str, seat: int) -> Match:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if await self._settle(m):
                m = await self.get(match_id)
            self._running(m)
            # A match still waiting for a person has not begun: nobody can lose it, and the
            # engine has no ending for a withdrawn one (its C11 abort names a missed first
            # move), so resigning is refused as moves are; it ends at Limits.open_match_s.
            self._begun(m)
            await self._commit(m, [Ply("resigned", seat, None, self.clock.now())])
            return m

    async def _settle(self, m: Match) -> bool:
        """C11 before anything else: if a rule has ended the match by now, its ending is
        stored (under the match's lock). True if the match moved on (``m`` may then be
        behind: read it again)."""
        if m.status != "running":
            return False
        now = self.clock.now()
        ending = m.ended_by(now)
        if ending is None:
            return False
        kind, seat = ending
        try:
            await self._commit(m, [Ply(kind, seat, None, now)])
        except Problem as stale:
            if stale.code != "stale_version":
                raise
        return True

    # -- bots -----------------------------------------------------------------------

    async def advance_bots(self, m: Match) -> None:
        """Bot seats move as soon as they may, each from its own seat's view, up to a
        person's turn or the end; the caller waits for them, holding no lock meanwhile.

        Rule-based bots' plies are stored in small chunks, a searching bot's ply by itself
        as soon as it is found, so every seat's events show it before the next search
        starts. A search runs in the pool without the match's lock, on a copy of the
        state; its ply is stored only if the match still has the version it began from.
        """
        await asyncio.shield(self._drive(m.id))

    def _drive(self, match_id: str, client: str | None = None) -> asyncio.Task[None]:
        """The task that moves the match's bots on from this worker (started if none runs)."""
        task = self.drivers.get(match_id)
        if task is not None and not task.done():
            return task
        task = asyncio.create_task(self._drive_bots(match_id))
        self.drivers[match_id] = task
        if client is not None:
            self.clients.setdefault(client, set()).add(match_id)

        def done(t: asyncio.Task[None]) -> None:
            if self.drivers.get(match_id) is t:
                del self.drivers[match_id]
            if client is not None:
                running = self.clients.get(client, set())
                running.discard(match_id)
                if not running:
                    self.clients.pop(client, None)
            m = self.cache.get(match_id)
            if m is None or m.status != "running":
                self.spent.pop(match_id, None)

        task.add_done_callback(done)
        return task

    async def _drive_bots(self, match_id: str) -> None:
        try:
            while await self._bot_ply(match_id):
                await asyncio.sleep(0)  # the loop's other work between two chunks
        except Problem as gone:
            if gone.code != "unknown_match":  # deleted by the retention rule meanwhile
                log.warning("bots of match %s stopped: %s", match_id, gone.detail)
        except Exception:  # logged, and the sweeper retries
            log.exception("bots of match %s stopped", match_id)

    def _bot_for(self, m: Match, seat: int) -> tuple[str, dict[str, Any]]:
        """The bot that decides for ``seat`` now, with its parameters bounded in time. A
        match that spent its search time on this worker (``match_search_s``) goes on with
        the game's rule-based ``heuristic`` bot."""
        spec = m.seats[seat]
        name, params = spec["bot"], spec.get("params", {})
        if not bots.searches(m.game.name, name):
            return name, params
        if self.spent.get(m.id, 0.0) >= self.limits.match_search_s:
            return "heuristic", {}
        return name, bots.bounded(name, m.game, params, self.limits.search_time_ms)

    async def _bot_ply(self, match_id: str) -> bool:
        """Stores the next bot plies of the match; False once no bot is to move."""
        async with self.lock(match_id):
            m = await self.get(match_id)
            if await self._settle(m):
                return True
            seats = m.bots_to_move()
            if not seats:
                return False
            seat = seats[0]
            name, params = self._bot_for(m, seat)
            if not bots.searches(m.game.name, name):
                plies = self._rule_based_plies(m)
                try:
                    await self._commit(m, plies)
                except Problem as stale:
                    if stale.code != "stale_version":
                        raise
                    return await self._moved_on_here(m)
                return True
            version, state, seed = m.version, m.state.clone(), m.seed
            priority = bots.PERSON if m.persons() else bots.BOTS_ALONE
        # The search, holding nothing the match rules or other matches need.
        action, took = await bots.decide(
            self.pool, name, params, state, seat, seed, version + 1, priority=priority
        )
        self.spent[match_id] = self.spent.get(match_id, 0.0) + took
        if len(self.spent) > 4 * self.cache_size:
            self.spent = {k: v for k, v in self.spent.items() if k in self.drivers}
        async with self.lock(match_id):
            m = await self.get(match_id)
            if m.version != version:
                return await self._moved_on_here(m)
            if await self._settle(m):
                return True
            try:
                await self._commit(m, [Ply("move", seat, action, self.clock.now())])
            except Problem as stale:
                if stale.code != "stale_version":
                    raise
                return await self._moved_on_here(m)
        return True

    async def _moved_on_here(self, m: Match) -> bool:
        """The match moved on while its bot decided. If this worker stored the new version
        (a person's move, a rule), the bots decide again from there; if another worker did,
        that one moves them on (two would search twice)."""
        m = await self.get(m.id)
        return m.stored_here == m.version

    def _rule_based_plies(self, m: Match) -> list[Ply]:
        """The plies of rule-based bots from here, up to a search bot, a person or the end,
        at most a small chunk (``FAST_PLIES``, ``FAST_S``)."""
        trial = m.fork()
        plies: list[Ply] = []
        stop = time.perf_counter() + FAST_S
        while trial.status == "running" and len(plies) < FAST_PLIES:
            seats = trial.bots_to_move()
            if not seats:
                break
            seat = seats[0]
            name, params = self._bot_for(trial, seat)
            if bots.searches(trial.game.name, name):
                break
            bot = bots.make(name, params, trial.state, seat, trial.seed, trial.version + 1)
            ply = Ply("move", seat, bot.step(trial.state, seat), self.clock.now())
            trial.replay(ply)
            plies.append(ply)
            if time.perf_counter() > stop:
                break
        return plies

    async def _admit_bots_alone(self, client: str | None) -> None:
        """A match of search bots alone costs minutes of search: so many run at once."""
        mine = len(self.clients.get(client, ())) if client is not None else 0
        if mine >= self.limits.bot_matches_per_client:
            raise Problem(
                429,
                "too_many_bot_matches",
                f"at most {self.limits.bot_matches_per_client} matches of search bots alone per client"
                " run at once; wait for one to end",
                headers={"Retry-After": "30"},
            )
        async with self.sessions() as session:
            running = (
                await session.execute(
                    select(func.count())
                    .select_from(MatchRow)
                    .where(MatchRow.status == "running", MatchRow.bots_only.is_(True))
                )
            ).scalar_one()
        if running >= self.limits.bot_matches:
            raise Problem(
                429,
                "too_many_bot_matches",
                f"this server runs at most {self.limits.bot_matches} matches of search bots alone at once",
                headers={"Retry-After": "30"},
            )

    async def resume_bots(self) -> int:
        """On start (in the background, ``open``): bots whose turn came while no server ran
        (it stopped between a person's move and the bot's answer, or amid a match of bots
        alone) move again. Matches with a person are moved on to the person's turn before
        the next; matches of bots alone play on in the background. Returns how many
        matches moved (or, of bots alone, started again)."""
        async with self.sessions() as session:
            running = (
                await session.execute(select(MatchRow.id, MatchRow.seats).where(MatchRow.status == "running"))
            ).all()
        resumed = 0
        for match_id, seats in running:
            if not any(s["kind"] == "bot" for s in seats):
                continue
            if all(s["kind"] == "bot" for s in seats):
                self._drive(match_id)
                resumed += 1
                continue
            version = (await self.get(match_id)).version
            await asyncio.shield(self._drive(match_id))
            resumed += (await self.get(match_id)).version > version
        return resumed

    def _running(self, m: Match) -> None:
        if m.status != "running":
            raise Problem(
                409,
                "match_over",
                f"the match is {m.status}; no more moves",
                de=f"die Partie ist {STATUS_DE.get(m.status, m.status)}; es gibt keine Züge mehr",
            )

    @staticmethod
    def _begun(m: Match) -> None:
        if m.waiting():
            free = ", ".join(str(s) for s in m.free_seats())
            raise Problem(
                409,
                "waiting_for_players",
                f"the match begins once every person seat is taken; open seats: {free}",
                de=f"die Partie beginnt, sobald jeder Platz für Personen vergeben ist; offene Plätze: {free}",
            )

    async def chat(self, match_id: str, seat: int, text: str, lang: str) -> schemas.ChatOut:
        m = await self.current(match_id)
        if not m.game.has_table_talk():
            # The engine says which games have table talk (The Game's T7).
            raise Problem(
                422,
                "no_table_talk",
                f"{m.game.name} has no table talk (T7 is The Game's)",
                de=f"{m.game.name} hat kein Tischgespräch (T7 gilt für The Game)",
            )
        self._running(m)
        refused = check_talk(text)
        if refused is not None:
            reason = engine_fields(refused, lang)["reason"]
            raise Problem(422, refused.code, f"{refused.rule}: {reason}", rule=refused.rule)
        now = self.clock.now()
        row = ChatRow(match_id=match_id, seat=seat, text=text, at=now)
        async with self.writing() as session:
            if self.engine.dialect.name == "postgresql":
                # Messages of one match are numbered in the order they commit (a stream that
                # read up to message N must never find an N - 1 later): one at a time per match.
                await session.execute(
                    sqlalchemy.text("SELECT pg_advisory_xact_lock(hashtext(:m))"), {"m": match_id}
                )
            # Counted inside the write (after the lock on PostgreSQL, after this worker's
            # other writers on SQLite), so the cap holds for messages said at once.
            said = (
                await session.execute(
                    select(func.count()).select_from(ChatRow).where(ChatRow.match_id == match_id)
                )
            ).scalar_one()
            cap = self.limits.chat_messages_per_match
            if said >= cap:
                raise Problem(
                    409,
                    "chat_full",
                    f"at most {cap} messages of table talk are kept per match; this match has {said}",
                    de=f"je Partie werden höchstens {cap} Nachrichten des Tischgesprächs gespeichert;"
                    f" diese Partie hat {said}",
                )
            session.add(row)
            await session.flush()
        # Like a version, the note says only that message `row.id` was said: every stream
        # reads it from the database (streams.py), so it reaches the streams of all workers.
        await self.publish(match_id, {"kind": "chat", "chat": row.id})
        return schemas.ChatOut(seat=seat, text=text, at=now, id=row.id)

    async def chat_log(
        self, match_id: str, after: int = 0, limit: int | None = None
    ) -> list[schemas.ChatOut]:
        """The table talk of the match in order, after message ``after`` (at most ``limit``)."""
        query = select(ChatRow).where(ChatRow.match_id == match_id, ChatRow.id > after).order_by(ChatRow.id)
        if limit is not None:
            query = query.limit(limit)
        async with self.sessions() as session:
            rows = (await session.execute(query)).scalars()
            return [schemas.ChatOut(seat=r.seat, text=r.text, at=r.at, id=r.id) for r in rows]

    async def last_chat(self, match_id: str) -> int:
        """The id of the match's latest message (0: none yet)."""
        async with self.sessions() as session:
            last = await session.execute(select(func.max(ChatRow.id)).where(ChatRow.match_id == match_id))
            return int(last.scalar() or 0)

    # -- the match rules, enforced without any request ----------------------------------

    async def sweep(self) -> int:
        """End every running match a rule has ended by now; returns how many."""
        now = self.clock.now()
        async with self.sessions() as session:
            due = set(
                (
                    await session.execute(
                        select(MatchRow.id).where(MatchRow.status == "running", MatchRow.deadline <= now)
                    )
                ).scalars()
            )
            gone = (
                await session.execute(
                    select(PresenceRow.match_id, PresenceRow.seat).join(
                        MatchRow,
                        and_(
                            MatchRow.id == PresenceRow.match_id,
                            MatchRow.status == "running",
                            MatchRow.leave_s > 0,
                            # A match waiting for a person: nobody leaves it (it has not begun).
                            MatchRow.open_seats == 0,
                            PresenceRow.last_seen + MatchRow.leave_s <= now,
                        ),
                    )
                )
            ).all()
        left = {r.match_id for r in gone}
        ended = 0
        for match_id in sorted(due | left):
            lock = self.lock(match_id)
            if lock.locked():
                # Busy with a request or a bot's ply this moment: the next round looks again
                # (and every request decides the time itself, C11).
                continue
            async with lock:
                m = await self.get(match_id)
                if m.status != "running":
                    continue
                ending = await self._expired(m, now)
                if ending is None:
                    continue
                kind, seat = ending
                if kind == "bot":
                    self._drive(match_id)  # in the background: the sweep waits for no search
                    continue
                try:
                    await self._commit(m, [Ply(kind, seat, None, now)])
                    ended += 1
                except Problem:
                    continue  # another worker ended it or a move came first
        await self.forget_bot_matches(now)
        return ended

    async def forget_bot_matches(self, now: float) -> int:
        """The retention rule: a match of bots alone is deleted ``bot_match_retention_s``
        after it was created, running or not (nobody's result hangs on it), a bounded batch
        per sweep. Returns how many were deleted."""
        keep = self.limits.bot_match_retention_s
        if keep <= 0:
            return 0
        async with self.sessions() as session:
            old = list(
                (
                    await session.execute(
                        select(MatchRow.id)
                        .where(MatchRow.bots_only.is_(True), MatchRow.created_at < now - keep)
                        .limit(100)
                    )
                ).scalars()
            )
        if not old:
            return 0
        async with self.writing() as session:
            for table in (PlyRow, PresenceRow, ChatRow):
                await session.execute(delete(table).where(table.match_id.in_(old)))
            await session.execute(delete(MatchRow).where(MatchRow.id.in_(old)))
        for match_id in old:
            self.cache.pop(match_id, None)
            driver = self.drivers.get(match_id)
            if driver is not None:
                driver.cancel()
        return len(old)

    async def _expired(self, m: Match, now: float) -> tuple[str, int | None] | None:
        due = [(t, kind, seat) for t, kind, seat in m.due() if t <= now]
        if m.rules["leave_s"] > 0 and not m.waiting():
            async with self.sessions() as session:
                rows = (
                    await session.execute(select(PresenceRow).where(PresenceRow.match_id == m.id))
                ).scalars()
                for r in rows:
                    if r.last_seen + m.rules["leave_s"] <= now:
                        due.append((r.last_seen + m.rules["leave_s"], "left", r.seat))
        if not due:
            return None
        _, kind, seat = min(due, key=lambda d: (d[0], PRECEDENCE[d[1]]))
        return kind, seat

    # -- after the end ------------------------------------------------------------------

    def replay(self, m: Match, lang: str = "en") -> schemas.Replay:
        """Every ply of a match over, its texts in ``lang``."""
        if m.status == "running":
            raise Problem(
                409,
                "match_running",
                "the replay shows every hidden card: it opens after the end",
                de="die Wiederholung zeigt jede verdeckte Karte: sie öffnet erst nach dem Ende",
            )
        state = m.game.new_initial_state(m.seed)
        initial = state.serialize()
        actions = []
        for i, p in enumerate(m.plies, start=1):
            if p.kind == "move":
                assert p.action is not None
                text = state.action_to_string(p.action, lang)
                move = state.action_to_json(p.action)
                state.apply_action(p.action, p.seat)
                actions.append(schemas.ReplayAction(i, p.seat, p.kind, p.action, move, text, p.at))
            else:
                text = m.result_text(lang) if m.result else p.kind
                actions.append(schemas.ReplayAction(i, p.seat, p.kind, None, None, text, p.at))
        result = result_out(m.result, m.result_text(lang)) if m.result else None
        return schemas.Replay(
            id=m.id,
            game=m.game.name,
            options=m.game.options(),
            seed=str(m.seed),
            initial_state=json.loads(initial),
            final_state=json.loads(state.serialize()),
            actions=actions,
            result=result,
        )


def event_data(kind: str, payload: dict[str, Any]) -> str:
    return json.dumps({"kind": kind, **payload}, separators=(",", ":"))
