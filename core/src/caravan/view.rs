//! What a seat sees ([`View`], an information state) and dealing the unseen cards anew
//! from a view ([`State::from_view`]).
//!
//! Hidden from a seat: the other hand, the order of both decks, with *Kurzes Deck* (C10)
//! which 30 cards make up each deck, and the seed of future reshuffles. Everything else
//! is on the table or was shown: the caravans, both discard piles (face up), the sizes of
//! hands and decks, the starting hands shown under *Frische Hand* and, under *Neu
//! mischen*, which cards each player's latest reshuffle put back into the deck. Which
//! cards of a player are unseen follows from these: a deck's cards less those on the
//! table, in the discard pile and (for the own deck) in the own hand.

use rand::seq::SliceRandom;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::cards::{Card, NUM_FACES};
use super::rules::{CaravanGame, HAND_SIZE, NUM_CARAVANS, SELL_MAX, SELL_MIN};
use super::state::{Outcome, State};
use super::table::{Caravan, Direction, Owned, Slot, owner_of};
use crate::error::{Error, Message, Result, shorten};
use crate::game::GameState;
use crate::rng;

/// What one seat of Caravan may see (or, with `player` null, a spectator): everything the
/// seat knows, nothing it could not. Two positions a seat cannot tell apart give equal
/// views.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CaravanView")]
pub struct View {
    /// The game: always `"caravan"`.
    pub game: GameName,
    /// The seat this view belongs to, 0 or 1; null in the public view for spectators.
    pub player: Option<u8>,
    /// The player to move, 0 or 1; null once the game is over.
    pub current_player: Option<u8>,
    /// Who began, drawn by lot (C1).
    pub first_player: u8,
    /// Whether the game counts for a ranking: only without any variant (C10).
    pub ranked: bool,
    /// The six caravans, 0–2 player 0's and 3–5 player 1's; caravan `i` faces caravan
    /// `3 + i` (pair `i`).
    pub caravans: [CaravanView; 6],
    /// The three pairs (caravan `i` against caravan `3 + i`) and who sells each as the
    /// table stands (C9).
    pub pairs: [PairView; 3],
    /// The seat's own hand, sorted; null in the public view.
    pub hand: Option<Vec<Card>>,
    /// The number of cards in each player's hand.
    pub hand_sizes: [usize; 2],
    /// The number of cards in each player's deck.
    pub deck_sizes: [usize; 2],
    /// Each player's discard pile, face up, in the order the cards came (the last on top).
    pub discard_piles: [Vec<Card>; 2],
    /// Whether each player is still in their opening (C2).
    pub in_opening: [bool; 2],
    /// *Neu mischen* (C10): how often each player's discard pile has been shuffled into a
    /// new deck (at most twice).
    pub reshuffles_used: [u8; 2],
    /// *Neu mischen* (C10): the cards of each player's latest reshuffle, sorted (the pile
    /// lay face up). The deck holds only cards of it since; empty before any reshuffle.
    pub reshuffled: [Vec<Card>; 2],
    /// *Frische Hand* (C10): each player's starting hands that were shown and dealt
    /// again, each sorted, in the order they were shown.
    pub shown_hands: [Vec<Vec<Card>>; 2],
    /// How the game ended; null while it runs.
    pub outcome: Option<Outcome>,
}

/// The name of the game in a view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "CaravanGameName")]
pub enum GameName {
    #[serde(rename = "caravan")]
    Caravan,
}

/// One caravan as everyone sees it, with what follows from its cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CaravanCaravanView")]
pub struct CaravanView {
    /// The caravan's number, 0–5.
    pub caravan: u8,
    /// Its owner: 0 for caravans 0–2, 1 for 3–5.
    pub owner: u8,
    /// The sum of its number cards, each doubled per king on it (C7; *Könige addieren*:
    /// plus its value per king). Sold at 21–26 (C9).
    pub value: u32,
    /// Ascending or descending (C3); null with fewer than two number cards.
    pub direction: Option<Direction>,
    /// The current suit (C4); null for an empty caravan.
    pub suit: Option<Suit>,
    /// The number cards in order, each with the face cards played onto it.
    pub cards: Vec<SlotView>,
}

