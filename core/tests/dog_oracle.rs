//! Dog's legal-move generation against the move check on random positions.
//!
//! `legal_actions` decides moves by bit masks (each marble's reach before the first
//! protected marble, the free goal fields, the marbles able to take a seven's rest);
//! `check_action` walks every field of every move (`Board::landing`) and searches a
//! seven's splits. Both must allow exactly the same ids of all 1,810. Positions are
//! pushed to where the rules turn: marbles just before their goal, protected marbles on
//! start fields, half-full goal lanes, teams one marble short of winning (D11), players
//! with all four marbles home moving the partner's (D12), sevens half played (D8).

use proptest::prelude::*;
use serde_json::{Value, json};
use spielwerk_core::Game;
use spielwerk_core::dog::{Dog, NUM_ACTIONS, SIT_OUT, State};
use spielwerk_core::game::{Action, GameState};

const CARDS: [&str; 14] = [
    "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "JK",
];

/// Where a marble goes: 0 kennel, 1 the 13 fields before its start field or the two
/// after it, 2 any ring field, 3 a goal field, 4 its start field; then an offset and
/// whether a marble on its own start field is protected.
type MarbleSpec = (u8, u8, bool);

#[derive(Debug, Clone)]
struct Spec {
    marbles: Vec<MarbleSpec>,
    /// 0: as drawn; 1: the player's four marbles home; 2: the team one marble short of
    /// eight home; 3: the player's colour three home.
    fill: u8,
    current: usize,
    hand: Vec<usize>,
    /// Steps left and whether the seven is a joker.
    seven: Option<(u8, bool)>,
}

fn spec() -> impl Strategy<Value = Spec> {
    // The cards that move in many ways come more often.
    let card = prop_oneof![
        0usize..14,
        Just(6usize),
        Just(13usize),
        Just(3usize),
        Just(0usize)
    ];
    (
        prop::collection::vec((0u8..5, any::<u8>(), any::<bool>()), 16),
        0u8..4,
        0usize..4,
        prop::collection::vec(card, 1..=6),
        prop::option::weighted(0.3, (1u8..=6, any::<bool>())),
    )
        .prop_map(|(marbles, fill, current, hand, seven)| Spec {
            marbles,
            fill,
            current,
            hand,
            seven,
        })
}

/// The position as JSON; marbles that would share a field stay in the kennel.
fn position(spec: &Spec, with_seven: bool) -> String {
    let mut marbles = spec.marbles.clone();
    let me = spec.current;
    let mate = (me + 2) % 4;
    // `n` marbles home at the far end of the lane, so that the others can still come in.
    let home = |marbles: &mut Vec<MarbleSpec>, color: usize, n: usize| {
        for (k, m) in marbles[4 * color..4 * color + 4].iter_mut().enumerate() {
            if k < n {
                *m = (3, (4 - n + k) as u8, false);
            } else if m.0 == 3 {
                m.0 = 1;
            }
        }
    };
    match spec.fill {
        1 => home(&mut marbles, me, 4),
        2 => {
            home(&mut marbles, me, 4);
            home(&mut marbles, mate, 3);
        }
        3 => home(&mut marbles, me, 3),
        _ => {}
    }
    let mut taken = std::collections::HashSet::new();
    let places: Vec<Value> = marbles
        .iter()
        .enumerate()
        .map(|(m, &(kind, offset, protected))| {
            let color = m / 4;
            let start = 16 * color;
            let (cell, place) = match kind {
                1 => {
                    let f = (start + 64 - 13 + offset as usize % 16) % 64;
                    (f, json!({"ring": f}))
                }
                2 => {
                    let f = offset as usize % 64;
                    (f, json!({"ring": f}))
                }
                3 => {
                    let s = offset as usize % 4;
                    (100 + 4 * color + s, json!({"goal": s}))
                }
                4 => (start, json!({"ring": start})),
                _ => return json!({"place": "kennel"}),
            };
            if !taken.insert(cell) {
                return json!({"place": "kennel"});
            }
            json!({"place": place, "protected": protected && cell == start})
        })
        .collect();
    // D13: a team with all eight marbles home has won; such a position is refused on
    // reading, so one marble of it goes back to the kennel.
    let mut places = places;
    for t in 0..2 {
        let goal: Vec<usize> = (0..16)
            .filter(|&m| (m / 4) % 2 == t && places[m]["place"].get("goal").is_some())
            .collect();
        if goal.len() == 8 {
            places[goal[0]] = json!({"place": "kennel"});
        }
    }
    let mut hands = vec![Vec::new(); 4];
    let mut counts = [0usize; 14];
    for &c in &spec.hand {
        hands[me].push(CARDS[c]);
        counts[c] += 1;
    }
    let mut pile = Vec::new();
    for (c, name) in CARDS.iter().enumerate() {
        let copies = if c == 13 { 6 } else { 8 };
        pile.extend(std::iter::repeat_n(*name, copies - counts[c]));
    }
    let seven = spec
        .seven
        .filter(|_| with_seven)
        .map(|(remaining, joker)| json!({"remaining": remaining, "joker": joker}));
    json!({
        "rules": {"max_turns": 10000}, "marbles": places, "hands": hands,
        "pile": pile, "discards": [], "reshuffle_seed": 1, "reshuffles": 0, "round": 0,
        "phase": "play", "current": me, "exchange": [null, null, null, null],
        "received": [null, null, null, null], "seven": seven,
        "sat_out": [false, false, false, false], "turns": 0, "outcome": null, "history": []
    })
    .to_string()
}

fn state(spec: &Spec) -> State {
    let game = Dog::default();
    // A seven in progress that could not be finished is refused on reading (D8).
    game.state_from_json(&position(spec, true))
        .or_else(|_| game.state_from_json(&position(spec, false)))
        .expect("a valid position")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn legal_actions_are_exactly_the_checked_ones(spec in spec()) {
        let state = state(&spec);
        let legal = state.legal_actions();
        let checked: Vec<Action> = (0..NUM_ACTIONS as Action)
            .filter(|&a| state.check_action(a).is_ok())
            .collect();
        prop_assert_eq!(&legal, &checked, "{}", state.to_json());
        for &action in &legal {
            let mut after = state.clone();
            after.apply_action(action).unwrap();
            // D8: a part is offered only if the rest of the seven can be used.
            if after.seven().is_some() {
                let next = after.legal_actions();
                prop_assert!(
                    !next.is_empty() && next != [SIT_OUT],
                    "after {} the seven is stuck: {}", state.action_to_string(action), state.to_json()
                );
            }
        }
    }
}
