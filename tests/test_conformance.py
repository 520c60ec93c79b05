"""One conformance suite for every registered game: the Python face of the engine contract.

The same checks for each game in `spielwerk.list_games()` (and a spread of options), after
OpenSpiel's shared game tests: round trips (JSON, pickle, views, moves), views as
information states (`resample` and `state_from_view` keep the view and depend on nothing
else, the key is equal exactly when the view is), seats, metadata, typed errors, and the
boundary: input from strangers is refused with a `SpielwerkError` (or a `TypeError` for
the wrong kind of Python object), never a crash or a Rust panic. The Rust twin of this file
is core/tests/conformance.rs.
"""

from __future__ import annotations

import contextlib
import copy
import json
import pickle
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
import spielwerk
from hypothesis import given, settings
from hypothesis import strategies as st
from move_checks import check_text

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("schotten_totten", {}),
    ("caravan", {}),
    ("caravan", {"reshuffle": True, "short_deck": True, "fresh_hand": True}),
    ("caravan", {"double_deck": True}),
    ("the_game", {"players": 1}),
    ("the_game", {"players": 3, "pro": True}),
    ("the_game", {"players": 5}),
    ("dog", {}),
]
IDS = [f"{name}{'-' + '-'.join(options) if options else ''}" for name, options in CONFIGS]
UTILITIES = {
    "schotten_totten": "zero_sum",
    "caravan": "zero_sum",
    "the_game": "cooperative",
    "dog": "team_zero_sum",
}


def test_every_game_has_a_config() -> None:
    assert {name for name, _ in CONFIGS} == set(spielwerk.list_games())


def states(name: str, options: dict[str, Any], seed: int, every: int) -> Iterator[spielwerk.State]:
    """Every `every`-th state of a seeded random game, and the last."""
    state = spielwerk.load_game(name, **options).new_initial_state(seed)
    bot = spielwerk.RandomBot(seed)
    step = 0
    while True:
        if step % every == 0 or state.is_terminal():
            yield state
        if state.is_terminal():
            return
        state.apply_action(bot.step(state))
        step += 1


@pytest.fixture(params=CONFIGS, ids=IDS)
def config(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any]]:
    value: tuple[str, dict[str, Any]] = request.param
    return value


