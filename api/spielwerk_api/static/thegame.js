// The Game: four piles (two ascending from 1, two descending from 100), the own hand, how
// many cards this turn must still play (T3), end turn, and the table talk without numbers
// (T7: the engine refuses a text with a number and says why).
//
// A card, then a pile. Which piles take the card, and where that is the ±10 trick (T4), are
// the view's facts per pile: `takes` (the seat's hand cards the pile takes) and `backward`
// (those it takes by the trick). The page draws them and decides nothing; on the seat's turn
// `takes` is exactly its legal plays, and a click plays the move GET …/moves lists for it.

import { h, arrowKeys } from "./dom.js";
import { t } from "./i18n.js";
import { escapeKey, hint, otherMoves } from "./board.js";
import { canonical } from "./api.js";

// A pile's facts for the seat's hand (a spectator's view has none).
const takes = (pile) => pile.takes || [];
const backward = (pile) => pile.backward || [];

export function renderTheGame(board, ctx) {
  const { view, moves, ui } = ctx;
  const hand = view.hand || [];
  if (ui.card !== null && ui.card !== undefined && !hand.includes(ui.card)) ui.card = null;
  const chosen = ui.card ?? null;
  const plays = moves.filter((m) => m.move.type === "play");
  const rest = moves.filter((m) => m.move.type !== "play");

  // The hand cards some pile takes by the ±10 trick, and those no pile takes: the view's facts.
  const trickAnywhere = new Set(view.piles.flatMap(backward));
  const takenAnywhere = new Set(view.piles.flatMap(takes));

  const piles = h(
    "ol",
    { class: "piles", "aria-label": t("piles") },
    view.piles.map((pile, k) => {
      // The pile takes the chosen card (the view's fact); on the seat's turn that is a legal
      // play listed by GET …/moves, sent as listed. (Were it missing from the list, the pile
      // would ask the engine as any other attempt: the page never makes up a move.)
      const taken = chosen !== null && ctx.myTurn && takes(pile).includes(chosen);
      const play = taken ? plays.find((m) => m.move.pile === k && m.move.card === chosen) || null : null;
      const trick = taken && backward(pile).includes(chosen);
      const asc = pile.direction === "ascending";
      const name = t(asc ? "pile_up" : "pile_down", { n: (k % 2) + 1 });
      const label = [name, t("pile_top", { n: pile.top }), play ? (trick ? t("trick_here") : t("takes_card")) : null]
        .filter(Boolean)
        .join(", ");
      const inside = [
        h("span", { class: "pile-arrow", "aria-hidden": "true" }, asc ? "↑" : "↓"),
        h("span", { class: "pile-name" }, name),
        h("span", { class: "pile-top" }, String(pile.top)),
        h("span", { class: "pile-count" }, t(pile.cards_played === 1 ? "cards_played_one" : "cards_played", { n: pile.cards_played })),
        trick ? h("span", { class: "badge trick" }, t("trick")) : null,
      ];
      return h(
        "li",
        { class: "pile-slot", dataset: { pile: String(k) } },
        play
          ? h(
              "button",
              {
                type: "button",
                class: `pile ${pile.direction} target${trick ? " trick" : ""}`,
                "aria-label": play.text ? `${label}: ${play.text}` : label,
                title: play.text || label,
                dataset: { key: `pile-${k}`, move: canonical(play.move), pile: String(k) },
                onclick: () => ctx.play(play.move),
              },
              inside,
            )
          : chosen !== null && ctx.myTurn
            ? // Not a legal play: the engine is asked why not, and nothing changes.
              h(
                "button",
                {
                  type: "button",
                  class: `pile ${pile.direction}`,
                  "aria-label": label,
                  dataset: { key: `pile-${k}`, pile: String(k) },
                  onclick: () => ctx.attempt({ type: "play", card: chosen, pile: k }),
                },
                inside,
              )
            : h("div", { class: `pile ${pile.direction}`, role: "img", "aria-label": label, dataset: { pile: String(k) } }, inside),
      );
    }),
  );
  arrowKeys(piles);

  const handRow = h(
    "div",
    { class: "hand", role: "group", "aria-label": t("your_hand") },
    hand.map((card) => {
      const playable = takenAnywhere.has(card);
      return h(
        "button",
        {
          type: "button",
          class: `card tcard${chosen === card ? " selected" : ""}${trickAnywhere.has(card) ? " has-trick" : ""}${playable ? "" : " unplayable"}`,
          "aria-pressed": String(chosen === card),
          "aria-label": `${card}${trickAnywhere.has(card) ? `, ${t("trick")}` : ""}`,
          dataset: { key: `card-${card}`, card: String(card) },
          onclick: () => {
            ui.card = chosen === card ? null : card;
            ctx.rerender();
          },
        },
        h("span", { class: "card-value" }, String(card)),
        trickAnywhere.has(card) ? h("span", { class: "card-letter" }, "±10") : null,
      );
    }),
  );
  arrowKeys(handRow);

  const mustStill = Math.max(0, view.minimum - view.played_this_turn);
  const counts = h(
    "p",
    { class: "table-info" },
    t("draw_pile_n", { n: view.draw_pile_size }),
    " · ",
    view.current_player !== null && view.current_player !== undefined
      ? h("span", { id: "must-play" }, t("must_play", { n: mustStill, min: view.minimum }))
      : null,
    " · ",
    view.hand_sizes.map((n, s) => `${ctx.who(s)}: ${n}`).join(", "),
  );

  let text = t("hint_wait");
  if (ctx.myTurn && chosen !== null) text = t("hint_pile", { card: chosen });
  else if (ctx.myTurn) text = t("hint_tg_card");

  board.append(
    ...[
      counts,
      piles,
      hint(ctx, text),
      ctx.seat === null ? null : h("h3", { class: "hand-title" }, t("your_hand")),
      ctx.seat === null ? null : handRow,
      otherMoves(ctx, rest),
    ].filter(Boolean),
  );
  escapeKey(board, ctx);
}

