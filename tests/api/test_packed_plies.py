"""An ended match's plies are stored packed in its record, not a row each (issue 34 §6).

The packing keeps every value exactly (times to the last bit), the commit that ends a
match packs its plies and deletes their rows in one transaction, and every worker reads the
match back the same: one that never saw it, and one that held it at an earlier version.
Runs on SQLite and on PostgreSQL (``database_url``).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from spielwerk_api import db, schemas
from spielwerk_api.clock import ManualClock
from spielwerk_api.matches import Matches, Ply
from spielwerk_api.matches.packed import pack, unpack
from sqlalchemy import func, select

plies_of_a_match = st.lists(
    st.builds(
        Ply,
        kind=st.sampled_from(["move", "move", "move", "resigned", "time", "left", "aborted"]),
        seat=st.none() | st.integers(0, 7),
        action=st.none() | st.integers(0, 2**31 - 1),
        at=st.floats(allow_nan=False, allow_infinity=False),
        thought=st.none() | st.floats(0, 60),
    ),
    max_size=300,
)


@given(plies_of_a_match)
def test_packing_keeps_every_ply_exactly(plies: list[Ply]) -> None:
    back = unpack(pack(plies))
    assert [p.ply for p in back] == list(range(1, len(plies) + 1))
    assert [Ply(p.kind, p.seat, p.action, p.at, p.thought_s) for p in back] == plies


@pytest.mark.parametrize("data", [b"", b"\x02" + pack([])[1:], b"\x01not zlib", pack([])[:-2]])
def test_a_record_that_is_no_packing_is_refused(data: bytes) -> None:
    with pytest.raises(ValueError, match="packed record of plies"):
        unpack(data)


def test_a_bot_match_packs_to_a_few_bytes_a_ply() -> None:
    """Times a few milliseconds apart, as a bot plays: the high bytes of each repeat."""
    rng = random.Random(3)
    at = 1_800_000_000.0
    plies = []
    for i in range(2_000):
        at += rng.uniform(0.0001, 0.003)
        plies.append(Ply("move", i % 4, rng.randrange(300), at))
    assert len(pack(plies)) < 8 * len(plies)  # a row of `plies` is about 100 bytes


async def nothing(_match_id: str, _payload: dict[str, Any]) -> None:
    return None


def test_an_ended_match_is_read_back_the_same_from_its_packed_plies(database_url: str) -> None:
    async def scenario() -> None:
        engines = [db.create_engine(database_url) for _ in range(3)]
        try:
            await db.migrate(engines[0])
            clock = ManualClock()
            a, held, fresh = (Matches(e, clock, nothing) for e in engines)
            created = await a.create(
                schemas.NewMatch(
                    game="schotten_totten",
                    seed=12,
                    seats=[schemas.PersonSeat(), schemas.BotSeat(bot="heuristic")],
                    clock=schemas.ClockSpec(initial_s=300, increment_s=2),
                )
            )
            rng = random.Random(12)
            m = await a.get(created.id)
            for turn in range(12):
                clock.advance(rng.uniform(0.3, 5.0))
                move = rng.choice(m.state.legal_moves(0))["move"]
                m = await a.play(created.id, 0, m.version, move)
                if turn == 3:
                    assert (await held.get(created.id)).version == m.version  # held from here on
                if m.status != "running":
                    break
            if m.status == "running":
                clock.advance(1.5)
                m = await a.resign(created.id, 0)
            assert m.status == "finished"

            async def rows_and_packed() -> tuple[int, bytes | None]:
                async with a.store.sessions() as session:
                    rows = await session.scalar(
                        select(func.count()).select_from(db.PlyRow).where(db.PlyRow.match_id == created.id)
                    )
                    packed = await session.scalar(
                        select(db.MatchRow.plies_packed).where(db.MatchRow.id == created.id)
                    )
                return int(rows or 0), packed

            rows, packed = await rows_and_packed()
            assert rows == 0 and packed is not None
            assert len(packed) < 16 * m.version

            for other in (held, fresh):
                seen = await other.get(created.id)
                assert seen.plies == m.plies  # every value, the times to the last bit
                assert (seen.version, seen.status, seen.result) == (m.version, m.status, m.result)
                assert seen.clocks == m.clocks
                assert seen.state.serialize() == m.state.serialize()
                assert [v for v, _ in seen.past(0)] == list(range(m.version + 1))
        finally:
            for e in engines:
                await e.dispose()

    asyncio.run(scenario())


def test_a_match_that_ended_before_packing_keeps_its_rows_and_reads_the_same(database_url: str) -> None:
    """Matches that ended before this server packed plies (a row each, no packing) still read."""

    async def scenario() -> None:
        engine, other = db.create_engine(database_url), db.create_engine(database_url)
        try:
            await db.migrate(engine)
            clock = ManualClock()
            a, b = Matches(engine, clock, nothing), Matches(other, clock, nothing)
            created = await a.create(
                schemas.NewMatch(game="schotten_totten", seed=2, seats=[schemas.PersonSeat()] * 2)
            )
            m = await a.get(created.id)
            for seat in (0, 1):
                clock.advance(1.0)
                m = await a.play(created.id, seat, m.version, m.state.legal_moves(seat)[0]["move"])
            clock.advance(1.0)
            m = await a.resign(created.id, 0)
            # As an older server stored it: the plies in rows, the record without a packing.
            async with a.store.writing() as session:
                for i, p in enumerate(m.plies, start=1):
                    session.add(
                        db.PlyRow(
                            match_id=created.id, ply=i, kind=p.kind, seat=p.seat, action=p.action, at=p.at
                        )
                    )
                row = await session.get(db.MatchRow, created.id)
                assert row is not None
                row.plies_packed = None
            seen = await b.get(created.id)
            assert seen.plies == m.plies and seen.result == m.result
        finally:
            await engine.dispose()
            await other.dispose()

    asyncio.run(scenario())
