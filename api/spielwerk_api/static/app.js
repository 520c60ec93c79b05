// The page's entry: the header, the language switch and the two routes (#/ the lobby,
// #/match/ID a match). An invitation link is the API's (GET …/seats/N/join?token=…): it sets
// the seat's cookie and opens #/match/ID, so no token ever sits in the page's address.

import { api } from "./api.js";
import { h } from "./dom.js";
import { GAME_NAMES, lang, setLang, t } from "./i18n.js";
import { renderLobby } from "./lobby.js";
import { MatchScreen } from "./match.js";
import { account, accountNav, loadAccount, renderBoard, renderLogin, renderProfile } from "./players.js";
import { renderRules } from "./rules.js";
import { TutorialScreen } from "./tutorial.js";

const root = document.getElementById("app");
let screen = null;
let games = null;

async function loadGames() {
  const { games: list } = await api.games();
  // The four games in the order the site names them, any others after.
  const order = Object.keys(GAME_NAMES);
  list.sort((a, b) => (order.indexOf(a.name) + 1 || 99) - (order.indexOf(b.name) + 1 || 99));
  return Object.fromEntries(list.map((g) => [g.name, g]));
}

function renderHeader() {
  document.documentElement.lang = lang();
  document.title = t("title");
  const button = document.getElementById("lang");
  button.textContent = t("switch_language");
  button.setAttribute("aria-label", t("switch_language_hint"));
  button.lang = lang() === "de" ? "en" : "de";
  document.getElementById("lobby-link").textContent = t("lobby");
  document.getElementById("ratings-link").textContent = t("leaderboards");
  document.getElementById("account").replaceChildren(accountNav(accountChanged));
}

// Logged in or out: the header, and the screen (a lobby's seat choices depend on it).
function accountChanged() {
  renderHeader();
  if (!screen) route();
}

async function route() {
  if (screen) screen.stop();
  screen = null;
  renderHeader();
  try {
    games = games || (await loadGames());
  } catch (error) {
    root.replaceChildren(h("p", { class: "notice refused", role: "alert" }, t("error", { detail: error.message })));
    return;
  }
  if (!account.known) {
    await loadAccount();
    renderHeader();
  }
  const match = location.hash.match(/^#\/match\/([^/]+?)(\/replay)?$/);
  const tutorial = location.hash.match(/^#\/tutorial\/([a-z_]+)$/);
  const board = location.hash.match(/^#\/ratings(?:\/([a-z_]+))?(?:\/(people|bots))?$/);
  const profile = location.hash.match(/^#\/players\/([^/]+)$/);
  const rules = location.hash.match(/^#\/rules\/([a-z_]+)$/);
  if (rules) {
    await renderRules(root, rules[1]);
  } else if (location.hash === "#/login") {
    renderLogin(root, accountChanged);
  } else if (board) {
    await renderBoard(root, board[1] || "schotten_totten", board[2] || "people").catch((error) =>
      root.replaceChildren(h("p", { class: "notice refused", role: "alert" }, t("error", { detail: error.message }))),
    );
  } else if (profile) {
    await renderProfile(root, decodeURIComponent(profile[1]));
  } else if (tutorial) {
    screen = new TutorialScreen(root, tutorial[1]);
    await screen.start();
  } else if (match) {
    screen = new MatchScreen(root, decodeURIComponent(match[1]), games, { replay: Boolean(match[2]) });
    await screen.start();
  } else {
    renderLobby(root, games);
  }
}

document.getElementById("lang").addEventListener("click", () => {
  setLang(lang() === "de" ? "en" : "de");
  renderHeader();
  // Everything the engine says (moves, reasons, results) is asked for again in the new language.
  if (screen) screen.relabel();
  else route(); // the lobby, a leaderboard, a profile or the rules, drawn anew
});

window.addEventListener("hashchange", route);
route();
