//! Hand-built positions for the rulings S2–S9.

use serde_json::{Value, json};

use super::*;
use crate::game::{Action, Game, GameState};

fn card(s: &str) -> Card {
    s.parse().unwrap()
}

fn cards(s: &str) -> Vec<Card> {
    s.split_whitespace().map(card).collect()
}

/// Builds a position: stones, hands, the rest of the 54 cards in the pile (or a hand).
struct Pos {
    stones: Vec<Value>,
    hands: [Vec<Card>; 2],
    current: u8,
    rest_to_hand: Option<usize>,
    passes_in_row: u8,
}

impl Pos {
    fn new() -> Pos {
        Pos {
            stones: (0..NUM_STONES)
                .map(|_| json!({"sides": [[], []], "owner": null, "award": null, "completed_first": null}))
                .collect(),
            hands: [vec![], vec![]],
            current: 0,
            rest_to_hand: None,
            passes_in_row: 0,
        }
    }
    /// Cards at `stone`; the side that is complete first is `first` if both are.
    fn stone(mut self, stone: usize, p0: &str, p1: &str) -> Pos {
        let (a, b) = (cards(p0), cards(p1));
        let first = match (a.len(), b.len()) {
            (3, _) => json!(0),
            (_, 3) => json!(1),
            _ => Value::Null,
        };
        self.stones[stone] = json!({"sides": [a, b], "owner": null, "award": null, "completed_first": first});
        self
    }
    fn completed_first(mut self, stone: usize, p: u8) -> Pos {
        self.stones[stone]["completed_first"] = json!(p);
        self
    }
    fn owned(mut self, stone: usize, p: u8) -> Pos {
        self.stones[stone]["owner"] = json!(p);
        self.stones[stone]["award"] = json!("claim");
        self
    }
    fn hand(mut self, p: usize, s: &str) -> Pos {
        self.hands[p] = cards(s);
        self
    }
    fn current(mut self, p: u8) -> Pos {
        self.current = p;
        self
    }
    /// Leaves the pile empty: the cards not placed elsewhere go to `p`'s hand.
    fn rest_to_hand(mut self, p: usize) -> Pos {
        self.rest_to_hand = Some(p);
        self
    }
    fn build(self) -> State {
        let mut used: CardSet = self.hands.iter().flatten().copied().collect();
        for s in &self.stones {
            for side in s["sides"].as_array().unwrap() {
                for c in side.as_array().unwrap() {
                    used.insert(card(c.as_str().unwrap()));
                }
            }
        }
        let rest: Vec<Card> = CardSet::ALL.minus(used).iter().collect();
        let mut hands = self.hands.clone();
        let pile = match self.rest_to_hand {
            Some(p) => {
                hands[p].extend(rest);
                vec![]
            }
            None => rest,
        };
        let json = json!({
            "rules": {"first_player": 0},
            "pile": pile,
            "hands": hands,
            "stones": self.stones,
            "current": self.current,
            "phase": "play",
            "turn_passed": false,
            "passes_in_row": self.passes_in_row,
            "outcome": null,
            "history": [],
        });
        SchottenTotten::default()
            .state_from_json(&json.to_string())
            .unwrap()
    }
}

fn play(c: &str, stone: usize) -> Action {
    play_action(card(c), stone)
}

#[track_caller]
fn assert_illegal(state: &mut State, action: Action, rule: &str, text: &str) {
    let before = state.clone();
    let err = state.apply_action(action).unwrap_err();
    assert_eq!(err.rule, rule, "{err}");
    assert!(err.reason.contains(text), "'{err}' does not mention '{text}'");
    assert_eq!(*state, before, "a rejected action changes nothing");
}

#[test]
fn s2_deal_gives_six_cards_each_and_a_pile_of_42() {
    let state = SchottenTotten::default().new_initial_state(7);
    assert_eq!(state.hand_set(0).len(), 6);
    assert_eq!(state.hand_set(1).len(), 6);
    assert_eq!(state.pile().len(), 42);
    assert_eq!(state.current_player(), Some(0));
    let game = SchottenTotten { first_player: 1 };
    assert_eq!(game.new_initial_state(7).current_player(), Some(1));
    assert_eq!(
        state,
        SchottenTotten::default().new_initial_state(7),
        "same seed, same deal"
    );
    assert_ne!(state, SchottenTotten::default().new_initial_state(8));
}

