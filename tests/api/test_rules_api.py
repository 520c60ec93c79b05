"""The stateless rule checks over HTTP agree with the engine, and every error is a problem."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import spielwerk
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk.schotten_totten import check_claim

GAMES = spielwerk.list_games()
Client = TestClient[Litestar]


def is_problem(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = r.json()
    assert body["status"] == status and body["code"] == code, body
    assert body["type"].endswith(code) and body["title"] and body["detail"]
    assert "Traceback" not in r.text
    return body


def test_games_lists_every_game_with_options_and_variants(client: Client) -> None:
    games = {g["name"]: g for g in client.get("/v1/games").json()["games"]}
    assert sorted(games) == GAMES
    for name, info in games.items():
        game = spielwerk.load_game(name)
        assert info["players"] == game.num_players()
        assert info["num_distinct_actions"] == game.num_distinct_actions()
        assert info["defaults"] == game.options()
        assert info["options"] == game.option_specs()
    assert "reshuffle" in games["caravan"]["variants"] and len(games["caravan"]["variants"]) == 12
    # A variant is an option that makes the match unranked (C10): The Game's pro does not.
    for name, info in games.items():
        for option in info["variants"]:
            assert not spielwerk.load_game(name, **{option: True}).ranked(), (name, option)
    assert games["the_game"]["variants"] == [] and spielwerk.load_game("the_game", pro=True).ranked()
    assert client.get("/v1/games/schotten_totten").json()["name"] == "schotten_totten"
    schemas = client.get("/v1/games/dog/schema").json()
    assert schemas["view"] == spielwerk.load_game("dog").view_schema()


def test_games_list_their_bots_by_name_and_the_engines_levels(client: Client) -> None:
    """A client offers what the API lists: every engine bot by name, and the engine's levels
    (easy, normal, strong) with their settings and ratings, each of which a match seat takes
    by its name."""
    for info in client.get("/v1/games").json()["games"]:
        game = spielwerk.load_game(info["name"])
        assert [b["name"] for b in info["bots"]] == spielwerk.bots.names(info["name"])
        for bot in info["bots"]:
            assert bot["searches"] == spielwerk.bots.make(bot["name"], game).searches
        levels = spielwerk.bots.levels(game)
        assert [level["name"] for level in info["levels"]] == ["easy", "normal", "strong"]
        for listed, level in zip(info["levels"], levels, strict=True):
            assert (listed["bot"], listed["params"], listed["rating"]) == (
                level["bot"],
                level["params"],
                level["rating"],
            )
        seats = [{"kind": "person"}] + [{"kind": "bot", "bot": "strong"}] * (game.num_players() - 1)
        created = client.post("/v1/matches", json={"game": info["name"], "seats": seats})
        assert created.status_code == 201, created.text


@pytest.mark.parametrize("name", GAMES)
def test_a_random_game_played_over_http_equals_the_engine(client: Client, name: str) -> None:
    """new, moves, check and apply over HTTP, step by step beside the engine's own state."""
    options: dict[str, Any] = {"players": 3} if name == "the_game" else {}
    game = spielwerk.load_game(name, **options)
    seed = 11
    truth = game.new_initial_state(seed)
    state = client.post(f"/v1/games/{name}/new", json={"options": options, "seed": seed}).json()["state"]
    assert state == truth.serialize()
    rng = random.Random(seed)
    steps = 0
    while not truth.is_terminal() and steps < 60:
        seat = truth.seats_to_move()[-1]
        moves = client.post(
            f"/v1/games/{name}/moves", json={"options": options, "state": state, "seat": seat}
        )
        assert moves.json()["moves"] == truth.legal_moves(seat)
        pick = rng.choice(truth.legal_moves(seat))
        check = client.post(
            f"/v1/games/{name}/check",
            json={"options": options, "state": state, "move": pick["move"], "seat": seat},
        ).json()
        assert check == {"legal": True, "reason": None, "rule": None, "code": None, "params": None}
        r = client.post(
            f"/v1/games/{name}/apply",
            json={"options": options, "state": state, "move": pick["move"], "seat": seat},
        )
        assert r.status_code == 200, r.text
        truth.apply_action(pick["action"], seat)
        out = r.json()
        assert out["state"] == truth.serialize()
        assert out["terminal"] == truth.is_terminal()
        assert out["returns"] == truth.returns()
        assert out["current_player"] == truth.current_player()
        state = out["state"]
        steps += 1


