"""Invariants of Schotten Totten over many seeded random games.

Every action of every game is checked: the 54 cards are conserved, the legal actions are
exactly what S3 allows, the views hide the other hand and the pile, turns end and draw as
S3c/S8 say, and games end as S7 and S9 say. Round trips (serialize, pickle, clone,
resample) are checked at every tenth state and at the end of every game.

Two policies play: `spielwerk.RandomBot` (claims whenever it randomly picks a claim,
so most games end by S7), and a seeded `random.Random` policy that nearly always
declines claims, so that most of its games reach the settlement (S9).
"""

from __future__ import annotations

import pickle
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
import spielwerk
from conftest import (
    ALL_CARDS,
    END_TURN,
    GAME_NAME,
    NUM_ACTIONS,
    NUM_STONES,
    PASS,
    RULING_PREFIX,
    claim_action,
    decoded,
    owns_winning_stones,
    plain_settlement,
    play_action,
    settlement_winner,
    table_cards,
)
from move_checks import check_text
from spielwerk import schotten_totten as st

# Upper bound on the length of a game: at most 54 plays (every card once), at most one
# pass per play plus one (two passing turns in a row end the game), at most 9 claims and
# at most one end_turn per turn (turns <= plays + passes): 54 + 55 + 9 + 109 = 227.
MAX_ACTIONS = 227
# Round trips and resampling are checked at every CHECK_EVERY-th state and at the end.
CHECK_EVERY = 10
BOT_GAMES = 1000
RELUCTANT_GAMES = 200
CHUNK = 100
RELUCTANT_SEED_OFFSET = 1_000_000

VIEW_KEYS = {
    "game",
    "player",
    "current_player",
    "phase",
    "hand",
    "hand_sizes",
    "pile_size",
    "stones",
    "turn_passed",
    "passes_in_row",
    "outcome",
}
ALLOWED_FINAL_RETURNS = ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])

Policy = Callable[[spielwerk.State, list[int]], int]


def bot_policy(seed: int) -> Policy:
    bot = spielwerk.RandomBot(seed)

    def choose(state: spielwerk.State, legal: list[int]) -> int:
        action: int = bot.step(state)
        return action

    return choose


def reluctant_policy(seed: int) -> Policy:
    """Uniform among plays; declines claims nine times in ten, so games reach S9."""
    rng = random.Random(seed)

    def choose(state: spielwerk.State, legal: list[int]) -> int:
        if END_TURN in legal and rng.random() < 0.9:
            return END_TURN
        return rng.choice(legal)

    return choose


def first_player_of(seed: int) -> int:
    # Every fifth game starts with player 1 (S2: the first_player option).
    return 1 if seed % 5 == 4 else 0


CARD_TOKEN = re.compile(r"'([ROYGBP][1-9])'")


def cards_in(value: Any) -> set[str]:
    """Every card written anywhere in a JSON-like value (keys included), via its repr."""
    return set(CARD_TOKEN.findall(repr(value)))


def lists_in(value: Any) -> Iterator[list[Any]]:
    if isinstance(value, list):
        yield value
        for item in value:
            yield from lists_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from lists_in(item)


def provable_stones(data: dict[str, Any], player: int) -> list[int]:
    """Unowned stones with the player's three cards whose claim st.check_claim proves (S5)."""
    table = table_cards(data)
    stones = []
    for i, stone in enumerate(data["stones"]):
        mine, theirs = stone["sides"][player], stone["sides"][1 - player]
        if stone["owner"] is None and len(mine) == 3:
            check = st.check_claim(mine, theirs, table, stone["completed_first"] == player)
            if check.provable:
                stones.append(i)
    return stones


