//! What the board shows for the seat's cards: where each legal move takes a marble.
//!
//! The page highlights, after a card is chosen, the marbles that card can move and, after
//! a marble, the fields it can reach; it places nothing itself. These targets are the
//! seat's legal moves now (`legal_actions_for`), each with the place its marble ends on and
//! whom it sends home, worked out by the same move check that applies the move. They
//! depend only on what the seat sees (the board, its own hand, the seven being split and
//! its own exchange pick), so they leak nothing: the public view has none.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::board::{Place, start_field};
use super::cards::Card;
use super::codec::{Decoded, Move};
use super::rules::State;
use crate::bits::ones;
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

/// The seat's legal moves that move a marble, grouped by card in card order (A, 2-10, J,
/// Q, K, JK). Empty when the seat may not move now, or moves no marble (the exchange, D4,
/// or sitting out, D5).
pub(super) fn hand_targets(state: &State, seat: usize) -> Vec<CardTargets> {
    let mut actions: Vec<Action> = Vec::new();
    state.legal_actions_for(seat, &mut actions);
    actions.sort_unstable();
    let mut out: Vec<CardTargets> = Vec::new();
    for action in actions {
        let Some(mv) = Decoded::decode(action) else {
            continue;
        };
        let Some((card, target)) = target_of(state, seat, mv) else {
            continue;
        };
        match out.iter_mut().find(|c| c.card == card) {
            Some(entry) => entry.targets.push(target),
            None => out.push(CardTargets {
                card,
                targets: vec![target],
            }),
        }
    }
    out.sort_by_key(|c| c.card);
    out
}

/// The card and target of a legal move of `seat`; `None` for a move that moves no marble.
fn target_of(state: &State, seat: usize, mv: Decoded) -> Option<(Card, Target)> {
    let card = mv.card()?;
    let (marble, to, victims) = match mv {
        Decoded::Exchange(_) | Decoded::SitOut => return None,
        Decoded::Start { .. } => {
            let color = state.moving_color(seat);
            let (marble, victim) = state.board.start(color).ok()?;
            let to = Place::Ring(start_field(color) as u8);
            (marble, to, victim.map_or(0, |v| 1u16 << v))
        }
        Decoded::Step { marble, .. } | Decoded::Seven { marble, .. } => {
            let landing = state.check_seat(seat, mv).ok()??;
            (marble, landing.place, landing.victims)
        }
        Decoded::Jack { marble, with, .. } => (marble, state.board.marbles[with].place, 0),
    };
    Some((
        card,
        Target {
            marble: marble as u8,
            to,
            sends_home: ones(victims).map(|m| m as u8).collect(),
            mv: mv.to_move(),
        },
    ))
}

/// What first differs between given targets and the right ones, for a refused view.
pub(super) fn difference(given: &[CardTargets], right: &[CardTargets]) -> String {
    let flat = |t: &[CardTargets]| -> Vec<(Card, Target)> {
        t.iter()
            .flat_map(|c| c.targets.iter().map(move |x| (c.card, x.clone())))
            .collect()
    };
    let (g, r) = (flat(given), flat(right));
    let show = |(card, t): &(Card, Target)| {
        format!(
            "card {card}, marble {} to {:?} sending home {}",
            t.marble,
            t.to,
            crate::error::shorten(&format!("{:?}", t.sends_home))
        )
    };
    if let Some(t) = g.iter().find(|t| !r.contains(t)) {
        return format!("{} is not a legal move's target", show(t));
    }
    if let Some(t) = r.iter().find(|t| !g.contains(t)) {
        return format!("the legal move's target {} is missing", show(t));
    }
    "the targets must be grouped by card in card order and listed in action order".into()
}