/// A suit (C4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "CaravanSuit")]
pub enum Suit {
    Clubs,
    Diamonds,
    Hearts,
    Spades,
}

impl Suit {
    fn of(index: u8) -> Suit {
        [Suit::Clubs, Suit::Diamonds, Suit::Hearts, Suit::Spades][usize::from(index & 3)]
    }
}

/// A number card on a caravan with the face cards on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CaravanSlotView")]
pub struct SlotView {
    /// The number card (A–10).
    pub card: Card,
    /// Whose deck it came from: always the caravan's owner.
    pub owner: u8,
    /// The face cards on it (queens, kings, jokers), in the order they were played.
    pub faces: Vec<Owned>,
}

/// One pair of facing caravans.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CaravanPairView")]
pub struct PairView {
    /// The player who sells this pair as the table stands (C9), null if neither does yet.
    pub sold_by: Option<u8>,
    /// What the board shows of the pair's sale (C9): where each caravan stands against
    /// the selling range and whether a tie holds the pair open. Only in the views for
    /// people (`view`, `public_view`, `view_json`: the API's), not in the typed view bots
    /// and tensors use. Derived from the caravans' values: on input it may be left out
    /// or null; if given it must be what the values give, or the view is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<PairFacts>,
}

/// The sale of one pair as the table stands (C9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "CaravanPairFacts")]
pub struct PairFacts {
    /// Per caravan of the pair, [caravan i (player 0's), caravan 3 + i (player 1's)]:
    /// where its value stands against the selling range 21–26.
    pub range: [SaleRange; 2],
    /// Both caravans lie in the range with the same value: neither sells the pair until
    /// one of them changes (C9 sells only with different values).
    pub tied: bool,
}

/// Where a caravan's value stands against C9's selling range 21–26.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "CaravanSaleRange")]
pub enum SaleRange {
    /// Under 21: too light to sell.
    Below,
    /// 21–26: it sells unless the facing caravan is in the range too with a higher value.
    InRange,
    /// Over 26: overloaded, it cannot sell until it loses value.
    Above,
}

impl SaleRange {
    fn of(value: u32) -> SaleRange {
        if value < SELL_MIN {
            SaleRange::Below
        } else if value <= SELL_MAX {
            SaleRange::InRange
        } else {
            SaleRange::Above
        }
    }

    const fn name(self) -> &'static str {
        match self {
            SaleRange::Below => "below",
            SaleRange::InRange => "in_range",
            SaleRange::Above => "above",
        }
    }
}

/// The facts of pair `i` (caravan `i` against caravan `3 + i`) with these values (C9).
fn pair_facts(a: u32, b: u32) -> PairFacts {
    let range = [SaleRange::of(a), SaleRange::of(b)];
    PairFacts {
        range,
        tied: range == [SaleRange::InRange; 2] && a == b,
    }
}

/// Per card face, how many copies: the multisets of cards the deal works with.
type Counts = [usize; NUM_FACES];

fn counts<'a>(cards: impl IntoIterator<Item = &'a Card>) -> Counts {
    let mut counts = [0; NUM_FACES];
    for card in cards {
        counts[card.index()] += 1;
    }
    counts
}

/// Every copy of the multiset, in card order.
fn expand(counts: &Counts) -> Vec<Card> {
    (0..NUM_FACES)
        .flat_map(|i| std::iter::repeat_n(Card::from_index(i as u8), counts[i]))
        .collect()
}

fn total(counts: &Counts) -> usize {
    counts.iter().sum()
}

fn invalid(message: Message) -> Error {
    Error::InvalidView(message)
}

