//! The fast legal-move generation: bit masks of each marble's reach and the free goal
//! fields instead of walking every move (checked against `checks.rs` by `dog_oracle`).

use std::collections::HashSet;

use super::board::*;
use super::cards::Card;
use super::codec::*;
use super::rules::*;
use crate::bits::ones;
use crate::game::Action;

impl State {
    /// Every legal play in the play phase (without the sit-out), sorted. The same moves
    /// as [`State::check`] allows, with each landing computed once for the real card and
    /// the joker standing in for it.
    pub(super) fn plays(&self, out: &mut Vec<Action>) {
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
                    out.push(Decoded::Start { source }.encode());
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
                                Decoded::Step {
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
                        out.push(Decoded::Jack { joker, marble, with }.encode());
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
    pub(super) fn seven_parts(&self, real: bool, joker: bool, out: &mut Vec<Action>) {
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
    pub(super) fn seven_parts_as(&self, joker: bool, out: &mut Vec<Action>) {
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
                Self::seven_can_finish(&after, me, rest, joker, &mut failed)
            };
            if finishes {
                out.push(
                    Decoded::Seven {
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

    pub(super) fn has_legal_move(&self) -> bool {
        let mut out = Vec::new();
        self.plays(&mut out);
        !out.is_empty()
    }
}
