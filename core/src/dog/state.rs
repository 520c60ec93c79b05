//! The state of Dog: the board, rounds with the exchange, turns, the split seven.

use std::collections::HashSet;
use std::fmt::Write as _;

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::cards::{Card, Hand, NUM_KINDS};
use crate::bits::ones;
use crate::error::{Error, IllegalAction, Result};
use crate::game::{Action, Game, GameState, parse_state, reject_unknown_options, winner_returns};
use crate::meta::{OptionSpec, Utility};
use crate::rng;

/// D2: the ring has 64 fields; player p's start field is 16·p.
pub const RING: usize = 64;
pub const NUM_MARBLES: usize = 16;
const GOAL_LEN: u8 = 4;
const CELLS: usize = RING + 16;
const EMPTY: u8 = u8::MAX;
pub const COLORS: [&str; 4] = ["red", "blue", "green", "yellow"];
/// D4: hand sizes cycle 6, 5, 4, 3, 2.
const HAND_SIZES: [usize; 5] = [6, 5, 4, 3, 2];
/// The k-th reshuffle of the discards uses ChaCha stream `RESHUFFLE_STREAM + k`.
const RESHUFFLE_STREAM: u64 = rng::STREAM_GAME;

/// Moves of the normal cards: (card, steps; negative is backward).
const MOVE_KINDS: [(Card, i8); 13] = [
    (Card::ACE, 1),
    (Card::ACE, 11),
    (Card::KING, 13),
    (Card::QUEEN, 12),
    (Card(9), 10),
    (Card(8), 9),
    (Card(7), 8),
    (Card(5), 6),
    (Card(4), 5),
    (Card(2), 3),
    (Card(1), 2),
    (Card::FOUR, 4),
    (Card::FOUR, -4),
];

/// Bit k set for the move kinds going forward 1 to `n` steps (index `n`, 0–13).
const KINDS_WITHIN: [u16; 14] = {
    let mut table = [0u16; 14];
    let mut n = 0;
    while n < 14 {
        let mut k = 0;
        while k < MOVE_KINDS.len() {
            let steps = MOVE_KINDS[k].1;
            if steps > 0 && steps as usize <= n {
                table[n] |= 1 << k;
            }
            k += 1;
        }
        n += 1;
    }
    table
};
/// The move kind four steps back.
const BACK_FOUR: u16 = 1 << 12;

// The action space (see the module documentation).
const EXCHANGE_BASE: Action = 0;
const START_BASE: Action = EXCHANGE_BASE + NUM_KINDS as Action;
const MOVE_BASE: Action = START_BASE + 3;
const SEVEN_BASE: Action = MOVE_BASE + 2 * 13 * 16 * 2;
const JACK_BASE: Action = SEVEN_BASE + 2 * 16 * 7 * 2;
pub const SIT_OUT: Action = JACK_BASE + 2 * 16 * 16;
pub const NUM_ACTIONS: usize = SIT_OUT as usize + 1;
/// A joker's seven part has the id of the same part of a real seven plus this.
const JOKER_SEVEN: Action = 16 * 7 * 2;

fn partner(p: usize) -> usize {
    (p + 2) % 4
}
fn team(p: usize) -> usize {
    p % 2
}
fn start_field(color: usize) -> usize {
    16 * color
}
fn goal_cell(color: usize, slot: u8) -> usize {
    RING + 4 * color + slot as usize
}
fn color_of(marble: usize) -> usize {
    marble / 4
}
/// A marble's place (D2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    Kennel,
    /// A ring field, 0–63.
    Ring(u8),
    /// A field of the owner's goal lane, 0–3 (0 is one step past the start field).
    Goal(u8),
}

/// A marble and its start-touch state: `protected` while it stands on its start field
/// for the first time after being placed there and has not moved (D6). A marble that
/// has moved since it was placed may enter its goal (D9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Marble {
    pub place: Place,
    #[serde(default)]
    pub protected: bool,
}

/// The marbles and which cell (ring field or goal field) holds which.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Board {
    marbles: [Marble; NUM_MARBLES],
    cells: [u8; CELLS],
}

/// Why a marble cannot make a move; turned into a message only when one is asked for,
/// since legal-action generation meets many of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Blocked {
    InKennel,
    GoalForwardOnly,
    GoalOvershoot { slot: u8, steps: i8 },
    GoalTaken(u8),
    GoalBackward,
    PassProtected(usize),
    LandProtected(usize),
    NotLeftStart,
    KennelEmpty(usize),
    StartTaken(usize),
    ShortOfGoal { steps: usize, field: usize },
    PastGoal { steps: usize, field: usize },
}

impl From<Blocked> for IllegalAction {
    fn from(b: Blocked) -> IllegalAction {
        match b {
            Blocked::InKennel => {
                IllegalAction::untyped("D6", "a marble in the kennel can only be started (A, K or joker)")
            }
            Blocked::GoalForwardOnly => IllegalAction::untyped(
                "D9",
                "in the goal a marble moves forward only, and stays in the goal",
            ),
            Blocked::GoalOvershoot { slot, steps } => IllegalAction::untyped(
                "D9",
                format!(
                    "no overshooting in the goal: goal field {slot} plus {steps} is past the last goal field"
                ),
            ),
            Blocked::GoalTaken(s) => IllegalAction::untyped(
                "D9",
                format!("no passing or landing in the goal: goal field {s} is taken"),
            ),
            Blocked::GoalBackward => IllegalAction::untyped("D9", "the goal is entered moving forward only"),
            Blocked::PassProtected(f) => {
                IllegalAction::untyped("D6", format!("cannot pass the protected marble on field {f}"))
            }
            Blocked::LandProtected(f) => {
                IllegalAction::untyped("D6", format!("cannot land on the protected marble on field {f}"))
            }
            Blocked::NotLeftStart => IllegalAction::untyped(
                "D9",
                "a marble enters its goal only after it has left the start field once",
            ),
            Blocked::KennelEmpty(color) => {
                IllegalAction::untyped("D6", format!("no {} marble is left in the kennel", COLORS[color]))
            }
            Blocked::StartTaken(field) => {
                IllegalAction::untyped("D6", format!("the start field {field} holds a protected marble"))
            }
            Blocked::ShortOfGoal { steps, field } => IllegalAction::untyped(
                "D9",
                format!("{steps} steps from field {field} do not reach the goal"),
            ),
            Blocked::PastGoal { steps, field } => IllegalAction::untyped(
                "D9",
                format!(
                    "{steps} steps from field {field} overshoot the goal: the marble must go round again"
                ),
            ),
        }
    }
}

/// Where a move would take a marble, and whom it sends home.
#[derive(Clone, Copy, Debug)]
struct Landing {
    place: Place,
    /// Bit mask of marbles sent home.
    victims: u16,
}

impl Board {
    fn new(marbles: [Marble; NUM_MARBLES]) -> Board {
        let mut cells = [EMPTY; CELLS];
        for (m, marble) in marbles.iter().enumerate() {
            if let Some(cell) = Board::cell(m, marble.place) {
                cells[cell] = m as u8;
            }
        }
        Board { marbles, cells }
    }

