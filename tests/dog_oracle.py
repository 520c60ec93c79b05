"""Plain-Python rules of Dog, the oracle the engine is checked against.

Written from the rule text (seeds/dog.de.txt) and RULINGS.md D1-D13, slow and obvious on
purpose, and never calling the engine: a move is walked field by field and every field it
passes or reaches is looked at; whether the rest of a seven can be used is decided by a plain
depth-first search over every split. Positions are read from the engine's serialized JSON
(fields as documented in core/src/dog/state.rs); the action encoding is the one documented in
core/src/dog/mod.rs (1,810 ids).

Board (D2): ring fields 0-63, player p's start field 16*p, marbles move forward in increasing
field order; each colour has a goal lane of four fields, goal field 0 one step past its start
field. Marble 4*p + k is player p's marble k; partners are 0+2 and 1+3 (D1).
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

GAME_NAME = "dog"

# D3: eight each of A, 2-10, J, Q, K and six jokers, in the engine's kind order.
CARD_NAMES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK")
COPIES: dict[str, int] = {card: (6 if card == "JK" else 8) for card in CARD_NAMES}
NUM_CARDS = 110
CARD_ORDER: dict[str, int] = {card: i for i, card in enumerate(CARD_NAMES)}

# D1, D2.
NUM_PLAYERS = 4
NUM_MARBLES = 16
RING = 64
GOAL_LEN = 4
COLORS: tuple[str, ...] = ("red", "blue", "green", "yellow")
# D4: hand sizes cycle 6, 5, 4, 3, 2.
HAND_SIZES: tuple[int, ...] = (6, 5, 4, 3, 2)

# The action space (mod.rs).
NUM_ACTIONS = 1810
EXCHANGE_BASE = 0
START_BASE = 14
MOVE_BASE = 17
SEVEN_BASE = 849
JACK_BASE = 1297
SIT_OUT = 1809
START_CARDS: tuple[str, ...] = ("A", "K", "JK")
# The move kinds of the normal cards: (card, steps; negative is backward), D7.
MOVE_KINDS: tuple[tuple[str, int], ...] = (
    ("A", 1),
    ("A", 11),
    ("K", 13),
    ("Q", 12),
    ("10", 10),
    ("9", 9),
    ("8", 8),
    ("6", 6),
    ("5", 5),
    ("3", 3),
    ("2", 2),
    ("4", 4),
    ("4", -4),
)

# Every refusal of a well-formed action names its ruling: "D6: ...", "D8: ...".
RULING_PREFIX = re.compile(r"^D(?:[1-9]|1[0-3]): \S")

# Every view has exactly these keys.
VIEW_KEYS = frozenset(
    {
        "game",
        "player",
        "current_player",
        "round",
        "hand_size",
        "first_player",
        "phase",
        "marbles",
        "hand",
        "hand_sizes",
        "pile_size",
        "discard_size",
        "face_up",
        "own_face_down",
        "played",
        "exchange",
        "seven",
        "hand_targets",
        "sat_out",
        "turns",
        "outcome",
    }
)


def partner(p: int) -> int:
    return (p + 2) % 4


def team(p: int) -> int:
    return p % 2


def color_of(marble: int) -> int:
    return marble // 4


def start_field(color: int) -> int:
    return 16 * color


def team_marbles(t: int) -> list[int]:
    return [m for m in range(NUM_MARBLES) if team(color_of(m)) == t]


# --- places and boards ------------------------------------------------------------------

# A place is ("kennel", 0), ("ring", field) or ("goal", slot); a goal slot belongs to the
# marble's own colour.
Place = tuple[str, int]
KENNEL: Place = ("kennel", 0)


def ring(f: int) -> Place:
    return ("ring", f % RING)


def goal(slot: int) -> Place:
    return ("goal", slot)


@dataclass(frozen=True)
class Marble:
    place: Place
    protected: bool = False


Board = tuple[Marble, ...]

# A cell is a ring field ("ring", f) or a goal field of a colour ("goal", 4 * colour + slot).
Cell = tuple[str, int]


def cell_of(marble: int, place: Place) -> Cell | None:
    kind, n = place
    if kind == "kennel":
        return None
    if kind == "ring":
        return ("ring", n)
    return ("goal", 4 * color_of(marble) + n)


def occupant(board: Board, cell: Cell) -> int | None:
    """The marble on a cell (looked up the slow way, by asking every marble)."""
    found = [m for m in range(NUM_MARBLES) if cell_of(m, board[m].place) == cell]
    assert len(found) <= 1, (cell, found)
    return found[0] if found else None


def place_from_json(place: Any) -> Place:
    if place == "kennel":
        return KENNEL
    assert isinstance(place, dict) and len(place) == 1, place
    ((kind, n),) = place.items()
    assert kind in ("ring", "goal"), place
    return (kind, int(n))


def place_to_json(place: Place) -> Any:
    kind, n = place
    return "kennel" if kind == "kennel" else {kind: n}


def in_goal(board: Board, color: int) -> int:
    return sum(board[m].place[0] == "goal" for m in range(4 * color, 4 * color + 4))


def team_in_goal(board: Board, t: int) -> int:
    return in_goal(board, t) + in_goal(board, t + 2)


def moving_color(board: Board, player: int) -> int:
    """D12: a player whose four marbles are all in the goal moves the partner's."""
    return partner(player) if in_goal(board, player) == 4 else player


