//! Hand-built positions for the rulings S2–S9.

use serde_json::{Value, json};

use super::*;
use crate::bots::Heuristic;
use crate::bots::RandomBot;
use crate::error::Error;
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
        State::from_json_for_tests(&json.to_string())
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
    assert_illegal(&mut state, play("G1", 2), "S3a", "not in player 1's hand");
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
    // S1: stone id 5 is the sixth stone on the board.
    assert!(err.contains("has 0 card(s) at stone 6"), "{err}");
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
    assert_eq!(state.returns(), vec![1.0, -1.0]); // The board shows the settlement step by step, in German and English (S9).
    let settlement = super::view::view_with_facts(&state, Some(0)).settlement.unwrap();
    let texts: Vec<(&str, &str)> = settlement
        .steps
        .iter()
        .map(|s| (s.text.de.as_str(), s.text.en.as_str()))
        .collect();
    assert_eq!(
        texts,
        vec![
            (
                "1. Beweisbare Steine: Stein 1 an Spieler 1.",
                "1. Provable stones: stone 1 to player 1."
            ),
            (
                "2. Eine Seite vollständig: Stein 7 an Spieler 1, Stein 2 an Spieler 2.",
                "2. One side complete: stone 7 to player 1, stone 2 to player 2."
            ),
            (
                "3. Beide Seiten unvollständig: mehr Karten, dann höhere Summe: Stein 3 an Spieler 1 \
                 (mehr Karten: 2 zu 1), Stein 4 an Spieler 2 (höhere Summe: 9 zu 2), Steine 5, 6, 8 \
                 und 9 bleiben frei (gleich viele Karten, gleiche Summe).",
                "3. Both sides incomplete: more cards, then the higher sum: stone 3 to player 1 \
                 (more cards: 2 to 1), stone 4 to player 2 (higher sum: 9 to 2), stones 5, 6, 8 and \
                 9 stay unowned (as many cards, the same sum)."
            ),
            (
                "4. Zählen: Spieler 1 hat 3 Steine, Spieler 2 hat 2 Steine: Spieler 1 gewinnt.",
                "4. Count: player 1 has 3 stones, player 2 has 2 stones: player 1 wins."
            ),
        ]
    );
    assert_eq!(settlement.counts, [3, 2]);
    let by: Vec<(u8, Option<u8>, super::SettledBy)> = settlement.steps[2]
        .stones
        .iter()
        .map(|s| (s.stone, s.owner, s.by))
        .collect();
    let (more, higher, tie) = (
        super::SettledBy::MoreCards,
        super::SettledBy::HigherSum,
        super::SettledBy::Tie,
    );
    assert_eq!(
        by,
        vec![
            (2, Some(0), more),
            (3, Some(1), higher),
            (4, None, tie),
            (5, None, tie),
            (7, None, tie),
            (8, None, tie)
        ]
    );
    // The terminal board lists the steps too.
    let board = state.render_for(Some(0), crate::game::Lang::De);
    assert!(
        board.contains("Endabrechnung:\n  1. Beweisbare Steine"),
        "{board}"
    );
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
        // The messages of the move enum's parser (serde), cut short.
        (json!({"type": "jump"}), "unknown variant `jump`"),
        (json!({"type": "claim"}), "missing field `stone`"),
        (json!({"type": "pass", "stone": 1}), "unknown field `stone`"),
        (json!([1, 2]), "invalid"),
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
        // The stones' facts name completions from all cards not at a stone, the other
        // hand's included (S5); they come from the table alone (see the public view test).
        let mut bare = view.clone();
        for stone in bare["stones"].as_array_mut().unwrap() {
            stone.as_object_mut().unwrap().remove("facts");
        }
        let text = bare.to_string();
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

// ---------------------------------------------------------------------------------------
// Engine contract v2 (issue 9): findings, views, moves, state_from_view, validation,
// coded errors, metadata.

/// States along seeded random games: every `every`-th position of games `0..games`.
fn random_positions(games: u64, every: usize) -> Vec<State> {
    let game = SchottenTotten::default();
    let mut out = Vec::new();
    for seed in 0..games {
        let mut state = game.new_initial_state(seed);
        let mut bot = RandomBot::new(seed);
        let mut step = 0;
        loop {
            if step % every == 0 {
                out.push(state.clone());
            }
            let Some(a) = bot.step(&state) else {
                out.push(state);
                break;
            };
            state.apply_action(a).unwrap();
            step += 1;
        }
    }
    out
}