    fn cell(marble: usize, place: Place) -> Option<usize> {
        match place {
            Place::Kennel => None,
            Place::Ring(f) => Some(f as usize),
            Place::Goal(s) => Some(goal_cell(color_of(marble), s)),
        }
    }

    fn on_ring(&self, marble: usize) -> bool {
        matches!(self.marbles[marble].place, Place::Ring(_))
    }

    fn at(&self, cell: usize) -> Option<usize> {
        (self.cells[cell] != EMPTY).then_some(self.cells[cell] as usize)
    }

    fn in_goal(&self, color: usize) -> usize {
        let lane = goal_cell(color, 0);
        self.cells[lane..lane + GOAL_LEN as usize]
            .iter()
            .filter(|&&c| c != EMPTY)
            .count()
    }

    fn team_in_goal(&self, t: usize) -> usize {
        self.in_goal(t) + self.in_goal(t + 2)
    }

    /// D7–D9: the way of `marble` moving `steps` (negative: backward), into its goal lane or
    /// along the ring. A seven sends home every marble it passes or lands on.
    fn landing(&self, marble: usize, steps: i8, into_goal: bool, seven: bool) -> Result<Landing, Blocked> {
        let color = color_of(marble);
        let me = self.marbles[marble];
        let mut victims = 0u16;
        match me.place {
            Place::Kennel => Err(Blocked::InKennel),
            Place::Goal(slot) => {
                if steps < 0 || !into_goal {
                    return Err(Blocked::GoalForwardOnly);
                }
                let target = slot + steps as u8;
                if target >= GOAL_LEN {
                    return Err(Blocked::GoalOvershoot { slot, steps });
                }
                for s in slot + 1..=target {
                    if self.at(goal_cell(color, s)).is_some() {
                        return Err(Blocked::GoalTaken(s));
                    }
                }
                Ok(Landing {
                    place: Place::Goal(target),
                    victims: 0,
                })
            }
            Place::Ring(f) => {
                let f = f as usize;
                if steps < 0 {
                    if into_goal {
                        return Err(Blocked::GoalBackward);
                    }
                    let back = (-steps) as usize;
                    for i in 1..=back {
                        let field = (f + RING - i) % RING;
                        if let Some(other) = self.at(field) {
                            if self.marbles[other].protected {
                                return Err(if i == back {
                                    Blocked::LandProtected(field)
                                } else {
                                    Blocked::PassProtected(field)
                                });
                            }
                            if i == back {
                                victims |= 1 << other;
                            }
                        }
                    }
                    return Ok(Landing {
                        place: Place::Ring(((f + RING - back) % RING) as u8),
                        victims,
                    });
                }
                let n = steps as usize;
                if into_goal {
                    if me.protected {
                        return Err(Blocked::NotLeftStart);
                    }
                    let to_start = (start_field(color) + RING - f) % RING;
                    if n <= to_start {
                        return Err(Blocked::ShortOfGoal { steps: n, field: f });
                    }
                    let slot = n - to_start - 1;
                    if slot >= GOAL_LEN as usize {
                        return Err(Blocked::PastGoal { steps: n, field: f });
                    }
                    for i in 1..=to_start {
                        let field = (f + i) % RING;
                        if let Some(other) = self.at(field) {
                            if self.marbles[other].protected {
                                return Err(Blocked::PassProtected(field));
                            }
                            if seven {
                                victims |= 1 << other;
                            }
                        }
                    }
                    for s in 0..=slot as u8 {
                        if self.at(goal_cell(color, s)).is_some() {
                            return Err(Blocked::GoalTaken(s));
                        }
                    }
                    return Ok(Landing {
                        place: Place::Goal(slot as u8),
                        victims,
                    });
                }
                for i in 1..=n {
                    let field = (f + i) % RING;
                    if let Some(other) = self.at(field) {
                        if self.marbles[other].protected {
                            return Err(if i == n {
                                Blocked::LandProtected(field)
                            } else {
                                Blocked::PassProtected(field)
                            });
                        }
                        if seven || i == n {
                            victims |= 1 << other;
                        }
                    }
                }
                Ok(Landing {
                    place: Place::Ring(((f + n) % RING) as u8),
                    victims,
                })
            }
        }
    }

    /// The marbles of team `t` that are not in a kennel (at most 8), as ids.
    fn team_out(&self, t: usize) -> ([usize; 8], usize) {
        let mut out = [0; 8];
        let mut n = 0;
        for color in [t, t + 2] {
            for m in 4 * color..4 * color + 4 {
                if self.marbles[m].place != Place::Kennel {
                    out[n] = m;
                    n += 1;
                }
            }
        }
        (out, n)
    }

    /// The ring fields holding a protected marble, as a bit mask. D6: protected marbles
    /// stand only on start fields, so only those four fields are looked at.
    fn protected_fields(&self) -> u64 {
        let mut fields = 0;
        for color in 0..4 {
            let s = start_field(color);
            if self.at(s).is_some_and(|o| self.marbles[o].protected) {
                fields |= 1 << s;
            }
        }
        fields
    }

    /// How far a marble on ring field `f` can go along the ring: the steps forward before
    /// the first protected marble (at most 13), and whether four steps back are free of
    /// protected marbles. Only protected marbles block a ring move (D6, D7), so this decides
    /// a ring move's legality. `protected` is [`Board::protected_fields`].
    fn reach_from(f: usize, protected: u64) -> (u8, bool) {
        // Bit i of `around` is field f + i (mod 64): bits 1–13 lie ahead, bits 60–63 behind.
        let around = protected.rotate_right(f as u32);
        let ahead = (around >> 1) & 0x1fff;
        let forward = if ahead == 0 {
            13
        } else {
            ahead.trailing_zeros() as u8
        };
        (forward, around >> 60 == 0)
    }

    /// [`Board::reach_from`] for `marble`; nothing for a marble off the ring.
    fn ring_reach(&self, marble: usize, protected: u64) -> (u8, bool) {
        match self.marbles[marble].place {
            Place::Ring(f) => Board::reach_from(f as usize, protected),
            _ => (0, false),
        }
    }

    /// The empty fields of `color`'s goal lane in a row from field `from` on.
    fn goal_free_from(&self, color: usize, from: u8) -> u8 {
        (from..GOAL_LEN)
            .take_while(|&s| self.cells[goal_cell(color, s)] == EMPTY)
            .count() as u8
    }

    /// Steps along the ring from field `f` to `color`'s start field (0–63).
    fn to_start(color: usize, f: usize) -> usize {
        (start_field(color) + RING - f) % RING
    }

    /// The move kinds of the normal cards (bit k: `MOVE_KINDS[k]`) that `marble` can make
    /// along the ring, and those that take it into or along its goal lane (D7, D9): the
    /// same moves [`Board::landing`] allows, decided by reach and free goal fields.
    fn step_kinds(&self, marble: usize, protected: u64) -> (u16, u16) {
        let me = self.marbles[marble];
        let color = color_of(marble);
        match me.place {
            Place::Kennel => (0, 0),
            Place::Goal(slot) => (0, KINDS_WITHIN[self.goal_free_from(color, slot + 1) as usize]),
            Place::Ring(f) => {
                let (forward, back) = Board::reach_from(f as usize, protected);
                let ring = KINDS_WITHIN[forward as usize] | if back { BACK_FOUR } else { 0 };
                let to_start = Board::to_start(color, f as usize);
                // D9: into the goal after leaving the start once, passing no protected
                // marble (the own start field included), landing on a free goal field.
                let goal = if me.protected || to_start >= 13 || (forward as usize) < to_start {
                    0
                } else {
                    let last = (to_start + self.goal_free_from(color, 0) as usize).min(13);
                    KINDS_WITHIN[last] & !KINDS_WITHIN[to_start]
                };
                (ring, goal)
            }
        }
    }