def with_marble(board: Board, marble: int, new: Marble) -> Board:
    return tuple(new if m == marble else board[m] for m in range(NUM_MARBLES))


def send_home(board: Board, marble: int) -> Board:
    return with_marble(board, marble, Marble(KENNEL, False))


# --- D6-D9: moving a marble -------------------------------------------------------------


def way(board: Board, marble: int, steps: int, into_goal: bool) -> list[Cell] | str:
    """The cells a marble visits, one per step, or the ruling that forbids the move.

    Forward along the ring; with `into_goal` the marble turns into its goal lane the first
    time it stands on its own start field (the start field it stands on counts), which it
    may do only after leaving the start field once (D9: not while it is protected). Backward
    moves stay on the ring (D9). In the goal a marble moves forward only (D9).
    """
    me = board[marble]
    kind, n = me.place
    color = color_of(marble)
    if kind == "kennel":
        return "D6"  # only a start (A, K, joker) brings a marble out of the kennel
    if kind == "goal":
        if steps < 0 or not into_goal:
            return "D9"
        if n + steps >= GOAL_LEN:
            return "D9"
        return [("goal", 4 * color + s) for s in range(n + 1, n + steps + 1)]
    if steps < 0:
        if into_goal:
            return "D9"
        return [("ring", (n - i) % RING) for i in range(1, -steps + 1)]
    if into_goal and me.protected:
        return "D9"
    cells: list[Cell] = []
    at: Place = me.place
    for _ in range(steps):
        if at[0] == "goal":
            at = goal(at[1] + 1)
        elif into_goal and at[1] == start_field(color):
            at = goal(0)
        else:
            at = ring(at[1] + 1)
        cell = cell_of(marble, at)
        assert cell is not None
        cells.append(cell)
    if into_goal:
        if at[0] != "goal":
            return "D9"  # too short to reach the goal
        if at[1] >= GOAL_LEN:
            return "D9"  # too long: no overshooting, the marble must go round again
    return cells


def walk(board: Board, marble: int, steps: int, into_goal: bool, seven: bool) -> Board | str:
    """The board after the move, or the ruling forbidding it.

    D6/D7: a protected marble may be neither passed nor landed on. D7: landing sends the
    marble there home (own and partner's included). D8: a seven sends home every marble it
    passes or lands on. D9: in the goal nothing is passed or landed on.
    """
    cells = way(board, marble, steps, into_goal)
    if isinstance(cells, str):
        return cells
    held = {cell_of(m, board[m].place): m for m in range(NUM_MARBLES)}
    victims: list[int] = []
    for i, cell in enumerate(cells):
        other = held.get(cell)
        if other is None:
            continue
        if cell[0] == "goal":
            return "D9"
        if board[other].protected:
            return "D6"
        if seven or i == len(cells) - 1:
            victims.append(other)
    after = board
    for victim in victims:
        after = send_home(after, victim)
    last = cells[-1]
    place: Place = ("ring", last[1]) if last[0] == "ring" else goal(last[1] % 4)
    # D6: a marble that moves is no longer protected, also when it reaches a start field.
    return with_marble(after, marble, Marble(place, False))


def start(board: Board, color: int) -> Board | str:
    """D6: a marble from the kennel onto its start field, sending home an unprotected marble
    of any colour standing there; a protected one there blocks the start.

    Which of the kennel marbles comes out is no rule; the oracle takes the lowest-numbered one
    (compare boards with `same_places` after a start).
    """
    kennel = [m for m in range(4 * color, 4 * color + 4) if board[m].place == KENNEL]
    if not kennel:
        return "D6"
    there = occupant(board, ("ring", start_field(color)))
    if there is not None and board[there].protected:
        return "D6"
    after = board if there is None else send_home(board, there)
    return with_marble(after, kennel[0], Marble(ring(start_field(color)), True))


def jack(board: Board, color: int, marble: int, other: int) -> Board | str:
    """D10: swaps a marble of `color` with one of another colour, both on the ring and
    unprotected; nothing is sent home."""
    if color_of(marble) != color:
        return "D7"
    if color_of(other) == color:
        return "D10"
    for m in (marble, other):
        if board[m].place[0] != "ring" or board[m].protected:
            return "D10"
    swapped = with_marble(board, marble, Marble(board[other].place, False))
    return with_marble(swapped, other, Marble(board[marble].place, False))


