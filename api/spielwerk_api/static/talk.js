// The table talk of a match: the list (newest at the bottom, scrolled to it) and the box.

import { h } from "./dom.js";
import { t } from "./i18n.js";

// Table talk, in every game: what was said, and a box to say something. In The Game the
// engine's T7 refuses texts with numbers (`restricted`), and the page shows its reason.
export function talkBox(ctx, restricted) {
  const input = h("input", { id: "talk-input", type: "text", maxlength: 500, "aria-label": t("talk_say"), autocomplete: "off" });
  const form = h(
    "form",
    {
      class: "talk-form",
      onsubmit: async (event) => {
        event.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        if (await ctx.say(text)) input.value = "";
      },
    },
    input,
    " ",
    h("button", { type: "submit", id: "talk-send" }, t("talk_send")),
  );
  return h(
    "section",
    { class: "talk", "aria-labelledby": "talk-title" },
    h("h3", { id: "talk-title" }, t(restricted ? "talk" : "talk_free")),
    h(
      "ol",
      { id: "talk-list", "aria-live": "polite" },
      ctx.chat.map((said) => h("li", {}, `${ctx.who(said.seat)}: `, said.text)),
    ),
    ctx.seat !== null && ctx.running ? form : null,
  );
}

// The list shows its newest message (a long talk scrolls inside its box).
export function scrollToNewest(section) {
  const list = section && section.querySelector("#talk-list");
  if (list) list.scrollTop = list.scrollHeight;
}
