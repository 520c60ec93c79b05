"""Caravan rules on explicit positions: one or more tests per ruling C1-C10 and per variant,
the options, bad input, check_move and the JSON move format.

Positions are built from JSON (`caravan_oracle.position_json`): a caravan is written as its
number cards, each followed by its face cards joined with "+", and a card of the other player
ends in "'" ("9C+QS'": player 0's 9C carrying player 1's QS on caravan 0-2). Every other
card of a player's deck lies in their deck, and `next_draws` names the next cards drawn.
The expected values in each test are worked out by hand from the rule text; at every built
position the legal actions are also checked against the plain-Python oracle.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
import spielwerk
from caravan_oracle import (
    ALL_FACES,
    GAME_NAME,
    JOKERS,
    NUM_CARAVANS,
    RULING_PREFIX,
    STANDARD,
    VARIANTS,
    decode,
    encode,
    full_deck,
    is_number,
    legal_actions,
    num_actions,
    pair_facts,
    position_json,
    sorted_cards,
)
from move_checks import assert_malformed_move_refused, check_text

EMPTY: tuple[str, ...] = ("",) * NUM_CARAVANS
Data = dict[str, Any]


def build(
    caravans: Sequence[str] = EMPTY,
    hands: Sequence[str] = ("", ""),
    *,
    variants: Sequence[str] = (),
    **kw: Any,
) -> spielwerk.State:
    """The position, loaded into a game with `variants` on; its legal actions are the oracle's."""
    rules = {**STANDARD, **dict.fromkeys(variants, True)}
    game = spielwerk.load_game(GAME_NAME, **rules)
    state = game.deserialize_state(position_json(caravans, hands, rules=rules, **kw))
    assert state.legal_actions() == legal_actions(data_of(state)), "the oracle disagrees on the legal actions"
    return state


def data_of(state: spielwerk.State) -> Data:
    data: Data = json.loads(state.serialize())
    return data


def play_move(card: str, caravan: int, position: int | None = None) -> dict[str, Any]:
    if position is None:
        return {"type": "play", "card": card, "caravan": caravan}
    return {"type": "play", "card": card, "caravan": caravan, "position": position}


def act(state: spielwerk.State, move: dict[str, Any]) -> None:
    assert check_text(state, move) is None, f"{move}: {check_text(state, move)}"
    action = state.action_from_json(move)
    assert action in state.legal_actions(), move
    state.apply_action(action)


def play(state: spielwerk.State, card: str, caravan: int, position: int | None = None) -> None:
    act(state, play_move(card, caravan, position))


def discard(state: spielwerk.State, card: str) -> None:
    act(state, {"type": "discard", "card": card})


def disband(state: spielwerk.State, caravan: int) -> None:
    act(state, {"type": "disband", "caravan": caravan})


def refused(
    state: spielwerk.State, move: dict[str, Any], ruling: str, *, says: str = "", exact: str = ""
) -> str:
    """`move` is refused under `ruling` (with `exact` as the whole message, or saying `says`);
    check_move gives the reason apply_action raises, the action is not offered, and the
    refusal changes nothing."""
    before = state.serialize()
    reason = check_text(state, move)
    assert reason is not None, f"{move} is allowed"
    assert RULING_PREFIX.match(reason) and reason.startswith(f"{ruling}: "), reason
    if exact:
        assert reason == exact
    assert says in reason, f"{reason!r} does not say {says!r}"
    action = state.action_from_json(move)
    assert action not in state.legal_actions()
    with pytest.raises(spielwerk.IllegalActionError) as error:
        state.apply_action(action)
    assert str(error.value) == reason
    assert state.serialize() == before, "a refused move changes nothing"
    return reason


def caravan_shown(state: spielwerk.State, caravan: int) -> tuple[int, str | None, str | None]:
    """(value, direction, suit) as a player sees the caravan."""
    shown = state.view(0)["caravans"][caravan]
    assert shown == state.view(1)["caravans"][caravan]
    return shown["value"], shown["direction"], shown["suit"]


def table(state: spielwerk.State) -> list[str]:
    """The caravans in the notation of `build`, as seen by player 0."""
    rows = []
    for i, caravan in enumerate(state.view(0)["caravans"]):
        owner = i // 3

        def mark(card: dict[str, Any], owner: int = owner) -> str:
            name: str = card["card"]
            return name + ("'" if card["owner"] != owner else "")

        rows.append(" ".join("+".join([mark(c), *(mark(f) for f in c["faces"])]) for c in caravan["cards"]))
    return rows


def added_to_discard_piles(before: Data, after: Data) -> list[Counter[str]]:
    """What each player's discard pile gained (the piles only grow, on top)."""
    gained = []
    for p in (0, 1):
        old, new = before["discards"][p], after["discards"][p]
        assert new[: len(old)] == old, f"discard pile {p} changed below its top"
        gained.append(Counter(new[len(old) :]))
    return gained


def ids(state: spielwerk.State, *moves: dict[str, Any]) -> list[int]:
    rules = data_of(state)["rules"]
    return sorted(encode(move, rules) for move in moves)


# --- C1 Decks and the lot ------------------------------------------------------------------


def test_c1_each_player_has_an_own_deck_of_54_and_the_lot_picks_who_starts() -> None:
    game = spielwerk.load_game(GAME_NAME)
    firsts: Counter[int] = Counter()
    for seed in range(40):
        state = game.new_initial_state(seed=seed)
        data = data_of(state)
        for p in (0, 1):
            assert len(data["hands"][p]) == 8 and len(data["decks"][p]) == 46
            assert Counter(data["decks"][p] + data["hands"][p]) == Counter([*ALL_FACES[:52], "JK1", "JK2"])
            assert state.hand(p) == data["hands"][p]
        first = data["first_player"]
        assert (
            state.current_player() == first == state.view(0)["first_player"] == state.view(1)["first_player"]
        )
        firsts[first] += 1
    assert firsts[0] > 5 and firsts[1] > 5, f"the lot picks both players: {firsts}"


# --- C2 The opening ------------------------------------------------------------------------


def test_c2_the_opening_places_number_cards_onto_empty_own_caravans_without_drawing() -> None:
    state = build(
        ["7H", "", "", "", "", ""],
        ["2C 9D QS JH KS 3D", "2H 3H 4H 5H 6H"],
        opening=(True, False),
    )
    assert state.view(0)["in_opening"] == [True, False]
    numbers = ["2C", "3D", "9D"]
    assert state.legal_actions() == ids(state, *(play_move(c, k) for c in numbers for k in (1, 2)))
    refused(state, play_move("9D", 0), "C2", says="empty")
    refused(state, play_move("9D", 3), "C5")
    for face in ("QS", "JH", "KS"):
        refused(state, play_move(face, 0, 0), "C2", exact="C2: the opening allows number cards only")
    refused(state, {"type": "discard", "card": "QS"}, "C2")
    refused(state, {"type": "discard", "card": "9D"}, "C2")
    refused(state, {"type": "disband", "caravan": 0}, "C2")
    deck = state.view(0)["deck_sizes"][0]
    play(state, "9D", 1)
    assert state.view(0)["deck_sizes"][0] == deck, "no drawing in the opening"
    assert state.hand(0) == ["2C", "3D", "JH", "QS", "KS"]
    assert state.view(0)["in_opening"] == [True, False], "caravan 2 is still empty"
    assert state.current_player() == 1


