//! Explicit positions for the rulings C2–C9 and every variant (C10).

use serde_json::{Value, json};

use super::*;
use crate::bots::Heuristic;
use crate::game::{Action, Game, GameState};

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

/// A caravan in a compact notation: number cards separated by spaces, each followed by
/// its face cards joined with `+`; a face card owned by the other player ends in `'`.
/// `"7H 9C+QS'"`: 7H, then 9C carrying the opponent's QS.
fn slots(owner: u8, text: &str) -> Value {
    let owned = |s: &str| {
        let (name, other) = s.strip_suffix('\'').map_or((s, false), |n| (n, true));
        json!({"card": name, "owner": if other { 1 - owner } else { owner }})
    };
    let slots: Vec<Value> = text
        .split_whitespace()
        .map(|slot| {
            let mut parts = slot.split('+');
            let number = owned(parts.next().unwrap());
            json!({"number": number, "faces": parts.map(owned).collect::<Vec<_>>()})
        })
        .collect();
    json!(slots)
}

struct Pos {
    rules: CaravanGame,
    caravans: [&'static str; 6],
    hands: [&'static str; 2],
    current: u8,
    opening_done: [bool; 2],
    /// Cards of each player not placed elsewhere go to the deck, unless this says
    /// how many stay in the deck (the rest go to the discard pile).
    deck_sizes: [Option<usize>; 2],
}

impl Pos {
    fn new(caravans: [&'static str; 6], hands: [&'static str; 2]) -> Pos {
        Pos {
            rules: CaravanGame::default(),
            caravans,
            hands,
            current: 0,
            opening_done: [true, true],
            deck_sizes: [None, None],
        }
    }
    fn rules(mut self, rules: CaravanGame) -> Pos {
        self.rules = rules;
        self
    }
    fn opening(mut self, player: usize) -> Pos {
        self.opening_done[player] = false;
        self
    }
    fn current(mut self, p: u8) -> Pos {
        self.current = p;
        self
    }
    fn deck_size(mut self, p: usize, n: usize) -> Pos {
        self.deck_sizes[p] = Some(n);
        self
    }
    fn build(self) -> State {
        let caravans: Vec<Value> = (0..6)
            .map(|i| json!({"slots": slots((i / 3) as u8, self.caravans[i])}))
            .collect();
        let mut decks = vec![];
        let mut discards = vec![];
        let mut hands = vec![];
        for p in 0..2u8 {
            let hand: Vec<Card> = self.hands[p as usize].split_whitespace().map(card).collect();
            let mut rest: Vec<Card> = CaravanGame::default_deck(&self.rules);
            let mut remove = |c: Card| {
                let i = rest.iter().position(|&x| x == c).expect("card available");
                rest.remove(i);
            };
            for &c in &hand {
                remove(c);
            }
            for cv in &caravans {
                for slot in cv["slots"].as_array().unwrap() {
                    for o in std::iter::once(&slot["number"]).chain(slot["faces"].as_array().unwrap()) {
                        if o["owner"] == json!(p) {
                            remove(card(o["card"].as_str().unwrap()));
                        }
                    }
                }
            }
            let keep = self.deck_sizes[p as usize].unwrap_or(rest.len());
            let discarded = rest.split_off(keep);
            let mut hand = hand;
            hand.sort_unstable();
            hands.push(hand);
            decks.push(rest);
            discards.push(discarded);
        }
        let json = json!({
            "rules": self.rules,
            "reshuffle_seed": 1,
            "decks": decks,
            "hands": hands,
            "discards": discards,
            "caravans": caravans,
            "opening_done": self.opening_done,
            "reshuffles": [0, 0],
            "shown_hands": [[], []],
            "first_player": 0,
            "current": self.current,
            "outcome": null,
            "history": [],
        });
        self.rules.state_from_json(&json.to_string()).unwrap()
    }
}

impl CaravanGame {
    fn default_deck(rules: &CaravanGame) -> Vec<Card> {
        let copies = if rules.double_deck { 2 } else { 1 };
        (0..copies).flat_map(Card::full_deck).collect()
    }
}

fn action(state: &State, mv: &Value) -> Action {
    state.action_from_move(mv).unwrap()
}

fn play(state: &mut State, c: &str, caravan: usize) {
    let a = action(state, &json!({"type": "play", "card": c, "caravan": caravan}));
    state.apply_action(a).unwrap();
}

fn face(state: &mut State, c: &str, caravan: usize, position: usize) {
    let a = action(
        state,
        &json!({"type": "play", "card": c, "caravan": caravan, "position": position}),
    );
    state.apply_action(a).unwrap();
}

#[track_caller]
fn refused(state: &State, mv: &Value, rule: &str, text: &str) {
    let reason = state
        .check_move(mv, None)
        .map(|r| r.map(|e| e.to_string()))
        .unwrap()
        .expect("illegal");
    assert!(reason.starts_with(rule), "{reason}");
    assert!(reason.contains(text), "'{reason}' does not say '{text}'");
    let mut copy = state.clone();
    assert!(copy.apply_action(action(state, mv)).is_err());
    assert_eq!(&copy, state, "a rejected move changes nothing");
}

fn values(state: &State) -> Vec<u32> {
    (0..6).map(|i| state.value(i)).collect()
}

const EMPTY: [&str; 6] = ["", "", "", "", "", ""];

#[test]
fn c1_decks_hands_and_the_lot() {
    let game = CaravanGame::default();
    let mut firsts = [0; 2];
    for seed in 0..40 {
        let state = game.new_initial_state(seed);
        for p in 0..2 {
            assert_eq!(state.hand_cards(p).len(), 8);
            assert_eq!(state.deck(p).len(), 46);
        }
        firsts[state.first_player()] += 1;
        assert_eq!(state.current_player(), Some(state.first_player()));
    }
    assert!(
        firsts[0] > 5 && firsts[1] > 5,
        "the lot picks both players: {firsts:?}"
    );
}

#[test]
fn c2_opening_number_cards_onto_empty_own_caravans_without_drawing() {
    let mut state = Pos::new(
        ["7H", "", "", "", "", ""],
        // Seven cards: the 7H was placed from the eight dealt (C2, no drawing).
        ["2C 9D QS JH KS 3D 4D", "2H 3H 4H 5H 6H"],
    )
    .opening(0)
    .build();
    refused(
        &state,
        &json!({"type": "play", "card": "9D", "caravan": 0}),
        "C2",
        "empty caravan",
    );
    refused(
        &state,
        &json!({"type": "play", "card": "QS", "caravan": 0, "position": 0}),
        "C2",
        "the opening allows number cards only",
    );
    refused(
        &state,
        &json!({"type": "discard", "card": "QS"}),
        "C2",
        "no number card",
    );
    refused(
        &state,
        &json!({"type": "disband", "caravan": 0}),
        "C2",
        "no disbanding",
    );
    refused(
        &state,
        &json!({"type": "play", "card": "9D", "caravan": 3}),
        "C5",
        "own caravans only",
    );
    let deck = state.deck(0).len();
    play(&mut state, "9D", 1);
    assert_eq!(state.deck(0).len(), deck, "no drawing in the opening");
    assert_eq!(state.hand_cards(0).len(), 6);
    assert!(state.in_opening(0));
}

#[test]
fn c2_opening_ends_when_all_three_hold_a_card_and_a_jack_can_prolong_it() {
    let mut state = Pos::new(["7H", "9D", "", "", "", ""], ["2C 3C", "JH 2H"])
        .opening(0)
        .build();
    play(&mut state, "2C", 2);
    assert!(!state.in_opening(0));
    // Player 1 in turn: a jack empties caravan 2 of player 0 whose opening is over: it stays over.
    let mut state2 = Pos::new(["7H", "", "", "", "", ""], ["2C 3C 4C", "JH 2H 3H 4H"])
        .opening(0)
        .current(1)
        .build();
    face(&mut state2, "JH", 0, 0);
    assert!(state2.caravans()[0].slots.is_empty());
    assert!(
        state2.in_opening(0),
        "the opening lasts until all three hold a card"
    );
    play(&mut state2, "2C", 0);
    play(&mut state2, "2H", 5);
    play(&mut state2, "3C", 1);
    state2
        .apply_action(action(&state2, &json!({"type": "discard", "card": "4H"})))
        .unwrap();
    assert!(state2.in_opening(0));
    refused(
        &state2,
        &json!({"type": "play", "card": "4C", "caravan": 0}),
        "C2",
        "empty caravan",
    );
    play(&mut state2, "4C", 2);
    assert!(!state2.in_opening(0));
}

#[test]
fn c2_opening_without_number_cards_discards_and_draws() {
    let mut state = Pos::new(EMPTY, ["QS JH KS JK1 QD", "2H"]).opening(0).build();
    let legal = state.legal_actions();
    assert_eq!(legal.len(), 5, "one discard per card, nothing else");
    let deck = state.deck(0).len();
    state
        .apply_action(action(&state, &json!({"type": "discard", "card": "QS"})))
        .unwrap();
    assert_eq!(state.deck(0).len(), deck - 1, "and draws one");
    assert_eq!(state.hand_cards(0).len(), 5);
    assert_eq!(state.discard_pile(0).last(), Some(&card("QS")));
}

#[test]
fn c3_direction_follows_the_last_two_values_and_queens_reverse_it() {
    let state = Pos::new(
        ["3H 7H", "9C 4C", "5D", "2S 6S+QH'", "8S 3S+QD'+QC'", ""],
        ["2C", "2D"],
    )
    .build();
    assert_eq!(state.direction(0), Some(Direction::Ascending));
    assert_eq!(state.direction(1), Some(Direction::Descending));
    assert_eq!(state.direction(2), None, "one number card has no direction");
    assert_eq!(
        state.direction(3),
        Some(Direction::Descending),
        "a queen reverses"
    );
    assert_eq!(
        state.direction(4),
        Some(Direction::Descending),
        "two queens reverse twice"
    );
    assert_eq!(state.direction(5), None);
}

#[test]
fn c3_jack_leaving_two_equal_values_makes_the_caravan_descending() {
    let build = |fixed_course| {
        Pos::new(["2H 4C AS 4D", "", "", "", "", ""], ["JD 3C", "2H"])
            .rules(CaravanGame {
                fixed_course,
                ..Default::default()
            })
            .build()
    };
    let (mut plain, mut fixed) = (build(false), build(true));
    assert_eq!(plain.direction(0), Some(Direction::Ascending), "A -> 4 ascends");
    // The jack takes AS: 2 4 4 are left, two equal values at the end.
    face(&mut plain, "JD", 0, 2);
    face(&mut fixed, "JD", 0, 2);
    assert_eq!(plain.value(0), 10);
    assert_eq!(
        plain.direction(0),
        Some(Direction::Descending),
        "equal values left: descending"
    );
    assert_eq!(
        fixed.direction(0),
        Some(Direction::Ascending),
        "Fester Kurs keeps the direction before"
    );
    // A removal that leaves different values simply derives the direction again.
    let mut state = Pos::new(["2D 5H 9C 5S", "", "", "", "", ""], ["JD", "2H"]).build();
    assert_eq!(state.direction(0), Some(Direction::Descending));
    face(&mut state, "JD", 0, 3);
    assert_eq!(state.direction(0), Some(Direction::Ascending), "2 5 9 ascends");
}

#[test]
fn c4_c5_suit_matching_reverses_and_the_same_value_never_twice() {
    let mut state = Pos::new(["3H 9C", "", "", "", "", ""], ["7H 7C 10S 9D", "2H"]).build();
    refused(
        &state,
        &json!({"type": "play", "card": "7H", "caravan": 0}),
        "C5",
        "7H cannot follow 9C on an ascending caravan unless it is clubs",
    );
    refused(
        &state,
        &json!({"type": "play", "card": "9D", "caravan": 0}),
        "C5",
        "never the same value twice",
    );
    play(&mut state, "7C", 0);
    assert_eq!(
        state.direction(0),
        Some(Direction::Descending),
        "the direction follows the last two cards"
    );
    assert_eq!(state.suit(0), Some(0));
}

#[test]
fn c4_queen_changes_suit_and_direction_and_founding_suit_variant() {
    let mut state = Pos::new(["3H 9C", "", "", "", "", ""], ["QD 2D 5S", "2H"]).build();
    face(&mut state, "QD", 0, 1);
    assert_eq!(state.suit(0), Some(1), "diamonds");
    assert_eq!(state.direction(0), Some(Direction::Descending));
    let founding = Pos::new(["3H 9C", "", "", "", "", ""], ["2D", "2H"])
        .rules(CaravanGame {
            founding_suit: true,
            ..Default::default()
        })
        .build();
    assert_eq!(founding.suit(0), Some(2), "hearts, the first card's suit");
}

#[test]
fn c6_face_card_cap_and_queens_on_the_last_card() {
    let state = Pos::new(["3H 9C+KS+KD+JK2'", "", "", "4S", "", ""], ["KC QS JD", "2H"]).build();
    refused(
        &state,
        &json!({"type": "play", "card": "KC", "caravan": 0, "position": 1}),
        "C6",
        "at most 3 face cards",
    );
    refused(
        &state,
        &json!({"type": "play", "card": "JD", "caravan": 0, "position": 1}),
        "C6",
        "at most 3 face cards",
    );
    refused(
        &state,
        &json!({"type": "play", "card": "QS", "caravan": 0, "position": 0}),
        "C6",
        "last number card",
    );
    refused(
        &state,
        &json!({"type": "play", "card": "KC", "caravan": 1, "position": 0}),
        "C6",
        "no number card at position 1",
    );
    let unlimited = Pos::new(["3H 9C+KS+KD+JK2'", "", "", "", "", ""], ["KC", "2H"])
        .rules(CaravanGame {
            unlimited_face_cards: true,
            ..Default::default()
        })
        .build();
    assert!(
        unlimited
            .check_move(
                &json!({"type": "play", "card": "KC", "caravan": 0, "position": 1}),
                None
            )
            .map(|r| r.map(|e| e.to_string()))
            .unwrap()
            .is_none()
    );
    let mut anywhere = Pos::new(["3H 9C", "", "", "", "", ""], ["QS 2S", "2H"])
        .rules(CaravanGame {
            queens_anywhere: true,
            ..Default::default()
        })
        .build();
    face(&mut anywhere, "QS", 0, 0);
    assert_eq!(
        anywhere.suit(0),
        Some(0),
        "a queen under the last card does not act"
    );
    assert_eq!(anywhere.direction(0), Some(Direction::Ascending));
}

#[test]
fn c7_kings_double_twice_or_add() {
    let state = Pos::new(["5H+KS+KD", "", "", "", "", ""], ["2C", "2H"]).build();
    assert_eq!(state.value(0), 20);
    let add = Pos::new(["5H+KS+KD", "", "", "", "", ""], ["2C", "2H"])
        .rules(CaravanGame {
            kings_add: true,
            ..Default::default()
        })
        .build();
    assert_eq!(add.value(0), 15);
}

#[test]
fn c7_jack_removes_its_card_with_everything_to_the_owners_discard_piles() {
    let mut state = Pos::new(["", "", "", "4S 9S+KH'", "", ""], ["JD 2C", "2H"]).build();
    let (d0, d1) = (state.discard_pile(0).len(), state.discard_pile(1).len());
    face(&mut state, "JD", 3, 1);
    assert_eq!(values(&state)[3], 4);
    assert_eq!(
        state.discard_pile(0).len(),
        d0 + 2,
        "JD and KH go back to player 0"
    );
    assert_eq!(state.discard_pile(1).len(), d1 + 1, "9S to player 1");
}

#[test]
fn c7_joker_on_an_ace_takes_every_other_card_of_its_suit_from_both_sides() {
    let mut state = Pos::new(
        ["AH 5H+KS", "7H", "3C", "9H+QD' 2H", "AD", "10H"],
        ["JK1 2C", "2S"],
    )
    .build();
    face(&mut state, "JK1", 0, 0);
    let c = state.caravans();
    assert_eq!(c[0].slots.len(), 1, "5H with its king went");
    assert_eq!(c[0].slots[0].faces.len(), 1, "the joker stays on its ace");
    assert!(c[1].slots.is_empty() && c[3].slots.is_empty() && c[5].slots.is_empty());
    assert_eq!(c[2].slots.len(), 1);
    assert_eq!(c[4].slots.len(), 1, "another suit's ace stays");
    assert!(
        state.discard_pile(0).contains(&card("QD")),
        "attachments go with removed cards, to their owners"
    );
}

#[test]
fn c7_joker_on_a_number_takes_every_other_card_of_that_value() {
    let mut state = Pos::new(["7C 7D", "", "", "7H 2S", "7S", ""], ["JK2", "2H"]).build();
    // 7C 7D cannot lie next to each other by play; built directly to show that both go.
    face(&mut state, "JK2", 4, 0);
    let c = state.caravans();
    assert!(c[0].slots.is_empty());
    assert_eq!(c[3].slots.len(), 1);
    assert_eq!(c[4].slots.len(), 1);
}

#[test]
fn c7_queens_shield_and_protected_joker_variants() {
    let layout = ["AH 5H+QS", "7H", "", "9H", "", ""];
    let mut shield = Pos::new(layout, ["JK1 2C", "2S"])
        .rules(CaravanGame {
            queens_shield: true,
            ..Default::default()
        })
        .build();
    face(&mut shield, "JK1", 0, 0);
    assert_eq!(shield.caravans()[0].slots.len(), 2, "5H carries a queen");
    assert!(shield.caravans()[1].slots.is_empty());
    let mut protected = Pos::new(layout, ["JK1 2C", "2S"])
        .rules(CaravanGame {
            protected_joker: true,
            ..Default::default()
        })
        .build();
    face(&mut protected, "JK1", 0, 0);
    assert_eq!(
        protected.caravans()[0].slots.len(),
        2,
        "nothing leaves the joker's own caravan"
    );
    assert!(protected.caravans()[1].slots.is_empty());
    assert!(protected.caravans()[3].slots.is_empty());
}

#[test]
fn c8_turns_draw_after_play_and_discard_but_not_after_disbanding() {
    let mut state = Pos::new(
        ["4S 8S", "", "", "", "", ""],
        ["2C 3C 4C 5C 6C", "2H 3H 4H 5H 6H"],
    )
    .build();
    let deck = state.deck(0).len();
    play(&mut state, "2C", 1);
    assert_eq!((state.hand_cards(0).len(), state.deck(0).len()), (5, deck - 1));
    state
        .apply_action(action(&state, &json!({"type": "discard", "card": "2H"})))
        .unwrap();
    state
        .apply_action(action(&state, &json!({"type": "disband", "caravan": 0})))
        .unwrap();
    state
        .apply_action(action(&state, &json!({"type": "discard", "card": "3H"})))
        .unwrap();
    assert_eq!(state.hand_cards(0).len(), 5);
    assert_eq!(state.deck(0).len(), deck - 1, "disbanding draws nothing");
    assert!(state.caravans()[0].slots.is_empty());
    refused(&state, &json!({"type": "disband", "caravan": 0}), "C8", "empty");
    refused(
        &state,
        &json!({"type": "disband", "caravan": 3}),
        "C8",
        "own caravans",
    );
}

#[test]
fn c9_a_tie_blocks_the_sale_and_the_game_ends_when_all_pairs_are_decided() {
    // Pair 0: 24 against 24, a tie. Pairs 1 and 2 are decided for player 0.
    let mut state = Pos::new(
        ["10H 8S 6C", "10C 9D 3S", "10S 9H 2C", "10D 8H 6S", "5D", "7D"],
        ["4H 2D", "2H"],
    )
    .build();
    assert_eq!(state.sells(0), None, "a tie sells nothing");
    assert_eq!((state.sells(1), state.sells(2)), (Some(0), Some(0)));
    assert!(!state.is_terminal());
    // Player 0 breaks nothing: a 2 on pair 0's caravan makes 26 > 24.
    play(&mut state, "2D", 0);
    assert_eq!(state.sells(0), Some(0));
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: Some(0),
            reason: EndReason::Sold
        })
    );
    assert_eq!(state.returns(), vec![1.0, -1.0]);
}

