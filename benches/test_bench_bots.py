"""pytest-benchmark: bots from Python (issue 11). Figures: benches/README.md.

Run: ``python -m pytest benches/test_bench_bots.py --benchmark-only``. In the test command
these run once, untimed (``--benchmark-disable``), so they cannot rot.
"""

from __future__ import annotations

from typing import Any

import pytest
import spielwerk

GAMES = ["schotten_totten", "caravan", "the_game", "dog"]
BATCH = 64


def batch(game: spielwerk.Game, n: int) -> list[spielwerk.State]:
    """`n` running positions of `game` after a few random actions each."""
    states: list[spielwerk.State] = []
    bot = spielwerk.RandomBot(1)
    seed = 0
    while len(states) < n:
        state = game.new_initial_state(seed)
        for _ in range(seed % 20):
            if state.is_terminal():
                break
            state.apply_action(bot.step(state))
        if not state.is_terminal():
            states.append(state)
        seed += 1
    return states


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    ("bot_name", "params"), [("random", {}), ("heuristic", {}), ("ismcts", {"iterations": 100})]
)
def test_step_many(benchmark: Any, name: str, bot_name: str, params: dict[str, Any]) -> None:
    """One ``step_many`` over 64 positions on all cores: moves per second is 64 / time."""
    game = spielwerk.load_game(name)
    bot = spielwerk.bots.make(bot_name, game, seed=1, **params)
    states = batch(game, BATCH)
    benchmark.extra_info["moves_per_round"] = BATCH
    moves = benchmark(bot.step_many, states)
    assert len(moves) == BATCH
