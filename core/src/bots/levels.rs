//! Bots by level: each game's `easy`, `normal` and `strong`, the settings that make them
//! so, and what they were measured to be.
//!
//! A level is a bot and its parameters, chosen per game by measurement (the commands
//! and figures are in `benches/README.md`, "Levels"): a person picks "stark" on the page,
//! a trainer `bots.make("strong", game)`, and both get the same bot. Levels are bounded
//! by iterations or deals, never by wall time, so a level decides the same on every
//! machine; the cost per move each was measured at is part of its record.
//!
//! The cost a level may take per move on one core (median): `easy` 5 ms, `normal` 50 ms,
//! `strong` 250 ms: a person waits for it, and a trainer calls it millions of times.
//!
//! What each level was measured to be ships with the engine: `ladder.json` beside this
//! file, written by `spielwerk ladder` (its command and seeds are recorded in it). For
//! two-sided games that is a rating (Bradley–Terry by maximum likelihood on the Elo
//! scale, `heuristic` anchored at 1500, with its 95 % interval); for The Game, a
//! cooperative game, the share of perfect games and the mean cards left at each player
//! count.

use std::sync::OnceLock;

use serde_json::{Map, Value, json};

use crate::error::{Error, Result};

/// The level names, weakest first.
pub const NAMES: &[&str] = &["easy", "normal", "strong"];

/// One level of one game: the bot and its parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Level {
    pub name: &'static str,
    pub bot: &'static str,
    pub params: Map<String, Value>,
}

/// Schotten Totten's search settings (benches/README.md, "Levels"): heuristic rollouts of
/// one reply scored by the game's estimate, provable claims at once (S5), widening by
/// the heuristic's ranking.
fn schotten_totten_search(iterations: u64) -> Value {
    json!({
        "iterations": iterations,
        "rollout": "heuristic",
        "rollout_depth": 1,
        "c": 0.4,
        "dominant": true,
        "widen": 4,
    })
}

/// Dog's search settings: heuristic rollouts of eight actions scored by the game's
/// estimate, a progressive bias towards the heuristic's action.
fn dog_search(iterations: u64) -> Value {
    json!({
        "iterations": iterations,
        "rollout": "heuristic",
        "rollout_depth": 8,
        "prior": 2,
    })
}

/// The levels of `game`, weakest first; `None` for a name that is no game.
fn presets(game: &str) -> Option<[(&'static str, &'static str, Value); 3]> {
    Some(match game {
        "schotten_totten" => [
            ("easy", "ismcts", json!({"iterations": 200})),
            ("normal", "ismcts", schotten_totten_search(1000)),
            ("strong", "ismcts", schotten_totten_search(8000)),
        ],
        "caravan" => [
            ("easy", "ismcts", json!({"iterations": 100})),
            (
                "normal",
                "ismcts",
                json!({"iterations": 300, "rollout": "heuristic"}),
            ),
            (
                "strong",
                "ismcts",
                json!({"iterations": 1500, "rollout": "heuristic"}),
            ),
        ],
        "the_game" => [
            ("easy", "heuristic", json!({})),
            ("normal", "pimc", json!({"samples": 24, "width": 4})),
            (
                "strong",
                "pimc",
                json!({"samples": 160, "width": 6, "confidence": 0.5}),
            ),
        ],
        "dog" => [
            ("easy", "ismcts", dog_search(50)),
            ("normal", "ismcts", dog_search(1000)),
            ("strong", "ismcts", dog_search(4000)),
        ],
        _ => return None,
    })
}

/// The levels of the game named `game`, weakest first (empty for an unknown name).
pub fn levels(game: &str) -> Vec<Level> {
    presets(game).map_or_else(Vec::new, |presets| {
        presets
            .into_iter()
            .map(|(name, bot, params)| Level {
                name,
                bot,
                params: match params {
                    Value::Object(m) => m,
                    _ => unreachable!("a preset's parameters are an object"),
                },
            })
            .collect()
    })
}

/// Whether `name` is a level's name rather than a bot's.
pub fn is_level(name: &str) -> bool {
    NAMES.contains(&name)
}

/// The level `name` of `game`, its parameters joined by the ones a caller may add to a
/// level: only `time_ms`, a bound on the time a move may take (a server's), never a
/// change of its settings.
pub fn resolve(game: &'static str, name: &str, params: &Map<String, Value>) -> Result<Level> {
    let mut level = levels(game)
        .into_iter()
        .find(|l| l.name == name)
        .ok_or_else(|| Error::UnknownBot {
            name: name.to_string(),
            game,
            available: NAMES.join(", "),
        })?;
    if let Some(key) = params.keys().find(|k| k.as_str() != "time_ms") {
        let key = crate::error::shorten(key);
        return Err(Error::InvalidBotParams(crate::msg!(
            "the level {name} has fixed settings: '{key}' cannot be set (only time_ms, a bound on the time a move takes); use a bot by its name to choose settings",
            "die Stufe {name} hat feste Einstellungen: '{key}' lässt sich nicht setzen (nur time_ms, eine Grenze für die Zeit eines Zugs); für eigene Einstellungen einen Bot beim Namen wählen"
        )));
    }
    if let Some(bound) = params.get("time_ms") {
        level.params.insert("time_ms".into(), bound.clone());
    }
    Ok(level)
}

