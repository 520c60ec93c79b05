"""pytest-benchmark: Schotten Totten's claim check from Python. Figures: benches/README.md.

Run: ``python -m pytest benches --benchmark-only``. In the test command these run once,
untimed (``--benchmark-disable``), so they cannot rot.
"""

from __future__ import annotations

from typing import Any

from spielwerk import schotten_totten as st


def test_check_claim_worst_case(benchmark: Any) -> None:
    # The other side is empty and 45 cards are available.
    mine = ["R4", "O4", "Y4"]
    table = ["G1", "B2", "P3", "R9", "O8", "Y7"]
    result = benchmark(st.check_claim, mine, [], table)
    assert not result.provable
