"""Invariants of Dog over many seeded random games.

`spielwerk.RandomBot` plays 60 games (Rust runs 500, core/tests/dog_games.rs). Random games
run about 1,300 actions, so the checks are spread:

* at every state: the legal actions are sorted, without repeats, hold the bot's choice, and
  a legal action's JSON move is accepted by `check_move`;
* after every TRANSITION_EVERY-th action and after every part of a seven: the whole next position
  is the one the plain-Python oracle (dog_oracle.py) derives from the serialized position and
  the action (D4-D13: the move, whom it sends home, the hands, the discards, the next seat,
  the next round's deal, the end), the order of a reshuffled pile aside;
* at every CHECK_EVERY-th state, at every SEVEN_CHECK_EVERY-th state inside a seven and at
  the end: 16 marbles each in exactly one
  place, 110 cards each in exactly one place, the legal actions equal to the oracle's (every
  action id tried, sevens by the oracle's own search over every split) and to the mask's
  nonzero indices, every view exactly what the oracle allows (never another hand, never
  another pick, `received` only after all four picked), view(p) kept by resample(p, seed), a
  random refused action naming the oracle's ruling and changing nothing, and serialize,
  pickle and clone round-tripping;
* at the end: the outcome and the points of D13 and the returns of R1, within the bound on
  the length of a game stated in core/tests/dog_games.rs; the same seed gives the same game.
"""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from dataclasses import dataclass, field, replace

import numpy as np
import pytest
import spielwerk
from dog_oracle import (
    GAME_NAME,
    HAND_SIZES,
    NUM_ACTIONS,
    NUM_PLAYERS,
    RULING_PREFIX,
    SIT_OUT,
    VIEW_KEYS,
    Position,
    apply,
    candidates,
    card_problems,
    color_of,
    decode,
    expected_move,
    expected_returns,
    expected_view,
    first_player,
    legal_actions,
    marble_problems,
    moving_color,
    outcome_of,
    partner,
    refusal,
    same_places,
    team_in_goal,
)
from move_checks import check_text

GAMES = 60
CHUNKS = 6
# The oracle's legal actions, views, resamples, round trips and a refused action.
CHECK_EVERY = 10
# The same, at every SEVEN_CHECK_EVERY-th state inside a seven (random play splits sevens a lot).
SEVEN_CHECK_EVERY = 3
TRANSITION_EVERY = 4
MAX_TURNS = 10_000
# core/tests/dog_games.rs: at most max_turns turns of at most 7 actions (a seven in single
# steps), and four exchanges per round of at least four turns: 10,000 * 7 + 4 * 2,501.
MAX_ACTIONS = 80_004


@dataclass
class Tally:
    winners: Counter[int] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    oracle_states: int = 0
    seven_states: int = 0
    split_sevens: int = 0  # sevens played in more than one part
    partner_sevens: int = 0  # a seven part on the partner's marble
    sent_home: int = 0
    goal_entries: int = 0
    helping: int = 0  # D12: a play by a player with all four marbles home
    reshuffles: int = 0
    resamples_changed: int = 0
    resamples: int = 0


def check_round_trips(game: spielwerk.Game, state: spielwerk.State, text: str, where: str) -> None:
    restored = game.deserialize_state(text)
    assert restored == state and restored.serialize() == text, f"{where}: deserialize(serialize())"
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled == state and unpickled.serialize() == text, f"{where}: pickle"
    clone = state.clone()
    assert clone == state and copy.copy(state) == state and copy.deepcopy(state) == state, where
    legal: list[int] = state.legal_actions()
    if legal:
        clone.apply_action(legal[-1])
        assert clone != state, f"{where}: an action changes a clone"
        assert state.serialize() == text, f"{where}: acting on a clone leaves the original alone"


def check_views(state: spielwerk.State, pos: Position, where: str) -> None:
    """Each view is exactly what the oracle allows: the own hand only, the own pick only."""
    for p in range(NUM_PLAYERS):
        view = state.view(p)
        assert set(view) == VIEW_KEYS, f"{where}: view {p} keys {sorted(view)}"
        assert view == expected_view(pos, p), f"{where}: view {p}"
        assert view["hand"] == state.hand(p) == list(pos.hands[p]), where
        if pos.phase == "exchange":
            # D4: nobody sees another pick, nor what they receive, before all four picked.
            assert view["exchange"]["given"] == pos.exchange[p], where
            assert view["exchange"]["received"] is None, f"{where}: received before all four picked"
        assert view["hand_sizes"] == [len(h) for h in pos.hands], where