def expected_legal_actions(data: dict[str, Any]) -> list[int]:
    """S3 from the full state: the plays (or the pass), or the claims and end_turn."""
    me = data["current"]
    if data["phase"] == "over":
        return []
    if data["phase"] == "play":
        # S3a: a hand card onto an unowned stone with fewer than three of the player's cards.
        open_stones = [
            i
            for i, stone in enumerate(data["stones"])
            if stone["owner"] is None and len(stone["sides"][me]) < 3
        ]
        plays = sorted(play_action(card, s) for card in data["hands"][me] for s in open_stones)
        return plays or [PASS]
    assert data["phase"] == "claim", data["phase"]
    return [claim_action(s) for s in provable_stones(data, me)] + [END_TURN]


def check_facts(data: dict[str, Any], facts: list[dict[str, Any] | None], where: str) -> None:
    """The stones' facts against the full state: each side's claim proof (S5), the legal
    claims (S3b), and the best formation of a side (S6) wherever the claim proof of the
    other side shows it (the Rust tests compare every stone with the proof itself)."""
    table = table_cards(data)
    legal = expected_legal_actions(data)
    assert len(facts) == NUM_STONES, where
    for i, (stone, fact) in enumerate(zip(data["stones"], facts, strict=True)):
        if stone["owner"] is not None:
            assert fact is None, f"{where}: owned stone {i} has facts"
            continue
        assert fact is not None, f"{where}: unowned stone {i} has no facts"
        assert fact["claimable"] == (claim_action(i) in legal), f"{where}: stone {i}"
        sides = stone["sides"]
        for p in (0, 1):
            best = fact["best"][1 - p]
            if len(sides[p]) < 3:
                assert not fact["provable"][p], f"{where}: stone {i}"
                continue
            check = st.check_claim(sides[p], sides[1 - p], table, stone["completed_first"] == p)
            assert fact["provable"][p] == check.provable, f"{where}: stone {i} player {p}"
            keys = ("cards", "formation", "sum", "complete")
            shown = None if best is None else tuple(best[k] for k in keys)
            proof = (
                None
                if check.best_cards is None
                else (check.best_cards, check.best_formation, check.best_sum, len(sides[1 - p]) == 3)
            )
            assert shown == proof, f"{where}: stone {i}, the best side of player {1 - p}"


def check_settlement_shown(data: dict[str, Any], settlement: dict[str, Any] | None, where: str) -> None:
    """A game ended by the settlement (S9) shows it step by step: every stone it decided in
    the step its award names, why, and step 4's count; no other state shows one."""
    outcome = data["outcome"]
    assert (settlement is not None) == (outcome is not None and outcome["reason"] == "settlement"), where
    if settlement is None:
        return
    expected: list[list[dict[str, Any]]] = [[], [], [], []]
    for i, stone in enumerate(data["stones"]):
        a, b = stone["sides"]
        award = stone["award"]
        if award == "claim":
            continue
        step, by = {
            "settlement_proof": (0, "provable"),
            "settlement_complete": (1, "complete"),
            None: (2, "tie"),
        }.get(award, (2, "more_cards" if len(a) != len(b) else "higher_sum"))
        expected[step].append({"stone": i, "owner": stone["owner"], "by": by})
    assert [step["stones"] for step in settlement["steps"]] == expected, where
    assert [step["step"] for step in settlement["steps"]] == [1, 2, 3, 4], where
    counts = [sum(s["owner"] == p for s in data["stones"]) for p in (0, 1)]
    assert settlement["counts"] == counts, where
    for step in settlement["steps"]:
        assert step["text"]["de"].startswith(f"{step['step']}. "), where
        assert step["text"]["en"].startswith(f"{step['step']}. "), where


def check_conservation(data: dict[str, Any], where: str) -> None:
    places = data["pile"] + data["hands"][0] + data["hands"][1] + table_cards(data)
    assert sorted(places) == sorted(ALL_CARDS), f"{where}: every card exactly once; {Counter(places)}"


