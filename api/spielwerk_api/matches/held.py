"""What the rooms that act on their own (``bot_driving``, ``lifecycle``) ask of the service:
the matches a worker holds, read, locked and committed one way. ``service.Matches`` is it;
the rooms depend on this, not on the service, so the service stays the one that imports."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Protocol

from ..clock import Clock
from .limits import Limits
from .match import Match
from .seats import Seats
from .store import Store


class HeldMatches(Protocol):
    """The matches a worker holds: its cache, their locks, reading and committing."""

    clock: Clock
    limits: Limits
    store: Store
    seats: Seats
    cache: OrderedDict[str, Match]
    cache_size: int

    def lock(self, match_id: str) -> asyncio.Lock: ...

    async def get(self, match_id: str) -> Match: ...

    async def settle(self, m: Match) -> bool: ...

    async def commit(self, m: Match, probe: Match) -> None: ...
