// Dog: the board in SVG (64 ring fields, the four start fields, kennels and goal lanes),
// the marbles (protected ones marked, D6), the own hand and the partner exchange (D4).
//
// A card, then a marble, then a target. What can move where is the view's fact
// `hand_targets`: per card the seat's legal moves that move a marble, each with the marble,
// the place it ends on, the marbles it sends home and the move itself (starts from the
// kennel, D6; moves, D7, D9; the parts of a seven, D8; jack swaps, D10). The page
// highlights exactly those marbles and places and decides nothing: a chosen target plays its
// move. A split seven (D8) is played in parts, one legal part after another; the engine's
// text of each part (from GET …/moves) is on its button.

import { h, arrowKeys } from "./dom.js";
import { hasText, t } from "./i18n.js";
import { canonical } from "./api.js";
import { escapeKey, hint, moveButton, otherMoves } from "./board.js";

// SVG's namespace, as the HTML parser gives it to an <svg> element (no address in the page).
const SVG = (() => {
  const probe = document.createElement("div");
  probe.innerHTML = "<svg></svg>";
  return probe.firstChild.namespaceURI;
})();
const RING = 64;
const COLOURS = ["red", "blue", "green", "yellow"];
const LETTER = { red: "R", blue: "B", green: "G", yellow: "Y" };
const FILL = { red: "#c01c28", blue: "#1c71d8", green: "#1f7a3f", yellow: "#f6d32d" };
const C = 260; // centre of the drawing
const R = 220; // radius of the ring

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== false) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function ringXY(i, radius = R) {
  const a = ((i / RING) * 2 - 0.5) * Math.PI; // field 0 at the top, forward clockwise
  return [C + radius * Math.cos(a), C + radius * Math.sin(a)];
}

// Goal lane of a colour: four fields inward from its start field (16·colour).
function goalXY(colour, slot) {
  return ringXY(16 * colour, R - 30 - 26 * slot);
}

// Kennel of a colour: four fields outside the ring beside its start field.
function kennelXY(colour, k) {
  const base = 16 * colour;
  return ringXY(base - 3.4 + k * 1.1, R + 28);
}

function placeXY(marble, index) {
  const colour = Math.floor(index / 4);
  const p = marble.place;
  if (p === "kennel") return kennelXY(colour, index % 4);
  if (p.ring !== undefined) return ringXY(p.ring);
  return goalXY(colour, p.goal);
}

// The key and position on the drawing of a place a target names, for `marble` (a goal field
// lies in the lane of the marble's colour).
function targetPlace(to, marble) {
  const colour = Math.floor(marble / 4);
  if (to.ring !== undefined) return { key: `ring-${to.ring}`, xy: ringXY(to.ring) };
  if (to.goal !== undefined) return { key: `goal-${colour}-${to.goal}`, xy: goalXY(colour, to.goal) };
  return null;
}

// Enter and Space work an SVG element that acts as a button.
function pressable(el, action, label) {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.addEventListener("click", action);
  el.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      action();
    }
  });
  return el;
}

// How many seats have chosen their card for the partner (D4), one in the singular.
function exchangePicked(n) {
  return t(n === 1 ? "exchange_picked_one" : "exchange_picked", { n });
}

// A Dog card as a person reads it: its name ("Dame", "Joker"; the seed's "As") and the short
// mark on its face ("D" for Dame in German, "Q" in English); numbers are themselves.
export function dogCardName(card) {
  const key = `dog_card_name_${card}`;
  return hasText(key) ? t(key) : card;
}

function dogCardFace(card) {
  const key = `dog_card_face_${card}`;
  return hasText(key) ? t(key) : card;
}

export function marbleLabel(index, marbles) {
  const m = marbles[index];
  return `${t(`dog_${m.color}`)} ${index % 4 + 1}`;
}

