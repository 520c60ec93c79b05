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
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import spielwerk
from spielwerk.the_game import check_talk
from sqlalchemy import and_, bindparam, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from . import bots, engine, schemas
from .clock import Clock
from .db import Base, ChatRow, MatchRow, PresenceRow, inline_sqlite
from .problems import Problem, engine_fields

log = logging.getLogger("spielwerk_api")
T = TypeVar("T")

# Which rule counts where several end a match at the same moment: a match whose first
# move never came is aborted rather than lost.
PRECEDENCE = {"bot": -1, "aborted": 0, "time": 1, "no_move": 2, "left": 3, "playing_time": 4}
# How many past versions each worker keeps per match, so an event stream that falls a few
# versions behind (bots answering at once) still sends every version's own view; a stream
# further behind skips to the oldest version kept.
RECENT_STATES = 64
# Presence is written at most this often per seat and worker (a request is a sign of life).
PRESENCE_WRITE_S = 5.0


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
    recent: OrderedDict[int, tuple[spielwerk.State, str | None, bool]] = field(default_factory=OrderedDict)
    # The text of the last ply, and whether it was an action of the game (whose text some
    # seats may not see: Dog's exchange picks) rather than how the match ended.
    last_move: str | None = None
    last_is_action: bool = False

    @property
    def n(self) -> int:
        return len(self.seats)

    def persons(self) -> list[int]:
        return [s for s, spec in enumerate(self.seats) if spec["kind"] == "person"]

    def to_move(self) -> list[int]:
        return [] if self.state.is_terminal() or self.status != "running" else self.state.seats_to_move()

    # -- replay ---------------------------------------------------------------------

    def start(self) -> None:
        self.last_at = self.created_at
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
            self.last_move = self.state.action_to_string(ply.action)
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
        else:
            self.charge(ply.at)
            self.status = "aborted" if ply.kind == "aborted" else "finished"
            self.result = self.ending(ply.kind, ply.seat)
            self.to_move_since = {}
            self.last_move = self.result["text"]
            self.last_is_action = False
        self.plies.append(ply)
        self.version += 1
        self.remember()

    def charge(self, at: float) -> None:
        """The time since the last ply runs on the clock of every seat to move."""
        if self.clocks is not None:
            for s in self.to_move():
                self.clocks[s] -= max(0.0, at - self.last_at)
        self.last_at = max(self.last_at, at)

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
        self.__dict__.update(fork.__dict__)
        self.recent = recent
        self.trim()

    def remember(self) -> None:
        self.recent[self.version] = (self.state.clone(), self.last_move, self.last_is_action)
        self.trim()

    def trim(self) -> None:
        while len(self.recent) > RECENT_STATES:
            self.recent.popitem(last=False)

    def at(self, version: int) -> tuple[spielwerk.State, str | None, bool]:
        """The state and last move of a recent version (the latest if it is no longer kept)."""
        return self.recent.get(version, (self.state, self.last_move, self.last_is_action))

    # -- results --------------------------------------------------------------------

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
        persons = set(self.persons())
        for s in self.to_move():
            if s not in persons:
                # A bot moves at once; it is due here only if a worker stopped before it did.
                out.append((self.last_at, "bot", s))
            if self.clocks is not None:
                out.append((self.last_at + max(self.clocks[s], 0.0), "time", s))
            if s not in persons:
                continue
            if s not in self.moved and self.first_move_rule():
                out.append(
                    (self.to_move_since.get(s, self.last_at) + self.rules["first_move_s"], "aborted", s)
                )
            if self.clocks is None and self.rules["untimed_move_s"] > 0:
                out.append(
                    (self.to_move_since.get(s, self.last_at) + self.rules["untimed_move_s"], "no_move", s)
                )
        if self.rules.get("playing_time_s", 0) > 0:
            out.append((self.created_at + self.rules["playing_time_s"], "playing_time", None))
        return out

    def deadline(self) -> float | None:
        due = self.due()
        return min(d[0] for d in due) if due else None

    def clocks_at(self, now: float) -> list[float] | None:
        if self.clocks is None:
            return None
        running = set(self.to_move())
        return [
            round(max(0.0, c - (max(0.0, now - self.last_at) if s in running else 0.0)), 3)
            for s, c in enumerate(self.clocks)
        ]

    # -- what a seat sees -------------------------------------------------------------

    def out(self, seat: int | None, now: float, version: int | None = None) -> schemas.MatchOut:
        latest = version is None or version == self.version
        if version is None:
            state, last_move, is_action = self.state, self.last_move, self.last_is_action
        else:
            state, last_move, is_action = self.at(version)
        if is_action and not sees_last_action(state, seat):
            last_move = None  # e.g. the card a Dog player gave the partner (D4)
        status = self.status if latest else "running"
        view = state.view(seat) if seat is not None else state.public_view()
        result = (
            schemas.MatchResult(**self.result) if self.result is not None and status != "running" else None
        )
        to_move = [] if status != "running" or state.is_terminal() else state.seats_to_move()
        return schemas.MatchOut(
            id=self.id,
            game=self.game.name,
            options=self.game.options(),
            version=self.version if version is None else version,
            status=status,  # type: ignore[arg-type]
            seat=seat,
            current_player=state.current_player(),
            seats_to_move=to_move,
            view=view,
            clocks=self.clocks_at(now),
            result=result,
            last_move=last_move,
        )


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

    def __init__(self, db: AsyncEngine, clock: Clock, publish: Publish, cache_size: int = 2048) -> None:
        self.engine = db
        self.inline = inline_sqlite(db)
        self.sessions = async_sessionmaker(db, expire_on_commit=False)
        self.clock = clock
        self.publish = publish
        self.cache: OrderedDict[str, Match] = OrderedDict()
        self.cache_size = cache_size
        self.locks: dict[str, asyncio.Lock] = {}
        self.presence_written: dict[tuple[str, int], float] = {}
        self.background: set[asyncio.Task[None]] = set()
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
                raise Problem(404, "unknown_match", f"no match with id '{match_id[:40]}'")
            m = self._build(record)
        for p in plies:
            # Several requests may catch up the same cached match at once (every event
            # stream wakes on the same note): a ply another one replayed meanwhile is done.
            if p.ply > m.version:
                m.replay(Ply(p.kind, p.seat, p.action, p.at))
        self.cache[match_id] = m
        self.cache.move_to_end(match_id)
        while len(self.cache) > self.cache_size:
            self.cache.popitem(last=False)
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
        )
        m.start()
        return m

    def close(self) -> None:
        """Closes the inline SQLite engine's connections (the async engine is the caller's)."""
        if self.inline is not None:
            self.inline.dispose()

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
            raise Problem(403, "wrong_token", "this token opens no seat of this match")
        return seat

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

    async def create(self, spec: schemas.NewMatch) -> schemas.MatchCreated:
        game = engine.load_game(spec.game, spec.options)
        if len(spec.seats) != game.num_players():
            raise Problem(
                422,
                "wrong_seat_count",
                f"{game.name} with these options has {game.num_players()} seats;"
                f" {len(spec.seats)} were given",
            )
        if spec.rules.playing_time_s > 0 and game.name != "dog":
            raise Problem(422, "invalid_rules", "a playing time (D13) belongs to Dog only")
        seats: list[dict[str, Any]] = []
        for seat_spec in spec.seats:
            if isinstance(seat_spec, schemas.BotSeat):
                bots.check(seat_spec.bot, game, seat_spec.params)
                seats.append({"kind": "bot", "bot": seat_spec.bot, "params": seat_spec.params})
            else:
                seats.append({"kind": "person"})
        tokens = [secrets.token_urlsafe(24) if s["kind"] == "person" else None for s in seats]
        seed = spec.seed if spec.seed is not None else secrets.randbits(63)
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
                )
            )
            await session.flush()
            session.add_all(PresenceRow(match_id=match_id, seat=p, last_seen=now) for p in m.persons())
        self.cache[match_id] = m
        if m.persons() or not any(bots.searches(game.name, s["bot"]) for s in seats if s["kind"] == "bot"):
            await self.advance_bots(m)
        else:
            # Bots only: they play on in the background (a search bot's game may take
            # minutes); the sweeper picks the match up if this worker stops.
            task = asyncio.create_task(self._bots_alone(match_id))
            self.background.add(task)
            task.add_done_callback(self.background.discard)
        return schemas.MatchCreated(
            id=match_id,
            version=m.version,
            seats=[
                schemas.SeatOut(seat=s, kind=kind["kind"], bot=kind.get("bot"), token=tokens[s])
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
        stale = Problem(409, "stale_version", "the match moved on meanwhile; fetch it and try again")
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
        for version in range(first, m.version + 1):
            await self.publish(m.id, {"kind": "version", "version": version})

    async def play(self, match_id: str, seat: int, version: int, move: dict[str, Any]) -> Match:
        async with self.lock(match_id):
            # Optimistic: a move made against the version this worker holds goes straight to
            # the conditional UPDATE, which refuses it if any worker stored a ply meanwhile;
            # only then is the match read again. That saves a read on every move.
            m = self.cache.get(match_id)
            if m is None or m.version != version or m.status != "running":
                m = await self.get(match_id)
            self._running(m)
            self._at_version(m, version)
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
            return m

    @staticmethod
    def _at_version(m: Match, version: int) -> None:
        if version != m.version:
            raise Problem(
                409,
                "stale_version",
                f"the move was made against version {version}; the match is at version {m.version}",
                version=m.version,
            )

    async def resign(self, match_id: str, seat: int) -> Match:
        async with self.lock(match_id):
            m = await self.get(match_id)
            self._running(m)
            await self._commit(m, [Ply("resigned", seat, None, self.clock.now())])
            return m

    async def advance_bots(self, m: Match) -> None:
        """Bot seats move as soon as they may, each from its own seat's view.

        Random bots' moves up to the next person's turn are stored in one transaction (a
        match of random bots only is played out at once); a searching bot's move is stored
        by itself, so every seat's events show it before the next search starts.
        """
        while m.status == "running":
            trial = m.fork()
            plies: list[Ply] = []
            while trial.status == "running":
                bot_seats = [s for s in trial.to_move() if trial.seats[s]["kind"] == "bot"]
                if not bot_seats:
                    break
                seat = bot_seats[0]
                spec = trial.seats[seat]
                action = await bots.decide(
                    spec["bot"], spec.get("params", {}), trial.state, seat, trial.seed, trial.version + 1
                )
                ply = Ply("move", seat, action, self.clock.now())
                trial.replay(ply)
                plies.append(ply)
                if bots.searches(trial.game.name, spec["bot"]):
                    break
            if not plies:
                return
            try:
                await self._commit(m, plies)
            except Problem:
                # Another worker stored a ply first (a move, a resignation, a match rule, or
                # its own bots): whoever stored it moves the bots on from there. The person's
                # move before these stands, so their answer is not an error: it shows the
                # match as stored.
                await self.get(m.id)
                return

    async def _bots_alone(self, match_id: str) -> None:
        try:
            async with self.lock(match_id):
                await self.advance_bots(await self.get(match_id))
        except Exception:  # logged, and the sweeper retries
            log.exception("bots of match %s stopped", match_id)

    async def resume_bots(self) -> int:
        """On start: bots whose turn came while no server ran (it stopped between a
        person's move and the bot's answer) move now. Returns how many matches moved."""
        async with self.sessions() as session:
            running = (
                await session.execute(select(MatchRow.id, MatchRow.seats).where(MatchRow.status == "running"))
            ).all()
        resumed = 0
        for match_id, seats in running:
            if not any(s["kind"] == "bot" for s in seats):
                continue
            async with self.lock(match_id):
                m = await self.get(match_id)
                version = m.version
                await self.advance_bots(m)
                resumed += m.version > version
        return resumed

    def _running(self, m: Match) -> None:
        if m.status != "running":
            raise Problem(409, "match_over", f"the match is {m.status}; no more moves")

    async def chat(self, match_id: str, seat: int, text: str, lang: str) -> schemas.ChatOut:
        m = await self.get(match_id)
        if m.game.name != "the_game":
            raise Problem(422, "no_table_talk", "table talk belongs to The Game (T7)")
        self._running(m)
        refused = check_talk(text)
        if refused is not None:
            reason = engine_fields(refused, lang)["reason"]
            raise Problem(422, refused.code, f"{refused.rule}: {reason}", rule=refused.rule)
        now = self.clock.now()
        async with self.writing() as session:
            session.add(ChatRow(match_id=match_id, seat=seat, text=text, at=now))
        msg = schemas.ChatOut(seat=seat, text=text, at=now)
        await self.publish(match_id, {"kind": "chat", "seat": seat, "text": text, "at": now})
        return msg

    async def chat_log(self, match_id: str) -> list[schemas.ChatOut]:
        async with self.sessions() as session:
            rows = (
                await session.execute(
                    select(ChatRow).where(ChatRow.match_id == match_id).order_by(ChatRow.id)
                )
            ).scalars()
            return [schemas.ChatOut(seat=r.seat, text=r.text, at=r.at) for r in rows]

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
                            PresenceRow.last_seen + MatchRow.leave_s <= now,
                        ),
                    )
                )
            ).all()
        left = {r.match_id for r in gone}
        ended = 0
        for match_id in sorted(due | left):
            async with self.lock(match_id):
                m = await self.get(match_id)
                if m.status != "running":
                    continue
                ending = await self._expired(m, now)
                if ending is None:
                    continue
                kind, seat = ending
                if kind == "bot":
                    await self.advance_bots(m)
                    continue
                try:
                    await self._commit(m, [Ply(kind, seat, None, now)])
                    ended += 1
                except Problem:
                    continue  # another worker ended it or a move came first
        return ended

    async def _expired(self, m: Match, now: float) -> tuple[str, int | None] | None:
        due = [(t, kind, seat) for t, kind, seat in m.due() if t <= now]
        if m.rules["leave_s"] > 0:
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

    def replay(self, m: Match) -> schemas.Replay:
        if m.status == "running":
            raise Problem(409, "match_running", "the replay shows every hidden card: it opens after the end")
        state = m.game.new_initial_state(m.seed)
        initial = state.serialize()
        actions = []
        for i, p in enumerate(m.plies, start=1):
            if p.kind == "move":
                assert p.action is not None
                text = state.action_to_string(p.action)
                move = state.action_to_json(p.action)
                state.apply_action(p.action, p.seat)
                actions.append(schemas.ReplayAction(i, p.seat, p.kind, p.action, move, text, p.at))
            else:
                text = m.result["text"] if m.result else p.kind
                actions.append(schemas.ReplayAction(i, p.seat, p.kind, None, None, text, p.at))
        result = schemas.MatchResult(**m.result) if m.result else None
        return schemas.Replay(
            id=m.id,
            game=m.game.name,
            options=m.game.options(),
            seed=m.seed,
            initial_state=initial,
            final_state=state.serialize(),
            actions=actions,
            result=result,
        )


def event_data(kind: str, payload: dict[str, Any]) -> str:
    return json.dumps({"kind": kind, **payload}, separators=(",", ":"))
