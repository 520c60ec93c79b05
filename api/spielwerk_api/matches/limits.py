"""What a worker spends on strangers: the limits ``Settings`` (app.py) sets from the
environment, and the constants of the service's own pacing."""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass

# Presence is written at most this often per seat and worker (a request is a sign of life).
PRESENCE_WRITE_S = 5.0
# A worker reads a match's presence for the leave rule's countdown at most this often.
PRESENCE_READ_S = 2.0
# Rule-based bots' plies are stored in chunks of at most this many plies or this much
# deciding, so a match of them played out at once leaves the event loop to others in between.
FAST_PLIES = 64
FAST_S = 0.002


@dataclass
class Limits:
    """What a worker spends on strangers; ``Settings`` (app.py) holds them, the docs' web API
    page lists them."""

    # Matches whose replayed state a worker keeps (least recently used go first).
    cache_matches: int = 512
    # Threads that run searches (the engine releases the GIL while it searches).
    search_threads: int = 1
    # Stateless bot moves waiting for a thread beyond this are refused (503, Retry-After).
    search_waiting: int = 64
    # Stateless bot moves one client may have waiting or running at once (429): a client
    # cannot take every place of the queue.
    searches_per_client: int = 2
    # Every search stops after this (and after its iterations, whichever comes first).
    search_time_ms: int = 1_000
    # Seconds of search a match may spend on this worker; then its search bots play as the
    # game's heuristic bot (microseconds a move) to the end.
    match_search_s: float = 300.0
    # Running matches of search bots alone: in all, and per client on this worker (429).
    bot_matches: int = 32
    bot_matches_per_client: int = 2
    # Matches of bots alone are deleted this long after they were created (0: kept).
    bot_match_retention_s: float = 86_400.0
    # How often a worker says it is alive; a start after a silence longer than
    # ``outage_after_s`` counts the silence as an outage that runs on nobody's time.
    heartbeat_s: float = 1.0
    outage_after_s: float = 2.5
    # A match with an open seat nobody took for this long is withdrawn (it never began:
    # status "aborted", the engine's "withdrawn" ending) and no longer listed; 0: it waits
    # as long as it takes.
    open_match_s: float = 3_600.0
    # Messages of table talk stored per match; more are refused (409 chat_full).
    chat_messages_per_match: int = 1_000
    # Messages one seat may say in a minute; more are refused (429 chat_too_fast), so that
    # one seat cannot fill the match's cap and silence the others.
    chat_per_seat_per_minute: int = 20
    # Matches with a seat open to the lobby one client may have waiting at once (429): one
    # client cannot push everyone else's off the lobby's page.
    open_matches_per_client: int = 3
    # Passwords hashed or checked at once (Argon2id: 64 MiB and tens of milliseconds each,
    # off the event loop), and how many may wait for that; beyond, 429 too_many_logins.
    password_hashes_at_once: int = 2
    password_hash_queue: int = 16
    # Logins and registrations one client may try per minute (429 too_many_logins).
    logins_per_client_per_minute: int = 10
    # Matches of bots alone (of every kind: rule-based ones are played out at once, yet each is
    # stored for bot_match_retention_s) one client may create an hour on a worker (429).
    bot_matches_per_client_per_hour: int = 120


class Window:
    """At most ``most`` events per key in any ``window_s`` (a sliding window on this worker,
    forgetting the least recently seen keys beyond ``keys``)."""

    def __init__(self, most: int, window_s: float, keys: int = 10_000) -> None:
        self.most = most
        self.window_s = window_s
        self.keys = keys
        self.seen: collections.OrderedDict[str, collections.deque[float]] = collections.OrderedDict()

    def admit(self, key: str) -> int | None:
        """Counts an event of ``key``; ``None`` if admitted, else the seconds until one is."""
        now = time.monotonic()
        times = self.seen.pop(key, None) or collections.deque()
        while times and times[0] <= now - self.window_s:
            times.popleft()
        self.seen[key] = times
        while len(self.seen) > self.keys:
            self.seen.popitem(last=False)
        if len(times) >= self.most:
            return max(1, int(times[0] + self.window_s - now) + 1)
        times.append(now)
        return None
