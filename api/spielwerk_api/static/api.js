// The public HTTP API, nothing else: whatever the page does, an outside client can do.

import { lang } from "./i18n.js";

// A refusal of the API: its status and RFC 9457 problem details (code, detail, rule, …).
export class ApiError extends Error {
  constructor(status, problem) {
    super((problem && (problem.detail || problem.title)) || `HTTP ${status}`);
    this.status = status;
    this.problem = problem || {};
  }
}

// Every request asks for texts in the page's language and names the seat by its token.
export function headers(token, extra = {}) {
  const h = { Accept: "application/json", "Accept-Language": lang(), ...extra };
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

export async function request(path, { method = "GET", token = null, body, signal } = {}) {
  const init = { method, headers: headers(token), signal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { detail: text.slice(0, 200) };
    }
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  games: () => request("/v1/games"),
  create: (body) => request("/v1/matches", { method: "POST", body }),
  match: (id, token) => request(`/v1/matches/${encodeURIComponent(id)}`, { token }),
  moves: (id, token) => request(`/v1/matches/${encodeURIComponent(id)}/moves`, { token }),
  play: (id, token, version, move) =>
    request(`/v1/matches/${encodeURIComponent(id)}/moves`, { method: "POST", token, body: { version, move } }),
  check: (id, token, move) =>
    request(`/v1/matches/${encodeURIComponent(id)}/check`, { method: "POST", token, body: { move } }),
  resign: (id, token) => request(`/v1/matches/${encodeURIComponent(id)}/resign`, { method: "POST", token }),
  lobby: () => request("/v1/matches"),
  log: (id, token) => request(`/v1/matches/${encodeURIComponent(id)}/log`, { token }),
  join: (id, seat, body) =>
    request(`/v1/matches/${encodeURIComponent(id)}/seats/${seat}/join`, { method: "POST", body }),
  // One page of the table talk: the messages after message `after`, at most `limit`.
  chat: (id, token, after = 0, limit = 500) =>
    request(`/v1/matches/${encodeURIComponent(id)}/chat?after=${after}&limit=${limit}`, { token }),
  say: (id, token, text) =>
    request(`/v1/matches/${encodeURIComponent(id)}/chat`, { method: "POST", token, body: { text } }),
  // EventSource sends no Accept-Language of ours: the language goes in the query.
  eventsUrl: (id) => `/v1/matches/${encodeURIComponent(id)}/events?lang=${lang()}`,
};

// The seat choices for bots, from GET /v1/games: the engine's levels first, weakest first
// (`levels`: a seat holds a level by its name; `elo` is its measured rating), then each bot by
// name with its own defaults (`bots`). `value` is the lobby's key, `bot` and `params` the seat.
export function botChoices(info) {
  const levels = ((info && info.levels) || []).map((l) => ({
    value: `bot:${l.name}`,
    bot: l.name,
    level: l.name,
    elo: l.elo ?? null,
    params: {},
  }));
  const bots = ((info && info.bots) || []).map((b) => ({ value: `bot:${b.name}`, bot: b.name, level: null, elo: null, params: {} }));
  return [...levels, ...bots];
}

// Moves are the engine's JSON; two are the same move when their canonical JSON is equal.
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
