// The lobby: a game, its options and variants, who sits where, a time control; then
// POST /v1/matches. The seat token is kept in sessionStorage under the match id.

import { api, botChoices } from "./api.js";
import { h } from "./dom.js";
import { gameName, lang, levelName, t } from "./i18n.js";
import { seatKey, storeSeat } from "./match.js";
import { account } from "./players.js";
import { hasTutorial } from "./tutorial.js";

const CLOCKS = [
  { key: "none", clock: null },
  { key: "5", clock: { initial_s: 300, increment_s: 0 } },
  { key: "10+5", clock: { initial_s: 600, increment_s: 5 } },
  { key: "20", clock: { initial_s: 1200, increment_s: 0 } },
];

// The choices so far: they outlive a change of language or a visit to a match.
const draft = { game: "schotten_totten", options: {}, seats: null, clock: "none", seed: "" };

function optionLabel(spec) {
  return (lang() === "de" && spec.name_de) || spec.name.replace(/_/g, " ");
}

// How many seats the options make: a "players" option where the game has one (The Game).
function seatCount(info) {
  const players = info.options.find((o) => o.name === "players");
  return players ? Number(draft.options.players ?? info.defaults.players) : info.players;
}

function resetSeats(info) {
  const n = seatCount(info);
  const old = draft.seats || [];
  draft.seats = Array.from({ length: n }, (_, s) => old[s] || (s === 0 ? "you" : "bot:random"));
  if (!draft.seats.includes("you") && !old.length) draft.seats[0] = "you";
}

// A level in words, with its measured rating where the engine has one ("Bot: stark · Elo 1720");
// a level the page has no words for is shown as the API names it.
function levelLabel(choice) {
  const words = levelName(choice.level);
  return choice.elo === null ? t("bot_level", { strength: words }) : t("bot_level_elo", { strength: words, elo: Math.round(choice.elo) });
}


// A time control in words: minutes (one minute in the singular), and the increment.
function clockWords(minutes, increment) {
  const number = (x) => x.toLocaleString(lang(), { maximumFractionDigits: 1 });
  const m = number(minutes);
  if (increment) return t(minutes === 1 ? "clock_min_one_inc" : "clock_min_inc", { m, s: number(increment) });
  return t(minutes === 1 ? "clock_min_one" : "clock_min", { m });
}

// A listed match's time control, as the lobby's choices word it.
function clockOf(clock) {
  return clock ? clockWords(clock.initial_s / 60, clock.increment_s) : t("no_clock");
}

// One of the lobby's choices (CLOCKS) by its key.
function clockText(key) {
  return clockOf(CLOCKS.find((c) => c.key === key)?.clock ?? null);
}