def test_an_illegal_move_says_why_in_the_clients_language(client: Client) -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(3)
    move = {"type": "claim", "stone": 2}
    expected = state.check_move(move)
    assert expected is not None
    body = {"state": state.serialize(), "move": move}
    en = client.post("/v1/games/schotten_totten/check", json=body).json()
    assert en == {
        "legal": False,
        "reason": expected.reason,
        "rule": "S3b",
        "code": "claim_not_now",
        "params": {},
    }
    de = client.post(
        "/v1/games/schotten_totten/check",
        json=body,
        headers={"Accept-Language": "fr;q=1, de-CH;q=0.8, en;q=0.5"},
    ).json()
    assert de["reason"] == expected.reason_de
    r = client.post("/v1/games/schotten_totten/apply", json=body, headers={"Accept-Language": "de"})
    problem = is_problem(r, 422, "claim_not_now")
    assert problem["rule"] == "S3b" and problem["reason"] == expected.reason_de
    assert problem["detail"] == f"S3b: {expected.reason_de}"


def test_a_seat_not_to_move_is_told_so(client: Client) -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(3)
    move = state.legal_moves()[0]["move"]
    out = client.post(
        "/v1/games/schotten_totten/check", json={"state": state.serialize(), "move": move, "seat": 1}
    )
    assert out.json()["code"] == "not_your_turn"


def test_refusals_are_problem_details(client: Client) -> None:
    st = spielwerk.load_game("schotten_totten").new_initial_state(1).serialize()
    is_problem(client.post("/v1/games/chess/new", json={}), 404, "unknown_game")
    body = is_problem(
        client.post("/v1/games/caravan/new", json={"options": {"speed": 2}}), 422, "invalid_option"
    )
    assert "allowed" in body["detail"]
    is_problem(client.post("/v1/games/schotten_totten/moves", json={"state": "{}"}), 422, "invalid_state")
    is_problem(
        client.post("/v1/games/schotten_totten/moves", json={"state": st, "options": {"first_player": 1}}),
        422,
        "invalid_state",
    )
    body = is_problem(
        client.post("/v1/games/schotten_totten/apply", json={"state": st, "move": {"type": "fly"}}),
        422,
        "invalid_move",
    )
    assert "moves are" in body["detail"]
    body = is_problem(
        client.post("/v1/games/schotten_totten/apply", json={"state": st, "move": 5}), 400, "invalid_body"
    )
    assert "move: Expected `object`, got `int`" in body["detail"]
    is_problem(client.post("/v1/games/schotten_totten/apply", json={"state": st}), 400, "invalid_body")
    is_problem(client.post("/v1/games/schotten_totten/new", json={"seed": 2**64}), 400, "invalid_body")
    is_problem(client.post("/v1/games/schotten_totten/new", json={"seed": -1}), 400, "invalid_body")
    is_problem(client.post("/v1/games/schotten_totten/new", json={"sneaky": 1}), 400, "invalid_body")
    is_problem(client.post("/v1/games/schotten_totten/new", content=b"{not json"), 400, "invalid_body")
    is_problem(client.post("/v1/games/schotten_totten/new", content=b"[" * 70_000), 413, "body_too_large")
    is_problem(client.get("/v1/nothing/here"), 404, "not_found")
    is_problem(client.delete("/v1/games"), 405, "method_not_allowed")


def test_a_deep_or_huge_move_is_refused_without_harm(client: Client) -> None:
    st = spielwerk.load_game("schotten_totten").new_initial_state(1).serialize()
    deep = '{"x":' * 10_000 + "{}" + "}" * 10_000
    raw = '{"state": ' + json.dumps(st) + ', "move": {"type": "pass", "x": ' + deep + "}}"
    r = client.post("/v1/games/schotten_totten/check", content=raw.encode())
    assert r.status_code in (400, 422), r.text
    assert r.json()["code"] in ("invalid_body", "invalid_move")
    r = client.post(
        "/v1/games/schotten_totten/check",
        json={"state": st, "move": {"type": "play", "card": "B" * 40_000, "stone": 1}},
    )
    body = is_problem(r, 422, "invalid_move")
    assert len(body["detail"]) < 1_000


