"""pytest-benchmark: `spielwerk.VectorEnv` with 1,024 envs, every game, actions chosen
uniformly from the masks by a numpy step in the loop. Figures: benches/README.md.

Run: ``python -m pytest benches/test_bench_vector_env.py --benchmark-only``. One round is
``STEPS`` calls of ``step`` (each 1,024 env steps) with the numpy choice before each;
steps/s = 1,024 * STEPS / (time per round). In the test command these run once, untimed.

Two numpy choices, both uniform among each env's legal actions: ``mask`` from the
``action_mask`` array (passes over all 1,024 x num_distinct_actions bytes), ``lists``
from ``legal_actions`` / ``legal_counts`` (``VectorEnv(..., legal_actions=True,
action_mask=False)``: one index per env, a few operations on 1,024 elements).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
import spielwerk

GAMES = ["schotten_totten", "caravan", "the_game", "dog"]
N_ENVS = 1024
STEPS = 20


def uniform_legal(masks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """One action per row, uniformly among the row's legal ones (exact: the k-th legal
    action of the row for a uniform k), in a few passes over the masks."""
    n, width = masks.shape
    legal = masks.view(np.bool_)
    flat = np.flatnonzero(legal)
    counts = np.count_nonzero(legal, axis=1)
    starts = np.cumsum(counts) - counts
    picked = flat[starts + (rng.random(n) * counts).astype(np.int64)]
    actions: npt.NDArray[np.int64] = picked - np.arange(n) * width
    return actions


def uniform_from_lists(
    legal: npt.NDArray[np.int64], counts: npt.NDArray[np.int64], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """One action per row, uniformly among the row's legal ones: entry k of row i's list
    for a uniform k in 0..counts[i]."""
    n = len(counts)
    actions: npt.NDArray[np.int64] = legal[np.arange(n), (rng.random(n) * counts).astype(np.int64)]
    return actions


@pytest.mark.parametrize("choice", ["mask", "lists"])
@pytest.mark.parametrize("opponents", [None, "random"])
@pytest.mark.parametrize("name", GAMES)
def test_vector_env_steps(benchmark: Any, name: str, opponents: str | None, choice: str) -> None:
    lists = choice == "lists"
    env = spielwerk.VectorEnv(
        name, N_ENVS, seed=0, opponents=opponents, action_mask=not lists, legal_actions=lists
    )
    rng = np.random.default_rng(0)
    _, info = env.reset()
    benchmark.extra_info["env_steps_per_round"] = N_ENVS * STEPS
    if lists:
        legal, counts = info["legal_actions"], info["legal_counts"]

        def run() -> None:
            for _ in range(STEPS):
                env.step(uniform_from_lists(legal, counts, rng))

        benchmark(run)
        # The arrays are reused: `legal` is the current one after every step.
        assert (uniform_from_lists(legal, counts, rng) >= 0).all()
    else:
        masks = info["action_mask"]

        def run() -> None:
            for _ in range(STEPS):
                env.step(uniform_legal(masks, rng))

        benchmark(run)
        # The arrays are reused: `masks` is the current one after every step.
        assert masks[np.arange(N_ENVS), uniform_legal(masks, rng)].all()