/// A finished random game whose outcome has the given reason.
fn finished_game(reason: EndReason) -> State {
    let game = SchottenTotten::default();
    (0..1000)
        .map(|seed| {
            let mut state = game.new_initial_state(seed);
            let mut bot = RandomBot::new(seed);
            while let Some(a) = bot.step(&state) {
                state.apply_action(a).unwrap();
            }
            state
        })
        .find(|s| s.outcome().unwrap().reason == reason)
        .expect("some random game ends so")
}

fn json_of(state: &State) -> Value {
    serde_json::from_str(&state.to_json()).unwrap()
}

#[track_caller]
fn refused(json: &Value, text: &str) {
    let err = SchottenTotten::default()
        .state_from_json(&json.to_string())
        .expect_err("an inconsistent state is refused");
    assert!(matches!(err, Error::InvalidState(_)), "{err}");
    assert!(
        err.to_string().contains(text),
        "'{err}' does not mention '{text}'"
    );
}

#[test]
fn finding_stored_outcome_is_derived_not_trusted() {
    // A stored winner 9 gave everyone -1.
    let won = finished_game(EndReason::FiveStones);
    let mut json = json_of(&won);
    json["outcome"]["winner"] = json!(9);
    refused(&json, "does not follow from the stones");
    // A settlement draw stored while one player owns five stones (S7 ended the game).
    let mut json = json_of(&won);
    json["outcome"] = json!({"winner": null, "reason": "settlement"});
    refused(&json, "does not follow from the stones");
    json["passes_in_row"] = json!(2);
    refused(&json, "before the settlement");
    // The stored outcome of a real game is what the position gives.
    for reason in [EndReason::ThreeAdjacent, EndReason::Settlement] {
        let state = finished_game(reason);
        let read = SchottenTotten::default()
            .state_from_json(&state.to_json())
            .unwrap();
        assert_eq!(read, state);
    }
    // A running game cannot carry an outcome, and a won game cannot be running.
    let mut json = json_of(&SchottenTotten::default().new_initial_state(1));
    json["outcome"] = json!({"winner": 0, "reason": "five_stones"});
    refused(&json, "does not follow from the stones");
    let mut json = json_of(&won);
    json["outcome"] = Value::Null;
    refused(&json, "does not follow from the stones");
}

#[test]
fn finding_sixteen_card_hand_is_refused() {
    let mut json = json_of(&SchottenTotten::default().new_initial_state(1));
    let moved: Vec<Value> = (0..10)
        .map(|_| json["pile"].as_array_mut().unwrap().pop().unwrap())
        .collect();
    json["hands"][0].as_array_mut().unwrap().extend(moved);
    refused(&json, "player 0 holds 16 cards, but was dealt 6");
    // S2, S3c: hand sizes follow from the pile and the table, for every position of play.
    for state in random_positions(30, 3) {
        let mut json = json_of(&state);
        let (from, to) = if state.hand_set(0).is_empty() {
            (1, 0)
        } else {
            (0, 1)
        };
        if let Some(card) = json["hands"][from].as_array_mut().unwrap().pop() {
            json["hands"][to].as_array_mut().unwrap().push(card);
            refused(&json, "holds");
        }
    }
}

#[test]
fn hands_grow_past_six_only_by_passing_turns() {
    // S3a, S3c: a player who cannot play passes and still draws, so a hand may hold
    // seven cards; the sizes are exact, not merely at most six.
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
        .hand(0, "G1 G2 G3 G4 G5 G6")
        .hand(1, "B1 B2 B3 B4 B5 B6")
        .build();
    state.apply_action(PASS).unwrap();
    assert_eq!(state.hand_set(0).len(), 7);
    // This hand-built position is not reachable (player 0 played 27 cards without
    // drawing), but the rule holds the same in play.
}

#[test]
fn finding_texts_number_stones_one_to_nine() {
    // S1: ids and JSON say stone 3, people see the fourth stone, "stone 4".
    let state = SchottenTotten::default().new_initial_state(1);
    let b5 = card("B5");
    assert_eq!(state.action_to_string(play_action(b5, 3)), "play B5 at stone 4");
    assert_eq!(state.action_to_string(claim_action(0)), "claim stone 1");
    assert_eq!(state.action_to_string(claim_action(8)), "claim stone 9");
    assert_eq!(
        state.action_to_move(play_action(b5, 3)),
        json!({"type": "play", "card": "B5", "stone": 3})
    );
    let mut state = Pos::new()
        .stone(3, "R1 R2 R3", "")
        .owned(3, 1)
        .stone(4, "R7 R8", "")
        .hand(0, "R9 B1")
        .hand(1, "B2")
        .build();
    let err = state.check_action(play("B1", 3)).unwrap_err();
    assert!(err.reason.contains("stone 4 is already owned"), "{err}");
    assert!(err.reason_de.contains("Grenzstein 4"), "{}", err.reason_de);
    assert_eq!(err.params["stone"], json!(3), "params keep the id");
    state.apply_action(play("R9", 4)).unwrap();
    let err = state.check_action(claim_action(2)).unwrap_err();
    assert!(err.reason.contains("at stone 3"), "{err}");
    let render = state.render();
    assert!(render.contains("\n  5    R7 R8 R9"), "{render}");
    assert!(!render.contains("\n  0 "), "{render}");
}

