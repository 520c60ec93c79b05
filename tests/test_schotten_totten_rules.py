"""Schotten Totten rules against plain Python: formations (S4), the claim proof (S5) and the
best reachable formation (S6), bad input, check_move and the JSON move format.

The oracle (`plain_formation`, `brute_force_claim` in conftest.py) is written from the rule
text and enumerates every completion of the other side; `st.check_claim` must agree with
it on every position hypothesis comes up with.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
import spielwerk
from conftest import (
    ALL_CARDS,
    COLORS,
    END_TURN,
    GAME_NAME,
    NUM_ACTIONS,
    NUM_STONES,
    PASS,
    RULING_PREFIX,
    brute_force_claim,
    color_of,
    decoded,
    expected_move,
    owns_winning_stones,
    plain_formation,
    plain_settlement,
    settlement_winner,
    strength,
    value_of,
)
from hypothesis import assume, example, given, settings
from hypothesis import strategies as hs
from move_checks import assert_malformed_move_refused, check_text
from spielwerk import schotten_totten as st

# --- The oracle itself, checked against the rule text and plain combinatorics ---------


def test_plain_formation_follows_the_rule_text() -> None:
    assert plain_formation(["B5", "B6", "B7"]) == ("color_run", 18)  # "etwa Blau 5-6-7"
    assert plain_formation(["R9", "O9", "Y9"]) == ("three_of_a_kind", 27)
    assert plain_formation(["G1", "G5", "G9"]) == ("color", 15)
    assert plain_formation(["R4", "G5", "B6"]) == ("run", 15)
    assert plain_formation(["R9", "G1", "B2"]) == ("sum", 12)  # "9-1-2 ist keine Strasse"
    assert plain_formation(["R9", "R1", "R2"]) == ("color", 12)
    # "Die kleinstmögliche Farbenfolge 1-2-3 schlägt drei Neunen."
    assert strength(plain_formation(["P1", "P2", "P3"])) > strength(plain_formation(["R9", "O9", "Y9"]))


def test_plain_formation_counts_match_combinatorics() -> None:
    counts = Counter(plain_formation(t)[0] for t in itertools.combinations(ALL_CARDS, 3))
    color_runs = 6 * 7  # a colour and a start value 1-7
    three_of_a_kind = 9 * 20  # a value and 3 of its 6 colours
    colors = 6 * 84 - color_runs  # 3 of a colour's 9 values
    runs = 7 * 6**3 - color_runs  # a start value and a colour for each of the 3 values
    assert counts == {
        "color_run": color_runs,
        "three_of_a_kind": three_of_a_kind,
        "color": colors,
        "run": runs,
        "sum": 24804 - color_runs - three_of_a_kind - colors - runs,
    }


# --- st.formation (S4) -------------------------------------------------------------------


def test_formation_agrees_with_plain_python_on_every_triple() -> None:
    for triple in itertools.combinations(ALL_CARDS, 3):
        assert st.formation(list(triple)) == plain_formation(triple), triple


@given(hs.lists(hs.sampled_from(ALL_CARDS), min_size=3, max_size=3, unique=True))
def test_formation_does_not_depend_on_card_order(cards: list[str]) -> None:
    expected = plain_formation(cards)
    for order in itertools.permutations(cards):
        kind, total = st.formation(list(order))
        assert (kind, total) == expected


# --- st.check_claim (S5, S6) against brute force -----------------------------------------


@dataclass(frozen=True)
class ClaimPosition:
    mine: list[str]
    theirs: list[str]
    table: list[str]  # as passed to check_claim (may repeat mine and theirs)
    mine_completed_first: bool

    @property
    def available(self) -> set[str]:
        # S5: all 54 cards minus every card lying at any stone.
        return set(ALL_CARDS) - set(self.table) - set(self.mine) - set(self.theirs)


@hs.composite
def own_formations(draw: hs.DrawFn) -> list[str]:
    """Three cards, often a strong formation (a claim is most delicate there)."""
    kind = draw(hs.sampled_from(["any", "color_run", "three_of_a_kind", "color", "run"]))
    color = draw(hs.sampled_from(COLORS))
    if kind == "color_run":
        low = draw(hs.integers(1, 7))
        return [f"{color}{v}" for v in range(low, low + 3)]
    if kind == "three_of_a_kind":
        value = draw(hs.integers(1, 9))
        colors = draw(hs.lists(hs.sampled_from(COLORS), min_size=3, max_size=3, unique=True))
        return [f"{c}{value}" for c in colors]
    if kind == "color":
        values = draw(hs.lists(hs.integers(1, 9), min_size=3, max_size=3, unique=True))
        return [f"{color}{v}" for v in values]
    if kind == "run":
        low = draw(hs.integers(1, 7))
        colors = draw(hs.lists(hs.sampled_from(COLORS), min_size=3, max_size=3))
        return [f"{c}{v}" for c, v in zip(colors, range(low, low + 3), strict=True)]
    return draw(hs.lists(hs.sampled_from(ALL_CARDS), min_size=3, max_size=3, unique=True))


@hs.composite
def other_sides(draw: hs.DrawFn, mine: list[str]) -> list[str]:
    """0-3 cards, often a promising start: one colour, one value, close values, or the
    claimant's formation in other colours (so that ties, which go to the claimant, occur)."""
    size = draw(hs.integers(0, 3))
    pool = [c for c in ALL_CARDS if c not in mine]
    mode = draw(hs.sampled_from(["any", "one_color", "one_value", "close_values", "mirror"]))
    color = draw(hs.sampled_from(COLORS))
    value = draw(hs.integers(1, 9))
    recolor = dict(zip(COLORS, draw(hs.permutations(COLORS)), strict=True))
    mirror = [f"{recolor[color_of(c)]}{value_of(c)}" for c in mine]
    focused = {
        "any": pool,
        "one_color": [c for c in pool if color_of(c) == color],
        "one_value": [c for c in pool if value_of(c) == value],
        "close_values": [c for c in pool if abs(value_of(c) - value) <= 1],
        "mirror": [c for c in mirror if c not in mine],
    }[mode]
    if size == 0:
        return []
    if len(focused) < size:
        focused = pool
    return draw(hs.lists(hs.sampled_from(focused), min_size=size, max_size=size, unique=True))


