//! Bots against each other from the command line, as `spielwerk.evaluate` plays them:
//!
//! ```sh
//! cargo run --release -p spielwerk-core --example evaluate -- \
//!     GAME 'OPTIONS_JSON' N_GAMES SEED BOT [BOT ...]
//! # e.g. schotten_totten '{}' 300 1 'ismcts:{"iterations":1000}' random
//! ```
//!
//! Each bot is `name` or `name:{params as JSON}`; prints one line per bot with its win
//! rate and 95% Wilson interval (for The Game the cards left), and the time taken.

use serde_json::{Map, Value};
use spielwerk_core::bots::{Standing, evaluate::wilson};
use spielwerk_core::dynamic::DynBot;
use spielwerk_core::load_game;

fn object(text: &str) -> Map<String, Value> {
    match serde_json::from_str(text) {
        Ok(Value::Object(m)) => m,
        _ => panic!("not a JSON object: {text}"),
    }
}

fn line(s: &Standing, cooperative: bool) -> String {
    let (lo, hi) = s.win_rate_interval();
    let params = serde_json::to_string(&s.params).unwrap_or_default();
    if cooperative {
        let (plo, phi) = wilson(s.perfect, s.games);
        let (ulo, uhi) = wilson(s.under_10, s.games);
        let (clo, chi) = s.cards_left.interval();
        format!(
            "{} {params}: {} games, perfect {:.1}% [{:.1}, {:.1}], under 10 left {:.1}% [{:.1}, {:.1}], mean cards left {:.2} [{:.2}, {:.2}]",
            s.name,
            s.games,
            100.0 * s.perfect as f64 / s.games as f64,
            100.0 * plo,
            100.0 * phi,
            100.0 * s.under_10 as f64 / s.games as f64,
            100.0 * ulo,
            100.0 * uhi,
            s.cards_left.mean(),
            clo,
            chi
        )
    } else {
        format!(
            "{} {params}: {} games, {} wins, {} draws, {} losses, win rate {:.1}% [{:.1}, {:.1}], mean return {:.3}",
            s.name,
            s.games,
            s.wins,
            s.draws,
            s.losses,
            100.0 * s.win_rate(),
            100.0 * lo,
            100.0 * hi,
            s.returns.mean()
        )
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    assert!(
        args.len() >= 5,
        "usage: GAME OPTIONS_JSON N_GAMES SEED BOT [BOT ...]"
    );
    let game = load_game(&args[0], &object(&args[1])).expect("a game");
    let n_games: u64 = args[2].parse().expect("N_GAMES");
    let seed: u64 = args[3].parse().expect("SEED");
    let bots: Vec<Box<dyn DynBot>> = args[4..]
        .iter()
        .map(|spec| {
            let (name, params) = match spec.split_once(':') {
                Some((name, params)) => (name, object(params)),
                None => (spec.as_str(), Map::new()),
            };
            game.make_bot(name, &params, 0).expect("a bot")
        })
        .collect();
    let seated: Vec<&dyn DynBot> = bots.iter().map(AsRef::as_ref).collect();
    let start = std::time::Instant::now();
    let e = game
        .evaluate(&seated, n_games, seed, None, &|| false)
        .expect("evaluate");
    let cooperative = e.utility == spielwerk_core::Utility::Cooperative;
    println!(
        "{} {} ({n_games} games, seed {seed}, {:.1?}):",
        args[0],
        args[1],
        start.elapsed()
    );
    for s in &e.standings {
        println!("  {}", line(s, cooperative));
    }
}
