//! Action ids and what they mean: the internal move enum, the JSON moves and the texts
//! for people.

use serde_json::{Map, Value, json};

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
pub(super) enum Move {
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

impl Move {
    pub(super) fn encode(self) -> Action {
        match self {
            Move::Exchange(card) => EXCHANGE_BASE + card.index() as Action,
            Move::Start { source } => START_BASE + source as Action,
            Move::Step {
                joker,
                kind,
                marble,
                goal,
            } => MOVE_BASE + ((((joker as usize * 13 + kind) * 16 + marble) * 2 + goal as usize) as Action),
            Move::Seven {
                joker,
                marble,
                steps,
                goal,
            } => {
                SEVEN_BASE
                    + ((((joker as usize * 16 + marble) * 7 + steps as usize - 1) * 2 + goal as usize)
                        as Action)
            }
            Move::Jack { joker, marble, with } => {
                JACK_BASE + (((joker as usize * 16 + marble) * 16 + with) as Action)
            }
            Move::SitOut => SIT_OUT,
        }
    }

    pub(super) fn decode(action: Action) -> Option<Move> {
        let a = action as usize;
        Some(if action < START_BASE {
            Move::Exchange(Card::from_index(a))
        } else if action < MOVE_BASE {
            Move::Start {
                source: (action - START_BASE) as u8,
            }
        } else if action < SEVEN_BASE {
            let a = a - MOVE_BASE as usize;
            let (goal, a) = (a % 2 == 1, a / 2);
            let (marble, a) = (a % 16, a / 16);
            Move::Step {
                joker: a / 13 == 1,
                kind: a % 13,
                marble,
                goal,
            }
        } else if action < JACK_BASE {
            let a = a - SEVEN_BASE as usize;
            let (goal, a) = (a % 2 == 1, a / 2);
            let (steps, a) = ((a % 7) as u8 + 1, a / 7);
            Move::Seven {
                joker: a / 16 == 1,
                marble: a % 16,
                steps,
                goal,
            }
        } else if action < SIT_OUT {
            let a = a - JACK_BASE as usize;
            Move::Jack {
                joker: a / 256 == 1,
                marble: (a / 16) % 16,
                with: a % 16,
            }
        } else if action == SIT_OUT {
            Move::SitOut
        } else {
            return None;
        })
    }

    /// The card this move plays from the hand.
    pub(super) fn card(self) -> Option<Card> {
        match self {
            Move::Exchange(card) => Some(card),
            Move::Start { source: 0 } => Some(Card::ACE),
            Move::Start { source: 1 } => Some(Card::KING),
            Move::Start { .. } => Some(Card::JOKER),
            Move::Step { joker: true, .. }
            | Move::Seven { joker: true, .. }
            | Move::Jack { joker: true, .. } => Some(Card::JOKER),
            Move::Step { kind, .. } => Some(MOVE_KINDS[kind].0),
            Move::Seven { .. } => Some(Card::SEVEN),
            Move::Jack { .. } => Some(Card::JACK),
            Move::SitOut => None,
        }
    }
}

impl State {
    /// The parts of the seven in progress, oldest first: the newest seven parts of the
    /// history that add up to the steps used so far.
    pub(super) fn seven_so_far(&self) -> impl Iterator<Item = (usize, u8, bool)> + '_ {
        let mut used = self.d.seven.map_or(0, |s| 7 - s.remaining);
        let mut count = 0;
        for &action in self.d.history.iter().rev() {
            match Move::decode(action) {
                Some(Move::Seven { steps, .. }) if used >= steps => {
                    used -= steps;
                    count += 1;
                }
                _ => break,
            }
            if used == 0 {
                break;
            }
        }
        self.d.history[self.d.history.len() - count..]
            .iter()
            .filter_map(|&action| match Move::decode(action) {
                Some(Move::Seven {
                    marble, steps, goal, ..
                }) => Some((marble, steps, goal)),
                _ => None,
            })
    }

    pub(super) fn seven_part_text(&self, me: usize, marble: usize, steps: u8, goal: bool) -> String {
        let into = if goal { " into the goal" } else { "" };
        format!("{} forward {steps}{into}", self.marble_name(me, marble))
    }

    pub(super) fn marble_name(&self, me: usize, marble: usize) -> String {
        let c = color_of(marble);
        let whose = if c == me {
            ""
        } else if c == partner(me) {
            "partner's "
        } else {
            "opponent's "
        };
        format!("{whose}{} {}", COLORS[c], marble % 4)
    }

