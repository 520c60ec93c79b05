"""Bots that sit at match seats: the engine's bots by name (``spielwerk.bots``).

A bot decides from what its seat may see (the engine's bots read only the seat's
information state). Every decision is seeded by the match seed, the ply and the seat, so a
match replays the same after a restart (its plies are stored; only a decision not yet stored
is made again). Strangers choose the parameters, so the work a search may do per move is
bounded here, in iterations and in time, and every search runs in one bounded pool off the
event loop (``SearchPool``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import heapq
import itertools
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import spielwerk
import spielwerk.bots

from .problems import Problem

# The most a bot seat may search per move: a match must never hold a worker for long.
LIMITS = {"iterations": 5_000, "time_ms": 1_000}
# The levels a page offers are the engine's (``spielwerk.bots.levels``: easy, normal, strong,
# each measured and rated); a seat holds a level by its name, and the server adds only its
# time bound.
# Who waits for a search first: a person waiting for the bot's reply in their match always
# goes first; a stranger's stateless bot move (``POST /v1/bots/…``) and the matches of bots
# alone come after, in turn.
PERSON, STATELESS, BOTS_ALONE = 0, 1, 1


def check(name: str, game: spielwerk.Game, params: dict[str, Any]) -> None:
    """Refuse unknown bots, unknown parameters (the engine names the allowed ones) and
    searches beyond the limits."""
    for key, limit in LIMITS.items():
        value = params.get(key)
        if isinstance(value, int | float) and not isinstance(value, bool) and value > limit:
            raise Problem(
                422,
                "invalid_bot_params",
                f"bot '{name[:40]}': {key} is at most {limit} on this server",
                de=f"Bot '{name[:40]}': {key} ist auf diesem Server höchstens {limit}",
            )
    spielwerk.bots.make(name, game, 0, **params)  # the engine's own checks


@functools.lru_cache(maxsize=64)
def searches(game: str, name: str) -> bool:
    """Whether the engine says the bot searches (``Bot.searches``): its decisions take long
    enough to run off the event loop, one per request. Only names of stored, checked seats
    reach here; the cache is bounded all the same."""
    return spielwerk.bots.make(name, spielwerk.load_game(game), 0).searches


def offered(game: spielwerk.Game) -> list[dict[str, Any]]:
    """The engine's bots for ``game`` by name, each with whether it searches."""
    return [{"name": name, "searches": searches(game.name, name)} for name in spielwerk.bots.names(game.name)]


def levels(game: spielwerk.Game) -> list[dict[str, Any]]:
    """The engine's levels for ``game``, weakest first, as a client offers them: the name a
    seat holds, the bot and settings behind it, and what the engine's ladder measured (for
    two-sided games ``elo``, the rating with ``heuristic`` at 1500)."""
    out = []
    for level in spielwerk.bots.levels(game):
        rating = level["rating"]
        elo = rating.get("elo") if isinstance(rating, dict) else None
        out.append({**level, "elo": elo})
    return out


def decision_seed(match_seed: int, ply: int, seat: int) -> int:
    digest = hashlib.blake2b(f"{match_seed}:{ply}:{seat}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def bounded(name: str, game: spielwerk.Game, params: dict[str, Any], time_ms: int) -> dict[str, Any]:
    """The parameters of a search with the server's time bound added (``time_ms`` at most
    ``time_ms``). The engine stops at whichever bound comes first; ``time_ms`` alone would
    lift the iteration limit, so the iterations are kept explicit (the bot's default)."""
    if not searches(game.name, name):
        return params
    if name in spielwerk.bots.LEVELS:
        # A level's settings are the engine's; it takes only the time bound.
        given = params.get("time_ms")
        return {"time_ms": time_ms if given is None else min(int(given), time_ms)}
    out = dict(params)
    if "iterations" not in out and out.get("time_ms") is None:
        out["iterations"] = spielwerk.bots.make(name, game, 0, **params).params["iterations"]
    given = out.get("time_ms")
    out["time_ms"] = time_ms if given is None else min(int(given), time_ms)
    return out


def make(
    name: str, params: dict[str, Any], state: spielwerk.State, seat: int, match_seed: int, ply: int
) -> Any:
    return spielwerk.bots.make(name, state.game, decision_seed(match_seed, ply, seat), **params)


class SearchPool:
    """Every search of a worker runs here: a few threads (the engine's ``Bot.step`` runs
    without the GIL, so the event loop goes on meanwhile), taken in turn by priority and
    then first come, first served. A match asks for one search at a time and asks again
    only once its ply is stored, so matches take turns. A stateless bot move is refused
    while ``busy`` (rules.py), not queued without end."""

    def __init__(self, threads: int = 1, max_waiting: int = 256) -> None:
        self.threads = max(1, threads)
        self.max_waiting = max_waiting
        self.executor = ThreadPoolExecutor(self.threads, thread_name_prefix="spielwerk-search")
        self.running = 0
        self.waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self.order = itertools.count()
        # Stateless searches in the pool per client (``share``).
        self.shares: dict[str, int] = {}

    def busy(self) -> bool:
        return len(self.waiting) >= self.max_waiting

    async def step(
        self, bot: Any, state: spielwerk.State, seat: int, priority: int = PERSON
    ) -> tuple[int, float]:
        """The bot's action for ``seat`` and the seconds its search took."""
        if self.running >= self.threads or self.waiting:
            turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            entry = (priority, next(self.order), turn)
            heapq.heappush(self.waiting, entry)
            try:
                await turn
            except BaseException:
                if entry in self.waiting:
                    self.waiting.remove(entry)
                    heapq.heapify(self.waiting)
                elif turn.done() and not turn.cancelled():
                    self._next()  # the slot handed to this search passes on
                raise
        else:
            self.running += 1
        try:
            started = time.monotonic()
            loop = asyncio.get_running_loop()
            action: int = await loop.run_in_executor(self.executor, bot.step, state, seat)
            return action, time.monotonic() - started
        finally:
            self._next()

    def _next(self) -> None:
        """Hands the slot of a search that ended to the next one waiting (else frees it)."""
        while self.waiting:
            _, _, turn = heapq.heappop(self.waiting)
            if not turn.done():
                turn.set_result(None)
                return
        self.running -= 1

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)

    @contextlib.contextmanager
    def share(self, client: str, most: int) -> Iterator[None]:
        """One client's stateless searches in the pool, waiting or running: at most ``most``
        at once (429 ``too_many_searches``), so that one client cannot take every place."""
        held = self.shares.get(client, 0)
        if held >= most:
            raise Problem(
                429,
                "too_many_searches",
                f"a client has at most {most} bot searches waiting or running at once;"
                " wait for an answer before asking again",
                headers={"Retry-After": "1"},
                de=f"ein Client hat höchstens {most} Bot-Suchen zugleich wartend oder laufend;"
                " warte auf eine Antwort, bevor du wieder fragst",
            )
        self.shares[client] = held + 1
        try:
            yield
        finally:
            left = self.shares[client] - 1
            if left:
                self.shares[client] = left
            else:
                del self.shares[client]


async def decide(
    pool: SearchPool,
    name: str,
    params: dict[str, Any],
    state: spielwerk.State,
    seat: int,
    match_seed: int,
    ply: int,
    *,
    priority: int = PERSON,
) -> tuple[int, float]:
    """The bot's action and the seconds of search it took (0 for a rule-based bot, which
    answers in microseconds on the loop)."""
    bot = make(name, params, state, seat, match_seed, ply)
    if bot.searches:
        return await pool.step(bot, state, seat, priority)
    return bot.step(state, seat), 0.0