#[test]
fn c9_quick_sale_wins_with_two_pairs() {
    // Pair 1 is sold by player 0; the 2C makes caravan 2 worth 21 and sells pair 2 too.
    let layout = ["10H 8S", "10C 9D 3S", "10S 9H", "", "5D", "7D"];
    let mut plain = Pos::new(layout, ["2C 4H", "2H"]).build();
    let mut quick = Pos::new(layout, ["2C 4H", "2H"])
        .rules(CaravanGame {
            quick_sale: true,
            ..Default::default()
        })
        .build();
    play(&mut plain, "2C", 2);
    play(&mut quick, "2C", 2);
    assert!(!plain.is_terminal(), "pair 0 is not decided");
    assert_eq!(
        quick.outcome(),
        Some(Outcome {
            winner: Some(0),
            reason: EndReason::QuickSale
        })
    );
}

#[test]
fn c9_running_out_of_cards_loses() {
    let mut state = Pos::new(["4S", "", "", "5H", "", ""], ["2C", "2H 3H"])
        .deck_size(0, 0)
        .build();
    play(&mut state, "2C", 1);
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: Some(1),
            reason: EndReason::OutOfCards
        })
    );
}

#[test]
fn c10_reshuffle_refills_an_empty_deck_twice() {
    let rules = CaravanGame {
        reshuffle: true,
        ..Default::default()
    };
    let mut state = Pos::new(["4S", "", "", "5H", "", ""], ["2C 3C", "2H 3H 4H"])
        .rules(rules)
        .deck_size(0, 0)
        .build();
    let discards = state.discard_pile(0).len();
    assert!(discards > 0);
    state
        .apply_action(action(&state, &json!({"type": "discard", "card": "3C"})))
        .unwrap();
    assert_eq!(
        state.deck(0).len(),
        discards,
        "the discard pile, with the card just discarded, became the deck"
    );
    assert!(state.discard_pile(0).is_empty());
    assert_eq!(state.hand_cards(0).len(), 2);
}

