"""Bots by name for every game: ``make(name, game, seed=0, **params)`` and ``names(game)``.

>>> import spielwerk
>>> spielwerk.bots.names("schotten_totten")
['heuristic', 'ismcts', 'random']
>>> bot = spielwerk.bots.make("ismcts", "schotten_totten", seed=1, iterations=200)
>>> state = bot.game.new_initial_state(seed=7)
>>> action = bot.step(state)
>>> action in state.legal_actions()
True
>>> bot.step_many([state, state.resample(0, 3)]) == [action, action]  # equal views
True

A bot decides for one seat from what that seat may see, seeded by its own seed and the
seat's information state: the same seed gives the same move, and so does every state
that looks the same to the seat. The bots:

- ``random``: uniformly among the legal actions (no parameters).
- ``heuristic``: each game's rules-based player, what a good human would do by rule of
  thumb (no parameters; see ``benches/README.md`` for its strength).
- ``ismcts``: single-observer information-set Monte Carlo tree search (Cowling, Powley and
  Whitehouse 2012). Parameters: ``iterations`` (default 1000), ``time_ms`` (a time budget
  per move; alone it lifts the iteration limit; decisions then depend on the machine),
  ``c`` (UCB1 exploration for rewards in [0, 1], default 0.7), ``rollout``
  (``"random"``, or ``"heuristic"``: every seat plays the heuristic in the playouts) and
  ``prior`` (default 0, up to 100: a progressive bias towards the heuristic's action,
  ``prior / (1 + visits)`` added to its UCB value at every node; it is tried first, and
  untried actions count as one visit at the neutral reward instead of infinitely urgent),
  ``rollout_depth`` (default ``None``: rollouts play to the end; a number from 0 to 10000
  stops each rollout after that many actions and scores the position by the game's
  estimate of each seat's chance to win, where the game has one: Schotten Totten and Dog;
  Caravan and The Game play on to the end),
  ``dominant`` (default ``False``; ``True`` takes the game's dominant actions at once
  instead of searching them: Schotten Totten's provable claims, S3b/S5) and ``widen``
  (default 0: off; up to 1000: progressive widening, each node weighs only the ``widen``
  actions its actor's heuristic ranks best in the deal, one more each time the square
  root of the node's visits grows by 4; Schotten Totten ranks its card plays, other games
  none, and then every legal action is weighed). Recommended for
  Schotten Totten: ``rollout="heuristic", rollout_depth=1, c=0.4, dominant=True,
  widen=4`` (66% against ``heuristic`` over 2,400 fresh games at 1,000 iterations,
  27-28 ms per move; ``rollout_depth=0`` without the heuristic reply: 63% at 22-26 ms); for Dog:
  ``rollout="heuristic", rollout_depth=8, prior=2`` (see ``benches/README.md``).

An unknown name or parameter is a ``spielwerk.errors.SpielwerkError`` (a ``ValueError``)
with the code ``unknown_bot`` or ``invalid_bot_params`` that names the allowed ones.
"""

from __future__ import annotations

from typing import Any

from spielwerk._spielwerk import Bot, Game, bot_names, make_bot

__all__ = ["Bot", "make", "names"]


def make(name: str, game: str | Game, seed: int = 0, **params: Any) -> Bot:
    """The bot ``name`` for ``game`` (a ``spielwerk.Game`` or a game's name), seeded."""
    return make_bot(name, game, seed, **params)


def names(game: str | Game) -> list[str]:
    """The names of the bots that play ``game``, sorted."""
    return bot_names(game)
