//! What the board shows for the seat's cards: where each legal move takes a marble.
//!
//! The page highlights, after a card is chosen, the marbles that card can move and, after
//! a marble, the fields it can reach; it places nothing itself. These targets are the
//! seat's legal moves now (`legal_actions_for`), each with the place its marble ends on and
//! whom it sends home, from the same landing (`Board::landing`) the move check finds and
//! applying the move carries out. They
//! depend only on what the seat sees (the board, its own hand, the seven being split and
//! its own exchange pick), so they leak nothing: the public view has none.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::board::{MOVE_KINDS, Place, start_field};
use super::cards::Card;
use super::codec::{Decoded, Move};
use super::rules::State;
use crate::bits::ones;
use crate::error::Message;
use crate::game::{Action, GameState};

/// One card's legal moves that move a marble.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "DogCardTargets")]
pub struct CardTargets {
    /// The card: one in the seat's hand, or while a seven is split the card being split
    /// ("7", or "JK" standing for a seven; it has left the hand, D8).
    pub card: Card,
    /// Its legal moves now, in action-id order: starts (D6), moves (D7, D9, D11, D12), the
    /// parts of a seven (D8; each part is offered only if the rest of the seven can still
    /// be used) and jack swaps (D10).
    pub targets: Vec<Target>,
}

/// Where one legal move takes a marble.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "DogTarget")]
pub struct Target {
    /// The marble that moves, 0-15: for a start the one that leaves the kennel (the
    /// lowest-numbered there, D6); for a jack the seat's own (or, D12, the partner's).
    pub marble: u8,
    /// Where it ends: its start field for a start, the field it lands on (ring or goal
    /// lane), for a jack the place of the marble it swaps with (which takes its place).
    pub to: Place,
    /// The marbles the move sends home (D6, D7, D8), ascending; a jack sends none (D10).
    pub sends_home: Vec<u8>,
    /// The move itself, as the moves of the seat list it (`action_to_move`).
    #[serde(rename = "move")]
    pub mv: Move,
}

/// One target as the engine works with it: the card, the move taken apart, the marble,
/// where it ends and the marbles sent home (a mask).
#[derive(Clone, Copy)]
struct Found {
    card: Card,
    mv: Decoded,
    marble: usize,
    to: Place,
    victims: u16,
}

/// The seat's legal moves that move a marble, in card order (A, 2-10, J, Q, K, JK) and
/// within a card in action order. None when the seat may not move now, or moves no marble
/// (the exchange, D4, or sitting out, D5).
fn found(state: &State, seat: usize) -> Vec<Found> {
    let mut actions: Vec<Action> = Vec::new();
    state.legal_actions_for(seat, &mut actions);
    actions.sort_unstable();
    let mut out: Vec<Found> = actions
        .into_iter()
        .filter_map(|a| target_of(state, seat, Decoded::decode(a)?))
        .collect();
    // Stable: the action order stays within a card.
    out.sort_by_key(|f| f.card);
    out
}

/// The seat's targets, grouped by card: see [`found`].
pub(super) fn hand_targets(state: &State, seat: usize) -> Vec<CardTargets> {
    let mut out: Vec<CardTargets> = Vec::new();
    for f in found(state, seat) {
        let target = Target {
            marble: f.marble as u8,
            to: f.to,
            sends_home: ones(f.victims).map(|m| m as u8).collect(),
            mv: f.mv.to_move(),
        };
        match out.last_mut() {
            Some(entry) if entry.card == f.card => entry.targets.push(target),
            _ => out.push(CardTargets {
                card: f.card,
                targets: vec![target],
            }),
        }
    }
    out
}

