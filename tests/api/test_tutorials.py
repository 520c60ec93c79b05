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


def test_caravan_teaches_the_direction_and_dog_leaves_the_kennel() -> None:
    *_, (before, step) = played(lessons()["caravan"])
    caravan = before.view(0)["caravans"][step["move"]["caravan"]]
    assert caravan["direction"] is None and len(caravan["cards"]) == 1
    # The engine decides the direction the second card sets.
    state = spielwerk.load_game("caravan").deserialize_state(before.serialize())
    state.apply_action(state.action_from_json(step["move"]), 0)
    assert state.view(0)["caravans"][step["move"]["caravan"]]["direction"] == "ascending"
    steps = played(lessons()["dog"])
    start = next((b, s) for b, s in steps if s["move"]["type"] == "start")
    assert start[1]["move"]["card"] in ("A", "K")
    assert all(m["place"] == "kennel" for m in start[0].view(0)["marbles"][:4])
