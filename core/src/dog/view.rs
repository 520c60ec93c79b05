//! What one seat may see (the typed [`View`], an information state), the history as a
//! seat saw it, a full state dealt from a view (`state_from_view`), and the picture.

use rand::RngExt as _;
use rand::seq::SliceRandom;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::board::*;
use super::cards::{Card, Hand, NUM_KINDS};
use super::codec::*;
use super::facts::{CardTargets, hand_targets};
use super::json::hand_size;
use super::rules::*;
use crate::error::{Error, Result};
use crate::game::{Action, Game, GameState};
use crate::rng;

/// A colour of the board: seat 0 red, 1 blue, 2 green, 3 yellow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Red,
    Blue,
    Green,
    Yellow,
}

const COLOR_OF_SEAT: [Color; 4] = [Color::Red, Color::Blue, Color::Green, Color::Yellow];

/// One marble as everyone sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarbleView {
    /// The marble's id, 0-15: marble 4·p + k is player p's marble k.
    pub marble: u8,
    /// The seat the marble belongs to, 0-3.
    pub player: u8,
    /// The marble's colour (the seat's).
    pub color: Color,
    /// Where it is: "kennel", {"ring": 0-63} (player p's start field is 16·p, D2) or
    /// {"goal": 0-3} (its own goal lane; field 0 is one step past the start field).
    pub place: Place,
    /// Standing on its start field for the first time since it was placed there: it
    /// cannot be passed, landed on, swapped or sent home (D6), and cannot enter its goal
    /// before it has moved (D9).
    pub protected: bool,
}

/// The exchange of the round (D4) as the seat knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExchangeView {
    /// Per seat, whether it has picked its card for the partner this round (the picks are
    /// face down; a new round starts with none picked).
    pub picked: [bool; 4],
    /// The card the seat picked for its partner this round; null before it picked, and
    /// always in the public view.
    pub given: Option<Card>,
    /// The card the seat received from its partner, once all four have picked; null
    /// before, and always in the public view.
    pub received: Option<Card>,
}

/// A seven being played in parts (D8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SevenView {
    /// Steps still to be used, 1-6.
    pub remaining: u8,
    /// Whether the card is a joker standing for a seven (D11).
    pub joker: bool,
    /// The parts played so far with this card, oldest first.
    pub parts: Vec<SevenPart>,
}

/// Exactly what one seat (or, with `player` null, a spectator) may see of a Dog position:
/// an information state. Equal views mean equal knowledge: everything seen that matters
/// for play and for where the unseen cards can be is here. What is not here is unseen:
/// the other hands, the picks in transit, the pile's order and the cards discarded face
/// down by seats that sat out (D5).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct View {
    /// Always "dog".
    pub game: String,
    /// The seat whose view this is, 0-3; null for the public (spectator) view.
    pub player: Option<u8>,
    /// The seat to move next (during the exchange the first seat from the round's first
    /// player that has not picked; any seat that has not picked may pick); null once the
    /// game is over.
    pub current_player: Option<u8>,
    /// The round, counted from 1 as the seed counts them (D4).
    pub round: u32,
    /// The cards dealt to each seat this round: 6, 5, 4, 3, 2, then again 6 (D4).
    pub hand_size: u8,
    /// The seat that plays first this round (and picks first in the exchange): the round
    /// number minus 1, mod 4.
    pub first_player: u8,
    /// The part of the round: "exchange", "play" or "over".
    pub phase: Phase,
    /// All 16 marbles, by id.
    pub marbles: Vec<MarbleView>,
    /// The seat's own hand, sorted; null in the public view.
    pub hand: Option<Hand>,
    /// How many cards each seat holds (a pick made for the exchange has left the hand).
    pub hand_sizes: [u8; 4],
    /// Cards left in the pile (face down).
    pub pile_size: u8,
    /// Cards in the discards: those in `face_up` and those discarded face down.
    pub discard_size: u8,
    /// Every card played face up since the pile was last shuffled (D3); these are all in
    /// the discards. The rest of the discards was discarded face down by seats that sat out.
    pub face_up: Hand,
    /// The cards this seat itself discarded face down on sitting out (D5) since the pile
    /// was last shuffled; null in the public view.
    pub own_face_down: Option<Hand>,
    /// The cards each seat has played this round, in seat order.
    pub played: [Hand; 4],
    /// The round's exchange (D4).
    pub exchange: ExchangeView,
    /// The seven being played in parts, or null (D8).
    pub seven: Option<SevenView>,
    /// Per seat, whether it sat out this round, its hand discarded face down (D5).
    pub sat_out: [bool; 4],
    /// Turns so far: cards played completely and hands sat out (`max_turns` counts these).
    pub turns: u32,
    /// How the game ended (D13), or null while it runs.
    pub outcome: Option<Outcome>,
    /// What the board highlights for the seat's cards: per card, the legal moves now that
    /// move a marble, each with the marble, the place it ends on, whom it sends home and
    /// the move itself (D6-D12; while a seven is split, its parts, D8). Empty when the
    /// seat may not move now or moves no marble (the exchange, D4; sitting out, D5). Only
    /// in a seat's view for people (`view`, `view_json`): the public view has none (the
    /// hands are hidden), nor has the typed view bots and tensors use. Derived from the
    /// view: on input it may be left out or null; if given it must be the seat's legal
    /// moves, or the view is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_targets: Option<Vec<CardTargets>>,
}

