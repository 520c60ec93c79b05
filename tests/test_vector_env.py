"""`spielwerk.VectorEnv`: its games equal the same seeded games stepped one by one in
Python, whatever the thread count; masks equal `legal_actions_mask`; observations equal
`observation_tensor`; autoreset deals episode k+1 from `VectorEnv.episode_seed`; opponents
leave seat 0 to move; a step with an illegal action is refused whole."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
import spielwerk

GAMES = spielwerk.list_games()
N_ENVS = 6
STEPS = 120


def choose(masks: npt.NDArray[np.uint8], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal action per row of `masks`."""
    actions: npt.NDArray[np.int64] = (rng.random(masks.shape) * masks).argmax(axis=1)
    return actions


def check_row(
    env: spielwerk.VectorEnv, i: int, state: spielwerk.State, obs: np.ndarray, info: dict[str, Any]
) -> None:
    seat = state.current_player()
    assert info["seat"][i] == seat
    np.testing.assert_array_equal(obs[i], state.observation_tensor(seat))
    np.testing.assert_array_equal(info["action_mask"][i].astype(bool), state.legal_actions_mask(seat))
    assert env.state(i) == state


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_the_envs_are_the_seeded_games_stepped_one_by_one(name: str, threads: int) -> None:
    game = spielwerk.load_game(name)
    env = spielwerk.VectorEnv(game, N_ENVS, seed=9, threads=threads)
    episodes = [0] * N_ENVS
    states = [game.new_initial_state(spielwerk.VectorEnv.episode_seed(9, i, 0)) for i in range(N_ENVS)]
    obs, info = env.reset()
    assert obs.shape == (N_ENVS, *game.observation_tensor_shape())
    assert info["action_mask"].dtype == np.uint8
    for i, s in enumerate(states):
        check_row(env, i, s, obs, info)
    rng = np.random.default_rng(threads)
    ended = 0
    for _ in range(STEPS):
        actions = choose(info["action_mask"], rng)
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert rewards.shape == (N_ENVS, game.num_players())
        assert not truncated.any()
        for i in range(N_ENVS):
            states[i].apply_action(int(actions[i]))
            np.testing.assert_array_equal(rewards[i], np.array(states[i].rewards(), dtype=np.float32))
            assert terminated[i] == states[i].is_terminal()
            if terminated[i]:
                ended += 1
                episodes[i] += 1
                states[i] = game.new_initial_state(spielwerk.VectorEnv.episode_seed(9, i, episodes[i]))
            check_row(env, i, states[i], obs, info)
    if name in ("schotten_totten", "the_game"):
        assert ended > 0, "autoreset was reached"
    # reset() starts every env at episode 0 again.
    obs, _ = env.reset()
    np.testing.assert_array_equal(
        obs[0], game.new_initial_state(spielwerk.VectorEnv.episode_seed(9, 0, 0)).observation_tensor()
    )


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_opponents_play_inside_the_step_the_same_on_any_thread_count(name: str, opponents: str) -> None:
    runs = []
    for threads in (1, 2):
        env = spielwerk.VectorEnv(name, N_ENVS, seed=4, opponents=opponents, threads=threads)
        obs, info = env.reset()
        rng = np.random.default_rng(0)
        trace = []
        for _ in range(60):
            assert (info["seat"] == 0).all()
            for i in range(N_ENVS):
                state = env.state(i)
                assert 0 in state.seats_to_move()
                np.testing.assert_array_equal(
                    info["action_mask"][i].astype(bool), state.legal_actions_mask(0)
                )
                np.testing.assert_array_equal(obs[i], state.observation_tensor(0))
            obs, rewards, terminated, _, info = env.step(choose(info["action_mask"], rng))
            assert rewards.shape == (N_ENVS,)
            trace.append((obs.copy(), rewards.copy(), terminated.copy()))
        runs.append(trace)
    for (o1, r1, t1), (o2, r2, t2) in zip(*runs, strict=True):
        np.testing.assert_array_equal(o1, o2)
        np.testing.assert_array_equal(r1, r2)
        np.testing.assert_array_equal(t1, t2)


def test_an_illegal_action_is_refused_and_no_env_moves() -> None:
    env = spielwerk.VectorEnv("schotten_totten", 4, seed=1)
    _, info = env.reset()
    before = [env.state(i) for i in range(4)]
    actions = info["action_mask"].argmax(axis=1)
    bad = actions.copy()
    bad[2] = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    with pytest.raises(spielwerk.SpielwerkError, match="env 2"):
        env.step(bad)
    with pytest.raises(spielwerk.SpielwerkError, match="one action per env"):
        env.step(actions[:3])
    with pytest.raises(spielwerk.SpielwerkError, match="outside"):
        env.step(np.full(4, 10**6))
    assert [env.state(i) for i in range(4)] == before
    env.step(actions)
    assert [env.state(i) for i in range(4)] != before


def test_bad_arguments_are_refused() -> None:
    for kwargs in (
        {"n_envs": 0},
        {"n_envs": -1},
        {"n_envs": 2, "threads": 0},
        {"n_envs": 2, "opponents": "ismcts"},
    ):
        with pytest.raises(spielwerk.SpielwerkError):
            spielwerk.VectorEnv("dog", **kwargs)
    with pytest.raises(spielwerk.UnknownGameError):
        spielwerk.VectorEnv("chess", 2)
    env = spielwerk.VectorEnv("dog", 2)
    with pytest.raises(spielwerk.SpielwerkError, match="envs are 0 to 1"):
        env.state(2)
    assert env.num_envs == 2 and env.game == spielwerk.load_game("dog")


