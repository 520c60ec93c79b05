"""The Game's rulings on explicit positions, bad input, the JSON move format and table talk.

Positions are written as the engine's serialized JSON (the_game_oracle.position_json) and
loaded with `game.deserialize_state`, so that every ruling T1-T7 is met head on: the
backward trick in both directions and chained within a turn, no jumps of twenty, the
minimum with and without a draw pile and in the pro variant, the draw, skipped empty hands,
the loss the moment the minimum cannot be reached, the win and the score.
"""

from __future__ import annotations

import json
import pickle
import random
import re
from typing import Any

import pytest
import spielwerk
from move_checks import assert_malformed_move_refused, check_text
from spielwerk import the_game as tg
from the_game_oracle import (
    CARDS,
    END_TURN,
    GAME_NAME,
    HAND_SIZE,
    NUM_ACTIONS,
    RULING_PREFIX,
    START_TOPS,
    Position,
    expected_move,
    is_stuck,
    is_won,
    pile_name,
    play_action,
    position_json,
    refusal_for_early_end,
    refusal_for_misfit,
    score,
)


def load(players: int, pro: bool = False) -> spielwerk.Game:
    return spielwerk.load_game(GAME_NAME, players=players, pro=pro)


def position(
    players: int,
    hands: list[list[int]],
    tops: tuple[int, ...] = START_TOPS,
    draw: int | list[int] = 0,
    current: int = 0,
    pro: bool = False,
) -> spielwerk.State:
    text = position_json(players=players, hands=hands, tops=tops, draw=draw, current=current, pro=pro)
    return load(players, pro).deserialize_state(text)


def play(state: spielwerk.State, card: int, pile: int) -> None:
    state.apply_action(play_action(card, pile))


def pos_of(state: spielwerk.State) -> Position:
    return Position.of(state)


