//! Action ids and JSON moves: the action space of `mod.rs`, both ways.

use serde_json::{Map, Value, json};

use super::cards::{Card, JACK, Kind};
use super::rules::*;
use super::state::*;
use crate::error::{Error, Result};
use crate::game::Action;

/// A move taken apart. `caravan` is absolute (0–5); `position` counts number cards.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Move {
    Play {
        card: Card,
        caravan: usize,
        position: usize,
    },
    Discard(Card),
    Disband(usize),
}

impl CaravanGame {
    pub(super) fn encode(&self, mv: Move) -> Action {
        match mv {
            Move::Play {
                card,
                caravan,
                position,
            } => match card.kind() {
                Kind::Number(v) => {
                    let number = card.suit().unwrap() as usize * 10 + v as usize - 1;
                    (number * NUM_CARAVANS + caravan) as Action
                }
                _ => {
                    let face = match card.suit() {
                        Some(suit) => suit as usize * 3 + (card.rank().unwrap() - JACK) as usize,
                        None => 12 + card.index() - 52,
                    };
                    self.face_base()
                        + ((face * NUM_CARAVANS + caravan) * self.positions() + position) as Action
                }
            },
            Move::Discard(card) => self.discard_base() + card.index() as Action,
            Move::Disband(caravan) => self.disband_base() + caravan as Action,
        }
    }

    pub(super) fn decode(&self, action: Action) -> Option<Move> {
        let a = action as usize;
        let positions = self.positions();
        if action < self.face_base() {
            let (number, caravan) = (a / NUM_CARAVANS, a % NUM_CARAVANS);
            let card = Card::new((number / 10) as u8, (number % 10) as u8 + 1);
            Some(Move::Play {
                card,
                caravan,
                position: 0,
            })
        } else if action < self.discard_base() {
            let a = a - self.face_base() as usize;
            let (face, rest) = (a / (NUM_CARAVANS * positions), a % (NUM_CARAVANS * positions));
            let card = if face < 12 {
                Card::new((face / 3) as u8, JACK + (face % 3) as u8)
            } else {
                Card::joker((face - 11) as u8)
            };
            Some(Move::Play {
                card,
                caravan: rest / positions,
                position: rest % positions,
            })
        } else if action < self.disband_base() {
            Some(Move::Discard(Card::from_index(
                (action - self.discard_base()) as u8,
            )))
        } else if (a) < self.num_actions() {
            Some(Move::Disband(a - self.disband_base() as usize))
        } else {
            None
        }
    }
}

impl State {
    pub(super) fn move_json(&self, mv: Move) -> Value {
        match mv {
            Move::Play { card, caravan, .. } if card.is_number() => {
                json!({"type": "play", "card": card.to_string(), "caravan": caravan})
            }
            Move::Play {
                card,
                caravan,
                position,
            } => {
                json!({"type": "play", "card": card.to_string(), "caravan": caravan, "position": position})
            }
            Move::Discard(card) => json!({"type": "discard", "card": card.to_string()}),
            Move::Disband(caravan) => json!({"type": "disband", "caravan": caravan}),
        }
    }

    /// Parses a JSON move (see [`MOVE_SYNTAX`]).
    pub(super) fn parse_move(&self, mv: &Value) -> Result<Action> {
        let obj = mv
            .as_object()
            .ok_or_else(|| move_error("a move is a JSON object"))?;
        let kind = obj
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| move_error("missing string field 'type'"))?;
        let card = || -> Result<Card> {
            obj.get("card")
                .and_then(Value::as_str)
                .ok_or_else(|| move_error("missing string field 'card'"))?
                .parse()
        };
        let expect = |allowed: &[&str]| match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(move_error(format!("unexpected field '{k}'"))),
            None => Ok(()),
        };
        let mv = match kind {
            "play" => {
                let card = card()?;
                let caravan = index_field(obj, "caravan", NUM_CARAVANS)?;
                if card.is_number() {
                    expect(&["type", "card", "caravan"])?;
                    Move::Play {
                        card,
                        caravan,
                        position: 0,
                    }
                } else {
                    expect(&["type", "card", "caravan", "position"])?;
                    let position = index_field(obj, "position", self.rules.positions())?;
                    Move::Play {
                        card,
                        caravan,
                        position,
                    }
                }
            }
            "discard" => {
                expect(&["type", "card"])?;
                Move::Discard(card()?)
            }
            "disband" => {
                expect(&["type", "caravan"])?;
                Move::Disband(index_field(obj, "caravan", NUM_CARAVANS)?)
            }
            other => return Err(move_error(format!("unknown move type '{other}'"))),
        };
        Ok(self.rules.encode(mv))
    }
}

pub(super) const MOVE_SYNTAX: &str = r#"moves are {"type": "play", "card": "7H", "caravan": 0-5} for number cards, {"type": "play", "card": "QS", "caravan": 0-5, "position": n} for face cards (position counts the caravan's number cards from 0), {"type": "discard", "card": "7H"} or {"type": "disband", "caravan": 0-5}; caravans 0-2 are player 0's, 3-5 player 1's"#;

fn move_error(what: impl std::fmt::Display) -> Error {
    Error::InvalidMove(format!("{what}; {MOVE_SYNTAX}"))
}

fn index_field(obj: &Map<String, Value>, field: &str, below: usize) -> Result<usize> {
    let v = obj
        .get(field)
        .ok_or_else(|| move_error(format!("missing field '{field}'")))?;
    v.as_u64()
        .filter(|&n| (n as usize) < below)
        .map(|n| n as usize)
        .ok_or_else(|| {
            move_error(format!(
                "{field} {v} does not exist: {field}s are 0-{}",
                below - 1
            ))
        })
}
