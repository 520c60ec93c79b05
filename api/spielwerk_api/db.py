"""Persistence: a match is its creation record plus one row per ply (once it has ended,
its plies packed into one value of its record, ``matches.packed``).

``(match_id, ply)`` is the primary key of ``plies``, so two moves on one match can never
both be stored as the same ply, whatever the number of workers; the match row's ``version``
is updated in the same transaction, only where it still has the version the move was made
against. Everything else (the state, the clocks, the result) is derived by replaying the
plies, so nothing is lost on restart.

SQLite by default (through aiosqlite), PostgreSQL when the URL names one (asyncpg). The
schema is Alembic's (``migrations/``), upgraded on start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    event,
    false,
    text,
)
from sqlalchemy import create_engine as create_sync_engine
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

MIGRATIONS = Path(__file__).parent / "migrations"


class Base(DeclarativeBase):
    metadata = MetaData(
        naming_convention={
            "pk": "pk_%(table_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "ix": "ix_%(table_name)s_%(column_0_name)s",
            "uq": "uq_%(table_name)s_%(column_0_name)s",
        }
    )


class Seed(TypeDecorator[int]):
    """A seed of 0 to 2^64 - 1 in a signed 64-bit column: seeds from 2^63 on are stored as
    their two's complement (negative) and read back as they were sent."""

    impl = BigInteger
    cache_ok = True

    def process_bind_param(self, value: int | None, dialect: Any) -> int | None:
        return value - 2**64 if value is not None and value >= 2**63 else value

    def process_result_value(self, value: int | None, dialect: Any) -> int | None:
        return value + 2**64 if value is not None and value < 0 else value


# The lobby's two lists: matches waiting for a person, and ended matches with a person
# (a match whose open seat nobody took never began). Written as SQL text, literally the
# same in the partial indexes and the queries: a database uses a partial index only for
# a query whose condition says what the index's does.
WAITING = "open_seats > 0 AND status = 'running'"
ENDED = "open_seats = 0 AND status != 'running' AND bots_only = false"


class MatchRow(Base):
    __tablename__ = "matches"
    # The retention rule's question (matches of bots alone created before a moment), asked
    # every sweep: answered from the index alone.
    __table_args__ = (
        Index("ix_matches_bots_only", "bots_only", "created_at"),
        Index("ix_matches_lobby", "open_seats", "status", "created_at"),
        # The lobby's two lists, newest first, each from its own partial index (0004).
        Index("ix_matches_waiting", "created_at", sqlite_where=text(WAITING), postgresql_where=text(WAITING)),
        Index("ix_matches_ended", "created_at", sqlite_where=text(ENDED), postgresql_where=text(ENDED)),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(Seed)
    # [{"kind": "person"} | {"kind": "bot", "bot": name, "params": {...}}], one per seat.
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    # SHA-256 of each person seat's token (null for bots): tokens are never stored.
    token_hashes: Mapped[list[str | None]] = mapped_column(JSON)
    clock: Mapped[dict[str, float] | None] = mapped_column(JSON, nullable=True)
    rules: Mapped[dict[str, float]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="running", index=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The earliest moment a match rule (clock, first move, untimed move, playing time) may
    # end the match; the sweeper looks only at matches whose deadline has passed.
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    leave_s: Mapped[float] = mapped_column(Float, default=60.0)
    # Every seat a bot: such matches are limited in number and deleted after a while
    # (``Limits.bot_match_retention_s``).
    bots_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # Person seats nobody has taken yet (the lobby lists matches with some).
    open_seats: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Who opened a match with open seats: a hash of the client's address (a client opens
    # only so many, ``Limits.open_matches_per_client``); null otherwise.
    creator: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    # The name each seat shows as it was created: {"name", "player"} (a registered player's
    # or a guest's as chosen) or null (a bot, an open seat: ``seat_joins`` names its taker).
    names: Mapped[list[dict[str, Any] | None] | None] = mapped_column(JSON, nullable=True)
    # A ranked match whose seats all belong to players: rated once it ends (ratings.py),
    # then false; the sweep rates one whose worker stopped before it did.
    rating_due: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(), index=True)
    # Every ply of an ended match, packed (``matches.packed``), its rows of ``plies`` deleted:
    # about 6 bytes a ply instead of a row each. Null while it runs. Deferred: the ORM's
    # reads of a match (the lobby, profiles) never load it; the store reads it to replay.
    plies_packed: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True, deferred=True)


class SeatJoinRow(Base):
    """An open seat taken from the lobby: its primary key lets exactly one of two people
    who take the same seat at once have it, on any number of workers."""

    __tablename__ = "seat_joins"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)
    # Who took it: a player's name, or the name a guest chose (null: none given), and the
    # player's id (null: a guest).
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    player_id: Mapped[int | None] = mapped_column(Integer, nullable=True)


class PlayerRow(Base):
    """A registered player: a name, unique whatever its case, and the password's Argon2id
    hash (never the password)."""

    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    # The name as names are compared (``players.name_key``): "Anna" and "anna" are one.
    name_key: Mapped[str] = mapped_column(String(64), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[float] = mapped_column(Float)


class MatchPlayerRow(Base):
    """A person seat that belongs to a registered player (created or taken with a session)."""

    __tablename__ = "match_players"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), index=True)


