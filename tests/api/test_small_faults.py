"""Small faults found on the way to the web page (issue 23 §1.6, the API's side)."""

from __future__ import annotations

import json
import re

import spielwerk
from litestar import Litestar
from litestar.testing import TestClient

from .conftest import bearer, new_match
from .test_matches_api import problem


def test_current_player_is_the_terminal_marker_however_the_match_ended(client: TestClient[Litestar]) -> None:
    match_id, tokens = new_match(client, "schotten_totten", ["p", "p"], seed=3)
    out = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0])).json()
    assert out["status"] == "finished" and out["current_player"] == spielwerk.TERMINAL
    assert client.get(f"/v1/matches/{match_id}").json()["current_player"] == spielwerk.TERMINAL
    # A match of random bots plays to its normal end at once.
    match_id, _ = new_match(client, "schotten_totten", ["b", "b"], seed=3)
    out = client.get(f"/v1/matches/{match_id}").json()
    assert out["status"] == "finished" and out["result"]["reason"] == "end"
    assert out["current_player"] == spielwerk.TERMINAL


def test_dogs_result_carries_the_points_its_text_names(client: TestClient[Litestar]) -> None:
    match_id, _ = new_match(client, "dog", ["b"] * 4, seed=3)
    out = client.get(f"/v1/matches/{match_id}").json()
    assert out["status"] == "finished" and out["result"]["reason"] == "end"
    points = out["result"]["points"]
    assert points == out["view"]["outcome"]["points"]
    assert f"points {points[0]}:{points[1]}" in out["result"]["text"]


def test_games_have_one_spelling_and_the_other_redirects(client: TestClient[Litestar]) -> None:
    for path, target in [
        ("/v1/games/schotten-totten", "/v1/games/schotten_totten"),
        ("/v1/schotten-totten/claim-check", "/v1/schotten_totten/claim-check"),
        ("/v1/the-game/table-talk", "/v1/the_game/table-talk"),
        ("/v1/games/the-game/schema?x=1", "/v1/games/the_game/schema?x=1"),
    ]:
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 308 and r.headers["location"] == target, path
    r = client.post("/v1/the-game/table-talk", json={"text": "hoch"}, follow_redirects=True)
    assert r.status_code == 200 and r.json()["allowed"] is True  # 308 keeps method and body
    paths = client.get("/schema/openapi.json").json()["paths"]
    assert not [p for p in paths if "-totten" in p or "the-game" in p]
    assert "/v1/schotten_totten/claim-check" in paths and "/v1/the_game/table-talk" in paths


def test_created_answers_say_where(client: TestClient[Litestar]) -> None:
    r = client.post("/v1/matches", json={"game": "the_game", "seats": [{"kind": "person"}] * 2})
    assert r.status_code == 201 and r.headers["location"] == f"/v1/matches/{r.json()['id']}"
    assert client.get(r.headers["location"]).json()["id"] == r.json()["id"]
    token = r.json()["seats"][0]["token"]
    said = client.post(f"{r.headers['location']}/chat", headers=bearer(token), json={"text": "links"})
    assert said.status_code == 201
    assert said.headers["location"] == f"{r.headers['location']}/chat/{said.json()['id']}"
    assert client.get(said.headers["location"]).json() == said.json()
    problem(client.get(f"{r.headers['location']}/chat/{said.json()['id'] + 1}"), 404, "unknown_message")


def test_the_openapi_document_declares_credentials_languages_and_the_stream(
    client: TestClient[Litestar],
) -> None:
    doc = client.get("/schema/openapi.json").json()
    schemes = doc["components"]["securitySchemes"]
    assert schemes["bearer"] == {**schemes["bearer"], "type": "http", "scheme": "bearer"}
    assert (schemes["seatCookie"]["type"], schemes["seatCookie"]["in"], schemes["seatCookie"]["name"]) == (
        "apiKey",
        "cookie",
        "spielwerk_seat",
    )
    for path, item in doc["paths"].items():
        for method, op in item.items():
            names = [p["name"] for p in op.get("parameters", []) if p["in"] == "header"]
            assert "Accept-Language" in names, (method, path)
    events = doc["paths"]["/v1/matches/{id}/events"]["get"]
    assert "text/event-stream" in events["responses"]["200"]["content"]
    assert "Last-Event-ID" in [p["name"] for p in events["parameters"]]
    assert "VERSION-MESSAGE" in events["description"] and "heartbeat" in events["description"]
    assert {"bearer": []} in events["security"] and {"seatCookie": []} in events["security"]
    assert "Location" in doc["paths"]["/v1/matches"]["post"]["responses"]["201"]["headers"]


def test_seeds_go_out_as_strings_and_come_in_either_way(client: TestClient[Litestar]) -> None:
    big = 2**64 - 1
    for sent in (str(big), big):
        r = client.post(
            "/v1/matches", json={"game": "schotten_totten", "seed": sent, "seats": [{"kind": "person"}] * 2}
        )
        assert r.status_code == 201, r.text
        match_id, token = r.json()["id"], r.json()["seats"][0]["token"]
        client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token))
        replay = client.get(f"/v1/matches/{match_id}/replay").json()
        assert replay["seed"] == str(big)
        truth = spielwerk.load_game("schotten_totten").new_initial_state(big)
        # The states are JSON objects, not JSON text inside JSON.
        assert isinstance(replay["initial_state"], dict)
        assert replay["initial_state"] == json.loads(truth.serialize())
    as_text = client.post("/v1/games/the_game/new", json={"seed": "9007199254740993"}).json()["state"]
    as_number = client.post("/v1/games/the_game/new", json={"seed": 9007199254740993}).json()["state"]
    assert as_text == as_number
    for bad in ("18446744073709551616", "-1", "12a", ""):
        r = client.post("/v1/games/the_game/new", json={"seed": bad})
        assert r.status_code == 400, bad


def test_the_documentation_loads_nothing_from_outside(client: TestClient[Litestar]) -> None:
    page = client.get("/schema")
    assert page.status_code == 200
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert urls and all(u.startswith("/") and not u.startswith("//") for u in urls), urls
    assert "http://" not in page.text and "https://" not in page.text.replace("https://swagger", "")
    for url in urls:
        assert client.get(url).status_code == 200, url
