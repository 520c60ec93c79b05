"""Ratings: openskill's Weng-Lin model (Plackett-Luce) over ranked matches, per game and pool.

- Only a ranked match rates (C10: never a variant; never a deal its creator chose), and only
  one whose every person seat belongs to a registered player who alone held its token: the
  creator's own seat and seats taken from the lobby (a guest has no rating to move, and a
  seat claimed by its invitation was known to its creator: either would let anyone feed a
  player wins). A match aborted before its first move
  (C11) or withdrawn rates nobody.
- Two pools per game: ``people`` (persons only) and ``bots`` (a bot at the table). A bot is
  a fixed rating from the engine's ladder (its Elo, ``heuristic`` at 1500): it moves a
  player's rating as an opponent of known strength would, and is never moved itself.
- Schotten Totten and Caravan: one seat against the other. Dog: the two teams (D1). The
  Game is cooperative: the team plays against a par, a fixed rating of 1500, as Board Game
  Arena rates Hanabi; the team beats it with fewer cards left than the engine's
  ``heuristic`` bot leaves on average at that player count (the engine's ladder), ties
  within half a card. Which of these a game is, the engine's ``utility()`` says.
- What a person reads is on the Elo scale the bots' ladder uses: ``1500 + (mu - 25) *
  ELO_PER_MU``, where ``ELO_PER_MU`` makes a difference of 400 the same odds (10 : 1) in
  both (openskill's two-player win probability is logistic in ``Δmu / (√2 β)``); a
  leaderboard is ordered by openskill's ordinal, ``mu - 3 sigma``, so one lucky win does not
  top it.

A match is rated exactly once: ``rating_due`` is set when a ranked match with persons is
created and cleared by the conditional UPDATE that rates it, on whichever worker stores
its end; the sweep rates the ones whose worker stopped first.
"""

from __future__ import annotations

import logging
import math
from typing import Any

import spielwerk
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import CursorResult, select, update

from .. import bots as bot_levels
from .. import schemas
from ..clock import Clock
from ..db import MatchPlayerRow, MatchRow, PlayerRow, RatingEventRow, RatingRow, SeatJoinRow
from ..problems import Problem
from .match import Match
from .store import Store

log = logging.getLogger("spielwerk_api")

MODEL = PlackettLuce()
MU, SIGMA, BETA = MODEL.mu, MODEL.sigma, MODEL.beta
ELO_PER_MU = 400 / (math.log(10) * math.sqrt(2) * BETA)
# A bot's rating is the ladder's measurement: known closely, and never moved by a match.
BOT_SIGMA = 1.0
# The Game's par: the heuristic bot's strength, 1500.
PAR_ELO = 1500.0
BOARD_SIZE = 100
POOLS = ("people", "bots")


def shown(mu: float) -> int:
    """A rating as a person reads it, on the Elo scale of the bots' ladder."""
    return round(1500 + (mu - MU) * ELO_PER_MU)


def interval(sigma: float) -> int:
    """The half-width of a rating's 95 % interval, on the shown scale."""
    return round(1.96 * sigma * ELO_PER_MU)


def mu_of(elo: float) -> float:
    return MU + (elo - 1500) / ELO_PER_MU


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def side_of(utility: str, seat: int) -> int:
    """The engine's utility says who plays together: in a team game (Dog) partners sit
    opposite each other (D1: seats 0 + 2 and 1 + 3, as the engine's forfeit counts them);
    in a zero-sum game each seat is its own side."""
    return seat % 2 if utility == "team_zero_sum" else seat


def bot_elo(game: spielwerk.Game, seat: dict[str, Any]) -> float:
    """A bot seat's Elo from the engine's ladder: its level's, else its bot's; 1500 (the
    heuristic's) where the ladder measured neither."""
    for level in bot_levels.levels(game):
        if level["name"] == seat.get("bot") and level.get("elo") is not None:
            return float(level["elo"])
    try:
        rating, _ = spielwerk.bots.rating(game, str(seat.get("bot")))
    except Exception:
        return 1500.0
    elo = rating.get("elo") if isinstance(rating, dict) else None
    return float(elo) if elo is not None else 1500.0