def test_claim_check_is_the_engines(client: Client) -> None:
    rng = random.Random(5)
    cards = [c + str(v) for c in "ROYGBP" for v in range(1, 10)]
    for _ in range(200):
        deck = rng.sample(cards, 12)
        mine, theirs, table = deck[:3], deck[3 : 3 + rng.randint(0, 3)], deck[6 : 6 + rng.randint(0, 6)]
        first = rng.random() < 0.5
        r = client.post(
            "/v1/schotten_totten/claim-check",
            json={"mine": mine, "theirs": theirs, "table": table, "mine_completed_first": first},
        )
        assert r.status_code == 200, r.text
        out = r.json()
        c = check_claim(mine, theirs, table, first)
        assert out["provable"] == c.provable
        assert out["mine"] == {"cards": mine, "formation": c.mine_formation, "sum": c.mine_sum}
        if c.best_cards is None:
            assert out["best"] is None
        else:
            assert out["best"] == {"cards": c.best_cards, "formation": c.best_formation, "sum": c.best_sum}
    is_problem(
        client.post("/v1/schotten_totten/claim-check", json={"mine": ["R1", "X2", "R3"], "theirs": []}),
        422,
        "invalid_card",
    )


@pytest.mark.parametrize(
    ("text", "allowed"),
    [
        ("leg doch bitte einen ganz kleinen Sprung", True),
        ("Zehnersprung auf dem zweiten Stapel!", False),
        ("dreiundsechzig", False),
        ("I can do the backward trick", True),
        ("sixty-three", False),
    ],
)
def test_table_talk_is_the_engines(client: Client, text: str, allowed: bool) -> None:
    out = client.post("/v1/the_game/table-talk", json={"text": text}).json()
    assert out["allowed"] is allowed
    assert (out["reason"] is None) is allowed
    assert allowed == (not spielwerk.the_game.mentions_number(text))


def test_the_openapi_schema_is_served(client: Client) -> None:
    doc = client.get("/schema/openapi.json").json()
    assert "/v1/games/{game}/check" in doc["paths"]
    assert "/v1/matches/{id}/events" in doc["paths"]
    assert client.get("/schema").status_code == 200


@pytest.mark.parametrize("name", GAMES)
def test_a_bot_moves_from_a_seats_view_alone(client: Client, name: str) -> None:
    """Two states that look the same to the seat get the same move: the hidden cards
    cannot matter (the view is all the endpoint receives)."""
    game = spielwerk.load_game(name)
    state = game.new_initial_state(8)
    seat = state.seats_to_move()[0]
    view = state.view(seat)
    body = {"view": view, "params": {"iterations": 30}, "seed": 5}
    r = client.post(f"/v1/bots/{name}/ismcts/move", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["action"] in state.legal_actions(seat)
    assert out["move"] == state.action_to_json(out["action"])
    assert out["text"] == state.action_to_string(out["action"])
    other = game.state_from_view(view, 99)  # other hidden cards, the same view
    again = client.post(f"/v1/bots/{name}/ismcts/move", json={**body, "view": other.view(seat)}).json()
    assert again == out
    r = client.post(f"/v1/bots/{name}/random/move", json={"view": view})
    assert r.status_code == 200 and r.json()["action"] in state.legal_actions(seat)


def test_bot_moves_refuse_public_views_unknown_bots_and_long_searches(client: Client) -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(1)
    is_problem(
        client.post("/v1/bots/schotten_totten/ismcts/move", json={"view": state.public_view()}),
        422,
        "invalid_view",
    )
    body = is_problem(
        client.post("/v1/bots/schotten_totten/alphago/move", json={"view": state.view(0)}), 422, "unknown_bot"
    )
    assert "ismcts" in body["detail"]
    too_long = {"view": state.view(0), "params": {"time_ms": 60_000}}
    is_problem(client.post("/v1/bots/schotten_totten/ismcts/move", json=too_long), 422, "invalid_bot_params")
    forged = {**state.view(0), "hand": ["R1", "R1", "R2", "R3", "R4", "R5"]}
    is_problem(
        client.post("/v1/bots/schotten_totten/random/move", json={"view": forged}), 422, "invalid_view"
    )


def test_a_forged_view_that_panicked_while_dealing_is_a_problem(client: Client) -> None:
    """Issue 22: The Game's view with the draw pile moved into the hand of the player to move
    (shown holding every unseen card) and the minimum 1 made `state_from_view` panic while
    dealing (a plain-text 500). The engine now checks the hand sizes first (T2)."""
    state = spielwerk.load_game("the_game").new_initial_state(1)
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    state.apply_action(state.action_from_json({"type": "end_turn"}))
    view = state.view(0)
    view["hand_sizes"][1] += view["draw_pile_size"]
    view["draw_pile_size"] = 0
    view["minimum"] = 1
    body = is_problem(client.post("/v1/bots/the_game/random/move", json={"view": view}), 422, "invalid_view")
    assert "(T2)" in body["detail"], body
