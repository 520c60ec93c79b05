"""Bots that sit at match seats, by name.

A bot decides from what its seat may see: the legal actions of its seat depend only on its
own hand and the public table. Every decision is seeded by the match seed, the ply and the
seat, so a match replays the same after a restart. The bots issue adds stronger bots by name.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

import spielwerk

from .problems import Problem

Decide = Callable[[spielwerk.State, int, int], int]


def _random(params: dict[str, Any]) -> Decide:
    def decide(state: spielwerk.State, seat: int, seed: int) -> int:
        return random.Random(seed).choice(state.legal_actions(seat))

    return decide


BOTS: dict[str, tuple[Callable[[dict[str, Any]], Decide], frozenset[str]]] = {
    "random": (_random, frozenset()),
}


def names() -> list[str]:
    return sorted(BOTS)


def check(name: str, params: dict[str, Any]) -> None:
    """Refuse unknown bots and parameters, naming the allowed ones."""
    if name not in BOTS:
        raise Problem(422, "unknown_bot", f"unknown bot '{name[:40]}': bots are {', '.join(names())}")
    allowed = BOTS[name][1]
    unknown = sorted(set(params) - allowed)
    if unknown:
        raise Problem(
            422,
            "invalid_bot_params",
            f"bot '{name}' takes no parameter {', '.join(p[:40] for p in unknown)}"
            + (f" (allowed: {', '.join(sorted(allowed))})" if allowed else " (it takes none)"),
        )


def decision_seed(match_seed: int, ply: int, seat: int) -> int:
    digest = hashlib.blake2b(f"{match_seed}:{ply}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def decide(
    name: str, params: dict[str, Any], state: spielwerk.State, seat: int, match_seed: int, ply: int
) -> int:
    factory, _ = BOTS[name]
    return factory(params)(state, seat, decision_seed(match_seed, ply, seat))
