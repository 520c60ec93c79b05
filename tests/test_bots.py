"""The bots from Python: by name, legal and seeded, blind to hidden cards, in batches, and
evaluated against each other (issue 11). The search itself is tested in Rust
(core/src/bots/tests.rs); here the bindings: arguments, errors, the GIL-free batch and
`evaluate`'s determinism."""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest
import spielwerk
from spielwerk.errors import SpielwerkError

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("schotten_totten", {}),
    ("caravan", {}),
    ("the_game", {"players": 1}),
    ("the_game", {"players": 4}),
    ("dog", {}),
]
# Few iterations: these tests check the plumbing, not the strength.
FAST: dict[str, dict[str, Any]] = {
    "schotten_totten": {"iterations": 60},
    "caravan": {"iterations": 40},
    "the_game": {"iterations": 60},
    "dog": {"iterations": 8},
}
FAST_PIMC: dict[str, Any] = {"samples": 3, "width": 3}


def positions(game: spielwerk.Game, n: int, seed: int) -> list[spielwerk.State]:
    """`n` running positions of `game`, reached by random play from different deals."""
    out = []
    rng = spielwerk.RandomBot(seed)
    for i in range(n):
        state = game.new_initial_state(seed + i)
        for _ in range((i * 7) % 50):
            if state.is_terminal():
                break
            state.apply_action(rng.step(state))
        if not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize("name", spielwerk.list_games())
def test_names(name: str) -> None:
    assert spielwerk.bots.names(name) == ["heuristic", "ismcts", "pimc", "random"]
    assert spielwerk.bots.names(spielwerk.load_game(name)) == ["heuristic", "ismcts", "pimc", "random"]


@pytest.mark.parametrize("name", spielwerk.list_games())
def test_only_the_search_says_it_searches(name: str) -> None:
    # The web API runs searching bots off its event loop, one move per request.
    searching = {bot: spielwerk.bots.make(bot, name).searches for bot in spielwerk.bots.names(name)}
    assert searching == {"heuristic": False, "ismcts": True, "pimc": True, "random": False}


def test_unknown_names_and_parameters_name_the_allowed_ones() -> None:
    with pytest.raises(ValueError, match="heuristic, ismcts, pimc, random, easy, normal, strong") as unknown:
        spielwerk.bots.make("alphazero", "caravan")
    assert isinstance(unknown.value, SpielwerkError)
    assert unknown.value.code == "unknown_bot"
    allowed = "c, dominant, iterations, prior, rollout, rollout_depth, time_ms, widen"
    with pytest.raises(SpielwerkError, match=allowed) as bad:
        spielwerk.bots.make("ismcts", "caravan", depth=3)
    assert bad.value.code == "invalid_bot_params"
    bad_params: list[dict[str, Any]] = [
        {"iterations": 0},
        {"iterations": "many"},
        {"c": -1},
        {"rollout": "smart"},
        {"prior": -0.5},
        {"rollout_depth": -1},
        {"dominant": "yes"},
        {"widen": -1},
        {"widen": 1001},
    ]
    for params in bad_params:
        with pytest.raises(SpielwerkError) as e:
            spielwerk.bots.make("ismcts", "caravan", **params)
        assert e.value.code == "invalid_bot_params", params
    with pytest.raises(SpielwerkError, match="takes none"):
        spielwerk.bots.make("random", "caravan", iterations=3)
    with pytest.raises(spielwerk.UnknownGameError):
        spielwerk.bots.make("random", "chess")
    with pytest.raises(ValueError, match="seed"):
        spielwerk.bots.make("random", "caravan", seed=-1)


def test_a_bot_tells_what_it_is() -> None:
    bot = spielwerk.bots.make("ismcts", "schotten_totten", seed=4, iterations=50)
    assert (bot.name, bot.seed, bot.game.name) == ("ismcts", 4, "schotten_totten")
    assert bot.params == {
        "c": 0.7,
        "dominant": False,
        "iterations": 50,
        "prior": 0.0,
        "rollout": "random",
        "rollout_depth": None,
        "time_ms": None,
        "widen": 0,
    }
    assert "iterations=50" in repr(bot) and "rollout='random'" in repr(bot)
    assert spielwerk.bots.make("ismcts", "dog", time_ms=5).params["time_ms"] == 5
    assert spielwerk.bots.make("random", "dog").params == {}


