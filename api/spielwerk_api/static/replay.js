// The replay of a finished match, step by step: GET /v1/matches/ID/replay (it opens only
// after the end, since it shows every hidden card). Each step is a ply with its seat and the
// engine's text; Back and Next (or the arrow keys) walk through them. The board at each step
// is drawn read-only from POST /v1/games/GAME/view (the replay's initial state and its first
// plies, applied by the engine), as any seat saw it or as the public view.

import { request } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { screenFor } from "./screens.js";


// The context a board draws from, with nothing to play: no moves, no turn, no handlers.
export function readOnlyContext(view, seat, who) {
  const none = () => {};
  return {
    out: { view, status: "finished", seats_to_move: [] },
    view,
    moves: [],
    seat,
    ui: {},
    who,
    play: none,
    attempt: none,
    rerender: none,
    notice: none,
    chat: [],
    say: async () => false,
    running: false,
    myTurn: false,
  };
}

// Draws one board read-only into `into` (the game's own screen, else the generic one).
export function drawBoard(into, game, view, seat, who) {
  into.replaceChildren();
  screenFor(game)(into, readOnlyContext(view, seat, who));
}

export function replayViewer(id, who) {
  const box = h("section", { id: "replay", class: "replay-viewer", "aria-labelledby": "replay-title" });
  const open = h(
    "button",
    {
      type: "button",
      id: "replay-open",
      onclick: async () => {
        open.disabled = true;
        try {
          const replay = await request(`/v1/matches/${encodeURIComponent(id)}/replay`);
          show(box, replay, who);
        } catch (error) {
          box.append(h("p", { class: "notice refused" }, t("error", { detail: error.message })));
          open.disabled = false;
        }
      },
    },
    t("replay_open"),
  );
  box.append(h("h3", { id: "replay-title" }, t("replay_title")), open);
  return box;
}

function show(box, replay, who) {
  const steps = replay.actions;
  let at = 0; // starts at the deal: step 1 is the first move
  let playing = null; // the autoplay's timer
  let seat = null; // whose view the board shows (null: the public view)
  let asked = 0; // the latest board request: an older answer arriving late is dropped
  const line = h("p", { id: "replay-step", "aria-live": "polite" });
  const board = h("div", { id: "replay-board", class: `board board-${replay.game}`, dataset: { step: "" } });
  const seats = seatCount(replay);
  const whose = h(
    "select",
    {
      id: "replay-seat",
      "aria-label": t("replay_seat"),
      onchange: () => {
        seat = whose.value === "" ? null : Number(whose.value);
        drawStep();
      },
    },
    h("option", { value: "" }, t("replay_public")),
    Array.from({ length: seats }, (_, s) => h("option", { value: String(s) }, who(s))),
  );
  const drawStep = async () => {
    const mine = ++asked;
    const step = at;
    // The plies that are moves, up to this step; a resign or a timeout changes no state.
    const actions = steps
      .slice(0, step)
      .filter((a) => a.kind === "move" && a.action !== null)
      .map((a) => ({ action: a.action, seat: a.seat }));
    try {
      const out = await request(`/v1/games/${encodeURIComponent(replay.game)}/view`, {
        method: "POST",
        body: { state: JSON.stringify(replay.initial_state), options: replay.options, seat, actions },
      });
      if (mine !== asked) return;
      drawBoard(board, replay.game, out.view, seat, who);
      board.dataset.step = String(step);
      board.dataset.seat = seat === null ? "" : String(seat);
    } catch (error) {
      if (mine !== asked) return;
      board.replaceChildren(h("p", { class: "notice refused" }, t("error", { detail: error.message })));
    }
  };
  const list = h(
    "ol",
    { id: "replay-list", class: "history" },
    steps.map((a) => h("li", { value: a.ply, dataset: { ply: String(a.ply) } }, `${a.seat === null ? "" : `${who(a.seat)}: `}${a.text}`)),
  );
  const draw = () => {
    const a = steps[at - 1];
    line.textContent = `${t("replay_step", { n: at, total: steps.length })}${a ? ` — ${a.seat === null ? "" : `${who(a.seat)}: `}${a.text}` : ""}`;
    list.querySelectorAll("li").forEach((li, i) => li.classList.toggle("current", i === at - 1));
    prev.disabled = at <= 0;
    next.disabled = at >= steps.length;
    slider.value = String(at);
    drawStep();
  };
  const go = (delta) => jump(at + delta);
  const jump = (step) => {
    at = Math.max(0, Math.min(steps.length, step));
    if (at >= steps.length) stop();
    draw();
  };
  const stop = () => {
    clearInterval(playing);
    playing = null;
    play.textContent = t("replay_play");
    play.setAttribute("aria-pressed", "false");
  };
  const prev = h("button", { type: "button", id: "replay-prev", onclick: () => go(-1) }, t("replay_prev"));
  const next = h("button", { type: "button", id: "replay-next", onclick: () => go(+1) }, t("replay_next"));
  // Autoplay: a step a second, until the end or a click.
  const play = h(
    "button",
    {
      type: "button",
      id: "replay-play",
      "aria-pressed": "false",
      onclick: () => {
        if (playing !== null) return stop();
        if (at >= steps.length) jump(0);
        playing = setInterval(() => (box.isConnected ? go(+1) : stop()), 1000);
        play.textContent = t("replay_pause");
        play.setAttribute("aria-pressed", "true");
      },
    },
    t("replay_play"),
  );
  const slider = h("input", {
    type: "range",
    id: "replay-slider",
    min: 0,
    max: steps.length,
    value: 0,
    "aria-label": t("replay_slider"),
    oninput: (event) => jump(Number(event.target.value)),
  });
  const controls = h("div", { class: "replay-controls" }, prev, play, next, slider, whose, line);
  controls.addEventListener("keydown", (event) => {
    if (event.target === slider) return; // the slider moves by its own keys
    if (event.key === "ArrowLeft") go(-1);
    else if (event.key === "ArrowRight") go(+1);
    else if (event.key === "Home") jump(0);
    else if (event.key === "End") jump(steps.length);
    else return;
    event.preventDefault();
  });
  box.replaceChildren(box.firstChild, controls, board, list);
  draw();
}

// How many seats the match had: the engine's state names them, else the plies' seats.
function seatCount(replay) {
  const state = replay.initial_state || {};
  for (const key of ["players", "num_players"]) if (Number.isInteger(state[key])) return state[key];
  if (Number.isInteger(replay.options && replay.options.players)) return replay.options.players;
  return Math.max(2, ...replay.actions.map((a) => (a.seat === null ? 0 : a.seat + 1)));
}
