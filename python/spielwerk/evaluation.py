"""Bots against each other: ``evaluate`` on this machine's cores or on a Ray cluster.

    >>> import spielwerk
    >>> [s.games for s in spielwerk.evaluate("schotten_totten", ["random", "random"], 4, seed=1)]
    [4, 4]

A run of ``n_games`` seeded games can be played in parts (``evaluate_games(game, bots,
start, stop, seed)`` plays games ``start`` to ``stop`` of it) and the parts merged
(``EvaluationPart.merge``): the merged standings equal those of the whole run exactly,
however it was cut and wherever the parts were played. ``backend="ray"`` spreads the parts
over a Ray cluster that way (install ``spielwerk[ray]``); ``play_in_parts`` yields them as
they finish, for a progress bar.
"""

from __future__ import annotations

import functools
import importlib
import math
from collections.abc import Generator, Iterable, Iterator, Sequence
from typing import Any, TypeAlias

from spielwerk._spielwerk import (
    Bot,
    BotStanding,
    EvaluationPart,
    Game,
    evaluate_games,
    load_game,
    make_bot,
)
from spielwerk._spielwerk import evaluate as evaluate_locally

__all__ = ["BACKENDS", "BotSpec", "evaluate", "merge", "play_in_parts"]

BACKENDS = ("local", "ray")

#: A bot for ``evaluate``: a made bot, a bot's name, or a ``(name, params)`` pair.
BotSpec: TypeAlias = Bot | str | tuple[str, dict[str, Any] | None]

#: How many parts per CPU of the cluster: enough to even out slow and fast games.
PARTS_PER_CPU = 4


def evaluate(
    game: str | Game,
    bots: Iterable[BotSpec],
    n_games: int,
    seed: int = 0,
    threads: int | None = None,
    backend: str = "local",
    address: str | None = None,
) -> list[BotStanding]:
    """Plays ``n_games`` seeded games between ``bots`` with the seats rotated (two-player
    games: each deal twice, swapped) and returns one standing per bot. The result depends
    on ``seed`` (and the bots' seeds) only, never on ``threads`` or ``backend``.

    ``backend="local"`` plays in Rust on ``threads`` threads (all cores if None);
    ``backend="ray"`` spreads parts of the run over a Ray cluster: the one at ``address``
    (``ray.init(address=...)``), else the one this process is connected to, else a running
    or a new local one. Each Ray task plays its part on ``threads`` threads (default 1,
    one CPU per task). Ctrl-C stops either (``KeyboardInterrupt``).
    """
    check_backend(backend, address)
    if backend == "local":
        return evaluate_locally(game, bots, n_games, seed, threads)
    return merge(play_in_parts(game, bots, n_games, seed, threads, backend, address)).standings()


def check_backend(backend: str, address: str | None) -> None:
    if backend not in BACKENDS:
        allowed = ", ".join(repr(b) for b in BACKENDS)
        raise ValueError(f"unknown backend {backend!r}: the backends are {allowed}")
    if address is not None and backend != "ray":
        raise ValueError("address is the Ray cluster's: give it with backend='ray'")


def merge(parts: Iterable[EvaluationPart]) -> EvaluationPart:
    """The parts of one run together (in any order: the result is the same)."""
    return functools.reduce(EvaluationPart.merge, parts)


def play_in_parts(
    game: str | Game,
    bots: Iterable[BotSpec],
    n_games: int,
    seed: int = 0,
    threads: int | None = None,
    backend: str = "local",
    address: str | None = None,
    part_size: int | None = None,
) -> Generator[EvaluationPart, None, None]:
    """The run ``evaluate(game, bots, n_games, seed)`` as parts of ``part_size`` games
    (default: about 100 parts locally, ``PARTS_PER_CPU`` per CPU on Ray), each yielded as it
    finishes (on Ray in any order). ``merge`` of them all gives the run's standings. The
    arguments are checked before anything is played; stopping the iteration (or Ctrl-C)
    cancels the parts not yet played.
    """
    check_backend(backend, address)
    if part_size is not None and part_size < 1:
        raise ValueError(f"part_size must be at least 1, got {part_size}")
    if isinstance(game, str):
        game = load_game(game)
    bots = list(bots)
    # No games: checks the bots, the game and threads as the run itself would.
    empty = evaluate_games(game, bots, 0, 0, seed, threads)
    if n_games < 0:
        raise ValueError(f"n_games {n_games} must be 0 or more")
    if n_games == 0:
        yield empty
        return
    if backend == "local":
        size = part_size or max(1, math.ceil(n_games / 100))
        for start in range(0, n_games, size):
            yield evaluate_games(game, bots, start, min(start + size, n_games), seed, threads)
    else:
        yield from _play_on_ray(game, [_spec(b) for b in bots], n_games, seed, threads, address, part_size)


def _spec(bot: BotSpec) -> tuple[str, dict[str, Any], int]:
    """A bot as Ray can ship it: name, parameters and seed (made bots stay on this side)."""
    if isinstance(bot, Bot):
        return bot.name, bot.params, bot.seed
    if isinstance(bot, str):
        return bot, {}, 0
    name, params = bot
    return name, dict(params or {}), 0


def _play_part(
    game: Game,
    specs: Sequence[tuple[str, dict[str, Any], int]],
    start: int,
    stop: int,
    seed: int,
    threads: int,
) -> EvaluationPart:
    """One Ray task: the bots made anew from their specs, then games ``start..stop``."""
    bots = [make_bot(name, game, bot_seed, **params) for name, params, bot_seed in specs]
    return evaluate_games(game, bots, start, stop, seed, threads)


def _play_on_ray(
    game: Game,
    specs: list[tuple[str, dict[str, Any], int]],
    n_games: int,
    seed: int,
    threads: int | None,
    address: str | None,
    part_size: int | None,
) -> Iterator[EvaluationPart]:
    try:
        # Untyped on purpose: Ray is an optional extra, absent where mypy may run.
        ray: Any = importlib.import_module("ray")
    except ImportError as e:
        raise ImportError("backend='ray' needs Ray: pip install 'spielwerk[ray]'") from e
    if not ray.is_initialized():
        ray.init(address=address)
    cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
    per_task = threads or 1
    size = part_size or max(1, math.ceil(n_games / (PARTS_PER_CPU * cpus)))
    play = ray.remote(_play_part).options(num_cpus=per_task)
    game_ref = ray.put(game)
    pending = [
        play.remote(game_ref, specs, start, min(start + size, n_games), seed, per_task)
        for start in range(0, n_games, size)
    ]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            part: EvaluationPart = ray.get(done[0])
            yield part
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
