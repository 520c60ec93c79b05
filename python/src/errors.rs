//! Engine errors as exceptions of the `SpielwerkError` family (`spielwerk.errors`), each
//! carrying its code and, for a rejected move, its ruling and reasons.

use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;
use spielwerk_core::{Error, IllegalAction};

/// An exception class of `spielwerk.errors` built with its keyword fields.
fn spielwerk_error<'py>(
    py: Python<'py>,
    class: &str,
    message: &str,
    code: &str,
    rejection: Option<&IllegalAction>,
) -> PyResult<Bound<'py, PyAny>> {
    let class = py.import("spielwerk.errors")?.getattr(class)?;
    let kwargs = PyDict::new(py);
    kwargs.set_item("code", code)?;
    if let Some(r) = rejection {
        kwargs.set_item("rule", r.rule)?;
        let params = pythonize::pythonize(py, &Value::Object(r.params.clone()))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        kwargs.set_item("params", params)?;
        kwargs.set_item("reason", &r.reason)?;
        kwargs.set_item("reason_de", &r.reason_de)?;
    }
    class.call((message,), Some(&kwargs))
}

/// A rejection as an `IllegalActionError` instance (returned by `check_move`, raised by
/// `apply_action`). Its `str()` is `"{rule}: {reason}"`.
pub fn rejection<'py>(py: Python<'py>, e: &IllegalAction) -> PyResult<Bound<'py, PyAny>> {
    spielwerk_error(py, "IllegalActionError", &e.to_string(), e.code, Some(e))
}

/// The exception of an engine error.
pub fn raise(py: Python<'_>, err: &Error) -> PyErr {
    let class = match err {
        Error::UnknownGame { .. } => "UnknownGameError",
        Error::InvalidOption { .. } => "InvalidOptionError",
        Error::InvalidState(_) | Error::InvalidView(_) => "InvalidStateError",
        Error::InvalidMove(_) | Error::InvalidCard { .. } => "InvalidMoveError",
        Error::Illegal(e) => return raise_illegal(py, e),
        Error::Interrupted => return PyKeyboardInterrupt::new_err("simulation interrupted"),
        Error::InvalidArgument(_) | Error::UnknownBot { .. } | Error::InvalidBotParams(_) => "SpielwerkError",
    };
    match spielwerk_error(py, class, &cut(&err.to_string()), err.code(), None) {
        Ok(exc) => PyErr::from_value(exc),
        Err(e) => e,
    }
}

/// A message cut to a length a log line or an HTTP body can carry: only a message that
/// repeats caller input can be this long.
fn cut(message: &str) -> String {
    const LONGEST: usize = 600;
    match message.char_indices().nth(LONGEST) {
        None => message.to_string(),
        Some((at, _)) => format!("{}… (cut)", &message[..at]),
    }
}

/// A rejected move as the `IllegalActionError` it raises.
pub fn raise_illegal(py: Python<'_>, e: &IllegalAction) -> PyErr {
    match rejection(py, e) {
        Ok(exc) => PyErr::from_value(exc),
        Err(err) => err,
    }
}

/// Maps an engine error to its exception (for `map_err`, where `py` is at hand).
pub fn err(py: Python<'_>) -> impl Fn(Error) -> PyErr + '_ {
    move |e| raise(py, &e)
}

/// A `SpielwerkError` (code `invalid_argument`) saying what was wrong.
pub fn invalid_argument(py: Python<'_>, message: String) -> PyErr {
    raise(py, &Error::InvalidArgument(message))
}
