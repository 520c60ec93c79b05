"""No move is ever lost (issue 10, §4): restarts, two workers, events across workers.

Every test runs on SQLite and on PostgreSQL (``database_url`` in conftest.py). The tests
with two workers start the real server, ``python -m spielwerk serve --workers 2``, as a
subprocess on the test's database and stop it by its PID afterwards.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import spielwerk
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api import Settings, create_app, db, schemas
from spielwerk_api.app import channels_backend
from spielwerk_api.clock import ManualClock
from spielwerk_api.db import Base
from spielwerk_api.matches import Matches
from spielwerk_api.pg_channels import PgChannelsBackend
from spielwerk_api.problems import Problem
from sqlalchemy import text
from sqlalchemy.engine import make_url

from .conftest import bearer, new_match, postgres_admin

Client = TestClient[Litestar]


def app_on(database_url: str, clock: ManualClock) -> Litestar:
    # The sweeper's own loop sleeps for an hour: nothing ends a match behind the test's back.
    return create_app(Settings(database_url=database_url, clock=clock, sweep_interval_s=3600))


def seen_by_everyone(client: Client, match_id: str, tokens: list[str | None]) -> dict[str, Any]:
    """The match as each seat and a spectator see it, with the clocks."""
    seen = {
        str(s): client.get(f"/v1/matches/{match_id}", headers=bearer(t)).json() for s, t in enumerate(tokens)
    }
    seen["spectator"] = client.get(f"/v1/matches/{match_id}").json()
    return seen


def play_one(client: Client, match_id: str, tokens: list[str | None], rng: random.Random) -> dict[str, Any]:
    """One legal move, picked at random, by the first seat to move; the move's answer."""
    m = client.get(f"/v1/matches/{match_id}").json()
    seat = m["seats_to_move"][0]
    moves = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()["moves"]
    pick = rng.choice(moves)["move"]
    r = client.post(
        f"/v1/matches/{match_id}/moves",
        json={"version": m["version"], "move": pick},
        headers=bearer(tokens[seat]),
    )
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


@pytest.mark.parametrize("game", spielwerk.list_games())
def test_a_restart_in_the_middle_of_a_match_loses_nothing(
    database_url: str, clock: ManualClock, game: str
) -> None:
    rng = random.Random(f"restart-{game}")
    players = spielwerk.load_game(game).num_players()
    with TestClient(app_on(database_url, clock)) as client:
        match_id, tokens = new_match(
            client, game, ["p"] * players, seed=5, clock={"initial_s": 600, "increment_s": 2}
        )
        # Dog begins with the simultaneous exchange: 3 plies stop it half-way through.
        for _ in range(3 if game == "dog" else 7):
            clock.advance(rng.uniform(0.5, 4.0))
            play_one(client, match_id, tokens, rng)
        clock.advance(1.25)
        # Every seat seen now first: a seat only looking is a seat back at the table, which
        # the leave rule's countdown (rules_due) shows; then the views to compare.
        seen_by_everyone(client, match_id, tokens)
        before = seen_by_everyone(client, match_id, tokens)
    assert before["spectator"]["version"] == (3 if game == "dog" else 7)
    assert before["spectator"]["status"] == "running"

    # A new app on the same database: nothing of the old one's memory is left.
    with TestClient(app_on(database_url, clock)) as client:
        assert seen_by_everyone(client, match_id, tokens) == before
        # The clocks go on from where they were: only the seats to move lose time.
        clock.advance(3.0)
        after = client.get(f"/v1/matches/{match_id}").json()
        to_move = set(before["spectator"]["seats_to_move"])
        for s, (was, now) in enumerate(zip(before["spectator"]["clocks"], after["clocks"], strict=True)):
            assert now == pytest.approx(was - 3.0 if s in to_move else was)

        out = play_one(client, match_id, tokens, rng)
        assert out["version"] == before["spectator"]["version"] + 1
        if game == "schotten_totten":
            while out["status"] == "running":
                clock.advance(1.0)
                out = play_one(client, match_id, tokens, rng)
            assert out["status"] == "finished" and out["result"]["reason"] == "end"
        else:
            # A whole match of the others over HTTP takes long; the replay below checks
            # the plies all the same. Resigning ends it.
            seat = client.get(f"/v1/matches/{match_id}").json()["seats_to_move"][0]
            r = client.post(f"/v1/matches/{match_id}/resign", headers=bearer(tokens[seat]))
            assert r.status_code == 200, r.text
            out = r.json()
        replay = client.get(f"/v1/matches/{match_id}/replay").json()

    # The record holds every ply once, in order, and replays to the same end as the engine.
    assert [a["ply"] for a in replay["actions"]] == list(range(1, out["version"] + 1))
    state = spielwerk.load_game(game, **replay["options"]).new_initial_state(int(replay["seed"]))
    for a in replay["actions"]:
        if a["kind"] == "move":
            state.apply_action(a["action"], a["seat"])
    assert json.loads(state.serialize()) == replay["final_state"]


