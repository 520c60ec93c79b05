"""spielwerk: exact, fast rules engines for card games.

>>> import spielwerk
>>> game = spielwerk.load_game("schotten_totten")
>>> state = game.new_initial_state(seed=42)
>>> state.current_player()
0

The engine is written in Rust (``spielwerk-core``); this package is a thin binding.
"""

from spielwerk._spielwerk import (
    TERMINAL,
    Game,
    IllegalActionError,
    RandomBot,
    SimulationSummary,
    State,
    list_games,
    load_game,
    simulate,
)

__all__ = [
    "TERMINAL",
    "Game",
    "IllegalActionError",
    "RandomBot",
    "SimulationSummary",
    "State",
    "list_games",
    "load_game",
    "simulate",
]
