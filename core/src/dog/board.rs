//! The board (D2): the ring, the kennels, the goal lanes and the start fields; where a
//! move takes a marble, and the reach masks the fast move generation works with.

use serde::{Deserialize, Serialize};

use super::cards::Card;
use crate::bits::ones;

/// D2: the ring has 64 fields; player p's start field is 16·p.
pub const RING: usize = 64;
pub const NUM_MARBLES: usize = 16;
pub(super) const GOAL_LEN: u8 = 4;
pub(super) const CELLS: usize = RING + 16;
pub(super) const EMPTY: u8 = u8::MAX;
pub const COLORS: [&str; 4] = ["red", "blue", "green", "yellow"];

/// Moves of the normal cards: (card, steps; negative is backward).
pub(super) const MOVE_KINDS: [(Card, i8); 13] = [
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
pub(super) const KINDS_WITHIN: [u16; 14] = {
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
pub(super) const BACK_FOUR: u16 = 1 << 12;

pub(super) fn partner(p: usize) -> usize {
    (p + 2) % 4
}
pub(super) fn team(p: usize) -> usize {
    p % 2
}
pub(super) fn start_field(color: usize) -> usize {
    16 * color
}
pub(super) fn goal_cell(color: usize, slot: u8) -> usize {
    RING + 4 * color + slot as usize
}
pub(super) fn color_of(marble: usize) -> usize {
    marble / 4
}
/// A marble's place (D2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// In the owner's kennel (Startraum).
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
pub(super) struct Board {
    pub(super) marbles: [Marble; NUM_MARBLES],
    pub(super) cells: [u8; CELLS],
}

/// Why a marble cannot make a move; turned into a message only when one is asked for,
/// since legal-action generation meets many of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Blocked {
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

/// Where a move would take a marble, and whom it sends home.
#[derive(Clone, Copy, Debug)]
pub(super) struct Landing {
    pub(super) place: Place,
    /// Bit mask of marbles sent home.
    pub(super) victims: u16,
}

impl Board {
    pub(super) fn new(marbles: [Marble; NUM_MARBLES]) -> Board {
        let mut cells = [EMPTY; CELLS];
        for (m, marble) in marbles.iter().enumerate() {
            if let Some(cell) = Board::cell(m, marble.place) {
                cells[cell] = m as u8;
            }
        }
        Board { marbles, cells }
    }

    pub(super) fn cell(marble: usize, place: Place) -> Option<usize> {
        match place {
            Place::Kennel => None,
            Place::Ring(f) => Some(f as usize),
            Place::Goal(s) => Some(goal_cell(color_of(marble), s)),
        }
    }

    pub(super) fn on_ring(&self, marble: usize) -> bool {
        matches!(self.marbles[marble].place, Place::Ring(_))
    }

    pub(super) fn at(&self, cell: usize) -> Option<usize> {
        (self.cells[cell] != EMPTY).then_some(self.cells[cell] as usize)
    }

    pub(super) fn in_goal(&self, color: usize) -> usize {
        let lane = goal_cell(color, 0);
        self.cells[lane..lane + GOAL_LEN as usize]
            .iter()
            .filter(|&&c| c != EMPTY)
            .count()
    }

    pub(super) fn team_in_goal(&self, t: usize) -> usize {
        self.in_goal(t) + self.in_goal(t + 2)
    }

    /// D7–D9: the way of `marble` moving `steps` (negative: backward), into its goal lane or
    /// along the ring. A seven sends home every marble it passes or lands on.
    pub(super) fn landing(
        &self,
        marble: usize,
        steps: i8,
        into_goal: bool,
        seven: bool,
    ) -> Result<Landing, Blocked> {
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
    pub(super) fn team_out(&self, t: usize) -> ([usize; 8], usize) {
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
    pub(super) fn protected_fields(&self) -> u64 {
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
    pub(super) fn reach_from(f: usize, protected: u64) -> (u8, bool) {
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
    pub(super) fn ring_reach(&self, marble: usize, protected: u64) -> (u8, bool) {
        match self.marbles[marble].place {
            Place::Ring(f) => Board::reach_from(f as usize, protected),
            _ => (0, false),
        }
    }

    /// The empty fields of `color`'s goal lane in a row from field `from` on.
    pub(super) fn goal_free_from(&self, color: usize, from: u8) -> u8 {
        (from..GOAL_LEN)
            .take_while(|&s| self.cells[goal_cell(color, s)] == EMPTY)
            .count() as u8
    }

    /// Steps along the ring from field `f` to `color`'s start field (0–63).
    pub(super) fn to_start(color: usize, f: usize) -> usize {
        (start_field(color) + RING - f) % RING
    }

    /// The move kinds of the normal cards (bit k: `MOVE_KINDS[k]`) that `marble` can make
    /// along the ring, and those that take it into or along its goal lane (D7, D9): the
    /// same moves [`Board::landing`] allows, decided by reach and free goal fields.
    pub(super) fn step_kinds(&self, marble: usize, protected: u64) -> (u16, u16) {
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

    pub(super) fn send_home(&mut self, marble: usize) {
        if let Some(cell) = Board::cell(marble, self.marbles[marble].place) {
            self.cells[cell] = EMPTY;
        }
        self.marbles[marble] = Marble {
            place: Place::Kennel,
            protected: false,
        };
    }

    pub(super) fn put(&mut self, marble: usize, place: Place, protected: bool) {
        if let Some(cell) = Board::cell(marble, self.marbles[marble].place) {
            self.cells[cell] = EMPTY;
        }
        self.marbles[marble] = Marble { place, protected };
        if let Some(cell) = Board::cell(marble, place) {
            self.cells[cell] = marble as u8;
        }
    }

    /// D10: two marbles on the ring change places; nothing is sent home.
    pub(super) fn swap(&mut self, a: usize, b: usize) {
        let (pa, pb) = (self.marbles[a].place, self.marbles[b].place);
        self.marbles[a].place = pb;
        self.marbles[b].place = pa;
        for (m, place) in [(a, pb), (b, pa)] {
            if let Some(cell) = Board::cell(m, place) {
                self.cells[cell] = m as u8;
            }
        }
    }

    pub(super) fn apply_landing(&mut self, marble: usize, landing: Landing) {
        for victim in ones(landing.victims) {
            self.send_home(victim);
        }
        self.put(marble, landing.place, false);
    }

    /// D6: the first marble of `color` in the kennel, and whom its start would send home.
    pub(super) fn start(&self, color: usize) -> Result<(usize, Option<usize>), Blocked> {
        let marble = (4 * color..4 * color + 4)
            .find(|&m| self.marbles[m].place == Place::Kennel)
            .ok_or(Blocked::KennelEmpty(color))?;
        let field = start_field(color);
        match self.at(field) {
            Some(other) if self.marbles[other].protected => Err(Blocked::StartTaken(field)),
            other => Ok((marble, other)),
        }
    }

    pub(super) fn key(&self) -> [u8; NUM_MARBLES] {
        self.marbles.map(|m| match m.place {
            Place::Kennel => 200,
            Place::Ring(f) => f | if m.protected { 128 } else { 0 },
            Place::Goal(s) => 100 + s,
        })
    }
}
