//! Action ids and what they mean: the internal move enum, the JSON moves and the texts
//! for people.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::board::*;
use super::cards::{Card, NUM_KINDS};
use super::rules::*;
use crate::error::{Error, Result};
use crate::game::Action;

// The action space (see the module documentation).
pub(super) const EXCHANGE_BASE: Action = 0;
pub(super) const START_BASE: Action = EXCHANGE_BASE + NUM_KINDS as Action;
pub(super) const MOVE_BASE: Action = START_BASE + 3;
pub(super) const SEVEN_BASE: Action = MOVE_BASE + 2 * 13 * 16 * 2;
pub(super) const JACK_BASE: Action = SEVEN_BASE + 2 * 16 * 7 * 2;
pub const SIT_OUT: Action = JACK_BASE + 2 * 16 * 16;
pub const NUM_ACTIONS: usize = SIT_OUT as usize + 1;
/// A joker's seven part has the id of the same part of a real seven plus this.
pub(super) const JOKER_SEVEN: Action = 16 * 7 * 2;

/// An action taken apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Decoded {
    Exchange(Card),
    /// `source`: 0 ace, 1 king, 2 joker.
    Start {
        source: u8,
    },
    Step {
        joker: bool,
        kind: usize,
        marble: usize,
        goal: bool,
    },
    Seven {
        joker: bool,
        marble: usize,
        steps: u8,
        goal: bool,
    },
    Jack {
        joker: bool,
        marble: usize,
        with: usize,
    },
    SitOut,
}

impl Decoded {
    pub(super) fn encode(self) -> Action {
        match self {
            Decoded::Exchange(card) => EXCHANGE_BASE + card.index() as Action,
            Decoded::Start { source } => START_BASE + Action::from(source),
            Decoded::Step {
                joker,
                kind,
                marble,
                goal,
            } => {
                MOVE_BASE
                    + ((((usize::from(joker) * 13 + kind) * 16 + marble) * 2 + usize::from(goal)) as Action)
            }
            Decoded::Seven {
                joker,
                marble,
                steps,
                goal,
            } => {
                SEVEN_BASE
                    + ((((usize::from(joker) * 16 + marble) * 7 + steps as usize - 1) * 2 + usize::from(goal))
                        as Action)
            }
            Decoded::Jack { joker, marble, with } => {
                JACK_BASE + (((usize::from(joker) * 16 + marble) * 16 + with) as Action)
            }
            Decoded::SitOut => SIT_OUT,
        }
    }

    pub(super) fn decode(action: Action) -> Option<Decoded> {
        let a = action as usize;
        Some(if action < START_BASE {
            Decoded::Exchange(Card::from_index(a))
        } else if action < MOVE_BASE {
            Decoded::Start {
                source: (action - START_BASE) as u8,
            }
        } else if action < SEVEN_BASE {
            let a = a - MOVE_BASE as usize;
            let (goal, a) = (a % 2 == 1, a / 2);
            let (marble, a) = (a % 16, a / 16);
            Decoded::Step {
                joker: a / 13 == 1,
                kind: a % 13,
                marble,
                goal,
            }
        } else if action < JACK_BASE {
            let a = a - SEVEN_BASE as usize;
            let (goal, a) = (a % 2 == 1, a / 2);
            let (steps, a) = ((a % 7) as u8 + 1, a / 7);
            Decoded::Seven {
                joker: a / 16 == 1,
                marble: a % 16,
                steps,
                goal,
            }
        } else if action < SIT_OUT {
            let a = a - JACK_BASE as usize;
            Decoded::Jack {
                joker: a / 256 == 1,
                marble: (a / 16) % 16,
                with: a % 16,
            }
        } else if action == SIT_OUT {
            Decoded::SitOut
        } else {
            return None;
        })
    }

