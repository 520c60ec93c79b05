"""Plain-Python rules of The Game, the oracle the engine is checked against.

Written from the rule text (seeds/the_game.de.txt) and RULINGS.md T1-T6, slow and obvious on
purpose, and never calling the engine. Positions are read from the engine's serialized JSON
(fields as documented in core/src/the_game/state.rs); the action encoding is the one
documented in core/src/the_game/mod.rs: play = (card - 2) * 4 + pile, end_turn = 392.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any

GAME_NAME = "the_game"

# T1: 98 cards 2-99; piles 0 and 1 ascend from 1, piles 2 and 3 descend from 100.
CARDS: tuple[int, ...] = tuple(range(2, 100))
NUM_PILES = 4
START_TOPS: tuple[int, ...] = (1, 1, 100, 100)
NUM_ACTIONS = len(CARDS) * NUM_PILES + 1
END_TURN = NUM_ACTIONS - 1

# T2: hand sizes by the number of players.
HAND_SIZE: dict[int, int] = {1: 8, 2: 7, 3: 6, 4: 6, 5: 6}

# Every refusal of a well-formed action names its ruling: "T3: ...", "T4: ...", "T6: ...".
RULING_PREFIX = re.compile(r"^T[1-7]: \S")

# Every view has exactly these keys and nothing else.
VIEW_KEYS = frozenset(
    {
        "game",
        "player",
        "players",
        "pro",
        "current_player",
        "piles",
        "played_cards",
        "draw_pile_size",
        "hand",
        "hand_sizes",
        "played_this_turn",
        "minimum",
        "outcome",
    }
)


def ascending(pile: int) -> bool:
    return pile < 2


def play_action(card: int, pile: int) -> int:
    return (card - 2) * NUM_PILES + pile


def decode(action: int) -> tuple[int, int] | None:
    """(card, pile) of a play, None for end_turn."""
    if action == END_TURN:
        return None
    assert 0 <= action < END_TURN, action
    index, pile = divmod(action, NUM_PILES)
    return index + 2, pile


def expected_move(action: int) -> dict[str, Any]:
    """The JSON move of an action id, decoded from the documented encoding."""
    play = decode(action)
    if play is None:
        return {"type": "end_turn"}
    card, pile = play
    return {"type": "play", "card": card, "pile": pile}


def fits(card: int, pile: int, top: int) -> bool:
    """T4: ascending, higher or exactly 10 lower; descending, lower or exactly 10 higher."""
    if ascending(pile):
        return card > top or card == top - 10
    return card < top or card == top + 10


def pile_name(pile: int) -> str:
    """A pile as the board shows it: "ascending pile 1" for pile 0, ..., "descending pile 2"
    for pile 3 (ids and JSON stay 0-3)."""
    return f"{'ascending' if ascending(pile) else 'descending'} pile {pile % 2 + 1}"


def refusal_for_misfit(card: int, pile: int, top: int) -> str:
    """The T4 message for a card that does not fit, as the brief words it."""
    if ascending(pile):
        return f"T4: {card} on {pile_name(pile)} at {top} is neither higher nor exactly 10 lower"
    return f"T4: {card} on {pile_name(pile)} at {top} is neither lower nor exactly 10 higher"


def refusal_for_early_end(missing: int) -> str:
    cards = "1 more card" if missing == 1 else f"{missing} more cards"
    return f"T3: you must play {cards} before ending the turn"


@dataclass(frozen=True)
class Position:
    """A position as serialized, with one hand per seat in play (seat order)."""

    players: int
    pro: bool
    draw_pile: tuple[int, ...]  # the next card drawn is the last
    hands: tuple[frozenset[int], ...]
    tops: tuple[int, ...]
    pile_sizes: tuple[int, ...]
    current: int
    played_this_turn: int
    outcome: dict[str, Any] | None
    history: tuple[int, ...] = field(default=())

    @staticmethod
    def from_json(data: dict[str, Any]) -> Position:
        players = data["rules"]["players"]
        hands = [frozenset(hand) for hand in data["hands"]]
        assert len(hands) == players, f"one hand per seat: {data['hands']}"
        return Position(
            players=players,
            pro=data["rules"]["pro"],
            draw_pile=tuple(data["draw_pile"]),
            hands=tuple(hands),
            tops=tuple(data["tops"]),
            pile_sizes=tuple(data["pile_sizes"]),
            current=data["current"],
            played_this_turn=data["played_this_turn"],
            outcome=data["outcome"],
            history=tuple(data["history"]),
        )

    @staticmethod
    def of(state: Any) -> Position:
        """The position of an engine state, through its serialized JSON only."""
        return Position.from_json(json.loads(state.serialize()))


def minimum(pos: Position) -> int:
    """T3: 2 (pro: 3) while the draw pile has cards, 1 once it is empty."""
    if not pos.draw_pile:
        return 1
    return 3 if pos.pro else 2


def score(pos: Position) -> int:
    """T6: cards left in all hands plus the draw pile."""
    return sum(len(hand) for hand in pos.hands) + len(pos.draw_pile)


def legal_plays(pos: Position) -> list[int]:
    hand = pos.hands[pos.current]
    return sorted(
        play_action(card, pile)
        for card in hand
        for pile in range(NUM_PILES)
        if fits(card, pile, pos.tops[pile])
    )


def is_stuck(pos: Position) -> bool:
    """T6: the player to move has not reached the minimum and has no legal play."""
    if pos.played_this_turn >= minimum(pos):
        return False
    return not any(
        fits(card, pile, pos.tops[pile]) for card in pos.hands[pos.current] for pile in range(NUM_PILES)
    )


def is_won(pos: Position) -> bool:
    """T6: every card has been played."""
    return score(pos) == 0


def legal_actions(pos: Position) -> list[int]:
    """T3/T4: the plays that fit, and end_turn once the minimum is reached."""
    if pos.outcome is not None:
        return []
    actions = legal_plays(pos)
    if pos.played_this_turn >= minimum(pos):
        actions.append(END_TURN)
    return actions


def expected_refusal(pos: Position, action: int) -> str | None:
    """The ruling (and, where the brief fixes it, the exact message) refusing `action`.

    Returns None for a legal action, a full message for T3 early ends and T4 misfits, and
    just the prefix ("T3: ", "T6: ") where only the ruling is fixed.
    """
    if pos.outcome is not None:
        return "T6: "
    play = decode(action)
    if play is None:
        missing = minimum(pos) - pos.played_this_turn
        return refusal_for_early_end(missing) if missing > 0 else None
    card, pile = play
    if card not in pos.hands[pos.current]:
        return "T3: "
    if not fits(card, pile, pos.tops[pile]):
        return refusal_for_misfit(card, pile, pos.tops[pile])
    return None


def _end_turn(pos: Position) -> Position:
    """T3: draw as many as were played, as far as the pile allows; T5: skip empty hands."""
    me = pos.current
    drawn = min(pos.played_this_turn, len(pos.draw_pile))
    keep = len(pos.draw_pile) - drawn
    hands = list(pos.hands)
    hands[me] = hands[me] | frozenset(pos.draw_pile[keep:])
    following = [(me + step) % pos.players for step in range(1, pos.players + 1)]
    holding = [p for p in following if hands[p]]
    return replace(
        pos,
        draw_pile=pos.draw_pile[:keep],
        hands=tuple(hands),
        current=holding[0] if holding else me,
        played_this_turn=0,
    )


def apply(pos: Position, action: int) -> Position:
    """The position after a legal action, by T3-T6."""
    assert expected_refusal(pos, action) is None, (action, pos)
    play = decode(action)
    if play is None:
        after = _end_turn(pos)
    else:
        card, pile = play
        hands = list(pos.hands)
        hands[pos.current] = hands[pos.current] - {card}
        tops = list(pos.tops)
        tops[pile] = card
        sizes = list(pos.pile_sizes)
        sizes[pile] += 1
        after = replace(
            pos,
            hands=tuple(hands),
            tops=tuple(tops),
            pile_sizes=tuple(sizes),
            played_this_turn=pos.played_this_turn + 1,
        )
        if not after.hands[pos.current]:
            # A player without cards cannot go on: the turn ends (and the draw follows).
            after = _end_turn(after)
    after = replace(after, history=(*pos.history, action))
    if is_won(after):
        return replace(after, outcome={"won": True, "score": 0})
    if is_stuck(after):
        return replace(after, outcome={"won": False, "score": score(after)})
    return after


def played_cards(pos: Position) -> int:
    return sum(pos.pile_sizes)


def played_card_set(pos: Position) -> list[int]:
    """Every card on a pile, ascending: neither in a hand nor in the draw pile (T1)."""
    left = {card for hand in pos.hands for card in hand} | set(pos.draw_pile)
    return [card for card in CARDS if card not in left]


def conservation_problems(pos: Position) -> list[str]:
    """Every card 2-99 exactly once across hands, draw pile and piles (T1).

    Cards under a top are not serialized: the piles count as pile_sizes cards, of which
    the tops are the visible ones, so hands + draw pile + tops must be distinct cards 2-99
    and hands + draw pile + played must be 98.
    """
    problems = []
    tops_played = [top for pile, top in enumerate(pos.tops) if pos.pile_sizes[pile] > 0]
    for pile, top in enumerate(pos.tops):
        if (pos.pile_sizes[pile] == 0) != (top == START_TOPS[pile]):
            problems.append(f"pile {pile}: top {top} with {pos.pile_sizes[pile]} cards played")
    seen = [card for hand in pos.hands for card in hand] + list(pos.draw_pile) + tops_played
    if len(seen) != len(set(seen)):
        problems.append(f"cards appear twice: {sorted(c for c in set(seen) if seen.count(c) > 1)}")
    if not set(seen) <= set(CARDS):
        problems.append(f"not cards: {sorted(set(seen) - set(CARDS))}")
    held = sum(len(hand) for hand in pos.hands) + len(pos.draw_pile)
    if held + played_cards(pos) != len(CARDS):
        problems.append(f"{held} cards held or to draw plus {played_cards(pos)} played is not 98")
    return problems


def expected_view(pos: Position, player: int | None) -> dict[str, Any]:
    """What player `player` (None: a spectator) may see: piles, the played cards, sizes, the
    own hand; never another hand. A lost game names the player who could not go on (T6)."""
    outcome = None
    if pos.outcome is not None:
        stuck = None if pos.outcome["won"] else pos.current
        outcome = {**pos.outcome, "stuck_player": stuck}
    return {
        "game": GAME_NAME,
        "player": player,
        "players": pos.players,
        "pro": pos.pro,
        "current_player": None if pos.outcome is not None else pos.current,
        "piles": [
            {
                "direction": "ascending" if ascending(pile) else "descending",
                "top": pos.tops[pile],
                "cards_played": pos.pile_sizes[pile],
                # What the pile takes from the seat's hand (T4), and by the backward trick;
                # the public view shows no hand, so neither.
                **(
                    {}
                    if player is None
                    else {
                        "takes": sorted(c for c in pos.hands[player] if fits(c, pile, pos.tops[pile])),
                        "backward": sorted(
                            c
                            for c in pos.hands[player]
                            if c == pos.tops[pile] + (-10 if ascending(pile) else 10)
                        ),
                    }
                ),
            }
            for pile in range(NUM_PILES)
        ],
        "played_cards": played_card_set(pos),
        "draw_pile_size": len(pos.draw_pile),
        "hand": None if player is None else sorted(pos.hands[player]),
        "hand_sizes": [len(hand) for hand in pos.hands],
        "played_this_turn": pos.played_this_turn,
        "minimum": minimum(pos),
        "outcome": outcome,
    }


def position_json(
    *,
    players: int,
    hands: list[list[int]],
    tops: tuple[int, ...] = START_TOPS,
    draw: int | list[int] = 0,
    current: int = 0,
    pro: bool = False,
    played_this_turn: int = 0,
) -> str:
    """A serialized position for `game.deserialize_state`.

    `draw` is either the draw pile itself (the next drawn card last) or how many of the
    remaining cards form it. Every card neither held, nor to draw, nor a top counts as
    played under a top: one under each started pile's top, the rest under the first one.
    """
    assert len(tops) == NUM_PILES, tops
    held = [card for hand in hands for card in hand]
    rest = [card for card in CARDS if card not in held and card not in tops]
    draw_pile = rest[:draw] if isinstance(draw, int) else list(draw)
    played = len(CARDS) - len(held) - len(draw_pile)
    started = [pile for pile in range(NUM_PILES) if tops[pile] != START_TOPS[pile]]
    sizes = [1 if pile in started else 0 for pile in range(NUM_PILES)]
    if started:
        sizes[started[0]] += played - len(started)
    assert played >= len(started) and sum(sizes) == played, "the tops do not fit the cards left"
    data = {
        "rules": {"players": players, "pro": pro},
        "draw_pile": draw_pile,
        "hands": hands,
        "tops": list(tops),
        "pile_sizes": sizes,
        "current": current,
        "played_this_turn": played_this_turn,
        "outcome": None,
        "history": [],
    }
    return json.dumps(data)