export function renderLobby(root, games) {
  const info = games[draft.game];
  if (!draft.seats || draft.seats.length !== seatCount(info)) resetSeats(info);
  const rerender = () => renderLobby(root, games);

  const gameChoice = h(
    "fieldset",
    { class: "games" },
    h("legend", {}, t("game")),
    Object.values(games).map((g) =>
      h(
        "label",
        { class: "game-choice" },
        h("input", {
          type: "radio",
          name: "game",
          id: `game-${g.name}`,
          value: g.name,
          checked: g.name === draft.game,
          onchange: () => {
            draft.game = g.name;
            draft.options = {};
            draft.seats = null;
            rerender();
            root.querySelector(`#game-${g.name}`)?.focus();
          },
        }),
        ` ${gameName(g.name)} `,
        h("small", {}, `(${t("players", { n: g.players })})`),
      ),
    ),
  );

  const field = (spec) => {
    const id = `opt-${spec.name}`;
    const value = draft.options[spec.name] ?? info.defaults[spec.name] ?? spec.default;
    let input;
    if (spec.type === "bool") {
      input = h("input", {
        type: "checkbox",
        id,
        checked: Boolean(value),
        onchange: (e) => {
          draft.options[spec.name] = e.target.checked;
        },
      });
    } else if (Array.isArray(spec.allowed)) {
      input = h(
        "select",
        {
          id,
          onchange: (e) => {
            draft.options[spec.name] = JSON.parse(e.target.value);
            if (spec.name === "players") {
              draft.seats = null;
              rerender();
              root.querySelector(`#${id}`)?.focus();
            }
          },
        },
        spec.allowed.map((a) => h("option", { value: JSON.stringify(a), selected: a === value }, String(a))),
      );
    } else {
      input = h("input", {
        type: "number",
        id,
        value,
        min: spec.min ?? undefined,
        max: spec.max ?? undefined,
        onchange: (e) => {
          if (e.target.value !== "") draft.options[spec.name] = Number(e.target.value);
        },
      });
    }
    const box = spec.type === "bool";
    return h(
      "div",
      { class: `field${box ? " check" : ""}` },
      box ? [input, " ", h("label", { for: id }, optionLabel(spec))] : [h("label", { for: id }, optionLabel(spec)), " ", input],
      // The engine's description of the option, in German where the engine words it so.
      lang() === "de" && spec.description_de
        ? h("small", { class: "description" }, spec.description_de)
        : h("small", { class: "description", lang: "en" }, spec.description),
    );
  };
  const variants = new Set(info.variants);
  const plain = info.options.filter((o) => !variants.has(o.name));
  const variantSpecs = info.options.filter((o) => variants.has(o.name));

  const bots = botChoices(info);
  const seatChoice = h(
    "fieldset",
    { class: "seats" },
    h("legend", {}, t("seats")),
    draft.seats.map((choice, s) =>
      h(
        "div",
        { class: "field" },
        h("label", { for: `seat-${s}` }, t("seat_n", { n: s + 1 })),
        " ",
        h(
          "select",
          {
            id: `seat-${s}`,
            onchange: (e) => {
              const value = e.target.value;
              if (value === "you") draft.seats = draft.seats.map((c) => (c === "you" ? "bot:random" : c));
              draft.seats[s] = value;
              rerender();
              root.querySelector(`#seat-${s}`)?.focus();
            },
          },
          h("option", { value: "you", selected: choice === "you" }, t("you")),
          bots.map((b) =>
            h(
              "option",
              { value: b.value, selected: choice === b.value },
              b.level ? levelLabel(b) : t("bot", { name: b.bot }),
            ),
          ),
          h("option", { value: "person", selected: choice === "person" }, t("person")),
          h("option", { value: "open", selected: choice === "open" }, t("open_seat")),
        ),
      ),
    ),
  );

  const clock = h(
    "div",
    { class: "field" },
    h("label", { for: "clock" }, t("clock")),
    " ",
    h(
      "select",
      { id: "clock", onchange: (e) => (draft.clock = e.target.value) },
      CLOCKS.map((c) => h("option", { value: c.key, selected: c.key === draft.clock }, clockText(c.key))),
    ),
  );
  const seed = h(
    "div",
    { class: "field" },
    h("label", { for: "seed" }, t("seed")),
    " ",
    // Seeds stay below 2^53, so JavaScript's numbers carry them exactly.
    h("input", { id: "seed", type: "number", min: 0, max: Number.MAX_SAFE_INTEGER, value: draft.seed, oninput: (e) => (draft.seed = e.target.value) }),
  );
  // A guest may give a name (a logged-in player's seats show the player's name).
  const guest = account.player
    ? null
    : h(
        "p",
        { class: "field guest" },
        h("label", { for: "guest-name" }, t("guest_name")),
        " ",
        h("input", {
          id: "guest-name",
          maxlength: 24,
          autocomplete: "nickname",
          value: account.guestName,
          oninput: (e) => (account.guestName = e.target.value.trim()),
        }),
      );
  const notice = h("p", { id: "lobby-notice", class: "notice", role: "status", "aria-live": "polite" });

  const form = h(
    "form",
    {
      id: "new-match",
      onsubmit: async (event) => {
        event.preventDefault();
        const button = form.querySelector("#start");
        button.disabled = true;
        notice.textContent = t("starting");
        notice.className = "notice info";
        try {
          const id = await start(info);
          location.hash = `#/match/${id}`;
        } catch (error) {
          notice.textContent = t("error", { detail: error.message });
          notice.className = "notice refused";
          button.disabled = false;
        }
      },
    },
    h("h2", {}, t("new_match")),
    gameChoice,
    plain.length ? h("fieldset", { class: "options" }, h("legend", {}, t("options")), plain.map(field)) : null,
    variantSpecs.length ? h("fieldset", { class: "variants" }, h("legend", {}, t("variants_unranked")), variantSpecs.map(field)) : null,
    seatChoice,
    guest,
    h("fieldset", { class: "more" }, h("legend", {}, t("clock_and_seed")), clock, seed),
    h("p", {}, h("button", { type: "submit", id: "start", class: "primary" }, t("start"))),
    notice,
  );

  root.replaceChildren(h("div", { class: "lobby" }, form, tutorialLinks(games), yourMatches(), lobbyLists(root)));
}

async function start(info) {
  const bots = new Map(botChoices(info).map((b) => [b.value, b]));
  const seats = draft.seats.map((c) => {
    const bot = bots.get(c);
    if (bot) return Object.keys(bot.params).length ? { kind: "bot", bot: bot.bot, params: bot.params } : { kind: "bot", bot: bot.bot };
    if (c === "open") return { kind: "person", open: true };
    // The creator's own seat: the logged-in player's, or the guest's name if one was given.
    if (c === "you") return account.player || !account.guestName ? { kind: "person", me: true } : { kind: "person", me: true, name: account.guestName };
    return { kind: "person" };
  });
  const options = {};
  for (const [name, value] of Object.entries(draft.options)) {
    if (value !== info.defaults[name]) options[name] = value;
  }
  const body = { game: info.name, seats, options };
  const clock = CLOCKS.find((c) => c.key === draft.clock);
  if (clock && clock.clock) body.clock = clock.clock;
  if (draft.seed !== "") body.seed = Number(draft.seed);
  const created = await api.create(body);
  const you = draft.seats.indexOf("you");
  const mine = created.seats.find((s) => s.seat === you);
  // The seat's cookie, for the event stream (an EventSource sends no Authorization header).
  if (mine && mine.token) await api.join(created.id, mine.seat, { token: mine.token });
  storeSeat(created.id, {
    game: info.name,
    token: mine ? mine.token : null,
    seat: mine ? mine.seat : null,
    seats: created.seats.map(({ seat, kind, bot }) => ({ seat, kind, bot })),
    // The invitation links of the other person seats (open seats are taken from the lobby).
    invites: created.seats
      .filter((s) => s.kind === "person" && s.seat !== you && s.invitation)
      .map(({ seat, invitation }) => ({ seat, invitation })),
  });
  return created.id;
}

