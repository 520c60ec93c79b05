"""Players: a name and a password (its Argon2id hash), the seats that belong to them, and
what their profile shows.

A password is hashed with ``argon2-cffi`` (Argon2id, its default parameters: 64 MiB and
three passes, tens of milliseconds of one core). That work is what a stranger could ask for
in bulk, so hashes run off the event loop, at most ``Limits.password_hashes_at_once`` at a
time, with a bounded queue (429 beyond it) and a per-client pace of logins and
registrations: a flood of them never delays a move.
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from .. import schemas
from ..clock import Clock
from ..db import MatchPlayerRow, MatchRow, PlayerRow, RatingEventRow, RatingRow, SeatJoinRow, SessionRow
from ..problems import Problem
from ..schemas import NAME_MAX, NAME_MIN, PASSWORD_MAX, PASSWORD_MIN
from .chat import unseen_text
from .limits import Limits, Window
from .store import Store

# How a profile lists matches and the rating's history, at most.
PROFILE_MATCHES = 50
PROFILE_HISTORY = 200
# A hash to verify against when the name is unknown: the answer takes as long as for a
# known name, so timing does not tell which names exist.
_HASHER = PasswordHasher()


@dataclass(frozen=True)
class Player:
    id: int
    name: str


def name_key(name: str) -> str:
    """The name as names are compared: "Anna", "anna" and its full-width letters are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


def checked_name(name: str, *, what: str = "name") -> str:
    """A display name as people read it (NFC), or 422 ``invalid_name`` saying what is allowed:
    2 to 24 letters, digits, spaces, '-', '_', '.', beginning with a letter or a digit, no
    name of a bot."""
    name = unicodedata.normalize("NFC", name.strip())
    allowed = all(c.isalnum() or c in " -_." for c in name) and not unseen_text(name)
    if not NAME_MIN <= len(name) <= NAME_MAX or not allowed or not name[0].isalnum() or "  " in name:
        raise Problem(
            422,
            "invalid_name",
            f"a {what} has {NAME_MIN} to {NAME_MAX} letters, digits, single spaces, '-', '_' or '.',"
            " and begins with a letter or a digit",
            de=f"ein Name hat {NAME_MIN} bis {NAME_MAX} Buchstaben, Ziffern, einzelne Leerzeichen,"
            " '-', '_' oder '.' und beginnt mit einem Buchstaben oder einer Ziffer",
        )
    key = name_key(name)
    if key == "bot" or key.startswith("bot ") or key.startswith("bot-") or key.startswith("bot_"):
        raise Problem(
            422,
            "invalid_name",
            f"'{name}' would read as a bot's name; choose another",
            de=f"'{name}' sähe aus wie der Name eines Bots; wähle einen anderen",
        )
    return name


def checked_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise Problem(
            422,
            "invalid_password",
            f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters",
            de=f"ein Passwort hat {PASSWORD_MIN} bis {PASSWORD_MAX} Zeichen",
        )
    return password


