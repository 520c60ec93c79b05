"""Plain-Python rules of Caravan, the oracle the engine is checked against.

Written from the rule text (seeds/caravan.de.txt) and RULINGS.md C1-C10, slow and obvious on
purpose, and never calling the engine. Positions are the engine's serialized JSON (fields as
documented in core/src/caravan/state.rs: the next card drawn is the last of a deck, hands are
sorted, a caravan is a list of slots `{number: {card, owner}, faces: [{card, owner}]}`, and
*Fester Kurs* keeps a direction in `kept`). The action encoding is the one documented in
core/src/caravan/mod.rs; the card notation the one of core/src/caravan/cards.rs.

`position_json` builds positions for `game.deserialize_state` from a compact notation.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

GAME_NAME = "caravan"

# C10: the twelve variants, all off by default (option names as in state.rs).
VARIANTS: tuple[str, ...] = (
    "queens_anywhere",
    "kings_add",
    "founding_suit",
    "unlimited_face_cards",
    "quick_sale",
    "reshuffle",
    "short_deck",
    "double_deck",
    "queens_shield",
    "fixed_course",
    "fresh_hand",
    "protected_joker",
)
STANDARD: dict[str, bool] = dict.fromkeys(VARIANTS, False)

# Every refusal of a well-formed action names its ruling: "C2: ...", "C5: ...".
RULING_PREFIX = re.compile(r"^(C[1-9]|C10): \S")

# --- Cards (cards.rs) ------------------------------------------------------------------

SUITS = "CDHS"
SUIT_NAMES: tuple[str, ...] = ("clubs", "diamonds", "hearts", "spades")
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
_RANK_NAMES = {ACE: "A", JACK: "J", QUEEN: "Q", KING: "K"}
JOKERS: tuple[str, ...] = ("JK1", "JK2", "JK3", "JK4")


def card_name(suit: int, rank: int) -> str:
    return f"{_RANK_NAMES.get(rank, str(rank))}{SUITS[suit]}"


# Every card face in index order: suit * 13 + rank - 1, then the jokers 52-55.
ALL_FACES: tuple[str, ...] = (
    *(card_name(suit, rank) for suit in range(4) for rank in range(1, 14)),
    *JOKERS,
)
CARD_INDEX: dict[str, int] = {card: i for i, card in enumerate(ALL_FACES)}
NUMBER_CARDS: tuple[str, ...] = tuple(card_name(suit, rank) for suit in range(4) for rank in range(1, 11))
FACE_CARDS: tuple[str, ...] = (
    *(card_name(suit, rank) for suit in range(4) for rank in (JACK, QUEEN, KING)),
    *JOKERS,
)
_RANK: dict[str, int | None] = {
    card: None if card in JOKERS else CARD_INDEX[card] % 13 + 1 for card in ALL_FACES
}
_SUIT: dict[str, int | None] = {
    card: None if card in JOKERS else CARD_INDEX[card] // 13 for card in ALL_FACES
}


def rank_of(card: str) -> int | None:
    """1 (ace) to 13 (king); None for a joker."""
    return _RANK[card]


def suit_of(card: str) -> int | None:
    """0-3 for C D H S; None for a joker, which never counts as any suit (C4)."""
    return _SUIT[card]


def suit_name(card: str) -> str | None:
    """ "clubs" ... "spades"; None for a joker."""
    suit = _SUIT[card]
    return None if suit is None else SUIT_NAMES[suit]


def is_number(card: str) -> bool:
    rank = _RANK[card]
    return rank is not None and rank <= 10


def is_joker(card: str) -> bool:
    return _RANK[card] is None


def value_of(card: str) -> int:
    """The printed value of a number card (ace 1); face cards and jokers count nothing."""
    rank = _RANK[card]
    return rank if rank is not None and rank <= 10 else 0


def sorted_cards(cards: Iterable[str]) -> list[str]:
    """Cards in index order, as hands are kept."""
    return sorted(cards, key=CARD_INDEX.__getitem__)


def full_deck(double_deck: bool = False) -> Counter[str]:
    """C1: one player's deck, the 52 cards and JK1, JK2; Doppeldeck: two of each, JK1-JK4."""
    if double_deck:
        return Counter({**dict.fromkeys(ALL_FACES[:52], 2), **dict.fromkeys(JOKERS, 1)})
    return Counter(ALL_FACES[:54])


HAND_SIZE = 8
SHORT_DECK = 30
SELL_MIN, SELL_MAX = 21, 26

# --- Actions (mod.rs) ------------------------------------------------------------------

NUM_CARAVANS = 6
FACE_BASE = 40 * NUM_CARAVANS


