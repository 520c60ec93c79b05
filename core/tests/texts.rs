//! Texts for people in both languages (issue 23 §1.4), for every registered game over
//! random games: every legal action has a non-empty German and English text, distinct
//! legal actions have distinct texts in each language, German texts use no English words,
//! a seat's board shows nothing the seat may not see, and the result lines exist once a
//! game is over.

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use serde_json::{Map, Value, json};
use spielwerk_core::game::{GameState, Lang, MatchEnd};
use spielwerk_core::{Action, DynState, load_game, with_state};

/// Every game with options that reach its rarer texts.
fn configs() -> Vec<(&'static str, Value)> {
    vec![
        ("schotten_totten", json!({})),
        ("caravan", json!({})),
        ("the_game", json!({})),
        ("the_game", json!({"players": 3})),
        ("dog", json!({})),
    ]
}

/// English words the English texts use and German must not (whole words, any case).
/// "Hand", "Partner", "Joker", "Deck" are German too, and card notation is shared.
const ENGLISH: &[&str] = &[
    "play",
    "stone",
    "claim",
    "pass",
    "end",
    "turn",
    "caravan",
    "discard",
    "disband",
    "pile",
    "player",
    "players",
    "wins",
    "win",
    "lose",
    "draw",
    "forward",
    "back",
    "into",
    "goal",
    "swap",
    "start",
    "marble",
    "marbles",
    "the",
    "and",
    "of",
    "on",
    "at",
    "with",
    "to",
    "cards",
    "card",
    "left",
    "round",
    "kennel",
    "fields",
    "top",
    "played",
    "team",
    "points",
    "owner",
    "opening",
    "sold",
    "pairs",
    "no",
    "winner",
    "settlement",
    "stones",
    "every",
    "number",
    "ascending",
    "descending",
    "partner's",
    "opponent's",
    "sat",
    "out",
    "steps",
    "seven",
    "up",
    "down",
    "clubs",
    "diamonds",
    "hearts",
    "spades",
    "red",
    "blue",
    "green",
    "yellow",
    "aborted",
    "resigned",
    "time",
];

fn english_words(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .map(str::to_lowercase)
        .filter(|w| ENGLISH.contains(&w.as_str()))
        .collect()
}

fn assert_german(text: &str, what: &str) {
    let leaked = english_words(text);
    assert!(
        leaked.is_empty(),
        "{what}: English words {leaked:?} in German text {text:?}"
    );
}

fn options(value: &Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap_or_default()
}

