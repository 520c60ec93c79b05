"""The web API's review findings: far-behind streams, the chat's cap and pages, the
hyphen redirect from the raw path, running behind a TLS proxy, rules the engine carries,
one seat lookup, and when a match waiting for a person begins."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import spielwerk
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api import Settings, create_app, problems
from spielwerk_api import match_routes as match_routes_module
from spielwerk_api.clock import ManualClock
from spielwerk_api.front_door import HYPHENATED, hyphen_redirect
from spielwerk_api.matches import Limits
from spielwerk_api.proxy import forwarded_client, networks

from .conftest import bearer, new_match, serve_in_thread
from .test_match_rules import first_move, show, sweep
from .test_matches_api import problem
from .test_persistence import create_persons
from .test_streams import TIMEOUT, sse

Client = TestClient[Litestar]
OPEN = {"kind": "person", "open": True}
PERSON = {"kind": "person"}
BOT = {"kind": "bot", "bot": "random"}


def settings(tmp_path: Path, **extra: Any) -> Settings:
    return Settings(
        database_url=f"sqlite:///{tmp_path / 'review.db'}",
        clock=ManualClock(),
        sweep_interval_s=3600,
        client_rate_per_s=0,
        **extra,
    )


# -- 1. a Last-Event-ID far behind -------------------------------------------------------


def test_a_last_event_id_far_behind_starts_like_a_first_connection(
    live: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(match_routes_module, "CATCH_UP_VERSIONS", 2)
    with httpx.Client(base_url=live, timeout=TIMEOUT) as http:
        match_id, tokens = create_persons(live, "the_game", seed=8)
        truth = spielwerk.load_game("the_game").new_initial_state(8)
        for version in range(3):
            pick = truth.legal_moves(0)[0]
            r = http.post(
                f"/v1/matches/{match_id}/moves",
                headers=bearer(tokens[0]),
                json={"version": version, "move": pick["move"]},
            )
            assert r.status_code == 200, r.text
            truth.apply_action(pick["action"])
        # 3 versions behind (more than 2): the view now first, as on a first connection.
        headers = {**bearer(tokens[1]), "Last-Event-ID": "0-0"}
        with http.stream("GET", f"/v1/matches/{match_id}/events", headers=headers) as r:
            event, ident, data = next(sse(r.iter_lines()))
        assert (event, ident, data["version"]) == ("version", "3-0", 3)
        assert data["view"] == truth.view(1)
        # 2 behind: every version it missed, one by one.
        headers = {**bearer(tokens[1]), "Last-Event-ID": "1-0"}
        with http.stream("GET", f"/v1/matches/{match_id}/events", headers=headers) as r:
            events = sse(r.iter_lines())
            got = [next(events) for _ in range(2)]
        assert [(e, d["version"]) for e, _, d in got] == [("version", 2), ("version", 3)]


# -- 2. the chat: a cap per match, and pages -----------------------------------------------


def test_the_chat_of_a_match_is_capped_with_a_problem_naming_the_cap(tmp_path: Path) -> None:
    with TestClient(create_app(settings(tmp_path, limits=Limits(chat_messages_per_match=3)))) as client:
        match_id, tokens = new_match(client, "the_game", ["p", "p"], seed=1)
        for _ in range(3):
            said = client.post(
                f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": "hoch"}
            )
            assert said.status_code == 201, said.text
        full = problem(
            client.post(f"/v1/matches/{match_id}/chat", headers=bearer(tokens[1]), json={"text": "tief"}),
            409,
            "chat_full",
        )
        assert "at most 3 messages" in full["detail"]
        assert len(client.get(f"/v1/matches/{match_id}/chat").json()) == 3  # nothing stored
        # Another match has its own cap.
        other, others = new_match(client, "the_game", ["p", "p"], seed=2)
        said = client.post(f"/v1/matches/{other}/chat", headers=bearer(others[0]), json={"text": "hoch"})
        assert said.status_code == 201


# One process of the test below: its own engine and service on the shared database (a
# worker of `spielwerk serve --workers N`), saying POSTS messages at once from START on.
CHAT_WORKER = """
import asyncio, sys, time
from spielwerk_api import db
from spielwerk_api.clock import SystemClock
from spielwerk_api.matches import Limits, Matches
from spielwerk_api.problems import Problem