def brings_last_home(before: Board, after: Board, t: int) -> bool:
    """D11: would this move bring team t's eighth marble into the goal?"""
    return team_in_goal(before, t) < 8 and team_in_goal(after, t) == 8


@functools.lru_cache(maxsize=1 << 17)
def seven_rest_usable(board: Board, t: int, remaining: int, joker: bool) -> bool:
    """D8: can `remaining` steps of a seven still be used completely by team t's marbles?

    Tries every marble, every number of steps and both ways (ring, goal), depth first
    (remembering the answers: the function is pure).
    """
    if remaining == 0:
        return True
    for marble in team_marbles(t):
        for steps in range(1, remaining + 1):
            for into_goal in (False, True):
                after = walk(board, marble, steps, into_goal, seven=True)
                if isinstance(after, str):
                    continue
                if joker and brings_last_home(board, after, t):
                    continue
                if seven_rest_usable(after, t, remaining - steps, joker):
                    return True
    return False


# --- actions ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """An action taken apart: kind is exchange, start, move, seven, jack or sit_out."""

    kind: str
    card: str = ""  # the card played from the hand ("JK" for any joker move)
    joker: bool = False
    stands_for: str = ""  # the card a move (kind "move") uses: the card itself or the joker's
    marble: int = -1
    steps: int = 0
    goal: bool = False
    other: int = -1


def exchange_action(card: str) -> int:
    return EXCHANGE_BASE + CARD_ORDER[card]


def start_action(card: str) -> int:
    return START_BASE + START_CARDS.index(card)


def move_action(card: str, marble: int, steps: int, into_goal: bool = False, joker: bool = False) -> int:
    kind = MOVE_KINDS.index((card, steps))
    return MOVE_BASE + ((int(joker) * 13 + kind) * 16 + marble) * 2 + int(into_goal)


def seven_action(marble: int, steps: int, into_goal: bool = False, joker: bool = False) -> int:
    assert 1 <= steps <= 7
    return SEVEN_BASE + ((int(joker) * 16 + marble) * 7 + steps - 1) * 2 + int(into_goal)


def jack_action(marble: int, other: int, joker: bool = False) -> int:
    return JACK_BASE + (int(joker) * 16 + marble) * 16 + other


def _decode(action: int) -> Move:
    assert 0 <= action < NUM_ACTIONS, action
    if action < START_BASE:
        return Move("exchange", card=CARD_NAMES[action])
    if action < MOVE_BASE:
        card = START_CARDS[action - START_BASE]
        return Move("start", card=card, joker=card == "JK")
    if action < SEVEN_BASE:
        rest, into_goal = divmod(action - MOVE_BASE, 2)
        rest, marble = divmod(rest, 16)
        joker, kind = divmod(rest, 13)
        card, steps = MOVE_KINDS[kind]
        played = "JK" if joker else card
        return Move("move", played, bool(joker), card, marble, steps, bool(into_goal))
    if action < JACK_BASE:
        rest, into_goal = divmod(action - SEVEN_BASE, 2)
        rest, steps = divmod(rest, 7)
        joker, marble = divmod(rest, 16)
        played = "JK" if joker else "7"
        return Move("seven", played, bool(joker), "7", marble, steps + 1, bool(into_goal))
    if action < SIT_OUT:
        rest, other = divmod(action - JACK_BASE, 16)
        joker, marble = divmod(rest, 16)
        return Move("jack", "JK" if joker else "J", bool(joker), "J", marble, other=other)
    return Move("sit_out")


DECODED: tuple[Move, ...] = tuple(_decode(a) for a in range(NUM_ACTIONS))


def decode(action: int) -> Move:
    return DECODED[action]


# The play ids (starts, moves, seven parts, jacks) of each card played from the hand.
PLAYS_OF_CARD: dict[str, tuple[int, ...]] = {
    card: tuple(a for a in range(START_BASE, SIT_OUT) if DECODED[a].card == card) for card in CARD_NAMES
}


def expected_move(action: int) -> dict[str, Any]:
    """The JSON move of an action id, as the brief documents the format."""
    mv = decode(action)
    if mv.kind in ("exchange", "start"):
        return {"type": mv.kind, "card": mv.card}
    if mv.kind == "move":
        move: dict[str, Any] = {"type": "move", "card": mv.card, "marble": mv.marble, "steps": mv.steps}
        if mv.joker:
            move["as"] = mv.stands_for
        move["goal"] = mv.goal
        return move
    if mv.kind == "seven":
        return {"type": "seven", "card": mv.card, "marble": mv.marble, "steps": mv.steps, "goal": mv.goal}
    if mv.kind == "jack":
        return {"type": "jack", "card": mv.card, "marble": mv.marble, "with": mv.other}
    return {"type": "sit_out"}


