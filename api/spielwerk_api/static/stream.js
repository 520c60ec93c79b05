// A match's server-sent events through the browser's EventSource.
//
// The seat is named by its cookie (set by the invitation link or POST …/join; HttpOnly,
// scoped to the match's path), which EventSource sends like any same-origin request. The
// browser reconnects by itself and sends Last-Event-ID, and the API sends every version and
// message missed meanwhile. After the `end` event the stream is over: closed here, so the
// browser does not reconnect.

// The events that carry the match's state as the seat sees it (a new version, a person
// taking an open seat, a seat leaving or coming back): named once, here, for the stream and
// for the page that reads them. `chat` carries one table-talk message, `end` closes.
export const STATE_EVENTS = Object.freeze(["version", "seats", "rules"]);

// onEvent({ event, data, id }) gets every event; onStatus("live" | "reconnecting") the link.
export function openStream(url, { onEvent, onStatus = () => {} }) {
  const source = new EventSource(url, { withCredentials: true });
  const forward = (message) => onEvent({ event: message.type, data: message.data, id: message.lastEventId || null });
  for (const kind of [...STATE_EVENTS, "chat"]) source.addEventListener(kind, forward);
  source.addEventListener("end", (message) => {
    source.close();
    forward(message);
  });
  source.onopen = () => onStatus("live");
  source.onerror = () => {
    if (source.readyState !== EventSource.CLOSED) onStatus("reconnecting");
  };
  return {
    close() {
      source.close();
    },
  };
}