@hs.composite
def claim_positions(draw: hs.DrawFn) -> ClaimPosition:
    mine = draw(own_formations())
    theirs = draw(other_sides(mine))
    rest = [c for c in ALL_CARDS if c not in mine and c not in theirs]
    # Nearly exhausted colours and values: all of their cards on the table but a few.
    exhausted_colors = draw(hs.lists(hs.sampled_from(COLORS), unique=True, max_size=6))
    exhausted_values = draw(hs.lists(hs.integers(1, 9), unique=True, max_size=9))
    group = [c for c in rest if color_of(c) in exhausted_colors or value_of(c) in exhausted_values]
    spared = draw(hs.lists(hs.sampled_from(group), unique=True, max_size=3)) if group else []
    # And any other cards, from a handful to (nearly) all.
    extra_count = draw(hs.one_of(hs.integers(0, 6), hs.integers(0, len(rest))))
    extra = draw(hs.permutations(rest))[:extra_count]
    table = sorted((set(group) - set(spared)) | set(extra))
    if draw(hs.booleans()):
        # The API takes every card at any stone, which may repeat mine and theirs.
        table = draw(hs.permutations(table + mine + theirs))
    return ClaimPosition(mine, theirs, table, draw(hs.booleans()))


def assert_claim_matches_brute_force(pos: ClaimPosition) -> None:
    oracle = brute_force_claim(pos.mine, pos.theirs, pos.available, pos.mine_completed_first)
    check = st.check_claim(pos.mine, pos.theirs, pos.table, pos.mine_completed_first)
    assert check.provable == oracle.provable, (check, oracle)
    assert (check.mine_formation, check.mine_sum) == oracle.mine
    if oracle.best is None:
        assert (check.best_cards, check.best_formation, check.best_sum) == (None, None, None), check
        return
    assert (check.best_formation, check.best_sum) == oracle.best, (check, oracle)
    best_cards = check.best_cards
    assert best_cards is not None
    assert len(best_cards) == 3 and len(set(best_cards)) == 3, best_cards
    assert set(pos.theirs) <= set(best_cards), f"{best_cards} must contain their cards {pos.theirs}"
    added = set(best_cards) - set(pos.theirs)
    assert added <= pos.available, f"{sorted(added - pos.available)} are not available"
    assert plain_formation(best_cards) == oracle.best, best_cards


