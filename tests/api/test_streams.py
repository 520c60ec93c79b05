"""Event streams a page can rely on (issue 23 §1.2): ids and Last-Event-ID, heartbeats, the
end, and table talk that reaches every stream on any number of workers.

Streams are read from real servers with a timeout on every read.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import spielwerk
from spielwerk_api import Settings, create_app
from spielwerk_api.clock import ManualClock
from spielwerk_api.matches import match as matches_module

from .conftest import bearer, serve_in_thread
from .test_persistence import create_persons, server  # noqa: F401 (the fixture)

TIMEOUT = httpx.Timeout(10.0, read=10.0)


def sse(lines: Iterator[str]) -> Iterator[tuple[str, str | None, Any]]:
    """(event, id, data) of each event, and ("comment", None, text) of each comment."""
    event, ident, data = "message", None, []
    for line in lines:
        if line.startswith(":"):
            yield "comment", None, line[1:].strip()
        elif line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("id:"):
            ident = line[3:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
        elif not line and data:
            yield event, ident, json.loads("\n".join(data))
            event, data = "message", []


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[str]:
    """A server whose idle streams send a heartbeat every 0.2 s."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'quick.db'}",
        clock=ManualClock(),
        sweep_interval_s=3600,
        client_rate_per_s=0,
        stream_heartbeat_s=0.2,
    )
    with serve_in_thread(create_app(settings)) as url:
        yield url


def play_first(http: httpx.Client, match_id: str, token: str | None, version: int) -> dict[str, Any]:
    moves = http.get(f"/v1/matches/{match_id}/moves", headers=bearer(token)).json()["moves"]
    r = http.post(
        f"/v1/matches/{match_id}/moves",
        headers=bearer(token),
        json={"version": version, "move": moves[0]["move"]},
    )
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_chat_and_versions_reach_every_stream_on_two_workers(server: str) -> None:  # noqa: F811
    # README's own command on SQLite: `spielwerk serve --workers 2`. Before, the other
    # seat's stream got 6 and then 4 of 10 messages.
    match_id, tokens = create_persons(server, "the_game", seed=3)
    clients = [httpx.Client(base_url=server, timeout=TIMEOUT) for _ in range(4)]
    responses = []
    try:
        streams = []
        for i, c in enumerate(clients):
            r = c.send(
                c.build_request("GET", f"/v1/matches/{match_id}/events", headers=bearer(tokens[i % 2])),
                stream=True,
            )
            assert r.status_code == 200
            responses.append(r)
            events = sse(r.iter_lines())
            assert next(events)[:2] == ("version", "0-0")
            streams.append(events)
        with httpx.Client(base_url=server, timeout=TIMEOUT) as poster:
            said = []
            for n in range(10):
                seat = n % 2
                r = poster.post(
                    f"/v1/matches/{match_id}/chat",
                    headers=bearer(tokens[seat]),
                    json={"text": f"Stapel {'ab' * (n + 1)}"},
                )
                assert r.status_code == 201, r.text
                said.append(r.json())
            out = play_first(poster, match_id, tokens[0], 0)
            assert out["version"] == 1
        last = said[-1]["id"]
        for i, events in enumerate(streams):
            got = [next(events) for _ in range(11)]
            chats = [(e, d["id"], d["text"]) for e, _, d in got if e == "chat"]
            assert chats == [("chat", s["id"], s["text"]) for s in said], f"stream {i}"
            versions = [(d["version"], d["seat"]) for e, _, d in got if e == "version"]
            assert versions == [(1, i % 2)]
            # (Which came first depends on the worker.) The last id names the newest of each.
            assert got[-1][1] == f"1-{last}"
    finally:
        for r in responses:
            r.close()
        for c in clients:
            c.close()


