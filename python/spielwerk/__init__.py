"""spielwerk: exact, fast rules engines for card games.

    >>> import spielwerk
    >>> game = spielwerk.load_game("schotten_totten")
    >>> state = game.new_initial_state(seed=42)
    >>> state.current_player()
    0

The engine is written in Rust (``spielwerk-core``); this package is a thin binding.
``spielwerk.schotten_totten`` and ``spielwerk.the_game`` hold the games' own helpers, and
``spielwerk.bots`` the bots by name (``evaluate`` plays them against each other, on this
machine or on a Ray cluster: ``spielwerk.evaluation``), and
``spielwerk.errors`` the exceptions (all of them ``ValueError``\\ s under ``SpielwerkError``).
``spielwerk.pettingzoo`` and ``spielwerk.gymnasium`` are reinforcement-learning
environments (extra ``spielwerk[rl]``), and ``spielwerk.openspiel`` registers the games
as OpenSpiel games (extra ``spielwerk[openspiel]``); they are imported only when asked
for, so that ``import spielwerk`` needs none of these libraries.
"""

from spielwerk import bots, errors, evaluation, schotten_totten, the_game
from spielwerk._spielwerk import (
    TERMINAL,
    BotStanding,
    EvaluationPart,
    Game,
    RandomBot,
    SimulationSummary,
    State,
    VectorEnv,
    evaluate_games,
    list_games,
    load_game,
    simulate,
)
from spielwerk.errors import (
    IllegalActionError,
    InvalidMoveError,
    InvalidOptionError,
    InvalidStateError,
    SpielwerkError,
    UnknownGameError,
)
from spielwerk.evaluation import evaluate

__all__ = [
    "TERMINAL",
    "BotStanding",
    "EvaluationPart",
    "Game",
    "IllegalActionError",
    "InvalidMoveError",
    "InvalidOptionError",
    "InvalidStateError",
    "RandomBot",
    "SimulationSummary",
    "SpielwerkError",
    "State",
    "UnknownGameError",
    "VectorEnv",
    "bots",
    "errors",
    "evaluate",
    "evaluate_games",
    "evaluation",
    "list_games",
    "load_game",
    "schotten_totten",
    "simulate",
    "the_game",
]
