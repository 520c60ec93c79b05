"""Invariants of The Game over many seeded random games.

After every action of every game: the 98 cards are conserved, the legal actions are exactly
what T3/T4 allow (recomputed by the plain-Python oracle in the_game_oracle.py from the
serialized state), the position is exactly the one the oracle expects after the action (the
draw of T3, the skipping of T5, the end of T6), a random refused action names its ruling and
changes nothing, the views show what the oracle says a player may see and nothing else, a
resample for a player keeps that player's view, and serialize, pickle and clone round-trip.

Two policies play each player count: `spielwerk.RandomBot`, whose games end early, and a
seeded "careful" policy that sees only the mover's view, plays the closest card and takes
backward tricks, so that its games run into the empty draw pile, empty hands (T5) and now
and then the win.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pytest
import spielwerk
from move_checks import check_text
from the_game_oracle import (
    CARDS,
    END_TURN,
    GAME_NAME,
    HAND_SIZE,
    NUM_ACTIONS,
    NUM_PILES,
    RULING_PREFIX,
    START_TOPS,
    VIEW_KEYS,
    Position,
    apply,
    ascending,
    conservation_problems,
    decode,
    expected_refusal,
    expected_view,
    fits,
    is_stuck,
    is_won,
    legal_actions,
    minimum,
    play_action,
    score,
)

# Upper bound on the length of a game: at most 98 plays (every card once), and every
# end_turn closes a turn holding at least one play (the minimum is never below 1, T3), so
# at most 98 end_turns: 196 actions.
MAX_ACTIONS = 196

Policy = Callable[[spielwerk.State, list[int]], int]


def bot_policy(seed: int) -> Policy:
    bot = spielwerk.RandomBot(seed)

    def choose(state: spielwerk.State, legal: list[int]) -> int:
        action: int = bot.step(state)
        return action

    return choose


def careful_policy(seed: int, thresholds: tuple[int, ...] = (1, 3, 5), explore: float = 0.02) -> Policy:
    """Plays the card closest to its pile (a backward trick best of all), seeing only its view.

    Ends the turn once the minimum is reached and the best gap is above a threshold drawn
    from `thresholds`; a share `explore` of the moves is uniformly random.
    """
    rng = random.Random(seed)
    threshold = rng.choice(thresholds)

    def choose(state: spielwerk.State, legal: list[int]) -> int:
        view = state.view(state.current_player())
        plays = [a for a in legal if a != END_TURN]
        if not plays or rng.random() < explore:
            return rng.choice(legal)
        tops: list[int] = [pile["top"] for pile in view["piles"]]
        hand: set[int] = set(view["hand"])

        def gap(action: int) -> int:
            card, pile = divmod(action, NUM_PILES)
            card += 2
            distance = card - tops[pile] if ascending(pile) else tops[pile] - card
            if distance < 0:
                distance = -10  # a backward trick
            # Keep a card that allows a backward trick afterwards: play its partner first.
            if card + (-10 if ascending(pile) else 10) in hand:
                distance -= 5
            return distance

        gaps = [(gap(a), a) for a in plays]
        best = min(g for g, _ in gaps)
        if END_TURN in legal and best > threshold:
            return END_TURN
        return rng.choice([a for g, a in gaps if g == best])

    return choose


POLICIES: dict[str, Callable[[int], Policy]] = {"random_bot": bot_policy, "careful": careful_policy}


@dataclass
class Tally:
    outcomes: Counter[str] = field(default_factory=Counter)
    illegal_probes: Counter[str] = field(default_factory=Counter)
    backward_tricks: int = 0
    auto_turn_ends: int = 0  # the hand ran empty
    short_draws: int = 0  # the pile held fewer cards than were played (T3)
    empty_pile_states: int = 0
    skips: int = 0  # T5: the turn passed over a player without cards
    resamples: int = 0
    resample_changed: int = 0


def check_round_trips(game: spielwerk.Game, state: spielwerk.State, rng: random.Random, where: str) -> None:
    text: str = state.serialize()
    restored = game.deserialize_state(text)
    assert restored == state, f"{where}: deserialize(serialize(state)) == state"
    assert restored.serialize() == text, where
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled == state, f"{where}: pickle round trip"
    assert unpickled.serialize() == text, where
    clone = state.clone()
    assert clone == state and copy.copy(state) == state and copy.deepcopy(state) == state, where
    legal: list[int] = state.legal_actions()
    if legal:
        clone.apply_action(rng.choice(legal))
        assert clone != state, f"{where}: an action changes a clone"
        assert state.serialize() == text, f"{where}: acting on a clone leaves the original alone"


def check_views(state: spielwerk.State, pos: Position, where: str) -> None:
    """Each view is exactly what the oracle allows a player to see: never another hand."""
    for p in range(pos.players):
        view = state.view(p)
        assert set(view) == VIEW_KEYS, f"{where}: view {p} keys {sorted(view)}"
        assert view == expected_view(pos, p), f"{where}: view {p}"
        assert state.hand(p) == [str(card) for card in sorted(pos.hands[p])], where
    public = state.public_view()
    assert set(public) == VIEW_KEYS, f"{where}: public view keys {sorted(public)}"
    assert public == expected_view(pos, None), f"{where}: public view"


def check_resample(
    game: spielwerk.Game,
    state: spielwerk.State,
    pos: Position,
    p: int,
    rng: random.Random,
    tally: Tally,
    where: str,
) -> None:
    """A resample for p redeals only what p cannot see, keeps view(p), and is exactly the
    state built from view(p) with the same seed."""
    seed = rng.randrange(2**64)
    resampled = state.resample(p, seed)
    assert resampled.view(p) == state.view(p), f"{where}: resample({p}) keeps view({p})"
    assert resampled == game.state_from_view(state.view(p), seed), f"{where}: resample is state_from_view"
    new = Position.of(resampled)
    assert conservation_problems(new) == [], f"{where}: resample({p}) {conservation_problems(new)}"
    assert new.hands[p] == pos.hands[p], where
    # The hidden cards (other hands and the draw pile) are redealt in the same sizes.
    others = [q for q in range(pos.players) if q != p]
    assert [len(new.hands[q]) for q in others] == [len(pos.hands[q]) for q in others], where
    assert len(new.draw_pile) == len(pos.draw_pile), where
    hidden = sorted([c for q in others for c in pos.hands[q]] + list(pos.draw_pile))
    assert sorted([c for q in others for c in new.hands[q]] + list(new.draw_pile)) == hidden, where
    public = (pos.tops, pos.pile_sizes, pos.played_this_turn, pos.outcome)
    assert (new.tops, new.pile_sizes, new.played_this_turn, new.outcome) == public, where
    if not is_won(pos):
        # The player to move, or in a lost game the stuck one; a won game shows no seat.
        assert new.current == pos.current, where
    assert new.history == (), f"{where}: a resample starts no history (the view carries none)"
    if p == pos.current or pos.outcome is not None:
        # What the mover may do depends only on what the mover sees.
        assert resampled.legal_actions() == state.legal_actions(), where
    if len(hidden) > 1:
        tally.resamples += 1
        if [new.hands[q] for q in others] != [pos.hands[q] for q in others] or new.draw_pile != pos.draw_pile:
            tally.resample_changed += 1


def check_state(
    game: spielwerk.Game,
    state: spielwerk.State,
    pos: Position,
    rng: random.Random,
    tally: Tally,
    where: str,
    resample_for: range | list[int],
) -> None:
    """Everything that must hold in every state, from the serialized position alone."""
    problems = conservation_problems(pos)
    assert problems == [], f"{where}: {problems}"
    won, stuck = is_won(pos), is_stuck(pos)
    # T6: the game is over exactly when it is won or the player to move is stuck.
    assert state.is_terminal() == (won or stuck), (
        f"{where}: terminal {state.is_terminal()}, won {won}, stuck {stuck}"
    )
    players = pos.players
    if state.is_terminal():
        assert pos.outcome == {"won": won, "score": score(pos)}, f"{where}: {pos.outcome}"
        assert state.current_player() == spielwerk.TERMINAL
        assert state.returns() == [-float(score(pos))] * players, f"{where}: T6 returns"
    else:
        assert pos.outcome is None, where
        assert state.current_player() == pos.current
        assert pos.hands[pos.current], f"{where}: T5: player {pos.current} holds no cards but is to move"
        assert state.returns() == [0.0] * players, f"{where}: no returns while the game runs"
    if not pos.draw_pile:
        tally.empty_pile_states += 1

    legal: list[int] = state.legal_actions()
    mask = state.legal_actions_mask()
    assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (NUM_ACTIONS,)
    assert legal == sorted(set(legal)), f"{where}: sorted, no repeats"
    assert legal == np.flatnonzero(mask).tolist(), f"{where}: mask agrees with legal_actions"
    assert legal == legal_actions(pos), f"{where}: T3/T4"

    check_views(state, pos, where)
    for p in resample_for:
        check_resample(game, state, pos, p, rng, tally, where)
    check_round_trips(game, state, rng, where)


def probe_refusal(
    state: spielwerk.State, pos: Position, legal: list[int], rng: random.Random, tally: Tally, where: str
) -> None:
    """A random refused action names its ruling (exactly where the brief fixes the text)."""
    hand = pos.hands[pos.current]
    not_held = [card for card in CARDS if card not in hand]
    kinds: dict[str, list[int]] = {
        "misfit": [
            play_action(card, pile)
            for card in hand
            for pile in range(NUM_PILES)
            if not fits(card, pile, pos.tops[pile])
        ],
        "early_end": [] if END_TURN in legal else [END_TURN],
        "not_held": [play_action(rng.choice(not_held), rng.randrange(NUM_PILES))],
    }
    kind = rng.choice([k for k, actions in kinds.items() if actions])
    illegal = rng.choice(kinds[kind])
    expected = expected_refusal(pos, illegal)
    assert expected is not None, (where, illegal)
    text: str = state.serialize()
    with pytest.raises(spielwerk.IllegalActionError) as info:
        state.apply_action(illegal)
    message = str(info.value)
    assert RULING_PREFIX.match(message), f"{where}: {illegal}: {message}"
    if len(expected) > len("T3: "):
        assert message == expected, f"{where}: {illegal}"
    else:
        assert message.startswith(expected), f"{where}: {illegal}: {message!r} is not {expected!r}..."
    if kind == "not_held":
        assert str(illegal // NUM_PILES + 2) in message, f"{where}: {message!r} names the card"
    assert check_text(state, state.action_to_json(illegal)) == message, where
    assert state.serialize() == text, f"{where}: refused action {illegal} changed the state"
    tally.illegal_probes[kind] += 1


def note_action(before: Position, after: Position, action: int, tally: Tally) -> None:
    """Counts what an action exercised (the oracle has already checked the result)."""
    me = before.current
    play = decode(action)
    turn_ended = play is None
    if play is not None:
        card, pile = play
        top = before.tops[pile]
        if (card < top) if ascending(pile) else (card > top):
            tally.backward_tricks += 1
        if not before.hands[me] - {card}:
            tally.auto_turn_ends += 1
            turn_ended = True
    if turn_ended:
        played = before.played_this_turn + (play is not None)
        if 0 < len(before.draw_pile) < played:
            tally.short_draws += 1
        if after.outcome is None and after.current != (me + 1) % before.players:
            tally.skips += 1


def play_checked_game(game: spielwerk.Game, seed: int, policy: Policy, tally: Tally) -> spielwerk.State:
    """Plays one game, checking every invariant after every action; returns the final state."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    pos = Position.of(state)
    players = game.num_players()
    # T1/T2: the deal.
    size = HAND_SIZE[players]
    assert [len(hand) for hand in pos.hands] == [size] * players, f"seed {seed}: T2 hand sizes"
    assert len(pos.draw_pile) == len(CARDS) - size * players, f"seed {seed}"
    assert (pos.tops, pos.pile_sizes) == (START_TOPS, (0,) * NUM_PILES), f"seed {seed}: T1"
    assert (pos.current, pos.played_this_turn, pos.outcome, pos.history) == (0, 0, None, ()), "T2"
    check_state(game, state, pos, rng, tally, f"seed {seed} start", range(players))
    for step in range(MAX_ACTIONS + 1):
        if state.is_terminal():
            break
        where = f"{game.options()} seed {seed} step {step}"
        assert step < MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions"
        legal: list[int] = state.legal_actions()
        probe_refusal(state, pos, legal, rng, tally, where)
        action = policy(state, legal)
        assert action in legal, f"{where}: the policy chose {action}, not in {legal}"
        assert check_text(state, state.action_to_json(action)) is None, where
        state.apply_action(action)
        before, pos = pos, Position.of(state)
        # The whole next position, draw pile order included, is the oracle's.
        assert pos == apply(before, action), f"{where}: after {action} {pos} != {apply(before, action)}"
        note_action(before, pos, action, tally)
        # A resample for one player per state (each in turn), for all of them at the end.
        resample_for = range(players) if state.is_terminal() else [step % players]
        check_state(game, state, pos, rng, tally, where, resample_for)

    assert state.is_terminal() and state.legal_actions() == [], f"seed {seed}"
    assert not state.legal_actions_mask().any()
    outcome = pos.outcome
    assert outcome is not None
    # T6: score = cards left in hands and draw pile; won iff none is left; returns -score.
    left = sum(len(hand) for hand in pos.hands) + len(pos.draw_pile)
    assert outcome["score"] == left and outcome["won"] == (left == 0), f"seed {seed}: {outcome}"
    assert state.returns() == [-float(left)] * players, f"seed {seed}"
    if not outcome["won"]:
        # T6: lost only with the mover short of the minimum and without a card that fits.
        assert pos.played_this_turn < minimum(pos) and is_stuck(pos), f"seed {seed}: lost but not stuck"
    for action in (END_TURN, state.history()[-1], 0):
        with pytest.raises(spielwerk.IllegalActionError, match=r"^T6: "):
            state.apply_action(action)
    tally.outcomes["won" if outcome["won"] else "lost"] += 1
    return state