#[test]
fn public_view_hides_both_hands_and_views_match_the_schema_fields() {
    let state = SchottenTotten::default().new_initial_state(11);
    let public = state.public_view();
    assert_eq!(public["player"], Value::Null);
    assert_eq!(public["hand"], Value::Null);
    // The stones' facts name completions from every card not at a stone (S5: hands
    // included, as the claim proof counts them), chosen from the table alone; that they
    // depend on nothing hidden is `resample_keeps_every_view_over_random_games`.
    let mut bare = public.clone();
    for stone in bare["stones"].as_array_mut().unwrap() {
        stone.as_object_mut().unwrap().remove("facts");
    }
    let text = bare.to_string();
    for p in 0..2 {
        for c in state.hand(p) {
            assert!(
                !text.contains(&format!("\"{c}\"")),
                "{c} leaks into the public view"
            );
        }
    }
    // Today's field names, in declaration order in the view's bytes.
    let bytes = String::from_utf8(state.view_json(Some(1))).unwrap();
    assert!(
        bytes.starts_with(
            r#"{"game":"schotten_totten","player":1,"current_player":0,"phase":"play","hand":["#
        ),
        "{bytes}"
    );
    assert!(
        bytes.contains(r#"],"hand_sizes":[6,6],"pile_size":42,"stones":[{"cards":[[],[]],"owner":null"#),
        "{bytes}"
    );
    assert!(
        bytes.ends_with(r#""turn_passed":false,"passes_in_row":0,"outcome":null}"#),
        "{bytes}"
    );
    let view = state.view(1);
    assert_eq!(view["game"], json!("schotten_totten"));
    assert_eq!(
        view["stones"][0],
        json!({"cards": [[], []], "owner": null, "award": null, "completed_first": null,
               "facts": {"provable": [false, false],
                         "best": [{"cards": ["R7", "R8", "R9"], "formation": "color_run", "sum": 24, "complete": false},
                                  {"cards": ["R7", "R8", "R9"], "formation": "color_run", "sum": 24, "complete": false}],
                         "claimable": false}})
    );
    // The view's JSON reads back into the same view; unknown fields are refused.
    let typed: View = serde_json::from_value(view.clone()).unwrap();
    assert_eq!(typed, view::view_with_facts(&state, Some(1)));
    let mut extra = view.clone();
    extra["secret"] = json!(1);
    assert!(serde_json::from_value::<View>(extra).is_err());
    let mut extra = view;
    extra["stones"][0]["x"] = json!(1);
    assert!(serde_json::from_value::<View>(extra).is_err());
    // The schema describes every field.
    let schema = crate::DynGame::view_schema(&SchottenTotten::default());
    let text = schema.to_string();
    for field in ["pile_size", "hand_sizes", "completed_first", "passes_in_row"] {
        assert!(text.contains(field), "{field} missing from the schema");
    }
    assert!(text.contains("null in the public view"), "{text}");
    let schema = crate::DynGame::move_schema(&SchottenTotten::default());
    assert!(schema.to_string().contains("end_turn"), "{schema}");
}

#[test]
fn information_state_key_is_equal_exactly_when_the_view_is() {
    let positions = random_positions(20, 4);
    for (i, a) in positions.iter().enumerate().step_by(7) {
        for b in positions.iter().skip(i).step_by(11) {
            for p in 0..2 {
                assert_eq!(
                    a.information_state_key(p) == b.information_state_key(p),
                    a.view_of(Some(p)) == b.view_of(Some(p))
                );
            }
        }
    }
}

#[test]
fn move_enum_refuses_unknown_fields_and_stones_out_of_range() {
    let state = SchottenTotten::default().new_initial_state(3);
    for mv in [
        json!({"type": "pass", "x": 1}),
        json!({"type": "end_turn", "stone": 1}),
        json!({"type": "claim", "stone": 1, "card": "B5"}),
        json!({"type": "play", "card": "B5", "stone": 1, "x": null}),
    ] {
        let err = state.action_from_move(&mv).unwrap_err();
        assert!(matches!(err, Error::InvalidMove(_)), "{mv}: {err}");
        assert!(err.to_string().contains("unknown field"), "{err}");
    }
    for mv in [
        json!({"type": "claim", "stone": 9}),
        json!({"type": "play", "card": "B5", "stone": 255}),
    ] {
        let err = state.action_from_move(&mv).unwrap_err();
        assert!(matches!(err, Error::InvalidMove(_)), "{err}");
        assert!(err.to_string().contains("stones are numbered 0-8"), "{err}");
    }
    for mv in [
        json!({"type": "claim", "stone": -1}),
        json!({"type": "claim", "stone": 1e30}),
        json!({"type": "claim", "stone": "1"}),
    ] {
        assert!(
            matches!(state.action_from_move(&mv), Err(Error::InvalidMove(_))),
            "{mv}"
        );
    }
    let long = json!({"type": "x".repeat(10_000)});
    let err = state.action_from_move(&long).unwrap_err().to_string();
    assert!(err.len() < 400, "{err}");
}

#[test]
fn every_legal_action_round_trips_through_the_move_enum() {
    for state in random_positions(40, 1).iter().step_by(3) {
        for a in state.legal_actions() {
            let mv = state.action_to_move(a);
            let typed: Move = serde_json::from_value(mv.clone()).unwrap();
            assert_eq!(Move::decode(a), Some(typed));
            assert_eq!(state.action_from_move(&mv).unwrap(), a, "{mv}");
        }
    }
}

#[test]
fn resample_keeps_every_view_over_random_games() {
    let game = SchottenTotten::default();
    for (i, state) in random_positions(60, 5).iter().enumerate() {
        for p in 0..2 {
            let r = state.resample(p, i as u64).unwrap();
            assert_eq!(r.view_of(Some(p)), state.view_of(Some(p)));
            assert!(r.history().is_empty(), "a view carries no history");
            assert_eq!(game.state_from_json(&r.to_json()).unwrap(), r);
        }
        let public = game.state_from_view(&state.view_of(None), 7).unwrap();
        assert_eq!(public.view_of(None), state.view_of(None));
        assert_eq!(
            public.view_of(Some(0)).hand_sizes,
            state.view_of(Some(0)).hand_sizes
        );
    }
}

#[test]
fn resampled_states_play_on_to_the_end() {
    let mut ended = 0;
    for (i, state) in random_positions(20, 9).iter().enumerate() {
        let Some(p) = state.current_player() else {
            continue;
        };
        let mut r = state.resample(p, 1000 + i as u64).unwrap();
        let mut bot = RandomBot::new(i as u64);
        let mut steps = 0;
        while let Some(a) = bot.step(&r) {
            r.apply_action(a).unwrap();
            steps += 1;
            assert!(steps <= MAX_GAME_LENGTH as usize);
        }
        assert!(r.result_text().is_some());
        ended += 1;
    }
    assert!(ended > 20);
}

#[test]
fn resample_depends_on_the_view_only() {
    // Two states the seat cannot tell apart: the other hand and the pile differ.
    for (i, state) in random_positions(20, 6).iter().enumerate() {
        let p = i % 2;
        let other = 1 - p;
        let mut json = json_of(state);
        let (Some(hand_card), Some(pile_card)) = (
            json["hands"][other].as_array().and_then(|h| h.first()).cloned(),
            json["pile"].as_array().and_then(|h| h.first()).cloned(),
        ) else {
            continue;
        };
        json["hands"][other]
            .as_array_mut()
            .unwrap()
            .retain(|c| *c != hand_card);
        json["hands"][other]
            .as_array_mut()
            .unwrap()
            .push(pile_card.clone());
        let mut hand: Vec<Card> = serde_json::from_value(json["hands"][other].clone()).unwrap();
        hand.sort();
        json["hands"][other] = json!(hand);
        json["pile"][0] = hand_card;
        json["pile"].as_array_mut().unwrap().reverse();
        let twin = SchottenTotten::default()
            .state_from_json(&json.to_string())
            .unwrap();
        assert_ne!(twin, *state);
        assert_eq!(twin.view_of(Some(p)), state.view_of(Some(p)));
        assert_eq!(twin.resample(p, 5).unwrap(), state.resample(p, 5).unwrap());
        assert_ne!(
            state.resample(p, 5).unwrap(),
            state.resample(p, 6).unwrap(),
            "another seed deals anew"
        );
    }
}

#[test]
fn resample_deals_every_unseen_card_to_the_other_hand_uniformly() {
    // A chi-square-like check: over N resamples every unseen card lands in the other
    // hand about N * hand / unseen times.
    const N: u64 = 600;
    let mut state = SchottenTotten::default().new_initial_state(4);
    let mut bot = RandomBot::new(4);
    for _ in 0..12 {
        let a = bot.step(&state).unwrap();
        state.apply_action(a).unwrap();
    }
    let p = state.current_player().unwrap();
    let seen = state.hand_set(p).union(state.table());
    let unseen: Vec<Card> = CardSet::ALL.minus(seen).iter().collect();
    let hand = f64::from(state.hand_set(1 - p).len());
    let mut counts = vec![0u32; 54];
    for seed in 0..N {
        let r = state.resample(p, seed).unwrap();
        for c in r.hand_set(1 - p).iter() {
            counts[c.index() as usize] += 1;
        }
    }
    let expected = N as f64 * hand / unseen.len() as f64;
    let chi2: f64 = unseen
        .iter()
        .map(|c| (f64::from(counts[c.index() as usize]) - expected).powi(2) / expected)
        .sum();
    let df = (unseen.len() - 1) as f64;
    assert!(
        chi2 < df + 6.0 * (2.0 * df).sqrt(),
        "chi2 {chi2} for {df} degrees of freedom"
    );
    assert!(
        seen.iter().all(|c| counts[c.index() as usize] == 0),
        "seen cards stay put"
    );
}

#[track_caller]
fn view_refused(view: &Value, text: &str) {
    let err = crate::DynGame::state_from_view(&SchottenTotten::default(), view, 1)
        .err()
        .expect("an impossible view is refused");
    assert_eq!(err.code(), "invalid_view", "{err}");
    assert!(
        err.to_string().contains(text),
        "'{err}' does not mention '{text}'"
    );
}

#[test]
fn impossible_views_are_refused_with_the_reason() {
    let state = random_positions(1, 10)[2].clone();
    let view = state.view(0);
    let mut v = view.clone();
    v["pile_size"] = json!(view["pile_size"].as_u64().unwrap() + 1);
    view_refused(&v, "must add up");
    let mut v = view.clone();
    v["hand_sizes"][0] = json!(3);
    view_refused(&v, "hand_sizes says 3");
    let mut v = view.clone();
    v["player"] = json!(2);
    view_refused(&v, "not a seat");
    let mut v = view.clone();
    v["hand"] = Value::Null;
    view_refused(&v, "hand is null");
    let mut v = view.clone();
    v["player"] = Value::Null;
    view_refused(&v, "shows no hand");
    let mut v = view.clone();
    v["current_player"] = json!(7);
    view_refused(&v, "not 0 or 1");
    let mut v = view.clone();
    v["outcome"] = json!({"winner": 1, "reason": "three_adjacent"});
    view_refused(&v, "does not follow");
    let mut v = view.clone();
    v["stones"][0]["cards"][1] = json!([v["hand"][0].clone()]);
    view_refused(&v, "also in the hand");
    let mut v = view.clone();
    v["game"] = json!("dog");
    view_refused(&v, "not a schotten_totten view");
    let mut v = view;
    v["stones"][0]["owner"] = json!(0);
    v["stones"][0]["award"] = json!("claim");
    view_refused(&v, "stones[0]");
}

#[test]
fn inconsistent_states_are_refused_with_the_reason() {
    let state = random_positions(1, 10)[2].clone();
    let json = json_of(&state);
    let mut j = json.clone();
    j["current"] = json!(1 - state.current_player().unwrap());
    refused(&j, "turn");
    let mut j = json.clone();
    j["current"] = json!(5);
    refused(&j, "current player 5");
    let mut j = json.clone();
    j["phase"] = json!("claim");
    refused(&j, "no provable stone");
    let mut j = json.clone();
    j["turn_passed"] = json!(true);
    refused(&j, "turn_passed");
    let mut j = json.clone();
    j["passes_in_row"] = json!(2);
    refused(&j, "");
    let mut j = json.clone();
    j["passes_in_row"] = json!(200);
    refused(&j, "0, 1 or 2");
    let mut j = json.clone();
    j["phase"] = json!("over");
    refused(&j, "phase is 'over'");
    let mut j = json.clone();
    j["stones"][0]["completed_first"] = json!(9);
    refused(&j, "completed_first");
    let mut j = json.clone();
    j["stones"][1]["owner"] = json!(0);
    j["stones"][1]["award"] = json!("settlement_count");
    refused(&j, "stones[1]");
    let mut j = json.clone();
    let pile_card = j["pile"].as_array_mut().unwrap().pop().unwrap();
    j["stones"][2]["sides"][0].as_array_mut().unwrap().push(pile_card);
    refused(&j, "turn");
    let mut j = json;
    j["history"] = json!([497]);
    refused(&j, "history");
    // A claim must stay provable (S5): R1 R2 R3 against an empty side is not.
    let pos = json_of(
        &Pos::new()
            .stone(3, "R1 R2 R3", "")
            .owned(3, 0)
            .hand(0, "B1")
            .hand(1, "B2")
            .build(),
    );
    refused(&pos, "not provable");
}

#[test]
fn every_error_code_appears_for_a_position_that_triggers_it() {
    let mut codes = std::collections::BTreeSet::new();
    let mut note = |e: crate::IllegalAction| {
        assert!(!e.reason_de.is_empty() && e.reason_de != e.reason, "{e:?}");
        codes.insert(e.code);
    };
    let mut state = Pos::new()
        .stone(0, "R1 R2 R3", "O1")
        .owned(0, 0)
        .stone(1, "B4 B5 B6", "")
        .stone(3, "R4 O5 Y9", "")
        .stone(4, "R7 R8", "")
        .hand(0, "R9 P8")
        .hand(1, "G1")
        .build();
    note(state.check_action(play("G1", 2)).unwrap_err()); // card_not_in_hand
    note(state.check_action(play("P8", 0)).unwrap_err()); // stone_owned
    note(state.check_action(play("P8", 1)).unwrap_err()); // side_full
    note(state.check_action(PASS).unwrap_err()); // must_play
    note(state.check_action(claim_action(4)).unwrap_err()); // claim_not_now
    note(state.check_action(END_TURN).unwrap_err()); // end_turn_not_now
    state.apply_action(play("R9", 4)).unwrap();
    note(state.check_action(play("P8", 5)).unwrap_err()); // already_played
    note(state.check_action(claim_action(0)).unwrap_err()); // stone_owned (S3b)
    note(state.check_action(claim_action(5)).unwrap_err()); // claim_needs_three_cards
    let not_provable = state.check_action(claim_action(3)).unwrap_err();
    assert_eq!(not_provable.rule, "S5");
    assert_eq!(not_provable.params["stone"], json!(3));
    assert_eq!(not_provable.params["formation"], json!("color_run"));
    assert_eq!(not_provable.params["cards"], json!(["O7", "O8", "O9"]));
    assert!(
        not_provable.reason_de.contains("Farbenfolge"),
        "{}",
        not_provable.reason_de
    );
    note(not_provable);
    note(state.check_action(9999).unwrap_err()); // no_such_action
    state.apply_action(claim_action(4)).unwrap();
    let over = finished_game(EndReason::FiveStones);
    note(over.check_action(PASS).unwrap_err()); // game_over
    let expected = [
        "already_played",
        "card_not_in_hand",
        "claim_needs_three_cards",
        "claim_not_now",
        "end_turn_not_now",
        "game_over",
        "must_play",
        "no_such_action",
        "not_provable",
        "side_full",
        "stone_owned",
    ];
    assert_eq!(codes.into_iter().collect::<Vec<_>>(), expected);
}

#[test]
fn option_specs_agree_with_from_options() {
    let game = SchottenTotten::default();
    let specs = game.option_specs();
    assert_eq!(specs.len(), game.options().len(), "every option has a spec");
    for spec in specs {
        let mut options = serde_json::Map::new();
        options.insert(spec.name.into(), spec.default.clone());
        assert_eq!(
            SchottenTotten::from_options(&options).unwrap().options()[spec.name],
            spec.default
        );
        for v in spec.allowed.clone().unwrap() {
            options.insert(spec.name.into(), v.clone());
            assert_eq!(
                SchottenTotten::from_options(&options).unwrap().options()[spec.name],
                v
            );
        }
        for bad in [
            json!(spec.min.unwrap() - 1),
            json!(spec.max.unwrap() + 1),
            json!("0"),
            json!(u64::MAX),
        ] {
            options.insert(spec.name.into(), bad.clone());
            assert!(SchottenTotten::from_options(&options).is_err(), "{bad}");
        }
    }
}

#[test]
fn max_game_length_bounds_random_games() {
    let game = SchottenTotten::default();
    let mut longest = 0;
    for seed in 0..3000 {
        let (_, length) = crate::simulate::random_game(&game, seed, &mut Vec::new());
        longest = longest.max(length);
    }
    assert!(longest <= game.max_game_length(), "{longest}");
    assert!(
        longest > 60,
        "random games are long enough to test the bound: {longest}"
    );
}

#[test]
fn result_text_says_why_the_game_ended() {
    let text = finished_game(EndReason::ThreeAdjacent).result_text().unwrap();
    assert!(text.contains("wins: three adjacent stones ("), "{text}");
    let text = finished_game(EndReason::FiveStones).result_text().unwrap();
    assert!(text.ends_with("wins: five stones"), "{text}");
    let text = finished_game(EndReason::Settlement).result_text().unwrap();
    assert!(text.contains("settlement"), "{text}");
    assert_eq!(SchottenTotten::default().new_initial_state(1).result_text(), None);
    let state = settle(Pos::new().stone(0, "G5", "").stone(1, "", "B5"));
    assert_eq!(
        state.result_text().unwrap(),
        "a draw: the settlement leaves 1 stones each"
    );
}

#[test]
fn seats_out_of_range_see_the_public_view_and_no_hand() {
    let state = SchottenTotten::default().new_initial_state(1);
    assert_eq!(state.view_of(Some(7)), state.view_of(None));
    assert!(state.hand(7).is_empty());
}

#[test]
fn view_json_writes_exactly_what_serde_writes() {
    let mut positions = random_positions(60, 3);
    for reason in [
        EndReason::FiveStones,
        EndReason::ThreeAdjacent,
        EndReason::Settlement,
    ] {
        positions.push(finished_game(reason));
    }
    positions.push(settle(Pos::new().stone(0, "G5", "").stone(1, "", "B5")));
    for state in &positions {
        for seat in [Some(0), Some(1), None, Some(5)] {
            let people = view::view_with_facts(state, seat.filter(|&p| p < 2));
            let serde = serde_json::to_vec(&people).unwrap();
            assert_eq!(
                String::from_utf8(state.view_json(seat)).unwrap(),
                String::from_utf8(serde).unwrap()
            );
            // Without the facts: `view_of`, as bots and tensors use it.
            let bare = view::view_json(state, seat.filter(|&p| p < 2), false);
            assert_eq!(bare, serde_json::to_vec(&state.view_of(seat)).unwrap());
        }
    }
}

// The heuristic bot (issue 11): claims, building, dumping, and its strength.

fn heuristic(state: &State, seed: u64) -> Action {
    let seat = state.current_player().expect("a seat to move");
    state
        .heuristic_action(seat, &mut crate::rng::seeded(seed, crate::rng::STREAM_POLICY))
        .expect("the seat to move has an action")
}

#[test]
fn heuristic_claims_every_provable_stone() {
    // S3b, S5: in the claim phase (entered only with a provable stone) the heuristic
    // claims until nothing provable is left, never ending the turn early.
    let mut claims = 0;
    for state in random_positions(150, 1) {
        if state.phase() != Phase::Claim {
            continue;
        }
        let action = heuristic(&state, 1);
        let Some(Move::Claim { stone }) = Move::decode(action) else {
            panic!("ended the turn with a provable stone:\n{}", state.render());
        };
        assert!(
            state
                .claim_check(stone.into(), state.current as usize)
                .unwrap()
                .provable
        );
        claims += 1;
    }
    assert!(claims > 100, "only {claims} claim positions");
}

#[test]
fn heuristic_completes_a_colour_run_that_wins_the_stone() {
    // B5 B6 + B7 is a colour run (S4), which R9 O9 can no longer beat: three 9s at best.
    let state = Pos::new()
        .stone(4, "B5 B6", "R9 O9")
        .stone(0, "Y2", "G8")
        .hand(0, "B7 R1 O3 G5 P2 Y8")
        .hand(1, "R5 R6 O5 O6 G6 P6")
        .build();
    for seed in 0..5 {
        assert_eq!(heuristic(&state, seed), play("B7", 4), "seed {seed}");
    }
}

#[test]
fn heuristic_dumps_a_hopeless_card_on_a_lost_stone() {
    // Stone 1 is lost: R7 R8 R9 is the best colour run, and a tie goes to the side that
    // completed first (S4). Stones 2-8 are complete on our side, so a card goes either to
    // stone 0, where B8 B9 may still draw B7 (in the pile), or to the lost stone. None of
    // the hand helps stone 0: it goes to the lost stone rather than spoil the colour run.
    let mut pos = Pos::new()
        .stone(0, "B8 B9", "")
        .stone(1, "O1", "R7 R8 R9")
        .hand(0, "B1 Y2 P3")
        .hand(1, "G1 G2 G3 G4 G5 G6");
    let mine = [
        "O2 O3 O4", "O5 O6 O7", "Y4 Y5 Y6", "Y7 Y8 Y9", "P4 P5 P6", "P7 P8 P9", "R1 R2 R3",
    ];
    for (i, side) in mine.iter().enumerate() {
        pos = pos.stone(i + 2, side, "");
    }
    let state = pos.build();
    for seed in 0..5 {
        let action = heuristic(&state, seed);
        assert!(
            [play("B1", 1), play("Y2", 1), play("P3", 1)].contains(&action),
            "seed {seed}: {}",
            state.action_to_string(action)
        );
    }
}

#[test]
fn heuristic_beats_random_in_nearly_every_game() {
    // Measured: 100% over 2,000 games (benches/README.md); 90% leaves a wide margin.
    let game = SchottenTotten::default();
    let mut wins = 0;
    for seed in 0..100 {
        for heuristic_seat in 0..2 {
            let mut state = game.new_initial_state(seed);
            let mut random = RandomBot::new(seed);
            let mut rng = crate::rng::seeded(seed, crate::rng::STREAM_POLICY);
            while let Some(seat) = state.current_player() {
                let action = if seat == heuristic_seat {
                    state.heuristic_action(seat, &mut rng).unwrap()
                } else {
                    random.step(&state).unwrap()
                };
                state.apply_action(action).unwrap();
            }
            wins += usize::from(state.outcome().unwrap().winner == Some(heuristic_seat as u8));
        }
    }
    assert!(
        wins >= 180,
        "the heuristic won {wins} of 200 games against random"
    );
}

#[test]
fn s3b_the_dominant_action_is_a_provable_claim_in_the_claim_step_only() {
    let mut state = Pos::new()
        .stone(4, "R7 R8", "")
        .hand(0, "R9 B1")
        .hand(1, "B2 B3")
        .build();
    assert_eq!(
        state.dominant_action(),
        None,
        "S3a: which card to play is a choice"
    );
    state.apply_action(play("R9", 4)).unwrap();
    assert_eq!(
        state.dominant_action(),
        Some(claim_action(4)),
        "S5: R7-R8-R9 is provable"
    );
    state.apply_action(claim_action(4)).unwrap();
    assert_eq!(state.current_player(), Some(1));
    assert_eq!(state.dominant_action(), None);
}

/// Player 0's value from `heuristic_value_into`, checking that the two add up to one.
fn value_of(state: &State) -> f64 {
    let mut out = Vec::new();
    assert!(state.heuristic_value_into(&mut out));
    assert_eq!(out.len(), 2);
    assert!((out[0] + out[1] - 1.0).abs() < 1e-9, "{out:?}");
    assert!((0.0..=1.0).contains(&out[0]), "{out:?}");
    out[0]
}

#[test]
fn s7_the_value_of_a_position_follows_the_stones_and_the_lines() {
    // A game over is exact.
    let over = finished_game(EndReason::FiveStones);
    let winner = over.outcome().unwrap().winner.unwrap();
    assert_eq!(value_of(&over), if winner == 0 { 1.0 } else { 0.0 });
    // Two adjacent stones owned and the third sure (a complete colour run against an
    // empty side, S5): player 0 is all but home, whatever the other stones do.
    let sure = Pos::new()
        .stone(3, "R1 R2 R3", "")
        .owned(3, 0)
        .stone(4, "O1 O2 O3", "")
        .owned(4, 0)
        .stone(5, "Y7 Y8 Y9", "")
        .hand(0, "B1 B2")
        .hand(1, "G1 G2")
        .current(1)
        .build();
    assert!(value_of(&sure) > 0.95, "{}", value_of(&sure));
    // The same stones the other way round.
    let lost = Pos::new()
        .stone(3, "", "R1 R2 R3")
        .owned(3, 1)
        .stone(4, "", "O1 O2 O3")
        .owned(4, 1)
        .stone(5, "", "Y7 Y8 Y9")
        .hand(0, "B1 B2")
        .hand(1, "G1 G2")
        .build();
    assert!(value_of(&lost) < 0.05, "{}", value_of(&lost));
    // An empty table is even, near enough: the model is not symmetric in the hands.
    let start = SchottenTotten::default().new_initial_state(3);
    assert!((value_of(&start) - 0.5).abs() < 0.2, "{}", value_of(&start));
    // Owning two stones apart is worth less than two adjacent ones (a line is open).
    let apart = Pos::new()
        .stone(0, "R1 R2 R3", "")
        .owned(0, 0)
        .stone(8, "O1 O2 O3", "")
        .owned(8, 0)
        .hand(0, "B1 B2")
        .hand(1, "G1 G2")
        .build();
    let adjacent = Pos::new()
        .stone(3, "R1 R2 R3", "")
        .owned(3, 0)
        .stone(4, "O1 O2 O3", "")
        .owned(4, 0)
        .hand(0, "B1 B2")
        .hand(1, "G1 G2")
        .build();
    assert!(
        value_of(&adjacent) > value_of(&apart) + 0.05,
        "{} vs {}",
        value_of(&adjacent),
        value_of(&apart)
    );
}
