"""Strangers who send too much or too slowly, and idle event streams (issue 21, items 6 and 7).

The head and read-time limits are the server's (``spielwerk serve``'s protocol): those tests
run ``python -m spielwerk serve`` as a process of its own, with short limits so each takes a
second or two. Every read has a bound, so a server that never answers fails the test instead
of hanging it.
"""

from __future__ import annotations

import asyncio
import json
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api import Settings, create_app
from spielwerk_api.clock import ManualClock
from spielwerk_api.matches import Matches
from spielwerk_api.problems import preferred_language
from spielwerk_api.serving import head_language
from spielwerk_api.streams import Watch

from .conftest import bearer, serve_in_thread, spielwerk_serve
from .test_events import events, new_match

# Short limits for the served process, so that a test waits a second, not ten.
LIMITS = {"SPIELWERK_HEAD_TIMEOUT_S": "1", "SPIELWERK_BODY_TIMEOUT_S": "1"}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = f"sqlite:///{tmp_path_factory.mktemp('served') / 'spielwerk.db'}"
    with spielwerk_serve(database, LIMITS) as url:
        yield url


def address(url: str) -> tuple[str, int]:
    host, port = url.removeprefix("http://").split(":")
    return host, int(port)


def answer_of(sock: socket.socket, within: float) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection (bounded by ``within``
    seconds), and how long after the call the connection closed."""
    start = time.monotonic()
    received = b""
    while time.monotonic() - start < within:
        ready, _, _ = select.select([sock], [], [], 0.05)
        if not ready:
            continue
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        received += chunk
    else:
        pytest.fail(f"the connection was still open after {within} s; received {received[:200]!r}")
    return received, time.monotonic() - start


def problem_of(answer: bytes) -> tuple[int, dict[str, str], dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {k.lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    return status, headers, json.loads(body)


# -- item 6: heads and slow clients ----------------------------------------------------------


def test_a_huge_header_is_refused_before_it_is_read(served: str) -> None:
    """A 5 MB Accept-Language: 431 after the first few KiB, never read whole or parsed."""
    with socket.create_connection(address(served), timeout=10) as sock:
        sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: spielwerk\r\nAccept-Language: ")
        chunk = b"de-DE;q=0.9, " * 5000  # 65,000 bytes
        sent = 0
        try:
            while sent < 5_000_000:
                ready, _, _ = select.select([sock], [], [], 0)
                if ready:  # the server answered already
                    break
                sock.sendall(chunk)
                sent += len(chunk)
            else:
                sock.sendall(b"\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer, _ = answer_of(sock, within=10)
    status, headers, problem = problem_of(answer)
    assert status == 431
    assert headers["content-type"] == "application/problem+json"
    assert headers["connection"] == "close"
    # The head asked for German (its first bytes): the refusal is German, as the app's are.
    assert problem["code"] == "headers_too_large" and "16384 Bytes" in problem["detail"]
    assert problem["title"] == "Kopfzeilen zu groß"
    # The limit is the head's: a request with ordinary headers is served as before.
    assert httpx.get(served + "/v1/games", headers={"Accept-Language": "de"}).status_code == 200


def test_headers_sent_slowly_are_cut_off_with_408(served: str) -> None:
    with socket.create_connection(address(served), timeout=10) as sock:
        sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: spielwerk\r\n")
        start = time.monotonic()
        # A header line every 0.2 s (a slowloris): each byte would reset a keep-alive timer.
        for i in range(25):
            ready, _, _ = select.select([sock], [], [], 0.2)
            if ready:
                break
            try:
                sock.sendall(f"X-Slow-{i}: 1\r\n".encode())
            except (BrokenPipeError, ConnectionResetError):
                break
        answer, _ = answer_of(sock, within=5)
        closed_after = time.monotonic() - start
    status, _, problem = problem_of(answer)
    assert status == 408 and problem["code"] == "request_timeout"
    assert "headers" in problem["detail"] and "1 s" in problem["detail"]
    # The limit is 1 s here (10 s by default): the connection is closed soon after it.
    assert closed_after < 4


def test_a_huge_header_is_refused_in_english_unless_german_is_asked(served: str) -> None:
    with socket.create_connection(address(served), timeout=10) as sock:
        sock.sendall(b"GET /v1/games HTTP/1.1\r\nHost: spielwerk\r\nX-Big: " + b"x" * 20_000)
        answer, _ = answer_of(sock, within=10)
    status, _, problem = problem_of(answer)
    assert status == 431 and problem["title"] == "Request Header Fields Too Large"
    assert "16384 bytes" in problem["detail"]


@pytest.mark.parametrize(
    ("head", "title", "detail"),
    [
        (b"Accept-Language: de\r\n", "Zeitüberschreitung", "binnen 1 s an (der Rumpf)"),
        (b"", "Request Timeout", "body did not arrive within 1 s"),
    ],
)
def test_a_slow_body_is_refused_in_the_heads_language(
    served: str, head: bytes, title: str, detail: str
) -> None:
    with socket.create_connection(address(served), timeout=10) as sock:
        sock.sendall(
            b"POST /v1/games/schotten_totten/new HTTP/1.1\r\nHost: spielwerk\r\n"
            + head
            + b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        answer, _ = answer_of(sock, within=5)
    status, _, problem = problem_of(answer)
    assert (status, problem["title"]) == (408, title) and detail in problem["detail"]


def test_the_language_of_a_refusal_comes_from_the_heads_first_bytes() -> None:
    """Before the head is parsed only its first bytes tell the language: ``?lang=`` in the
    request line first, then Accept-Language, English otherwise (as ``language()``)."""
    assert head_language(b"GET /v1/games?lang=de HTTP/1.1\r\nAccept-Language: en\r\n") == "de"
    assert head_language(b"GET /v1/games HTTP/1.1\r\nHost: x\r\naccept-language: de-CH, en;q=0.5\r\n") == "de"
    assert head_language(b"GET /v1/games HTTP/1.1\r\nAccept-Language: fr, en\r\n") == "en"
    assert head_language(b"GET /v1/games?lang=xx HTTP/1.1\r\nHost") == "en"
    assert head_language(b"") == "en"
    assert head_language(b"\xff\xfe garbage \r\n:::\r\n") == "en"


def test_a_body_sent_slowly_is_cut_off_with_408(served: str) -> None:
    with socket.create_connection(address(served), timeout=10) as sock:
        sock.sendall(
            b"POST /v1/games/schotten_totten/new HTTP/1.1\r\nHost: spielwerk\r\n"
            b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        answer, closed_after = answer_of(sock, within=5)
    status, _, problem = problem_of(answer)
    assert status == 408 and problem["code"] == "request_timeout" and "body" in problem["detail"]
    assert closed_after < 4


def test_a_connection_that_sends_nothing_is_closed(served: str) -> None:
    with socket.create_connection(address(served), timeout=10) as sock:
        answer, closed_after = answer_of(sock, within=5)
    assert problem_of(answer)[0] == 408
    assert closed_after < 4


def test_the_app_refuses_large_heads_under_any_server(client: TestClient[Litestar]) -> None:
    """The ASGI guard: the same limit where no spielwerk protocol runs (here, the test client)."""
    r = client.get("/v1/games", headers={"Accept-Language": "de," * 6000})
    assert r.status_code == 431
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == "headers_too_large"
    assert client.get("/v1/games", headers={"Accept-Language": "de"}).status_code == 200


def test_accept_language_is_read_only_at_its_start() -> None:
    """The client's first entries decide; an entry thousands of bytes in is never reached."""

    assert preferred_language("fr, de;q=0.5") == "de"
    assert preferred_language("fr;q=0.9, " * 2000 + "de") == "en"
    assert preferred_language("de;q=0." + "9" * 10_000) == "de"


