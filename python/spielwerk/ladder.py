"""The ladder: every level measured against ``random``, ``heuristic`` and each other.

``spielwerk ladder --game G`` plays a seat-balanced round robin of ``random``,
``heuristic`` and each level (``spielwerk.bots.levels``) with ``spielwerk.evaluate`` and
fits ratings by maximum likelihood (Bradley-Terry on the Elo scale: the chance that ``a``
beats ``b`` is ``1 / (1 + 10 ** ((R_b - R_a) / 400))``, a draw half a win for each),
``heuristic`` anchored at 1500, each with a 95 % interval from the likelihood's
curvature. Every pair also plays one virtual draw, so that a side that won every game
(``strong`` against ``random``) gets a finite rating. For The Game, a cooperative game,
each bot plays the deals as the whole table, and the measure is the share of perfect
games and the mean cards left at each player count (T6).

It also times each entry's moves on one core (``cpu_ms_per_move``: median and 90th
percentile of ``Bot.step`` over positions of heuristic games, thread CPU time).

``--write ladder.json`` records the result for the engine (``core/src/bots/ladder.json``
ships with the package and is what ``levels()`` reports), with the command, seeds and
machine that made it. The seeds default to a range nobody tuned the levels on.

    >>> fit_ratings(["a", "heuristic"], {("a", "heuristic"): (30, 0, 10)})["a"]["elo"] > 1500
    True
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import math
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import spielwerk
import spielwerk.bots

#: The first seed of the ladder's games: apart from every seed the levels were tuned on
#: (benches/README.md, "Levels").
SEED = 2_026_120_400
#: The rating the fit anchors ``heuristic`` at.
ANCHOR, ANCHOR_RATING = "heuristic", 1500.0
#: The z of a two-sided 95 % interval.
Z95 = 1.959963984540054
#: The Elo scale: ``SCALE`` rating points are a factor of ten in the odds.
SCALE = 400.0 / math.log(10.0)

#: A pair's result as (wins of the first, draws, wins of the second).
Result = tuple[int, int, int]


def entries(game: spielwerk.Game) -> list[str]:
    """The ladder's entrants: ``random``, ``heuristic`` and the levels, weakest first."""
    return ["random", "heuristic", *(level["name"] for level in spielwerk.bots.levels(game))]


def fit_ratings(names: Sequence[str], results: dict[tuple[str, str], Result]) -> dict[str, dict[str, float]]:
    """Bradley-Terry ratings by maximum likelihood (Newton's method), ``heuristic`` at
    1500, each with its 95 % interval (``low``, ``high``) from the inverse of the
    observed information with the anchor held fixed. One virtual draw per pair."""
    index = {name: i for i, name in enumerate(names)}
    free = [name for name in names if name != ANCHOR]
    strength = dict.fromkeys(names, 0.0)  # natural-log odds units
    games: list[tuple[int, int, float, float]] = []  # (i, j, score of i, games)
    for (a, b), (wins, draws, losses) in results.items():
        played = wins + draws + losses + 1  # + one virtual draw
        games.append((index[a], index[b], wins + 0.5 * (draws + 1), float(played)))
    for _step in range(100):
        gradient = [0.0] * len(names)
        hessian = [[0.0] * len(names) for _name in names]
        for i, j, score, n in games:
            p = 1.0 / (1.0 + math.exp(strength[names[j]] - strength[names[i]]))
            gradient[i] += score - n * p
            gradient[j] -= score - n * p
            w = n * p * (1.0 - p)
            hessian[i][i] += w
            hessian[j][j] += w
            hessian[i][j] -= w
            hessian[j][i] -= w
        rows = [index[name] for name in free]
        info = [[hessian[r][c] for c in rows] for r in rows]
        step = _solve(info, [gradient[r] for r in rows])
        for name, delta in zip(free, step, strict=True):
            strength[name] += delta
        if max((abs(d) for d in step), default=0.0) < 1e-10:
            break
    covariance = _inverse(info) if free else []
    out = {}
    for name in names:
        elo = ANCHOR_RATING + SCALE * (strength[name] - strength[ANCHOR])
        half = (
            0.0 if name == ANCHOR else Z95 * SCALE * math.sqrt(covariance[free.index(name)][free.index(name)])
        )
        out[name] = {"elo": round(elo, 1), "low": round(elo - half, 1), "high": round(elo + half, 1)}
    return out


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ · vector`` by Gaussian elimination with partial pivoting (a few rows)."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[col][col] != 0.0:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    n = len(matrix)
    columns = [_solve(matrix, [1.0 if r == c else 0.0 for r in range(n)]) for c in range(n)]
    return [[columns[c][r] for c in range(n)] for r in range(n)]


def timing_positions(game: spielwerk.Game, count: int, seed: int) -> list[spielwerk.State]:
    """``count`` positions of heuristic games (every seat the heuristic), at plies spread
    over each game, where a player is to move."""
    heuristic = spielwerk.bots.make("heuristic", game, seed)
    positions: list[spielwerk.State] = []
    deal = 0
    while len(positions) < count:
        state = game.new_initial_state(seed=seed + deal)
        ply = 0
        while not state.is_terminal() and len(positions) < count:
            if ply % 7 == deal % 7:
                positions.append(state.clone())
            state.apply_action(heuristic.step(state))
            ply += 1
        deal += 1
    return positions


