"""The match service: every route and the sweeper go through it.

The database holds the truth (``db.py``, ``store.py``); each worker keeps the replayed
state of the matches it serves (``match.py``) and catches up with the plies other workers
stored before every answer. A write is made on a fork of the match, then stored only where
the match still has the version the client saw: the answer comes after the commit, and
nothing changes on an error. Seats, table talk, the bots and the worker's own lifecycle are
rooms of their own (``seats.py``, ``chat.py``, ``bot_driving.py``, ``lifecycle.py``).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import OrderedDict
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from .. import bots, engine, schemas
from ..clock import Clock
from ..db import MatchPlayerRow, MatchRow, PresenceRow, SeatJoinRow
from ..problems import Problem
from .bot_driving import BotDriver
from .chat import Chat
from .lifecycle import Lifecycle
from .limits import Limits
from .lobby import read_lobby
from .match import Match, Ply, replay_of, require_begun, require_running, require_version
from .players import Player, Players, checked_name
from .ratings import Ratings
from .seats import Seats, hash_token
from .store import Publish, Store

log = logging.getLogger("spielwerk_api")
# How often a worker rates the ended matches nobody rated and forgets expired sessions.
UPKEEP_S = 60.0


class Matches:
    """The match service: the matches a worker serves, and the rooms that serve them."""

    def __init__(
        self,
        db: AsyncEngine,
        clock: Clock,
        publish: Publish,
        cache_size: int | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.clock = clock
        self.publish = publish
        self.limits = limits or Limits()
        self.store = Store(db)
        self.cache: OrderedDict[str, Match] = OrderedDict()
        self.cache_size = cache_size if cache_size is not None else self.limits.cache_matches
        self.locks: dict[str, asyncio.Lock] = {}
        self.seats = Seats(self.store, clock)
        self.talk = Chat(self.store, clock, self.limits, publish)
        self.players = Players(self.store, clock, self.limits)
        self.ratings = Ratings(self.store, clock)
        self.upkept_at = 0.0
        self.bots = BotDriver(self)
        self.life = Lifecycle(self, self.bots)

    @property
    def pool(self) -> bots.SearchPool:
        """The searches' threads, shared with the stateless bot routes."""
        return self.bots.pool

    # -- loading --------------------------------------------------------------------

    async def get(self, match_id: str) -> Match:
        """The match as stored now: from this worker's cache, caught up with new plies."""
        cached = self.cache.get(match_id)
        known = cached.version if cached is not None else None
        record, plies = await self.store.read_match(match_id, known)
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
            await self.seats.taken(m)  # (and who took a seat by its invitation)
            # Requests reading it at once share one match: the first one built is kept.
            m = self.cache.get(match_id) or m
            self._keep(m)
        elif m.status == "running" and m.free_seats():
            # Seats taken meanwhile (on any worker), read after the plies: every join
            # stored before a ply read here is seen, so the match began before its first ply.
            await self.seats.taken(m)
        # Several requests may catch up the same cached match at once (every event stream
        # wakes on the same note): a ply another one replayed meanwhile is done.
        m.replay_all([Ply(p.kind, p.seat, p.action, p.at, p.thought_s) for p in plies if p.ply > m.version])
        self._keep(m)
        return m

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
                await self.settle(m)
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
            pauses=[p for p in self.life.outages if p[1] > r.created_at],
            names=list(r.names or []),
        )
        m.start()
        return m

    def lock(self, match_id: str) -> asyncio.Lock:
        if len(self.locks) > 4 * self.cache_size:
            self.locks = {k: v for k, v in self.locks.items() if v.locked()}
        return self.locks.setdefault(match_id, asyncio.Lock())

    def close(self) -> None:
        """Stops this worker's bots and searches and closes the inline SQLite engine's
        connections (the async engine is the caller's)."""
        for task in list(self.bots.drivers.values()) + list(self.life.background):
            task.cancel()
        self.bots.pool.close()
        if self.store.inline is not None:
            self.store.inline.dispose()

    # -- seats ----------------------------------------------------------------------

    async def join(
        self, match_id: str, seat: int, player: Player | None = None, name: str | None = None
    ) -> str:
        """Takes the open seat ``seat`` of the match: its new token. First come first served:
        the primary key of ``seat_joins`` lets exactly one of two joins at once win, on any
        number of workers; the other gets 409. The seat belongs to ``player`` (logged in),
        else shows the guest's ``name``."""
        shown = player.name if player is not None else (checked_name(name) if name is not None else None)
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
        require_running(m)
        token = secrets.token_urlsafe(24)
        now = self.clock.now()
        try:
            async with self.store.writing() as session:
                session.add(
                    SeatJoinRow(
                        match_id=match_id,
                        seat=seat,
                        token_hash=hash_token(token),
                        at=now,
                        name=shown,
                        player_id=player.id if player is not None else None,
                    )
                )
                await session.flush()
                if player is not None:
                    session.add(MatchPlayerRow(match_id=match_id, seat=seat, player_id=player.id))
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
                await self.seats.taken(m)
                raise taken from None
            raise
        if shown is not None:
            m.named(seat, shown, player=player is not None)
        # Every page of the match learns at once that a seat was taken (its stream sends
        # the view anew): the match may have begun, and its clocks with it.
        await self.publish(match_id, {"kind": "seats", "open_seats": len(m.free_seats())})
        if not m.waiting():
            await self.advance_bots(m)  # bots to move first move now
        return token

    async def claim(self, m: Match, seat: int, player: Player) -> None:
        """The seat whose invitation a logged-in player opened belongs to that player (once:
        a seat already named keeps its name; not after it played). Its creator knew its token,
        so such a match is never rated (``ratings.py``); the other pages learn the name with
        the next version."""
        if seat < len(m.names) and m.names[seat] is not None:
            return
        token_hash = m.token_hashes[seat]
        if token_hash is None or m.seats[seat].get("open") or m.status != "running" or seat in m.moved:
            return  # (a seat that has played, or a match over, is no longer claimed)
        try:
            async with self.store.writing() as session:
                session.add(
                    SeatJoinRow(
                        match_id=m.id,
                        seat=seat,
                        token_hash=token_hash,
                        at=self.clock.now(),
                        name=player.name,
                        player_id=player.id,
                    )
                )
                session.add(MatchPlayerRow(match_id=m.id, seat=seat, player_id=player.id))
        except IntegrityError:
            await self.seats.taken(m)  # claimed meanwhile: its name as stored
            return
        m.named(seat, player.name, player=True)

    # -- creating -------------------------------------------------------------------

    async def create(
        self, spec: schemas.NewMatch, client: str | None = None, player: Player | None = None
    ) -> schemas.MatchCreated:
        """A new match; ``client`` (its address) counts the matches of search bots alone
        each client runs at once on this worker. The seat marked ``me`` belongs to ``player``
        (logged in); a person seat may show a guest's ``name``."""
        game = engine.load_game(spec.game, spec.options)
        if len(spec.seats) != game.num_players():
            raise Problem(
                422,
                "wrong_seat_count",
                f"{game.name} with these options has {game.num_players()} seats;"
                f" {len(spec.seats)} were given",
                de=f"{game.name} hat mit diesen Optionen {game.num_players()} Plätze;"
                f" angegeben wurden {len(spec.seats)}",
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
        names = self._names(spec, player)
        tokens = [
            secrets.token_urlsafe(24) if s["kind"] == "person" and not s.get("open") else None for s in seats
        ]
        open_seats = sum(1 for s in seats if s.get("open"))
        bots_only = all(s["kind"] == "bot" for s in seats)
        searching = bots_only and any(bots.searches(game.name, s["bot"]) for s in seats)
        if bots_only:
            self.bots.admit_bots_alone_created(client)
        if searching:
            await self.bots.admit_bots_alone(client)
        creator = hash_token(client or "") if open_seats else None
        if creator is not None:
            await self._admit_open_match(creator)
        if spec.seed is not None and open_seats:
            # Whoever chose the deal knows the hand of whoever takes the seat: the server deals.
            raise Problem(
                422,
                "seed_with_open_seats",
                "a match with seats open to the lobby is dealt by the server: leave out 'seed'",
                de="eine Partie mit offenen Plätzen für die Lobby teilt der Server aus: lass 'seed' weg",
            )
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
            # A deal its creator chose: the match is not ranked (who chose it knows it).
            "seed_chosen": spec.seed is not None,
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
            names=names,
        )
        m.start()
        async with self.store.writing() as session:
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
                    creator=creator,
                    names=names,
                    # Rated once it ends, if every person seat then belongs to a player.
                    rating_due=m.ranked() and bool(m.persons()),
                )
            )
            await session.flush()
            if player is not None:
                session.add_all(
                    MatchPlayerRow(match_id=match_id, seat=s, player_id=player.id)
                    for s, spec_seat in enumerate(spec.seats)
                    if isinstance(spec_seat, schemas.PersonSeat) and spec_seat.me
                )
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
            self.bots.drive(match_id, client)
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

    @staticmethod
    def _names(spec: schemas.NewMatch, player: Player | None) -> list[dict[str, Any] | None]:
        """The name each seat shows from the start: the creator's own seat (``me``) the
        player's name or the guest's, another person seat a name the creator gave it."""
        mine = [s for s, seat in enumerate(spec.seats) if isinstance(seat, schemas.PersonSeat) and seat.me]
        if len(mine) > 1:
            raise Problem(
                422,
                "two_seats_mine",
                f"only one seat can be yours ('me'); seats {', '.join(map(str, mine))} say so",
                de=f"nur ein Platz kann deiner sein ('me'); die Plätze {', '.join(map(str, mine))} sagen es",
            )
        if any(isinstance(seat, schemas.PersonSeat) and seat.me and seat.open for seat in spec.seats):
            raise Problem(
                422,
                "two_seats_mine",
                "a seat open to the lobby is whoever takes it, not yours ('me' with 'open')",
                de="ein Platz, der für die Lobby offen ist, gehört dem, der ihn nimmt,"
                " nicht dir ('me' mit 'open')",
            )
        names: list[dict[str, Any] | None] = []
        for seat in spec.seats:
            if not isinstance(seat, schemas.PersonSeat) or seat.open:
                names.append(None)
            elif seat.me and player is not None:
                names.append({"name": player.name, "player": True})
            elif seat.name is not None:
                names.append({"name": checked_name(seat.name), "player": False})
            else:
                names.append(None)
        return names

    async def _admit_open_match(self, creator: str) -> None:
        """A client has at most ``open_matches_per_client`` matches waiting in the lobby."""
        most = self.limits.open_matches_per_client
        waiting = (
            select(func.count())
            .select_from(MatchRow)
            .where(MatchRow.creator == creator, MatchRow.open_seats > 0, MatchRow.status == "running")
        )
        async with self.store.sessions() as session:
            mine = (await session.execute(waiting)).scalar_one()
        if mine >= most:
            raise Problem(
                429,
                "too_many_open_matches",
                f"a client has at most {most} matches waiting in the lobby at once;"
                " wait until one begins or ends",
                headers={"Retry-After": "60"},
                de=f"ein Client hat höchstens {most} Partien zugleich in der Lobby warten;"
                " warte, bis eine beginnt oder endet",
            )

    # -- writing --------------------------------------------------------------------

    async def commit(self, m: Match, probe: Match) -> None:
        """Stores what ``probe`` (a fork of ``m``: ``m.after(plies)``) made where the match
        still has version ``m.version`` (else 409 ``stale_version``), then takes it over and
        tells every stream."""
        await self.store.commit(m, probe)
        first = m.version + 1
        m.adopt(probe)
        m.stored_here = m.version
        for version in range(first, m.version + 1):
            await self.publish(m.id, {"kind": "version", "version": version})
        if m.status != "running":
            await self.rate(m)

    async def rate(self, m: Match) -> None:
        """Rates an ended match (``ratings.py``); a failure leaves it due for the sweep and
        never fails the move that ended it."""
        if not (m.ranked() and m.persons()):
            return  # (never due: no write for a match of bots alone)
        try:
            await self.ratings.rate(m)
        except Exception:
            log.exception("rating match %s failed; the sweep tries again", m.id)

    async def play(self, match_id: str, seat: int, version: int, move: bytes | dict[str, Any]) -> Match:
        """Makes ``seat``'s ``move`` (JSON-like, or the JSON text a client sent) against
        ``version``; the match as it stands after the bots that move next."""
        async with self.lock(match_id):
            # Optimistic: a move made against the version this worker holds goes straight to
            # the conditional UPDATE, which refuses it if any worker stored a ply meanwhile;
            # only then is the match read again. That saves a read on every move.
            m = self.cache.get(match_id)
            if m is None or m.version != version or m.status != "running" or m.waiting():
                m = await self.get(match_id)
            if await self.settle(m):  # C11: the time is decided first
                m = await self.get(match_id)
            require_running(m)
            require_version(m, version)
            require_begun(m)
            action = m.state.action_from_json(move)
            # Applied once, on a fork: the engine's reason if illegal (nothing changes), and
            # what is stored is what the fork made.
            probe = m.after([Ply("move", seat, action, self.clock.now())])
            try:
                await self.commit(m, probe)
            except Problem as stale:
                if stale.code != "stale_version":
                    raise
                m = await self.get(match_id)
                require_running(m)
                require_version(m, version)
                raise
        await self.advance_bots(m)
        return self.cache.get(match_id) or m

    async def resign(self, match_id: str, seat: int) -> Match:
        async with self.lock(match_id):
            m = await self.get(match_id)
            if await self.settle(m):
                m = await self.get(match_id)
            require_running(m)
            # A match still waiting for a person has not begun: nobody can lose it, and the
            # engine has no ending for a withdrawn one (its C11 abort names a missed first
            # move), so resigning is refused as moves are; it ends at Limits.open_match_s.
            require_begun(m)
            await self.commit(m, m.after([Ply("resigned", seat, None, self.clock.now())]))
            return m

    async def settle(self, m: Match) -> bool:
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
            await self.commit(m, m.after([Ply(kind, seat, None, now)]))
        except Problem as stale:
            if stale.code != "stale_version":
                raise
        return True

    # -- bots -----------------------------------------------------------------------

    async def advance_bots(self, m: Match) -> None:
        """The match's bots move on now (``BotDriver.advance``); the caller waits for them."""
        await self.bots.advance(m)

    # -- what the routes and the app ask of the rooms -----------------------------------

    async def lobby(self, limit: int, offset: int, lang: str = "en") -> schemas.Lobby:
        return await read_lobby(self.store, limit, offset, lang)

    async def chat(self, match_id: str, seat: int, text: str, lang: str) -> schemas.ChatOut:
        return await self.talk.say(await self.current(match_id), seat, text, lang)

    def replay(self, m: Match, lang: str = "en") -> schemas.Replay:
        return replay_of(m, lang)

    async def open(self) -> None:
        await self.life.open()

    async def sweep(self) -> int:
        ended = await self.life.sweep()
        now = time.monotonic()
        if now - self.upkept_at >= UPKEEP_S:
            self.upkept_at = now
            # Ended matches whose worker stopped before it rated them, and sessions past
            # their time.
            for match_id in await self.ratings.due():
                try:
                    await self.rate(await self.get(match_id))
                except Exception:  # one match that cannot be read holds up no other
                    log.exception("rating match %s in the sweep failed", match_id)
            try:
                await self.players.forget_sessions()
            except Exception:
                log.exception("forgetting expired sessions failed")
        return ended

    async def resume_bots(self) -> int:
        return await self.bots.resume()