def plays_on(state: spielwerk.State, pile: int) -> set[int]:
    """The cards the engine offers for `pile`."""
    return {a // 4 + 2 for a in state.legal_actions() if a != END_TURN and a % 4 == pile}


def assert_refused(state: spielwerk.State, action: int, message: str) -> None:
    """Refused with exactly `message` (by apply_action and check_move), changing nothing."""
    before = state.serialize()
    with pytest.raises(spielwerk.IllegalActionError) as error:
        state.apply_action(action)
    assert str(error.value) == message
    assert check_text(state, state.action_to_json(action)) == message
    assert action not in state.legal_actions()
    assert state.serialize() == before, "a refused action changes nothing"


# --- T1, T2: cards, players, the deal --------------------------------------------------


@pytest.mark.parametrize("players", range(1, 6))
def test_deal_gives_each_player_the_hand_size_of_t2(players: int) -> None:
    game = load(players)
    assert game.num_players() == players and game.num_distinct_actions() == NUM_ACTIONS == 393
    state = game.new_initial_state(seed=21)
    pos = pos_of(state)
    size = {1: 8, 2: 7}.get(players, 6)  # "solo acht Karten, zu zweit sieben, zu dritt bis fünft sechs"
    assert HAND_SIZE[players] == size
    assert [len(hand) for hand in pos.hands] == [size] * players
    assert len(pos.draw_pile) == 98 - size * players
    assert sorted([c for hand in pos.hands for c in hand] + list(pos.draw_pile)) == list(CARDS)
    assert pos.tops == (1, 1, 100, 100) and pos.pile_sizes == (0, 0, 0, 0)
    assert state.current_player() == 0, "T2: player 0 starts"
    view = state.view(0)
    assert [pile["direction"] for pile in view["piles"]] == [
        "ascending",
        "ascending",
        "descending",
        "descending",
    ]
    assert view["minimum"] == 2 and view["draw_pile_size"] == 98 - size * players
    # On fresh piles every card fits every pile: 4 plays per hand card, no end_turn.
    assert len(state.legal_actions()) == 4 * size


def test_defaults_are_two_players_without_pro() -> None:
    game = spielwerk.load_game(GAME_NAME)
    assert game.options() == {"players": 2, "pro": False}
    assert game.num_players() == 2
    assert load(5, pro=True).options() == {"players": 5, "pro": True}
    assert spielwerk.load_game(GAME_NAME, pro=True).options() == {"players": 2, "pro": True}
    assert GAME_NAME in spielwerk.list_games()
    assert game == spielwerk.load_game(GAME_NAME, players=2) and game != load(3)


# --- T4: the piles and the backward trick ----------------------------------------------


def test_backward_trick_chains_on_an_ascending_pile_63_53_43_46() -> None:
    # "Auf die 63 passt die 53, danach die 43 ... 63 → 53 → 43 → 46 - zweimal zehn zurück."
    hands = [[33, 43, 46, 52, 53, 55, 91], [12, 13, 14, 15, 16, 17, 18]]
    state = position(2, hands, tops=(63, 1, 100, 100), draw=10)
    assert_refused(state, play_action(52, 0), refusal_for_misfit(52, 0, 63))
    assert refusal_for_misfit(52, 0, 63) == (
        "T4: 52 on ascending pile 1 at 63 is neither higher nor exactly 10 lower"
    )
    # "Von 63 direkt auf 43 zu springen, ist verboten."
    assert_refused(
        state, play_action(43, 0), "T4: 43 on ascending pile 1 at 63 is neither higher nor exactly 10 lower"
    )
    assert_refused(state, play_action(55, 0), refusal_for_misfit(55, 0, 63))  # no "at most ten"
    assert_refused(state, play_action(33, 0), refusal_for_misfit(33, 0, 63))  # no multiples of ten
    assert plays_on(state, 0) == {53, 91}
    size = pos_of(state).pile_sizes[0]
    play(state, 53, 0)
    assert plays_on(state, 0) == {43, 55, 91}, "each card is measured against the top at that moment"
    play(state, 43, 0)
    assert plays_on(state, 0) == {33, 46, 52, 55, 91}
    assert END_TURN in state.legal_actions()
    play(state, 46, 0)
    view = state.view(0)
    assert view["piles"][0]["top"] == 46 and view["played_this_turn"] == 3
    assert pos_of(state).pile_sizes[0] == view["piles"][0]["cards_played"] == size + 3
    assert_refused(state, play_action(33, 0), refusal_for_misfit(33, 0, 46))


def test_backward_trick_on_a_descending_pile_36_46_56_66_then_down() -> None:
    # "Auf den absteigenden Stapeln gilt es gespiegelt: Auf die 36 darf die 46, danach die 56."
    hands = [[16, 26, 45, 46, 56, 66, 80], [12, 13, 14, 15, 17, 18, 19]]
    state = position(2, hands, tops=(1, 1, 100, 36), draw=10)
    assert_refused(
        state, play_action(56, 3), "T4: 56 on descending pile 2 at 36 is neither lower nor exactly 10 higher"
    )
    assert_refused(state, play_action(45, 3), refusal_for_misfit(45, 3, 36))
    assert_refused(state, play_action(66, 3), refusal_for_misfit(66, 3, 36))
    assert plays_on(state, 3) == {16, 26, 46}
    size = pos_of(state).pile_sizes[3]
    for card in (46, 56, 66):
        play(state, card, 3)
    assert plays_on(state, 3) == {16, 26, 45}, "three times ten back; 80 is not 76"
    play(state, 26, 3)
    pile = state.view(1)["piles"][3]
    assert {k: pile[k] for k in ("direction", "top", "cards_played")} == {
        "direction": "descending",
        "top": 26,
        "cards_played": size + 4,
    }
    # What the pile takes from seat 1's hand now (T4): lower than 26, or exactly 36.
    hand = state.view(1)["hand"]
    assert pile["takes"] == [c for c in hand if c < 26 or c == 36]
    assert pile["backward"] == [c for c in hand if c == 36]


def test_backward_tricks_on_all_four_piles_in_one_turn() -> None:
    # "Den Rückwärts-Trick darfst du in einem Zug mehrfach nutzen, auch auf verschiedenen Stapeln."
    state = position(1, [[9, 10, 20, 47, 51, 60, 74, 90]], tops=(30, 57, 64, 41), draw=5)
    assert_refused(state, play_action(10, 0), refusal_for_misfit(10, 0, 30))
    for card, pile in ((20, 0), (47, 1), (74, 2), (51, 3)):
        play(state, card, pile)
    assert pos_of(state).tops == (20, 47, 74, 51)
    # Back once more on the same pile, then on as usual.
    play(state, 10, 0)
    assert plays_on(state, 0) == {60, 90} and plays_on(state, 3) == {9}
    state.apply_action(END_TURN)
    pos = pos_of(state)
    assert pos.played_this_turn == 0 and len(pos.hands[0]) == 3 + 5 and pos.draw_pile == ()


# One position per row: (pile, its top, the card, fits). The other piles stay open, so no
# position is stuck. T4: "Nichts anderes" - no at most ten, no multiples of ten. The draw
# pile is empty: only then can play reach hands of one card (T3).
T4_TABLE = [
    (0, 63, 64, True),
    (0, 63, 73, True),
    (0, 63, 53, True),
    (0, 63, 43, False),
    (0, 63, 55, False),
    (0, 63, 62, False),
    (0, 63, 33, False),
    (0, 12, 2, True),
    (0, 1, 2, True),
    (0, 1, 99, True),
    (1, 99, 89, True),
    (1, 99, 98, False),
    (1, 99, 79, False),
    (1, 20, 10, True),
    (1, 20, 11, False),
    (1, 20, 9, False),
    (2, 36, 46, True),
    (2, 36, 56, False),
    (2, 36, 45, False),
    (2, 36, 47, False),
    (2, 36, 35, True),
    (2, 36, 26, True),
    (3, 100, 99, True),
    (3, 100, 2, True),
    (3, 89, 99, True),
    (3, 89, 90, False),
    (3, 2, 12, True),
    (3, 2, 3, False),
    (3, 2, 22, False),
]


@pytest.mark.parametrize(("pile", "top", "card", "fits"), T4_TABLE)
def test_a_card_fits_a_pile_as_t4_says(pile: int, top: int, card: int, fits: bool) -> None:
    tops = [40, 1, 100, 100] if pile != 0 else [1, 1, 100, 60]
    tops[pile] = top
    state = position(2, [[card], [97]], tops=tuple(tops))
    assert (play_action(card, pile) in state.legal_actions()) == fits
    if fits:
        play(state, card, pile)
        assert pos_of(state).tops[pile] == card
    else:
        assert_refused(state, play_action(card, pile), refusal_for_misfit(card, pile, top))


# --- T3: the turn, the minimum, the draw ---------------------------------------------------


def test_minimum_is_two_while_the_draw_pile_has_cards_and_more_is_allowed() -> None:
    draw = [2, 3, 4, 6, 7, 8, 9, 10, 11, 12]  # 12 is drawn first
    hands = [[20, 30, 40, 50, 60, 70], [81, 82, 83, 84, 85, 86], [91, 92, 93, 94, 95, 96]]
    state = position(3, hands, tops=(5, 1, 100, 100), draw=draw)
    assert state.view(0)["minimum"] == 2
    assert_refused(state, END_TURN, refusal_for_early_end(2))
    assert refusal_for_early_end(2) == "T3: you must play 2 more cards before ending the turn"
    play(state, 20, 0)
    assert_refused(state, END_TURN, "T3: you must play 1 more card before ending the turn")
    play(state, 30, 0)
    assert END_TURN in state.legal_actions()
    # "mindestens zwei Karten legen, mehr ist erlaubt"
    play(state, 40, 0)
    play(state, 50, 0)
    state.apply_action(END_TURN)
    pos = pos_of(state)
    # "Danach so viele Karten nachziehen, wie du gelegt hast": four, from the end of the pile.
    assert pos.hands[0] == {60, 70, 9, 10, 11, 12}
    assert pos.draw_pile == (2, 3, 4, 6, 7, 8)
    assert (pos.current, pos.played_this_turn) == (1, 0)


def test_a_player_may_play_the_whole_hand_and_then_draws_as_many() -> None:
    # "mindestens zwei Karten legen, mehr ist erlaubt - sogar alle."
    hand = [20, 30, 40, 50, 60, 70, 80]
    state = position(2, [hand, [91, 92, 93, 94, 95, 96, 97]], tops=(5, 1, 100, 100), draw=20)
    for card in hand[:-1]:
        play(state, card, 0)
        assert state.current_player() == 0
    play(state, 80, 0)  # the hand is empty: the turn ends by itself and the draw follows
    pos = pos_of(state)
    assert (pos.current, pos.played_this_turn) == (1, 0)
    assert len(pos.hands[0]) == 7 and len(pos.draw_pile) == 13
    assert not state.is_terminal()


def test_minimum_is_one_once_the_draw_pile_is_empty() -> None:
    state = position(2, [[20, 30, 40], [50, 60]], tops=(5, 1, 100, 100))
    assert state.view(0)["minimum"] == 1 and state.view(1)["minimum"] == 1
    assert_refused(state, END_TURN, "T3: you must play 1 more card before ending the turn")
    play(state, 20, 0)
    assert END_TURN in state.legal_actions()
    state.apply_action(END_TURN)
    pos = pos_of(state)
    assert pos.hands[0] == {30, 40}, "nothing to draw"
    assert pos.current == 1 and not state.is_terminal(), "an empty draw pile does not end the game"


@pytest.mark.parametrize("players", [1, 4])
def test_pro_minimum_is_three_and_one_without_draw_pile(players: int) -> None:
    # Full hands (T2): solo eight cards, four players six each.
    mine = [20, 30, 40, 50, 60, 70, 72, 74][: HAND_SIZE[players]]
    hands = [mine] + [[75 + 6 * p + i for i in range(6)] for p in range(players - 1)]
    state = position(players, hands, tops=(5, 1, 100, 100), draw=5, pro=True)
    assert state.view(0)["minimum"] == 3
    assert_refused(state, END_TURN, "T3: you must play 3 more cards before ending the turn")
    play(state, 20, 0)
    assert_refused(state, END_TURN, "T3: you must play 2 more cards before ending the turn")
    play(state, 30, 0)
    assert_refused(state, END_TURN, "T3: you must play 1 more card before ending the turn")
    play(state, 40, 0)
    state.apply_action(END_TURN)
    assert len(pos_of(state).hands[0]) == HAND_SIZE[players], "three played, three drawn"
    # T3 applies to the pro variant too: one card once the draw pile is empty.
    empty = position(players, hands, tops=(5, 1, 100, 100), pro=True)
    assert empty.view(0)["minimum"] == 1
    play(empty, 20, 0)
    assert END_TURN in empty.legal_actions()


def test_the_draw_takes_what_is_left_then_everyone_needs_one() -> None:
    hands = [[20, 30, 40, 50, 60, 70, 80], [81, 82, 83, 84, 85, 86, 87]]
    state = position(2, hands, tops=(5, 1, 100, 100), draw=[2, 3])
    for card in (20, 30, 40):
        play(state, card, 0)
    state.apply_action(END_TURN)
    pos = pos_of(state)
    assert pos.hands[0] == {50, 60, 70, 80, 2, 3}, "three played, two left to draw"
    assert pos.draw_pile == ()
    assert all(state.view(p)["minimum"] == 1 for p in (0, 1))
    play(state, 81, 1)
    state.apply_action(END_TURN)
    assert pos_of(state).hands[1] == {82, 83, 84, 85, 86, 87}
    assert state.current_player() == 0


# --- T5: a player without hand cards is skipped -----------------------------------------


def test_players_without_cards_are_skipped() -> None:
    # Seats 1 and 2 hold nothing: from 0 the turn goes to 3, from 3 back to 0.
    state = position(4, [[20, 30], [], [], [60, 70]], tops=(5, 1, 100, 100))
    play(state, 20, 0)
    state.apply_action(END_TURN)
    assert state.current_player() == 3
    assert state.view(1)["current_player"] == 3 and state.view(1)["hand_sizes"] == [1, 0, 0, 2]
    play(state, 60, 0)
    state.apply_action(END_TURN)
    assert state.current_player() == 0


def test_a_player_who_runs_out_is_skipped_from_then_on() -> None:
    # "Hast du keine Handkarten mehr, spielen die anderen ohne dich weiter."
    state = position(3, [[40, 50], [20], [60, 70]], tops=(5, 1, 100, 100), current=1)
    play(state, 20, 0)  # player 1 plays the last card: the turn ends by itself
    assert state.current_player() == 2
    play(state, 60, 0)
    state.apply_action(END_TURN)
    assert state.current_player() == 0
    play(state, 40, 1)
    state.apply_action(END_TURN)
    assert state.current_player() == 2, "player 1 is skipped"


def test_the_only_player_with_cards_moves_again() -> None:
    state = position(5, [[], [], [30, 40, 50], [], []], tops=(5, 1, 100, 100), current=2)
    play(state, 30, 0)
    state.apply_action(END_TURN)
    assert state.current_player() == 2
    assert state.view(0)["current_player"] == 2


def test_seat_zero_is_skipped_when_the_turn_wraps_around() -> None:
    state = position(5, [[], [20, 21], [], [], [60, 61]], tops=(5, 1, 100, 100), current=4)
    play(state, 60, 0)
    state.apply_action(END_TURN)
    assert state.current_player() == 1


# --- T6: the end and the score ----------------------------------------------------------


def assert_lost(state: spielwerk.State, expected_score: int, stuck: int) -> None:
    """Lost (T6) with `expected_score` cards left, `stuck` the player who could not go on."""
    pos = pos_of(state)
    assert state.is_terminal() and state.current_player() == spielwerk.TERMINAL
    assert pos.outcome == {"won": False, "score": expected_score} and pos.current == stuck
    assert score(pos) == expected_score and is_stuck(pos)
    assert state.returns() == [-float(expected_score)] * pos.players, "R1/T6: every player gets -score"
    assert state.legal_actions() == [] and not state.legal_actions_mask().any()
    for p in range(pos.players):
        view = state.view(p)
        assert view["outcome"] == {"won": False, "score": expected_score, "stuck_player": stuck}
        assert view["current_player"] is None
    assert state.public_view()["outcome"] == {"won": False, "score": expected_score, "stuck_player": stuck}
    before = state.serialize()
    for action in (END_TURN, play_action(min(pos.hands[pos.current] or {2}), 0)):
        with pytest.raises(spielwerk.IllegalActionError, match=r"^T6: ") as error:
            state.apply_action(action)
        assert check_text(state, state.action_to_json(action)) == str(error.value)
    assert state.serialize() == before


def test_lost_in_the_middle_of_a_turn_when_the_minimum_cannot_be_reached() -> None:
    hands = [[88, 40, 41, 42, 43, 44], [2, 3, 4, 6, 7, 9], [90, 91, 92, 93, 94, 96]]
    state = position(3, hands, tops=(87, 95, 5, 8), draw=7)
    assert state.legal_actions() == [play_action(88, 0)]
    play(state, 88, 0)
    # 40-44 fit nowhere (asc 88, asc 95, desc 5, desc 8) and one card is short of two.
    assert_lost(state, expected_score=5 + 6 + 6 + 7, stuck=0)


def test_not_lost_when_the_minimum_is_already_reached() -> None:
    hands = [[88, 89, 40, 41, 42, 43], [2, 3, 4, 6, 7, 9], [90, 91, 92, 93, 94, 96]]
    state = position(3, hands, tops=(87, 95, 5, 8), draw=7)
    play(state, 88, 0)
    play(state, 89, 0)
    assert not state.is_terminal()
    assert state.legal_actions() == [END_TURN], "nothing fits, but two cards are played"
    state.apply_action(END_TURN)
    assert state.current_player() == 1 and not state.is_terminal()


def test_lost_at_the_start_of_a_turn_when_the_next_player_cannot_play() -> None:
    # Player 0 plays two and draws two; player 1 holds 60-65, which fit nowhere.
    hands = [[97, 98, 50, 51, 52, 53], [60, 61, 62, 63, 64, 65], [2, 3, 6, 7, 9, 11]]
    state = position(3, hands, tops=(96, 90, 5, 8), draw=[13, 14, 15])
    play(state, 97, 0)
    play(state, 98, 0)
    assert not state.is_terminal()
    state.apply_action(END_TURN)
    assert pos_of(state).current == 1
    assert_lost(state, expected_score=6 + 6 + 6 + 1, stuck=1)


def test_lost_with_an_empty_draw_pile_when_not_even_one_card_fits() -> None:
    state = position(2, [[97, 50], [60, 61]], tops=(96, 90, 3, 2))
    play(state, 97, 0)
    assert state.legal_actions() == [END_TURN]
    state.apply_action(END_TURN)
    assert_lost(state, expected_score=1 + 2, stuck=1)


def test_a_stuck_player_without_cards_is_skipped_not_lost() -> None:
    # Player 1 holds nothing (T5); player 2 can still play, so the game goes on.
    state = position(3, [[97, 50], [], [4, 61]], tops=(96, 90, 5, 2))
    play(state, 97, 0)
    state.apply_action(END_TURN)
    assert state.current_player() == 2 and not state.is_terminal()
    assert state.legal_actions() == [play_action(4, 2)]


def test_won_when_the_last_card_is_played() -> None:
    state = position(3, [[50, 60], [70], []], tops=(40, 1, 100, 100))
    play(state, 50, 0)
    play(state, 60, 0)  # player 0's hand is empty: the turn passes on (T5)
    assert state.current_player() == 1 and not state.is_terminal()
    play(state, 70, 0)
    pos = pos_of(state)
    assert state.is_terminal() and is_won(pos)
    assert pos.outcome == {"won": True, "score": 0}
    assert state.returns() == [0.0, 0.0, 0.0]
    won = {"won": True, "score": 0, "stuck_player": None}
    assert all(state.view(p)["outcome"] == won for p in range(3)) and state.public_view()["outcome"] == won
    assert sum(pos.pile_sizes) == 98 and state.legal_actions() == []


def test_won_solo() -> None:
    state = position(1, [[50, 51]], tops=(40, 1, 100, 100))
    play(state, 51, 0)
    assert not state.is_terminal()
    play(state, 50, 2)
    assert state.returns() == [0.0] and pos_of(state).outcome == {"won": True, "score": 0}


def test_score_counts_every_hand_and_the_draw_pile() -> None:
    # 5 + 6 + 6 + 6 cards in hands, 9 to draw: 32 left, every player gets -32. (While the
    # draw pile has cards every hand but the mover's is full, T3.)
    hands = [
        [88, 40, 41, 42, 43, 44],
        [60, 61, 62, 63, 64, 65],
        [50, 51, 52, 53, 54, 55],
        [70, 71, 72, 73, 74, 75],
    ]
    state = position(4, hands, tops=(87, 95, 5, 8), draw=9)
    play(state, 88, 0)
    assert_lost(state, expected_score=32, stuck=0)
    assert state.returns() == [-32.0] * 4
    assert state.result_text() == "the players lose: 32 cards left (23 in hands, 9 in the draw pile)"


# --- Positions read from JSON ------------------------------------------------------------


# Three players, seat 2 to move: while the draw pile has cards every hand is full (T3).
BASE_HANDS = [[20, 30, 31, 32, 33, 34], [40, 41, 42, 43, 44, 45], [50, 60, 61, 62, 63, 64]]


def test_deserialized_positions_round_trip() -> None:
    text = position_json(players=3, hands=BASE_HANDS, tops=(5, 1, 100, 36), draw=7, current=2)
    state = load(3).deserialize_state(text)
    assert pos_of(state) == Position.from_json(json.loads(text))
    assert load(3).deserialize_state(state.serialize()) == state


@pytest.mark.parametrize("source", ["position", "resample"])
def test_a_state_without_history_round_trips_after_play(source: str) -> None:
    """serialize/deserialize and pickle round-trip every state, also one whose history
    starts after the deal: a position read from JSON or a resample, then played on."""
    if source == "position":
        text = position_json(players=3, hands=BASE_HANDS, tops=(5, 1, 100, 36), draw=7, current=2)
        state = load(3).deserialize_state(text)
    else:
        seeded = load(3).new_initial_state(seed=4)
        seeded.apply_action(seeded.legal_actions()[0])
        state = seeded.resample(0, 9)
        assert state.history() == []
    state.apply_action(state.legal_actions()[0])
    assert load(3).deserialize_state(state.serialize()) == state
    assert pickle.loads(pickle.dumps(state)) == state


def test_serialized_hands_hold_one_list_per_seat() -> None:
    # The brief: "hands (list per seat)"; state.rs: "one list per seat in play, not five".
    state = position(4, [[20, 30], [40], [50], []], tops=(5, 1, 100, 100), current=0)
    data = json.loads(state.serialize())
    assert data["hands"] == [[20, 30], [40], [50], []]
    won = position(3, [[50], [], []], tops=(40, 1, 100, 100))
    play(won, 50, 0)
    assert json.loads(won.serialize())["hands"] == [[], [], []]


def edit(text: str, **changes: Any) -> str:
    data = json.loads(text)
    data.update(changes)
    return json.dumps(data)


BASE = position_json(players=3, hands=BASE_HANDS, tops=(5, 1, 100, 36), draw=7)
BASE_DATA = json.loads(BASE)
PLAYED = sum(BASE_DATA["pile_sizes"])  # 98 - 18 held - 7 to draw

# (name, JSON, words the error must contain)
BAD_STATES: list[tuple[str, str, list[str]]] = [
    ("a card missing", edit(BASE, draw_pile=BASE_DATA["draw_pile"][1:]), ["98"]),
    ("a card held twice", edit(BASE, hands=[BASE_HANDS[0], [*BASE_HANDS[1][1:], 20], BASE_HANDS[2]]), ["20"]),
    ("a card in hand and draw pile", edit(BASE, draw_pile=[*BASE_DATA["draw_pile"], 40]), ["40"]),
    ("a card 1", edit(BASE, hands=[[1, *BASE_HANDS[0][1:]], *BASE_HANDS[1:]]), ["2-99"]),
    ("a card 100", edit(BASE, hands=[[*BASE_HANDS[0][1:], 100], *BASE_HANDS[1:]]), ["2-99"]),
    ("a top held", edit(BASE, tops=[20, 1, 100, 36]), ["20"]),
    (
        "a top on an unplayed pile",
        edit(BASE, pile_sizes=[PLAYED, 0, 0, 0]),
        ["descending pile 2 (pile 3)", "36"],
    ),
    (
        "a played pile at its start",
        edit(BASE, tops=[5, 1, 100, 100], pile_sizes=[PLAYED - 2, 1, 0, 1]),
        ["ascending pile 2 (pile 1)"],
    ),
    ("a fourth seat's cards", edit(BASE, hands=[*BASE_HANDS, []]), ["4 hands for 3 players"]),
    ("a player who does not exist", edit(BASE, current=3), ["3"]),
    ("an unknown field", edit(BASE, colour="red"), ["colour"]),
    ("the rules of another game", edit(BASE, rules={"players": 2, "pro": False}), ["players"]),
    ("an action outside the space", edit(BASE, history=[393]), ["393"]),
    ("not JSON", "{", ["The Game"]),
]


@pytest.mark.parametrize(("name", "text", "words"), BAD_STATES, ids=[case[0] for case in BAD_STATES])
def test_deserialize_refuses_impossible_positions(name: str, text: str, words: list[str]) -> None:
    assert load(3).deserialize_state(BASE) is not None, "the base position is fine"
    with pytest.raises(ValueError) as error:
        load(3).deserialize_state(text)
    for word in words:
        assert word in str(error.value), f"{name}: {error.value}"


# T1: the tops are played cards 2-99, each once, like every other card: a top of 150 or 0
# would make a pile take anything, and one card lying on two piles breaks the count of 98.
BAD_TOPS: list[tuple[str, list[int], str]] = [
    ("a top of 150", [150, 1, 100, 36], "top 150 must be a played card 2-99"),
    ("a top of 0", [0, 1, 100, 36], "top 0 must be a played card 2-99"),
    ("the same top on two piles", [36, 1, 100, 36], "36 is the top of two piles"),
]


@pytest.mark.parametrize(("name", "tops", "words"), BAD_TOPS, ids=[case[0] for case in BAD_TOPS])
def test_deserialize_refuses_tops_that_are_not_distinct_cards(name: str, tops: list[int], words: str) -> None:
    data = json.loads(BASE)
    # Keep the count of 98 right: the old top 5 goes to the draw pile if it is no top any more.
    if 5 not in tops:
        data["draw_pile"].append(5)
        data["pile_sizes"][0] -= 1
    data["pile_sizes"][0] = max(data["pile_sizes"][0], 1)
    data["tops"] = tops
    with pytest.raises(spielwerk.InvalidStateError, match=re.escape(words)):
        load(3).deserialize_state(json.dumps(data))


# Positions whose recorded turn or outcome contradicts T5/T6. Outcomes are derived from the
# position, never trusted: the engine refuses them all, naming the ruling.
INCONSISTENT: list[tuple[str, str, str]] = [
    # Player 0 holds 55, which fits nowhere, with none played: lost (T6), not running.
    ("stuck but running", position_json(players=2, hands=[[55], [3]], tops=(60, 61, 40, 41)), "(T6)"),
    # Player 0 holds nothing while player 1 does: player 0 cannot be the one to move (T5).
    ("an empty hand to move", position_json(players=2, hands=[[], [3, 4]], tops=(60, 61, 40, 41)), "(T5)"),
    # Cards are left, yet the outcome says won.
    (
        "won with cards left",
        edit(
            position_json(players=2, hands=[[50], [3]], tops=(60, 61, 40, 41)),
            outcome={"won": True, "score": 0},
        ),
        "(T6)",
    ),
    # Player 0 can play 50, yet the outcome says lost.
    (
        "lost while a card fits",
        edit(
            position_json(players=2, hands=[[50], [3]], tops=(60, 61, 40, 41)),
            outcome={"won": False, "score": 2},
        ),
        "(T6)",
    ),
    # Lost, but with a wrong score: two cards are left, not five.
    (
        "lost with a wrong score",
        edit(
            position_json(players=2, hands=[[55], [3]], tops=(60, 61, 40, 41)),
            outcome={"won": False, "score": 5},
        ),
        "(T6)",
    ),
]


@pytest.mark.parametrize(("name", "text", "ruling"), INCONSISTENT, ids=[case[0] for case in INCONSISTENT])
def test_deserialize_never_yields_a_position_against_t5_t6(name: str, text: str, ruling: str) -> None:
    with pytest.raises(spielwerk.InvalidStateError) as error:
        load(2).deserialize_state(text)
    assert ruling in str(error.value), f"{name}: {error.value}"
    assert error.value.code == "invalid_state"


def test_deserialize_reads_the_outcome_the_position_gives() -> None:
    """The stuck position of above, with the outcome it implies (T6), is read as a lost game."""
    text = edit(
        position_json(players=2, hands=[[55], [3]], tops=(60, 61, 40, 41)),
        outcome={"won": False, "score": 2},
    )
    state = load(2).deserialize_state(text)
    pos = pos_of(state)
    assert state.is_terminal() and is_stuck(pos) and not is_won(pos)
    assert pos.outcome == {"won": False, "score": score(pos)} == {"won": False, "score": 2}
    assert state.view(1)["outcome"] == {"won": False, "score": 2, "stuck_player": 0}


# --- Options, players, seeds ------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "needles"),
    [
        ({"players": 0}, ["players", "1-5", "0"]),
        ({"players": 6}, ["players", "1-5", "6"]),
        ({"players": -1}, ["players", "1-5", "-1"]),
        ({"players": "3"}, ["players", "1-5", '"3"']),
        ({"players": 2.5}, ["players", "1-5", "2.5"]),
        ({"players": None}, ["players", "1-5"]),
        ({"pro": "yes"}, ["pro", "true or false", '"yes"']),
        ({"pro": 1}, ["pro", "true or false", "1"]),
        ({"pro": None}, ["pro", "true or false"]),
        ({"player": 3}, ["'player'", "players, pro"]),
        ({"first_player": 1}, ["'first_player'", "players, pro"]),
    ],
)
def test_bad_options_name_what_is_allowed(options: dict[str, Any], needles: list[str]) -> None:
    with pytest.raises(ValueError) as error:
        spielwerk.load_game(GAME_NAME, **options)
    assert not isinstance(error.value, spielwerk.IllegalActionError)
    for needle in needles:
        assert needle in str(error.value), f"{error.value!r} does not mention {needle!r}"
    with pytest.raises(ValueError):
        spielwerk.load_game(GAME_NAME, **options)