#[test]
fn c10_deck_variants_and_fresh_hand() {
    let short = CaravanGame {
        short_deck: true,
        ..Default::default()
    }
    .new_initial_state(3);
    assert_eq!(short.deck(0).len() + short.hand_cards(0).len(), 30);
    let double = CaravanGame {
        double_deck: true,
        ..Default::default()
    }
    .new_initial_state(3);
    assert_eq!(double.deck(1).len() + double.hand_cards(1).len(), 108);
    let fresh = CaravanGame {
        fresh_hand: true,
        ..Default::default()
    };
    for seed in 0..200 {
        let state = fresh.new_initial_state(seed);
        for p in 0..2 {
            assert!(state.hand_cards(p).iter().filter(|c| c.is_number()).count() >= 3);
        }
    }
    assert!(CaravanGame::default().ranked());
    assert!(!fresh.ranked());
}

#[test]
fn views_show_caravans_and_hide_the_other_hand() {
    let state = Pos::new(["3H 9C+QD'", "", "", "", "", ""], ["2C 4D", "5S 6S"]).build();
    let view = state.view(0);
    assert_eq!(view["caravans"][0]["value"], json!(12));
    assert_eq!(view["caravans"][0]["direction"], json!("descending"));
    assert_eq!(view["caravans"][0]["suit"], json!("diamonds"));
    assert_eq!(view["hand"], json!(["2C", "4D"]));
    assert_eq!(view["hand_sizes"], json!([2, 2]));
    assert!(!view.to_string().contains("5S"));
    for seed in 0..5 {
        for p in 0..2 {
            assert_eq!(
                state.resample(p, seed).expect("the state resamples").view(p),
                state.view(p)
            );
        }
    }
}

