"""Small faults strangers found (issue 34, items 7): each refused with a clear problem
instead of a 500 or a display that lies, and one title per code."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import httpx
import spielwerk
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api.match_routes import last_event_id

from .conftest import bearer, new_match, spielwerk_serve
from .test_persistence import create_persons

PERSON = {"kind": "person"}


def test_a_last_event_id_with_other_digits_than_ascii_is_a_first_connection(live: str) -> None:
    """`str.isdigit` takes "²" (and "³", "¹"), which `int` refuses: that was a 500."""
    assert last_event_id("3-7") == (3, 7) and last_event_id("4") == (4, 0)
    for sent in ("²", "1-³", "¹-0", "0-٣", "12x", "-1", "1-2-3"):
        assert last_event_id(sent) is None, sent
    with httpx.Client(base_url=live, timeout=10) as http:
        match_id, _ = create_persons(live, "schotten_totten", seed=1)
        for sent in ("²", "1-³"):
            headers = [(b"last-event-id", sent.encode("utf-8"))]
            with http.stream("GET", f"/v1/matches/{match_id}/events", headers=headers) as r:
                assert r.status_code == 200, sent
                first = next(line for line in r.iter_lines() if line.startswith("event:"))
            assert first == "event: version", sent  # the view now, as on a first connection


def test_table_talk_that_would_show_other_than_it_is_is_refused(client: TestClient[Litestar]) -> None:
    match_id, tokens = new_match(client, "the_game", ["p", "p"], seed=1)
    for text, shown in [
        ("\u200b\u200b", "shows nothing"),
        ("   ", "shows nothing"),
        ("hoch\x00", "U+0000"),
        ("links\u202eshtcer", "U+202E"),
        ("a\u2066b", "U+2066"),
        ("zwei\nZeilen", "U+000A"),
    ]:
        r = client.post(f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": text})
        assert r.status_code == 422 and r.json()["code"] == "unseen_text", text
        assert shown in r.json()["detail"], text
    r = client.post(
        f"/v1/matches/{match_id}/chat",
        headers={**bearer(tokens[0]), "Accept-Language": "de"},
        json={"text": "\u202e"},
    )
    assert "verändert, wie sie erscheint" in r.json()["detail"]
    # Visible text with a joiner (an emoji sequence) is plain text.
    emoji = "gut \U0001f44d\U0001f3fd \U0001f468\u200d\U0001f469\u200d\U0001f467"
    ok = client.post(f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": emoji})
    assert ok.status_code == 201


def test_one_seat_cannot_fill_the_chat_and_silence_its_partner(client: TestClient[Litestar]) -> None:
    match_id, tokens = new_match(client, "the_game", ["p", "p"], seed=2)
    codes = [
        client.post(
            f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": "hoch"}
        ).status_code
        for _ in range(25)
    ]
    assert codes[:20] == [201] * 20 and set(codes[20:]) == {429}
    late = client.post(f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": "hoch"})
    assert late.json()["code"] == "chat_too_fast" and late.headers["retry-after"]
    # The partner still speaks.
    said = client.post(f"/v1/matches/{match_id}/chat", headers=bearer(tokens[1]), json={"text": "tief"})
    assert said.status_code == 201
    assert client.get(f"/v1/matches/{match_id}").json()["status"] == "running"


def test_a_code_has_one_title_whoever_raised_it(client: TestClient[Litestar]) -> None:
    """`invalid_bot_params` from the server's own limit and from the engine's check."""
    titles = set()
    for params in ({"iterations": 10**9}, {"depth": 3}):
        seats = [{"kind": "person"}, {"kind": "bot", "bot": "ismcts", "params": params}]
        r = client.post("/v1/matches", json={"game": "schotten_totten", "seats": seats})
        assert r.status_code == 422 and r.json()["code"] == "invalid_bot_params"
        titles.add(r.json()["title"])
    assert titles == {"Invalid bot parameters"}


def test_a_deal_the_creator_chose_is_unranked_and_open_seats_are_dealt_by_the_server(
    client: TestClient[Litestar],
) -> None:
    """Item 4: whoever sets `seed` knows every hidden card of the deal."""
    chosen = client.post(
        "/v1/matches", json={"game": "schotten_totten", "seed": 7, "seats": [PERSON, PERSON]}
    )
    dealt = client.post("/v1/matches", json={"game": "schotten_totten", "seats": [PERSON, PERSON]})
    for created, ranked in ((chosen, False), (dealt, True)):
        out = client.get(f"/v1/matches/{created.json()['id']}").json()
        assert (out["ranked"], out["seed_chosen"]) == (ranked, not ranked)
    # Ended, it is listed in the lobby as unranked, and says why.
    token = chosen.json()["seats"][0]["token"]
    client.post(f"/v1/matches/{chosen.json()['id']}/resign", headers=bearer(token))
    listed = {m["id"]: m for m in client.get("/v1/matches").json()["finished"]}[chosen.json()["id"]]
    assert (listed["ranked"], listed["seed_chosen"]) == (False, True)
    # A seat open to the lobby: the server deals.
    refused = client.post(
        "/v1/matches",
        json={"game": "schotten_totten", "seed": 7, "seats": [PERSON, {"kind": "person", "open": True}]},
        headers={"Accept-Language": "de"},
    )
    assert refused.status_code == 422 and refused.json()["code"] == "seed_with_open_seats"
    assert "teilt der Server aus" in refused.json()["detail"]


def test_matches_of_bots_alone_of_every_kind_count_per_client_and_hour(client: TestClient[Litestar]) -> None:
    """Issue 34, item 6: a Dog match of four random bots costs its playing and a day of storage;
    rule-based ones finished at once and so never counted against the running matches."""
    client.app.state.matches.limits.bot_matches_per_client_per_hour = 3
    body = {"game": "dog", "seats": [{"kind": "bot", "bot": "random"}] * 4}
    answers = [client.post("/v1/matches", json={**body, "seed": s}).status_code for s in range(4)]
    assert answers == [201, 201, 201, 429]
    refused = client.post("/v1/matches", json={**body, "seed": 9})
    assert refused.json()["code"] == "too_many_bot_matches" and int(refused.headers["retry-after"]) > 0
    # A person's match is no bots-alone match: it is created as ever.
    assert client.post("/v1/matches", json={"game": "dog", "seats": [PERSON] * 4}).status_code == 201


def test_a_match_of_bots_alone_is_kept_in_a_few_kilobytes_and_reads_back_whole(tmp_path: Path) -> None:
    """Issue 34, item 6: a Dog match of four random bots stored about 131 KB, a row per ply,
    for a day. The commit that ends a match packs its plies into its record. Against the
    server as an operator starts it (a process, stopped by its PID), read back by a new one."""
    database = tmp_path / "spielwerk.db"
    body = {"game": "dog", "seed": 5, "seats": [{"kind": "bot", "bot": "random"}] * 4}
    with spielwerk_serve(f"sqlite:///{database}") as url:
        created = httpx.post(f"{url}/v1/matches", json=body, timeout=60).json()
    plies = created["version"]
    assert plies > 300  # played out in the request
    with sqlite3.connect(database) as conn:
        rows = conn.execute("SELECT count(*) FROM plies WHERE match_id = ?", (created["id"],)).fetchone()[0]
        (packed,) = conn.execute("SELECT plies_packed FROM matches WHERE id = ?", (created["id"],)).fetchone()
    assert rows == 0 and 0 < len(packed) < 8 * plies, (rows, len(packed), plies)
    with spielwerk_serve(f"sqlite:///{database}") as url:  # nothing of the first one's memory
        replay = httpx.get(f"{url}/v1/matches/{created['id']}/replay", timeout=60).json()
    assert [a["ply"] for a in replay["actions"]] == list(range(1, plies + 1))
    state = spielwerk.load_game("dog").new_initial_state(5)
    for a in replay["actions"]:
        if a["kind"] == "move":
            state.apply_action(a["action"], a["seat"])
    assert json.loads(state.serialize()) == replay["final_state"]


def test_options_names_every_method_of_a_path(client: TestClient[Litestar]) -> None:
    """Issue 34, item 7: OPTIONS named one of GET and POST (Litestar's automatic handler kept
    the methods of the first route of a path)."""
    expected = {
        "/v1/matches": "GET, OPTIONS, POST",
        "/v1/matches/x/moves": "GET, OPTIONS, POST",
        "/v1/matches/x/seats/1/join": "GET, OPTIONS, POST",
        "/v1/session": "DELETE, GET, OPTIONS, POST",
        "/v1/games": "GET, OPTIONS",
    }
    for path, allow in expected.items():
        r = client.options(path)
        assert (r.status_code, r.headers["allow"]) == (204, allow), path
