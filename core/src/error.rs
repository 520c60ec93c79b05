//! Typed errors. Every message says what was wrong and what is allowed.

/// A well-formed action that the rules forbid in this state.
///
/// `rule` is the ruling that forbids it (e.g. `"S5"`); the state it was checked
/// against is left exactly as it was.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{rule}: {reason}")]
pub struct IllegalAction {
    pub rule: &'static str,
    pub reason: String,
}

impl IllegalAction {
    pub fn new(rule: &'static str, reason: impl Into<String>) -> Self {
        Self {
            rule,
            reason: reason.into(),
        }
    }

    /// An id outside the game's action space `0..num_actions`.
    pub fn no_such_action(action: u32, num_actions: usize) -> Self {
        Self::new(
            "actions",
            format!(
                "action {action} does not exist: actions are 0-{}",
                num_actions - 1
            ),
        )
    }
}

/// Everything that can go wrong when talking to the engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error("unknown game '{name}': available games are {available}")]
    UnknownGame { name: String, available: String },
    #[error("invalid option for {game}: {message}")]
    InvalidOption { game: &'static str, message: String },
    #[error("invalid card '{card}': {allowed}")]
    InvalidCard { card: String, allowed: String },
    #[error("invalid move: {0}")]
    InvalidMove(String),
    #[error("invalid state: {0}")]
    InvalidState(String),
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    #[error("illegal action: {0}")]
    Illegal(#[from] IllegalAction),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
