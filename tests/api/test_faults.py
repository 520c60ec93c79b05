"""Small faults at the door (issue 21, item 9): every error a problem, HEAD, media types,
seeds to 2^64 - 1, closed body schemas."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
import spielwerk
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api import rules

from .conftest import bearer, new_match, service
from .test_events import events


def forged_the_game_view() -> dict[str, Any]:
    """issue 22's repro: the draw pile empty while the player to move is shown holding every
    unseen card; The Game's state_from_view panicked on it (`cannot sample empty range`)."""
    state = spielwerk.load_game("the_game").new_initial_state(1)
    for _ in range(2):
        state.apply_action(state.legal_actions()[0])
    end_turn = next(m for m in state.legal_moves() if m["move"]["type"] == "end_turn")
    state.apply_action(end_turn["action"])
    view = state.view(0)
    view["hand_sizes"][1] += view["draw_pile_size"]
    view["draw_pile_size"] = 0
    view["minimum"] = 1
    return view


def test_an_engine_fault_on_a_forged_view_is_answered_as_a_problem(client: TestClient[Litestar]) -> None:
    r = client.post("/v1/bots/the_game/random/move", json={"view": forged_the_game_view()})
    # 500 while the engine panics on it, 422 once it refuses the view: a problem either way.
    assert r.status_code in (422, 500)
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] in ("engine_panic", "invalid_view", "invalid_state")


# The class PyO3 raises for a Rust panic: a BaseException, which Litestar's handlers never see.
PanicException = type("PanicException", (BaseException,), {"__module__": "pyo3_runtime"})


def test_an_engine_panic_is_a_problem_not_a_plain_text_500(
    client: TestClient[Litestar], monkeypatch: pytest.MonkeyPatch
) -> None:
    def panics(*args: Any) -> Any:
        raise PanicException("index out of bounds: the len is 3 but the index is 7")

    monkeypatch.setattr(rules, "check_claim", panics)
    r = client.post("/v1/schotten_totten/claim-check", json={"mine": ["R1"], "theirs": []})
    assert r.status_code == 500
    assert r.headers["content-type"] == "application/problem+json"
    problem = r.json()
    assert problem["code"] == "engine_panic" and problem["type"] == "urn:spielwerk:problem:engine_panic"
    assert "index out of bounds" not in r.text  # nothing internal leaks
    # The worker serves on.
    assert client.get("/v1/games").status_code == 200


def test_a_bad_path_parameter_is_reported_as_one(client: TestClient[Litestar]) -> None:
    r = client.get("/v1/matches/" + "a" * 40)
    assert r.status_code == 400
    problem = r.json()
    assert problem["code"] == "invalid_parameter"
    assert "path parameter id" in problem["detail"] and "body" not in problem["detail"]
    r = client.post("/v1/games/" + "x" * 70 + "/new", json={})
    assert r.status_code == 400 and r.json()["code"] == "invalid_parameter"
    assert "path parameter game" in r.json()["detail"]
    # A bad body is still reported as a bad body.
    r = client.post("/v1/games/schotten_totten/new", json={"seed": "one"})
    assert r.status_code == 400 and r.json()["code"] == "invalid_body"


def test_head_answers_like_get(client: TestClient[Litestar]) -> None:
    match_id, tokens = new_match(client, "schotten_totten", ["p", "p"], seed=3)
    for path, headers in (
        ("/v1/games", {}),
        ("/v1/games/caravan", {}),
        (f"/v1/matches/{match_id}", {}),
        (f"/v1/matches/{match_id}/moves", bearer(tokens[0])),
        ("/health", {}),
    ):
        got = client.get(path, headers=headers)
        head = client.head(path, headers=headers)
        assert (head.status_code, got.status_code) == (200, 200), path
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"]
        assert head.headers["content-length"] == got.headers["content-length"]
    # Errors too: the same problem's headers, no body.
    missing = client.head("/v1/matches/nosuchmatch")
    assert missing.status_code == 404 and missing.content == b""
    assert missing.headers["content-type"] == "application/problem+json"
    # Where there is no GET, HEAD is not allowed either, and the problem says HEAD.
    refused = client.head("/v1/the_game/table-talk")
    assert refused.status_code == 405
    assert client.request("HEAD", "/v1/the_game/table-talk").content == b""