def test_the_default_limits_end_slow_requests_well_before_30_seconds() -> None:
    settings = Settings()
    assert settings.head_timeout_s <= 10 and settings.body_timeout_s <= 10
    assert settings.max_header_bytes == 16 * 1024


# -- item 7: idle event streams --------------------------------------------------------------


def counting_reads(matches: Matches) -> list[str]:
    """Every read of a match from the database by this worker, from now on."""
    reads: list[str] = []
    get = matches.get

    async def counted(match_id: str) -> Any:
        reads.append(match_id)
        return await get(match_id)

    matches.get = counted  # type: ignore[method-assign]
    return reads


def test_idle_streams_read_nothing_until_a_version_is_stored(app: Litestar, live: str) -> None:
    with httpx.Client(base_url=live, timeout=10) as http:
        match_id, tokens = new_match(http, "schotten_totten", ["p", "p"], seed=9)
        moves = http.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[0])).json()["moves"]
        reads = counting_reads(app.state.matches)
        opened = []
        try:
            for _ in range(3):
                r = http.send(http.build_request("GET", f"/v1/matches/{match_id}/events"), stream=True)
                received = events(r.iter_lines())
                assert next(received)[1]["version"] == 0
                opened.append((r, received))
            before = len(reads)
            # Longer than the three seconds after which every stream used to read the match.
            time.sleep(3.5)
            assert len(reads) == before, "idle streams read the database"
            moved = http.post(
                f"/v1/matches/{match_id}/moves",
                headers=bearer(tokens[0]),
                json={"version": 0, "move": moves[0]["move"]},
            )
            assert moved.status_code == 200
            for _, received in opened:
                kind, event = next(received)
                assert (kind, event["version"]) == ("version", 1)
        finally:
            for r, _ in opened:
                r.close()