@pytest.mark.parametrize("player", [3, -1])
def test_players_are_zero_to_n_minus_one(player: int) -> None:
    state = load(3).new_initial_state(seed=1)
    for call in (state.view, state.hand, lambda p: state.resample(p, 0)):
        with pytest.raises(ValueError, match=rf"player {player}.*0-2"):
            call(player)


def test_bad_seed_names_the_seed() -> None:
    with pytest.raises(ValueError, match=r"seed.*-1"):
        load(2).new_initial_state(seed=-1)


# --- Moves: check_move and the JSON format -----------------------------------------------

# Any: some of these are deliberately not dicts at all. Fields and types are named the way
# serde names them, in backticks.
MALFORMED_MOVES: list[Any] = [
    ({"type": "play", "card": 1, "pile": 0}, ["1", "2-99"]),
    ({"type": "play", "card": 100, "pile": 0}, ["100", "2-99"]),
    ({"type": "play", "card": "52", "pile": 0}, ["52", "2-99"]),
    ({"type": "play", "card": 52.5, "pile": 0}, ["52.5", "2-99"]),
    ({"type": "play", "card": 52, "pile": 4}, ["4", "0-3"]),
    ({"type": "play", "card": 52, "pile": -1}, ["-1", "0-3"]),
    ({"type": "play", "card": 52, "pile": "up"}, ["up", "0-3"]),
    ({"type": "play", "card": "52", "pile": 0}, ["`card`", "52"]),
    ({"type": "play", "card": 52, "pile": "up"}, ["`pile`", "up"]),
    ({"type": "play", "card": 52}, ["missing field `pile`"]),
    ({"type": "play", "pile": 0}, ["missing field `card`"]),
    ({"type": "play", "card": 52, "pile": 0, "stone": 1}, ["unknown field `stone`", "`card`", "`pile`"]),
    ({"type": "end_turn", "card": 52}, ["unknown field `card`"]),
    ({"type": "draw"}, ["unknown variant `draw`", "`play`", "`end_turn`"]),
    ({"type": 5}, ["`type`", "5"]),
    ({}, ["missing field `type`"]),
    (["end_turn"], ["object"]),
    ("end_turn", ["object"]),
]


