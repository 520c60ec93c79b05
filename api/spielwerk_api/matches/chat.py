"""Table talk: messages stored one statement at a time under the match's cap, numbered in
the order they commit, and read by the streams of every worker."""

from __future__ import annotations

import unicodedata

import sqlalchemy
from spielwerk.the_game import check_talk
from sqlalchemy import func, insert, select

from .. import schemas
from ..clock import Clock
from ..db import ChatRow
from ..problems import Problem, engine_fields
from .limits import Limits
from .match import Match, require_running
from .store import Publish, Store

# Characters that change how a message shows without being seen themselves: the
# bidirectional embeddings, overrides, isolates and marks (a line that reads backwards).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def unseen_text(text: str) -> Problem | None:
    """Refuses a message that would show other than it is: a control character (NUL, a
    line break), a bidirectional control, or nothing visible at all (only spaces,
    zero-width or combining characters). Joiners inside visible text (emoji) stay."""
    for ch in text:
        if unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS:
            code = f"U+{ord(ch):04X}"
            name = unicodedata.name(ch, "control character").lower()
            return Problem(
                422,
                "unseen_text",
                f"the message holds {code} ({name}), which changes how it shows; write plain text",
                de=f"die Nachricht hält {code}, ein Zeichen, das verändert, wie sie erscheint;"
                " schreib einfachen Text",
            )
    if not any(unicodedata.category(ch)[0] not in "CZM" for ch in text):
        return Problem(
            422,
            "unseen_text",
            "the message shows nothing: it holds only spaces or invisible characters",
            de="die Nachricht zeigt nichts: sie hält nur Leerzeichen oder unsichtbare Zeichen",
        )
    return None


class Chat:
    """The table talk of a worker's matches."""

    def __init__(self, store: Store, clock: Clock, limits: Limits, publish: Publish) -> None:
        self.store = store
        self.clock = clock
        self.limits = limits
        self.publish = publish

    async def say(self, m: Match, seat: int, text: str, lang: str) -> schemas.ChatOut:
        """Stores what ``seat`` said at the match ``m`` (as read now); every stream of the
        match hears of it. Every game has free table talk, except where the engine says its
        rules restrict it (The Game's T7: no numbers, in any form)."""
        match_id = m.id
        require_running(m)
        unseen = unseen_text(text)
        if unseen is not None:
            raise unseen
        refused = check_talk(text) if m.game.has_table_talk() else None
        if refused is not None:
            reason = engine_fields(refused, lang)["reason"]
            raise Problem(422, refused.code, f"{refused.rule}: {reason}", rule=refused.rule)
        now = self.clock.now()
        await self._not_too_fast(match_id, seat, now)
        cap = self.limits.chat_messages_per_match
        said = select(func.count()).select_from(ChatRow).where(ChatRow.match_id == match_id)
        # One statement counts and inserts: the message is stored only while the match has
        # fewer than `cap`. On SQLite a statement that writes holds the database's write
        # lock from its start (the count included), whichever worker process runs it,
        # while a count before the insert would let two workers both see cap - 1 (the
        # worker's own lock, `writing`, orders only its own writers). On PostgreSQL the
        # advisory lock below orders them too.
        message = select(
            sqlalchemy.literal(match_id, ChatRow.match_id.type),
            sqlalchemy.literal(seat, ChatRow.seat.type),
            sqlalchemy.literal(text, ChatRow.text.type),
            sqlalchemy.literal(now, ChatRow.at.type),
        ).where(said.scalar_subquery() < cap)
        stored = (
            insert(ChatRow)
            .from_select([ChatRow.match_id, ChatRow.seat, ChatRow.text, ChatRow.at], message)
            .returning(ChatRow.id)
        )
        async with self.store.writing() as session:
            if self.store.engine.dialect.name == "postgresql":
                # Messages of one match are numbered in the order they commit (a stream that
                # read up to message N must never find an N - 1 later): one at a time per match.
                await session.execute(
                    sqlalchemy.text("SELECT pg_advisory_xact_lock(hashtext(:m))"), {"m": match_id}
                )
            # (On SQLite the first statement of its transaction, so it takes the write lock
            # with no older read to upgrade: it waits for another worker's commit and then
            # counts what that one stored.)
            message_id = (await session.execute(stored)).scalar_one_or_none()
        if message_id is None:
            async with self.store.sessions() as session:
                full = (await session.execute(said)).scalar_one()
            raise Problem(
                409,
                "chat_full",
                f"at most {cap} messages of table talk are kept per match; this match has {full}",
                de=f"je Partie werden höchstens {cap} Nachrichten des Tischgesprächs gespeichert;"
                f" diese Partie hat {full}",
            )
        # Like a version, the note says only that message `message_id` was said: every stream
        # reads it from the database (streams.py), so it reaches the streams of all workers.
        await self.publish(match_id, {"kind": "chat", "chat": message_id})
        return schemas.ChatOut(seat=seat, text=text, at=now, id=message_id)

    async def log(self, match_id: str, after: int = 0, limit: int | None = None) -> list[schemas.ChatOut]:
        """The table talk of the match in order, after message ``after`` (at most ``limit``)."""
        query = select(ChatRow).where(ChatRow.match_id == match_id, ChatRow.id > after).order_by(ChatRow.id)
        if limit is not None:
            query = query.limit(limit)
        async with self.store.sessions() as session:
            rows = (await session.execute(query)).scalars()
            return [schemas.ChatOut(seat=r.seat, text=r.text, at=r.at, id=r.id) for r in rows]

    async def last(self, match_id: str) -> int:
        """The id of the match's latest message (0: none yet)."""
        async with self.store.sessions() as session:
            last = await session.execute(select(func.max(ChatRow.id)).where(ChatRow.match_id == match_id))
            return int(last.scalar() or 0)

    # -- the match rules, enforced without any request ----------------------------------

    async def _not_too_fast(self, match_id: str, seat: int, now: float) -> None:
        """Refuses (429) a seat that said ``chat_per_seat_per_minute`` messages in the last
        minute: one seat cannot fill the match's cap and silence the others. (Two messages
        racing on two workers may both pass: a bound on pace, not an exact count.)"""
        most = self.limits.chat_per_seat_per_minute
        recent = (
            select(func.count())
            .select_from(ChatRow)
            .where(ChatRow.match_id == match_id, ChatRow.seat == seat, ChatRow.at > now - 60.0)
        )
        async with self.store.sessions() as session:
            said = (await session.execute(recent)).scalar_one()
        if said >= most:
            raise Problem(
                429,
                "chat_too_fast",
                f"a seat says at most {most} messages a minute; wait a moment",
                headers={"Retry-After": "10"},
                de=f"ein Platz sagt höchstens {most} Nachrichten in der Minute; warte einen Moment",
            )