#[test]
fn s3a_cards_go_to_unowned_stones_with_room() {
    let mut state = Pos::new()
        .stone(0, "R1 R2 R3", "O1")
        .owned(0, 0)
        .stone(1, "B4 B5 B6", "")
        .hand(0, "P9 P8")
        .hand(1, "G1")
        .build();
    assert_illegal(&mut state, play("P9", 0), "S3a", "already owned");
    assert_illegal(&mut state, play("P9", 1), "S3a", "already has three cards");
    assert_illegal(&mut state, play("G1", 2), "S3a", "not in player 0's hand");
    assert_illegal(&mut state, PASS, "S3a", "can still play");
    let legal = state.legal_actions();
    assert_eq!(legal.len(), 2 * 7, "two cards, seven open stones");
    assert!(legal.windows(2).all(|w| w[0] < w[1]), "sorted");
    state.apply_action(play("P9", 2)).unwrap();
    assert_eq!(state.stones()[2].sides[0].cards(), &[card("P9")]);
    assert_eq!(
        state.current_player(),
        Some(1),
        "no provable stone: the turn ended"
    );
}

#[test]
fn s3a_pass_only_when_no_card_can_be_played() {
    // Player 0 has three cards at every unowned stone: the only action is to pass.
    let mut state = Pos::new()
        .stone(0, "R1 O1 Y1", "")
        .stone(1, "R2 O2 Y2", "")
        .stone(2, "R3 O3 Y3", "")
        .stone(3, "R4 O4 Y4", "")
        .stone(4, "R5 O5 Y5", "")
        .stone(5, "R6 O6 Y6", "")
        .stone(6, "R7 O7 Y7", "")
        .stone(7, "R8 O8 Y8", "")
        .stone(8, "R9 O9 Y9", "")
        .hand(0, "G1")
        .hand(1, "G2")
        .build();
    assert_eq!(state.legal_actions(), vec![PASS]);
    assert_illegal(&mut state, play("G1", 0), "S3a", "already has three cards");
    state.apply_action(PASS).unwrap();
    assert_eq!(
        state.current_player(),
        Some(1),
        "nothing provable: the turn ends, with a draw"
    );
    assert_eq!(state.hand_set(0).len(), 2, "S3c: a passing turn still draws");
}

#[test]
fn s3b_claims_follow_the_play_and_end_the_turn_when_none_is_left() {
    // Stone 4: player 0 holds R7 R8 (and plays R9); the other side is empty.
    let mut state = Pos::new()
        .stone(4, "R7 R8", "")
        .hand(0, "R9 B1")
        .hand(1, "B2")
        .build();
    assert_illegal(&mut state, claim_action(4), "S3b", "after playing");
    assert_illegal(&mut state, END_TURN, "S3", "before ending");
    state.apply_action(play("R9", 4)).unwrap();
    assert_eq!(state.phase(), Phase::Claim);
    assert_eq!(state.legal_actions(), vec![claim_action(4), END_TURN]);
    assert_illegal(&mut state, play("B1", 0), "S3", "already played");
    let pile_before = state.pile().len();
    state.apply_action(claim_action(4)).unwrap();
    assert_eq!(state.stones()[4].owner, Some(0));
    assert_eq!(
        state.current_player(),
        Some(1),
        "the last provable stone claimed: the turn ended"
    );
    assert_eq!(state.pile().len(), pile_before - 1, "S3c: one card drawn");
}

#[test]
fn s3b_declining_a_claim_keeps_it_for_a_later_turn() {
    let mut state = Pos::new()
        .stone(4, "R7 R8", "")
        .hand(0, "R9 B1")
        .hand(1, "B2 B3")
        .build();
    state.apply_action(play("R9", 4)).unwrap();
    state.apply_action(END_TURN).unwrap();
    assert_eq!(state.stones()[4].owner, None);
    // Player 1 cannot claim player 0's stone; player 1 plays, then player 0 may claim.
    state.apply_action(play("B2", 0)).unwrap();
    assert_eq!(state.current_player(), Some(0));
    state.apply_action(play("B1", 1)).unwrap();
    assert_eq!(state.legal_actions(), vec![claim_action(4), END_TURN]);
}

#[test]
fn s4_completed_first_wins_the_tie() {
    // Equal runs 1-2-3 on both sides; player 1 completed first.
    let mut state = Pos::new()
        .stone(0, "R1 O2 Y3", "G1 B2 P3")
        .completed_first(0, 1)
        .hand(0, "R9")
        .hand(1, "O9")
        .build();
    state.apply_action(play("R9", 5)).unwrap();
    assert_eq!(state.current_player(), Some(1), "player 0 cannot claim the tie");
    assert!(!state.claim_check(0, 0).unwrap().provable);
    state.apply_action(play("O9", 5)).unwrap();
    assert_eq!(state.phase(), Phase::Claim);
    assert_eq!(state.legal_actions(), vec![claim_action(0), END_TURN]);
}