def par_cards_left(game: spielwerk.Game) -> float | None:
    """The Game: the cards the engine's heuristic leaves on average at this player count."""
    try:
        rating, _ = spielwerk.bots.rating(game, "heuristic")
    except Exception:
        return None
    left = rating.get("cards_left") if isinstance(rating, dict) else None
    return float(left) if left is not None else None


def cards_left(m: Match) -> float | None:
    """The Game: the cards the team left (the engine's returns are minus that count, also
    for a match ended by a match rule)."""
    assert m.result is not None
    returns = m.result["returns"]
    return -float(returns[0]) if returns else None


class Ratings:
    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    # -- what a person reads ----------------------------------------------------------

    @staticmethod
    def out(game: str, pool: str, mu: float, sigma: float, matches: int) -> schemas.RatingOut:
        return schemas.RatingOut(
            game=game,
            pool=pool,  # type: ignore[arg-type]
            rating=shown(mu),
            interval=interval(sigma),
            matches=matches,
        )

    shown = staticmethod(shown)

    async def board(self, game: spielwerk.Game, pool: str) -> schemas.Leaderboard:
        """A game's leaderboard in ``pool``, best first by ordinal, with the engine's bots."""
        if pool not in POOLS:
            raise Problem(
                422,
                "unknown_pool",
                f"pool '{pool[:20]}' is not one of {', '.join(POOLS)}",
                de=f"'{pool[:20]}' ist keine der Wertungen {', '.join(POOLS)}",
            )
        async with self.store.sessions() as session:
            rows = (
                await session.execute(
                    select(PlayerRow.name, RatingRow.mu, RatingRow.sigma, RatingRow.matches)
                    .join(PlayerRow, PlayerRow.id == RatingRow.player_id)
                    .where(RatingRow.game == game.name, RatingRow.pool == pool)
                    .order_by(RatingRow.ordinal.desc(), PlayerRow.name_key)
                    .limit(BOARD_SIZE)
                )
            ).all()
        players = [
            schemas.BoardPlayer(
                name=r.name,
                rating=shown(r.mu),
                interval=interval(r.sigma),
                matches=r.matches,
            )
            for r in rows
        ]
        bot_rows = [
            schemas.BoardBot(name=level["name"], bot=level["bot"], rating=level.get("elo"))
            for level in bot_levels.levels(game)
        ]
        return schemas.Leaderboard(game=game.name, pool=pool, players=players, bots=bot_rows)  # type: ignore[arg-type]

    # -- rating a match ---------------------------------------------------------------

    async def rate(self, m: Match) -> bool:
        """Rates the ended match ``m`` if it is due (once, on any worker); True if it moved
        any rating."""
        if m.status == "running":
            return False
        async with self.store.writing() as session:
            claimed: CursorResult[Any] = await session.execute(  # type: ignore[assignment]
                update(MatchRow)
                .where(MatchRow.id == m.id, MatchRow.rating_due.is_(True))
                .values(rating_due=False)
            )
            if claimed.rowcount != 1 or m.status != "finished" or m.result is None or not m.ranked():
                return False
            owners = dict(
                (
                    await session.execute(
                        select(MatchPlayerRow.seat, MatchPlayerRow.player_id).where(
                            MatchPlayerRow.match_id == m.id
                        )
                    )
                ).all()
            )
            persons = m.persons()
            if not persons or any(s not in owners for s in persons):
                return False  # a guest at the table: nobody's rating moves
            invited = (
                await session.execute(
                    select(SeatJoinRow.seat).where(
                        SeatJoinRow.match_id == m.id, SeatJoinRow.player_id.is_not(None)
                    )
                )
            ).scalars()
            if any(not m.seats[s].get("open") for s in invited):
                # A seat claimed by its invitation: its creator knew its token and could play
                # it. Rated matches between persons are made in the lobby (an open seat's
                # token is its taker's alone).
                return False
            if len(set(owners.values())) != len(owners):
                return False  # one player on two seats plays against themself
            pool = "bots" if any(spec["kind"] == "bot" for spec in m.seats) else "people"
            ids = sorted(set(owners.values()))
            held = {
                r.player_id: r
                for r in (
                    await session.execute(
                        select(RatingRow)
                        .where(
                            RatingRow.player_id.in_(ids),
                            RatingRow.game == m.game.name,
                            RatingRow.pool == pool,
                        )
                        .with_for_update()
                    )
                ).scalars()
            }
            teams, ranks, outcome = self._contest(m, owners, held)
            if not teams:
                return False
            rated = MODEL.rate([[r for _, r in team] for team in teams], ranks=[float(r) for r in ranks])
            now = self.clock.now()
            for team, after, team_outcome in zip(teams, rated, outcome, strict=True):
                for (player_id, _), new in zip(team, after, strict=True):
                    if player_id is None:
                        continue  # a bot or the par: fixed
                    row = held.get(player_id)
                    if row is None:
                        row = RatingRow(player_id=player_id, game=m.game.name, pool=pool, matches=0)
                        session.add(row)
                        held[player_id] = row
                    row.mu, row.sigma = new.mu, new.sigma
                    row.ordinal = ordinal(new.mu, new.sigma)
                    row.matches = (row.matches or 0) + 1
                    row.updated_at = now
                    session.add(
                        RatingEventRow(
                            player_id=player_id,
                            game=m.game.name,
                            pool=pool,
                            match_id=m.id,
                            outcome=team_outcome,
                            mu=new.mu,
                            sigma=new.sigma,
                            ordinal=row.ordinal,
                            at=now,
                        )
                    )
        return True

    def _contest(
        self, m: Match, owners: dict[int, int], held: dict[int, RatingRow]
    ) -> tuple[list[list[tuple[int | None, PlackettLuceRating]]], list[int], list[str]]:
        """The sides of the match as openskill takes them: each a list of (player id or
        ``None`` for a fixed rating, rating), their ranks (1 best, ties equal) and each
        side's outcome in words."""

        def rating_of(seat: int) -> tuple[int | None, PlackettLuceRating]:
            if seat in owners:
                row = held.get(owners[seat])
                if row is None:
                    return owners[seat], MODEL.rating()
                return owners[seat], MODEL.rating(mu=row.mu, sigma=row.sigma)
            return None, MODEL.rating(mu=mu_of(bot_elo(m.game, m.seats[seat])), sigma=BOT_SIGMA)

        assert m.result is not None
        returns = m.result["returns"]
        utility = m.game.utility()
        if utility == "cooperative":
            par = par_cards_left(m.game)
            left = cards_left(m)
            if par is None or left is None:
                log.warning("The Game match %s not rated: no par or no count of cards left", m.id)
                return [], [], []
            team = [rating_of(s) for s in range(m.n)]
            par_side: list[tuple[int | None, PlackettLuceRating]] = [
                (None, MODEL.rating(mu=mu_of(PAR_ELO), sigma=BOT_SIGMA))
            ]
            if abs(left - par) <= 0.5:
                return [team, par_side], [1, 1], ["draw", "draw"]
            won = left < par
            return (
                [team, par_side],
                ([1, 2] if won else [2, 1]),
                (["win", "loss"] if won else ["loss", "win"]),
            )
        sides: dict[int, list[int]] = {}
        for seat in range(m.n):
            sides.setdefault(side_of(utility, seat), []).append(seat)
        groups = list(sides.values())
        scores = [max(returns[s] for s in group) for group in groups]
        ranks = [1 + sum(1 for other in scores if other > score) for score in scores]
        words = ["draw" if all(r == 1 for r in ranks) else ("win" if r == 1 else "loss") for r in ranks]
        return [[rating_of(s) for s in group] for group in groups], ranks, words

    async def due(self, limit: int = 16) -> list[str]:
        """Ended matches not rated yet (their worker stopped first): the sweep rates them."""
        async with self.store.sessions() as session:
            rows = (
                await session.execute(
                    select(MatchRow.id)
                    .where(MatchRow.rating_due.is_(True), MatchRow.status != "running")
                    .limit(limit)
                )
            ).scalars()
            return list(rows)