fn phase_name(phase: Phase) -> &'static str {
    match phase {
        Phase::Exchange => "exchange",
        Phase::Play => "play",
        Phase::Over => "over",
    }
}

/// A count that a view gives as a small number (at most 110 cards); the tensor reads the
/// state's counts the same way.
pub(super) fn small(n: usize) -> u8 {
    n.min(usize::from(u8::MAX)) as u8
}

impl State {
    /// D4: the exchange picks are face down. A player sees their own picks, and the
    /// partner's once that round's exchange is complete (it is the card received); the
    /// opponents' picks never. A state built from a view has no history before it.
    pub(super) fn history_seen_by(&self, player: usize) -> Vec<Option<Action>> {
        let history = self.d.history.to_vec();
        let actors = self.d.actors.to_vec();
        // The picks of a round are followed by that round's plays, so a pick's exchange is
        // complete once a play comes after it (or the exchange is over).
        let mut complete = self.d.phase != Phase::Exchange;
        let mut seen = vec![None; history.len()];
        for i in (0..history.len()).rev() {
            let action = history[i];
            let is_pick = action < START_BASE;
            if !is_pick {
                complete = true;
            }
            let seat = actors.get(i).map_or(usize::MAX, |&p| p as usize);
            if !is_pick || seat == player || (complete && seat == partner(player)) {
                seen[i] = Some(action);
            }
        }
        seen
    }

    /// The view of `seat` (`None` or a seat outside 0-3: the public view).
    pub(super) fn view_struct(&self, seat: Option<usize>) -> View {
        let seat = seat.filter(|&p| p < 4);
        let d = &self.d;
        let marbles = self
            .board
            .marbles
            .iter()
            .enumerate()
            .map(|(m, mk)| MarbleView {
                marble: m as u8,
                player: color_of(m) as u8,
                color: COLOR_OF_SEAT[color_of(m)],
                place: mk.place,
                protected: mk.protected,
            })
            .collect();
        View {
            game: Dog::NAME.to_string(),
            player: seat.map(|p| p as u8),
            current_player: self.current_player().map(|p| p as u8),
            round: d.round.saturating_add(1),
            hand_size: hand_size(d.round) as u8,
            first_player: self.first_player() as u8,
            phase: d.phase,
            marbles,
            hand: seat.map(|p| d.hands[p]),
            hand_sizes: d.hands.map(|h| small(h.len())),
            pile_size: small(d.pile.len()),
            discard_size: small(d.discards.len()),
            face_up: d.face_up,
            own_face_down: seat.map(|p| d.face_down[p]),
            played: d.played,
            exchange: ExchangeView {
                picked: d.exchange.map(|e| e.is_some()),
                given: seat.and_then(|p| d.given[p]),
                received: seat.and_then(|p| d.received[p]),
            },
            seven: d.seven.map(|s| SevenView {
                remaining: s.remaining,
                joker: s.joker,
                parts: d.seven_parts.clone(),
            }),
            sat_out: d.sat_out,
            turns: d.turns,
            outcome: d.outcome,
            hand_targets: None,
        }
    }

