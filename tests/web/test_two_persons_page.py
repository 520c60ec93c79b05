"""Two persons in two browser contexts: an invitation link, own hands only, live moves,
and catching up after the connection was cut."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from .conftest import screenshot
from .play import Line, api, match_of, page_stones, settled, start_match


def test_a_second_person_joins_by_link_and_sees_the_moves_live(
    page: Page, browser: Browser, server: str
) -> None:
    match_id, token = start_match(page, "schotten_totten", ["you", "person"], seed=13, clock="5")
    link = page.locator(".invites input").input_value()
    # The API's invitation link: no token in the page's address (GET sets the seat cookie).
    found = re.fullmatch(rf"{re.escape(server)}/v1/matches/{match_id}/seats/1/join\?token=([\w-]+)", link)
    assert found, link
    guest_token = found[1]
    expect(page.locator(".clock")).to_have_count(2)
    expect(page.locator('.clock[data-seat="0"]')).to_have_text(re.compile(r"^Du [45]:\d\d$"))

    # The guest's browser reaches the server through a line the test can cut.
    line = Line(server)
    other = browser.new_context(base_url=line.url, viewport={"width": 1280, "height": 900})
    try:
        guest = other.new_page()
        guest.goto(link.replace(server, line.url))
        guest.wait_for_url(f"{line.url}/#/match/{match_id}")  # the token left the address bar
        settled(guest)
        expect(guest.locator(".seat-line")).to_have_text("Du sitzt auf Sitz 2.")
        guest_id, kept = match_of(guest)
        # The guest's page holds no token at all: its seat cookie (HttpOnly) names the seat.
        assert guest_id == match_id and kept is None and guest_token != token
        assert guest.evaluate("document.cookie") == ""
        cookie = next(c for c in other.cookies() if c["name"] == "spielwerk_seat")
        assert (cookie["path"], cookie["httpOnly"], cookie["sameSite"]) == (
            f"/v1/matches/{match_id}",
            True,
            "Strict",
        )
        # Each sees its own hand, and of the other's only how many cards it holds.
        hands = {
            seat: api(server, f"/v1/matches/{match_id}", t)["view"]["hand"]
            for seat, t in ((0, token), (1, guest_token))
        }
        assert page.locator(".hand button.card").evaluate_all("cs => cs.map(c => c.dataset.card)") == hands[0]
        assert (
            guest.locator(".hand button.card").evaluate_all("cs => cs.map(c => c.dataset.card)") == hands[1]
        )
        assert not set(hands[0]) & set(
            guest.locator(".card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        )
        expect(guest.locator("#turn")).to_have_text("Am Zug: Spieler 1.")

        # The host plays; the guest's screen shows it through the event stream, no reload.
        version = settled(page)["version"]
        played = hands[0][0]
        page.locator(f'.hand button.card[data-card="{played}"]').click()
        page.locator('button.stone[data-stone="4"]').click()
        settled(page, after_version=version)
        settled(guest, after_version=version)
        assert page_stones(guest)[4] == [[played], []]
        expect(guest.locator("#turn")).to_have_text("Du bist am Zug.")
        # The last move names who made it: the creator, who gave no name, is seat 1.
        last = api(server, f"/v1/matches/{match_id}")["last_move"]
        expect(guest.locator("#last-move")).to_have_text(f"Spieler 1: {last}")

        version = settled(guest)["version"]
        answer = hands[1][0]
        guest.locator(f'.hand button.card[data-card="{answer}"]').click()
        guest.locator('button.stone[data-stone="4"]').click()
        settled(guest, after_version=version)
        settled(page, after_version=version)
        assert page_stones(page)[4] == [[answer], [played]]
        expect(page.locator("#turn")).to_have_text("Du bist am Zug.")
        screenshot(guest, "schotten_totten_guest")

        # The guest's line is cut while the host moves: its page says so and shows nothing
        # new; the line back, the browser reconnects with Last-Event-ID and the page catches
        # up on the move it missed, without a reload (the marker survives).
        guest.evaluate("window.notReloaded = true")
        version = settled(guest)["version"]
        line.cut()
        expect(guest.locator("#stream-status")).to_have_text("Verbindung wird wiederhergestellt …")
        missed = hands[0][1]
        page.locator(f'.hand button.card[data-card="{missed}"]').click()
        page.locator('button.stone[data-stone="6"]').click()
        settled(page, after_version=version)
        assert settled(guest)["version"] == version and page_stones(guest)[6] == [[], []]
        line.restore()
        settled(guest, after_version=version)
        expect(guest.locator("#stream-status")).to_have_text("live")
        assert page_stones(guest)[6] == [[missed], []]
        expect(guest.locator("#turn")).to_have_text("Du bist am Zug.")
        assert guest.evaluate("window.notReloaded") is True
    finally:
        other.close()
        line.close()
