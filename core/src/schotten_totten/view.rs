//! What one seat may see (the information state), and full states dealt from it.

use rand::seq::SliceRandom;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::cards::{Card, CardSet};
use super::facts::{Settlement, StoneFacts, settlement, stone_facts};
use super::rules::{NUM_STONES, SchottenTotten};
use super::state::{Award, Outcome, Phase, Side, State};
use crate::error::{Error, Result};
use crate::game::GameState;
use crate::rng;

/// The game a view belongs to: always `"schotten_totten"`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "SchottenTottenGameName")]
pub enum GameName {
    /// Schotten Totten.
    #[serde(rename = "schotten_totten")]
    SchottenTotten,
}

/// What one seat may see of a Schotten Totten position, or with `player` null what a
/// spectator may see: everything on the table, the seat's own hand, and only the sizes of
/// the other hand and of the pile. Two positions look the same to a seat exactly when
/// their views are equal. Stones are numbered 0-8 here and 1-9 on the board (S1).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SchottenTottenView")]
pub struct View {
    /// The game: always `"schotten_totten"`.
    pub game: GameName,
    /// The seat whose view this is, 0 or 1; null in the public view for spectators.
    #[schemars(range(max = 1))]
    pub player: Option<u8>,
    /// The player to move, 0 or 1; null once the game is over.
    #[schemars(range(max = 1))]
    pub current_player: Option<u8>,
    /// Where the turn is: "play" (play a card, or pass if none can be played, S3a),
    /// "claim" (claim provable stones or end the turn, S3b) or "over".
    pub phase: Phase,
    /// The seat's own hand in card order; null in the public view.
    pub hand: Option<CardSet>,
    /// How many cards each player holds: [player 0, player 1].
    pub hand_sizes: [u8; 2],
    /// How many cards are left in the draw pile; its order is hidden from everyone.
    pub pile_size: u8,
    /// The nine stones in their row, ids 0-8 (1-9 on the board).
    pub stones: [StoneView; NUM_STONES],
    /// Whether the player to move passed this turn (S3a), in the claim step after a pass.
    pub turn_passed: bool,
    /// How many turns in a row ended after a pass: 0 or 1 while the game runs; the
    /// second passing turn in a row settles the game (S9).
    pub passes_in_row: u8,
    /// How the game ended (S7, S9); null while it runs.
    pub outcome: Option<Outcome>,
    /// Once the game ended by the settlement (S9): its four steps, each with the stones it
    /// decided and its text in German and English, and the count of step 4. Left out in
    /// every other state, and in the engine's own typed view for bots and tensors.
    /// Derived from the table: on input it may be left out or null, and if given it must
    /// equal what the table gives, or the view is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settlement: Option<Settlement>,
}

/// One stone as everybody sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "SchottenTottenStoneView")]
pub struct StoneView {
    /// The cards at the stone, [player 0's, player 1's], each side in the order played.
    pub cards: [Side; 2],
    /// The player who owns the stone, 0 or 1; null while nobody does.
    #[schemars(range(max = 1))]
    pub owner: Option<u8>,
    /// How the owner won it (a claim or a step of the settlement); null while unowned.
    pub award: Option<Award>,
    /// The player whose side was complete first, S4's tie-break; null while neither is.
    #[schemars(range(max = 1))]
    pub completed_first: Option<u8>,
    /// What the board shows here while nobody owns the stone (S5, S6): for each player
    /// whether their claim proof succeeds and the best formation their side can still
    /// complete, and whether claiming (*Nehmen*) is a legal move now; null once the
    /// stone is owned (and in the engine's own typed view for bots and tensors, which
    /// leaves the facts out for speed). Derived from the table: on input it may be left
    /// out or null, and if given it must equal what the position gives, or the view is
    /// refused.
    #[serde(default)]
    pub facts: Option<StoneFacts>,
}

/// The view of `seat` (0 or 1), or the public view with `None`, as bots, tensors and
/// `state_from_view` use it: without the stones' facts (every `facts` null). They follow
/// from the rest of the view and cost about ten times the view itself (18 searches of S6),
/// so only the views for people carry them: [`view_with_facts`].
pub(super) fn view_of(state: &State, seat: Option<usize>) -> View {
    let [h0, h1] = state.hands;
    View {
        game: GameName::SchottenTotten,
        player: seat.map(|p| p as u8),
        current_player: state.current_player().map(|p| p as u8),
        phase: state.phase,
        hand: seat.map(|p| state.hands[p]),
        hand_sizes: [h0.len() as u8, h1.len() as u8],
        pile_size: state.pile.len() as u8,
        stones: state.stones.map(|s| StoneView {
            cards: s.sides,
            owner: s.owner,
            award: s.award,
            completed_first: s.completed_first,
            facts: None,
        }),
        turn_passed: state.turn_passed,
        passes_in_row: state.passes_in_row,
        outcome: state.outcome,
        settlement: None,
    }
}