def test_c2_the_opening_ends_when_all_three_caravans_hold_a_card() -> None:
    state = build(
        ["7H", "9D", "", "", "", ""],
        ["2C 3C 5S", "2H 3H 4H"],
        opening=(True, False),
        next_draws=("KD QD", "KH"),
    )
    play(state, "2C", 2)
    assert state.view(0)["in_opening"] == [False, False]
    assert state.hand(0) == ["3C", "5S"], "the last opening play draws nothing either"
    discard(state, "2H")
    assert state.hand(1) == ["3H", "4H", "KH"]
    play(state, "3C", 2)
    assert state.hand(0) == ["KD", "5S"], "after the opening a play draws"


def test_c2_a_player_without_number_cards_discards_and_draws_in_the_opening() -> None:
    state = build(EMPTY, ["QS JH KS JK1 QD", "2H 3H"], opening=(True, False), next_draws=("7C", ""))
    hand = ["JH", "QS", "KS", "QD", "JK1"]
    assert state.hand(0) == sorted(hand, key=ALL_FACES.index)
    assert state.legal_actions() == ids(state, *({"type": "discard", "card": c} for c in hand)), (
        "discards only"
    )
    refused(state, play_move("QS", 0, 0), "C2", says="number cards only")
    discard(state, "QS")
    data = data_of(state)
    assert data["hands"][0] == ["7C", "QD", "JH", "KS", "JK1"] and data["discards"][0][-1] == "QS"
    assert state.view(0)["in_opening"][0]
    discard(state, "2H")
    # Now holding a number card, the player must place it: no discards any more.
    assert state.legal_actions() == ids(state, *(play_move("7C", k) for k in (0, 1, 2)))
    refused(state, {"type": "discard", "card": "JH"}, "C2")


def test_c2_an_opponents_jack_prolongs_the_opening() -> None:
    state = build(
        ["7H", "9D", "", "5C", "6C", "8S"],
        ["2C 3C 4C", "JH 2H 3H"],
        opening=(True, False),
        current=1,
    )
    play(state, "JH", 0, 0)
    assert table(state)[0] == ""
    assert state.view(0)["in_opening"][0]
    assert state.legal_actions() == ids(state, *(play_move(c, k) for c in ("2C", "3C", "4C") for k in (0, 2)))
    play(state, "2C", 2)
    assert state.view(0)["in_opening"][0], "caravans 1 and 2 hold a card, caravan 0 no longer does"
    discard(state, "2H")
    refused(state, play_move("3C", 1), "C2")
    play(state, "3C", 0)
    assert not state.view(0)["in_opening"][0]
    assert state.hand(0) == ["4C"], "the play that ends the opening draws nothing"


def test_c2_the_opening_never_restarts() -> None:
    state = build(["7H", "9D", "3S", "5C", "6C", "8S"], ["QS 5C", "JH 2H"], current=1)
    play(state, "JH", 2, 0)
    assert table(state)[2] == "" and state.view(0)["in_opening"] == [False, False]
    legal = state.legal_actions()
    for move in (
        play_move("QS", 0, 0),
        play_move("5C", 0),
        play_move("5C", 2),
        {"type": "discard", "card": "QS"},
        {"type": "disband", "caravan": 1},
    ):
        assert state.action_from_json(move) in legal, move


# --- C3 Direction --------------------------------------------------------------------------


def test_c3_the_direction_comes_from_the_last_two_printed_values() -> None:
    state = build(
        ["3H 7H", "9C 4C", "5D", "6H+KS' 8S", "9H 5C+KD'", ""],
        ["2C", "7D 3D 8C"],
        current=1,
    )
    shown = [caravan_shown(state, i) for i in range(NUM_CARAVANS)]
    assert shown == [
        (10, "ascending", "hearts"),
        (13, "descending", "clubs"),
        (5, None, "diamonds"),  # a single card has no direction
        (20, "ascending", "spades"),  # 6 -> 8 ascends, whatever the king makes of the 6
        (19, "descending", "clubs"),  # 9 -> 5 descends though the 5 counts 10
        (0, None, None),
    ]
    refused(
        state,
        play_move("7D", 4),
        "C5",
        exact="C5: 7D cannot follow 5C on a descending caravan unless it is clubs",
    )
    for card in ("3D", "8C"):
        assert check_text(state, play_move(card, 4)) is None, card
    refused(state, play_move("3D", 3), "C5", says="8S")  # 6 -> 8 ascends: a 3 must be clubs


def test_c3_each_queen_on_the_last_card_reverses_the_direction() -> None:
    state = build(
        ["2S 6S+QH'", "8S 3S+QD'+QC'", "9D 2D+QC+QD+QH", "", "", ""],
        ["9S 9H 4S", "2H"],
    )
    assert [caravan_shown(state, i) for i in range(3)] == [
        (8, "descending", "hearts"),  # ascending, one queen
        (11, "descending", "clubs"),  # descending, two queens; the topmost (last) queen's suit
        (11, "ascending", "hearts"),  # descending, three queens
    ]
    # The queen made caravan 0 descending and hearts: spades no longer match it.
    refused(
        state,
        play_move("9S", 0),
        "C5",
        exact="C5: 9S cannot follow 6S on a descending caravan unless it is hearts",
    )
    assert check_text(state, play_move("9H", 0)) is None
    play(state, "4S", 0)
    assert caravan_shown(state, 0) == (12, "descending", "spades"), "the queen lies under a card now"


@pytest.mark.parametrize("fixed_course", [False, True])
def test_c3_a_jack_leaving_two_equal_values_makes_the_caravan_descending(fixed_course: bool) -> None:
    """C3: descending; Fester Kurs: the base direction from just before the removal (A -> 4)."""
    variants = ["fixed_course"] if fixed_course else []
    state = build(["2H 4C AS 4D", "", "", "", "", ""], ["JD 5C 3C 5D", "2H"], variants=variants)
    assert caravan_shown(state, 0) == (11, "ascending", "diamonds")
    play(state, "JD", 0, 2)
    assert table(state)[0] == "2H 4C 4D"
    direction = "ascending" if fixed_course else "descending"
    assert caravan_shown(state, 0) == (10, direction, "diamonds")
    discard(state, "2H")
    # What a number card may do follows the direction shown.
    if fixed_course:
        assert data_of(state)["caravans"][0].get("kept") == "ascending"
        assert check_text(state, play_move("5C", 0)) is None
        refused(state, play_move("3C", 0), "C5", says="ascending caravan unless it is diamonds")
    else:
        assert check_text(state, play_move("3C", 0)) is None
        refused(state, play_move("5C", 0), "C5", says="descending caravan unless it is diamonds")
    assert check_text(state, play_move("5D", 0)) is None


