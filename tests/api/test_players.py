"""Players, sessions and ratings (issue 35): registering, logging in and out, seats that
belong to a player, profiles, and which ratings ranked and unranked matches move."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from .conftest import bearer, service


def register(client: TestClient[Litestar], name: str, password: str = "geheim-123") -> Any:
    return client.post("/v1/players", json={"name": name, "password": password})


def log_in(client: TestClient[Litestar], name: str, password: str = "geheim-123") -> Any:
    return client.post("/v1/session", json={"name": name, "password": password})


def who(client: TestClient[Litestar]) -> str | None:
    r = client.get("/v1/session")
    assert r.status_code == 200, r.text
    player: str | None = r.json()["player"]
    return player


def test_a_player_registers_logs_out_and_in_and_the_session_is_a_strict_http_only_cookie(
    client: TestClient[Litestar],
) -> None:
    assert who(client) is None
    r = register(client, "Anna")
    assert r.status_code == 201, r.text
    assert r.json() == {"name": "Anna"}
    assert r.headers["location"] == "/v1/players/Anna"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith("spielwerk_session=")
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    assert who(client) == "Anna"
    old = client.cookies.get("spielwerk_session")

    assert client.delete("/v1/session").status_code == 204
    assert who(client) is None
    # The session is gone on the server: its cookie, replayed, names nobody.
    client.cookies.set("spielwerk_session", old or "")
    assert who(client) is None
    client.cookies.clear()

    r = log_in(client, "anna")  # names compare without case
    assert r.status_code == 200 and r.json() == {"name": "Anna"}
    # A login issues a new session id (no fixation).
    assert client.cookies.get("spielwerk_session") not in (None, old)
    assert who(client) == "Anna"


def test_names_passwords_and_logins_are_refused_with_what_is_allowed(client: TestClient[Litestar]) -> None:
    assert register(client, "Bert").status_code == 201
    taken = register(client, "BERT")
    assert taken.status_code == 409 and taken.json()["code"] == "name_taken"
    for bad in ("B", "Bert<script>", " ", "Bot stark", "x" * 25, "Anna\u202eX"):
        r = register(client, bad)
        assert r.status_code == 422 and r.json()["code"] == "invalid_name", (bad, r.text)
    r = register(client, "Carla", "kurz")
    assert r.status_code == 422 and r.json()["code"] == "invalid_password"
    # The same answer for a wrong password and an unknown name: no name is disclosed.
    wrong = log_in(client, "Bert", "falsch-123")
    unknown = log_in(client, "Niemand", "falsch-123")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json()["code"] == unknown.json()["code"] == "wrong_login"
    assert wrong.json()["detail"] == unknown.json()["detail"]
    de = client.post(
        "/v1/session", json={"name": "Bert", "password": "falsch-123"}, headers={"Accept-Language": "de"}
    )
    assert de.json()["detail"] == "kein Spieler hat diesen Namen und dieses Passwort"


def test_a_login_from_another_site_is_refused(client: TestClient[Litestar]) -> None:
    register(client, "Dora")
    r = client.post(
        "/v1/session",
        json={"name": "Dora", "password": "geheim-123"},
        headers={"Origin": "https://evil.example"},
    )
    assert r.status_code == 403 and r.json()["code"] == "cross_site"
    assert client.delete("/v1/session", headers={"Sec-Fetch-Site": "cross-site"}).status_code == 403


def test_logins_are_paced_per_client(client: TestClient[Litestar]) -> None:
    service(client).players.pace.most = 3
    answers = [log_in(client, "Niemand", "falsch-123").status_code for _ in range(4)]
    assert answers == [401, 401, 401, 429]


def play_to_the_end(client: TestClient[Litestar], match_id: str, loser_token: str | None) -> None:
    r = client.post(f"/v1/matches/{match_id}/resign", json={}, headers=bearer(loser_token))
    assert r.status_code == 200, r.text


def ratings(client: TestClient[Litestar], name: str) -> dict[tuple[str, str], dict[str, Any]]:
    r = client.get(f"/v1/players/{name}")
    assert r.status_code == 200, r.text
    return {(x["game"], x["pool"]): x for x in r.json()["ratings"]}


def two_players_match(client: TestClient[Litestar], **extra: Any) -> tuple[str, list[str]]:
    """Anna creates a match (seat 0 hers, seat 1 open to the lobby), Bert takes seat 1 from
    the lobby logged in (its token is his alone); Bert is logged in afterwards."""
    client.cookies.clear()
    assert log_in(client, "Anna").status_code == 200
    r = client.post(
        "/v1/matches",
        json={
            "game": "schotten_totten",
            "seats": [{"kind": "person", "me": True}, {"kind": "person", "open": True}],
            **extra,
        },
    )
    assert r.status_code == 201, r.text
    out = r.json()
    tokens = [out["seats"][0]["token"]]
    client.cookies.clear()
    assert log_in(client, "Bert").status_code == 200
    r = client.post(f"/v1/matches/{out['id']}/seats/1/join", json={})
    assert r.status_code == 200, r.text
    tokens.append(r.json()["token"])
    return out["id"], tokens


def test_ranked_matches_move_the_ratings_and_unranked_ones_do_not(client: TestClient[Litestar]) -> None:
    for name in ("Anna", "Bert"):
        assert register(client, name).status_code == 201
        client.cookies.clear()

    match_id, tokens = two_players_match(client)
    seen = client.get(f"/v1/matches/{match_id}").json()
    assert seen["names"] == ["Anna", "Bert"] and seen["players"] == [True, True]
    play_to_the_end(client, match_id, tokens[1])  # Bert resigns: Anna wins
    anna, bert = ratings(client, "Anna"), ratings(client, "Bert")
    key = ("schotten_totten", "people")
    assert anna[key]["rating"] > 1500 > bert[key]["rating"]
    assert anna[key]["matches"] == bert[key]["matches"] == 1
    after_first = (anna[key]["rating"], bert[key]["rating"])

    # A variant (C10): unranked, nobody's rating moves.
    match_id, tokens = two_players_match(client, game="caravan", options={"kings_add": True})
    assert client.get(f"/v1/matches/{match_id}").json()["ranked"] is False
    play_to_the_end(client, match_id, tokens[1])
    now = ratings(client, "Anna")[key]["rating"], ratings(client, "Bert")[key]["rating"]
    assert now == after_first
    # A seat claimed by its invitation: ranked as a game, but its creator knew its token (and
    # could have played it), so the match moves no rating.
    client.cookies.clear()
    log_in(client, "Anna")
    out = client.post(
        "/v1/matches",
        json={"game": "schotten_totten", "seats": [{"kind": "person", "me": True}, {"kind": "person"}]},
    ).json()
    client.cookies.clear()
    log_in(client, "Bert")
    invitation = client.get(
        f"/v1/matches/{out['id']}/seats/1/join",
        params={"token": out["seats"][1]["token"]},
        follow_redirects=False,
    )
    assert invitation.status_code == 303
    assert client.get(f"/v1/matches/{out['id']}").json()["names"] == ["Anna", "Bert"]
    play_to_the_end(client, out["id"], out["seats"][1]["token"])
    now = ratings(client, "Anna")[key]["rating"], ratings(client, "Bert")[key]["rating"]
    assert now == after_first

    # Bert wins the next ranked one: the ratings move towards each other.
    match_id, tokens = two_players_match(client)
    play_to_the_end(client, match_id, tokens[0])
    anna, bert = ratings(client, "Anna"), ratings(client, "Bert")
    assert anna[key]["rating"] < after_first[0] and bert[key]["rating"] > after_first[1]
    profile = client.get("/v1/players/Anna").json()
    assert [step["outcome"] for step in profile["history"]] == ["win", "loss"]
    assert len(profile["matches"]) == 4  # (ended ones only)
    text = str(profile)
    assert "password" not in text and "token" not in text and "argon2" not in text

    board = client.get("/v1/ratings/schotten_totten").json()
    assert {p["name"] for p in board["players"]} == {"Anna", "Bert"}
    assert [b["name"] for b in board["bots"]][:3] == ["easy", "normal", "strong"]
    assert client.get("/v1/ratings/schotten_totten?pool=bots").json()["players"] == []


def test_a_match_against_a_bot_moves_only_the_bots_pool_and_a_guest_moves_nothing(
    client: TestClient[Litestar],
) -> None:
    register(client, "Emil")
    r = client.post(
        "/v1/matches",
        json={
            "game": "schotten_totten",
            "seats": [{"kind": "person", "me": True}, {"kind": "bot", "bot": "random"}],
        },
    )
    out = r.json()
    play_to_the_end(client, out["id"], out["seats"][0]["token"])
    emil = ratings(client, "Emil")
    assert set(emil) == {("schotten_totten", "bots")}
    assert emil[("schotten_totten", "bots")]["rating"] < 1500

    # A guest at the table (seat 1 nobody's): nobody's rating moves.
    r = client.post(
        "/v1/matches",
        json={
            "game": "schotten_totten",
            "seats": [{"kind": "person", "me": True}, {"kind": "person", "name": "Gast Fritz"}],
        },
    )
    out = r.json()
    assert client.get(f"/v1/matches/{out['id']}").json()["names"] == ["Emil", "Gast Fritz"]
    play_to_the_end(client, out["id"], out["seats"][1]["token"])
    assert set(ratings(client, "Emil")) == {("schotten_totten", "bots")}


def test_a_guest_names_the_open_seat_it_takes_and_the_creator_stream_hears_of_it(
    client: TestClient[Litestar],
) -> None:
    r = client.post(
        "/v1/matches",
        json={
            "game": "schotten_totten",
            "seats": [{"kind": "person", "name": "Gerd"}, {"kind": "person", "open": True}],
        },
    )
    out = r.json()
    r = client.post(f"/v1/matches/{out['id']}/seats/1/join", json={"name": "Hanna"})
    assert r.status_code == 200, r.text
    seen = client.get(f"/v1/matches/{out['id']}", headers=bearer(out["seats"][0]["token"])).json()
    assert seen["names"] == ["Gerd", "Hanna"] and seen["players"] == [False, False]
    assert seen["open_seats"] == []


def test_profiles_and_boards_of_what_does_not_exist_are_404(client: TestClient[Litestar]) -> None:
    r = client.get("/v1/players/Niemand")
    assert r.status_code == 404 and r.json()["code"] == "unknown_player"
    assert client.get("/v1/ratings/schach").status_code == 404


@pytest.mark.parametrize("seats", [[{"kind": "person", "me": True}, {"kind": "person", "me": True}]])
def test_only_one_seat_is_mine(client: TestClient[Litestar], seats: list[dict[str, Any]]) -> None:
    r = client.post("/v1/matches", json={"game": "schotten_totten", "seats": seats})
    assert r.status_code == 422 and r.json()["code"] == "two_seats_mine"


def test_a_stranger_reading_leaves_no_session_behind(client: TestClient[Litestar]) -> None:
    """No session row and no cookie for a request that brought none (GETs, failed logins)."""
    from spielwerk_api.db import SessionRow
    from sqlalchemy import func, select

    for path in ("/v1/session", "/v1/ratings/dog", "/v1/players/Niemand"):
        r = client.get(path)
        assert "set-cookie" not in r.headers, path
    assert log_in(client, "Niemand", "falsch-123").status_code == 401
    assert "set-cookie" not in client.get("/v1/session").headers

    async def rows() -> int:
        async with service(client).store.sessions() as session:
            return int((await session.execute(select(func.count()).select_from(SessionRow))).scalar_one())

    portal = client.blocking_portal
    assert portal is not None
    assert portal.call(rows) == 0
    register(client, "Ines")
    assert portal.call(rows) == 1
    # A logged-in read stores nothing again.
    assert "set-cookie" not in client.get("/v1/session").headers


def test_an_open_seat_is_not_mine(client: TestClient[Litestar]) -> None:
    r = client.post(
        "/v1/matches",
        json={
            "game": "schotten_totten",
            "seats": [{"kind": "person", "me": True, "open": True}, {"kind": "person"}],
        },
    )
    assert r.status_code == 422 and r.json()["code"] == "two_seats_mine"
