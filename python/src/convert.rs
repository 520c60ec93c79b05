//! Arguments from Python, checked before they reach the engine, and results back.
//!
//! JSON-like objects are converted with a bound on their nesting depth; integers of any
//! width and text of any content arrive, and what the engine cannot take is refused with
//! an exception of the `SpielwerkError` family naming what is allowed (a non-integer
//! where an integer belongs stays a `TypeError`).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};
use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Value};
use spielwerk_core::error::Message;
use spielwerk_core::{Action, Error, Lang, msg};

use crate::errors::{invalid_argument, raise};

/// How deeply JSON-like input may nest. Moves and options are flat, views a few levels
/// deep; anything deeper is refused before it can exhaust the stack.
const MAX_DEPTH: usize = 64;

thread_local! {
    /// The scratch list of legal actions, so that read-only calls need no `&mut self`.
    static ACTIONS: RefCell<Vec<Action>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's scratch list of actions.
pub fn with_actions<R>(f: impl FnOnce(&mut Vec<Action>) -> R) -> R {
    ACTIONS.with(|buf| f(&mut buf.borrow_mut()))
}

/// Locks `mutex`, letting other Python threads run while it waits: a thread that holds
/// it may be waiting for the interpreter (a bot's search runs detached, then returns).
/// A lock poisoned by a panic is taken over: every write to what it guards is a whole
/// engine call, which leaves a consistent state or none.
pub fn lock<'a, T: Send>(py: Python<'_>, mutex: &'a Mutex<T>) -> MutexGuard<'a, T> {
    loop {
        match mutex.try_lock() {
            Ok(guard) => return guard,
            Err(TryLockError::Poisoned(poisoned)) => return poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => py.detach(|| drop(mutex.lock())),
        }
    }
}

/// Shows a Python object in an error message, cut short.
pub fn shown(obj: &Bound<'_, PyAny>) -> String {
    let repr = obj.repr().map_or_else(|_| "?".into(), |r| r.to_string());
    spielwerk_core::error::shorten(&repr)
}

/// What `__reduce__` returns: a callable and its arguments.
pub type Reduce<'py, Args> = (Bound<'py, PyAny>, Args);

/// An integer argument: a Python int or anything with `__index__` (numpy integers), of
/// any width up to 128 bits (a wider one is a `SpielwerkError`; the engine says which
/// values a seat, an action or a count may take). A non-integer is a `TypeError`.
#[derive(Clone, Copy)]
pub struct Int(pub i128);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        // The common case first: a machine-word integer.
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Int(i128::from(i)));
        }
        let obj = obj.to_owned();
        if obj.is_instance_of::<PyInt>() || obj.hasattr("__index__").unwrap_or(false) {
            obj.extract::<i128>().map(Int).map_err(|_| {
                let shown = shown(&obj);
                invalid_argument(
                    obj.py(),
                    msg!(
                        "{shown} is out of range: expected an integer from -2**127 to 2**127 - 1",
                        "{shown} liegt außerhalb des Bereichs: erwartet eine ganze Zahl von -2**127 bis 2**127 - 1"
                    ),
                )
            })
        } else {
            Err(PyTypeError::new_err(format!(
                "expected an integer, got {} of type {}",
                shown(&obj),
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            )))
        }
    }
}

/// Seeds are integers in `0..2**64` (numpy integers too); anything else is a
/// `SpielwerkError` naming it.
#[derive(Clone, Copy)]
pub struct Seed(pub u64);

impl<'a, 'py> FromPyObject<'a, 'py> for Seed {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Seed> {
        obj.extract::<u64>().map(Seed).map_err(|_| {
            let shown = shown(&obj.to_owned());
            invalid_argument(
                obj.py(),
                msg!(
                    "seed {shown}: seeds are integers from 0 to 2**64 - 1",
                    "seed {shown}: Startwerte sind ganze Zahlen von 0 bis 2**64 - 1"
                ),
            )
        })
    }
}

/// A text argument: a `str` that is valid Unicode. A lone surrogate (`"\ud800"`, which
/// Python strings may hold and UTF-8 cannot) is a `SpielwerkError`, a non-string a
/// `TypeError`. It borrows the `str` it was given (no copy).
#[derive(Clone, Copy)]
pub struct Text<'a>(pub &'a str);

impl<'a, 'py> FromPyObject<'a, 'py> for Text<'a> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Text<'a>> {
        let s = obj.cast::<PyString>().map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a str, got {} of type {}",
                shown(&obj.to_owned()),
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
            ))
        })?;
        text(s, Error::InvalidArgument).map(Text)
    }
}

