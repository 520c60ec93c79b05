"""The lobby (issue 23 §1.5): open matches waiting for a person, finished ones with their
replays, open seats taken first come first served, spectators."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import httpx
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api import db
from spielwerk_api.matches.lobby import lobby_queries
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql import ClauseElement

from .conftest import bearer
from .test_matches_api import problem
from .test_persistence import at_once, server  # noqa: F401 (the fixture)


def create(client: Any, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    r = client.post("/v1/matches", json={"game": "schotten_totten", "seats": seats, **extra})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


OPEN = {"kind": "person", "open": True}
PERSON = {"kind": "person"}
BOT = {"kind": "bot", "bot": "random"}


def test_the_lobby_lists_open_and_finished_matches(client: TestClient[Litestar]) -> None:
    waiting = create(client, [PERSON, OPEN], clock={"initial_s": 300, "increment_s": 2})
    assert waiting["seats"][1] == {**waiting["seats"][1], "open": True, "token": None, "invitation": None}
    private = create(client, [PERSON, PERSON])
    ended = create(client, [PERSON, BOT])
    client.post(f"/v1/matches/{ended['id']}/resign", headers=bearer(ended["seats"][0]["token"]))
    lobby = client.get("/v1/matches").json()
    listed = {m["id"]: m for m in lobby["open"]}
    assert waiting["id"] in listed and private["id"] not in listed and ended["id"] not in listed
    entry = listed[waiting["id"]]
    assert entry["free_seats"] == [1] and entry["clock"] == {"initial_s": 300, "increment_s": 2}
    assert entry["game"] == "schotten_totten" and entry["status"] == "running"
    assert "token" not in str(entry)
    finished = {m["id"]: m for m in lobby["finished"]}
    assert finished[ended["id"]]["replay"] == f"/v1/matches/{ended['id']}/replay"
    assert finished[ended["id"]]["result"]["reason"] == "resigned"
    assert client.get(finished[ended["id"]]["replay"]).status_code == 200
    # Paginated and bounded (a client has at most three matches waiting: two more).
    for _ in range(2):
        create(client, [OPEN, BOT])
    page = client.get("/v1/matches?limit=2").json()
    assert len(page["open"]) == 2 and page["limit"] == 2
    rest = client.get("/v1/matches?limit=2&offset=2").json()
    assert not {m["id"] for m in page["open"]} & {m["id"] for m in rest["open"]}
    problem(client.get("/v1/matches?limit=51"), 400, "invalid_parameter")


def test_the_lobbys_result_lines_are_in_the_asked_language(client: TestClient[Litestar]) -> None:
    """The engine's line of each ending, stored in both languages when the match ended (the
    lobby has no state to ask), equal to the line the match itself gives in that language."""
    resigned = create(client, [PERSON, BOT], seed=3)
    client.post(f"/v1/matches/{resigned['id']}/resign", headers=bearer(resigned["seats"][0]["token"]))
    lines = {}
    for lang in ("de", "en"):
        lobby = client.get("/v1/matches", headers={"Accept-Language": lang}).json()
        lines[lang] = {m["id"]: m["result"]["text"] for m in lobby["finished"]}[resigned["id"]]
        own = client.get(f"/v1/matches/{resigned['id']}", headers={"Accept-Language": lang}).json()
        assert lines[lang] == own["result"]["text"] != ""
        assert client.get(f"/v1/matches?lang={lang}").json()["finished"] == lobby["finished"]
    assert lines["de"] != lines["en"]
    assert "texts" not in str(client.get("/v1/matches").json())  # the stored pair stays inside


def test_an_open_seat_goes_to_whoever_joins_first(client: TestClient[Litestar]) -> None:
    m = create(client, [OPEN, BOT])
    r = client.post(f"/v1/matches/{m['id']}/seats/0/join", json={})
    assert r.status_code == 200, r.text
    token = r.json()["token"]
    assert r.json()["seat"] == 0 and token and f"spielwerk_seat={token}" in r.headers["set-cookie"]
    client.cookies.clear()
    assert client.get(f"/v1/matches/{m['id']}", headers=bearer(token)).json()["seat"] == 0
    assert m["id"] not in {x["id"] for x in client.get("/v1/matches").json()["open"]}
    problem(client.post(f"/v1/matches/{m['id']}/seats/0/join", json={}), 409, "seat_taken")
    problem(client.post(f"/v1/matches/{m['id']}/seats/1/join", json={}), 409, "seat_not_open")
    # Spectators see the public view.
    spectator = client.get(f"/v1/matches/{m['id']}").json()
    assert spectator["seat"] is None and spectator["view"]["hand"] is None


def test_two_joins_of_one_seat_on_two_workers_one_wins(server: str) -> None:  # noqa: F811
    for _ in range(3):
        m = httpx.post(f"{server}/v1/matches", json={"game": "schotten_totten", "seats": [OPEN, BOT]}).json()
        answers = at_once(server, "POST", f"/v1/matches/{m['id']}/seats/0/join", [({}, {}), ({}, {})])
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200, 409], [a.text for a in answers]
        winner = next(a for a in answers if a.status_code == 200).json()["token"]
        # The winner's token opens the seat on either worker (several connections).
        for _ in range(4):
            with httpx.Client(base_url=server, timeout=10) as c:
                assert c.get(f"/v1/matches/{m['id']}", headers=bearer(winner)).json()["seat"] == 0


def test_a_match_with_a_variant_is_unranked(client: TestClient[Litestar]) -> None:
    """C10: a game with any variant on is unranked; the match and the lobby carry the
    engine's word on it."""
    plain = create(client, [PERSON, OPEN], game="caravan")
    variant = create(client, [PERSON, OPEN], game="caravan", options={"fresh_hand": True})
    listed = {m["id"]: m["ranked"] for m in client.get("/v1/matches").json()["open"]}
    assert listed[plain["id"]] is True and listed[variant["id"]] is False
    for created, ranked in ((plain, True), (variant, False)):
        out = client.get(f"/v1/matches/{created['id']}", headers=bearer(created["seats"][0]["token"])).json()
        assert out["ranked"] is ranked