# --- positions --------------------------------------------------------------------------


def sorted_cards(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=CARD_ORDER.__getitem__))


@dataclass(frozen=True)
class Seven:
    remaining: int
    joker: bool


@dataclass(frozen=True)
class SevenPart:
    """A part of the seven in progress (D8): the marble, its steps, into the goal or not."""

    marble: int
    steps: int
    goal: bool

    def to_json(self) -> dict[str, Any]:
        return {"marble": self.marble, "steps": self.steps, "goal": self.goal}


EMPTY_FACE_DOWN: tuple[tuple[str, ...], ...] = ((),) * NUM_PLAYERS


@dataclass(frozen=True)
class Position:
    """A position as serialized."""

    max_turns: int
    board: Board
    hands: tuple[tuple[str, ...], ...]  # in kind order, as serialized
    pile: tuple[str, ...]  # the next card dealt is the last
    discards: tuple[str, ...]
    reshuffle_seed: int
    reshuffles: int
    round: int
    phase: str
    current: int
    exchange: tuple[str | None, ...]
    received: tuple[str | None, ...]
    # The card each player gave this round (kept after the exchange), and the cards each
    # has played this round (public): together they say who surely holds a given card.
    given: tuple[str | None, ...]
    played: tuple[tuple[str, ...], ...]
    seven: Seven | None
    sat_out: tuple[bool, ...]
    turns: int
    outcome: dict[str, Any] | None
    history: tuple[int, ...] = field(default=())
    # The cards played face up since the pile was last shuffled (D3), in card order, and
    # each seat's hands discarded face down on sitting out (D5), in card order.
    face_up: tuple[str, ...] = field(default=())
    face_down: tuple[tuple[str, ...], ...] = field(default=EMPTY_FACE_DOWN)
    # The parts of the seven in progress (D8), oldest first.
    seven_parts: tuple[SevenPart, ...] = field(default=())
    # The seat behind each action of the history.
    actors: tuple[int, ...] = field(default=())

    @staticmethod
    def from_json(data: dict[str, Any]) -> Position:
        assert len(data["marbles"]) == NUM_MARBLES
        seven = data["seven"]
        return Position(
            max_turns=data["rules"]["max_turns"],
            board=tuple(Marble(place_from_json(m["place"]), m["protected"]) for m in data["marbles"]),
            hands=tuple(tuple(hand) for hand in data["hands"]),
            pile=tuple(data["pile"]),
            discards=tuple(data["discards"]),
            reshuffle_seed=data["reshuffle_seed"],
            reshuffles=data["reshuffles"],
            round=data["round"],
            phase=data["phase"],
            current=data["current"],
            exchange=tuple(data["exchange"]),
            received=tuple(data["received"]),
            given=tuple(data.get("given", [None] * NUM_PLAYERS)),
            played=tuple(tuple(cards) for cards in data.get("played", [[]] * NUM_PLAYERS)),
            seven=None if seven is None else Seven(seven["remaining"], seven["joker"]),
            sat_out=tuple(data["sat_out"]),
            turns=data["turns"],
            outcome=data["outcome"],
            history=tuple(data["history"]),
            face_up=tuple(data["face_up"]),
            face_down=tuple(tuple(cards) for cards in data["face_down"]),
            seven_parts=tuple(SevenPart(p["marble"], p["steps"], p["goal"]) for p in data["seven_parts"]),
            actors=tuple(data["actors"]),
        )

    @functools.cached_property
    def mover_color(self) -> int:
        """D12: the colour the player to move moves with normal cards."""
        return moving_color(self.board, self.current)

    @staticmethod
    def of(state: Any) -> Position:
        """The position of an engine state, through its serialized JSON only."""
        return Position.from_json(json.loads(state.serialize()))

    def to_json(self) -> str:
        return json.dumps(
            {
                "rules": {"max_turns": self.max_turns},
                "marbles": [{"place": place_to_json(m.place), "protected": m.protected} for m in self.board],
                "hands": [list(hand) for hand in self.hands],
                "pile": list(self.pile),
                "discards": list(self.discards),
                "reshuffle_seed": self.reshuffle_seed,
                "reshuffles": self.reshuffles,
                "round": self.round,
                "phase": self.phase,
                "current": self.current,
                "exchange": list(self.exchange),
                "received": list(self.received),
                "given": list(self.given),
                "played": [list(cards) for cards in self.played],
                "face_up": list(self.face_up),
                "face_down": [list(cards) for cards in self.face_down],
                "seven": None
                if self.seven is None
                else {"remaining": self.seven.remaining, "joker": self.seven.joker},
                "seven_parts": [part.to_json() for part in self.seven_parts],
                "sat_out": list(self.sat_out),
                "turns": self.turns,
                "outcome": self.outcome,
                "history": list(self.history),
                "actors": list(self.actors),
            }
        )


