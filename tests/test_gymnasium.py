"""The Gymnasium environment (spielwerk.gymnasium): Gymnasium's check_env for every game, and
what the module's docstring promises. Dog plays with ``max_turns=80`` to keep it fast."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
import spielwerk

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env
from spielwerk import gymnasium as sgym

GAMES: dict[str, dict[str, Any]] = {
    "caravan": {},
    "dog": {"max_turns": 80},
    "schotten_totten": {},
    "the_game": {},
}


def test_every_game_is_covered() -> None:
    assert sorted(GAMES) == spielwerk.list_games()


@pytest.mark.parametrize("name", sorted(GAMES))
def test_check_env(name: str) -> None:
    check_env(sgym.env(name, **GAMES[name]), skip_render_check=False)
    check_env(sgym.env(name, seat=1, opponents="random", render_mode="ansi", **GAMES[name]))


def episode(env: sgym.SpielwerkGymEnv, seed: int) -> tuple[list[int], float]:
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, total, done = [], 0.0, False
    while not done:
        assert np.array_equal(observation, env.game_state.observation_tensor(env.seat))
        assert np.array_equal(info["action_mask"], env.action_masks())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        observation, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += float(reward)
    return actions, total


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seat", [0, 1])
def test_episode_rewards_sum_to_returns(name: str, seat: int) -> None:
    env = sgym.env(name, seat=seat, **GAMES[name])
    for seed in range(2):
        actions, total = episode(env, seed)
        assert env.game_state.is_terminal()
        assert total == env.game_state.returns()[seat]
        assert episode(sgym.env(name, seat=seat, **GAMES[name]), seed) == (actions, total)


def test_illegal_action() -> None:
    env = sgym.env("schotten_totten")
    _, info = env.reset(seed=1)
    before = env.game_state.clone()
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
    assert env.game_state == before
    strict = sgym.env("schotten_totten", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(spielwerk.IllegalActionError):
        strict.step(illegal)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="seat 2"):
        sgym.env("schotten_totten", seat=2)
    with pytest.raises(ValueError, match="one per seat"):
        sgym.env("dog", opponents=["random"])
    with pytest.raises(spielwerk.SpielwerkError):
        sgym.env("dog", opponents="nobody")


def history(env: sgym.SpielwerkGymEnv, seed: int | None) -> list[int]:
    """The whole game of one episode (the opponents' moves included), the learner
    playing its lowest legal action."""
    _, info = env.reset(seed=seed)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    return list(env.game_state.history())


@pytest.mark.parametrize("name", ["schotten_totten", "caravan"])
def test_reset_seed_decides_the_opponents_moves_of_given_bots(name: str) -> None:
    # Bot objects made with different seeds: reset(seed=…) reseeds them, so the same
    # seed gives the same episode, opponents' moves included.
    one = sgym.env(name, opponents=spielwerk.bots.make("random", name, seed=1))
    other = sgym.env(name, opponents=spielwerk.bots.make("random", name, seed=99))
    first = history(one, 5)
    assert history(other, 5) == first
    history(one, 6)
    assert history(one, 5) == first


def test_unseeded_resets_follow_the_np_random_of_the_first_seed() -> None:
    # Gymnasium's convention: reset(seed=s) seeds self.np_random, later resets without a
    # seed draw from it, so the whole sequence repeats.
    runs = []
    for _ in range(2):
        env = sgym.env("schotten_totten", opponents="random")
        runs.append([history(env, 3), history(env, None), history(env, None)])
    assert runs[0] == runs[1]
    assert runs[0][1] != runs[0][2]