def check_resample(
    state: spielwerk.State, pos: Position, p: int, seed: int, tally: Tally, where: str
) -> None:
    """A resample for p deals anew only what p cannot see, and keeps view(p)."""
    resampled = state.resample(p, seed)
    assert resampled.view(p) == state.view(p), f"{where}: resample({p}) keeps view({p})"
    new = Position.of(resampled)
    assert card_problems(new) == [], f"{where}: resample({p}): {card_problems(new)}"
    assert new.hands[p] == pos.hands[p] and new.board == pos.board, where
    others = [q for q in range(NUM_PLAYERS) if q != p]
    assert [len(new.hands[q]) for q in others] == [len(pos.hands[q]) for q in others], where
    assert len(new.pile) == len(pos.pile) and len(new.discards) == len(pos.discards), where
    # The face-up cards are seen by all, p's own face-down discards by p; the other seats'
    # face-down discards are dealt anew (D5; the view does not say whose they are, which
    # matters for no move), and the discards' order is not seen.
    assert new.face_up == pos.face_up and new.face_down[p] == pos.face_down[p], where
    assert sum(len(new.face_down[q]) for q in others) == sum(len(pos.face_down[q]) for q in others), where
    assert Counter(new.discards) == Counter([*new.face_up, *(c for d in new.face_down for c in d)]), where
    assert new.played == pos.played and new.history == () and new.actors == (), where
    assert new.exchange[p] == pos.exchange[p], where
    picks = [q for q in others if pos.exchange[q] is not None]
    assert [q for q in others if new.exchange[q] is not None] == picks, where

    def hidden(x: Position) -> Counter[str]:
        in_transit = [card for q in picks if (card := x.exchange[q]) is not None]
        face_down = (c for q in others for c in x.face_down[q])
        return Counter([*x.pile, *(c for q in others for c in x.hands[q]), *in_transit, *face_down])

    assert hidden(new) == hidden(pos), f"{where}: the hidden cards are dealt anew, the same cards"
    if p == pos.current or pos.outcome is not None:
        # What the mover may do depends only on what the mover sees.
        assert resampled.legal_actions() == state.legal_actions(), where
    tally.resamples += 1
    if [new.hands[q] for q in others] != [pos.hands[q] for q in others]:
        tally.resamples_changed += 1


def probe_refusal(
    state: spielwerk.State, pos: Position, legal: list[int], rng: random.Random, tally: Tally, where: str
) -> None:
    """A random refused action names the oracle's ruling and changes nothing."""
    allowed = set(legal)
    kinds: dict[str, list[int]] = {
        "any": [rng.randrange(NUM_ACTIONS) for _ in range(20)],
        # The moves of the cards in hand that the board forbids (D6-D12), and the parts of
        # an open seven that are refused (D6-D11).
        "board": candidates(pos) if pos.phase == "play" else [],
    }
    kind = rng.choice([k for k, actions in kinds.items() if any(a not in allowed for a in actions)])
    action = rng.choice([a for a in kinds[kind] if a not in allowed])
    expected = refusal(pos, action)
    assert expected is not None, f"{where}: the oracle allows {action} {decode(action)}"
    text: str = state.serialize()
    with pytest.raises(spielwerk.IllegalActionError) as info:
        state.apply_action(action)
    message = str(info.value)
    assert RULING_PREFIX.match(message), f"{where}: {action}: {message}"
    assert message.startswith(expected + ": "), f"{where}: {decode(action)}: {message!r}, oracle {expected}"
    if pos.seven is not None and decode(action).kind not in ("seven", "exchange"):
        assert message.startswith("D8: a seven must be used completely"), message
    assert check_text(state, state.action_to_json(action)) == message, where
    assert state.serialize() == text, f"{where}: refused action {action} changed the state"
    tally.refusals[f"{kind} {expected}"] += 1


def check_state(
    game: spielwerk.Game,
    state: spielwerk.State,
    pos: Position,
    rng: random.Random,
    tally: Tally,
    where: str,
) -> None:
    """The expensive invariants, from the serialized position alone."""
    assert marble_problems(pos) == [], f"{where}: {marble_problems(pos)}"
    assert card_problems(pos) == [], f"{where}: {card_problems(pos)}"
    if pos.outcome is None:
        assert state.current_player() == pos.current and not state.is_terminal(), where
        assert pos.hands[pos.current] or pos.seven is not None, f"{where}: the mover holds no card"
        assert state.returns() == [0.0] * NUM_PLAYERS, where
    legal: list[int] = state.legal_actions()
    mask = state.legal_actions_mask()
    assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (NUM_ACTIONS,)
    assert legal == np.flatnonzero(mask).tolist(), f"{where}: mask agrees with legal_actions"
    assert legal == legal_actions(pos), f"{where}: the oracle's legal actions"
    tally.oracle_states += 1
    tally.seven_states += pos.seven is not None
    check_views(state, pos, where)
    p = rng.randrange(NUM_PLAYERS)
    check_resample(state, pos, p, rng.randrange(2**64), tally, where)
    check_round_trips(game, state, state.serialize(), where)
    if legal:
        probe_refusal(state, pos, legal, rng, tally, where)