def cpu_ms_per_move(bot: spielwerk.bots.Bot, positions: Sequence[spielwerk.State]) -> dict[str, float]:
    """The median and 90th percentile of the bot's thread CPU time per move, in ms."""
    times = []
    for state in positions:
        started = time.thread_time_ns()
        bot.step(state)
        times.append((time.thread_time_ns() - started) / 1e6)
    times.sort()
    return {
        "median": round(statistics.median(times), 3),
        "p90": round(times[min(len(times) - 1, math.ceil(0.9 * len(times)) - 1)], 3),
    }


def machine() -> str:
    python = f"{platform.python_implementation()} {platform.python_version()}"
    return f"{platform.machine()}, {os.cpu_count()} cores, {python}"


def play_pairs(
    game: spielwerk.Game,
    names: Sequence[str],
    n_games: int,
    seed: int,
    threads: int | None,
    progress: Callable[[str], None],
) -> dict[tuple[str, str], Result]:
    """Every pair of ``names`` over ``n_games`` seat-balanced games, each pair on its own
    seed range (``seed + 1_000_000 * k`` for the pair's number ``k``)."""
    results: dict[tuple[str, str], Result] = {}
    k = 0
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            first, _ = spielwerk.evaluate(game, [a, b], n_games, seed=seed + 1_000_000 * k, threads=threads)
            results[(a, b)] = (first.wins, first.draws, first.losses)
            progress(f"{a} vs {b}: {first.wins}-{first.draws}-{first.losses}")
            k += 1
    return results


def two_sided(
    game: spielwerk.Game,
    n_games: int,
    seed: int,
    threads: int | None,
    positions: int,
    progress: Callable[[str], None],
) -> dict[str, Any]:
    names = entries(game)
    results = play_pairs(game, names, n_games, seed, threads, progress)
    places = timing_positions(game, positions, seed)
    return {
        "games_per_pair": n_games,
        "seeds": [seed, seed + 1_000_000 * len(results)],
        "ratings": fit_ratings(names, results),
        "pairs": [{"bots": list(pair), "wins_draws_losses": list(r)} for pair, r in results.items()],
        "cpu_ms_per_move": {
            name: cpu_ms_per_move(spielwerk.bots.make(name, game, seed), places) for name in names
        },
    }


def cooperative(
    game: spielwerk.Game,
    n_games: int,
    seed: int,
    threads: int | None,
    positions: int,
    progress: Callable[[str], None],
) -> dict[str, Any]:
    names = entries(game)
    ratings: dict[str, Any] = {}
    for name in names:
        (s,) = spielwerk.evaluate(game, [name], n_games, seed=seed, threads=threads)
        ratings[name] = {
            "perfect_rate": round(s.perfect_rate or 0.0, 4),
            "perfect_low": round((s.perfect_rate_ci or (0.0, 0.0))[0], 4),
            "perfect_high": round((s.perfect_rate_ci or (0.0, 0.0))[1], 4),
            "cards_left": round(s.mean_cards_left or 0.0, 3),
            "cards_left_low": round((s.mean_cards_left_ci or (0.0, 0.0))[0], 3),
            "cards_left_high": round((s.mean_cards_left_ci or (0.0, 0.0))[1], 3),
            "deals": s.games,
        }
        progress(f"{game.num_players()} players, {name}: {ratings[name]}")
    places = timing_positions(game, positions, seed)
    return {
        "deals": n_games,
        "seeds": [seed, seed + n_games],
        "ratings": ratings,
        "cpu_ms_per_move": {
            name: cpu_ms_per_move(spielwerk.bots.make(name, game, seed), places) for name in names
        },
    }


def run(
    game_name: str,
    n_games: int,
    seed: int = SEED,
    threads: int | None = None,
    players: Sequence[int] = (1, 2, 3, 4, 5),
    positions: int = 200,
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """The ladder of one game as ``ladder.json`` records it."""
    record: dict[str, Any] = {
        "command": f"spielwerk ladder --game {game_name} --games {n_games} --seed {seed}"
        + (f" --players {','.join(map(str, players))}" if game_name == "the_game" else "")
        + f" --positions {positions}",
        "date": datetime.date.today().isoformat(),
        "machine": machine(),
        "version": importlib.metadata.version("spielwerk"),
    }
    if game_name == "the_game":
        record["players"] = {
            str(p): cooperative(
                spielwerk.load_game(game_name, players=p), n_games, seed, threads, positions, progress
            )
            for p in players
        }
    else:
        record.update(two_sided(spielwerk.load_game(game_name), n_games, seed, threads, positions, progress))
    return record


def write(path: str, game_name: str, record: dict[str, Any]) -> None:
    """Merges the record of one game into the ladder file at ``path``."""
    try:
        with open(path, encoding="utf-8") as f:
            ladder = json.load(f)
    except FileNotFoundError:
        ladder = {"games": {}}
    games = ladder.setdefault("games", {})
    if game_name == "the_game" and "players" in games.get(game_name, {}):
        # Player counts measured before and not now are kept, each with its own command.
        kept = games[game_name]["players"]
        for count, figures in record["players"].items():
            kept[count] = {**figures, "command": record["command"], "date": record["date"]}
        record = {**record, "players": kept}
    games[game_name] = record
    with open(path, "w", encoding="utf-8") as f:
        json.dump(ladder, f, indent=1, sort_keys=True)
        f.write("\n")