#[test]
fn moves_round_trip_through_json() {
    for rules in [
        CaravanGame::default(),
        CaravanGame {
            double_deck: true,
            ..Default::default()
        },
    ] {
        let state = rules.new_initial_state(1);
        for a in 0..rules.num_distinct_actions() as Action {
            assert_eq!(state.action_from_move(&state.action_to_move(a)).unwrap(), a);
        }
    }
    let state = CaravanGame::default().new_initial_state(1);
    for (mv, text) in [
        (json!({"type": "play", "card": "1H", "caravan": 0}), "JK1-JK4"),
        (
            json!({"type": "play", "card": "QS", "caravan": 0}),
            "needs a 'position'",
        ),
        (
            json!({"type": "play", "card": "7S", "caravan": 6}),
            "caravans are 0-5",
        ),
        (json!({"type": "sell"}), "unknown variant `sell`"),
    ] {
        let err = state.action_from_move(&mv).unwrap_err().to_string();
        assert!(err.contains(text), "{err}");
    }
    let reason = state
        .check_move(&json!({"type": "discard", "card": "JK3"}), None)
        .map(|r| r.map(|e| e.to_string()))
        .unwrap()
        .unwrap();
    assert!(reason.contains("JK3 is not in player"), "{reason}");
}

// ---- Engine contract v2 (issue 9) ----

use crate::bots::RandomBot;
use crate::error::Error;

/// Positions from random games under `rules`: every `every`-th state of `games` games.
fn positions(rules: CaravanGame, games: u64, every: usize) -> Vec<State> {
    let mut out = Vec::new();
    for seed in 0..games {
        let mut state = rules.new_initial_state(seed);
        let mut bot = RandomBot::new(seed);
        let mut step = 0;
        loop {
            if step % every == 0 {
                out.push(state.clone());
            }
            let Some(a) = bot.step(&state) else { break };
            state.apply_action(a).unwrap();
            step += 1;
        }
        out.push(state);
    }
    out
}

fn all_variants() -> CaravanGame {
    let map: serde_json::Map<String, Value> = VARIANTS
        .iter()
        .map(|(n, _)| (n.to_string(), json!(true)))
        .collect();
    CaravanGame::from_options(&map).unwrap()
}

fn rule_sets() -> Vec<CaravanGame> {
    let one = |f: fn(&mut CaravanGame)| {
        let mut g = CaravanGame::default();
        f(&mut g);
        g
    };
    vec![
        CaravanGame::default(),
        one(|g| g.reshuffle = true),
        one(|g| g.short_deck = true),
        one(|g| g.double_deck = true),
        one(|g| {
            g.short_deck = true;
            g.fresh_hand = true;
            g.reshuffle = true;
        }),
        one(|g| g.fixed_course = true),
        all_variants(),
    ]
}

/// The state as JSON, for tests that change one field.
fn as_json(state: &State) -> Value {
    serde_json::from_str(&state.to_json()).unwrap()
}

fn read(rules: &CaravanGame, json: &Value) -> crate::error::Result<State> {
    rules.state_from_json(&json.to_string())
}

#[track_caller]
fn refused_state(rules: &CaravanGame, json: &Value, text: &str) {
    match read(rules, json) {
        Err(Error::InvalidState(m)) => {
            assert!(m.en.contains(text), "'{m}' does not say '{text}'");
            assert!(!m.de.is_empty() && m.de != m.en, "no German for '{m}'");
        }
        other => panic!("not refused: {other:?}"),
    }
}

#[test]
fn finding_face_card_owned_by_player_7_is_refused() {
    let state = Pos::new(["", "", "", "4S 9S+KH'", "", ""], ["JD 2C", "2H"]).build();
    let mut json = as_json(&state);
    json["caravans"][3]["slots"][1]["faces"][0]["owner"] = json!(7);
    refused_state(&state.rules, &json, "belongs to player 7: players are 0 and 1");
    json["caravans"][3]["slots"][1]["faces"][0]["owner"] = json!(0);
    json["caravans"][3]["slots"][0]["number"]["owner"] = json!(7);
    refused_state(&state.rules, &json, "belongs to player 7");
}

#[test]
fn finding_crafted_reshuffled_pile_is_refused() {
    let rules = CaravanGame {
        reshuffle: true,
        ..Default::default()
    };
    let state = Pos::new(["4S", "", "", "5H", "", ""], ["2C 3C", "2H 3H 4H"])
        .rules(rules)
        .build();
    let mut json = as_json(&state);
    // A reshuffle of one card, yet the deck holds dozens of others.
    json["reshuffles"] = json!([1, 0]);
    json["reshuffled"] = json!([["AH"], []]);
    refused_state(&rules, &json, "not in their reshuffled pile");
    json["reshuffles"] = json!([0, 0]);
    refused_state(&rules, &json, "exactly when they have reshuffled");
    json["reshuffles"] = json!([3, 0]);
    refused_state(&rules, &json, "allowed are 0-2");
    // Without the variant no reshuffle at all.
    let mut plain = as_json(&Pos::new(["4S", "", "", "5H", "", ""], ["2C", "2H"]).build());
    plain["reshuffles"] = json!([1, 0]);
    refused_state(&CaravanGame::default(), &plain, "0 without reshuffle");
}

#[test]
fn finding_three_sold_pairs_end_the_game_and_the_outcome_is_derived() {
    // C9: every pair decided: player 0 sells pairs 1 and 2 (22, 21), player 1 pair 0 (24).
    let layout = ["5D", "10C 9D 3S", "10S 9H 2C", "10D 8H 6S", "5H", "7D"];
    let rules = CaravanGame::default();
    let mut json = pos_json(&Pos::new(layout, ["4D", "2H"]).current(1));
    refused_state(
        &rules,
        &json,
        "the outcome says running, but the position gives player 0 wins",
    );
    json["outcome"] = json!({"winner": 9, "reason": "sold"});
    refused_state(&rules, &json, "the outcome says player 9 wins");
    json["outcome"] = json!({"winner": 1, "reason": "sold"});
    refused_state(&rules, &json, "gives player 0 wins");
    json["outcome"] = json!({"winner": 0, "reason": "sold"});
    let state = read(&rules, &json).unwrap();
    assert!(state.is_terminal());
    assert_eq!(state.returns(), vec![1.0, -1.0]);
    assert_eq!(
        state.result_text().unwrap(),
        "player 1 wins: sold 2 of the three pairs"
    );
    let mut running = pos_json(&Pos::new(EMPTY, ["2C", "2H"]));
    running["outcome"] = json!({"winner": 0, "reason": "out_of_cards"});
    refused_state(&rules, &running, "but the position gives running");
}

