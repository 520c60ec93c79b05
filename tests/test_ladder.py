"""The ladder (``spielwerk ladder``): the rating fit against known answers, and a small run
of the round robin and of The Game's figures (cheap bots; strength is a benchmark)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
import spielwerk
from spielwerk import ladder


def test_equal_results_give_equal_ratings_at_the_anchor() -> None:
    ratings = ladder.fit_ratings(["a", "heuristic"], {("a", "heuristic"): (40, 20, 40)})
    assert ratings["heuristic"] == {"elo": 1500.0, "low": 1500.0, "high": 1500.0}
    assert ratings["a"]["elo"] == pytest.approx(1500.0, abs=1e-6)
    assert ratings["a"]["low"] < 1500.0 < ratings["a"]["high"]


def test_a_share_gives_the_elo_difference_of_its_odds() -> None:
    # 75 % (with the virtual draw: 75.5 of 101) is 400·log10(75.5/25.5) Elo above.
    ratings = ladder.fit_ratings(["heuristic", "b"], {("b", "heuristic"): (75, 0, 25)})
    expected = 1500.0 + 400.0 * math.log10(75.5 / 25.5)
    assert ratings["b"]["elo"] == pytest.approx(expected, abs=0.1)
    # More games, a narrower interval.
    more = ladder.fit_ratings(["heuristic", "b"], {("b", "heuristic"): (750, 0, 250)})
    assert more["b"]["high"] - more["b"]["low"] < ratings["b"]["high"] - ratings["b"]["low"]


def test_a_chain_is_ordered_and_a_clean_sweep_stays_finite() -> None:
    results = {
        ("random", "heuristic"): (0, 0, 50),
        ("random", "strong"): (0, 0, 50),
        ("heuristic", "strong"): (15, 0, 35),
    }
    ratings = ladder.fit_ratings(["random", "heuristic", "strong"], results)
    assert ratings["random"]["elo"] < ratings["heuristic"]["elo"] < ratings["strong"]["elo"]
    assert all(math.isfinite(r["low"]) and math.isfinite(r["high"]) for r in ratings.values())


def test_a_small_round_robin_is_written_and_read_back(tmp_path: Path, monkeypatch: Any) -> None:
    # The levels themselves take up to 250 ms a move: the plumbing is checked with cheap bots.
    monkeypatch.setattr(ladder, "entries", lambda game: ["random", "heuristic", "easy"])
    record = ladder.run("schotten_totten", 6, seed=5, threads=2, positions=3)
    assert set(record["ratings"]) == {"random", "heuristic", "easy"}
    assert record["ratings"]["heuristic"]["elo"] == 1500.0
    assert len(record["pairs"]) == 3
    assert all(sum(p["wins_draws_losses"]) == 6 for p in record["pairs"])
    assert set(record["cpu_ms_per_move"]["easy"]) == {"median", "p90"}
    assert record["command"].startswith("spielwerk ladder --game schotten_totten --games 6 --seed 5")
    path = tmp_path / "ladder.json"
    ladder.write(str(path), "schotten_totten", record)
    assert json.loads(path.read_text())["games"]["schotten_totten"]["ratings"] == record["ratings"]


def test_the_game_is_measured_per_player_count_and_merged(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(ladder, "entries", lambda game: ["heuristic", "easy"])
    path = tmp_path / "ladder.json"
    for players in ((1,), (2,)):
        record = ladder.run("the_game", 4, seed=5, threads=2, players=players, positions=3)
        ladder.write(str(path), "the_game", record)
    written = json.loads(path.read_text())["games"]["the_game"]["players"]
    assert set(written) == {"1", "2"}
    figures = written["1"]["ratings"]["heuristic"]
    assert figures["deals"] == 4
    assert figures["perfect_low"] <= figures["perfect_rate"] <= figures["perfect_high"]
    assert figures["cards_left_low"] <= figures["cards_left"] <= figures["cards_left_high"]
    # easy is the heuristic in The Game: the same deals, the same figures.
    assert written["1"]["ratings"]["easy"] == figures


def test_the_command_line_prints_the_table(capsys: pytest.CaptureFixture[str], monkeypatch: Any) -> None:
    from spielwerk.__main__ import main

    monkeypatch.setattr(ladder, "entries", lambda game: ["random", "heuristic"])
    assert main(["ladder", "--game", "caravan", "--games", "4", "--positions", "2", "--seed", "9"]) == 0
    out = capsys.readouterr().out
    assert "Elo" in out and "heuristic" in out and "1500" in out


def test_the_shipped_ladder_is_what_levels_report() -> None:
    shipped = Path(__file__).parent.parent / "core" / "src" / "bots" / "ladder.json"
    games = json.loads(shipped.read_text())["games"]
    for name, table in games.items():
        game = spielwerk.load_game(name, players=1) if name == "the_game" else spielwerk.load_game(name)
        part = table["players"]["1"] if name == "the_game" else table
        for level in spielwerk.bots.levels(game):
            assert level["rating"] == part["ratings"].get(level["name"])
            assert level["cpu_ms_per_move"] == part["cpu_ms_per_move"].get(level["name"])