@pytest.mark.parametrize("fixed_course", [False, True])
def test_c3_the_base_direction_is_kept_and_a_queen_still_reverses_it(fixed_course: bool) -> None:
    """Before: A -> 4 ascending, shown descending under the queen. The jack takes the ace."""
    variants = ["fixed_course"] if fixed_course else []
    state = build(["2H 4C AS 4D+QS'", "", "", "", "", ""], ["JD", "2H"], variants=variants)
    assert caravan_shown(state, 0) == (11, "descending", "spades")
    play(state, "JD", 0, 2)
    # Plain: the base is descending (equal values), the queen makes it ascending. Fester Kurs:
    # the base stays ascending, the queen makes it descending.
    assert caravan_shown(state, 0) == (10, "descending" if fixed_course else "ascending", "spades")


@pytest.mark.parametrize("fixed_course", [False, True])
def test_c3_a_joker_leaving_two_equal_values_makes_the_caravan_descending(fixed_course: bool) -> None:
    variants = ["fixed_course"] if fixed_course else []
    state = build(["3C 7H 5D 7S", "", "", "5H", "", ""], ["JK1", "2H"], variants=variants)
    assert caravan_shown(state, 0) == (22, "ascending", "spades")
    play(state, "JK1", 3, 0)
    assert table(state)[0] == "3C 7H 7S" and table(state)[3] == "5H+JK1'"
    assert caravan_shown(state, 0) == (17, "ascending" if fixed_course else "descending", "spades")


def test_c3_a_removal_leaving_different_values_derives_the_direction_anew() -> None:
    for variants in ([], ["fixed_course"]):
        state = build(["2D 5H 9C 5S", "", "", "", "", ""], ["JD", "2H"], variants=variants)
        assert caravan_shown(state, 0) == (21, "descending", "spades")
        play(state, "JD", 0, 3)
        assert caravan_shown(state, 0) == (16, "ascending", "clubs")


# --- C4 Suit -------------------------------------------------------------------------------


def test_c4_the_suit_is_the_topmost_queens_else_the_last_cards_and_never_a_jokers() -> None:
    state = build(["3H 9C+JK1'", "4H 8C+QD'+JK2'", "5S+QC'+QH'", "", "", ""], ["2C", "2H"])
    assert caravan_shown(state, 0) == (12, "ascending", "clubs"), "a joker counts as no suit"
    assert caravan_shown(state, 1) == (12, "descending", "diamonds")
    assert caravan_shown(state, 2) == (5, None, "hearts"), "the topmost queen; one card has no direction"


def test_c4_founding_suit_takes_the_first_cards_suit_unless_a_queen_lies_on_the_last() -> None:
    layout = ["3H 9C", "4H 8C+QD'", "", "", "", ""]
    hand = ["2H 2C 2D", "2S"]
    plain = build(layout, hand)
    founding = build(layout, hand, variants=["founding_suit"])
    assert caravan_shown(plain, 0) == (12, "ascending", "clubs")
    assert caravan_shown(founding, 0) == (12, "ascending", "hearts")
    assert caravan_shown(founding, 1) == (12, "descending", "diamonds"), "a queen on the last card overrides"
    assert check_text(plain, play_move("2C", 0)) is None
    refused(
        plain,
        play_move("2H", 0),
        "C5",
        exact="C5: 2H cannot follow 9C on an ascending caravan unless it is clubs",
    )
    assert check_text(founding, play_move("2H", 0)) is None
    refused(
        founding,
        play_move("2C", 0),
        "C5",
        exact="C5: 2C cannot follow 9C on an ascending caravan unless it is hearts",
    )
    play(founding, "2H", 0)
    assert caravan_shown(founding, 0) == (14, "descending", "hearts")


# --- C5 Number cards -----------------------------------------------------------------------


def test_c5_a_card_of_the_suit_may_reverse_the_direction() -> None:
    state = build(["3H 9C", "", "", "", "", ""], ["7H 7C 10S 9D", "2H"])
    refused(
        state,
        play_move("7H", 0),
        "C5",
        exact="C5: 7H cannot follow 9C on an ascending caravan unless it is clubs",
    )
    assert check_text(state, play_move("10S", 0)) is None, "ascending: higher"
    play(state, "7C", 0)
    assert caravan_shown(state, 0) == (19, "descending", "clubs"), "the direction follows the last two cards"


def test_c5_never_the_same_value_twice_in_a_row() -> None:
    state = build(["3H 9C", "7H", "", "", "", ""], ["9D 7S 2C 10C", "2H"])
    refused(state, play_move("9D", 0), "C5", says="9D")
    refused(state, play_move("7S", 1), "C5", says="7S")
    # Without a direction any other value goes, up or down.
    for card in ("2C", "10C", "9D"):
        assert check_text(state, play_move(card, 1)) is None, card


def test_c5_number_cards_go_onto_own_caravans_only() -> None:
    state = build(["4S", "", "", "5H", "", ""], ["6C", "6D"])
    for caravan in (3, 4):
        # Texts number caravans 1-6 as the board shows them; the params stay 0-based.
        refused(state, play_move("6C", caravan), "C5", says=f"caravan {caravan + 1} is player 2's")
        rejection = state.check_move(play_move("6C", caravan))
        assert rejection is not None and rejection.code == "not_own_caravan"
        assert rejection.params == {"caravan": caravan, "owner": 1}, rejection.params
    play(state, "6C", 0)
    for caravan in (0, 1):
        refused(state, play_move("6D", caravan), "C5")


# --- C6 Face cards -------------------------------------------------------------------------


def test_c6_a_number_card_carries_at_most_three_face_cards() -> None:
    state = build(["3H 9C+KS+KD+JK2'", "", "", "4S", "", ""], ["KC QS JD JK1", "2H"])
    assert caravan_shown(state, 0) == (39, "ascending", "clubs")
    full = "C6: a number card may carry at most 3 face cards: 9C on caravan 1 is full"
    for card in ("KC", "QS", "JD", "JK1"):
        refused(state, play_move(card, 0, 1), "C6", exact=full)
    for move in (play_move("KC", 0, 0), play_move("JD", 0, 0), play_move("KC", 3, 0), play_move("QS", 3, 0)):
        assert check_text(state, move) is None, move


