//! What one seat sees of The Game (its information state), the moves as JSON, and the
//! way back from a view to a full state by dealing the unseen cards.
//!
//! Which played cards the view carries: the played cards are public (everybody sees
//! them laid down), and the cards a seat cannot see are exactly the 98 minus its own
//! hand minus the played cards, so the view must name the played cards for
//! `state_from_view` to know which cards to deal. It carries them as one set: on which
//! pile and in which order a card was laid matters for nothing that follows (a card is
//! measured only against a pile's top, T4; the score only counts cards, T6), so a
//! finer record would only split equal information states apart. The tops and the
//! number of cards per pile are shown as the board shows them.

use rand::RngExt;
use rand::seq::SliceRandom;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cards::Hand;
use super::json::{check_counts, check_piles};
use super::rules::{NUM_PILES, TheGame, ascending, fits};
use super::state::State;
use super::text::pile_label;
use crate::error::{Error, Message, Result};
use crate::game::{GameState, Lang};
use crate::rng;

/// Exactly what one seat (or, with `player` null, a spectator) may see of The Game: an
/// information state. Two positions with equal views are alike for that seat.
#[derive(Serialize, Deserialize, JsonSchema, Clone, PartialEq, Eq, Debug)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "TheGameView")]
pub struct View {
    /// The game: always `"the_game"`.
    pub game: GameName,
    /// The seat this view belongs to (0-based); null in the public view for spectators.
    pub player: Option<u8>,
    /// The number of players, 1-5 (T2).
    pub players: u8,
    /// Whether the pro variant is on: at least three cards per turn while the draw pile
    /// has cards (T3).
    pub pro: bool,
    /// The seat to move (0-based); null once the game is over.
    pub current_player: Option<u8>,
    /// The four piles (T1): 0 and 1 ascend from 1, 2 and 3 descend from 100. On screen
    /// they are "ascending pile 1", "ascending pile 2", "descending pile 1" and
    /// "descending pile 2".
    pub piles: [PileView; NUM_PILES],
    /// Every card played so far, on any pile, ascending (the tops included). Played
    /// cards are public; the cards nobody can see are the rest.
    pub played_cards: Hand,
    /// The number of cards left in the draw pile (its cards and order are hidden).
    pub draw_pile_size: u8,
    /// The seat's own hand, ascending; null in the public view.
    pub hand: Option<Hand>,
    /// How many cards each seat holds, by seat.
    pub hand_sizes: Vec<u8>,
    /// How many cards the player to move has played in this turn so far (in a lost game:
    /// in the turn that could not be completed).
    pub played_this_turn: u8,
    /// The fewest cards this turn must play before it may end (T3): 2 (pro 3) while the
    /// draw pile has cards, 1 once it is empty.
    pub minimum: u8,
    /// The result once the game is over (T6); null while it runs.
    pub outcome: Option<ViewOutcome>,
}

/// The name of the game in a view.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[schemars(rename = "TheGameName")]
pub enum GameName {
    #[serde(rename = "the_game")]
    TheGame,
}

/// Whether a pile ascends or descends (T1, T4).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "TheGameDirection")]
pub enum Direction {
    /// Starts at 1; takes a higher card or one exactly 10 lower.
    Ascending,
    /// Starts at 100; takes a lower card or one exactly 10 higher.
    Descending,
}

/// One pile as everyone sees it.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "TheGamePile")]
pub struct PileView {
    /// Ascending (piles 0 and 1) or descending (piles 2 and 3).
    pub direction: Direction,
    /// The top card: the one the next card is measured against; 1 or 100 while the
    /// pile is empty.
    pub top: u8,
    /// How many cards were played on this pile.
    pub cards_played: u8,
    /// What this pile takes from the seat's hand now (T4): the seat's hand cards that fit
    /// it, ascending. On the seat's own turn in a running game these are exactly its
    /// legal plays onto this pile (T3). Only in a seat's view for people (`view`,
    /// `view_json`): the public view has none (the hands are hidden), nor has the typed
    /// view bots and tensors use. Derived from the hand and the top: on input it may be
    /// left out or null; if given it must be what they give, or the view is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takes: Option<Hand>,
    /// Of `takes`, the card that fits only by the backward trick (T4: exactly 10 lower
    /// than the top of an ascending pile, exactly 10 higher on a descending one); empty
    /// when the hand holds none. Present and derived exactly as `takes`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backward: Option<Hand>,
}

/// The end of the game (T6).
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "TheGameOutcome")]
pub struct ViewOutcome {
    /// Every card was played: the players won.
    pub won: bool,
    /// The cards left in all hands plus the draw pile; every player's return is minus
    /// this (R1).
    pub score: u32,
    /// In a lost game the player to move who had not played the turn's minimum and
    /// could play no card (T6); null when the players won.
    pub stuck_player: Option<u8>,
}