def check_views(state: spielwerk.State, data: dict[str, Any], where: str, *, thorough: bool) -> None:
    """view(p) is exactly the public state plus p's own hand: no other hand, no pile order."""
    pile: list[str] = data["pile"]
    public = {
        "game": GAME_NAME,
        "current_player": None if data["phase"] == "over" else data["current"],
        "phase": data["phase"],
        "hand_sizes": [len(data["hands"][0]), len(data["hands"][1])],
        "pile_size": len(pile),
        "stones": [
            {
                "cards": stone["sides"],
                "owner": stone["owner"],
                "award": stone["award"],
                "completed_first": stone["completed_first"],
            }
            for stone in data["stones"]
        ],
        "turn_passed": data["turn_passed"],
        "passes_in_row": data["passes_in_row"],
        "outcome": data["outcome"],
    }
    public_view: dict[str, Any] = state.public_view()
    facts = [stone.pop("facts") for stone in public_view["stones"]]
    check_facts(data, facts, where)
    settlement = public_view.pop("settlement", None)
    check_settlement_shown(data, settlement, where)
    for p in (0, 1):
        view: dict[str, Any] = state.view(p)
        # The settlement (S9) comes from the table alone, the same in every view.
        assert view.pop("settlement", None) == settlement, f"{where}: settlement of view {p}"
        assert set(view) == VIEW_KEYS, f"{where}: view keys {sorted(view)}"
        # The stones' facts (S5, S6) name completions from every card not at a stone, the
        # other hand's included; they come from the table alone, the same in every view.
        assert [stone.pop("facts") for stone in view["stones"]] == facts, f"{where}: facts of view {p}"
        expected = {**public, "player": p, "hand": sorted(data["hands"][p])}
        assert {**view, "hand": sorted(view["hand"])} == expected, f"{where}: view {p}"
        if thorough:
            # Redundant with the equality above, but says what must never be seen: the other
            # hand and the pile (cards at stones are in no hand), nor the pile's order.
            hidden = set(data["hands"][1 - p]) | set(pile)
            leaked = hidden & cards_in(view)
            assert not leaked, f"{where}: view {p} shows hidden cards {sorted(leaked)}"
            if pile:
                for shown_list in lists_in(view):
                    assert shown_list not in (pile, pile[::-1]), f"{where}: view {p} shows the pile order"


def check_round_trips(
    game: spielwerk.Game, state: spielwerk.State, rng: random.Random, tally: Tally, where: str
) -> None:
    text: str = state.serialize()
    restored = game.deserialize_state(text)
    assert restored == state, f"{where}: deserialize(serialize(state)) == state"
    assert restored.serialize() == text, where
    assert restored.history() == state.history(), where
    unpickled = pickle.loads(pickle.dumps(state))
    assert unpickled == state, f"{where}: pickle round trip"
    assert unpickled.serialize() == text, where
    copy = state.clone()
    assert copy == state, f"{where}: clone"
    legal: list[int] = state.legal_actions()
    if legal:
        copy.apply_action(rng.choice(legal))
        assert copy != state, f"{where}: a clone is independent (an action changed it)"
        assert state.serialize() == text, f"{where}: acting on a clone leaves the original alone"
    for action in legal:
        # Every offered action applies.
        state.clone().apply_action(action)
    for p in (0, 1):
        resampled = state.resample(p, rng.randrange(2**32))
        assert resampled.view(p) == state.view(p), f"{where}: resample({p}) keeps view({p})"
        assert resampled.hand(p) == state.hand(p), where
        data, new = decoded(state), decoded(resampled)
        assert new["stones"] == data["stones"], where
        assert new["history"] == [], where  # a view carries no history: state_from_view starts none
        # The hidden cards are redealt among the same places and sizes.
        assert sorted(new["hands"][1 - p] + new["pile"]) == sorted(data["hands"][1 - p] + data["pile"])
        assert len(new["hands"][1 - p]) == len(data["hands"][1 - p])
        check_conservation(new, f"{where} (resampled for {p})")
        game.deserialize_state(resampled.serialize())  # a consistent state
        if (new["hands"][1 - p], new["pile"]) != (data["hands"][1 - p], data["pile"]):
            tally.resample_changed += 1
        tally.resamples += 1