def test_a_bot_whose_turn_came_before_a_restart_moves_after_it(
    database_url: str, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server stopped between a person's move and the bot's answer (both are commits)."""

    async def stopped(self: Matches, m: Any) -> None:
        return None

    rng = random.Random(9)
    with monkeypatch.context() as stop:
        stop.setattr(Matches, "advance_bots", stopped)
        with TestClient(app_on(database_url, clock)) as client:
            match_id, tokens = new_match(client, "schotten_totten", ["p", "b"], seed=9)
            out = play_one(client, match_id, tokens, rng)
            assert (out["version"], out["seats_to_move"]) == (1, [1])  # the bot's turn, unplayed

    with TestClient(app_on(database_url, clock)) as client:
        # The bots move again in the background: the server serves at once (issue 21).
        portal = client.blocking_portal
        assert portal is not None
        for _ in range(500):  # on the app's loop, at most 5 s
            m = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[0])).json()
            if m["version"] == 2:
                break
            portal.call(asyncio.sleep, 0.01)
        assert (m["version"], m["seats_to_move"]) == (2, [0])
        assert play_one(client, match_id, tokens, rng)["version"] == 4


def test_a_move_stands_when_another_worker_moves_the_bot_first(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Worker a stores a person's move; worker b (starting up) moves the bot before a does."""

    async def scenario() -> None:
        engines = [db.create_engine(database_url) for _ in range(2)]
        try:
            await db.migrate(engines[0])
            clock = ManualClock()
            a, b = (Matches(e, clock, nothing) for e in engines)
            created = await a.create(
                schemas.NewMatch(
                    game="schotten_totten",
                    seed=4,
                    seats=[schemas.PersonSeat(), schemas.BotSeat(bot="random")],
                )
            )
            commit = a.commit

            async def b_first(m: Any, probe: Any) -> None:
                if probe.plies[m.version].seat == 1:  # the bot's plies: worker b gets there first
                    assert await b.resume_bots() == 1
                await commit(m, probe)

            monkeypatch.setattr(a, "commit", b_first)
            m = await a.get(created.id)
            move = m.state.legal_moves(0)[0]["move"]
            played = await a.play(created.id, 0, 0, move)  # no 409: the move was stored
            assert (played.version, played.to_move()) == (2, [0])
            assert [(p.seat, p.kind) for p in played.plies] == [(0, "move"), (1, "move")]
        finally:
            for e in engines:
                await e.dispose()

    asyncio.run(scenario())


def test_a_worker_that_missed_a_move_refuses_a_stale_one_and_takes_a_fresh_one(database_url: str) -> None:
    """Worker a holds version 0 in its cache and does not read before a move made against
    the version it holds: the conditional UPDATE alone refuses it once worker b has stored a
    ply, and the 409 names the version the match is at. A move against that version then
    goes through a (which catches up first)."""

    async def scenario() -> None:
        engines = [db.create_engine(database_url) for _ in range(2)]
        try:
            await db.migrate(engines[0])
            clock = ManualClock()
            a, b = (Matches(e, clock, nothing) for e in engines)
            created = await a.create(
                schemas.NewMatch(game="schotten_totten", seed=9, seats=[schemas.PersonSeat()] * 2)
            )
            held = await a.get(created.id)
            first = held.state.legal_moves(0)[0]["move"]
            await b.play(created.id, 0, 0, first)
            assert held.version == 0  # a has not looked since
            tried: list[int] = []
            commit = a.commit

            async def counted(m: Any, probe: Any) -> None:
                tried.append(m.version)
                await commit(m, probe)

            a.commit = counted  # type: ignore[method-assign]
            with pytest.raises(Problem) as stale:
                await a.play(created.id, 0, 0, first)
            assert tried == [0], "the move went to the conditional UPDATE without a read first"
            refused = stale.value
            assert (refused.status_code, refused.code, refused.version) == (409, "stale_version", 1)
            fresh = await a.get(created.id)
            assert fresh.version == 1
            second = fresh.state.legal_moves(1)[0]["move"]
            assert (await a.play(created.id, 1, 1, second)).version == 2
            assert [p.seat for p in (await b.get(created.id)).plies] == [0, 1]
        finally:
            for e in engines:
                await e.dispose()

    asyncio.run(scenario())


# -- URLs -------------------------------------------------------------------------------------


def test_postgres_urls_keep_their_ssl_mode_in_both_drivers_spelling() -> None:
    # libpq's spelling (what hosting services hand out) and SQLAlchemy's for asyncpg.
    for given in (
        "postgresql://u:p%40ss@db.example/x?sslmode=require",
        "postgres://u:p%40ss@db.example/x?ssl=require",
    ):
        assert db.async_url(given) == "postgresql+asyncpg://u:p%40ss@db.example/x?ssl=require"
        assert db.asyncpg_dsn(given) == "postgresql://u:p%40ss@db.example/x?sslmode=require"
    assert db.async_url("sqlite:///m.db") == "sqlite+aiosqlite:///m.db"


def test_the_server_connects_with_an_ssl_mode_in_the_url(database_url: str) -> None:
    if make_url(database_url).get_backend_name() != "postgresql":
        pytest.skip("a PostgreSQL URL's parameter")

    async def connect(url: str) -> None:
        engine = db.create_engine(url)
        try:
            async with engine.connect() as conn:
                assert (await conn.execute(text("SELECT 1"))).scalar() == 1
        finally:
            await engine.dispose()
        backend = channels_backend(Settings(database_url=url))
        assert backend is not None
        await backend.on_startup()
        await backend.on_shutdown()

    # The test cluster speaks over a unix socket, without SSL.
    for name in ("sslmode", "ssl"):
        url = make_url(database_url).update_query_dict({name: "disable"})
        asyncio.run(connect(url.render_as_string(hide_password=False)))


# -- the schema -----------------------------------------------------------------------------

MIGRATE = """
import asyncio, sys
from spielwerk_api import db

async def main(url):
    engine = db.create_engine(url)
    try:
        await db.migrate(engine)
    finally:
        await engine.dispose()

asyncio.run(main(sys.argv[1]))
"""


def test_processes_starting_together_migrate_a_fresh_database_once(database_url: str) -> None:
    """Several servers (or workers started without `spielwerk serve`) on a new database."""
    procs = [
        subprocess.Popen([sys.executable, "-c", MIGRATE, database_url], stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    errors = [p.communicate(timeout=120)[1].decode(errors="replace") for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], errors

    async def check() -> None:
        engine = db.create_engine(database_url)
        try:
            async with engine.connect() as conn:
                # Alembic's migrations build exactly the models' schema, types included.
                diff = await conn.run_sync(
                    lambda c: compare_metadata(
                        MigrationContext.configure(c, opts={"compare_type": True}), Base.metadata
                    )
                )
                assert diff == []
                versions = (
                    (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalars().all()
                )
        finally:
            await engine.dispose()
        config = Config()
        config.set_main_option("script_location", str(db.MIGRATIONS))
        assert versions == [ScriptDirectory.from_config(config).get_current_head()]

    asyncio.run(check())


# -- two workers ----------------------------------------------------------------------------


async def nothing(_match_id: str, _payload: dict[str, Any]) -> None:
    return None


def test_a_worker_catches_up_once_however_many_requests_ask_at_once(database_url: str) -> None:
    """Several requests on one worker find a ply another worker stored: it is replayed once.

    (Four event streams on one worker woke together on a note and each replayed the new
    ply into the same cached match: the second replay failed, or worse, applied it twice.)
    """

    async def scenario() -> None:
        engines = [db.create_engine(database_url) for _ in range(2)]
        try:
            await db.migrate(engines[0])
            clock = ManualClock()
            a, b = (Matches(e, clock, nothing) for e in engines)
            created = await a.create(
                schemas.NewMatch(game="the_game", seed=3, seats=[schemas.PersonSeat(), schemas.PersonSeat()])
            )
            # Worker b caches the match at version 0, with a connection open for each request.
            seen = (await asyncio.gather(*(b.get(created.id) for _ in range(4))))[0]
            state = seen.state.clone()
            seat = state.seats_to_move()[0]
            move = state.legal_moves(seat)[0]["move"]
            await a.play(created.id, seat, 0, move)

            caught = await asyncio.gather(*(b.get(created.id) for _ in range(4)))
            assert {id(m) for m in caught} == {id(seen)}
            assert seen.version == 1 and len(seen.plies) == 1
            state.apply_action(state.action_from_json(move), seat)
            assert seen.state.serialize() == state.serialize()
        finally:
            for e in engines:
                await e.dispose()

    asyncio.run(scenario())


def free_port() -> int:
    """A port nobody listens on; SPIELWERK_TEST_PORTS="18100-18199" keeps to a range."""
    wanted = os.environ.get("SPIELWERK_TEST_PORTS")
    candidates = [0]
    if wanted:
        low, _, high = wanted.partition("-")
        candidates = list(range(int(low), int(high or low) + 1))
        random.shuffle(candidates)
    for port in candidates:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            found: int = s.getsockname()[1]
            return found
    raise RuntimeError(f"no free port in SPIELWERK_TEST_PORTS={wanted}")


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[str]:
    """`spielwerk serve` with two workers on the test's database; its base URL."""
    port = free_port()
    log = (tmp_path / "server.log").open("wb")
    command = [sys.executable, "-m", "spielwerk", "serve", "--workers", "2", "--port", str(port)]
    proc = subprocess.Popen(
        [*command, "--database", database_url],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        # Bounded wait for the start (migrations, two workers importing the engine).
        for _ in range(600):
            if proc.poll() is not None:
                break
            try:
                if httpx.get(f"{base}/health", timeout=1.0).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        else:
            pytest.fail("the server did not answer /health within a minute")
        if proc.poll() is not None:
            pytest.fail(
                f"the server stopped with {proc.returncode}:\n{(tmp_path / 'server.log').read_text()}"
            )
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
    # Whatever the tests saw, a worker must not have failed on the way.
    text = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in text, text


def create_persons(base: str, game: str, seed: int) -> tuple[str, list[str]]:
    players = spielwerk.load_game(game).num_players()
    r = httpx.post(
        f"{base}/v1/matches", json={"game": game, "seed": seed, "seats": [{"kind": "person"}] * players}
    )
    assert r.status_code == 201, r.text
    out = r.json()
    return out["id"], [s["token"] for s in out["seats"]]


def at_once(
    base: str, method: str, path: str, bodies: list[tuple[dict[str, Any], dict[str, str]]]
) -> list[httpx.Response]:
    """Send each (body, headers) from its own connection, all released at the same moment."""
    ready = threading.Barrier(len(bodies))
    answers: list[httpx.Response | None] = [None] * len(bodies)
    errors: list[BaseException] = []

    def send(i: int, body: dict[str, Any], headers: dict[str, str]) -> None:
        try:
            with httpx.Client(base_url=base, timeout=60.0) as c:
                c.get("/health")  # the connection is open (and on its worker) before the race
                ready.wait()
                answers[i] = c.request(method, path, json=body, headers=headers)
        except BaseException as e:
            errors.append(e)
            ready.abort()

    threads = [threading.Thread(target=send, args=(i, *b)) for i, b in enumerate(bodies)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return [a for a in answers if a is not None]


def test_two_workers_store_one_of_two_moves_made_at_once(server: str) -> None:
    match_id, tokens = create_persons(server, "schotten_totten", seed=21)
    rng = random.Random(21)
    won: list[dict[str, Any]] = []
    for _ in range(10):
        m = httpx.get(f"{server}/v1/matches/{match_id}").json()
        seat = m["seats_to_move"][0]
        auth = bearer(tokens[seat])
        moves = httpx.get(f"{server}/v1/matches/{match_id}/moves", headers=auth).json()["moves"]
        body = {"version": m["version"], "move": rng.choice(moves)["move"]}
        answers = at_once(server, "POST", f"/v1/matches/{match_id}/moves", [(body, auth), (body, auth)])
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [200, 409], [a.text for a in answers]
        loser = next(a for a in answers if a.status_code == 409)
        assert loser.json()["code"] == "stale_version"
        winner = next(a for a in answers if a.status_code == 200)
        assert winner.json()["version"] == m["version"] + 1
        won.append(body["move"])

    seat = httpx.get(f"{server}/v1/matches/{match_id}").json()["seats_to_move"][0]
    assert (
        httpx.post(f"{server}/v1/matches/{match_id}/resign", headers=bearer(tokens[seat])).status_code == 200
    )
    replay = httpx.get(f"{server}/v1/matches/{match_id}/replay").json()
    # Each race stored exactly one ply: the moves that won, once each, in order.
    assert [a["ply"] for a in replay["actions"]] == list(range(1, len(won) + 2))
    assert [a["move"] for a in replay["actions"][:-1]] == won
    assert replay["actions"][-1]["kind"] == "resigned"


def sse(response: httpx.Response) -> Iterator[tuple[str, dict[str, Any]]]:
    """The (event, data) pairs of a server-sent event stream."""
    event, data = "message", []
    for line in response.iter_lines():
        if line.startswith("event:"):
            event = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].lstrip())
        elif not line and data:
            yield event, json.loads("\n".join(data))
            event, data = "message", []


def test_events_reach_streams_on_every_worker(server: str, database_url: str) -> None:
    if make_url(database_url).get_backend_name() != "postgresql":
        pytest.skip("two workers share events through PostgreSQL's LISTEN/NOTIFY only")
    match_id, tokens = create_persons(server, "the_game", seed=3)
    timeout = httpx.Timeout(10.0, read=30.0)
    # Four streams on four connections: the two workers almost surely both hold some.
    streams = []
    with httpx.Client(base_url=server, timeout=timeout) as poster:
        clients = [httpx.Client(base_url=server, timeout=timeout) for _ in range(4)]
        try:
            for i, c in enumerate(clients):
                r = c.send(
                    c.build_request("GET", f"/v1/matches/{match_id}/events", headers=bearer(tokens[i % 2])),
                    stream=True,
                )
                assert r.status_code == 200
                events = sse(r)
                # The first event is the version at subscription: the LISTEN is in place.
                kind, first = next(events)
                assert (kind, first["version"]) == ("version", 0)
                streams.append((r, events))

            # Table talk reaches the streams of both workers: through the channel at once
            # (the look at the database every 15 s is only the fallback for lost notes).
            said = poster.post(
                f"/v1/matches/{match_id}/chat",
                json={"text": "careful with the low pile"},
                headers=bearer(tokens[0]),
            )
            assert said.status_code == 201, said.text
            for _, events in streams:
                kind, note = next(events)
                assert (kind, note["text"], note["seat"]) == ("chat", "careful with the low pile", 0)

            m = poster.get(f"/v1/matches/{match_id}").json()
            seat = m["seats_to_move"][0]
            moves = poster.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()["moves"]
            r = poster.post(
                f"/v1/matches/{match_id}/moves",
                json={"version": 0, "move": moves[0]["move"]},
                headers=bearer(tokens[seat]),
            )
            assert r.status_code == 200, r.text
            for i, (_, events) in enumerate(streams):
                kind, view = next(events)
                assert (kind, view["version"], view["seat"]) == ("version", 1, i % 2)
        finally:
            for r, _ in streams:
                r.close()
            for c in clients:
                c.close()


def test_notes_go_out_on_one_connection_that_is_renewed_when_lost(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if make_url(database_url).get_backend_name() != "postgresql":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")

    async def scenario() -> None:
        backend = channels_backend(Settings(database_url=database_url))
        assert isinstance(backend, PgChannelsBackend)
        opened = 0
        connect = backend._connect

        async def counted() -> Any:
            nonlocal opened
            opened += 1
            return await connect()

        monkeypatch.setattr(backend, "_connect", counted)
        await backend.on_startup()
        try:
            await backend.subscribe(["match_a"])
            heard = backend.stream_events()

            async def publish_and_hear(note: bytes) -> None:
                await backend.publish(note, ["match_a"])
                assert await asyncio.wait_for(anext(heard), 30) == ("match_a", note)

            for i in range(10):
                await publish_and_hear(f"note {i}".encode())
            assert opened == 2  # the listener's connection and the publisher's, not one per note

            # The server ends the publishing connection (as a restart or an idle timeout
            # would): the next note goes out on a new one instead of failing.
            await postgres_admin(f"SELECT pg_terminate_backend({backend.publisher.get_server_pid()})")
            await publish_and_hear(b"after the loss")
            assert opened == 3
        finally:
            await backend.on_shutdown()

    asyncio.run(scenario())


def test_a_lost_listening_connection_is_renewed(database_url: str) -> None:
    if make_url(database_url).get_backend_name() != "postgresql":
        pytest.skip("LISTEN/NOTIFY is PostgreSQL's")

    async def scenario() -> None:
        backend = channels_backend(Settings(database_url=database_url))
        assert isinstance(backend, PgChannelsBackend)
        await backend.on_startup()
        try:
            await backend.subscribe(["match_a"])
            # A task reads the notes: waiting on the stream itself with a timeout would
            # close it at the first timeout.
            heard: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue()

            async def pump() -> None:
                async for note in backend.stream_events():
                    await heard.put(note)

            pumping = asyncio.create_task(pump())

            async def heard_again(channel: str, note: bytes) -> None:
                # Notes sent while nobody listened are gone: send until one arrives
                # (bounded; the new connection comes within moments).
                for _ in range(60):
                    await backend.publish(note, [channel])
                    try:
                        got = await asyncio.wait_for(heard.get(), 0.5)
                    except TimeoutError:
                        continue
                    assert got == (channel, note)
                    return
                pytest.fail(f"no note on {channel} after the listener was lost")

            async def lose_listener() -> None:
                lost = backend.listener
                await postgres_admin(f"SELECT pg_terminate_backend({lost.get_server_pid()})")
                while not lost.is_closed():  # the server's goodbye arrives at once
                    await asyncio.sleep(0.01)

            # A stream opening after the loss subscribes on a new connection, and the old
            # channels are listened to again.
            await lose_listener()
            await backend.subscribe(["match_b"])
            for channel in ("match_a", "match_b"):
                await heard_again(channel, f"on {channel}".encode())
            # Without any new stream, the listener comes back by itself.
            await lose_listener()
            await heard_again("match_a", b"by itself")
            pumping.cancel()
        finally:
            await backend.on_shutdown()

    asyncio.run(scenario())