    fn send_home(&mut self, marble: usize) {
        if let Some(cell) = Board::cell(marble, self.marbles[marble].place) {
            self.cells[cell] = EMPTY;
        }
        self.marbles[marble] = Marble {
            place: Place::Kennel,
            protected: false,
        };
    }

    fn put(&mut self, marble: usize, place: Place, protected: bool) {
        if let Some(cell) = Board::cell(marble, self.marbles[marble].place) {
            self.cells[cell] = EMPTY;
        }
        self.marbles[marble] = Marble { place, protected };
        if let Some(cell) = Board::cell(marble, place) {
            self.cells[cell] = marble as u8;
        }
    }

    /// D10: two marbles on the ring change places; nothing is sent home.
    fn swap(&mut self, a: usize, b: usize) {
        let (pa, pb) = (self.marbles[a].place, self.marbles[b].place);
        self.marbles[a].place = pb;
        self.marbles[b].place = pa;
        for (m, place) in [(a, pb), (b, pa)] {
            if let Some(cell) = Board::cell(m, place) {
                self.cells[cell] = m as u8;
            }
        }
    }

    fn apply_landing(&mut self, marble: usize, landing: Landing) {
        for victim in ones(landing.victims) {
            self.send_home(victim);
        }
        self.put(marble, landing.place, false);
    }

    /// D6: the first marble of `color` in the kennel, and whom its start would send home.
    fn start(&self, color: usize) -> Result<(usize, Option<usize>), Blocked> {
        let marble = (4 * color..4 * color + 4)
            .find(|&m| self.marbles[m].place == Place::Kennel)
            .ok_or(Blocked::KennelEmpty(color))?;
        let field = start_field(color);
        match self.at(field) {
            Some(other) if self.marbles[other].protected => Err(Blocked::StartTaken(field)),
            other => Ok((marble, other)),
        }
    }

    fn key(&self) -> [u8; NUM_MARBLES] {
        self.marbles.map(|m| match m.place {
            Place::Kennel => 200,
            Place::Ring(f) => f | if m.protected { 128 } else { 0 },
            Place::Goal(s) => 100 + s,
        })
    }
}

/// The rules with their options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dog {
    /// Stops the game like a match clock (D13) after this many turns (cards played or
    /// sat out); 0: never. It bounds every game, random ones included.
    pub max_turns: u32,
}

impl Default for Dog {
    fn default() -> Self {
        Dog { max_turns: 10_000 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// D4: each player picks a card for the partner, face down.
    Exchange,
    Play,
    Over,
}

/// A seven being played in parts (D8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seven {
    pub remaining: u8,
    pub joker: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// D13: all eight marbles of a team are in the goal.
    AllHome,
    /// The `max_turns` limit stopped the game like a clock (D13).
    TurnLimit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Team 0 is seats 0 and 2, team 1 seats 1 and 3.
    pub winner: Option<u8>,
    /// D13 points per team.
    pub points: [u8; 2],
    pub reason: EndReason,
}

/// Everything a Dog position holds, as it is serialized.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Data {
    rules: Dog,
    /// Marble `4·p + k` is player p's marble k.
    marbles: [Marble; NUM_MARBLES],
    hands: [Hand; 4],
    /// The next card dealt is the last.
    pile: Vec<Card>,
    discards: Vec<Card>,
    /// Seeds the reshuffles of the discards (D3); hidden like the pile's order.
    reshuffle_seed: u64,
    reshuffles: u32,
    round: u32,
    phase: Phase,
    current: u8,
    /// The cards picked for the partner this round (hidden until all four picked).
    exchange: [Option<Card>; 4],
    /// The card each player received this round, once the exchange is complete.
    received: [Option<Card>; 4],
    /// The card each player gave this round (their own knowledge, kept after the exchange).
    #[serde(default)]
    given: [Option<Card>; 4],
    /// The cards each player has played this round, as everyone saw them.
    #[serde(default)]
    played: [Hand; 4],
    seven: Option<Seven>,
    sat_out: [bool; 4],
    /// Turns so far: cards played completely, and sitting out.
    turns: u32,
    outcome: Option<Outcome>,
    history: Vec<Action>,
}

/// A position of Dog.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "Data", into = "Data")]
pub struct State {
    d: Data,
    board: Board,
}

impl From<Data> for State {
    fn from(d: Data) -> State {
        let board = Board::new(d.marbles);
        State { d, board }
    }
}

impl From<State> for Data {
    fn from(s: State) -> Data {
        s.d
    }
}

