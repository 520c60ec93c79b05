//! Python bindings of spielwerk: types and errors are converted here, rules live in
//! `spielwerk-core`.
//!
//! Everything that comes from Python is checked before it reaches the engine
//! ([`convert`]), and every engine error becomes an exception of the `SpielwerkError`
//! family (`spielwerk.errors`) carrying its code, ruling and reasons ([`errors`]). One
//! file per concern: [`games`] (with the data every state holds of its game,
//! [`ruleset`]), [`states`], [`bots`], [`evaluation`], [`vector`], and [`rules`] for the
//! helpers of single games.

mod bots;
mod convert;
mod errors;
mod evaluation;
mod games;
mod rules;
mod ruleset;
mod states;
mod vector;

use pyo3::prelude::*;

#[pymodule(gil_used = false)]
fn _spielwerk(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("TERMINAL", states::TERMINAL)?;
    m.add_class::<ruleset::Game>()?;
    m.add_class::<states::State>()?;
    m.add_class::<vector::VectorEnv>()?;
    m.add_class::<bots::RandomBot>()?;
    m.add_class::<evaluation::SimulationSummary>()?;
    m.add_class::<bots::Bot>()?;
    m.add_class::<evaluation::BotStanding>()?;
    m.add_class::<evaluation::EvaluationPart>()?;
    m.add_class::<rules::ClaimCheck>()?;
    m.add_function(wrap_pyfunction!(games::list_games, m)?)?;
    m.add_function(wrap_pyfunction!(games::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::simulate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::evaluate_games, m)?)?;
    m.add_function(wrap_pyfunction!(evaluation::_restore_evaluation_part, m)?)?;
    m.add_function(wrap_pyfunction!(bots::make_bot, m)?)?;
    m.add_function(wrap_pyfunction!(bots::bot_names, m)?)?;
    m.add_function(wrap_pyfunction!(bots::bot_levels, m)?)?;
    m.add_function(wrap_pyfunction!(bots::bot_rating, m)?)?;
    m.add_function(wrap_pyfunction!(rules::st_formation, m)?)?;
    m.add_function(wrap_pyfunction!(rules::st_check_claim, m)?)?;
    m.add_function(wrap_pyfunction!(rules::tg_mentions_number, m)?)?;
    m.add_function(wrap_pyfunction!(rules::tg_check_talk, m)?)?;
    m.add_function(wrap_pyfunction!(games::_restore_game, m)?)?;
    m.add_function(wrap_pyfunction!(states::_restore_state, m)?)?;
    Ok(())
}
