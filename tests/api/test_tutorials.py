"""The tutorials' prepared positions (static/tutorials.js) are the engine's: every prepared ply
and every taught move is legal where it is played, with the other seats answering by the
engine's first move as the page does, and each lesson teaches what its text says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import spielwerk

TUTORIALS = Path(__file__).resolve().parents[2] / "api" / "spielwerk_api" / "static" / "tutorials.js"


def lessons() -> dict[str, Any]:
    text = TUTORIALS.read_text(encoding="utf-8")
    table: dict[str, Any] = json.loads(text[text.index("{") : text.rindex("}") + 1])
    return table


def others_move(state: spielwerk.State, seat: int) -> None:
    """tutorial.js's arrive(): the other seats play the engine's first move until it is
    the person's turn."""
    for _ in range(64):
        if state.is_terminal() or seat in state.seats_to_move():
            return
        other = state.seats_to_move()[0]
        state.apply_action(state.legal_moves(other)[0]["action"], other)


def played(lesson: dict[str, Any]) -> list[tuple[spielwerk.State, dict[str, Any]]]:
    """Each step's position before its move, and the step."""
    game = spielwerk.load_game(lesson["game"], **lesson["options"])
    state = game.new_initial_state(lesson["seed"])
    for ply in lesson["prepared"]:
        state.apply_action(ply["action"], ply["seat"])
    seat = lesson["seat"]
    others_move(state, seat)
    before = []
    for step in lesson["steps"]:
        assert step["move"] in [m["move"] for m in state.legal_moves(seat)], step
        before.append((game.deserialize_state(state.serialize()), step))
        state.apply_action(state.action_from_json(step["move"]), seat)
        others_move(state, seat)
    return before


def test_there_is_a_lesson_per_game_in_both_languages() -> None:
    table = lessons()
    assert sorted(table) == sorted(spielwerk.list_games())
    for name, lesson in table.items():
        assert lesson["game"] == name and lesson["steps"]
        for step in lesson["steps"]:
            assert step["text"]["de"] and step["text"]["en"]


@pytest.mark.parametrize("name", sorted(lessons()))
def test_every_taught_move_is_legal_where_it_is_taught(name: str) -> None:
    assert played(lessons()[name])


def test_schotten_totten_teaches_a_claim_provable_only_after_the_card() -> None:
    (before_card, card), (before_claim, claim) = played(lessons()["schotten_totten"])
    stone = claim["move"]["stone"]
    assert card["move"]["stone"] == stone
    claims = [m["move"] for m in before_card.legal_moves(0) if m["move"]["type"] == "claim"]
    assert {"type": "claim", "stone": stone} not in claims  # not provable before the card (S5)
    assert len(before_claim.view(0)["stones"][stone]["cards"][0]) == 3


def test_the_game_teaches_the_backwards_trick() -> None:
    (before, step), *_ = played(lessons()["the_game"])
    pile = before.view(0)["piles"][step["move"]["pile"]]
    assert pile["direction"] == "ascending" and step["move"]["card"] == pile["top"] - 10


def after(before: spielwerk.State, step: dict[str, Any]) -> spielwerk.State:
    state = spielwerk.load_game("caravan").deserialize_state(before.serialize())
    state.apply_action(state.action_from_json(step["move"]), 0)
    return state


def test_caravan_teaches_the_direction_the_suit_selling_and_a_queen_and_dog_leaves_the_kennel() -> None:
    steps = played(lessons()["caravan"])
    (before, step), (eight, _), (five, five_step), (queen, queen_step) = steps[3:]
    caravan = before.view(0)["caravans"][step["move"]["caravan"]]
    assert caravan["direction"] is None and len(caravan["cards"]) == 1
    # The engine decides the direction the second card sets.
    assert after(before, step).view(0)["caravans"][0]["direction"] == "ascending"
    # The 5C goes down an ascending caravan only because clubs is its suit (C4), and sells it.
    shown = five.view(0)["caravans"][0]
    assert (shown["direction"], shown["suit"], shown["value"]) == ("ascending", "clubs", 18)
    assert eight.view(0)["caravans"][0]["value"] == 10
    sold = after(five, five_step).view(0)["caravans"][0]
    assert sold["direction"] == "descending" and 21 <= sold["value"] <= 26  # the last two cards: 8, 5
    # The queen on the last card turns the caravan round and gives it her suit.
    turned = after(queen, queen_step).view(0)["caravans"][0]
    assert (turned["direction"], turned["suit"], turned["value"]) == ("ascending", "spades", 23)
    steps = played(lessons()["dog"])
    start = next((b, s) for b, s in steps if s["move"]["type"] == "start")
    assert start[1]["move"]["card"] in ("A", "K")
    assert all(m["place"] == "kennel" for m in start[0].view(0)["marbles"][:4])


def test_dog_teaches_a_seven_split_with_the_partners_marble() -> None:
    """The joker as a seven in two parts (D8): one of my marbles, then my partner's (seat 2's)."""
    steps = played(lessons()["dog"])
    parts = [(before, step) for before, step in steps if step["move"]["type"] == "seven"]
    assert [step["move"]["steps"] for _, step in parts] == [3, 4]
    (first, _), (second, second_step) = parts
    owners = [first.view(0)["marbles"][step["move"]["marble"]]["player"] for _, step in parts]
    assert owners == [0, 2]
    assert first.view(0)["seven"] is None and second.view(0)["seven"] is not None
    state = spielwerk.load_game("dog").deserialize_state(second.serialize())
    state.apply_action(state.action_from_json(second_step["move"]), 0)
    assert state.view(0)["seven"] is None  # all seven steps used: the card is played
