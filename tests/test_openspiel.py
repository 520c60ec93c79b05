"""spielwerk.openspiel: the games as OpenSpiel games, checked by OpenSpiel's own tests and bots."""

from __future__ import annotations

import pickle
from typing import Any

import numpy as np
import pytest
import spielwerk

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("spielwerk.openspiel")
evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")

# Dog's random games run about 1,400 actions; max_turns ends it by the rules (D13) and
# keeps the bots' whole games within a few seconds.
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("schotten_totten", {}),
    ("caravan", {}),
    ("caravan", {"double_deck": True}),
    ("the_game", {}),
    ("the_game", {"players": 4, "pro": True}),
    ("dog", {}),
]
SHORT: dict[str, dict[str, Any]] = {"dog": {"max_turns": 40}}
IDS = [name + "".join(f"-{key}={value}" for key, value in options.items()) for name, options in GAMES]


def random_play(state: Any, rng: np.random.Generator, actions: int) -> Any:
    """Plays up to ``actions`` uniformly random actions (chance included) on ``state``."""
    for _ in range(actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_random_sim_test(name: str, options: dict[str, Any]) -> None:
    # OpenSpiel's own checks over whole random games: clones, serialization of game and
    # state, legal actions sorted and empty for the others, masks, returns in range.
    game = openspiel.load_game(name, **{**options, **SHORT.get(name, {})})
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_game_type_and_info(name: str, options: dict[str, Any]) -> None:
    engine = spielwerk.load_game(name, **options)
    game = openspiel.load_game(name, **options)
    kind = game.get_type()
    assert kind.short_name == f"spielwerk_{name}"
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    expected = {
        "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
        "team_zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
        "cooperative": pyspiel.GameType.Utility.IDENTICAL,
    }[engine.utility()]
    assert kind.utility == expected
    assert game.num_players() == engine.num_players()
    assert game.num_distinct_actions() == engine.num_distinct_actions()
    assert game.max_game_length() == engine.max_game_length()
    assert game.observation_tensor_shape() == engine.observation_tensor_shape()
    assert game.information_state_tensor_shape() == engine.information_state_tensor_shape()
    assert game.max_chance_outcomes() == 256
    # The same game through OpenSpiel's own loader, by its string.
    assert str(pyspiel.load_game(str(game))) == str(game)


def test_load_game_errors() -> None:
    with pytest.raises(spielwerk.UnknownGameError):
        openspiel.load_game("skat")
    with pytest.raises(spielwerk.InvalidOptionError):
        openspiel.load_game("the_game", players=9)
    assert str(openspiel.load_game(spielwerk.load_game("dog", max_turns=5))) == "spielwerk_dog(max_turns=5)"


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_deal_is_the_engines_seed(name: str, options: dict[str, Any]) -> None:
    game = openspiel.load_game(name, **options)
    engine = spielwerk.load_game(name, **options)
    seed = 0x0123_4567_89AB_CDEF
    state = game.new_initial_state()
    for byte in seed.to_bytes(8, "big"):
        assert state.is_chance_node() and state.spielwerk_state is None
        assert not any(state.observation_tensor(0)) and state.information_state_string(0) == ""
        state.apply_action(byte)
    assert not state.is_chance_node()
    assert state.spielwerk_state == engine.new_initial_state(seed)
    assert state.history() == list(seed.to_bytes(8, "big"))
    assert game.deal(seed).spielwerk_state == state.spielwerk_state


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_states_follow_the_engine(name: str, options: dict[str, Any]) -> None:
    game = openspiel.load_game(name, **options)
    rng = np.random.default_rng(7)
    for seed in range(2):
        state = game.deal(seed)
        engine = state.spielwerk_state.clone()
        while not state.is_terminal() and len(state.history()) < 120:
            player = state.current_player()
            assert player == engine.current_player()
            assert state.legal_actions() == engine.legal_actions()
            assert state.legal_actions_mask() == engine.legal_actions_mask().astype(int).tolist()
            for seat in range(game.num_players()):
                assert np.array_equal(state.observation_tensor(seat), engine.observation_tensor(seat))
                assert np.array_equal(
                    state.information_state_tensor(seat), engine.information_state_tensor(seat)
                )
                assert state.information_state_string(seat) == engine.information_state_key(seat).decode()
                assert state.observation_string(seat) == engine.information_state_key(seat).decode()
                if seat != player:
                    assert state.legal_actions(seat) == []
            action = int(rng.choice(state.legal_actions()))
            assert state.action_to_string(player, action) == engine.action_to_string(action)
            state.apply_action(action)
            engine.apply_action(action, player)
            assert state.rewards() == engine.rewards()
            assert state.returns() == engine.returns()


def test_illegal_action_changes_nothing() -> None:
    game = openspiel.load_game("schotten_totten")
    state = game.deal(3)
    before = (state.history(), state.spielwerk_state.clone())
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(spielwerk.IllegalActionError):
        state.apply_action(illegal)
    assert (state.history(), state.spielwerk_state) == before
    fresh = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError):
        fresh.apply_action(256)
    assert fresh.history() == []


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_clone_serialize_pickle(name: str, options: dict[str, Any]) -> None:
    game = openspiel.load_game(name, **options)
    state = random_play(game.new_initial_state(), np.random.default_rng(2), 30)
    for copy in (
        state.clone(),
        game.deserialize_state(state.serialize()),
        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
        pickle.loads(pickle.dumps(state)),
    ):
        assert copy.history() == state.history()
        assert copy.spielwerk_state == state.spielwerk_state
        assert str(copy) == str(state)
    # A clone goes its own way.
    clone = state.clone()
    if not clone.is_terminal():
        clone.apply_action(clone.legal_actions()[0])
        assert clone.spielwerk_state != state.spielwerk_state


