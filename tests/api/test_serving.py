"""How the app is served: the CLI's options, SQLite's writers, the engine's game cache."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import spielwerk
from spielwerk_api import db, engine
from spielwerk_api.cli import main
from spielwerk_api.clock import ManualClock
from spielwerk_api.matches import Matches


@pytest.mark.parametrize(("flags", "logged"), [([], False), (["--access-log"], True)])
def test_serve_logs_each_request_only_when_asked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, flags: list[str], logged: bool
) -> None:
    """A line per request takes about a tenth of a worker's time under load (benches/README.md)."""
    import uvicorn

    started: dict[str, Any] = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: started.update(app=app, **kwargs))
    # serve() hands the settings to the workers through the environment; keep it unchanged.
    monkeypatch.setenv("DATABASE_URL", "unused")
    monkeypatch.setenv("SPIELWERK_MIGRATE", "1")
    database = f"sqlite:///{tmp_path / 'served.db'}"
    assert main(["--port", "18299", "--workers", "2", "--database", database, *flags]) == 0
    assert started["access_log"] is logged
    assert (started["app"], started["factory"], started["workers"], started["port"]) == (
        "spielwerk_api.app:create_app",
        True,
        2,
        18299,
    )
    # The database was migrated once before the workers start.
    assert (tmp_path / "served.db").exists()


def test_one_sqlite_writer_at_a_time_per_worker(tmp_path: Path) -> None:
    """A second write transaction waits for the first in turn, not in SQLite's busy handler."""

    async def run() -> list[str]:
        engine_ = db.create_engine(f"sqlite:///{tmp_path / 'w.db'}")
        await db.migrate(engine_)

        async def publish(match_id: str, payload: dict[str, Any]) -> None:
            pass

        matches = Matches(engine_, ManualClock(), publish)
        order: list[str] = []
        first_in = asyncio.Event()
        release = asyncio.Event()

        async def first() -> None:
            async with matches.store.writing():
                order.append("first in")
                first_in.set()
                await release.wait()
                order.append("first out")

        async def second() -> None:
            await first_in.wait()
            async with matches.store.writing():
                order.append("second in")

        tasks = [asyncio.create_task(first()), asyncio.create_task(second())]
        try:
            # A bound only so that a broken writer fails the test instead of hanging it.
            await asyncio.wait_for(first_in.wait(), timeout=60)
            # Give the second every chance to enter while the first is still writing.
            for _ in range(20):
                await asyncio.sleep(0)
            release.set()
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=60)
        finally:
            for task in tasks:
                task.cancel()
            await engine_.dispose()
        return order

    assert asyncio.run(run()) == ["first in", "first out", "second in"]


def test_the_game_cache_serves_no_options_and_options_alike() -> None:
    assert engine.load_game("schotten-totten", {}) is engine.load_game("schotten_totten", None)
    assert engine.load_game("schotten_totten").options() == spielwerk.load_game("schotten_totten").options()
    reshuffle = engine.load_game("caravan", {"reshuffle": True})
    assert reshuffle.options()["reshuffle"] is True
    assert engine.load_game("caravan", {}).options()["reshuffle"] is False
    assert reshuffle is engine.load_game("caravan", {"reshuffle": True})


def test_a_worker_behind_takes_the_next_move_on_the_version_another_stored(tmp_path: Path) -> None:
    """Two workers on one database: the seat is found from a cached match that is behind, the
    move is still checked against the version stored by the other worker."""
    from litestar.testing import TestClient
    from spielwerk_api import Settings, create_app

    url = f"sqlite:///{tmp_path / 'two.db'}"
    settings = [Settings(database_url=url, clock=ManualClock(), sweep_interval_s=3600) for _ in range(2)]
    apps = [create_app(s) for s in settings]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        body = {"game": "schotten_totten", "seed": 5, "seats": [{"kind": "person"}, {"kind": "person"}]}
        created = one.post("/v1/matches", json=body).json()
        match_id, tokens = created["id"], [s["token"] for s in created["seats"]]
        truth = spielwerk.load_game("schotten_totten").new_initial_state(5)

        def play(client: TestClient[Any], version: int) -> Any:
            seat = truth.current_player()
            pick = truth.legal_moves()[0]
            r = client.post(
                f"/v1/matches/{match_id}/moves",
                json={"version": version, "move": pick["move"]},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            if r.status_code == 200:
                truth.apply_action(pick["action"])
            return r

        # The second worker caches the match at version 0, then the first stores two moves.
        assert two.get(f"/v1/matches/{match_id}").json()["version"] == 0
        assert play(one, 0).status_code == 200
        assert play(one, 1).status_code == 200
        # The second worker's copy is behind: a move against version 1 is stale, against 2 it counts.
        stale = play(two, 1)
        assert stale.status_code == 409 and stale.json()["version"] == 2
        moved = play(two, 2)
        assert moved.status_code == 200, moved.text
        assert moved.json()["version"] == 3
        assert moved.json()["view"] == truth.view(moved.json()["seat"])
        # A token of another match opens no seat here, however the match was found.
        wrong = two.post(
            f"/v1/matches/{match_id}/moves",
            json={"version": 3, "move": truth.legal_moves()[0]["move"]},
            headers={"Authorization": "Bearer not-a-token"},
        )
        assert wrong.status_code == 403


def test_the_engines_serve_runs_the_apis_own_command_line() -> None:
    """`spielwerk serve` hands its arguments to `python -m spielwerk_api` (the engine never
    imports the web API): the API's help, and its refusal of an unknown option."""
    import subprocess
    import sys

    shown = subprocess.run(
        [sys.executable, "-m", "spielwerk", "serve", "--help"], capture_output=True, text=True, timeout=60
    )
    assert shown.returncode == 0 and "--database" in shown.stdout and "--access-log" in shown.stdout
    wrong = subprocess.run(
        [sys.executable, "-m", "spielwerk", "serve", "--colour", "red"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode == 2 and "--colour" in wrong.stderr
