"""A Gymnasium single-agent environment for every game (needs the extra ``spielwerk[rl]``).

``env(game, seat=0, opponents="heuristic", **options)`` is a ``gymnasium.Env`` in which
the learner plays ``seat`` and our bots (``spielwerk.bots.make``; their moves are decided
in Rust) play the other seats. ``game`` is a game's name or a ``spielwerk.Game``;
``options`` are the game's options. ``opponents`` is a bot name for every other seat, a
``spielwerk.bots.Bot``, or a list with one name or bot per seat (the learner's entry is
ignored, ``None`` there is fine).

- Observation: ``state.observation_tensor(seat)``, a float32 ``Box`` in [0, 1] of
  ``game.observation_tensor_shape()``, exactly what the seat may see. The legal actions
  are in ``info["action_mask"]`` (int8 0/1, length ``num_distinct_actions()``: the dtype
  Gymnasium's ``Discrete.sample(mask=...)`` takes) after
  ``reset`` and every ``step``, as Gymnasium's own environments with masks do (Taxi), and
  from ``action_masks()`` (the method sb3-contrib's ``MaskablePPO`` calls).
- Action space ``Discrete(game.num_distinct_actions())``. An illegal action (one the
  mask forbids, which a learner that samples without the mask will try) changes nothing
  in the game and, with ``illegal_action="terminate"`` (the default, as PettingZoo's
  classic games do), ends the episode with reward ``illegal_reward`` (default -1.0) and
  ``info["illegal_action"] = True``; with ``illegal_action="raise"`` it raises
  ``spielwerk.IllegalActionError``. Gymnasium's ``check_env`` steps with unmasked
  samples, so the default must not raise.
- Reward: the learner's ``state.rewards()`` summed over its action and the opponents'
  actions until it is to move again, so an episode's rewards sum to its ``returns()``
  (an episode ended by an illegal action: ``illegal_reward`` instead).
- ``terminated`` when the game is over (Dog's ``max_turns`` included: the rules end the
  game there, D13); ``truncated`` never.
- ``reset(seed=s)``: the deal and the bots' seeds come from ``s`` (through Gymnasium's
  ``self.np_random``), so the same seed plays the same episode for the same actions,
  the opponents' moves included; a ``Bot`` given as an opponent is made anew from its
  name and params with the episode's seed. ``reset()`` without a seed draws both from
  ``self.np_random`` (seeded from the operating system's entropy on the first reset),
  so a seeded reset followed by unseeded ones is reproducible as well.
- Dog's exchange (D4): the opponents still to pick pick before the learner's turn, and
  the learner picks when it is one of ``state.seats_to_move()``; the engine shows no
  pick before all four are made.
- ``render_mode="ansi"``: ``render()`` returns ``str(state)``.
- The game is ``env.game_state`` (a ``spielwerk.State``), as in ``spielwerk.pettingzoo``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, SupportsFloat

import numpy as np
import numpy.typing as npt

try:
    import gymnasium
except ImportError:  # pragma: no cover - depends on the installation
    raise ImportError("spielwerk.gymnasium needs gymnasium: pip install 'spielwerk[rl]'")  # noqa: B904 (chained implicitly)

from spielwerk import bots
from spielwerk._spielwerk import Bot, Game, State, load_game

__all__ = ["SpielwerkGymEnv", "env"]

Opponents = str | Bot | Sequence[str | Bot | None]


class SpielwerkGymEnv(gymnasium.Env[npt.NDArray[np.float32], np.int64]):
    """One seat of a spielwerk game against bots (see the module's docstring)."""

    def __init__(
        self,
        game: str | Game,
        seat: int = 0,
        opponents: Opponents = "heuristic",
        render_mode: str | None = None,
        illegal_action: str = "terminate",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        if illegal_action not in ("terminate", "raise"):
            raise ValueError(f"illegal_action {illegal_action!r}: allowed 'terminate', 'raise'")
        self.metadata = {"render_modes": ["ansi"]}
        self.illegal_action = illegal_action
        self.illegal_reward = illegal_reward
        if isinstance(game, Game):
            self.game = load_game(game.name, **{**game.options(), **options}) if options else game
        else:
            self.game = load_game(game, **options)
        n_players = self.game.num_players()
        if not 0 <= seat < n_players:
            raise ValueError(f"seat {seat} is not a seat of {self.game.name}: allowed 0 to {n_players - 1}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; allowed: None, 'ansi'")
        if isinstance(opponents, str | Bot):
            per_seat: list[str | Bot | None] = [opponents] * n_players
        else:
            per_seat = list(opponents)
            if len(per_seat) != n_players:
                raise ValueError(f"opponents: one per seat ({n_players}), got {len(per_seat)}")
        self.seat = seat
        self.render_mode = render_mode
        self._opponents = per_seat
        for other, opponent in enumerate(per_seat):
            if other != seat and opponent is None:
                raise ValueError(f"opponents: seat {other} needs a bot name or a bot, got None")
        self._bots: dict[int, Bot] = {}
        self._make_bots(0)
        self.observation_space = gymnasium.spaces.Box(
            0.0, 1.0, shape=tuple(self.game.observation_tensor_shape()), dtype=np.float32
        )
        self._n_actions = self.game.num_distinct_actions()
        self.action_space = gymnasium.spaces.Discrete(self._n_actions)
        self.game_state: State = self.game.new_initial_state(0)

    def _make_bots(self, seed: int) -> None:
        for other, opponent in enumerate(self._opponents):
            if other == self.seat:
                continue
            # Each seat's bot its own seed, so two seats of the same bot are not alike; a
            # given Bot is made anew with it, so that the episode's seed decides its moves.
            seat_seed = (seed + other) % 2**64
            if isinstance(opponent, Bot):
                self._bots[other] = bots.make(opponent.name, self.game, seed=seat_seed, **opponent.params)
            elif opponent is not None:
                self._bots[other] = bots.make(opponent, self.game, seed=seat_seed)

    def _play_opponents(self) -> float:
        """The bots' moves until the learner is to move or the game is over; the learner's rewards."""
        state, seat, reward = self.game_state, self.seat, 0.0
        while not state.is_terminal():
            movers = state.seats_to_move()
            if seat in movers:
                break
            other = movers[0]
            state.apply_action(self._bots[other].step(state, other), other)
            reward += state.rewards()[seat]
        return reward

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now (all false once the game is over)."""
        return self.game_state.legal_actions_mask(self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.game_state.legal_actions_mask(self.seat).view(np.int8)}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        deal, bot_seed = (int(x) for x in self.np_random.integers(0, 2**63, size=2))
        self._make_bots(bot_seed)
        self.game_state = self.game.new_initial_state(deal)
        self._play_opponents()
        return self.game_state.observation_tensor(self.seat), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[npt.NDArray[np.float32], SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.game_state
        if self.illegal_action == "terminate" and not (
            0 <= action < self._n_actions and state.legal_actions_mask(self.seat)[action]
        ):
            info = self._info()
            info["illegal_action"] = True
            return state.observation_tensor(self.seat), self.illegal_reward, True, False, info
        state.apply_action(int(action), self.seat)
        reward = state.rewards()[self.seat] + self._play_opponents()
        return state.observation_tensor(self.seat), reward, state.is_terminal(), False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self.game_state)
        return None


def env(
    game: str | Game,
    seat: int = 0,
    opponents: Opponents = "heuristic",
    render_mode: str | None = None,
    illegal_action: str = "terminate",
    illegal_reward: float = -1.0,
    **options: Any,
) -> SpielwerkGymEnv:
    """The learner at ``seat`` of ``game`` against ``opponents`` (see the module's docstring)."""
    return SpielwerkGymEnv(
        game,
        seat=seat,
        opponents=opponents,
        render_mode=render_mode,
        illegal_action=illegal_action,
        illegal_reward=illegal_reward,
        **options,
    )
