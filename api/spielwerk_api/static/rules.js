// The rules of a game (#/rules/GAME): the German rule text the engine implements, as the API
// serves it (GET /v1/games/GAME/rules), and in English a summary with the German text below.

import { request } from "./api.js";
import { h } from "./dom.js";
import { GAME_NAMES, gameName, lang, t } from "./i18n.js";

// The rules in short, for English readers (the German text is the law).
const SUMMARY_EN = {
  schotten_totten: [
    "Two players fight over nine boundary stones with 54 clan cards: six colours, values 1 to 9. You hold six cards.",
    "A turn: play one card onto your side of a stone nobody owns yet (at most three there), then claim every stone where your win is proven, then draw.",
    "Three cards form a formation, from strong to weak: colour run, three of a kind, colour, run, sum. Within a rank the higher sum wins; if that ties, whoever completed first.",
    "A claim needs proof from the open table: no cards the other side could still get may beat yours. Your own hand counts as available cards here, although you know the other side cannot get them.",
    "Whoever owns five stones, or three side by side, wins at once. When neither can play, a final settlement decides.",
  ],
  caravan: [
    "Two players, each with their own deck of 52 cards and two jokers, build three caravans each.",
    "The opening: one number card onto each of your empty caravans. Then a turn plays a card, discards one, or disbands one of your caravans.",
    "Number cards follow the caravan's direction or its suit. Face cards go onto any number card, yours or the other side's: a jack removes its card, a queen turns the direction and sets the suit, a king doubles the card, a joker clears its value or suit from the whole table.",
    "A caravan sells between 21 and 26 and beats the one opposite it; whoever sells two of the three pairs wins. Variants make a match unranked.",
  ],
  the_game: [
    "One to five players together try to play all 98 cards (2 to 99) onto four piles: two go up from 1, two go down from 100.",
    "A turn plays at least two cards (one once the draw pile is empty), each onto any pile: higher on an up pile, lower on a down pile, or exactly ten back (the backward trick). Then you draw as many.",
    "The game is lost when the player to move cannot play their minimum; the fewer cards left, the better. You may talk, but never name a number in any form.",
  ],
  dog: [
    "Four players in two teams (partners sit opposite each other) race their four marbles round the board into their goal.",
    "Each round deals fewer cards (6, 5, 4, 3, 2), and partners first give each other one card, face down.",
    "A card that can be played must be played, its whole value: an ace, king or joker starts a marble, numbers move forward (the four also backward), the seven splits over your team's marbles and sends home every marble it passes, the jack swaps two marbles, the joker is any card.",
    "A marble on its start field for the first time is protected. A team wins with all eight marbles home; once yours are home, you move your partner's.",
  ],
};

// The German text as paragraphs, numbered steps and bullet lists; a short line without a
// full stop is a heading.
function renderText(text) {
  const blocks = text.split(/\n\s*\n/).map((b) => b.trim()).filter(Boolean);
  const out = [];
  for (const block of blocks) {
    const lines = block.split("\n").map((l) => l.trim());
    if (lines.every((l) => /^\d+\.\s/.test(l))) out.push(h("ol", {}, lines.map((l) => h("li", {}, l.replace(/^\d+\.\s*/, "")))));
    else if (lines.every((l) => /^[•-]\s/.test(l))) out.push(h("ul", {}, lines.map((l) => h("li", {}, l.replace(/^[•-]\s*/, "")))));
    else if (lines.length === 1 && lines[0].length < 60 && !/[.:!?]$/.test(lines[0])) out.push(h("h3", {}, lines[0]));
    else out.push(h("p", {}, lines.join(" ")));
  }
  return out;
}

export async function renderRules(root, game) {
  const section = h("section", { id: "rules", class: "rules", "aria-labelledby": "rules-title" });
  root.replaceChildren(section);
  const nav = h(
    "nav",
    { class: "board-nav", "aria-label": t("rules") },
    Object.keys(GAME_NAMES).map((g) => h("a", { href: `#/rules/${g}`, "aria-current": g === game ? "page" : null }, gameName(g))),
  );
  const response = await fetch(`/v1/games/${encodeURIComponent(game)}/rules`);
  if (!response.ok) {
    section.replaceChildren(h("p", { class: "notice refused", role: "alert" }, t("unknown_game")));
    return;
  }
  const german = renderText(await response.text());
  const title = h("h2", { id: "rules-title" }, t("rules_of", { game: gameName(game) }));
  const play = h("p", {}, h("a", { href: `#/tutorial/${game}` }, t("tutorial_link")));
  if (lang() === "de") {
    section.replaceChildren(title, nav, play, h("div", { class: "rules-text", lang: "de" }, german));
  } else {
    section.replaceChildren(
      title,
      nav,
      play,
      h("div", { class: "rules-summary" }, (SUMMARY_EN[game] || []).map((p) => h("p", {}, p))),
      h("details", { class: "rules-text", lang: "de" }, h("summary", {}, t("rules_german")), german),
    );
  }
}
