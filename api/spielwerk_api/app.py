"""The Litestar app: ``create_app(Settings(...))``.

The app moves JSON, tokens and time; every rule, view and reason is the engine's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from litestar import Litestar, get
from litestar.channels import ChannelsPlugin
from litestar.channels.backends.base import ChannelsBackend
from litestar.channels.backends.memory import MemoryChannelsBackend
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, ScalarRenderPlugin
from litestar.openapi.spec import Server
from litestar.response import File
from litestar.static_files import create_static_files_router

from . import db, schemas
from .clock import Clock, SystemClock
from .match_routes import MatchRoutes, channel
from .matches import Matches
from .problems import EXCEPTION_HANDLERS
from .rules import BotMoves, GameRules, SchottenTottenRules, TheGameRules

log = logging.getLogger("spielwerk_api")

DEFAULT_DATABASE = "sqlite:///spielwerk.db"

# The web page: plain HTML, CSS and JavaScript modules, served as they are (no build step).
STATIC = Path(__file__).parent / "static"


@dataclass
class Settings:
    """What an operator may set; ``from_env`` reads ``DATABASE_URL`` and friends."""

    database_url: str = DEFAULT_DATABASE
    # Request bodies above this are refused with 413 before they are read whole.
    max_body_bytes: int = 64 * 1024
    # How often the server looks for matches a match rule has ended (C11, D13).
    sweep_interval_s: float = 1.0
    migrate: bool = True
    clock: Clock = field(default_factory=SystemClock)

    @classmethod
    def from_env(cls) -> Settings:
        return cls(
            database_url=os.environ.get("DATABASE_URL", DEFAULT_DATABASE),
            max_body_bytes=int(os.environ.get("SPIELWERK_MAX_BODY_BYTES", 64 * 1024)),
            migrate=os.environ.get("SPIELWERK_MIGRATE", "1") != "0",
        )


@get("/", include_in_schema=False)
async def index() -> File:
    # The page uses only the public API; its scripts and styles are under /static.
    return File(
        STATIC / "index.html", media_type="text/html; charset=utf-8", content_disposition_type="inline"
    )


@get("/health", include_in_schema=False)
async def health() -> dict[str, str]:
    return {"status": "ok"}


def channels_backend(settings: Settings) -> ChannelsBackend:
    """Events reach every worker: PostgreSQL's LISTEN/NOTIFY, or memory on SQLite (one process)."""
    if db.is_sqlite(settings.database_url):
        return MemoryChannelsBackend()
    from .pg_channels import PgChannelsBackend

    return PgChannelsBackend(dsn=db.asyncpg_dsn(settings.database_url))


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    channels = ChannelsPlugin(backend=channels_backend(settings), arbitrary_channels_allowed=True)
    holder: dict[str, Matches] = {}

    async def publish(match_id: str, payload: dict[str, Any]) -> None:
        channels.publish(schemas.encode(payload), channels=[channel(match_id)])

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncGenerator[None, None]:
        engine = db.create_engine(settings.database_url)
        if settings.migrate:
            await db.migrate(engine)
        service = Matches(engine, settings.clock, publish)
        holder["matches"] = service
        app.state.matches = service
        sweeper = asyncio.create_task(sweep_forever(service, settings.sweep_interval_s))
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper
            service.close()
            await engine.dispose()

    def provide_matches() -> Matches:
        return holder["matches"]

    async def resume_bots() -> None:
        # A startup hook, not part of `lifespan`: the bots' moves are published, and the
        # channels plugin starts after the lifespan context managers.
        await holder["matches"].resume_bots()

    return Litestar(
        route_handlers=[
            GameRules,
            BotMoves,
            SchottenTottenRules,
            TheGameRules,
            MatchRoutes,
            index,
            health,
            create_static_files_router(path="/static", directories=[STATIC]),
        ],
        dependencies={"matches": Provide(provide_matches, sync_to_thread=False)},
        plugins=[channels],
        lifespan=[lifespan],
        on_startup=[resume_bots],
        exception_handlers=EXCEPTION_HANDLERS,
        request_max_body_size=settings.max_body_bytes,
        openapi_config=OpenAPIConfig(
            title="spielwerk",
            version="1",
            description=(
                "Rule checks and matches for Schotten Totten, Caravan, The Game and Dog. "
                "Every rule, view and reason comes from the spielwerk engine."
            ),
            path="/schema",
            servers=[Server(url="/")],
            render_plugins=[ScalarRenderPlugin(), JsonRenderPlugin(path="/openapi.json")],
        ),
    )


async def sweep_forever(service: Matches, interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        try:
            await service.sweep()
        except Exception:  # the sweeper must outlive a failed round (e.g. a lost connection)
            log.exception("sweeping the match rules failed")