def test_c6_unlimited_face_cards_lifts_the_cap() -> None:
    state = build(
        ["3H 9C+KS+KD+JK2'", "", "", "", "", ""], ["KC QS", "QH"], variants=["unlimited_face_cards"]
    )
    play(state, "KC", 0, 1)
    assert caravan_shown(state, 0) == (75, "ascending", "clubs"), "three kings: 9 * 8"
    play(state, "QH", 0, 1)
    assert table(state)[0] == "3H 9C+KS+KD+JK2'+KC+QH'"
    assert caravan_shown(state, 0) == (75, "descending", "hearts")


def test_c6_face_cards_go_onto_any_caravan() -> None:
    state = build(["4C", "", "", "5H 8D", "", ""], ["KC JD QS", "2H"])
    play(state, "KC", 3, 1)
    assert caravan_shown(state, 3) == (21, "ascending", "diamonds")
    assert data_of(state)["caravans"][3]["slots"][1]["faces"] == [{"card": "KC", "owner": 0}]


def test_c6_face_cards_need_a_number_card_there() -> None:
    state = build(["3H 9C", "", "", "", "", ""], ["KC", "2H"])
    refused(state, play_move("KC", 1, 0), "C6", says="no number card")
    refused(state, play_move("KC", 0, 2), "C6", says="no number card")


def test_c6_queens_go_onto_the_last_number_card_only() -> None:
    state = build(["3H 9C", "", "", "", "", ""], ["QS KC JD", "2H"])
    refused(state, play_move("QS", 0, 0), "C6")
    for move in (play_move("QS", 0, 1), play_move("KC", 0, 0), play_move("JD", 0, 0)):
        assert check_text(state, move) is None, move


def test_c6_queens_anywhere_act_only_while_their_card_is_last() -> None:
    state = build(["3H 5D 9C", "", "", "", "", ""], ["QS JD", "2H"], variants=["queens_anywhere"])
    play(state, "QS", 0, 1)
    assert caravan_shown(state, 0) == (17, "ascending", "clubs"), (
        "the queen lies under a card that is not last"
    )
    discard(state, "2H")
    play(state, "JD", 0, 2)
    assert table(state)[0] == "3H 5D+QS"
    assert caravan_shown(state, 0) == (8, "descending", "spades"), (
        "now last: 3 -> 5 ascends, the queen reverses"
    )


# --- C7 Effects ----------------------------------------------------------------------------


def test_c7_kings_double_their_card_once_per_king() -> None:
    layout = ["5H+KS+KD", "10H+KS'+KD'+KC'", "4C", "", "", ""]
    state = build(layout, ["KC", "KH"])
    assert [caravan_shown(state, i)[0] for i in range(3)] == [20, 80, 4]
    play(state, "KC", 2, 0)
    assert caravan_shown(state, 2)[0] == 8
    play(state, "KH", 2, 0)
    assert caravan_shown(state, 2)[0] == 16


def test_c7_kings_add_adds_the_cards_value_per_king() -> None:
    layout = ["5H+KS+KD", "10H+KS'+KD'+KC'", "4C", "", "", ""]
    state = build(layout, ["KC", "KH"], variants=["kings_add"])
    assert [caravan_shown(state, i)[0] for i in range(3)] == [15, 40, 4]
    play(state, "KC", 2, 0)
    assert caravan_shown(state, 2)[0] == 8
    play(state, "KH", 2, 0)
    assert caravan_shown(state, 2)[0] == 12


def test_c7_a_jack_removes_its_card_with_everything_to_the_owners_discard_piles() -> None:
    state = build(["", "", "", "4S 9S+KH'+QD", "", ""], ["JD 2C", "2H"])
    before = data_of(state)
    play(state, "JD", 3, 1)
    assert table(state)[3] == "4S"
    assert caravan_shown(state, 3) == (4, None, "spades")
    assert added_to_discard_piles(before, data_of(state)) == [Counter(["JD", "KH"]), Counter(["9S", "QD"])]


def test_c7_a_joker_on_an_ace_takes_every_other_card_of_its_suit_from_the_whole_table() -> None:
    state = build(
        ["AH 5H+KS", "7H", "3C", "9H+QD' 2H", "AD", "AH 10H"],
        ["JK1 2C", "2S"],
    )
    before = data_of(state)
    play(state, "JK1", 0, 0)
    assert table(state) == ["AH+JK1", "", "3C", "", "AD", ""], "other aces of hearts included, other aces not"
    assert [caravan_shown(state, i)[0] for i in range(NUM_CARAVANS)] == [1, 0, 3, 0, 1, 0]
    gained = added_to_discard_piles(before, data_of(state))
    assert gained == [Counter(["5H", "KS", "7H", "QD"]), Counter(["9H", "2H", "AH", "10H"])]


def test_c7_a_joker_on_two_to_ten_takes_every_other_card_of_that_value() -> None:
    state = build(
        ["7C 3D", "10C 7H+KS", "", "7H 2S", "7S 2D 7D+KC'", ""],
        ["JK2 2C", "2H"],
    )
    before = data_of(state)
    play(state, "JK2", 4, 0)
    assert table(state) == ["3D", "10C", "", "2S", "7S+JK2' 2D", ""], "own and other caravans, any suit"
    gained = added_to_discard_piles(before, data_of(state))
    assert gained == [Counter(["7C", "7H", "KS", "KC"]), Counter(["7H", "7D"])]


@pytest.mark.parametrize("queens_shield", [False, True])
def test_c7_queens_shield_spares_cards_carrying_a_queen_from_an_ace_joker(queens_shield: bool) -> None:
    variants = ["queens_shield"] if queens_shield else []
    state = build(["AH 5H+QS", "7H", "", "9H+QC'", "", ""], ["JK1 2C", "2S"], variants=variants)
    play(state, "JK1", 0, 0)
    if queens_shield:
        assert table(state) == ["AH+JK1 5H+QS", "", "", "9H+QC'", "", ""]
    else:
        assert table(state) == ["AH+JK1", "", "", "", "", ""]


def test_c7_queens_shield_does_not_spare_cards_from_a_joker_on_two_to_ten() -> None:
    state = build(["7C+QS", "", "", "7H", "", ""], ["JK1 2C", "2S"], variants=["queens_shield"])
    play(state, "JK1", 3, 0)
    assert table(state) == ["", "", "", "7H+JK1'", "", ""]


@pytest.mark.parametrize("protected_joker", [False, True])
def test_c7_protected_joker_removes_nothing_from_its_own_caravan(protected_joker: bool) -> None:
    variants = ["protected_joker"] if protected_joker else []
    state = build(["AH 5H+QS 9H", "7H", "", "3H", "AD 4D", "2D"], ["JK1 JK2", "2S"], variants=variants)
    play(state, "JK1", 0, 0)
    own = "AH+JK1 5H+QS 9H" if protected_joker else "AH+JK1"
    assert table(state) == [own, "", "", "", "AD 4D", "2D"]
    discard(state, "2S")
    # A joker on the other player's caravan protects that caravan.
    play(state, "JK2", 4, 0)
    assert table(state)[3:] == ["", "AD+JK2' 4D" if protected_joker else "AD+JK2'", ""]


