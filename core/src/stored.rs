//! A state read back from any of its three serialized forms, and where its deal came from.
//!
//! A state is written as readable JSON ([`crate::GameState::to_json`]), as a binary
//! snapshot ([`crate::snapshot`]) or as a compact record of seed, options and actions
//! ([`crate::compact`]). [`read`] tells them apart and reads each; [`Deal`] keeps what a
//! compact form needs: the seed the state was dealt from, if it is known.

use crate::compact;
use crate::error::{Error, Result};
use crate::snapshot;

use crate::dynamic::{DynGame, DynState};

/// A serialized state as it arrives: bytes (a snapshot, or UTF-8 JSON) or text (JSON or
/// a compact record).
#[derive(Clone, Copy, Debug)]
pub enum Stored<'a> {
    Bytes(&'a [u8]),
    Text(&'a str),
}

/// Where a state's deal comes from: a seed makes seed and history a description of the
/// whole state (its compact form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deal {
    /// Read from JSON or a snapshot, or built from a view: no compact form.
    Unknown,
    /// Dealt from this seed by `new_initial_state` or replayed from a compact record.
    Seed(u64),
    /// The seed that a snapshot's carrier (a pickle) names. Such a carrier may come from
    /// anyone and is not replayed on reading (the snapshot makes that unnecessary), so the
    /// seed is checked by replaying on the first [`Deal::compact_form`]: a forged one would
    /// write a record of another game.
    Claimed(u64),
}

impl Deal {
    /// The seed, known or claimed.
    pub fn seed(self) -> Option<u64> {
        match self {
            Deal::Unknown => None,
            Deal::Seed(seed) | Deal::Claimed(seed) => Some(seed),
        }
    }

    /// The compact record of `state` of `game` dealt as `self` says. A claimed seed is
    /// checked first by replaying the record (and is known from then on); a seed that
    /// does not deal the state is [`Error::InvalidState`], a state without a seed
    /// [`Error::InvalidArgument`].
    pub fn compact_form(&mut self, game: &dyn DynGame, state: &dyn DynState) -> Result<String> {
        match *self {
            Deal::Seed(seed) => Ok(compact::write(game, seed, state)),
            Deal::Claimed(seed) => {
                let record = compact::write(game, seed, state);
                let replayed = compact::read(game, &record)
                    .ok()
                    .map(|(_, replayed)| replayed.to_snapshot());
                if replayed != Some(state.to_snapshot()) {
                    return Err(Error::InvalidState(crate::msg!(
                        "the pickle's deal seed {seed} does not deal this state (its actions \
                         replayed from that seed do not lead to it), so it has no compact form; \
                         use serialize() or serialize_snapshot()",
                        "der Startwert {seed} des Pickles gibt nicht diese Stellung (ihre Aktionen, \
                         von diesem Startwert aus nachgespielt, führen nicht zu ihr), also hat sie \
                         keine kompakte Form; nimm serialize() oder serialize_snapshot()"
                    )));
                }
                *self = Deal::Seed(seed);
                Ok(record)
            }
            Deal::Unknown => Err(Error::InvalidArgument(crate::msg!(
                "this state was not dealt from a seed (it was read from JSON or built from a view), \
                 so it has no compact form; use serialize()",
                "diese Stellung wurde nicht von einem Startwert aus gegeben (sie wurde aus JSON \
                 gelesen oder aus einer Sicht gebaut), also hat sie keine kompakte Form; nimm serialize()"
            ))),
        }
    }
}

/// Reads a state of `game` in any of its three forms: a snapshot (bytes), else JSON or a
/// compact record (text, or bytes in UTF-8). `claimed` is the deal's seed that the
/// carrier of a snapshot names ([`Deal::Claimed`]); a compact record names its own seed
/// and is replayed ([`Deal::Seed`]); JSON has none.
pub fn read(
    game: &dyn DynGame,
    stored: Stored<'_>,
    claimed: Option<u64>,
) -> Result<(Box<dyn DynState>, Deal)> {
    let text = match stored {
        Stored::Bytes(bytes) if snapshot::is_snapshot(bytes) => {
            let state = game.deserialize_snapshot(bytes)?;
            return Ok((state, claimed.map_or(Deal::Unknown, Deal::Claimed)));
        }
        Stored::Bytes(bytes) => std::str::from_utf8(bytes).map_err(|_| {
            Error::InvalidState(crate::msg!(
                "bytes that are neither a snapshot nor UTF-8 JSON",
                "Bytes, die weder ein Schnappschuss noch JSON in UTF-8 sind"
            ))
        })?,
        Stored::Text(text) => text,
    };
    if compact::is_compact(text) {
        let (seed, state) = compact::read(game, text)?;
        Ok((state, Deal::Seed(seed)))
    } else {
        Ok((game.deserialize_state(text)?, Deal::Unknown))
    }
}

