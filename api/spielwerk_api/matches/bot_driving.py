"""Bot driving: each match's bots move on from the worker that stored the last ply, rule-based
bots in small chunks on the event loop, searches in the pool without the match's lock; what
a match of search bots alone may cost, and resuming after a restart."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from sqlalchemy import func, select

from .. import bots
from ..db import MatchRow
from ..problems import Problem
from .held import HeldMatches
from .limits import FAST_PLIES, FAST_S, Window
from .match import Match, Ply

log = logging.getLogger("spielwerk_api")


class BotDriver:
    """The bots of a worker's matches, and the search pool they share."""

    def __init__(self, service: HeldMatches) -> None:
        self.service = service
        limits = service.limits
        self.pool = bots.SearchPool(limits.search_threads, limits.search_waiting)
        # The task that moves each match's bots on from this worker, one per match.
        self.drivers: dict[str, asyncio.Task[None]] = {}
        # Seconds of search each match spent on this worker, and the running matches of
        # bots alone each client started here.
        self.spent: dict[str, float] = {}
        self.clients: dict[str, set[str]] = {}
        # The matches of bots alone (any kind) each client created here in the last hour.
        self.created = Window(limits.bot_matches_per_client_per_hour, 3600.0)

    async def advance(self, m: Match) -> None:
        """Bot seats move as soon as they may, each from its own seat's view, up to a
        person's turn or the end; the caller waits for them, holding no lock meanwhile.

        Rule-based bots' plies are stored in small chunks, a searching bot's ply by itself
        as soon as it is found, so every seat's events show it before the next search
        starts. A search runs in the pool without the match's lock, on a copy of the
        state; its ply is stored only if the match still has the version it began from.
        """
        if not m.bots_to_move() and m.id not in self.drivers:
            # No bot's turn (a person's, or the end) and none deciding: nothing to drive,
            # and no read of the match under its lock on every person's move.
            return
        await asyncio.shield(self.drive(m.id))

    def drive(self, match_id: str, client: str | None = None) -> asyncio.Task[None]:
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
            m = self.service.cache.get(match_id)
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

    def bot_for(self, m: Match, seat: int) -> tuple[str, dict[str, Any]]:
        """The bot that decides for ``seat`` now, with its parameters bounded in time. A
        match that spent its search time on this worker (``match_search_s``) goes on with
        the game's rule-based ``heuristic`` bot."""
        spec = m.seats[seat]
        name, params = spec["bot"], spec.get("params", {})
        if not bots.searches(m.game.name, name):
            return name, params
        if self.spent.get(m.id, 0.0) >= self.service.limits.match_search_s:
            return "heuristic", {}
        return name, bots.bounded(name, m.game, params, self.service.limits.search_time_ms)

    async def _bot_ply(self, match_id: str) -> bool:
        """Stores the next bot plies of the match; False once no bot is to move."""
        async with self.service.lock(match_id):
            m = await self.service.get(match_id)
            if await self.service.settle(m):
                return True
            seats = m.bots_to_move()
            if not seats:
                return False
            seat = seats[0]
            name, params = self.bot_for(m, seat)
            if not bots.searches(m.game.name, name):
                try:
                    await self.service.commit(m, self._rule_based_plies(m))
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
        if len(self.spent) > 4 * self.service.cache_size:
            self.spent = {k: v for k, v in self.spent.items() if k in self.drivers}
        async with self.service.lock(match_id):
            m = await self.service.get(match_id)
            if m.version != version:
                return await self._moved_on_here(m)
            if await self.service.settle(m):
                return True
            try:
                ply = Ply("move", seat, action, self.service.clock.now(), thought=took)
                await self.service.commit(m, m.after([ply]))
            except Problem as stale:
                if stale.code != "stale_version":
                    raise
                return await self._moved_on_here(m)
        return True

    async def _moved_on_here(self, m: Match) -> bool:
        """The match moved on while its bot decided. If this worker stored the new version
        (a person's move, a rule), the bots decide again from there; if another worker did,
        that one moves them on (two would search twice)."""
        m = await self.service.get(m.id)
        return m.stored_here == m.version

    def _rule_based_plies(self, m: Match) -> Match:
        """A fork of ``m`` with the plies of rule-based bots from here, up to a search bot,
        a person or the end, at most a small chunk (``FAST_PLIES``, ``FAST_S``): each ply
        applied once, and stored as the fork made it."""
        trial = m.fork()
        made = 0
        stop = time.perf_counter() + FAST_S
        while trial.status == "running" and made < FAST_PLIES:
            seats = trial.bots_to_move()
            if not seats:
                break
            seat = seats[0]
            name, params = self.bot_for(trial, seat)
            if bots.searches(trial.game.name, name):
                break
            bot = bots.make(name, params, trial.state, seat, trial.seed, trial.version + 1)
            ply = Ply("move", seat, bot.step(trial.state, seat), self.service.clock.now())
            trial.replay(ply)
            made += 1
            if time.perf_counter() > stop:
                break
        return trial

    def admit_bots_alone_created(self, client: str | None) -> None:
        """Every match of bots alone costs its playing and is stored a day: a client creates
        at most ``bot_matches_per_client_per_hour`` of them on a worker (429)."""
        most = self.service.limits.bot_matches_per_client_per_hour
        if self.created.most != most:
            self.created = Window(most, 3600.0)
        wait = self.created.admit(client or "")
        if wait is not None:
            raise Problem(
                429,
                "too_many_bot_matches",
                f"a client creates at most {most} matches of bots alone an hour; try again in {wait} s"
                " (simulations run faster in the Python package: spielwerk.simulate)",
                headers={"Retry-After": str(wait)},
                de=f"ein Client legt höchstens {most} Partien nur zwischen Bots pro Stunde an; versuche es"
                f" in {wait} s wieder (Simulationen laufen im Python-Paket schneller: spielwerk.simulate)",
            )

    async def admit_bots_alone(self, client: str | None) -> None:
        """A match of search bots alone costs minutes of search: so many run at once."""
        limits = self.service.limits
        mine = len(self.clients.get(client, ())) if client is not None else 0
        if mine >= limits.bot_matches_per_client:
            raise Problem(
                429,
                "too_many_bot_matches",
                f"at most {limits.bot_matches_per_client} matches of search bots alone per client"
                " run at once; wait for one to end",
                headers={"Retry-After": "30"},
                de=f"je Client laufen höchstens {limits.bot_matches_per_client} Partien nur zwischen"
                " Such-Bots zugleich; warte, bis eine endet",
            )
        async with self.service.store.sessions() as session:
            running = (
                await session.execute(
                    select(func.count())
                    .select_from(MatchRow)
                    .where(MatchRow.status == "running", MatchRow.bots_only.is_(True))
                )
            ).scalar_one()
        if running >= limits.bot_matches:
            raise Problem(
                429,
                "too_many_bot_matches",
                f"this server runs at most {limits.bot_matches} matches of search bots alone at once",
                headers={"Retry-After": "30"},
                de=f"dieser Server führt höchstens {limits.bot_matches} Partien nur zwischen Such-Bots"
                " zugleich",
            )

    async def resume(self) -> int:
        """On start (in the background, ``open``): bots whose turn came while no server ran
        (it stopped between a person's move and the bot's answer, or amid a match of bots
        alone) move again. Matches with a person are moved on to the person's turn before
        the next; matches of bots alone play on in the background. Returns how many
        matches moved (or, of bots alone, started again)."""
        async with self.service.store.sessions() as session:
            running = (
                await session.execute(select(MatchRow.id, MatchRow.seats).where(MatchRow.status == "running"))
            ).all()
        resumed = 0
        for match_id, seats in running:
            if not any(s["kind"] == "bot" for s in seats):
                continue
            if all(s["kind"] == "bot" for s in seats):
                self.drive(match_id)
                resumed += 1
                continue
            version = (await self.service.get(match_id)).version
            await asyncio.shield(self.drive(match_id))
            resumed += (await self.service.get(match_id)).version > version
        return resumed
