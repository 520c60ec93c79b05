"""The observation tensors from Python, for every game over many seeded random states.

- the array of `observation_tensor(seat)` equals what `observation_tensor_into(seat, out)`
  writes (into a buffer filled with NaN first, so every element is written);
- a seat's tensor is identical for the state and `state.resample(seat, seed)`: it depends
  on nothing the seat cannot see;
- equal `information_state_key(seat)` gives an equal tensor (the key is the view, the
  tensor is written from the view). The other direction (different views give different
  tensors, up to the fields a game leaves out on purpose, listed in its
  `core/src/<game>/tensor.rs`) needs those fields removed from the view, which only the
  typed view can do: core/tests/tensor.rs checks it over thousands of states;
- `describe_tensor()` covers the tensor slice after slice; the information-state tensor
  is the observation; wrong buffers are refused and left as they were; pickling and
  cloning keep the tensor.

Bounded: a few dozen games per game, a sample of each game's states, well under a few
seconds per game.
"""

from __future__ import annotations

import copy
import math
import pickle
import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
import spielwerk

GAMES = spielwerk.list_games()
#: Seeded games per game, at most this many actions each, every `EVERY`-th state kept.
NUM_GAMES = 40
MAX_ACTIONS = 400
EVERY = 3


def random_states(game: spielwerk.Game, seed: int) -> Iterator[spielwerk.State]:
    """Every `EVERY`-th state of a seeded random game (and its last), played by a seeded
    random choice among the legal actions of a seat to move."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed)
    for step in range(MAX_ACTIONS):
        if step % EVERY == 0:
            yield state.clone()
        if state.is_terminal():
            return
        seat = rng.choice(state.seats_to_move())
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    yield state


def sample(name: str, games: int = NUM_GAMES) -> Iterator[tuple[spielwerk.State, int]]:
    """(state, seat) over `games` seeded games of `name`: every seat of every kept state."""
    game = spielwerk.load_game(name)
    for seed in range(games):
        for state in random_states(game, seed):
            for seat in range(game.num_players()):
                yield state, seat


@pytest.mark.parametrize("name", GAMES)
def test_into_equals_the_new_array_and_resample_keeps_it(name: str) -> None:
    game = spielwerk.load_game(name)
    shape = game.observation_tensor_shape()
    out = np.empty(shape, dtype=np.float32)
    cases = 0
    for state, seat in sample(name):
        tensor = state.observation_tensor(seat)
        assert tensor.dtype == np.float32 and list(tensor.shape) == shape
        out.fill(np.nan)
        state.observation_tensor_into(seat, out)
        np.testing.assert_array_equal(tensor, out)
        assert ((tensor >= 0) & (tensor <= 1)).all(), "values lie in [0, 1]"
        np.testing.assert_array_equal(state.information_state_tensor(seat), tensor)
        redealt = state.resample(seat, cases)
        np.testing.assert_array_equal(redealt.observation_tensor(seat), tensor)
        cases += 1
    assert cases > 300


@pytest.mark.parametrize("name", GAMES)
def test_equal_keys_give_equal_tensors(name: str) -> None:
    """Key equal => tensor equal, over states met in different games and by resampling.
    (Tensor equal => view equal up to the fields left out: core/tests/tensor.rs.)"""
    tensor_of_key: dict[bytes, bytes] = {}
    distinct_tensors: set[bytes] = set()
    for state, seat in sample(name, games=NUM_GAMES // 2):
        for candidate in (state, state.resample(seat, 7)):
            key = candidate.information_state_key(seat)
            tensor = candidate.observation_tensor(seat).tobytes()
            assert tensor_of_key.setdefault(key, tensor) == tensor
            distinct_tensors.add(tensor)
    # The tensor tells positions apart: not one tensor for everything.
    assert len(distinct_tensors) > len(tensor_of_key) // 2


@pytest.mark.parametrize("name", GAMES)
def test_the_description_covers_the_tensor(name: str) -> None:
    game = spielwerk.load_game(name)
    (length,) = game.observation_tensor_shape()
    slices = game.describe_tensor()
    at = 0
    for s in slices:
        assert set(s) == {"name", "offset", "shape", "meaning"}
        assert s["offset"] == at, s
        assert s["meaning"], s
        at += math.prod(s["shape"])
    assert at == length
    assert len({s["name"] for s in slices}) == len(slices)
    assert game.information_state_tensor_shape() == game.observation_tensor_shape()
    # The slice `seat` is the seat's one-hot, as the description says.
    state = game.new_initial_state(3)
    seat_slice = next(s for s in slices if s["name"] == "seat")
    for seat in range(game.num_players()):
        part = state.observation_tensor(seat)[seat_slice["offset"] :][: game.num_players()]
        assert part.tolist() == [float(i == seat) for i in range(game.num_players())]


@pytest.mark.parametrize("name", GAMES)
def test_seat_none_is_the_player_to_move_and_the_spectator_sees_no_hand(name: str) -> None:
    game = spielwerk.load_game(name)
    state = game.new_initial_state(5)
    seat = state.current_player()
    np.testing.assert_array_equal(state.observation_tensor(), state.observation_tensor(seat))
    public = state.public_observation_tensor()
    out = np.full(game.observation_tensor_shape(), np.nan, dtype=np.float32)
    state.public_observation_tensor_into(out)
    np.testing.assert_array_equal(public, out)
    hand = next(s for s in game.describe_tensor() if s["name"] == "hand")
    assert not public[hand["offset"] :][: math.prod(hand["shape"])].any()
    # Once over nobody is to move: a seat must be named.
    rng = random.Random(1)
    while not state.is_terminal():
        mover = rng.choice(state.seats_to_move())
        state.apply_action(rng.choice(state.legal_actions(mover)), mover)
    with pytest.raises(spielwerk.SpielwerkError, match="name the seat"):
        state.observation_tensor()
    assert state.observation_tensor(0).shape == tuple(game.observation_tensor_shape())


@pytest.mark.parametrize("name", GAMES)
def test_wrong_buffers_and_seats_are_refused_and_left_alone(name: str) -> None:
    game = spielwerk.load_game(name)
    state = game.new_initial_state(2)
    (length,) = game.observation_tensor_shape()
    wrong: list[Any] = [
        np.zeros(length, dtype=np.float64),
        np.zeros(length + 1, dtype=np.float32),
        np.zeros((1, length), dtype=np.float32),
        np.zeros(2 * length, dtype=np.float32)[::2],
        [0.0] * length,
        None,
    ]
    read_only = np.zeros(length, dtype=np.float32)
    read_only.flags.writeable = False
    wrong.append(read_only)
    for buffer in wrong:
        before = copy.copy(buffer)
        with pytest.raises(spielwerk.SpielwerkError, match="float32 array of shape"):
            state.observation_tensor_into(0, buffer)
        if isinstance(buffer, np.ndarray):
            np.testing.assert_array_equal(buffer, before)
    for seat in (game.num_players(), -1, 2**70):
        with pytest.raises(spielwerk.SpielwerkError):
            state.observation_tensor(seat)
        with pytest.raises(spielwerk.SpielwerkError):
            state.observation_tensor_into(seat, np.zeros(length, dtype=np.float32))
    with pytest.raises(TypeError):
        state.observation_tensor("0")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", GAMES)
def test_pickle_and_clone_keep_the_tensor(name: str) -> None:
    game = spielwerk.load_game(name)
    for state in random_states(game, 11):
        for seat in range(game.num_players()):
            tensor = state.observation_tensor(seat)
            for copied in (pickle.loads(pickle.dumps(state)), state.clone(), copy.deepcopy(state)):
                np.testing.assert_array_equal(copied.observation_tensor(seat), tensor)
        assert pickle.loads(pickle.dumps(game)).describe_tensor() == game.describe_tensor()


def test_options_change_the_shape_where_the_docs_say() -> None:
    assert spielwerk.load_game("the_game", players=5).observation_tensor_shape() == [628]
    assert spielwerk.load_game("the_game", players=1).observation_tensor_shape() == [612]
    assert spielwerk.load_game("schotten_totten").observation_tensor_shape() == [1115]
    assert spielwerk.load_game("dog").observation_tensor_shape() == [1399]
    assert spielwerk.load_game("caravan").observation_tensor_shape() == [2532]
