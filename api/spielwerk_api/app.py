"""The Litestar app: ``create_app(Settings(...))``.

The app moves JSON, tokens and time; every rule, view and reason is the engine's.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import os
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from litestar import Litestar, get
from litestar.channels import ChannelsPlugin
from litestar.channels.backends.base import ChannelsBackend
from litestar.channels.backends.memory import MemoryChannelsBackend
from litestar.di import Provide
from litestar.enums import ScopeType
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, ScalarRenderPlugin
from litestar.openapi.spec import Server
from litestar.response import File
from litestar.static_files import create_static_files_router
from litestar.types import ASGIApp, Receive, Scope, Send

from . import db, schemas
from .clock import Clock, SystemClock
from .match_routes import MatchRoutes, channel
from .matches import Limits, Matches
from .problems import EXCEPTION_HANDLERS, Problem
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
    # Requests per second each client (its address) may send on a worker, and the burst
    # above that rate; beyond, 429 with Retry-After. 0 switches the limit off.
    client_rate_per_s: float = 100.0
    client_burst: int = 1000
    # Search, cache, bot-match, retention and heartbeat limits (matches.Limits).
    limits: Limits = field(default_factory=Limits)

    @classmethod
    def from_env(cls) -> Settings:
        """``SPIELWERK_<NAME>`` sets each field of ``Limits`` too (``SPIELWERK_SEARCH_THREADS=2``)."""
        limits = Limits()
        for f in fields(Limits):
            value = os.environ.get(f"SPIELWERK_{f.name.upper()}")
            if value is not None:
                setattr(limits, f.name, type(getattr(limits, f.name))(value))
        return cls(
            database_url=os.environ.get("DATABASE_URL", DEFAULT_DATABASE),
            max_body_bytes=int(os.environ.get("SPIELWERK_MAX_BODY_BYTES", 64 * 1024)),
            migrate=os.environ.get("SPIELWERK_MIGRATE", "1") != "0",
            client_rate_per_s=float(os.environ.get("SPIELWERK_CLIENT_RATE_PER_S", 100.0)),
            client_burst=int(os.environ.get("SPIELWERK_CLIENT_BURST", 1000)),
            limits=limits,
        )


class ClientLimit:
    """Requests per client address on this worker: a token bucket (``client_rate_per_s``
    refills it, ``client_burst`` is its size); an empty bucket answers 429 with the seconds
    until the next request may come in Retry-After. (Litestar's RateLimitMiddleware keeps a
    list of timestamps per client in a store and sends no Retry-After.)"""

    def __init__(self, app: ASGIApp, rate: float, burst: int) -> None:
        self.app = app
        self.rate = rate
        self.burst = float(max(1, burst))
        self.buckets: dict[str, tuple[float, float]] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == ScopeType.HTTP and self.rate > 0:
            client = scope.get("client")
            key = client[0] if client else ""
            now = time.monotonic()
            tokens, at = self.buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) * self.rate)
            if tokens < 1.0:
                self.buckets[key] = (tokens, now)
                wait = math.ceil((1.0 - tokens) / self.rate)
                raise Problem(
                    429,
                    "too_many_requests",
                    f"at most {self.rate:g} requests per second (bursts of {self.burst:g}) per client;"
                    f" try again in {wait} s",
                    headers={"Retry-After": str(wait)},
                )
            if len(self.buckets) > 100_000:
                # Full buckets are the default: forgetting them changes nothing.
                self.buckets = {
                    k: v for k, v in self.buckets.items() if v[0] + (now - v[1]) * self.rate < self.burst
                }
            self.buckets[key] = (tokens - 1.0, now)
        await self.app(scope, receive, send)


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
        service = Matches(engine, settings.clock, publish, limits=settings.limits)
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
            with contextlib.suppress(Exception):
                await service.beat()  # alive up to here: a restart's pause is no outage before it
            await engine.dispose()

    def provide_matches() -> Matches:
        return holder["matches"]

    async def open_matches() -> None:
        # A startup hook, not part of `lifespan`: the bots' moves (resumed in the background)
        # are published, and the channels plugin starts after the lifespan context managers.
        await holder["matches"].open()
        # Everything made while starting (the libraries' modules, the app) lives as long as
        # the worker: out of the collector's sight, a full collection no longer walks it on
        # the event loop (one took 70 ms amid a match of random bots; with this, 10 ms).
        gc.freeze()

    def client_limit(app: ASGIApp) -> ASGIApp:
        return ClientLimit(app, settings.client_rate_per_s, settings.client_burst)

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
        on_startup=[open_matches],
        middleware=[client_limit],
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
