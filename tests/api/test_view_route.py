"""POST /v1/games/GAME/view: the view of a state after some actions, equal to the engine's."""

from __future__ import annotations

import random
from typing import Any

import pytest
import spielwerk
from litestar import Litestar
from litestar.testing import TestClient

from .test_rules_api import is_problem

GAMES = spielwerk.list_games()
Client = TestClient[Litestar]


def played(name: str, seed: int, plies: int) -> tuple[spielwerk.State, list[dict[str, Any]]]:
    """A random game of `plies` plies from seed, and its actions with the seat that moved."""
    state = spielwerk.load_game(name).new_initial_state(seed)
    rng = random.Random(seed)
    steps: list[dict[str, Any]] = []
    while not state.is_terminal() and len(steps) < plies:
        seat = rng.choice(state.seats_to_move())
        action = rng.choice(state.legal_actions(seat))
        steps.append({"action": action, "seat": seat})
        state.apply_action(action, seat)
    return state, steps


@pytest.mark.parametrize("name", GAMES)
def test_every_seats_view_after_the_actions_is_the_engines(client: Client, name: str) -> None:
    seed = 5
    initial = spielwerk.load_game(name).new_initial_state(seed).serialize()
    truth, steps = played(name, seed, 25)
    seats = spielwerk.load_game(name).num_players()
    for seat in [None, *range(seats)]:
        r = client.post(f"/v1/games/{name}/view", json={"state": initial, "seat": seat, "actions": steps})
        assert r.status_code == 200, r.text
        out = r.json()
        assert out["state"] == truth.serialize()
        assert out["view"] == (truth.public_view() if seat is None else truth.view(seat))
        assert out["terminal"] == truth.is_terminal()
        assert out["seats_to_move"] == ([] if truth.is_terminal() else truth.seats_to_move())
    # The last move's text in the client's language, from the engine.
    before = spielwerk.load_game(name).new_initial_state(seed)
    for step in steps[:-1]:
        before.apply_action(step["action"], step["seat"])
    for lang in ("de", "en"):
        r = client.post(
            f"/v1/games/{name}/view",
            json={"state": initial, "actions": steps},
            headers={"accept-language": lang},
        )
        assert r.json()["last_move"] == before.action_to_string(steps[-1]["action"], lang)
    # No actions: the view of the state as sent.
    r = client.post(f"/v1/games/{name}/view", json={"state": initial, "seat": 0})
    assert r.json()["view"] == spielwerk.load_game(name).new_initial_state(seed).view(0)
    assert r.json()["last_move"] is None


def test_an_illegal_action_is_refused_with_the_engines_reason(client: Client) -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(3)
    legal = set(state.legal_actions())
    actions = spielwerk.load_game("schotten_totten").num_distinct_actions()
    illegal = next(a for a in range(actions) if a not in legal)
    r = client.post(
        "/v1/games/schotten_totten/view",
        json={"state": state.serialize(), "actions": [{"action": illegal}]},
    )
    body = is_problem(r, 422, r.json().get("code", ""))
    assert body["detail"]


def test_the_actions_are_bounded(client: Client) -> None:
    state = spielwerk.load_game("dog").new_initial_state(1).serialize()
    r = client.post("/v1/games/dog/view", json={"state": state, "actions": [{"action": 0}] * 5000})
    assert r.status_code in (400, 413, 422), r.text
    assert "Traceback" not in r.text
    is_problem(client.post("/v1/games/chess/view", json={"state": state}), 404, "unknown_game")