@settings(max_examples=500)
@given(claim_positions())
# "Eine fertige Farbenfolge 7-8-9 ist sofort beanspruchbar, auch gegen eine leere Gegenseite."
@example(ClaimPosition(["R7", "R8", "R9"], [], [], True))
# The other side is complete: S4 decides, the tie going to whoever completed first.
@example(ClaimPosition(["R1", "O2", "Y3"], ["G1", "B2", "P3"], [], True))
@example(ClaimPosition(["R1", "O2", "Y3"], ["G1", "B2", "P3"], [], False))
# One available card decides (B3 or B6 would make a colour run over three 8s).
@example(ClaimPosition(["R8", "O8", "Y8"], ["B4", "B5"], ["B6"], True))
@example(ClaimPosition(["R8", "O8", "Y8"], ["B4", "B5"], ["B3", "B6"], True))
# Fewer cards available than the other side needs: it can never complete (S5).
@example(ClaimPosition(["R1", "O1", "Y2"], ["B9"], [c for c in ALL_CARDS if c != "P9"], True))
@example(ClaimPosition(["R1", "O1", "Y2"], [], list(ALL_CARDS[:-2]), True))
def test_check_claim_agrees_with_brute_force(pos: ClaimPosition) -> None:
    assert_claim_matches_brute_force(pos)


def test_check_claim_defaults_to_mine_completed_first() -> None:
    tie = st.check_claim(["R1", "O2", "Y3"], ["G1", "B2", "P3"], [])
    assert tie.provable, "S4: the side completed first wins the tie"


# --- S9 settlement against plain Python ------------------------------------------------


