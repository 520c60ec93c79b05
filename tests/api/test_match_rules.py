"""The match rules of the seeds (C11, D13), enforced by the server with an injectable clock.

Time moves only when a test says so (``ManualClock``); the sweeper that enforces the rules
without any request is called directly, as the server's loop calls it every second.
"""

from __future__ import annotations

import asyncio
from typing import Any

import spielwerk
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api.clock import ManualClock

from .conftest import bearer, new_match, service

Client = TestClient[Litestar]
OFF = {"first_move_s": 0, "leave_s": 0, "untimed_move_s": 0}


def sweep(client: Client) -> int:
    """One round of the sweeper, run on the app's own event loop."""
    portal = client.blocking_portal
    assert portal is not None
    return portal.call(service(client).sweep)


def show(client: Client, match_id: str, token: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = client.get(f"/v1/matches/{match_id}", headers=bearer(token)).json()
    return out


def first_move(client: Client, match_id: str, token: str | None) -> dict[str, Any]:
    out = show(client, match_id, token)
    move = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(token)).json()["moves"][0]["move"]
    r = client.post(
        f"/v1/matches/{match_id}/moves", headers=bearer(token), json={"version": out["version"], "move": move}
    )
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def test_the_clock_runs_for_the_seat_to_move_and_loses_on_time(client: Client, clock: ManualClock) -> None:
    match_id, tokens = new_match(
        client, "schotten_totten", ["p", "p"], seed=1, clock={"initial_s": 30, "increment_s": 5}, rules=OFF
    )
    assert show(client, match_id)["clocks"] == [30.0, 30.0]
    clock.advance(10)
    assert show(client, match_id)["clocks"] == [20.0, 30.0]
    out = first_move(client, match_id, tokens[0])  # seat 0's turn ends with its card (S3)
    assert out["seats_to_move"] == [1]
    assert out["clocks"] == [25.0, 30.0]  # 30 - 10 + the increment
    clock.advance(29)
    assert sweep(client) == 0
    assert show(client, match_id)["clocks"] == [25.0, 1.0]
    clock.advance(2)
    assert sweep(client) == 1
    out = show(client, match_id)
    assert out["status"] == "finished"
    assert out["result"]["reason"] == "time" and out["result"]["seat"] == 1
    assert out["result"]["returns"] == [1.0, -1.0]
    assert sweep(client) == 0  # ended once


def test_against_a_person_a_missing_first_move_aborts_the_match(client: Client, clock: ManualClock) -> None:
    match_id, _ = new_match(client, "caravan", ["p", "p"], seed=5)
    first = spielwerk.load_game("caravan").new_initial_state(5).current_player()
    clock.advance(59)
    assert sweep(client) == 0
    clock.advance(2)
    assert sweep(client) == 1
    out = show(client, match_id)
    assert out["status"] == "aborted"
    assert out["result"] == {
        "returns": [0.0, 0.0],
        "reason": "aborted",
        "text": f"aborted: player {first + 1} did not make a first move in time",
        "seat": first,
        "points": None,
        "rule": "C11",
    }


def test_against_a_bot_the_first_move_may_take_longer(client: Client, clock: ManualClock) -> None:
    match_id, tokens = new_match(client, "schotten_totten", ["p", "b"], rules={"leave_s": 0})
    clock.advance(120)
    assert sweep(client) == 0
    assert show(client, match_id)["status"] == "running"
    first_move(client, match_id, tokens[0])


def test_five_minutes_for_a_move_without_a_clock(client: Client, clock: ManualClock) -> None:
    match_id, tokens = new_match(client, "schotten_totten", ["p", "p"], seed=1)
    clock.advance(5)
    first_move(client, match_id, tokens[0])
    clock.advance(5)
    first_move(client, match_id, tokens[1])  # seat 0 to move again from 10 s
    # Both seats stay at the table (a request every half minute), but seat 0 does not move.
    for _ in range(9):
        clock.advance(30)
        show(client, match_id, tokens[0])
        show(client, match_id, tokens[1])
        assert sweep(client) == 0
    clock.advance(35)  # 305 s since seat 0 became to move
    # The read decides the time first (C11): no sweep is needed to see the end.
    out = show(client, match_id, tokens[1])
    assert out["status"] == "finished"
    assert sweep(client) == 0
    result = show(client, match_id)["result"]
    assert result["reason"] == "no_move" and result["seat"] == 0 and result["returns"] == [-1.0, 1.0]


def test_leaving_for_a_minute_loses(client: Client, clock: ManualClock) -> None:
    match_id, tokens = new_match(client, "schotten_totten", ["p", "p"], seed=1)
    clock.advance(5)
    first_move(client, match_id, tokens[0])
    clock.advance(5)
    first_move(client, match_id, tokens[1])  # seat 1 last seen at 10 s
    clock.advance(30)
    show(client, match_id, tokens[0])  # seat 0 seen at 40 s
    clock.advance(29)
    assert sweep(client) == 0
    clock.advance(2)  # 71 s: seat 1 gone for 61 s
    assert sweep(client) == 1
    result = show(client, match_id)["result"]
    assert result["reason"] == "left" and result["seat"] == 1 and result["returns"] == [1.0, -1.0]