def test_streams_read_only_a_version_their_worker_does_not_have() -> None:
    """A version this worker holds is taken from its cache; one the worker has not seen is
    read once for all the streams of the match."""

    class Worker:
        def __init__(self) -> None:
            self.cached = SimpleNamespace(id="m", version=3)
            self.reads = 0

        async def known(self, match_id: str) -> Any:
            return self.cached

        async def get(self, match_id: str) -> Any:
            self.reads += 1
            await asyncio.sleep(0.01)
            self.cached = SimpleNamespace(id="m", version=5)
            return self.cached

    async def run() -> None:
        worker = Worker()
        watch = Watch("m", 3)
        assert (await watch.latest(worker)).version == 3  # type: ignore[arg-type]
        assert worker.reads == 0
        watch.version = 5  # a note from another worker
        seen = await asyncio.gather(*(watch.latest(worker) for _ in range(50)))  # type: ignore[arg-type]
        assert {m.version for m in seen} == {5} and worker.reads == 1
        assert (await watch.latest(worker)).version == 5 and worker.reads == 1  # type: ignore[arg-type]

    asyncio.run(run())


def open_stream(
    http: httpx.Client,
    opened: list[tuple[httpx.Response, Iterator[Any]]],
    match_id: str,
    token: str | None = None,
) -> httpx.Response:
    """Opens a match's event stream; an opened one stays in ``opened`` with its reader
    (dropping the reader would close the stream), a refused one is read to its end."""
    request = http.build_request("GET", f"/v1/matches/{match_id}/events", headers=bearer(token))
    r = http.send(request, stream=True)
    if r.status_code == 200:
        received = events(r.iter_lines())
        assert next(received)[0] == "version"
        opened.append((r, received))
    else:
        r.read()
    return r


def test_a_worker_holds_a_bounded_number_of_streams(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'streams.db'}",
        clock=ManualClock(),
        sweep_interval_s=3600,
        max_streams=3,
        max_streams_per_match=2,
    )
    app = create_app(settings)
    with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=10) as http:
        first, _ = new_match(http, "schotten_totten", ["p", "p"], seed=1)
        second, _ = new_match(http, "schotten_totten", ["p", "p"], seed=2)
        opened: list[tuple[httpx.Response, Iterator[Any]]] = []

        def stream(match_id: str) -> httpx.Response:
            return open_stream(http, opened, match_id)

        try:
            assert stream(first).status_code == 200
            assert stream(first).status_code == 200
            refused = stream(first)
            assert refused.status_code == 503
            assert refused.headers["content-type"] == "application/problem+json"
            assert int(refused.headers["retry-after"]) > 0
            assert refused.json()["code"] == "too_many_streams"
            assert "match" in refused.json()["detail"]
            assert stream(second).status_code == 200
            full = stream(second)
            assert full.status_code == 503 and "worker" in full.json()["detail"]
            # A closed stream gives its place back.
            opened.pop(0)[0].close()
            deadline = time.monotonic() + 5
            while app.state.streams.total > 2:
                assert time.monotonic() < deadline, "a closed stream kept its place"
                time.sleep(0.02)
            assert stream(first).status_code == 200
        finally:
            for r, _ in opened:
                r.close()