def test_public_observer_and_named_pieces() -> None:
    from open_spiel.python.observation import make_observation  # type: ignore[import-untyped, unused-ignore]

    game = openspiel.load_game("schotten_totten")
    state = game.deal(11)
    engine = state.spielwerk_state
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    public.set_from(state, 0)
    assert np.array_equal(public.tensor, engine.public_observation_tensor())
    assert public.string_from(state, 0) == engine.view_json(None).decode()
    private = make_observation(game)
    private.set_from(state, 1)
    assert np.array_equal(private.tensor, engine.observation_tensor(1))
    hand = next(piece for piece in game.spielwerk_game.describe_tensor() if piece["name"] == "hand")
    assert private.dict["hand"].shape == tuple(hand["shape"])
    assert int(private.dict["hand"].sum()) == len(engine.hand(1))
    with pytest.raises(ValueError, match="private_info"):
        make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            ),
        )


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_resample_from_infostate(name: str, options: dict[str, Any]) -> None:
    game = openspiel.load_game(name, **options)
    rng = np.random.default_rng(5)
    for steps in (0, 5, 25):
        state = random_play(game.deal(int(rng.integers(2**63))), rng, steps)
        if state.is_terminal():
            continue
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(9, 0.0, 1.0)
        resampled = state.resample_from_infostate(player, sampler)
        assert resampled.information_state_string(player) == state.information_state_string(player)
        assert np.array_equal(
            resampled.information_state_tensor(player), state.information_state_tensor(player)
        )
        assert resampled.legal_actions() == state.legal_actions()
        # The same sampler draws give the engine's resample of the same seed.
        again = pyspiel.UniformProbabilitySampler(9, 0.0, 1.0)
        seed = int(again() * 2**32) << 32 | int(again() * 2**32)
        assert resampled.spielwerk_state == state.spielwerk_state.resample(player, seed)


def hidden_twin(state: Any) -> Any:
    """A state that differs from ``state`` only in what the player to move cannot see."""
    player = state.current_player()
    for seed in range(1, 50):
        twin = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0))
        if twin.spielwerk_state != state.spielwerk_state:
            return twin
    raise AssertionError("no resample dealt the unseen cards differently")