def replay(game: spielwerk.Game, seed: int, policy: Policy) -> list[int]:
    state = game.new_initial_state(seed=seed)
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        state.apply_action(policy(state, state.legal_actions()))
    history: list[int] = state.history()
    return history


def replay_history(game: spielwerk.Game, seed: int, history: list[int]) -> spielwerk.State:
    state = game.new_initial_state(seed=seed)
    for action in history:
        state.apply_action(action)
    return state


# (players, pro, RandomBot games, careful games): 200 games per player count, 100 for pro.
CONFIGS = [(players, False, 140, 60) for players in range(1, 6)] + [
    (players, True, 70, 30) for players in (2, 5)
]


@pytest.mark.slow
@pytest.mark.parametrize("policy_name", sorted(POLICIES))
@pytest.mark.parametrize(("players", "pro", "bot_games", "careful_games"), CONFIGS)
def test_seeded_games_keep_every_invariant(
    players: int, pro: bool, bot_games: int, careful_games: int, policy_name: str
) -> None:
    game = spielwerk.load_game(GAME_NAME, players=players, pro=pro)
    make_policy = POLICIES[policy_name]
    tally = Tally()
    for seed in range(bot_games if policy_name == "random_bot" else careful_games):
        final = play_checked_game(game, seed, make_policy(seed), tally)
        assert replay(game, seed, make_policy(seed)) == final.history(), f"seed {seed}: same seed, same game"
        again = replay_history(game, seed, final.history())
        assert again == final, f"seed {seed}: the history makes the game"
    # The games must have exercised what they check.
    assert tally.outcomes["lost"] > 0, tally
    assert set(tally.illegal_probes) == {"misfit", "early_end", "not_held"}, tally
    assert tally.backward_tricks > 0 and tally.resample_changed > tally.resamples // 2, tally
    if policy_name == "random_bot":
        assert tally.auto_turn_ends > 0, tally
    else:
        assert tally.empty_pile_states > 0, tally
        if players > 1:
            assert tally.short_draws > 0, tally


