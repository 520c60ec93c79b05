// The fallback screen for a game without a board of its own (each of the four has one now:
// schotten.js, caravan.js, thegame.js, dog.js): the seat's view drawn as readable lists and
// tables, and every legal move as a button with the engine's text. Any game can be played
// to its end with it.

import { canonical } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

function label(key) {
  return key.replace(/_/g, " ");
}

function scalar(value) {
  if (value === null || value === undefined) return "—";
  if (value === true) return t("yes");
  if (value === false) return t("no");
  return String(value);
}

function isScalar(value) {
  return value === null || typeof value !== "object";
}

// A value of the view, however nested, as HTML a person can read.
export function renderValue(value) {
  if (isScalar(value)) return h("span", { class: "scalar" }, scalar(value));
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "scalar empty" }, t("empty"));
    if (value.every(isScalar)) return h("span", { class: "scalar" }, value.map(scalar).join(", "));
    if (value.every((v) => v && typeof v === "object" && !Array.isArray(v))) return table(value);
    return h("ol", { class: "values", start: 0 }, value.map((v) => h("li", {}, renderValue(v))));
  }
  return h(
    "dl",
    { class: "fields" },
    Object.entries(value).map(([key, v]) => [h("dt", {}, label(key)), h("dd", {}, renderValue(v))]),
  );
}

// A list of records (marbles, caravans, piles) as a table, one row each.
function table(rows) {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return h(
    "table",
    { class: "records" },
    h("thead", {}, h("tr", {}, keys.map((k) => h("th", { scope: "col" }, label(k))))),
    h(
      "tbody",
      {},
      rows.map((r) => h("tr", {}, keys.map((k) => h("td", {}, k in r ? renderValue(r[k]) : "")))),
    ),
  );
}

export function renderGeneric(board, ctx) {
  const moves = ctx.moves;
  board.append(
    h("p", { class: "board-later" }, t("board_later")),
    h(
      "section",
      { class: "legal-moves", "aria-labelledby": "moves-title" },
      h("h3", { id: "moves-title" }, t("legal_moves")),
      moves.length
        ? h(
            "ul",
            { class: "move-list" },
            moves.map((m) =>
              h(
                "li",
                {},
                h(
                  "button",
                  {
                    type: "button",
                    class: "move",
                    dataset: { key: `move-${canonical(m.move)}`, action: String(m.action), autofocus: "" },
                    onclick: () => ctx.play(m.move),
                  },
                  m.text,
                ),
              ),
            ),
          )
        : h("p", { class: "no-moves" }, t("no_moves")),
    ),
    h("section", { class: "view", "aria-labelledby": "view-title" }, h("h3", { id: "view-title" }, t("view")), renderValue(ctx.view)),
  );
}
