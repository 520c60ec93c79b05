"""The serialization round trip of every game, as `openspiel_compare.py` states it (seed 3,
random bot 3, half a game), by the minimum of 15 x 200-2,000 calls: steadier than medians on
a loaded machine. Run with each build on PYTHONPATH to compare two builds side by side:

    PYTHONPATH=python python benches/serialize_timeit.py new

With `--cpu` the process's CPU time is measured instead of the wall clock: on a shared,
loaded machine it moves far less (other processes' turns on the cores are not counted).
"""

from __future__ import annotations

import sys
import time
import timeit
from collections.abc import Callable
from functools import partial
from typing import Any

import spielwerk

TIMER = time.process_time if "--cpu" in sys.argv else time.perf_counter


def best_us(call: Callable[[], Any], number: int) -> float:
    return min(timeit.repeat(call, number=number, repeat=15, timer=TIMER)) / number * 1e6


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--cpu"]
    label = args[0] if args else ""
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
        text, compact = state.serialize(), state.serialize_compact()
        n = 200 if name == "dog" else 2000
        snapshot = ""
        if hasattr(state, "serialize_snapshot"):
            data = state.serialize_snapshot()
            snapshot = (
                f" | snapshot ({len(data)} bytes) write {best_us(state.serialize_snapshot, n * 5):.2f} "
                f"read {best_us(partial(game.deserialize_state, data), n * 5):.2f}"
            )
        print(
            f"{label} {name}: JSON write {best_us(state.serialize, n):.2f} "
            f"read {best_us(partial(game.deserialize_state, text), n):.2f} | "
            f"compact write {best_us(state.serialize_compact, n):.2f} "
            f"read {best_us(partial(game.deserialize_state, compact), n):.2f}{snapshot} µs"
        )


if __name__ == "__main__":
    main()
