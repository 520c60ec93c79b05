"""Events between workers through PostgreSQL's LISTEN/NOTIFY, publishing on one connection.

Litestar's ``AsyncPgChannelsBackend`` listens on one connection but opens a new connection
for every note it publishes (a PostgreSQL backend process started and ended per move), and
a note that fails to publish ends the plugin's publishing task for good: no worker hears of
that worker's moves again, and the app cannot even shut down (it waits for the queue the
task no longer empties). This backend keeps one publishing connection, opens a new one
when it was lost, and logs a note it could not send instead of raising: the event streams
also look at the database every few seconds (each worker once for all its streams,
``streams.py``), so a lost note delays a version event and never loses it.

Litestar's listening connection is never renewed either: once PostgreSQL restarted, no
note reached the worker again and every new event stream failed on the closed connection.
Here a lost listening connection is replaced at once (and retried while the database is
away), listening again on every channel it listened on.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from litestar.channels.backends.asyncpg import AsyncPgChannelsBackend

log = logging.getLogger("spielwerk_api")


class PgChannelsBackend(AsyncPgChannelsBackend):
    def __init__(self, dsn: str) -> None:
        super().__init__(dsn=dsn)
        # The connection notes are published on (None until the first note, or once lost).
        # The plugin publishes from one task, one note after the other: no lock needed.
        self.publisher: Any = None
        self._closing = False
        self._relistening: asyncio.Task[None] | None = None

    @property
    def listener(self) -> Any:
        """The connection that LISTENs (renewed when lost)."""
        return self._listener_conn

    async def on_startup(self) -> None:
        self._closing = False
        await super().on_startup()
        self._listener_conn.add_termination_listener(self._listener_lost)

    async def on_shutdown(self) -> None:
        self._closing = True
        if self._relistening is not None:
            self._relistening.cancel()
        await self._drop_publisher()
        await super().on_shutdown()

    async def subscribe(self, channels: Iterable[str]) -> None:
        # A stream opening while the listener is lost waits for the new one.
        await self._ensure_listener()
        await super().subscribe(channels)

    def _listener_lost(self, _conn: Any) -> None:
        if not self._closing and self._relistening is None:
            self._relistening = asyncio.get_running_loop().create_task(self._relisten())

    async def _relisten(self) -> None:
        delay = 0.5
        try:
            while not self._closing:
                try:
                    await self._ensure_listener()
                    return
                except Exception as e:  # the database is away: try again, less and less often
                    log.warning("listening for notes again failed (next try in %.1f s): %s", delay, e)
                    await asyncio.sleep(delay)
                    delay = min(2 * delay, 30.0)
        finally:
            self._relistening = None

    async def _ensure_listener(self) -> None:
        async with self._listener_lock:
            if not self._listener_conn.is_closed():
                return
            conn = await self._connect()
            try:
                for channel in self._subscribed_channels:
                    await conn.add_listener(channel, self._listener)
            except BaseException:
                conn.terminate()
                raise
            conn.add_termination_listener(self._listener_lost)
            self._listener_conn = conn
            log.info("listening for notes again on %d channel(s)", len(self._subscribed_channels))

    async def publish(self, data: bytes, channels: Iterable[str]) -> None:
        payload = data.decode("utf-8")
        channels = list(channels)
        # A second try on a fresh connection covers a connection lost since the last note
        # (a restarted server, an idle timeout); a second failure is the database's.
        for attempt in (1, 2):
            try:
                if self.publisher is None or self.publisher.is_closed():
                    self.publisher = await self._connect()
                for channel in channels:
                    await self.publisher.execute("SELECT pg_notify($1, $2)", channel, payload)
                return
            except Exception as e:  # raising here would end the plugin's publishing task
                await self._drop_publisher()
                if attempt == 2:
                    log.warning("a note on %s was not published: %s", ", ".join(channels), e)

    async def _drop_publisher(self) -> None:
        conn, self.publisher = self.publisher, None
        if conn is not None and not conn.is_closed():
            conn.terminate()