// GET /v1/matches: matches waiting for a person (join a free seat) and finished ones (replay).
function lobbyLists(root) {
  const openList = h("ul", { id: "open-matches" });
  const finishedList = h("ul", { id: "finished-matches" });
  const section = h(
    "section",
    { class: "lobby-lists", "aria-labelledby": "open-title" },
    h("h2", { id: "open-title" }, t("open_matches")),
    openList,
    h("h2", { id: "finished-title" }, t("finished_matches")),
    finishedList,
  );
  api
    .lobby()
    .then((lobby) => {
      openList.replaceChildren(
        ...(lobby.open.length
          ? lobby.open.map((m) =>
              h(
                "li",
                { dataset: { match: m.id } },
                `${gameName(m.game)} · ${clockOf(m.clock)}${m.ranked === false ? ` · ${t(m.seed_chosen ? "unranked_seed" : "unranked")}` : ""} `,
                m.free_seats.map((seat) =>
                  h(
                    "button",
                    {
                      type: "button",
                      class: "join",
                      onclick: async () => {
                        try {
                          await api.join(m.id, seat, !account.player && account.guestName ? { name: account.guestName } : {});
                          storeSeat(m.id, { game: m.game, token: null, seat, seats: m.seats, invites: [] });
                          location.hash = `#/match/${m.id}`;
                        } catch (error) {
                          root.querySelector("#lobby-notice")?.replaceChildren(String(error.message));
                        }
                      },
                    },
                    t("join_seat", { n: seat + 1 }),
                  ),
                ),
              ),
            )
          : [h("li", {}, t("no_matches"))]),
      );
      finishedList.replaceChildren(
        ...(lobby.finished.length
          ? lobby.finished.map((m) =>
              h(
                "li",
                { dataset: { match: m.id } },
                h("a", { href: `#/match/${m.id}` }, `${gameName(m.game)}: ${m.result ? m.result.text : t(m.status)}`),
                " ",
                // The match's page, which opens its replay (the API's JSON is `m.replay`).
                h("a", { href: `#/match/${m.id}/replay`, class: "replay" }, t("replay")),
              ),
            )
          : [h("li", {}, t("no_matches"))]),
      );
    })
    .catch(() => {});
  return h("div", {}, section, h("p", { id: "lobby-notice", role: "status" }));
}

function yourMatches() {
  const items = [];
  for (let i = 0; i < sessionStorage.length; i++) {
    const key = sessionStorage.key(i);
    if (!key || !key.startsWith("spielwerk.match.")) continue;
    const id = key.slice("spielwerk.match.".length);
    if (seatKey(id) !== key) continue;
    let record;
    try {
      record = JSON.parse(sessionStorage.getItem(key));
    } catch {
      continue;
    }
    if (!record || record.seat === null || record.seat === undefined) continue;
    items.push(h("li", {}, h("a", { href: `#/match/${id}` }, t("resume", { game: gameName(record.game || ""), n: record.seat + 1 }))));
  }
  return h(
    "section",
    { class: "your-matches", "aria-labelledby": "your-matches-title" },
    h("h2", { id: "your-matches-title" }, t("your_matches")),
    items.length ? h("ul", {}, items) : h("p", {}, t("no_matches")),
  );
}

// A tutorial per game: a prepared position to learn the game by playing (tutorial.js).
function tutorialLinks(games) {
  const names = Object.keys(games).filter(hasTutorial);
  if (!names.length) return null;
  return h(
    "nav",
    { class: "tutorials", "aria-label": t("tutorial") },
    h("h2", {}, t("tutorial")),
    h(
      "ul",
      {},
      names.map((name) => h("li", {}, h("a", { href: `#/tutorial/${name}`, id: `tutorial-${name}` }, `${t("tutorial")}: ${gameName(name)}`))),
    ),
    h("h2", {}, t("rules")),
    h(
      "ul",
      {},
      Object.keys(games).map((name) => h("li", {}, h("a", { href: `#/rules/${name}`, id: `rules-${name}` }, t("rules_of", { game: gameName(name) })))),
    ),
  );
}
