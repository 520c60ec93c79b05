"""Bots by name and by level for every game: ``make(name, game, seed=0, **params)``,
``names(game)`` and ``levels(game)``.

    >>> import spielwerk
    >>> spielwerk.bots.names("schotten_totten")
    ['heuristic', 'ismcts', 'pimc', 'random']
    >>> [level["name"] for level in spielwerk.bots.levels("schotten_totten")]
    ['easy', 'normal', 'strong']
    >>> strong = spielwerk.bots.make("strong", "schotten_totten", seed=1)
    >>> (strong.level, strong.name) == ("strong", spielwerk.bots.levels("schotten_totten")[2]["bot"])
    True
    >>> bot = spielwerk.bots.make("ismcts", "schotten_totten", seed=1, iterations=200)
    >>> state = bot.game.new_initial_state(seed=7)
    >>> action = bot.step(state)
    >>> action in state.legal_actions()
    True
    >>> bot.step_many([state, state.resample(0, 3)]) == [action, action]  # equal views
    True

**Levels.** ``easy``, ``normal`` and ``strong`` are each game's bots by strength, chosen
by measurement in the engine (``benches/README.md``, "Levels"), bounded by iterations or
deals (never by wall time, so a level decides the same on every machine) and costing at
most about 5, 50 and 250 ms a move on one core. ``levels(game)`` lists them weakest first,
each with the bot and settings behind it, its ``rating`` from the shipped ladder
(``spielwerk ladder``: Elo by maximum likelihood with ``heuristic`` at 1500 and a 95 %
interval; for The Game the perfect-game rate and the cards left at the game's player
count) and its measured ``cpu_ms_per_move``. A level's settings are fixed: it takes only
``time_ms``, a bound on the time a move may take (a server's).

A bot decides for one seat from what that seat may see, seeded by its own seed and the
seat's information state: the same seed gives the same move, and so does every state
that looks the same to the seat. The bots:

- ``random``: uniformly among the legal actions (no parameters).
- ``heuristic``: each game's rules-based player, what a good human would do by rule of
  thumb (no parameters; see ``benches/README.md`` for its strength).
- ``pimc``: determinized search over the heuristic (perfect-information Monte Carlo):
  ``samples`` deals of the unseen cards consistent with the seat's view (default 32), in
  each every candidate action played on by every seat's heuristic; it plays another
  action than the heuristic's only where that action's paired mean beats it by more than
  ``confidence`` standard errors (default 1; 0: the best mean). ``width`` (default 0:
  every legal action) weighs only the heuristic's best-ranked actions (The Game and
  Schotten Totten rank theirs), ``win_bonus`` (default 0.25) rewards a perfect game of
  The Game beyond the cards played, ``rollout_depth`` and ``dominant`` (default ``True``)
  as for ``ismcts``, ``time_ms`` a time budget.
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

from spielwerk._spielwerk import Bot, Game, bot_levels, bot_names, bot_rating, make_bot

__all__ = ["LEVELS", "Bot", "levels", "make", "names", "rating"]

#: The level names, weakest first.
LEVELS = ("easy", "normal", "strong")


def make(name: str, game: str | Game, seed: int = 0, **params: Any) -> Bot:
    """The bot or level ``name`` for ``game`` (a ``spielwerk.Game`` or a game's name),
    seeded."""
    return make_bot(name, game, seed, **params)


def levels(game: str | Game) -> list[dict[str, Any]]:
    """The levels of ``game``, weakest first: dicts of ``name``, ``bot``, ``params``,
    ``rating`` and ``cpu_ms_per_move`` (the last two ``None`` where not measured)."""
    return bot_levels(game)


def rating(game: str | Game, name: str) -> tuple[Any, Any]:
    """What the shipped ladder measured of the bot or level ``name`` in ``game``: its
    rating (The Game: its figures at the game's player count) and its cost per move,
    each ``None`` where not measured."""
    return bot_rating(game, name)


def names(game: str | Game) -> list[str]:
    """The names of the bots that play ``game``, sorted."""
    return bot_names(game)