/// A move as JSON.
#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(rename = "TheGameMove")]
pub enum Move {
    /// Play one card from the hand onto a pile (T3, T4).
    Play {
        /// The card, 2-99.
        #[schemars(range(min = 2, max = 99))]
        card: i64,
        /// The pile, 0-3: 0 and 1 ascend from 1, 2 and 3 descend from 100.
        #[schemars(range(min = 0, max = 3))]
        pile: i64,
    },
    /// End the turn once its minimum is played (T3); the player then draws as many cards
    /// as were played.
    // A struct variant: serde ignores unknown fields after the tag of a unit variant,
    // and `{"type": "end_turn", "x": 1}` must be refused.
    EndTurn {},
}

/// The view of `seat` (`None`: the public view).
pub(super) fn view_of(state: &State, seat: Option<usize>) -> View {
    let pile = |p: usize| PileView {
        direction: if ascending(p) {
            Direction::Ascending
        } else {
            Direction::Descending
        },
        top: state.tops[p],
        cards_played: state.pile_sizes[p],
        takes: None,
        backward: None,
    };
    View {
        game: GameName::TheGame,
        player: seat.map(|p| p as u8),
        players: state.rules.players,
        pro: state.rules.pro,
        current_player: state.current_player().map(|p| p as u8),
        piles: [pile(0), pile(1), pile(2), pile(3)],
        played_cards: state.played_cards(),
        draw_pile_size: state.draw_pile.len() as u8,
        hand: seat.map(|p| state.hands[p]),
        hand_sizes: state.hands.iter().map(|h| h.len() as u8).collect(),
        played_this_turn: state.played_this_turn,
        minimum: state.minimum() as u8,
        outcome: state.outcome.map(|o| ViewOutcome {
            won: o.won,
            score: o.score,
            stuck_player: state.stuck_player().map(|p| p as u8),
        }),
    }
}

/// The facts of every pile for `hand` (T4): the cards that fit it, and of those the one
/// that fits by the backward trick. Four masks over at most eight cards: cheap, but kept
/// out of `view_of` so that the views bots and tensors use stay as they were.
fn pile_facts(hand: Hand, tops: [u8; NUM_PILES]) -> [(Hand, Hand); NUM_PILES] {
    std::array::from_fn(|p| {
        let top = tops[p];
        let takes: Hand = hand.iter().filter(|&c| fits(c, top, p)).collect();
        // The one card the trick allows (T4); it fits no other way (it lies against the
        // pile's direction), so it is in `takes` exactly when it is in the hand.
        let trick = if ascending(p) {
            top.checked_sub(10)
        } else {
            top.checked_add(10)
        };
        let backward: Hand = trick.filter(|&c| takes.contains(c)).into_iter().collect();
        (takes, backward)
    })
}

/// The view for people (`view`, `public_view`, `view_json`, and so the API and the
/// page): `view_of` with, in a seat's view, what each pile takes from its hand (T4).
pub(super) fn view_with_facts(state: &State, seat: Option<usize>) -> View {
    let mut view = view_of(state, seat);
    if let Some(hand) = view.hand {
        for (pile, (takes, backward)) in view.piles.iter_mut().zip(pile_facts(hand, state.tops)) {
            pile.takes = Some(takes);
            pile.backward = Some(backward);
        }
    }
    view
}

/// What the position implies about the hand of the player to move, beyond its size.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Constraint {
    /// The game runs and the turn's minimum is not reached: the player can play (T6).
    HoldsAFit,
    /// The game was lost: the player could play no card (T6).
    HoldsNoFit,
}

