"""Games per second of `spielwerk.evaluate` on this machine's cores and on a local Ray
instance with as many CPUs (benches/README.md, "Bots (issue 11)"), and that both give the
same standings.

    PYTHONPATH=python python3 benches/ray_evaluate.py [GAMES] [ITERATIONS]

Ray's start-up is left out (it is paid once per process); its per-task cost is not.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from typing import Any

import spielwerk


def main() -> None:
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    iterations = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    cpus = os.cpu_count() or 1
    bots: list[Any] = [("ismcts", {"iterations": iterations}), "random"]
    ray: Any = importlib.import_module("ray")
    started = time.perf_counter()
    ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False)
    print(f"ray.init: {time.perf_counter() - started:.1f} s")
    try:
        figures: dict[str, list[list[dict[str, Any]]]] = {}
        for backend in ("local", "ray", "local", "ray"):
            started = time.perf_counter()
            standings = spielwerk.evaluate("schotten_totten", bots, n_games, seed=1, backend=backend)
            seconds = time.perf_counter() - started
            figures.setdefault(backend, []).append([s.as_dict() for s in standings])
            print(f"{backend:>5}: {n_games} games in {seconds:.2f} s = {n_games / seconds:.1f} games/s")
        assert all(f == figures["local"][0] for runs in figures.values() for f in runs), "backends differ"
        print(f"identical standings: ismcts {iterations} iterations wins {figures['local'][0][0]['wins']}")
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