/// An action taken apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
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
    fn encode(self) -> Action {
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

    fn decode(action: Action) -> Option<Move> {
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
    fn card(self) -> Option<Card> {
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

impl Game for Dog {
    // SCAFFOLD(issue 9): replaced by the typed view and move enum.
    type View = Value;
    type Move = Value;
    type State = State;
    const NAME: &'static str = "dog";

    fn from_options(options: &Map<String, Value>) -> Result<Self> {
        reject_unknown_options(Self::NAME, options, &["max_turns"])?;
        let mut game = Dog::default();
        if let Some(v) = options.get("max_turns") {
            game.max_turns =
                v.as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| Error::InvalidOption {
                        game: Self::NAME,
                        message: format!(
                            "max_turns must be a whole number from 0 (no limit) to 4294967295, got {v}"
                        ),
                    })?;
        }
        Ok(game)
    }

    fn num_players(&self) -> usize {
        4
    }

    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS
    }

    fn utility(&self) -> Utility {
        Utility::TeamZeroSum
    }

    // SCAFFOLD(issue 9)
    fn max_game_length(&self) -> u64 {
        u64::MAX
    }

    // SCAFFOLD(issue 9)
    fn option_specs(&self) -> Vec<OptionSpec> {
        Vec::new()
    }

    // SCAFFOLD(issue 9)
    fn state_from_view(&self, _view: &Value, _seed: u64) -> Result<State> {
        Err(Error::InvalidView("not yet".into()))
    }

    /// D3: one seeded shuffle of the 110 cards; the first round is dealt at once.
    fn new_initial_state(&self, seed: u64) -> State {
        let mut pile: Vec<Card> = (0..NUM_KINDS)
            .flat_map(|i| std::iter::repeat_n(Card::from_index(i), Card::from_index(i).copies() as usize))
            .collect();
        pile.shuffle(&mut rng::seeded(seed, rng::STREAM_DEAL));
        let marbles = [Marble {
            place: Place::Kennel,
            protected: false,
        }; NUM_MARBLES];
        let mut state = State::from(Data {
            rules: *self,
            marbles,
            hands: [Hand::default(); 4],
            pile,
            discards: Vec::new(),
            reshuffle_seed: seed,
            reshuffles: 0,
            round: 0,
            phase: Phase::Exchange,
            current: 0,
            exchange: [None; 4],
            received: [None; 4],
            given: [None; 4],
            played: [Hand::default(); 4],
            seven: None,
            sat_out: [false; 4],
            turns: 0,
            outcome: None,
            history: Vec::new(),
        });
        state.deal();
        state
    }

    fn state_from_json(&self, json: &str) -> Result<State> {
        let state: State = parse_state(json, "Dog", self, |s: &State| &s.d.rules)?;
        state.validate()?;
        Ok(state)
    }
}

impl State {
    pub fn marbles(&self) -> &[Marble; NUM_MARBLES] {
        &self.board.marbles
    }
    pub fn hand_cards(&self, player: usize) -> Vec<Card> {
        self.d.hands[player].cards().collect()
    }
    pub fn round(&self) -> u32 {
        self.d.round
    }
    pub fn phase(&self) -> Phase {
        self.d.phase
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.d.outcome
    }
    pub fn seven(&self) -> Option<Seven> {
        self.d.seven
    }
    pub fn pile_len(&self) -> usize {
        self.d.pile.len()
    }
    pub fn discards_len(&self) -> usize {
        self.d.discards.len()
    }
    /// The cards picked for the exchange and not yet handed over.
    pub fn exchange_cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.d
            .exchange
            .iter()
            .flatten()
            .copied()
            .filter(move |_| self.d.phase == Phase::Exchange)
    }

    /// D12: the colour whose marbles `player` moves with normal cards.
    fn moving_color(&self, player: usize) -> usize {
        if self.board.in_goal(player) == 4 {
            partner(player)
        } else {
            player
        }
    }

    fn first_player(&self) -> usize {
        (self.d.round % 4) as usize
    }

    /// D3, D4: deals the round's hands, reshuffling the discards when the pile runs out.
    fn deal(&mut self) {
        let size = HAND_SIZES[(self.d.round % 5) as usize];
        let first = self.first_player();
        for _ in 0..size {
            for i in 0..4 {
                if self.d.pile.is_empty() {
                    let mut shuffle = rng::seeded(
                        self.d.reshuffle_seed,
                        RESHUFFLE_STREAM + u64::from(self.d.reshuffles),
                    );
                    self.d.pile = std::mem::take(&mut self.d.discards);
                    self.d.pile.shuffle(&mut shuffle);
                    self.d.reshuffles += 1;
                }
                let card = self.d.pile.pop().expect("110 cards cover 24 hand cards");
                self.d.hands[(first + i) % 4].add(card);
            }
        }
        self.d.phase = Phase::Exchange;
        self.d.current = first as u8;
        self.d.exchange = [None; 4];
        self.d.received = [None; 4];
        self.d.given = [None; 4];
        self.d.played = [Hand::default(); 4];
        self.d.sat_out = [false; 4];
    }

    /// Would this (joker) move bring the team's last marble into the goal (D11)?
    fn joker_brings_last_home(&self, player: usize, after: &Board) -> bool {
        let t = team(player);
        self.board.team_in_goal(t) < 8 && after.team_in_goal(t) == 8
    }

    /// Can `remaining` steps of a seven still be used completely from `board` (D8)?
    ///
    /// First the common case, one marble taking all the steps; then a depth-first search
    /// over splits, remembering positions that failed.
    fn seven_can_finish(
        &self,
        board: &Board,
        player: usize,
        remaining: u8,
        joker: bool,
        failed: &mut HashSet<([u8; NUM_MARBLES], u8)>,
    ) -> bool {
        if remaining == 0 {
            return true;
        }
        let t = team(player);
        let home = board.team_in_goal(t);
        // D11: with a joker, no part may bring the team's last marble into the goal.
        let allowed = |marble: usize, landing: &Landing| {
            !(joker
                && home == 7
                && matches!(board.marbles[marble].place, Place::Ring(_))
                && matches!(landing.place, Place::Goal(_)))
        };
        let (movable, n) = board.team_out(t);
        let movable = &movable[..n];
        for &marble in movable {
            for goal in [false, true] {
                if board
                    .landing(marble, remaining as i8, goal, true)
                    .is_ok_and(|l| allowed(marble, &l))
                {
                    return true;
                }
            }
        }
        if remaining == 1 || failed.contains(&(board.key(), remaining)) {
            return false;
        }
        for &marble in movable {
            for steps in (1..remaining).rev() {
                for goal in [false, true] {
                    let Ok(landing) = board.landing(marble, steps as i8, goal, true) else {
                        continue;
                    };
                    if !allowed(marble, &landing) {
                        continue;
                    }
                    let mut next = *board;
                    next.apply_landing(marble, landing);
                    if self.seven_can_finish(&next, player, remaining - steps, joker, failed) {
                        return true;
                    }
                }
            }
        }
        failed.insert((board.key(), remaining));
        false
    }

    /// Whether `mv` is legal, and for a marble's move its landing, so that carrying the
    /// move out does not walk its way again.
    fn check(&self, mv: Move) -> Result<Option<Landing>, IllegalAction> {
        if self.d.outcome.is_some() {
            return Err(IllegalAction::untyped("D13", "the game is over"));
        }
        let me = self.d.current as usize;
        let hand = &self.d.hands[me];
        if let Move::Exchange(card) = mv {
            if self.d.phase != Phase::Exchange {
                return Err(IllegalAction::untyped(
                    "D4",
                    "the exchange happens before the round's first card",
                ));
            }
            if !hand.has(card) {
                return Err(IllegalAction::untyped(
                    "D4",
                    format!("{card} is not in player {me}'s hand"),
                ));
            }
            return Ok(None);
        }
        if self.d.phase == Phase::Exchange {
            return Err(IllegalAction::untyped(
                "D4",
                "first every player picks a card for the partner",
            ));
        }
        match (self.d.seven, mv) {
            (Some(seven), Move::Seven { joker, .. }) if joker == seven.joker => {}
            (Some(seven), _) => {
                return Err(IllegalAction::untyped(
                    "D8",
                    format!(
                        "a seven must be used completely: {} steps are left",
                        seven.remaining
                    ),
                ));
            }
            _ => {}
        }
        if mv == Move::SitOut {
            return match self.has_legal_move() {
                true => Err(IllegalAction::untyped(
                    "D5",
                    "a player who can move must play a card (Zugzwang)",
                )),
                false => Ok(None),
            };
        }
        let card = mv.card().expect("plays have cards");
        if self.d.seven.is_none() && !hand.has(card) {
            return Err(IllegalAction::untyped(
                "D5",
                format!("{card} is not in player {me}'s hand"),
            ));
        }
        let color = self.moving_color(me);
        match mv {
            Move::Start { .. } => {
                // A start never brings a marble into the goal: the joker may always start.
                self.board.start(color)?;
                Ok(None)
            }
            Move::Step {
                kind, marble, goal, ..
            } => {
                if color_of(marble) != color {
                    return Err(self.not_yours(me, marble));
                }
                let from_ring = matches!(self.board.marbles[marble].place, Place::Ring(_));
                let landing = self.board.landing(marble, MOVE_KINDS[kind].1, goal, false)?;
                // D11: entering the goal from the ring adds one marble to the team's count.
                let completes = from_ring
                    && matches!(landing.place, Place::Goal(_))
                    && self.board.team_in_goal(team(me)) == 7;
                if card == Card::JOKER && completes {
                    return Err(IllegalAction::untyped(
                        "D11",
                        "the joker may not bring the team's last marble home",
                    ));
                }
                Ok(Some(landing))
            }
            Move::Seven {
                joker,
                marble,
                steps,
                goal,
            } => {
                if team(color_of(marble)) != team(me) {
                    return Err(IllegalAction::untyped(
                        "D8",
                        format!(
                            "a seven moves the team's marbles only; marble {marble} is {}",
                            COLORS[color_of(marble)]
                        ),
                    ));
                }
                let remaining = self.d.seven.map_or(7, |s| s.remaining);
                if steps > remaining {
                    return Err(IllegalAction::untyped(
                        "D8",
                        format!("only {remaining} steps of the seven are left"),
                    ));
                }
                let landing = self.board.landing(marble, steps as i8, goal, true)?;
                let after = || {
                    let mut after = self.board;
                    after.apply_landing(marble, landing);
                    after
                };
                if joker && self.joker_brings_last_home(me, &after()) {
                    return Err(IllegalAction::untyped(
                        "D11",
                        "the joker may not bring the team's last marble home",
                    ));
                }
                // The common case first: another marble (not sent home) takes the rest along
                // the ring, which only gets freer during a seven (see `seven_parts`).
                let rest = remaining - steps;
                let (team_marbles, n) = self.board.team_out(team(me));
                let protected = self.board.protected_fields();
                let quick = rest == 0
                    || team_marbles[..n].iter().any(|&other| {
                        other != marble
                            && landing.victims & (1 << other) == 0
                            && self.board.ring_reach(other, protected).0 >= rest
                    });
                if !quick && !self.seven_can_finish(&after(), me, rest, joker, &mut HashSet::new()) {
                    return Err(IllegalAction::untyped(
                        "D8",
                        format!(
                            "a seven must be used completely: the other {} steps could not be used",
                            remaining - steps
                        ),
                    ));
                }
                Ok(Some(landing))
            }
            Move::Jack { marble, with, .. } => {
                if color_of(marble) != color {
                    return Err(self.not_yours(me, marble));
                }
                if color_of(with) == color_of(marble) {
                    return Err(IllegalAction::untyped(
                        "D10",
                        "the jack swaps with a marble of another player",
                    ));
                }
                for m in [marble, with] {
                    let mk = self.board.marbles[m];
                    match mk.place {
                        Place::Ring(f) if mk.protected => {
                            return Err(IllegalAction::untyped(
                                "D10",
                                format!("the protected marble on field {f} cannot be swapped"),
                            ));
                        }
                        Place::Ring(_) => {}
                        _ => {
                            return Err(IllegalAction::untyped(
                                "D10",
                                format!(
                                    "the jack swaps marbles on the ring only; {} {} is not",
                                    COLORS[color_of(m)],
                                    m % 4
                                ),
                            ));
                        }
                    }
                }
                Ok(None)
            }
            Move::Exchange(_) | Move::SitOut => unreachable!(),
        }
    }

    /// Carries out a checked move.
    fn apply_checked(&mut self, mv: Move, action: Action, landing: Option<Landing>) {
        let me = self.d.current as usize;
        self.d.history.push(action);
        match mv {
            Move::Exchange(card) => {
                self.d.hands[me].take(card);
                self.d.exchange[me] = Some(card);
                self.d.given[me] = Some(card);
                let first = self.first_player();
                match (1..4)
                    .map(|i| (me + i) % 4)
                    .find(|&p| self.d.exchange[p].is_none())
                {
                    Some(p) => self.d.current = p as u8,
                    None => {
                        // D4: all four picked; now everyone receives the partner's card.
                        for p in 0..4 {
                            let card = self.d.exchange[partner(p)].expect("all picked");
                            self.d.hands[p].add(card);
                            self.d.received[p] = Some(card);
                        }
                        self.d.exchange = [None; 4];
                        self.d.phase = Phase::Play;
                        self.d.current = first as u8;
                    }
                }
                return;
            }
            Move::SitOut => {
                // D5: no legal move: the whole hand is discarded for this round.
                let hand = std::mem::take(&mut self.d.hands[me]);
                self.d.discards.extend(hand.cards());
                self.d.sat_out[me] = true;
                self.card_done();
                return;
            }
            _ => {}
        }
        let card = mv.card().expect("a play");
        if self.d.seven.is_none() {
            self.d.hands[me].take(card);
            self.d.discards.push(card);
            self.d.played[me].add(card);
        }
        let color = self.moving_color(me);
        match mv {
            Move::Start { .. } => {
                let (marble, victim) = self.board.start(color).expect("checked");
                if let Some(v) = victim {
                    self.board.send_home(v);
                }
                self.board
                    .put(marble, Place::Ring(start_field(color) as u8), true);
            }
            Move::Step { marble, .. } => {
                self.board.apply_landing(marble, landing.expect("checked"));
            }
            Move::Seven {
                joker, marble, steps, ..
            } => {
                self.board.apply_landing(marble, landing.expect("checked"));
                let remaining = self.d.seven.map_or(7, |s| s.remaining) - steps;
                self.d.seven = (remaining > 0).then_some(Seven { remaining, joker });
                if remaining > 0 {
                    return;
                }
            }
            Move::Jack { marble, with, .. } => {
                self.board.swap(marble, with);
            }
            Move::Exchange(_) | Move::SitOut => unreachable!(),
        }
        self.card_done();
    }

    fn not_yours(&self, me: usize, marble: usize) -> IllegalAction {
        let color = self.moving_color(me);
        IllegalAction::untyped(
            if color == me { "D7" } else { "D12" },
            format!(
                "player {me} moves the {} marbles; marble {marble} is {}",
                COLORS[color],
                COLORS[color_of(marble)]
            ),
        )
    }

    /// Every legal play in the play phase (without the sit-out), sorted. The same moves
    /// as [`State::check`] allows, with each landing computed once for the real card and
    /// the joker standing in for it.
    fn plays(&self, out: &mut Vec<Action>) {
        if let Some(seven) = self.d.seven {
            self.seven_parts(!seven.joker, seven.joker, out);
            return;
        }
        let me = self.d.current as usize;
        let hand = self.d.hands[me];
        let color = self.moving_color(me);
        let has_joker = hand.has(Card::JOKER);
        let home_before = self.board.team_in_goal(team(me));
        // D6: a start never brings a marble into the goal, so the joker may always start.
        if self.board.start(color).is_ok() {
            for (source, card) in [(0, Card::ACE), (1, Card::KING), (2, Card::JOKER)] {
                if hand.has(card) {
                    out.push(Move::Start { source }.encode());
                }
            }
        }
        // Per own marble, the move kinds it can make along the ring and into or inside its
        // goal lane; then the ids for the real cards first and the joker after, so that they
        // come out sorted by (joker, kind, marble, goal).
        let protected = self.board.protected_fields();
        let kinds: [(u16, u16); 4] = std::array::from_fn(|k| self.board.step_kinds(4 * color + k, protected));
        let possible = kinds.iter().fold(0, |acc, &(ring, goal)| acc | ring | goal);
        let held = (0..MOVE_KINDS.len())
            .filter(|&k| hand.has(MOVE_KINDS[k].0))
            .fold(0u16, |acc, k| acc | 1 << k);
        let joker_playable = if has_joker { possible } else { 0 };
        for (joker, playable) in [(false, held & possible), (true, joker_playable)] {
            for kind in ones(playable) {
                for (k, &(ring, goal_kinds)) in kinds.iter().enumerate() {
                    let marble = 4 * color + k;
                    for (goal, mask) in [(false, ring), (true, goal_kinds)] {
                        // D11: the joker may not bring the team's eighth marble in from the ring.
                        let last_home = goal && home_before == 7 && self.board.on_ring(marble);
                        if mask & (1 << kind) != 0 && !(joker && last_home) {
                            out.push(
                                Move::Step {
                                    joker,
                                    kind,
                                    marble,
                                    goal,
                                }
                                .encode(),
                            );
                        }
                    }
                }
            }
        }
        if hand.has(Card::SEVEN) || has_joker {
            self.seven_parts(hand.has(Card::SEVEN), has_joker, out);
        }
        if hand.has(Card::JACK) || has_joker {
            // D10: marbles on the ring and not protected swap with another colour's.
            let swappable = |m: usize| self.board.on_ring(m) && !self.board.marbles[m].protected;
            let others = (0..NUM_MARBLES)
                .filter(|&m| color_of(m) != color && swappable(m))
                .fold(0u16, |acc, m| acc | 1 << m);
            for (joker, card) in [(false, Card::JACK), (true, Card::JOKER)] {
                if !hand.has(card) {
                    continue;
                }
                for marble in (4 * color..4 * color + 4).filter(|&m| swappable(m)) {
                    for with in ones(others) {
                        out.push(Move::Jack { joker, marble, with }.encode());
                    }
                }
            }
        }
        debug_assert!(out.is_sorted(), "legal actions come out in id order");
    }

    /// D8: the parts of a seven (started or not) that leave a usable rest, for the real
    /// seven and/or the joker standing in for it, in action-id order.
    ///
    /// The joker's parts differ from the seven's only where the team could bring its
    /// eighth marble home (D11); otherwise they are the seven's, with the joker bit set.
    fn seven_parts(&self, real: bool, joker: bool, out: &mut Vec<Action>) {
        let me = self.d.current as usize;
        let (marbles, n) = self.board.team_out(team(me));
        let on_ring = marbles[..n].iter().filter(|&&m| self.board.on_ring(m)).count();
        let joker_differs = self.board.team_in_goal(team(me)) + on_ring >= 8;
        let first = out.len();
        if real || !joker_differs {
            self.seven_parts_as(false, out);
        }
        if joker {
            if joker_differs {
                self.seven_parts_as(true, out);
            } else {
                let joker_parts = if real {
                    let seven_parts = first..out.len();
                    out.extend_from_within(seven_parts.clone());
                    seven_parts.end
                } else {
                    first
                };
                for action in &mut out[joker_parts..] {
                    *action += JOKER_SEVEN;
                }
            }
        }
    }

    /// The parts of a seven played as a seven or as a joker (D8, D11).
    ///
    /// A part's rest is usable at once if another marble (not sent home by the part) can
    /// take the rest along the ring, or the moved marble can go on along the ring: ring
    /// moves only get freer during a seven, since protected marbles never move and the
    /// moved marble loses its protection. Only otherwise the full search decides.
    fn seven_parts_as(&self, joker: bool, out: &mut Vec<Action>) {
        let me = self.d.current as usize;
        let remaining = self.d.seven.map_or(7, |s| s.remaining);
        let (marbles, n) = self.board.team_out(team(me));
        let marbles = &marbles[..n];
        let protected = self.board.protected_fields();
        // reach[i]: the steps marble i can go along the ring (at most 7); able[r]: the
        // marbles that can go r steps along the ring, as a bit mask.
        let mut reach = [0u8; 8];
        let mut able = [0u16; 8];
        for (i, &m) in marbles.iter().enumerate() {
            reach[i] = self.board.ring_reach(m, protected).0.min(7);
            for can in &mut able[1..=reach[i] as usize] {
                *can |= 1 << m;
            }
        }
        // D11: a joker's part may not bring the team's eighth marble in.
        let last_home = joker && self.board.team_in_goal(team(me)) == 7;
        let mut failed = HashSet::new();
        // Decides one part whose landing is known.
        let mut part = |i: usize, marble: usize, steps: u8, goal: bool, landing: Landing| {
            if last_home && goal && self.board.on_ring(marble) {
                return;
            }
            let rest = remaining - steps;
            let quick = rest == 0
                || (!goal && reach[i] >= steps + rest)
                || able[rest as usize] & !landing.victims & !(1 << marble) != 0;
            let finishes = quick || {
                let mut after = self.board;
                after.apply_landing(marble, landing);
                self.seven_can_finish(&after, me, rest, joker, &mut failed)
            };
            if finishes {
                out.push(
                    Move::Seven {
                        joker,
                        marble,
                        steps,
                        goal,
                    }
                    .encode(),
                );
            }
        };
        // The landings, as [`Board::landing`] with `seven` finds them, without trying the
        // blocked ones; in id order (marble, steps, goal).
        for (i, &marble) in marbles.iter().enumerate() {
            let color = color_of(marble);
            match self.board.marbles[marble].place {
                Place::Kennel => {}
                Place::Goal(slot) => {
                    for steps in 1..=self.board.goal_free_from(color, slot + 1).min(remaining) {
                        let place = Place::Goal(slot + steps);
                        part(i, marble, steps, true, Landing { place, victims: 0 });
                    }
                }
                Place::Ring(f) => {
                    let f = f as usize;
                    // D9: into the goal after leaving the start once, passing no protected marble.
                    let to_start = Board::to_start(color, f);
                    let goal_free = if !self.board.marbles[marble].protected
                        && to_start < remaining as usize
                        && to_start <= reach[i] as usize
                    {
                        self.board.goal_free_from(color, 0) as usize
                    } else {
                        0
                    };
                    // The marbles on the fields passed so far, all sent home by a seven (D8).
                    let (mut passed, mut passed_to_start) = (0u16, 0u16);
                    for steps in 1..=remaining {
                        let s = steps as usize;
                        if steps <= reach[i] {
                            let field = (f + s) % RING;
                            passed |= self.board.at(field).map_or(0, |o| 1 << o);
                            if s == to_start {
                                passed_to_start = passed;
                            }
                            let place = Place::Ring(field as u8);
                            part(
                                i,
                                marble,
                                steps,
                                false,
                                Landing {
                                    place,
                                    victims: passed,
                                },
                            );
                        }
                        if s > to_start && s - to_start <= goal_free {
                            let place = Place::Goal((s - to_start - 1) as u8);
                            part(
                                i,
                                marble,
                                steps,
                                true,
                                Landing {
                                    place,
                                    victims: passed_to_start,
                                },
                            );
                        }
                    }
                }
            }
        }
    }

    fn has_legal_move(&self) -> bool {
        let mut out = Vec::new();
        self.plays(&mut out);
        !out.is_empty()
    }

    /// After a turn (a card played completely, or sitting out): the win, the turn limit,
    /// the next player or round.
    fn card_done(&mut self) {
        self.d.turns += 1;
        for t in 0..2 {
            if self.board.team_in_goal(t) == 8 {
                // D13: 8 + the opponents' marbles not in the goal; the losers their marbles in the goal.
                let other = self.board.team_in_goal(1 - t);
                let mut points = [0u8; 2];
                points[t] = (8 + 8 - other) as u8;
                points[1 - t] = other as u8;
                self.finish(Some(t as u8), points, EndReason::AllHome);
                return;
            }
        }
        if self.d.rules.max_turns > 0 && self.d.turns >= self.d.rules.max_turns {
            let points = [self.board.team_in_goal(0) as u8, self.board.team_in_goal(1) as u8];
            self.finish(None, points, EndReason::TurnLimit);
            return;
        }
        self.next_player();
    }

    fn finish(&mut self, winner: Option<u8>, points: [u8; 2], reason: EndReason) {
        self.d.outcome = Some(Outcome {
            winner,
            points,
            reason,
        });
        self.d.phase = Phase::Over;
    }

    /// D4: the next seat holding cards; a new round once all hands are empty.
    fn next_player(&mut self) {
        let me = self.d.current as usize;
        match (1..=4)
            .map(|i| (me + i) % 4)
            .find(|&p| !self.d.hands[p].is_empty())
        {
            Some(p) => self.d.current = p as u8,
            None => {
                self.d.round += 1;
                self.deal();
            }
        }
    }

    fn validate(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidState(m));
        let mut seen = HashSet::new();
        for (m, marble) in self.board.marbles.iter().enumerate() {
            match marble.place {
                Place::Ring(f) if f as usize >= RING => {
                    return bad(format!("marble {m}: ring fields are 0-63"));
                }
                Place::Goal(s) if s >= GOAL_LEN => return bad(format!("marble {m}: goal fields are 0-3")),
                Place::Kennel if marble.protected => {
                    return bad(format!(
                        "marble {m}: only a marble on its start field is protected"
                    ));
                }
                Place::Goal(_) if marble.protected => {
                    return bad(format!(
                        "marble {m}: only a marble on its start field is protected"
                    ));
                }
                Place::Ring(f) if marble.protected && f as usize != start_field(color_of(m)) => {
                    return bad(format!(
                        "marble {m}: only a marble on its own start field can be protected"
                    ));
                }
                _ => {}
            }
            if let Some(cell) = Board::cell(m, marble.place)
                && !seen.insert(cell)
            {
                return bad(format!("marble {m} shares its field with another marble"));
            }
        }
        let mut counts = [0usize; NUM_KINDS];
        let cards = self
            .d
            .pile
            .iter()
            .chain(&self.d.discards)
            .copied()
            .chain(self.exchange_cards());
        for card in cards.chain(self.d.hands.iter().flat_map(|h| h.cards())) {
            counts[card.index()] += 1;
        }
        if let Some(i) = (0..NUM_KINDS).find(|&i| counts[i] != Card::from_index(i).copies() as usize) {
            return bad(format!(
                "there are {} cards {} in pile, discards, hands and the exchange; the deck has {}",
                counts[i],
                Card::from_index(i),
                Card::from_index(i).copies()
            ));
        }
        if self.d.current > 3 {
            return bad("seats are 0-3".into());
        }
        if let Some(seven) = self.d.seven {
            if seven.remaining == 0 || seven.remaining >= 7 {
                return bad("a seven in progress has 1-6 steps left".into());
            }
            let me = self.d.current as usize;
            if !self.seven_can_finish(&self.board, me, seven.remaining, seven.joker, &mut HashSet::new()) {
                return bad(format!(
                    "the seven in progress cannot use its {} steps left (D8)",
                    seven.remaining
                ));
            }
        }
        if self.d.history.iter().any(|&a| a as usize >= NUM_ACTIONS) {
            return bad(format!("history holds an action outside 0..{NUM_ACTIONS}"));
        }
        Ok(())
    }

    /// The parts of the seven in progress, oldest first: the newest seven parts of the
    /// history that add up to the steps used so far.
    fn seven_so_far(&self) -> impl Iterator<Item = (usize, u8, bool)> + '_ {
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

    fn seven_part_text(&self, me: usize, marble: usize, steps: u8, goal: bool) -> String {
        let into = if goal { " into the goal" } else { "" };
        format!("{} forward {steps}{into}", self.marble_name(me, marble))
    }

    fn marble_name(&self, me: usize, marble: usize) -> String {
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

    fn place_json(place: Place) -> Value {
        serde_json::to_value(place).expect("places serialize")
    }
}