impl State {
    /// What `seat` sees; `None` (or a seat that does not exist) shows no hand.
    pub(super) fn build_view(&self, seat: Option<usize>) -> View {
        View {
            game: GameName::Caravan,
            player: seat.map(|p| p as u8),
            current_player: self.current_player().map(|p| p as u8),
            first_player: self.first_player,
            ranked: self.rules.ranked(),
            caravans: std::array::from_fn(|i| self.caravan_view(i)),
            pairs: std::array::from_fn(|i| PairView {
                sold_by: self.sells(i),
                facts: None,
            }),
            hand: seat.and_then(|p| self.hands.get(p)).cloned(),
            hand_sizes: [self.hands[0].len(), self.hands[1].len()],
            deck_sizes: [self.decks[0].len(), self.decks[1].len()],
            discard_piles: self.discards.clone(),
            in_opening: [self.in_opening(0), self.in_opening(1)],
            reshuffles_used: self.reshuffles,
            reshuffled: self.reshuffled.clone(),
            shown_hands: self.shown_hands.clone(),
            outcome: self.outcome,
        }
    }

    /// The view for people (`view`, `public_view`, `view_json`): `build_view` with each
    /// pair's sale facts (C9).
    pub(super) fn view_with_facts(&self, seat: Option<usize>) -> View {
        let mut view = self.build_view(seat);
        for (i, pair) in view.pairs.iter_mut().enumerate() {
            pair.facts = Some(pair_facts(self.value(i), self.value(3 + i)));
        }
        view
    }