@pytest.mark.parametrize(("name", "options"), GAMES, ids=IDS)
def test_ismcts_sees_only_the_information_state(name: str, options: dict[str, Any]) -> None:
    game = openspiel.load_game(name, **options)
    rng = np.random.default_rng(3)
    checked = 0
    for _ in range(4):
        state = random_play(game.deal(int(rng.integers(2**63))), rng, int(rng.integers(0, 12)))
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        twin = hidden_twin(state)
        decisions = []
        for position in (state, twin):
            bot = openspiel.ismcts_bot(game, seed=21, max_simulations=12, rollout_max_length=30)
            decisions.append(bot.step(position))
        assert decisions[0] == decisions[1]
        assert decisions[0] in state.legal_actions()
        checked += 1
    assert checked >= 2


def whole_game_bots(game: Any, seed: int) -> list[Any]:
    """ISMCTS, MCTS with random rollouts, and uniform random bots for the other seats."""
    bots: list[Any] = [openspiel.ismcts_bot(game, seed=seed, max_simulations=4, rollout_max_length=20)]
    if game.num_players() > 1:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed), max_length=20)
        bots.append(mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(seed)))
    bots += [pyspiel.make_uniform_random_bot(seat, seed) for seat in range(len(bots), game.num_players())]
    return bots


class LegalOnly:
    """Wraps a bot and checks each of its actions is legal where it was chosen."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.steps = 0

    def restart_at(self, state: Any) -> None:
        self.bot.restart_at(state)

    def inform_action(self, state: Any, player: int, action: int) -> None:
        self.bot.inform_action(state, player, action)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        action = int(self.bot.step(state))
        assert action in legal
        self.steps += 1
        return action


# One variant per game: a few seconds each.
WHOLE = [0, 1, 4, 5]


@pytest.mark.parametrize(("name", "options"), [GAMES[i] for i in WHOLE], ids=[IDS[i] for i in WHOLE])
def test_evaluate_bots_whole_games(name: str, options: dict[str, Any]) -> None:
    game = openspiel.load_game(name, **{**options, **SHORT.get(name, {})})
    bots = [LegalOnly(bot) for bot in whole_game_bots(game, seed=4)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(4))
    assert len(returns) == game.num_players()
    assert all(game.min_utility() <= value <= game.max_utility() for value in returns)
    assert bots[0].steps > 0
    # The deal comes from evaluate_bots's generator, so the same seeds replay the game.
    again = evaluate_bots.evaluate_bots(
        game.new_initial_state(), whole_game_bots(game, seed=4), np.random.RandomState(4)
    )
    assert again == returns


def test_dog_exchange_is_sequential_and_hidden() -> None:
    # D4: the four picks are simultaneous; here they come one after the other, and a
    # pick is hidden from every seat but the picker until all four are made.
    game = openspiel.load_game("dog")
    state = game.deal(8)
    assert state.spielwerk_state.seats_to_move() == [0, 1, 2, 3]
    assert state.current_player() == 0
    first, last = state.legal_actions()[0], state.legal_actions()[-1]
    assert state.action_to_string(0, first) != state.action_to_string(0, last)
    picked = []
    for action in (first, last):
        after = state.clone()
        after.apply_action(action)
        assert after.current_player() == 1
        assert after.legal_actions(0) == []
        picked.append(after)
    for seat in (1, 2, 3):
        assert picked[0].information_state_string(seat) == picked[1].information_state_string(seat)
        assert np.array_equal(
            picked[0].information_state_tensor(seat), picked[1].information_state_tensor(seat)
        )
    assert picked[0].information_state_string(0) != picked[1].information_state_string(0)
    # ISMCTS for seat 1 decides the same whatever seat 0 gave.
    decisions = [
        openspiel.ismcts_bot(game, seed=2, max_simulations=8, rollout_max_length=20).step(s) for s in picked
    ]
    assert decisions[0] == decisions[1]