def first_player(round_: int) -> int:
    """D4: the first player rotates by one seat each round (`round_` counted from 0, as
    serialized; views and texts count from 1)."""
    return round_ % NUM_PLAYERS


def hand_size(round_: int) -> int:
    return HAND_SIZES[round_ % len(HAND_SIZES)]


# --- D1-D12: legality -------------------------------------------------------------------


def board_after(pos: Position, mv: Move) -> Board | str:
    """The board after a play (no exchange, no sit out), or the ruling forbidding it.

    Holding the card is not looked at here (see `refusal`).
    """
    me = pos.current
    board = pos.board
    color = pos.mover_color
    after: Board | str
    if mv.kind == "start":
        after = start(board, color)
    elif mv.kind == "move":
        if color_of(mv.marble) != color:
            return "D7" if color == me else "D12"
        after = walk(board, mv.marble, mv.steps, mv.goal, seven=False)
    elif mv.kind == "seven":
        # D8: any marble of the team, own and partner's, from the start of the game.
        if team(color_of(mv.marble)) != team(me):
            return "D8"
        remaining = 7 if pos.seven is None else pos.seven.remaining
        if mv.steps > remaining:
            return "D8"
        after = walk(board, mv.marble, mv.steps, mv.goal, seven=True)
        if isinstance(after, str):
            return after
        if mv.joker and brings_last_home(board, after, team(me)):
            return "D11"
        if not seven_rest_usable(after, team(me), remaining - mv.steps, mv.joker):
            return "D8"
        return after
    else:
        assert mv.kind == "jack", mv
        if color_of(mv.marble) != color:
            return "D7" if color == me else "D12"
        after = jack(board, color, mv.marble, mv.other)
    if isinstance(after, str):
        return after
    # D11: the joker may not bring the team's last marble home.
    if mv.joker and brings_last_home(board, after, team(me)):
        return "D11"
    return after


def candidates(pos: Position) -> list[int]:
    """The action ids worth trying: those of the phase (the exchange, the open seven) and of
    the cards in the mover's hand. Every other id is refused for the phase (D4, D8) or for a
    card not held (D5), as `refusal` says without looking at the board."""
    if pos.outcome is not None:
        return []
    if pos.phase == "exchange":
        return list(range(EXCHANGE_BASE, START_BASE))
    if pos.seven is not None:
        return list(range(SEVEN_BASE, JACK_BASE))
    return sorted(a for card in set(pos.hands[pos.current]) for a in PLAYS_OF_CARD[card])


def has_play(pos: Position) -> bool:
    return any(refusal(pos, a) is None for a in candidates(pos))


def refusal(pos: Position, action: int) -> str | None:
    """The ruling that refuses `action` ("D5", "D8", ...), None if it is legal."""
    if pos.outcome is not None:
        return "D13"
    mv = decode(action)
    hand = pos.hands[pos.current]
    if pos.phase == "exchange":
        # D4: each player picks one card of the hand for the partner, before the first play.
        return None if mv.kind == "exchange" and mv.card in hand else "D4"
    if mv.kind == "exchange":
        return "D4"
    if pos.seven is not None:
        # D8: the seven in progress is used completely before anything else.
        if mv.kind != "seven" or mv.joker != pos.seven.joker:
            return "D8"
    elif mv.kind == "sit_out":
        # D5: only a player without a legal move sits out.
        return "D5" if has_play(pos) else None
    elif mv.card not in hand:
        return "D5"
    after = board_after(pos, mv)
    return after if isinstance(after, str) else None


def legal_actions(pos: Position) -> list[int]:
    """Every action id the rules allow, each candidate tried (sit out when nothing else is)."""
    if pos.outcome is not None:
        return []
    legal = [a for a in candidates(pos) if refusal(pos, a) is None]
    if pos.phase == "play" and pos.seven is None and not legal:
        legal.append(SIT_OUT)
    return legal


# --- D3-D13: what an action does ---------------------------------------------------------


def same_places(a: Board, b: Board) -> bool:
    """Equal up to which marble of a colour is which (who starts is no rule)."""

    def key(board: Board) -> list[list[tuple[Place, bool]]]:
        return [
            sorted((board[m].place, board[m].protected) for m in range(4 * c, 4 * c + 4)) for c in range(4)
        ]

    return key(a) == key(b)