@pytest.mark.parametrize("name", spielwerk.list_games())
def test_every_game_has_the_three_levels_in_order(name: str) -> None:
    levels = spielwerk.bots.levels(name)
    assert [level["name"] for level in levels] == ["easy", "normal", "strong"] == list(spielwerk.bots.LEVELS)
    for level in levels:
        assert set(level) == {"name", "bot", "params", "rating", "cpu_ms_per_move"}
        bot = spielwerk.bots.make(level["name"], name, seed=3)
        # A level is its bot with its settings, and says which level it is.
        assert (bot.level, bot.name, bot.seed) == (level["name"], level["bot"], 3)
        made = spielwerk.bots.make(level["bot"], name, **level["params"]).params
        assert bot.params == made
        assert repr(bot) == f"spielwerk.bots.make('{level['name']}', {bot.game!r}, seed=3)"
    # Levels are bounded by iterations or deals, never by wall time (the same on every machine).
    assert all(level["params"].get("time_ms") is None for level in levels)


def test_a_level_takes_only_a_time_bound() -> None:
    assert spielwerk.bots.make("strong", "dog", time_ms=50).params["time_ms"] == 50
    with pytest.raises(SpielwerkError, match="fixed settings") as refused:
        spielwerk.bots.make("strong", "dog", iterations=10)
    assert refused.value.code == "invalid_bot_params"
    assert spielwerk.bots.make("heuristic", "dog").level is None


def test_pimc_parameters_are_checked_and_told() -> None:
    bot = spielwerk.bots.make("pimc", "the_game", samples=5, width=3)
    assert bot.params == {
        "confidence": 1.0,
        "dominant": True,
        "rollout_depth": None,
        "samples": 5,
        "time_ms": None,
        "width": 3,
        "win_bonus": 0.25,
    }
    for params in ({"samples": 0}, {"width": -1}, {"confidence": -1}, {"win_bonus": "big"}, {"time_ms": 0}):
        with pytest.raises(SpielwerkError) as e:
            spielwerk.bots.make("pimc", "the_game", **params)
        assert e.value.code == "invalid_bot_params", params


@pytest.mark.parametrize(("name", "options"), GAMES)
@pytest.mark.parametrize("bot_name", ["random", "ismcts", "pimc"])
def test_bots_choose_legal_seeded_moves_from_the_view_alone(
    name: str, options: dict[str, Any], bot_name: str
) -> None:
    """Legal; the same seed gives the same move; a resample from the deciding seat (the same
    view, other hidden cards) gets the same move; step_many agrees with step."""
    game = spielwerk.load_game(name, **options)
    params = FAST[name] if bot_name == "ismcts" else FAST_PIMC if bot_name == "pimc" else {}
    bot = spielwerk.bots.make(bot_name, game, seed=3, **params)
    twin = spielwerk.bots.make(bot_name, game, seed=3, **params)
    states = positions(game, 6, seed=10)
    chosen = [bot.step(s) for s in states]
    for state, action in zip(states, chosen, strict=True):
        assert action in state.legal_actions()
        assert twin.step(state) == action
        seat = state.current_player()
        assert bot.step(state.resample(seat, 99)) == action
    assert bot.step_many(states) == chosen
    assert bot.step_many(iter(states)) == chosen
    assert bot.step_many([]) == []


def test_each_partner_decides_in_dogs_exchange() -> None:
    game = spielwerk.load_game("dog")
    state = game.new_initial_state(3)
    bot = spielwerk.bots.make("ismcts", game, iterations=10)
    seats = state.seats_to_move()
    assert len(seats) > 1
    for seat in seats:
        assert bot.step(state, seat=seat) in state.legal_actions(seat=seat)
    picked = state.clone()
    picked.apply_action(bot.step(picked, seat=seats[-1]), seat=seats[-1])
    with pytest.raises(SpielwerkError, match="may not move"):
        bot.step(picked, seat=seats[-1])
    with pytest.raises(SpielwerkError, match="does not exist"):
        bot.step(state, seat=7)


def test_step_refuses_finished_games_other_games_and_non_states() -> None:
    game = spielwerk.load_game("schotten_totten")
    bot = spielwerk.bots.make("random", game)
    state = game.new_initial_state(1)
    rng = spielwerk.RandomBot(1)
    while not state.is_terminal():
        state.apply_action(rng.step(state))
    with pytest.raises(SpielwerkError, match="over"):
        bot.step(state)
    with pytest.raises(SpielwerkError, match=r"states\[1\]"):
        bot.step_many([game.new_initial_state(2), state])
    with pytest.raises(SpielwerkError, match="another game"):
        bot.step(spielwerk.load_game("caravan").new_initial_state(1))
    with pytest.raises(TypeError, match=r"states\[0\]"):
        bot.step_many(["not a state"])  # type: ignore[list-item]


