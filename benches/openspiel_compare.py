"""Side by side with OpenSpiel: serialize and deserialize a mid-game state, one process.

Run by hand (OpenSpiel is no dependency of the project), e.g. in a virtualenv that sees
the installed spielwerk:

    python -m venv --system-site-packages /tmp/osp && /tmp/osp/bin/pip install open_spiel
    /tmp/osp/bin/python benches/openspiel_compare.py

For each game: a seeded random game is played to half its length; then the median time
of `serialize()` and of reading the result back, over many repeats. OpenSpiel writes the
action history and replays it (its card games deal through chance nodes); spielwerk writes
its readable JSON (`serialize`), the compact form (`serialize_compact`: seed, options
and actions, replayed on reading) or the binary snapshot (`serialize_snapshot`: the whole
state as bytes, checked on reading, nothing replayed). Figures go to benches/README.md.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import spielwerk

OPENSPIEL_GAMES = ["hearts", "gin_rummy", "crazy_eights", "euchre", "oh_hell", "bridge", "skat", "cribbage"]


# `--cpu`: the process's CPU time instead of the wall clock, steadier on a loaded machine.
TIMER = time.process_time if "--cpu" in sys.argv else time.perf_counter


def median_us(call: Callable[[], Any], repeats: int = 7, number: int = 200) -> float:
    """The median over `repeats` of the mean time of `number` calls, in microseconds."""
    times = []
    for _ in range(repeats):
        start = TIMER()
        for _ in range(number):
            call()
        times.append((TIMER() - start) / number * 1e6)
    return statistics.median(times)


def openspiel_rows() -> list[tuple[str, int, float, float]]:
    import pyspiel  # type: ignore[import-not-found]

    rows = []
    for name in OPENSPIEL_GAMES:
        game = pyspiel.load_game(name)
        rng = random.Random(3)
        # The length of a whole random game, then half of it.
        state = game.new_initial_state()
        length = 0
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            length += 1
        rng = random.Random(3)
        state = game.new_initial_state()
        for _ in range(length // 2):
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        text = state.serialize()
        rows.append(
            (
                f"OpenSpiel {name}",
                len(state.history()),
                median_us(state.serialize),
                median_us(partial(game.deserialize_state, text)),
            )
        )
    return rows


def spielwerk_rows() -> list[tuple[str, int, float, float]]:
    rows = []
    for name in ["schotten_totten", "caravan", "the_game", "dog"]:
        game = spielwerk.load_game(name)
        state = game.new_initial_state(3)
        bot = spielwerk.RandomBot(3)
        while not state.is_terminal():
            state.apply_action(bot.step(state))
        history = state.history()
        state = game.new_initial_state(3)
        for action in history[: len(history) // 2]:
            state.apply_action(action)
        text = state.serialize()
        rows.append(
            (
                f"spielwerk {name} (JSON)",
                len(state.history()),
                median_us(state.serialize),
                median_us(partial(game.deserialize_state, text)),
            )
        )
        if hasattr(state, "serialize_compact"):
            compact = state.serialize_compact()
            rows.append(
                (
                    f"spielwerk {name} (compact)",
                    len(state.history()),
                    median_us(state.serialize_compact),
                    median_us(partial(game.deserialize_state, compact)),
                )
            )
        if hasattr(state, "serialize_snapshot"):
            snapshot = state.serialize_snapshot()
            rows.append(
                (
                    f"spielwerk {name} (snapshot)",
                    len(state.history()),
                    median_us(state.serialize_snapshot),
                    median_us(partial(game.deserialize_state, snapshot)),
                )
            )
    return rows


def main() -> None:
    rows = spielwerk_rows()
    try:
        rows += openspiel_rows()
    except ImportError:
        print("OpenSpiel is not installed: only spielwerk's figures")
    print(f"| {'game':<34} | actions | serialize µs | deserialize µs | round trip µs |")
    print(f"|{'-' * 36}|---------|--------------|----------------|---------------|")
    for name, actions, ser, de in rows:
        print(f"| {name:<34} | {actions:>7} | {ser:>12.2f} | {de:>14.2f} | {ser + de:>13.2f} |")


if __name__ == "__main__":
    main()