# --- C8 Turns ------------------------------------------------------------------------------


def test_c8_play_and_discard_draw_the_next_card_disbanding_draws_nothing() -> None:
    state = build(
        ["4S 8S+KH'", "", "", "", "", ""],
        ["2C 3C 4C 5C 6C", "2H 3H 4H 5H 6H"],
        next_draws=("KD QD", "JH"),
    )
    decks = state.view(0)["deck_sizes"]
    play(state, "2C", 1)
    assert state.hand(0) == ["3C", "4C", "5C", "6C", "KD"]
    discard(state, "2H")
    assert state.hand(1) == ["3H", "4H", "5H", "6H", "JH"] and data_of(state)["discards"][1][-1] == "2H"
    discard(state, "3C")
    assert state.hand(0) == ["4C", "5C", "6C", "QD", "KD"]
    discard(state, "3H")
    before = data_of(state)
    disband(state, 0)
    after = data_of(state)
    assert table(state)[0] == "" and state.hand(0) == before["hands"][0], "disbanding draws nothing"
    assert added_to_discard_piles(before, after) == [Counter(["4S", "8S"]), Counter(["KH"])]
    assert state.view(0)["deck_sizes"] == [decks[0] - 2, decks[1] - 2]
    discard(state, "4H")
    refused(state, {"type": "disband", "caravan": 0}, "C8", says="empty")
    refused(state, {"type": "disband", "caravan": 3}, "C8", says="own caravans")
    refused(state, {"type": "discard", "card": "KS"}, "C8", says="KS is not in player 1's hand")
    refused(state, play_move("KS", 1, 0), "C8", says="KS")


def test_c8_an_empty_deck_draws_nothing() -> None:
    state = build(["4S", "", "", "5H", "", ""], ["2C 3C", "2H 3H"], deck_sizes=(0, None))
    play(state, "2C", 1)
    assert state.hand(0) == ["3C"] and state.view(0)["deck_sizes"][0] == 0
    assert not state.is_terminal(), "a card in hand: not out of cards yet"


def test_a_player_to_move_with_an_empty_hand_draws_first() -> None:
    """README: jacks and jokers against an opening (C2: no drawing there) can use up a hand;
    a player to move with an empty hand and cards in the deck draws one card first."""
    state = build(
        ["4S", "", "", "5H", "", ""],
        ["2C 3C JD", "7H"],
        opening=(False, True),
        current=1,
        next_draws=("QD", "KH 9H"),
    )
    play(state, "7H", 4)
    assert state.hand(1) == [] and state.view(1)["in_opening"] == [False, True], "no drawing in the opening"
    decks = state.view(0)["deck_sizes"]
    play(state, "JD", 4, 0)
    assert table(state)[4] == "" and state.view(1)["in_opening"][1], "the jack prolongs the opening"
    assert state.hand(0) == ["2C", "3C", "QD"]
    assert state.hand(1) == ["KH"] and state.view(1)["hand_sizes"] == [3, 1]
    assert state.view(1)["deck_sizes"] == [decks[0] - 1, decks[1] - 1]
    assert len(state.history()) == 2, "the draw is no action"
    # Holding no number card in the opening: discard and draw (C2).
    assert state.legal_actions() == ids(state, {"type": "discard", "card": "KH"})
    discard(state, "KH")
    assert state.hand(1) == ["9H"]
    # A position where the player to move would not have drawn cannot arise.
    with pytest.raises(spielwerk.InvalidStateError, match="empty hand and cards in the deck"):
        state.game.deserialize_state(
            position_json(["4S", "", "", "5H", "", ""], ["2C", ""], opening=(False, True), current=1)
        )


# --- C9 Selling and the end ----------------------------------------------------------------

# Caravans worth a value: clubs for player 0, hearts for player 1.
WORTH = {0: "", 20: "10{s} 9{s} A{s}", 21: "10{s} 9{s} 2{s}", 24: "10{s} 9{s} 5{s}", 26: "10{s} 9{s} 7{s}"}
WORTH[27] = "10{s} 9{s} 8{s}"


@pytest.mark.parametrize(
    ("mine", "theirs", "seller"),
    [
        (21, 0, 0),
        (26, 27, 0),  # over 26 is overloaded
        (27, 20, None),
        (20, 21, 1),
        (21, 26, 1),  # both in range: the higher sells
        (26, 21, 0),
        (24, 24, None),  # a tie sells nothing
        (0, 0, None),
    ],
)
def test_c9_who_sells_a_pair(mine: int, theirs: int, seller: int | None) -> None:
    state = build([WORTH[mine].format(s="C"), "", "", WORTH[theirs].format(s="H"), "", ""], ["2D", "2S"])
    assert caravan_shown(state, 0)[0] == mine and caravan_shown(state, 3)[0] == theirs
    pairs = state.view(0)["pairs"]
    assert [p["sold_by"] for p in pairs] == [seller, None, None]
    # What the board shows of the sale (C9): where each caravan stands, and a tie.
    assert pairs[0]["facts"] == pair_facts(mine, theirs)


def test_c9_a_tie_blocks_the_sale_and_the_game_ends_when_all_three_pairs_are_decided() -> None:
    state = build(
        ["10H 8S 6C", "10C 9D 3S", "10S 9H 2C", "10D 8H 6S", "5D", "10C 9C 3C"],
        ["4H 2D", "2H 3H"],
    )
    assert [p["sold_by"] for p in state.view(0)["pairs"]] == [None, 0, 1], "24 against 24 sells nothing"
    assert state.public_view()["pairs"][0]["facts"] == {"range": ["in_range", "in_range"], "tied": True}
    assert not state.is_terminal()
    play(state, "2D", 0)
    view = state.view(1)
    assert [p["sold_by"] for p in view["pairs"]] == [0, 0, 1]
    assert view["outcome"] == {"winner": 0, "reason": "sold"}
    assert state.is_terminal() and state.current_player() == spielwerk.TERMINAL
    assert state.returns() == [1.0, -1.0] and state.legal_actions() == []
    assert state.result_text() == "player 1 wins: sold 2 of the three pairs"
    for move in (play_move("2H", 3), {"type": "discard", "card": "3H"}, {"type": "discard", "card": "4H"}):
        refused(state, move, "C9")


def test_c9_the_mover_may_decide_the_last_pair_for_the_other_player() -> None:
    state = build(
        ["10H 8S 6C", "10C 9D 3S", "10S 9H 2C", "10D 8H 6S", "5D", "10C 9C 3C"],
        ["5D", "2H"],
    )
    play(state, "5D", 0)
    assert caravan_shown(state, 0)[0] == 29, "overloaded"
    assert state.view(0)["outcome"] == {"winner": 1, "reason": "sold"}
    assert state.returns() == [-1.0, 1.0]