def first_seed_where(
    game: spielwerk.Game, seeds: range, wanted: Callable[[spielwerk.State, bool], bool]
) -> int | None:
    """The first seed whose careful game (played unchecked, fast) is `wanted(final, skipped)`."""
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        policy = careful_policy(seed, thresholds=(1, 2), explore=0.0)
        skipped = False
        while not state.is_terminal():
            mover: int = state.current_player()
            state.apply_action(policy(state, state.legal_actions()))
            following: int = state.current_player()
            skipped |= following not in (spielwerk.TERMINAL, mover, (mover + 1) % game.num_players())
        if wanted(state, skipped):
            return seed
    return None


@pytest.mark.parametrize("players", range(1, 6))
def test_won_games_and_skipped_players_keep_every_invariant(players: int) -> None:
    """T6 win and T5 skip, which random play seldom reaches: found fast, then checked in full."""
    game = spielwerk.load_game(GAME_NAME, players=players)
    seeds = range(1000, 3000)
    won = first_seed_where(game, seeds, lambda final, _: final.returns() == [0.0] * players)
    assert won is not None, "careful play never won"
    tally = Tally()
    final = play_checked_game(game, won, careful_policy(won, thresholds=(1, 2), explore=0.0), tally)
    assert tally.outcomes == {"won": 1}, tally
    assert all(final.hand(p) == [] for p in range(players)), "T6: every card played"
    if players >= 3:
        skipping = first_seed_where(game, seeds, lambda _, skipped: skipped)
        assert skipping is not None, "no player ever ran out of cards first"
        play_checked_game(game, skipping, careful_policy(skipping, thresholds=(1, 2), explore=0.0), tally)
        assert tally.skips > 0, tally


