"""How the app is served: the CLI's options, SQLite's writers, the engine's game cache."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import spielwerk
from spielwerk.__main__ import main
from spielwerk_api import db, engine
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
    assert main(["serve", "--port", "18299", "--workers", "2", "--database", database, *flags]) == 0
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
            async with matches.writing():
                order.append("first in")
                first_in.set()
                await release.wait()
                order.append("first out")

        async def second() -> None:
            await first_in.wait()
            async with matches.writing():
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