def test_c9_a_sale_is_final_only_when_the_game_ends() -> None:
    state = build(["10H 9S 3C", "", "", "5D", "", ""], ["2C", "KS JS"], current=1)
    assert state.view(0)["pairs"][0] == {
        "sold_by": 0,
        "facts": {"range": ["in_range", "below"], "tied": False},
    }
    play(state, "KS", 0, 0)
    assert caravan_shown(state, 0)[0] == 32
    assert state.view(0)["pairs"][0] == {
        "sold_by": None,
        "facts": {"range": ["above", "below"], "tied": False},
    }
    discard(state, "2C")
    play(state, "JS", 0, 0)
    assert caravan_shown(state, 0)[0] == 12
    assert state.view(0)["pairs"][0] == {
        "sold_by": None,
        "facts": {"range": ["below", "below"], "tied": False},
    }


@pytest.mark.parametrize("quick_sale", [False, True])
def test_c9_quick_sale_wins_with_two_pairs_sold_at_once(quick_sale: bool) -> None:
    variants = ["quick_sale"] if quick_sale else []
    state = build(["10H 8S", "10C 9D 3S", "10S 9H", "", "5D", "7D"], ["2C", "2H"], variants=variants)
    assert [p["sold_by"] for p in state.view(0)["pairs"]] == [None, 0, None]
    play(state, "2C", 2)
    assert [p["sold_by"] for p in state.view(0)["pairs"]] == [None, 0, 0]
    if quick_sale:
        assert state.view(0)["outcome"] == {"winner": 0, "reason": "quick_sale"}
        assert state.returns() == [1.0, -1.0]
    else:
        assert not state.is_terminal(), "the third pair is not decided"


def test_c9_running_out_of_cards_loses_at_once() -> None:
    state = build(["4S", "", "", "5H", "", ""], ["2C", "2H 3H"], deck_sizes=(0, None))
    play(state, "2C", 1)
    assert state.view(1)["outcome"] == {"winner": 1, "reason": "out_of_cards"}
    assert state.returns() == [-1.0, 1.0] and state.current_player() == spielwerk.TERMINAL
    assert state.result_text() == "player 2 wins: player 1 ran out of cards"
    # Discarding the last card as well.
    state = build(["4S", "", "", "5H", "", ""], ["2C 3C", "KH"], deck_sizes=(None, 0), current=1)
    discard(state, "KH")
    assert state.view(0)["outcome"] == {"winner": 0, "reason": "out_of_cards"}


def test_c9_selling_decides_before_running_out_of_cards() -> None:
    state = build(
        ["10H 8S 6C", "10C 9D 3S", "10S 9H 2C", "10D 8H 6S", "5D", "10C 9C 3C"],
        ["2D", "2H"],
        deck_sizes=(0, None),
    )
    play(state, "2D", 0)
    assert state.hand(0) == [] and state.view(0)["deck_sizes"][0] == 0
    assert state.view(0)["outcome"] == {"winner": 0, "reason": "sold"}


# --- C10 Variants that change the decks and the deal ---------------------------------------


def test_c10_reshuffle_makes_the_discard_pile_the_new_deck_twice_at_most() -> None:
    layout = ["4S", "", "", "5H", "", ""]
    # After an earlier reshuffle the view shows that pile, here the two cards in hand: the
    # deck held only them, and the player drew both.
    earlier = ("2C 3C", "")
    for used in (0, 1):
        state = build(
            layout,
            ["2C 3C", "2H"],
            variants=["reshuffle"],
            deck_sizes=(0, None),
            reshuffles=(used, 0),
            reshuffled=earlier if used else ("", ""),
        )
        assert state.view(1)["reshuffled"] == ([["2C", "3C"], []] if used else [[], []])
        before = data_of(state)
        pile = before["discards"][0]
        assert len(pile) > 40
        discard(state, "3C")
        after = data_of(state)
        assert after["reshuffles"] == [used + 1, 0] and after["discards"][0] == []
        drawn = Counter(after["hands"][0]) - Counter(["2C"])
        assert sum(drawn.values()) == 1 and len(after["hands"][0]) == 2
        assert Counter(after["decks"][0]) + drawn == Counter([*pile, "3C"]), (
            "the pile and the card just discarded"
        )
        assert after["decks"][0] != sorted(after["decks"][0], key=ALL_FACES.index), "shuffled"
        assert state.view(0)["reshuffles_used"] == [used + 1, 0]
        # The pile lay face up: both players see what the new deck is made of (sorted).
        new_pile = sorted([*pile, "3C"], key=ALL_FACES.index)
        assert state.view(0)["reshuffled"] == state.view(1)["reshuffled"] == [new_pile, []]
    # A third time, and without the variant, the empty deck stays empty.
    for variants, used in ((["reshuffle"], 2), ([], 0)):
        state = build(
            layout,
            ["2C 3C", "2H"],
            variants=variants,
            deck_sizes=(0, None),
            reshuffles=(used, 0),
            reshuffled=earlier if used else ("", ""),
        )
        shown = state.view(1)["reshuffled"]
        play(state, "2C", 1)
        after = data_of(state)
        assert after["hands"][0] == ["3C"] and after["decks"][0] == [] and after["reshuffles"] == [used, 0]
        assert state.view(1)["reshuffled"] == shown, "no new pile shown"


def test_c10_reshuffle_after_a_play_as_well() -> None:
    state = build(["4S", "", "", "5H", "", ""], ["2C 3C", "2H"], variants=["reshuffle"], deck_sizes=(0, None))
    pile = data_of(state)["discards"][0]
    play(state, "2C", 1)
    after = data_of(state)
    assert after["reshuffles"] == [1, 0] and len(after["hands"][0]) == 2
    assert Counter(after["decks"][0] + after["hands"][0]) == Counter([*pile, "3C"])


def test_c10_short_deck_deals_30_random_cards_of_a_full_deck() -> None:
    game = spielwerk.load_game(GAME_NAME, short_deck=True)
    decks = set()
    for seed in range(30):
        data = data_of(game.new_initial_state(seed=seed))
        for p in (0, 1):
            cards = Counter(data["decks"][p] + data["hands"][p])
            assert sum(cards.values()) == 30 and len(data["hands"][p]) == 8
            assert cards <= full_deck(), "a sub-multiset of one full deck"
            decks.add(tuple(sorted(cards.elements())))
    assert len(decks) > 30, "random cards"
    state = build(["4S", "", "", "", "", ""], ["2C 3C", "2H"], variants=["short_deck"])
    data = data_of(state)
    assert sum(len(data[key][0]) for key in ("decks", "hands", "discards")) == 29
    game.deserialize_state(json.dumps(data))
    missing = sorted((full_deck() - Counter(data["decks"][0] + data["hands"][0] + ["4S"])).elements())
    for change in ("add", "remove"):
        broken = json.loads(json.dumps(data))
        if change == "add":
            broken["decks"][0].append(missing[0])
        else:
            broken["decks"][0].pop()
        with pytest.raises(ValueError, match="30"):
            game.deserialize_state(json.dumps(broken))


