"""Invariants of Caravan over many seeded random games, the standard rules and each variant.

After every action of every game the whole next state is the one the plain-Python oracle
(caravan_oracle.py) derives from the previous serialized state and the action (C2-C10), the
order of a reshuffled deck aside (C10 Neu mischen shuffles, the oracle checks the cards). So
every card of each player stays exactly once in their deck, hand, discard pile or on the
table (C1); the value, direction and suit of every caravan in the views are the oracle's
(C3, C4, C7); who sells each pair is the oracle's (C9), and so is the outcome. The legal
actions (and the mask) are the oracle's at every state, and once per game (every other
standard game) every action id is tried; a random refused action names its ruling and
changes nothing. The views show exactly what the oracle allows, and a resample for a player
keeps that player's view; serialize, pickle and clone round-trip at every twentieth state.

`spielwerk.RandomBot` plays; Rust runs 1,000 games and 200 per variant, this file 300 and 40.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
import spielwerk
from caravan_oracle import (
    GAME_NAME,
    HAND_SIZE,
    JACK,
    JOKERS,
    KING,
    NUM_CARAVANS,
    QUEEN,
    RULING_PREFIX,
    SHORT_DECK,
    STANDARD,
    VARIANTS,
    VIEW_KEYS,
    apply,
    candidate_moves,
    caravan_suit,
    comparable,
    deck_problems,
    decode,
    encode,
    expected_outcome,
    expected_returns,
    expected_view,
    full_deck,
    held_cards,
    is_number,
    legal_actions,
    legal_actions_by_refusals,
    num_actions,
    own_caravans,
    player_cards,
    public_view,
    rank_of,
    refusal_reasons,
    resolve,
    sorted_cards,
    suit_name,
    table_cards,
    table_problems,
    value_of,
)
from move_checks import check_text

STANDARD_GAMES = 300
VARIANT_GAMES = 40
CHUNK = 100
# Both views and the table's shape at every CHECK_EVERY-th state (one view at every other);
# round trips and a resample at every ROUND_TRIP_EVERY-th state and at the end.
CHECK_EVERY = 10
ROUND_TRIP_EVERY = 20

Data = dict[str, Any]


def max_actions(rules: dict[str, bool]) -> int:
    """An upper bound on a game's length.

    Every play and discard takes a card from the mover's hand; every disband empties a
    caravan holding at least one number card played before, so a player's turns are at most
    twice the cards that pass through their hand: the deck, and under Neu mischen up to two
    refills of at most a deck each. The players alternate, so the game has at most twice one
    player's turns, plus one.
    """
    deck = SHORT_DECK if rules["short_deck"] else sum(full_deck(rules["double_deck"]).values())
    through_hand = deck * (3 if rules["reshuffle"] else 1)
    return 2 * (2 * through_hand) + 1


@dataclass
class Tally:
    """What the games exercised, so that a chunk can insist its checks were not idle."""

    outcomes: Counter[str] = field(default_factory=Counter)
    first_players: Counter[int] = field(default_factory=Counter)
    moves: Counter[str] = field(default_factory=Counter)
    refusals: Counter[str] = field(default_factory=Counter)
    exact_messages: int = 0
    scans: int = 0
    removed: int = 0
    spared_by_variant: int = 0
    equal_ends: int = 0
    kept_ascending: int = 0
    reshuffles: int = 0
    second_reshuffles: int = 0
    opening_discards: int = 0
    prolonged_openings: int = 0
    full_slots: int = 0
    crowded_slots: int = 0  # more than 3 face cards (Unbegrenzte Bildkarten)
    double_kings: int = 0  # a card with two kings or more
    hidden_queens: int = 0  # a queen under a number card that is not last (Damen überall)
    founding_suits: int = 0  # a caravan whose suit is neither its last card's nor a queen's
    duplicates_in_hand: int = 0
    extra_jokers: int = 0  # JK3, JK4 played (Doppeldeck)
    shown_hands: int = 0
    decks: set[tuple[str, ...]] = field(default_factory=set)
    resamples: int = 0
    resample_changed: int = 0


def decoded(state: spielwerk.State) -> tuple[str, Data]:
    text: str = state.serialize()
    data: Data = json.loads(text)
    return text, data


def check_deal(data: Data, rules: dict[str, bool], tally: Tally, where: str) -> list[list[str]]:
    """C1, C2, C10: eight cards each from an own deck, nothing on the table, both openings
    ahead; returns each player's cards (their deck), which every later state must keep."""
    assert data["rules"] == rules, where
    assert data["caravans"] == [{"slots": []}] * NUM_CARAVANS, where
    assert data["discards"] == [[], []] and data["opening_done"] == [False, False], where
    assert data["reshuffles"] == [0, 0] and data["outcome"] is None and data["history"] == [], where
    assert data["first_player"] in (0, 1) and data["current"] == data["first_player"], f"{where}: C1"
    tally.first_players[data["first_player"]] += 1
    cards = []
    for p in (0, 1):
        hand = data["hands"][p]
        assert len(hand) == HAND_SIZE and hand == sorted_cards(hand), f"{where}: hand {p} {hand}"
        mine = player_cards(data, p)
        assert deck_problems(mine, rules) == [], f"{where}: player {p}: {deck_problems(mine, rules)}"
        assert len(data["decks"][p]) == sum(mine.values()) - HAND_SIZE, where
        cards.append(held_cards(data, p))
        shown = data["shown_hands"][p]
        if rules["fresh_hand"]:
            # C10 Frische Hand: a hand with fewer than 3 number cards is shown and dealt again.
            assert sum(is_number(card) for card in hand) >= 3, f"{where}: Frische Hand kept {hand}"
            for rejected in shown:
                assert len(rejected) == HAND_SIZE and rejected == sorted_cards(rejected), where
                assert sum(is_number(card) for card in rejected) < 3, f"{where}: shown {rejected}"
                assert Counter(rejected) <= mine, f"{where}: shown {rejected} is not from the deck"
            tally.shown_hands += len(shown)
        else:
            assert shown == [], where
        if rules["short_deck"]:
            tally.decks.add(tuple(sorted_cards(mine.elements())))
    return cards