#[test]
fn finding_opening_with_three_filled_caravans_is_refused() {
    let json = {
        let mut json = pos_json(&Pos::new(["7H", "8C", "9D", "", "", ""], ["2C 3C", "2H"]));
        json["opening_done"] = json!([false, false]);
        json
    };
    refused_state(&CaravanGame::default(), &json, "ends when they first do (C2)");
    // The generic layer refuses a running game without a legal action too.
    let game: &dyn crate::dynamic::DynGame = &CaravanGame::default();
    assert!(game.deserialize_state(&json.to_string()).is_err());
}

#[test]
fn finding_views_carry_the_reshuffled_piles() {
    let rules = CaravanGame {
        reshuffle: true,
        ..Default::default()
    };
    let mut state = Pos::new(["4S", "", "", "5H", "", ""], ["2C 3C", "2H 3H 4H"])
        .rules(rules)
        .deck_size(0, 0)
        .build();
    let pile = state.discard_pile(0).len();
    state
        .apply_action(action(&state, &json!({"type": "discard", "card": "3C"})))
        .unwrap();
    for seat in [Some(0), Some(1), None] {
        let view = state.view_of(seat);
        assert_eq!(view.reshuffles_used, [1, 0]);
        assert_eq!(
            view.reshuffled[0].len(),
            pile + 1,
            "the pile with the card just discarded"
        );
        assert!(view.reshuffled[0].is_sorted());
    }
    // Resampled decks hold only cards of the pile (C10), for either seat.
    for p in 0..2 {
        for seed in 0..20 {
            let r = state.resample(p, seed).unwrap();
            assert_eq!(r.view_of(Some(p)), state.view_of(Some(p)));
            for c in r.deck(0) {
                assert!(state.view_of(None).reshuffled[0].contains(c));
            }
        }
    }
    // Two positions that differ only in which cards went back are different views.
    let mut other = as_json(&state);
    other["reshuffled"][0] = json!([]);
    assert!(read(&rules, &other).is_err());
}

/// A position of the builder as JSON, without reading (and so checking) it.
fn pos_json(pos: &Pos) -> Value {
    let caravans: Vec<Value> = (0..6)
        .map(|i| json!({"slots": slots((i / 3) as u8, pos.caravans[i])}))
        .collect();
    let mut decks = vec![];
    let mut discards = vec![];
    let mut hands = vec![];
    for p in 0..2u8 {
        let mut hand: Vec<Card> = pos.hands[p as usize].split_whitespace().map(card).collect();
        let mut rest: Vec<Card> = CaravanGame::default_deck(&pos.rules);
        let mut remove = |c: Card| {
            let i = rest.iter().position(|&x| x == c).expect("card available");
            rest.remove(i);
        };
        for &c in &hand {
            remove(c);
        }
        for cv in &caravans {
            for slot in cv["slots"].as_array().unwrap() {
                for o in std::iter::once(&slot["number"]).chain(slot["faces"].as_array().unwrap()) {
                    if o["owner"] == json!(p) {
                        remove(card(o["card"].as_str().unwrap()));
                    }
                }
            }
        }
        let keep = pos.deck_sizes[p as usize].unwrap_or(rest.len());
        let discarded = rest.split_off(keep);
        hand.sort_unstable();
        hands.push(hand);
        decks.push(rest);
        discards.push(discarded);
    }
    json!({
        "rules": pos.rules,
        "reshuffle_seed": 1,
        "decks": decks,
        "hands": hands,
        "discards": discards,
        "caravans": caravans,
        "opening_done": pos.opening_done,
        "reshuffles": [0, 0],
        "shown_hands": [[], []],
        "first_player": 0,
        "current": pos.current,
        "outcome": null,
        "history": [],
    })
}

#[test]
fn moves_parse_through_the_enum_and_refuse_what_does_not_fit() {
    let state = CaravanGame::default().new_initial_state(1);
    for (mv, text) in [
        (
            json!({"type": "disband", "caravan": 1, "x": 1}),
            "unknown field `x`",
        ),
        (
            json!({"type": "discard", "card": "7H", "caravan": 1}),
            "unknown field `caravan`",
        ),
        (
            json!({"type": "disband", "caravan": 6}),
            "caravan 6 does not exist: caravans are 0-5",
        ),
        (
            json!({"type": "disband", "caravan": -1}),
            "caravan -1 does not exist",
        ),
        (
            json!({"type": "play", "card": "7H", "caravan": 99_999_999_999i64}),
            "caravans are 0-5",
        ),
        (
            json!({"type": "play", "card": "QS", "caravan": 0, "position": 40}),
            "position 40 does not exist: positions are 0-39",
        ),
        (
            json!({"type": "play", "card": "7H", "caravan": 0, "position": 0}),
            "takes no 'position'",
        ),
        (
            json!({"type": "play", "card": "QS", "caravan": 0}),
            "needs a 'position'",
        ),
        (json!({"type": "pass"}), "unknown variant `pass`"),
        (json!("play"), "a move is a JSON object"),
    ] {
        match state.action_from_move(&mv) {
            Err(Error::InvalidMove(m)) => {
                assert!(m.en.contains(text), "{mv}: '{m}' lacks '{text}'");
                assert!(!m.de.is_empty() && m.de != m.en, "no German for '{m}'");
            }
            other => panic!("{mv} gives {other:?}"),
        }
    }
    let double = CaravanGame {
        double_deck: true,
        ..Default::default()
    }
    .new_initial_state(1);
    let mv = json!({"type": "play", "card": "QS", "caravan": 5, "position": 79});
    assert_eq!(double.action_to_move(double.action_from_move(&mv).unwrap()), mv);
    // The schema is the enum's.
    let schema = crate::dynamic::DynGame::move_schema(&CaravanGame::default()).to_string();
    assert!(
        schema.contains("disband") && schema.contains("position"),
        "{schema}"
    );
}

#[test]
fn legal_actions_round_trip_through_moves_over_random_games() {
    for rules in rule_sets() {
        for state in positions(rules, 6, 5) {
            for a in state.legal_actions() {
                let mv = state.action_to_move(a);
                assert_eq!(state.action_from_move(&mv).unwrap(), a, "{mv}");
                let parsed: Move = serde_json::from_value(mv).unwrap();
                assert_eq!(state.encode_move(&parsed).unwrap(), a);
            }
        }
    }
}

