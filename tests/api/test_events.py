"""Server-sent events: one event per new version with the seat's own view, and table talk.

Streams are read from a real server (the ``live`` fixture), with a timeout on every read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import spielwerk

from .conftest import bearer


def events(lines: Iterator[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(event, data) pairs from an SSE stream's lines."""
    kind, data = "message", ""
    for line in lines:
        if line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
        elif line == "" and data:
            yield kind, json.loads(data)
            kind, data = "message", ""


def new_match(http: httpx.Client, game: str, seats: list[str], seed: int) -> tuple[str, list[str | None]]:
    body = {
        "game": game,
        "seed": seed,
        "seats": [{"kind": "person"} if s == "p" else {"kind": "bot"} for s in seats],
    }
    r = http.post("/v1/matches", json=body)
    assert r.status_code == 201, r.text
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def test_each_seat_gets_one_event_per_version_with_its_own_view(live: str) -> None:
    with httpx.Client(base_url=live, timeout=10) as http, httpx.Client(base_url=live, timeout=10) as other:
        match_id, tokens = new_match(http, "the_game", ["p", "p"], seed=4)
        truth = spielwerk.load_game("the_game").new_initial_state(4)
        with http.stream("GET", f"/v1/matches/{match_id}/events", headers=bearer(tokens[1])) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            received = events(stream.iter_lines())
            kind, first = next(received)
            assert kind == "version" and first["version"] == 0 and first["seat"] == 1
            assert first["view"] == truth.view(1)
            for version in (1, 2, 3):
                pick = truth.legal_moves(0)[0]
                r = other.post(
                    f"/v1/matches/{match_id}/moves",
                    headers=bearer(tokens[0]),
                    json={"version": version - 1, "move": pick["move"]},
                )
                assert r.status_code == 200, r.text
                text = truth.action_to_string(pick["action"])
                truth.apply_action(pick["action"])
                kind, event = next(received)
                assert kind == "version" and event["version"] == version
                assert event["view"] == truth.view(1)  # seat 1's own view, never seat 0's hand
                assert event["last_move"] == text
            said = other.post(
                f"/v1/matches/{match_id}/chat",
                headers=bearer(tokens[0]),
                json={"text": "ich mache Stapel links"},
            )
            assert said.status_code == 201
            kind, chat = next(received)
            assert kind == "chat" and chat["seat"] == 0 and chat["text"] == "ich mache Stapel links"


def test_bot_replies_arrive_version_by_version_and_spectators_see_the_public_view(live: str) -> None:
    with httpx.Client(base_url=live, timeout=10) as http, httpx.Client(base_url=live, timeout=10) as other:
        match_id, tokens = new_match(http, "schotten_totten", ["p", "b"], seed=2)
        truth = spielwerk.load_game("schotten_totten").new_initial_state(2)
        with http.stream("GET", f"/v1/matches/{match_id}/events") as stream:
            received = events(stream.iter_lines())
            _, first = next(received)
            assert first["seat"] is None and first["view"] == truth.public_view()
            pick = truth.legal_moves(0)[0]
            r = other.post(
                f"/v1/matches/{match_id}/moves",
                headers=bearer(tokens[0]),
                json={"version": 0, "move": pick["move"]},
            )
            assert r.status_code == 200
            final = r.json()["version"]
            assert final >= 2  # the bot answered at once
            seen = [next(received)[1] for _ in range(final)]
            assert [e["version"] for e in seen] == list(range(1, final + 1))
            # Each event is its own version: the person's card first, then the bot's.
            assert seen[0]["last_move"] == truth.action_to_string(pick["action"])
            truth.apply_action(pick["action"])
            assert seen[0]["view"] == truth.public_view()
            assert all(e["last_move"] and e["view"] != seen[0]["view"] for e in seen[1:])