def test_head_of_an_event_stream_ends_after_its_headers(app: Litestar, live: str) -> None:
    with httpx.Client(base_url=live, timeout=5) as http:
        created = http.post(
            "/v1/matches", json={"game": "schotten_totten", "seats": [{"kind": "person"}] * 2}
        ).json()
        head = http.head(f"/v1/matches/{created['id']}/events")
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-type"].startswith("text/event-stream")
        # The stream's place is given back, and GET still streams.
        deadline = time.monotonic() + 5
        while app.state.streams.total:
            assert time.monotonic() < deadline, "HEAD kept a stream's place"
            time.sleep(0.02)
        with http.stream("GET", f"/v1/matches/{created['id']}/events") as r:
            assert next(events(r.iter_lines()))[1]["version"] == 0


def test_a_body_that_is_not_json_is_refused_with_415(client: TestClient[Litestar]) -> None:
    body = '{"seed": 1}'
    for media in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        r = client.post("/v1/games/schotten_totten/new", content=body, headers={"Content-Type": media})
        assert r.status_code == 415, media
        assert r.headers["content-type"] == "application/problem+json"
        assert r.headers["accept"] == "application/json"
        assert r.json()["code"] == "unsupported_media_type"
    for media in ("application/json", "application/json; charset=utf-8", "application/merge-patch+json"):
        r = client.post("/v1/games/schotten_totten/new", content=body, headers={"Content-Type": media})
        assert r.status_code == 200, media


def test_match_seeds_go_up_to_2_to_the_64_minus_1(client: TestClient[Litestar]) -> None:
    for seed in (2**63, 2**64 - 1):
        match_id, tokens = new_match(client, "schotten_totten", ["p", "p"], seed=seed)
        assert client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0])).status_code == 200
        # Read back from the database, not from the worker's memory.
        service(client).cache.clear()
        replay = client.get(f"/v1/matches/{match_id}/replay").json()
        assert replay["seed"] == str(seed)  # a string: JavaScript rounds above 2^53
        truth = spielwerk.load_game("schotten_totten").new_initial_state(seed)
        assert replay["initial_state"] == json.loads(truth.serialize())
    too_large = client.post(
        "/v1/matches", json={"game": "schotten_totten", "seed": 2**64, "seats": [{"kind": "person"}] * 2}
    )
    assert too_large.status_code == 400 and "seed" in too_large.json()["detail"]


def test_body_schemas_are_closed_as_the_server_is(client: TestClient[Litestar]) -> None:
    doc = client.get("/schema/openapi.json").json()
    components = doc["components"]["schemas"]
    bodies = set()
    for item in doc["paths"].values():
        for operation in item.values():
            content = operation.get("requestBody", {}).get("content", {})
            for media in content.values():
                bodies.add(media["schema"]["$ref"].rsplit("/", 1)[1])
    nested = {"PersonSeat", "BotSeat", "ClockSpec", "MatchRules"}
    assert nested | {"NewMatch", "PlayBody", "MoveBody"} <= bodies | nested
    for name in bodies | nested:
        assert components[name].get("additionalProperties") is False, name
    # An answer's schema stays open (a client must accept new members).
    assert "additionalProperties" not in components["MatchOut"]
    # And the server refuses what the schema forbids.
    r = client.post("/v1/games/schotten_totten/new", json={"seed": 1, "colour": "red"})
    assert r.status_code == 400 and "colour" in r.json()["detail"]
    r = client.post(
        "/v1/matches",
        json={"game": "schotten_totten", "seats": [{"kind": "person", "colour": "red"}, {"kind": "person"}]},
    )
    assert r.status_code == 400