/// The view for people (`view`, `public_view`, `view_json`, and so the API and the page):
/// `view_of` with the facts of every stone nobody owns (S5, S6).
pub(super) fn view_with_facts(state: &State, seat: Option<usize>) -> View {
    let mut view = view_of(state, seat);
    for (stone, facts) in view.stones.iter_mut().zip(stone_facts(state)) {
        stone.facts = facts;
    }
    view.settlement = settlement(state);
    view
}

/// The JSON bytes of `view_with_facts(state, seat)` (or with `with_facts` false of
/// `view_of`: the search's information-state key), exactly as `serde_json::to_vec` writes
/// them (a test compares the two over random games), about ten times faster: every string
/// here is a fixed name, so nothing needs escaping.
pub(super) fn view_json(state: &State, seat: Option<usize>, with_facts: bool) -> Vec<u8> {
    fn number(out: &mut Vec<u8>, n: usize) {
        if n >= 10 {
            number(out, n / 10);
        }
        out.push(b'0' + (n % 10) as u8);
    }
    fn player(out: &mut Vec<u8>, p: Option<u8>) {
        match p {
            Some(p) => number(out, p.into()),
            None => out.extend_from_slice(b"null"),
        }
    }
    fn name(out: &mut Vec<u8>, name: &str) {
        out.push(b'"');
        out.extend_from_slice(name.as_bytes());
        out.push(b'"');
    }
    fn cards(out: &mut Vec<u8>, cards: impl Iterator<Item = Card>) {
        out.push(b'[');
        for (i, card) in cards.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            name(out, card.name());
        }
        out.push(b']');
    }
    fn facts(out: &mut Vec<u8>, facts: Option<StoneFacts>) {
        let Some(f) = facts else {
            out.extend_from_slice(b"null");
            return;
        };
        let flag = |b: bool| -> &[u8] { if b { b"true" } else { b"false" } };
        out.extend_from_slice(br#"{"provable":["#);
        out.extend_from_slice(flag(f.provable[0]));
        out.push(b',');
        out.extend_from_slice(flag(f.provable[1]));
        out.extend_from_slice(br#"],"best":["#);
        for (i, best) in f.best.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            match best {
                Some(b) => {
                    out.extend_from_slice(br#"{"cards":"#);
                    cards(out, b.cards.iter().copied());
                    out.extend_from_slice(br#","formation":"#);
                    name(out, b.formation.name());
                    out.extend_from_slice(br#","sum":"#);
                    number(out, b.sum.into());
                    out.extend_from_slice(br#","complete":"#);
                    out.extend_from_slice(flag(b.complete));
                    out.push(b'}');
                }
                None => out.extend_from_slice(b"null"),
            }
        }
        out.extend_from_slice(br#"],"claimable":"#);
        out.extend_from_slice(flag(f.claimable));
        out.push(b'}');
    }
    let mut out = Vec::with_capacity(2048);
    out.extend_from_slice(br#"{"game":"schotten_totten","player":"#);
    player(&mut out, seat.map(|p| p as u8));
    out.extend_from_slice(br#","current_player":"#);
    player(&mut out, state.current_player().map(|p| p as u8));
    out.extend_from_slice(br#","phase":"#);
    name(&mut out, state.phase.name());
    out.extend_from_slice(br#","hand":"#);
    match seat {
        Some(p) => cards(&mut out, state.hands[p].iter()),
        None => out.extend_from_slice(b"null"),
    }
    out.extend_from_slice(br#","hand_sizes":["#);
    number(&mut out, state.hands[0].len() as usize);
    out.push(b',');
    number(&mut out, state.hands[1].len() as usize);
    out.extend_from_slice(br#"],"pile_size":"#);
    number(&mut out, state.pile.len());
    out.extend_from_slice(br#","stones":["#);
    let all_facts = if with_facts {
        stone_facts(state)
    } else {
        [None; NUM_STONES]
    };
    for (i, stone) in state.stones.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(br#"{"cards":["#);
        cards(&mut out, stone.sides[0].cards().iter().copied());
        out.push(b',');
        cards(&mut out, stone.sides[1].cards().iter().copied());
        out.extend_from_slice(br#"],"owner":"#);
        player(&mut out, stone.owner);
        out.extend_from_slice(br#","award":"#);
        match stone.award {
            Some(award) => name(&mut out, award.name()),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(br#","completed_first":"#);
        player(&mut out, stone.completed_first);
        out.extend_from_slice(br#","facts":"#);
        facts(&mut out, all_facts[i]);
        out.push(b'}');
    }
    out.extend_from_slice(br#"],"turn_passed":"#);
    out.extend_from_slice(if state.turn_passed { b"true" } else { b"false" });
    out.extend_from_slice(br#","passes_in_row":"#);
    number(&mut out, state.passes_in_row.into());
    out.extend_from_slice(br#","outcome":"#);
    match state.outcome {
        Some(outcome) => {
            out.extend_from_slice(br#"{"winner":"#);
            player(&mut out, outcome.winner);
            out.extend_from_slice(br#","reason":"#);
            name(&mut out, outcome.reason.name());
            out.push(b'}');
        }
        None => out.extend_from_slice(b"null"),
    }
    // Once, at the end of a settled game: serde writes it (its texts hold no character
    // JSON escapes, but serde's writer is the one to trust with text).
    if with_facts && let Some(settled) = settlement(state) {
        out.extend_from_slice(br#","settlement":"#);
        serde_json::to_writer(&mut out, &settled).expect("a settlement serializes");
    }
    out.push(b'}');
    out
}

/// A full state with `view`, the unseen cards dealt uniformly at random from `seed`.
///
/// The unseen cards are the 54 minus the seat's hand and every card at a stone (for the
/// public view: minus the stones only). They are shuffled by
/// `rng::seeded(seed, STREAM_RESAMPLE)` in card order, so the result depends on the view
/// and the seed alone; the hidden hands take the first cards, the pile the rest. The
/// built state passes every check of `state_from_json` (or the view is refused), and its
/// history is empty: the view carries none.
pub(super) fn state_from_view(rules: SchottenTotten, view: &View, seed: u64) -> Result<State> {
    let bad = |message: crate::error::Message| Err(Error::InvalidView(message));
    let seat = match view.player {
        None => None,
        Some(p @ (0 | 1)) => Some(p as usize),
        Some(p) => {
            return bad(crate::msg!(
                "player {p} is not a seat: 0, 1, or null for the public view",
                "Spieler {p} ist kein Platz: 0, 1 oder null für die öffentliche Sicht"
            ));
        }
    };
    let own_hand = match (seat, view.hand) {
        (Some(p), Some(hand)) => {
            if hand.len() != u32::from(view.hand_sizes[p]) {
                let (n, said) = (hand.len(), view.hand_sizes[p]);
                return bad(crate::msg!(
                    "player {p}'s hand holds {n} cards, but hand_sizes says {said}",
                    "die Hand von Spieler {p} hält {n} Karten, doch hand_sizes sagt {said}"
                ));
            }
            hand
        }
        (Some(p), None) => {
            return bad(crate::msg!(
                "the view of player {p} shows their hand, but hand is null",
                "die Sicht von Spieler {p} zeigt seine Hand, doch hand ist null"
            ));
        }
        (None, Some(_)) => {
            return bad(crate::msg!(
                "the public view (player null) shows no hand: hand must be null",
                "die öffentliche Sicht (`player` null) zeigt keine Hand: `hand` ist null"
            ));
        }
        (None, None) => CardSet::EMPTY,
    };
    match (view.phase, view.current_player) {
        (Phase::Over, None) | (Phase::Play | Phase::Claim, Some(0 | 1)) => {}
        (Phase::Over, Some(_)) => {
            return bad(crate::msg!(
                "current_player is null once the game is over",
                "current_player ist null, sobald das Spiel vorbei ist"
            ));
        }
        (_, None) => {
            return bad(crate::msg!(
                "a running game (phase play or claim) has a current_player, 0 or 1",
                "ein laufendes Spiel (Phase play oder claim) hat einen current_player, 0 oder 1"
            ));
        }
        (_, Some(c)) => {
            return bad(crate::msg!(
                "current_player {c} is not 0 or 1",
                "current_player {c} ist nicht 0 oder 1"
            ));
        }
    }
    // Every card the seat sees, exactly once.
    let mut seen = own_hand;
    for (i, stone) in view.stones.iter().enumerate() {
        for card in stone.cards.iter().flat_map(|side| side.cards().iter().copied()) {
            if seen.contains(card) {
                return bad(crate::msg!(
                    "card {card} at stones[{i}] is also in the hand or at another stone; each card exists once",
                    "Karte {card} an stones[{i}] ist auch auf der Hand oder an einem anderen Stein; jede Karte gibt es einmal"
                ));
            }
            seen.insert(card);
        }
    }
    let unseen = CardSet::ALL.minus(seen);
    let hidden_hands: usize = (0..2)
        .filter(|&p| Some(p) != seat)
        .map(|p| usize::from(view.hand_sizes[p]))
        .sum();
    let pile_size = usize::from(view.pile_size);
    if hidden_hands + pile_size != unseen.len() as usize {
        let n = unseen.len();
        return bad(crate::msg!(
            "{n} cards are unseen (54 minus the hand and the stones), but the hidden hands hold {hidden_hands} \
             and the pile {pile_size}: these must add up",
            "{n} Karten sind verdeckt (54 ohne die Hand und die Steine), doch die verdeckten Hände halten \
             {hidden_hands} und der Stapel {pile_size}: das muss aufgehen"
        ));
    }
    let mut deck: Vec<Card> = unseen.iter().collect();
    deck.shuffle(&mut rng::seeded(seed, rng::STREAM_RESAMPLE));
    let mut rest = deck.as_slice();
    let mut hands = [own_hand; 2];
    for (p, hand) in hands.iter_mut().enumerate() {
        if Some(p) != seat {
            let (dealt, after) = rest.split_at(usize::from(view.hand_sizes[p]));
            *hand = dealt.iter().copied().collect();
            rest = after;
        }
    }
    let mut state = State {
        rules,
        pile: rest.to_vec(),
        hands,
        stones: view.stones.map(|s| super::state::Stone {
            sides: s.cards,
            owner: s.owner,
            award: s.award,
            completed_first: s.completed_first,
        }),
        // (The stones' facts are derived: checked against the built state below.)
        current: view.current_player.unwrap_or(0),
        phase: view.phase,
        turn_passed: view.turn_passed,
        passes_in_row: view.passes_in_row,
        outcome: view.outcome,
        history: crate::history::History::new(),
    };
    if state.phase == Phase::Over {
        // The view hides who made the last turn once the game is over; it follows
        // from the outcome and the pile.
        state.current = state.last_mover();
    }
    state.validate().map_err(Error::InvalidView)?;
    let mut rebuilt = view_of(&state, seat);
    // Facts left out (or null, as in `view_of`) are accepted; given ones must be right.
    let derived = view
        .stones
        .iter()
        .any(|s| s.facts.is_some())
        .then(|| stone_facts(&state));
    for (i, (given, rebuilt)) in view.stones.iter().zip(&mut rebuilt.stones).enumerate() {
        let Some(derived) = &derived else { break };
        match (given.facts, derived[i]) {
            (None, _) => {}
            (Some(g), Some(d)) if g == d => rebuilt.facts = Some(d),
            (Some(g), Some(d)) => {
                let (given, table) = (
                    serde_json::to_string(&g).unwrap_or_default(),
                    serde_json::to_string(&d).unwrap_or_default(),
                );
                return bad(crate::msg!(
                    "stones[{i}].facts disagree with the position (S5, S6): given {given}, but the table gives {table}",
                    "stones[{i}].facts widersprechen der Stellung (S5, S6): gegeben {given}, doch der Tisch ergibt {table}"
                ));
            }
            (Some(_), None) => {
                return bad(crate::msg!(
                    "stones[{i}] is owned, so its facts must be null or left out",
                    "stones[{i}] hat einen Besitzer, also sind seine facts null oder fehlen"
                ));
            }
        }
    }
    // The settlement: left out (or null) it is derived again; given, it must be right.
    if let Some(given) = &view.settlement {
        let right = settlement(&state);
        if right.as_ref() != Some(given) {
            return bad(match right {
                None => crate::msg!(
                    "settlement is given, but the game did not end by the settlement (S9)",
                    "settlement ist angegeben, doch das Spiel endete nicht mit der Endabrechnung (S9)"
                ),
                Some(_) => crate::msg!(
                    "settlement disagrees with the table (S9): every step's stones, texts and the count \
                     follow from the stones' awards and cards",
                    "settlement weicht vom Tisch ab (S9): die Steine, Texte und die Zählung jedes Schritts \
                     folgen aus den Vergaben und Karten der Steine"
                ),
            });
        }
        rebuilt.settlement = right;
    }
    if rebuilt != *view {
        return bad(crate::msg!(
            "the view does not describe a consistent position",
            "die Sicht beschreibt keine stimmige Stellung"
        ));
    }
    Ok(state)
}
