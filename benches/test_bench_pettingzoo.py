"""PettingZoo AEC environment steps (the loop of benches/pettingzoo_compare.py) for every game
and PettingZoo's classic texas_holdem_v4 and leduc_holdem_v4 (with rlcard installed).
The test command runs each once, untimed; the figures are in benches/README.md."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

sys.path.insert(0, str(Path(__file__).parent))
from pettingzoo_compare import GAME_OPTIONS, run

STEPS = 2_000


@pytest.mark.parametrize("name", sorted(GAME_OPTIONS))
def test_spielwerk_steps(benchmark: Any, name: str) -> None:
    from spielwerk import pettingzoo as spz

    env = spz.env(name, **GAME_OPTIONS[name])
    done = benchmark(run, env, STEPS)
    assert done >= STEPS


@pytest.mark.parametrize("classic", ["texas_holdem_v4", "leduc_holdem_v4"])
def test_classic_steps(benchmark: Any, classic: str) -> None:
    pytest.importorskip("rlcard")
    import importlib

    env = importlib.import_module(f"pettingzoo.classic.{classic}").env()
    done = benchmark(run, env, STEPS)
    assert done >= STEPS
