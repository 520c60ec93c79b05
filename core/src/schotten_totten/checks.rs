//! Why a move is illegal (S3, S5, S7, S9): each check with a stable code, the values it
//! names, and the reason in English and German. Reasons number stones 1-9 as the board
//! does (S1); the params keep the ids 0-8 of the API.

use super::cards::Card;
use super::codec::{Decoded, Move};
use super::state::{EndReason, Phase, State};
use crate::error::IllegalAction;

/// A stone as people see it: stones are numbered 1-9 on screen (S1), 0-8 in ids and JSON.
pub(super) fn shown(stone: usize) -> usize {
    stone + 1
}

impl State {
    /// Says why `mv` is illegal here. Reasons number stones 1-9 as the board does (S1);
    /// the `stone` parameter is the id 0-8, as in moves.
    pub(super) fn check(&self, mv: Decoded) -> Result<(), IllegalAction> {
        let me = self.current as usize;
        if let Some(outcome) = self.outcome {
            let rule = if outcome.reason == EndReason::Settlement {
                "S9"
            } else {
                "S7"
            };
            return Err(IllegalAction::new(
                rule,
                "game_over",
                "the game is over",
                "die Partie ist vorbei",
            ));
        }
        let already_played = || {
            IllegalAction::new(
                "S3",
                "already_played",
                "a card was already played (or passed) this turn; claim a stone or end the turn",
                "in diesem Zug wurde schon eine Karte gelegt (oder ausgesetzt); beanspruche einen Grenzstein oder beende den Zug",
            )
        };
        match mv {
            Move::Play { card, stone } => {
                let stone = stone as usize;
                if self.phase != Phase::Play {
                    return Err(already_played());
                }
                if !self.hands[me].contains(card) {
                    let not_held = IllegalAction::card_not_in_hand("S3a", card.name(), &card.name_de(), me);
                    return Err(not_held.with("player", me));
                }
                let s = &self.stones[stone];
                let n = shown(stone);
                if let Some(owner) = s.owner {
                    return Err(IllegalAction::new(
                        "S3a",
                        "stone_owned",
                        format!("stone {n} is already owned by player {owner_n}; cards go to unowned stones only", owner_n = crate::names::shown(owner)),
                        format!(
                            "Grenzstein {n} gehört schon Spieler {owner_n}; Karten werden nur an Grenzsteine gelegt, die noch niemandem gehören",
                            owner_n = crate::names::shown(owner),
                        ),
                    )
                    .with("stone", stone)
                    .with("owner", owner));
                }
                if s.sides[me].is_complete() {
                    return Err(IllegalAction::new(
                        "S3a",
                        "side_full",
                        format!("player {me_n} already has three cards at stone {n}; at most three per side", me_n = crate::names::shown(me)),
                        format!(
                            "Spieler {me_n} hat an Grenzstein {n} schon drei Karten; pro Grenzstein und Person passen höchstens drei",
                            me_n = crate::names::shown(me),
                        ),
                    )
                    .with("stone", stone)
                    .with("player", me));
                }
                Ok(())
            }
            Move::Pass {} => {
                if self.phase != Phase::Play {
                    return Err(already_played());
                }
                if self.can_play(me) {
                    return Err(IllegalAction::new(
                        "S3a",
                        "must_play",
                        format!(
                            "player {me_n} can still play a card, and passing is allowed only when no card can be played",
                            me_n = crate::names::shown(me),
                        ),
                        format!("Spieler {me_n} kann noch eine Karte legen; aussetzen darf nur, wer keine Karte legen kann", me_n = crate::names::shown(me)),
                    )
                    .with("player", me));
                }
                Ok(())
            }
            Move::Claim { stone } => {
                let stone = stone as usize;
                let n = shown(stone);
                if self.phase != Phase::Claim {
                    return Err(IllegalAction::new(
                        "S3b",
                        "claim_not_now",
                        "claims come after playing a card (or passing) and only when a stone is provable",
                        "beansprucht wird nach dem Legen einer Karte (oder dem Aussetzen) und nur, wenn ein Grenzstein beweisbar ist",
                    ));
                }
                let s = &self.stones[stone];
                if let Some(owner) = s.owner {
                    return Err(IllegalAction::new(
                        "S3b",
                        "stone_owned",
                        format!(
                            "stone {n} is already owned by player {owner_n}",
                            owner_n = crate::names::shown(owner)
                        ),
                        format!(
                            "Grenzstein {n} gehört schon Spieler {owner_n}",
                            owner_n = crate::names::shown(owner)
                        ),
                    )
                    .with("stone", stone)
                    .with("owner", owner));
                }
                let Some(check) = self.claim_check(stone, me) else {
                    let k = s.sides[me].len();
                    return Err(IllegalAction::new(
                        "S5",
                        "claim_needs_three_cards",
                        format!(
                            "player {me_n} has {k} card(s) at stone {n}; a claim needs the claimant's three cards there",
                            me_n = crate::names::shown(me),
                        ),
                        format!(
                            "Spieler {me_n} hat {k} Karte(n) an Grenzstein {n}; beanspruchen kann nur, wessen drei Karten dort liegen",
                            me_n = crate::names::shown(me),
                        ),
                    )
                    .with("stone", stone)
                    .with("player", me)
                    .with("cards", k));
                };
                // A refuted claim always comes with the other side's better completion (S6).
                if let (false, Some(best)) = (check.provable, check.best) {
                    let cards: Vec<String> = best.cards.iter().map(Card::to_string).collect();
                    let (theirs, mine) = (best.formation, check.mine);
                    return Err(IllegalAction::new(
                        "S5",
                        "not_provable",
                        format!(
                            "stone {n} is not provable: the other side can still reach {theirs} with {}, which beats {mine}",
                            cards.join(" "),
                        ),
                        format!(
                            "Grenzstein {n} ist nicht beweisbar: die Gegenseite kann mit {} noch {} (Summe {}) bilden, das schlägt {} (Summe {})",
                            cards.join(" "),
                            theirs.kind.name_de(),
                            theirs.sum,
                            mine.kind.name_de(),
                            mine.sum,
                        ),
                    )
                    .with("stone", stone)
                    .with("formation", theirs.kind.name())
                    .with("sum", theirs.sum)
                    .with("cards", cards)
                    .with("mine", mine.kind.name())
                    .with("mine_sum", mine.sum));
                }
                Ok(())
            }
            Move::EndTurn {} => {
                if self.phase != Phase::Claim {
                    return Err(IllegalAction::new(
                        "S3",
                        "end_turn_not_now",
                        "play a card (or pass) before ending the turn",
                        "lege erst eine Karte (oder setze aus), bevor du den Zug beendest",
                    ));
                }
                Ok(())
            }
        }
    }
}
