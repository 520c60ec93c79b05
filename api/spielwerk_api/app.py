"""The Litestar app: ``create_app(Settings(...))``.

The app moves JSON, tokens and time; every rule, view and reason is the engine's.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import itertools
import logging
import math
import os
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from litestar import Litestar, Router, get
from litestar.channels import ChannelsPlugin
from litestar.channels.backends.base import ChannelsBackend
from litestar.config.cors import CORSConfig
from litestar.di import Provide
from litestar.enums import ScopeType
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme, Server
from litestar.params import HeaderParameter
from litestar.response import File
from litestar.routes import HTTPRoute
from litestar.static_files import create_static_files_router
from litestar.types import ASGIApp, Receive, Scope, Send
from openapi_ui_bundles import swagger_ui

from . import db, proxy
from .clock import Clock, SystemClock
from .front_door import SpielwerkApp
from .match_routes import MatchRoutes
from .matches import Limits, Matches
from .openapi_doc import ExactStructs
from .player_routes import PlayerRoutes
from .problems import EXCEPTION_HANDLERS, Problem
from .request_body import SpielwerkRequest
from .rules import BotMoves, GameRules, SchottenTottenRules, TheGameRules
from .sessions import SqlStore, session_config
from .streams import Streams, channel

log = logging.getLogger("spielwerk_api")

DEFAULT_DATABASE = "sqlite:///spielwerk.db"

# The web page: plain HTML, CSS and JavaScript modules, served as they are (no build step).
STATIC = Path(__file__).parent / "static"
# The documentation at /schema (Swagger UI) loads its scripts and styles from here, out of a
# package: it works without internet.
DOCS_ASSETS = "/schema-assets"


@dataclass
class Settings:
    """What an operator may set; ``from_env`` reads ``DATABASE_URL`` and friends."""

    database_url: str = DEFAULT_DATABASE
    # Request bodies above this are refused with 413 before they are read whole.
    max_body_bytes: int = 64 * 1024
    # The request line and headers, at most (431). `spielwerk serve` refuses a larger head
    # before parsing it (serving.py); the app refuses it under any server.
    max_header_bytes: int = 16 * 1024
    # `spielwerk serve` closes a connection whose request headers are not complete this long
    # after it opened (or after their first byte), or whose body is not complete this long
    # after its headers (408).
    head_timeout_s: float = 10.0
    body_timeout_s: float = 10.0
    # Spectators' event streams one worker holds, in all and per match; more are refused (503).
    max_streams: int = 4096
    max_streams_per_match: int = 512
    # Spectators' event streams one client (its address) may hold on a worker (429 beyond).
    max_streams_per_client: int = 64
    # How many workers serve the database (`spielwerk serve --workers`): on SQLite, notes
    # of new versions reach only the streams of the worker that stored them, so with
    # several workers each worker looks at its watched matches' versions every
    # `stream_poll_s`. On PostgreSQL notes reach every worker; the look every
    # `pg_stream_poll_s` only covers notes lost with a connection.
    workers: int = 1
    stream_poll_s: float = 1.0
    pg_stream_poll_s: float = 15.0
    # An idle event stream sends a comment (a heartbeat) this often.
    stream_heartbeat_s: float = 15.0
    # How often the server looks for matches a match rule has ended (C11, D13).
    sweep_interval_s: float = 1.0
    migrate: bool = True
    clock: Clock = field(default_factory=SystemClock)
    # Requests per second each client (its address) may send on a worker, and the burst
    # above that rate; beyond, 429 with Retry-After. 0 switches the limit off.
    client_rate_per_s: float = 100.0
    client_burst: int = 1000
    # Origins whose pages may call the API across sites (CORS); none by default, so CORS
    # stays off and cookie-authenticated writes come from this site's own pages only.
    cors_origins: list[str] = field(default_factory=list)
    # Reverse proxies (addresses or networks) whose X-Forwarded-For and X-Forwarded-Proto
    # are believed (proxy.py); none by default: the peer is the client.
    trusted_proxies: list[str] = field(default_factory=list)
    # The seat cookie is Secure on requests over https (directly or, by a trusted proxy's
    # X-Forwarded-Proto); this makes it Secure always (a site served only over TLS).
    secure_cookies: bool = False
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
            max_header_bytes=int(os.environ.get("SPIELWERK_MAX_HEADER_BYTES", 16 * 1024)),
            head_timeout_s=float(os.environ.get("SPIELWERK_HEAD_TIMEOUT_S", 10.0)),
            body_timeout_s=float(os.environ.get("SPIELWERK_BODY_TIMEOUT_S", 10.0)),
            max_streams=int(os.environ.get("SPIELWERK_MAX_STREAMS", 4096)),
            max_streams_per_match=int(os.environ.get("SPIELWERK_MAX_STREAMS_PER_MATCH", 512)),
            max_streams_per_client=int(os.environ.get("SPIELWERK_MAX_STREAMS_PER_CLIENT", 64)),
            workers=int(os.environ.get("SPIELWERK_WORKERS", 1)),
            stream_poll_s=float(os.environ.get("SPIELWERK_STREAM_POLL_S", 1.0)),
            stream_heartbeat_s=float(os.environ.get("SPIELWERK_STREAM_HEARTBEAT_S", 15.0)),
            migrate=os.environ.get("SPIELWERK_MIGRATE", "1") != "0",
            client_rate_per_s=float(os.environ.get("SPIELWERK_CLIENT_RATE_PER_S", 100.0)),
            client_burst=int(os.environ.get("SPIELWERK_CLIENT_BURST", 1000)),
            cors_origins=[
                o.strip() for o in os.environ.get("SPIELWERK_CORS_ORIGINS", "").split(",") if o.strip()
            ],
            trusted_proxies=[
                p.strip() for p in os.environ.get("SPIELWERK_TRUSTED_PROXIES", "").split(",") if p.strip()
            ],
            secure_cookies=os.environ.get("SPIELWERK_SECURE_COOKIES", "0") not in ("0", ""),
            limits=limits,
        )


# Clients whose buckets are kept at most; above it, ClientLimit.prune forgets some.
MAX_BUCKETS = 100_000


class ClientLimit:
    """Requests per client address on this worker: a token bucket (``client_rate_per_s``
    refills it, ``client_burst`` is its size); an empty bucket answers 429 with the seconds
    until the next request may come in Retry-After. (Litestar's RateLimitMiddleware keeps a
    list of timestamps per client in a store and sends no Retry-After.)"""

    def __init__(
        self, app: ASGIApp, rate: float, burst: int, buckets: dict[str, tuple[float, float]] | None = None
    ) -> None:
        self.app = app
        self.rate = rate
        self.burst = float(max(1, burst))
        # Litestar wraps every route in its own instance: they share one store of buckets,
        # so a client's requests count together on every route.
        self.buckets = buckets if buckets is not None else {}

    def prune(self, now: float) -> None:
        """Forgets the full buckets (the default: forgetting them changes nothing), then, if
        more than half the cap are left (a flood from many addresses), the least recently
        used down to half: a prune then comes only after half the cap of new clients, so
        its cost per request stays constant however many addresses send."""
        for k, v in list(self.buckets.items()):
            if v[0] + (now - v[1]) * self.rate >= self.burst:
                del self.buckets[k]
        excess = len(self.buckets) - MAX_BUCKETS // 2
        for k in list(itertools.islice(self.buckets, max(0, excess))):
            del self.buckets[k]

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
                    de=f"höchstens {self.rate:g} Anfragen je Sekunde (Schübe von {self.burst:g}) je Client;"
                    f" versuche es in {wait} s wieder",
                )
            if len(self.buckets) > MAX_BUCKETS:
                self.prune(now)
            # Popped and set again: the dict's order is the order of last use.
            self.buckets.pop(key, None)
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


def channels_backend(settings: Settings) -> ChannelsBackend | None:
    """Notes reach every worker through PostgreSQL's LISTEN/NOTIFY; on SQLite they stay in
    the worker (``streams.py`` says how streams of several workers hear of new versions)."""
    if db.is_sqlite(settings.database_url):
        return None
    from .pg_channels import PgChannelsBackend

    return PgChannelsBackend(dsn=db.asyncpg_dsn(settings.database_url))


def stream_poll_s(settings: Settings) -> float:
    """How often a worker looks at its watched matches' versions itself (0: never)."""
    if not db.is_sqlite(settings.database_url):
        return settings.pg_stream_poll_s
    return settings.stream_poll_s if settings.workers > 1 else 0.0


