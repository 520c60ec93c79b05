"""One `VectorEnv` loop of the benchmark (`test_bench_vector_env.py`) timed on its own, so
that two builds can be run in turn on a shared machine (before/after figures in
benches/README.md): 1,024 envs, no opponents, rounds of 20 steps, each step the numpy
choice and `env.step`; prints the best and the median round.

    python benches/vector_env_loop.py schotten_totten lists --rounds 20
    python benches/vector_env_loop.py schotten_totten mask_counted --package /tmp/before

`--package DIR` imports `spielwerk` from DIR (a copy of an older build's
`python/spielwerk`, the compiled module in it) instead of the installed one. Loops:
`lists` (`legal_actions`), `mask` (`action_mask`, packed into bits by numpy, then chosen
from: `UniformLegal`), `mask_flat` (the same masks, `flatnonzero` and a binary search per
row), `mask_counted` (the same, the first formulation with a second pass counting each
row), `bits` (`action_mask_bits`, packed by the env)."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

N_ENVS = 1024
STEPS = 20


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("loop", choices=["lists", "mask", "mask_flat", "mask_counted", "bits"])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--package", help="import spielwerk from this directory")
    args = parser.parse_args()
    if args.package:
        sys.path.insert(0, args.package)
    sys.path.insert(0, str(Path(__file__).parent))
    import numpy as np
    import spielwerk
    from test_bench_vector_env import (
        UniformLegal,
        uniform_from_bits,
        uniform_from_lists,
        uniform_legal_counted,
        uniform_legal_flat,
    )

    forms: dict[str, Any] = {
        "lists": {"action_mask": False, "legal_actions": True},
        "bits": {"action_mask": False, "action_mask_bits": True},
    }
    env = spielwerk.VectorEnv(args.game, N_ENVS, seed=0, **forms.get(args.loop, {}))
    rng = np.random.default_rng(0)
    _, info = env.reset()
    if args.loop == "lists":
        legal, counts = info["legal_actions"], info["legal_counts"]

        def choose() -> Any:
            return uniform_from_lists(legal, counts, rng)
    elif args.loop == "bits":
        bits = info["action_mask_bits"]

        def choose() -> Any:
            return uniform_from_bits(bits, rng)
    else:
        masks = info["action_mask"]
        picks: dict[str, Any] = {"mask": UniformLegal(*masks.shape), "mask_flat": uniform_legal_flat}
        pick = picks.get(args.loop, uniform_legal_counted)

        def choose() -> Any:
            return pick(masks, rng)

    for _ in range(5):  # warm up
        env.step(choose())
    rounds = []
    for _ in range(args.rounds):
        start = time.perf_counter()
        for _ in range(STEPS):
            env.step(choose())
        rounds.append(time.perf_counter() - start)
    best, median = min(rounds), statistics.median(rounds)
    steps = N_ENVS * STEPS
    print(
        f"{args.package or 'installed'} {args.game} {args.loop}: best round {best * 1e3:.2f} ms "
        f"({steps / best:,.0f} steps/s), median {median * 1e3:.2f} ms ({steps / median:,.0f} steps/s)"
    )


if __name__ == "__main__":
    main()
