//! Who sits where, as the texts for people name them.
//!
//! The engine's ids count seats, teams, stones and marbles from 0 (as JSON and the API's
//! fields do); a person counts from 1. Every text a person reads names a seat through
//! [`Names`]: the name the match gave it ("Anna", "Bot stark") or, without one, "Spieler 1"
//! / "player 1". So a result reads "Anna gewinnt: fünf Steine" on the site and "Spieler 2
//! gewinnt: fünf Steine" in a terminal, and never "Spieler 0".

use crate::lang::Lang;

/// The longest name a text repeats (a caller may give anything; a text stays a line).
const NAME_CHARS: usize = 40;

/// A seat's, team's or marble's number as a person reads it: counted from 1.
pub fn shown(id: impl Into<usize>) -> usize {
    id.into() + 1
}

/// The display name of each seat, for texts a person reads: a person's given name, a bot
/// by its level ("Bot stark" / "bot strong"), else "Spieler 1" / "player 1" (counted
/// from 1).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    seats: Vec<Option<String>>,
    bots: Vec<Option<String>>,
}

impl Names {
    /// The given names by seat (`None` or an empty name: the seat's number). A name longer
    /// than 40 characters is cut, so a caller's name cannot swell a text.
    pub fn new(seats: impl IntoIterator<Item = Option<String>>) -> Self {
        let seats = seats
            .into_iter()
            .map(|name| {
                name.map(|n| n.trim().chars().take(NAME_CHARS).collect::<String>())
                    .filter(|n| !n.is_empty())
            })
            .collect();
        Self {
            seats,
            bots: Vec::new(),
        }
    }

    /// The bots by seat (a level's name such as `"strong"`, or a bot's such as
    /// `"heuristic"`), for the seats that have no given name.
    #[must_use]
    pub fn with_bots(mut self, bots: impl IntoIterator<Item = Option<String>>) -> Self {
        self.bots = bots
            .into_iter()
            .map(|bot| bot.map(|b| b.chars().take(NAME_CHARS).collect()))
            .collect();
        self
    }

    /// How many seats have an entry (a name or a bot, given or not).
    pub fn len(&self) -> usize {
        self.seats.len().max(self.bots.len())
    }

    /// Whether no seat has an entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `seat`'s name in `lang`: the given one, else its bot ("Bot stark"), else
    /// "Spieler 3" / "player 3".
    pub fn seat(&self, seat: usize, lang: Lang) -> String {
        if let Some(Some(name)) = self.seats.get(seat) {
            return name.clone();
        }
        match self.bots.get(seat) {
            Some(Some(bot)) => bot_name(bot, lang),
            _ => seat_number(seat, lang),
        }
    }

    /// Several seats: "Anna und Spieler 3" / "Anna and player 3", "A, B und C".
    pub fn seats(&self, seats: &[usize], lang: Lang) -> String {
        let names: Vec<String> = seats.iter().map(|&s| self.seat(s, lang)).collect();
        and_list(&names, lang)
    }
}

/// "Spieler 3" / "player 3" for seat 2: the seat by its number, counted from 1.
pub fn seat_number(seat: usize, lang: Lang) -> String {
    let n = shown(seat);
    lang.pick(format!("Spieler {n}"), format!("player {n}"))
}

/// "Bot stark" / "bot strong" for the level `strong`; a bot that is no level by its own
/// name ("Bot heuristic"). The levels' words are the page's (leicht, normal, stark).
pub fn bot_name(bot: &str, lang: Lang) -> String {
    let level = match (bot, lang) {
        ("easy", Lang::De) => "leicht",
        ("strong", Lang::De) => "stark",
        (other, _) => other,
    };
    lang.pick(format!("Bot {level}"), format!("bot {level}"))
}

/// "Partei 1" / "team 1" for team 0 (Dog's teams, counted from 1).
pub fn team_number(team: usize, lang: Lang) -> String {
    let n = shown(team);
    lang.pick(format!("Partei {n}"), format!("team {n}"))
}