    /// The card this move plays from the hand.
    pub(super) fn card(self) -> Option<Card> {
        match self {
            Decoded::Exchange(card) => Some(card),
            Decoded::Start { source: 0 } => Some(Card::ACE),
            Decoded::Start { source: 1 } => Some(Card::KING),
            // Source 2 is the joker played as an ace or king.
            Decoded::Start { .. }
            | Decoded::Step { joker: true, .. }
            | Decoded::Seven { joker: true, .. }
            | Decoded::Jack { joker: true, .. } => Some(Card::JOKER),
            Decoded::Step { kind, .. } => Some(MOVE_KINDS[kind].0),
            Decoded::Seven { .. } => Some(Card::SEVEN),
            Decoded::Jack { .. } => Some(Card::JACK),
            Decoded::SitOut => None,
        }
    }

    /// The JSON move of a decoded action: the [`Move`] enum serialized, so that
    /// `encode_move` and this can never disagree.
    pub(super) fn to_move(self) -> Move {
        let card = |joker: bool, real: Card| if joker { Card::JOKER } else { real };
        match self {
            Decoded::Exchange(card) => Move::Exchange { card },
            Decoded::Start { source } => Move::Start {
                card: [Card::ACE, Card::KING, Card::JOKER][source as usize],
            },
            Decoded::Step {
                joker,
                kind,
                marble,
                goal,
            } => {
                let (real, steps) = MOVE_KINDS[kind];
                Move::Move {
                    card: card(joker, real),
                    as_: joker.then_some(real),
                    marble: marble as i64,
                    steps: Some(i64::from(steps)),
                    goal,
                }
            }
            Decoded::Seven {
                joker,
                marble,
                steps,
                goal,
            } => Move::Seven {
                card: card(joker, Card::SEVEN),
                marble: marble as i64,
                steps: i64::from(steps),
                goal,
            },
            Decoded::Jack { joker, marble, with } => Move::Jack {
                card: card(joker, Card::JACK),
                marble: marble as i64,
                with: with as i64,
            },
            Decoded::SitOut => Move::SitOut {},
        }
    }
}

impl State {
    /// The parts of the seven in progress, oldest first.
    pub(super) fn seven_so_far(&self) -> impl Iterator<Item = (usize, u8, bool)> + '_ {
        self.d
            .seven_parts
            .iter()
            .map(|p| (p.marble as usize, p.steps, p.goal))
    }
}

/// A move as JSON (the README's table). Malformed moves are refused when parsed or
/// encoded ([`crate::game::GameState::encode_move`]), saying what is allowed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Move {
    /// Pick the card for the partner, face down (D4).
    Exchange {
        /// A card of the own hand.
        card: Card,
    },
    /// A, K or JK: a marble from the kennel onto the start field (D6); the lowest-numbered
    /// marble of the colour in the kennel goes.
    Start {
        /// "A", "K" or "JK".
        card: Card,
    },
    /// Move a marble by a card's value (D7, D9, D12).
    Move {
        /// The card played: A, 2-6, 8-10, Q, K, or JK with `as`.
        card: Card,
        /// Only with the joker: the card it stands for (D11).
        #[serde(rename = "as", default, skip_serializing_if = "Option::is_none")]
        as_: Option<Card>,
        /// The marble, 0-15 (marble 4·p + k is player p's marble k).
        #[schemars(range(min = 0, max = 15))]
        marble: i64,
        /// Fields to move: A 1 or 11, K 13, Q 12, the number cards their value, 4 also -4
        /// (backward); may be left out for cards with a single move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        steps: Option<i64>,
        /// Into or along the marble's goal lane (D9); false: along the ring.
        #[serde(default)]
        goal: bool,
    },
    /// One part of a split seven (D8); the parts of one card follow each other.
    Seven {
        /// "7" or "JK".
        card: Card,
        /// A marble of the team, 0-15.
        #[schemars(range(min = 0, max = 15))]
        marble: i64,
        /// Fields forward, 1-7 (at most the steps left).
        #[schemars(range(min = 1, max = 7))]
        steps: i64,
        /// Into or along the marble's goal lane (D9).
        #[serde(default)]
        goal: bool,
    },
    /// Swap an own marble with another player's marble on the ring (D10).
    Jack {
        /// "J" or "JK".
        card: Card,
        /// The own marble (the partner's once the own four are home), 0-15.
        #[schemars(range(min = 0, max = 15))]
        marble: i64,
        /// The other player's marble, 0-15.
        #[schemars(range(min = 0, max = 15))]
        with: i64,
    },
    /// No card has a legal move: discard the hand face down and sit out the round (D5).
    SitOut {},
}

