"""Matches over HTTP: seats and tokens, moves, bots, resigning, chat, replays, and no leaks."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import spielwerk
from litestar import Litestar
from litestar.testing import TestClient

from .conftest import bearer, new_match

Client = TestClient[Litestar]
GAMES = spielwerk.list_games()


def problem(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = r.json()
    assert body["code"] == code, body
    return body


def seats_for(game: str, person: int = 0) -> list[str]:
    n = spielwerk.load_game(game).num_players()
    return ["p" if s == person else "b" for s in range(n)]


def test_creating_a_match_checks_game_seats_and_bots(client: Client) -> None:
    problem(
        client.post("/v1/matches", json={"game": "go", "seats": [{"kind": "person"}]}), 404, "unknown_game"
    )
    body = problem(
        client.post("/v1/matches", json={"game": "schotten_totten", "seats": [{"kind": "person"}]}),
        422,
        "wrong_seat_count",
    )
    assert "2 seats" in body["detail"]
    body = problem(
        client.post(
            "/v1/matches",
            json={
                "game": "schotten_totten",
                "seats": [{"kind": "person"}, {"kind": "bot", "bot": "deep-blue"}],
            },
        ),
        422,
        "unknown_bot",
    )
    assert "random" in body["detail"]
    problem(
        client.post(
            "/v1/matches",
            json={"game": "caravan", "seats": [{"kind": "person"}, {"kind": "alien"}]},
        ),
        400,
        "invalid_body",
    )
    problem(
        client.post(
            "/v1/matches",
            json={
                "game": "caravan",
                "seats": [{"kind": "person"}, {"kind": "person"}],
                "rules": {"playing_time_s": 60},
            },
        ),
        422,
        "invalid_rules",
    )
    problem(
        client.post(
            "/v1/matches", json={"game": "the_game", "options": {"players": 9}, "seats": [{"kind": "person"}]}
        ),
        422,
        "invalid_option",
    )


def test_tokens_open_only_their_own_seat(client: Client) -> None:
    match_id, tokens = new_match(client, "schotten_totten", ["p", "p"])
    assert tokens[0] and tokens[1] and tokens[0] != tokens[1]
    assert all(len(t) >= 32 for t in tokens if t)  # 24 random bytes: 192 bits
    other_id, other_tokens = new_match(client, "schotten_totten", ["p", "p"])
    spectator = client.get(f"/v1/matches/{match_id}").json()
    assert spectator["seat"] is None and spectator["view"]["hand"] is None
    seat1 = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[1])).json()
    assert seat1["seat"] == 1 and len(seat1["view"]["hand"]) == 6
    r = client.get(f"/v1/matches/{match_id}/moves")
    problem(r, 401, "token_required")
    assert r.headers["www-authenticate"].startswith("Bearer")
    problem(
        client.get(f"/v1/matches/{match_id}/moves", headers={"Authorization": "Basic eDp5"}),
        401,
        "token_required",
    )
    problem(client.get(f"/v1/matches/{match_id}/moves", headers=bearer("x" * 32)), 403, "wrong_token")
    problem(client.get(f"/v1/matches/{match_id}/moves", headers=bearer(other_tokens[0])), 403, "wrong_token")
    problem(client.get("/v1/matches/nonexistent"), 404, "unknown_match")
    assert other_id != match_id


def test_a_refused_move_changes_nothing(client: Client) -> None:
    match_id, tokens = new_match(client, "schotten_totten", ["p", "p"])
    before = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[0])).json()
    moves = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[0])).json()["moves"]
    assert client.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[1])).json()["moves"] == []
    move = moves[0]["move"]
    body = problem(
        client.post(
            f"/v1/matches/{match_id}/moves", headers=bearer(tokens[1]), json={"version": 0, "move": move}
        ),
        422,
        "not_your_turn",
    )
    assert body["rule"] is not None
    problem(
        client.post(
            f"/v1/matches/{match_id}/moves",
            headers={**bearer(tokens[0]), "Accept-Language": "de"},
            json={"version": 0, "move": {"type": "claim", "stone": 4}},
        ),
        422,
        "claim_not_now",
    )
    problem(
        client.post(
            f"/v1/matches/{match_id}/moves", headers=bearer(tokens[0]), json={"version": 0, "move": {"x": 1}}
        ),
        422,
        "invalid_move",
    )
    body = problem(
        client.post(
            f"/v1/matches/{match_id}/moves", headers=bearer(tokens[0]), json={"version": 7, "move": move}
        ),
        409,
        "stale_version",
    )
    assert body["version"] == 0
    problem(
        client.post(f"/v1/matches/{match_id}/moves", json={"version": 0, "move": move}), 401, "token_required"
    )
    after = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[0])).json()
    assert after == before
    check = client.post(
        f"/v1/matches/{match_id}/check", headers=bearer(tokens[0]), json={"move": move}
    ).json()
    assert check["legal"] is True
    check = client.post(
        f"/v1/matches/{match_id}/check", headers=bearer(tokens[1]), json={"move": move}
    ).json()
    assert check["legal"] is False and check["code"] == "not_your_turn"
    ok = client.post(
        f"/v1/matches/{match_id}/moves", headers=bearer(tokens[0]), json={"version": 0, "move": move}
    )
    assert ok.status_code == 200 and ok.json()["version"] == 1
    problem(
        client.post(
            f"/v1/matches/{match_id}/moves", headers=bearer(tokens[0]), json={"version": 0, "move": move}
        ),
        409,
        "stale_version",
    )


def play_to_the_end(client: Client, match_id: str, tokens: list[str | None], seed: int) -> dict[str, Any]:
    """Every person seat plays random legal moves until the match ends."""
    rng = random.Random(seed)
    out = client.get(f"/v1/matches/{match_id}").json()
    for _ in range(5_000):
        if out["status"] != "running":
            return out  # type: ignore[no-any-return]
        seat = next(s for s in out["seats_to_move"] if tokens[s] is not None)
        moves = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()["moves"]
        assert moves, out
        pick = rng.choice(moves)
        r = client.post(
            f"/v1/matches/{match_id}/moves",
            headers=bearer(tokens[seat]),
            json={"version": out["version"], "move": pick["move"]},
        )
        assert r.status_code == 200, r.text
        out = r.json()
        assert out["seat"] == seat
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_match_against_bots_to_the_end(client: Client, game: str) -> None:
    match_id, tokens = new_match(client, game, seats_for(game, person=1), seed=3)
    end = play_to_the_end(client, match_id, tokens, seed=3)
    assert end["status"] == "finished" and end["result"]["reason"] == "end"
    replay = client.get(f"/v1/matches/{match_id}/replay").json()
    g = spielwerk.load_game(game)
    truth = g.new_initial_state(3)
    assert replay["initial_state"] == json.loads(truth.serialize())
    for a in replay["actions"]:
        assert a["text"] == truth.action_to_string(a["action"])
        assert a["move"] == truth.action_to_json(a["action"])
        truth.apply_action(a["action"], a["seat"])
    assert truth.is_terminal() and replay["final_state"] == json.loads(truth.serialize())
    assert end["result"]["returns"] == truth.returns() == replay["result"]["returns"]
    # The engine's line with the seats named: the person counted from 1, the bots by name.
    bots = [None if s == "p" else "random" for s in seats_for(game, person=1)]
    assert end["result"]["text"] == truth.result_text("en", bots=bots)
    assert end["version"] == len(replay["actions"])
    seat_view = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[1])).json()["view"]
    assert seat_view == truth.view(1)
    problem(
        client.post(
            f"/v1/matches/{match_id}/moves",
            headers=bearer(tokens[1]),
            json={"version": end["version"], "move": {}},
        ),
        409,
        "match_over",
    )


def test_a_match_of_bots_only_plays_itself(client: Client) -> None:
    match_id, tokens = new_match(client, "dog", ["b", "b", "b", "b"], seed=9)
    assert tokens == [None] * 4
    out = client.get(f"/v1/matches/{match_id}").json()
    assert out["status"] == "finished"
    truth = spielwerk.load_game("dog").new_initial_state(9)
    for a in client.get(f"/v1/matches/{match_id}/replay").json()["actions"]:
        truth.apply_action(a["action"], a["seat"])
    assert out["result"]["returns"] == truth.returns()


def test_a_search_bot_answers_from_its_own_view(client: Client) -> None:
    r = client.post(
        "/v1/matches",
        json={
            "game": "schotten_totten",
            "seed": 6,
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "ismcts", "params": {"iterations": 50}}],
        },
    )
    assert r.status_code == 201, r.text
    match_id, token = r.json()["id"], r.json()["seats"][0]["token"]
    move = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(token)).json()["moves"][0]
    out = client.post(
        f"/v1/matches/{match_id}/moves", headers=bearer(token), json={"version": 0, "move": move["move"]}
    )
    assert out.status_code == 200 and out.json()["seats_to_move"] == [0] and out.json()["version"] >= 2
    too_much = {"kind": "bot", "bot": "ismcts", "params": {"iterations": 10**9}}
    body = problem(
        client.post("/v1/matches", json={"game": "schotten_totten", "seats": [{"kind": "person"}, too_much]}),
        422,
        "invalid_bot_params",
    )
    assert "at most" in body["detail"]
    unknown = {"kind": "bot", "bot": "ismcts", "params": {"depth": 3}}
    body = problem(
        client.post("/v1/matches", json={"game": "schotten_totten", "seats": [{"kind": "person"}, unknown]}),
        422,
        "invalid_bot_params",
    )
    assert "iterations" in body["detail"]


def test_the_replay_opens_only_after_the_end(client: Client) -> None:
    match_id, tokens = new_match(client, "caravan", ["p", "b"])
    problem(client.get(f"/v1/matches/{match_id}/replay"), 409, "match_running")
    r = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0]))
    assert r.status_code == 200
    assert client.get(f"/v1/matches/{match_id}/replay").status_code == 200


@pytest.mark.parametrize(
    ("game", "seat", "returns"),
    [
        ("schotten_totten", 1, [1.0, -1.0]),
        ("dog", 1, [1.0, -1.0, 1.0, -1.0]),
        ("dog", 2, [-1.0, 1.0, -1.0, 1.0]),
    ],
)
def test_resigning_loses_for_the_seat_or_its_team(
    client: Client, game: str, seat: int, returns: list[float]
) -> None:
    n = spielwerk.load_game(game).num_players()
    match_id, tokens = new_match(client, game, ["p"] * n)
    out = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[seat])).json()
    assert out["status"] == "finished"
    assert out["result"]["reason"] == "resigned" and out["result"]["seat"] == seat
    assert out["result"]["returns"] == returns
    problem(client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0])), 409, "match_over")


def test_resigning_the_cooperative_game_loses_it_for_everyone(client: Client) -> None:
    match_id, tokens = new_match(client, "the_game", ["p", "p"])
    out = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0])).json()
    assert out["result"]["returns"] == [-98.0, -98.0]  # R1: every player gets -(cards left)


def test_table_talk_in_a_match(client: Client) -> None:
    match_id, tokens = new_match(client, "the_game", ["p", "p"])
    body = problem(
        client.post(
            f"/v1/matches/{match_id}/chat",
            headers={**bearer(tokens[0]), "Accept-Language": "de"},
            json={"text": "ich lege die zweiundvierzig"},
        ),
        422,
        "names_number",
    )
    assert body["rule"] == "T7" and "Zahlen" in body["detail"]
    # The refusal names the word; spelled umlauts and Roman numerals are numbers too.
    assert "„zweiundvierzig“" in body["detail"]
    for hidden, word in (("f ü n f", "fuenf"), ("die XLVII passt", "XLVII")):
        r = client.post(f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": hidden})
        assert f"'{word}' names a number" in problem(r, 422, "names_number")["detail"], hidden
    r = client.post(
        f"/v1/matches/{match_id}/chat",
        headers=bearer(tokens[1]),
        json={"text": "halte den linken Stapel frei"},
    )
    assert r.status_code == 201 and r.json()["seat"] == 1
    problem(client.post(f"/v1/matches/{match_id}/chat", json={"text": "hallo"}), 401, "token_required")
    log = client.get(f"/v1/matches/{match_id}/chat").json()
    assert [(m["seat"], m["text"]) for m in log] == [(1, "halte den linken Stapel frei")]
    # Caravan's table talk is free: numbers too (T7 is The Game's).
    other_id, other_tokens = new_match(client, "caravan", ["p", "p"])
    said = client.post(
        f"/v1/matches/{other_id}/chat", headers=bearer(other_tokens[0]), json={"text": "die 10 hält"}
    )
    assert said.status_code == 201 and said.json()["text"] == "die 10 hält"


@pytest.mark.parametrize("game", GAMES)
def test_no_answer_shows_a_seat_what_it_must_not_see(client: Client, game: str) -> None:
    """Every seat's answers equal the engine's view of that seat, move after move.

    The engine's views are tested to hide every hidden card (tests/test_conformance.py);
    here each answer of the API is compared with them, so nothing more and nothing less
    reaches a seat: not the other hands, not the deck order.
    """
    g = spielwerk.load_game(game)
    rng = random.Random(game)
    for seed in range(2):
        match_id, tokens = new_match(client, game, ["p"] * g.num_players(), seed=seed)
        truth = g.new_initial_state(seed)
        hidden_keys = {"pile", "deck", "hands", "draw_pile"}
        for step in range(40):
            if truth.is_terminal():
                break
            for seat, token in enumerate(tokens):
                out = client.get(f"/v1/matches/{match_id}", headers=bearer(token)).json()
                assert out["view"] == truth.view(seat), (seat, step)
                assert not hidden_keys & set(out["view"])
                moves = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(token)).json()["moves"]
                expected = truth.legal_moves(seat) if seat in truth.seats_to_move() else []
                assert moves == expected
            spectator = client.get(f"/v1/matches/{match_id}").json()
            assert spectator["view"] == truth.public_view()
            seat = rng.choice(truth.seats_to_move())
            pick = rng.choice(truth.legal_moves(seat))
            r = client.post(
                f"/v1/matches/{match_id}/moves",
                headers=bearer(tokens[seat]),
                json={"version": step, "move": pick["move"]},
            )
            assert r.status_code == 200, r.text
            text = truth.action_to_string(pick["action"])
            truth.apply_action(pick["action"], seat)
            assert r.json()["view"] == truth.view(seat)
            assert r.json()["last_move"] == text
            for other, token in enumerate(tokens):
                # The last move's text only where the engine shows that seat the action.
                shown = client.get(f"/v1/matches/{match_id}", headers=bearer(token)).json()["last_move"]
                assert shown == (text if truth.history_for(other)[-1] is not None else None)
            spectator_sees = all(truth.history_for(p)[-1] is not None for p in range(len(tokens)))
            assert client.get(f"/v1/matches/{match_id}").json()["last_move"] == (
                text if spectator_sees else None
            )
        text = json.dumps(client.get(f"/v1/matches/{match_id}").json())
        assert "token" not in text
