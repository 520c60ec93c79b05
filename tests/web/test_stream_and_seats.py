"""The event stream in the browser (EventSource, the seat cookie), resigning, a spectator, the lobby."""

from __future__ import annotations

import json
import re

from playwright.sync_api import Browser, Page, expect

from .conftest import screenshot
from .play import api, match_of, settled, start_match


def test_the_page_stream_is_an_event_source_with_the_seat_cookie_and_ends_with_the_end(
    page: Page, server: str
) -> None:
    """stream.js: EventSource with the seat's cookie (set by POST …/join from the page), an
    id on every event, and closed after the API's end event (no reconnecting)."""
    body = {"game": "schotten_totten", "seed": 2, "seats": [{"kind": "person"}, {"kind": "person"}]}
    created = api(server, "/v1/matches", body=body)
    match_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    page.goto("/")
    page.evaluate(
        """async ([id, token]) => {
            const { api } = await import('/static/api.js');
            const { openStream } = await import('/static/stream.js');
            await api.join(id, 1, { token });
            window.got = [];
            window.statuses = [];
            window.source = openStream(api.eventsUrl(id), {
                onEvent: (e) => window.got.push(e),
                onStatus: (s) => window.statuses.push(s),
            });
        }""",
        [match_id, tokens[1]],
    )
    page.wait_for_function("window.got.length >= 1")
    first = page.evaluate("window.got[0]")
    assert (first["event"], first["id"]) == ("version", "0-0")
    assert json.loads(first["data"])["seat"] == 1  # the cookie named the seat
    api(server, f"/v1/matches/{match_id}/resign", tokens[0], body={})
    page.wait_for_function("window.got.some(e => e.event === 'end')")
    got = page.evaluate("window.got")
    assert [e["event"] for e in got] == ["version", "version", "end"]
    assert [e["id"] for e in got] == ["0-0", "1-0", "1-0"]
    assert json.loads(got[-1]["data"])["result"]["reason"] == "resigned"
    assert page.evaluate("window.statuses")[0] == "live"


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


def test_the_lobby_lists_open_and_finished_matches_and_a_free_seat_is_taken(page: Page, server: str) -> None:
    waiting = api(
        server,
        "/v1/matches",
        # (No seed: a seat open to the lobby is dealt by the server.)
        body={"game": "schotten_totten", "seats": [{"kind": "bot"}, {"kind": "person", "open": True}]},
    )
    done = api(
        server, "/v1/matches", body={"game": "schotten_totten", "seed": 6, "seats": [{"kind": "person"}] * 2}
    )
    api(server, f"/v1/matches/{done['id']}/resign", done["seats"][0]["token"], body={})
    unranked = api(
        server,
        "/v1/matches",
        body={
            "game": "caravan",
            "options": {"kings_add": True},
            "seats": [{"kind": "bot"}, {"kind": "person", "open": True}],
            "clock": {"initial_s": 90, "increment_s": 2},
        },
    )
    page.goto("/")
    entry = page.locator(f'#open-matches li[data-match="{waiting["id"]}"]')
    expect(entry).to_contain_text("Schotten Totten · ohne Uhr Sitz 2 nehmen")
    # A variant makes a match unranked (C10): the engine says so, the lobby shows it.
    listed = next(m for m in api(server, "/v1/matches")["open"] if m["id"] == unranked["id"])
    assert listed["ranked"] is False
    expect(page.locator(f'#open-matches li[data-match="{unranked["id"]}"]')).to_contain_text(
        "Caravan · 1,5 Minuten + 2 s pro Zug · ungewertet"
    )
    expect(entry.locator("button.join")).to_have_text("Sitz 2 nehmen")
    finished = page.locator(f'#finished-matches li[data-match="{done["id"]}"]')
    expect(finished.locator("a.replay")).to_have_attribute("href", f"#/match/{done['id']}/replay")
    entry.locator("button.join").click()
    page.wait_for_url(f"**/#/match/{waiting['id']}")
    out = settled(page)
    assert out["seat"] == "1"  # (the screen's data attribute)
    expect(page.locator(".seat-line")).to_have_text("Du sitzt auf Sitz 2.")
    # The seat is taken: the lobby no longer offers it.
    assert waiting["id"] not in [m["id"] for m in api(server, "/v1/matches")["open"]]


