"""The web API's command line: ``python -m spielwerk_api`` (or ``spielwerk-serve``; the
engine's ``spielwerk serve`` runs it): migrate the database once, then run the app with
Uvicorn."""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Sequence
from typing import Any

from . import db
from .app import DEFAULT_DATABASE


def serve(
    host: str,
    port: int,
    workers: int,
    database: str | None,
    log_level: str = "info",
    access_log: bool = False,
) -> None:
    import uvicorn

    url = database or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE
    # The workers read their settings from the environment (uvicorn starts them afresh).
    os.environ["DATABASE_URL"] = url
    # Migrate once here, so workers starting side by side never race on the schema.
    asyncio.run(_migrate(url))
    os.environ["SPIELWERK_MIGRATE"] = "0"
    # On SQLite, how each worker's event streams hear of versions stored by the others.
    os.environ["SPIELWERK_WORKERS"] = str(workers)
    print(
        f"spielwerk: serving on http://{host}:{port}/ (API docs at /schema) with {workers} worker(s);"
        f" database {db.redacted(url)}"
    )
    uvicorn.run(
        "spielwerk_api.app:create_app",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        log_level=log_level,
        # A line per request costs about a tenth of a worker's time under load (benches/README.md);
        # errors are logged either way.
        access_log=access_log,
        **PROTOCOL,
    )


# Uvicorn's fast HTTP/1.1 protocol with bounds on request heads and slow clients
# (serving.py; the limits are the app's settings, from the environment), and none of
# Uvicorn's own proxy headers (it believes loopback's by default): the app reads them from
# the proxies `trusted_proxies` names only (proxy.py).
PROTOCOL: dict[str, Any] = {"http": "spielwerk_api.serving:GuardedHttpToolsProtocol", "proxy_headers": False}


async def _migrate(url: str) -> None:
    engine = db.create_engine(url)
    try:
        await db.migrate(engine)
    finally:
        await engine.dispose()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="spielwerk serve", description="Serve the web API and its page (Litestar on Uvicorn)."
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--database",
        default=None,
        help="sqlite:///path/to/file.db or postgresql://user@host/db "
        "(default: $DATABASE_URL, else sqlite:///spielwerk.db in the working folder)",
    )
    parser.add_argument(
        "--access-log", action="store_true", help="log a line per request (off: it costs throughput)"
    )
    args = parser.parse_args(argv)
    serve(args.host, args.port, args.workers, args.database, access_log=args.access_log)
    return 0
