"""Players' sessions: Litestar's server-side sessions in the match database.

The cookie (``spielwerk_session``) holds only a random id: ``HttpOnly``, ``SameSite=Strict``,
``Secure`` where the operator says so. The session's data (the player's id and name) lives
in the ``sessions`` table under the id's SHA-256, so every worker shares it, a restart keeps
it and logging out deletes it. Logging in issues a new id (no session fixation).

Only the routes that act for a player have the session middleware (``app.py``: registering,
logging in and out, creating a match or taking a seat): a move, a view or an event stream
pays nothing for it.
"""

from __future__ import annotations

import hashlib
import time
from datetime import timedelta
from typing import Any

from litestar.connection import ASGIConnection
from litestar.exceptions import SerializationException
from litestar.middleware.session.server_side import ServerSideSessionBackend, ServerSideSessionConfig
from litestar.serialization import decode_json
from litestar.stores.base import Store
from litestar.types import Empty, Message, ScopeSession
from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from .db import SessionRow
from .matches.players import Player

COOKIE = "spielwerk_session"
# A session lasts a month from its last login.
MAX_AGE_S = 30 * 24 * 3600
# A key in the session's data that asks for a new session id on the way out (a login).
ROTATE = "_rotate"


def _key(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


class SqlStore(Store):
    """Litestar's ``Store`` on the ``sessions`` table (keys hashed, expiry in ``expires_at``)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    async def set(self, key: str, value: str | bytes, expires_in: int | timedelta | None = None) -> None:
        if isinstance(expires_in, timedelta):
            expires_in = int(expires_in.total_seconds())
        data = value.encode() if isinstance(value, str) else value
        expires_at = time.time() + expires_in if expires_in is not None else None
        row = {"key": _key(key), "value": data, "expires_at": expires_at}
        insert = pg_insert if self.engine.dialect.name == "postgresql" else sqlite_insert
        statement = insert(SessionRow).values(**row)
        statement = statement.on_conflict_do_update(
            index_elements=[SessionRow.key], set_={"value": data, "expires_at": expires_at}
        )
        async with self.engine.begin() as conn:
            await conn.execute(statement)

    async def get(self, key: str, renew_for: int | timedelta | None = None) -> bytes | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(SessionRow.value, SessionRow.expires_at).where(SessionRow.key == _key(key))
                )
            ).first()
        if row is None or (row.expires_at is not None and row.expires_at <= time.time()):
            return None
        return bytes(row.value)

    async def delete(self, key: str) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(SessionRow).where(SessionRow.key == _key(key)))

    async def delete_all(self) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(SessionRow))

    async def exists(self, key: str) -> bool:
        return await self.get(key) is not None

    async def expires_in(self, key: str) -> int | None:
        async with self.engine.connect() as conn:
            at = (
                await conn.execute(select(SessionRow.expires_at).where(SessionRow.key == _key(key)))
            ).scalar_one_or_none()
        return None if at is None else max(0, int(at - time.time()))


class RotatingBackend(ServerSideSessionBackend):
    """Litestar's server-side backend, which keeps the id a request's cookie names; a login
    (``ROTATE`` in the session) gets a fresh id, and the old one's data is deleted."""

    async def load_from_connection(self, connection: ASGIConnection[Any, Any, Any, Any]) -> dict[str, Any]:
        data = await super().load_from_connection(connection)
        connection.scope["_spielwerk_loaded"] = dict(data)  # type: ignore[typeddict-unknown-key]
        return data

    async def store_in_message(
        self, scope_session: ScopeSession, message: Message, connection: ASGIConnection[Any, Any, Any, Any]
    ) -> None:
        came = connection.cookies.get(self.config.key) not in (None, "", "null")
        # Nothing to keep: no row and no cookie (a stranger's GETs and failed logins must not
        # fill the table); an explicit logout (Empty) deletes the row as Litestar does.
        if scope_session is not Empty and not scope_session:
            return
        if scope_session is Empty and not came:
            return
        if scope_session is not Empty and isinstance(scope_session, dict):
            if not scope_session.get(ROTATE) and scope_session == connection.scope.get("_spielwerk_loaded"):
                return  # unchanged: the row stays as it is (its expiry counts from the login)
            if scope_session.pop(ROTATE, False):
                old = connection.cookies.get(self.config.key)
                if old and old != "null":
                    await self.delete(old, store=self.config.get_store_from_app(connection.scope["app"]))
                fresh = self.generate_session_id()
                connection.scope["_spielwerk_session_id"] = fresh  # type: ignore[typeddict-unknown-key]
        await super().store_in_message(scope_session, message, connection)

    def get_session_id(self, connection: ASGIConnection[Any, Any, Any, Any]) -> str:
        fresh = connection.scope.get("_spielwerk_session_id")
        return str(fresh) if fresh else super().get_session_id(connection)


class SessionConfig(ServerSideSessionConfig):
    _backend_class = RotatingBackend


def session_config(secure: bool) -> SessionConfig:
    return SessionConfig(
        key=COOKIE,
        max_age=MAX_AGE_S,
        httponly=True,
        samesite="strict",
        secure=secure,
        store="sessions",
    )


def _player(session: Any) -> Player | None:
    if not isinstance(session, dict):
        return None
    player_id, name = session.get("player"), session.get("name")
    if isinstance(player_id, int) and isinstance(name, str):
        return Player(player_id, name)
    return None


def player_of(connection: ASGIConnection[Any, Any, Any, Any]) -> Player | None:
    """The player the session middleware read for this request (``None``: a guest)."""
    return _player(connection.scope.get("session"))


async def session_player(connection: ASGIConnection[Any, Any, Any, Any]) -> Player | None:
    """The player the request's session cookie names, read from the store without the
    middleware (which would store the session again with every answer): for the routes that
    only ask who acts (creating a match, taking a seat)."""
    session_id = connection.cookies.get(COOKIE)
    if not session_id or session_id == "null" or len(session_id) > 128:
        return None
    data = await connection.app.stores.get("sessions").get(session_id)
    if data is None:
        return None
    try:
        return _player(decode_json(data))
    except SerializationException:
        return None


def log_in(connection: ASGIConnection[Any, Any, Any, Any], player: Player) -> None:
    connection.set_session({"player": player.id, "name": player.name, ROTATE: True})