class RatingRow(Base):
    """A player's rating in one game and pool ("people": against persons only; "bots": with
    a bot at the table), as openskill's Plackett-Luce model keeps it."""

    __tablename__ = "ratings"
    # The leaderboard: a game's pool, best first (openskill's ordinal, mu - 3 sigma).
    __table_args__ = (Index("ix_ratings_board", "game", "pool", "ordinal"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    game: Mapped[str] = mapped_column(String(64), primary_key=True)
    pool: Mapped[str] = mapped_column(String(8), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    matches: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[float] = mapped_column(Float)


class RatingEventRow(Base):
    """A player's rating after each rated match: the profile's history and chart."""

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player", "player_id", "game", "at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(64))
    pool: Mapped[str] = mapped_column(String(8))
    match_id: Mapped[str] = mapped_column(String(32))
    # "win", "loss" or "draw" (The Game: against its par, ratings.py).
    outcome: Mapped[str] = mapped_column(String(8))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float)


class SessionRow(Base):
    """Litestar's server-side sessions (``sessions.SqlStore``): shared by every worker,
    deleted on logout. The key is the session id's SHA-256, never the id itself."""

    __tablename__ = "sessions"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[bytes] = mapped_column(LargeBinary)
    expires_at: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)


class PlyRow(Base):
    __tablename__ = "plies"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    # "move" (an engine action) or how the match ended: "resigned", "time", "left",
    # "no_move", "playing_time", "aborted", "withdrawn" (an open seat nobody took).
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[int | None] = mapped_column(Integer, nullable=True)
    at: Mapped[float] = mapped_column(Float)
    # A search bot's move: the seconds it searched, all its clock is charged (match.Ply).
    thought_s: Mapped[float | None] = mapped_column(Float, nullable=True)


class ChatRow(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class PresenceRow(Base):
    """When each person seat was last seen (a request, or an open event stream)."""

    __tablename__ = "presence"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    last_seen: Mapped[float] = mapped_column(Float, index=True)


class WorkerRow(Base):
    """Each worker's last sign of life: a start after every worker fell silent finds the
    outage here (``Matches.open``)."""

    __tablename__ = "workers"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    alive_at: Mapped[float] = mapped_column(Float)


class OutageRow(Base):
    """A time no worker was alive: it runs on no clock and counts for no match rule."""

    __tablename__ = "outages"

    began: Mapped[float] = mapped_column(Float, primary_key=True)
    ended: Mapped[float] = mapped_column(Float)


def async_url(url: str) -> str:
    """``sqlite:///x.db`` and ``postgresql://…`` as SQLAlchemy's async drivers spell them."""
    u = make_url(url)
    if u.drivername in ("sqlite", "sqlite+pysqlite"):
        u = u.set(drivername="sqlite+aiosqlite")
    elif u.drivername in ("postgresql", "postgres", "postgresql+psycopg2", "postgresql+psycopg"):
        u = u.set(drivername="postgresql+asyncpg")
    if u.drivername == "postgresql+asyncpg" and "sslmode" in u.query and "ssl" not in u.query:
        # libpq's ?sslmode=require (what hosting services hand out): SQLAlchemy passes
        # each query parameter to asyncpg.connect, which calls it `ssl`.
        u = u.update_query_dict({"ssl": u.query["sslmode"]}).difference_update_query(["sslmode"])
    return u.render_as_string(hide_password=False)


def asyncpg_dsn(url: str) -> str:
    """The URL as asyncpg's own DSN parser takes it (for LISTEN/NOTIFY, outside SQLAlchemy)."""
    u = make_url(url).set(drivername="postgresql")
    if "ssl" in u.query and "sslmode" not in u.query:
        # SQLAlchemy's spelling; asyncpg's DSN would send `ssl` to the server as a setting.
        u = u.update_query_dict({"sslmode": u.query["ssl"]}).difference_update_query(["ssl"])
    return u.render_as_string(hide_password=False)


def redacted(url: str) -> str:
    """The URL without its password, for logs."""
    return make_url(url).render_as_string(hide_password=True)


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_connection: Any, _record: Any) -> None:
        # WAL lets readers go on while one worker writes; the busy timeout makes a
        # second writer wait for the lock instead of failing.
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.close()


def create_engine(url: str) -> AsyncEngine:
    url = async_url(url)
    if is_sqlite(url):
        engine = create_async_engine(url, connect_args={"timeout": 30})
        _sqlite_pragmas(engine.sync_engine)
        return engine
    return create_async_engine(url, pool_size=10, max_overflow=10, pool_pre_ping=True)


def inline_sqlite(engine: AsyncEngine) -> Engine | None:
    """For a SQLite database, a plain (synchronous) engine on the same file, else ``None``.

    SQLite is a library inside the process: a move's UPDATE, INSERT and COMMIT take about
    0.05 ms, while aiosqlite hands every call to its thread and back, which costs more
    than the work itself (benches/README.md, "Web API"). The hot path (reading a match,
    storing its plies) therefore runs inline on the event loop with this engine.
    """
    if engine.dialect.name != "sqlite":
        return None
    url = engine.url.set(drivername="sqlite+pysqlite")
    sync = create_sync_engine(url, connect_args={"timeout": 30})
    _sqlite_pragmas(sync)
    return sync


def _upgrade(connection: Connection) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


# Any constant shared by every process that migrates: PostgreSQL's advisory lock key.
MIGRATION_LOCK = 0x5370_6965_6C77


async def migrate(engine: AsyncEngine) -> None:
    """Bring the schema to the newest migration (a no-op when it is there).

    Processes starting side by side on a fresh database (several servers, or workers
    started without ``spielwerk serve``) would each create the tables and all but one
    fail: the first takes a lock for its whole transaction, and the others wait for it
    and then find the schema done.
    """
    async with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        elif engine.dialect.name == "sqlite":
            # SQLite's write lock from the first statement on (pysqlite would begin only
            # before the first INSERT); the others wait on the busy timeout.
            await conn.exec_driver_sql("BEGIN IMMEDIATE")
        await conn.run_sync(_upgrade)
