"""The lifecycle of a worker: its signs of life, the server's outages (time that runs on
nobody's clock), resuming on start, and the sweep that enforces the match rules without any
request (C11, D13) and the retention of matches of bots alone."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from sqlalchemy import and_, case, delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ..db import ChatRow, MatchRow, OutageRow, PlyRow, PresenceRow, WorkerRow
from ..problems import Problem
from .bot_driving import BotDriver
from .held import HeldMatches
from .match import PRECEDENCE, Match, Ply

log = logging.getLogger("spielwerk_api")


class Lifecycle:
    """What a worker does on its own: start, heartbeat, sweep."""

    def __init__(self, service: HeldMatches, bots: BotDriver) -> None:
        self.service = service
        self.bots = bots
        self.worker_id = secrets.token_hex(12)
        # The server's outages (every worker silent), in order (``open``).
        self.outages: list[tuple[float, float]] = []
        self.background: set[asyncio.Task[Any]] = set()

    async def open(self) -> None:
        """On start: if every worker was silent for longer than ``outage_after_s``, that
        silence was an outage, and it runs on nobody's time: it is recorded (matches replay
        their clocks around it), and the stored presence and deadlines move past it. Then
        this worker says it is alive, and bots whose turn came meanwhile move, in the
        background (the worker serves at once)."""
        now = self.service.clock.now()
        async with self.service.store.sessions() as session:
            last = (await session.execute(select(func.max(WorkerRow.alive_at)))).scalar()
        if last is not None and now - last > self.service.limits.outage_after_s:
            await self._record_outage(last, now)
        async with self.service.store.sessions() as session:
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
            async with self.service.store.writing() as session:
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
        now = self.service.clock.now()
        async with self.service.store.writing() as session:
            await session.merge(WorkerRow(id=self.worker_id, alive_at=now))
            # Workers long gone: only the latest sign of life counts.
            await session.execute(delete(WorkerRow).where(WorkerRow.alive_at < now - 86_400))
        async with self.service.store.sessions() as session:
            outages = (await session.execute(select(func.count()).select_from(OutageRow))).scalar_one()
        if outages != len(self.outages):
            # Another worker, starting while this one was silent too long (a stalled loop),
            # recorded an outage: the cached matches replay their clocks around it.
            async with self.service.store.sessions() as session:
                rows = (await session.execute(select(OutageRow.began, OutageRow.ended))).all()
            self.outages = sorted((r.began, r.ended) for r in rows)
            self.service.cache.clear()

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.service.limits.heartbeat_s)
            try:
                await self.beat()
            except Exception:  # a lost connection: the next beat tries again
                log.exception("saying this worker is alive failed")

    async def _resume_quietly(self) -> None:
        try:
            await self.bots.resume()
        except Exception:  # logged; the sweep picks the bots up
            log.exception("resuming the bots failed")

    # -- the match rules, enforced without any request ----------------------------------

    async def sweep(self) -> int:
        """End every running match a rule has ended by now; returns how many."""
        now = self.service.clock.now()
        async with self.service.store.sessions() as session:
            due = set(
                (
                    await session.execute(
                        select(MatchRow.id).where(MatchRow.status == "running", MatchRow.deadline <= now)
                    )
                ).scalars()
            )
            # The leave rule's seats, prefiltered in SQL over every running match at once:
            # the same moment as Seats.leaving (last seen + leave_s), which decides per match
            # below (read fresh) and which the page counts down; change them together.
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
            lock = self.service.lock(match_id)
            if lock.locked():
                # Busy with a request or a bot's ply this moment: the next round looks again
                # (and every request decides the time itself, C11).
                continue
            async with lock:
                m = await self.service.get(match_id)
                if m.status != "running":
                    continue
                ending = await self._expired(m, now)
                if ending is None:
                    continue
                kind, seat = ending
                if kind == "bot":
                    self.bots.drive(match_id)  # in the background: the sweep waits for no search
                    continue
                try:
                    await self.service.commit(m, m.after([Ply(kind, seat, None, now)]))
                    ended += 1
                except Problem:
                    continue  # another worker ended it or a move came first
        await self.forget_bot_matches(now)
        return ended

    async def forget_bot_matches(self, now: float) -> int:
        """The retention rule: a match of bots alone is deleted ``bot_match_retention_s``
        after it was created, running or not (nobody's result hangs on it), a bounded batch
        per sweep. Returns how many were deleted."""
        keep = self.service.limits.bot_match_retention_s
        if keep <= 0:
            return 0
        async with self.service.store.sessions() as session:
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
        async with self.service.store.writing() as session:
            for table in (PlyRow, PresenceRow, ChatRow):
                await session.execute(delete(table).where(table.match_id.in_(old)))
            await session.execute(delete(MatchRow).where(MatchRow.id.in_(old)))
        for match_id in old:
            self.service.cache.pop(match_id, None)
            driver = self.bots.drivers.get(match_id)
            if driver is not None:
                driver.cancel()
        return len(old)

    async def _expired(self, m: Match, now: float) -> tuple[str, int | None] | None:
        leaving = await self.service.seats.leaving(m, now, fresh=True)
        due = [(t, kind, seat) for t, kind, seat in [*m.due(), *leaving] if t <= now]
        if not due:
            return None
        _, kind, seat = min(due, key=lambda d: (d[0], PRECEDENCE[d[1]]))
        return kind, seat

    # -- after the end ------------------------------------------------------------------
