"""Dog's rulings on explicit positions, bad input and the JSON move format.

Positions are written as the engine's serialized JSON (dog_oracle.position_json) and loaded
with `game.deserialize_state`, so that every ruling D1-D13 is met head on: the express
finish, the second touch of the start, the goal lane, protected marbles, sending home by
landing and by a seven passing, the split seven and its rest, the jack, the joker's last
marble, the start onto a taken start field, Zugzwang and sitting out, helping the partner,
the score, the rounds and the hidden exchange. The expected boards are written out by hand;
at every position the engine's legal actions are also compared with the oracle's, and
hypothesis draws random positions (crowded behind protected marbles, end games with seven
marbles home) on which every legal action, what it does and why the others are refused are
the oracle's.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
import spielwerk
from dog_oracle import (
    CARD_NAMES,
    COPIES,
    GAME_NAME,
    HAND_SIZES,
    KENNEL,
    NUM_ACTIONS,
    SIT_OUT,
    Place,
    Position,
    apply,
    decode,
    exchange_action,
    expected_move,
    goal,
    jack_action,
    legal_actions,
    move_action,
    place_from_json,
    position_json,
    refusal,
    ring,
    same_places,
    seven_action,
    start_action,
)
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from move_checks import assert_malformed_move_refused, check_text

GAME = spielwerk.load_game(GAME_NAME)

Move = dict[str, Any]
Marbles = dict[int, Place | tuple[Place, bool]]


# --- helpers ------------------------------------------------------------------------------


def load(
    marbles: Marbles | None = None, hands: tuple[str, ...] = ("", "", "", ""), **kw: Any
) -> spielwerk.State:
    game = spielwerk.load_game(GAME_NAME, max_turns=kw["max_turns"]) if "max_turns" in kw else GAME
    state = game.deserialize_state(position_json(marbles, hands, **kw))
    assert_oracle_agrees(state)
    return state


def assert_oracle_agrees(state: spielwerk.State) -> None:
    """The engine's legal actions are the oracle's (dog_oracle.py, written from the rules)."""
    assert state.legal_actions() == legal_actions(Position.of(state))


def start(card: str) -> Move:
    return {"type": "start", "card": card}


def mv(card: str, marble: int, steps: int, into_goal: bool = False, joker: bool = False) -> Move:
    if joker:
        return {"type": "move", "card": "JK", "as": card, "marble": marble, "steps": steps, "goal": into_goal}
    return {"type": "move", "card": card, "marble": marble, "steps": steps, "goal": into_goal}


def seven(marble: int, steps: int, into_goal: bool = False, joker: bool = False) -> Move:
    return {
        "type": "seven",
        "card": "JK" if joker else "7",
        "marble": marble,
        "steps": steps,
        "goal": into_goal,
    }


def jack(marble: int, other: int, joker: bool = False) -> Move:
    return {"type": "jack", "card": "JK" if joker else "J", "marble": marble, "with": other}


SIT: Move = {"type": "sit_out"}


def play(state: spielwerk.State, move: Move) -> None:
    """Plays a move that must be legal and offered."""
    action = state.action_from_json(move)
    assert check_text(state, move) is None, f"{move}: {check_text(state, move)}"
    assert action in state.legal_actions(), f"{move} is not offered"
    state.apply_action(action)
    assert_oracle_agrees(state)


def refused(state: spielwerk.State, move: Move, ruling: str, text: str = "") -> str:
    """Refused with a message naming `ruling` (and holding `text`), changing nothing."""
    before = state.serialize()
    action = state.action_from_json(move)
    reason = check_text(state, move)
    assert reason is not None, f"{move} is legal"
    assert reason.startswith(f"{ruling}: "), reason
    assert text in reason, f"{reason!r} does not say {text!r}"
    assert action not in state.legal_actions()
    with pytest.raises(spielwerk.IllegalActionError) as info:
        state.apply_action(action)
    assert str(info.value) == reason
    assert state.serialize() == before, "a refused move changes nothing"
    return reason


def offered(state: spielwerk.State) -> list[Move]:
    return [state.action_to_json(a) for a in state.legal_actions()]


def offered_set(state: spielwerk.State) -> set[str]:
    """The offered moves, comparable with `as_set`."""
    return as_set(*offered(state))


def as_set(*moves: Move) -> set[str]:
    return {json.dumps(m, sort_keys=True) for m in moves}


def place(state: spielwerk.State, marble: int) -> Place:
    return place_from_json(state.view(0)["marbles"][marble]["place"])


def protected(state: spielwerk.State, marble: int) -> bool:
    flag: bool = state.view(0)["marbles"][marble]["protected"]
    return flag


def data(state: spielwerk.State) -> dict[str, Any]:
    decoded: dict[str, Any] = json.loads(state.serialize())
    return decoded


# Team 0 (red 0-3, green 8-11) with all but red 3 home: red 0-2 on goal fields 1-3, green home.
SEVEN_HOME: Marbles = {0: goal(1), 1: goal(2), 2: goal(3), 8: goal(0), 9: goal(1), 10: goal(2), 11: goal(3)}


# --- D1-D3: seats, board, deck -----------------------------------------------------------


def test_four_seats_two_teams_and_the_action_space() -> None:
    assert GAME.num_players() == 4 and GAME.num_distinct_actions() == NUM_ACTIONS == 1810
    assert GAME.options() == {"max_turns": 10000} and GAME_NAME in spielwerk.list_games()
    state = GAME.new_initial_state(seed=11)
    view = state.view(2)
    assert [(m["marble"], m["player"], m["color"]) for m in view["marbles"]] == [
        (m, m // 4, ("red", "blue", "green", "yellow")[m // 4]) for m in range(16)
    ]
    assert all(m["place"] == "kennel" and not m["protected"] for m in view["marbles"])
    assert (view["phase"], view["round"], view["hand_size"], view["first_player"]) == ("exchange", 1, 6, 0)
    assert view["hand_sizes"] == [6, 6, 6, 6] and view["pile_size"] == 86 and view["discard_size"] == 0
    assert state.current_player() == 0


def test_the_deck_holds_110_cards() -> None:
    # D3: eight each of A, 2-10, J, Q, K and six jokers.
    assert sum(COPIES.values()) == 110 and COPIES["JK"] == 6 and COPIES["7"] == 8
    for seed in range(5):
        d = data(GAME.new_initial_state(seed=seed))
        cards = Counter([*d["pile"], *(c for hand in d["hands"] for c in hand)])
        assert cards == Counter(COPIES)


@pytest.mark.parametrize(
    ("options", "needles"),
    [
        ({"max_turns": -1}, ["max_turns", "whole number from 0 (no limit)", "-1"]),
        ({"max_turns": "many"}, ["max_turns", "whole number"]),
        ({"max_turns": 2**32}, ["max_turns", "4294967295"]),
        ({"max_turns": 1.5}, ["max_turns", "whole number"]),
        ({"players": 4}, ["unknown option 'players'", "allowed: max_turns"]),
    ],
)
def test_bad_options_name_what_is_allowed(options: dict[str, Any], needles: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        spielwerk.load_game(GAME_NAME, **options)
    for needle in needles:
        assert needle in str(info.value), str(info.value)


# --- D4: rounds and the exchange -------------------------------------------------------------


@pytest.mark.parametrize("round_", range(10))
def test_rounds_deal_6_5_4_3_2_6_from_a_rotating_first_player(round_: int) -> None:
    # The only card left in the round cannot be played (no marble out): sitting out ends the
    # round, and the next one is dealt.
    state = load(hands=("", "", "", "2"), current=3, round_=round_)
    pile = data(state)["pile"]
    play(state, SIT)
    new = round_ + 1
    size = [6, 5, 4, 3, 2][new % 5]
    first = new % 4
    view = state.view(0)
    # Views count rounds from 1 (the serialized state from 0).
    assert (view["round"], view["hand_size"], view["first_player"]) == (new + 1, size, first)
    assert view["phase"] == "exchange" and state.current_player() == first
    assert view["hand_sizes"] == [size] * 4 and view["sat_out"] == [False] * 4
    # One card at a time from the top of the pile (its last card), the first player first.
    dealt: list[list[str]] = [[], [], [], []]
    for i in range(4 * size):
        dealt[(first + i) % 4].append(pile[-1 - i])
    for p in range(4):
        assert Counter(state.hand(p)) == Counter(dealt[p]), p
    assert HAND_SIZES[new % 5] == size


def test_the_exchange_is_hidden_until_all_four_picked() -> None:
    # Round 1: five cards each, seat 1 picks first.
    hands = ("A 2 3 4 5", "6 8 9 10 J", "Q K JK 2 3", "7 7 4 5 6")
    state = load(hands=hands, phase="exchange", round_=1, current=1)
    assert state.legal_actions() == sorted(exchange_action(c) for c in ("6", "8", "9", "10", "J"))
    refused(state, mv("6", 4, 6), "D4", "first every player picks a card for the partner")
    refused(state, {"type": "exchange", "card": "A"}, "D4", "A is not in player 2's hand")
    picks = {1: "J", 2: "JK", 3: "7", 0: "A"}
    for n, p in enumerate((1, 2, 3, 0)):
        assert state.current_player() == p
        play(state, {"type": "exchange", "card": picks[p]})
        if n == 3:
            break
        for q in range(4):
            ex = state.view(q)["exchange"]
            # Each sees only the own pick, and nobody receives anything yet.
            assert ex["given"] == (picks[q] if q in (1, 2, 3, 0)[: n + 1] else None), (q, ex)
            assert ex["received"] is None
            assert ex["picked"] == [q2 in (1, 2, 3, 0)[: n + 1] for q2 in range(4)]
            assert state.view(q)["hand"] == state.hand(q)
        assert state.view(p)["hand_sizes"][p] == 4
    # All four picked: each receives the partner's card; the first player (seat 1) plays.
    assert state.view(0)["phase"] == "play" and state.current_player() == 1
    for p in range(4):
        assert state.view(p)["exchange"]["received"] == picks[(p + 2) % 4]
        assert len(state.hand(p)) == 5
    assert Counter(state.hand(0)) == Counter(["2", "3", "4", "5", "JK"])
    assert Counter(state.hand(3)) == Counter(["7", "4", "5", "6", "J"])
    refused(state, {"type": "exchange", "card": "6"}, "D4", "before the round's first card")


def test_the_exchange_is_simultaneous_and_each_seat_picks_once() -> None:
    # D4: every seat that has not picked may pick, in any order; current_player() is the
    # first of them from the round's first player (seat 1 in round 2).
    hands = ("A 2 3 4 5", "6 8 9 10 J", "Q K JK 2 3", "7 7 4 5 6")
    state = load(hands=hands, phase="exchange", round_=1, current=1)
    assert state.seats_to_move() == [0, 1, 2, 3] and state.current_player() == 1
    assert state.legal_actions(3) == sorted(exchange_action(c) for c in ("4", "5", "6", "7"))
    state.apply_action(exchange_action("7"), 3)
    assert state.seats_to_move() == [0, 1, 2] and state.current_player() == 1
    assert state.legal_actions(3) == []
    before = state.serialize()
    rejection = state.check_move({"type": "exchange", "card": "4"}, 3)
    assert rejection is not None and rejection.code == "already_picked" and rejection.rule == "D4"
    with pytest.raises(spielwerk.IllegalActionError, match=r"^D4: player 4 has already picked"):
        state.apply_action(exchange_action("4"), 3)
    assert state.serialize() == before
    # Only seat 3 and its partner (once all four picked) ever see seat 3's pick.
    assert state.history_for(3) == [exchange_action("7")] and state.history_for(1) == [None]
    for p, card in ((0, "A"), (2, "JK"), (1, "J")):
        state.apply_action(exchange_action(card), p)
    assert state.seats_to_move() == [1] and state.view(0)["phase"] == "play"
    # Now the partners' picks are seen (they are the cards received), the opponents' never.
    assert state.history_for(1) == [exchange_action("7"), None, None, exchange_action("J")]
    assert state.history_for(3) == [exchange_action("7"), None, None, exchange_action("J")]
    assert state.history_for(0) == [None, exchange_action("A"), exchange_action("JK"), None]
    assert state.view(3)["exchange"]["received"] == "J" and state.view(1)["exchange"]["received"] == "7"


def test_players_play_in_seat_order_and_empty_hands_are_skipped() -> None:
    state = load({0: ring(1), 4: ring(17), 12: ring(49)}, ("2 2", "2 2", "", "2 2"))
    for p in (0, 1, 3, 0, 1, 3):
        assert state.current_player() == p
        marble = 4 * p
        play(state, mv("2", marble, 2))
    assert state.view(0)["round"] == 2 and state.view(0)["phase"] == "exchange"


# --- D5: Zugzwang and sitting out ------------------------------------------------------------


def test_zugzwang_the_only_move_is_bad_and_sitting_out_is_refused() -> None:
    # The 2 can only land on the partner's marble and send it home: it must be played.
    state = load({0: ring(10), 8: ring(12)}, ("2", "2", "2", "2"))
    assert state.legal_actions() == [move_action("2", 0, 2)]
    refused(state, SIT, "D5", "a player who can move must play a card (Zugzwang)")
    play(state, mv("2", 0, 2))
    assert place(state, 0) == ring(12) and place(state, 8) == KENNEL


def test_a_player_without_a_move_sits_out_and_the_hand_is_discarded() -> None:
    state = load({4: ring(20)}, ("2 3 Q", "5 6", "", ""))
    assert state.legal_actions() == [SIT_OUT]
    assert check_text(state, SIT) is None
    refused(state, mv("2", 0, 2), "D6", "kennel")
    play(state, SIT)
    view = state.view(1)
    assert view["sat_out"] == [True, False, False, False] and view["discard_size"] == 3
    assert state.hand(0) == [] and view["hand_sizes"] == [0, 2, 0, 0]
    assert sorted(data(state)["discards"]) == sorted(["2", "3", "Q"])
    # The player who sat out is skipped for the rest of the round.
    play(state, mv("5", 4, 5))
    assert state.current_player() == 1
    play(state, mv("6", 4, 6))
    assert state.view(0)["round"] == 2 and state.view(0)["sat_out"] == [False] * 4


def test_a_card_not_held_is_refused() -> None:
    state = load({0: ring(10)}, ("2", "2", "2", "2"))
    refused(state, mv("5", 0, 5), "D5", "5 is not in player 1's hand")
    refused(state, start("A"), "D5", "A is not in player 1's hand")
    refused(state, seven(0, 7), "D5", "7 is not in player 1's hand")


# --- D6: the start and protected marbles -----------------------------------------------------


@pytest.mark.parametrize("card", ["A", "K", "JK"])
def test_a_k_or_joker_starts_a_marble_onto_the_own_start_field(card: str) -> None:
    state = load({}, ("", card, "", ""), current=1)
    assert state.legal_actions() == [start_action(card)]
    play(state, start(card))
    starters = [m for m in range(4, 8) if place(state, m) != KENNEL]
    assert len(starters) == 1 and place(state, starters[0]) == ring(16) and protected(state, starters[0])
    assert data(state)["discards"] == [card]


def test_other_cards_cannot_start() -> None:
    with pytest.raises(ValueError, match=r"5 cannot start a marble: only A, K or JK \(D6\)"):
        GAME.new_initial_state(seed=1).action_from_json(start("5"))


@pytest.mark.parametrize(
    ("marble", "who"), [(5, "an opponent's"), (8, "the partner's"), (1, "an own marble that moved there")]
)
def test_a_start_sends_home_an_unprotected_marble_on_the_start_field(marble: int, who: str) -> None:
    state = load({marble: ring(0)}, ("K", "2", "2", "2"))
    play(state, start("K"))
    assert place(state, marble) == KENNEL, who
    on_start = [m for m in range(16) if place(state, m) == ring(0)]
    assert len(on_start) == 1 and on_start[0] // 4 == 0 and protected(state, on_start[0])
    assert sum(place(state, m) == KENNEL for m in range(4)) == 3


def test_a_protected_marble_on_the_start_field_blocks_the_start() -> None:
    state = load({0: (ring(0), True)}, ("A K", "2", "2", "2"))
    refused(state, start("A"), "D6", "the start field 0 holds a protected marble")
    assert start_action("K") not in state.legal_actions()


def test_no_start_without_a_marble_in_the_kennel() -> None:
    state = load({0: ring(3), 1: ring(5), 2: ring(7), 3: goal(3)}, ("A", "2", "2", "2"))
    refused(state, start("A"), "D6", "no red marble is left in the kennel")


def test_a_protected_marble_cannot_be_passed_or_landed_on_by_anyone() -> None:
    blue = {4: (ring(16), True)}
    for mover, current in ((0, 0), (12, 3), (5, 1)):  # an opponent, the partner, an own marble
        hands = ["2", "2", "2", "2"]
        hands[current] = "5 2 4"
        state = load({**blue, mover: ring(12)}, tuple(hands), current=current)
        refused(state, mv("5", mover, 5), "D6", "cannot pass the protected marble on field 16")
        state = load({**blue, mover: ring(14)}, tuple(hands), current=current)
        refused(state, mv("2", mover, 2), "D6", "cannot land on the protected marble on field 16")
        state = load({**blue, mover: ring(18)}, tuple(hands), current=current)
        refused(state, mv("4", mover, -4), "D6", "cannot pass the protected marble on field 16")
    state = load({**blue, 0: ring(20)}, ("4", "2", "2", "2"))
    refused(state, mv("4", 0, -4), "D6", "cannot land on the protected marble on field 16")
    # Nor by a seven, nor swapped by a jack.
    state = load({**blue, 0: ring(12), 8: ring(40)}, ("7 J", "2", "2", "2"))
    refused(state, seven(0, 5), "D6", "cannot pass the protected marble on field 16")
    refused(state, seven(0, 4), "D6", "cannot land on the protected marble on field 16")
    refused(state, jack(0, 4), "D10", "the protected marble on field 16 cannot be swapped")
    # The own team's protected marble blocks the own seven too.
    state = load({0: (ring(0), True), 1: ring(62), 8: ring(40)}, ("7", "2", "2", "2"))
    refused(state, seven(1, 3), "D6", "cannot pass the protected marble on field 0")
    refused(state, seven(1, 3, True), "D6", "cannot pass the protected marble on field 0")
    assert seven_action(1, 1) in state.legal_actions()


def test_a_marble_reaching_a_start_field_by_moving_is_not_protected() -> None:
    state = load({0: ring(12), 5: ring(13)}, ("4", "3", "2", "2"))
    play(state, mv("4", 0, 4))
    assert place(state, 0) == ring(16) and not protected(state, 0)
    # Blue's own marble reaching its start field by moving is not protected either.
    state = load({0: ring(30), 5: ring(13)}, ("2", "3", "2", "2"), current=1)
    play(state, mv("3", 5, 3))
    assert place(state, 5) == ring(16) and not protected(state, 5)
    # ... so it can be passed and landed on, and swapped.
    state = load({0: ring(14), 5: ring(16)}, ("5 2 J", "2", "2", "2"))
    assert move_action("5", 0, 5) in state.legal_actions()
    assert jack_action(0, 5) in state.legal_actions()
    play(state, mv("2", 0, 2))
    assert place(state, 5) == KENNEL


# --- D7: moving --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "starts", "moves"),
    [
        # A hand holds at most six cards (D4), so the values are shown in two hands.
        (
            "A 2 3 4 5 6",
            ["A"],
            [("A", 1), ("A", 11), ("2", 2), ("3", 3), ("4", 4), ("4", -4), ("5", 5), ("6", 6)],
        ),
        ("8 9 10 Q K", ["K"], [("8", 8), ("9", 9), ("10", 10), ("Q", 12), ("K", 13)]),
    ],
)
def test_the_card_values(hand: str, starts: list[str], moves: list[tuple[str, int]]) -> None:
    state = load({0: ring(20)}, (hand, "", "", ""))
    assert offered_set(state) == as_set(*(start(c) for c in starts), *(mv(c, 0, s) for c, s in moves))
    for card, steps in moves:
        after = state.clone()
        play(after, mv(card, 0, steps))
        assert place(after, 0) == ring(20 + steps), (card, steps)


@pytest.mark.parametrize(("card", "steps"), [("7", 7), ("J", 1), ("A", 2), ("4", -3), ("K", 12), ("5", -5)])
def test_a_card_moves_only_its_value(card: str, steps: int) -> None:
    state = GAME.new_initial_state(seed=1)
    with pytest.raises(ValueError, match=f"{card} with steps {steps} is no move"):
        state.action_from_json(mv(card, 0, steps))


def test_the_ring_wraps_from_63_to_0() -> None:
    state = load({4: ring(60)}, ("", "9", "", ""), current=1)
    play(state, mv("9", 4, 9))
    assert place(state, 4) == ring(5)


def test_landing_sends_home_any_marble_and_passing_does_not() -> None:
    for victim in (5, 1, 8):  # an opponent's, an own, the partner's
        state = load({0: ring(10), 13: ring(12), victim: ring(15)}, ("5", "2", "2", "2"))
        play(state, mv("5", 0, 5))
        assert place(state, 0) == ring(15) and place(state, victim) == KENNEL, victim
        assert place(state, 13) == ring(12), "a passed marble stays (no seven)"


def test_four_backward_passes_and_sends_home_where_it_lands() -> None:
    state = load({0: ring(2), 5: ring(0), 6: ring(62)}, ("4", "2", "2", "2"))
    play(state, mv("4", 0, -4))
    assert place(state, 0) == ring(62) and place(state, 6) == KENNEL and place(state, 5) == ring(0)


def test_a_marble_in_the_kennel_cannot_move() -> None:
    state = load({1: ring(30)}, ("5", "2", "2", "2"))
    refused(state, mv("5", 0, 5), "D6", "a marble in the kennel can only be started")


def test_only_the_own_marbles_move_with_a_normal_card() -> None:
    state = load({0: ring(10), 5: ring(20), 8: ring(40)}, ("5 J", "2", "2", "2"))
    refused(state, mv("5", 8, 5), "D7", "player 1 moves the red marbles; green 1 is not one of them")
    refused(state, mv("5", 5, 5), "D7", "blue 2 is not one of them")
    refused(state, jack(5, 0), "D7", "player 1 moves the red marbles")


# --- D8: the seven -------------------------------------------------------------------------


def test_a_seven_sends_home_every_marble_it_passes_own_and_partner_included() -> None:
    marbles: Marbles = {0: ring(10), 1: ring(11), 8: ring(13), 5: ring(14), 13: ring(17), 12: ring(40)}
    state = load(marbles, ("7", "2", "2", "2"))
    play(state, seven(0, 7))
    assert place(state, 0) == ring(17)
    assert [place(state, m) for m in (1, 8, 5, 13)] == [KENNEL] * 4
    assert place(state, 12) == ring(40) and state.current_player() == 1


def test_a_seven_split_over_the_partners_marbles() -> None:
    state = load({0: ring(10), 8: ring(40), 5: ring(44)}, ("7 2", "2", "2", "2"))
    play(state, seven(0, 3))
    view = state.view(2)
    part = {"marble": 0, "steps": 3, "goal": False}
    assert view["seven"] == {"remaining": 4, "joker": False, "parts": [part]} and state.current_player() == 0
    assert state.hand(0) == ["2"] and view["discard_size"] == 1 and view["turns"] == 0
    assert {m["marble"] for m in offered(state)} == {0, 8} and all(
        m["type"] == "seven" for m in offered(state)
    )
    refused(state, mv("2", 0, 2), "D8", "a seven must be used completely: 4 steps are left")
    refused(state, SIT, "D8", "a seven must be used completely")
    refused(state, seven(8, 4, joker=True), "D8", "4 steps are left")
    refused(state, seven(8, 5), "D8", "only 4 steps of the seven are left")
    refused(state, seven(5, 4), "D8", "a seven moves the team's marbles only; blue 2 is the opponents'")
    play(state, seven(8, 4))
    assert (place(state, 0), place(state, 8), place(state, 5)) == (ring(13), ring(44), KENNEL)
    assert state.current_player() == 1 and state.view(0)["seven"] is None and state.view(0)["turns"] == 1


def test_a_seven_in_single_steps_over_four_marbles() -> None:
    state = load({0: ring(10), 1: ring(20), 8: ring(40), 9: ring(50)}, ("7", "2", "2", "2"))
    for marble, steps in ((0, 1), (1, 2), (8, 3), (9, 1)):
        play(state, seven(marble, steps))
    assert [place(state, m) for m in (0, 1, 8, 9)] == [ring(11), ring(22), ring(43), ring(51)]


def test_a_part_is_offered_only_if_the_rest_can_be_used() -> None:
    # Red at 10, green at 12, a protected blue marble on 16: red can go at most 5 and green 3.
    # Green 3 then red 4 use the whole seven; a red part that reaches or passes green sends it
    # home, and what is left of the seven cannot be used.
    state = load({0: ring(10), 8: ring(12), 4: (ring(16), True)}, ("7", "2", "2", "2"))
    assert offered_set(state) == as_set(seven(0, 1), seven(8, 1), seven(8, 2), seven(8, 3))
    refused(state, seven(0, 2), "D8", "a seven must be used completely: the other 5 steps could not be used")
    refused(state, seven(0, 3), "D8", "the other 4 steps could not be used")
    refused(state, seven(8, 4), "D6", "cannot land on the protected marble on field 16")
    play(state, seven(8, 3))
    assert offered_set(state) == as_set(seven(0, 1), seven(0, 2), seven(0, 3), seven(0, 4))
    play(state, seven(0, 4))
    assert (place(state, 0), place(state, 8)) == (ring(14), ring(15))


def test_a_seven_whose_rest_only_fits_into_the_goal_lanes() -> None:
    # Red 1 can go one step (blue protected on 16); red 0 and green 8 three each in their goal
    # lanes: seven steps in all, so every part up to each marble's room is offered.
    marbles: Marbles = {0: goal(0), 1: ring(14), 4: (ring(16), True), 8: goal(0)}
    state = load(marbles, ("7", "2", "2", "2"))
    parts = [seven(1, 1)] + [seven(m, s, True) for m in (0, 8) for s in (1, 2, 3)]
    assert offered_set(state) == as_set(*parts)
    play(state, seven(0, 2, True))
    play(state, seven(8, 3, True))
    assert offered_set(state) == as_set(seven(1, 1), seven(0, 1, True))
    play(state, seven(1, 1))
    play(state, seven(0, 1, True))
    assert (place(state, 0), place(state, 1), place(state, 8)) == (goal(3), ring(15), goal(3))


@pytest.mark.parametrize(
    "marbles",
    [
        {0: ring(10), 4: (ring(16), True)},  # five steps of room
        {0: goal(0), 1: ring(14), 4: (ring(16), True), 8: goal(1)},  # 3 + 1 + 2
    ],
)
def test_a_seven_that_cannot_be_used_completely_cannot_be_played(marbles: Marbles) -> None:
    state = load(marbles, ("7", "2", "2", "2"))
    assert state.legal_actions() == [SIT_OUT]
    refused(state, seven(0, 1, marbles[0] == goal(0)), "D8", "a seven must be used completely")


def test_the_seven_finishes_the_last_marble_and_the_rest_goes_to_the_partner() -> None:
    # "... so darf er dafür eine Sieben einsetzen und die restlichen 2 Punkte bereits mit einer
    # Murmel seines Partners fahren."
    marbles: Marbles = {0: goal(1), 1: goal(2), 2: goal(3), 3: ring(60), 8: ring(40)}
    state = load(marbles, ("7", "2", "2", "2"))
    play(state, seven(3, 5, True))
    assert place(state, 3) == goal(0)
    play(state, seven(8, 2))
    assert place(state, 8) == ring(42) and state.current_player() == 1


def test_a_seven_into_the_goal_sends_home_what_it_passes_on_the_ring() -> None:
    state = load({0: ring(61), 5: ring(63), 8: ring(40)}, ("7", "2", "2", "2"))
    play(state, seven(0, 5, True))
    assert place(state, 0) == goal(1) and place(state, 5) == KENNEL
    play(state, seven(8, 2))


# --- D9: the goal --------------------------------------------------------------------------


def test_the_express_finish_start_four_back_and_into_the_goal() -> None:
    state = load({}, ("A 4 5", "", "", ""))
    play(state, start("A"))
    assert place(state, 0) == ring(0) and protected(state, 0)
    play(state, mv("4", 0, -4))
    assert place(state, 0) == ring(60) and not protected(state, 0)
    play(state, mv("5", 0, 5, True))
    assert place(state, 0) == goal(0)
    for card, slot in (("5", 0), ("6", 1), ("8", 3)):
        state = load({0: ring(60)}, (card, "2", "2", "2"))
        play(state, mv(card, 0, int(card), True))
        assert place(state, 0) == goal(slot)
    state = load({0: ring(60)}, ("7", "2", "2", "2"))
    play(state, seven(0, 7, True))
    assert place(state, 0) == goal(2)


def test_a_just_placed_marble_cannot_enter_the_goal_until_it_has_moved() -> None:
    state = load({0: (ring(0), True)}, ("3", "2", "2", "2"))
    refused(
        state,
        mv("3", 0, 3, True),
        "D9",
        "a marble enters its goal only after it has left the start field once",
    )
    assert state.legal_actions() == [move_action("3", 0, 3)]
    # Four back, four forward: on its start field again by moving (the second touch).
    state = load({0: (ring(0), True)}, ("4 4 A", "", "", ""))
    play(state, mv("4", 0, -4))
    refused(state, mv("4", 0, 4, True), "D9", "4 steps from field 60 do not reach the goal")
    play(state, mv("4", 0, 4))
    assert place(state, 0) == ring(0) and not protected(state, 0)
    play(state, mv("A", 0, 1, True))
    assert place(state, 0) == goal(0)


def test_entering_the_goal_is_optional() -> None:
    state = load({0: ring(62)}, ("3", "2", "2", "2"))
    assert offered_set(state) == as_set(mv("3", 0, 3), mv("3", 0, 3, True))
    ring_way = state.clone()
    play(ring_way, mv("3", 0, 3))
    assert place(ring_way, 0) == ring(1)
    play(state, mv("3", 0, 3, True))
    assert place(state, 0) == goal(0)


def test_overshooting_the_goal_forces_another_lap() -> None:
    state = load({0: ring(62)}, ("10", "2", "2", "2"))
    refused(
        state,
        mv("10", 0, 10, True),
        "D9",
        "10 steps from field 62 overshoot the goal: the marble must go round again",
    )
    assert state.legal_actions() == [move_action("10", 0, 10)]
    play(state, mv("10", 0, 10))
    assert place(state, 0) == ring(8)


def test_no_passing_no_backward_and_no_overshooting_inside_the_goal() -> None:
    state = load({0: goal(0), 1: goal(2), 2: ring(63)}, ("3 2 4 A", "2", "2", "2"))
    refused(state, mv("3", 0, 3, True), "D9", "goal field 2 is taken")
    refused(state, mv("2", 0, 2, True), "D9", "goal field 2 is taken")
    refused(state, mv("2", 1, 2, True), "D9", "no overshooting")
    refused(state, mv("4", 1, -4), "D9", "forward only")
    refused(state, mv("A", 1, 1), "D9", "forward only")
    refused(state, mv("3", 2, 3, True), "D9", "goal field 0 is taken")
    refused(state, mv("2", 2, 2, True), "D9", "goal field 0 is taken")
    refused(state, mv("A", 2, 1, True), "D9", "1 steps from field 63 do not reach the goal")
    play(state, mv("A", 0, 1, True))
    assert place(state, 0) == goal(1)


def test_a_protected_marble_on_the_start_field_blocks_entering_the_goal() -> None:
    state = load({0: (ring(0), True), 1: ring(62)}, ("3", "2", "2", "2"))
    refused(state, mv("3", 1, 3, True), "D6", "cannot pass the protected marble on field 0")
    refused(state, mv("3", 1, 3), "D6", "cannot pass the protected marble on field 0")
    assert state.legal_actions() == [move_action("3", 0, 3)]


def test_a_marble_enters_its_own_goal_lane_only() -> None:
    state = load({8: ring(30), 0: ring(30 - 16)}, ("2", "2", "3", "2"), current=2)
    play(state, mv("3", 8, 3, True))
    assert place(state, 8) == goal(0)
    assert state.view(0)["marbles"][8]["place"] == {"goal": 0}
    # Red passing green's start field does not reach red's goal.
    state = load({0: ring(30)}, ("3", "2", "2", "2"))
    refused(state, mv("3", 0, 3, True), "D9", "3 steps from field 30 do not reach the goal")


def test_from_the_start_field_straight_into_the_goal() -> None:
    state = load({0: ring(0)}, ("4", "2", "2", "2"))
    assert offered_set(state) == as_set(mv("4", 0, 4), mv("4", 0, -4), mv("4", 0, 4, True))
    play(state, mv("4", 0, 4, True))
    assert place(state, 0) == goal(3)


# --- D10: the jack ---------------------------------------------------------------------------


def test_the_jack_and_its_forbidden_targets() -> None:
    marbles: Marbles = {
        0: ring(10),
        1: goal(1),
        2: (ring(0), True),
        4: (ring(16), True),
        5: ring(20),
        9: ring(50),
    }
    state = load(marbles, ("J", "2", "2", "2"))
    refused(state, jack(0, 4), "D10", "the protected marble on field 16 cannot be swapped")
    refused(state, jack(2, 5), "D10", "the protected marble on field 0 cannot be swapped")
    refused(state, jack(0, 6), "D10", "the jack swaps marbles on the ring only; blue 2 is not")
    refused(state, jack(1, 5), "D10", "the jack swaps marbles on the ring only; red 1 is not")
    refused(state, jack(0, 3), "D10", "the jack swaps with a marble of another player")
    assert offered_set(state) == as_set(jack(0, 5), jack(0, 9))
    # The partner's marble is a target too; nothing goes home, nothing becomes protected.
    swap = state.clone()
    play(swap, jack(0, 9))
    assert (place(swap, 0), place(swap, 9)) == (ring(50), ring(10))
    play(state, jack(0, 5))
    assert (place(state, 0), place(state, 5)) == (ring(20), ring(10))
    assert sum(place(state, m) == KENNEL for m in range(16)) == 16 - 6


def test_a_jack_swap_onto_a_start_field_does_not_protect() -> None:
    state = load({0: ring(10), 5: ring(0)}, ("J", "2", "2", "2"))
    play(state, jack(0, 5))
    assert place(state, 0) == ring(0) and not protected(state, 0)


def test_a_jack_without_a_legal_swap_cannot_be_played() -> None:
    state = load({0: ring(10), 4: (ring(16), True), 9: goal(0)}, ("J", "2", "2", "2"))
    assert state.legal_actions() == [SIT_OUT]


# --- D11: the joker ------------------------------------------------------------------------


def test_the_joker_stands_for_any_card() -> None:
    state = load({0: ring(20), 5: ring(40)}, ("JK", "", "", ""))
    kinds = [("A", 1), ("A", 11), ("K", 13), ("Q", 12), ("10", 10), ("9", 9), ("8", 8), ("6", 6)]
    kinds += [("5", 5), ("3", 3), ("2", 2), ("4", 4), ("4", -4)]
    expected = [start("JK"), *(mv(c, 0, s, joker=True) for c, s in kinds), jack(0, 5, joker=True)]
    expected += [seven(0, s, joker=True) for s in range(1, 8)]
    assert offered_set(state) == as_set(*expected)
    play(state, mv("5", 0, 5, joker=True))
    assert place(state, 0) == ring(25) and data(state)["discards"] == ["JK"]


def test_the_joker_may_not_bring_the_last_marble_home() -> None:
    state = load({**SEVEN_HOME, 3: ring(60)}, ("JK 5", "2", "2", "2"))
    refused(
        state, mv("5", 3, 5, True, joker=True), "D11", "the joker may not bring the team's last marble home"
    )
    refused(
        state, seven(3, 5, True, joker=True), "D11", "the joker may not bring the team's last marble home"
    )
    assert check_text(state, mv("5", 3, 5, joker=True)) is None
    assert move_action("5", 3, 5, True) in state.legal_actions()


def test_the_joker_may_bring_the_seventh_marble_home() -> None:
    marbles = {**SEVEN_HOME, 3: ring(60), 11: ring(40)}
    state = load(marbles, ("JK", "2", "2", "2"))
    play(state, mv("5", 3, 5, True, joker=True))
    assert place(state, 3) == goal(0)


def test_no_part_of_a_joker_seven_brings_the_last_marble_home() -> None:
    # Seven steps from 58 end on goal field 0: a real seven may, the joker's may not.
    state = load({**SEVEN_HOME, 3: ring(58)}, ("JK", "2", "2", "2"))
    assert offered_set(state) >= as_set(seven(3, 7, joker=True))
    assert seven_action(3, 7, True, joker=True) not in state.legal_actions()
    refused(state, seven(3, 7, True, joker=True), "D11", "last marble")
    won = load({**SEVEN_HOME, 3: ring(58)}, ("7", "2", "2", "2"))
    play(won, seven(3, 7, True))
    assert won.is_terminal() and data(won)["outcome"]["winner"] == 0


def test_a_joker_seven_may_bring_the_seventh_marble_home_but_not_the_eighth() -> None:
    # Red 0, 1 on goal fields 2, 3, green home: six of eight. Red 2 on 63 reaches goal field 1
    # with three steps, red 3 on 61 goal field 0 with four.
    marbles: Marbles = {0: goal(2), 1: goal(3), 2: ring(63), 3: ring(61)}
    marbles |= {8: goal(0), 9: goal(1), 10: goal(2), 11: goal(3)}
    state = load(marbles, ("JK", "2", "2", "2"))
    play(state, seven(2, 3, True, joker=True))
    assert place(state, 2) == goal(1)
    refused(
        state, seven(3, 4, True, joker=True), "D11", "the joker may not bring the team's last marble home"
    )
    assert offered_set(state) == as_set(*(seven(3, s, joker=True) for s in range(1, 5)))
    play(state, seven(3, 4, joker=True))
    assert place(state, 3) == ring(1) and not state.is_terminal()
    # With a real seven the same two parts win.
    won = load(marbles, ("7", "2", "2", "2"))
    play(won, seven(2, 3, True))
    play(won, seven(3, 4, True))
    assert data(won)["outcome"] == {"winner": 0, "points": [16, 0], "reason": "all_home"}


def test_the_joker_ban_holds_for_a_helper_too() -> None:
    # Red is home and helps green, whose last marble stands on 30, two steps before its goal.
    marbles: Marbles = {0: goal(0), 1: goal(1), 2: goal(2), 3: goal(3), 8: goal(1), 9: goal(2), 10: goal(3)}
    state = load({**marbles, 11: ring(30)}, ("JK 3", "2", "2", "2"))
    refused(state, mv("3", 11, 3, True, joker=True), "D11", "last marble")
    assert move_action("3", 11, 3, True) in state.legal_actions()
    assert move_action("3", 11, 3, False, joker=True) in state.legal_actions()


def test_a_seven_whose_rest_has_nowhere_to_go_after_the_last_marble_cannot_take_it_home() -> None:
    # Five steps take red 3 home; the other two would have to be used, but every other marble
    # of the team is in the goal with no room left: only the ring way is offered.
    state = load({**SEVEN_HOME, 3: ring(60)}, ("7", "2", "2", "2"))
    assert offered_set(state) == as_set(*(seven(3, s) for s in range(1, 8)))
    refused(state, seven(3, 5, True), "D8", "the other 2 steps could not be used")


# --- D12: helping the partner ------------------------------------------------------------------


def test_a_player_with_four_home_starts_and_moves_the_partners_marbles() -> None:
    home: Marbles = {0: goal(0), 1: goal(1), 2: goal(2), 3: goal(3), 5: ring(40)}
    state = load(home, ("A 3 J", "", "", ""))
    assert (
        state.action_to_string(state.action_from_json(start("A")))
        == "Ace: start a marble of the partner (green)"
    )
    play(state, start("A"))
    greens = [m for m in range(8, 12) if place(state, m) != KENNEL]
    assert len(greens) == 1 and place(state, greens[0]) == ring(32) and protected(state, greens[0])
    green = greens[0]
    refused(state, mv("3", 0, 3, True), "D12", "player 1 moves the green marbles; red 1 is not one of them")
    play(state, mv("3", green, 3))
    assert place(state, green) == ring(35)
    play(state, jack(green, 5))
    assert (place(state, green), place(state, 5)) == (ring(40), ring(35))


def test_before_all_four_are_home_the_partners_marbles_are_not_moved() -> None:
    state = load({0: goal(0), 1: goal(1), 2: goal(2), 3: ring(20), 8: ring(40)}, ("3", "2", "2", "2"))
    refused(state, mv("3", 8, 3), "D7", "player 1 moves the red marbles; green 1 is not one of them")


# --- D13: the end and the score --------------------------------------------------------------


def test_the_winners_get_8_plus_the_opponents_marbles_not_home() -> None:
    marbles: Marbles = {**SEVEN_HOME, 3: ring(60), 4: goal(0), 12: goal(0), 13: goal(1)}
    state = load(marbles, ("5", "2", "2", "2"))
    play(state, mv("5", 3, 5, True))
    # Team 0 wins: 8 + the 5 blue and yellow marbles outside the goal; team 1 has 3 home.
    assert data(state)["outcome"] == {"winner": 0, "points": [13, 3], "reason": "all_home"}
    assert state.view(1)["outcome"] == {"winner": 0, "points": [13, 3], "reason": "all_home"}
    assert state.is_terminal() and state.current_player() == spielwerk.TERMINAL
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]
    assert state.legal_actions() == [] and not state.legal_actions_mask().any()
    assert state.view(1)["phase"] == "over" and state.view(1)["current_player"] is None
    before = state.serialize()
    for move in (mv("2", 4, 2), SIT, {"type": "exchange", "card": "2"}):
        reason = check_text(state, move)
        assert reason == "D13: the game is over", reason
        # Which ruling apply_action names: test_a_finished_game_refuses_every_move_with_d13.
        with pytest.raises(spielwerk.IllegalActionError):
            state.apply_action(state.action_from_json(move))
    assert state.serialize() == before


def test_a_finished_game_refuses_every_move_with_d13() -> None:
    marbles: Marbles = {**SEVEN_HOME, 3: ring(60), 4: goal(0), 12: goal(0), 13: goal(1)}
    state = load(marbles, ("5", "2", "2", "2"))
    play(state, mv("5", 3, 5, True))
    assert state.is_terminal()
    for move in (mv("2", 4, 2), SIT, {"type": "exchange", "card": "2"}):
        refused(state, move, "D13", "the game is over")


def test_team_one_wins_with_the_partners_last_marble() -> None:
    marbles: Marbles = {4: goal(0), 5: goal(1), 6: goal(2), 7: goal(3), 12: goal(1), 13: goal(2), 14: goal(3)}
    marbles |= {15: ring(47), 0: goal(3)}
    state = load(marbles, ("2", "2", "2", "2"), current=1)
    # Blue, all home, moves yellow's last marble in (D12): one step to field 48, one into the goal.
    play(state, mv("2", 15, 2, True))
    assert data(state)["outcome"] == {"winner": 1, "points": [1, 15], "reason": "all_home"}
    assert state.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_the_clock_gives_each_team_a_point_per_marble_home() -> None:
    marbles: Marbles = {0: goal(3), 8: goal(0), 4: goal(2), 1: ring(20)}
    state = load(marbles, ("2", "2", "2", "2"), max_turns=5, turns=4)
    play(state, mv("2", 1, 2))
    assert data(state)["outcome"] == {"winner": None, "points": [2, 1], "reason": "turn_limit"}
    assert state.returns() == [0.0, 0.0, 0.0, 0.0] and state.is_terminal()


# --- the JSON moves, the action ids, bad input --------------------------------------------------


def test_action_ids_follow_the_documented_encoding() -> None:
    state = GAME.new_initial_state(seed=3)
    assert [state.action_to_json(a) for a in (0, 13, 14, 15, 16)] == [
        {"type": "exchange", "card": "A"},
        {"type": "exchange", "card": "JK"},
        {"type": "start", "card": "A"},
        {"type": "start", "card": "K"},
        {"type": "start", "card": "JK"},
    ]
    assert state.action_to_json(17) == {"type": "move", "card": "A", "marble": 0, "steps": 1, "goal": False}
    assert state.action_to_json(848) == {
        "type": "move",
        "card": "JK",
        "as": "4",
        "marble": 15,
        "steps": -4,
        "goal": True,
    }
    assert state.action_to_json(849) == {"type": "seven", "card": "7", "marble": 0, "steps": 1, "goal": False}
    assert state.action_to_json(1296) == {
        "type": "seven",
        "card": "JK",
        "marble": 15,
        "steps": 7,
        "goal": True,
    }
    assert state.action_to_json(1297) == {"type": "jack", "card": "J", "marble": 0, "with": 0}
    assert state.action_to_json(1808) == {"type": "jack", "card": "JK", "marble": 15, "with": 15}
    assert state.action_to_json(SIT_OUT) == {"type": "sit_out"}
    assert exchange_action("7") == 6 and start_action("JK") == 16
    assert move_action("5", 3, 5, True, joker=True) == 17 + ((13 + 8) * 16 + 3) * 2 + 1
    assert all(state.action_to_json(a) == expected_move(a) for a in range(NUM_ACTIONS))


def test_check_move_agrees_with_apply_and_changes_nothing() -> None:
    state = load({0: ring(12), 4: (ring(16), True)}, ("5 2", "2", "2", "2"))
    before = state.serialize()
    assert check_text(state, mv("2", 0, 2)) is None
    assert check_text(state, mv("5", 0, 5)) == "D6: cannot pass the protected marble on field 16"
    assert check_text(state, mv("2", 0, 4 - 2)) is None
    assert state.serialize() == before


# Malformed moves and what their messages must say.
MALFORMED: list[tuple[Any, list[str]]] = [
    ({"type": "fly"}, ["unknown variant `fly`", "expected one of `exchange`", '{"type": "sit_out"}']),
    ({}, ["missing field `type`"]),
    ([1, 2], ["a move is a JSON object"]),
    ({"type": "start", "card": "5"}, ["5 cannot start a marble: only A, K or JK (D6)"]),
    ({"type": "start", "card": "B"}, ["invalid card 'B'", "cards are A, 2, 3"]),
    ({"type": "move", "card": "A", "marble": 0}, ["A with steps missing is no move", "A: 1 or 11"]),
    ({"type": "move", "card": "4", "marble": 0, "steps": 3}, ["4 with steps 3 is no move", "4: 4 or -4"]),
    ({"type": "move", "card": "7", "marble": 0, "steps": 7}, ["7 and J have their own types"]),
    (
        {"type": "move", "card": "5", "marble": 16, "steps": 5},
        ["marble 16 does not exist: marbles are 0-15"],
    ),
    ({"type": "move", "card": "5", "marble": -1, "steps": 5}, ["marbles are 0-15"]),
    ({"type": "move", "card": "5", "steps": 5}, ["missing field `marble`"]),
    (
        {"type": "move", "card": "5", "marble": 0, "steps": 5, "goal": "yes"},
        ['invalid type: string "yes", expected a boolean'],
    ),
    (
        {"type": "move", "card": "JK", "marble": 0, "steps": 5},
        ["joker names the card it stands for in 'as'"],
    ),
    ({"type": "move", "card": "JK", "as": "JK", "marble": 0, "steps": 5}, ["JK with steps 5 is no move"]),
    (
        {"type": "seven", "card": "7", "marble": 0, "steps": 8},
        ["steps 8: the steps of a seven's part"],
    ),
    (
        {"type": "seven", "card": "7", "marble": 0, "steps": 0},
        ["steps 0: the steps of a seven's part"],
    ),
    ({"type": "seven", "card": "5", "marble": 0, "steps": 5}, ["5 is no seven: card is 7 or JK"]),
    ({"type": "jack", "card": "Q", "marble": 0, "with": 4}, ["Q is no jack: card is J or JK"]),
    ({"type": "jack", "card": "J", "marble": 0}, ["missing field `with`"]),
    ({"type": "exchange", "card": "7", "marble": 1}, ["unknown field `marble`, expected `card`"]),
    ({"type": "sit_out", "card": "7"}, ["unknown field `card`, there are no fields"]),
    # "as" on a card that is not the joker is refused, not ignored.
    ({"type": "move", "card": "5", "as": "9", "marble": 0, "steps": 5}, ["'as'", "5 is no joker"]),
    # Steps that are no whole number are refused, not taken as missing (which a card
    # with one move kind would accept).
    ({"type": "move", "card": "5", "marble": 0, "steps": "nine"}, ['invalid type: string "nine"']),
]


@pytest.mark.parametrize(("move", "needles"), MALFORMED)
def test_malformed_moves_say_what_is_wrong_and_what_is_allowed(move: Any, needles: list[str]) -> None:
    assert_malformed_move_refused(GAME.new_initial_state(seed=1), move, needles)


def test_a_malformed_move_states_the_move_syntax_once() -> None:
    state = GAME.new_initial_state(seed=1)
    for move, _ in MALFORMED:
        with pytest.raises(spielwerk.InvalidMoveError) as info:
            state.action_from_json(move)
        assert str(info.value).count("; moves are ") == 1, str(info.value)


@pytest.mark.parametrize("action", [NUM_ACTIONS, -1, 10**6])
def test_actions_outside_the_space_are_refused(action: int) -> None:
    state = GAME.new_initial_state(seed=1)
    before = state.serialize()
    with pytest.raises(
        spielwerk.IllegalActionError, match=f"^actions: action {action} does not exist: actions are 0-1809$"
    ) as info:
        state.apply_action(action)
    assert info.value.code == "no_such_action"
    assert state.serialize() == before


def _edited(edit: Any) -> str:
    d = json.loads(position_json({0: ring(10)}, ("5 2", "2", "2", "2")))
    edit(d)
    return json.dumps(d)


@pytest.mark.parametrize(
    ("name", "edit", "needles"),
    [
        (
            "two marbles on a field",
            lambda d: d["marbles"].__setitem__(5, {"place": {"ring": 10}}),
            ["shares"],
        ),
        (
            "ring field 64",
            lambda d: d["marbles"].__setitem__(5, {"place": {"ring": 64}}),
            ["marble 5: ring field 64 does not exist (fields are 0-63)"],
        ),
        (
            "goal field 4",
            lambda d: d["marbles"].__setitem__(5, {"place": {"goal": 4}}),
            ["goal fields are 0-3"],
        ),
        (
            "protected off its start field",
            lambda d: d["marbles"].__setitem__(5, {"place": {"ring": 20}, "protected": True}),
            ["own start field"],
        ),
        (
            "protected on another start field",
            lambda d: d["marbles"].__setitem__(5, {"place": {"ring": 0}, "protected": True}),
            ["own start field"],
        ),
        (
            "protected in the kennel",
            lambda d: d["marbles"].__setitem__(5, {"place": "kennel", "protected": True}),
            ["protected"],
        ),
        ("15 marbles", lambda d: d["marbles"].pop(), ["length 16"]),
        ("109 cards", lambda d: d["pile"].pop(), ["cards", "the deck has"]),
        ("111 cards", lambda d: d["pile"].append("A"), ["cards A", "the deck has 8"]),
        ("seat 4", lambda d: d.__setitem__("current", 4), ["seats are 0-3"]),
        ("a seven with 7 left", lambda d: d.__setitem__("seven", {"remaining": 7, "joker": False}), ["1-6"]),
        ("another clock", lambda d: d.__setitem__("rules", {"max_turns": 5}), ["max_turns"]),
        ("an unknown field", lambda d: d.__setitem__("colour", 1), ["colour"]),
        ("an unknown card", lambda d: d["hands"][0].append("Z"), ["invalid card 'Z'"]),
    ],
)
def test_deserialize_refuses_impossible_positions(name: str, edit: Any, needles: list[str]) -> None:
    with pytest.raises(ValueError) as info:
        GAME.deserialize_state(_edited(edit))
    for needle in needles:
        assert needle in str(info.value), f"{name}: {info.value}"


def test_positions_round_trip() -> None:
    text = position_json({0: ring(10), 4: (ring(16), True), 9: goal(2)}, ("5 2", "2", "JK", "2"))
    state = GAME.deserialize_state(text)
    assert json.loads(state.serialize()) == json.loads(text)


# --- resample ------------------------------------------------------------------------------------


def test_resample_keeps_the_card_given_to_the_partner() -> None:
    # After the exchange, player 0 knows that the partner holds the joker player 0 gave
    # (nothing was played since): every resample(0, seed) keeps it in the partner's hand.
    hands = ("JK 3 3 3 3 3", "5 5 5 5 5 5", "6 6 6 6 6 6", "8 8 8 8 8 8")
    state = load({}, hands, phase="exchange")
    for card in ("JK", "5", "6", "8"):
        play(state, {"type": "exchange", "card": card})
    assert state.view(0)["phase"] == "play" and "JK" in state.hand(2)
    kept = [seed for seed in range(20) if "JK" in state.resample(0, seed).hand(2)]
    assert kept == list(range(20)), f"the partner keeps the joker in {len(kept)} of 20 resamples"


def test_a_seven_in_progress_that_cannot_be_finished_is_no_position() -> None:
    # No play leaves a seven whose rest cannot be used (D8), so no position holds one:
    # deserialize_state refuses it (else legal_actions would offer only sit_out, which
    # apply_action refuses: "D8: a seven must be used completely: 6 steps are left").
    text = position_json({0: ring(10), 4: (ring(16), True)}, ("", "2", "2", "2"), seven=(6, False))
    try:
        state = GAME.deserialize_state(text)
    except ValueError:
        return  # refused as an impossible position: fine
    for action in state.legal_actions():
        state.clone().apply_action(action)


# --- random positions against the oracle --------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> str:
    """A play-phase position with a few cards for the player to move, sometimes inside a
    seven. Three kinds: marbles spread anywhere; "blocked", the mover's team crowded behind a
    protected marble on a start field (sevens whose rest has no room, D6, D8); "end_game",
    a team with seven marbles home and the last one near its goal (D11, D12)."""
    kind = draw(st.sampled_from(["spread", "blocked", "end_game"]))
    current = draw(st.integers(0, 3))
    team = current % 2
    taken: set[tuple[str, int]] = set()
    marbles: Marbles = {}

    def put(m: int, where: Place, is_protected: bool = False) -> None:
        cell = ("goal", 4 * (m // 4) + where[1]) if where[0] == "goal" else where
        if m not in marbles and cell not in taken:
            taken.add(cell)
            marbles[m] = (where, is_protected)

    if kind == "blocked":
        blocker = draw(st.integers(0, 3))
        put(4 * blocker + draw(st.integers(0, 3)), ring(16 * blocker), True)
        for m in draw(st.lists(st.sampled_from([m for m in range(16) if m // 4 % 2 == team]), max_size=5)):
            put(m, ring(16 * blocker - draw(st.integers(1, 8))))
    elif kind == "end_game":
        full = draw(st.sampled_from([team, team + 2]))
        for color in (team, team + 2):
            for k in range(4 if color == full else 3):
                put(4 * color + k, goal(k if color == full else k + 1))
        last = 4 * (team + 2 if full == team else team) + 3
        put(last, ring(16 * (last // 4) - draw(st.integers(0, 8))))
    for m in range(16):
        where = draw(st.sampled_from(["kennel", "ring", "near_start", "goal"]))
        if where == "goal":
            put(m, goal(draw(st.integers(0, 3))))
        elif where == "ring":
            put(m, ring(draw(st.integers(0, 63))))
        elif where == "near_start":
            f = (16 * draw(st.integers(0, 3)) + draw(st.integers(-8, 8))) % 64
            put(m, ring(f), f == 16 * (m // 4) and draw(st.booleans()))
    hands = ["", "", "", ""]
    key = [] if kind == "spread" else [draw(st.sampled_from(["7", "JK", "JK"]))]
    hands[current] = " ".join(key + draw(st.lists(st.sampled_from(CARD_NAMES), min_size=1, max_size=4)))
    seven_ = draw(st.none() | st.tuples(st.integers(1, 6), st.booleans()))
    return position_json(marbles, tuple(hands), current=current, seven=seven_)


@settings(max_examples=500)
@given(positions())
def test_random_positions_agree_with_the_oracle(text: str) -> None:
    """On any position the legal actions, what each does (the board, the hands, the next
    seat, the deal, the end) and the ruling refusing the others are the oracle's."""
    try:
        state = GAME.deserialize_state(text)
    except ValueError as error:
        # A seven whose rest cannot be used is no position of a game (see the test above):
        # the engine refuses exactly those, which the oracle must find unplayable too.
        drawn = Position.from_json(json.loads(text))
        assert drawn.seven is not None and not legal_actions(drawn), error
        assume(False)
        raise
    pos = Position.of(state)
    legal = legal_actions(pos)
    assert state.legal_actions() == legal
    for action in legal:
        after = state.clone()
        after.apply_action(action)
        expected = apply(pos, action).pos
        new = Position.of(after)
        if decode(action).kind == "start":
            assert same_places(expected.board, new.board)
            expected = replace(expected, board=new.board)
        assert new == expected, decode(action)
    for action in range(0, NUM_ACTIONS, 7):
        if action not in legal:
            reason = check_text(state, state.action_to_json(action))
            ruling = refusal(pos, action)
            assert reason is not None and ruling is not None and reason.startswith(ruling + ": "), (
                decode(action),
                reason,
                ruling,
            )