@pytest.mark.parametrize(("move", "needles"), MALFORMED_MOVES)
def test_malformed_moves_say_what_is_wrong_and_what_is_allowed(move: Any, needles: list[str]) -> None:
    state = load(3).new_initial_state(seed=1)
    assert_malformed_move_refused(state, move, needles, ('"play"', '"end_turn"', "2-99", "0-3"))


def test_moves_round_trip_for_all_393_actions() -> None:
    state = load(2).new_initial_state(seed=3)
    moves = [state.action_to_json(action) for action in range(NUM_ACTIONS)]
    for action, move in enumerate(moves):
        # The documented encoding: play (card - 2) * 4 + pile, end_turn 392.
        assert move == expected_move(action), action
        assert state.action_from_json(move) == action
        text: str = state.action_to_string(action)
        if move["type"] == "play":
            # Texts for people number the piles as the board shows them (ids stay 0-3).
            assert text == f"play {move['card']} on {pile_name(move['pile'])}", text
        else:
            assert text == "end turn", text
    assert moves[END_TURN] == {"type": "end_turn"} and moves[play_action(52, 0)]["card"] == 52
    assert len({json.dumps(m, sort_keys=True) for m in moves}) == NUM_ACTIONS


def test_check_move_agrees_with_legal_actions_and_changes_nothing() -> None:
    kinds = set()
    for seed in range(3):
        game = load(1 + seed)
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while True:
            before = state.serialize()
            legal = set(state.legal_actions())
            for action in range(NUM_ACTIONS):
                reason = check_text(state, state.action_to_json(action))
                if action in legal:
                    assert reason is None
                    continue
                assert isinstance(reason, str) and RULING_PREFIX.match(reason), reason
                kinds.add(reason[:2])
                with pytest.raises(spielwerk.IllegalActionError) as error:
                    state.apply_action(action)
                assert str(error.value) == reason
            assert state.serialize() == before
            if state.is_terminal():
                break
            state.apply_action(rng.choice(sorted(legal)))
    assert kinds == {"T3", "T4", "T6"}, kinds