def test_c10_double_deck_has_two_of_every_card_and_four_jokers() -> None:
    game = spielwerk.load_game(GAME_NAME, double_deck=True)
    assert game.num_distinct_actions() == num_actions({**STANDARD, "double_deck": True}) == 7982
    data = data_of(game.new_initial_state(seed=3))
    for p in (0, 1):
        assert Counter(data["decks"][p] + data["hands"][p]) == full_deck(double_deck=True)
        assert len(data["decks"][p]) == 100 and set(JOKERS) <= set(data["decks"][p] + data["hands"][p])
    state = build(
        ["7H 2C", "7H", "", "7S", "", ""],
        ["JK3 JK4 9D 9D", "2H"],
        variants=["double_deck"],
    )
    legal = state.legal_actions()
    assert len(legal) == len(set(legal)), "two 9D give the same actions once"
    assert legal.count(state.action_from_json({"type": "discard", "card": "9D"})) == 1
    for joker in ("JK3", "JK4"):
        assert state.action_from_json(play_move(joker, 3, 0)) in legal, f"{joker} exists and plays"
    play(state, "9D", 2)
    discard(state, "2H")
    refused(state, play_move("9D", 2), "C5", says="9D")  # the same card again: the same value
    play(state, "JK4", 3, 0)
    assert table(state)[:4] == ["2C", "", "9D", "7S+JK4'"], "both copies of 7H go"
    assert state.action_from_json(play_move("QS", 0, 79)) == encode(
        play_move("QS", 0, 79), data_of(state)["rules"]
    )
    with pytest.raises(ValueError, match="0-79"):
        state.action_from_json(play_move("QS", 0, 80))
    data = data_of(state)
    data["decks"][0].append("9D")
    with pytest.raises(ValueError, match="9D"):
        game.deserialize_state(json.dumps(data))


def test_c10_fresh_hand_deals_again_and_shows_the_hands_it_rejects() -> None:
    fresh = spielwerk.load_game(GAME_NAME, fresh_hand=True)
    shown_seeds = []
    for seed in range(3000):
        state = fresh.new_initial_state(seed=seed)
        data = data_of(state)
        for p in (0, 1):
            assert sum(is_number(card) for card in data["hands"][p]) >= 3, (seed, p)
            for hand in data["shown_hands"][p]:
                assert len(hand) == 8 and sum(is_number(card) for card in hand) < 3, (seed, hand)
        if any(data["shown_hands"]):
            shown_seeds.append(seed)
            assert state.view(0)["shown_hands"] == state.view(1)["shown_hands"] == data["shown_hands"]
            for p in (0, 1):
                mine = Counter(data["decks"][p] + data["hands"][p])
                assert all(Counter(hand) <= mine for hand in data["shown_hands"][p]), "shuffled back"
    assert len(shown_seeds) >= 3, "about one hand in 400 has fewer than 3 number cards"
    assert not spielwerk.load_game(GAME_NAME, fresh_hand=True).ranked()


# --- Options and ranking -----------------------------------------------------------------


def test_ranked_only_with_the_standard_rules() -> None:
    game = spielwerk.load_game(GAME_NAME)
    assert game.ranked() and game.options() == STANDARD
    assert game.new_initial_state(seed=1).view(0)["ranked"] is True
    assert spielwerk.load_game(GAME_NAME, **STANDARD).ranked()
    for variant in VARIANTS:
        g = spielwerk.load_game(GAME_NAME, **{variant: True})
        assert not g.ranked(), variant
        assert g.options() == {**STANDARD, variant: True}
        assert g.new_initial_state(seed=1).view(1)["ranked"] is False


def test_unknown_option_names_the_option_and_the_options_there_are() -> None:
    with pytest.raises(ValueError) as error:
        spielwerk.load_game(GAME_NAME, queens_everywhere=True)
    message = str(error.value)
    assert "'queens_everywhere'" in message
    for name in VARIANTS:
        assert name in message, f"{message!r} does not list {name}"


@pytest.mark.parametrize("value", [1, 0, "true", None, 1.5, [True]])
def test_option_values_are_true_or_false(value: object) -> None:
    with pytest.raises(ValueError) as error:
        spielwerk.load_game(GAME_NAME, kings_add=value)
    message = str(error.value)
    assert "kings_add" in message and "true or false" in message, message


# --- Moves: the JSON format, check_move and bad input --------------------------------------

MALFORMED_MOVES: list[tuple[Any, list[str]]] = [
    ({"type": "play", "card": "1H", "caravan": 0}, ["'1H'", "JK1-JK4"]),
    ({"type": "play", "card": "JK5", "caravan": 0, "position": 0}, ["'JK5'", "JK1-JK4"]),
    ({"type": "discard", "card": "qs"}, ["'qs'", "JK1-JK4"]),
    ({"type": "play", "card": "QS", "caravan": 0}, ["'position'"]),
    ({"type": "play", "card": "7S", "caravan": 6}, ["6", "0-5"]),
    ({"type": "play", "card": "7S", "caravan": -1}, ["-1", "0-5"]),
    ({"type": "play", "card": "7S", "caravan": "1"}, ["caravan", "0-5"]),
    ({"type": "play", "card": "QS", "caravan": 0, "position": 40}, ["40", "0-39"]),
    ({"type": "play", "card": "7S", "caravan": 0, "position": 0}, ["'position'"]),
    ({"type": "play", "caravan": 0}, ["missing field `card`"]),
    ({"type": "discard", "card": "7S", "caravan": 0}, ["unknown field `caravan`"]),
    ({"type": "disband"}, ["missing field `caravan`"]),
    ({"type": "disband", "caravan": 9}, ["9", "0-5"]),
    ({"type": "sell", "caravan": 0}, ["unknown variant `sell`", "`play`, `discard`, `disband`"]),
    ({"card": "7S"}, ["missing field `type`"]),
    (["play"], ["object"]),
    ("discard", ["object"]),
]


@pytest.mark.parametrize(("move", "needles"), MALFORMED_MOVES)
def test_malformed_moves_say_what_is_wrong_and_what_is_allowed(move: Any, needles: list[str]) -> None:
    state = spielwerk.load_game(GAME_NAME).new_initial_state(seed=1)
    # A bad card name is answered with the card notation instead of the move forms.
    forms = () if "JK1-JK4" in needles else ('"play"', '"discard"', '"disband"')
    assert_malformed_move_refused(state, move, needles, forms)