def check_every_action(state: spielwerk.State, legal: list[int], where: str) -> None:
    """All 497 actions: the offered ones apply (to a clone), the others are refused."""
    before: str = state.serialize()
    for action in range(NUM_ACTIONS):
        if action in legal:
            copy = state.clone()
            copy.apply_action(action)
            assert copy.history()[-1] == action, where
        else:
            # (try/except rather than pytest.raises: this runs half a million times)
            try:
                state.apply_action(action)
            except spielwerk.IllegalActionError as error:
                assert RULING_PREFIX.match(str(error)), f"{where}: action {action}: {error}"
            else:
                pytest.fail(f"{where}: action {action} is not offered but applied")
    assert state.serialize() == before, f"{where}: refused actions change nothing"


def check_settlement(before: dict[str, Any], after: dict[str, Any], where: str) -> None:
    """S9 recomputed from the final table with the brute-force proof of S5."""
    for i, (stone, old) in enumerate(zip(after["stones"], before["stones"], strict=True)):
        if stone["award"] == "claim":
            # Claimed in play (possibly by the turn's last action); not touched by S9.
            assert old["owner"] in (None, stone["owner"]), f"{where}: stone {i}"
        else:
            assert old["owner"] is None, f"{where}: stone {i} was owned before the settlement"
    unsettled = [
        {**stone, "owner": None, "award": None} if stone["award"] != "claim" else stone
        for stone in after["stones"]
    ]
    expected = plain_settlement(unsettled)
    got = [None if stone["owner"] is None else (stone["owner"], stone["award"]) for stone in after["stones"]]
    assert got == expected, f"{where}: S9 steps 1-3"
    winner = settlement_winner([stone["owner"] for stone in after["stones"]])
    assert after["outcome"] == {"winner": winner, "reason": "settlement"}, f"{where}: S9 step 4"


@dataclass
class Tally:
    outcomes: Counter[str] = field(default_factory=Counter)
    claim_phases: int = 0
    passes: int = 0
    empty_pile_turns: int = 0
    resamples: int = 0
    resample_changed: int = 0
    illegal_probes: int = 0