def owner_of(caravan: int) -> int:
    """Caravans 0-2 are player 0's, 3-5 player 1's."""
    return caravan // 3


def own_caravans(player: int) -> range:
    return range(3 * player, 3 * player + 3)


def positions(rules: Mapping[str, bool]) -> int:
    """P: the most number cards a caravan can hold, 40 (80 with two decks)."""
    return 80 if rules["double_deck"] else 40


def discard_base(rules: Mapping[str, bool]) -> int:
    return FACE_BASE + len(FACE_CARDS) * NUM_CARAVANS * positions(rules)


def disband_base(rules: Mapping[str, bool]) -> int:
    return discard_base(rules) + len(ALL_FACES)


def num_actions(rules: Mapping[str, bool]) -> int:
    return disband_base(rules) + NUM_CARAVANS


def _face_code(card: str) -> int:
    """`suit * 3 + rank - 11` for J Q K, `11 + n` for JKn."""
    if card in JOKERS:
        return 11 + int(card[2:])
    rank, suit = rank_of(card), suit_of(card)
    assert rank is not None and suit is not None
    return suit * 3 + rank - JACK


def play_id(card: str, caravan: int, position: int, rules: Mapping[str, bool]) -> int:
    """The action id of playing `card` (onto the `position`-th number card, for face cards)."""
    if is_number(card):
        return (_NUMBER_CODE[card]) * NUM_CARAVANS + caravan
    return FACE_BASE + (_FACE_CODE[card] * NUM_CARAVANS + caravan) * positions(rules) + position