@hs.composite
def settlement_positions(draw: hs.DrawFn) -> dict[str, Any]:
    """A serialized state one pass before the settlement, as play reaches it: player 1
    passed last turn and player 0 cannot play either, so player 0 passes and S9 follows.

    A player passes only when no free stone has room for a card of theirs (S3a), and that
    room never comes back, so every stone still free holds three cards on both sides; the
    others were claimed earlier (provable, S5, checked with the brute-force oracle). The
    pile holds an even number of cards (every turn drew one, alternating from player 0,
    so it is player 0's turn) or none, and the hands hold the rest as S2 and S3c say:
    dealt six, drew one per turn, minus what was played. (Steps 2 and 3 of S9 never arise
    in play for that reason; they are tested in Rust on built positions.)
    """
    deck = draw(hs.permutations(ALL_CARDS))
    claimed = draw(hs.lists(hs.integers(0, NUM_STONES - 1), max_size=3, unique=True))
    stones: list[dict[str, Any]] = []
    used = 0
    for i in range(NUM_STONES):
        owner = draw(hs.integers(0, 1)) if i in claimed else None
        sizes = [3, 3]
        if owner is not None:
            sizes[1 - owner] = draw(hs.integers(0, 3))
        sides = [deck[used : used + sizes[0]], deck[used + sizes[0] : used + sizes[0] + sizes[1]]]
        used += sum(sizes)
        complete = [p for p in (0, 1) if sizes[p] == 3]
        stones.append(
            {
                "sides": sides,
                "owner": owner,
                "award": None if owner is None else "claim",
                "completed_first": draw(hs.sampled_from(complete)),
            }
        )
    available = set(deck[used:])
    for stone in stones:
        if stone["owner"] is not None:
            p = stone["owner"]
            claim = brute_force_claim(
                stone["sides"][p], stone["sides"][1 - p], available, stone["completed_first"] == p
            )
            assume(claim.provable)
    owners = [stone["owner"] for stone in stones]
    assume(owns_winning_stones(owners, 0) is None and owns_winning_stones(owners, 1) is None)
    played = [sum(len(stone["sides"][p]) for stone in stones) for p in (0, 1)]
    rest = deck[used:]

    def held(pile: int) -> list[int]:
        drawn = 42 - pile
        return [6 + (drawn + 1) // 2 - played[0], 6 + drawn // 2 - played[1]]

    piles = [k for k in range(0, min(42, len(rest)) + 1, 2) if min(held(k)) >= 0]
    assume(piles)
    pile = draw(hs.sampled_from(piles))
    sizes = held(pile)
    assert sum(sizes) + pile == len(rest)
    return {
        "rules": {"first_player": 0},
        "pile": rest[:pile],
        "hands": [
            sorted(rest[pile : pile + sizes[0]], key=ALL_CARDS.index),
            sorted(rest[pile + sizes[0] :], key=ALL_CARDS.index),
        ],
        "stones": stones,
        "current": 0,
        "phase": "play",
        "turn_passed": False,
        "passes_in_row": 1,
        "outcome": None,
        "history": [],
    }


@settings(max_examples=150)
@given(settlement_positions())
def test_settlement_agrees_with_plain_python(position: dict[str, Any]) -> None:
    state = spielwerk.load_game(GAME_NAME).deserialize_state(json.dumps(position))
    assert state.legal_actions() == [PASS], "S3a: no card to play, so a pass"
    state.apply_action(PASS)
    if not state.is_terminal():
        # S3b: a passing player may still claim; declining leaves the stone to S9 step 1.
        assert state.legal_actions()[-1] == END_TURN
        state.apply_action(END_TURN)
    assert state.is_terminal(), "two passing turns in a row settle the game (S9)"
    after = decoded(state)
    expected = plain_settlement(position["stones"])
    got = [None if stone["owner"] is None else (stone["owner"], stone["award"]) for stone in after["stones"]]
    assert got == expected
    winner = settlement_winner([None if e is None else e[0] for e in expected])
    assert after["outcome"] == {"winner": winner, "reason": "settlement"}
    assert state.returns() == ([0.0, 0.0] if winner is None else [1.0 - 2 * winner, 2 * winner - 1.0])


# --- Bad input ---------------------------------------------------------------------------

MALFORMED_CARDS = ["B0", "X5", "", "B10"]
CARD_RULE = re.compile(r"R, O, Y, G, B,? (or )?P.*1-9|1-9.*R, O, Y, G, B,? (or )?P")


def assert_names_card_and_rule(error: pytest.ExceptionInfo[ValueError], card: str) -> None:
    message = str(error.value)
    assert f"'{card}'" in message, message
    assert CARD_RULE.search(message), f"{message!r} does not say what a card is"


@pytest.mark.parametrize("bad", MALFORMED_CARDS)
def test_malformed_cards_are_named_with_what_is_allowed(bad: str) -> None:
    with pytest.raises(ValueError) as error:
        st.formation([bad, "B1", "B2"])
    assert_names_card_and_rule(error, bad)
    for mine, theirs, table in (
        ([bad, "R1", "R2"], [], []),
        (["R1", "R2", "R3"], [bad], []),
        (["R1", "R2", "R3"], [], ["O1", bad]),
    ):
        with pytest.raises(ValueError) as error:
            st.check_claim(mine, theirs, table)
        assert_names_card_and_rule(error, bad)
    state = spielwerk.load_game(GAME_NAME).new_initial_state(seed=1)
    for call in (state.check_move, state.action_from_json):
        with pytest.raises(ValueError) as error:
            call({"type": "play", "card": bad, "stone": 0})
        assert not isinstance(error.value, spielwerk.IllegalActionError), "malformed, not illegal"
        assert_names_card_and_rule(error, bad)


@pytest.mark.parametrize(
    ("mine", "theirs", "table"),
    [
        (["B5", "B5", "B6"], [], []),
        (["R1", "R2", "B5"], ["B5"], []),
        (["R1", "R2", "R3"], ["B5", "B5"], []),
        (["R1", "R2", "R3"], [], ["B5", "O1", "B5"]),
    ],
)
def test_duplicated_cards_are_refused(mine: list[str], theirs: list[str], table: list[str]) -> None:
    with pytest.raises(ValueError, match=r"B5") as error:
        st.check_claim(mine, theirs, table)
    assert re.search(r"twice|once|both", str(error.value)), error.value


def test_duplicated_cards_in_a_formation_are_refused() -> None:
    with pytest.raises(ValueError, match=r"'B5'.*(twice|once)"):
        st.formation(["B5", "B5", "B6"])


@pytest.mark.parametrize("cards", [[], ["B5", "B6"], ["B5", "B6", "B7", "B8"]])
def test_a_formation_is_exactly_three_cards(cards: list[str]) -> None:
    with pytest.raises(ValueError, match=rf"exactly 3.*got {len(cards)}"):
        st.formation(cards)


@pytest.mark.parametrize("mine", [[], ["R1", "R2"], ["R1", "R2", "R3", "R4"]])
def test_a_claim_needs_three_own_cards(mine: list[str]) -> None:
    with pytest.raises(ValueError, match=rf"3.*got {len(mine)}"):
        st.check_claim(mine, [], [])


def test_the_other_side_holds_at_most_three_cards() -> None:
    with pytest.raises(ValueError, match=r"0-3.*got 4"):
        st.check_claim(["R1", "R2", "R3"], ["B1", "B2", "B3", "B4"], [])


def test_unknown_game_names_the_game_and_the_games_there_are() -> None:
    with pytest.raises(ValueError, match=r"'chess'.*schotten_totten"):
        spielwerk.load_game("chess")
    with pytest.raises(ValueError, match=r"'chess'.*schotten_totten"):
        spielwerk.simulate("chess", 1)


def test_unknown_option_names_the_option_and_the_options_there_are() -> None:
    with pytest.raises(ValueError, match=r"'first_plaier'.*first_player"):
        spielwerk.load_game(GAME_NAME, first_plaier=1)


@pytest.mark.parametrize(("value", "shown"), [(2, "2"), (-1, "-1"), ("1", '"1"'), (0.5, "0.5")])
def test_bad_option_value_names_the_value_and_what_is_allowed(value: object, shown: str) -> None:
    with pytest.raises(ValueError, match=r"first_player") as error:
        spielwerk.load_game(GAME_NAME, first_player=value)
    assert "0 or 1" in str(error.value) and shown in str(error.value), error.value


@pytest.mark.parametrize("player", [2, -1])
def test_players_are_zero_and_one(player: int) -> None:
    state = spielwerk.load_game(GAME_NAME).new_initial_state(seed=1)
    for call in (state.view, state.hand, lambda p: state.resample(p, 0)):
        with pytest.raises(ValueError, match=rf"player {player}.*0-1"):
            call(player)


def test_game_basics() -> None:
    names = spielwerk.list_games()
    assert names == sorted(names) and GAME_NAME in names
    game = spielwerk.load_game(GAME_NAME, first_player=0)
    assert game.name == GAME_NAME
    assert game.num_players() == 2
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.options() == {"first_player": 0}
    assert spielwerk.load_game(GAME_NAME, first_player=1).options() == {"first_player": 1}
    assert issubclass(spielwerk.IllegalActionError, ValueError)


# --- Moves: check_move and the JSON format -----------------------------------------------

# Any: some of these are deliberately not dicts at all.
MALFORMED_MOVES: list[tuple[Any, list[str]]] = [
    ({"type": "play", "card": "B5", "stone": 9}, ["9", "0-8"]),
    ({"type": "play", "card": "B5", "stone": -1}, ["-1", "0-8"]),
    ({"type": "play", "card": "B5", "stone": "3"}, ["stone", "0-8"]),
    ({"type": "play", "card": "B5"}, ["`stone`"]),
    ({"type": "play", "stone": 1}, ["`card`"]),
    ({"type": "claim"}, ["`stone`"]),
    ({"type": "claim", "stone": 12}, ["12", "0-8"]),
    ({"type": "jump"}, ["`jump`"]),
    ({"type": "pass", "stone": 1}, ["`stone`"]),
    ({"type": "end_turn", "card": "B5"}, ["`card`"]),
    ({}, ["`type`"]),
    (["pass"], ["object"]),
    ("pass", ["object"]),
]


@pytest.mark.parametrize(("move", "needles"), MALFORMED_MOVES)
def test_malformed_moves_say_what_is_wrong_and_what_is_allowed(move: Any, needles: list[str]) -> None:
    state = spielwerk.load_game(GAME_NAME).new_initial_state(seed=1)
    assert_malformed_move_refused(state, move, needles, ('"play"', '"claim"', '"pass"', '"end_turn"'))


def sample_states(game: spielwerk.Game, seeds: range) -> list[spielwerk.State]:
    """Every state of a few random games, including claim phases and the end."""
    states = []
    for seed in seeds:
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        states.append(state.clone())
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            states.append(state.clone())
    return states


def test_check_move_agrees_with_legal_actions_and_changes_nothing(game: spielwerk.Game) -> None:
    phases: Counter[str] = Counter()
    for state in sample_states(game, range(4)):
        before = state.serialize()
        legal = set(state.legal_actions())
        phases[state.view(0)["phase"]] += 1
        for action in range(NUM_ACTIONS):
            move = state.action_to_json(action)
            reason = check_text(state, move)
            if action in legal:
                assert reason is None, f"{move} is legal, yet: {reason}"
                continue
            assert isinstance(reason, str) and RULING_PREFIX.match(reason), f"{move}: {reason!r}"
            # check_move gives the same reason apply_action refuses with.
            with pytest.raises(spielwerk.IllegalActionError) as error:
                state.apply_action(action)
            assert str(error.value) == reason
        assert state.serialize() == before, "check_move and refused actions change nothing"
    assert phases["play"] and phases["claim"] and phases["over"], phases


def test_moves_round_trip_for_all_497_actions(game: spielwerk.Game) -> None:
    state = game.new_initial_state(seed=3)
    moves = [state.action_to_json(action) for action in range(NUM_ACTIONS)]
    for action, move in enumerate(moves):
        # The JSON move is the documented encoding: play card*9+stone, claim 486+stone, 495, 496.
        assert move == expected_move(action), action
        assert state.action_from_json(move) == action
        text: str = state.action_to_string(action)
        if move["type"] == "play":
            # S1: stone s (0-8 in JSON) is stone s + 1 on screen.
            assert text == f"play {move['card']} at stone {move['stone'] + 1}", text
        elif move["type"] == "claim":
            assert text == f"claim stone {move['stone'] + 1}", text
    assert len({(m["type"], m.get("card"), m.get("stone")) for m in moves}) == NUM_ACTIONS


# --- Seeds and reprs --------------------------------------------------------------------


def test_bad_seed_names_the_seed_and_what_is_allowed() -> None:
    game = spielwerk.load_game(GAME_NAME)
    for call in (
        lambda: game.new_initial_state(seed=-1),
        lambda: spielwerk.RandomBot(-1),
        lambda: game.new_initial_state(seed=0).resample(0, -1),
    ):
        with pytest.raises(ValueError, match=r"seed.*-1"):
            call()


def test_claim_check_repr_is_python() -> None:
    text = repr(st.check_claim(["R7", "R8", "R9"], [], []))
    assert "Some(" not in text, text
    assert "best_cards=['" in text, text


# --- States no game reaches (S3a, S3c) ---------------------------------------------------


def test_a_hand_past_six_with_room_to_play_is_refused() -> None:
    """Two turns drew two cards, but nobody played or passed: hands of seven while every
    stone is free. A hand grows past six only by passing, and a player with cards passes
    only with no room left (S3a), so no game reaches this."""
    game = spielwerk.load_game(GAME_NAME)
    position = decoded(game.new_initial_state(seed=1))
    drawn = [position["pile"].pop(), position["pile"].pop()]
    for hand, card in zip(position["hands"], drawn, strict=True):
        hand.append(card)
        hand.sort(key=ALL_CARDS.index)
    with pytest.raises(spielwerk.InvalidStateError, match=r"holds 7 cards.*S3a") as error:
        game.deserialize_state(json.dumps(position))
    assert "stones[0]" in str(error.value), "names a stone with room"


def test_a_pass_by_a_player_who_can_play_is_refused() -> None:
    game = spielwerk.load_game(GAME_NAME)
    position = decoded(game.new_initial_state(seed=1))
    position["passes_in_row"] = 1
    with pytest.raises(spielwerk.InvalidStateError, match=r"player 1 passed last turn.*can play.*S3a"):
        game.deserialize_state(json.dumps(position))