def play_checked_game(seed: int, policy: Policy, tally: Tally) -> spielwerk.State:
    """Plays one game, checking every invariant after every action; returns the final state."""
    game = spielwerk.load_game(GAME_NAME, first_player=first_player_of(seed))
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    full_scan_at = 5 + seed % 30
    data = decoded(state)
    check_conservation(data, f"seed {seed} start")
    check_views(state, data, f"seed {seed} start", thorough=True)
    assert state.current_player() == first_player_of(seed), "S2: first_player moves first"
    assert [len(h) for h in data["hands"]] == [6, 6] and len(data["pile"]) == 42, "S2"
    history: list[int] = []
    this_turn_passed = False
    last_turn_passed = False
    for step in range(MAX_ACTIONS + 1):
        where = f"seed {seed} step {step}"
        if step % CHECK_EVERY == 0 or state.is_terminal():
            check_round_trips(game, state, rng, tally, where)
        if state.is_terminal():
            break
        assert step < MAX_ACTIONS, f"seed {seed}: no end after {MAX_ACTIONS} actions"
        mover = data["current"]
        assert state.current_player() == mover
        assert state.returns() == [0.0, 0.0], f"{where}: returns are zero while the game runs"

        legal: list[int] = state.legal_actions()
        mask = state.legal_actions_mask()
        assert isinstance(mask, np.ndarray) and mask.dtype == np.bool_ and mask.shape == (NUM_ACTIONS,)
        assert legal == sorted(set(legal)), f"{where}: sorted, no repeats"
        assert legal == np.flatnonzero(mask).tolist(), f"{where}: mask agrees with legal_actions"
        assert legal == expected_legal_actions(data), f"{where}: S3 ({data['phase']})"
        if data["phase"] == "claim":
            # The claim step is entered only with a provable stone (mod.rs, S3b).
            assert len(legal) >= 2, where
            tally.claim_phases += 1
        if step == full_scan_at:
            check_every_action(state, legal, where)

        # A random refused action changes nothing and names its ruling.
        illegal = rng.choice(sorted(set(range(NUM_ACTIONS)) - set(legal)))
        text: str = state.serialize()
        with pytest.raises(spielwerk.IllegalActionError) as info:
            state.apply_action(illegal)
        assert RULING_PREFIX.match(str(info.value)), f"{where}: {illegal}: {info.value}"
        assert check_text(state, state.action_to_json(illegal)) == str(info.value), where
        assert state.serialize() == text, f"{where}: refused action {illegal} changed the state"
        tally.illegal_probes += 1

        action = policy(state, legal)
        assert action in legal, f"{where}: the policy chose {action}, not in {legal}"
        state.apply_action(action)
        history.append(action)
        assert state.history() == history, where
        if action == PASS:
            this_turn_passed = True
            tally.passes += 1

        before, data = data, decoded(state)
        check_conservation(data, where)
        check_views(state, data, where, thorough=step % CHECK_EVERY == 0)

        outcome = data["outcome"]
        settled = outcome is not None and outcome["reason"] == "settlement"
        turn_ended = settled or (outcome is None and data["current"] != mover)
        if turn_ended:
            # S3c/S8: the mover draws the top (last) card of the pile if there is one.
            if before["pile"]:
                assert data["pile"] == before["pile"][:-1], f"{where}: one card drawn"
                assert before["pile"][-1] in data["hands"][mover], f"{where}: the top card is drawn"
            else:
                tally.empty_pile_turns += 1
                assert data["pile"] == [], where
            # S9: two turns in a row, one by each player, that were passes settle the game.
            assert settled == (this_turn_passed and last_turn_passed), f"{where}: S9 settles"
            last_turn_passed, this_turn_passed = this_turn_passed, False
            if not settled and action != END_TURN:
                # The turn ended by itself: nothing was left to claim (S3b).
                assert provable_stones(data, mover) == [], f"{where}: turn ended with a provable stone"
        else:
            assert data["pile"] == before["pile"], f"{where}: no draw in the middle of a turn"
        if outcome is None:
            assert not turn_ended or data["phase"] == "play"
            # S7 wins at once: a running game has no player with five or three adjacent stones.
            owners = [s["owner"] for s in data["stones"]]
            assert owns_winning_stones(owners, 0) is None and owns_winning_stones(owners, 1) is None, where
        elif outcome["reason"] != "settlement":
            # S7: only a claim wins at once, and the claimer is the winner.
            assert action - claim_action(0) in range(NUM_STONES), f"{where}: S7 after {action}"
            assert outcome["winner"] == mover, where
            owners = [s["owner"] for s in data["stones"]]
            if outcome["reason"] == "five_stones":
                assert owners.count(mover) == 5, f"{where}: five stones {owners}"
            else:
                assert outcome["reason"] == "three_adjacent", outcome
                assert owns_winning_stones(owners, mover) == "three_adjacent", f"{where}: {owners}"
            assert all(s["award"] in (None, "claim") for s in data["stones"]), where
        else:
            check_settlement(before, data, where)

    assert state.is_terminal()
    assert state.current_player() == spielwerk.TERMINAL
    assert state.legal_actions() == []
    assert not state.legal_actions_mask().any()
    returns: list[float] = state.returns()
    assert returns in ALLOWED_FINAL_RETURNS, f"seed {seed}: returns {returns}"
    winner = data["outcome"]["winner"]
    expected_returns = [0.0, 0.0] if winner is None else [1.0 if p == winner else -1.0 for p in (0, 1)]
    assert returns == expected_returns, f"seed {seed}: S10 returns {returns} for winner {winner}"
    with pytest.raises(spielwerk.IllegalActionError) as info:
        state.apply_action(PASS)
    assert RULING_PREFIX.match(str(info.value)), str(info.value)
    tally.outcomes[data["outcome"]["reason"]] += 1
    return state