/// The ladder as shipped: `ladder.json`, read once.
pub fn ladder() -> &'static Value {
    static LADDER: OnceLock<Value> = OnceLock::new();
    LADDER.get_or_init(|| serde_json::from_str(include_str!("ladder.json")).expect("ladder.json is JSON"))
}

/// What the ladder says of the bot or level `entry` in `game` with `players` seats: its
/// rating (two-sided games) or its figures at that player count (The Game), and its
/// cost per move; `Null` where it was not measured.
pub fn measured(game: &str, players: usize, entry: &str) -> (Value, Value) {
    let table = &ladder()["games"][game];
    let table = if table.get("players").is_some() {
        &table["players"][players.to_string()]
    } else {
        table
    };
    (
        table["ratings"][entry].clone(),
        table["cpu_ms_per_move"][entry].clone(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_the_three_levels_in_order() {
        for game in crate::registry::list_games() {
            let names: Vec<_> = levels(game).iter().map(|l| l.name).collect();
            assert_eq!(names, NAMES, "{game}");
        }
    }

    #[test]
    fn a_level_takes_only_a_time_bound() {
        let mut params = Map::new();
        params.insert("time_ms".into(), 100.into());
        let level = resolve("dog", "strong", &params).unwrap();
        assert_eq!(level.params["time_ms"], 100);
        params.insert("iterations".into(), 5.into());
        let refused = resolve("dog", "strong", &params).unwrap_err().to_string();
        assert!(refused.contains("iterations"), "{refused}");
        assert!(matches!(
            resolve("dog", "heroic", &Map::new()),
            Err(Error::UnknownBot { .. })
        ));
    }

    /// Positions all along a random game of `game` where a seat is to move, every `every`
    /// plies.
    fn positions(game: &dyn crate::DynGame, seed: u64, every: usize) -> Vec<Box<dyn crate::DynState>> {
        let mut state = game.new_initial_state(seed);
        let mut policy = crate::bots::RandomBot::new(seed);
        let mut out = Vec::new();
        let mut ply = 0;
        while let Some(action) = policy.step_dyn(state.as_ref()) {
            if ply % every == 0 {
                out.push(state.clone_box());
            }
            state.apply_action(action).unwrap();
            ply += 1;
        }
        out
    }

    /// Every level of every game decides from its seat's view alone, seeded: the same
    /// seed gives the same action on the state and on a resample of it from the deciding
    /// seat, and the action is legal. Levels are bounded by iterations or deals, so this
    /// holds on any machine.
    #[test]
    fn every_level_is_seeded_and_sees_only_its_view() {
        for name in crate::registry::list_games() {
            let game = crate::registry::load_game(name, &Map::new()).unwrap();
            for level in NAMES {
                let bot = game.make_bot(level, &Map::new(), 11).unwrap();
                assert_eq!(bot.level(), Some(*level));
                // The strong searches take a tenth of a second a move: two positions each.
                let every = if *level == "strong" { 60 } else { 25 };
                for state in positions(game.as_ref(), 3, every).into_iter().take(2) {
                    let seat = state.current_player().unwrap();
                    let a = bot.step(state.as_ref(), Some(seat)).unwrap().unwrap();
                    let mut legal = Vec::new();
                    state.legal_actions_into(&mut legal);
                    assert!(legal.contains(&a), "{name} {level}: illegal {a}");
                    let other = state.resample(seat, 99).unwrap();
                    let b = bot.step(other.as_ref(), Some(seat)).unwrap().unwrap();
                    assert_eq!(
                        a, b,
                        "{name} {level}: a resample from seat {seat} changed the move"
                    );
                }
            }
        }
    }

    /// S5: a proved stone cannot be lost, so the strong level of Schotten Totten claims it
    /// at once: over random positions where the player to move can prove a claim, it
    /// claims (the claim step lists only provable claims and the end of the turn) instead
    /// of ending its turn with the stone unclaimed.
    #[test]
    fn strong_schotten_totten_takes_every_provable_claim() {
        use crate::game::{Game as _, GameState as _};
        use crate::schotten_totten::{END_TURN, SchottenTotten};
        let game = SchottenTotten::from_options(&Map::new()).unwrap();
        let strong = crate::registry::load_game("schotten_totten", &Map::new())
            .unwrap()
            .make_bot("strong", &Map::new(), 5)
            .unwrap();
        let mut checked = 0;
        for seed in 0..300u64 {
            let mut state = game.new_initial_state(seed);
            let mut policy = crate::bots::RandomBot::new(seed);
            while let Some(action) = policy.step(&state) {
                if let (Some(seat), Some(_)) = (state.current_player(), state.provable_claim()) {
                    let chosen = strong.step(&state, Some(seat)).unwrap().unwrap();
                    assert_ne!(
                        chosen, END_TURN,
                        "seed {seed}: a provable stone was left unclaimed"
                    );
                    assert!(state.legal_actions().contains(&chosen), "seed {seed}");
                    checked += 1;
                }
                state.apply_action(action).unwrap();
            }
        }
        assert!(checked > 300, "only {checked} positions with a provable claim");
    }

    #[test]
    fn the_shipped_ladder_reads() {
        assert!(ladder()["games"].is_object());
    }
}
