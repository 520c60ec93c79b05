// A match's server-sent events, read with fetch() and a stream reader.
//
// Why not EventSource: it cannot send the seat's Authorization header, and the API has no
// seat cookie yet (issue 23 §1.1). Once it has, this module becomes
// `new EventSource(url, { withCredentials: true })` with the same callbacks; nothing else on
// the page reads the stream.

import { headers } from "./api.js";

// Opens the stream and keeps it open (reconnecting with a growing pause) until close().
// onEvent({ event, data, id }) gets every event; onStatus("live" | "reconnecting") the link.
export function openStream(url, { token, onEvent, onStatus = () => {} }) {
  let closed = false;
  let controller = null;
  let lastId = null;
  let pause = 500;

  async function connect() {
    while (!closed) {
      controller = new AbortController();
      try {
        const h = headers(token, { Accept: "text/event-stream" });
        if (lastId !== null) h["Last-Event-ID"] = lastId;
        const response = await fetch(url, { headers: h, signal: controller.signal, cache: "no-store" });
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        onStatus("live");
        pause = 500;
        await read(response.body, (message) => {
          if (message.id !== null) lastId = message.id;
          onEvent(message);
        });
      } catch (error) {
        if (closed) return;
      }
      if (closed) return;
      onStatus("reconnecting");
      await new Promise((resolve) => setTimeout(resolve, pause));
      pause = Math.min(pause * 2, 8000);
    }
  }

  connect();
  return {
    close() {
      closed = true;
      if (controller) controller.abort();
    },
  };
}

// The event-stream format (HTML's "server-sent events"): fields per line, a blank line ends
// an event, a line starting with ":" is a comment (a heartbeat). Exported for the tests.
export async function read(body, dispatch) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let pendingCR = false;
  let event = { event: "message", data: [], id: null };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    // A chunk ending in "\r" ended its line; a "\n" opening the next one is that line's end too.
    const chunk = pendingCR && value.startsWith("\n") ? value.slice(1) : value;
    pendingCR = chunk.endsWith("\r");
    buffer += chunk;
    const lines = buffer.split(/\r\n|\r|\n/);
    buffer = lines.pop();
    for (const line of lines) {
      if (line === "") {
        if (event.data.length) dispatch({ event: event.event, data: event.data.join("\n"), id: event.id });
        event = { event: "message", data: [], id: event.id };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      let text = colon < 0 ? "" : line.slice(colon + 1);
      if (text.startsWith(" ")) text = text.slice(1);
      if (field === "event") event.event = text;
      else if (field === "data") event.data.push(text);
      else if (field === "id") event.id = text;
    }
  }
}