#[test]
fn every_error_code_has_a_position_that_triggers_it() {
    let codes = |state: &State, moves: &[Value]| -> Vec<&'static str> {
        moves
            .iter()
            .map(|mv| state.check_action(action(state, &mv.clone())).unwrap_err())
            .inspect(|e| {
                assert!(!e.reason_de.is_empty() && e.reason_de != e.reason, "{e:?}");
                assert!(
                    !e.params.is_empty() || e.code == "game_over" || e.code.starts_with("opening_face"),
                    "{e:?}"
                );
            })
            .map(|e| e.code)
            .collect()
    };
    let mut seen = Vec::new();
    let opening = Pos::new(["7H", "", "", "", "", ""], ["2C 9D QS", "2H"])
        .opening(0)
        .build();
    seen.extend(codes(
        &opening,
        &[
            json!({"type": "play", "card": "9D", "caravan": 0}),
            json!({"type": "play", "card": "QS", "caravan": 0, "position": 0}),
            json!({"type": "discard", "card": "QS"}),
            json!({"type": "disband", "caravan": 0}),
        ],
    ));
    let table = Pos::new(
        ["3H 9C+KS+KD+JK2'", "4D", "", "4S", "", ""],
        ["7H 9S QS KC", "2H"],
    )
    .build();
    seen.extend(codes(
        &table,
        &[
            json!({"type": "play", "card": "7H", "caravan": 3}),
            json!({"type": "play", "card": "9S", "caravan": 0}),
            json!({"type": "play", "card": "7H", "caravan": 0}),
            json!({"type": "play", "card": "2D", "caravan": 2}),
            json!({"type": "play", "card": "KC", "caravan": 2, "position": 0}),
            json!({"type": "play", "card": "KC", "caravan": 0, "position": 1}),
            json!({"type": "play", "card": "QS", "caravan": 0, "position": 0}),
            json!({"type": "disband", "caravan": 3}),
            json!({"type": "disband", "caravan": 2}),
        ],
    ));
    let mut over = pos_json(&Pos::new(
        ["5D", "10C 9D 3S", "10S 9H 2C", "10D 8H 6S", "5H", "7D"],
        ["4D", "2H"],
    ));
    over["outcome"] = json!({"winner": 0, "reason": "sold"});
    let over = read(&CaravanGame::default(), &over).unwrap();
    seen.push(over.check_action(0).unwrap_err().code);
    seen.push(table.check_action(u32::MAX).unwrap_err().code);
    seen.sort_unstable();
    seen.dedup();
    let mut expected = vec![
        "card_not_in_hand",
        "caravan_empty",
        "disband_not_own",
        "face_cards_full",
        "game_over",
        "no_such_action",
        "no_such_number_card",
        "not_own_caravan",
        "opening_caravan_not_empty",
        "opening_discard",
        "opening_disband",
        "opening_face_card",
        "queen_not_on_last",
        "same_value",
        "wrong_direction",
    ];
    expected.sort_unstable();
    assert_eq!(seen, expected);
    // Reasons number caravans and number cards as the board shows them (from 1).
    let e = table
        .check_action(action(
            &table,
            &json!({"type": "play", "card": "KC", "caravan": 2, "position": 0}),
        ))
        .unwrap_err();
    assert_eq!(
        e.reason,
        "caravan 3 has no number card at position 1 (it holds 0)"
    );
    assert_eq!(e.reason_de, "Route 3 hat keine 1. Zahlenkarte (sie hat 0)");
    assert_eq!(e.params["caravan"], json!(2), "params keep the API's numbers");
}

#[test]
fn texts_number_caravans_as_the_board_shows_them() {
    let state = Pos::new(["3H 9C", "", "", "", "", ""], ["QS 2S", "2H"]).build();
    let queen = action(
        &state,
        &json!({"type": "play", "card": "QS", "caravan": 0, "position": 1}),
    );
    assert_eq!(
        state.action_to_string(queen),
        "play QS on caravan 1, number card 2"
    );
    let disband = action(&state, &json!({"type": "disband", "caravan": 0}));
    assert_eq!(state.action_to_string(disband), "disband caravan 1");
    let render = state.render();
    assert!(render.starts_with("caravan 1 (player 1)"), "{render}");
    assert!(render.contains("caravan 6 (player 2)"), "{render}");
}

#[test]
fn option_specs_agree_with_from_options() {
    let game = CaravanGame::default();
    let specs = game.option_specs();
    assert_eq!(specs.len(), 12);
    for (spec, (name, name_de)) in specs.iter().zip(VARIANTS) {
        assert_eq!((spec.name, spec.name_de), (name, Some(name_de)));
        assert!(!spec.description.is_empty());
        assert_eq!(game.options()[name], spec.default);
        for value in spec.allowed.as_ref().unwrap() {
            let options = serde_json::Map::from_iter([(name.to_string(), value.clone())]);
            assert!(CaravanGame::from_options(&options).is_ok(), "{name}={value}");
        }
        for bad in [json!(1), json!("yes"), json!(null)] {
            let options = serde_json::Map::from_iter([(name.to_string(), bad)]);
            assert!(CaravanGame::from_options(&options).is_err());
        }
    }
    assert_eq!(specs[0].name_de, Some("Damen überall"));
}

#[test]
fn max_game_length_bounds_random_games() {
    assert_eq!(CaravanGame::default().max_game_length(), 216);
    for rules in rule_sets() {
        for seed in 0..60 {
            let mut state = rules.new_initial_state(seed);
            let mut bot = RandomBot::new(seed);
            while let Some(a) = bot.step(&state) {
                state.apply_action(a).unwrap();
            }
            assert!(state.history().len() as u64 <= rules.max_game_length());
            assert!(state.result_text().is_some());
        }
    }
}

#[test]
fn result_text_says_why_the_game_ended() {
    let mut state = Pos::new(["4S", "", "", "5H", "", ""], ["2C", "2H 3H"])
        .deck_size(0, 0)
        .build();
    assert_eq!(state.result_text(), None);
    play(&mut state, "2C", 1);
    assert_eq!(
        state.result_text().unwrap(),
        "player 2 wins: player 1 ran out of cards"
    );
}

#[test]
fn a_player_to_move_with_an_empty_hand_draws_first() {
    // Player 0's last card completes nothing: in the opening, no drawing (C2).
    let mut state = Pos::new(["7H", "", "", "", "", ""], ["2C", "2H 3H"])
        .opening(0)
        .build();
    play(&mut state, "2C", 1);
    assert!(state.hand_cards(0).is_empty() && state.in_opening(0));
    let deck = state.deck(0).len();
    play(&mut state, "2H", 3);
    assert_eq!(state.hand_cards(0).len(), 1, "drew before their turn");
    assert_eq!(state.deck(0).len(), deck - 1);
    assert!(!state.legal_actions().is_empty());
}

#[test]
fn views_are_information_states() {
    let state = Pos::new(["3H 9C+QD'", "", "", "", "", ""], ["2C 4D", "5S 6S"]).build();
    let public = state.view_of(None);
    assert_eq!((public.player, public.hand.as_ref()), (None, None));
    let v = state.public_view();
    assert_eq!((&v["player"], &v["hand"]), (&Value::Null, &Value::Null));
    assert_eq!(state.view(0)["hand"], json!(["2C", "4D"]));
    assert_eq!(state.view(0)["caravans"][0]["suit"], json!("diamonds"));
    // The key is the view's bytes; swapping hidden cards changes neither.
    let mut swapped = as_json(&state);
    let (hand1, deck1) = (swapped["hands"][1].clone(), swapped["decks"][1].clone());
    let mut hand: Vec<Card> = serde_json::from_value(hand1).unwrap();
    let mut deck: Vec<Card> = serde_json::from_value(deck1).unwrap();
    std::mem::swap(&mut hand[0], &mut deck[0]);
    hand.sort_unstable();
    deck.swap(3, 7);
    swapped["hands"][1] = json!(hand);
    swapped["decks"][1] = json!(deck);
    let other = read(&state.rules, &swapped).unwrap();
    assert_ne!(other, state);
    assert_eq!(other.information_state_key(0), state.information_state_key(0));
    assert_ne!(other.information_state_key(1), state.information_state_key(1));
    for seed in 0..5 {
        assert_eq!(other.resample(0, seed).unwrap(), state.resample(0, seed).unwrap());
    }
    // Schema: every field described, no maps.
    let schema = crate::dynamic::DynGame::view_schema(&CaravanGame::default()).to_string();
    for field in [
        "reshuffled",
        "shown_hands",
        "discard_piles",
        "sold_by",
        "CaravanView",
    ] {
        assert!(schema.contains(field), "{field}");
    }
    assert!(!schema.contains("additionalProperties\":true"));
}

