"""PettingZoo environments for every game (needs the extra ``spielwerk[rl]``).

``env(game, render_mode=None, max_cycles=None, **options)`` is an AEC environment
(``pettingzoo.AECEnv``); ``raw_env`` is the same (PettingZoo's name for an environment
without wrappers: this one checks the order of calls itself, a step or an observation
before ``reset()`` raises ``RuntimeError``, instead of PettingZoo's
``OrderEnforcingWrapper``, whose attribute forwarding cost a fifth of a step);
``parallel_env`` is a ``pettingzoo.ParallelEnv``.
``game`` is a game's name or a ``spielwerk.Game``; ``options`` are the game's options.

- Agents ``"player_0"`` … ``"player_{n-1}"``, agent ``"player_i"`` is seat ``i``. The
  game is ``env.game_state`` (a ``spielwerk.State``; not ``state``, which is PettingZoo's
  name for a global observation method).
- Observation of an agent: ``{"observation": state.observation_tensor(seat)`` (float32,
  exactly what the seat may see), ``"action_mask": legal_actions_mask(seat)`` as int8
  0/1 ``}`` (int8, not uint8: PettingZoo's checks pass the mask to Gymnasium's
  ``Discrete.sample(mask)``, which takes only int8, as PettingZoo's classic games use);
  the mask is all zeros for an agent not to move. Action space
  ``Discrete(game.num_distinct_actions())``; its ``sample()`` without a mask draws among the
  agent's legal actions (uniformly, from the space's own seeded generator), so that a
  loop sampling from the spaces plays legal games.
- Rewards: ``state.rewards()`` of every action, so each agent's rewards sum to its
  ``returns()`` at the end (zero until the game ends in every game).
- Terminations: all agents once the game is over (``state.is_terminal()``). Dog's
  ``max_turns`` ends the game by the rules (D13: scored as a match clock would, returns
  0 for all), so it is a termination as well. Truncations only through ``max_cycles``:
  once the agent to move has already taken ``max_cycles`` actions, all agents are
  truncated (``None``: never).
- Illegal actions raise ``spielwerk.IllegalActionError`` and change nothing (no
  penalty wrapper: an agent that reads the mask never sees it).
- Seeding: ``reset(seed=s)`` deals ``game.new_initial_state(s)``, the same game for the
  same seed; ``reset()`` without a seed deals a fresh random game.
- ``render_mode="ansi"``: ``render()`` returns ``str(state)``, the readable board.
- Dog's exchange (D4) is simultaneous; in AEC the seats still to pick move in turn, one
  pick each: ``agent_selection`` is always ``state.current_player()``, the first of
  ``state.seats_to_move()`` from the round's first player, so the four picks come in
  that order and a seat's observation before its pick never shows the others' picks
  (the engine shows picks only once all four are made). ``parallel_env`` takes the
  picks of all seats to move in one step.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
    from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]  # PettingZoo ships no py.typed
except ImportError:  # pragma: no cover - depends on the installation
    raise ImportError("spielwerk.pettingzoo needs pettingzoo and gymnasium: pip install 'spielwerk[rl]'")  # noqa: B904 (chained implicitly)

from spielwerk._spielwerk import Game, State, load_game

__all__ = ["LegalDiscrete", "ParallelSpielwerkEnv", "SpielwerkEnv", "env", "parallel_env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]


def _load(game: str | Game, options: dict[str, Any]) -> Game:
    """``game`` (a name or a ``Game``) with ``options`` over its own."""
    if isinstance(game, Game):
        if options:
            return load_game(game.name, **{**game.options(), **options})
        return game
    return load_game(game, **options)


def _fresh_seed() -> int:
    return random.SystemRandom().getrandbits(64)


class LegalDiscrete(gymnasium.spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws among one seat's legal actions."""

    def __init__(self, n: int, mask_of: Callable[[], npt.NDArray[np.int8]], seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._mask_of = mask_of

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        """A uniformly random legal action of the space's seat now, from the space's own
        seeded generator (``seed()``); with ``mask`` or ``probability``, Gymnasium's
        ``Discrete.sample`` with them. Raises ``ValueError`` when the seat has no legal
        action (not to move), as ``Discrete.sample`` does for an all-zero mask."""
        if mask is None and probability is None:
            mask = self._mask_of()
        return super().sample(mask=mask, probability=probability)


class _Common:
    """What the AEC and the parallel environment share: the game, its agents and spaces,
    the observations, rendering. Set up by ``_setup``; the environment classes add the
    stepping."""

    metadata: dict[str, Any]

    def _setup(
        self,
        game: str | Game,
        render_mode: str | None,
        max_cycles: int | None,
        name: str,
        options: dict[str, Any],
    ) -> None:
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; allowed: None, 'ansi'")
        self.game = _load(game, options)
        self.metadata = {"render_modes": ["ansi"], "name": name.format(self.game.name)}
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players())]
        n_actions = self.game.num_distinct_actions()
        shape = tuple(self.game.observation_tensor_shape())
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: LegalDiscrete(n_actions, functools.partial(self._mask, seat))
            for seat, agent in enumerate(self.possible_agents)
        }
        self.game_state: State = self.game.new_initial_state(0)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def _mask(self, seat: int) -> npt.NDArray[np.int8]:
        return self.game_state.legal_actions_mask(seat).view(np.int8)

    def _observation(self, seat: int) -> Observation:
        return {"observation": self.game_state.observation_tensor(seat), "action_mask": self._mask(seat)}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.game_state)
        return None

    def close(self) -> None:
        pass


