"""Side by side with OpenSpiel: serialize and deserialize a mid-game state, one process;
with `--tensors`, a seat's observation tensor instead.

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

`--tensors`: ns per call of writing the observation tensor of the player to move at the
same mid-game states: spielwerk's `observation_tensor_into(seat, out)` (into a caller's
float32 buffer) and `observation_tensor(seat)` (a new numpy array), OpenSpiel's
`state.observation_tensor(player)` (a new Python list) and its buffer-writing
`open_spiel.python.observation.make_observation(game).set_from(state, player)` on its
card games hearts (its information-state tensor: hearts has no observation tensor),
gin_rummy and crazy_eights.
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

TENSOR_GAMES = ["hearts", "gin_rummy", "crazy_eights"]
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


def openspiel_midgame(name: str) -> tuple[Any, Any]:
    """OpenSpiel's game `name` and a seeded random state at half a random game's length."""
    import pyspiel  # type: ignore[import-not-found]

    game = pyspiel.load_game(name)
    lengths: list[int] = []
    for _ in range(2):
        rng = random.Random(3)
        state = game.new_initial_state()
        length = 0
        while not state.is_terminal() and (not lengths or length < lengths[0] // 2):
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            length += 1
        lengths.append(length)
    while state.is_chance_node():  # on to the next player's decision
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    return game, state


def spielwerk_midgame(name: str) -> Any:
    """spielwerk's seeded random game `name` at half its length."""
    game = spielwerk.load_game(name)
    state = game.new_initial_state(3)
    bot = spielwerk.RandomBot(3)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    history = state.history()
    state = game.new_initial_state(3)
    for action in history[: len(history) // 2]:
        state.apply_action(action)
    return state


def tensor_rows() -> list[tuple[str, int, str, float]]:
    """(game, tensor length, call, ns per call) for every game, spielwerk's and OpenSpiel's."""
    import numpy as np

    rows = []
    for name in ["schotten_totten", "caravan", "the_game", "dog"]:
        state = spielwerk_midgame(name)
        seat = state.current_player()
        out = np.empty(state.game.observation_tensor_shape(), dtype=np.float32)
        size = out.size
        rows.append(
            (
                f"spielwerk {name}",
                size,
                "observation_tensor_into",
                median_us(partial(state.observation_tensor_into, seat, out), number=5000) * 1e3,
            )
        )
        rows.append(
            (
                f"spielwerk {name}",
                size,
                "observation_tensor",
                median_us(partial(state.observation_tensor, seat), number=5000) * 1e3,
            )
        )
    try:
        from open_spiel.python.observation import make_observation  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        print("OpenSpiel is not installed: only spielwerk's figures")
        return rows
    import pyspiel
    from spielwerk import openspiel

    for name in ["schotten_totten", "caravan", "the_game", "dog"]:
        # The same states through the adapter (spielwerk.openspiel), OpenSpiel's calls.
        engine = spielwerk_midgame(name)
        game = openspiel.load_game(name)
        state = game.deal(3)  # the deal of spielwerk_midgame, then its actions
        for action in engine.history():
            state.apply_action(action)
        assert state.spielwerk_state == engine
        seat = engine.current_player()
        size = game.observation_tensor_size()
        rows.append(
            (
                f"spielwerk.openspiel {name}",
                size,
                "observation_tensor",
                median_us(partial(state.observation_tensor, seat), number=5000) * 1e3,
            )
        )
        observation = make_observation(game)
        rows.append(
            (
                f"spielwerk.openspiel {name}",
                size,
                "Observation.set_from",
                median_us(partial(observation.set_from, state, seat), number=5000) * 1e3,
            )
        )

    for name in TENSOR_GAMES:
        game, state = openspiel_midgame(name)
        player = state.current_player()
        # Hearts has only an information-state tensor (no observation tensor).
        if game.get_type().provides_observation_tensor:
            size, call, obs_type = game.observation_tensor_size(), "observation_tensor", None
        else:
            size, call = game.information_state_tensor_size(), "information_state_tensor"
            obs_type = pyspiel.IIGObservationType(perfect_recall=True)
        rows.append(
            (
                f"OpenSpiel {name}",
                size,
                call,
                median_us(partial(getattr(state, call), player), number=5000) * 1e3,
            )
        )
        observation = make_observation(game, obs_type)
        rows.append(
            (
                f"OpenSpiel {name}",
                size,
                "Observation.set_from",
                median_us(partial(observation.set_from, state, player), number=5000) * 1e3,
            )
        )
    return rows


def openspiel_rows() -> list[tuple[str, int, float, float]]:
    import pyspiel

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
    if "--tensors" in sys.argv:
        print(f"| {'game':<35} | floats | {'call':<24} | ns per call |")
        print(f"|{'-' * 37}|--------|{'-' * 26}|-------------|")
        for name, size, call, ns in tensor_rows():
            print(f"| {name:<35} | {size:>6} | {call:<24} | {ns:>11.0f} |")
        return
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
