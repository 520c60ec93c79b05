"""Request bodies as the server reads them: JSON objects name each key once.

JSON parsers disagree on ``{"seed": 1, "seed": 2}`` (msgspec, like most, keeps the last; some
keep the first), so a body with a repeated key means different things to a proxy, a client's
validator and this server. The server refuses it (400 ``invalid_body``, naming the key) rather
than guess. The engine's own JSON (a state, a move) refuses repeated fields itself (serde).
"""

from __future__ import annotations

import json
from typing import Any

from litestar import Request
from litestar.types import Empty

from .problems import Problem


class RepeatedKey(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def refuse_repeated_keys(pairs: list[tuple[str, Any]]) -> None:
    """An ``object_pairs_hook`` that only checks: the value itself is msgspec's."""
    if len(pairs) > 1:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey(key)
            seen.add(key)


def check_unique_keys(body: bytes) -> None:
    """400 ``invalid_body`` if an object of the JSON ``body`` names a key twice."""
    if body.count(b":") < 2:  # fewer than two members in all: nothing can repeat
        return
    try:
        json.loads(body, object_pairs_hook=refuse_repeated_keys)
    except RepeatedKey as repeated:
        key = repeated.key[:40]
        raise Problem(
            400,
            "invalid_body",
            f'invalid request body: the key "{key}" appears twice in one object; name each key once',
            de=f'ungültiger Rumpf der Anfrage: der Schlüssel "{key}" steht zweimal in einem Objekt;'
            " nenne jeden Schlüssel einmal",
        ) from None


class SpielwerkRequest(Request[Any, Any, Any]):
    """Litestar's request, whose JSON body is checked for repeated keys once, when first read."""

    async def json(self) -> Any:
        first_read = self._json is Empty and self._connection_state.json is Empty
        value = await super().json()
        if first_read:
            check_unique_keys(await self.body())
        return value