/// Plays a random game, calling `each` on every position reached (the last one over).
fn random_game(name: &str, opts: &Value, seed: u64, mut each: impl FnMut(&dyn DynState)) {
    let game = load_game(name, &options(opts)).unwrap();
    let mut state = game.new_initial_state(seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut legal: Vec<Action> = Vec::new();
    loop {
        each(state.as_ref());
        let Some(seat) = state.seats_to_move().choose(&mut rng).copied() else {
            break;
        };
        state.legal_actions_for(seat, &mut legal);
        let action = *legal.choose(&mut rng).unwrap();
        state.apply_action_for(seat, action).unwrap();
    }
}

#[test]
fn every_legal_action_has_distinct_nonempty_texts_in_both_languages() {
    for (name, opts) in configs() {
        for seed in 0..6 {
            let mut legal = Vec::new();
            random_game(name, &opts, seed, |state| {
                for seat in state.seats_to_move() {
                    state.legal_actions_for(seat, &mut legal);
                    for lang in Lang::ALL {
                        let mut texts: Vec<String> = legal
                            .iter()
                            .map(|&a| with_state!(state, s => s.action_text(a, lang)))
                            .collect();
                        assert!(
                            texts.iter().all(|t| !t.trim().is_empty()),
                            "{name} {lang}: {texts:?}"
                        );
                        if lang == Lang::De {
                            for t in &texts {
                                assert_german(t, name);
                            }
                        }
                        let n = texts.len();
                        texts.sort();
                        texts.dedup();
                        assert_eq!(
                            texts.len(),
                            n,
                            "{name} seed {seed} {lang}: two legal actions share a text"
                        );
                    }
                }
            });
        }
    }
}

#[test]
fn english_texts_are_the_ones_before_languages() {
    // `action_to_string`, `result_text` and `render` keep their English texts.
    for (name, opts) in configs() {
        random_game(name, &opts, 3, |state| {
            let mut legal = Vec::new();
            state.legal_actions_into(&mut legal);
            for &a in &legal {
                let en = with_state!(state, s => s.action_text(a, Lang::En));
                assert_eq!(state.action_to_string(a), en);
            }
            assert_eq!(
                state.result_text(),
                with_state!(state, s => s.result_text_in(Lang::En))
            );
            assert_eq!(
                state.render(),
                with_state!(state, s => s.render_for(None, Lang::En))
            );
        });
    }
}

#[test]
fn results_boards_and_match_endings_are_german_and_english() {
    for (name, opts) in configs() {
        for seed in 0..4 {
            let mut last = None;
            random_game(name, &opts, seed, |state| {
                if state.is_terminal() {
                    last = Some(state.clone_box());
                }
                // Sampled positions: the board in German uses no English words.
                if state.history().len() % 7 == 0 {
                    let board = with_state!(state, s => s.render_for(None, Lang::De));
                    assert_german(&board, name);
                    let n = state.returns().len();
                    for seat in 0..n {
                        let own = with_state!(state, s => s.render_for(Some(seat), Lang::De));
                        assert_german(&own, name);
                    }
                    for kind in ["resigned", "time", "left", "no_move", "aborted"] {
                        let end = MatchEnd::parse(kind, Some(0)).unwrap();
                        for lang in Lang::ALL {
                            let text = with_state!(state, s => s.match_ending_in(end, lang).text);
                            assert!(!text.is_empty());
                            if lang == Lang::De {
                                assert_german(&text, name);
                            }
                        }
                    }
                    for end in [MatchEnd::PlayingTime, MatchEnd::Withdrawn] {
                        let de = with_state!(state, s => s.match_ending_in(end, Lang::De).text);
                        assert_german(&de, name);
                    }
                }
            });
            let state = last.expect("a random game ends");
            let de = with_state!(state.as_ref(), s => s.result_text_in(Lang::De)).unwrap();
            let en = with_state!(state.as_ref(), s => s.result_text_in(Lang::En)).unwrap();
            assert!(
                !de.is_empty() && !en.is_empty() && de != en,
                "{name}: {de} / {en}"
            );
            assert_german(&de, name);
            let board = with_state!(state.as_ref(), s => s.render_for(None, Lang::De));
            assert_german(&board, name);
        }
    }
}

/// A seat's board depends on nothing the seat cannot see: the same for every deal of the
/// cards hidden from it (`resample` keeps the seat's view and deals the rest anew).
#[test]
fn a_seats_board_shows_only_what_the_seat_sees() {
    for (name, opts) in configs() {
        random_game(name, &opts, 11, |state| {
            if state.is_terminal() || state.history().len() % 5 != 0 {
                return;
            }
            for seat in 0..state.returns().len() {
                for lang in Lang::ALL {
                    let board = with_state!(state, s => s.render_for(Some(seat), lang));
                    for seed in 0..3 {
                        let other = state.resample(seat, seed).unwrap();
                        let again = with_state!(other.as_ref(), s => s.render_for(Some(seat), lang));
                        assert_eq!(board, again, "{name} seat {seat} {lang}");
                    }
                    for card in state.hand(seat) {
                        assert!(board.contains(&card), "{name}: own card {card} not on the board");
                    }
                }
            }
        });
    }
}

#[test]
fn every_option_has_a_german_name_and_description() {
    for name in spielwerk_core::list_games() {
        let game = load_game(name, &Map::new()).unwrap();
        for spec in game.option_specs() {
            let (de, desc) = (spec.name_de.unwrap_or(""), spec.description_de.unwrap_or(""));
            assert!(!de.is_empty() && !desc.is_empty(), "{name}.{}", spec.name);
            assert_german(desc, name);
        }
    }
}
