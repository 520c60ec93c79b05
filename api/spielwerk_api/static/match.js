// One match on screen: the seat's view, its legal moves, the event stream and the moves made.
//
// The page never decides a rule: the view and the legal moves come from the API, a move is
// sent as the engine's JSON, and an attempt that is no legal move is sent to POST …/check so
// the engine says why not. Each game's screen only draws (schotten.js, generic.js).

import { api, ApiError, canonical } from "./api.js";
import { h } from "./dom.js";
import { gameName, hasText, levelName, t } from "./i18n.js";
import { openStream, STATE_EVENTS } from "./stream.js";
import { replayViewer } from "./replay.js";
import { scrollToNewest, talkBox } from "./talk.js";
import { screenFor } from "./screens.js";


// sessionStorage, keyed by match id: which seat this tab holds (and, for the match's creator,
// its token); the seat cookie names the seat to the API (GET …/join, POST …/join).
export function seatKey(id) {
  return `spielwerk.match.${id}`;
}

export function storedSeat(id) {
  try {
    return JSON.parse(sessionStorage.getItem(seatKey(id)) || "null");
  } catch {
    return null;
  }
}

export function storeSeat(id, record) {
  sessionStorage.setItem(seatKey(id), JSON.stringify(record));
}

export class MatchScreen {
  constructor(root, id, games, { replay = false } = {}) {
    this.root = root;
    this.openReplay = replay; // #/match/ID/replay: the replay opens at once
    this.id = id;
    this.games = games; // GET /v1/games by name, for the game's utility
    const record = storedSeat(id);
    this.token = record ? record.token : null;
    this.seat = record ? record.seat : null;
    this.seats = (record && record.seats) || null;
    this.invites = (record && record.invites) || [];
    this.out = null;
    this.moves = [];
    this.movesFor = -1;
    this.history = new Map(); // version -> { seat, text }: who made it and what (null: unseen)
    this.ui = {}; // what a screen keeps between renders (the selected card)
    this.pending = 0;
    this.streamStatus = "";
    this.stream = null;
    this.stopped = false;
    this.clockTimer = null;
    this.noticeText = "";
    this.noticeRule = null;
    this.noticeKind = "";
    this.chat = new Map(); // The Game's table talk: message id -> { seat, text }
  }