    /// The view for people (`view`, `public_view`, `view_json`, and so the API and the
    /// page): `view_struct` with, in a seat's view, the targets of its cards
    /// ([`super::facts`]).
    pub(super) fn view_with_facts(&self, seat: Option<usize>) -> View {
        let mut view = self.view_struct(seat);
        view.hand_targets = seat.filter(|&p| p < 4).map(|p| hand_targets(self, p));
        view
    }

    /// The JSON bytes of `view_with_facts(seat)` (with `with_facts` false of
    /// `view_struct(seat)`), exactly as `serde_json::to_vec` writes them (a test compares
    /// the two over random games), written straight from the state: no view is built,
    /// nothing is allocated but the output (and, for the targets, their moves). Every
    /// string is a fixed name (cards, colours, phases, reasons), so nothing is escaped.
    pub(super) fn write_view_json(&self, seat: Option<usize>, with_facts: bool) -> Vec<u8> {
        use crate::json_out::{boolean, booleans, name, names, number, numbers, option_name, option_number};
        fn hand(out: &mut Vec<u8>, hand: &Hand) {
            names(out, hand.cards().map(Card::name));
        }
        let seat = seat.filter(|&p| p < 4);
        let d = &self.d;
        let mut out = Vec::with_capacity(2048);
        out.extend_from_slice(br#"{"game":"dog","player":"#);
        option_number(&mut out, seat.map(|p| p as u64));
        out.extend_from_slice(br#","current_player":"#);
        option_number(&mut out, self.current_player().map(|p| p as u64));
        out.extend_from_slice(br#","round":"#);
        number(&mut out, d.round.saturating_add(1).into());
        out.extend_from_slice(br#","hand_size":"#);
        number(&mut out, u64::from(hand_size(d.round) as u8));
        out.extend_from_slice(br#","first_player":"#);
        number(&mut out, u64::from(self.first_player() as u8));
        out.extend_from_slice(br#","phase":"#);
        name(&mut out, phase_name(d.phase));
        out.extend_from_slice(br#","marbles":["#);
        for (m, mk) in self.board.marbles.iter().enumerate() {
            if m > 0 {
                out.push(b',');
            }
            out.extend_from_slice(br#"{"marble":"#);
            number(&mut out, m as u64);
            out.extend_from_slice(br#","player":"#);
            number(&mut out, color_of(m) as u64);
            out.extend_from_slice(br#","color":"#);
            name(&mut out, ["red", "blue", "green", "yellow"][color_of(m)]);
            out.extend_from_slice(br#","place":"#);
            match mk.place {
                Place::Kennel => out.extend_from_slice(br#""kennel""#),
                Place::Ring(f) => {
                    out.extend_from_slice(br#"{"ring":"#);
                    number(&mut out, f.into());
                    out.push(b'}');
                }
                Place::Goal(f) => {
                    out.extend_from_slice(br#"{"goal":"#);
                    number(&mut out, f.into());
                    out.push(b'}');
                }
            }
            out.extend_from_slice(br#","protected":"#);
            boolean(&mut out, mk.protected);
            out.push(b'}');
        }
        out.extend_from_slice(br#"],"hand":"#);
        match seat {
            Some(p) => hand(&mut out, &d.hands[p]),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(br#","hand_sizes":"#);
        numbers(&mut out, d.hands.iter().map(|h| u64::from(small(h.len()))));
        out.extend_from_slice(br#","pile_size":"#);
        number(&mut out, small(d.pile.len()).into());
        out.extend_from_slice(br#","discard_size":"#);
        number(&mut out, small(d.discards.len()).into());
        out.extend_from_slice(br#","face_up":"#);
        hand(&mut out, &d.face_up);
        out.extend_from_slice(br#","own_face_down":"#);
        match seat {
            Some(p) => hand(&mut out, &d.face_down[p]),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(br#","played":["#);
        for (p, played) in d.played.iter().enumerate() {
            if p > 0 {
                out.push(b',');
            }
            hand(&mut out, played);
        }
        out.extend_from_slice(br#"],"exchange":{"picked":"#);
        booleans(&mut out, d.exchange.iter().map(Option::is_some));
        out.extend_from_slice(br#","given":"#);
        option_name(&mut out, seat.and_then(|p| d.given[p]).map(Card::name));
        out.extend_from_slice(br#","received":"#);
        option_name(&mut out, seat.and_then(|p| d.received[p]).map(Card::name));
        out.extend_from_slice(br#"},"seven":"#);
        match d.seven {
            Some(s) => {
                out.extend_from_slice(br#"{"remaining":"#);
                number(&mut out, s.remaining.into());
                out.extend_from_slice(br#","joker":"#);
                boolean(&mut out, s.joker);
                out.extend_from_slice(br#","parts":["#);
                for (i, part) in d.seven_parts.iter().enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    out.extend_from_slice(br#"{"marble":"#);
                    number(&mut out, part.marble.into());
                    out.extend_from_slice(br#","steps":"#);
                    number(&mut out, part.steps.into());
                    out.extend_from_slice(br#","goal":"#);
                    boolean(&mut out, part.goal);
                    out.push(b'}');
                }
                out.extend_from_slice(b"]}");
            }
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(br#","sat_out":"#);
        booleans(&mut out, d.sat_out);
        out.extend_from_slice(br#","turns":"#);
        number(&mut out, d.turns.into());
        out.extend_from_slice(br#","outcome":"#);
        match d.outcome {
            Some(outcome) => {
                out.extend_from_slice(br#"{"winner":"#);
                option_number(&mut out, outcome.winner.map(u64::from));
                out.extend_from_slice(br#","points":"#);
                numbers(&mut out, outcome.points.map(u64::from));
                out.extend_from_slice(br#","reason":"#);
                name(
                    &mut out,
                    match outcome.reason {
                        EndReason::AllHome => "all_home",
                        EndReason::TurnLimit => "turn_limit",
                    },
                );
                out.push(b'}');
            }
            None => out.extend_from_slice(b"null"),
        }
        if let Some(p) = seat.filter(|_| with_facts) {
            out.extend_from_slice(br#","hand_targets":"#);
            super::facts::write_hand_targets(self, p, &mut out);
        }
        out.push(b'}');
        out
    }

    /// A full state whose view for the view's seat is `view`, the unseen cards dealt at
    /// random from `seed` (see [`Game::state_from_view`]). The state's history is empty:
    /// the view carries none, so `history()` and `history_for` start from this position.
    pub(super) fn from_view(rules: Dog, view: &View, seed: u64) -> Result<State> {
        let bad = |m: crate::error::Message| Err(Error::InvalidView(m));
        if view.game != Dog::NAME {
            let game = crate::error::shorten(&view.game);
            return bad(crate::msg!(
                "game '{game}': this is a dog view",
                "Spiel '{game}': dies ist eine Sicht von dog"
            ));
        }
        let seat = match view.player {
            None => None,
            Some(p) if p < 4 => Some(p as usize),
            Some(p) => {
                return bad(crate::msg!(
                    "player {p}: seats are 0-3 (null for the public view)",
                    "Spieler {p}: die Plätze sind 0-3 (null für die öffentliche Sicht)"
                ));
            }
        };
        if view.hand.is_some() != seat.is_some() || view.own_face_down.is_some() != seat.is_some() {
            return bad(crate::msg!(
                "hand and own_face_down are given exactly when player is a seat",
                "`hand` und `own_face_down` stehen genau dann da, wenn `player` ein Platz ist"
            ));
        }
        if seat.is_none() && (view.exchange.given.is_some() || view.exchange.received.is_some()) {
            return bad(crate::msg!(
                "the public view knows no card given or received",
                "die öffentliche Sicht kennt keine gegebene oder erhaltene Karte"
            ));
        }
        if view.round == 0 {
            return bad(crate::msg!(
                "rounds are counted from 1",
                "die Runden werden ab 1 gezählt"
            ));
        }
        let round = view.round - 1;
        if view.marbles.len() != NUM_MARBLES {
            let n = view.marbles.len();
            return bad(crate::msg!(
                "{n} marbles: the board has 16",
                "{n} Murmeln: das Brett hat 16"
            ));
        }
        let mut marbles = [Marble {
            place: Place::Kennel,
            protected: false,
        }; NUM_MARBLES];
        for (m, mv) in view.marbles.iter().enumerate() {
            if mv.marble as usize != m
                || mv.player as usize != color_of(m)
                || mv.color != COLOR_OF_SEAT[color_of(m)]
            {
                let (player, color) = (color_of(m), COLOR_OF_SEAT[color_of(m)]);
                return bad(crate::msg!(
                    "marbles[{m}] must be marble {m} of player {player} ({color:?})",
                    "marbles[{m}] muss Murmel {m} von Spieler {player} sein ({color:?})"
                ));
            }
            marbles[m] = Marble {
                place: mv.place,
                protected: mv.protected,
            };
        }
        let size = hand_size(round);
        if let Some(p) = view.hand_sizes.iter().position(|&n| n as usize > size) {
            let (n, round) = (view.hand_sizes[p], view.round);
            return bad(crate::msg!(
                "player {p} holds {n} cards: hands have at most {size} in round {round}",
                "Spieler {p} hält {n} Karten: Hände haben in Runde {round} höchstens {size}"
            ));
        }
        if let (Some(p), Some(hand)) = (seat, &view.hand)
            && hand.len() != view.hand_sizes[p] as usize
        {
            let (n, said) = (hand.len(), view.hand_sizes[p]);
            return bad(crate::msg!(
                "the hand has {n} cards, hand_sizes says {said}",
                "die Hand hat {n} Karten, hand_sizes sagt {said}"
            ));
        }
        let exchange = view.phase == Phase::Exchange;
        // The unseen cards: the deck without the own hand, the cards seen face up, the own
        // face-down discards and the own pick in transit.
        let mut unseen = [0i32; NUM_KINDS];
        for (i, n) in unseen.iter_mut().enumerate() {
            *n = i32::from(Card::from_index(i).copies());
        }
        let mut seen = view.face_up;
        if let Some(hand) = &view.hand {
            seen.add_all(hand);
        }
        if let Some(down) = &view.own_face_down {
            seen.add_all(down);
        }
        if let (Some(p), true) = (seat, exchange)
            && let Some(card) = view.exchange.given
            && view.exchange.picked[p]
        {
            seen.add(card);
        }
        for (n, &k) in unseen.iter_mut().zip(&seen.0) {
            *n -= i32::from(k);
        }
        if let Some(i) = (0..NUM_KINDS).find(|&i| unseen[i] < 0) {
            let card = Card::from_index(i);
            let copies = card.copies();
            return bad(crate::msg!(
                "more cards {card} seen than the deck has ({copies})",
                "mehr Karten {card} zu sehen, als das Spiel hat ({copies})"
            ));
        }
        // D4: the card given to the partner is surely in its hand while the partner has
        // not sat out nor played a card of that kind this round.
        let mate = seat.map(partner);
        let pinned = match (seat, mate) {
            (Some(_), Some(m)) if view.phase == Phase::Play => view
                .exchange
                .given
                .filter(|&g| !view.sat_out[m] && !view.played[m].has(g) && view.hand_sizes[m] > 0),
            _ => None,
        };
        if let Some(g) = pinned {
            if unseen[g.index()] == 0 {
                return bad(crate::msg!(
                    "the partner must still hold the {g} given, but none is unseen",
                    "der Partner muss die gegebene {g} noch halten, doch keine ist verdeckt"
                ));
            }
            unseen[g.index()] -= 1;
        }
        let others: Vec<usize> = (0..4).filter(|&p| Some(p) != seat).collect();
        let down_known = view.face_up.len() + view.own_face_down.map_or(0, |h| h.len());
        let Some(down_unseen) = (view.discard_size as usize).checked_sub(down_known) else {
            let said = view.discard_size;
            return bad(crate::msg!(
                "discard_size {said} is smaller than the cards known in the discards ({down_known})",
                "discard_size {said} ist kleiner als die bekannten Karten der Ablage ({down_known})"
            ));
        };
        let in_transit: Vec<usize> = others
            .iter()
            .copied()
            .filter(|&p| exchange && view.exchange.picked[p])
            .collect();
        let needed: usize = others.iter().map(|&p| view.hand_sizes[p] as usize).sum::<usize>()
            - usize::from(pinned.is_some())
            + in_transit.len()
            + view.pile_size as usize
            + down_unseen;
        let pool_size: i32 = unseen.iter().sum();
        if needed as i32 != pool_size {
            return bad(crate::msg!(
                "the unseen places (other hands, picks in transit, pile, face-down discards) hold {needed} cards, but {pool_size} cards are unseen",
                "die verdeckten Orte (andere Hände, gewählte Karten unterwegs, Stapel, verdeckte Ablage) halten {needed} Karten, doch {pool_size} Karten sind verdeckt"
            ));
        }
        let mut pool: Vec<Card> = (0..NUM_KINDS)
            .flat_map(|i| std::iter::repeat_n(Card::from_index(i), unseen[i] as usize))
            .collect();
        let mut random = rng::seeded(seed, rng::STREAM_RESAMPLE);
        pool.shuffle(&mut random);
        let mut hands = [Hand::default(); 4];
        let mut exchange_picks = [None; 4];
        let mut face_down = [Hand::default(); 4];
        let mut discards: Vec<Card> = view.face_up.cards().collect();
        if let (Some(p), Some(hand), Some(down)) = (seat, view.hand, view.own_face_down) {
            hands[p] = hand;
            face_down[p] = down;
            discards.extend(down.cards());
            if exchange {
                exchange_picks[p] = view.exchange.given.filter(|_| view.exchange.picked[p]);
            }
        }
        for &p in &others {
            let mut size = view.hand_sizes[p] as usize;
            if Some(p) == mate
                && let Some(g) = pinned
            {
                hands[p].add(g);
                size -= 1;
            }
            for card in pool.drain(..size) {
                hands[p].add(card);
            }
        }
        for &p in &in_transit {
            exchange_picks[p] = pool.pop();
        }
        // The unseen face-down discards are laid at the first other seat's door: only the
        // seat that discarded them knows them, and no view of this seat shows whose they are.
        let down: Vec<Card> = pool.drain(..down_unseen).collect();
        for &card in &down {
            face_down[others[0]].add(card);
        }
        discards.extend(down);
        discards.shuffle(&mut random);
        let pile = pool;
        // The exchange: own pick and what was received are known; the others' cards given
        // are drawn from what their partners hold or played (sat out: any card discarded).
        let mut given = [None; 4];
        let mut received = [None; 4];
        if exchange {
            given = exchange_picks;
        } else {
            if let Some(p) = seat {
                given[p] = view.exchange.given;
                given[partner(p)] = view.exchange.received;
            }
            // A seat's view without a card given is a position set up without an exchange:
            // then nobody gave anything. The public view does not show it; there every
            // round's card accounted for (each seat still in the round holds and played
            // the round's hand size) says an exchange took place.
            let unknown = match seat {
                Some(_) => view.exchange.given.is_some(),
                None => (0..4).all(|p| {
                    view.sat_out[p] || usize::from(view.hand_sizes[p]) + view.played[p].len() == size
                }),
            };
            for (q, card) in given.iter_mut().enumerate() {
                // The seat knows its own card given and its partner's (the one received).
                let known = seat.is_some_and(|p| q == p || q == partner(p));
                if known || !unknown {
                    continue;
                }
                let m = partner(q);
                let mut options: Vec<Card> = hands[m].cards().chain(view.played[m].cards()).collect();
                if options.is_empty() || view.sat_out[m] {
                    options.clone_from(&discards);
                }
                *card = options.get(random.random_range(0..options.len().max(1))).copied();
            }
            received = std::array::from_fn(|p| given[partner(p)]);
        }
        let current = match (view.phase, view.current_player) {
            (Phase::Over, _) => 0,
            (_, Some(p)) if p < 4 => p,
            (_, p) => {
                return bad(crate::msg!(
                    "current_player {p:?}: a running game has a seat 0-3 to move",
                    "current_player {p:?}: in einem laufenden Spiel ist ein Platz 0-3 am Zug"
                ));
            }
        };
        let data = Data {
            rules,
            marbles,
            hands,
            pile,
            discards,
            reshuffle_seed: random.random(),
            reshuffles: 0,
            round,
            phase: view.phase,
            current,
            exchange: exchange_picks,
            received,
            given,
            played: view.played,
            face_up: view.face_up,
            face_down,
            seven: view.seven.as_ref().map(|s| Seven {
                remaining: s.remaining,
                joker: s.joker,
            }),
            seven_parts: view.seven.as_ref().map_or_else(Vec::new, |s| s.parts.clone()),
            sat_out: view.sat_out,
            turns: view.turns,
            outcome: view.outcome,
            history: crate::history::History::new(),
            actors: crate::history::Log::new(),
        };
        let state = State::try_from(data).map_err(|e| {
            Error::InvalidView(e.map(|text, lang| match lang {
                crate::game::Lang::De => format!("keine Stellung hat diese Sicht: {text}"),
                crate::game::Lang::En => format!("no state has this view: {text}"),
            }))
        })?;
        // The targets: left out (or null) they are derived again; given, they must be the
        // seat's legal moves (D4-D12). Checked, they go onto the rebuilt view (which has
        // none), so the rest is compared without copying the given view.
        let mut rebuilt = state.view_struct(seat);
        if let Some(targets) = &view.hand_targets {
            let Some(p) = seat else {
                return bad(crate::msg!(
                    "the public view has no hand_targets: they are a seat's moves",
                    "die öffentliche Sicht hat keine hand_targets: sie sind die Züge eines Sitzes"
                ));
            };
            let right = hand_targets(&state, p);
            if *targets != right {
                return bad(super::facts::difference(targets, &right).map(|why, lang| match lang {
                    crate::Lang::De => {
                        format!("hand_targets weichen von den erlaubten Zügen von Spieler {p} ab (D4-D12): {why}")
                    }
                    crate::Lang::En => format!("hand_targets disagree with player {p}'s legal moves (D4-D12): {why}"),
                }));
            }
            rebuilt.hand_targets = Some(right);
        }
        if rebuilt != *view {
            let (a, b) = (
                serde_json::to_value(&rebuilt).unwrap_or_default(),
                serde_json::to_value(view).unwrap_or_default(),
            );
            let field = a
                .as_object()
                .and_then(|a| a.iter().find(|(k, v)| b.get(k.as_str()) != Some(*v)))
                .map(|(k, v)| (k.clone(), crate::error::shorten(&v.to_string())));
            return bad(match field {
                Some((k, v)) => crate::msg!(
                    "the view does not fit together: '{k}' must be {v}",
                    "die Sicht passt nicht zusammen: '{k}' muss {v} sein"
                ),
                None => crate::msg!(
                    "the view does not fit together: ?",
                    "die Sicht passt nicht zusammen: ?"
                ),
            });
        }
        Ok(state)
    }

    pub(super) fn hand_text(&self, player: usize) -> Vec<String> {
        self.d
            .hands
            .get(player)
            .map_or_else(Vec::new, |h| h.cards().map(|c| c.to_string()).collect())
    }
}
