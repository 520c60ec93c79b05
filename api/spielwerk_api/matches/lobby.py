"""The lobby: running matches with an open seat and finished ones, newest first."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Executable, select, text
from sqlalchemy.engine import Connection

from .. import engine, schemas
from ..db import ENDED, WAITING, MatchRow, SeatJoinRow
from .match import result_out
from .store import Store

MATCHES = MatchRow.__table__
SEAT_JOINS = SeatJoinRow.__table__
# The columns the lists show (not a match's packed plies).
LISTED = [c for c in MATCHES.c if c.name != "plies_packed"]


def lobby_queries(dialect: str, limit: int, offset: int) -> list[Executable]:
    """The lobby's two lists, each read newest first from its own partial index: ``limit``
    rows after ``offset`` however many matches there are. SQLite's planner, without
    statistics, would take the index on ``status`` or ``bots_only`` and sort every open or
    ended match (20 ms a read at 10,000 open matches), and SQLAlchemy does not write its
    index hints: there the statements name their index themselves (``INDEXED BY``)."""
    out: list[Executable] = []
    # (The ended list leaves out a match whose open seat nobody took: it never began.)
    for index, where in (("ix_matches_waiting", WAITING), ("ix_matches_ended", ENDED)):
        if dialect == "sqlite":
            sql = (
                f"SELECT {', '.join(c.name for c in LISTED)} FROM matches INDEXED BY {index}"
                f" WHERE {where} ORDER BY created_at DESC LIMIT :limit OFFSET :offset"
            )
            out.append(text(sql).bindparams(limit=limit, offset=offset).columns(*LISTED))
        else:
            newest = select(*LISTED).where(text(where)).order_by(MATCHES.c.created_at.desc())
            out.append(newest.limit(limit).offset(offset))
    return out


async def read_lobby(store: Store, limit: int, offset: int, lang: str = "en") -> schemas.Lobby:
    """Running matches with an open seat, and finished ones with a person, newest first;
    result lines in ``lang``."""
    waiting, ended = lobby_queries(store.engine.dialect.name, limit, offset)

    def read(conn: Connection) -> tuple[list[Any], list[Any], set[tuple[str, int]]]:
        # Core statements on the store's own connection (inline on SQLite): a page of the
        # lobby is read often, and the ORM's session costs more than the reads.
        open_rows = list(conn.execute(waiting).all())
        finished_rows = list(conn.execute(ended).all())
        ids = [r.id for r in open_rows]
        taken = SEAT_JOINS.c.match_id.in_(ids)
        joined = (
            conn.execute(select(SEAT_JOINS.c.match_id, SEAT_JOINS.c.seat).where(taken)).all() if ids else []
        )
        return open_rows, finished_rows, {(j.match_id, j.seat) for j in joined}

    open_rows, finished_rows, taken = await store.read(read)

    def listed(r: Any, free: list[int]) -> schemas.LobbyMatch:
        finished = r.status != "running"
        return schemas.LobbyMatch(
            id=r.id,
            game=r.game,
            options=r.options,
            status=r.status,
            seats=[{"kind": s["kind"], **({"bot": s["bot"]} if s["kind"] == "bot" else {})} for s in r.seats],
            free_seats=free,
            clock=r.clock,
            created_at=r.created_at,
            ranked=engine.load_game(r.game, r.options).ranked() and not r.rules.get("seed_chosen", False),
            seed_chosen=bool(r.rules.get("seed_chosen", False)),
            # The stored line in each language (a result stored before both were: English).
            result=result_out(r.result, r.result.get("texts", {}).get(lang) or r.result["text"])
            if finished and r.result
            else None,
            replay=f"/v1/matches/{r.id}/replay" if finished else None,
        )

    return schemas.Lobby(
        open=[
            listed(r, [s for s, spec in enumerate(r.seats) if spec.get("open") and (r.id, s) not in taken])
            for r in open_rows
        ],
        finished=[listed(r, []) for r in finished_rows],
        limit=limit,
        offset=offset,
    )
