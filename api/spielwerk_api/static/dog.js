// Dog: the board in SVG (64 ring fields, the four start fields, kennels and goal lanes),
// the marbles (protected ones marked, D6), the own hand and the partner exchange (D4).
//
// A card, then a marble, then a target. Only marbles with a legal move for the card are
// offered, and only the targets of the legal moves for card and marble (GET …/moves; the
// view's planned `hand_targets` fact is not read yet: its field shape is not final). A target field is where the legal
// move's steps lead on the drawing (ring fields forward, the goal lane inward from the start
// field): the page places the engine's moves, it decides none. A split seven (D8) is played
// in parts, one legal part after another; the engine's text of each part is on its button.

import { h, arrowKeys } from "./dom.js";
import { t } from "./i18n.js";
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

// Where a legal move of the chosen marble ends on the drawing, or null where the drawing
// cannot place it. Only legal moves come here.
function targetOf(move, marbles) {
  const marble = marbles[move.marble];
  if (move.type === "jack") return { key: placeKey(marbles[move.with].place, Math.floor(move.with / 4)), ...xyOf(marbles[move.with], move.with) };
  const steps = move.steps;
  if (steps === undefined || steps === null) return null;
  const colour = Math.floor(move.marble / 4);
  const p = marble.place;
  if (!move.goal && p.ring !== undefined) {
    const to = (((p.ring + steps) % RING) + RING) % RING;
    return { key: `ring-${to}`, xy: ringXY(to) };
  }
  if (move.goal) {
    let slot;
    if (p.goal !== undefined) slot = p.goal + steps;
    else if (p.ring !== undefined) slot = steps - ((16 * colour - p.ring + RING) % RING) - 1;
    if (slot === undefined || slot < 0 || slot > 3) return null;
    return { key: `goal-${colour}-${slot}`, xy: goalXY(colour, slot) };
  }
  return null;
}

function xyOf(marble, index) {
  return { xy: placeXY(marble, index) };
}

function placeKey(place, colour) {
  if (place === "kennel") return null;
  if (place.ring !== undefined) return `ring-${place.ring}`;
  return `goal-${colour}-${place.goal}`;
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

export function marbleLabel(index, marbles) {
  const m = marbles[index];
  return `${t(`dog_${m.color}`)} ${(index % 4) + 1}`;
}

export function renderDog(board, ctx) {
  const { view, moves, ui } = ctx;
  const hand = view.hand || [];
  if (ui.card && !hand.includes(ui.card)) ui.card = null;

  // A seven being split (D8): its card is already played, the next part goes on with it.
  const sevenParts = moves.filter((m) => m.move.type === "seven");
  if (view.seven && sevenParts.length && !hand.includes(sevenParts[0].move.card)) ui.card = sevenParts[0].move.card;
  const marbles = view.marbles;
  const forCard = ui.card ? moves.filter((m) => m.move.card === ui.card) : [];
  const withMarble = forCard.filter((m) => m.move.marble !== undefined);
  const movable = new Set(withMarble.map((m) => m.move.marble));
  if (ui.marble !== undefined && !movable.has(ui.marble)) ui.marble = undefined;
  const chosenMoves = ui.marble !== undefined ? withMarble.filter((m) => m.move.marble === ui.marble) : [];
  const cardOnly = forCard.filter((m) => m.move.marble === undefined); // start, exchange
  const rest = moves.filter((m) => m.move.card === undefined); // sit out

  // Targets on the drawing: where each legal move of the chosen marble leads.
  const targets = new Map();
  for (const m of chosenMoves) {
    const to = targetOf(m.move, marbles);
    if (to && to.key && !targets.has(to.key)) targets.set(to.key, { move: m, xy: to.xy });
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
    const letter = `${LETTER[m.color]}${(index % 4) + 1}`;
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
  for (const [key, { move, xy }] of targets) {
    const [x, y] = xy;
    const el = s("circle", { cx: x, cy: y, r: 13, class: "target-field", "data-target": key, "data-move": canonical(move.move) });
    svg.append(pressable(el, () => ctx.play(move.move), move.text));
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
          "aria-label": t("dog_card", { card }),
          dataset: { key: `card-${card}-${i}`, card },
          onclick: () => {
            ui.card = ui.card === card ? null : card;
            ui.marble = undefined;
            ctx.rerender();
          },
        },
        h("span", { class: "card-value" }, card),
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
          ex && ex.given ? t("exchange_given", { card: ex.given }) : t("exchange_pick"),
          ex && ex.received ? ` · ${t("exchange_received", { card: ex.received })}` : "",
          view.phase === "exchange" && ex && Array.isArray(ex.picked)
            ? ` · ${t("exchange_picked", { n: ex.picked.filter(Boolean).length })}`
            : "",
        )
      : null;

  let text = t("hint_wait");
  if (ctx.myTurn && view.phase === "exchange") text = t("hint_exchange");
  else if (ctx.myTurn && ui.card && !forCard.length) text = t("no_move_with_card");
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