/// `hand_targets(state, seat)` as JSON, exactly as serde writes it (the view's writer and
/// a test compare the two), written straight from the targets found: a crowded board with
/// a joker in hand has well over a hundred of them.
pub(super) fn write_hand_targets(state: &State, seat: usize, out: &mut Vec<u8>) {
    use crate::json_out::{boolean, name, number};
    let place = |out: &mut Vec<u8>, place: Place| match place {
        Place::Kennel => out.extend_from_slice(br#""kennel""#),
        Place::Ring(f) => {
            out.extend_from_slice(br#"{"ring":"#);
            number(out, f.into());
            out.push(b'}');
        }
        Place::Goal(f) => {
            out.extend_from_slice(br#"{"goal":"#);
            number(out, f.into());
            out.push(b'}');
        }
    };
    out.push(b'[');
    let mut card = None;
    for f in found(state, seat) {
        if card == Some(f.card) {
            out.push(b',');
        } else {
            if card.is_some() {
                out.extend_from_slice(b"]},");
            }
            card = Some(f.card);
            out.extend_from_slice(br#"{"card":"#);
            name(out, f.card.name());
            out.extend_from_slice(br#","targets":["#);
        }
        out.extend_from_slice(br#"{"marble":"#);
        number(out, f.marble as u64);
        out.extend_from_slice(br#","to":"#);
        place(out, f.to);
        out.extend_from_slice(br#","sends_home":["#);
        for (i, m) in ones(f.victims).enumerate() {
            if i > 0 {
                out.push(b',');
            }
            number(out, m as u64);
        }
        out.extend_from_slice(br#"],"move":"#);
        // The move as serde writes [`Move`]: its tag first, then its fields in order.
        match f.mv.to_move() {
            Move::Start { card } => {
                out.extend_from_slice(br#"{"type":"start","card":"#);
                name(out, card.name());
            }
            Move::Move {
                card,
                as_,
                marble,
                steps,
                goal,
            } => {
                out.extend_from_slice(br#"{"type":"move","card":"#);
                name(out, card.name());
                if let Some(real) = as_ {
                    out.extend_from_slice(br#","as":"#);
                    name(out, real.name());
                }
                out.extend_from_slice(br#","marble":"#);
                number(out, marble as u64);
                if let Some(steps) = steps {
                    out.extend_from_slice(br#","steps":"#);
                    if steps < 0 {
                        out.push(b'-');
                    }
                    number(out, steps.unsigned_abs());
                }
                out.extend_from_slice(br#","goal":"#);
                boolean(out, goal);
            }
            Move::Seven {
                card,
                marble,
                steps,
                goal,
            } => {
                out.extend_from_slice(br#"{"type":"seven","card":"#);
                name(out, card.name());
                out.extend_from_slice(br#","marble":"#);
                number(out, marble as u64);
                out.extend_from_slice(br#","steps":"#);
                number(out, steps as u64);
                out.extend_from_slice(br#","goal":"#);
                boolean(out, goal);
            }
            Move::Jack { card, marble, with } => {
                out.extend_from_slice(br#"{"type":"jack","card":"#);
                name(out, card.name());
                out.extend_from_slice(br#","marble":"#);
                number(out, marble as u64);
                out.extend_from_slice(br#","with":"#);
                number(out, with as u64);
            }
            // No target is an exchange pick or sitting out (`target_of`).
            Move::Exchange { .. } | Move::SitOut {} => unreachable!("a target moves a marble"),
        }
        out.extend_from_slice(b"}}");
    }
    if card.is_some() {
        out.extend_from_slice(b"]}");
    }
    out.push(b']');
}

/// The target of a legal move of `seat`; `None` for a move that moves no marble.
fn target_of(state: &State, seat: usize, mv: Decoded) -> Option<Found> {
    let card = mv.card()?;
    let (marble, to, victims) = match mv {
        Decoded::Exchange(_) | Decoded::SitOut => return None,
        Decoded::Start { .. } => {
            let color = state.moving_color(seat);
            let (marble, victim) = state.board.start(color).ok()?;
            let to = Place::Ring(start_field(color) as u8);
            (marble, to, victim.map_or(0, |v| 1u16 << v))
        }
        // The move is legal, so its landing is the one the move check found and applying
        // it carries out (D7-D9; a seven sends home whom it passes, D8).
        Decoded::Step {
            kind, marble, goal, ..
        } => {
            let landing = state
                .board
                .landing(marble, MOVE_KINDS[kind].1, goal, false)
                .ok()?;
            (marble, landing.place, landing.victims)
        }
        Decoded::Seven {
            marble, steps, goal, ..
        } => {
            let landing = state.board.landing(marble, steps as i8, goal, true).ok()?;
            (marble, landing.place, landing.victims)
        }
        Decoded::Jack { marble, with, .. } => (marble, state.board.marbles[with].place, 0),
    };
    Some(Found {
        card,
        mv,
        marble,
        to,
        victims,
    })
}

/// What first differs between given targets and the right ones, for a refused view.
pub(super) fn difference(given: &[CardTargets], right: &[CardTargets]) -> Message {
    let flat = |t: &[CardTargets]| -> Vec<(Card, Target)> {
        t.iter()
            .flat_map(|c| c.targets.iter().map(move |x| (c.card, x.clone())))
            .collect()
    };
    let (g, r) = (flat(given), flat(right));
    // The target as JSON, the same in both languages.
    let show = |(card, t): &(Card, Target)| {
        let json =
            serde_json::json!({"card": card, "marble": t.marble, "to": t.to, "sends_home": t.sends_home});
        crate::error::shorten(&json.to_string())
    };
    if let Some(t) = g.iter().find(|t| !r.contains(t)) {
        let t = show(t);
        return crate::msg!(
            "{t} is not a legal move's target",
            "{t} ist nicht das Ziel eines erlaubten Zugs"
        );
    }
    if let Some(t) = r.iter().find(|t| !g.contains(t)) {
        let t = show(t);
        return crate::msg!(
            "the legal move's target {t} is missing",
            "das Ziel {t} eines erlaubten Zugs fehlt"
        );
    }
    crate::msg!(
        "the targets must be grouped by card in card order and listed in action order",
        "die Ziele sind nach Karten in Kartenreihenfolge gruppiert und in Aktionsreihenfolge aufgeführt"
    )
}