def choose_from_lists(info: dict[str, Any], rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal action per env from the legal-action lists."""
    counts = info["legal_counts"]
    picks = (rng.random(len(counts)) * counts).astype(np.int64)
    actions: npt.NDArray[np.int64] = info["legal_actions"][np.arange(len(counts)), picks]
    return actions


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("threads", [1, 2])
def test_legal_action_lists_are_the_legal_actions_and_the_games_stay_the_seeded_ones(
    name: str, threads: int
) -> None:
    game = spielwerk.load_game(name)
    env = spielwerk.VectorEnv(game, N_ENVS, seed=9, threads=threads, legal_actions=True)
    masked = spielwerk.VectorEnv(game, N_ENVS, seed=9, threads=threads)
    only_lists = spielwerk.VectorEnv(
        game, N_ENVS, seed=9, threads=threads, action_mask=False, legal_actions=True
    )
    states = [game.new_initial_state(spielwerk.VectorEnv.episode_seed(9, i, 0)) for i in range(N_ENVS)]
    episodes = [0] * N_ENVS
    obs, info = env.reset()
    _, plain_info = masked.reset()
    _, lists_info = only_lists.reset()
    assert "legal_actions" not in plain_info and "legal_counts" not in plain_info
    assert "action_mask" not in lists_info
    assert info["legal_actions"].shape == (N_ENVS, game.num_distinct_actions())
    assert info["legal_actions"].dtype == np.int64 and info["legal_counts"].dtype == np.int64
    rng = np.random.default_rng(threads)
    for _ in range(STEPS):
        for i, state in enumerate(states):
            check_row(env, i, state, obs, info)
            legal = state.legal_actions()
            assert info["legal_counts"][i] == len(legal)
            assert list(info["legal_actions"][i, : len(legal)]) == legal
            assert (info["legal_actions"][i, len(legal) :] == -1).all()
        np.testing.assert_array_equal(lists_info["legal_actions"], info["legal_actions"])
        actions = choose_from_lists(info, rng)
        obs, _, terminated, _, info = env.step(actions)
        masked.step(actions)
        _, _, _, _, lists_info = only_lists.step(actions)
        for i in range(N_ENVS):
            states[i].apply_action(int(actions[i]))
            if terminated[i]:
                episodes[i] += 1
                states[i] = game.new_initial_state(spielwerk.VectorEnv.episode_seed(9, i, episodes[i]))
            assert masked.state(i) == states[i] == only_lists.state(i)


@pytest.mark.parametrize("name", GAMES)
def test_mask_bits_are_the_masks_packed_eight_actions_a_byte(name: str) -> None:
    game = spielwerk.load_game(name)
    width = game.num_distinct_actions()
    both = spielwerk.VectorEnv(game, N_ENVS, seed=4, threads=2, action_mask_bits=True)
    only_bits = spielwerk.VectorEnv(game, N_ENVS, seed=4, threads=1, action_mask=False, action_mask_bits=True)
    _, info = both.reset()
    _, bits_info = only_bits.reset()
    assert "action_mask" not in bits_info
    row = -(-width // 64) * 8  # whole 64-bit words
    assert info["action_mask_bits"].shape == (N_ENVS, row) and info["action_mask_bits"].dtype == np.uint8
    rng = np.random.default_rng(4)
    for _ in range(STEPS):
        masks = info["action_mask"]
        packed = np.zeros((N_ENVS, row), dtype=np.uint8)
        packed[:, : -(-width // 8)] = np.packbits(masks, axis=1, bitorder="little")
        np.testing.assert_array_equal(info["action_mask_bits"], packed)
        np.testing.assert_array_equal(bits_info["action_mask_bits"], packed)
        unpacked = np.unpackbits(info["action_mask_bits"], axis=1, count=width, bitorder="little")
        np.testing.assert_array_equal(unpacked, masks)
        actions = choose(masks, rng)
        _, _, _, _, info = both.step(actions)
        _, _, _, _, bits_info = only_bits.step(actions)
    assert all(both.state(i) == only_bits.state(i) for i in range(N_ENVS))


def test_steps_from_several_python_threads_wait_for_each_other() -> None:
    # The env's lock is taken before its arrays are borrowed for writing: a call from
    # another thread waits for the one running (the arrays were borrowed first before,
    # so a second call could find them borrowed and panic).
    env = spielwerk.VectorEnv("schotten_totten", 64, seed=2, legal_actions=True, threads=1)
    _, info = env.reset()
    failures: list[BaseException] = []
    done = [0]

    def run(seed: int) -> None:
        rng = np.random.default_rng(seed)
        for _ in range(100):
            try:
                # Another thread may step between this read and this step, so the
                # action may have become illegal: refused cleanly, nothing moved.
                env.step(choose_from_lists(info, rng))
                done[0] += 1
            except spielwerk.SpielwerkError:
                pass
            except BaseException as e:
                failures.append(e)
                return

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert done[0] > 0