  async start() {
    this.section = h("section", { id: "match", "aria-labelledby": "match-title", dataset: { busy: "true" } });
    this.root.replaceChildren(this.section);
    this.busy(+1);
    try {
      await this.accept(await api.match(this.id, this.token));
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403) && this.token) {
        // A token this match does not know: watch as a spectator instead.
        this.token = null;
        this.seat = null;
        await this.accept(await api.match(this.id, null));
      } else {
        this.section.replaceChildren(
          h("p", { class: "notice refused", role: "alert" }, error.status === 404 ? t("unknown_match") : String(error.message)),
          h("p", {}, h("a", { href: "#/" }, t("back_to_lobby"))),
        );
        return;
      }
    } finally {
      this.busy(-1);
    }
    if (this.stopped) return; // left for another screen while loading
    this.busy(+1);
    try {
      await this.loadLog();
    } finally {
      this.busy(-1);
    }
    if (this.hasTableTalk()) await this.loadChat();
    if (this.out && this.out.status === "running") this.openStream();
    else if (this.openReplay) this.section.querySelector("#replay-open")?.click();
    this.clockTimer = setInterval(() => this.tickClocks(), 1000);
  }

  stop() {
    this.stopped = true;
    if (this.stream) this.stream.close();
    this.stream = null;
    clearInterval(this.clockTimer);
  }

  openStream() {
    this.stream = openStream(api.eventsUrl(this.id), {
      onStatus: (status) => {
        const reconnected = status === "live" && this.streamStatus === "reconnecting";
        this.streamStatus = status;
        if (reconnected && this.hasTableTalk()) this.loadChat();
        const el = this.section.querySelector("#stream-status");
        if (el) el.textContent = status === "live" ? t("stream_live") : t("stream_reconnecting");
      },
      onEvent: (message) => {
        if (message.event === "end") {
          // Every version has arrived; the API closed the stream.
          this.stream = null;
          return;
        }
        if (message.event === "chat") {
          try {
            this.heard(JSON.parse(message.data));
          } catch {
            // a message the page cannot read is left out
          }
          return;
        }
        if (!STATE_EVENTS.includes(message.event)) return;
        let out;
        try {
          out = JSON.parse(message.data);
        } catch {
          return;
        }
        // `seats`: a person took an open seat; same version, but the match may have begun.
        // `rules`: a seat left the table or came back (the leave rule's countdown).
        this.accept(out, { force: message.event !== "version" }).catch((error) => this.showError(error));
      },
    });
  }

  busy(delta) {
    this.pending += delta;
    if (this.section) this.section.dataset.busy = String(this.pending > 0);
  }

  // A newer version of the match (from a response or the stream): draw it with its moves.
  async accept(out, { force = false } = {}) {
    // The seat the API says the token or the cookie names (null: a spectator).
    if (out.seat !== undefined) this.seat = out.seat;
    if (out.last_move && out.version > 0) this.history.set(out.version, { seat: out.last_seat ?? null, text: out.last_move });
    const current = this.out;
    const same = out.version === current?.version && out.status === current?.status && !force;
    if (current && (out.version < current.version || same)) {
      this.renderHistory();
      return;
    }
    this.out = out;
    this.receivedAt = performance.now();
    const record = storedSeat(this.id);
    if (record && !record.game) storeSeat(this.id, { ...record, game: out.game }); // joined by link
    this.busy(+1);
    try {
      let moves = [];
      if (this.seat !== null && out.status === "running" && out.seats_to_move.includes(this.seat)) {
        moves = (await api.moves(this.id, this.token)).moves;
      }
      if (this.out !== out) return; // a newer version arrived meanwhile and draws itself
      this.moves = moves;
      this.movesFor = out.version;
      this.render();
    } finally {
      this.busy(-1);
    }
  }

  // The language changed: draw everything again, the engine's texts asked for anew.
  async relabel() {
    if (!this.out) return;
    this.out = null;
    this.busy(+1);
    try {
      await this.reload();
    } catch (error) {
      this.showError(error);
    } finally {
      this.busy(-1);
    }
  }

  async reload() {
    await this.accept(await api.match(this.id, this.token));
    await this.loadLog();
  }

  // The game log from the server (GET …/log): every recent ply with who made it, in the
  // page's language, so a reload or a language switch keeps it whole.
  async loadLog() {
    try {
      const { entries } = await api.log(this.id, this.token);
      this.history = new Map(entries.map((e) => [e.version, { seat: e.seat, text: e.text }]));
      this.renderHistory();
      this.renderLastMove();
    } catch {
      // the log is a convenience: the moves still arrive one by one
    }
  }

  // A ply as people read it: "Bot stark: legt Rot 7 an Stein 3" (an unseen one: who, and
  // that it was hidden).
  plyText(entry) {
    const text = entry.text ?? t("hidden_move");
    return entry.seat === null || entry.seat === undefined ? text : `${this.who(entry.seat)}: ${text}`;
  }

  // The last turn: the plies the same seat made one after the other up to now ("Letzter
  // Zug: Bot stark: spielt 34; spielt 37; beendet den Zug").
  lastTurn() {
    const versions = [...this.history.keys()].sort((a, b) => b - a);
    if (!versions.length || !this.out || versions[0] !== this.out.version) {
      return this.out && this.out.last_move ? this.plyText({ seat: this.out.last_seat ?? null, text: this.out.last_move }) : null;
    }
    const seat = this.history.get(versions[0]).seat;
    const turn = [];
    for (const [i, v] of versions.entries()) {
      const entry = this.history.get(v);
      if (entry.seat !== seat || (i > 0 && versions[i - 1] !== v + 1) || turn.length >= 8) break;
      turn.unshift(entry.text ?? t("hidden_move"));
    }
    const text = turn.join("; ");
    return seat === null ? text : `${this.who(seat)}: ${text}`;
  }

  renderLastMove() {
    const el = this.section && this.section.querySelector("#last-move");
    if (el) el.textContent = this.lastTurn() || t("none_yet");
  }

  // Sends a legal move (one of GET …/moves) against the version on screen.
  async play(move) {
    this.notice("");
    this.ui = {}; // a new position: nothing chosen on the board

    this.busy(+1);
    try {
      await this.accept(await api.play(this.id, this.token, this.out.version, move));
    } catch (error) {
      await this.refused(error);
    } finally {
      this.busy(-1);
    }
  }

  // A move the person tried: played if it is legal, else the engine's reason is shown and
  // nothing changes.
  async attempt(move) {
    if (this.moves.some((m) => canonical(m.move) === canonical(move))) return this.play(move);
    this.busy(+1);
    try {
      const answer = await api.check(this.id, this.token, move);
      if (answer.legal) return await this.play(move);
      this.notice(t("refused", { reason: answer.reason }), "refused", answer.rule);
    } catch (error) {
      await this.refused(error);
    } finally {
      this.busy(-1);
    }
  }

  // A message of the table talk (from the stream or GET …/chat), shown once by its id.
  heard(said) {
    if (this.chat.has(said.id)) return;
    this.chat.set(said.id, said);
    const list = this.section && this.section.querySelector("#talk-list");
    if (list) list.append(h("li", {}, `${this.who(said.seat)}: `, said.text));
    scrollToNewest(this.section);
  }

  // Every game has table talk; the engine says where T7 restricts it (The Game).
  hasTableTalk() {
    return Boolean(this.out);
  }

  talkRestricted() {
    const info = this.out && this.games[this.out.game];
    return Boolean(info && info.table_talk);
  }

  // Every message not heard yet, page by page (the API keeps at most 1,000 per match, so
  // this ends after a few pages); again after a reconnect, which may have skipped some.
  async loadChat() {
    try {
      let after = Math.max(0, ...this.chat.keys());
      for (let page = 0; page < 20; page += 1) {
        const log = await api.chat(this.id, this.token, after);
        const messages = log.messages || log;
        if (!messages.length) break;
        for (const said of messages) this.heard(said);
        after = Math.max(after, ...messages.map((said) => said.id));
      }
    } catch {
      // no table talk in this game or match
    }
  }

  // Says a text at the table; a text the engine refuses (numbers, T7) shows its reason.
  async say(text) {
    try {
      this.heard(await api.say(this.id, this.token, text));
      this.notice(""); // an earlier refusal no longer stands once a message is said
      return true;
    } catch (error) {
      await this.refused(error);
      return false;
    }
  }

  async resign() {
    if (!window.confirm(t("resign_confirm"))) return;
    this.busy(+1);
    try {
      await this.accept(await api.resign(this.id, this.token));
    } catch (error) {
      await this.refused(error);
    } finally {
      this.busy(-1);
    }
  }

  async refused(error) {
    if (!(error instanceof ApiError)) return this.showError(error);
    if (error.status === 409 && error.problem.code === "stale_version") {
      this.notice(t("stale"), "info");
      return this.reload();
    }
    if (error.status === 422) {
      const problem = error.problem;
      return this.notice(t("refused", { reason: problem.reason || problem.detail }), "refused", problem.rule);
    }
    return this.showError(error);
  }

  showError(error) {
    this.notice(t("error", { detail: error.message || String(error) }), "refused");
  }

  // A notice for the person; `rule`, the ruling behind a refusal (e.g. "S3a"), becomes a
  // "Regel" link to the game's rules, never a code in the sentence.
  notice(text, kind = "info", rule = null) {
    this.noticeText = text;
    this.noticeKind = kind;
    this.noticeRule = rule;
    const el = this.section && this.section.querySelector("#notice");
    if (el) {
      el.replaceChildren(text, ...(rule ? [" ", this.ruleLink(rule)] : []));
      el.className = `notice ${kind}`;
    }
  }

  // "Regel": a link to the game's rule text; the ruling's id only in its title.
  ruleLink(rule) {
    return h("a", { href: `#/rules/${this.out ? this.out.game : ""}`, class: "rule-link", "data-rule": rule, title: `${t("rule")} ${rule}` }, t("rule"));
  }

  // Who sits where, as a person reads it: you, a player's or guest's name, a bot by its
  // level ("Bot stark"), else the seat counted from 1.
  who(seat) {
    if (seat === this.seat) return t("you");
    const name = this.out && this.out.names && this.out.names[seat];
    if (name) return name;
    const bot = this.out && this.out.bots && this.out.bots[seat];
    if (bot) return t("bot_seat", { name: levelName(bot) });
    return t("other_person", { n: seat + 1 });
  }

  render() {
    const out = this.out;
    const focusKey = document.activeElement && this.section.contains(document.activeElement)
      ? document.activeElement.dataset.key
      : undefined;
    const s = this.section;
    s.dataset.game = out.game;
    s.dataset.version = String(out.version);
    s.dataset.status = out.status;
    s.dataset.seat = this.seat === null ? "" : String(this.seat);
    // The tab's title says whose turn it is, so a player in another tab sees it.
    const myTurn = this.seat !== null && out.status === "running" && !out.open_seats?.length && out.seats_to_move.includes(this.seat);
    document.title = myTurn ? `${t("tab_your_turn")} · ${gameName(out.game)}` : `${gameName(out.game)} · ${t("title")}`;

    const board = h("div", { id: "board", class: `board board-${out.game}` });
    const ctx = {
      out,
      view: out.view,
      moves: this.moves,
      seat: this.seat,
      ui: this.ui,
      who: (seat) => this.who(seat),
      play: (move) => this.play(move),
      rerender: () => this.render(),
      attempt: (move) => this.attempt(move),
      notice: (text, kind) => this.notice(text, kind),
      chat: [...this.chat.values()],
      say: (text) => this.say(text),
      running: out.status === "running",
      myTurn: this.seat !== null && out.seats_to_move.includes(this.seat),
    };
    screenFor(out.game)(board, ctx);
    this.markJustPlayed(board, out.version);

    const historyOpen = Boolean(s.querySelector("#history")?.open);
    const parts = [
      this.renderHead(),
      this.renderInvites(),
      h("p", { id: "notice", class: `notice ${this.noticeKind}`, role: "status", "aria-live": "polite" }, this.noticeText, ...(this.noticeRule ? [" ", this.ruleLink(this.noticeRule)] : [])),
      this.renderResult(),
      board,
      talkBox(ctx, this.talkRestricted()),
      h("details", { id: "history", class: "history", open: historyOpen }, h("summary", {}, t("history")), h("ol", { id: "history-list" })),
    ];
    s.replaceChildren(...parts.filter(Boolean));
    scrollToNewest(s);
    this.renderHistory();
    this.tickClocks();

    if (focusKey !== undefined) {
      const again = s.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      const fallback = s.querySelector("[data-autofocus]");
      (again || fallback || s.querySelector("#board button") || s.querySelector("button"))?.focus();
    }
  }

  renderHead() {
    const out = this.out;
    let turn;
    if (out.status !== "running") turn = t("match_over");
    else if (out.open_seats && out.open_seats.length)
      turn = t("waiting_for_players", { seats: out.open_seats.map((s) => s + 1).join(", ") });
    else if (this.seat !== null && out.seats_to_move.includes(this.seat)) turn = t("your_turn");
    else if (out.seats_to_move.length) turn = t("to_move", { who: out.seats_to_move.map((s) => this.who(s)).join(", ") });
    else turn = t("nobody_to_move");
    const clocks = out.clocks
      ? h(
          "p",
          { class: "clocks" },
          `${t("clocks")}: `,
          out.clocks.map((_, seat) => h("span", { class: "clock", dataset: { seat: String(seat) } })),
        )
      : null;
    return h(
      "header",
      { class: "match-head" },
      h("h2", { id: "match-title" }, gameName(out.game), out.ranked === false ? h("small", { class: "unranked" }, ` (${t(out.seed_chosen ? "unranked_seed" : "unranked")})`) : null),
      h("p", { class: "rules-link" }, h("a", { href: `#/rules/${out.game}` }, t("rules"))),
      h("p", { class: "seat-line" }, this.seat === null ? t("spectator") : t("you_sit", { n: this.seat + 1 })),
      h("p", { id: "turn", class: "turn", "aria-live": "polite" }, turn),
      h("p", { class: "last" }, `${t("last_move")}: `, h("span", { id: "last-move" }, this.lastTurn() || t("none_yet"))),
      clocks,
      h("p", { id: "rule-clock", class: "rule-clock", role: "status" }),
      h("p", { id: "stream-status", class: "stream" }, this.streamStatus === "live" ? t("stream_live") : ""),
      h(
        "p",
        { class: "actions" },
        this.seat !== null && out.status === "running"
          ? h("button", { type: "button", id: "resign", onclick: () => this.resign() }, t("resign"))
          : null,
        h("a", { href: "#/", class: "button-link" }, t("back_to_lobby")),
      ),
    );
  }

  renderInvites() {
    if (!this.invites.length || this.out.status !== "running") return null;
    return h(
      "div",
      { class: "invites" },
      h("p", {}, t("invite")),
      h(
        "ul",
        {},
        this.invites.map((inv) => {
          // The API's invitation link: opening it sets that seat's cookie and opens the match.
          const link = `${location.origin}${inv.invitation}`;
          return h("li", {}, `${t("seat_n", { n: inv.seat + 1 })}: `, h("input", { readonly: true, value: link, size: 60, "aria-label": t("seat_n", { n: inv.seat + 1 }) }));
        }),
      ),
    );
  }

  renderResult() {
    const out = this.out;
    if (out.status === "running" || !out.result) return null;
    const info = this.games[out.game];
    let summary = null;
    // Zero-sum and team games: the seat's return says won or lost (cooperative ones have
    // only their result text).
    if (this.seat !== null && info && info.utility !== "cooperative") {
      const mine = out.result.returns[this.seat];
      summary = mine > 0 ? t("won") : mine < 0 ? t("lost") : t("draw");
    } else if (info && info.utility !== "cooperative") {
      // A spectator reads who won, by name ("Anna gewinnt.", "Bot stark und Bert gewinnen.").
      const best = Math.max(...out.result.returns);
      const winners = out.result.returns.map((r, s) => (r === best ? s : null)).filter((s) => s !== null);
      if (winners.length === out.result.returns.length) summary = t("draw");
      else summary = t(winners.length > 1 ? "they_win" : "wins", { who: winners.map((s) => this.who(s)).join(t("and")) });
    }
    return h(
      "div",
      { id: "result", class: "result", role: "status" },
      h("h3", {}, t("result")),
      summary ? h("p", { class: "summary" }, summary) : null,
      h("p", { id: "result-text" }, out.result.text, ...(out.result.rule ? [" ", this.ruleLink(out.result.rule)] : [])),
      Array.isArray(out.result.points)
        ? h("p", { id: "team-points" }, t("team_points", { a: out.result.points[0], b: out.result.points[1] }))
        : null,
      this.seat !== null ? h("p", {}, h("button", { type: "button", id: "rematch", onclick: () => this.rematch() }, t("rematch"))) : null,
      replayViewer(this.id, (seat) => this.who(seat)),
    );
  }

  // The same match again: the game, its options and time control, the same bots; this seat
  // is yours again, the other persons get new invitation links. (A deal chosen before is not
  // repeated: the server deals, so the rematch can count.)
  async rematch() {
    const out = this.out;
    const seats = out.bots.map((bot, s) => (bot ? { kind: "bot", bot } : s === this.seat ? { kind: "person", me: true } : { kind: "person" }));
    const body = { game: out.game, options: out.options, seats };
    if (out.clock) body.clock = out.clock;
    try {
      const created = await api.create(body);
      const mine = created.seats.find((s) => s.seat === this.seat);
      if (mine && mine.token) await api.join(created.id, mine.seat, { token: mine.token });
      storeSeat(created.id, {
        game: out.game,
        token: mine ? mine.token : null,
        seat: this.seat,
        seats: created.seats.map(({ seat, kind, bot }) => ({ seat, kind, bot })),
        invites: created.seats
          .filter((s) => s.kind === "person" && s.seat !== this.seat && s.invitation)
          .map(({ seat, invitation }) => ({ seat, invitation })),
      });
      location.hash = `#/match/${created.id}`;
    } catch (error) {
      await this.refused(error);
    }
  }

  renderHistory() {
    const list = this.section && this.section.querySelector("#history-list");
    if (!list) return;
    const versions = [...this.history.keys()].sort((a, b) => a - b);
    list.replaceChildren(...versions.map((v) => h("li", { value: v }, this.plyText(this.history.get(v)))));
  }

  tickClocks() {
    this.tickRules();
    if (!this.out || !this.out.clocks || !this.section) return;
    const elapsed = (performance.now() - this.receivedAt) / 1000;
    for (const el of this.section.querySelectorAll(".clock")) {
      const seat = Number(el.dataset.seat);
      let left = this.out.clocks[seat];
      if (this.out.status === "running" && this.out.seats_to_move.includes(seat)) left = Math.max(0, left - elapsed);
      const m = Math.floor(left / 60);
      const sec = Math.floor(left % 60);
      el.textContent = `${this.who(seat)} ${m}:${String(sec).padStart(2, "0")}`;
      el.classList.toggle("running", this.out.seats_to_move.includes(seat));
    }
  }

  // The match rules that end a match unless someone acts, counted down (the API's
  // `rules_due`): the first move, a move without a clock, the open seat, a seat that left the
  // table (not this page's own: it is here). Under 20 s, a warning.
  tickRules() {
    const el = this.section && this.section.querySelector("#rule-clock");
    if (!el || !this.out) return;
    const due = (this.out.rules_due || []).find((r) => !(r.rule === "left" && r.seat === this.seat));
    if (!due || this.out.status !== "running") {
      el.textContent = "";
      el.classList.remove("warning");
      return;
    }
    const left = Math.max(0, Math.ceil(due.in_s - (performance.now() - this.receivedAt) / 1000));
    const time = left >= 120 ? t("minutes_n", { n: Math.ceil(left / 60) }) : t("seconds_n", { n: left });
    // The words are the rule's own, by its name (`due_<rule>`; the reader's own seat
    // `due_<rule>_mine` where the words differ): a new rule adds its texts, nothing here.
    const mine = due.seat !== null && due.seat === this.seat;
    const key = mine && hasText(`due_${due.rule}_mine`) ? `due_${due.rule}_mine` : `due_${due.rule}`;
    el.textContent = t(key, { time, who: due.seat === null ? "" : this.who(due.seat) });
    el.classList.toggle("warning", left < 20);
  }

  // What changed on the board since the version this page showed before (a card on a stone
  // or a caravan, a pile's top, a marble's place) is marked until the next version.
  markJustPlayed(board, version) {
    const marks = boardMarks(board);
    if (!this.marksAt || this.marksAt.version !== version) {
      const before = this.marksAt ? this.marksAt.keys : null;
      const keys = new Set(marks.keys());
      this.justPlayed = before && version > this.marksAt.version ? new Set([...keys].filter((k) => !before.has(k))) : new Set();
      this.marksAt = { version, keys };
    }
    for (const [key, el] of marks) if (this.justPlayed.has(key)) el.classList.add("just-played");
  }
}

// The things on a board a move changes, by a key that changes with them: cards on the table
// (not in a hand), each pile with its top card, each marble with where it stands.
function boardMarks(board) {
  const marks = new Map();
  const seen = new Map();
  for (const el of board.querySelectorAll("[data-card]")) {
    if (el.closest(".hand, .other-moves, button")) continue;
    const n = (seen.get(el.dataset.card) || 0) + 1;
    seen.set(el.dataset.card, n);
    const place = el.closest("[data-stone], [data-caravan], .stone-col, .caravan");
    marks.set(`card:${el.dataset.card}:${n}:${place ? place.dataset.stone ?? place.dataset.caravan ?? "" : ""}`, el);
  }
  for (const el of board.querySelectorAll(".pile[data-pile]")) {
    marks.set(`pile:${el.dataset.pile}:${el.querySelector(".pile-top")?.textContent ?? ""}`, el);
  }
  for (const el of board.querySelectorAll("[data-marble]")) {
    const circle = el.querySelector("circle:not([fill='none'])") || el.querySelector("circle");
    marks.set(`marble:${el.dataset.marble}:${circle?.getAttribute("cx")}:${circle?.getAttribute("cy")}`, el);
  }
  return marks;
}