def test_the_lobby_offers_the_levels_with_their_ratings_and_each_bot_by_name(page: Page, server: str) -> None:
    """The seat choices are the API's (GET /v1/games): the engine's levels first, weakest
    first, each with its measured rating where the ladder has one, then every bot by name;
    option texts in German."""
    info = api(server, "/v1/games/schotten_totten")
    page.goto("/")
    page.check("#game-schotten_totten")
    offered = page.locator("#seat-1 option").evaluate_all(
        "options => options.map(o => [o.value, o.textContent])"
    )
    bots = [(value, text) for value, text in offered if value.startswith("bot:")]
    expected = [f"bot:{level['name']}" for level in info["levels"]] + [
        f"bot:{b['name']}" for b in info["bots"]
    ]
    assert [value for value, _ in bots] == expected
    assert [level["name"] for level in info["levels"]] == ["easy", "normal", "strong"]
    strong = info["levels"][2]
    words = "Bot: stark" if strong["elo"] is None else f"Bot: stark · Elo {round(strong['elo'])}"
    assert ("bot:strong", words) in bots
    assert ("bot:random", "Bot: random") in bots
    page.check("#game-caravan")
    queens = next(o for o in api(server, "/v1/games/caravan")["options"] if o["name"] == "queens_anywhere")
    description = page.locator("#opt-queens_anywhere").locator("xpath=..").locator(".description")
    expect(description).to_have_text(queens["description_de"])
    page.check("#game-schotten_totten")
    page.select_option("#seat-1", "bot:easy")
    page.fill("#seed", "3")
    with page.expect_request(lambda r: r.url.endswith("/v1/matches") and r.method == "POST") as request:
        page.click("#start")
    sent = request.value.post_data_json
    assert sent is not None
    assert sent["seats"][1] == {"kind": "bot", "bot": "easy"}
    page.wait_for_url("**/#/match/*")
    expect(page.locator("#turn")).to_have_text("Du bist am Zug.")


def test_the_creator_learns_at_once_that_a_guest_took_the_open_seat(
    page: Page, browser: Browser, server: str
) -> None:
    """Seen on the site: after a guest took the seat "offen für die Lobby", the creator's page
    kept waiting until the first-move rule (C11) ended the match. The join is a `seats` event."""
    page.goto("/")
    page.check("#game-schotten_totten")
    page.select_option("#seat-0", "you")
    page.select_option("#seat-1", "open")
    page.fill("#seed", "")
    page.click("#start")
    page.wait_for_url("**/#/match/*")
    settled(page)
    match_id, _ = match_of(page)
    expect(page.locator("#turn")).to_have_text(
        "Die Partie beginnt, sobald jeder Platz vergeben ist (offen: 2)."
    )
    expect(page).to_have_title("Schotten Totten · spielwerk")
    # The open seat's rule, counted down (Limits.open_match_s: an hour).
    expect(page.locator("#rule-clock")).to_have_text(
        re.compile(r"^Die Partie wartet noch (60|59) min auf Mitspieler, dann wird sie zurückgezogen\.$")
    )
    guest_context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900})
    try:
        guest = guest_context.new_page()
        guest.goto("/")
        guest.locator(f'#open-matches li[data-match="{match_id}"] button.join').click()
        guest.wait_for_url(f"**/#/match/{match_id}")
        settled(guest)
        expect(guest.locator(".seat-line")).to_have_text("Du sitzt auf Sitz 2.")
        # The creator's page, without a reload: the match has begun and seat 1 moves first.
        expect(page.locator("#turn")).to_have_text("Du bist am Zug.", timeout=5_000)
        expect(page).to_have_title("Du bist dran · Schotten Totten")
        expect(page.locator(".seat-line")).to_have_text("Du sitzt auf Sitz 1.")
        # C11: the first move's minute, counted down for the creator, named for the guest.
        expect(page.locator("#rule-clock")).to_have_text(
            re.compile(r"^Dein erster Zug: noch [1-6]?[0-9] s, sonst wird die Partie abgebrochen\.$")
        )
        expect(guest.locator("#rule-clock")).to_have_text(
            re.compile(
                r"^Spieler 1: noch [1-6]?[0-9] s für den ersten Zug, sonst wird die Partie abgebrochen\.$"
            )
        )
    finally:
        guest_context.close()


def test_a_seat_that_left_the_table_is_counted_down_until_it_is_back(page: Page, server: str) -> None:
    """Seen on the site: the leave rule (C11) ended a match with no warning. A seat not seen
    for a third of the leave time is counted down on the others' pages (a `rules` event on
    the stream, no new version needed); the count goes when the seat is back."""
    rules = {"leave_s": 30, "first_move_s": 0, "untimed_move_s": 0}
    body = {"game": "schotten_totten", "seed": 4, "seats": [{"kind": "person"}] * 2, "rules": rules}
    created = api(server, "/v1/matches", body=body)
    page.goto(created["seats"][0]["invitation"])
    page.wait_for_url("**/#/match/*")
    settled(page)
    expect(page.locator("#rule-clock")).to_have_text("")
    # Seat 2 plays by its token alone and was last seen when the match was made.
    expect(page.locator("#rule-clock")).to_have_text(
        re.compile(r"^Spieler 2 ist nicht mehr am Tisch: ohne Rückkehr in [12]?[0-9] s endet die Partie\.$"),
        timeout=16_000,
    )
    screenshot(page, "leave_countdown")
    api(server, f"/v1/matches/{created['id']}", token=created["seats"][1]["token"])  # back
    expect(page.locator("#rule-clock")).to_have_text("", timeout=8_000)
    assert settled(page)["status"] == "running"
