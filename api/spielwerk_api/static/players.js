// Players on the page: logging in and registering (#/login), a game's leaderboard
// (#/ratings/GAME) and a player's profile with the rating over time (#/players/NAME).
// The session is an HttpOnly cookie the API sets: the page only asks who is logged in.

import { ApiError, request } from "./api.js";
import { h } from "./dom.js";
import { GAME_NAMES, gameName, levelName, t } from "./i18n.js";

// Who is logged in (null: a guest), as GET /v1/session said last.
export const account = { player: null, known: false, guestName: "" };

export async function loadAccount() {
  try {
    account.player = (await request("/v1/session")).player;
  } catch {
    account.player = null;
  }
  account.known = true;
  return account.player;
}

// The header's part: the player's name (their profile) and "Abmelden", or "Anmelden".
export function accountNav(onChange) {
  if (account.player) {
    return h(
      "span",
      { class: "account" },
      h("a", { href: `#/players/${encodeURIComponent(account.player)}`, id: "account-name" }, account.player),
      " ",
      h(
        "button",
        {
          type: "button",
          id: "logout",
          onclick: async () => {
            await request("/v1/session", { method: "DELETE" });
            account.player = null;
            onChange();
          },
        },
        t("logout"),
      ),
    );
  }
  return h("a", { href: "#/login", id: "login-link" }, t("login"));
}

export function renderLogin(root, onChange) {
  const notice = h("p", { id: "login-notice", class: "notice", role: "alert" });
  const name = h("input", { id: "login-name", name: "username", autocomplete: "username", required: true, maxlength: 24 });
  const password = h("input", {
    id: "login-password",
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
    minlength: 8,
    maxlength: 128,
  });
  async function send(path, status) {
    notice.textContent = "";
    try {
      const out = await request(path, { method: "POST", body: { name: name.value, password: password.value } });
      account.player = out.name;
      onChange();
      location.hash = `#/players/${encodeURIComponent(out.name)}`;
    } catch (error) {
      notice.textContent = error instanceof ApiError ? error.message : String(error);
    }
    return status;
  }
  const form = h(
    "form",
    {
      id: "login",
      class: "login",
      onsubmit: (event) => {
        event.preventDefault();
        send("/v1/session");
      },
    },
    h("h2", {}, t("login_title")),
    h("p", {}, t("login_why")),
    h("p", {}, h("label", { for: "login-name" }, t("player_name")), " ", name),
    h("p", {}, h("label", { for: "login-password" }, t("password")), " ", password),
    h(
      "p",
      {},
      h("button", { type: "submit", id: "login-submit", class: "primary" }, t("login")),
      " ",
      h(
        "button",
        {
          type: "button",
          id: "register",
          onclick: () => {
            if (form.reportValidity()) send("/v1/players");
          },
        },
        t("register"),
      ),
    ),
    notice,
  );
  root.replaceChildren(form);
  name.focus();
}

// A rating as people read it: "1620 ± 140".
function ratingText(r) {
  return r.interval ? `${r.rating} ± ${r.interval}` : String(r.rating);
}

function poolName(pool) {
  return t(pool === "bots" ? "pool_bots" : "pool_people");
}

