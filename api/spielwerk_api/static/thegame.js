// The Game: four piles (two ascending from 1, two descending from 100), the own hand, how
// many cards this turn must still play (T3), end turn, and the table talk without numbers
// (T7: the engine refuses a text with a number and says why).
//
// A card, then a pile: the piles that take the card are exactly the plays GET …/moves lists
// for it (or the view's `takes` fact, where the engine gives it). A pile that takes the card
// by the ±10 trick (T4) is marked: the view's `backward` fact, else a legal play of a card
// against the pile's direction (lower on an ascending pile, higher on a descending one).

import { h, arrowKeys } from "./dom.js";
import { t } from "./i18n.js";
import { escapeKey, hint, otherMoves } from "./board.js";
import { canonical } from "./api.js";

function backwardPlay(pile, card) {
  if (Array.isArray(pile.backward)) return pile.backward.includes(card);
  return pile.direction === "ascending" ? card < pile.top : card > pile.top;
}

export function renderTheGame(board, ctx) {
  const { view, moves, ui } = ctx;
  const hand = view.hand || [];
  if (ui.card !== null && ui.card !== undefined && !hand.includes(ui.card)) ui.card = null;
  const chosen = ui.card ?? null;
  const plays = moves.filter((m) => m.move.type === "play");
  const rest = moves.filter((m) => m.move.type !== "play");

  // Which pile takes which card now: the legal plays (the hand's cards that have one).
  const trickAnywhere = new Set();
  plays.forEach((m) => {
    if (backwardPlay(view.piles[m.move.pile], m.move.card)) trickAnywhere.add(m.move.card);
  });

  const piles = h(
    "ol",
    { class: "piles", "aria-label": t("piles") },
    view.piles.map((pile, k) => {
      const play = chosen !== null ? plays.find((m) => m.move.pile === k && m.move.card === chosen) : null;
      const trick = play && backwardPlay(pile, chosen);
      const asc = pile.direction === "ascending";
      const name = t(asc ? "pile_up" : "pile_down", { n: (k % 2) + 1 });
      const label = [name, t("pile_top", { n: pile.top }), play ? (trick ? t("trick_here") : t("takes_card")) : null]
        .filter(Boolean)
        .join(", ");
      const inside = [
        h("span", { class: "pile-arrow", "aria-hidden": "true" }, asc ? "↑" : "↓"),
        h("span", { class: "pile-name" }, name),
        h("span", { class: "pile-top" }, String(pile.top)),
        h("span", { class: "pile-count" }, t("cards_played", { n: pile.cards_played })),
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
                "aria-label": `${label}: ${play.text}`,
                title: play.text,
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
      const playable = plays.some((m) => m.move.card === card);
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
      talkBox(ctx),
    ].filter(Boolean),
  );
  escapeKey(board, ctx);
}

// The table talk (T7): what was said, and a box to say something; the engine refuses texts
// with numbers and the page shows its reason.
function talkBox(ctx) {
  const input = h("input", { id: "talk-input", type: "text", maxlength: 500, "aria-label": t("talk_say"), autocomplete: "off" });
  const form = h(
    "form",
    {
      class: "talk-form",
      onsubmit: async (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        if (await ctx.say(text)) input.value = "";
      },
    },
    input,
    " ",
    h("button", { type: "submit", id: "talk-send" }, t("talk_send")),
  );
  return h(
    "section",
    { class: "talk", "aria-labelledby": "talk-title" },
    h("h3", { id: "talk-title" }, t("talk")),
    h(
      "ol",
      { id: "talk-list", "aria-live": "polite" },
      ctx.chat.map((said) => h("li", {}, `${ctx.who(said.seat)}: `, said.text)),
    ),
    ctx.seat !== null && ctx.running ? form : null,
  );
}