#[test]
fn s5_seven_eight_nine_of_one_colour_beats_an_empty_side() {
    let mut state = Pos::new()
        .stone(2, "P7 P8", "")
        .hand(0, "P9")
        .hand(1, "B2")
        .build();
    state.apply_action(play("P9", 2)).unwrap();
    state.apply_action(claim_action(2)).unwrap();
    assert_eq!(state.stones()[2].owner, Some(0));
}

#[test]
fn s5_claim_fails_by_one_available_card_even_in_the_claimants_hand() {
    // Three eights against B4 B5: B3 lies at a stone, B6 is in the claimant's own
    // hand. The own hand counts as available (S5), so the claim is not provable.
    let mut state = Pos::new()
        .stone(0, "R8 O8", "B4 B5")
        .stone(1, "", "B3")
        .hand(0, "Y8 B6")
        .hand(1, "G2")
        .build();
    state.apply_action(play("Y8", 0)).unwrap();
    assert_eq!(state.current_player(), Some(1), "not provable: B6 is available");
    let check = state.claim_check(0, 0).unwrap();
    assert!(!check.provable);
    assert_eq!(check.best.unwrap().cards, [card("B4"), card("B5"), card("B6")]);
    // Once B6 lies at a stone, the best the other side can reach is a blue colour.
    state.apply_action(play("G2", 5)).unwrap();
    state.apply_action(play("B6", 8)).unwrap();
    assert_eq!(state.legal_actions(), vec![claim_action(0), END_TURN]);
    let best = state.claim_check(0, 0).unwrap().best.unwrap();
    assert_eq!(
        best.formation,
        Formation {
            kind: FormationKind::Color,
            sum: 18
        }
    );
}

#[test]
fn s5_unprovable_claim_names_the_better_completion() {
    // Stone 4 becomes provable, so the claim step opens; stone 3 (a sum) is not provable.
    let mut state = Pos::new()
        .stone(3, "R1 O5 Y9", "")
        .stone(4, "R7 R8", "")
        .hand(0, "R9")
        .hand(1, "G2")
        .build();
    state.apply_action(play("R9", 4)).unwrap();
    assert_eq!(state.legal_actions(), vec![claim_action(4), END_TURN]);
    let before = state.clone();
    let err = state.apply_action(claim_action(3)).unwrap_err();
    assert_eq!(err.rule, "S5");
    assert!(err.reason.contains("color_run (sum 24)"), "{err}");
    assert!(err.reason.contains("beats sum (sum 15)"), "{err}");
    assert_eq!(state, before);
    let err = state.check_action(claim_action(5)).unwrap_err().to_string();
    assert!(err.contains("has 0 card(s) at stone 5"), "{err}");
}

#[test]
fn s5_a_complete_other_side_is_compared_directly() {
    let check = check_claim_notation(&["R1", "R2", "R3"], &["O9", "Y9", "G9"], &[], true).unwrap();
    assert!(check.provable, "any colour run beats three of a kind");
    let check = check_claim_notation(&["R1", "O2", "Y3"], &["O9", "Y9", "G9"], &[], true).unwrap();
    assert!(!check.provable);
    assert_eq!(check.best.unwrap().formation.kind, FormationKind::ThreeOfAKind);
}

#[test]
fn s5_input_errors_say_what_is_allowed() {
    let err = check_claim_notation(&["R1", "R2"], &[], &[], true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("3 cards"), "{err}");
    let err = check_claim_notation(&["R1", "R2", "R3"], &["R1"], &[], true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("both"), "{err}");
    let err = check_claim_notation(&["R1", "R2", "Z3"], &[], &[], true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("'Z3'"), "{err}");
    let err = check_claim_notation(&["R1", "R2", "R3"], &["B1", "B2", "B3", "B4"], &[], true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("0-3"), "{err}");
}

#[test]
fn s7_three_adjacent_stones_win_at_once() {
    let mut state = Pos::new()
        .stone(3, "R1 R2 R3", "")
        .owned(3, 0)
        .stone(4, "O1 O2 O3", "")
        .owned(4, 0)
        .stone(5, "Y7 Y8", "")
        .hand(0, "Y9")
        .hand(1, "B1")
        .build();
    state.apply_action(play("Y9", 5)).unwrap();
    state.apply_action(claim_action(5)).unwrap();
    assert!(state.is_terminal());
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: Some(0),
            reason: EndReason::ThreeAdjacent
        })
    );
    assert_eq!(state.returns(), vec![1.0, -1.0]);
    assert_eq!(state.current_player(), None);
    assert!(state.legal_actions().is_empty());
}