export function renderDog(board, ctx) {
  const { view, moves, ui } = ctx;
  const hand = view.hand || [];
  if (ui.card && !hand.includes(ui.card)) ui.card = null;

  // The view's targets per card; while a seven is split (D8) the card being split has left
  // the hand, and its parts are the targets of that card.
  const byCard = new Map((view.hand_targets || []).map((entry) => [entry.card, entry.targets]));
  const splitting = view.seven ? (view.hand_targets || []).find((e) => e.targets.some((x) => x.move.type === "seven")) : null;
  if (splitting && !hand.includes(splitting.card)) ui.card = splitting.card;
  const marbles = view.marbles;
  const texts = new Map(moves.map((m) => [canonical(m.move), m.text]));
  const withText = (move) => ({ move, text: texts.get(canonical(move)) || "" });
  const cardTargets = ui.card ? byCard.get(ui.card) || [] : [];
  const movable = new Set(cardTargets.map((x) => x.marble));
  if (ui.marble !== undefined && !movable.has(ui.marble)) ui.marble = undefined;
  const chosen = ui.marble !== undefined ? cardTargets.filter((x) => x.marble === ui.marble) : [];
  const chosenMoves = chosen.map((x) => withText(x.move));
  const forCard = ui.card ? moves.filter((m) => m.move.card === ui.card) : [];
  // Moves of the card that name no marble (a start, whose marble is the kennel's first, D6;
  // the exchange pick, D4) keep a button of their own.
  const cardOnly = forCard.filter((m) => m.move.marble === undefined);
  const rest = moves.filter((m) => m.move.card === undefined); // sit out

  // Targets on the drawing: where each target of the chosen marble ends (several moves may
  // end on one field, e.g. a joker's seven part and its five: all are listed as buttons).
  const targets = new Map();
  for (const x of chosen) {
    const at = targetPlace(x.to, x.marble);
    if (at && !targets.has(at.key)) targets.set(at.key, { move: withText(x.move), xy: at.xy, home: x.sends_home });
  }

  const svg = s("svg", { viewBox: "0 0 520 520", class: "dog-board", role: "group", "aria-label": t("dog_board") });
  // Ring fields; the start fields larger, in their colour.
  for (let i = 0; i < RING; i++) {
    const [x, y] = ringXY(i);
    const start = i % 16 === 0 ? COLOURS[i / 16] : null;
    svg.append(
      s("circle", {
        cx: x,
        cy: y,
        r: start ? 11 : 7,
        class: `field${start ? " start" : ""}`,
        fill: start ? FILL[start] : "#fff",
        "fill-opacity": start ? 0.35 : 1,
        stroke: "#555",
        "data-field": `ring-${i}`,
      }),
    );
    if (start) {
      const [lx, ly] = ringXY(i, R - 14);
      svg.append(s("text", { x: lx, y: ly + 4, class: "start-letter", "text-anchor": "middle" }, LETTER[start]));
    }
  }
  COLOURS.forEach((colour, c) => {
    for (let slot = 0; slot < 4; slot++) {
      const [x, y] = goalXY(c, slot);
      svg.append(s("rect", { x: x - 8, y: y - 8, width: 16, height: 16, rx: 3, class: "field goal", fill: FILL[colour], "fill-opacity": 0.25, stroke: "#555", "data-field": `goal-${c}-${slot}` }));
    }
    for (let k = 0; k < 4; k++) {
      const [x, y] = kennelXY(c, k);
      svg.append(s("circle", { cx: x, cy: y, r: 8, class: "field kennel", fill: "none", stroke: FILL[colour], "stroke-dasharray": "2 2" }));
    }
  });
  // The marbles: colour, letter and number; a protected one (D6) with a double ring.
  marbles.forEach((m, index) => {
    const [x, y] = placeXY(m, index);
    const letter = `${LETTER[m.color]}${index % 4 + 1}`;
    const cls = `marble${m.protected ? " protected" : ""}${movable.has(index) ? " movable" : ""}${ui.marble === index ? " chosen" : ""}`;
    const g = s(
      "g",
      { class: cls, "data-marble": String(index) },
      m.protected ? s("circle", { cx: x, cy: y, r: 14, fill: "none", stroke: "#000", "stroke-width": 3 }) : null,
      s("circle", { cx: x, cy: y, r: 10, fill: FILL[m.color], stroke: "#000", "stroke-width": 1.5 }),
      s("text", { x, y: y + 4, "text-anchor": "middle", class: `marble-letter on-${m.color}` }, letter),
      s("title", {}, `${marbleLabel(index, marbles)}${m.protected ? `, ${t("protected")}` : ""}`),
    );
    if (movable.has(index)) {
      pressable(
        g,
        () => {
          ui.marble = ui.marble === index ? undefined : index;
          ctx.rerender();
        },
        `${marbleLabel(index, marbles)}${m.protected ? `, ${t("protected")}` : ""}`,
      );
      g.dataset.key = `marble-${index}`;
    }
    svg.append(g);
  });
  // The targets of the chosen marble, drawn over the marbles (a jack swaps with one).
  for (const [key, { move, xy, home }] of targets) {
    const [x, y] = xy;
    const el = s("circle", {
      cx: x,
      cy: y,
      r: 13,
      class: "target-field",
      "data-target": key,
      "data-move": canonical(move.move),
      "data-sends-home": home.join(" "),
    });
    svg.append(pressable(el, () => ctx.play(move.move), move.text || key));
  }

  const handRow = h(
    "div",
    { class: "hand", role: "group", "aria-label": t("your_hand") },
    hand.map((card, i) =>
      h(
        "button",
        {
          type: "button",
          class: `card dcard${ui.card === card ? " selected" : ""}`,
          "aria-pressed": String(ui.card === card),
          "aria-label": t("dog_card", { card: dogCardName(card) }),
          dataset: { key: `card-${card}-${i}`, card },
          onclick: () => {
            ui.card = ui.card === card ? null : card;
            ui.marble = undefined;
            ctx.rerender();
          },
        },
        h("span", { class: "card-value" }, dogCardFace(card)),
      ),
    ),
  );
  arrowKeys(handRow);

  const ex = view.exchange;
  const exchangeLine =
    view.phase === "exchange" || (ex && (ex.given || ex.received))
      ? h(
          "p",
          { class: "exchange" },
          `${t("exchange")}: `,
          ex && ex.given ? t("exchange_given", { card: dogCardName(ex.given) }) : t("exchange_pick"),
          ex && ex.received ? ` · ${t("exchange_received", { card: dogCardName(ex.received) })}` : "",
          view.phase === "exchange" && ex && Array.isArray(ex.picked)
            ? ` · ${exchangePicked(ex.picked.filter(Boolean).length)}`
            : "",
        )
      : null;

  let text = t("hint_wait");
  if (ctx.myTurn && view.phase === "exchange") text = t("hint_exchange");
  else if (ctx.myTurn && ui.card && !forCard.length && !cardTargets.length) text = t("no_move_with_card");
  else if (ctx.myTurn && ui.marble !== undefined) text = t("hint_target");
  else if (ctx.myTurn && ui.card) text = t("hint_marble");
  else if (ctx.myTurn && view.seven) text = t("hint_seven");
  else if (ctx.myTurn) text = t("hint_dog_card");

  const info = h(
    "p",
    { class: "table-info" },
    t("dog_round", { n: view.round }),
    " · ",
    view.hand_sizes.map((n, seat) => `${ctx.who(seat)} (${t(`dog_${COLOURS[seat]}`)}): ${n}`).join(", "),
    " · ",
    t("dog_teams"),
  );

  board.append(
    ...[
      info,
      exchangeLine,
      h("div", { class: "dog-wrap" }, svg),
      hint(ctx, text),
      ctx.seat === null ? null : h("h3", { class: "hand-title" }, t("your_hand")),
      ctx.seat === null ? null : handRow,
      cardOnly.length ? h("div", { class: "other-moves" }, cardOnly.map((m) => moveButton(ctx, m))) : null,
      chosenMoves.length
        ? h("div", { class: "other-moves targets", role: "group", "aria-label": t("targets") }, chosenMoves.map((m) => moveButton(ctx, m)))
        : null,
      otherMoves(ctx, rest),
    ].filter(Boolean),
  );
  escapeKey(board, ctx);
}
