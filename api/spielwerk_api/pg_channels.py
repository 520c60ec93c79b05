"""Events between workers through PostgreSQL's LISTEN/NOTIFY, publishing on one connection.

Litestar's ``AsyncPgChannelsBackend`` listens on one connection but opens a new connection
for every note it publishes (a PostgreSQL backend process started and ended per move), and
a note that fails to publish ends the plugin's publishing task for good: no worker hears of
that worker's moves again, and the app cannot even shut down (it waits for the queue the
task no longer empties). This backend keeps one publishing connection, opens a new one
when it was lost, and logs a note it could not send instead of raising: the event streams
also look at the database every few seconds, so a lost note delays a version event and
never loses it.
"""

from __future__ import annotations

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

    async def on_shutdown(self) -> None:
        await self._drop_publisher()
        await super().on_shutdown()

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
