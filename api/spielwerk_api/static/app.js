// The page's entry: the header, the language switch and the two routes (#/ the lobby,
// #/match/ID a match). An invitation link is the API's (GET …/seats/N/join?token=…): it sets
// the seat's cookie and opens #/match/ID, so no token ever sits in the page's address.

import { api } from "./api.js";
import { h } from "./dom.js";
import { GAME_NAMES, lang, setLang, t } from "./i18n.js";
import { renderLobby } from "./lobby.js";
import { MatchScreen } from "./match.js";
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
  const match = location.hash.match(/^#\/match\/([^/]+)$/);
  const tutorial = location.hash.match(/^#\/tutorial\/([a-z_]+)$/);
  if (tutorial) {
    screen = new TutorialScreen(root, tutorial[1]);
    await screen.start();
  } else if (match) {
    screen = new MatchScreen(root, decodeURIComponent(match[1]), games);
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
  else renderLobby(root, games);
});

window.addEventListener("hashchange", route);
route();