def test_a_client_cannot_flood_the_lobby(client: TestClient[Litestar]) -> None:
    """Issue 34, item 5: one client made 15,987 open matches in 150 s, and a player's open
    match was on no page. A client has at most three waiting; once one begins, another."""
    mine = [create(client, [PERSON, OPEN]) for _ in range(3)]
    fourth = client.post("/v1/matches", json={"game": "schotten_totten", "seats": [PERSON, OPEN]})
    assert fourth.status_code == 429 and fourth.json()["code"] == "too_many_open_matches"
    assert fourth.headers["retry-after"]
    # Matches without an open seat are not counted.
    create(client, [PERSON, PERSON])
    taken = client.post(f"/v1/matches/{mine[0]['id']}/seats/1/join", json={})
    assert taken.status_code == 200
    create(client, [PERSON, OPEN])
    listed = [m["id"] for m in client.get("/v1/matches").json()["open"]]
    assert len(listed) == 3 and mine[0]["id"] not in listed


def test_each_lobby_list_is_read_from_its_own_index_without_a_sort(tmp_path: Path) -> None:
    """However many matches wait (issue 34 §5): SQLite's planner, left alone, took the index
    on ``status`` and sorted every open match (20 ms a read at 10,000 of them). Statistics
    refreshed by the sweep steered it only until they were stale (a table analyzed while it
    was empty): the statements name their index."""
    url = f"sqlite:///{tmp_path / 'lobby.db'}"

    async def migrate() -> None:
        engine = db.create_engine(url)
        try:
            await db.migrate(engine)
        finally:
            await engine.dispose()

    asyncio.run(migrate())
    with sqlite3.connect(tmp_path / "lobby.db") as conn:
        for query, index in zip(
            lobby_queries("sqlite", 20, 40), ("ix_matches_waiting", "ix_matches_ended"), strict=True
        ):
            assert isinstance(query, ClauseElement)
            compiled = query.compile(dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True})
            plan = " | ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {compiled}"))
            assert f"USING INDEX {index}" in plan and "TEMP B-TREE" not in plan, plan