def test_a_seat_always_opens_its_stream_and_one_client_holds_a_bounded_share(tmp_path: Path) -> None:
    """Issue 34, item 2: one client opened every stream of a worker, and 512 spectators locked
    the seats out of their own match. Spectators count against the caps, per client too; a
    seat's own stream opens whatever the spectators hold (up to its tabs)."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'seats.db'}",
        clock=ManualClock(),
        sweep_interval_s=3600,
        max_streams=3,
        max_streams_per_match=2,
        max_streams_per_client=2,
    )
    app = create_app(settings)
    with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=10) as http:
        match_id, tokens = new_match(http, "schotten_totten", ["p", "p"], seed=1)
        other_id, _ = new_match(http, "schotten_totten", ["p", "p"], seed=2)
        opened: list[tuple[httpx.Response, Iterator[Any]]] = []

        def stream(match_id: str, token: str | None = None) -> httpx.Response:
            return open_stream(http, opened, match_id, token)

        try:
            assert [stream(match_id).status_code for _ in range(2)] == [200, 200]
            # The match's spectators are full, and so is this client's share...
            assert stream(match_id).status_code == 503
            mine = stream(other_id)
            assert mine.status_code == 429 and mine.json()["code"] == "too_many_streams"
            assert "client" in mine.json()["detail"]
            # ...but both seats open their own streams, each in two tabs.
            for token in tokens:
                assert [stream(match_id, token).status_code for _ in range(2)] == [200, 200]
            assert app.state.streams.total == 6
        finally:
            for r, _ in opened:
                r.close()


def test_table_talk_is_read_once_per_message_for_all_streams_of_a_match(tmp_path: Path) -> None:
    """Issue 34, item 3: every stream read every message itself (500 streams, 200 messages:
    115 s of CPU). Now the match's watch reads each new message once for all its streams."""
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'talk.db'}", sweep_interval_s=3600, client_rate_per_s=0
    )
    app = create_app(settings)
    with serve_in_thread(app) as url, httpx.Client(base_url=url, timeout=10) as http:
        match_id, tokens = new_match(http, "caravan", ["p", "p"], seed=1)
        talk = app.state.matches.talk
        reads = 0
        read = talk.log

        async def counted(*args: Any, **kwargs: Any) -> Any:
            nonlocal reads
            reads += 1
            return await read(*args, **kwargs)

        talk.log = counted
        opened: list[tuple[httpx.Response, Iterator[Any]]] = []
        try:
            for _ in range(12):
                r = http.send(http.build_request("GET", f"/v1/matches/{match_id}/events"), stream=True)
                received = events(r.iter_lines())
                assert next(received)[0] == "version"
                opened.append((r, received))
            for n in range(5):
                said = http.post(
                    f"/v1/matches/{match_id}/chat", headers=bearer(tokens[0]), json={"text": f"Nachricht {n}"}
                )
                assert said.status_code == 201, said.text
                for _, received in opened:
                    kind, data = next(received)
                    assert (kind, data["text"]) == ("chat", f"Nachricht {n}")
            # One read per message (and at most one more where a read met a message said
            # meanwhile), not one per stream and message (60).
            assert reads <= 10, reads
        finally:
            for r, _ in opened:
                r.close()


def test_streams_on_sqlite_with_several_workers_hear_of_the_others_versions(tmp_path: Path) -> None:
    """Two workers on one SQLite file: their notes cannot reach each other, so each worker
    looks at the versions of the matches its streams watch (once for all of them)."""
    url = f"sqlite:///{tmp_path / 'two.db'}"
    apps = [
        create_app(Settings(database_url=url, sweep_interval_s=3600, workers=2, stream_poll_s=0.2))
        for _ in range(2)
    ]
    with (
        serve_in_thread(apps[0]) as one,
        serve_in_thread(apps[1]) as two,
        httpx.Client(base_url=one, timeout=10) as first,
        httpx.Client(base_url=two, timeout=10) as other,
    ):
        match_id, tokens = new_match(first, "schotten_totten", ["p", "p"], seed=4)
        with first.stream("GET", f"/v1/matches/{match_id}/events") as r:
            received = events(r.iter_lines())
            assert next(received)[1]["version"] == 0
            moves = other.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[0])).json()
            moved = other.post(
                f"/v1/matches/{match_id}/moves",
                headers=bearer(tokens[0]),
                json={"version": 0, "move": moves["moves"][0]["move"]},
            )
            assert moved.status_code == 200
            kind, event = next(received)
            assert (kind, event["version"]) == ("version", 1)