/// See [`crate::game::Game::state_from_view`]: checks the view whole, then deals the unseen cards.
pub(super) fn state_from_view(rules: TheGame, view: &View, seed: u64) -> Result<State> {
    let bad = |m: Message| Err(Error::InvalidView(m));
    if (view.players, view.pro) != (rules.players, rules.pro) {
        let (vp, vpro, rp, rpro) = (view.players, view.pro, rules.players, rules.pro);
        return bad(crate::msg!(
            "the view is of a game with players={vp}, pro={vpro}; this game has players={rp}, pro={rpro}",
            "die Sicht ist von einem Spiel mit players={vp}, pro={vpro}; dieses Spiel hat players={rp}, pro={rpro}"
        ));
    }
    let players = rules.players as usize;
    let seat = view.player.map(usize::from);
    if let Some(p) = seat.filter(|&p| p >= players) {
        let last = players - 1;
        return bad(crate::msg!(
            "player {p}: seats are 0-{last}",
            "Spieler {p}: die Plätze sind 0-{last}"
        ));
    }
    if view.hand_sizes.len() != players {
        let n = view.hand_sizes.len();
        return bad(crate::msg!(
            "{n} hand sizes for {players} players: one per seat",
            "{n} Handgrößen für {players} Spieler: eine je Platz"
        ));
    }
    let own = match (seat, view.hand) {
        (Some(_), None) => {
            return bad(crate::msg!(
                "a seat's view shows its hand; hand is null",
                "die Sicht eines Platzes zeigt seine Hand; hand ist null"
            ));
        }
        (None, Some(_)) => {
            return bad(crate::msg!(
                "the public view (player null) shows no hand",
                "die öffentliche Sicht (`player` null) zeigt keine Hand"
            ));
        }
        (_, hand) => hand.unwrap_or_default(),
    };
    // The piles (T1).
    let mut tops = [0; NUM_PILES];
    let mut sizes = [0; NUM_PILES];
    for (p, pile) in view.piles.iter().enumerate() {
        let direction = if ascending(p) {
            Direction::Ascending
        } else {
            Direction::Descending
        };
        if pile.direction != direction {
            let (name, de) = (pile_label(p, Lang::En), pile_label(p, Lang::De));
            return bad(crate::msg!(
                "pile {p} is {name}: piles 0 and 1 ascend, 2 and 3 descend",
                "Stapel {p} ist {de}: die Stapel 0 und 1 steigen auf, 2 und 3 fallen ab"
            ));
        }
        tops[p] = pile.top;
        sizes[p] = pile.cards_played;
    }
    let played = view.played_cards;
    let on_piles: usize = sizes.iter().map(|&n| usize::from(n)).sum();
    if on_piles != played.len() {
        let n = played.len();
        return bad(crate::msg!(
            "cards_played of the piles add up to {on_piles}, but played_cards lists {n}",
            "cards_played der Stapel ergibt {on_piles}, doch played_cards nennt {n}"
        ));
    }
    check_piles(tops, sizes, played).map_err(Error::InvalidView)?;
    // The cards: own hand, played cards and the unseen rest (T1).
    if let Some(c) = own.iter().find(|&c| played.contains(c)) {
        return bad(crate::msg!(
            "card {c} is both in the hand and played",
            "Karte {c} ist auf der Hand und gespielt"
        ));
    }
    if let Some(p) = seat
        && own.len() != usize::from(view.hand_sizes[p])
    {
        let (n, said) = (own.len(), view.hand_sizes[p]);
        return bad(crate::msg!(
            "the hand holds {n} cards, but hand_sizes says player {p} holds {said}",
            "die Hand hält {n} Karten, doch hand_sizes sagt, Spieler {p} halte {said}"
        ));
    }
    let unseen = Hand::ALL.without(played.union(own));
    let draw = usize::from(view.draw_pile_size);
    let others: usize = (0..players)
        .filter(|&q| Some(q) != seat)
        .map(|q| usize::from(view.hand_sizes[q]))
        .sum();
    if others + draw != unseen.len() {
        let (n, held) = (unseen.len(), others + draw);
        return bad(crate::msg!(
            "{n} cards are unseen (98 minus the hand and the played cards), but the other hands \
             ({others}) and the draw pile ({draw}) hold {held}",
            "{n} Karten sind verdeckt (98 ohne die Hand und die gespielten Karten), doch die anderen \
             Hände ({others}) und der Nachziehstapel ({draw}) halten {held}"
        ));
    }
    let minimum = rules.minimum(draw);
    if usize::from(view.minimum) != minimum {
        let said = view.minimum;
        return bad(crate::msg!(
            "minimum {said}: with {draw} cards in the draw pile the minimum is {minimum} (T3)",
            "minimum {said}: bei {draw} Karten im Nachziehstapel ist das Minimum {minimum} (T3)"
        ));
    }
    // The turn and the end (T6).
    let score = (others + draw + own.len()) as u32;
    let turn = match (view.current_player, view.outcome) {
        (Some(_), Some(_)) => {
            return bad(crate::msg!(
                "a finished game has no player to move",
                "ein beendetes Spiel hat keinen Spieler am Zug"
            ));
        }
        (None, None) => {
            return bad(crate::msg!(
                "a running game has a player to move",
                "ein laufendes Spiel hat einen Spieler am Zug"
            ));
        }
        (Some(c), None) => {
            if score == 0 {
                return bad(crate::msg!(
                    "every card is played, so the game is over and won (T6)",
                    "jede Karte ist gespielt, also ist das Spiel vorbei und gewonnen (T6)"
                ));
            }
            Some(c)
        }
        (None, Some(o)) => {
            if o.score != score {
                let said = o.score;
                return bad(crate::msg!(
                    "outcome score {said}, but {score} cards are left in hands and the draw pile (T6)",
                    "outcome score {said}, doch {score} Karten sind in Händen und Nachziehstapel übrig (T6)"
                ));
            }
            if o.won != (score == 0) {
                let won = o.won;
                return bad(crate::msg!(
                    "outcome won={won}, but {score} cards are left: the players win exactly when \
                     every card is played (T6)",
                    "outcome won={won}, doch {score} Karten sind übrig: die Spieler gewinnen genau dann, \
                     wenn jede Karte gespielt ist (T6)"
                ));
            }
            match (o.won, o.stuck_player) {
                (true, None) => None,
                (true, Some(_)) => {
                    return bad(crate::msg!(
                        "nobody is stuck in a won game",
                        "in einem gewonnenen Spiel steckt niemand fest"
                    ));
                }
                (false, None) => {
                    return bad(crate::msg!(
                        "a lost game names the player who could not go on (T6)",
                        "ein verlorenes Spiel nennt den Spieler, der nicht weiterkam (T6)"
                    ));
                }
                (false, Some(c)) => Some(c),
            }
        }
    };
    let turn = match turn {
        Some(c) if usize::from(c) >= players => {
            let last = players - 1;
            return bad(crate::msg!(
                "player {c} to move: seats are 0-{last}",
                "Spieler {c} am Zug: die Plätze sind 0-{last}"
            ));
        }
        Some(c) => usize::from(c),
        None => 0,
    };
    // The hand sizes, the draw pile and the turn as some game reaches them (T2, T3, T5),
    // checked before anything is dealt: the deal relies on them (a hand is at most the
    // hand size, so the weights of `fitting_count` stay far within `u64`).
    let hand_sizes: Vec<usize> = view.hand_sizes.iter().map(|&n| usize::from(n)).collect();
    check_counts(
        rules,
        &hand_sizes,
        draw,
        played.len(),
        turn,
        usize::from(view.played_this_turn),
    )
    .map_err(Error::InvalidView)?;
    let constraint = match view.outcome {
        Some(o) if !o.won => Some(Constraint::HoldsNoFit),
        None if usize::from(view.played_this_turn) < minimum => Some(Constraint::HoldsAFit),
        Some(_) | None => None,
    };
    let fitting: Hand = unseen
        .iter()
        .filter(|&c| (0..NUM_PILES).any(|p| fits(c, tops[p], p)))
        .collect();
    let size = usize::from(view.hand_sizes[turn]);
    if let Some(constraint) = constraint {
        let (holds_fit, known) = if seat == Some(turn) {
            (
                own.iter().any(|c| (0..NUM_PILES).any(|p| fits(c, tops[p], p))),
                true,
            )
        } else {
            (false, false)
        };
        let possible = match (constraint, known) {
            (Constraint::HoldsAFit, true) => holds_fit,
            (Constraint::HoldsNoFit, true) => !holds_fit,
            (Constraint::HoldsAFit, false) => size == 0 || !fitting.is_empty(),
            (Constraint::HoldsNoFit, false) => unseen.len() - fitting.len() >= size,
        };
        if !possible {
            return bad(match constraint {
                Constraint::HoldsAFit => crate::msg!(
                    "player {turn} has not played the minimum and can hold no card that fits a pile, \
                     so the game would be over (T6)",
                    "Spieler {turn} hat das Minimum nicht gespielt und kann keine Karte halten, die auf \
                     einen Stapel passt, also wäre das Spiel vorbei (T6)"
                ),
                Constraint::HoldsNoFit => crate::msg!(
                    "the game is lost with player {turn} stuck, but player {turn} cannot hold \
                     {size} cards of which none fits a pile (T6)",
                    "das Spiel ist verloren, weil Spieler {turn} feststeckt, doch Spieler {turn} kann nicht \
                     {size} Karten halten, von denen keine auf einen Stapel passt (T6)"
                ),
            });
        }
    }
    // Deal: the constrained player first, then the others by seat, the rest is the draw pile.
    let mut rng = rng::seeded(seed, rng::STREAM_RESAMPLE);
    let mut hands = vec![Hand::default(); players];
    if let Some(p) = seat {
        hands[p] = own;
    }
    let mut rest: Vec<u8>;
    match constraint.filter(|_| seat != Some(turn)) {
        None => {
            rest = unseen.iter().collect();
            rest.shuffle(&mut rng);
        }
        Some(constraint) => {
            let mut fit: Vec<u8> = fitting.iter().collect();
            let mut other: Vec<u8> = unseen.without(fitting).iter().collect();
            fit.shuffle(&mut rng);
            other.shuffle(&mut rng);
            let from_fit = match constraint {
                Constraint::HoldsNoFit => 0,
                Constraint::HoldsAFit => fitting_count(&mut rng, fit.len(), other.len(), size),
            };
            hands[turn] = fit
                .drain(..from_fit)
                .chain(other.drain(..size - from_fit))
                .collect();
            rest = fit;
            rest.append(&mut other);
            rest.shuffle(&mut rng);
        }
    }
    let dealt_first = constraint.is_some() && seat != Some(turn);
    for (q, (hand, &size)) in hands.iter_mut().zip(&view.hand_sizes).enumerate() {
        if Some(q) != seat && !(dealt_first && q == turn) {
            *hand = rest.drain(..usize::from(size)).collect();
        }
    }
    let mut state = State {
        rules,
        draw_pile: rest,
        hands,
        tops,
        pile_sizes: sizes,
        current: turn as u8,
        played_this_turn: view.played_this_turn,
        outcome: None,
        history: crate::history::History::new(),
    };
    state.outcome = state.derived_outcome();
    state.validate().map_err(Error::InvalidView)?;
    check_pile_facts(view, &state)?;
    // The checked facts go onto the rebuilt view (which has none), so the rest is compared
    // without copying the given view.
    let mut rebuilt = state.view_of(seat);
    for (again, given) in rebuilt.piles.iter_mut().zip(&view.piles) {
        (again.takes, again.backward) = (given.takes, given.backward);
    }
    if rebuilt != *view {
        // Every field is checked above; this guards against a check forgotten there.
        return bad(crate::msg!(
            "no position gives this view",
            "keine Stellung ergibt diese Sicht"
        ));
    }
    Ok(state)
}