def test_ismcts_beats_random() -> None:
    """A margin that cannot flake: 200 iterations against random play over 20 seeded games."""
    results = spielwerk.evaluate("schotten_totten", [("ismcts", {"iterations": 200}), "random"], 20, seed=1)
    ismcts, random = results
    assert ismcts.games == random.games == 20
    assert ismcts.wins >= 16
    assert ismcts.wins == random.losses


@pytest.mark.parametrize(("name", "options"), GAMES)
def test_evaluate_is_the_same_for_any_thread_count(name: str, options: dict[str, Any]) -> None:
    game = spielwerk.load_game(name, **options)
    players = game.num_players()
    bots: list[Any] = [spielwerk.bots.make("random", game, seed=1)]
    if players % 2 == 0:
        # Dog's games are long: two random teams there.
        bots.append("random" if name == "dog" else ("ismcts", {"iterations": 4}))
    n = 4 if name == "dog" else 16
    one = spielwerk.evaluate(game, bots, n, seed=5, threads=1)
    two = spielwerk.evaluate(game, bots, n, seed=5, threads=2)
    assert [s.as_dict() for s in one] == [s.as_dict() for s in two]
    assert spielwerk.evaluate(game, bots, n, seed=5)[0].as_dict() == one[0].as_dict()
    for s in one:
        assert s.games == n
        assert s.wins + s.draws + s.losses == n
        lo, hi = s.win_rate_ci
        assert 0 <= lo <= s.win_rate <= hi <= 1
    if len(one) == 2 and game.utility() != "cooperative":
        assert (one[0].wins, one[0].draws) == (one[1].losses, one[1].draws)


def test_evaluate_counts_cards_left_in_the_game() -> None:
    (s,) = spielwerk.evaluate(spielwerk.load_game("the_game", players=2), ["random"], 100, seed=2)
    assert s.mean_cards_left is not None and s.mean_cards_left_ci is not None
    assert s.perfect_rate == s.win_rate == 0.0
    assert s.under_10_rate is not None and s.under_10_ci is not None
    assert s.mean_return == -s.mean_cards_left
    lo, hi = s.mean_cards_left_ci
    assert lo < s.mean_cards_left < hi
    assert "mean_cards_left" in repr(s)
    (z,) = spielwerk.evaluate("caravan", ["random"], 2)
    assert z.perfect_rate is None and z.mean_cards_left_ci is None


def test_evaluate_refuses_bad_arguments() -> None:
    with pytest.raises(SpielwerkError, match="divides"):
        spielwerk.evaluate("dog", ["random"] * 3, 4)
    with pytest.raises(SpielwerkError, match="divides"):
        spielwerk.evaluate("caravan", [], 4)
    with pytest.raises(SpielwerkError, match="made for caravan"):
        spielwerk.evaluate("dog", [spielwerk.bots.make("random", "caravan")], 4)
    with pytest.raises(SpielwerkError, match="unknown bot"):
        spielwerk.evaluate("dog", ["mystery"], 4)
    with pytest.raises(TypeError, match=r"bots\[0\]"):
        spielwerk.evaluate("dog", [42], 4)  # type: ignore[list-item]
    with pytest.raises(SpielwerkError, match="threads"):
        spielwerk.evaluate("dog", ["random"], 4, threads=0)
    with pytest.raises(SpielwerkError, match="n_games"):
        spielwerk.evaluate("dog", ["random"], -1)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_evaluate_and_step_many_stop_on_ctrl_c() -> None:
    # Bounded work (a minute or two at most), so a missed interrupt fails instead of hanging.
    works: list[Callable[[], object]] = [
        lambda: spielwerk.evaluate("dog", [("ismcts", {"iterations": 100})], 2, threads=1),
        lambda: spielwerk.bots.make("ismcts", "dog", iterations=5_000).step_many(
            positions(spielwerk.load_game("dog"), 8, seed=1)
        ),
    ]
    # Python's own handler, whatever an earlier test (or a library it used) installed.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        interrupt_each(works)
    finally:
        signal.signal(signal.SIGINT, previous)


def interrupt_each(works: list[Callable[[], object]]) -> None:
    for work in works:
        timer = threading.Timer(
            0.3, lambda: signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
        )
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                work()
        finally:
            timer.cancel()
