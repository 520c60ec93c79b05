"""Matches stopped by a match rule (C11; Dog's playing time, D13): the engine words the
result and computes the returns (R1), so the web API decides no rule itself."""

from __future__ import annotations

import pytest
import spielwerk
from spielwerk.errors import SpielwerkError


def test_a_resigning_player_loses_a_two_player_game() -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(1)
    assert state.match_ending("resigned", 0) == {
        "returns": [-1.0, 1.0],
        "points": None,
        "rule": None,
        "text": "player 1 resigned: player 2 wins",
    }
    assert state.match_ending("time", 1)["returns"] == [1.0, -1.0]
    assert not state.is_terminal()  # nothing changes


def test_a_team_loses_together_and_dogs_playing_time_counts_marbles_home() -> None:
    state = spielwerk.load_game("dog").new_initial_state(2)
    left = state.match_ending("left", 3)
    assert left["returns"] == [1.0, -1.0, 1.0, -1.0]
    # Seats and teams counted from 1; the rule is a field, never a code in the sentence.
    assert left["text"] == "player 4 left the match: team 1 (player 1 and player 3) wins"
    assert left["rule"] == "C11"
    stopped = state.match_ending("playing_time")
    assert stopped["returns"] == [0.0] * 4 and stopped["points"] == [0, 0]
    assert stopped["rule"] == "D13" and "D13" not in stopped["text"]


def test_in_the_game_everybody_loses_with_every_card_still_in_play() -> None:
    state = spielwerk.load_game("the_game", players=3).new_initial_state(4)
    ending = state.match_ending("no_move", 2)
    assert ending["returns"] == [-98.0] * 3
    assert ending["text"] == "player 3 did not move in time: the players lose with 98 cards left"


def test_an_aborted_match_has_no_winner() -> None:
    state = spielwerk.load_game("caravan").new_initial_state(0)
    ending = state.match_ending("aborted", 1)
    assert ending["returns"] == [0.0, 0.0]
    assert ending["text"] == "aborted: player 2 did not make a first move in time"
    assert ending["rule"] == "C11"


def test_texts_name_the_seats_by_their_names_and_bots() -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(1)
    ending = state.match_ending("time", 1, "de", names=["Anna", None], bots=[None, "strong"])
    assert ending["text"] == "Bot stark hat die Zeit überschritten: Anna gewinnt"
    ending = state.match_ending("resigned", 0, "en", names=["Anna", "Bert"])
    assert ending["text"] == "Anna resigned: Bert wins"
    with pytest.raises(SpielwerkError, match="at most one per seat"):
        state.result_text("de", names=["a", "b", "c"])


@pytest.mark.parametrize("game", ["schotten_totten", "caravan", "the_game", "dog"])
def test_a_withdrawn_match_never_began_so_nobody_wins_or_is_named(game: str) -> None:
    # An open seat nobody took: not C11's missed first move (nobody was to move).
    state = spielwerk.load_game(game).new_initial_state(3)
    n = spielwerk.load_game(game).num_players()
    en = state.match_ending("withdrawn")
    de = state.match_ending("withdrawn", lang="de")
    assert en["returns"] == de["returns"] == [0.0] * n and en["points"] is None
    assert en["text"] == "withdrawn: nobody took an open seat in time, so the match never began (nobody wins)"
    assert de["text"].startswith("zurückgezogen: ") and "nie begonnen" in de["text"]
    assert "C11" not in en["text"] + de["text"]
    with pytest.raises(SpielwerkError, match="give no seat"):
        state.match_ending("withdrawn", 0)


@pytest.mark.parametrize(
    ("kind", "seat", "message"),
    [
        ("forfeit", 0, "aborted, left, no_move, playing_time, resigned, time, withdrawn"),
        ("resigned", None, "needs the seat"),
        ("playing_time", 0, "give no seat"),
        ("time", 2, "players are 0-1"),
    ],
)
def test_unknown_rules_and_seats_are_refused(kind: str, seat: int | None, message: str) -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(1)
    with pytest.raises(SpielwerkError, match=message):
        state.match_ending(kind, seat)