def outcome_of(board: Board, turns: int, max_turns: int) -> dict[str, Any] | None:
    """D13 after a turn: a team with all 8 marbles in the goal wins (8 + the opponents'
    marbles not in the goal; the losers get their marbles in the goal); the clock
    (`max_turns`) gives each team 1 point per marble in the goal."""
    home = [team_in_goal(board, t) for t in (0, 1)]
    for t in (0, 1):
        if home[t] == 8:
            points = [0, 0]
            points[t] = 8 + (8 - home[1 - t])
            points[1 - t] = home[1 - t]
            return {"winner": t, "points": points, "reason": "all_home"}
    if max_turns > 0 and turns >= max_turns:
        return {"winner": None, "points": home, "reason": "turn_limit"}
    return None


def expected_returns(outcome: dict[str, Any] | None) -> list[float]:
    """R1: +1 for each player of the winning team, -1 for the others; 0 without a winner."""
    if outcome is None or outcome["winner"] is None:
        return [0.0] * NUM_PLAYERS
    return [1.0 if team(p) == outcome["winner"] else -1.0 for p in range(NUM_PLAYERS)]


@dataclass(frozen=True)
class Prediction:
    """The position after an action; `exact` is False after a reshuffle of the discards,
    whose order the oracle cannot know: then pile, discards and hands are only checked for
    the cards they hold and their sizes."""

    pos: Position
    exact: bool


def _deal(pos: Position) -> Prediction:
    """D3/D4: the next round's hands, dealt one card at a time from the first player on."""
    round_ = pos.round + 1
    first = first_player(round_)
    pile = list(pos.pile)
    discards = list(pos.discards)
    hands: list[list[str]] = [[] for _ in range(NUM_PLAYERS)]
    exact = True
    reshuffles = pos.reshuffles
    face_up, face_down = pos.face_up, pos.face_down
    for _ in range(hand_size(round_)):
        for i in range(NUM_PLAYERS):
            if not pile:
                # D3: the discards become the new pile, in an order the oracle cannot know;
                # everything seen face up or discarded face down is hidden again.
                exact = False
                pile, discards = list(sorted_cards(discards)), []
                reshuffles += 1
                face_up, face_down = (), EMPTY_FACE_DOWN
            hands[(first + i) % NUM_PLAYERS].append(pile.pop())
    after = replace(
        pos,
        hands=tuple(sorted_cards(h) for h in hands),
        pile=tuple(pile),
        discards=tuple(discards),
        face_up=face_up,
        face_down=face_down,
        reshuffles=reshuffles,
        round=round_,
        phase="exchange",
        current=first,
        exchange=(None,) * NUM_PLAYERS,
        received=(None,) * NUM_PLAYERS,
        given=(None,) * NUM_PLAYERS,
        played=((),) * NUM_PLAYERS,
        sat_out=(False,) * NUM_PLAYERS,
    )
    return Prediction(after, exact)


def _turn_done(pos: Position) -> Prediction:
    """After a card played completely or sitting out: the end (D13), else the next seat
    holding cards (D4), else the next round."""
    turns = pos.turns + 1
    outcome = outcome_of(pos.board, turns, pos.max_turns)
    pos = replace(pos, turns=turns)
    if outcome is not None:
        return Prediction(replace(pos, outcome=outcome, phase="over"), True)
    for i in range(1, NUM_PLAYERS + 1):
        p = (pos.current + i) % NUM_PLAYERS
        if pos.hands[p]:
            return Prediction(replace(pos, current=p), True)
    return _deal(pos)