def test_simulate_agrees_with_the_rules() -> None:
    """T6, R1 in the counts; that they do not depend on threads or differ by seed is
    checked for every game in test_conformance.py."""
    for players in (1, 3, 5):
        game = spielwerk.load_game(GAME_NAME, players=players)
        one = spielwerk.simulate(game, 300, seed=11, threads=1)
        assert one.games == 300
        # R1/T6: a cooperative game; everyone gets the same return, -score <= 0. A win is a
        # perfect game (no card left), counted for every player; nothing is a draw.
        assert one.utility == game.utility() == "cooperative", one
        assert one.wins == [one.perfect_games] * players and one.draws == 0, one
        assert len(set(one.mean_returns)) == 1 and -len(CARDS) < one.mean_returns[0] < 0, one
        # cards_left[k]: the games that ended with k cards left; its mean is -return.
        histogram = one.cards_left
        assert sum(histogram) == 300 and 0 < len(histogram) <= len(CARDS) + 1, one
        assert histogram[0] == one.perfect_games and histogram[-1] > 0, one
        mean = sum(left * games for left, games in enumerate(histogram)) / 300
        assert one.mean_cards_left == pytest.approx(mean) == pytest.approx(-one.mean_returns[0]), one
        assert 0 < one.mean_length <= MAX_ACTIONS
    by_name = spielwerk.simulate(GAME_NAME, 200, seed=4)
    by_game = spielwerk.simulate(spielwerk.load_game(GAME_NAME), 200, seed=4)
    assert by_name.as_dict() == by_game.as_dict(), "the default is two players"
    assert len(by_name.mean_returns) == 2
    assert spielwerk.simulate(GAME_NAME, 200, seed=5).as_dict() != by_name.as_dict()


def test_resample_for_each_player_differs_from_the_truth() -> None:
    state = spielwerk.load_game(GAME_NAME, players=4).new_initial_state(seed=8)
    for p in range(4):
        others = {state.resample(p, seed).serialize() for seed in range(20)}
        assert len(others) == 20 and state.serialize() not in others
