// Caravan: six caravans, three a side, facing each other in pairs (caravan k of seat 0
// against caravan k+3 of seat 1). Each shows the engine's value, direction arrow and suit
// (C3, C4), the face cards on their number cards (C6) and the pair's sale as the view's facts
// say it (C9): where each caravan stands against 21–26 (`pairs[k].facts.range`), a tie that
// holds the pair open (`tied`) and who sells it as the table stands (`sold_by`).
//
// A card, then a target: the caravan for a number card, the number card for a face card;
// the targets are exactly the plays GET …/moves lists for that card. Discard and disband are
// buttons of their legal moves. Every card shows its value, suit symbol and suit letter.

import { h, arrowKeys } from "./dom.js";
import { t } from "./i18n.js";
import { escapeKey, hint, moveButton, otherMoves } from "./board.js";
import { canonical } from "./api.js";

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_LETTER = { spades: "S", hearts: "H", diamonds: "D", clubs: "C" };

function parts(code) {
  if (code.startsWith("JK")) return { rank: "JK", suit: "" };
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

export function caravanCardLabel(code) {
  const { rank, suit } = parts(code);
  if (!suit) return t("joker");
  return `${t(`rank_${rank}`) === `rank_${rank}` ? rank : t(`rank_${rank}`)} ${t(`suit_${suit}`)}`;
}

function face(code) {
  const { rank, suit } = parts(code);
  return [
    h("span", { class: "card-value" }, rank),
    h("span", { class: "card-letter" }, suit || "★"),
    h("span", { class: "card-symbol", "aria-hidden": "true" }, SUIT[suit] || "☆"),
  ];
}

function suitClass(code) {
  const { suit } = parts(code);
  return `suit-${suit || "JK"}`;
}

function cardSpan(code, extra = "") {
  return h(
    "span",
    { class: `card ccard ${suitClass(code)}${extra}`, role: "img", title: caravanCardLabel(code), "aria-label": caravanCardLabel(code), dataset: { card: code } },
    face(code),
  );
}

export function renderCaravan(board, ctx) {
  const { view, moves, ui } = ctx;
  const mine = ctx.seat === null ? 0 : ctx.seat;
  const theirs = 1 - mine;
  const hand = view.hand || [];
  if (ui.card && !hand.includes(ui.card)) ui.card = null;

  const withCard = ui.card ? moves.filter((m) => m.move.card === ui.card) : [];
  const disbands = new Map(moves.filter((m) => m.move.type === "disband").map((m) => [m.move.caravan, m]));
  const rest = moves.filter((m) => m.move.card === undefined && m.move.type !== "disband");
  const playsOn = (caravan, position) =>
    withCard.find((m) => m.move.type === "play" && m.move.caravan === caravan && (m.move.position ?? null) === position);
  const discard = withCard.find((m) => m.move.type === "discard");

  const caravanBox = (c) => {
    const cv = view.caravans[c];
    const pair = c % 3;
    const soldBy = view.pairs[pair] ? view.pairs[pair].sold_by : null;
    // The pair's facts (C9): this caravan's place against the selling range.
    const facts = view.pairs[pair] ? view.pairs[pair].facts : null;
    const range = facts ? facts.range[cv.owner] : null;
    const arrow = cv.direction === "ascending" ? "↑" : cv.direction === "descending" ? "↓" : "–";
    const dirText = cv.direction ? t(`dir_${cv.direction}`) : t("dir_none");
    const suitText = cv.suit ? `${SUIT[SUIT_LETTER[cv.suit]]} ${SUIT_LETTER[cv.suit]} ${t(`suit_${SUIT_LETTER[cv.suit]}`)}` : "—";
    const target = playsOn(c, null);
    const cards = cv.cards.map((entry, pos) => {
      const onIt = playsOn(c, pos);
      const facesRow = entry.faces.map((f) => cardSpan(f.card, " face"));
      const number = onIt
        ? h(
            "button",
            {
              type: "button",
              class: `card ccard ${suitClass(entry.card)} target`,
              title: onIt.text,
              "aria-label": `${caravanCardLabel(entry.card)}: ${onIt.text}`,
              dataset: { key: `move-${canonical(onIt.move)}`, move: canonical(onIt.move), card: entry.card },
              onclick: () => ctx.play(onIt.move),
            },
            face(entry.card),
          )
        : cardSpan(entry.card);
      return h("li", { class: "caravan-card" }, number, facesRow.length ? h("span", { class: "faces" }, facesRow) : null);
    });
    return h(
      "section",
      {
        class: `caravan${cv.owner === mine && ctx.seat !== null ? " mine" : ""}${target ? " target" : ""}`,
        "aria-label": t("caravan_n", { n: c + 1 }),
        dataset: { caravan: String(c) },
      },
      h(
        "header",
        {},
        h("strong", {}, t("caravan_n", { n: c + 1 })),
        h("span", { class: "cv-value", title: t("value") }, `${t("value")} ${cv.value}`),
        h("span", { class: "cv-dir", title: dirText, "aria-label": dirText }, arrow),
        h("span", { class: "cv-suit" }, suitText),
        range ? h("span", { class: `badge range range-${range}`, dataset: { range } }, t(`range_${range}`)) : null,
        soldBy !== null && soldBy !== undefined && soldBy === cv.owner ? h("span", { class: "badge sold" }, t("sells_pair")) : null,
      ),
      h("ol", { class: "caravan-cards" }, cards),
      h(
        "p",
        { class: "caravan-actions" },
        target ? moveButton(ctx, target, t("here"), "move target") : null,
        // Not a legal play for the chosen card: the engine says why not, nothing changes.
        !target && ui.card && ctx.myTurn
          ? h(
              "button",
              {
                type: "button",
                class: "move try",
                dataset: { key: `try-${c}` },
                onclick: () => ctx.attempt({ type: "play", card: ui.card, caravan: c }),
              },
              t("here"),
            )
          : null,
        disbands.has(c) ? moveButton(ctx, disbands.get(c), t("disband"), "move disband") : null,
      ),
    );
  };

  const row = (seat) =>
    h(
      "div",
      { class: `caravan-row ${seat === mine ? "mine" : "theirs"}`, role: "group", "aria-label": ctx.who(seat) },
      [0, 1, 2].map((k) => caravanBox(3 * seat + k)),
    );

  const pairsLine = h(
    "p",
    { class: "pairs" },
    view.pairs.map((p, k) => {
      const sold = p.sold_by !== null && p.sold_by !== undefined;
      const tied = Boolean(p.facts && p.facts.tied);
      let state = t("pair_open");
      if (sold) state = t("pair_sold_by", { who: ctx.who(p.sold_by) });
      else if (tied) state = t("pair_tied", { value: view.caravans[k].value });
      return h(
        "span",
        { class: `pair${sold ? " sold" : ""}${tied ? " tied" : ""}`, dataset: { pair: String(k), soldBy: sold ? String(p.sold_by) : "", tied: String(tied) } },
        `${t("pair_n", { n: k + 1 })}: `,
        state,
      );
    }),
  );

  const handRow = h(
    "div",
    { class: "hand", role: "group", "aria-label": t("your_hand") },
    hand.map((code, i) =>
      h(
        "button",
        {
          type: "button",
          class: `card ccard ${suitClass(code)}${ui.card === code ? " selected" : ""}`,
          "aria-pressed": String(ui.card === code),
          "aria-label": caravanCardLabel(code),
          title: caravanCardLabel(code),
          dataset: { key: `card-${code}-${i}`, card: code },
          onclick: () => {
            ui.card = ui.card === code ? null : code;
            ctx.rerender();
          },
        },
        face(code),
      ),
    ),
  );
  arrowKeys(handRow);

  let text = t("hint_wait");
  if (ctx.myTurn && ui.card && !withCard.length) text = t("no_move_with_card");
  else if (ctx.myTurn && ui.card) text = t("hint_caravan_target", { card: caravanCardLabel(ui.card) });
  else if (ctx.myTurn) text = t("hint_caravan_card");

  const topDiscard = (seat) => {
    const pile = view.discard_piles[seat];
    return pile.length ? pile[pile.length - 1] : null;
  };
  const info = (seat) =>
    h(
      "p",
      { class: "table-info" },
      `${ctx.who(seat)}: `,
      t("in_hand", { n: view.hand_sizes[seat] }),
      " · ",
      t("deck_n", { n: view.deck_sizes[seat] }),
      " · ",
      `${t("discard_pile")}: `,
      topDiscard(seat) ? cardSpan(topDiscard(seat)) : t("empty"),
    );

  board.append(
    ...[
      info(theirs),
      row(theirs),
      pairsLine,
      row(mine),
      ctx.seat === null ? null : info(mine),
      hint(ctx, text),
      ctx.seat === null ? null : h("h3", { class: "hand-title" }, t("your_hand")),
      ctx.seat === null ? null : handRow,
      discard ? h("p", { class: "other-moves" }, moveButton(ctx, discard, t("discard"), "move discard")) : null,
      otherMoves(ctx, rest),
    ].filter(Boolean),
  );
  escapeKey(board, ctx);
}
