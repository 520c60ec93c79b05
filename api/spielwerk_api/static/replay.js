// The replay of a finished match, step by step: GET /v1/matches/ID/replay (it opens only
// after the end, since it shows every hidden card). Each step is a ply with its seat and the
// engine's text; Back and Next (or the arrow keys) walk through them.

import { request } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

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
  let at = steps.length; // starts at the end: the last step
  const line = h("p", { id: "replay-step", "aria-live": "polite" });
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
  };
  const go = (delta) => {
    at = Math.max(0, Math.min(steps.length, at + delta));
    draw();
  };
  const prev = h("button", { type: "button", id: "replay-prev", onclick: () => go(-1) }, t("replay_prev"));
  const next = h("button", { type: "button", id: "replay-next", onclick: () => go(+1) }, t("replay_next"));
  const controls = h("div", { class: "replay-controls" }, prev, next, line);
  controls.addEventListener("keydown", (event) => {
    if (event.key === "ArrowLeft") go(-1);
    else if (event.key === "ArrowRight") go(+1);
    else return;
    event.preventDefault();
  });
  box.replaceChildren(box.firstChild, controls, list);
  draw();
}