const MOVE_SYNTAX: &str = r#"moves are {"type": "exchange", "card": "7"}, {"type": "start", "card": "A"|"K"|"JK"}, {"type": "move", "card": "5", "marble": 0-15, "steps": 5, "goal": false} (A: steps 1 or 11; 4: 4 or -4; "JK" with "as": the card it stands for), {"type": "seven", "card": "7"|"JK", "marble": 0-15, "steps": 1-7, "goal": false}, {"type": "jack", "card": "J"|"JK", "marble": 0-15, "with": 0-15} or {"type": "sit_out"}; marble 4·p + k is player p's marble k"#;

fn move_error(what: impl std::fmt::Display) -> Error {
    Error::InvalidMove(format!("{what}; {MOVE_SYNTAX}"))
}

fn marble_field(obj: &Map<String, Value>, field: &str) -> Result<usize> {
    let v = obj
        .get(field)
        .ok_or_else(|| move_error(format!("missing field '{field}'")))?;
    v.as_u64()
        .filter(|&m| m < NUM_MARBLES as u64)
        .map(|m| m as usize)
        .ok_or_else(|| move_error(format!("marble {v} does not exist: marbles are 0-15")))
}

impl GameState for State {
    type Game = Dog;

    fn game(&self) -> &Dog {
        &self.d.rules
    }