def check_transition(before: Position, after: Position, action: int, where: str) -> None:
    """The next position is the oracle's (D4-D13)."""
    prediction = apply(before, action)
    expected = prediction.pos
    if decode(action).kind == "start":
        # Which kennel marble comes out is no rule: compare the places of each colour.
        assert same_places(expected.board, after.board), f"{where}: {expected.board} != {after.board}"
        moved = [m for m in range(16) if before.board[m] != after.board[m] and after.board[m].protected]
        assert len(moved) == 1 and before.board[moved[0]].place[0] == "kennel", where
        expected = replace(expected, board=after.board)
    if prediction.exact:
        for name in expected.__dataclass_fields__:
            assert getattr(after, name) == getattr(expected, name), (
                f"{where}: {decode(action)}: {name} is {getattr(after, name)}, "
                f"the oracle says {getattr(expected, name)}"
            )
        return
    # D3: a reshuffle of the discards: the same cards, in an order the oracle cannot know.
    for name in expected.__dataclass_fields__:
        if name not in ("hands", "pile", "discards", "reshuffle_seed"):
            assert getattr(after, name) == getattr(expected, name), f"{where}: {name}"
    assert after.discards == () and after.reshuffles == before.reshuffles + 1, where
    size = HAND_SIZES[after.round % len(HAND_SIZES)]
    assert [len(h) for h in after.hands] == [size] * NUM_PLAYERS, where
    assert Counter([*after.pile, *(c for h in after.hands for c in h)]) == Counter(
        [*before.pile, *before.discards, *(c for h in before.hands for c in h)]
    ), where


def note_action(before: Position, after: Position, action: int, tally: Tally) -> None:
    mv = decode(action)
    tally.kinds[mv.kind + (" joker" if mv.joker else "")] += 1
    home_before = sum(m.place[0] == "kennel" for m in before.board)
    home_after = sum(m.place[0] == "kennel" for m in after.board)
    if home_after > home_before or (mv.kind == "start" and home_after == home_before):
        tally.sent_home += 1
    tally.goal_entries += sum(m.place[0] == "goal" for m in after.board) > sum(
        m.place[0] == "goal" for m in before.board
    )
    if mv.kind == "seven":
        if before.seven is None and after.seven is not None:
            tally.split_sevens += 1
        if color_of(mv.marble) == partner(before.current):
            tally.partner_sevens += 1
    if mv.kind in ("start", "move", "jack") and moving_color(before.board, before.current) != before.current:
        tally.helping += 1
    tally.reshuffles += after.reshuffles - before.reshuffles