    pub(super) fn describe(&self, action: Action) -> String {
        let me = self.d.current as usize;
        let color = self.moving_color(me);
        let joker = |j: bool| if j { "Joker as " } else { "" };
        match Move::decode(action) {
            Some(Move::Exchange(card)) => format!("give {card} to the partner"),
            Some(Move::Start { source }) => {
                let card = ["Ace", "King", "Joker"][source as usize];
                let whose = if color == me {
                    String::new()
                } else {
                    format!(" of the partner ({})", COLORS[color])
                };
                format!("{card}: start a marble{whose}")
            }
            Some(Move::Step {
                joker: j,
                kind,
                marble,
                goal,
            }) => {
                let (card, steps) = MOVE_KINDS[kind];
                let dir = if steps < 0 { "back" } else { "forward" };
                let into = if goal { " into the goal" } else { "" };
                format!(
                    "{}{card}: {} {dir} {}{into}",
                    joker(j),
                    self.marble_name(me, marble),
                    steps.abs()
                )
            }
            Some(Move::Seven {
                joker: j,
                marble,
                steps,
                goal,
            }) => {
                // The parts played so far come first: "7: red 1 forward 3, partner's green 0
                // forward 4 (0 left)".
                let mut parts: Vec<String> = self
                    .seven_so_far()
                    .map(|(marble, steps, goal)| self.seven_part_text(me, marble, steps, goal))
                    .collect();
                parts.push(self.seven_part_text(me, marble, steps, goal));
                let left = self.d.seven.map_or(7, |s| s.remaining).saturating_sub(steps);
                format!("{}7: {} ({left} left)", joker(j), parts.join(", "))
            }
            Some(Move::Jack {
                joker: j,
                marble,
                with,
            }) => {
                format!(
                    "{}J: swap {} with {}",
                    joker(j),
                    self.marble_name(me, marble),
                    self.marble_name(me, with)
                )
            }
            Some(Move::SitOut) => "no legal move: discard the hand and sit out the round".into(),
            None => format!("invalid action {action}"),
        }
    }

    pub(super) fn move_json(&self, action: Action) -> Value {
        let card_json = |joker: bool, card: Card| {
            if joker {
                json!({"card": "JK", "as": card.to_string()})
            } else {
                json!({"card": card.to_string()})
            }
        };
        let mut v = match Move::decode(action) {
            Some(Move::Exchange(card)) => return json!({"type": "exchange", "card": card}),
            Some(Move::Start { source }) => {
                let card = ["A", "K", "JK"][source as usize];
                return json!({"type": "start", "card": card});
            }
            Some(Move::Step {
                joker,
                kind,
                marble,
                goal,
            }) => {
                let (card, steps) = MOVE_KINDS[kind];
                let mut v = card_json(joker, card);
                v["type"] = json!("move");
                v["marble"] = json!(marble);
                v["steps"] = json!(steps);
                v["goal"] = json!(goal);
                v
            }
            Some(Move::Seven {
                joker,
                marble,
                steps,
                goal,
            }) => {
                json!({"type": "seven", "card": if joker { "JK" } else { "7" }, "marble": marble, "steps": steps, "goal": goal})
            }
            Some(Move::Jack { joker, marble, with }) => {
                json!({"type": "jack", "card": if joker { "JK" } else { "J" }, "marble": marble, "with": with})
            }
            Some(Move::SitOut) => json!({"type": "sit_out"}),
            None => json!({"type": "invalid", "action": action}),
        };
        if let Some(obj) = v.as_object_mut() {
            obj.sort_keys();
        }
        v
    }