#[test]
fn resampling_keeps_the_view_and_plays_on_over_random_games() {
    for rules in rule_sets() {
        for (i, state) in positions(rules, 8, 7).into_iter().enumerate() {
            let seed = i as u64;
            for p in 0..2 {
                let r = state.resample(p, seed).unwrap();
                assert_eq!(r.view_of(Some(p)), state.view_of(Some(p)), "{rules:?}");
                assert!(r.history().is_empty());
                assert_eq!(r, state.resample(p, seed).unwrap(), "seeded");
                assert_eq!(rules.state_from_json(&r.to_json()).unwrap(), r);
                if i % 5 == 0 {
                    let mut r = r;
                    let mut bot = RandomBot::new(seed);
                    while let Some(a) = bot.step(&r) {
                        r.apply_action(a).unwrap();
                    }
                }
            }
            let public = rules.state_from_view(&state.view_of(None), seed).unwrap();
            assert_eq!(public.view_of(None), state.view_of(None));
        }
    }
}

#[test]
fn resampled_opponent_hands_are_uniform() {
    // After 20 random actions, each card unseen by player p lands in the other hand
    // with probability h / (h + d).
    let rules = CaravanGame::default();
    let state = positions(rules, 1, 20)[1].clone();
    let p = state.current_player().unwrap();
    let q = 1 - p;
    let (h, d) = (state.hand_cards(q).len(), state.deck(q).len());
    let unseen: Vec<Card> = {
        let mut u: Vec<Card> = state.deck(q).iter().chain(state.hand_cards(q)).copied().collect();
        u.sort_unstable();
        u
    };
    let n = 800;
    let mut hits = vec![0usize; NUM_FACES_FOR_TESTS];
    for seed in 0..n {
        let r = state.resample(p, seed).unwrap();
        for c in r.hand_cards(q) {
            hits[c.index()] += 1;
        }
    }
    let prob = h as f64 / (h + d) as f64;
    let expected = n as f64 * prob;
    let chi2: f64 = unseen
        .iter()
        .map(|c| (hits[c.index()] as f64 - expected).powi(2) / (expected * (1.0 - prob)))
        .sum();
    let dof = (unseen.len() - 1) as f64;
    assert!(
        chi2 < dof + 6.0 * (2.0 * dof).sqrt(),
        "chi2 {chi2} with {dof} degrees of freedom"
    );
    assert_eq!(
        hits.iter().sum::<usize>(),
        h * n as usize,
        "only unseen cards are dealt"
    );
}

const NUM_FACES_FOR_TESTS: usize = 56;

#[test]
fn impossible_views_are_refused() {
    let state = Pos::new(["3H 9C+QD'", "", "", "4S", "", ""], ["2C 4D", "5S 6S"]).build();
    let rules = state.rules;
    let view = state.view_of(Some(0));
    let refused = |change: &dyn Fn(&mut View), text: &str| {
        let mut v = view.clone();
        change(&mut v);
        match rules.state_from_view(&v, 1) {
            Err(Error::InvalidView(m)) => {
                assert!(m.en.contains(text), "'{m}' lacks '{text}'");
                assert!(!m.de.is_empty() && m.de != m.en, "no German for '{m}'");
            }
            other => panic!("not refused ({text}): {other:?}"),
        }
    };
    refused(&|v| v.player = Some(9), "player 9 does not exist");
    refused(&|v| v.hand = None, "shows their hand");
    refused(&|v| v.current_player = Some(2), "current_player 2");
    refused(&|v| v.first_player = 7, "first_player 7");
    refused(&|v| v.ranked = false, "ranked");
    refused(&|v| v.hand_sizes[1] = usize::MAX, "at most 8");
    refused(&|v| v.deck_sizes[1] = usize::MAX, "a deck has 54");
    refused(&|v| v.deck_sizes[1] -= 1, "do not add up");
    refused(&|v| v.caravans[0].value = 30, "'caravans' does not follow");
    refused(&|v| v.caravans[1].caravan = 4, "caravans[1] is caravan 1");
    refused(
        &|v| v.caravans[0].cards[1].faces[0].owner = 7,
        "belongs to player 7",
    );
    refused(&|v| v.caravans[3].cards[0].owner = 0, "do not add up");
    refused(&|v| v.discard_piles[0].push(card("2C")), "shows 2 of 2C");
    refused(
        &|v| {
            v.outcome = Some(Outcome {
                winner: Some(0),
                reason: EndReason::Sold,
            });
        },
        "current_player is null exactly",
    );
    refused(&|v| v.reshuffles_used = [1, 0], "reshuffle");
    refused(&|v| v.pairs[0].sold_by = Some(1), "'pairs' does not follow");
    refused(&|v| v.in_opening = [true, false], "in the opening, yet");
    let mut v = serde_json::to_value(&view).unwrap();
    v["extra"] = json!(1);
    assert!(crate::dynamic::DynGame::state_from_view(&rules, &v, 1).is_err());
}

#[test]
#[ignore = "timing, run by hand"]
fn view_json_timing() {
    let state = positions(CaravanGame::default(), 1, 30)[1].clone();
    let n = 200_000;
    let t = std::time::Instant::now();
    let mut bytes = 0;
    for _ in 0..n {
        bytes += state.view_json(Some(0)).len();
    }
    let per = t.elapsed().as_nanos() as f64 / f64::from(n);
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(state.view_of(Some(0)));
    }
    let build = t.elapsed().as_nanos() as f64 / f64::from(n);
    println!("view_json {per:.0} ns, view_of {build:.0} ns ({bytes} bytes)");
}