def test_metadata(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = spielwerk.load_game(name, **options)
    assert game.utility() == UTILITIES[name]
    assert game.max_game_length() > 0
    specs = game.option_specs()
    assert {s["name"] for s in specs} == set(game.options())
    for spec in specs:
        assert spec["type"] in ("bool", "int") and spec["description"], spec
        # The default loads, and so does every allowed value.
        assert spielwerk.load_game(name, **{spec["name"]: spec["default"]}) is not None
        for value in spec["allowed"] or []:
            spielwerk.load_game(name, **{spec["name"]: value})
        if spec["max"] is not None:
            with pytest.raises(spielwerk.InvalidOptionError):
                spielwerk.load_game(name, **{spec["name"]: spec["max"] + 1})
    for schema in (game.view_schema(), game.move_schema()):
        json.dumps(schema)
        assert schema.get("$schema", "").startswith("https://json-schema.org/")
    assert "properties" in game.view_schema()


def key_view(name: str, view: dict[str, Any]) -> dict[str, Any]:
    """The view an information-state key holds: the view less the facts a game derives for
    its board and leaves out of the key (bots seed each decision by the key, and need not
    pay for them): The Game's piles' takes and backward, Caravan's pairs' facts, Dog's
    hand_targets. Schotten Totten's key carries its facts: there the view is the key."""
    view = copy.deepcopy(view)
    if name == "the_game":
        for pile in view["piles"]:
            pile.pop("takes", None)
            pile.pop("backward", None)
    elif name == "caravan":
        for pair in view["pairs"]:
            pair.pop("facts", None)
    elif name == "dog":
        view.pop("hand_targets", None)
    return view


def test_round_trips_and_views(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = spielwerk.load_game(name, **options)
    for seed in range(2):
        for state in states(name, options, seed, every=17):
            assert pickle.loads(pickle.dumps(state)) == state
            assert copy.deepcopy(state) == state == state.clone()
            assert game.deserialize_state(state.serialize()) == state
            snapshot = state.serialize_snapshot()
            assert isinstance(snapshot, bytes) and len(snapshot) < len(state.serialize())
            back = game.deserialize_state(snapshot)
            assert back == state and back.serialize() == state.serialize()
            assert json.loads(state.view_json(None)) == state.public_view()
            for p in range(game.num_players()):
                view = state.view(p)
                assert json.loads(state.view_json(p)) == view
                key = state.information_state_key(p)
                if key_view(name, view) == view:
                    assert key == state.view_json(p)
                else:
                    assert json.loads(key) == key_view(name, view), "the key is the view without its facts"
                assert game.state_from_view(view, seed).view(p) == view
                resampled = state.resample(p, seed)
                assert resampled.view(p) == view
                assert resampled == game.state_from_view(view, seed)
                assert state.resample(p, seed) == resampled, "the same seed, the same deal"
            moves = state.legal_moves()
            assert [m["action"] for m in moves] == state.legal_actions()
            for m in moves[:30]:
                assert m["move"] == state.action_to_json(m["action"])
                assert m["text"] == state.action_to_string(m["action"])
                assert state.action_from_json(m["move"]) == m["action"]
                assert check_text(state, m["move"]) is None


def test_rewards_sum_to_returns_and_the_result_is_told(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = spielwerk.load_game(name, **options)
    state = game.new_initial_state(3)
    bot = spielwerk.RandomBot(3)
    total = np.zeros(game.num_players())
    assert state.result_text() is None
    while not state.is_terminal():
        state.apply_action(bot.step(state))
        total += state.rewards()
    assert list(total) == state.returns()
    assert len(state.history()) <= game.max_game_length()
    text = state.result_text()
    assert text and "None" not in text and "()" not in text, text


def test_resample_hides_the_other_hands(config: tuple[str, dict[str, Any]]) -> None:
    """A view that carried another seat's hand would force every resample to deal it back;
    at the start many cards are unseen, so seeded resamples must deal other hands anew."""
    name, options = config
    game = spielwerk.load_game(name, **options)
    state = game.new_initial_state(11)
    for p in range(game.num_players()):
        for q in range(game.num_players()):
            if q == p or not state.hand(q):
                continue
            hands = {tuple(sorted(state.resample(p, seed).hand(q))) for seed in range(6)}
            assert len(hands) > 1, f"seat {p} sees seat {q}'s hand"
        assert "hand" not in state.public_view() or state.public_view()["hand"] in (None, [])


def test_seats_and_turns(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = spielwerk.load_game(name, **options)
    for state in states(name, options, 4, every=23):
        seats = state.seats_to_move()
        if state.is_terminal():
            assert seats == []
            continue
        assert state.current_player() in seats
        move = state.legal_moves()[0]["move"]
        for seat in range(game.num_players()):
            if seat not in seats:
                rejection = state.check_move(move, seat)
                # Dog's exchange says more: the seat has picked already.
                assert rejection is not None and rejection.code in ("not_your_turn", "already_picked"), (
                    rejection
                )
                assert state.legal_actions(seat) == []
            else:
                assert state.legal_actions(seat)


# --- Generic properties, once for every game (each game's suite had its own copy) -------

#: The seeded deal is checked for more options than the other checks need: every player
#: count of The Game and Caravan's deck variants one by one.
SEED_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *CONFIGS,
    ("schotten_totten", {"first_player": 1}),
    ("caravan", {"short_deck": True}),
    ("caravan", {"fresh_hand": True}),
    ("the_game", {"players": 2}),
    ("the_game", {"players": 4}),
]
SEED_IDS = [f"{name}{'-' + '-'.join(options) if options else ''}" for name, options in SEED_CONFIGS]


def random_game(game: spielwerk.Game, seed: int, most: int = 300) -> spielwerk.State:
    """A seeded game of random moves (the deal and the bot from `seed`), at most `most` actions."""
    state = game.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    for _ in range(most):
        if state.is_terminal():
            break
        state.apply_action(bot.step(state))
    return state


@pytest.mark.parametrize(("name", "options"), SEED_CONFIGS, ids=SEED_IDS)
def test_same_seed_same_game_other_seed_other_game(name: str, options: dict[str, Any]) -> None:
    game = spielwerk.load_game(name, **options)
    assert game.new_initial_state(seed=3) == game.new_initial_state(seed=3)
    assert game.new_initial_state(seed=3).serialize() == game.new_initial_state(seed=3).serialize()
    # Every game deals hands: 50 seeds, 50 different deals.
    hands = (json.loads(game.new_initial_state(seed=seed).serialize())["hands"] for seed in range(50))
    deals = {json.dumps(h) for h in hands}
    assert len(deals) == 50
    played = random_game(game, 9)
    assert random_game(game, 9) == played
    assert random_game(game, 10).history() != played.history()


def test_out_of_range_actions_are_refused_and_change_nothing(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = spielwerk.load_game(name, **options)
    state = game.new_initial_state(seed=5)
    before = state.serialize()
    n = game.num_distinct_actions()
    for action in (n, n + 1, -1, 10**6):
        with pytest.raises(ValueError, match=str(action)):
            state.apply_action(action)
        with pytest.raises(ValueError, match=str(action)):
            state.action_to_json(action)
        assert state.serialize() == before


def test_simulate_does_not_depend_on_the_thread_count(config: tuple[str, dict[str, Any]]) -> None:
    name, options = config
    game = spielwerk.load_game(name, **options)
    games = 20 if name == "dog" else 200
    one = spielwerk.simulate(game, games, seed=11, threads=1)
    many = spielwerk.simulate(game, games, seed=11, threads=4)
    assert one.as_dict() == many.as_dict()
    assert one.games == games and one.utility == game.utility()
    assert 0 < one.mean_length <= game.max_game_length(), one
    assert spielwerk.simulate(game, games, seed=12, threads=1).as_dict() != one.as_dict()


# --- The boundary: input from strangers -------------------------------------------------

JSON_LIKE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def deep(levels: int) -> Any:
    value: Any = {"type": "pass"}
    for _ in range(levels):
        value = {"type": "pass", "x": value}
    return value


@pytest.mark.parametrize("name", sorted(UTILITIES))
def test_deep_nesting_is_refused_not_a_crash(name: str) -> None:
    state = spielwerk.load_game(name).new_initial_state(1)
    very_deep = deep(100_000)
    for call in (state.check_move, state.action_from_json):
        with pytest.raises(ValueError, match="deeper than"):
            call(very_deep)
    with pytest.raises(ValueError, match="deeper than"):
        spielwerk.load_game(name, option=very_deep)
    with pytest.raises(ValueError, match="deeper than"):
        state.game.state_from_view(very_deep)


@pytest.mark.parametrize("name", sorted(UTILITIES))
def test_integers_out_of_range_are_value_errors(name: str) -> None:
    state = spielwerk.load_game(name).new_initial_state(1)
    for huge in (2**64, -(2**70), 10**30):
        with pytest.raises(ValueError):
            state.apply_action(huge)
        with pytest.raises(ValueError):
            state.view(huge)
        with pytest.raises(ValueError):
            state.check_move({"type": "play", "card": huge, "stone": huge, "pile": huge})
    with pytest.raises(spielwerk.IllegalActionError) as info:
        state.apply_action(-1)
    assert info.value.code == "no_such_action"
    with pytest.raises(TypeError):
        state.apply_action("3")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(UTILITIES))
def test_numpy_integers_work_wherever_ints_do(name: str) -> None:
    state = spielwerk.load_game(name).new_initial_state(np.uint64(2))
    action = state.legal_actions()[0]
    move = state.action_to_json(action)
    as_numpy = {
        k: np.int64(v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in move.items()
    }
    assert state.action_from_json(as_numpy) == action
    assert check_text(state, as_numpy) is None
    assert state.view(np.int32(0)) == state.view(0)
    state.apply_action(np.int64(action))
    assert state.history() == [action]


@pytest.mark.parametrize("name", sorted(UTILITIES))
def test_long_input_is_not_echoed_whole(name: str) -> None:
    state = spielwerk.load_game(name).new_initial_state(1)
    junk = "Z" * 1_000_000
    for move in ({"type": "play", "card": junk, "stone": 1, "pile": 0}, {"type": junk}):
        with pytest.raises(spielwerk.InvalidMoveError) as info:
            state.check_move(move)
        assert len(str(info.value)) < 1_000
    with pytest.raises(spielwerk.UnknownGameError) as unknown:
        spielwerk.load_game(junk)
    assert len(str(unknown.value)) < 1_000
    with pytest.raises(spielwerk.InvalidStateError) as bad_state:
        state.game.deserialize_state(junk)
    assert len(str(bad_state.value)) < 1_000


@pytest.mark.parametrize("name", sorted(UTILITIES))
@settings(max_examples=60, deadline=None)
@given(move=JSON_LIKE)
def test_any_json_move_is_parsed_or_refused(name: str, move: Any) -> None:
    state = spielwerk.load_game(name).new_initial_state(1)
    before = state.serialize()
    try:
        action = state.action_from_json(move)
    except spielwerk.SpielwerkError:
        pass
    else:
        assert 0 <= action < state.game.num_distinct_actions()
    with contextlib.suppress(spielwerk.SpielwerkError):
        state.check_move(move)
    assert state.serialize() == before


@pytest.mark.parametrize("name", sorted(UTILITIES))
@settings(max_examples=40, deadline=None)
@given(view=JSON_LIKE)
def test_any_json_view_or_state_is_refused_or_consistent(name: str, view: Any) -> None:
    game = spielwerk.load_game(name)
    builds: list[Callable[[], spielwerk.State]] = [
        lambda: game.state_from_view(view),
        lambda: game.deserialize_state(json.dumps(view)),
    ]
    for build in builds:
        try:
            state = build()
        except spielwerk.SpielwerkError:
            continue
        state.view(0)


def test_errors_are_one_family() -> None:
    for error in (
        spielwerk.UnknownGameError,
        spielwerk.InvalidOptionError,
        spielwerk.InvalidStateError,
        spielwerk.InvalidMoveError,
        spielwerk.IllegalActionError,
    ):
        assert issubclass(error, spielwerk.SpielwerkError)
    assert issubclass(spielwerk.SpielwerkError, ValueError)
    with pytest.raises(spielwerk.UnknownGameError) as unknown:
        spielwerk.load_game("chess")
    assert unknown.value.code == "unknown_game" and "schotten_totten" in str(unknown.value)
    with pytest.raises(spielwerk.InvalidOptionError) as option:
        spielwerk.load_game("the_game", players=9)
    assert option.value.code == "invalid_option"
    state = spielwerk.load_game("schotten_totten").new_initial_state(1)
    with pytest.raises(spielwerk.InvalidMoveError):
        state.check_move({"type": "fly"})
    rejection = state.check_move({"type": "claim", "stone": 3})
    assert isinstance(rejection, spielwerk.IllegalActionError)
    assert rejection.as_dict()["rule"] == rejection.rule


def test_submodules_come_with_the_package() -> None:
    assert spielwerk.schotten_totten.formation(["B5", "B6", "B7"]) == ("color_run", 18)
    assert spielwerk.the_game.mentions_number("dreiundsechzig")


# --- simulate ----------------------------------------------------------------------------


def test_simulate_counts_as_the_utility_says() -> None:
    coop = spielwerk.simulate(spielwerk.load_game("the_game", players=2), 200, seed=1)
    assert coop.utility == "cooperative"
    assert coop.draws == 0
    assert sum(coop.cards_left) == 200
    assert coop.perfect_games == coop.cards_left[0] == coop.wins[0]
    mean = sum(k * n for k, n in enumerate(coop.cards_left)) / 200
    assert coop.mean_cards_left == pytest.approx(mean)
    assert coop.mean_returns[0] == pytest.approx(-mean)
    dog = spielwerk.simulate("dog", 20, seed=1)
    assert dog.utility == "team_zero_sum" and len(dog.team_wins) == 2
    assert dog.team_wins[0] == dog.wins[0] == dog.wins[2]
    assert sum(dog.team_wins) + dog.draws == 20
    duel = spielwerk.simulate("schotten_totten", 100, seed=1)
    assert duel.utility == "zero_sum" and sum(duel.wins) + duel.draws == 100
    for bad in (-1, 2**70):
        with pytest.raises(ValueError):
            spielwerk.simulate("schotten_totten", bad)
    with pytest.raises(ValueError):
        spielwerk.simulate("schotten_totten", 10, threads=0)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_simulate_stops_on_ctrl_c() -> None:
    """SIGINT during a long simulation raises KeyboardInterrupt promptly."""
    timer = threading.Timer(
        0.3, lambda: signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)
    )
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            spielwerk.simulate("dog", 200_000, seed=1, threads=1)
    finally:
        timer.cancel()


@pytest.mark.parametrize("name", sorted(UTILITIES))
def test_compact_form_and_pickle_keep_who_moved(name: str) -> None:
    """Where several seats may move (Dog's exchange, D4), the last of them moves first: the
    compact form and pickle must still give back the same state."""
    game = spielwerk.load_game(name)
    state = game.new_initial_state(5)
    bot = spielwerk.RandomBot(5)
    for _ in range(40):
        if state.is_terminal():
            break
        seat = state.seats_to_move()[-1]
        actions = state.legal_actions(seat)
        state.apply_action(actions[bot.step(state) % len(actions)], seat)
    assert game.deserialize_state(state.serialize_compact()) == state
    assert pickle.loads(pickle.dumps(state)) == state


@pytest.mark.parametrize("name", sorted(UTILITIES))
def test_snapshots_pickle_and_refuse_what_is_not_theirs(name: str) -> None:
    """A snapshot is bytes, read back by ``deserialize_state`` and used by pickle, which
    keeps the deal's seed (``serialize_compact`` still works); bytes of another game, cut
    short or forged are an ``InvalidStateError``, never a crash."""
    game = spielwerk.load_game(name)
    state = game.new_initial_state(4)
    bot = spielwerk.RandomBot(4)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(bot.step(state))
    snapshot = state.serialize_snapshot()
    assert snapshot.startswith(b"SWS")
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled == state
    assert unpickled.serialize_compact() == state.serialize_compact()
    # A pickle is input from anyone: a forged deal seed is caught by replaying it on the
    # first serialize_compact(), never written into a record of another game.
    restore = spielwerk._spielwerk._restore_state
    forged = restore(game, snapshot, 5)
    assert forged == state
    with pytest.raises(spielwerk.InvalidStateError, match="does not deal this state"):
        forged.serialize_compact()
    with pytest.raises(spielwerk.InvalidStateError, match="does not deal this state"):
        pickle.loads(pickle.dumps(forged)).serialize_compact()
    # The true seed passes the replay, and the state keeps it through further actions.
    claimed = restore(game, snapshot, 4)
    assert claimed.serialize_compact() == state.serialize_compact()
    if not claimed.is_terminal():
        claimed.apply_action(claimed.legal_actions()[0])
        assert game.deserialize_state(claimed.serialize_compact()) == claimed
    # A state read from JSON has no deal's seed, before pickling or after.
    read = game.deserialize_state(state.serialize())
    with pytest.raises(spielwerk.SpielwerkError):
        pickle.loads(pickle.dumps(read)).serialize_compact()
    # Pickles from before snapshots (JSON or a compact record) still load.
    assert restore(game, state.serialize()) == restore(game, state.serialize_compact()) == state
    # JSON as UTF-8 bytes is read as JSON.
    assert game.deserialize_state(state.serialize().encode()) == state
    other = next(n for n in sorted(UTILITIES) if n != name)
    with pytest.raises(spielwerk.InvalidStateError, match=f"snapshot of the game '{other}'"):
        game.deserialize_state(spielwerk.load_game(other).new_initial_state(1).serialize_snapshot())
    for cut in range(len(snapshot)):
        with pytest.raises(spielwerk.InvalidStateError):
            game.deserialize_state(snapshot[:cut])
    with pytest.raises(spielwerk.InvalidStateError):
        game.deserialize_state(b"SWS\x01" + bytes(range(256)))
    with pytest.raises(TypeError):
        game.deserialize_state(1234)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", sorted(UTILITIES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_mutated_snapshots_are_refused_or_consistent(name: str, data: st.DataObject) -> None:
    game = spielwerk.load_game(name)
    state = game.new_initial_state(data.draw(st.integers(0, 50)))
    bot = spielwerk.RandomBot(3)
    for _ in range(data.draw(st.integers(0, 120))):
        if state.is_terminal():
            break
        state.apply_action(bot.step(state))
    snapshot = bytearray(state.serialize_snapshot())
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(4, len(snapshot) - 1))
        snapshot[i] = data.draw(st.integers(0, 255))
    try:
        read = game.deserialize_state(bytes(snapshot))
    except spielwerk.InvalidStateError:
        return
    assert game.deserialize_state(read.serialize_snapshot()) == read
    while not read.is_terminal():
        read.apply_action(bot.step(read))
