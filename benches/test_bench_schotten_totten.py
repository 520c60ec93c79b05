"""pytest-benchmark: the cost of the Python API. Figures and commands: benches/README.md.

Run: ``python -m pytest benches --benchmark-only``. In the test command these run once,
untimed (``--benchmark-disable``), so they cannot rot.
"""

from __future__ import annotations

from typing import Any

import spielwerk
from spielwerk import schotten_totten as st

GAME = spielwerk.load_game("schotten_totten")


def recorded_game(seed: int) -> list[int]:
    """The actions of one seeded random game, chosen in Rust."""
    state = GAME.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    return state.history()


def test_check_claim_worst_case(benchmark: Any) -> None:
    # The other side is empty and 45 cards are available.
    mine = ["R4", "O4", "Y4"]
    table = ["G1", "B2", "P3", "R9", "O8", "Y7"]
    result = benchmark(st.check_claim, mine, [], table)
    assert not result.provable


def test_playout_legal_actions_and_apply(benchmark: Any) -> None:
    """Per action: one ``legal_actions()`` and one ``apply_action()`` from Python.

    The actions are those of 20 recorded random games, so the figure is the cost of
    the two calls alone, not of choosing. Divide the time per round by the number of
    actions in ``extra_info``.
    """
    seeds = range(20)
    starts = [GAME.new_initial_state(seed=seed) for seed in seeds]
    games = [recorded_game(seed) for seed in seeds]
    benchmark.extra_info["actions_per_round"] = sum(len(g) for g in games)

    def replay() -> None:
        for start, history in zip(starts, games, strict=True):
            state = start.clone()
            for action in history:
                state.legal_actions()
                state.apply_action(action)

    benchmark(replay)


def test_new_initial_state(benchmark: Any) -> None:
    benchmark(GAME.new_initial_state, 7)


def test_clone_mid_game(benchmark: Any) -> None:
    state = GAME.new_initial_state(seed=3)
    for action in recorded_game(3)[:30]:
        state.apply_action(action)
    benchmark(state.clone)


def test_simulate_1000_games_all_cores(benchmark: Any) -> None:
    summary = benchmark(spielwerk.simulate, "schotten_totten", 1000, 0)
    assert summary.games == 1000