/// A `lang` argument: `"de"` or `"en"` (a region such as `"de-CH"` allowed); any other
/// text is a `SpielwerkError`, a non-string a `TypeError`.
#[derive(Clone, Copy)]
pub struct LangArg(pub Lang);

impl<'a, 'py> FromPyObject<'a, 'py> for LangArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<LangArg> {
        let Text(t) = obj.extract()?;
        t.parse().map(LangArg).map_err(|e| raise(obj.py(), &e))
    }
}

/// English, the language of the Python API's texts when `lang` is `None` or not given (as
/// before texts had a language).
pub const DEFAULT_LANG: LangArg = LangArg(Lang::En);

/// The text of `s`, borrowed for as long as `s` is (`Bound::as_borrowed` lends a
/// `Bound`'s); one with a lone surrogate is refused with the error `family` makes of the
/// message.
pub fn text<'a>(s: Borrowed<'a, '_, PyString>, family: impl FnOnce(Message) -> Error) -> PyResult<&'a str> {
    s.extract::<&str>().map_err(|_| {
        let shown = shown(s.as_any());
        raise(
            s.py(),
            &family(msg!(
                "{shown} is not valid Unicode text: it holds a lone surrogate (text is UTF-8)",
                "{shown} ist kein gültiger Unicode-Text: er hält ein einzelnes Ersatzzeichen (Text ist UTF-8)"
            )),
        )
    })
}

/// What a caller's argument is called in German, for the messages about it (`what` as
/// the bindings name it in English; names of arguments stay as they are).
pub fn what_de(what: &str) -> &str {
    match what {
        "a move" => "ein Zug",
        "a view" => "eine Sicht",
        "options" => "die Optionen",
        "bot parameters" => "die Bot-Einstellungen",
        other => other,
    }
}