class Hashing:
    """Argon2id off the event loop: at most ``at_once`` hashes run, at most ``queue`` wait."""

    def __init__(self, at_once: int, queue: int) -> None:
        self.running = asyncio.Semaphore(max(1, at_once))
        self.queue = queue
        self.waiting = 0
        self._dummy: str | None = None

    async def _run(self, work: Any, *args: Any) -> Any:
        if self.waiting >= self.queue:
            raise Problem(
                429,
                "too_many_logins",
                "the server checks too many passwords at the moment; try again in a few seconds",
                headers={"Retry-After": "5"},
                de="der Server prüft gerade zu viele Passwörter; versuche es in ein paar Sekunden wieder",
            )
        self.waiting += 1
        try:
            async with self.running:
                return await asyncio.to_thread(work, *args)
        finally:
            self.waiting -= 1

    async def hash(self, password: str) -> str:
        hashed: str = await self._run(_HASHER.hash, password)
        return hashed

    async def verify(self, hashed: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``hashed`` was made of (``None``: an unknown name,
        checked against a dummy hash all the same)."""
        if hashed is None:
            if self._dummy is None:
                self._dummy = await self.hash("not a password of anyone")
            hashed = self._dummy

        def check(h: str) -> bool:
            try:
                return bool(_HASHER.verify(h, password))
            except (VerificationError, InvalidHashError):
                return False

        ok: bool = await self._run(check, hashed)
        return ok


class Pace(Window):
    """At most ``most`` logins and registrations per client a minute on this worker
    (guessing passwords is slow work for a stranger)."""

    def __init__(self, most: int, window_s: float = 60.0) -> None:
        super().__init__(most, window_s)

    def check(self, client: str) -> None:
        wait = self.admit(client)
        if wait is not None:
            raise Problem(
                429,
                "too_many_logins",
                f"at most {self.most} logins and registrations per minute per client; try again in {wait} s",
                headers={"Retry-After": str(wait)},
                de=f"höchstens {self.most} Anmeldungen und Registrierungen pro Minute je Client;"
                f" versuche es in {wait} s wieder",
            )


class Players:
    def __init__(self, store: Store, clock: Clock, limits: Limits) -> None:
        self.store = store
        self.clock = clock
        self.hashing = Hashing(limits.password_hashes_at_once, limits.password_hash_queue)
        self.pace = Pace(limits.logins_per_client_per_minute)

    async def register(self, name: str, password: str, client: str) -> Player:
        """A new player (409 ``name_taken`` if the name, whatever its case, is someone's)."""
        name = checked_name(name)
        checked_password(password)
        self.pace.check(client)
        taken = Problem(
            409,
            "name_taken",
            f"the name '{name}' is taken; choose another",
            de=f"der Name '{name}' ist vergeben; wähle einen anderen",
        )
        if await self.by_name(name) is not None:
            raise taken
        hashed = await self.hashing.hash(password)
        try:
            async with self.store.writing() as session:
                row = PlayerRow(
                    name=name, name_key=name_key(name), password_hash=hashed, created_at=self.clock.now()
                )
                session.add(row)
                await session.flush()
                return Player(row.id, row.name)
        except IntegrityError:  # registered meanwhile, by another request
            raise taken from None

    async def login(self, name: str, password: str, client: str) -> Player:
        """The player whose name and password these are, else 401 ``wrong_login`` (the same
        for an unknown name and a wrong password)."""
        self.pace.check(client)
        async with self.store.sessions() as session:
            row = (
                await session.execute(select(PlayerRow).where(PlayerRow.name_key == name_key(name.strip())))
            ).scalar_one_or_none()
        if not await self.hashing.verify(row.password_hash if row else None, password) or row is None:
            raise Problem(
                401,
                "wrong_login",
                "no player has this name and password",
                de="kein Spieler hat diesen Namen und dieses Passwort",
            )
        return Player(row.id, row.name)

    async def forget_sessions(self) -> None:
        """Sessions past their time (``sessions.py`` keeps them in this database)."""
        async with self.store.writing() as session:
            await session.execute(delete(SessionRow).where(SessionRow.expires_at <= time.time()))

    async def by_name(self, name: str) -> Player | None:
        async with self.store.sessions() as session:
            row = (
                await session.execute(
                    select(PlayerRow.id, PlayerRow.name).where(PlayerRow.name_key == name_key(name))
                )
            ).one_or_none()
        return Player(row[0], row[1]) if row else None

    async def by_id(self, player_id: int) -> Player | None:
        async with self.store.sessions() as session:
            row = (
                await session.execute(select(PlayerRow.id, PlayerRow.name).where(PlayerRow.id == player_id))
            ).one_or_none()
        return Player(row[0], row[1]) if row else None

    async def profile(self, name: str, ratings: Any) -> schemas.Profile:
        """The player's ratings per game and pool, their history and latest matches (never a
        password, a hash or a token). 404 ``unknown_player``."""
        player = await self.by_name(name)
        if player is None:
            raise Problem(
                404,
                "unknown_player",
                f"no player is called '{name[:40]}'",
                de=f"kein Spieler heißt '{name[:40]}'",
            )
        async with self.store.sessions() as session:
            rated = (
                await session.execute(select(RatingRow).where(RatingRow.player_id == player.id))
            ).scalars()
            current = [ratings.out(r.game, r.pool, r.mu, r.sigma, r.matches) for r in rated]
            history = (
                await session.execute(
                    select(RatingEventRow)
                    .where(RatingEventRow.player_id == player.id)
                    .order_by(RatingEventRow.at.desc(), RatingEventRow.id.desc())
                    .limit(PROFILE_HISTORY)
                )
            ).scalars()
            past = [
                schemas.RatingStep(
                    game=e.game,
                    pool=e.pool,  # type: ignore[arg-type]
                    match_id=e.match_id,
                    outcome=e.outcome,  # type: ignore[arg-type]
                    rating=ratings.shown(e.mu),
                    at=e.at,
                )
                for e in history
            ]
            played = (
                await session.execute(
                    select(
                        MatchRow.id,
                        MatchRow.game,
                        MatchRow.status,
                        MatchRow.created_at,
                        MatchRow.names,
                        MatchRow.seats,
                        MatchPlayerRow.seat,
                        MatchRow.result,
                    )
                    .join(MatchPlayerRow, MatchPlayerRow.match_id == MatchRow.id)
                    # Ended matches only: a running one reached by its link is no one else's.
                    .where(MatchPlayerRow.player_id == player.id, MatchRow.status != "running")
                    .order_by(MatchRow.created_at.desc())
                    .limit(PROFILE_MATCHES)
                )
            ).all()
            # Who took a seat after the match was created (from the lobby, or by its link).
            joined: dict[tuple[str, int], str] = {
                (j.match_id, j.seat): j.name
                for j in (
                    await session.execute(
                        select(SeatJoinRow.match_id, SeatJoinRow.seat, SeatJoinRow.name).where(
                            SeatJoinRow.match_id.in_([r.id for r in played]), SeatJoinRow.name.is_not(None)
                        )
                    )
                ).all()
            }
        matches = [
            schemas.PlayedMatch(
                id=r.id,
                game=r.game,
                status=r.status,
                created_at=r.created_at,
                seat=r.seat,
                names=[
                    joined.get((r.id, s)) or ((r.names or [None] * len(r.seats))[s] or {}).get("name")
                    for s in range(len(r.seats))
                ],
                bots=[spec.get("bot") if spec.get("kind") == "bot" else None for spec in r.seats],
                returns=(r.result or {}).get("returns"),
            )
            for r in played
        ]
        current.sort(key=lambda r: (r.game, r.pool))
        past.reverse()  # oldest first: the chart's order
        return schemas.Profile(name=player.name, ratings=current, history=past, matches=matches)
