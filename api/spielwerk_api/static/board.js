// What the dedicated boards (Caravan, The Game, Dog) share: move buttons that carry the
// engine's JSON move (data-move, its canonical form) and text, and the choice of a hand card.
// The boards only draw: every button stands for a move of GET …/moves.

import { canonical } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

// A button that plays one legal move; `label` is what the board shows, the engine's text
// is its accessible name and tooltip.
export function moveButton(ctx, m, label = m.text, cls = "move") {
  const key = canonical(m.move);
  return h(
    "button",
    {
      type: "button",
      class: cls,
      title: m.text,
      "aria-label": m.text,
      dataset: { key: `move-${key}`, move: key, autofocus: "" },
      onclick: () => ctx.play(m.move),
    },
    label,
  );
}

// The moves that need no card chosen first, as a row of buttons (end turn, sit out, …).
export function otherMoves(ctx, moves) {
  if (!moves.length) return null;
  return h(
    "div",
    { class: "other-moves", role: "group", "aria-label": t("other_moves") },
    moves.map((m) => moveButton(ctx, m)),
  );
}

// The whose-turn hint line of a board.
export function hint(ctx, text) {
  return h("p", { id: "hint", class: "hint", "aria-live": "polite" }, ctx.running ? text : "");
}

// Escape lets go of the chosen card (and marble).
export function escapeKey(board, ctx) {
  board.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && (ctx.ui.card || ctx.ui.marble !== undefined)) {
      ctx.ui.card = null;
      ctx.ui.marble = undefined;
      ctx.rerender();
    }
  });
}