def play_checked_game(game: spielwerk.Game, seed: int, tally: Tally) -> spielwerk.State:
    state = game.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    rng = random.Random(seed)
    pos = Position.of(state)
    # D2-D4: all marbles in the kennels, six cards each, the exchange first, seat 0 first.
    assert all(m.place[0] == "kennel" and not m.protected for m in pos.board), f"seed {seed}"
    assert [len(h) for h in pos.hands] == [6] * 4 and len(pos.pile) == 110 - 24, f"seed {seed}"
    assert (pos.phase, pos.current, pos.round, pos.turns) == ("exchange", 0, 0, 0), f"seed {seed}"
    check_state(game, state, pos, rng, tally, f"seed {seed} start")
    step = 0
    known: Position | None = pos  # the current state's position, where it was read
    while not state.is_terminal():
        where = f"seed {seed} step {step}"
        assert step < MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions"
        legal: list[int] = state.legal_actions()
        assert legal and legal == sorted(set(legal)), f"{where}: sorted, no repeats"
        action = bot.step(state)
        assert action in legal, f"{where}: the bot chose {action}, not in {legal}"
        move = state.action_to_json(action)
        assert move == expected_move(action) and state.action_from_json(move) == action, where
        assert check_text(state, move) is None, where
        # Every part of a seven is followed closely: the search of D8 is where it is hard.
        seven = decode(action).kind == "seven"
        careful = step % TRANSITION_EVERY == 0 or seven
        if careful and known is None:
            known = Position.of(state)
        state.apply_action(action)
        step += 1
        if careful or step % CHECK_EVERY == 0 or state.is_terminal():
            pos = Position.of(state)
            if careful:
                assert known is not None
                check_transition(known, pos, action, where)
                note_action(known, pos, action, tally)
            open_seven = pos.seven is not None and step % SEVEN_CHECK_EVERY == 0
            if step % CHECK_EVERY == 0 or open_seven or state.is_terminal():
                check_state(game, state, pos, rng, tally, where)
            known = pos
        else:
            known = None
    final = Position.of(state)
    assert step <= MAX_ACTIONS and final.turns <= MAX_TURNS, f"seed {seed}"
    assert state.current_player() == spielwerk.TERMINAL and state.legal_actions() == []
    assert not state.legal_actions_mask().any()
    # D13: the game ends when a team has all 8 marbles home (or the clock stops it).
    outcome = outcome_of(final.board, final.turns, final.max_turns)
    assert outcome is not None and final.outcome == outcome, f"seed {seed}: {final.outcome} != {outcome}"
    assert final.phase == "over" and state.view(0)["outcome"] == outcome
    assert state.returns() == expected_returns(outcome), f"seed {seed}: R1"
    if outcome["winner"] is not None:
        w = outcome["winner"]
        assert team_in_goal(final.board, w) == 8 and team_in_goal(final.board, 1 - w) < 8
        assert outcome["points"][w] == 16 - team_in_goal(final.board, 1 - w)
        tally.winners[w] += 1
    text = state.serialize()
    for action in (0, SIT_OUT, state.history()[-1]):
        rejection = check_text(state, state.action_to_json(action))
        assert rejection is not None and rejection.startswith("D13: "), rejection
        # Which ruling `apply_action` names here: test_a_finished_game_refuses_with_d13.
        with pytest.raises(spielwerk.IllegalActionError):
            state.apply_action(action)
    assert state.serialize() == text
    return state


