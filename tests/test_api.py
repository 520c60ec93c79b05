"""Parts of the Python API that every game shares."""

from __future__ import annotations

import pytest
import spielwerk


@pytest.mark.parametrize("name", ["schotten_totten", "caravan", "the_game"])
def test_history_for_shows_every_action_where_all_are_public(name: str) -> None:
    """Only Dog has hidden actions (its exchange picks, see test_dog_invariants.py)."""
    game = spielwerk.load_game(name)
    state = game.new_initial_state(seed=5)
    bot = spielwerk.RandomBot(5)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert len(state.history()) > 0
    for p in range(game.num_players()):
        assert state.history_for(p) == state.history()


def test_every_game_is_listed() -> None:
    assert sorted(spielwerk.list_games()) == ["caravan", "dog", "schotten_totten", "the_game"]