def replay(seed: int, policy: Policy) -> list[int]:
    game = spielwerk.load_game(GAME_NAME, first_player=first_player_of(seed))
    state = game.new_initial_state(seed=seed)
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        state.apply_action(policy(state, state.legal_actions()))
    history: list[int] = state.history()
    return history


def replay_history(seed: int, history: list[int]) -> spielwerk.State:
    game = spielwerk.load_game(GAME_NAME, first_player=first_player_of(seed))
    state = game.new_initial_state(seed=seed)
    for action in history:
        state.apply_action(action)
    return state


@pytest.mark.slow
@pytest.mark.parametrize("first_seed", range(0, BOT_GAMES, CHUNK))
def test_random_bot_games_keep_every_invariant(first_seed: int) -> None:
    tally = Tally()
    for seed in range(first_seed, first_seed + CHUNK):
        final = play_checked_game(seed, bot_policy(seed), tally)
        assert replay(seed, bot_policy(seed)) == final.history(), f"seed {seed}: same seed, same game"
        assert replay_history(seed, final.history()) == final, f"seed {seed}: the history determines the game"
    # The chunk must have exercised what it checks.
    assert tally.outcomes["five_stones"] > 0 and tally.outcomes["three_adjacent"] > 0, tally
    assert tally.claim_phases > 0 and tally.illegal_probes > 0, tally
    assert tally.resample_changed > tally.resamples // 2, tally


@pytest.mark.slow
@pytest.mark.parametrize("first_seed", range(0, RELUCTANT_GAMES, CHUNK))
def test_games_reaching_the_settlement_keep_every_invariant(first_seed: int) -> None:
    tally = Tally()
    for seed in range(RELUCTANT_SEED_OFFSET + first_seed, RELUCTANT_SEED_OFFSET + first_seed + CHUNK):
        final = play_checked_game(seed, reluctant_policy(seed), tally)
        assert replay(seed, reluctant_policy(seed)) == final.history(), f"seed {seed}: same seed, same game"
    assert tally.outcomes["settlement"] > CHUNK // 2, tally
    assert tally.passes > 0 and tally.empty_pile_turns > 0, tally


def test_pickle_round_trips_games(game: spielwerk.Game, game_first1: spielwerk.Game) -> None:
    for g in (game, game_first1):
        restored = pickle.loads(pickle.dumps(g))
        assert restored == g
        assert hash(restored) == hash(g)
        assert restored.options() == g.options()
        assert restored.new_initial_state(seed=9) == g.new_initial_state(seed=9)
    assert game != game_first1
    assert game_first1.new_initial_state(seed=9).current_player() == 1


def test_deserialize_state_checks_the_game_options(game: spielwerk.Game, game_first1: spielwerk.Game) -> None:
    text = game_first1.new_initial_state(seed=2).serialize()
    with pytest.raises(ValueError, match="first_player"):
        game.deserialize_state(text)


def test_simulate_counts_add_up() -> None:
    """S10 in the counts; that they do not depend on threads or differ by seed is checked
    for every game in test_conformance.py."""
    one = spielwerk.simulate(GAME_NAME, 300, seed=11, threads=1)
    assert one.games == 300
    assert sum(one.wins) + one.draws == one.games
    # R1/S10: +1 for the winner, -1 for the loser, 0 for a draw.
    assert one.mean_returns[0] == pytest.approx((one.wins[0] - one.wins[1]) / one.games)
    assert one.mean_returns[1] == pytest.approx((one.wins[1] - one.wins[0]) / one.games)
    assert 0 < one.mean_length <= MAX_ACTIONS
