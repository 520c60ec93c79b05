//! Seeded matches between bots made by name, on all cores, with seats rotated: the
//! runs whose tally is [`Evaluation`].
//!
//! A run of `n` games can be played in parts ([`evaluate_games`] on a range of the game
//! numbers, on this machine or spread over many) and the parts merged
//! ([`Evaluation::merge`]): the merged tally equals the one of the whole run to the last
//! bit, in any order of the parts.

use std::ops::Range;

use rayon::prelude::*;

use crate::bots::evaluate::{Evaluation, bot_at};
use crate::error::{Error, Result};
use crate::game::{Game, GameState};
use crate::rng;

use super::DynBot;

/// Plays the games `0..n_games` (see [`evaluate_games`]).
pub fn evaluate<G: Game>(
    game: &G,
    bots: &[&dyn DynBot],
    n_games: u64,
    seed: u64,
    threads: Option<usize>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Evaluation> {
    evaluate_games(game, bots, 0..n_games, seed, threads, stop)
}

/// Plays the games numbered `games` between `bots` (1 to the number of seats, dividing it). Game `i`
/// is deal `i / k` (dealt from `rng::batch_seed(seed, i / k)`) in rotation `i % k`, so
/// each deal is played once with every rotation of the seats (two-player games: twice,
/// swapped). Each decision is seeded from the bot's seed, the deal, the rotation and the
/// ply, so the result depends on the seed alone, never on `threads`. Stops with
/// [`Error::Interrupted`] once `stop` returns true (asked before every action).
///
/// A run split into ranges, played anywhere and merged with [`Evaluation::merge`], gives
/// the same tally as the whole range at once: the bots must be made with the same seeds.
pub fn evaluate_games<G: Game>(
    game: &G,
    bots: &[&dyn DynBot],
    games: Range<u64>,
    seed: u64,
    threads: Option<usize>,
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Evaluation> {
    let players = game.num_players();
    let k = bots.len();
    if k == 0 || k > players || !players.is_multiple_of(k) {
        let game = G::NAME;
        return Err(Error::InvalidArgument(crate::msg!(
            "{game} has {players} seats: give a number of bots that divides it (got {k})",
            "{game} hat {players} Plätze: gib eine Zahl von Bots an, die sie teilt (nicht {k})"
        )));
    }
    if let Some(bot) = bots.iter().find(|b| b.game_name() != G::NAME) {
        let (name, made_for, game) = (bot.name(), bot.game_name(), G::NAME);
        return Err(Error::InvalidArgument(crate::msg!(
            "the {name} bot was made for {made_for}, not for {game}",
            "der Bot {name} ist für {made_for} gemacht, nicht für {game}"
        )));
    }
    if threads == Some(0) {
        return Err(Error::InvalidArgument(crate::msg!(
            "threads must be at least 1 (or None for all cores)",
            "threads ist mindestens 1 (oder None für alle Kerne)"
        )));
    }
    let play = |i: u64| -> Result<Option<Vec<f64>>> {
        let deal = rng::batch_seed(seed, i / k as u64);
        let rotation = (i % k as u64) as usize;
        let moves = rng::batch_seed(deal, rotation as u64);
        let mut state = game.new_initial_state(deal);
        let mut ply = 0u64;
        while let Some(seat) = state.current_player() {
            let bot = bots[bot_at(seat, rotation, k)];
            let decision = rng::mix(bot.seed() ^ rng::batch_seed(moves, ply));
            let action = match bot.choose_until(&state, seat, decision, stop) {
                Err(Error::Interrupted) => return Ok(None),
                other => other?,
            }
            .ok_or_else(|| {
                let name = bot.name();
                Error::InvalidState(crate::msg!(
                    "the {name} bot found no action for player {seat}",
                    "der Bot {name} hat keine Aktion für Spieler {seat} gefunden"
                ))
            })?;
            state.apply_action_for(seat, action)?;
            ply += 1;
        }
        Ok(Some(state.returns()))
    };
    if games.start > games.end {
        let (start, end) = (games.start, games.end);
        return Err(Error::InvalidArgument(crate::msg!(
            "the games {start}..{end} run backwards",
            "die Spiele {start}..{end} laufen rückwärts"
        )));
    }
    let first = games.start;
    let run = || games.into_par_iter().map(play).collect::<Vec<_>>();
    let results = crate::simulate::on_threads(threads, run)?;
    let utility = game.utility();
    let mut tally = Evaluation::empty(utility, bots.iter().map(|b| (b.name().to_string(), b.params())));
    for (i, result) in (first..).zip(results) {
        let Some(returns) = result? else {
            return Err(Error::Interrupted);
        };
        tally.add_game(i, k, &returns);
    }
    Ok(tally)
}