@pytest.mark.parametrize("kept", [64, 1])
def test_a_reconnecting_stream_gets_every_version_and_message_it_missed(
    live: str, kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kept=1: the worker keeps only the latest version, so the missed ones are rebuilt from
    # the stored plies.
    monkeypatch.setattr(matches_module, "RECENT_STATES", kept)
    with httpx.Client(base_url=live, timeout=TIMEOUT) as http:
        match_id, tokens = create_persons(live, "the_game", seed=8)
        truth = spielwerk.load_game("the_game").new_initial_state(8)
        with http.stream("GET", f"/v1/matches/{match_id}/events", headers=bearer(tokens[1])) as r:
            event, ident, first = next(sse(r.iter_lines()))
            assert (event, ident, first["version"]) == ("version", "0-0", 0)
        # Gone: meanwhile three moves and a message.
        texts = []
        for version in range(3):
            pick = truth.legal_moves(0)[0]
            r2 = http.post(
                f"/v1/matches/{match_id}/moves",
                headers=bearer(tokens[0]),
                json={"version": version, "move": pick["move"]},
            )
            assert r2.status_code == 200, r2.text
            texts.append(truth.action_to_string(pick["action"]))
            truth.apply_action(pick["action"])
            if version == 1:
                chat = http.post(
                    f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": "links hoch"}
                )
                assert chat.status_code == 201
        replay = spielwerk.load_game("the_game").new_initial_state(8)
        expected = []
        for _ in range(3):
            pick = replay.legal_moves(0)[0]
            replay.apply_action(pick["action"])
            expected.append(replay.view(1))
        headers = {**bearer(tokens[1]), "Last-Event-ID": ident or ""}
        with http.stream("GET", f"/v1/matches/{match_id}/events", headers=headers) as r:
            events = sse(r.iter_lines())
            got = [next(events) for _ in range(4)]
        versions = [d for e, _, d in got if e == "version"]
        assert [v["version"] for v in versions] == [1, 2, 3]
        assert [v["view"] for v in versions] == expected  # each version's own view of seat 1
        assert [v["last_move"] for v in versions] == texts
        chats = [(ident, d["text"]) for e, ident, d in got if e == "chat"]
        assert len(chats) == 1 and chats[0][1] == "links hoch"
        assert got[-1][1] == f"3-{str(chats[0][0]).split('-')[1]}"  # the newest of each


def test_an_idle_stream_sends_heartbeats(quick: str) -> None:
    with httpx.Client(base_url=quick, timeout=TIMEOUT) as http:
        match_id, tokens = create_persons(quick, "schotten_totten", seed=1)
        with http.stream("GET", f"/v1/matches/{match_id}/events", headers=bearer(tokens[0])) as r:
            events = sse(r.iter_lines())
            assert next(events)[0] == "version"
            assert next(events) == ("comment", None, "heartbeat")
            assert next(events) == ("comment", None, "heartbeat")


def test_a_stream_ends_with_an_end_event_once_the_match_is_over(quick: str) -> None:
    with httpx.Client(base_url=quick, timeout=TIMEOUT) as http:
        match_id, tokens = create_persons(quick, "schotten_totten", seed=1)
        with http.stream("GET", f"/v1/matches/{match_id}/events", headers=bearer(tokens[1])) as r:
            events = sse(r.iter_lines())
            assert next(events)[0] == "version"
            resigned = http.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[0]))
            assert resigned.status_code == 200
            event, ident, data = next(events)
            assert (event, ident, data["version"], data["status"]) == ("version", "1-0", 1, "finished")
            event, ident, end = next(events)
            assert (event, ident, end["status"], end["version"]) == ("end", "1-0", "finished", 1)
            assert end["result"]["reason"] == "resigned" and end["result"]["seat"] == 0
            assert list(events) == []  # the stream closed
        # A page reconnecting after the end gets the end at once, and the stream closes.
        headers = {**bearer(tokens[1]), "Last-Event-ID": "1-0"}
        with http.stream("GET", f"/v1/matches/{match_id}/events", headers=headers) as r:
            assert [e for e, _, _ in sse(r.iter_lines())] == ["end"]