#[test]
fn s7_five_stones_win_and_stones_do_not_wrap() {
    // Stones 0, 1, 7, 8 owned: 7-8-0 is not adjacent; the fifth stone wins.
    let mut state = Pos::new()
        .stone(0, "", "R1 R2 R3")
        .owned(0, 1)
        .stone(1, "", "O1 O2 O3")
        .owned(1, 1)
        .stone(7, "", "Y1 Y2 Y3")
        .owned(7, 1)
        .stone(8, "", "G1 G2 G3")
        .owned(8, 1)
        .stone(4, "", "B7 B8")
        .hand(0, "P1")
        .hand(1, "B9")
        .current(1)
        .build();
    state.apply_action(play("B9", 4)).unwrap();
    state.apply_action(claim_action(4)).unwrap();
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: Some(1),
            reason: EndReason::FiveStones
        })
    );
    assert_eq!(state.returns(), vec![-1.0, 1.0]);
}

#[test]
fn s8_empty_pile_play_goes_on_without_drawing() {
    let mut state = Pos::new().hand(0, "R1 R2").hand(1, "O1").rest_to_hand(1).build();
    assert!(state.pile().is_empty());
    state.apply_action(play("R1", 0)).unwrap();
    assert_eq!(state.hand_set(0).len(), 1, "no draw from an empty pile");
    assert_eq!(state.current_player(), Some(1));
}

/// Settles a position: player 0 is to move with an empty hand and an empty pile,
/// player 1 holds the rest and passed last turn, so player 0's pass settles (S9).
///
/// In real play the settlement's step 3 cannot arise (a stone where both sides are
/// incomplete lets a player with cards play there, so both hands would be empty and
/// all 54 cards at stones), so positions are built directly.
fn settle(pos: Pos) -> State {
    let mut pos = pos.rest_to_hand(1);
    pos.passes_in_row = 1;
    let mut state = pos.build();
    assert_eq!(state.legal_actions(), vec![PASS]);
    state.apply_action(PASS).unwrap();
    if state.phase() == Phase::Claim {
        // A passing player may still claim (S3b); declining leaves it to step 1.
        state.apply_action(END_TURN).unwrap();
    }
    assert!(state.is_terminal());
    state
}

fn owners(state: &State) -> Vec<Option<u8>> {
    state.stones().iter().map(|s| s.owner).collect()
}

#[test]
fn s9_settlement_steps_one_to_four() {
    let state = settle(
        Pos::new()
            // Step 1: provable for player 0 (colour run against a complete sum).
            .stone(0, "R7 R8 R9", "O1 Y2 G4")
            // Step 2: only player 1 is complete; player 0 could still reach R1 R2 R3.
            .stone(1, "R1 R2", "B5 O6 P7")
            // Step 3: both incomplete, more cards wins.
            .stone(2, "Y1 Y3", "B1")
            // Step 3: equal counts, the higher sum wins.
            .stone(3, "O2", "P9")
            // Step 3: equal counts and sums: stays unowned.
            .stone(4, "G5", "P5")
            // Step 2: three 9s are not provable (B7 B8 B9 are available), but complete.
            .stone(6, "O9 Y9 G9", ""),
    );
    assert_eq!(
        owners(&state),
        vec![
            Some(0),
            Some(1),
            Some(0),
            Some(1),
            None,
            None,
            Some(0),
            None,
            None
        ]
    );
    let awards: Vec<Option<Award>> = state.stones().iter().map(|s| s.award).collect();
    assert_eq!(awards[0], Some(Award::SettlementProof));
    assert_eq!(awards[1], Some(Award::SettlementComplete));
    assert_eq!(awards[2], Some(Award::SettlementCount));
    assert_eq!(awards[6], Some(Award::SettlementComplete));
    // Step 4: three stones to two.
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: Some(0),
            reason: EndReason::Settlement
        })
    );
    assert_eq!(state.returns(), vec![1.0, -1.0]);
}