def check_views(state: spielwerk.State, data: Data, players: tuple[int, ...], where: str) -> None:
    """Each view is exactly what the oracle lets a player see, never the other hand."""
    public = public_view(data)
    # A spectator sees the same, without a hand.
    assert state.public_view() == {**public, "player": None, "hand": None}, f"{where}: public view"
    for p in players:
        view: Data = state.view(p)
        assert set(view) == VIEW_KEYS, f"{where}: view keys {sorted(view)}"
        if view != expected_view(data, p, public):
            expected = expected_view(data, p, public)
            wrong = {key: (view[key], expected[key]) for key in expected if view[key] != expected[key]}
            pytest.fail(f"{where}: view {p} differs (engine, oracle): {wrong}")
    for p in (0, 1):
        assert state.hand(p) == data["hands"][p], where


def check_round_trips(
    game: spielwerk.Game, state: spielwerk.State, text: str, rng: random.Random, where: str
) -> None:
    restored = game.deserialize_state(text)
    assert restored == state and restored.serialize() == text, f"{where}: deserialize(serialize())"
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled == state and unpickled.serialize() == text, f"{where}: pickle"
    assert copy.copy(state) == state and copy.deepcopy(state) == state, where
    clone = state.clone()
    assert clone == state, f"{where}: clone"
    legal: list[int] = state.legal_actions()
    if legal:
        clone.apply_action(rng.choice(legal))
        assert clone != state, f"{where}: an action changes a clone"
        assert state.serialize() == text, f"{where}: acting on a clone leaves the original alone"