    pub(super) fn parse_move(&self, mv: &Value) -> Result<Action> {
        let obj = mv
            .as_object()
            .ok_or_else(|| move_error("a move is a JSON object"))?;
        let kind = obj
            .get("type")
            .and_then(Value::as_str)
            .ok_or_else(|| move_error("missing string field 'type'"))?;
        let card_of = |field: &str| -> Result<Card> {
            obj.get(field)
                .and_then(Value::as_str)
                .ok_or_else(|| move_error(format!("missing string field '{field}'")))?
                .parse()
        };
        let expect = |allowed: &[&str]| match obj.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(move_error(format!("unexpected field '{k}'"))),
            None => Ok(()),
        };
        let goal = match obj.get("goal") {
            None => false,
            Some(v) => v
                .as_bool()
                .ok_or_else(|| move_error("goal must be true or false"))?,
        };
        let mv = match kind {
            "exchange" => {
                expect(&["type", "card"])?;
                Move::Exchange(card_of("card")?)
            }
            "start" => {
                expect(&["type", "card"])?;
                let source = match card_of("card")? {
                    Card::ACE => 0,
                    Card::KING => 1,
                    Card::JOKER => 2,
                    other => {
                        return Err(move_error(format!(
                            "{other} cannot start a marble: only A, K or JK (D6)"
                        )));
                    }
                };
                Move::Start { source }
            }
            "move" => {
                expect(&["type", "card", "as", "marble", "steps", "goal"])?;
                let played = card_of("card")?;
                let joker = played == Card::JOKER;
                let card = if joker {
                    card_of("as")?
                } else if obj.contains_key("as") {
                    return Err(move_error(format!(
                        "'as' names the card a joker stands for; {played} is no joker"
                    )));
                } else {
                    played
                };
                let steps = match obj.get("steps") {
                    None => None,
                    Some(v) => Some(v.as_i64().ok_or_else(|| {
                        move_error(format!(
                            "steps must be a whole number (negative for backward), got {v}"
                        ))
                    })?),
                };
                let kind = MOVE_KINDS
                    .iter()
                    .position(|&(c, s)| c == card && steps.is_none_or(|st| st == i64::from(s)))
                    .filter(|_| steps.is_some() || MOVE_KINDS.iter().filter(|(c, _)| *c == card).count() == 1)
                    .ok_or_else(|| {
                        move_error(format!(
                            "{card} with steps {} is no move (A: 1 or 11, K 13, Q 12, 4: 4 or -4, 7 and J have their own types)",
                            steps.map_or("missing".into(), |s| s.to_string())
                        ))
                    })?;
                Move::Step {
                    joker,
                    kind,
                    marble: marble_field(obj, "marble")?,
                    goal,
                }
            }
            "seven" => {
                expect(&["type", "card", "marble", "steps", "goal"])?;
                let joker = match card_of("card")? {
                    Card::SEVEN => false,
                    Card::JOKER => true,
                    other => return Err(move_error(format!("{other} is no seven: card is 7 or JK"))),
                };
                let steps = obj
                    .get("steps")
                    .and_then(Value::as_u64)
                    .filter(|s| (1..=7).contains(s));
                let steps = steps.ok_or_else(|| move_error("steps of a seven are 1-7"))? as u8;
                Move::Seven {
                    joker,
                    marble: marble_field(obj, "marble")?,
                    steps,
                    goal,
                }
            }
            "jack" => {
                expect(&["type", "card", "marble", "with"])?;
                let joker = match card_of("card")? {
                    Card::JACK => false,
                    Card::JOKER => true,
                    other => return Err(move_error(format!("{other} is no jack: card is J or JK"))),
                };
                Move::Jack {
                    joker,
                    marble: marble_field(obj, "marble")?,
                    with: marble_field(obj, "with")?,
                }
            }
            "sit_out" => {
                expect(&["type"])?;
                Move::SitOut
            }
            other => return Err(move_error(format!("unknown move type '{other}'"))),
        };
        Ok(mv.encode())
    }
}

pub(super) const MOVE_SYNTAX: &str = r#"moves are {"type": "exchange", "card": "7"}, {"type": "start", "card": "A"|"K"|"JK"}, {"type": "move", "card": "5", "marble": 0-15, "steps": 5, "goal": false} (A: steps 1 or 11; 4: 4 or -4; "JK" with "as": the card it stands for), {"type": "seven", "card": "7"|"JK", "marble": 0-15, "steps": 1-7, "goal": false}, {"type": "jack", "card": "J"|"JK", "marble": 0-15, "with": 0-15} or {"type": "sit_out"}; marble 4·p + k is player p's marble k"#;

pub(super) fn move_error(what: impl std::fmt::Display) -> Error {
    Error::InvalidMove(format!("{what}; {MOVE_SYNTAX}"))
}

pub(super) fn marble_field(obj: &Map<String, Value>, field: &str) -> Result<usize> {
    let v = obj
        .get(field)
        .ok_or_else(|| move_error(format!("missing field '{field}'")))?;
    v.as_u64()
        .filter(|&m| m < NUM_MARBLES as u64)
        .map(|m| m as usize)
        .ok_or_else(|| move_error(format!("marble {v} does not exist: marbles are 0-15")))
}
