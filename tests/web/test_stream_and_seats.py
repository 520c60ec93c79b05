"""The event-stream reader in the browser, resigning, and a spectator's screen."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Page, expect

from .play import api, settled, start_match

# Two events as the server frames them (CRLF), a heartbeat comment, a multi-line event in LF.
STREAM = (
    'id: 3\r\nevent: version\r\ndata: {"version":3}\r\n\r\n'
    ": heartbeat\r\n\r\n"
    'id: 4\r\nevent: chat\r\ndata: {"text":"hallo"}\r\n\r\n'
    "event: version\ndata: a\ndata: b\n\n"
)
EVENTS = [
    {"event": "version", "data": '{"version":3}', "id": "3"},
    {"event": "chat", "data": '{"text":"hallo"}', "id": "4"},
    {"event": "version", "data": "a\nb", "id": "4"},
]


def test_the_stream_reader_parses_events_split_anywhere(page: Page) -> None:
    """stream.js reads the same events however the bytes arrive: cut at every position
    (between a CR and its LF too) and byte by byte."""
    page.goto("/")
    results = page.evaluate(
        """async text => {
            const { read } = await import('/static/stream.js');
            const bytes = new TextEncoder().encode(text);
            const cuts = [...Array(bytes.length + 1).keys()].map(at => [at])
                .concat([[...Array(bytes.length).keys()]]);
            const out = [];
            for (const cut of cuts) {
                const edges = [0, ...cut, bytes.length];
                const body = new ReadableStream({ start(c) {
                    for (let i = 1; i < edges.length; i++) c.enqueue(bytes.slice(edges[i - 1], edges[i]));
                    c.close();
                } });
                const got = [];
                await read(body, e => got.push(e));
                out.push(JSON.stringify(got));
            }
            return out;
        }""",
        STREAM,
    )
    assert len(results) == len(STREAM.encode()) + 2
    for got in results:
        assert json.loads(got) == EVENTS


def test_resigning_ends_the_match_and_a_spectator_sees_no_hand(
    page: Page, browser: Browser, server: str
) -> None:
    match_id, token = start_match(page, "schotten_totten", ["you", "bot:random"], seed=3)
    watcher = browser.new_context(base_url=server)
    try:
        spectator = watcher.new_page()
        spectator.goto(f"/#/match/{match_id}")
        settled(spectator)
        expect(spectator.locator(".seat-line")).to_have_text("Du schaust zu (kein Sitz in diesem Tab).")
        assert spectator.locator(".hand").count() == 0 and spectator.locator("#resign").count() == 0
        # The spectator sees the cards on the table only: nobody's hand.
        hand = api(server, f"/v1/matches/{match_id}", token)["view"]["hand"]
        shown = spectator.locator(".card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        assert not set(hand) & set(shown)

        version = settled(page)["version"]
        page.once("dialog", lambda d: d.accept())
        page.click("#resign")
        settled(page, after_version=version)
        out = api(server, f"/v1/matches/{match_id}", token)
        assert out["status"] == "finished" and out["result"]["reason"] == "resigned"
        expect(page.locator("#result .summary")).to_have_text("Du hast verloren.")
        expect(page.locator("#result-text")).to_have_text(out["result"]["text"])
        expect(page.locator("#resign")).to_have_count(0)
        # The spectator's stream brings the end without a reload.
        expect(spectator.locator("#result-text")).to_have_text(out["result"]["text"])
        expect(spectator.locator("#turn")).to_have_text("Die Partie ist vorbei.")
    finally:
        watcher.close()