def test_a_seat_gone_for_a_third_of_the_leave_time_is_counted_down_for_the_others(
    client: Client, clock: ManualClock
) -> None:
    """Issue 35: the leave rule ended a match with no warning on the page. Its countdown is
    in ``rules_due`` once a seat has not been seen for a third of ``leave_s`` (an open page's
    stream shows it every sixth); it goes when the seat is back."""
    match_id, tokens = new_match(client, "schotten_totten", ["p", "p"], seed=1, rules={"untimed_move_s": 0})
    clock.advance(5)
    first_move(client, match_id, tokens[0])
    clock.advance(5)
    first_move(client, match_id, tokens[1])  # seat 1 last seen at 10 s
    clock.advance(15)
    assert show(client, match_id, tokens[0])["rules_due"] == []  # 25 s: gone for 15 s, not yet
    clock.advance(10)  # 35 s: seat 1 gone for 25 s, seat 0 seen now
    due = show(client, match_id, tokens[0])["rules_due"]
    assert due == [{"rule": "left", "seat": 1, "in_s": 35.0}]
    assert show(client, match_id)["rules_due"] == due  # a spectator sees it too
    show(client, match_id, tokens[1])  # seat 1 is back
    assert show(client, match_id, tokens[0])["rules_due"] == []
    clock.advance(25)  # 60 s: both last seen at 35 s
    due = show(client, match_id)["rules_due"]
    assert [(r["rule"], r["seat"], r["in_s"]) for r in due] == [("left", 0, 35.0), ("left", 1, 35.0)]
    assert sweep(client) == 0


def test_leaving_a_team_game_loses_it_for_the_team(client: Client, clock: ManualClock) -> None:
    match_id, _ = new_match(client, "dog", ["b", "p", "b", "b"], rules={"untimed_move_s": 0})
    clock.advance(61)
    assert sweep(client) == 1
    result = show(client, match_id)["result"]
    assert result["reason"] == "left" and result["returns"] == [1.0, -1.0, 1.0, -1.0]
    # Seats and teams counted from 1, the bots by name; the rule is a field, not in the text.
    assert result["text"] == "player 2 left the match: team 1 (bot random and bot random) wins"
    assert result["rule"] == "C11"


def test_dogs_playing_time_scores_marbles_home_and_nobody_wins(client: Client, clock: ManualClock) -> None:
    match_id, _ = new_match(client, "dog", ["p", "p", "p", "p"], rules={**OFF, "playing_time_s": 600})
    clock.advance(599)
    assert sweep(client) == 0
    clock.advance(1)
    assert sweep(client) == 1
    out = show(client, match_id)
    assert out["status"] == "finished"
    assert out["result"]["reason"] == "playing_time"
    assert out["result"]["points"] == [0, 0] and out["result"]["returns"] == [0.0, 0.0, 0.0, 0.0]
    assert out["result"]["rule"] == "D13" and "D13" not in out["result"]["text"]


def test_the_sweeper_runs_by_itself(database_url: str, clock: ManualClock) -> None:
    """The server enforces the rules with nobody asking: its loop calls sweep()."""
    from spielwerk_api import Settings, create_app

    app = create_app(Settings(database_url=database_url, clock=clock, sweep_interval_s=0.01))
    with TestClient(app) as client:
        match_id, _ = new_match(client, "caravan", ["p", "p"])
        clock.advance(61)
        portal = client.blocking_portal
        assert portal is not None
        for _ in range(500):  # waits on the app's loop for at most 5 s, never on wall time alone
            if show(client, match_id)["status"] != "running":
                break
            portal.call(asyncio.sleep, 0.01)
        assert show(client, match_id)["status"] == "aborted"


def test_a_bot_left_to_move_by_a_stopped_worker_moves_at_the_next_sweep(
    client: Client, clock: ManualClock
) -> None:
    from spielwerk_api.matches import BOT_STALLED_S, Ply

    match_id, tokens = new_match(client, "schotten_totten", ["p", "b"], seed=1)
    matches = service(client)
    portal = client.blocking_portal
    assert portal is not None
    m = portal.call(matches.get, match_id)
    action = m.state.legal_actions()[0]
    # The person's move is stored, and the worker stops before its bot answers.
    portal.call(matches.commit, m, m.after([Ply("move", 0, action, matches.clock.now())]))
    assert show(client, match_id)["seats_to_move"] == [1]
    # Until the bot has been silent for a while, its worker may still be searching.
    sweep(client)
    assert show(client, match_id)["version"] == 1
    clock.advance(BOT_STALLED_S)
    sweep(client)  # starts the bot in the background: the sweep waits for no bot
    out = show(client, match_id, tokens[0])
    for _ in range(500):  # on the app's loop, at most 5 s
        if out["version"] >= 2:
            break
        portal.call(asyncio.sleep, 0.01)
        out = show(client, match_id, tokens[0])
    assert out["version"] >= 2 and out["seats_to_move"] == [0]