    // SCAFFOLD(issue 9)
    fn encode_move(&self, mv: &Value) -> Result<Action> {
        self.action_from_move(mv)
    }
    fn current_player(&self) -> Option<usize> {
        self.d.outcome.is_none().then_some(self.d.current as usize)
    }

    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        match self.d.phase {
            Phase::Over => {}
            Phase::Exchange => {
                let hand = self.d.hands[self.d.current as usize];
                out.extend(hand.kinds().map(|c| Move::Exchange(c).encode()));
            }
            Phase::Play => {
                self.plays(out);
                if out.is_empty() {
                    out.push(SIT_OUT);
                }
            }
        }
    }

    fn check_action(&self, action: Action) -> Result<(), IllegalAction> {
        let mv = Move::decode(action).ok_or_else(|| IllegalAction::no_such_action(action, NUM_ACTIONS))?;
        self.check(mv).map(|_| ())
    }

    fn apply_action(&mut self, action: Action) -> Result<(), IllegalAction> {
        let mv = Move::decode(action).ok_or_else(|| IllegalAction::no_such_action(action, NUM_ACTIONS))?;
        let landing = self.check(mv)?;
        self.apply_checked(mv, action, landing);
        // The board works on its own copy of the marbles; the data keeps them in step.
        self.d.marbles = self.board.marbles;
        Ok(())
    }

    fn returns(&self) -> Vec<f64> {
        winner_returns(4, self.d.outcome.and_then(|o| o.winner).map(usize::from), team)
    }

    fn history(&self) -> &[Action] {
        &self.d.history
    }

    /// D4: the exchange picks are face down. A player sees their own picks, and the
    /// partner's once the round's exchange is complete (it is the card received); the
    /// opponents' picks never.
    fn history_for(&self, player: usize) -> Vec<Option<Action>> {
        let mut seen: Vec<Option<Action>> = self.d.history.iter().copied().map(Some).collect();
        let picks: Vec<usize> = (0..seen.len())
            .filter(|&i| self.d.history[i] < START_BASE)
            .collect();
        // Every round opens with four picks in seat order from its first player (seat
        // round mod 4); counting back from the newest pick gives each pick's round and seat.
        let round = i64::from(self.d.round);
        let (open, newest_complete_round) = match self.d.phase {
            Phase::Exchange => (self.d.exchange.iter().flatten().count(), round - 1),
            Phase::Play | Phase::Over => (0, round),
        };
        let complete = picks.len().saturating_sub(open);
        for (k, &i) in picks.iter().enumerate() {
            let (round, place, done) = if k >= complete {
                (round, (k - complete) as i64, false)
            } else {
                let back = (complete - 1 - k) as i64;
                (newest_complete_round - back / 4, 3 - back % 4, true)
            };
            let seat = (round + place).rem_euclid(4) as usize;
            if seat != player && !(done && seat == partner(player)) {
                seen[i] = None;
            }
        }
        seen
    }

    /// The board, every hand's size, the own hand, what the player gave and (once all
    /// four picked) received in the exchange; never another hand or the pile's order.
    // SCAFFOLD(issue 9)
    fn view_of(&self, seat: Option<usize>) -> Value {
        let player = seat.unwrap_or(0);
        let marbles: Vec<Value> = self
            .board
            .marbles
            .iter()
            .enumerate()
            .map(|(m, mk)| {
                json!({
                    "marble": m,
                    "player": color_of(m),
                    "color": COLORS[color_of(m)],
                    "place": State::place_json(mk.place),
                    "protected": mk.protected,
                })
            })
            .collect();
        let picked: Vec<bool> = self.d.exchange.iter().map(Option::is_some).collect();
        json!({
            "game": Dog::NAME,
            "player": player,
            "current_player": self.current_player(),
            "round": self.d.round,
            "hand_size": HAND_SIZES[(self.d.round % 5) as usize],
            "first_player": self.first_player(),
            "phase": self.d.phase,
            "marbles": marbles,
            "hand": self.d.hands[player],
            "hand_sizes": self.d.hands.iter().map(|h| h.len()).collect::<Vec<_>>(),
            "pile_size": self.d.pile.len(),
            "discard_size": self.d.discards.len(),
            "exchange": {
                "picked": picked,
                "given": self.d.given[player],
                "received": self.d.received[player],
            },
            "seven": self.d.seven,
            "sat_out": self.d.sat_out,
            "turns": self.d.turns,
            "outcome": self.d.outcome,
        })
    }

    fn action_to_string(&self, action: Action) -> String {
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

    fn action_to_move(&self, action: Action) -> Value {
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

    fn action_from_move(&self, mv: &Value) -> Result<Action> {
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

    /// The other hands, the exchange picks in transit and the pile are pooled, shuffled
    /// from `seed` and dealt again in the same sizes; the reshuffles get a new seed.
    fn resample(&self, player: usize, seed: u64) -> Result<State> {
        // SCAFFOLD(issue 9)
        fn old(this: &State, player: usize, seed: u64) -> State {
            let mut state = this.clone();
            let others: Vec<usize> = (0..4).filter(|&p| p != player).collect();
            let mut hidden: Vec<Card> = this.d.pile.clone();
            for &p in &others {
                hidden.extend(this.d.hands[p].cards());
                if this.d.phase == Phase::Exchange {
                    hidden.extend(this.d.exchange[p]);
                }
            }
            // The partner surely still holds the card `player` gave, unless one of that kind
            // has been played since (then nobody can tell which): that card stays pinned.
            let mate = partner(player);
            let pinned = this.d.given[player].filter(|&g| {
                this.d.phase == Phase::Play && !this.d.sat_out[mate] && this.d.played[mate].0[g.index()] == 0
            });
            if let Some(g) = pinned {
                let i = hidden
                    .iter()
                    .position(|&c| c == g)
                    .expect("the partner holds the card given");
                hidden.swap_remove(i);
            }
            hidden.shuffle(&mut rng::seeded(seed, rng::STREAM_RESAMPLE));
            for &p in &others {
                state.d.hands[p] = Hand::default();
                let mut size = this.d.hands[p].len();
                if p == mate
                    && let Some(g) = pinned
                {
                    state.d.hands[p].add(g);
                    size -= 1;
                }
                for _ in 0..size {
                    state.d.hands[p].add(hidden.pop().expect("sizes add up"));
                }
                if this.d.phase == Phase::Exchange && this.d.exchange[p].is_some() {
                    state.d.exchange[p] = hidden.pop();
                }
            }
            state.d.pile = hidden;
            state.d.reshuffle_seed = seed;
            state
        }
        Ok(old(self, player, seed))
    }

    fn hand(&self, player: usize) -> Vec<String> {
        self.d.hands[player].cards().map(|c| c.to_string()).collect()
    }

    fn render(&self) -> String {
        let mut out = String::new();
        let mut ring = vec!["."; RING];
        let letters = ["r", "b", "g", "y"];
        for (m, mk) in self.board.marbles.iter().enumerate() {
            if let Place::Ring(f) = mk.place {
                ring[f as usize] = if mk.protected {
                    ["R", "B", "G", "Y"][color_of(m)]
                } else {
                    letters[color_of(m)]
                };
            }
        }
        for q in 0..4 {
            let _ = writeln!(
                out,
                "fields {:>2}-{:>2}: {}",
                16 * q,
                16 * q + 15,
                ring[16 * q..16 * q + 16].join(" ")
            );
        }
        for p in 0..4 {
            let kennel = (0..4)
                .filter(|k| self.board.marbles[4 * p + k].place == Place::Kennel)
                .count();
            let goal: String = (0..GOAL_LEN)
                .map(|s| {
                    if self.board.at(goal_cell(p, s)).is_some() {
                        letters[p]
                    } else {
                        "."
                    }
                })
                .collect();
            let _ = writeln!(
                out,
                "{:<6} kennel {kennel} goal [{goal}] hand {}{}",
                COLORS[p],
                self.hand(p).join(" "),
                if self.d.sat_out[p] { " (sat out)" } else { "" }
            );
        }
        let _ = write!(
            out,
            "round {} ({} cards), pile {}",
            self.d.round,
            HAND_SIZES[(self.d.round % 5) as usize],
            self.d.pile.len()
        );
        if let Some(seven) = self.d.seven {
            let _ = write!(out, ", seven: {} steps left", seven.remaining);
        }
        out
    }
}
