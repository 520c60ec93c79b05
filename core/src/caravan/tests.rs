//! Explicit positions for the rulings C2–C9 and every variant (C10).

use serde_json::{Value, json};

use super::*;
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
            hand.iter().for_each(|&c| remove(c));
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

fn action(state: &State, mv: Value) -> Action {
    state.action_from_move(&mv).unwrap()
}

fn play(state: &mut State, c: &str, caravan: usize) {
    let a = action(state, json!({"type": "play", "card": c, "caravan": caravan}));
    state.apply_action(a).unwrap();
}

fn face(state: &mut State, c: &str, caravan: usize, position: usize) {
    let a = action(
        state,
        json!({"type": "play", "card": c, "caravan": caravan, "position": position}),
    );
    state.apply_action(a).unwrap();
}

#[track_caller]
fn refused(state: &State, mv: Value, rule: &str, text: &str) {
    let reason = state
        .check_move(&mv, None)
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
        ["2C 9D QS JH KS 3D 4D 5D", "2H 3H 4H 5H 6H"],
    )
    .opening(0)
    .build();
    refused(
        &state,
        json!({"type": "play", "card": "9D", "caravan": 0}),
        "C2",
        "empty caravan",
    );
    refused(
        &state,
        json!({"type": "play", "card": "QS", "caravan": 0, "position": 0}),
        "C2",
        "the opening allows number cards only",
    );
    refused(
        &state,
        json!({"type": "discard", "card": "QS"}),
        "C2",
        "no number card",
    );
    refused(
        &state,
        json!({"type": "disband", "caravan": 0}),
        "C2",
        "no disbanding",
    );
    refused(
        &state,
        json!({"type": "play", "card": "9D", "caravan": 3}),
        "C5",
        "own caravans only",
    );
    let deck = state.deck(0).len();
    play(&mut state, "9D", 1);
    assert_eq!(state.deck(0).len(), deck, "no drawing in the opening");
    assert_eq!(state.hand_cards(0).len(), 7);
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
        .apply_action(action(&state2, json!({"type": "discard", "card": "4H"})))
        .unwrap();
    assert!(state2.in_opening(0));
    refused(
        &state2,
        json!({"type": "play", "card": "4C", "caravan": 0}),
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
        .apply_action(action(&state, json!({"type": "discard", "card": "QS"})))
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
        json!({"type": "play", "card": "7H", "caravan": 0}),
        "C5",
        "7H cannot follow 9C on an ascending caravan unless it is clubs",
    );
    refused(
        &state,
        json!({"type": "play", "card": "9D", "caravan": 0}),
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
        json!({"type": "play", "card": "KC", "caravan": 0, "position": 1}),
        "C6",
        "at most 3 face cards",
    );
    refused(
        &state,
        json!({"type": "play", "card": "JD", "caravan": 0, "position": 1}),
        "C6",
        "at most 3 face cards",
    );
    refused(
        &state,
        json!({"type": "play", "card": "QS", "caravan": 0, "position": 0}),
        "C6",
        "last number card",
    );
    refused(
        &state,
        json!({"type": "play", "card": "KC", "caravan": 1, "position": 0}),
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
        .apply_action(action(&state, json!({"type": "discard", "card": "2H"})))
        .unwrap();
    state
        .apply_action(action(&state, json!({"type": "disband", "caravan": 0})))
        .unwrap();
    state
        .apply_action(action(&state, json!({"type": "discard", "card": "3H"})))
        .unwrap();
    assert_eq!(state.hand_cards(0).len(), 5);
    assert_eq!(state.deck(0).len(), deck - 1, "disbanding draws nothing");
    assert!(state.caravans()[0].slots.is_empty());
    refused(&state, json!({"type": "disband", "caravan": 0}), "C8", "empty");
    refused(
        &state,
        json!({"type": "disband", "caravan": 3}),
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
        .apply_action(action(&state, json!({"type": "discard", "card": "3C"})))
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