def check_resample(
    game: spielwerk.Game,
    state: spielwerk.State,
    data: Data,
    decks: list[list[str]],
    players: Sequence[int],
    rng: random.Random,
    tally: Tally,
    where: str,
) -> None:
    """A resample for p deals anew only what p cannot see, and keeps view(p)."""
    rules = data["rules"]
    for p in players:
        q = 1 - p
        seed = rng.randrange(2**64)
        resampled = state.resample(p, seed)
        assert resampled.view(p) == state.view(p), f"{where}: resample({p}) keeps view({p})"
        assert resampled == game.state_from_view(state.view(p), seed), f"{where}: state_from_view"
        _, new = decoded(resampled)
        game.deserialize_state(resampled.serialize())  # a consistent state
        public = ("rules", "discards", "opening_done", "reshuffles", "reshuffled", "shown_hands")
        for key in (*public, "first_player", "outcome"):
            assert new[key] == data[key], f"{where}: resample({p}) changed {key}"
        # (whose turn it would be after the end, and Fester Kurs' `kept` while no caravan
        # ends in two equal values, mean nothing: the view carries neither)
        assert comparable(new)["caravans"] == comparable(data)["caravans"], f"{where}: resample({p})"
        if data["outcome"] is None:
            assert new["current"] == data["current"], f"{where}: resample({p}) changed current"
        # The view carries no history, so neither does a state built from it.
        assert new["history"] == [] and resampled.history() == [], f"{where}: resample({p}) history"
        assert new["hands"][p] == data["hands"][p], where
        for r in (0, 1):
            assert len(new["hands"][r]) == len(data["hands"][r]), where
            assert len(new["decks"][r]) == len(data["decks"][r]), where
            if rules["short_deck"]:
                # Kurzes Deck: even which 30 cards make a deck is hidden; seen cards stay.
                assert deck_problems(player_cards(new, r), rules) == [], f"{where}: {r}"
            else:
                assert held_cards(new, r) == decks[r], f"{where}: resample({p}), player {r}"
        if p == data["current"] or data["outcome"] is not None:
            # What the mover may do depends only on what the mover sees.
            assert resampled.legal_actions() == state.legal_actions(), where
        if data["hands"][q] and data["decks"][q]:
            tally.resamples += 1
            tally.resample_changed += (new["hands"][q], new["decks"][q]) != (
                data["hands"][q],
                data["decks"][q],
            )


def check_refusal(
    state: spielwerk.State, data: Data, action: int, text: str, tally: Tally, where: str
) -> None:
    """`action` is refused naming a ruling that forbids it (the fixed wording where there is
    one), check_move gives the same reason, and nothing changes."""
    move = decode(action, data["rules"])
    reasons = refusal_reasons(data, move)
    assert reasons, f"{where}: the oracle allows {move}"
    try:
        state.apply_action(action)
    except spielwerk.IllegalActionError as error:
        message = str(error)
    else:
        pytest.fail(f"{where}: {move} applied")
    assert RULING_PREFIX.match(message), f"{where}: {move}: {message!r}"
    ruling = message.split(":")[0]
    assert ruling in {r for r, _ in reasons}, f"{where}: {move}: {message!r}, expected one of {reasons}"
    if len(reasons) == 1 and reasons[0][1] is not None:
        assert message == reasons[0][1], f"{where}: {move}"
        tally.exact_messages += 1
    assert check_text(state, state.action_to_json(action)) == message, where
    assert state.serialize() == text, f"{where}: refused action {move} changed the state"
    tally.refusals[ruling] += 1


def random_move(data: Data, rng: random.Random) -> dict[str, Any]:
    """A random move with a card of the mover's hand (or a disband): the ones worth refusing."""
    me = data["current"]
    kind = rng.choice(["play", "play", "play", "discard", "disband"])
    if kind == "disband" or not data["hands"][me]:
        return {"type": "disband", "caravan": rng.randrange(NUM_CARAVANS)}
    card = rng.choice(data["hands"][me])
    if kind == "discard":
        return {"type": "discard", "card": card}
    caravan = rng.randrange(NUM_CARAVANS)
    if is_number(card):
        return {"type": "play", "card": card, "caravan": caravan}
    # Positions up to one past the last number card (the first that does not exist).
    position = rng.randrange(len(data["caravans"][caravan]["slots"]) + 1)
    return {"type": "play", "card": card, "caravan": caravan, "position": position}


