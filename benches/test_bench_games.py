"""pytest-benchmark: the cost of the Python API for every game. Figures: benches/README.md.

Run: ``python -m pytest benches --benchmark-only``; one game: ``-k dog``. In the test
command these run once, untimed (``--benchmark-disable``), so they cannot rot.
"""

from __future__ import annotations

from typing import Any

import pytest
import spielwerk

GAMES = ["schotten_totten", "caravan", "the_game", "dog"]


def recorded_game(game: spielwerk.Game, seed: int) -> list[int]:
    """The actions of one seeded random game, chosen in Rust."""
    state = game.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    return state.history()


@pytest.mark.parametrize("name", GAMES)
def test_playout_legal_actions_and_apply(benchmark: Any, name: str) -> None:
    """Per action: one ``legal_actions()`` and one ``apply_action()`` from Python.

    The actions are those of 20 recorded random games, so the figure is the cost of
    the two calls alone, not of choosing. Divide the time per round by the number of
    actions in ``extra_info``.
    """
    game = spielwerk.load_game(name)
    seeds = range(20)
    starts = [game.new_initial_state(seed=seed) for seed in seeds]
    games = [recorded_game(game, seed) for seed in seeds]
    benchmark.extra_info["actions_per_round"] = sum(len(g) for g in games)

    def replay() -> None:
        for start, history in zip(starts, games, strict=True):
            state = start.clone()
            for action in history:
                state.legal_actions()
                state.apply_action(action)

    benchmark(replay)


@pytest.mark.parametrize("name", GAMES)
def test_new_initial_state(benchmark: Any, name: str) -> None:
    benchmark(spielwerk.load_game(name).new_initial_state, 7)


@pytest.mark.parametrize("name", GAMES)
def test_clone_mid_game(benchmark: Any, name: str) -> None:
    game = spielwerk.load_game(name)
    history = recorded_game(game, 3)
    state = game.new_initial_state(seed=3)
    for action in history[: len(history) // 2]:
        state.apply_action(action)
    benchmark(state.clone)


@pytest.mark.parametrize("name", GAMES)
def test_simulate_1000_games_all_cores(benchmark: Any, name: str) -> None:
    summary = benchmark(spielwerk.simulate, name, 1000, 0)
    assert summary.games == 1000


def mid_game(name: str, fraction: float = 0.5) -> spielwerk.State:
    """The state `fraction` of the way through a seeded random game."""
    game = spielwerk.load_game(name)
    history = recorded_game(game, 3)
    state = game.new_initial_state(seed=3)
    for action in history[: int(len(history) * fraction)]:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", GAMES)
def test_legal_moves(benchmark: Any, name: str) -> None:
    """``legal_moves()``: every legal action with its JSON move and text, in one call."""
    moves = benchmark(mid_game(name).legal_moves)
    assert moves


@pytest.mark.parametrize("name", GAMES)
def test_view_dict(benchmark: Any, name: str) -> None:
    benchmark(mid_game(name).view, 0)


@pytest.mark.parametrize("name", GAMES)
def test_view_json(benchmark: Any, name: str) -> None:
    """``view_json(p)``: the view as JSON bytes, for servers."""
    benchmark(mid_game(name).view_json, 0)


@pytest.mark.parametrize("name", GAMES)
def test_information_state_key(benchmark: Any, name: str) -> None:
    benchmark(mid_game(name).information_state_key, 0)


@pytest.mark.parametrize("name", GAMES)
def test_state_from_view(benchmark: Any, name: str) -> None:
    state = mid_game(name)
    benchmark(state.game.state_from_view, state.view(0), 5)


@pytest.mark.parametrize("name", GAMES)
def test_serialize_round_trip(benchmark: Any, name: str) -> None:
    state = mid_game(name)
    game = state.game

    def round_trip() -> None:
        game.deserialize_state(state.serialize())

    benchmark(round_trip)


@pytest.mark.parametrize("name", GAMES)
def test_snapshot_round_trip(benchmark: Any, name: str) -> None:
    """``serialize_snapshot()`` and ``deserialize_state(bytes)``: the binary round trip
    on the state of ``openspiel_compare.py`` (seed 3, half a game)."""
    state = mid_game(name)
    game = state.game

    def round_trip() -> spielwerk.State:
        return game.deserialize_state(state.serialize_snapshot())

    assert benchmark(round_trip) == state


def test_snapshot_round_trip_late_dog_state(benchmark: Any) -> None:
    """At 95% of a Dog game: the snapshot grows with the history it carries."""
    state = mid_game("dog", 0.95)
    game = state.game
    benchmark(lambda: game.deserialize_state(state.serialize_snapshot()))


def test_clone_late_dog_state(benchmark: Any) -> None:
    """A late Dog state carries a long history: cloning it must stay cheap."""
    benchmark(mid_game("dog", 0.95).clone)