/// Converts a JSON-like Python object (dict with str keys, list, tuple, str, int, float,
/// bool, None; numpy integers as ints) into JSON, refusing anything else and any nesting
/// deeper than [`MAX_DEPTH`] with the error of the family that fits `what`.
pub fn to_json(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Value> {
    fn convert(
        obj: &Bound<'_, PyAny>,
        depth: usize,
        what: &str,
        family: &dyn Fn(Message) -> Error,
    ) -> PyResult<Value> {
        let json_like = |why: Message| {
            why.map(|why, lang| match lang {
                Lang::De => format!("{} muss JSON-artig sein: {why}", what_de(what)),
                Lang::En => format!("{what} must be JSON-like: {why}"),
            })
        };
        let refuse = |why: Message| raise(obj.py(), &family(json_like(why)));
        let string =
            |s: &Bound<'_, PyString>| text(s.as_borrowed(), |why| family(json_like(why))).map(str::to_owned);
        if depth > MAX_DEPTH {
            return Err(refuse(msg!(
                "it nests deeper than {MAX_DEPTH} levels",
                "es ist tiefer als {MAX_DEPTH} Ebenen verschachtelt"
            )));
        }
        // The common JSON types first, by exact type checks; the `__index__` probe for
        // numpy integers last (a failed attribute lookup costs a raised exception).
        if obj.is_none() {
            Ok(Value::Null)
        } else if let Ok(b) = obj.cast::<PyBool>() {
            Ok(Value::Bool(b.is_true()))
        } else if let Ok(s) = obj.cast::<PyString>() {
            Ok(Value::String(string(s)?))
        } else if let Ok(d) = obj.cast::<PyDict>() {
            let mut map = Map::new();
            for (k, v) in d.iter() {
                let key = k.cast::<PyString>().map_err(|_| {
                    let key = shown(&k);
                    refuse(msg!(
                        "the key {key} is not a string",
                        "der Schlüssel {key} ist keine Zeichenkette"
                    ))
                })?;
                map.insert(string(key)?, convert(&v, depth + 1, what, family)?);
            }
            Ok(Value::Object(map))
        } else if let Ok(l) = obj.cast::<PyList>() {
            l.iter().map(|v| convert(&v, depth + 1, what, family)).collect()
        } else if let Ok(f) = obj.cast::<PyFloat>() {
            serde_json::Number::from_f64(f.value())
                .map(Value::Number)
                .ok_or_else(|| {
                    let shown = shown(obj);
                    refuse(msg!(
                        "{shown} is not a finite number",
                        "{shown} ist keine endliche Zahl"
                    ))
                })
        } else if let Ok(t) = obj.cast::<PyTuple>() {
            t.iter().map(|v| convert(&v, depth + 1, what, family)).collect()
        } else if obj.is_instance_of::<PyInt>() || obj.hasattr("__index__")? {
            if let Ok(i) = obj.extract::<i64>() {
                Ok(Value::from(i))
            } else if let Ok(u) = obj.extract::<u64>() {
                Ok(Value::from(u))
            } else {
                let shown = shown(obj);
                Err(refuse(msg!(
                    "the integer {shown} is out of range (-2**63 to 2**64 - 1)",
                    "die ganze Zahl {shown} liegt außerhalb des Bereichs (-2**63 bis 2**64 - 1)"
                )))
            }
        } else {
            let (shown, kind) = (
                shown(obj),
                obj.get_type().name().map(|n| n.to_string()).unwrap_or_default(),
            );
            Err(refuse(msg!(
                "{shown} of type {kind} is not a dict, list, str, int, float, bool or None",
                "{shown} vom Typ {kind} ist kein dict, list, str, int, float, bool oder None"
            )))
        }
    }
    // The error of the family that fits what was being read.
    let family = |message: Message| match what {
        "a move" => Error::InvalidMove(message),
        "a view" => Error::InvalidView(message),
        "options" => Error::InvalidOption {
            game: "this game",
            message,
        },
        _ => Error::InvalidArgument(message),
    };
    convert(obj, 0, what, &family)
}

/// A move: a JSON-like object as [`to_json`] reads it, or its JSON text as `bytes` (what a
/// server received, parsed once, here; `serde_json` bounds the nesting).
pub fn move_json(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let Ok(text) = obj.cast::<PyBytes>() else {
        return to_json(obj, "a move");
    };
    serde_json::from_slice(text.as_bytes()).map_err(|e| {
        raise(
            obj.py(),
            &Error::InvalidMove(msg!("the move is not JSON: {e}", "der Zug ist kein JSON: {e}")),
        )
    })
}

/// Keyword arguments as a JSON object (`what`: "options", "bot parameters").
pub fn kwargs_json(kwargs: Option<&Bound<'_, PyDict>>, what: &str) -> PyResult<Map<String, Value>> {
    match kwargs {
        None => Ok(Map::new()),
        Some(k) => match to_json(k.as_any(), what)? {
            Value::Object(m) => Ok(m),
            _ => unreachable!("a dict converts to a JSON object"),
        },
    }
}

/// JSON as Python objects.
pub fn to_py<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    pythonize::pythonize(py, value).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// A `threads` argument: 1 to 1024, or `None` for all cores.
pub fn threads_arg(py: Python<'_>, threads: Option<Int>) -> PyResult<Option<usize>> {
    threads
        .map(|t| {
            usize::try_from(t.0)
                .ok()
                .filter(|&t| (1..=1024).contains(&t))
                .ok_or_else(|| {
                    let t = t.0;
                    invalid_argument(
                        py,
                        msg!(
                            "threads {t} must be from 1 to 1024 (or None for all cores)",
                            "threads {t} ist von 1 bis 1024 (oder None für alle Kerne)"
                        ),
                    )
                })
        })
        .transpose()
}

/// A count of games: 0 to 2**64 - 1.
pub fn count_arg(py: Python<'_>, n: Int, what: &str) -> PyResult<u64> {
    u64::try_from(n.0).map_err(|_| {
        let n = n.0;
        invalid_argument(
            py,
            if n < 0 {
                msg!("{what} {n} must be 0 or more", "{what} {n} ist 0 oder mehr")
            } else {
                msg!(
                    "{what} {n} must be at most 2**64 - 1",
                    "{what} {n} ist höchstens 2**64 - 1"
                )
            },
        )
    })
}

/// Runs `work` on another thread without the GIL while this thread watches for signals:
/// Ctrl-C (or any signal handler raising) sets the stop flag `work` polls, waits for it
/// to wind down and raises the handler's exception.
pub fn run_interruptibly<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&(dyn Fn() -> bool + Sync)) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let stopped = || stop.load(Ordering::Relaxed);
    // Set by the worker before it wakes the caller: `is_finished` turns true only once
    // the thread has wound down, a moment after the wake-up, and a caller that missed it
    // would sleep another 50 ms (a batch of quick moves took 50 ms instead of 0.3 ms).
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let caller = std::thread::current();
        let done = &done;
        let worker = scope.spawn(move || {
            let out = work(&stopped);
            done.store(true, Ordering::Release);
            caller.unpark();
            out
        });
        loop {
            py.detach(|| std::thread::park_timeout(Duration::from_millis(50)));
            if done.load(Ordering::Acquire) || worker.is_finished() {
                return Ok(worker.join().expect("the simulation does not panic"));
            }
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                let _ = py.detach(|| worker.join());
                return Err(e);
            }
        }
    })
}
