"""The games as OpenSpiel Python games (needs the extra ``spielwerk[openspiel]``).

Importing this module registers every game with OpenSpiel as ``spielwerk_<name>``
(``spielwerk_schotten_totten``, ``spielwerk_caravan``, ``spielwerk_the_game``,
``spielwerk_dog``), so ``pyspiel.load_game("spielwerk_dog(max_turns=50)")`` works as well
as ``load_game("dog", max_turns=50)``. The parameters are the game's options
(``game.option_specs()``).

- Chance: a game is dealt from a 64-bit seed inside the engine, and every later draw
  comes from that deal. OpenSpiel sees the seed: the first ``DEAL_NODES`` (8) states are
  chance nodes, each choosing one byte of the seed (256 outcomes of probability 1/256,
  the most significant byte first), and the eighth deals
  ``game.new_initial_state(seed)`` of the engine, so the OpenSpiel game with the seed
  ``s`` is the engine's game with the seed ``s`` (``game.deal(s)`` applies the eight
  bytes). The chance mode is ``EXPLICIT_STOCHASTIC``: the history determines the state,
  so ``pyspiel.serialize_game_and_state``, pickling and ``random_sim_test`` work, and the
  algorithms draw the deals from their own seeded generators (``evaluate_bots``'s
  ``rng``, the bots' ``random_state``). Not ``SAMPLED_STOCHASTIC`` with a hidden
  generator as tarok has: a Python game cannot hand OpenSpiel its generator's state
  (``GetRNGState`` is unimplemented for Python games), so its states could not be
  serialized or pickled. Not a chance node per card drawn: the deck is shuffled once in
  Rust, so the draws are no separate events to it; algorithms that enumerate the chance
  tree (CFR, exact best response) cannot run on games this size anyway. A
  perfect-information search on a clone (OpenSpiel's ``MCTSBot``) therefore plays a
  determinization: the clone's later draws are the real ones. ``ISMCTSBot`` never sees
  them: it calls ``resample_from_infostate``, which deals every card the seat cannot
  see anew.
- Dynamics: sequential. Dog's exchange (D4), where the partners pick at the same time,
  is played one pick after the other, as the PettingZoo environment does:
  ``current_player()`` is the engine's, the first of ``seats_to_move()``, and a seat's
  information before its pick never shows the other picks (the engine shows them only
  once all four are made).
- Information: imperfect. Utility: Schotten Totten and Caravan zero-sum (±1, R1), Dog
  zero-sum (the teams' ±1 sum to 0; 0 for all when ``max_turns`` ends the game, D13),
  The Game identical (every player gets -(cards left), R1; from -98 to 0). Rewards
  only at the end (``RewardModel.TERMINAL``).
- Information state and observation: the engine's view of the seat (``state.view(p)``,
  which holds everything the seat has seen that matters for play): the string is the
  view as compact JSON (``information_state_key``), the tensors are the engine's
  ``information_state_tensor`` / ``observation_tensor`` (equal in all four games), with
  OpenSpiel's named pieces from ``describe_tensor()``. An observer without private
  information (``IIGObservationType(private_info=PrivateInfoType.NONE)``) gets the
  public view and its tensor. During the deal every tensor is zero and every string
  empty.
- ``resample_from_infostate(player, sampler)`` is the engine's ``resample``: a state
  whose view for ``player`` is this one's, every unseen card dealt at random from a seed
  drawn from ``sampler`` (``sampler()`` gives floats in [0, 1)). The engine's resample
  has no history, so the resampled OpenSpiel state's ``history()`` is empty.
  ``ISMCTSBot`` draws from an unseeded sampler; ``seeded_resampler(seed)`` is a
  resampler for ``bot.set_resampler`` that makes its decisions repeatable.
- The engine's state is ``state.spielwerk_state`` (``None`` during the deal). Clone,
  ``serialize()``, ``game.deserialize_state`` and ``pickle.dumps(state)`` carry it whole
  (OpenSpiel pickles a Python state's attributes; the engine's state pickles as its
  binary snapshot).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

try:
    import pyspiel  # type: ignore[import-not-found]  # OpenSpiel ships no type information
    from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped, unused-ignore]
except ImportError:  # pragma: no cover - depends on the installation
    raise ImportError("spielwerk.openspiel needs OpenSpiel: pip install 'spielwerk[openspiel]'")  # noqa: B904 (chained implicitly)

import spielwerk
from spielwerk._spielwerk import Game, State

__all__ = [
    "SpielwerkGame",
    "SpielwerkObserver",
    "SpielwerkState",
    "ismcts_bot",
    "load_game",
    "seeded_resampler",
]

PREFIX = "spielwerk_"
# The deal: one chance node per byte of the engine's 64-bit seed (see above).
DEAL_NODES = 8
SEED_BYTE_OUTCOMES = 256
# R1: The Game's players get -(cards left); its deck holds the cards 2-99.
THE_GAME_CARDS = 98

# pyspiel's classes are pybind11's, whose metaclass mypy cannot see (pyspiel is untyped):
# named here so that mypy.stubtest finds the classes below consistent with the runtime.
if TYPE_CHECKING:
    _Pybind11Type = type
else:
    _Pybind11Type = type(pyspiel.Game)

_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "team_zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "cooperative": pyspiel.GameType.Utility.IDENTICAL,
}


def _utility_range(game: Game) -> tuple[float, float]:
    """The least and the greatest return of one player (R1)."""
    if game.utility() == "cooperative":
        return -float(THE_GAME_CARDS), 0.0
    return -1.0, 1.0


def _players_range(name: str) -> tuple[int, int]:
    """The fewest and the most players the options allow."""
    default = spielwerk.load_game(name)
    for spec in default.option_specs():
        if spec["name"] == "players":
            return int(spec["min"]), int(spec["max"])
    return default.num_players(), default.num_players()


_GAME_TYPES: dict[str, Any] = {}


def _game_type(name: str) -> Any:
    """The game type of a game, made once (every instance of the game shares it)."""
    if name in _GAME_TYPES:
        return _GAME_TYPES[name]
    default = spielwerk.load_game(name)
    min_players, max_players = _players_range(name)
    parameters: dict[str, Any] = {spec["name"]: spec["default"] for spec in default.option_specs()}
    _GAME_TYPES[name] = pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"spielwerk {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=_UTILITY[default.utility()],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )
    return _GAME_TYPES[name]


def _game_info(game: Game) -> Any:
    low, high = _utility_range(game)
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_distinct_actions(),
        max_chance_outcomes=SEED_BYTE_OUTCOMES,
        num_players=game.num_players(),
        min_utility=low,
        max_utility=high,
        utility_sum=None if game.utility() == "cooperative" else 0.0,
        max_game_length=game.max_game_length(),
    )


# pyspiel's classes are Any to mypy.
class SpielwerkGame(pyspiel.Game, metaclass=_Pybind11Type):  # type: ignore[misc]
    """One of the games with its options, as an OpenSpiel game (see the module's docstring)."""

    # The game's name; set by each game's subclass (see _register).
    game_name: str

    def __init__(self, params: dict[str, Any]) -> None:
        self.spielwerk_game = spielwerk.load_game(self.game_name, **params)
        super().__init__(_game_type(self.game_name), _game_info(self.spielwerk_game), params)

    def new_initial_state(self) -> SpielwerkState:
        """The state before the deal: the first of its ``DEAL_NODES`` chance nodes."""
        return SpielwerkState(self)

    def deal(self, seed: int) -> SpielwerkState:
        """The state after the deal of ``seed``: the engine's ``new_initial_state(seed)``."""
        state = self.new_initial_state()
        for byte in int(seed).to_bytes(DEAL_NODES, "big"):
            state.apply_action(byte)
        return state

    def max_chance_nodes_in_history(self) -> int:
        return DEAL_NODES

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SpielwerkObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return SpielwerkObserver(self.spielwerk_game, iig_obs_type)


class SpielwerkState(pyspiel.State, metaclass=_Pybind11Type):  # type: ignore[misc]
    """A state of a ``SpielwerkGame``; the engine's state is ``spielwerk_state``.

    Only the engine's state is kept as an attribute: OpenSpiel clones a Python state by
    deep-copying its attributes into a fresh initial state, and serializes it by
    pickling them.
    """

    def __init__(self, game: SpielwerkGame) -> None:
        super().__init__(game)
        self.spielwerk_state: State | None = None
        # The deal so far: the seed's bytes chosen, most significant first.
        self._seed = 0
        self._seed_bytes = 0

    def _dealt(self) -> State:
        state = self.spielwerk_state
        if state is None:
            raise pyspiel.SpielError("the game is not dealt yet: its first states are chance nodes")
        return state

    def current_player(self) -> int:
        state = self.spielwerk_state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return state.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self._dealt().legal_actions(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.spielwerk_state is not None:
            raise pyspiel.SpielError("chance_outcomes: the game is already dealt")
        return list(_SEED_BYTES)

    def _apply_action(self, action: int) -> None:
        state = self.spielwerk_state
        if state is None:
            if not 0 <= action < SEED_BYTE_OUTCOMES:
                raise pyspiel.SpielError(f"a chance outcome of the deal is a byte 0-255, not {action}")
            self._seed = self._seed << 8 | action
            self._seed_bytes += 1
            if self._seed_bytes == DEAL_NODES:
                game: SpielwerkGame = self.get_game()
                self.spielwerk_state = game.spielwerk_game.new_initial_state(self._seed)
        else:
            # An illegal action raises spielwerk.IllegalActionError and changes nothing
            # (OpenSpiel records the action only after this returns).
            state.apply_action(action, state.current_player())

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed byte {action}"
        return self._dealt().action_to_string(action)

    def is_terminal(self) -> bool:
        state = self.spielwerk_state
        return state is not None and state.is_terminal()

    def returns(self) -> list[float]:
        state = self.spielwerk_state
        return [0.0] * self.num_players() if state is None else state.returns()

    def rewards(self) -> list[float]:
        state = self.spielwerk_state
        return [0.0] * self.num_players() if state is None else state.rewards()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> SpielwerkState:
        """A state whose information state for ``player_id`` is this one's; the unseen cards dealt anew."""
        # 64 bits of seed from two draws of 32.
        seed = int(probability_sampler() * 2**32) << 32 | int(probability_sampler() * 2**32)
        resampled: SpielwerkState = self.get_game().new_initial_state()
        resampled.spielwerk_state = self._dealt().resample(player_id, seed)
        resampled._seed_bytes = DEAL_NODES
        return resampled

    def __str__(self) -> str:
        state = self.spielwerk_state
        if state is None:
            return f"(dealing: {self._seed_bytes} of {DEAL_NODES} seed bytes chosen)"
        return str(state)


_SEED_BYTES = [(byte, 1.0 / SEED_BYTE_OUTCOMES) for byte in range(SEED_BYTE_OUTCOMES)]


class SpielwerkObserver:
    """OpenSpiel's observer interface (``tensor``, ``dict``, ``set_from``, ``string_from``).

    ``dict`` holds the pieces of ``tensor`` named as ``describe_tensor()`` names them.
    """

    def __init__(self, game: Game, iig_obs_type: Any = None) -> None:
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        private = obs_type.private_info
        if not obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "spielwerk observes a seat's view or the public view: public_info must be true and "
                "private_info SINGLE_PLAYER or NONE"
            )
        self.public = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(obs_type.perfect_recall)
        shape = (
            game.information_state_tensor_shape() if self.perfect_recall else game.observation_tensor_shape()
        )
        self.tensor: npt.NDArray[np.float32] = np.zeros(shape, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        for piece in game.describe_tensor():
            size = int(np.prod(piece["shape"]))
            offset = int(piece["offset"])
            self.dict[piece["name"]] = self.tensor[offset : offset + size].reshape(piece["shape"])

    def set_from(self, state: SpielwerkState, player: int) -> None:
        engine = state.spielwerk_state
        if engine is None:
            self.tensor.fill(0.0)
        elif self.public:
            engine.public_observation_tensor_into(self.tensor)
        elif self.perfect_recall:
            engine.information_state_tensor_into(player, self.tensor)
        else:
            engine.observation_tensor_into(player, self.tensor)

    def string_from(self, state: SpielwerkState, player: int) -> str:
        engine = state.spielwerk_state
        if engine is None:
            return ""
        if self.public:
            return engine.view_json(None).decode()
        return engine.information_state_key(player).decode()


def seeded_resampler(seed: int) -> Callable[[SpielwerkState, int], SpielwerkState]:
    """A resampler for ``ISMCTSBot.set_resampler``: its deals come from ``seed`` alone.

    OpenSpiel's ISMCTS resamples through an unseeded ``UniformProbabilitySampler``; with
    this one, a bot with a seeded ``random_state`` decides the same way every time for
    the same information state.
    """
    deals = np.random.default_rng(seed)

    def resample(state: SpielwerkState, player: int) -> SpielwerkState:
        return state.resample_from_infostate(player, lambda: float(deals.random()))

    return resample


class RestartableISMCTSBot(ismcts.ISMCTSBot, metaclass=_Pybind11Type):  # type: ignore[misc]
    """OpenSpiel's Python ``ISMCTSBot`` with ``restart_at`` (for ``evaluate_bots``) and ``int`` steps."""

    def restart_at(self, state: SpielwerkState) -> None:
        pass  # the search keeps nothing between moves

    def step(self, state: SpielwerkState) -> int:
        return int(super().step(state))  # a plain int, not numpy's


def ismcts_bot(
    game: SpielwerkGame,
    seed: int,
    max_simulations: int = 100,
    uct_c: float = 2.0,
    n_rollouts: int = 1,
    rollout_max_length: int | None = None,
    **kwargs: Any,
) -> Any:
    """OpenSpiel's Python ``ISMCTSBot`` with random rollouts, all its randomness from ``seed``.

    The bot is OpenSpiel's own (``open_spiel.python.algorithms.ismcts``), searching
    ``max_simulations`` deals of the unseen cards per move (``kwargs`` go to it, e.g.
    ``final_policy_type``); its rollouts are ``RandomRolloutEvaluator``'s, stopped after
    ``rollout_max_length`` actions if given (a stopped rollout counts as returns of 0,
    what the unfinished state's ``returns()`` give). Seeded are the search
    (``random_state``), the rollouts and the deals (``seeded_resampler``), so the same
    information state gives the same move. It also answers ``restart_at``, which
    ``evaluate_bots`` calls and OpenSpiel's Python ISMCTS lacks (it keeps nothing between
    moves), and ``step`` returns a plain ``int``.
    """
    seeds = np.random.SeedSequence(seed).generate_state(3)
    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts, np.random.RandomState(seeds[0]), max_length=rollout_max_length
    )
    bot = RestartableISMCTSBot(
        game, evaluator, uct_c, max_simulations, random_state=np.random.RandomState(seeds[1]), **kwargs
    )
    bot.set_resampler(seeded_resampler(int(seeds[2])))
    return bot


def load_game(name: str | Game, **options: Any) -> SpielwerkGame:
    """The game (a name or a ``spielwerk.Game``) as an OpenSpiel game; ``options`` are the game's."""
    if isinstance(name, Game):
        options = {**name.options(), **options}
        name = name.name
    # The engine checks the name and the options first: its errors say what is allowed.
    spielwerk.load_game(name, **options)
    game: SpielwerkGame = pyspiel.load_game(PREFIX + name, options)
    return game


def _register() -> None:
    registered = {game_type.short_name for game_type in pyspiel.registered_games()}
    for name in spielwerk.list_games():
        if PREFIX + name in registered:
            continue
        # One class per game, registered as OpenSpiel's own Python games register theirs:
        # OpenSpiel keeps the creator until after the interpreter has shut down, which a
        # class outlives (its references to itself keep it alive) but a function does
        # not (its release then crashes the process at exit).
        creator = type(f"SpielwerkGame_{name}", (SpielwerkGame,), {"game_name": name})
        pyspiel.register_game(_game_type(name), creator)


_register()

if not TYPE_CHECKING:
    del _Pybind11Type  # only for the class statements above (stubtest skips a private name gone at runtime)
