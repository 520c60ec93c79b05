//! What one seat may see: the view, the history as a seat saw it, and the picture.

use std::fmt::Write as _;

use rand::seq::SliceRandom;
use serde_json::{Value, json};

use super::board::*;
use super::cards::{Card, Hand};
use super::codec::*;
use super::rules::*;
use crate::error::Result;
use crate::game::{Action, Game, GameState};
use crate::rng;

impl State {
    pub(super) fn place_json(place: Place) -> Value {
        serde_json::to_value(place).expect("places serialize")
    }

    /// D4: the exchange picks are face down. A player sees their own picks, and the
    /// partner's once the round's exchange is complete (it is the card received); the
    /// opponents' picks never.
    pub(super) fn history_seen_by(&self, player: usize) -> Vec<Option<Action>> {
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
    pub(super) fn view_value(&self, seat: Option<usize>) -> Value {
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

    pub(super) fn picture(&self) -> String {
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

    pub(super) fn hand_text(&self, player: usize) -> Vec<String> {
        self.d.hands[player].cards().map(|c| c.to_string()).collect()
    }

    /// The other hands, the exchange picks in transit and the pile are pooled, shuffled
    /// from `seed` and dealt again in the same sizes; the reshuffles get a new seed.
    pub(super) fn resample_old(&self, player: usize, seed: u64) -> Result<State> {
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
}
