"""The lobby: running matches with an open seat and finished ones, newest first."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, text

from .. import engine, schemas
from ..db import ENDED, WAITING, MatchRow, SeatJoinRow
from .match import result_out
from .store import Store


async def read_lobby(store: Store, limit: int, offset: int, lang: str = "en") -> schemas.Lobby:
    """Running matches with an open seat, and finished ones with a person, newest first;
    result lines in ``lang``."""
    waiting = (
        select(MatchRow).where(text(WAITING)).order_by(MatchRow.created_at.desc()).limit(limit).offset(offset)
    )
    ended = (
        select(MatchRow)
        # (A match whose open seat nobody took never began: it has no game to show.)
        .where(text(ENDED))
        .order_by(MatchRow.created_at.desc())
        .limit(limit)
        .offset(offset)
    )
    async with store.sessions() as session:
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