#[test]
fn s9_three_adjacent_stones_from_the_settlement_do_not_win() {
    let state = settle(
        Pos::new()
            .stone(0, "R1 R2 R3", "")
            .owned(0, 0)
            .stone(5, "O1 O2 O3", "")
            .owned(5, 0)
            .stone(7, "Y1 Y2 Y3", "")
            .owned(7, 0)
            .stone(1, "", "B1")
            .stone(2, "", "B2")
            .stone(3, "", "B3")
            .stone(4, "G2", ""),
    );
    assert_eq!(owners(&state)[1..5], [Some(1), Some(1), Some(1), Some(0)]);
    assert_eq!(
        state.outcome().unwrap().winner,
        Some(0),
        "four stones to three; S7 is not applied"
    );
}

#[test]
fn s9_equal_counts_draw() {
    let state = settle(Pos::new().stone(0, "G5", "").stone(1, "", "B5"));
    assert_eq!(
        state.outcome(),
        Some(Outcome {
            winner: None,
            reason: EndReason::Settlement
        })
    );
    assert_eq!(state.returns(), vec![0.0, 0.0]);
}

#[test]
fn s9_settlement_follows_two_passes_in_a_row_only() {
    let mut pos = Pos::new().stone(0, "G5", "").rest_to_hand(1);
    pos.passes_in_row = 0;
    let mut state = pos.build();
    state.apply_action(PASS).unwrap();
    assert!(!state.is_terminal(), "one pass does not settle");
    assert_eq!(state.current_player(), Some(1));
}

#[test]
fn moves_round_trip_through_json_and_malformed_ones_are_explained() {
    let state = SchottenTotten::default().new_initial_state(3);
    for action in 0..NUM_ACTIONS as Action {
        let mv = state.action_to_move(action);
        assert_eq!(state.action_from_move(&mv).unwrap(), action, "{mv}");
    }
    for (mv, text) in [
        (json!({"type": "play", "card": "B5", "stone": 9}), "0-8"),
        (json!({"type": "play", "card": "B0", "stone": 1}), "'B0'"),
        (json!({"type": "jump"}), "unknown move type"),
        (json!({"type": "claim"}), "missing field 'stone'"),
        (json!({"type": "pass", "stone": 1}), "unexpected field"),
        (json!([1, 2]), "JSON object"),
    ] {
        let err = state.action_from_move(&mv).unwrap_err().to_string();
        assert!(err.contains(text), "{err}");
    }
    let reason = state
        .check_move(&json!({"type": "claim", "stone": 2}), None)
        .map(|r| r.map(|e| e.to_string()))
        .unwrap()
        .unwrap();
    assert!(reason.starts_with("S3b"), "{reason}");
}

#[test]
fn views_show_the_own_hand_and_only_sizes_of_the_rest() {
    let state = SchottenTotten::default().new_initial_state(11);
    for p in 0..2 {
        let view = state.view(p);
        assert_eq!(view["hand"], json!(state.hand(p)));
        assert_eq!(view["hand_sizes"], json!([6, 6]));
        assert_eq!(view["pile_size"], json!(42));
        let text = view.to_string();
        for c in state.hand(1 - p) {
            assert!(!text.contains(&format!("\"{c}\"")), "{c} of the other hand leaks");
        }
    }
}

#[test]
fn resample_keeps_the_view_and_redeals_the_hidden_cards() {
    let mut state = SchottenTotten::default().new_initial_state(5);
    for _ in 0..10 {
        let a = state.legal_actions()[0];
        state.apply_action(a).unwrap();
    }
    for p in 0..2 {
        let r = state.resample(p, 99).expect("the state resamples");
        assert_eq!(r.view(p), state.view(p));
        assert_eq!(r.hand(p), state.hand(p));
        assert_ne!(
            (r.hand(1 - p), r.pile().to_vec()),
            (state.hand(1 - p), state.pile().to_vec())
        );
        SchottenTotten::default().state_from_json(&r.to_json()).unwrap();
    }
}

#[test]
fn invalid_states_are_rejected_with_the_reason() {
    let game = SchottenTotten::default();
    let json: Value = serde_json::from_str(&game.new_initial_state(1).to_json()).unwrap();
    let mut dup = json.clone();
    dup["pile"][0] = dup["pile"][1].clone();
    let err = game.state_from_json(&dup.to_string()).unwrap_err().to_string();
    assert!(err.contains("twice"), "{err}");
    let mut other = json.clone();
    other["rules"]["first_player"] = json!(1);
    let err = game.state_from_json(&other.to_string()).unwrap_err().to_string();
    assert!(err.contains("first_player"), "{err}");
    let err = game.state_from_json("{}").unwrap_err().to_string();
    assert!(err.contains("missing field"), "{err}");
}