    /// The JSON bytes of `view_with_facts(seat)` (with `with_facts` false of
    /// `build_view(seat)`), exactly as `serde_json::to_vec` writes them (a test compares
    /// the two over random games of every variant), written straight from the state: no
    /// view is built, nothing is allocated but the output. Every string is a fixed name
    /// (cards, directions, suits, reasons), so nothing is escaped.
    pub(super) fn write_view_json(&self, seat: Option<usize>, with_facts: bool) -> Vec<u8> {
        use crate::json_out::{boolean, booleans, name, names, number, numbers, option_name, option_number};
        fn cards(out: &mut Vec<u8>, cards: &[Card]) {
            names(out, cards.iter().map(|c| c.name()));
        }
        fn owned(out: &mut Vec<u8>, o: Owned) {
            out.extend_from_slice(br#"{"card":"#);
            name(out, o.card.name());
            out.extend_from_slice(br#","owner":"#);
            number(out, o.owner.into());
            out.push(b'}');
        }
        let mut out = Vec::with_capacity(2048);
        out.extend_from_slice(br#"{"game":"caravan","player":"#);
        option_number(&mut out, seat.map(|p| p as u64));
        out.extend_from_slice(br#","current_player":"#);
        option_number(&mut out, self.current_player().map(|p| p as u64));
        out.extend_from_slice(br#","first_player":"#);
        number(&mut out, self.first_player.into());
        out.extend_from_slice(br#","ranked":"#);
        boolean(&mut out, self.rules.ranked());
        out.extend_from_slice(br#","caravans":["#);
        for (i, c) in self.caravans.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(br#"{"caravan":"#);
            number(&mut out, i as u64);
            out.extend_from_slice(br#","owner":"#);
            number(&mut out, owner_of(i) as u64);
            out.extend_from_slice(br#","value":"#);
            number(&mut out, c.value(&self.rules).into());
            out.extend_from_slice(br#","direction":"#);
            option_name(
                &mut out,
                c.direction(&self.rules).map(|d| match d {
                    Direction::Ascending => "ascending",
                    Direction::Descending => "descending",
                }),
            );
            out.extend_from_slice(br#","suit":"#);
            option_name(
                &mut out,
                c.suit(&self.rules)
                    .map(|s| super::cards::SUIT_NAMES[usize::from(s & 3)]),
            );
            out.extend_from_slice(br#","cards":["#);
            for (j, slot) in c.slots.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                out.extend_from_slice(br#"{"card":"#);
                name(&mut out, slot.number.card.name());
                out.extend_from_slice(br#","owner":"#);
                number(&mut out, slot.number.owner.into());
                out.extend_from_slice(br#","faces":["#);
                for (k, face) in slot.faces.iter().enumerate() {
                    if k > 0 {
                        out.push(b',');
                    }
                    owned(&mut out, *face);
                }
                out.extend_from_slice(b"]}");
            }
            out.extend_from_slice(b"]}");
        }
        out.extend_from_slice(br#"],"pairs":["#);
        for i in 0..3 {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(br#"{"sold_by":"#);
            option_number(&mut out, self.sells(i).map(u64::from));
            if with_facts {
                let facts = pair_facts(self.value(i), self.value(3 + i));
                out.extend_from_slice(br#","facts":{"range":["#);
                name(&mut out, facts.range[0].name());
                out.push(b',');
                name(&mut out, facts.range[1].name());
                out.extend_from_slice(br#"],"tied":"#);
                boolean(&mut out, facts.tied);
                out.push(b'}');
            }
            out.push(b'}');
        }
        out.extend_from_slice(br#"],"hand":"#);
        match seat.and_then(|p| self.hands.get(p)) {
            Some(hand) => cards(&mut out, hand),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(br#","hand_sizes":"#);
        numbers(&mut out, self.hands.iter().map(|h| h.len() as u64));
        out.extend_from_slice(br#","deck_sizes":"#);
        numbers(&mut out, self.decks.iter().map(|d| d.len() as u64));
        out.extend_from_slice(br#","discard_piles":["#);
        cards(&mut out, &self.discards[0]);
        out.push(b',');
        cards(&mut out, &self.discards[1]);
        out.extend_from_slice(br#"],"in_opening":"#);
        booleans(&mut out, [self.in_opening(0), self.in_opening(1)]);
        out.extend_from_slice(br#","reshuffles_used":"#);
        numbers(&mut out, self.reshuffles.map(u64::from));
        out.extend_from_slice(br#","reshuffled":["#);
        cards(&mut out, &self.reshuffled[0]);
        out.push(b',');
        cards(&mut out, &self.reshuffled[1]);
        out.extend_from_slice(br#"],"shown_hands":["#);
        for (q, shown) in self.shown_hands.iter().enumerate() {
            if q > 0 {
                out.push(b',');
            }
            out.push(b'[');
            for (i, hand) in shown.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                cards(&mut out, hand);
            }
            out.push(b']');
        }
        out.extend_from_slice(br#"],"outcome":"#);
        match self.outcome {
            Some(outcome) => {
                out.extend_from_slice(br#"{"winner":"#);
                option_number(&mut out, outcome.winner.map(u64::from));
                out.extend_from_slice(br#","reason":"#);
                name(
                    &mut out,
                    match outcome.reason {
                        super::state::EndReason::Sold => "sold",
                        super::state::EndReason::QuickSale => "quick_sale",
                        super::state::EndReason::OutOfCards => "out_of_cards",
                    },
                );
                out.push(b'}');
            }
            None => out.extend_from_slice(b"null"),
        }
        out.push(b'}');
        out
    }

    fn caravan_view(&self, i: usize) -> CaravanView {
        let c = &self.caravans[i];
        CaravanView {
            caravan: i as u8,
            owner: owner_of(i) as u8,
            value: c.value(&self.rules),
            direction: c.direction(&self.rules),
            suit: c.suit(&self.rules).map(Suit::of),
            cards: c
                .slots
                .iter()
                .map(|s| SlotView {
                    card: s.number.card,
                    owner: s.number.owner,
                    faces: s.faces.clone(),
                })
                .collect(),
        }
    }

    /// A full state whose view for `view.player` is `view`, every card that seat cannot
    /// see dealt uniformly at random from `seed` (stream [`rng::STREAM_RESAMPLE`]) among
    /// the deals the view allows: the other hand and both decks' order, and with *Kurzes
    /// Deck* which cards make up each deck beyond those seen (shown starting hands and
    /// reshuffled piles included); after a reshuffle a deck holds only cards of that pile.
    /// In the public view (`player` null) both hands are dealt. The seed of future
    /// reshuffles is drawn anew. The view carries no history, so the built state's
    /// history is empty. A view no position could have is refused with
    /// [`Error::InvalidView`] saying what is wrong.
    ///
    /// Not weighed: under *Frische Hand* the accepted starting hand had at least three
    /// number cards; the deal does not condition on that (it cannot tell which cards it
    /// held).
    pub(super) fn from_view(rules: &CaravanGame, view: &View, seed: u64) -> Result<State> {
        if view.ranked != rules.ranked() {
            let (ranked, options) = (view.ranked, rules.ranked());
            return Err(invalid(crate::msg!(
                "ranked is {ranked}, but this game's options make it {options}",
                "ranked ist {ranked}, doch die Optionen dieses Spiels machen es {options}"
            )));
        }
        let seat = match view.player {
            None => None,
            Some(p @ 0..=1) => Some(usize::from(p)),
            Some(p) => {
                return Err(invalid(crate::msg!(
                    "player {p} does not exist: players are 0 and 1 (null for the public view)",
                    "Spieler {p} gibt es nicht: die Spieler sind 0 und 1 (null für die öffentliche Sicht)"
                )));
            }
        };
        match (seat, &view.hand) {
            (Some(p), None) => {
                return Err(invalid(crate::msg!(
                    "player {p}'s view shows their hand; it is null",
                    "die Sicht von Spieler {p} zeigt seine Hand; sie ist null"
                )));
            }
            (None, Some(_)) => {
                return Err(invalid(crate::msg!(
                    "the public view shows no hand",
                    "die öffentliche Sicht zeigt keine Hand"
                )));
            }
            _ => {}
        }
        if let Some(p) = view.current_player.filter(|&p| p > 1) {
            return Err(invalid(crate::msg!(
                "current_player {p} does not exist: players are 0 and 1 (null once the game is over)",
                "current_player {p} gibt es nicht: die Spieler sind 0 und 1 (null, sobald das Spiel vorbei ist)"
            )));
        }
        if view.first_player > 1 {
            let first = view.first_player;
            return Err(invalid(crate::msg!(
                "first_player {first} does not exist: players are 0 and 1",
                "first_player {first} gibt es nicht: die Spieler sind 0 und 1"
            )));
        }
        if view.outcome.is_some() == view.current_player.is_some() {
            return Err(invalid(crate::msg!(
                "current_player is null exactly when the game is over (outcome set)",
                "current_player ist genau dann null, wenn das Spiel vorbei ist (outcome gesetzt)"
            )));
        }
        for q in 0..2 {
            if view.hand_sizes[q] > HAND_SIZE {
                let n = view.hand_sizes[q];
                return Err(invalid(crate::msg!(
                    "player {q}'s hand holds {n} cards: at most {HAND_SIZE}",
                    "die Hand von Spieler {q} hält {n} Karten: höchstens {HAND_SIZE}"
                )));
            }
            if view.deck_sizes[q] > rules.deck_size() {
                let (n, size) = (view.deck_sizes[q], rules.deck_size());
                return Err(invalid(crate::msg!(
                    "player {q}'s deck holds {n} cards: a deck has {size}",
                    "das Deck von Spieler {q} hält {n} Karten: ein Deck hat {size}"
                )));
            }
        }
        let mut caravans: [Caravan; NUM_CARAVANS] = Default::default();
        for (i, (c, shown)) in caravans.iter_mut().zip(&view.caravans).enumerate() {
            if usize::from(shown.caravan) != i || usize::from(shown.owner) != owner_of(i) {
                let (own, caravan, owner) = (owner_of(i), shown.caravan, shown.owner);
                return Err(invalid(crate::msg!(
                    "caravans[{i}] is caravan {i} of player {own}: it says caravan {caravan}, owner {owner}",
                    "caravans[{i}] ist Route {i} von Spieler {own}: dort steht Route {caravan}, Besitzer {owner}"
                )));
            }
            if let Some(o) = shown
                .cards
                .iter()
                .flat_map(|s| std::iter::once(s.owner).chain(s.faces.iter().map(|f| f.owner)))
                .find(|&o| o > 1)
            {
                return Err(invalid(crate::msg!(
                    "a card on caravan {i} belongs to player {o}: players are 0 and 1",
                    "eine Karte auf Route {i} gehört Spieler {o}: die Spieler sind 0 und 1"
                )));
            }
            c.slots = shown
                .cards
                .iter()
                .map(|s| Slot {
                    number: Owned {
                        card: s.card,
                        owner: s.owner,
                    },
                    faces: s.faces.clone(),
                })
                .collect();
            // *Fester Kurs* (C3): with two equal values at the end, the shown direction
            // tells the kept one (undo the queens on the last card).
            let n = c.slots.len();
            if rules.fixed_course
                && n >= 2
                && c.slots[n - 1].number.card.value() == c.slots[n - 2].number.card.value()
                && let Some(direction) = shown.direction
            {
                let queens = c.slots[n - 1].queens().count();
                c.kept = Some(if queens % 2 == 1 {
                    direction.reversed()
                } else {
                    direction
                });
            }
        }
        let mut deal = rng::seeded(seed, rng::STREAM_RESAMPLE);
        let base = counts(&rules.base_deck());
        let mut hands: [Vec<Card>; 2] = Default::default();
        let mut decks: [Vec<Card>; 2] = Default::default();
        for q in 0..2 {
            let hand_hidden = seat != Some(q);
            let h = if hand_hidden { view.hand_sizes[q] } else { 0 };
            let d = view.deck_sizes[q];
            let on_table = caravans
                .iter()
                .flat_map(super::table::Caravan::cards)
                .filter(|o| usize::from(o.owner) == q)
                .map(|o| &o.card);
            let own_hand = if hand_hidden {
                &[][..]
            } else {
                view.hand.as_deref().unwrap_or_default()
            };
            let seen = counts(on_table.chain(&view.discard_piles[q]).chain(own_hand));
            if let Some(i) = (0..NUM_FACES).find(|&i| seen[i] > base[i]) {
                let (n, card, most) = (seen[i], Card::from_index(i as u8), base[i]);
                return Err(invalid(crate::msg!(
                    "player {q} shows {n} of {card}, a deck has {most}",
                    "Spieler {q} zeigt {n}-mal {card}, ein Deck hat {most}"
                )));
            }
            let unseen = h + d;
            if total(&seen) + unseen != rules.deck_size() {
                let (n, size) = (total(&seen), rules.deck_size());
                return Err(invalid(crate::msg!(
                    "player {q}'s cards do not add up: {n} seen, {h} unseen in hand and {d} in the deck, but a deck has {size}",
                    "die Karten von Spieler {q} gehen nicht auf: {n} zu sehen, {h} verdeckt auf der Hand und {d} im Deck, doch ein Deck hat {size}"
                )));
            }
            // The unseen cards must include those known to be in the deck but not seen
            // now: with *Kurzes Deck* the shown starting hands and the reshuffled pile
            // (without it every card of the deck is known to be there anyway).
            let mut known = seen;
            for hand in &view.shown_hands[q] {
                let shown = counts(hand);
                (0..NUM_FACES).for_each(|i| known[i] = known[i].max(shown[i]));
            }
            let pile = counts(&view.reshuffled[q]);
            (0..NUM_FACES).for_each(|i| known[i] = known[i].max(pile[i]));
            if let Some(i) = (0..NUM_FACES).find(|&i| known[i] > base[i]) {
                let (n, card, most) = (known[i], Card::from_index(i as u8), base[i]);
                return Err(invalid(crate::msg!(
                    "player {q} is known to hold {n} of {card}, a deck has {most}",
                    "Spieler {q} hält bekanntlich {n}-mal {card}, ein Deck hat {most}"
                )));
            }
            let (hand, deck) = if view.reshuffled[q].is_empty() {
                let mut hidden = if rules.short_deck {
                    // The unseen known cards, and the rest drawn from the cards not known.
                    let required: Counts = std::array::from_fn(|i| known[i] - seen[i]);
                    if total(&required) > unseen {
                        let n = total(&required);
                        return Err(invalid(crate::msg!(
                            "player {q} has {unseen} unseen cards, but {n} cards known to be in the deck are unseen",
                            "Spieler {q} hat {unseen} verdeckte Karten, doch {n} Karten, die bekanntlich im Deck sind, sind verdeckt"
                        )));
                    }
                    let mut rest = expand(&std::array::from_fn(|i| base[i] - known[i]));
                    rest.shuffle(&mut deal);
                    rest.truncate(unseen - total(&required));
                    let mut hidden = expand(&required);
                    hidden.extend(rest);
                    hidden
                } else {
                    expand(&std::array::from_fn(|i| base[i] - seen[i]))
                };
                if hidden.len() != unseen {
                    let n = hidden.len();
                    return Err(invalid(crate::msg!(
                        "player {q} has {unseen} unseen cards, but only {n} cards are left to be them",
                        "Spieler {q} hat {unseen} verdeckte Karten, doch nur {n} Karten bleiben dafür"
                    )));
                }
                hidden.shuffle(&mut deal);
                let deck = hidden.split_off(h);
                (hidden, deck)
            } else {
                // After a reshuffle the deck holds only cards of that pile (C10).
                let available: Counts = std::array::from_fn(|i| base[i] - seen[i]);
                let candidates: Counts = std::array::from_fn(|i| available[i].min(pile[i]));
                if total(&candidates) < d {
                    let n = total(&candidates);
                    return Err(invalid(crate::msg!(
                        "player {q}'s deck holds {d} cards, but only {n} unseen cards of their reshuffled pile are left",
                        "das Deck von Spieler {q} hält {d} Karten, doch nur {n} verdeckte Karten seiner neu gemischten bleiben"
                    )));
                }
                let deal_deck = |deal: &mut rng::Rng| {
                    let mut deck = expand(&candidates);
                    deck.shuffle(deal);
                    deck.truncate(d);
                    deck
                };
                if rules.short_deck {
                    // Cards known to be among the unseen ones that cannot lie in the deck go
                    // to the hand; of those that can, the deck takes as many as the hand
                    // cannot hold, then the rest of the deck comes from the whole pile. (With
                    // one deck every candidate is such a known card; with two, copies blur
                    // what is known.)
                    let required: Counts = std::array::from_fn(|i| known[i] - seen[i]);
                    let may_deck: Counts = std::array::from_fn(|i| required[i].min(candidates[i]));
                    let must_hand = total(&required) - total(&may_deck);
                    if must_hand > h {
                        return Err(invalid(crate::msg!(
                            "player {q}'s hand holds {h} cards, but {must_hand} unseen cards known to be theirs cannot lie in their deck, which holds only cards of the reshuffled pile",
                            "die Hand von Spieler {q} hält {h} Karten, doch {must_hand} verdeckte Karten, die bekanntlich seine sind, können nicht in seinem Deck liegen, das nur neu gemischte Karten hält"
                        )));
                    }
                    let forced = (total(&required) - h.min(total(&required))).min(d);
                    let mut first = expand(&may_deck);
                    first.shuffle(&mut deal);
                    first.truncate(forced);
                    let mut in_deck = counts(&first);
                    let mut more = expand(&std::array::from_fn(|i| candidates[i] - in_deck[i]));
                    more.shuffle(&mut deal);
                    more.truncate(d - first.len());
                    let mut deck = first;
                    deck.extend(more);
                    deck.shuffle(&mut deal);
                    in_deck = counts(&deck);
                    let in_hand: Counts = std::array::from_fn(|i| required[i].saturating_sub(in_deck[i]));
                    if total(&in_hand) > h {
                        return Err(invalid(crate::msg!(
                            "player {q}'s unseen cards known to be theirs do not fit their hand of {h} and deck of {d}",
                            "die verdeckten Karten, die bekanntlich Spieler {q} gehören, passen nicht in seine Hand von {h} und sein Deck von {d}"
                        )));
                    }
                    let mut rest = expand(&std::array::from_fn(|i| available[i] - in_deck[i] - in_hand[i]));
                    rest.shuffle(&mut deal);
                    rest.truncate(h - total(&in_hand));
                    let mut hand = expand(&in_hand);
                    hand.extend(rest);
                    if hand.len() != h {
                        return Err(invalid(crate::msg!(
                            "player {q}'s hand of {h} cannot be dealt from the cards left",
                            "die Hand von Spieler {q} mit {h} Karten lässt sich aus den übrigen Karten nicht geben"
                        )));
                    }
                    (hand, deck)
                } else {
                    let mut deck = deal_deck(&mut deal);
                    let in_deck = counts(&deck);
                    let hand = expand(&std::array::from_fn(|i| available[i] - in_deck[i]));
                    deck.shuffle(&mut deal);
                    (hand, deck)
                }
            };
            hands[q] = if hand_hidden {
                let mut hand = hand;
                hand.sort_unstable();
                hand
            } else {
                own_hand.to_vec()
            };
            decks[q] = deck;
        }
        let state = State {
            rules: *rules,
            reshuffle_seed: rng::mix(seed ^ 0x5245_5348_5546_464c),
            decks,
            hands,
            discards: view.discard_piles.clone(),
            caravans,
            opening_done: [!view.in_opening[0], !view.in_opening[1]],
            reshuffles: view.reshuffles_used,
            reshuffled: view.reshuffled.clone(),
            shown_hands: view.shown_hands.clone(),
            first_player: view.first_player,
            // Whose turn it would be after the game is over is seen by nobody.
            current: view.current_player.unwrap_or(0),
            outcome: view.outcome,
            history: crate::history::History::new(),
        };
        state.validate().map_err(|e| match e {
            Error::InvalidState(m) => Error::InvalidView(m),
            other => other,
        })?;
        // The pairs' facts: left out (or null) they are derived again; given, they must be
        // what the caravans' values give (C9). Checked, they go onto the rebuilt view (which
        // has none), so the rest is compared without copying the given view.
        let mut again = state.build_view(seat);
        for (i, pair) in view.pairs.iter().enumerate() {
            let Some(facts) = pair.facts else { continue };
            let right = pair_facts(state.value(i), state.value(3 + i));
            if facts != right {
                let (mine, theirs) = (state.value(i), state.value(3 + i));
                let given = serde_json::to_string(&facts).unwrap_or_default();
                let right = serde_json::to_string(&right).unwrap_or_default();
                return Err(invalid(crate::msg!(
                    "pairs[{i}].facts disagree with the caravans' values {mine} and {theirs} (C9: sold at 21-26, \
                     the higher of two in the range sells): given {given}, but they give {right}",
                    "pairs[{i}].facts weichen von den Werten {mine} und {theirs} der Routen ab (C9: verkauft bei \
                     21-26, von zweien im Bereich verkauft die höhere): angegeben {given}, doch sie ergeben {right}"
                )));
            }
            again.pairs[i].facts = Some(facts);
        }
        if again != *view {
            return Err(invalid(first_difference(view, &again)));
        }
        Ok(state)
    }
}

/// Names the first field of `given` that the position it describes contradicts.
fn first_difference(given: &View, implied: &View) -> Message {
    let (Ok(Value::Object(given)), Ok(Value::Object(implied))) =
        (serde_json::to_value(given), serde_json::to_value(implied))
    else {
        return crate::msg!(
            "the view contradicts itself",
            "die Sicht widerspricht sich selbst"
        );
    };
    let field = given
        .iter()
        .find(|(k, v)| implied.get(*k) != Some(v))
        .map(|(k, _)| k.clone())
        .unwrap_or_default();
    let shown = implied.get(&field).map(Value::to_string).unwrap_or_default();
    let shown = shorten(&shown);
    crate::msg!(
        "'{field}' does not follow from the cards of the view: they give {shown}",
        "'{field}' folgt nicht aus den Karten der Sicht: sie ergeben {shown}"
    )
}