def replay(game: spielwerk.Game, seed: int) -> spielwerk.State:
    state = game.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    return state


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_keep_every_invariant(chunk: int) -> None:
    game = spielwerk.load_game(GAME_NAME, max_turns=MAX_TURNS)
    tally = Tally()
    seeds = range(chunk * GAMES // CHUNKS, (chunk + 1) * GAMES // CHUNKS)
    for seed in seeds:
        final = play_checked_game(game, seed, tally)
        again = replay(game, seed)
        assert again == final and again.history() == final.history(), f"seed {seed}: same seed, same game"
    # The games must have exercised what they check.
    assert sum(tally.winners.values()) == len(seeds), tally
    assert tally.oracle_states > 100 * len(seeds) and tally.seven_states > 0, tally
    assert {"exchange", "start", "move", "seven", "jack", "sit_out"} <= set(tally.kinds), tally
    assert tally.kinds["move joker"] > 0 and tally.kinds["start joker"] + tally.kinds["seven joker"] > 0, (
        tally
    )
    assert tally.split_sevens > 0 and tally.partner_sevens > 0, tally
    assert tally.sent_home > 0 and tally.goal_entries > 0 and tally.reshuffles > 0, tally
    assert tally.helping > 0, f"D12 was never reached: {tally}"
    assert tally.resamples_changed > tally.resamples // 2, tally
    refused = {key.split()[1] for key in tally.refusals}
    assert {"D4", "D5", "D6", "D7", "D8", "D9"} <= refused, tally


@pytest.mark.parametrize("max_turns", [1, 37, 300])
def test_the_clock_stops_the_game_with_a_point_per_marble_home(max_turns: int) -> None:
    """D13: a match stopped by its clock gives each team 1 point per marble in the goal;
    R1: no winner, every return 0."""
    game = spielwerk.load_game(GAME_NAME, max_turns=max_turns)
    assert game.options() == {"max_turns": max_turns}
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        bot = spielwerk.RandomBot(seed)
        while not state.is_terminal():
            state.apply_action(bot.step(state))
        pos = Position.of(state)
        assert pos.turns == max_turns, f"seed {seed}: {pos.turns} turns"
        points = [team_in_goal(pos.board, t) for t in (0, 1)]
        assert pos.outcome == {"winner": None, "points": points, "reason": "turn_limit"}, pos.outcome
        assert state.returns() == [0.0] * 4
        assert card_problems(pos) == [] and marble_problems(pos) == []


def test_a_finished_game_refuses_with_d13() -> None:
    """D13: after the end every action is refused as check_move says: game_over."""
    state = replay(spielwerk.load_game(GAME_NAME, max_turns=1), 1)
    assert state.is_terminal()
    for action in (0, SIT_OUT, state.history()[-1]):
        expected = check_text(state, state.action_to_json(action))
        with pytest.raises(spielwerk.IllegalActionError, match=r"^D13: ") as info:
            state.apply_action(action)
        assert str(info.value) == expected and info.value.code == "game_over"


def test_no_clock_plays_to_the_end() -> None:
    game = spielwerk.load_game(GAME_NAME, max_turns=0)
    assert game.options() == {"max_turns": 0}
    state = replay(game, 5)
    outcome = Position.of(state).outcome
    assert outcome is not None and outcome["reason"] == "all_home" and outcome["winner"] in (0, 1)


def test_the_history_makes_the_game() -> None:
    game = spielwerk.load_game(GAME_NAME)
    final = replay(game, 21)
    state = game.new_initial_state(seed=21)
    for action in final.history():
        state.apply_action(action)
    assert state == final


def test_a_resample_deals_the_hidden_cards_anew() -> None:
    game = spielwerk.load_game(GAME_NAME)
    state = game.new_initial_state(seed=8)
    for p in range(4):
        others = {state.resample(p, seed).serialize() for seed in range(20)}
        assert len(others) == 20 and state.serialize() not in others
        assert all(game.deserialize_state(text).view(p) == state.view(p) for text in others)


def test_every_action_id_round_trips_through_its_json_move() -> None:
    state = spielwerk.load_game(GAME_NAME).new_initial_state(seed=2)
    for action in range(NUM_ACTIONS):
        move = state.action_to_json(action)
        assert move == expected_move(action), action
        assert state.action_from_json(move) == action, move
        assert isinstance(state.action_to_string(action), str)
    assert spielwerk.load_game(GAME_NAME).num_distinct_actions() == NUM_ACTIONS


def test_first_player_and_hand_size_follow_the_round() -> None:
    """D4 over many rounds of random play: at each round's exchange every hand holds the
    round's size, and the first player picks first."""
    game = spielwerk.load_game(GAME_NAME)
    state = game.new_initial_state(seed=4)
    bot = spielwerk.RandomBot(4)
    seen = []
    last_round = -1
    while not state.is_terminal():
        view = state.view(0)
        if view["round"] != last_round:
            # Views count rounds from 1 (the oracle, like the serialized state, from 0).
            assert view["round"] == last_round + 1 or last_round == -1, view["round"]
            last_round = view["round"]
            size = HAND_SIZES[(last_round - 1) % 5]
            assert view["phase"] == "exchange" and view["hand_sizes"] == [size] * 4, view
            assert view["hand_size"] == size
            assert state.current_player() == first_player(last_round - 1) == view["first_player"]
            seen.append((size, state.current_player()))
        state.apply_action(bot.step(state))
    assert seen[:6] == [(6, 0), (5, 1), (4, 2), (3, 3), (2, 0), (6, 1)], seen
    assert len(seen) > 10


@pytest.mark.parametrize("seed", [3, 17])
def test_history_for_hides_the_other_picks(seed: int) -> None:
    """D4: in `history_for(p)` every play is shown; of the exchange picks, p's own, the
    partner's once the round's four picks are made (it is the card p received), never
    an opponent's. The seat of each action is recorded as the game is played."""
    game = spielwerk.load_game(GAME_NAME)
    state = game.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    seats: list[int] = []
    for _ in range(400):
        if state.is_terminal():
            break
        seats.append(state.current_player())
        state.apply_action(bot.step(state))
        history = state.history()
        is_pick = [decode(a).kind == "exchange" for a in history]
        # The picks of a running exchange are the newest ones.
        trailing = len(history) - max((i + 1 for i, pick in enumerate(is_pick) if not pick), default=0)
        open_from = len(history) - (trailing if state.view(0)["phase"] == "exchange" else 0)
        for p in range(NUM_PLAYERS):
            expected = [
                action
                if not is_pick[i] or seats[i] == p or (seats[i] == partner(p) and i < open_from)
                else None
                for i, action in enumerate(history)
            ]
            assert state.history_for(p) == expected, (p, history)
    assert any(a is None for a in state.history_for(0))


def test_history_for_checks_the_seat() -> None:
    state = spielwerk.load_game(GAME_NAME).new_initial_state(seed=1)
    with pytest.raises(ValueError, match="player"):
        state.history_for(4)
