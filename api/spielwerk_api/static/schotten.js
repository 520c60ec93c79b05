// Schotten Totten: nine stones in a row, both sides' cards, the own hand.
//
// A card, then a stone (by click, by keys 1–9, or by dragging the card onto the stone): the
// pair is played if GET …/moves lists it, otherwise the engine is asked why not (POST …/check). "Nehmen" appears on exactly the stones whose view fact
// `facts.claimable` holds on the seat's own turn (S3b, S5); hovering over or focusing a free
// stone the seat cannot prove shows `facts.best` of the other side (S6): the page draws the
// engine's facts and decides nothing. A game ended by the settlement (S9) shows it step by
// step from the view's `settlement`: each step's text from the engine (German or English) and
// the step's number at every stone it decided. Every card shows its colour, its letter and
// its value (colour-blind safe).

import { canonical } from "./api.js";
import { arrowKeys, h } from "./dom.js";
import { lang, t } from "./i18n.js";

// A shape per colour besides the colour itself and its letter (the page's language's:
// "Ge"/"Gr" for Gelb and Grün in German, never the notation's Y and G).
const SYMBOL = { R: "●", Y: "▲", G: "■", B: "◆", P: "★", O: "✚" };

export function cardLabel(code) {
  return `${t(`colour_${code[0]}`)} ${code.slice(1)}`;
}

export function cardFace(code) {
  const colour = code[0];
  return [
    h("span", { class: "card-value" }, code.slice(1)),
    h("span", { class: "card-letter" }, t(`colour_letter_${colour}`)),
    h("span", { class: "card-symbol", "aria-hidden": "true" }, SYMBOL[colour] || ""),
  ];
}

// The drag's payload type: only a hand card dragged on this page is dropped onto a stone.
const DRAGGED_CARD = "application/x-spielwerk-card";

function card(code) {
  return h("span", { class: `card colour-${code[0]}`, title: cardLabel(code), role: "img", "aria-label": cardLabel(code), dataset: { card: code } }, cardFace(code));
}

// What the other side can still build at a free stone the seat cannot prove (S6), shown on
// hover and focus; null where there is nothing to show (owned, provable, or a spectator).
function bestNote(stone, i, mine, theirs, ctx) {
  const facts = stone.facts;
  if (ctx.seat === null || !facts || facts.provable[mine]) return null;
  const best = facts.best[theirs];
  const who = ctx.who(theirs);
  const data = { stone: String(i), formation: best ? best.formation : "none" };
  if (best) {
    data.sum = String(best.sum);
    data.cards = best.cards.join(" ");
    data.complete = String(best.complete);
  }
  const text = best
    ? t(best.complete ? "best_complete" : "best_reach", {
        who,
        formation: t(`formation_${best.formation}`),
        sum: best.sum,
        cards: best.cards.map(cardLabel).join(", "),
      })
    : t("best_none", { who });
  // S5: the proof counts the seat's own hand as cards the other side could still get.
  return h("div", { class: "best", id: `best-${i}`, role: "tooltip", dataset: data }, text, h("span", { class: "best-hand" }, t("best_own_hand")));
}