/// "a", "a und b", "a, b und c" (English: "and").
pub fn and_list(items: &[String], lang: Lang) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, first)) => format!("{} {} {last}", first.join(", "), lang.pick("und", "and")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_named_or_counted_from_one() {
        let names = Names::new([Some("Anna".to_string()), None, Some("  ".to_string())]);
        assert_eq!(names.seat(0, Lang::De), "Anna");
        assert_eq!(names.seat(1, Lang::De), "Spieler 2");
        assert_eq!(names.seat(2, Lang::En), "player 3", "a blank name is no name");
        assert_eq!(
            names.seat(7, Lang::De),
            "Spieler 8",
            "seats past the list are numbered"
        );
        assert_eq!(Names::default().seat(0, Lang::En), "player 1");
        assert_eq!(names.seats(&[0, 1, 2], Lang::De), "Anna, Spieler 2 und Spieler 3");
        assert_eq!(names.seats(&[0, 2], Lang::En), "Anna and player 3");
        assert_eq!(team_number(1, Lang::De), "Partei 2");
        let names = names.with_bots([None, Some("strong".to_string()), Some("heuristic".to_string())]);
        assert_eq!(names.seat(0, Lang::De), "Anna", "a given name goes first");
        assert_eq!(names.seat(1, Lang::De), "Bot stark");
        assert_eq!(names.seat(1, Lang::En), "bot strong");
        assert_eq!(names.seat(2, Lang::De), "Bot heuristic");
        assert_eq!(names.len(), 3);
    }

    #[test]
    fn results_and_match_endings_name_the_seats() {
        use crate::bots::RandomBot;
        use crate::game::{Game, GameState, MatchEnd};
        use crate::schotten_totten::SchottenTotten;
        let names = Names::new([Some("Anna".to_string()), Some("Bot stark".to_string())]);
        let mut state = SchottenTotten::default().new_initial_state(7);
        let ending = state.match_ending_named(MatchEnd::Time(1), Lang::De, &names);
        assert_eq!(ending.text, "Bot stark hat die Zeit überschritten: Anna gewinnt");
        assert_eq!(
            ending.rule,
            Some("C11"),
            "the rule is a field, not a code in the sentence"
        );
        let ending = state.match_ending_named(MatchEnd::Aborted(0), Lang::En, &Names::default());
        assert_eq!(ending.text, "aborted: player 1 did not make a first move in time");
        assert_eq!(state.match_ending_in(MatchEnd::Resigned(0), Lang::De).rule, None);
        let mut bot = RandomBot::new(3);
        while let Some(a) = bot.step(&state) {
            state.apply_action(a).unwrap();
        }
        let winner = state.returns().iter().position(|&r| r > 0.0);
        let named = state.result_text_named(Lang::De, &names).unwrap();
        let plain = state.result_text_in(Lang::De).unwrap();
        let (name, number) = match winner {
            Some(0) => ("Anna", "Spieler 1"),
            Some(_) => ("Bot stark", "Spieler 2"),
            None => ("unentschieden", "unentschieden"),
        };
        assert!(
            named.starts_with(name) && plain.starts_with(number),
            "{named} / {plain}"
        );
        assert!(!named.contains("Spieler 0"), "{named}");
    }

    #[test]
    fn german_texts_say_cards_as_a_german_player_does() {
        use crate::{caravan, dog, schotten_totten};
        let card = |s: &str| s.parse::<schotten_totten::cards::Card>().unwrap();
        assert_eq!(card("B5").name_de(), "Blau 5");
        assert_eq!(
            card("Y9").name_de(),
            "Gelb 9",
            "Y and G: the colours by name, no letters"
        );
        let card = |s: &str| s.parse::<caravan::cards::Card>().unwrap();
        let names: Vec<String> = ["8C", "AS", "QH", "KD", "JC", "10H", "JK2"]
            .iter()
            .map(|c| card(c).name_de())
            .collect();
        let expected = [
            "Kreuz 8",
            "Pik Ass",
            "Herz Dame",
            "Karo König",
            "Kreuz Bube",
            "Herz 10",
            "Joker 2",
        ];
        assert_eq!(names, expected);
        let card = |s: &str| s.parse::<dog::cards::Card>().unwrap();
        let names: Vec<&str> = ["A", "7", "J", "Q", "K", "JK"]
            .iter()
            .map(|c| card(c).name_de())
            .collect();
        assert_eq!(names, ["As", "7", "Bube", "Dame", "König", "Joker"]);
    }

    #[test]
    fn a_long_name_is_cut() {
        let names = Names::new([Some("x".repeat(500))]);
        assert_eq!(names.seat(0, Lang::De).chars().count(), NAME_CHARS);
    }
}