export async function renderBoard(root, game, pool = "people") {
  const games = Object.keys(GAME_NAMES);
  const nav = h(
    "nav",
    { class: "board-nav", "aria-label": t("leaderboards") },
    games.map((g) => h("a", { href: `#/ratings/${g}`, "aria-current": g === game ? "page" : null }, gameName(g))),
  );
  const pools = h(
    "p",
    { class: "pools" },
    ["people", "bots"].map((p) =>
      h("a", { href: `#/ratings/${game}/${p}`, "aria-current": p === pool ? "page" : null, class: "pool" }, poolName(p)),
    ),
  );
  const section = h("section", { id: "leaderboard", class: "leaderboard", "aria-labelledby": "board-title" });
  root.replaceChildren(section);
  const board = await request(`/v1/ratings/${encodeURIComponent(game)}?pool=${pool}`);
  const rows = board.players.map((p, i) =>
    h(
      "tr",
      {},
      h("td", {}, String(i + 1)),
      h("td", {}, h("a", { href: `#/players/${encodeURIComponent(p.name)}` }, p.name)),
      h("td", {}, ratingText(p)),
      h("td", {}, String(p.matches)),
    ),
  );
  const bots = board.bots.map((b) =>
    h("tr", {}, h("td", {}, t("bot_level", { strength: levelName(b.name) })), h("td", {}, b.rating === null ? "–" : String(Math.round(b.rating)))),
  );
  section.replaceChildren(
    h("h2", { id: "board-title" }, t("leaderboard_of", { game: gameName(game) })),
    nav,
    pools,
    h("p", { class: "hint" }, t("leaderboard_how")),
    rows.length
      ? h(
          "table",
          { id: "board-players" },
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("player_name")), h("th", { scope: "col" }, t("rating")), h("th", { scope: "col" }, t("rated_matches")))),
          h("tbody", {}, rows),
        )
      : h("p", { id: "board-empty" }, t("leaderboard_empty")),
    h("h3", {}, t("bots_ladder")),
    h("table", { id: "board-bots" }, h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("bot")), h("th", { scope: "col" }, t("rating")))), h("tbody", {}, bots)),
  );
}

// The rating after each rated match of one game and pool, as a line (SVG, no library).
function chart(steps) {
  const width = 320;
  const height = 120;
  const pad = 24;
  const values = steps.map((s) => s.rating);
  const low = Math.min(...values, 1500) - 20;
  const high = Math.max(...values, 1500) + 20;
  const x = (i) => pad + (steps.length < 2 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (steps.length - 1));
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low);
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("rating_chart", { from: values[0], to: values[values.length - 1], n: values.length }));
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i)},${y(v)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  const base = document.createElementNS(ns, "line");
  for (const [k, v] of Object.entries({ x1: pad, x2: width - pad, y1: y(1500), y2: y(1500), stroke: "#999", "stroke-dasharray": "4 4" }))
    base.setAttribute(k, String(v));
  svg.append(base, line);
  for (const [i, v] of values.entries()) {
    const dot = document.createElementNS(ns, "circle");
    for (const [k, val] of Object.entries({ cx: x(i), cy: y(v), r: 3, fill: "currentColor" })) dot.setAttribute(k, String(val));
    svg.append(dot);
  }
  return svg;
}

export async function renderProfile(root, name) {
  const section = h("section", { id: "profile", class: "profile", "aria-labelledby": "profile-title" });
  root.replaceChildren(section);
  let profile;
  try {
    profile = await request(`/v1/players/${encodeURIComponent(name)}`);
  } catch (error) {
    section.replaceChildren(h("p", { class: "notice refused", role: "alert" }, error.message));
    return;
  }
  const ratings = profile.ratings.map((r) => {
    const steps = profile.history.filter((s) => s.game === r.game && s.pool === r.pool);
    return h(
      "article",
      { class: "rating", dataset: { game: r.game, pool: r.pool } },
      h("h3", {}, `${gameName(r.game)} · ${poolName(r.pool)}`),
      h("p", {}, h("a", { href: `#/ratings/${r.game}/${r.pool}` }, `${t("rating")}: ${ratingText(r)}`), ` · ${t("rated_matches")}: ${r.matches}`),
      steps.length ? chart(steps) : null,
    );
  });
  const matches = profile.matches.map((m) =>
    h(
      "li",
      {},
      h(
        "a",
        { href: `#/match/${m.id}` },
        `${gameName(m.game)}: ${m.names
          .map((n, s) => n || (m.bots[s] ? t("bot_seat", { name: levelName(m.bots[s]) }) : t("seat_n", { n: s + 1 })))
          .join(" – ")}`,
      ),
      ` · ${t(m.status)}`,
    ),
  );
  section.replaceChildren(
    h("h2", { id: "profile-title" }, profile.name),
    ratings.length ? h("div", { class: "ratings" }, ratings) : h("p", {}, t("no_ratings_yet")),
    h("h3", {}, t("latest_matches")),
    matches.length ? h("ul", { id: "profile-matches" }, matches) : h("p", {}, t("no_matches")),
  );
}