def create_app(settings: Settings | None = None) -> Litestar:
    settings = settings or Settings.from_env()
    backend = channels_backend(settings)
    channels = (
        ChannelsPlugin(backend=backend, arbitrary_channels_allowed=True) if backend is not None else None
    )
    holder: dict[str, Any] = {}

    async def publish(match_id: str, payload: dict[str, Any]) -> None:
        streams: Streams = holder["streams"]
        streams.heard(match_id, payload)
        if channels is not None:
            channels.publish(streams.note(payload), channels=[channel(match_id)])

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncGenerator[None, None]:
        engine = db.create_engine(settings.database_url)
        if settings.migrate:
            await db.migrate(engine)
        service = Matches(engine, settings.clock, publish, limits=settings.limits)
        streams = Streams(
            service,
            max_streams=settings.max_streams,
            max_per_match=settings.max_streams_per_match,
            max_per_client=settings.max_streams_per_client,
            channels=channels,
            poll_s=stream_poll_s(settings),
            heartbeat_s=settings.stream_heartbeat_s,
        )
        holder["matches"] = service
        holder["streams"] = streams
        # Players' sessions live in the match database: every worker shares them.
        app.stores.register("sessions", SqlStore(engine), allow_override=True)
        app.state.matches = service
        app.state.streams = streams
        app.state.cors_origins = frozenset(settings.cors_origins)
        app.state.secure_cookies = settings.secure_cookies
        tasks = [asyncio.create_task(sweep_forever(service, settings.sweep_interval_s))]
        if streams.poll_s > 0:
            tasks.append(asyncio.create_task(streams.poll_forever()))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            service.close()
            with contextlib.suppress(Exception):
                await service.life.beat()  # alive up to here: a restart's pause is no outage before it
            await engine.dispose()

    def provide_matches() -> Matches:
        matches: Matches = holder["matches"]
        return matches

    def provide_streams() -> Streams:
        streams: Streams = holder["streams"]
        return streams

    async def open_matches() -> None:
        # A startup hook, not part of `lifespan`: the bots' moves (resumed in the background)
        # are published, and the channels plugin starts after the lifespan context managers.
        await holder["matches"].open()
        # Everything made while starting (the libraries' modules, the app) lives as long as
        # the worker: out of the collector's sight, a full collection no longer walks it on
        # the event loop (one took 70 ms amid a match of random bots; with this, 10 ms).
        gc.freeze()

    buckets: dict[str, tuple[float, float]] = {}

    def client_limit(app: ASGIApp) -> ASGIApp:
        return ClientLimit(app, settings.client_rate_per_s, settings.client_burst, buckets)

    proxies = proxy.networks(settings.trusted_proxies)

    def proxy_headers(app: ASGIApp) -> ASGIApp:
        return proxy.ProxyHeaders(app, proxies) if proxies else app

    app = SpielwerkApp(
        route_handlers=[
            GameRules,
            BotMoves,
            SchottenTottenRules,
            TheGameRules,
            MatchRoutes,
            # Logging in and out writes the session: only these routes have its middleware
            # (the routes that create a match or take a seat read it: ``sessions.player``).
            Router(
                path="/",
                route_handlers=[PlayerRoutes],
                middleware=[session_config(settings.secure_cookies).middleware],
            ),
            index,
            health,
            create_static_files_router(path="/static", directories=[STATIC]),
            create_static_files_router(
                path=DOCS_ASSETS, directories=[swagger_ui.static_path], include_in_schema=False
            ),
        ],
        dependencies={
            "matches": Provide(provide_matches, sync_to_thread=False),
            "streams": Provide(provide_streams, sync_to_thread=False),
        },
        plugins=[ExactStructs(), *([channels] if channels is not None else [])],
        lifespan=[lifespan],
        on_startup=[open_matches],
        # The proxy's headers first: the rate limit counts the client they name.
        middleware=[proxy_headers, client_limit],
        exception_handlers=EXCEPTION_HANDLERS,
        request_class=SpielwerkRequest,
        # Every route answers in German or English (texts of the engine, problems).
        parameters={
            "accept_language": HeaderParameter(
                name="Accept-Language",
                annotation=str | None,
                required=False,
                description="de (German) or en (English): the language of every text a person reads",
            )
        },
        request_max_body_size=settings.max_body_bytes,
        cors_config=(
            CORSConfig(
                allow_origins=settings.cors_origins,
                allow_methods=["GET", "POST", "DELETE", "HEAD"],
                allow_headers=["Authorization", "Content-Type", "Accept-Language", "Last-Event-ID"],
                expose_headers=["Location", "Retry-After"],
            )
            if settings.cors_origins
            else None
        ),
        openapi_config=OpenAPIConfig(
            title="spielwerk",
            version="1",
            description=(
                "Rule checks and matches for Schotten Totten, Caravan, The Game and Dog. "
                "Every rule, view and reason comes from the spielwerk engine."
            ),
            path="/schema",
            servers=[Server(url="/")],
            components=Components(
                security_schemes={
                    "bearer": SecurityScheme(
                        type="http", scheme="bearer", description="a seat's token (POST /v1/matches)"
                    ),
                    "sessionCookie": SecurityScheme(
                        type="apiKey",
                        name="spielwerk_session",
                        security_scheme_in="cookie",
                        description="a player's session (POST /v1/session or /v1/players)",
                    ),
                    "seatCookie": SecurityScheme(
                        type="apiKey",
                        name="spielwerk_seat",
                        security_scheme_in="cookie",
                        description="the seat cookie its invitation link sets (path /v1/matches/{id})",
                    ),
                }
            ),
            render_plugins=[
                SwaggerRenderPlugin(
                    path="/",
                    js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
                    css_url=f"{DOCS_ASSETS}/swagger-ui.css",
                    standalone_preset_js_url=f"{DOCS_ASSETS}/swagger-ui-standalone-preset.js",
                    favicon=f"<link rel='icon' type='image/png' href='{DOCS_ASSETS}/favicon-32x32.png'>",
                ),
                JsonRenderPlugin(path="/openapi.json"),
            ],
        ),
    )
    app.max_header_bytes = settings.max_header_bytes
    allow_every_method(app)
    return app


def allow_every_method(app: Litestar) -> None:
    """``OPTIONS`` names every method of a path. Litestar builds the automatic OPTIONS
    handler for the first route of a path, whose methods it keeps, and merges the handlers
    of later routes at the same path (``GET`` and ``POST /v1/matches``) into another
    route object: the handler's ``Allow`` then names one of them. Pointed at the merged
    route, it names them all."""
    for route in app.routes:
        if not isinstance(route, HTTPRoute):
            continue
        for handler in route.route_handlers:
            fn = handler.fn
            if handler.http_methods == {"OPTIONS"} and getattr(fn, "__name__", "") == "options_handler":
                for cell in getattr(fn, "__closure__", None) or ():
                    if isinstance(cell.cell_contents, HTTPRoute):
                        cell.cell_contents = route


async def sweep_forever(service: Matches, interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        try:
            await service.sweep()
        except Exception:  # the sweeper must outlive a failed round (e.g. a lost connection)
            log.exception("sweeping the match rules failed")