/// The seat `player` of a game of `players` seats, or [`Error::InvalidArgument`] naming
/// the seats there are (`player` as the caller gave it: any integer, in any width).
pub fn seat(player: i128, players: usize) -> Result<usize> {
    usize::try_from(player)
        .ok()
        .filter(|&p| p < players)
        .ok_or_else(|| {
            let last = players.saturating_sub(1);
            Error::InvalidArgument(crate::msg!(
                "player {player} does not exist: players are 0-{last}",
                "Spieler {player} gibt es nicht: die Spieler sind 0-{last}"
            ))
        })
}

/// The action `action` of a game of `num_actions` actions, or the rejection naming the
/// actions there are ([`crate::IllegalAction::no_such_action`]).
pub fn action(
    action: i128,
    num_actions: usize,
) -> std::result::Result<crate::game::Action, crate::IllegalAction> {
    crate::game::Action::try_from(action)
        .ok()
        .filter(|&a| (a as usize) < num_actions)
        .ok_or_else(|| crate::IllegalAction::no_such_action(action, num_actions))
}

#[cfg(test)]
mod tests {
    use serde_json::Map;

    use super::{Deal, Stored, action, read, seat};
    use crate::error::Error;
    use crate::registry::{list_games, load_game};

    #[test]
    fn the_three_forms_read_back_with_where_their_deal_came_from() {
        for name in list_games() {
            let game = load_game(name, &Map::new()).unwrap();
            let mut state = game.new_initial_state(9);
            let mut legal = Vec::new();
            for _ in 0..12 {
                state.legal_actions_into(&mut legal);
                state.apply_action(legal[legal.len() / 2]).unwrap();
            }
            let snapshot = state.to_snapshot();
            let mut deal = Deal::Seed(9);
            let record = deal.compact_form(game.as_ref(), state.as_ref()).unwrap();
            let json = state.to_json();
            // As Python's json.dumps writes it, and with the fields sorted (`actions` first).
            let spaced = record.replace(',', ", ").replace(':', ": ");
            let sorted = serde_json::from_str::<serde_json::Value>(&record)
                .unwrap()
                .to_string();
            for (stored, claimed, want) in [
                (Stored::Bytes(&snapshot), Some(9), Deal::Claimed(9)),
                (Stored::Bytes(&snapshot), None, Deal::Unknown),
                (Stored::Text(&record), None, Deal::Seed(9)),
                (Stored::Text(&spaced), None, Deal::Seed(9)),
                (Stored::Text(&sorted), None, Deal::Seed(9)),
                (Stored::Bytes(record.as_bytes()), Some(3), Deal::Seed(9)),
                (Stored::Text(&json), Some(9), Deal::Unknown),
            ] {
                let (read, deal) = read(game.as_ref(), stored, claimed).unwrap();
                assert_eq!(read.to_snapshot(), snapshot, "{name}");
                assert_eq!(deal, want, "{name}");
            }
            let not_utf8 = read(game.as_ref(), Stored::Bytes(&[0xff, 0xfe]), None);
            assert!(matches!(not_utf8, Err(Error::InvalidState(_))), "{name}");
        }
    }

    #[test]
    fn a_claimed_seed_is_checked_by_replaying_once() {
        let game = load_game("schotten_totten", &Map::new()).unwrap();
        let mut state = game.new_initial_state(5);
        let mut legal = Vec::new();
        state.legal_actions_into(&mut legal);
        state.apply_action(legal[0]).unwrap();
        let mut honest = Deal::Claimed(5);
        assert!(honest.compact_form(game.as_ref(), state.as_ref()).is_ok());
        assert_eq!(honest, Deal::Seed(5));
        let mut forged = Deal::Claimed(6);
        let err = forged.compact_form(game.as_ref(), state.as_ref()).unwrap_err();
        assert!(
            matches!(&err, Error::InvalidState(m) if m.en.contains("seed 6") && m.de.contains("Startwert 6")),
            "{err}"
        );
        assert_eq!(forged, Deal::Claimed(6));
        let err = Deal::Unknown
            .compact_form(game.as_ref(), state.as_ref())
            .unwrap_err();
        assert!(matches!(err, Error::InvalidArgument(_)));
    }

    #[test]
    fn seats_and_actions_of_any_width_are_checked_against_the_game() {
        assert_eq!(seat(1, 2).unwrap(), 1);
        for bad in [2, -1, 1 << 70, i128::MIN] {
            let err = seat(bad, 2).unwrap_err().to_string();
            assert!(
                err.contains(&format!("player {bad} does not exist: players are 0-1")),
                "{err}"
            );
        }
        assert_eq!(action(79, 80).unwrap(), 79);
        let huge = action(1 << 70, 80).unwrap_err();
        assert_eq!(huge.code, "no_such_action");
        assert!(huge.reason.contains("actions are 0-79"), "{}", huge.reason);
        assert_eq!(
            huge.params["action"],
            serde_json::json!((1i128 << 70).to_string())
        );
        assert_eq!(
            action(-1, 80).unwrap_err().params["action"],
            serde_json::json!(-1)
        );
    }
}