def apply(pos: Position, action: int) -> Prediction:
    """The position after a legal action."""
    assert refusal(pos, action) is None, (action, decode(action))
    mv = decode(action)
    me = pos.current
    pos = replace(pos, history=(*pos.history, action), actors=(*pos.actors, me))
    hands = list(pos.hands)
    if mv.kind == "exchange":
        mine = list(hands[me])
        mine.remove(mv.card)
        hands[me] = tuple(mine)
        exchange = list(pos.exchange)
        exchange[me] = mv.card
        given = tuple(mv.card if p == me else g for p, g in enumerate(pos.given))
        pos = replace(pos, given=given)
        # D4: the picks are simultaneous; the current player is the first seat from the
        # round's first player that has not picked.
        first = first_player(pos.round)
        waiting = [
            (first + i) % NUM_PLAYERS
            for i in range(NUM_PLAYERS)
            if exchange[(first + i) % NUM_PLAYERS] is None
        ]
        if waiting:
            return Prediction(
                replace(pos, hands=tuple(hands), exchange=tuple(exchange), current=waiting[0]), True
            )
        # D4: all four picked: now each receives the partner's card.
        received = tuple(exchange[partner(p)] for p in range(NUM_PLAYERS))
        for p in range(NUM_PLAYERS):
            card = received[p]
            assert card is not None
            hands[p] = sorted_cards([*hands[p], card])
        after = replace(
            pos,
            hands=tuple(hands),
            exchange=(None,) * NUM_PLAYERS,
            received=received,
            phase="play",
            current=first_player(pos.round),
        )
        return Prediction(after, True)
    if mv.kind == "sit_out":
        # D5: the whole hand is discarded face down for the round.
        discards = pos.discards + hands[me]
        face_down = tuple(
            sorted_cards([*cards, *hands[me]]) if p == me else cards for p, cards in enumerate(pos.face_down)
        )
        hands[me] = ()
        sat_out = tuple(True if p == me else s for p, s in enumerate(pos.sat_out))
        return _turn_done(
            replace(pos, hands=tuple(hands), discards=discards, face_down=face_down, sat_out=sat_out)
        )
    discards = pos.discards
    played = pos.played
    face_up = pos.face_up
    if pos.seven is None:
        mine = list(hands[me])
        mine.remove(mv.card)
        hands[me] = tuple(mine)
        discards = (*discards, mv.card)
        played = tuple(
            sorted_cards([*cards, mv.card]) if p == me else cards for p, cards in enumerate(played)
        )
        face_up = sorted_cards([*face_up, mv.card])
    board = board_after(pos, mv)
    assert not isinstance(board, str)
    pos = replace(pos, board=board, hands=tuple(hands), discards=discards, played=played, face_up=face_up)
    if mv.kind == "seven":
        remaining = (7 if pos.seven is None else pos.seven.remaining) - mv.steps
        if remaining > 0:
            part = SevenPart(mv.marble, mv.steps, mv.goal)
            return Prediction(
                replace(pos, seven=Seven(remaining, mv.joker), seven_parts=(*pos.seven_parts, part)), True
            )
        pos = replace(pos, seven=None, seven_parts=())
    return _turn_done(pos)


# --- conservation and views --------------------------------------------------------------


def card_problems(pos: Position) -> list[str]:
    """D3: 110 cards, each exactly once in the pile, the discards, a hand or (during the
    exchange) a pick in transit."""
    problems: list[str] = []
    picks = [c for c in pos.exchange if c is not None]
    if pos.phase != "exchange" and picks:
        problems.append(f"picks {picks} outside the exchange")
    counts = Counter([*pos.pile, *pos.discards, *picks, *(c for hand in pos.hands for c in hand)])
    if counts != Counter(COPIES):
        problems.append(
            f"cards {dict(counts - Counter(COPIES))} too many, {dict(Counter(COPIES) - counts)} missing"
        )
    for p, hand in enumerate(pos.hands):
        if list(hand) != list(sorted_cards(hand)):
            problems.append(f"hand {p} not in card order: {hand}")
    return problems


def marble_problems(pos: Position) -> list[str]:
    """D2, D6: 16 marbles, each in one place: a kennel place, a ring field held by no other
    marble, or a field of its own goal lane held by no other; protected only on its own
    start field."""
    problems: list[str] = []
    cells: Counter[Cell] = Counter()
    for m, marble in enumerate(pos.board):
        kind, n = marble.place
        if kind == "ring" and not 0 <= n < RING:
            problems.append(f"marble {m} on ring field {n}")
        if kind == "goal" and not 0 <= n < GOAL_LEN:
            problems.append(f"marble {m} on goal field {n}")
        if marble.protected and marble.place != ring(start_field(color_of(m))):
            problems.append(f"marble {m} protected at {marble.place}")
        cell = cell_of(m, marble.place)
        if cell is not None:
            cells[cell] += 1
    problems += [f"{n} marbles on {cell}" for cell, n in cells.items() if n > 1]
    return problems


def expected_view(pos: Position, player: int) -> dict[str, Any]:
    """What `player` may see: the board, hand sizes, the own hand, the own pick and (once all
    four picked) the card received; never another hand, another pick or the pile's order."""
    seven = (
        None
        if pos.seven is None
        else {
            "remaining": pos.seven.remaining,
            "joker": pos.seven.joker,
            "parts": [part.to_json() for part in pos.seven_parts],
        }
    )
    return {
        "game": GAME_NAME,
        "player": player,
        "current_player": None if pos.outcome is not None else pos.current,
        "round": pos.round + 1,  # views count rounds from 1, as the seed does
        "hand_size": hand_size(pos.round),
        "first_player": first_player(pos.round),
        "phase": pos.phase,
        "marbles": [
            {
                "marble": m,
                "player": color_of(m),
                "color": COLORS[color_of(m)],
                "place": place_to_json(marble.place),
                "protected": marble.protected,
            }
            for m, marble in enumerate(pos.board)
        ],
        "hand": list(pos.hands[player]),
        "hand_sizes": [len(hand) for hand in pos.hands],
        "pile_size": len(pos.pile),
        "discard_size": len(pos.discards),
        "face_up": list(pos.face_up),
        "own_face_down": list(pos.face_down[player]),
        "played": [list(cards) for cards in pos.played],
        "exchange": {
            "picked": [pick is not None for pick in pos.exchange],
            "given": pos.given[player],
            "received": pos.received[player],
        },
        "seven": seven,
        "sat_out": list(pos.sat_out),
        "turns": pos.turns,
        "outcome": pos.outcome,
        "hand_targets": expected_targets(pos, player),
    }