#[test]
fn view_json_writes_exactly_what_serde_writes() {
    let mut checked = 0;
    for rules in rule_sets() {
        let mut states = positions(rules, 6, 3);
        // Finished games of every kind, and reshuffles, shown hands, two decks.
        states.extend((100..130).map(|seed| {
            let mut state = rules.new_initial_state(seed);
            let mut bot = RandomBot::new(seed);
            while let Some(a) = bot.step(&state) {
                state.apply_action(a).unwrap();
            }
            state
        }));
        for state in &states {
            for seat in [Some(0), Some(1), None, Some(5)] {
                // The view for people (with the pairs' facts) and the typed view without.
                let serde = serde_json::to_vec(&state.view_with_facts(seat)).unwrap();
                assert_eq!(
                    String::from_utf8(state.view_json(seat)).unwrap(),
                    String::from_utf8(serde).unwrap(),
                    "{rules:?}"
                );
                let serde = serde_json::to_vec(&state.view_of(seat)).unwrap();
                assert_eq!(
                    String::from_utf8(state.write_view_json(seat, false)).unwrap(),
                    String::from_utf8(serde).unwrap(),
                    "{rules:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 5_000, "{checked} views");
}

// ---- The heuristic (issue 11) ----

/// The heuristic's move for the player to move, as JSON.
fn heuristic_move(state: &State) -> Value {
    let seat = state.current_player().unwrap();
    let a = state
        .heuristic_action(seat, &mut crate::rng::seeded(1, crate::rng::STREAM_POLICY))
        .unwrap();
    assert_eq!(
        state.heuristic_action(1 - seat, &mut crate::rng::seeded(1, crate::rng::STREAM_POLICY)),
        None,
        "the seat not to move has no action"
    );
    state.action_to_move(a)
}

#[test]
fn heuristic_opens_with_its_highest_number_card() {
    // C2: only number cards onto empty caravans; the 10 brings a caravan furthest.
    let state = Pos::new(["", "", "", "", "", ""], ["2C 4D 5D 7H 10S QC JD KH", "2H"])
        .opening(0)
        .build();
    assert_eq!(heuristic_move(&state)["card"], json!("10S"));
}

#[test]
fn heuristic_sells_with_the_safest_finishing_card() {
    // Caravan 0 is 10C 5D = 15, descending: 8D and 9D may follow by suit (C5), and 9D
    // makes 24, harder to outbid than 23. 6S may not follow (C5).
    let state = Pos::new(["10C 5D", "5C", "4C", "", "3D", "2D"], ["2C 6S 8D 9D QS", "2H"]).build();
    assert_eq!(
        heuristic_move(&state),
        json!({"type": "play", "card": "9D", "caravan": 0})
    );
}

#[test]
fn heuristic_jacks_the_opponents_sold_caravan_where_it_hurts_most() {
    // Player 1 sells pair 0 with 24 (C9); the jack on the 10D leaves 14 (C7).
    let state = Pos::new(
        ["5C", "9C", "4C", "10D 8H 6S", "3D", "2D"],
        ["AS 2S 3S 4H JC", "2H"],
    )
    .build();
    assert_eq!(
        heuristic_move(&state),
        json!({"type": "play", "card": "JC", "caravan": 3, "position": 0})
    );
}

#[test]
fn heuristic_kings_the_opponents_sold_caravan_out_of_the_window() {
    // 10D 8H 6S = 24: a king on any of its cards overloads it (30 to 34, C7, C9).
    let state = Pos::new(
        ["5C", "9C", "4C", "10D 8H 6S", "3D", "2D"],
        ["AS 2S 3S 4H KC", "2H"],
    )
    .build();
    let mv = heuristic_move(&state);
    assert_eq!((&mv["card"], &mv["caravan"]), (&json!("KC"), &json!(3)), "{mv}");
}

#[test]
fn heuristic_disbands_an_overloaded_caravan_it_cannot_repair() {
    // Caravan 0 is 27 (over 26) and no jack is in hand: disbanding frees it (C8).
    let state = Pos::new(
        ["10C 9D 8S", "5C", "4C", "3D", "2D", "6H"],
        ["QC QD AS 2S 3S", "2H"],
    )
    .build();
    assert_eq!(heuristic_move(&state), json!({"type": "disband", "caravan": 0}));
}

#[test]
fn heuristic_repairs_an_overloaded_caravan_with_a_jack() {
    // 10C 9D 3S 5S = 27 (the 5S follows the 3S by suit, C5): a jack on the 3S leaves
    // 24, sold and safer than 22 without the 5S (C7, C9).
    let state = Pos::new(
        ["10C 9D 3S 5S", "5C", "4C", "3D", "2D", "6H"],
        ["QC QD AS 2S JS", "2H"],
    )
    .build();
    assert_eq!(
        heuristic_move(&state),
        json!({"type": "play", "card": "JS", "caravan": 0, "position": 2})
    );
}

#[test]
fn heuristic_takes_the_move_that_wins_and_avoids_overloading() {
    // The position of the C9 test: pair 0 is a tie at 24; the 2D makes 26 and wins,
    // the 4H would overload the caravan.
    let state = Pos::new(
        ["10H 8S 6C", "10C 9D 3S", "10S 9H 2C", "10D 8H 6S", "5D", "7D"],
        ["4H 2D QC", "2H"],
    )
    .build();
    assert_eq!(
        heuristic_move(&state),
        json!({"type": "play", "card": "2D", "caravan": 0})
    );
}

/// Every rule set of [`rule_sets`] and 24 more combinations of the twelve variants,
/// drawn from a fixed seed.
fn variant_combinations() -> Vec<CaravanGame> {
    use rand::RngExt;
    let mut sets = rule_sets();
    let mut rng = crate::rng::seeded(11, 0);
    for _ in 0..24 {
        let bits: u16 = rng.random();
        let map: serde_json::Map<String, Value> = VARIANTS
            .iter()
            .enumerate()
            .map(|(i, (n, _))| (n.to_string(), json!(bits >> i & 1 == 1)))
            .collect();
        sets.push(CaravanGame::from_options(&map).unwrap());
    }
    sets
}

/// The fast generation (`legal.rs`) against the slow obvious one: every action id through
/// the move check, over random positions of 31 rule sets, in the middle and late game too.
#[test]
fn legal_actions_are_exactly_the_ids_the_move_check_allows() {
    let mut faces_seen = 0;
    for rules in variant_combinations() {
        for state in positions(rules, 2, 5) {
            let checked: Vec<Action> = (0..rules.num_distinct_actions() as Action)
                .filter(|&a| state.check_action(a).is_ok())
                .collect();
            assert_eq!(state.legal_actions(), checked, "{rules:?}\n{}", state.to_json());
            for caravan in state.caravans() {
                let both = (caravan.direction(&rules), caravan.suit(&rules));
                assert_eq!(caravan.direction_and_suit(&rules), both);
            }
            faces_seen += checked
                .iter()
                .filter(|&&a| (CaravanGame::FACE_BASE..rules.discard_base()).contains(&a))
                .count();
        }
    }
    assert!(
        faces_seen > 300,
        "the positions hold face-card plays: {faces_seen}"
    );
}

#[test]
fn heuristic_plays_legal_games_to_the_end_under_variant_combinations() {
    for rules in variant_combinations() {
        for seed in 0..4 {
            let mut state = rules.new_initial_state(seed);
            let mut random = RandomBot::new(seed);
            let mut policy = crate::rng::seeded(seed, crate::rng::STREAM_POLICY);
            let mut plies = 0;
            // Even seeds: the heuristic on both seats; odd: against a random player.
            while let Some(seat) = state.current_player() {
                let a = if seed % 2 == 0 || seat == 0 {
                    state.heuristic_action(seat, &mut policy).unwrap()
                } else {
                    random.step(&state).unwrap()
                };
                if let Err(e) = state.check_action(a) {
                    panic!("{rules:?} seed {seed} ply {plies}: illegal {a}: {e}");
                }
                state.apply_action(a).unwrap();
                plies += 1;
            }
            assert!(plies <= rules.max_game_length(), "{rules:?} seed {seed}");
        }
    }
}

#[test]
fn heuristic_beats_random() {
    use crate::dynamic::{evaluate, make};
    let game = CaravanGame::default();
    let none = serde_json::Map::new();
    let heuristic = make::<CaravanGame>("heuristic", &none, 1).unwrap();
    let random = make::<CaravanGame>("random", &none, 2).unwrap();
    let e = evaluate::evaluate(
        &game,
        &[heuristic.as_ref(), random.as_ref()],
        200,
        3,
        None,
        &|| false,
    )
    .unwrap();
    // It wins about 99.9% (benches/README.md); 180 of 200 leaves a wide margin.
    assert!(e.standings[0].wins >= 180, "{:?}", e.standings[0]);
}
