"""The one door to the engine: games by name and options, cached.

The app decides no rule itself. Everything here only finds the engine's game for a request;
what is legal, what a seat may see and why a move is refused all come from ``spielwerk``.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import spielwerk

from . import bots


def game_name(name: str) -> str:
    """URLs may spell games with hyphens (``schotten-totten``); the engine uses underscores."""
    return name.replace("-", "_")


@lru_cache(maxsize=512)
def _load(name: str, options_json: str) -> spielwerk.Game:
    return spielwerk.load_game(name, **json.loads(options_json))


def load_game(name: str, options: dict[str, Any] | None = None) -> spielwerk.Game:
    """The engine's game; unknown names and options raise the engine's own errors.

    Games are immutable, so one object per (name, options) serves every request. The cache
    key is the options' canonical JSON; the engine validates them on the first load.
    """
    # Most requests send no options: no key to encode for them (json.dumps takes some 5 us).
    key = json.dumps(options, sort_keys=True, separators=(",", ":")) if options else "{}"
    return _load(game_name(name), key)


def game_info(name: str) -> dict[str, Any]:
    """What a client needs to offer a game: players, options and the size of the action space."""
    game = spielwerk.load_game(name)
    specs = game.option_specs()
    return {
        "name": name,
        "players": game.num_players(),
        "utility": game.utility(),
        "num_distinct_actions": game.num_distinct_actions(),
        "max_game_length": game.max_game_length(),
        "options": specs,
        "defaults": game.options(),
        # The variants are the options that make a match unranked, as the engine's ranked()
        # says (C10: Caravan's twelve); The Game's `pro` is a plain option, its match ranked.
        "variants": [
            s["name"]
            for s in specs
            if s["type"] == "bool" and not load_game(name, {s["name"]: True}).ranked()
        ],
        # What the engine says the game has, so that clients need not know games by name.
        "table_talk": game.has_table_talk(),
        "playing_time": game.has_playing_time(),
        "bots": bots.offered(game),
        "levels": bots.levels(game),
    }