url, match_id = sys.argv[1], sys.argv[2]
cap, posts, start = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])

async def nothing(_m, _p):
    return None

async def say(matches, n):
    try:
        await matches.chat(match_id, n % 2, "hoch", "en")
        return 201
    except Problem as e:
        assert e.code == "chat_full", e.code
        return e.status_code

async def main():
    engine = db.create_engine(url)
    limits = Limits(chat_messages_per_match=cap, chat_per_seat_per_minute=10**6)
    matches = Matches(engine, SystemClock(), nothing, limits=limits)
    await matches.get(match_id)
    time.sleep(max(0.0, start - time.time()))
    codes = await asyncio.gather(*(say(matches, n) for n in range(posts)))
    await engine.dispose()
    print(codes.count(201), codes.count(409))

asyncio.run(main())
"""


def test_the_chat_cap_holds_for_messages_said_at_once_on_several_workers(database_url: str) -> None:
    """The count and the insert are one step on SQLite too (where each worker is a process
    of its own and a worker's lock reaches only its own writers): of many messages said at
    once by four processes, exactly the cap is stored and the rest refused."""
    import asyncio
    import subprocess
    import sys
    import time

    from spielwerk_api import db, schemas
    from spielwerk_api.matches import Matches
    from sqlalchemy import func, select

    async def nothing(_m: str, _p: dict[str, Any]) -> None:
        return None

    async def create() -> str:
        engine = db.create_engine(database_url)
        try:
            await db.migrate(engine)
            matches = Matches(engine, ManualClock(), nothing)
            seats: list[schemas.PersonSeat | schemas.BotSeat] = [schemas.PersonSeat(), schemas.PersonSeat()]
            return (await matches.create(schemas.NewMatch(game="the_game", seed=1, seats=seats))).id
        finally:
            await engine.dispose()

    async def stored(match_id: str) -> int:
        engine = db.create_engine(database_url)
        try:
            async with engine.connect() as conn:
                count = select(func.count()).select_from(db.ChatRow).where(db.ChatRow.match_id == match_id)
                return int((await conn.execute(count)).scalar_one())
        finally:
            await engine.dispose()

    cap, processes, posts = 30, 4, 24
    for _ in range(3):  # a race shows itself in some rounds, not in every one
        match_id = asyncio.run(create())
        start = time.time() + 6  # every process has started and read the match by then
        workers = [
            subprocess.Popen(
                [sys.executable, "-c", CHAT_WORKER, database_url, match_id, str(cap), str(posts), str(start)],
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in range(processes)
        ]
        said, refused = 0, 0
        for w in workers:
            out, _ = w.communicate(timeout=120)
            assert w.returncode == 0
            ok, full = map(int, out.split())
            said, refused = said + ok, refused + full
        assert (said, refused) == (cap, processes * posts - cap)
        assert asyncio.run(stored(match_id)) == cap


def test_the_chat_log_comes_in_pages(tmp_path: Path) -> None:
    # (More messages at one moment than a seat may say a minute: the pace is another test's.)
    with TestClient(create_app(settings(tmp_path, limits=Limits(chat_per_seat_per_minute=1000)))) as client:
        chat_log_pages(client)


def chat_log_pages(client: Client) -> None:
    match_id, tokens = new_match(client, "the_game", ["p", "p"], seed=1)
    ids = []
    for i in range(105):
        text = "hoch" if i % 2 else "tief"
        said = client.post(f"/v1/matches/{match_id}/chat", headers=bearer(tokens[i % 2]), json={"text": text})
        assert said.status_code == 201, said.text
        ids.append(said.json()["id"])
    first = client.get(f"/v1/matches/{match_id}/chat").json()
    assert [m["id"] for m in first] == ids[:100]  # the default page
    rest = client.get(f"/v1/matches/{match_id}/chat", params={"after": first[-1]["id"]}).json()
    assert [m["id"] for m in rest] == ids[100:]
    page = client.get(f"/v1/matches/{match_id}/chat", params={"after": ids[9], "limit": 3}).json()
    assert [m["id"] for m in page] == ids[10:13]
    assert [m["seat"] for m in page] == [10 % 2, 11 % 2, 12 % 2]
    assert client.get(f"/v1/matches/{match_id}/chat", params={"after": ids[-1]}).json() == []
    problem(client.get(f"/v1/matches/{match_id}/chat", params={"limit": 501}), 400, "invalid_parameter")
    problem(client.get(f"/v1/matches/{match_id}/chat", params={"limit": 0}), 400, "invalid_parameter")
    problem(client.get(f"/v1/matches/{match_id}/chat", params={"after": -1}), 400, "invalid_parameter")
    problem(client.get("/v1/matches/nosuchmatch/chat"), 404, "unknown_match")
    # The OpenAPI document says so.
    doc = client.get("/schema/openapi.json").json()
    parameters = {p["name"]: p for p in doc["paths"]["/v1/matches/{id}/chat"]["get"]["parameters"]}
    assert parameters["limit"]["schema"]["maximum"] == 500 and parameters["limit"]["schema"]["default"] == 100
    assert parameters["after"]["schema"]["minimum"] == 0


# -- 3. the hyphen redirect, from the raw path ------------------------------------------------


def scope(raw: bytes, query: bytes = b"") -> dict[str, Any]:
    from urllib.parse import unquote_to_bytes

    return {"path": unquote_to_bytes(raw).decode(), "raw_path": raw, "query_string": query}


def test_the_hyphen_redirect_keeps_the_raw_path_and_query() -> None:
    assert HYPHENATED == {"schotten-totten": "schotten_totten", "the-game": "the_game"}
    cases = [
        (b"/v1/the-game/table-talk", b"", b"/v1/the_game/table-talk"),
        (b"/v1/games/the-game/schema", b"x=%2F&y=a%20b", b"/v1/games/the_game/schema?x=%2F&y=a%20b"),
        # The game's own segment percent-encoded: still the game; the rest as sent.
        (b"/v1/the%2Dgame/table%2Dtalk", b"", b"/v1/the_game/table%2Dtalk"),
        (b"/v1/games/schotten-totten/a%2Fb%20c", b"", b"/v1/games/schotten_totten/a%2Fb%20c"),
        # Never another host: the target begins with /v1/ whatever follows.
        (b"/v1/schotten-totten//evil.example/x", b"", b"/v1/schotten_totten//evil.example/x"),
    ]
    for raw, query, location in cases:
        assert hyphen_redirect(scope(raw, query)) == location, raw
    # Segments that are no game's place, or an encoded slash that makes one: no redirect.
    for raw in (
        b"/v1/matches/the-game",
        b"/v2/the-game/x",
        b"/v1/games%2Fthe-game/schema",
        b"/v1/thegame-x/y",
    ):
        assert hyphen_redirect(scope(raw)) is None, raw


def test_the_hyphen_redirect_over_http_keeps_percent_encoding(client: Client) -> None:
    r = client.get("/v1/games/the-game/schema?lang=de%2Den&x=%2F%2Fevil", follow_redirects=False)
    assert r.status_code == 308
    assert r.headers["location"] == "/v1/games/the_game/schema?lang=de%2Den&x=%2F%2Fevil"
    r = client.post("/v1/the-game/table%2Dtalk", json={"text": "hoch"}, follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == "/v1/the_game/table%2Dtalk"


# -- 4. behind a TLS proxy ------------------------------------------------------------------


def test_forwarded_for_is_read_from_the_right_up_to_the_first_untrusted_address() -> None:
    proxies = networks(["10.0.0.0/8", "192.168.1.1"])
    assert forwarded_client("203.0.113.7", proxies) == "203.0.113.7"
    assert forwarded_client("198.51.100.1, 203.0.113.7, 10.1.2.3", proxies) == "203.0.113.7"
    # What the client itself claims (left of the first untrusted hop) counts for nothing.
    assert forwarded_client("1.1.1.1, 203.0.113.7", proxies) == "203.0.113.7"
    assert forwarded_client("10.0.0.5, 192.168.1.1", proxies) == "10.0.0.5"  # only proxies
    assert forwarded_client("203.0.113.7, garbage", proxies) is None
    assert forwarded_client("2001:db8::1", proxies) == "2001:db8::1"
    with pytest.raises(ValueError):
        networks(["not-an-address"])


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[str]:
    """A server behind a proxy on loopback (the test client is the proxy), with a rate
    limit of two requests per client address."""
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'proxied.db'}",
            clock=ManualClock(),
            sweep_interval_s=3600,
            client_rate_per_s=0.001,
            client_burst=3,
            trusted_proxies=["127.0.0.0/8"],
        )
    )
    with serve_in_thread(app) as url:
        yield url


def test_behind_a_trusted_proxy_the_client_and_scheme_are_the_forwarded_ones(proxied: str) -> None:
    with httpx.Client(base_url=proxied, timeout=TIMEOUT) as http:
        created = http.post("/v1/matches", json={"game": "schotten_totten", "seats": [PERSON, PERSON]})
        assert created.status_code == 201
        match_id = created.json()["id"]
        seat = created.json()["seats"][0]
        # Each forwarded client has its own bucket (three requests each).
        for _ in range(3):
            for client in ("203.0.113.7", "203.0.113.8"):
                r = http.get("/health", headers={"X-Forwarded-For": f"{client}, 127.0.0.1"})
                assert r.status_code == 200, (client, r.text)
        problem(http.get("/health", headers={"X-Forwarded-For": "203.0.113.7"}), 429, "too_many_requests")
        assert http.get("/health", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 200
        # https at the proxy: the seat cookie is Secure, and the page's origin is https://host.
        tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.1"}
        r = http.get(seat["invitation"], headers=tls, follow_redirects=False)
        assert r.status_code == 303 and "secure" in r.headers["set-cookie"].lower()
        host = proxied.removeprefix("http://")
        cookie = {"Cookie": f"spielwerk_seat={seat['token']}"}
        page = {**tls, **cookie, "Origin": f"https://{host}", "X-Forwarded-For": "198.51.100.2"}
        assert http.post(f"/v1/matches/{match_id}/resign", headers=page).status_code == 200
        # Plain http at the proxy: no Secure.
        r = http.get(seat["invitation"], headers={"X-Forwarded-For": "198.51.100.3"}, follow_redirects=False)
        assert r.status_code == 303 and "secure" not in r.headers["set-cookie"].lower()


def test_without_trusted_proxies_the_forwarded_headers_count_for_nothing(tmp_path: Path) -> None:
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'direct.db'}",
            clock=ManualClock(),
            sweep_interval_s=3600,
            client_rate_per_s=0.001,
            client_burst=3,
        )
    )
    with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=TIMEOUT) as http:
        created = http.post("/v1/matches", json={"game": "schotten_totten", "seats": [PERSON, PERSON]}).json()
        seat = created["seats"][0]
        tls = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.1"}
        r = http.get(seat["invitation"], headers=tls, follow_redirects=False)
        assert r.status_code == 303 and "secure" not in r.headers["set-cookie"].lower()
        cookie = {"Cookie": f"spielwerk_seat={seat['token']}"}
        host = url.removeprefix("http://")
        # The forwarded scheme is not believed: an https origin is another site's.
        r = http.post(
            f"/v1/matches/{created['id']}/resign",
            headers={**tls, **cookie, "Origin": f"https://{host}", "X-Forwarded-For": "203.0.113.2"},
        )
        assert r.status_code == 429 or problem(r, 403, "cross_site")
        # Every forwarded address is the one peer: its bucket is spent (four requests so far).
        problem(http.get("/health", headers={"X-Forwarded-For": "203.0.113.3"}), 429, "too_many_requests")


def test_the_seat_cookie_is_secure_when_the_setting_says_so(tmp_path: Path) -> None:
    with TestClient(create_app(settings(tmp_path, secure_cookies=True))) as client:
        created = client.post(
            "/v1/matches", json={"game": "schotten_totten", "seats": [PERSON, PERSON]}
        ).json()
        r = client.get(created["seats"][1]["invitation"], follow_redirects=False)
        assert r.status_code == 303 and "secure" in r.headers["set-cookie"].lower()
    with TestClient(create_app(settings(tmp_path))) as client:
        created = client.post(
            "/v1/matches", json={"game": "schotten_totten", "seats": [PERSON, PERSON]}
        ).json()
        r = client.get(created["seats"][1]["invitation"], follow_redirects=False)
        assert r.status_code == 303 and "secure" not in r.headers["set-cookie"].lower()


# -- 5. the engine says which games have a playing time and table talk -------------------------


@pytest.mark.parametrize("name", spielwerk.list_games())
def test_playing_time_and_table_talk_are_offered_where_the_engine_says(client: Client, name: str) -> None:
    game = spielwerk.load_game(name)
    players = ["p"] * game.num_players()
    assert game.has_playing_time() == (name == "dog")  # D13
    assert game.has_table_talk() == (name == "the_game")  # T7
    (info,) = [g for g in client.get("/v1/games").json()["games"] if g["name"] == name]
    assert info["playing_time"] == game.has_playing_time() and info["table_talk"] == game.has_table_talk()
    body = {"game": name, "seats": [PERSON] * game.num_players(), "rules": {"playing_time_s": 600}}
    r = client.post("/v1/matches", json=body)
    if game.has_playing_time():
        assert r.status_code == 201, r.text
    else:
        problem(r, 422, "invalid_rules")
    match_id, tokens = new_match(client, name, players, seed=1)
    # Table talk in every game (issue 35); T7 restricts The Game's: no numbers there.
    said = client.post(f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": "hoch"})
    assert said.status_code == 201, said.text
    number = client.post(f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": "die 42"})
    if game.has_table_talk():
        problem(number, 422, "names_number")
    else:
        assert number.status_code == 201, number.text


# -- 6. one seat lookup, with its retry, for every route --------------------------------------


def test_an_invitation_finds_a_seat_taken_on_another_worker(tmp_path: Path) -> None:
    # Two apps on one database: two workers.
    with TestClient(create_app(settings(tmp_path))) as one, TestClient(create_app(settings(tmp_path))) as two:
        created = one.post("/v1/matches", json={"game": "schotten_totten", "seats": [OPEN, PERSON]}).json()
        match_id = created["id"]
        assert two.get(f"/v1/matches/{match_id}").status_code == 200  # worker two knows seat 0 free
        token = one.post(f"/v1/matches/{match_id}/seats/0/join", json={}).json()["token"]
        r = two.get(f"/v1/matches/{match_id}/seats/0/join", params={"token": token}, follow_redirects=False)
        assert r.status_code == 303, r.text
        two.cookies.clear()
        r = two.post(f"/v1/matches/{match_id}/seats/0/join", json={"token": token})
        assert r.status_code == 200, r.text
        problem(
            two.get(f"/v1/matches/{match_id}/seats/1/join", params={"token": token}, follow_redirects=False),
            403,
            "wrong_token",
        )


# -- 7. a match waiting for a person -----------------------------------------------------------

TIMED = {"initial_s": 100, "increment_s": 0}


def test_a_waiting_match_runs_no_clock_and_begins_when_the_last_seat_is_taken(
    client: Client, clock: ManualClock
) -> None:
    created = client.post(
        "/v1/matches",
        json={
            "game": "schotten_totten",
            "seats": [PERSON, OPEN],
            "clock": TIMED,
            "rules": {"leave_s": 0},
        },
    ).json()
    match_id, token = created["id"], created["seats"][0]["token"]
    clock.advance(600)  # longer than the clock, the first move and leaving
    assert sweep(client) == 0
    out = show(client, match_id, token)
    assert out["status"] == "running" and out["clocks"] == [100.0, 100.0]
    # Nobody is to move and no move is offered while the match waits; its open seat is named.
    assert out["seats_to_move"] == [] and out["open_seats"] == [1]
    assert client.get(f"/v1/matches/{match_id}/moves", headers=bearer(token)).json()["moves"] == []
    move = {"type": "play", "card": out["view"]["hand"][0], "stone": 0}  # legal once it begins
    check = client.post(f"/v1/matches/{match_id}/check", headers=bearer(token), json={"move": move}).json()
    assert check["legal"] is False and check["code"] == "waiting_for_players"
    r = client.post(f"/v1/matches/{match_id}/moves", headers=bearer(token), json={"version": 0, "move": move})
    body = problem(r, 409, "waiting_for_players")
    assert "1" in body["detail"]
    assert show(client, match_id)["version"] == 0  # nothing changed
    # The last open seat is taken: the match begins, its time runs from here.
    assert client.post(f"/v1/matches/{match_id}/seats/1/join", json={}).status_code == 200
    client.cookies.clear()
    clock.advance(10)
    begun = show(client, match_id, token)
    assert begun["clocks"] == [90.0, 100.0] and begun["open_seats"] == [] and begun["seats_to_move"] == [0]
    first_move(client, match_id, token)
    clock.advance(40)  # seat 1's first minute (C11) has not passed since the start
    assert sweep(client) == 0
    clock.advance(30)
    assert sweep(client) == 1
    out = show(client, match_id)
    assert out["status"] == "aborted" and out["result"]["seat"] == 1


def test_resigning_a_match_that_waits_for_a_person_is_refused(client: Client) -> None:
    """Nobody loses a match that has not begun: 409 waiting_for_players, as for moves."""
    created = client.post("/v1/matches", json={"game": "schotten_totten", "seats": [PERSON, OPEN]}).json()
    match_id, token = created["id"], created["seats"][0]["token"]
    r = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(token))
    problem(r, 409, "waiting_for_players")
    out = show(client, match_id, token)
    assert out["status"] == "running" and out["version"] == 0 and out["open_seats"] == [1]
    assert match_id in [m["id"] for m in client.get("/v1/matches").json()["open"]]


def test_bots_wait_for_the_person_and_move_once_the_seat_is_taken(client: Client) -> None:
    created = client.post("/v1/matches", json={"game": "schotten_totten", "seats": [BOT, OPEN]}).json()
    match_id = created["id"]
    assert show(client, match_id)["version"] == 0  # the bot waits too
    token = client.post(f"/v1/matches/{match_id}/seats/1/join", json={}).json()["token"]
    out = show(client, match_id, token)
    assert out["version"] >= 1 and 1 in out["seats_to_move"]


def test_an_open_match_nobody_joins_expires_and_is_listed_no_longer(tmp_path: Path) -> None:
    s = settings(tmp_path, limits=Limits(open_match_s=300))
    clock = s.clock
    assert isinstance(clock, ManualClock)
    with TestClient(create_app(s)) as client:
        created = client.post("/v1/matches", json={"game": "schotten_totten", "seats": [PERSON, OPEN]}).json()
        match_id = created["id"]
        off = {"first_move_s": 0, "leave_s": 0, "untimed_move_s": 0}
        body = {"game": "schotten_totten", "seats": [PERSON, OPEN], "rules": off}
        joined = client.post("/v1/matches", json=body).json()
        assert client.post(f"/v1/matches/{joined['id']}/seats/1/join", json={}).status_code == 200
        client.cookies.clear()
        assert match_id in [m["id"] for m in client.get("/v1/matches").json()["open"]]
        clock.advance(299)
        assert sweep(client) == 0
        clock.advance(2)
        assert sweep(client) >= 1
        out = show(client, match_id)
        # The engine's ending for a match that never began: nobody wins, no seat is named,
        # and the text is not C11's missed first move (nobody was to move).
        assert out["status"] == "aborted" and out["result"]["reason"] == "withdrawn"
        assert out["result"]["returns"] == [0.0, 0.0] and out["result"].get("seat") is None
        state = spielwerk.load_game("schotten_totten").new_initial_state(0)
        assert out["result"]["text"] == state.match_ending("withdrawn")["text"]
        de = client.get(f"/v1/matches/{match_id}", headers={"Accept-Language": "de"}).json()
        assert de["result"]["text"] == state.match_ending("withdrawn", lang="de")["text"]
        assert de["result"]["text"].startswith("zurückgezogen: ") and de["last_move"] == de["result"]["text"]
        assert "C11" not in out["result"]["text"] + de["result"]["text"]
        lobby = client.get("/v1/matches").json()
        assert match_id not in [m["id"] for m in lobby["open"] + lobby["finished"]]
        problem(client.post(f"/v1/matches/{match_id}/seats/1/join", json={}), 409, "match_over")


# -- problems sent before routing speak the client's language too -----------------------------


def test_problems_sent_before_routing_are_german_when_asked(client: Client) -> None:
    headers = {"content-type": "text/plain", "accept-language": "de"}
    r = client.post("/v1/matches", content=b"x", headers=headers)
    body = problem(r, 415, "unsupported_media_type")
    assert body["title"] == "Falscher Medientyp"
    r = client.post("/v1/matches", content=b"x", headers={"content-type": "text/plain"})
    assert problem(r, 415, "unsupported_media_type")["title"] == "Unsupported Media Type"
    moved = client.get("/v1/games/schotten-totten", headers={"accept-language": "de"}, follow_redirects=False)
    assert moved.status_code == 308 and moved.json()["title"] == "Dauerhaft verschoben"


PanicException = type("PanicException", (BaseException,), {"__module__": "pyo3_runtime"})


def test_problems_sent_before_routing_follow_the_query_lang_as_every_answer(
    client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """415, the hyphen's 308, 431 and 500 are sent by the guard before routing: the one
    language rule (``?lang=`` first, then Accept-Language) holds for them too."""
    from spielwerk_api import rules

    def panics(*args: Any) -> Any:
        raise PanicException("index out of bounds")

    monkeypatch.setattr(rules, "check_claim", panics)
    text = {"content-type": "text/plain"}
    cases: list[tuple[int, str, Any]] = [
        (
            415,
            "unsupported_media_type",
            lambda q, h: client.post(f"/v1/matches{q}", content=b"x", headers={**text, **h}),
        ),
        (
            308,
            "moved",
            lambda q, h: client.get(f"/v1/games/schotten-totten{q}", headers=h, follow_redirects=False),
        ),
        (
            431,
            "headers_too_large",
            lambda q, h: client.get(f"/v1/games{q}", headers={**h, "x-pad": "x" * 20_000}),
        ),
        (
            500,
            "engine_panic",
            lambda q, h: client.post(
                f"/v1/schotten_totten/claim-check{q}", json={"mine": ["R1"], "theirs": []}, headers=h
            ),
        ),
    ]
    for status, code, send in cases:
        answers = {
            "de": send("?lang=de", {"accept-language": "en"}),
            "en": send("?lang=en", {"accept-language": "de"}),
            "header": send("", {"accept-language": "de"}),
            "neither": send("?lang=fr", {"accept-language": "de"}),
        }
        bodies = {}
        for case, r in answers.items():
            assert r.status_code == status, (code, case, r.text)
            assert r.headers["content-type"] == "application/problem+json"
            bodies[case] = r.json()
            assert bodies[case]["code"] == code
        title_de = problems.GERMAN[code][0]
        assert bodies["de"]["title"] == bodies["header"]["title"] == bodies["neither"]["title"] == title_de, (
            code
        )
        assert bodies["en"]["title"] != title_de and bodies["en"]["detail"] != bodies["de"]["detail"], code
        assert bodies["en"]["detail"] != bodies["neither"]["detail"], code
    # The German details keep the English one's values (the size, the place, the media type).
    moved = client.get("/v1/games/schotten-totten?lang=de", follow_redirects=False)
    assert moved.headers["location"] == "/v1/games/schotten_totten?lang=de"
    assert moved.json()["detail"].endswith(": /v1/games/schotten_totten?lang=de")
    refused = client.post("/v1/matches?lang=de", content=b"x", headers=text)
    assert refused.json()["detail"].endswith("nicht 'text/plain'")


def test_the_query_lang_wins_over_accept_language_for_event_streams(client: Client) -> None:
    # A browser's EventSource cannot send our Accept-Language: the page names it in the query.
    r = client.get("/v1/matches/nope?lang=de", headers={"accept-language": "en"})
    assert problem(r, 404, "unknown_match")["detail"].startswith("keine Partie")
    r = client.get("/v1/matches/nope?lang=en", headers={"accept-language": "de"})
    assert problem(r, 404, "unknown_match")["detail"].startswith("no match")
    r = client.get("/v1/matches/nope?lang=fr", headers={"accept-language": "de"})
    assert problem(r, 404, "unknown_match")["detail"].startswith("keine Partie")


def test_a_flood_of_addresses_keeps_the_rate_limits_store_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every address empty (rate-limited): none is full, yet the store stays within its cap
    # and a prune leaves half, so pruning is not paid on every request.
    import asyncio

    from spielwerk_api import app as app_module

    monkeypatch.setattr(app_module, "MAX_BUCKETS", 100)

    async def downstream(scope: Any, receive: Any, send: Any) -> None:
        return None

    limit = app_module.ClientLimit(downstream, rate=0.001, burst=1)
    sizes = []
    for i in range(1000):
        scope: Any = {"type": "http", "client": (f"10.0.{i // 256}.{i % 256}", 1)}
        nothing: Any = None
        asyncio.run(limit(scope, nothing, nothing))
        sizes.append(len(limit.buckets))
    assert max(sizes) <= 101
    assert sizes.count(51) >= 15  # a prune every ~50 new clients, down to half the cap