# PettingZoo ships no type information: its base classes are Any to mypy.
class SpielwerkEnv(_Common, AECEnv[str, Observation, int | None]):  # type: ignore[misc]
    """A spielwerk game as a PettingZoo AEC environment (see the module's docstring)."""

    def __init__(
        self,
        game: str | Game,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self._setup(game, render_mode, max_cycles, "spielwerk_{}", options)
        self.metadata["is_parallelizable"] = False
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._moves = [0] * len(self.possible_agents)
        self._dealt = False

    def observe(self, agent: str) -> Observation:
        if not self._dealt:
            raise RuntimeError("reset() must be called before observe(), last() or step()")
        return self._observation(self._seat[agent])

    def last(self, observe: bool = True) -> tuple[Observation | None, float, bool, bool, dict[str, Any]]:
        if not self._dealt:
            raise RuntimeError("reset() must be called before observe(), last() or step()")
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game_state = self.game.new_initial_state(_fresh_seed() if seed is None else seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._moves = [0] * len(self.agents)
        self._dealt = True
        self.agent_selection = self.possible_agents[self.game_state.current_player()]

    def step(self, action: int | None) -> None:
        if not self._dealt:
            raise RuntimeError("reset() must be called before observe(), last() or step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: its action must be an int, not None")
        seat = self._seat[agent]
        state = self.game_state
        state.apply_action(action, seat)
        self._moves[seat] += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict(zip(self.agents, state.rewards(), strict=True))
        if state.is_terminal():
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
            mover = self._seat[self.agent_selection]
            if self.max_cycles is not None and self._moves[mover] >= self.max_cycles:
                self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()


def raw_env(
    game: str | Game, render_mode: str | None = None, max_cycles: int | None = None, **options: Any
) -> SpielwerkEnv:
    """The AEC environment, as ``env`` (PettingZoo's name for it without wrappers)."""
    return SpielwerkEnv(game, render_mode=render_mode, max_cycles=max_cycles, **options)


def env(
    game: str | Game, render_mode: str | None = None, max_cycles: int | None = None, **options: Any
) -> SpielwerkEnv:
    """The AEC environment (see the module's docstring)."""
    return SpielwerkEnv(game, render_mode=render_mode, max_cycles=max_cycles, **options)


class ParallelSpielwerkEnv(_Common, ParallelEnv[str, Observation, int]):  # type: ignore[misc]
    """A spielwerk game as a PettingZoo parallel environment.

    Every step takes the actions of all live agents and applies those of the seats to
    move (``state.seats_to_move()``: one seat, or in Dog's exchange all seats still to
    pick, in that order); the other agents' actions are ignored. ``max_cycles`` truncates
    all agents after that many steps.
    """

    def __init__(
        self,
        game: str | Game,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        **options: Any,
    ) -> None:
        self._setup(game, render_mode, max_cycles, "spielwerk_{}_parallel", options)
        self.agents = self.possible_agents[:]
        self._steps = 0

    def _observations(self) -> dict[str, Observation]:
        return {
            agent: self._observation(seat)
            for seat, agent in enumerate(self.possible_agents)
            if agent in self.agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        self.game_state = self.game.new_initial_state(_fresh_seed() if seed is None else seed)
        self.agents = self.possible_agents[:]
        self._steps = 0
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        # The actions are applied to a copy first, so that an illegal one (or a missing
        # one) changes nothing, as a rejected move never does (Dog's exchange: several).
        state = self.game_state.clone()
        rewards = dict.fromkeys(self.agents, 0.0)
        movers = state.seats_to_move()
        missing = [self.possible_agents[s] for s in movers if self.possible_agents[s] not in actions]
        if missing:
            raise ValueError(f"no action in this step for {', '.join(missing)}, who must move")
        for seat in movers:
            state.apply_action(actions[self.possible_agents[seat]], seat)
            for agent, reward in zip(self.possible_agents, state.rewards(), strict=True):
                if agent in rewards:
                    rewards[agent] += reward
        self.game_state = state
        self._steps += 1
        over = state.is_terminal()
        truncated = not over and self.max_cycles is not None and self._steps >= self.max_cycles
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        observations = self._observations()
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def parallel_env(
    game: str | Game, render_mode: str | None = None, max_cycles: int | None = None, **options: Any
) -> ParallelSpielwerkEnv:
    """The parallel environment (see ``ParallelSpielwerkEnv``)."""
    return ParallelSpielwerkEnv(game, render_mode=render_mode, max_cycles=max_cycles, **options)