def test_refusals_carry_a_stable_code_and_params() -> None:
    hands = [[33, 43, 46, 52, 53, 55, 91], [12, 13, 14, 15, 16, 17, 18]]
    state = position(2, hands, tops=(63, 1, 100, 100), draw=10)
    expected = [
        (play_action(52, 0), "T4", "pile_wrong_direction", {"card": 52, "pile": 0, "top": 63}),
        (play_action(12, 0), "T3", "card_not_in_hand", {"card": 12, "player": 0}),
        (END_TURN, "T3", "minimum_not_played", {"missing": 2, "minimum": 2, "played": 0}),
    ]
    for action, rule, code, params in expected:
        rejection = state.check_move(state.action_to_json(action))
        assert isinstance(rejection, spielwerk.IllegalActionError)
        assert (rejection.rule, rejection.code, rejection.params) == (rule, code, params)
        with pytest.raises(spielwerk.IllegalActionError) as error:
            state.apply_action(action)
        assert (error.value.code, error.value.params) == (code, params)
    # The German reason numbers the piles as the board does, too.
    misfit = state.check_move(state.action_to_json(play_action(52, 0)))
    assert misfit is not None and misfit.reason_de is not None
    assert "aufsteigenden Stapel 1" in misfit.reason_de, misfit.reason_de
    with pytest.raises(spielwerk.IllegalActionError) as error:
        state.apply_action(NUM_ACTIONS + 7)
    assert error.value.code == "no_such_action"
    other = state.check_move({"type": "end_turn"}, seat=1)
    assert other is not None and other.code == "not_your_turn"
    lost = position(2, [[97, 50], [60, 61]], tops=(96, 90, 3, 2))
    play(lost, 97, 0)
    lost.apply_action(END_TURN)
    over = lost.check_move({"type": "end_turn"})
    assert over is not None and (over.rule, over.code) == ("T6", "game_over")