def expected_targets(pos: Position, player: int) -> list[dict[str, Any]]:
    """What the board highlights for `player`'s cards: per card (in card order) its legal
    moves that move a marble (in action order), each with the marble, the place it ends on
    and the marbles it sends home, read off the board after the move. None off the player's
    turn, in the exchange (D4) or for sitting out (D5)."""
    if pos.outcome is not None or pos.phase != "play" or pos.current != player:
        return []
    by_card: dict[str, list[dict[str, Any]]] = {}
    for action in legal_actions(pos):
        mv = decode(action)
        if mv.kind in ("exchange", "sit_out"):
            continue
        after = board_after(pos, mv)
        assert not isinstance(after, str), (action, after)
        before = pos.board
        if mv.kind == "start":
            (marble,) = [
                m for m in range(NUM_MARBLES) if before[m].place == KENNEL and after[m].place != KENNEL
            ]
        else:
            marble = mv.marble
        home = [
            m
            for m in range(NUM_MARBLES)
            if m != marble and before[m].place != KENNEL and after[m].place == KENNEL
        ]
        target = {"marble": marble, "to": place_to_json(after[marble].place), "sends_home": home}
        by_card.setdefault(mv.card, []).append({**target, "move": expected_move(action)})
    return [{"card": card, "targets": by_card[card]} for card in sorted_cards(by_card)]


# --- explicit positions -------------------------------------------------------------------


def position_json(
    marbles: dict[int, Place | tuple[Place, bool]] | None = None,
    hands: Sequence[str] = ("", "", "", ""),
    *,
    current: int = 0,
    phase: str = "play",
    round_: int = 0,
    seven: tuple[int, bool] | None = None,
    exchange: Sequence[str | None] = (None, None, None, None),
    received: Sequence[str | None] = (None, None, None, None),
    discards: Sequence[str] = (),
    face_down: Sequence[str] = ("", "", "", ""),
    sat_out: Sequence[bool] = (False, False, False, False),
    turns: int | None = None,
    max_turns: int = 10000,
) -> str:
    """A serialized position: the marbles given as {marble: place} or {marble: (place,
    protected)}, every other marble in its kennel; hands as space-separated cards; the rest
    of the 110 cards in the pile (in card order, so the last dealt is a joker). The discards
    are the hands discarded face down (`face_down`, per seat, space-separated) and, for the
    rest, cards played face up. `turns` defaults to the fewest that reach the round (four a
    round: every seat plays or sits out at least once)."""
    board = [Marble(KENNEL, False) for _ in range(NUM_MARBLES)]
    for m, spec in (marbles or {}).items():
        if isinstance(spec[0], tuple):
            place, protected = spec
            assert isinstance(place, tuple) and isinstance(protected, bool)
            board[m] = Marble(place, protected)
        else:
            kind, n = spec
            assert isinstance(kind, str) and isinstance(n, int)
            board[m] = Marble((kind, n), False)
    hand_lists = [sorted_cards(h.split()) for h in hands]
    used = Counter([c for h in hand_lists for c in h] + list(discards) + [c for c in exchange if c])
    left = Counter(COPIES) - used
    assert not used - Counter(COPIES), used
    pile = [card for card in CARD_NAMES for _ in range(left[card])]
    down = tuple(sorted_cards(cards.split()) for cards in face_down)
    face_up = Counter(discards) - Counter(c for cards in down for c in cards)
    assert Counter(discards) == face_up + Counter(c for cards in down for c in cards), (discards, face_down)
    pos = Position(
        max_turns=max_turns,
        board=tuple(board),
        hands=tuple(hand_lists),
        pile=tuple(pile),
        discards=tuple(discards),
        face_up=sorted_cards(face_up.elements()),
        face_down=down,
        reshuffle_seed=1,
        reshuffles=0,
        round=round_,
        phase=phase,
        current=current,
        exchange=tuple(exchange),
        received=tuple(received),
        given=(None,) * NUM_PLAYERS,
        played=((),) * NUM_PLAYERS,
        seven=None if seven is None else Seven(*seven),
        sat_out=tuple(sat_out),
        turns=4 * round_ if turns is None else turns,
        outcome=None,
    )
    return pos.to_json()
