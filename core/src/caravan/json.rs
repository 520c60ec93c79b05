//! Reading states: every inconsistent position is refused with what is wrong and what is
//! allowed, so that a state that is read plays to its end without panicking. What can be
//! derived (the outcome, C9) is derived and compared, never trusted.

use super::cards::{Card, Kind, NUM_FACES};
use super::rules::HAND_SIZE;
use super::state::{Outcome, State};
use super::table::{Owned, owner_of};
use crate::error::{Error, Message, Result};
use crate::game::{GameState, Lang};

/// The caravans each player builds (C2).
const NUM_OWN_CARAVANS: usize = 3;

/// The most starting hands *Frische Hand* shows before it keeps one (the deal's bound).
const MAX_SHOWN_HANDS: usize = 100;

impl State {
    pub(super) fn validate(&self) -> Result<()> {
        let bad = |m: Message| Err(Error::InvalidState(m));
        let rules = &self.rules;
        if self.current > 1 || self.first_player > 1 {
            let (current, first) = (self.current, self.first_player);
            return bad(crate::msg!(
                "current {current} and first_player {first}: players are 0 and 1",
                "current {current} und first_player {first}: die Spieler sind 0 und 1"
            ));
        }
        // The table first: everything below counts cards by their owners.
        for (i, c) in self.caravans.iter().enumerate() {
            for (j, slot) in c.slots.iter().enumerate() {
                let Owned { card, owner } = slot.number;
                if !card.is_number() {
                    return bad(crate::msg!(
                        "caravan {i}, number card {j}: {card} is no number card (A-10)",
                        "Route {i}, Zahlenkarte {j}: {card} ist keine Zahlenkarte (A-10)"
                    ));
                }
                if usize::from(owner) != owner_of(i) {
                    let own = owner_of(i);
                    return bad(crate::msg!(
                        "caravan {i}, number card {j}: {card} belongs to player {owner}, but number cards come from the caravan's owner, player {own} (C5)",
                        "Route {i}, Zahlenkarte {j}: {card} gehört Spieler {owner}, doch Zahlenkarten kommen vom Besitzer der Route, Spieler {own} (C5)"
                    ));
                }
                for f in &slot.faces {
                    if f.owner > 1 {
                        let (card, owner) = (f.card, f.owner);
                        return bad(crate::msg!(
                            "caravan {i}, number card {j}: {card} belongs to player {owner}: players are 0 and 1",
                            "Route {i}, Zahlenkarte {j}: {card} gehört Spieler {owner}: die Spieler sind 0 und 1"
                        ));
                    }
                    match f.card.kind() {
                        Kind::Number(_) => {
                            let card = f.card;
                            return bad(crate::msg!(
                                "caravan {i}, number card {j}: {card} lies on a number card, which carries face cards only (Q, K, jokers)",
                                "Route {i}, Zahlenkarte {j}: {card} liegt an einer Zahlenkarte, die nur Bildkarten trägt (Q, K, Joker)"
                            ));
                        }
                        Kind::Jack => {
                            let card = f.card;
                            return bad(crate::msg!(
                                "caravan {i}, number card {j}: a jack ({card}) never stays on the table: it leaves with its card (C7)",
                                "Route {i}, Zahlenkarte {j}: ein Bube ({card}) bleibt nie liegen: er geht mit seiner Karte (C7)"
                            ));
                        }
                        _ => {}
                    }
                }
                if !rules.unlimited_face_cards && slot.faces.len() > 3 {
                    let n = slot.faces.len();
                    return bad(crate::msg!(
                        "caravan {i}, number card {j} carries {n} face cards: at most 3 (C6)",
                        "Route {i}, Zahlenkarte {j} trägt {n} Bildkarten: höchstens 3 (C6)"
                    ));
                }
            }
            if c.kept.is_some() && !rules.fixed_course {
                return bad(crate::msg!(
                    "caravan {i} keeps a direction, which only fixed_course does (C3)",
                    "Route {i} behält eine Richtung, was nur fixed_course tut (C3)"
                ));
            }
        }
        let mut base = [0usize; NUM_FACES];
        rules.base_deck().iter().for_each(|c| base[c.index()] += 1);
        // `what`: the place in English and in German.
        let too_many = |p: usize, what: [&str; 2], counts: &[usize; NUM_FACES], most: &[usize; NUM_FACES]| {
            (0..NUM_FACES).find(|&i| counts[i] > most[i]).map(|i| {
                let ([en, de], n, card, there) = (what, counts[i], Card::from_index(i as u8), most[i]);
                Error::InvalidState(crate::msg!(
                    "player {p}'s {en} hold {n} of {card}, but there are {there}",
                    "{de} von Spieler {p} halten {n}-mal {card}, doch es gibt sie {there}-mal"
                ))
            })
        };
        for p in 0..2 {
            let mut cards = [0usize; NUM_FACES];
            let on_table = self
                .caravans
                .iter()
                .flat_map(super::table::Caravan::cards)
                .filter(|o| usize::from(o.owner) == p)
                .map(|o| &o.card);
            for card in self.decks[p]
                .iter()
                .chain(&self.hands[p])
                .chain(&self.discards[p])
                .chain(on_table)
            {
                cards[card.index()] += 1;
            }
            if let Some(e) = too_many(p, ["cards", "die Karten"], &cards, &base) {
                return Err(e);
            }
            let total: usize = cards.iter().sum();
            if total != rules.deck_size() {
                let deck = rules.deck_size();
                return bad(crate::msg!(
                    "player {p}'s cards number {total} (deck, hand, discard pile and table), a deck has {deck}",
                    "Spieler {p} hat {total} Karten (Deck, Hand, Ablagestapel und Tisch), ein Deck hat {deck}"
                ));
            }
            if !self.hands[p].is_sorted() {
                return bad(crate::msg!(
                    "player {p}'s hand must be sorted",
                    "die Hand von Spieler {p} muss sortiert sein"
                ));
            }
            if self.hands[p].len() > HAND_SIZE {
                let n = self.hands[p].len();
                return bad(crate::msg!(
                    "player {p}'s hand holds {n} cards: at most {HAND_SIZE}",
                    "die Hand von Spieler {p} hält {n} Karten: höchstens {HAND_SIZE}"
                ));
            }
            // *Neu mischen* (C10).
            let used = self.reshuffles[p];
            if used > 2 || (used > 0 && !rules.reshuffle) {
                let (allowed, erlaubt) = if rules.reshuffle {
                    ("0-2", "0-2")
                } else {
                    ("0 without reshuffle", "0 ohne reshuffle")
                };
                return bad(crate::msg!(
                    "player {p} has reshuffled {used} times: allowed are {allowed}",
                    "Spieler {p} hat {used}-mal neu gemischt: erlaubt sind {erlaubt}"
                ));
            }
            let pile = &self.reshuffled[p];
            if pile.is_empty() != (used == 0) {
                return bad(crate::msg!(
                    "player {p}'s reshuffled pile is shown exactly when they have reshuffled ({used} times)",
                    "der neu gemischte Stapel von Spieler {p} ist genau dann zu sehen, wenn er neu gemischt hat ({used}-mal)"
                ));
            }
            if !pile.is_sorted() {
                return bad(crate::msg!(
                    "player {p}'s reshuffled pile must be sorted",
                    "der neu gemischte Stapel von Spieler {p} muss sortiert sein"
                ));
            }
            let mut in_pile = [0usize; NUM_FACES];
            for c in pile {
                in_pile[c.index()] += 1;
            }
            if let Some(e) = too_many(
                p,
                ["reshuffled pile", "die neu gemischten Karten"],
                &in_pile,
                &cards,
            ) {
                return Err(e);
            }
            if used > 0 {
                let mut in_deck = [0usize; NUM_FACES];
                self.decks[p].iter().for_each(|c| in_deck[c.index()] += 1);
                if let Some(i) = (0..NUM_FACES).find(|&i| in_deck[i] > in_pile[i]) {
                    let card = Card::from_index(i as u8);
                    return bad(crate::msg!(
                        "player {p}'s deck holds {card}, which is not in their reshuffled pile: since a reshuffle the deck holds only its cards (C10)",
                        "das Deck von Spieler {p} hält {card}, die nicht unter den neu gemischten Karten ist: seit dem Neumischen hält das Deck nur diese (C10)"
                    ));
                }
            }
            // *Frische Hand* (C10).
            let shown = &self.shown_hands[p];
            if !shown.is_empty() && !rules.fresh_hand {
                return bad(crate::msg!(
                    "player {p} has shown starting hands, which only fresh_hand does",
                    "Spieler {p} hat Starthände gezeigt, was nur fresh_hand tut"
                ));
            }
            if shown.len() > MAX_SHOWN_HANDS {
                let n = shown.len();
                return bad(crate::msg!(
                    "player {p} has shown {n} starting hands: at most {MAX_SHOWN_HANDS}",
                    "Spieler {p} hat {n} Starthände gezeigt: höchstens {MAX_SHOWN_HANDS}"
                ));
            }
            for hand in shown {
                let numbers = hand.iter().filter(|c| c.is_number()).count();
                if hand.len() != HAND_SIZE || numbers >= 3 || !hand.is_sorted() {
                    return bad(crate::msg!(
                        "player {p}'s shown starting hands are {HAND_SIZE} sorted cards with fewer than 3 number cards each (C10)",
                        "die gezeigten Starthände von Spieler {p} sind je {HAND_SIZE} sortierte Karten mit weniger als 3 Zahlenkarten (C10)"
                    ));
                }
                let mut in_hand = [0usize; NUM_FACES];
                for c in hand {
                    in_hand[c.index()] += 1;
                }
                if let Some(e) = too_many(
                    p,
                    ["shown starting hand", "die gezeigte Starthand"],
                    &in_hand,
                    &cards,
                ) {
                    return Err(e);
                }
            }
            // C2: the opening places one number card onto each empty caravan of one's own,
            // and ends when all three first hold a card.
            if self.in_opening(p)
                && let Some(i) = (3 * p..3 * p + 3).find(|&i| self.caravans[i].slots.len() > 1)
            {
                let n = self.caravans[i].slots.len();
                return bad(crate::msg!(
                    "player {p} is in the opening, yet caravan {i} holds {n} number cards: the opening places one card onto each empty caravan (C2)",
                    "Spieler {p} ist in der Eröffnung, doch Route {i} hält {n} Zahlenkarten: die Eröffnung legt eine Karte an jede leere Route (C2)"
                ));
            }
            if self.in_opening(p)
                && self.caravans[3 * p..3 * p + 3]
                    .iter()
                    .all(|c| !c.slots.is_empty())
            {
                return bad(crate::msg!(
                    "player {p} is in the opening, yet all three of their caravans hold a card: the opening ends when they first do (C2)",
                    "Spieler {p} ist in der Eröffnung, doch alle drei seiner Routen halten eine Karte: die Eröffnung endet, sobald sie das tun (C2)"
                ));
            }
            // C2, C8: the deal gives 8 cards; every caravan of one's own that holds a card got
            // its first in the opening, placed without drawing (a jack may have emptied one
            // since, which takes another placement), and every later play or discard draws at
            // most one card back, disbanding none. So in the opening a hand holds at most 8
            // minus the own caravans holding a card, after it at most 5.
            let placed = (3 * p..3 * p + NUM_OWN_CARAVANS)
                .filter(|&i| !self.caravans[i].slots.is_empty())
                .count();
            let most = HAND_SIZE
                - if self.in_opening(p) {
                    placed
                } else {
                    NUM_OWN_CARAVANS
                };
            if self.hands[p].len() > most {
                let (when, wann) = if self.in_opening(p) {
                    (
                        format!("in the opening with {placed} of their caravans holding a card"),
                        format!("in der Eröffnung, während {placed} seiner Routen eine Karte halten"),
                    )
                } else {
                    ("after the opening".to_string(), "nach der Eröffnung".to_string())
                };
                let n = self.hands[p].len();
                return bad(crate::msg!(
                    "player {p}'s hand holds {n} cards {when}: each caravan's first card was placed \
                     from the {HAND_SIZE} dealt without drawing and every later move draws at most \
                     one back, so at most {most} (C2, C8)",
                    "die Hand von Spieler {p} hält {n} Karten {wann}: die erste Karte jeder Route kam \
                     ohne Nachziehen aus den {HAND_SIZE} ausgeteilten, und jeder spätere Zug zieht \
                     höchstens eine nach, also höchstens {most} (C2, C8)"
                ));
            }
        }
        // C9: the outcome follows from the position.
        let derived = self.derived_outcome();
        if self.outcome != derived {
            let show = |o: Option<Outcome>, lang: Lang| match o {
                None => lang.pick("läuft noch", "running").to_string(),
                Some(o) => format!(
                    "{} ({})",
                    match (o.winner, lang) {
                        (None, _) => lang.pick("unentschieden", "a draw").to_string(),
                        (Some(w), Lang::De) => format!("Spieler {w} gewinnt"),
                        (Some(w), Lang::En) => format!("player {w} wins"),
                    },
                    serde_json::to_value(o.reason)
                        .map(|v| v.to_string())
                        .unwrap_or_default()
                ),
            };
            let (says, gives) = (show(self.outcome, Lang::En), show(derived, Lang::En));
            let (sagt, ergibt) = (show(self.outcome, Lang::De), show(derived, Lang::De));
            return bad(crate::msg!(
                "the outcome says {says}, but the position gives {gives} (C9)",
                "das Ergebnis sagt {sagt}, doch die Stellung ergibt {ergibt} (C9)"
            ));
        }
        if self.outcome.is_none() {
            let me = self.current as usize;
            if self.needs_refill(me) {
                return bad(crate::msg!(
                    "player {me} is to move with an empty hand and cards in the deck: they would have drawn one",
                    "Spieler {me} ist mit leerer Hand und Karten im Deck am Zug: er hätte eine nachgezogen"
                ));
            }
            if self.legal_actions().is_empty() {
                return bad(crate::msg!(
                    "player {me} is to move but has no legal action, yet the game is not over",
                    "Spieler {me} ist am Zug, hat aber keine erlaubte Aktion, doch das Spiel ist nicht vorbei"
                ));
            }
        }
        if let Some(a) = self.history.iter().find(|&a| a as usize >= rules.num_actions()) {
            let last = rules.num_actions() - 1;
            return bad(crate::msg!(
                "the history holds action {a}: actions are 0-{last}",
                "der Verlauf hält Aktion {a}: die Aktionen sind 0-{last}"
            ));
        }
        Ok(())
    }
}