# --- T7: table talk ---------------------------------------------------------------------

# (phrase, mentions a number). Different phrases from the Rust table in talk.rs where the
# brief allows; the rule's own words are in both.
TALK: list[tuple[str, bool]] = [
    # Digits, any script.
    ("63!", True),
    ("Leg die 7 bitte nicht", True),
    ("I have a 42 here", True),
    ("Stapel 3 ist fast zu", True),
    ("am Ende 0 Karten", True),
    ("\uff16\uff13", True),  # fullwidth digits
    ("\u0666\u0663", True),  # Arabic-Indic digits
    ("twenty2", True),
    ("pile #2", True),
    # German number words and compounds.
    ("DREIUNDSECHZIG", True),
    ("Ich habe die dreiundsechzig", True),
    ("Hast du zweiundzwanzig?", True),
    ("einundzwanzig", True),
    ("Drei-und-sechzig", True),
    ("ZwEiUnDzWaNzIg", True),
    ("Siebenundachtzig", True),
    ("FÜNFUNDFÜNFZIG", True),
    ("fuenfundzwanzig", True),
    ("neunzehn", True),
    ("sechsundsechzig", True),
    ("Zwölf", True),
    ("zwoelfhundert", True),
    ("dreihundertdreiunddreißig", True),
    ("Irgendwas um die vierzig", True),
    ("Ich hab die Sieben", True),
    ("unter zehn Restkarten wäre super", True),
    ("zweimal zehn zurück", True),
    # English number words and compounds.
    ("sixty-three is mine", True),
    ("SIXTY-THREE", True),
    ("SixtyThree", True),
    ("twenty two left", True),
    ("Twenty-Two", True),
    ("forty-two", True),
    ("fourty-four", True),
    ("ninetynine", True),
    ("ninety nine", True),
    ("a hundred and one", True),
    ("I have one", True),
    ("three cards left for me", True),
    ("fifteen", True),
    ("eighty-eight", True),
    ("Ten", True),
    ("eleven or so", True),
    # Decades and fractions are numbers too (T7: "in jeder Form").
    ("Ich habe was in den Sechzigern", True),
    ("something in the sixties", True),
    ("Ich brauche zweieinhalb Runden", True),
    # Ordinals are numbers, also where they name a pile or mean something else.
    ("Leg auf den zweiten Stapel", True),
    ("der dritte Stapel", True),
    ("wait a second", True),
    ("you go first", True),
    ("die dreizehnte Runde", True),
    # Hidden numbers: invisible characters, spelled-out letters, look-alike letters.
    ("zw\u200bei", True),  # zero-width space
    ("sech\u00adzig", True),  # soft hyphen
    ("z w e i", True),
    ("s-e-c-h-s", True),
    ("d.r.e.i", True),
    ("s\u0435chs", True),  # Cyrillic e
    # Allowed: the rule's names and ordinary talk, also with number words inside other words.
    ("Zehnersprung", False),
    ("ZEHNERSPRUNG, bitte", False),
    ("Zehnersprünge sind super", False),
    ("Noch ein Zehnersprung und wir haben es", False),
    ("Achtung, Rückwärts-Trick!", False),
    ("rückwärts-trick", False),
    ("Rückwärtstrick", False),
    ("Backward Trick incoming", False),
    ("Bitte nur noch einen ganz kleinen Sprung!", False),
    ("Achtung!", False),
    ("Wer kann helfen?", False),
    ("I often wait", False),
    ("Ich nenne keine Zahl", False),
    ("no numbers, promise", False),
    ("no one can play", False),
    ("I'd like to do a backward trick on the right one", False),
    ("the ones on the left", False),
    ("Der Zweig ist kaputt", False),
    ("Ich habe Zweifel", False),
    ("Ich fühle mich einsam", False),
    ("none of them fit", False),
    ("That stone is heavy", False),
    ("I am alone here", False),
    ("the weight of it", False),
    ("underground", False),
    ("Elfmeter", False),
    ("Achterbahn", False),
    ("Dreieck", False),
    ("tenant", False),
    ("Tennis", False),
    ("anyone?", False),
    ("Ich habe eine hohe Karte", False),
    ("Can you go up a tiny bit?", False),
    ("Kannst du knapp drüber?", False),
    ("Achtet auf den linken Stapel", False),
    ("Zehner-Sprung geht gleich", False),
    ("Achte auf den rechten Stapel", False),  # the verb achten, T7 decision
    ("Wir achten darauf", False),
    ("I can play this one", False),
    ("Ich kann warten, spiel du", False),
    ("Nimm den absteigenden Stapel", False),
    ("", False),
]


def test_the_talk_table_is_big_and_goes_both_ways() -> None:
    assert len(TALK) >= 60 and len({phrase for phrase, _ in TALK}) == len(TALK)
    assert sum(expected for _, expected in TALK) >= 25 and sum(not e for _, e in TALK) >= 25


@pytest.mark.parametrize(("phrase", "expected"), TALK)
def test_mentions_number(phrase: str, expected: bool) -> None:
    assert tg.mentions_number(phrase) is expected, phrase