@pytest.mark.parametrize(
    ("move", "field"),
    [
        ({"type": "play", "card": "7S", "caravan": "1"}, "caravan"),
        ({"type": "play", "card": "QS", "caravan": 0, "position": "x"}, "position"),
        ({"type": "discard", "card": 7}, "card"),
    ],
)
def test_a_field_of_the_wrong_type_is_named(move: dict[str, Any], field: str) -> None:
    """What is wrong comes before the move forms, and names the field."""
    state = spielwerk.load_game(GAME_NAME).new_initial_state(seed=1)
    with pytest.raises(spielwerk.InvalidMoveError) as error:
        state.check_move(move)
    wrong = str(error.value).split("; moves are")[0]
    assert field in wrong, wrong


def move_text(move: dict[str, Any]) -> str:
    """A move as texts for people show it: "play QS on caravan 1, number card 2"."""
    if move["type"] == "discard":
        return f"discard {move['card']}"
    if move["type"] == "disband":
        return f"disband caravan {move['caravan'] + 1}"
    text = f"play {move['card']} on caravan {move['caravan'] + 1}"
    return text if "position" not in move else f"{text}, number card {move['position'] + 1}"


@pytest.mark.parametrize("variants", [[], ["double_deck"]])
def test_moves_round_trip_for_every_action(variants: list[str]) -> None:
    rules = {**STANDARD, **dict.fromkeys(variants, True)}
    state = spielwerk.load_game(GAME_NAME, **rules).new_initial_state(seed=3)
    moves = set()
    for action in range(num_actions(rules)):
        move = state.action_to_json(action)
        # The JSON move is the encoding documented in mod.rs.
        assert move == decode(action, rules), action
        assert state.action_from_json(move) == action
        # Texts number caravans 1-6 and a caravan's number cards from 1, as the board shows them.
        assert state.action_to_string(action) == move_text(move), action
        moves.add(json.dumps(move, sort_keys=True))
    assert len(moves) == num_actions(rules)


def test_a_card_not_in_hand_is_refused() -> None:
    state = build(["4S", "", "", "", "", ""], ["2C KS", "2H"])
    refused(state, play_move("3C", 1), "C8", says="3C is not in player 1's hand")
    refused(state, {"type": "discard", "card": "JK3"}, "C8", says="JK3")
    refused(state, play_move("KD", 0, 0), "C8", says="KD")


def test_deserialize_state_refuses_positions_that_break_the_decks() -> None:
    game = spielwerk.load_game(GAME_NAME)
    good = json.loads(position_json(["4S 9C+KH'", "", "", "5H", "", ""], ["2C 3C", "2H"]))
    game.deserialize_state(json.dumps(good))

    def broken(change: str) -> str:
        data = json.loads(json.dumps(good))
        if change == "missing":
            data["decks"][0].pop()
        elif change == "twice":
            data["hands"][1].append("2H")
        elif change == "joker3":
            data["decks"][1][0] = "JK3"
        elif change == "foreign number card":
            data["caravans"][3]["slots"][0]["number"]["owner"] = 0
            data["decks"][0].remove("5H")
            data["decks"][1].append("5H")
        elif change == "number card as a face":
            data["caravans"][0]["slots"][0]["faces"].append({"card": "2C", "owner": 0})
            data["hands"][0].remove("2C")
        elif change == "unsorted hand":
            data["hands"][0].reverse()
        elif change == "unknown field":
            data["colour"] = "blue"
        elif change == "player 2":
            data["current"] = 2
        elif change == "forged outcome":
            data["outcome"] = {"winner": 0, "reason": "sold"}  # C9: derived, never trusted
        elif change == "opening with two cards on a caravan":
            data["opening_done"][1] = False
            data["caravans"][4]["slots"] = [{"number": {"card": "9H", "owner": 1}, "faces": []}]
            data["caravans"][3]["slots"].append({"number": {"card": "7H", "owner": 1}, "faces": []})
            data["decks"][1].remove("9H")
            data["decks"][1].remove("7H")
        elif change == "hand of nine":
            data["hands"][1] = sorted_cards([*data["hands"][1], *data["decks"][1][-8:]])
            del data["decks"][1][-8:]
        return json.dumps(data)

    # Each change, and what the refusal names.
    for change, says in {
        "missing": "53",
        "twice": "2 of 2H",
        "joker3": "JK3",
        "foreign number card": "5H belongs to player 0",
        "number card as a face": "2C lies on a number card",
        "unsorted hand": "sorted",
        "unknown field": "colour",
        "player 2": "players are 0 and 1",
        "forged outcome": "the position gives running (C9)",
        "opening with two cards on a caravan": "(C2)",
        "hand of nine": "9 cards: at most 8",
    }.items():
        with pytest.raises(spielwerk.InvalidStateError) as error:
            game.deserialize_state(broken(change))
        assert error.value.code == "invalid_state", (change, error.value.code)
        assert says in str(error.value), (change, str(error.value))
    with pytest.raises(ValueError, match="quick_sale=false, this game has quick_sale=true"):
        spielwerk.load_game(GAME_NAME, quick_sale=True).deserialize_state(json.dumps(good))


def test_players_are_zero_and_one() -> None:
    state = spielwerk.load_game(GAME_NAME).new_initial_state(seed=1)
    for call in (state.view, state.hand, lambda p: state.resample(p, 0)):
        with pytest.raises(ValueError, match=r"0-1"):
            call(2)


def test_the_three_fixed_messages() -> None:
    """The wording the brief quotes, each on a position of its own."""
    opening = build(["7H", "", "", "", "", ""], ["QS 2C", "2H"], opening=(True, False))
    with pytest.raises(spielwerk.IllegalActionError, match=r"^C2: the opening allows number cards only$"):
        opening.apply_action(opening.action_from_json(play_move("QS", 0, 0)))
    direction = build(["3H 9C", "", "", "", "", ""], ["7H", "2H"])
    expected = "C5: 7H cannot follow 9C on an ascending caravan unless it is clubs"
    with pytest.raises(spielwerk.IllegalActionError, match=f"^{re.escape(expected)}$"):
        direction.apply_action(direction.action_from_json(play_move("7H", 0)))
    cap = build(["9C+KS+KD+KH", "", "", "", "", ""], ["JD", "2H"])
    # (the reason names the full card, its caravan numbered 1-6 as the board shows it)
    with pytest.raises(
        spielwerk.IllegalActionError,
        match=r"^C6: a number card may carry at most 3 face cards: 9C on caravan 1 is full$",
    ) as error:
        cap.apply_action(cap.action_from_json(play_move("JD", 0, 0)))
    assert error.value.code == "face_cards_full" and error.value.params == {"caravan": 0, "position": 0}
