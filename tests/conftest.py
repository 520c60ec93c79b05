"""Shared fixtures and plain-Python rules of Schotten Totten for the tests.

The rule functions here (plain_formation, brute_force_claim, plain_settlement,
settlement_winner, owns_winning_stones) are written from the rule text
(seeds/schotten_totten.de.txt) and RULINGS.md S1-S10, deliberately slow and obvious, and
never call the engine: they are the oracle the engine is checked against. The action
encoding is the one documented in core/src/schotten_totten/mod.rs.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
import spielwerk
from hypothesis import settings

# No example database, so that a run does not depend on what earlier runs stored; a failure
# prints its falsifying example. The brute-force oracle is slow on purpose: no deadline.
settings.register_profile("spielwerk", database=None, deadline=None)
settings.load_profile("spielwerk")


@pytest.fixture(autouse=True)
def python_handles_ctrl_c() -> Iterator[None]:
    """Every test starts with Python's own SIGINT handler, so the Ctrl-C tests of simulate,
    step_many and evaluate see KeyboardInterrupt whatever ran before them. In the full run
    (web API tests on PostgreSQL first) a handler that swallows SIGINT was left behind by
    an earlier test; which library leaves it is not yet found."""
    import signal
    import threading

    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield


@pytest.fixture(scope="session")
def local_ray() -> Iterator[Any]:
    """A Ray instance on this machine for the whole test session (two CPUs, no dashboard),
    for evaluate's Ray backend; the test command installs Ray (the test extra)."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'spielwerk[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


GAME_NAME = "schotten_totten"

# S1: colours R O Y G B P, values 1-9, a card is written colour letter + value.
COLORS = "ROYGBP"
VALUES = range(1, 10)
ALL_CARDS: tuple[str, ...] = tuple(f"{color}{value}" for color in COLORS for value in VALUES)
NUM_STONES = 9

# The action space (mod.rs): play = card_index * 9 + stone, claim = 486 + stone, pass, end turn.
NUM_ACTIONS = 497
CLAIM_BASE = 486
PASS = 495
END_TURN = 496

# Every rejection names the ruling it rests on, e.g. "S3a: ..." or "S5: ...".
RULING_PREFIX = re.compile(r"^S\d+[a-z]?: \S")

# S4: formation kinds from weakest to strongest.
KIND_RANK: dict[str, int] = {"sum": 0, "run": 1, "color": 2, "three_of_a_kind": 3, "color_run": 4}


def color_of(card: str) -> str:
    return card[0]


def value_of(card: str) -> int:
    return int(card[1:])


# `color * 9 + value - 1`, as the action encoding documents it.
CARD_INDEX: dict[str, int] = {card: COLORS.index(card[0]) * 9 + int(card[1:]) - 1 for card in ALL_CARDS}


def card_index(card: str) -> int:
    return CARD_INDEX[card]


def play_action(card: str, stone: int) -> int:
    return card_index(card) * NUM_STONES + stone


def claim_action(stone: int) -> int:
    return CLAIM_BASE + stone


def expected_move(action: int) -> dict[str, Any]:
    """The JSON move of an action id, decoded from the documented encoding."""
    if action < CLAIM_BASE:
        card_idx, stone = divmod(action, NUM_STONES)
        color, value = divmod(card_idx, 9)
        return {"type": "play", "card": f"{COLORS[color]}{value + 1}", "stone": stone}
    if action < PASS:
        return {"type": "claim", "stone": action - CLAIM_BASE}
    if action == PASS:
        return {"type": "pass"}
    assert action == END_TURN
    return {"type": "end_turn"}


def plain_formation(cards: Sequence[str]) -> tuple[str, int]:
    """The formation of three cards, straight from the rule text (S4).

    Farbenfolge: one colour, consecutive values. Dreierpasch: one value. Farbe: one
    colour. Strasse: consecutive values, mixed colours. Summe: anything else. Values do
    not wrap around (9-1-2 is no run).
    """
    assert len(cards) == 3
    one_color = len({color_of(c) for c in cards}) == 1
    low, mid, high = sorted(value_of(c) for c in cards)
    consecutive = mid == low + 1 and high == mid + 1
    total = low + mid + high
    if one_color and consecutive:
        return "color_run", total
    if low == high:
        return "three_of_a_kind", total
    if one_color:
        return "color", total
    if consecutive:
        return "run", total
    return "sum", total


def strength(formation: tuple[str, int]) -> tuple[int, int]:
    """S4 without the tie-break: the rank first, then the sum."""
    kind, total = formation
    return KIND_RANK[kind], total


@dataclass(frozen=True)
class OracleClaim:
    provable: bool
    mine: tuple[str, int]
    # The other side's strongest reachable formation, None if it can never complete.
    best: tuple[str, int] | None


def brute_force_claim(
    mine: Sequence[str], theirs: Sequence[str], available: Iterable[str], mine_completed_first: bool
) -> OracleClaim:
    """S5 by exhaustive enumeration of every completion of the other side."""
    mine_formation = plain_formation(mine)
    need = 3 - len(theirs)
    pool = sorted(set(available) - set(theirs) - set(mine))
    best: tuple[str, int] | None = None
    for completion in itertools.combinations(pool, need):
        candidate = plain_formation([*theirs, *completion])
        if best is None or strength(candidate) > strength(best):
            best = candidate
    if best is None:
        # S5: fewer cards available than the other side needs: it never completes.
        provable = True
    elif need == 0:
        # S4: both complete; equal rank and sum go to whoever completed first.
        provable = strength(mine_formation) > strength(best) or (
            strength(mine_formation) == strength(best) and mine_completed_first
        )
    else:
        # S5: no completion may strictly beat the claimant; a tie goes to the claimant.
        provable = strength(best) <= strength(mine_formation)
    return OracleClaim(provable, mine_formation, best)


def plain_settlement(stones: Sequence[dict[str, Any]]) -> list[tuple[int, str] | None]:
    """S9 steps 1-3 for the stones as serialized (`sides`, `owner`, `completed_first`).

    Gives (owner, award) for each stone unowned before the settlement, None for a stone
    that stays unowned, and the stone's own (owner, award) for stones already owned.
    """
    table = {card for stone in stones for side in stone["sides"] for card in side}
    available = set(ALL_CARDS) - table
    result: list[tuple[int, str] | None] = []
    for stone in stones:
        if stone["owner"] is not None:
            result.append((stone["owner"], stone["award"]))
            continue
        sides = stone["sides"]
        expected: tuple[int, str] | None = None
        # Step 1: a stone provable for a player (S5) goes to that player.
        for p in (0, 1):
            if len(sides[p]) == 3:
                oracle = brute_force_claim(sides[p], sides[1 - p], available, stone["completed_first"] == p)
                if oracle.provable:
                    expected = (p, "settlement_proof")
                    break
        if expected is None:
            complete = [len(side) == 3 for side in sides]
            if complete[0] != complete[1]:
                # Step 2: exactly one side holds three cards.
                expected = (complete.index(True), "settlement_complete")
            elif not complete[0]:
                # Step 3: more cards, then the higher sum; otherwise the stone stays unowned.
                keys = [(len(side), sum(value_of(c) for c in side)) for side in sides]
                if keys[0] != keys[1]:
                    expected = (0 if keys[0] > keys[1] else 1, "settlement_count")
        result.append(expected)
    return result


def settlement_winner(owners: Sequence[int | None]) -> int | None:
    """S9 step 4: more stones wins, equal counts draw (S7 is not applied)."""
    counts = [sum(owner == p for owner in owners) for p in (0, 1)]
    return None if counts[0] == counts[1] else (0 if counts[0] > counts[1] else 1)


def owns_winning_stones(owners: Sequence[int | None], player: int) -> str | None:
    """S7: 'five_stones' for five stones, 'three_adjacent' for three in a row, else None."""
    mine = [owner == player for owner in owners]
    if sum(mine) >= 5:
        return "five_stones"
    if any(all(mine[i : i + 3]) for i in range(len(mine) - 2)):
        return "three_adjacent"
    return None


def decoded(state: Any) -> dict[str, Any]:
    """The full serialized state (hidden information included) as a dict."""
    data: dict[str, Any] = json.loads(state.serialize())
    return data


def table_cards(data: dict[str, Any]) -> list[str]:
    """Every card lying at any stone, both sides, owned stones included."""
    return [card for stone in data["stones"] for side in stone["sides"] for card in side]


@pytest.fixture(scope="session")
def game() -> Any:
    return spielwerk.load_game(GAME_NAME)


@pytest.fixture(scope="session")
def game_first1() -> Any:
    return spielwerk.load_game(GAME_NAME, first_player=1)