def probe_refusal(
    state: spielwerk.State,
    data: Data,
    legal: list[int],
    text: str,
    rng: random.Random,
    tally: Tally,
    where: str,
) -> None:
    """A random refused action: mostly one with a card of the mover's hand, else any id."""
    rules = data["rules"]
    legal_set = set(legal)
    if rng.random() < 0.8:
        for _ in range(8):
            action = encode(random_move(data, rng), rules)
            if action not in legal_set:
                check_refusal(state, data, action, text, tally, where)
                return
    action = rng.randrange(num_actions(rules))
    while action in legal_set:
        action = rng.randrange(num_actions(rules))
    check_refusal(state, data, action, text, tally, where)


def scan_every_action(
    state: spielwerk.State, data: Data, legal: list[int], text: str, tally: Tally, where: str
) -> None:
    """Every action id: the legal ones apply (to a clone) and check_move has nothing against
    them, the others are refused; those with a card of the mover's hand (and the disbands)
    are refused naming a ruling the oracle names. Nothing changes."""
    rules = data["rules"]
    assert legal == legal_actions_by_refusals(data), f"{where}: the oracle's two ways agree"
    legal_set = set(legal)
    for action in legal:
        assert check_text(state, state.action_to_json(action)) is None, f"{where}: {action}"
        clone = state.clone()
        clone.apply_action(action)
        assert clone.history()[-1] == action, where
    for action in range(num_actions(rules)):
        if action in legal_set:
            continue
        # (try/except rather than pytest.raises: this runs millions of times)
        try:
            state.apply_action(action)
        except spielwerk.IllegalActionError:
            pass
        else:
            pytest.fail(f"{where}: {decode(action, rules)} is not offered but applied")
    # The reasons: for every move with a card of the mover's hand, and a sample of the rest.
    sample = {encode(move, rules) for move in candidate_moves(data)} | set(range(0, num_actions(rules), 97))
    for action in sorted(sample - legal_set):
        check_refusal(state, data, action, text, tally, where)
    assert state.serialize() == text, f"{where}: refused actions change nothing"
    tally.scans += 1


def check_transition(before: Data, action: int, after: Data, tally: Tally, where: str) -> None:
    """The engine's next state is the oracle's."""
    prediction = apply(before, action)
    expected = resolve(prediction, after)
    if comparable(after) != comparable(expected):
        got, want = comparable(after), comparable(expected)
        wrong = {key: (got.get(key), want[key]) for key in want if got.get(key) != want[key]}
        pytest.fail(f"{where}: after {decode(action, before['rules'])} (engine, oracle): {wrong}")
    for p in (0, 1):
        if prediction.reshuffled != p:
            # Discard piles only grow, on top.
            old = before["discards"][p]
            assert after["discards"][p][: len(old)] == old, f"{where}: discard pile {p}"
    tally.removed += prediction.removed
    tally.spared_by_variant += prediction.spared_by_variant
    tally.equal_ends += prediction.equal_ends
    tally.kept_ascending += prediction.kept_ascending
    if prediction.reshuffled is not None:
        tally.reshuffles += 1
        tally.second_reshuffles += after["reshuffles"][prediction.reshuffled] == 2


def note_state(before: Data, action: int, after: Data, tally: Tally) -> None:
    """Counts what an action and the state after it exercised."""
    rules = after["rules"]
    move = decode(action, rules)
    me = before["current"]
    card = move.get("card")
    kind = move["type"]
    hand = after["hands"][me]
    tally.duplicates_in_hand += len(set(hand)) < len(hand)
    if kind == "discard" and not before["opening_done"][me]:
        tally.opening_discards += 1
    if kind != "play" or card is None:
        tally.moves[kind] += 1
        return
    kind = (
        "number" if is_number(card) else {11: "jack", 12: "queen", 13: "king", None: "joker"}[rank_of(card)]
    )
    tally.moves[kind] += 1
    tally.extra_jokers += card in JOKERS[2:]
    caravan = after["caravans"][move["caravan"]]
    slots = caravan["slots"]
    if kind == "jack":
        opponent = 1 - me
        emptied = not before["opening_done"][opponent] and move["caravan"] in own_caravans(opponent)
        tally.prolonged_openings += emptied and not slots
    elif kind != "number":
        # (a joker may have taken cards before its own: count from the state before)
        slot = before["caravans"][move["caravan"]]["slots"][move["position"]]
        faces = [*(face["card"] for face in slot["faces"]), card]
        tally.full_slots += len(faces) == 3
        tally.crowded_slots += len(faces) > 3
        tally.double_kings += kind == "king" and sum(rank_of(face) == KING for face in faces) >= 2
        tally.hidden_queens += kind == "queen" and move["position"] < len(slots) - 1
    if (
        rules["founding_suit"]
        and slots
        and all(rank_of(face["card"]) != QUEEN for face in slots[-1]["faces"])
    ):
        tally.founding_suits += caravan_suit(caravan, rules) != suit_name(slots[-1]["number"]["card"])