# `suit * 10 + value - 1` for number cards; `_face_code` for the others.
_NUMBER_CODE: dict[str, int] = {
    card: (CARD_INDEX[card] // 13) * 10 + CARD_INDEX[card] % 13 for card in NUMBER_CARDS
}
_FACE_CODE: dict[str, int] = {card: _face_code(card) for card in FACE_CARDS}


def encode(move: Mapping[str, Any], rules: Mapping[str, bool]) -> int:
    """The action id of a JSON move, by the table in mod.rs."""
    if move["type"] == "discard":
        return discard_base(rules) + CARD_INDEX[move["card"]]
    if move["type"] == "disband":
        return disband_base(rules) + int(move["caravan"])
    assert move["type"] == "play", move
    card, caravan = move["card"], int(move["caravan"])
    return play_id(card, caravan, int(move.get("position", 0)), rules)


def decode(action: int, rules: Mapping[str, bool]) -> dict[str, Any]:
    """The JSON move of an action id, by the table in mod.rs."""
    assert 0 <= action < num_actions(rules), action
    if action < FACE_BASE:
        number, caravan = divmod(action, NUM_CARAVANS)
        suit, value = divmod(number, 10)
        return {"type": "play", "card": card_name(suit, value + 1), "caravan": caravan}
    if action < discard_base(rules):
        face, rest = divmod(action - FACE_BASE, NUM_CARAVANS * positions(rules))
        caravan, position = divmod(rest, positions(rules))
        card = card_name(face // 3, JACK + face % 3) if face < 12 else JOKERS[face - 12]
        return {"type": "play", "card": card, "caravan": caravan, "position": position}
    if action < disband_base(rules):
        return {"type": "discard", "card": ALL_FACES[action - discard_base(rules)]}
    return {"type": "disband", "caravan": action - disband_base(rules)}


# --- What a caravan shows (C3, C4, C7) --------------------------------------------------


def _faces(slot: Mapping[str, Any], rank: int) -> list[str]:
    return [face["card"] for face in slot["faces"] if _RANK[face["card"]] == rank]


def slot_value(slot: Mapping[str, Any], rules: Mapping[str, bool]) -> int:
    """C7: a king doubles its card (Könige addieren: adds the card's value), once per king."""
    value = value_of(slot["number"]["card"])
    if not slot["faces"]:
        return value
    kings = sum(_RANK[face["card"]] == KING for face in slot["faces"])
    return value * (1 + kings) if rules["kings_add"] else value * 2**kings


def caravan_value(caravan: Mapping[str, Any], rules: Mapping[str, bool]) -> int:
    return sum(slot_value(slot, rules) for slot in caravan["slots"])


def base_direction(caravan: Mapping[str, Any], rules: Mapping[str, bool]) -> str | None:
    """C3: from the last two printed values (kings do not count); none below two cards.

    Two equal values at the end (only a jack or joker can leave them) are descending; under
    Fester Kurs they keep the direction remembered from just before that removal.
    """
    slots = caravan["slots"]
    if len(slots) < 2:
        return None
    before, last = value_of(slots[-2]["number"]["card"]), value_of(slots[-1]["number"]["card"])
    if last > before:
        return "ascending"
    if last < before:
        return "descending"
    if rules["fixed_course"] and caravan.get("kept") is not None:
        kept: str = caravan["kept"]
        return kept
    return "descending"


def reversed_direction(direction: str) -> str:
    return "descending" if direction == "ascending" else "ascending"


def caravan_direction(caravan: Mapping[str, Any], rules: Mapping[str, bool]) -> str | None:
    """C3: the base direction, reversed once per queen on the last number card."""
    direction = base_direction(caravan, rules)
    if direction is not None and len(_faces(caravan["slots"][-1], QUEEN)) % 2 == 1:
        return reversed_direction(direction)
    return direction


def caravan_suit(caravan: Mapping[str, Any], rules: Mapping[str, bool]) -> str | None:
    """C4: the topmost queen on the last number card, else the last (Gründungsfarbe: the
    first) number card's suit."""
    slots = caravan["slots"]
    if not slots:
        return None
    queens = _faces(slots[-1], QUEEN)
    card = queens[-1] if queens else slots[0 if rules["founding_suit"] else -1]["number"]["card"]
    return suit_name(card)


# --- Selling and the end (C9) -----------------------------------------------------------


def sellable(value: int) -> bool:
    return SELL_MIN <= value <= SELL_MAX


def seller(mine: int, theirs: int) -> int | None:
    """C9 for one pair (player 0's value, player 1's value): who sells it, if anyone."""
    if sellable(mine) and sellable(theirs):
        if mine == theirs:
            return None  # a tie sells nothing until it is broken
        return 0 if mine > theirs else 1
    if sellable(mine):
        return 0
    if sellable(theirs):
        return 1
    return None


def sold_by(data: Mapping[str, Any], values: Sequence[int] | None = None) -> list[int | None]:
    """Who sells each pair (caravan i against caravan 3 + i); `values` if already known."""
    if values is None:
        values = [caravan_value(caravan, data["rules"]) for caravan in data["caravans"]]
    return [seller(values[pair], values[3 + pair]) for pair in range(3)]


def pair_facts(a: int, b: int) -> dict[str, Any]:
    """What the board shows of a pair's sale (C9): each caravan below, in or above 21-26, and
    whether both are in the range with the same value (then neither sells)."""

    def where(value: int) -> str:
        return "below" if value < 21 else "in_range" if value <= 26 else "above"

    return {"range": [where(a), where(b)], "tied": 21 <= a <= 26 and a == b}


def expected_outcome(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """C9 after a move: selling (and Schnellverkauf) first, then running out of cards."""
    sales = sold_by(data)
    counts = [sales.count(0), sales.count(1)]
    if data["rules"]["quick_sale"]:
        for p in (0, 1):
            if counts[p] >= 2:
                return {"winner": p, "reason": "quick_sale"}
    if None not in sales:
        return {"winner": 0 if counts[0] >= 2 else 1, "reason": "sold"}
    out = [not data["hands"][p] and not data["decks"][p] for p in (0, 1)]
    if out == [False, False]:
        return None
    winner = None if all(out) else (1 if out[0] else 0)
    return {"winner": winner, "reason": "out_of_cards"}


def expected_returns(outcome: Mapping[str, Any] | None) -> list[float]:
    """R1: +1 for the winner, -1 for the loser, 0 each for a draw or a running game."""
    if outcome is None or outcome["winner"] is None:
        return [0.0, 0.0]
    return [1.0 if p == outcome["winner"] else -1.0 for p in (0, 1)]


# --- Legal moves (C2, C5, C6, C8) -------------------------------------------------------


def in_opening(data: Mapping[str, Any], player: int) -> bool:
    done: bool = data["opening_done"][player]
    return not done


def holds_number_card(data: Mapping[str, Any], player: int) -> bool:
    return any(is_number(card) for card in data["hands"][player])


def refusal_reasons(data: Mapping[str, Any], move: Mapping[str, Any]) -> list[tuple[str, str | None]]:
    """Every reason that forbids `move` for the player to move, as (ruling, message): the
    message where the rules' wording is fixed (C2 face cards in the opening, C5 direction,
    C6 cap), else None. Empty iff the move is legal."""
    if data["outcome"] is not None:
        return [("C9", None)]
    rules = data["rules"]
    me: int = data["current"]
    opening = in_opening(data, me)
    found: list[tuple[str, str | None]] = []
    if move["type"] == "disband":
        caravan = move["caravan"]
        if opening:
            found.append(("C2", None))  # no disbanding in one's opening
        if owner_of(caravan) != me or not data["caravans"][caravan]["slots"]:
            found.append(("C8", None))  # one own non-empty caravan
        return found
    card = move["card"]
    if card not in data["hands"][me]:
        found.append(("C8", None))
    if move["type"] == "discard":
        if opening and holds_number_card(data, me):
            found.append(("C2", None))  # only a player holding no number card may discard
        return found
    caravan_id = move["caravan"]
    caravan = data["caravans"][caravan_id]
    slots = caravan["slots"]
    if is_number(card):
        if owner_of(caravan_id) != me:
            found.append(("C5", None))  # own caravans only
        if opening and slots:
            found.append(("C2", None))  # the opening places cards onto empty caravans
        if slots:
            last_card = slots[-1]["number"]["card"]
            last, value = value_of(last_card), value_of(card)
            direction = caravan_direction(caravan, rules)
            suit = caravan_suit(caravan, rules)
            if value == last:
                found.append(("C5", None))  # never the same value twice in a row
            elif (
                direction is not None
                and (value < last if direction == "ascending" else value > last)
                and suit_name(card) != suit
            ):
                # C5: with a direction the card follows it unless it matches the suit.
                article = "an" if direction == "ascending" else "a"
                message = f"C5: {card} cannot follow {last_card} on {article} {direction} caravan"
                found.append(("C5", f"{message} unless it is {suit}"))
        return found
    if opening:
        found.append(("C2", "C2: the opening allows number cards only"))
    position = move["position"]
    if position >= len(slots):
        found.append(("C6", None))  # no number card there
        return found
    if len(slots[position]["faces"]) >= 3 and not rules["unlimited_face_cards"]:
        # (texts number caravans 1-6, as the board shows them)
        on = f"{slots[position]['number']['card']} on caravan {caravan_id + 1}"
        found.append(("C6", f"C6: a number card may carry at most 3 face cards: {on} is full"))
    if rank_of(card) == QUEEN and position != len(slots) - 1 and not rules["queens_anywhere"]:
        found.append(("C6", None))  # queens onto the last number card only
    return found


def refusals(data: Mapping[str, Any], move: Mapping[str, Any]) -> set[str]:
    """The rulings that forbid `move` for the player to move; empty iff it is legal."""
    return {ruling for ruling, _ in refusal_reasons(data, move)}


def candidate_moves(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every move of the player to move that could be legal: their cards anywhere, disbands."""
    me: int = data["current"]
    moves: list[dict[str, Any]] = []
    for card in sorted_cards(set(data["hands"][me])):
        for caravan in range(NUM_CARAVANS):
            if is_number(card):
                moves.append({"type": "play", "card": card, "caravan": caravan})
            else:
                for position in range(len(data["caravans"][caravan]["slots"])):
                    moves.append({"type": "play", "card": card, "caravan": caravan, "position": position})
        moves.append({"type": "discard", "card": card})
    moves += [{"type": "disband", "caravan": caravan} for caravan in range(NUM_CARAVANS)]
    return moves


def legal_actions_by_refusals(data: Mapping[str, Any]) -> list[int]:
    """The legal actions as the candidate moves `refusals` has nothing against (slow)."""
    if data["outcome"] is not None:
        return []
    rules = data["rules"]
    return sorted(encode(move, rules) for move in candidate_moves(data) if not refusals(data, move))


def legal_actions(data: Mapping[str, Any]) -> list[int]:
    """The legal actions, sorted (the same as `legal_actions_by_refusals`, faster: what
    each caravan allows is worked out once)."""
    if data["outcome"] is not None:
        return []
    rules = data["rules"]
    me: int = data["current"]
    opening = in_opening(data, me)
    caravans = data["caravans"]
    # C2, C5: what a number card needs on each own caravan (none on an empty one).
    number_targets: list[tuple[int, int, str | None, str | None]] = []
    for c in own_caravans(me):
        slots = caravans[c]["slots"]
        if not slots:
            number_targets.append((c, 0, None, None))
        elif not opening:
            last = value_of(slots[-1]["number"]["card"])
            number_targets.append(
                (c, last, caravan_direction(caravans[c], rules), caravan_suit(caravans[c], rules))
            )
    # C6: number cards with room for a face card, and those a queen may go onto.
    open_slots = [
        (c, i, i == len(caravan["slots"]) - 1)
        for c, caravan in enumerate(caravans)
        for i, slot in enumerate(caravan["slots"])
        if rules["unlimited_face_cards"] or len(slot["faces"]) < 3
    ]
    queen_slots = [(c, i, last) for c, i, last in open_slots if last or rules["queens_anywhere"]]
    may_discard = not opening or not holds_number_card(data, me)
    actions = []
    for card in set(data["hands"][me]):
        if is_number(card):
            value, suit = value_of(card), suit_name(card)
            for c, last, direction, caravan_suit_name in number_targets:
                if value == last:
                    continue
                follows = direction is None or (value > last if direction == "ascending" else value < last)
                if follows or suit == caravan_suit_name:
                    actions.append(encode({"type": "play", "card": card, "caravan": c}, rules))
        elif not opening:
            for c, i, _ in queen_slots if rank_of(card) == QUEEN else open_slots:
                actions.append(encode({"type": "play", "card": card, "caravan": c, "position": i}, rules))
        if may_discard:
            actions.append(encode({"type": "discard", "card": card}, rules))
    if not opening:
        actions += [
            encode({"type": "disband", "caravan": c}, rules) for c in own_caravans(me) if caravans[c]["slots"]
        ]
    return sorted(actions)


# --- Applying a move (C2, C7, C8, C9, C10) ---------------------------------------------


def joker_takes(target: str, slot: Mapping[str, Any], rules: Mapping[str, bool]) -> bool:
    """C7: whether a joker on `target` removes the number card of `slot` (not its own)."""
    card = slot["number"]["card"]
    if value_of(target) == ACE:
        # Every other number card of the ace's printed suit, aces included; Schild der Dame
        # spares cards carrying a queen.
        if suit_of(card) != suit_of(target):
            return False
        return not (rules["queens_shield"] and _faces(slot, QUEEN))
    return value_of(card) == value_of(target)


@dataclass
class Prediction:
    """The expected state after an action.

    Under Neu mischen (C10) the discard pile that becomes the new deck is shuffled by the
    engine's seeded generator: `reshuffled` names the player, `state` then holds that deck
    in index order and their hand without the card drawn from it, which `resolve` checks
    against the engine's state.
    """

    state: dict[str, Any]
    reshuffled: int | None = None
    # What the action did, for the tally of the invariants test.
    removed: int = 0  # number cards a jack or joker took off the table
    spared_by_variant: int = 0  # cards Schild der Dame or Geschützter Joker kept on it
    equal_ends: int = 0  # removals that left two equal values at the end of a caravan
    kept_ascending: int = 0  # of those, under Fester Kurs, kept ascending
    refilled: int | None = None  # the next player, who drew into an empty hand first


def _copied(data: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of everything an action can change."""
    out = dict(data)
    for key in ("decks", "hands", "discards"):
        out[key] = [list(cards) for cards in data[key]]
    out["caravans"] = [
        {**caravan, "slots": [{"number": s["number"], "faces": list(s["faces"])} for s in caravan["slots"]]}
        for caravan in data["caravans"]
    ]
    out["opening_done"] = list(data["opening_done"])
    out["reshuffles"] = list(data["reshuffles"])
    out["reshuffled"] = [list(cards) for cards in data.get("reshuffled", [[], []])]
    out["history"] = list(data["history"])
    return out


def _to_discard_piles(after: dict[str, Any], owned: Iterable[Mapping[str, Any]]) -> None:
    """C1: whatever leaves the table goes to its owner's discard pile."""
    for card in owned:
        after["discards"][card["owner"]].append(card["card"])


def _remove_slots(after: dict[str, Any], caravan_id: int, doomed: set[int], prediction: Prediction) -> None:
    """C7: removes the slots `doomed` with everything on them; C3 under Fester Kurs."""
    if not doomed:
        return
    rules = after["rules"]
    caravan = after["caravans"][caravan_id]
    before = base_direction(caravan, rules)
    for i in sorted(doomed):
        slot = caravan["slots"][i]
        _to_discard_piles(after, [slot["number"], *slot["faces"]])
    caravan["slots"] = [slot for i, slot in enumerate(caravan["slots"]) if i not in doomed]
    prediction.removed += len(doomed)
    slots = caravan["slots"]
    if len(slots) >= 2 and value_of(slots[-1]["number"]["card"]) == value_of(slots[-2]["number"]["card"]):
        prediction.equal_ends += 1
        if rules["fixed_course"]:
            # C3: the base direction the caravan had just before the removal.
            caravan["kept"] = before
            prediction.kept_ascending += before == "ascending"


def _draw(after: dict[str, Any], player: int, prediction: Prediction) -> None:
    """C8: one card from the deck if it has one; C10 Neu mischen refills an empty deck from
    the discard pile (the card just discarded included), at most twice per player."""
    rules = after["rules"]
    if (
        not after["decks"][player]
        and rules["reshuffle"]
        and after["reshuffles"][player] < 2
        and after["discards"][player]
    ):
        after["decks"][player] = sorted_cards(after["discards"][player])
        # The pile lay face up: the new deck's cards are public from now on.
        after["reshuffled"][player] = sorted_cards(after["discards"][player])
        after["discards"][player] = []
        after["reshuffles"][player] += 1
        prediction.reshuffled = player
        return  # which card is drawn depends on the engine's shuffle: see `resolve`
    if after["decks"][player]:
        after["hands"][player] = sorted_cards([*after["hands"][player], after["decks"][player].pop()])


def apply(data: Mapping[str, Any], action: int) -> Prediction:
    """The state after a legal action."""
    rules = data["rules"]
    move = decode(action, rules)
    assert not refusals(data, move), (move, refusals(data, move))
    after = _copied(data)
    prediction = Prediction(after)
    me: int = data["current"]
    opening = in_opening(data, me)
    after["history"].append(action)
    if move["type"] == "disband":
        caravan = after["caravans"][move["caravan"]]
        for slot in caravan["slots"]:
            _to_discard_piles(after, [slot["number"], *slot["faces"]])
        caravan["slots"] = []  # C8: disbanding draws nothing
    else:
        card = move["card"]
        after["hands"][me].remove(card)
        if move["type"] == "discard":
            after["discards"][me].append(card)
            _draw(after, me, prediction)
        elif is_number(card):
            after["caravans"][move["caravan"]]["slots"].append(
                {"number": {"card": card, "owner": me}, "faces": []}
            )
            if not opening:
                _draw(after, me, prediction)
            elif all(after["caravans"][c]["slots"] for c in own_caravans(me)):
                # C2: the opening ends once all three caravans hold a card (no draw in it).
                after["opening_done"][me] = True
        else:
            _play_face(after, me, move, prediction)
            _draw(after, me, prediction)
    after["current"] = 1 - me
    after["outcome"] = expected_outcome(after)
    nxt = after["current"]
    if after["outcome"] is None and not after["hands"][nxt] and after["decks"][nxt]:
        # A player to move with an empty hand draws one card first, if their deck has
        # cards (README: jacks and jokers against an opening, C2, can empty a hand).
        after["hands"][nxt] = [after["decks"][nxt].pop()]
        prediction.refilled = nxt
    return prediction


def _play_face(after: dict[str, Any], me: int, move: Mapping[str, Any], prediction: Prediction) -> None:
    rules = after["rules"]
    card, caravan_id, position = move["card"], move["caravan"], move["position"]
    placed = {"card": card, "owner": me}
    rank = rank_of(card)
    if rank == JACK:
        # C7: the jack removes its number card with everything on it, and itself.
        _to_discard_piles(after, [placed])
        _remove_slots(after, caravan_id, {position}, prediction)
        return
    slot = after["caravans"][caravan_id]["slots"][position]
    slot["faces"].append(placed)
    if rank is not None:
        return  # queens and kings act through what the caravan shows
    target = slot["number"]["card"]
    plain = {**rules, "queens_shield": False}
    for c in range(NUM_CARAVANS):
        slots = after["caravans"][c]["slots"]
        others = [i for i in range(len(slots)) if (c, i) != (caravan_id, position)]
        doomed = {i for i in others if joker_takes(target, slots[i], rules)}
        prediction.spared_by_variant += sum(joker_takes(target, slots[i], plain) for i in others) - len(
            doomed
        )
        if rules["protected_joker"] and c == caravan_id:
            prediction.spared_by_variant += len(doomed)
            continue  # Geschützter Joker: nothing leaves the joker's own caravan
        _remove_slots(after, c, doomed, prediction)


def resolve(prediction: Prediction, actual: Mapping[str, Any]) -> dict[str, Any]:
    """The predicted state with the one thing left open (the reshuffled deck's order and so
    the card drawn from it) taken from the engine, after checking it is consistent."""
    expected = prediction.state
    p = prediction.reshuffled
    if p is None:
        return expected
    new_deck = Counter(expected["decks"][p])
    drawn = Counter(actual["hands"][p]) - Counter(expected["hands"][p])
    assert sum(drawn.values()) == 1, f"one card drawn after the reshuffle, got {drawn}"
    assert Counter(actual["hands"][p]) - drawn == Counter(expected["hands"][p])
    assert Counter(actual["decks"][p]) + drawn == new_deck, (
        f"the new deck of player {p} is the discard pile: {sorted(new_deck)} "
        f"!= {sorted(actual['decks'][p])} + {sorted(drawn)}"
    )
    resolved = dict(expected)
    resolved["decks"] = [list(actual["decks"][q]) if q == p else expected["decks"][q] for q in (0, 1)]
    resolved["hands"] = [list(actual["hands"][q]) if q == p else expected["hands"][q] for q in (0, 1)]
    return resolved


def comparable(data: Mapping[str, Any]) -> dict[str, Any]:
    """A state with what the rules leave open taken out.

    The order in which one action's cards reach a discard pile is not a rule (the piles are
    compared as multisets); whose turn it would be after the end means nothing; and
    Fester Kurs' `kept` means something only while a caravan ends in two equal values.
    """
    out = dict(data)
    out["discards"] = [sorted_cards(pile) for pile in data["discards"]]
    if data["outcome"] is not None:
        out.pop("current", None)
    caravans = []
    for caravan in data["caravans"]:
        slots = caravan["slots"]
        equal_end = len(slots) >= 2 and value_of(slots[-1]["number"]["card"]) == value_of(
            slots[-2]["number"]["card"]
        )
        kept = caravan.get("kept") if equal_end and data["rules"]["fixed_course"] else None
        caravans.append({"slots": slots, "kept": kept})
    out["caravans"] = caravans
    return out


# --- Conservation (C1, C10) and what a player sees --------------------------------------


def table_cards(data: Mapping[str, Any], player: int) -> list[str]:
    """The cards on the table that came from `player`'s deck, number and face cards."""
    return [
        owned["card"]
        for caravan in data["caravans"]
        for slot in caravan["slots"]
        for owned in (slot["number"], *slot["faces"])
        if owned["owner"] == player
    ]


def player_cards(data: Mapping[str, Any], player: int) -> Counter[str]:
    """C1: every card of a player's deck is in their deck, hand, discard pile or on the table."""
    return Counter(
        [
            *data["decks"][player],
            *data["hands"][player],
            *data["discards"][player],
            *table_cards(data, player),
        ]
    )


def held_cards(data: Mapping[str, Any], player: int) -> list[str]:
    """`player_cards` as a sorted list (quicker to compare)."""
    return sorted(
        [
            *data["decks"][player],
            *data["hands"][player],
            *data["discards"][player],
            *table_cards(data, player),
        ]
    )


def deck_problems(cards: Counter[str], rules: Mapping[str, bool]) -> list[str]:
    """What is wrong with one player's cards as a deck of these rules (C1, C10)."""
    full = full_deck(rules["double_deck"])
    problems = []
    if not cards <= full:
        problems.append(f"cards not in the deck: {sorted((cards - full).elements())}")
    size = sum(cards.values())
    expected = SHORT_DECK if rules["short_deck"] else sum(full.values())
    if size != expected:
        problems.append(f"{size} cards, the deck has {expected}")
    return problems


def table_problems(data: Mapping[str, Any]) -> list[str]:
    """C5: number cards lie on their owner's caravans; C6: face cards on number cards, at
    most three (Unbegrenzte Bildkarten: any number)."""
    problems = []
    for i, caravan in enumerate(data["caravans"]):
        for j, slot in enumerate(caravan["slots"]):
            if not is_number(slot["number"]["card"]) or slot["number"]["owner"] != owner_of(i):
                problems.append(f"caravan {i} position {j}: {slot['number']}")
            if any(is_number(face["card"]) for face in slot["faces"]):
                problems.append(f"caravan {i} position {j}: a number card among the faces {slot['faces']}")
            if len(slot["faces"]) > 3 and not data["rules"]["unlimited_face_cards"]:
                problems.append(f"caravan {i} position {j}: {len(slot['faces'])} face cards")
    return problems


VIEW_KEYS = frozenset(
    {
        "game",
        "player",
        "current_player",
        "first_player",
        "ranked",
        "caravans",
        "pairs",
        "hand",
        "hand_sizes",
        "deck_sizes",
        "discard_piles",
        "in_opening",
        "reshuffles_used",
        "reshuffled",
        "shown_hands",
        "outcome",
    }
)


def public_view(data: Mapping[str, Any]) -> dict[str, Any]:
    """What both players see: the table with each caravan's value, direction and suit, who
    sells each pair, the discard piles, hand and deck sizes, and the hands shown under
    Frische Hand; never a hand or a deck."""
    rules = data["rules"]
    values = [caravan_value(caravan, rules) for caravan in data["caravans"]]
    return {
        "game": GAME_NAME,
        "current_player": None if data["outcome"] is not None else data["current"],
        "first_player": data["first_player"],
        "ranked": not any(rules.values()),
        "caravans": [
            {
                "caravan": i,
                "owner": owner_of(i),
                "value": values[i],
                "direction": caravan_direction(caravan, rules),
                "suit": caravan_suit(caravan, rules),
                "cards": [
                    {"card": slot["number"]["card"], "owner": slot["number"]["owner"], "faces": slot["faces"]}
                    for slot in caravan["slots"]
                ],
            }
            for i, caravan in enumerate(data["caravans"])
        ],
        "pairs": [
            {"sold_by": s, "facts": pair_facts(values[pair], values[3 + pair])}
            for pair, s in enumerate(sold_by(data, values))
        ],
        "hand_sizes": [len(hand) for hand in data["hands"]],
        "deck_sizes": [len(deck) for deck in data["decks"]],
        "discard_piles": data["discards"],
        "in_opening": [in_opening(data, p) for p in (0, 1)],
        "reshuffles_used": data["reshuffles"],
        # C10 Neu mischen: each player's latest reshuffled pile (it lay face up), sorted.
        "reshuffled": [sorted_cards(pile) for pile in data.get("reshuffled", [[], []])],
        "shown_hands": data["shown_hands"],
        "outcome": data["outcome"],
    }


def expected_view(
    data: Mapping[str, Any], player: int, public: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """What `player` may see: the public view and the own hand."""
    return {
        **(public_view(data) if public is None else public),
        "player": player,
        "hand": data["hands"][player],
    }


# --- Positions from a compact notation --------------------------------------------------


def _owned(token: str, owner: int) -> dict[str, Any]:
    # A card of the other player ends in "'".
    if token.endswith("'"):
        return {"card": token[:-1], "owner": 1 - owner}
    return {"card": token, "owner": owner}


def caravan_json(text: str, owner: int) -> list[dict[str, Any]]:
    """Slots from e.g. "7H 9C+QS'": 7H, then 9C carrying the other player's QS."""
    slots = []
    for token in text.split():
        number, *faces = token.split("+")
        slots.append({"number": _owned(number, owner), "faces": [_owned(face, owner) for face in faces]})
    return slots


def _cards(text: str) -> list[str]:
    return text.split()


def position_json(
    caravans: Sequence[str] = ("",) * NUM_CARAVANS,
    hands: Sequence[str] = ("", ""),
    *,
    rules: Mapping[str, bool] | None = None,
    current: int = 0,
    opening: Sequence[bool] = (False, False),
    next_draws: Sequence[str] = ("", ""),
    deck_sizes: Sequence[int | None] = (None, None),
    discards: Sequence[str] = ("", ""),
    reshuffles: Sequence[int] = (0, 0),
    reshuffled: Sequence[str] = ("", ""),
    kept: Mapping[int, str] | None = None,
    first_player: int = 0,
) -> str:
    """A serialized position for `game.deserialize_state`.

    `caravans` in the notation of `caravan_json`; `hands`, `next_draws` (the next cards each
    player draws, in drawing order), `discards` and `reshuffled` (each player's latest
    reshuffled pile, C10 Neu mischen: shown exactly when `reshuffles` is not 0) as
    space-separated cards; `opening` says
    who is still in the opening. Every other card of a player's deck goes to their deck,
    unless `deck_sizes` says how many stay there (the rest go to the discard pile). Under
    Kurzes Deck a deck is the first cards of the rest up to 30.
    """
    rules = {**STANDARD, **(rules or {})}
    table = [caravan_json(text, owner_of(i)) for i, text in enumerate(caravans)]
    data_caravans: list[dict[str, Any]] = [{"slots": slots} for slots in table]
    for i, direction in (kept or {}).items():
        data_caravans[i]["kept"] = direction
    decks, piles, hand_lists = [], [], []
    for p in (0, 1):
        placed = Counter(
            [*_cards(hands[p]), *_cards(next_draws[p]), *_cards(discards[p])]
            + [
                owned["card"]
                for slots in table
                for slot in slots
                for owned in (slot["number"], *slot["faces"])
                if owned["owner"] == p
            ]
        )
        full = full_deck(rules["double_deck"])
        assert placed <= full, f"player {p} has {sorted((placed - full).elements())} too often"
        rest = sorted_cards((full - placed).elements())
        if rules["short_deck"]:
            rest = rest[: SHORT_DECK - sum(placed.values())]
        keep = deck_sizes[p]
        keep = len(rest) if keep is None else keep - len(_cards(next_draws[p]))
        decks.append(rest[:keep] + _cards(next_draws[p])[::-1])
        piles.append(_cards(discards[p]) + rest[keep:])
        hand_lists.append(sorted_cards(_cards(hands[p])))
    data = {
        "rules": rules,
        "reshuffle_seed": 1,
        "decks": decks,
        "hands": hand_lists,
        "discards": piles,
        "caravans": data_caravans,
        "opening_done": [not o for o in opening],
        "reshuffles": list(reshuffles),
        "reshuffled": [sorted_cards(_cards(pile)) for pile in reshuffled],
        "shown_hands": [[], []],
        "first_player": first_player,
        "current": current,
        "outcome": None,
        "history": [],
    }
    return json.dumps(data)