export function renderSchotten(board, ctx) {
  const { view, moves, ui } = ctx;
  const mine = ctx.seat === null ? 0 : ctx.seat; // a spectator sees seat 0's side at the bottom
  const theirs = 1 - mine;
  const hand = view.hand || [];
  if (ui.card && !hand.includes(ui.card)) ui.card = null;

  const plays = moves.filter((m) => m.move.type === "play");
  // The claim moves' texts, for the buttons' titles; which stones get one is the view's fact.
  const claimTexts = new Map(moves.filter((m) => m.move.type === "claim").map((m) => [m.move.stone, m.text]));
  const mayClaim = (stone) => ctx.seat !== null && view.current_player === ctx.seat && Boolean(stone.facts?.claimable);
  const others = moves.filter((m) => m.move.type !== "play" && m.move.type !== "claim");
  const targets = new Set(ui.card ? plays.filter((m) => m.move.card === ui.card).map((m) => m.move.stone) : []);

  const pickStone = (stone) => {
    if (!ui.card) {
      ctx.notice(t("choose_card_first"), "refused");
      return;
    }
    ctx.attempt({ type: "play", card: ui.card, stone });
  };

  // The settlement's step per stone it decided (S9), for the stones' badges.
  const settledAt = new Map();
  for (const step of view.settlement ? view.settlement.steps : []) {
    for (const stone of step.stones) settledAt.set(stone.stone, { step: step.step, by: stone.by });
  }

  const stones = h("ol", { class: "stones", "aria-label": t("stone_n", { n: "1–9" }) });
  view.stones.forEach((stone, i) => {
    let owner = t("stone_free");
    let ownerClass = "free";
    if (stone.owner === mine && ctx.seat !== null) {
      owner = t("stone_yours");
      ownerClass = "mine";
    } else if (stone.owner !== null) {
      owner = t("stone_theirs", { who: ctx.who(stone.owner) });
      ownerClass = stone.owner === mine ? "mine" : "theirs";
    }
    const settled = settledAt.get(i);
    const label = [
      t("stone_n", { n: i + 1 }),
      owner,
      settled ? t("settled_step", { n: settled.step }) : null,
      targets.has(i) ? t("stone_target") : null,
    ]
      .filter(Boolean)
      .join(", ");
    const claim = mayClaim(stone);
    const best = bestNote(stone, i, mine, theirs, ctx);
    const dropping = (event) => event.dataTransfer && event.dataTransfer.types.includes(DRAGGED_CARD);
    stones.append(
      h(
        "li",
        {
          class: "stone-col",
          dataset: { stone: String(i) },
          // A drop asks the engine like a click: a stone that cannot take the card gets its reason.
          ondragover: (event) => {
            if (!dropping(event)) return;
            event.preventDefault();
            event.currentTarget.classList.add("drop-over");
          },
          ondragleave: (event) => event.currentTarget.classList.remove("drop-over"),
          ondrop: (event) => {
            if (!dropping(event)) return;
            event.preventDefault();
            event.currentTarget.classList.remove("drop-over");
            ui.card = event.dataTransfer.getData(DRAGGED_CARD);
            pickStone(i);
          },
        },
        h("div", { class: "side theirs", role: "group", "aria-label": `${ctx.who(theirs)}, ${t("stone_n", { n: i + 1 })}` }, stone.cards[theirs].map(card)),
        h(
          "button",
          {
            type: "button",
            class: `stone owner-${ownerClass}${targets.has(i) ? " target" : ""}`,
            "aria-label": label,
            title: label,
            dataset: { key: `stone-${i}`, stone: String(i) },
            "aria-describedby": best ? `best-${i}` : null,
            onclick: () => pickStone(i),
          },
          h("span", { class: "stone-n" }, String(i + 1)),
          h("span", { class: "stone-owner" }, owner),
          settled
            ? h("span", { class: "badge settled", dataset: { step: String(settled.step), by: settled.by }, "aria-hidden": "true" }, `${t("settlement")} ${settled.step}`)
            : null,
        ),
        h("div", { class: "side mine", role: "group", "aria-label": `${ctx.who(mine)}, ${t("stone_n", { n: i + 1 })}` }, stone.cards[mine].map(card)),
        h(
          "div",
          { class: "claim-slot" },
          claim
            ? h(
                "button",
                {
                  type: "button",
                  class: "claim",
                  "aria-label": t("claim_stone", { n: i + 1 }),
                  title: claimTexts.get(i) || t("claim_stone", { n: i + 1 }),
                  dataset: { key: `claim-${i}`, stone: String(i), autofocus: "" },
                  onclick: () => ctx.play({ type: "claim", stone: i }),
                },
                t("claim"),
              )
            : null,
        ),
        best,
      ),
    );
  });
  arrowKeys(stones, "button.stone");

  let hint = t("hint_wait");
  if (!ctx.running) hint = "";
  else if (ctx.myTurn && view.phase === "claim") hint = t("hint_claim");
  else if (ctx.myTurn && ui.card) hint = t("hint_stone", { card: cardLabel(ui.card) });
  else if (ctx.myTurn) hint = t("hint_card");

  const handRow = h(
    "div",
    { class: "hand", role: "group", "aria-label": t("your_hand") },
    hand.map((code) =>
      h(
        "button",
        {
          type: "button",
          class: `card colour-${code[0]}${ui.card === code ? " selected" : ""}`,
          "aria-pressed": String(ui.card === code),
          "aria-label": cardLabel(code),
          title: cardLabel(code),
          dataset: { key: `card-${code}`, card: code },
          draggable: ctx.myTurn ? "true" : null,
          ondragstart: (event) => {
            event.dataTransfer.setData(DRAGGED_CARD, code);
            event.dataTransfer.effectAllowed = "move";
          },
          onclick: () => {
            ui.card = ui.card === code ? null : code;
            ctx.rerender();
          },
        },
        cardFace(code),
      ),
    ),
  );
  arrowKeys(handRow);

  const otherMoves = others.length
    ? h(
        "div",
        { class: "other-moves", role: "group", "aria-label": t("other_moves") },
        others.map((m) =>
          h(
            "button",
            { type: "button", class: "move", dataset: { key: `move-${canonical(m.move)}`, autofocus: "" }, onclick: () => ctx.play(m.move) },
            m.text,
          ),
        ),
      )
    : null;

  // The settlement step by step (S9), in the engine's words in the page's language.
  const settlement = view.settlement
    ? h(
        "section",
        { id: "settlement", class: "settlement", "aria-labelledby": "settlement-title" },
        h("h3", { id: "settlement-title" }, t("settlement")),
        h(
          "ol",
          { class: "settlement-steps" },
          view.settlement.steps.map((step) =>
            h("li", { dataset: { step: String(step.step), stones: step.stones.map((x) => x.stone).join(" ") } }, step.text[lang()] || step.text.de),
          ),
        ),
      )
    : null;

  const inHand = view.hand_sizes[theirs];
  const parts = [
    h(
      "p",
      { class: "table-info" },
      t(inHand === 1 ? "their_hand_one" : "their_hand", { who: ctx.who(theirs), n: inHand }),
      " · ",
      t(view.pile_size === 1 ? "pile_one" : "pile", { n: view.pile_size }),
    ),
    stones,
    settlement,
    h("p", { id: "hint", class: "hint" }, hint),
    ctx.seat === null ? null : h("h3", { class: "hand-title" }, t("your_hand")),
    ctx.seat === null ? null : handRow,
    otherMoves,
  ];
  board.append(...parts.filter(Boolean));

  // Keys 1–9 put the selected card at that stone; Escape lets go of it.
  board.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && ui.card) {
      ui.card = null;
      ctx.rerender();
    } else if (/^[1-9]$/.test(event.key) && ui.card && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      pickStone(Number(event.key) - 1);
    }
  });
}