def check_status(state: spielwerk.State, data: Data, where: str) -> None:
    outcome = data["outcome"]
    assert state.is_terminal() == (outcome is not None), where
    assert state.current_player() == (spielwerk.TERMINAL if outcome is not None else data["current"]), where
    assert state.returns() == expected_returns(outcome), f"{where}: R1"


def play_checked_game(
    game: spielwerk.Game, rules: dict[str, bool], seed: int, tally: Tally
) -> spielwerk.State:
    """Plays one RandomBot game, checking every invariant after every action."""
    state = game.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    rng = random.Random(seed)
    text, data = decoded(state)
    decks = check_deal(data, rules, tally, f"{rules} seed {seed} deal")
    check_views(state, data, (0, 1), f"seed {seed} deal")
    check_status(state, data, f"seed {seed} deal")
    limit = max_actions(rules)
    # Every action id is tried at one state of the game (of every other standard game).
    scan_at = 6 + rng.randrange(30) if any(rules.values()) or seed % 2 == 0 else -1
    label = f"{[v for v in VARIANTS if rules[v]] or 'standard'} seed {seed}"
    for step in range(limit + 1):
        where = f"{label} step {step}"
        if step % ROUND_TRIP_EVERY == 0 or state.is_terminal():
            check_round_trips(game, state, text, rng, where)
            # A resample for one player (each in turn), for both at the end.
            players = (0, 1) if state.is_terminal() else (step // ROUND_TRIP_EVERY % 2,)
            check_resample(game, state, data, decks, players, rng, tally, where)
        if state.is_terminal():
            break
        assert step < limit, f"seed {seed}: no end after {limit} actions"

        legal: list[int] = state.legal_actions()
        assert legal == sorted(set(legal)), f"{where}: sorted, no repeats"
        expected = legal_actions(data)
        if legal != expected:
            moves = [decode(a, rules) for a in sorted(set(legal) ^ set(expected))]
            pytest.fail(f"{where}: legal actions differ from the oracle's on {moves}")
        mask = state.legal_actions_mask()
        assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_, where
        assert mask.shape == (num_actions(rules),), where
        assert np.flatnonzero(mask).tolist() == legal, f"{where}: the mask agrees with legal_actions"
        if step == scan_at:
            scan_every_action(state, data, legal, text, tally, where)
        if step % 2 == seed % 2:
            probe_refusal(state, data, legal, text, rng, tally, where)

        action: int = bot.step(state)
        assert action in legal, f"{where}: the bot chose {action}, not in {legal}"
        state.apply_action(action)
        assert state.history() == [*data["history"], action], where
        before, (text, data) = data, decoded(state)
        check_transition(before, action, data, tally, where)
        for p in (0, 1):
            assert held_cards(data, p) == decks[p], f"{where}: C1, player {p}'s cards"
        if step % CHECK_EVERY == 0:
            assert table_problems(data) == [], f"{where}: {table_problems(data)}"
        check_views(state, data, (0, 1) if step % CHECK_EVERY == 0 else (step % 2,), where)
        check_status(state, data, where)
        note_state(before, action, data, tally)

    assert state.is_terminal() and state.legal_actions() == [], f"seed {seed}"
    assert not state.legal_actions_mask().any()
    outcome = data["outcome"]
    assert outcome == expected_outcome(data), f"seed {seed}: C9"
    assert outcome is not None
    if outcome["reason"] == "out_of_cards":
        loser = 1 - outcome["winner"]
        assert data["hands"][loser] == [] and data["decks"][loser] == [], f"seed {seed}: C9"
        assert None in [v["sold_by"] for v in state.view(0)["pairs"]], f"seed {seed}: C9 selling first"
    for action in (state.history()[-1], 0):
        with pytest.raises(spielwerk.IllegalActionError, match=r"^C9: "):
            state.apply_action(action)
    with pytest.raises(ValueError, match="over"):
        bot.step(state)
    tally.outcomes[outcome["reason"]] += 1
    return state


def replay(game: spielwerk.Game, seed: int) -> list[int]:
    state = game.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    history: list[int] = state.history()
    return history


def replay_history(game: spielwerk.Game, seed: int, history: list[int]) -> spielwerk.State:
    state = game.new_initial_state(seed=seed)
    for action in history:
        state.apply_action(action)
    return state


def seeds_showing_hands(rules: dict[str, bool], count: int) -> list[int]:
    """Seeds whose deal shows a hand (Frische Hand): rare, about 1 hand in 400."""
    game = spielwerk.load_game(GAME_NAME, **rules)
    found = []
    for seed in range(100_000):
        if any(game.new_initial_state(seed=seed).view(0)["shown_hands"]):
            found.append(seed)
            if len(found) == count:
                return found
    pytest.fail("no seed shows a hand")


def seeds_keeping_ascending(rules: dict[str, bool], count: int) -> list[int]:
    """Seeds whose RandomBot game (played unchecked) has a jack or joker leave two equal values
    at the end of a caravan that was ascending before: where Fester Kurs differs from the
    standard rules (a few games in a hundred)."""
    game = spielwerk.load_game(GAME_NAME, **rules)
    found = []
    for seed in range(10_000):
        state = game.new_initial_state(seed=seed)
        bot = spielwerk.RandomBot(seed)
        while not state.is_terminal():
            action: int = bot.step(state)
            card = decode(action, rules).get("card")
            if card is None or rank_of(card) not in (JACK, None):
                state.apply_action(action)
                continue
            before = state.view(0)["caravans"]
            state.apply_action(action)
            for old, new in zip(before, state.view(0)["caravans"], strict=True):
                values = [value_of(c["card"]) for c in new["cards"]]
                was = [value_of(c["card"]) for c in old["cards"]]
                if len(values) >= 2 and values[-1] == values[-2] and len(was) >= 2 and was[-1] > was[-2]:
                    found.append(seed)
                    break
            if found and found[-1] == seed:
                break
        if len(found) == count:
            return found
    pytest.fail("no game keeps an ascending direction")


def play_checked_games(rules: dict[str, bool], seeds: Sequence[int]) -> Tally:
    game = spielwerk.load_game(GAME_NAME, **rules)
    tally = Tally()
    for seed in seeds:
        final = play_checked_game(game, rules, seed, tally)
        assert replay(game, seed) == final.history(), f"seed {seed}: same seed, same game"
        assert replay_history(game, seed, final.history()) == final, (
            f"seed {seed}: the history makes the game"
        )
    # Every chunk must have exercised what it checks.
    assert tally.first_players[0] > 0 and tally.first_players[1] > 0, tally.first_players
    assert tally.scans > len(seeds) * 0.4, tally.scans
    assert {"C2", "C5", "C6", "C8"} <= set(tally.refusals), tally.refusals
    assert tally.exact_messages > 0, tally
    assert {"number", "jack", "queen", "king", "joker", "discard", "disband"} <= set(tally.moves), tally.moves
    assert tally.removed > 0 and tally.full_slots > 0, tally
    assert tally.resample_changed > tally.resamples // 2, tally
    return tally


@pytest.mark.slow
@pytest.mark.parametrize("first_seed", range(0, STANDARD_GAMES, CHUNK))
def test_standard_games_keep_every_invariant(first_seed: int) -> None:
    tally = play_checked_games(STANDARD, range(first_seed, first_seed + CHUNK))
    assert tally.outcomes["sold"] > 0 and tally.outcomes["out_of_cards"] > 0, tally.outcomes
    assert tally.equal_ends > 0 and tally.double_kings > 0, tally
    assert tally.reshuffles == tally.spared_by_variant == tally.crowded_slots == 0, tally


# For each variant: what its games must show at least once.
VARIANT_EVIDENCE: dict[str, str] = {
    "queens_anywhere": "hidden_queens",
    "kings_add": "double_kings",
    "founding_suit": "founding_suits",
    "unlimited_face_cards": "crowded_slots",
    "quick_sale": "quick_sale",
    "reshuffle": "second_reshuffles",
    "short_deck": "decks",
    "double_deck": "extra_jokers",
    "queens_shield": "spared_by_variant",
    "fixed_course": "kept_ascending",
    "fresh_hand": "shown_hands",
    "protected_joker": "spared_by_variant",
}


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_variant_games_keep_every_invariant(variant: str) -> None:
    rules = {**STANDARD, variant: True}
    seeds = list(range(1000, 1000 + VARIANT_GAMES))
    # Rare events the variant is about, from seeds found by playing unchecked games first.
    if variant == "fresh_hand":
        seeds[:3] = seeds_showing_hands(rules, 3)
    if variant == "fixed_course":
        seeds[:3] = seeds_keeping_ascending(rules, 3)
    tally = play_checked_games(rules, seeds)
    evidence = VARIANT_EVIDENCE[variant]
    if evidence == "quick_sale":
        assert tally.outcomes["quick_sale"] > 0 and tally.outcomes["sold"] == 0, tally.outcomes
    elif evidence == "decks":
        # (that no deck recurs in another game is test_no_deck_is_dealt_twice_across_seeds)
        assert len(tally.decks) >= VARIANT_GAMES, "the short decks are random cards of a full deck"
    else:
        assert getattr(tally, evidence) > 0, f"{variant}: no {evidence} in {tally}"
    if variant == "double_deck":
        assert tally.duplicates_in_hand > 0, tally
    if variant == "reshuffle":
        assert tally.reshuffles > tally.second_reshuffles > 0, tally


@pytest.mark.parametrize("variant", [None, "short_deck", "double_deck"])
def test_no_deck_is_dealt_twice_across_seeds(variant: str | None) -> None:
    """C1: seeded shuffles, each deck on its own. A deck order (or, Kurzes Deck, which 30
    cards make a deck) that recurs in another seed's game is no accident (1 in 54!): the
    seeds would not be independent, and a seed's game would replay another's."""
    game = spielwerk.load_game(GAME_NAME, **({variant: True} if variant else {}))
    first: dict[tuple[str, ...], tuple[int, int]] = {}
    for seed in range(40):
        data = json.loads(game.new_initial_state(seed=seed).serialize())
        for p in (0, 1):
            deck = tuple(data["decks"][p] + data["hands"][p])
            if variant == "short_deck":
                deck = tuple(sorted(deck))
            assert deck not in first, f"seed {seed} player {p} has the deck of (seed, player) {first[deck]}"
            first[deck] = (seed, p)


def test_pickle_round_trips_games() -> None:
    plain = spielwerk.load_game(GAME_NAME)
    variant = spielwerk.load_game(GAME_NAME, reshuffle=True, short_deck=True)
    for g in (plain, variant):
        restored = pickle.loads(pickle.dumps(g))
        assert restored == g and hash(restored) == hash(g)
        assert restored.options() == g.options()
        assert restored.new_initial_state(seed=9) == g.new_initial_state(seed=9)
    assert plain != variant
    assert variant.options() == {**STANDARD, "reshuffle": True, "short_deck": True}


def test_deserialize_state_checks_the_variants() -> None:
    text = spielwerk.load_game(GAME_NAME, kings_add=True).new_initial_state(seed=2).serialize()
    with pytest.raises(ValueError, match="kings_add=true, this game has kings_add=false"):
        spielwerk.load_game(GAME_NAME).deserialize_state(text)


@pytest.mark.parametrize(
    "rules", [STANDARD, {**STANDARD, "quick_sale": True}, {**STANDARD, "reshuffle": True}]
)
def test_simulate_counts_add_up(rules: dict[str, bool]) -> None:
    """C9, R1 in the counts; that they do not depend on threads or differ by seed is
    checked for every game in test_conformance.py."""
    game = spielwerk.load_game(GAME_NAME, **rules)
    one = spielwerk.simulate(game, 300, seed=11, threads=1)
    assert one.games == 300
    # Only the mover's cards change, so both players never run out at once: no draws.
    assert one.draws == 0 and sum(one.wins) == one.games, one
    assert one.mean_returns[0] == pytest.approx((one.wins[0] - one.wins[1]) / one.games)
    assert one.mean_returns[1] == pytest.approx((one.wins[1] - one.wins[0]) / one.games)
    assert 6 < one.mean_length <= max_actions(rules), one
    if rules == STANDARD:
        assert spielwerk.simulate(GAME_NAME, 300, seed=11, threads=1).as_dict() == one.as_dict()


def test_views_of_a_game_in_progress_hide_the_other_hand_and_the_decks() -> None:
    """Redundant with the exact view comparison above, but says what must never be seen."""
    game = spielwerk.load_game(GAME_NAME)
    state = game.new_initial_state(seed=21)
    bot = spielwerk.RandomBot(21)
    for _ in range(30):
        state.apply_action(bot.step(state))
    data = json.loads(state.serialize())
    for p in (0, 1):
        shown = json.dumps(state.view(p))
        hidden_hand = set(data["hands"][1 - p])
        # A card in the other hand may also lie on the table or in a pile (each player has one).
        seen = set(table_cards(data, 0) + table_cards(data, 1) + data["discards"][0] + data["discards"][1])
        for card in hidden_hand - seen - set(data["hands"][p]):
            assert f'"{card}"' not in shown, f"view {p} shows {card} of the other hand"
        for deck in data["decks"]:
            assert json.dumps(deck) not in shown and json.dumps(deck[::-1]) not in shown


@pytest.mark.parametrize("variants", [("reshuffle",), ("reshuffle", "short_deck")])
def test_a_resample_keeps_what_the_players_saw_of_a_reshuffled_deck(variants: tuple[str, ...]) -> None:
    """C10 Neu mischen: the discard pile that becomes a deck is public (every view shows the
    piles), so from then on that deck holds only cards of that pile. A resample for either
    player must keep to that: it may reorder the deck, and swap its cards with the hidden
    hand, but not put a card into the deck that the players saw was not in the pile."""
    rules = {**STANDARD, **dict.fromkeys(variants, True)}
    game = spielwerk.load_game(GAME_NAME, **rules)
    checked = 0
    for seed in range(6):
        state = game.new_initial_state(seed=seed)
        bot = spielwerk.RandomBot(seed)
        data = json.loads(state.serialize())
        pile: list[Counter[str] | None] = [None, None]
        while not state.is_terminal():
            action: int = bot.step(state)
            state.apply_action(action)
            prediction = apply(data, action)
            data = json.loads(state.serialize())
            if prediction.reshuffled is not None:
                pile[prediction.reshuffled] = Counter(prediction.state["decks"][prediction.reshuffled])
            for q in (0, 1):
                known = pile[q]
                if known is None:
                    continue
                assert Counter(data["decks"][q]) <= known, "the engine's own deck comes from the pile"
                for p in (0, 1):
                    resampled = json.loads(state.resample(p, 7 + checked).serialize())
                    extra = Counter(resampled["decks"][q]) - known
                    assert not extra, (
                        f"seed {seed} after {len(data['history'])} actions: resample({p}) puts "
                        f"{sorted(extra.elements())} into player {q}'s deck, which was rebuilt from a pile "
                        "without them"
                    )
                    checked += 1
    assert checked > 0
