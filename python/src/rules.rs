//! The helpers of single games: Schotten Totten's formations and claim proofs (S5, S6),
//! The Game's table talk (T7).

use pyo3::prelude::*;
use serde_json::Value;
use spielwerk_core::schotten_totten as st;

use crate::convert::{Text, to_json};
use crate::errors::{err, invalid_argument, rejection};

/// The outcome of a Schotten Totten claim proof (S5) with the best reachable formation (S6).
#[pyclass(frozen, module = "spielwerk.schotten_totten", get_all)]
pub struct ClaimCheck {
    provable: bool,
    mine_formation: &'static str,
    mine_sum: u8,
    best_cards: Option<Vec<String>>,
    best_formation: Option<&'static str>,
    best_sum: Option<u8>,
}

#[pymethods]
impl ClaimCheck {
    fn __repr__(&self) -> String {
        fn py_repr<T: std::fmt::Debug>(value: Option<&T>) -> String {
            value.map_or("None".into(), |v| format!("{v:?}").replace('"', "'"))
        }
        format!(
            "ClaimCheck(provable={}, mine_formation='{}', mine_sum={}, best_cards={}, best_formation={}, best_sum={})",
            if self.provable { "True" } else { "False" },
            self.mine_formation,
            self.mine_sum,
            py_repr(self.best_cards.as_ref()),
            py_repr(self.best_formation.as_ref()),
            py_repr(self.best_sum.as_ref())
        )
    }
}

/// A list of card strings from Python, with a clear error for anything else.
fn card_list(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<String>> {
    let py = obj.py();
    match to_json(obj, what)? {
        Value::Array(items) => items
            .into_iter()
            .map(|v| match v {
                Value::String(s) => Ok(s),
                other => Err(invalid_argument(
                    py,
                    format!(
                        "{what}: {} is not a card (cards are strings such as \"B5\")",
                        spielwerk_core::error::shorten(&other.to_string())
                    ),
                )),
            })
            .collect(),
        _ => Err(invalid_argument(py, format!("{what} must be a list of cards"))),
    }
}

#[pyfunction]
pub fn st_formation(py: Python<'_>, cards: &Bound<'_, PyAny>) -> PyResult<(&'static str, u8)> {
    let cards = card_list(cards, "cards")?;
    let f = st::formation_notation(&cards).map_err(err(py))?;
    Ok((f.kind.name(), f.sum))
}

#[pyfunction]
#[pyo3(signature = (mine, theirs, table, mine_completed_first = true))]
pub fn st_check_claim(
    py: Python<'_>,
    mine: &Bound<'_, PyAny>,
    theirs: &Bound<'_, PyAny>,
    table: &Bound<'_, PyAny>,
    mine_completed_first: bool,
) -> PyResult<ClaimCheck> {
    let (mine, theirs, table) = (
        card_list(mine, "mine")?,
        card_list(theirs, "theirs")?,
        card_list(table, "table")?,
    );
    let c = st::check_claim_notation(&mine, &theirs, &table, mine_completed_first).map_err(err(py))?;
    Ok(ClaimCheck {
        provable: c.provable,
        mine_formation: c.mine.kind.name(),
        mine_sum: c.mine.sum,
        best_cards: c.best.map(|b| b.cards.iter().map(ToString::to_string).collect()),
        best_formation: c.best.map(|b| b.formation.kind.name()),
        best_sum: c.best.map(|b| b.formation.sum),
    })
}

/// T7: does `text` name a number in any form (digits, German or English number words)?
#[pyfunction]
pub fn tg_mentions_number(text: Text) -> bool {
    spielwerk_core::the_game::mentions_number(text.0)
}

/// T7 as the referee says it: an `IllegalActionError` (rule, code, reason in English and
/// German) if `text` names a number, else `None`.
#[pyfunction]
pub fn tg_check_talk<'py>(py: Python<'py>, text: Text<'_>) -> PyResult<Option<Bound<'py, PyAny>>> {
    spielwerk_core::the_game::check_talk(text.0)
        .map(|e| rejection(py, &e))
        .transpose()
}
