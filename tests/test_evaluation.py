"""`evaluate` in parts and on Ray (issue 11 §3): a run cut into parts anyhow, played here or
on a local Ray instance, merges into exactly the standings of the run played at once."""

from __future__ import annotations

import json
import pickle
from typing import Any

import pytest
import spielwerk
from spielwerk._spielwerk import _restore_evaluation_part
from spielwerk.errors import SpielwerkError
from spielwerk.evaluation import merge, play_in_parts


def as_dicts(standings: list[spielwerk.BotStanding]) -> list[dict[str, Any]]:
    return [s.as_dict() for s in standings]


CASES: list[tuple[str, dict[str, Any], list[Any], int]] = [
    ("schotten_totten", {}, [("ismcts", {"iterations": 20}), "heuristic"], 9),
    ("caravan", {}, ["random", "heuristic"], 12),
    # The Game: the means of the cards left take many values, the hardest to merge exactly.
    ("the_game", {"players": 3}, ["heuristic"], 30),
    ("dog", {}, ["random", "random"], 4),
]


@pytest.mark.parametrize(("name", "options", "bots", "n"), CASES)
def test_parts_merge_into_the_whole_run(name: str, options: dict[str, Any], bots: list[Any], n: int) -> None:
    game = spielwerk.load_game(name, **options)
    whole = as_dicts(spielwerk.evaluate(game, bots, n, seed=3))
    # Odd part sizes split a deal's seatings between parts; merged in reverse order.
    for size in (1, 2, 5, n):
        parts = list(play_in_parts(game, bots, n, seed=3, threads=1, part_size=size))
        assert sum(p.games for p in parts) == n
        assert as_dicts(merge(reversed(parts)).standings()) == whole
    cut = [spielwerk.evaluate_games(game, bots, a, b, seed=3) for a, b in ((0, 1), (1, n - 1), (n - 1, n))]
    assert as_dicts(merge(cut).standings()) == whole


def test_parts_pickle_and_refuse_other_runs() -> None:
    part = spielwerk.evaluate_games("caravan", ["random", "heuristic"], 0, 4, seed=1)
    again = pickle.loads(pickle.dumps(part))
    assert isinstance(again, spielwerk.EvaluationPart)
    assert again.games == 4 and as_dicts(again.standings()) == as_dicts(part.standings())
    swapped = spielwerk.evaluate_games("caravan", ["heuristic", "random"], 4, 8, seed=1)
    with pytest.raises(SpielwerkError, match="only parts of one evaluation merge"):
        part.merge(swapped)
    with pytest.raises(SpielwerkError, match="start 5 is after stop 4"):
        spielwerk.evaluate_games("caravan", ["random"], 5, 4)
    assert spielwerk.evaluate_games("caravan", ["random"], 4, 4).games == 0


def test_unknown_backends_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match=r"unknown backend 'spark': the backends are 'local', 'ray'"):
        spielwerk.evaluate("caravan", ["random"], 2, backend="spark")
    with pytest.raises(ValueError, match="backend='ray'"):
        spielwerk.evaluate("caravan", ["random"], 2, address="ray://elsewhere:10001")
    with pytest.raises(ValueError, match="part_size"):
        next(play_in_parts("caravan", ["random"], 2, part_size=0))


@pytest.mark.parametrize(("name", "options", "bots", "n"), CASES)
def test_ray_gives_the_local_results(
    local_ray: Any, name: str, options: dict[str, Any], bots: list[Any], n: int
) -> None:
    game = spielwerk.load_game(name, **options)
    # Made bots travel as name, parameters and seed; names as the local backend makes them.
    seated = [spielwerk.bots.make(b, game, seed=7) if isinstance(b, str) else b for b in bots]
    local = as_dicts(spielwerk.evaluate(game, seated, n, seed=11))
    assert as_dicts(spielwerk.evaluate(game, seated, n, seed=11, backend="ray")) == local
    parts = list(play_in_parts(game, seated, n, seed=11, backend="ray", part_size=3))
    assert len(parts) == -(-n // 3)
    assert as_dicts(merge(parts).standings()) == local


def test_ray_checks_the_bots_before_it_plays(local_ray: Any) -> None:
    with pytest.raises(SpielwerkError, match="unknown bot"):
        spielwerk.evaluate("caravan", ["mystery"], 2, backend="ray")
    with pytest.raises(SpielwerkError, match="made for caravan"):
        spielwerk.evaluate("dog", [spielwerk.bots.make("random", "caravan")], 4, backend="ray")


def test_a_forged_pickled_part_is_refused() -> None:
    """A pickle is input from outside (``pickle.loads`` calls ``_restore_evaluation_part``):
    its tally is checked before it is believed."""
    part = spielwerk.evaluate_games("caravan", ["random", "random"], 0, 4, seed=1)
    data = json.loads(part.to_json())
    assert _restore_evaluation_part(json.dumps(data)).games == 4
    data["standings"][0]["wins"] = 99
    with pytest.raises(SpielwerkError, match="does not add up"):
        _restore_evaluation_part(json.dumps(data))
