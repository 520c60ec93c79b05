"""The store of matches: the hot path's statements, reads and writes on a worker's
connections, and the conditional commit that stores a fork's plies only where the match
still has the version they were made against (a row each while the match runs; packed into
its record by the commit that ends it, ``packed.py``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from sqlalchemy import bindparam, delete, insert, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from ..db import Base, inline_sqlite
from ..problems import Problem
from .match import Match
from .packed import pack, unpack

T = TypeVar("T")
# Tells the streams of every worker what happened at a match (``app.py`` wires it).
Publish = Callable[[str, dict[str, Any]], Awaitable[None]]

MATCHES = Base.metadata.tables["matches"]
PLIES = Base.metadata.tables["plies"]
# The hot path's statements, built once (building one costs as much as running it on SQLite).
READ_RECORD = select(MATCHES).where(MATCHES.c.id == bindparam("match_id"))
READ_VERSION = select(MATCHES.c.version).where(MATCHES.c.id == bindparam("match_id"))
READ_PACKED = select(MATCHES.c.plies_packed).where(MATCHES.c.id == bindparam("match_id"))
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
# The commit that ends a match: its plies packed into its record, their rows gone.
STORE_PACKED = (
    update(MATCHES).where(MATCHES.c.id == bindparam("match_id")).values(plies_packed=bindparam("packed"))
)
DELETE_PLIES = delete(PLIES).where(PLIES.c.match_id == bindparam("match_id"))


def read_match(conn: Connection, match_id: str, known: int | None) -> tuple[Any, list[Any]]:
    """The match's record (``None`` if there is none; only its version when ``known``, the
    version a worker holds, says it has the rest) and its plies after ``known``: rows, or,
    once it has ended, its packed plies."""
    record = conn.execute(READ_RECORD if known is None else READ_VERSION, {"match_id": match_id}).first()
    after = known or 0
    if record is None or record.version <= after:
        return record, []
    plies = list(conn.execute(READ_PLIES, {"match_id": match_id, "after": after}).all())
    if plies and plies[-1].ply >= record.version:
        return record, plies
    # Rows short of the version read: the match has ended and its plies were packed (by
    # then, or between the two reads: the commit that packs them deletes their rows).
    packed = record.plies_packed if known is None else None
    if packed is None:
        packed = conn.execute(READ_PACKED, {"match_id": match_id}).scalar()
    if packed is None:
        return record, plies
    return record, [p for p in unpack(packed) if p.ply > after]


class Store:
    """A worker's way to the database: sessions for the ORM's reads and writes, and the
    hot path's core statements run inline on SQLite (``db.inline_sqlite``)."""

    def __init__(self, db: AsyncEngine) -> None:
        self.engine = db
        self.inline = inline_sqlite(db)
        self.sessions = async_sessionmaker(db, expire_on_commit=False)
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

    async def read_match(self, match_id: str, known: int | None) -> tuple[Any, list[Any]]:
        """The match's record and its plies after ``known`` (``read_match``)."""
        return await self.read(lambda conn: read_match(conn, match_id, known))

    async def read(self, body: Callable[[Connection], T]) -> T:
        """Runs ``body`` on a connection: inline on SQLite (``db.inline_sqlite``)."""
        if self.inline is not None:
            with self.inline.connect() as conn:
                return body(conn)
        async with self.engine.connect() as conn:
            return await conn.run_sync(body)

    async def write(self, body: Callable[[Connection], T]) -> T:
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

    async def commit(self, m: Match, probe: Match) -> None:
        """Stores the plies ``probe`` (a fork of ``m``) made, where the match still has
        version ``m.version``.

        The conditional UPDATE and the primary key of ``plies`` both refuse a second writer
        that saw the same version, on any number of workers: 409 ``stale_version``.
        """
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
            | {"at": p.at, "thought_s": p.thought}
            for i, p in enumerate(probe.plies[len(m.plies) :], start=1)
        ]

        ended = probe.status != "running"
        packed = pack(probe.plies) if ended else b""

        def store(conn: Connection) -> bool:
            # Core statements, not the ORM: every move passes here, and the ORM's session
            # and unit of work cost about as much again as the two statements themselves.
            if conn.execute(STORE_VERSION, moved_on).rowcount != 1:
                return False
            if ended:
                # No ply comes after the last: all of them go into the record at once.
                conn.execute(STORE_PACKED, {"match_id": m.id, "packed": packed})
                conn.execute(DELETE_PLIES, {"match_id": m.id})
            else:
                conn.execute(STORE_PLIES, rows)
            return True

        try:
            if not await self.write(store):
                raise stale
        except IntegrityError:
            raise stale from None
