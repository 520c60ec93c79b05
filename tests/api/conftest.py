"""Fixtures of the web API's tests: an app on a fresh database with a clock that tests move."""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api import Settings, create_app
from spielwerk_api.clock import ManualClock
from spielwerk_api.db import async_url
from spielwerk_api.matches import Matches
from sqlalchemy import NullPool, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

# The URL of a PostgreSQL database the tests may create databases next to; scripts/postgres
# sets it for the command it runs.
POSTGRES = os.environ.get("SPIELWERK_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database of each kind: every test that uses it runs on both."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'spielwerk.db'}"
        return
    if not POSTGRES:
        pytest.skip("needs PostgreSQL: run `scripts/postgres run -- python3 -m pytest tests/api`")
    # A database of its own per test, so no test ever sees another's rows.
    name = f"test_{secrets.token_hex(8)}"
    asyncio.run(postgres_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        # FORCE: a server subprocess or a pooled connection may still be connected.
        asyncio.run(postgres_admin(f'DROP DATABASE "{name}" WITH (FORCE)'))


async def postgres_admin(sql: str) -> None:
    """Run one statement outside a transaction (CREATE and DROP DATABASE need that)."""
    assert POSTGRES is not None
    engine = create_async_engine(async_url(POSTGRES), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        async with engine.connect() as conn:
            await conn.execute(text(sql))
    finally:
        await engine.dispose()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def app(database_url: str, clock: ManualClock) -> Litestar:
    # The sweeper's own loop sleeps for an hour: tests call sweep() themselves. Whole
    # matches over HTTP send requests faster than a client may (test_limits.py tests that).
    return create_app(
        Settings(database_url=database_url, clock=clock, sweep_interval_s=3600, client_rate_per_s=0)
    )


@pytest.fixture
def client(app: Litestar) -> Iterator[TestClient[Litestar]]:
    with TestClient(app) as c:
        yield c


@pytest.fixture
def live(app: Litestar) -> Iterator[str]:
    """The app served by Uvicorn on a free loopback port, in a thread: for event streams,
    which the in-process test client cannot read while they are open."""
    with serve_in_thread(app) as url:
        yield url


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextlib.contextmanager
def serve_in_thread(app: Litestar) -> Iterator[str]:
    """``app`` served by Uvicorn with the protocol `spielwerk serve` runs, in a thread."""
    import threading
    import time

    import uvicorn
    from spielwerk_api.cli import PROTOCOL

    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", **PROTOCOL)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@contextlib.contextmanager
def spielwerk_serve(database_url: str, env: dict[str, str] | None = None) -> Iterator[str]:
    """``python -m spielwerk serve`` on a free loopback port, as a process of its own (stopped
    by its PID): the server exactly as an operator starts it, with ``env`` on top."""
    import signal
    import subprocess
    import sys
    import time

    import httpx

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    environment = {**os.environ, **(env or {})}
    command = [sys.executable, "-m", "spielwerk", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--database", database_url]
    # Its output goes to a file: a pipe nobody reads would stop the server once full.
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 30
            while True:
                if process.poll() is not None:
                    log.seek(0)
                    pytest.fail("the server stopped: " + log.read().decode(errors="replace")[-2000:])
                assert time.monotonic() < deadline, "the server did not answer within 30 s"
                try:
                    if httpx.get(url + "/health", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.05)
            yield url
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def service(client: TestClient[Litestar]) -> Matches:
    matches: Matches = client.app.state.matches
    return matches


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def new_match(
    client: TestClient[Litestar], game: str, seats: list[str], **extra: Any
) -> tuple[str, list[str | None]]:
    """A match with a person ("p") or random bot ("b") at each seat; its id and tokens."""
    body = {
        "game": game,
        "seats": [{"kind": "person"} if s == "p" else {"kind": "bot", "bot": "random"} for s in seats],
        **extra,
    }
    r = client.post("/v1/matches", json=body)
    assert r.status_code == 201, r.text
    out = r.json()
    return out["id"], [s["token"] for s in out["seats"]]