/// The piles' facts of a view read back: left out (or null) they are derived again; given,
/// they must be what the seat's hand and the tops give (T4). The public view has none.
fn check_pile_facts(view: &View, state: &State) -> Result<()> {
    let names = |h: Hand| format!("{:?}", h.iter().collect::<Vec<u8>>());
    let derived = view.hand.map(|hand| pile_facts(hand, state.tops));
    for (p, pile) in view.piles.iter().enumerate() {
        if pile.takes.is_none() && pile.backward.is_none() {
            continue;
        }
        let Some(derived) = derived else {
            return Err(Error::InvalidView(crate::msg!(
                "piles[{p}] carries takes or backward, but the public view has none: they come from a hand",
                "piles[{p}] trägt takes oder backward, doch die öffentliche Sicht hat keine: sie kommen aus einer Hand"
            )));
        };
        let (takes, backward) = derived[p];
        for (field, given, right) in [
            ("takes", pile.takes, takes),
            ("backward", pile.backward, backward),
        ] {
            if let Some(given) = given.filter(|&g| g != right) {
                let (top, given, right) = (pile.top, names(given), names(right));
                return Err(Error::InvalidView(crate::msg!(
                    "piles[{p}].{field} disagrees with the hand and the top {top} (T4): given {given}, but they give {right}",
                    "piles[{p}].{field} weicht von der Hand und der obersten Karte {top} ab (T4): angegeben {given}, doch sie ergeben {right}"
                )));
            }
        }
    }
    Ok(())
}

/// How many cards that fit a pile go into a hand of `size` cards drawn from `fit` fitting
/// and `other` non-fitting cards, given that at least one fits: the hypergeometric
/// distribution conditioned on at least one, so that the hand is uniform among all hands
/// that hold a fitting card.
fn fitting_count(rng: &mut rng::Rng, fit: usize, other: usize, size: usize) -> usize {
    if size == 0 {
        return 0;
    }
    let weights: Vec<(usize, u64)> = (1..=size.min(fit))
        .filter(|&j| size - j <= other)
        .map(|j| (j, binomial(fit, j) * binomial(other, size - j)))
        .collect();
    let total: u64 = weights.iter().map(|&(_, w)| w).sum();
    let mut pick = rng.random_range(0..total);
    for &(j, w) in &weights {
        if pick < w {
            return j;
        }
        pick -= w;
    }
    unreachable!("the pick lies below the total weight")
}

/// `n` choose `k`; here at most 98 choose 8 (a hand holds at most 8 cards, T2, checked
/// before the deal), far within `u64`.
fn binomial(n: usize, k: usize) -> u64 {
    (0..k as u64).fold(1, |acc, i| acc * (n as u64 - i) / (i + 1))
}
