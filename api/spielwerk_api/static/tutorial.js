// A short interactive tutorial per game (#/tutorial/GAME): a prepared position, a few steps
// of text, each done when the person makes the move it teaches.
//
// The position is the engine's: POST /v1/games/GAME/new with a fixed seed, then the
// prepared plies through POST /v1/games/GAME/view. Every move goes to the stateless rule
// routes (…/moves, …/check, …/apply): the page never decides what is legal. The other
// seats answer with the first move the engine lists for them, so the lesson repeats exactly.

import { canonical, request } from "./api.js";
import { h } from "./dom.js";
import { gameName, lang, t } from "./i18n.js";
import { screenFor } from "./screens.js";
import { TUTORIALS } from "./tutorials.js";

export function hasTutorial(game) {
  return Object.prototype.hasOwnProperty.call(TUTORIALS, game);
}

const rules = (game, what, body) =>
  request(`/v1/games/${encodeURIComponent(game)}/${what}`, { method: "POST", body });

export class TutorialScreen {
  constructor(root, game) {
    this.root = root;
    this.game = game;
    this.lesson = TUTORIALS[game];
    this.stopped = false;
    this.ui = {};
    this.step = 0;
    this.noticeText = "";
    this.noticeKind = "";
  }

  stop() {
    this.stopped = true;
  }

  // The language changed: the engine's texts (moves, view) asked for anew, same position.
  async relabel() {
    if (!this.out) return this.start();
    const { game, options } = this.lesson;
    try {
      await this.arrive(await rules(game, "view", { state: this.out.state, options, seat: this.seat }));
    } catch (error) {
      this.notice(t("error", { detail: error.message }), "refused");
    }
  }

  async start() {
    this.section = h("section", { id: "tutorial", "aria-labelledby": "tutorial-title", dataset: { busy: "true", game: this.game } });
    this.root.replaceChildren(this.section);
    if (!this.lesson) {
      this.section.append(h("p", { class: "notice refused", role: "alert" }, t("error", { detail: this.game })));
      return;
    }
    const { game, options, seed, prepared, seat } = this.lesson;
    this.seat = seat;
    this.step = 0;
    try {
      const fresh = await rules(game, "new", { options, seed });
      const out = await rules(game, "view", { state: fresh.state, options, seat, actions: prepared });
      await this.arrive(out);
    } catch (error) {
      this.notice(t("error", { detail: error.message }), "refused");
    } finally {
      this.busy(false);
    }
  }

  // A new position: the seat's view and moves; the others move until it is this seat's turn.
  async arrive(out) {
    const { game, options } = this.lesson;
    let guard = 0;
    while (!out.terminal && !out.seats_to_move.includes(this.seat) && guard++ < 64) {
      const other = out.seats_to_move[0];
      const { moves } = await rules(game, "moves", { state: out.state, options, seat: other });
      const applied = await rules(game, "apply", { state: out.state, options, seat: other, move: moves[0].move });
      out = await rules(game, "view", { state: applied.state, options, seat: this.seat });
    }
    this.out = out;
    this.moves = out.terminal ? [] : (await rules(game, "moves", { state: out.state, options, seat: this.seat })).moves;
    if (this.stopped) return;
    this.render();
  }

  // A move the person made: the taught one is played; any other is only checked by the
  // engine (its reason if illegal, a hint if legal), so the prepared position stays.
  async play(move) {
    const { game, options } = this.lesson;
    const step = this.lesson.steps[this.step];
    if (step === undefined) return;
    this.busy(true);
    try {
      if (canonical(step.move) !== canonical(move)) {
        const answer = await rules(game, "check", { state: this.out.state, options, seat: this.seat, move });
        if (answer.legal) this.notice(t("tutorial_other"), "info");
        else this.notice(t("refused", { reason: answer.reason }), "refused");
        return;
      }
      const applied = await rules(game, "apply", { state: this.out.state, options, seat: this.seat, move });
      this.step += 1;
      this.notice("");
      this.ui = {};
      await this.arrive(await rules(game, "view", { state: applied.state, options, seat: this.seat }));
    } catch (error) {
      this.notice(t("refused", { reason: error.message }), "refused");
    } finally {
      this.busy(false);
    }
  }

  attempt(move) {
    return this.play(move);
  }

  busy(on) {
    this.section.dataset.busy = String(on);
  }

  notice(text, kind = "info") {
    this.noticeText = text;
    this.noticeKind = kind;
    const el = this.section.querySelector("#notice");
    if (el) {
      el.textContent = text;
      el.className = `notice ${kind}`;
    }
  }

  render() {
    const steps = this.lesson.steps;
    const done = this.step >= steps.length;
    const text = (s) => s.text[lang()] || s.text.de;
    const board = h("div", { id: "board", class: `board board-${this.game}` });
    const ctx = {
      out: { view: this.out.view, status: this.out.terminal ? "finished" : "running", seats_to_move: this.out.seats_to_move },
      view: this.out.view,
      moves: done ? [] : this.moves,
      seat: this.seat,
      ui: this.ui,
      who: (s) => (s === this.seat ? t("you") : t("seat_n", { n: s + 1 })),
      play: (move) => this.play(move),
      attempt: (move) => this.attempt(move),
      rerender: () => this.render(),
      notice: (msg, kind) => this.notice(msg, kind),
      chat: [],
      say: async () => false,
      running: !done && !this.out.terminal,
      myTurn: !done && this.out.seats_to_move.includes(this.seat),
    };
    screenFor(this.game)(board, ctx);
    this.section.dataset.step = String(this.step);
    this.section.dataset.done = String(done);
    this.section.replaceChildren(
      h("h2", { id: "tutorial-title" }, t("tutorial_title", { game: gameName(this.game) })),
      h(
        "ol",
        { id: "tutorial-steps", class: "tutorial-steps" },
        steps.map((s, i) => h("li", { class: i < this.step ? "done" : i === this.step ? "current" : "" }, text(s))),
      ),
      h(
        "p",
        { id: "tutorial-task", class: "hint", "aria-live": "polite" },
        done ? t("tutorial_done") : `${t("tutorial_step", { n: this.step + 1, total: steps.length })}: ${text(steps[this.step])}`,
      ),
      h("p", { id: "notice", class: `notice ${this.noticeKind}`, role: "status", "aria-live": "polite" }, this.noticeText),
      board,
      h(
        "p",
        { class: "actions" },
        h("button", { type: "button", id: "tutorial-again", onclick: () => this.start() }, t("tutorial_again")),
        h("a", { href: "#/", class: "button-link" }, t("back_to_lobby")),
      ),
    );
  }
}