fn marble_id(what: &str, m: i64) -> Result<usize> {
    usize::try_from(m)
        .ok()
        .filter(|&m| m < NUM_MARBLES)
        .ok_or_else(|| move_error(format!("{what} {m} does not exist: marbles are 0-15")))
}

impl Move {
    /// The action id of the move; values out of range are [`Error::InvalidMove`] saying
    /// what is allowed. Legality is not checked here.
    pub(super) fn encode(&self) -> Result<Action> {
        let act = match *self {
            Move::Exchange { card } => Decoded::Exchange(card),
            Move::Start { card } => Decoded::Start {
                source: match card {
                    Card::ACE => 0,
                    Card::KING => 1,
                    Card::JOKER => 2,
                    other => {
                        return Err(move_error(format!(
                            "{other} cannot start a marble: only A, K or JK (D6)"
                        )));
                    }
                },
            },
            Move::Move {
                card: played,
                as_,
                marble,
                steps,
                goal,
            } => {
                let joker = played == Card::JOKER;
                let card = match (joker, as_) {
                    (true, Some(card)) => card,
                    (true, None) => return Err(move_error("a joker names the card it stands for in 'as'")),
                    (false, Some(_)) => {
                        return Err(move_error(format!(
                            "'as' names the card a joker stands for; {played} is no joker"
                        )));
                    }
                    (false, None) => played,
                };
                let single = MOVE_KINDS.iter().filter(|(c, _)| *c == card).count() == 1;
                let kind = MOVE_KINDS
                    .iter()
                    .position(|&(c, s)| c == card && steps.is_none_or(|st| st == i64::from(s)))
                    .filter(|_| steps.is_some() || single)
                    .ok_or_else(|| {
                        move_error(format!(
                            "{card} with steps {} is no move (A: 1 or 11, K 13, Q 12, 4: 4 or -4, 7 and J have their own types)",
                            steps.map_or("missing".into(), |s| s.to_string())
                        ))
                    })?;
                Decoded::Step {
                    joker,
                    kind,
                    marble: marble_id("marble", marble)?,
                    goal,
                }
            }
            Move::Seven {
                card,
                marble,
                steps,
                goal,
            } => {
                let joker = match card {
                    Card::SEVEN => false,
                    Card::JOKER => true,
                    other => return Err(move_error(format!("{other} is no seven: card is 7 or JK"))),
                };
                if !(1..=7).contains(&steps) {
                    return Err(move_error(format!(
                        "steps {steps}: the steps of a seven's part are 1-7"
                    )));
                }
                Decoded::Seven {
                    joker,
                    marble: marble_id("marble", marble)?,
                    steps: steps as u8,
                    goal,
                }
            }
            Move::Jack { card, marble, with } => {
                let joker = match card {
                    Card::JACK => false,
                    Card::JOKER => true,
                    other => return Err(move_error(format!("{other} is no jack: card is J or JK"))),
                };
                Decoded::Jack {
                    joker,
                    marble: marble_id("marble", marble)?,
                    with: marble_id("with: marble", with)?,
                }
            }
            Move::SitOut {} => Decoded::SitOut,
        };
        Ok(act.encode())
    }
}

pub(super) const MOVE_SYNTAX: &str = r#"moves are {"type": "exchange", "card": "7"}, {"type": "start", "card": "A"|"K"|"JK"}, {"type": "move", "card": "5", "marble": 0-15, "steps": 5, "goal": false} (A: steps 1 or 11; 4: 4 or -4; "JK" with "as": the card it stands for), {"type": "seven", "card": "7"|"JK", "marble": 0-15, "steps": 1-7, "goal": false}, {"type": "jack", "card": "J"|"JK", "marble": 0-15, "with": 0-15} or {"type": "sit_out"}; marble 4·p + k is player p's marble k"#;

pub(super) fn move_error(what: impl std::fmt::Display) -> Error {
    Error::InvalidMove(format!("{what}; {MOVE_SYNTAX}"))
}
