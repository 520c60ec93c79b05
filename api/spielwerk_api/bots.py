"""Bots that sit at match seats: the engine's bots by name (``spielwerk.bots``).

A bot decides from what its seat may see (the engine's bots read only the seat's
information state). Every decision is seeded by the match seed, the ply and the seat, so a
match replays the same after a restart. Strangers choose the parameters, so the work a
search may do per move is bounded here.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
from typing import Any

import spielwerk
import spielwerk.bots

from .problems import Problem

# The most a bot seat may search per move: a match must never hold a worker for long.
LIMITS = {"iterations": 5_000, "time_ms": 1_000}


def check(name: str, game: spielwerk.Game, params: dict[str, Any]) -> None:
    """Refuse unknown bots, unknown parameters (the engine names the allowed ones) and
    searches beyond the limits."""
    for key, limit in LIMITS.items():
        value = params.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > limit:
            raise Problem(
                422,
                "invalid_bot_params",
                f"bot '{name[:40]}': {key} is at most {limit} on this server",
            )
    spielwerk.bots.make(name, game, 0, **params)  # the engine's own checks


@functools.lru_cache(maxsize=64)
def searches(game: str, name: str) -> bool:
    """Whether the engine says the bot searches (``Bot.searches``): its decisions take long
    enough to run off the event loop, one per request. Only names of stored, checked seats
    reach here; the cache is bounded all the same."""
    return spielwerk.bots.make(name, spielwerk.load_game(game), 0).searches


def decision_seed(match_seed: int, ply: int, seat: int) -> int:
    digest = hashlib.blake2b(f"{match_seed}:{ply}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


async def decide(
    name: str, params: dict[str, Any], state: spielwerk.State, seat: int, match_seed: int, ply: int
) -> int:
    bot = spielwerk.bots.make(name, state.game, decision_seed(match_seed, ply, seat), **params)
    if bot.searches:
        # The search releases the GIL: other requests go on meanwhile.
        return await asyncio.to_thread(bot.step, state, seat)
    return bot.step(state, seat)
