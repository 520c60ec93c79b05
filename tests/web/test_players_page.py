"""Players on the page (issue 35): registering and logging in, a ranked match against a bot
that moves the player's rating, the profile's chart, the leaderboard, names instead of
seat numbers, logging out."""

from __future__ import annotations

import re
import secrets

from playwright.sync_api import Page, expect

from .conftest import screenshot
from .play import api, match_of, settled, start_match


def test_a_player_registers_plays_a_ranked_match_and_finds_it_on_profile_and_leaderboard(
    page: Page, server: str
) -> None:
    name = f"Anna{secrets.token_hex(3)}"
    page.goto("/")
    expect(page.locator("#login-link")).to_have_text("Anmelden")
    page.click("#login-link")
    page.fill("#login-name", name)
    page.fill("#login-password", "geheim-123")
    page.click("#register")
    page.wait_for_url(f"**/#/players/{name}")
    expect(page.locator("#profile-title")).to_have_text(name)
    expect(page.locator("#account-name")).to_have_text(name)
    expect(page.locator("#profile")).to_contain_text("Noch keine gewertete Partie.")

    # A ranked match (no seed) against the engine's weakest level, resigned at once.
    page.goto("/#/")
    page.check("#game-schotten_totten")
    page.select_option("#seat-0", "you")
    page.select_option("#seat-1", "bot:easy")
    expect(page.locator("#guest-name")).to_have_count(0)  # a player's seat shows the player's name
    page.fill("#seed", "")
    page.click("#start")
    page.wait_for_url("**/#/match/*")
    settled(page)
    match_id, _ = match_of(page)
    expect(page.locator("#match-title")).to_have_text("Schotten Totten")  # ranked: no "ungewertet"
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    expect(page.locator("#result")).to_be_visible()

    page.goto(f"/#/players/{name}")
    card = page.locator('#profile .rating[data-game="schotten_totten"][data-pool="bots"]')
    expect(card).to_contain_text("Schotten Totten · mit Bots am Tisch")
    expect(card).to_contain_text("gewertete Partien: 1")
    expect(card.locator("svg.rating-chart")).to_have_attribute(
        "aria-label", re.compile(r"^Wertungsverlauf: von \d+ auf \d+, gewertete Partien: 1$")
    )
    expect(page.locator(f'#profile-matches a[href="#/match/{match_id}"]')).to_contain_text(name)
    screenshot(page, "profile")

    page.goto("/#/ratings/schotten_totten/bots")
    expect(page.locator("#board-title")).to_have_text("Rangliste: Schotten Totten")
    expect(page.locator("#board-players")).to_contain_text(name)
    expect(page.locator("#board-bots")).to_contain_text("Bot: stark")
    screenshot(page, "leaderboard")

    page.click("#logout")
    expect(page.locator("#login-link")).to_have_text("Anmelden")
    page.goto("/#/login")
    page.fill("#login-name", name)
    page.fill("#login-password", "falsch-123")
    page.click("#login-submit")
    expect(page.locator("#login-notice")).to_have_text("kein Spieler hat diesen Namen und dieses Passwort")


def test_a_guest_name_shows_on_the_other_seat_and_bots_by_their_level(page: Page, server: str) -> None:
    page.goto("/")
    page.check("#game-schotten_totten")
    page.select_option("#seat-0", "bot:normal")
    page.select_option("#seat-1", "you")
    page.fill("#guest-name", "Gast Fritz")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_url("**/#/match/*")
    settled(page)
    expect(page.locator(".seat-line")).to_have_text("Du sitzt auf Sitz 2.")
    out = page.evaluate("() => fetch(`/v1/matches/${location.hash.split('/')[2]}`).then(r => r.json())")
    assert out["names"] == [None, "Gast Fritz"] and out["bots"] == ["normal", None]
    # The page names the bot by its level, never by a seat number.
    expect(page.locator("#board")).to_contain_text("Bot normal")


def test_each_game_has_its_rules_page_in_german_and_a_summary_in_english(page: Page) -> None:
    page.goto("/")
    page.click("#rules-schotten_totten")
    expect(page.locator("#rules-title")).to_have_text("Regeln: Schotten Totten")
    # The rule text itself: the claim's proof counts one's own hand as available (S5).
    expect(page.locator(".rules-text")).to_contain_text(
        "Deine eigenen Handkarten zählen dabei ausdrücklich nicht"
    )
    page.click("#lang")
    expect(page.locator("#rules-title")).to_have_text("Rules: Schotten Totten")
    expect(page.locator(".rules-summary")).to_contain_text("Your own hand counts as available")
    page.click("#lang")  # (German again for the tests that follow in this browser)


def test_the_last_move_is_marked_on_the_board_and_named_with_the_whole_turn(page: Page, server: str) -> None:
    match_id, token = start_match(page, "schotten_totten", ["you", "bot:random"], seed=9)
    before = {
        c
        for s in api(server, f"/v1/matches/{match_id}", token)["view"]["stones"]
        for side in s["cards"]
        for c in side
    }
    assert page.locator(".just-played").count() == 0  # nothing happened yet
    version = settled(page)["version"]
    card = page.locator(".hand button.card").first.get_attribute("data-card")
    page.locator(f'.hand button.card[data-card="{card}"]').click()
    page.locator('button.stone[data-stone="4"]').click()
    settled(page, after_version=version)
    out = api(server, f"/v1/matches/{match_id}", token)
    now = {c for s in out["view"]["stones"] for side in s["cards"] for c in side}
    marked = set(page.locator(".stones .just-played").evaluate_all("es => es.map(e => e.dataset.card)"))
    # Marked: the cards that came onto the stones since the screen before, the bot's among them.
    assert marked and marked <= now - before and (now - before - {card}) <= marked
    expect(page.locator("#last-move")).to_have_text(f"Bot random: {out['last_move']}")


def test_one_hover_note_at_a_time_just_below_its_stone_and_saying_the_hand_counts(page: Page) -> None:
    start_match(page, "schotten_totten", ["you", "bot:random"], seed=9)
    version = settled(page)["version"]
    page.locator(".hand button.card").first.click()
    page.locator('button.stone[data-stone="4"]').click()  # (the click leaves focus in column 4)
    settled(page, after_version=version)
    notes = page.locator(".stone-col .best")
    for stone in (2, 6):
        page.locator(f'button.stone[data-stone="{stone}"]').hover()
        shown = [n for n in notes.all() if n.is_visible()]
        assert len(shown) == 1, stone
        note, rock = (
            shown[0].bounding_box(),
            page.locator(f'button.stone[data-stone="{stone}"]').bounding_box(),
        )
        assert note is not None and rock is not None
        assert 0 <= note["y"] - (rock["y"] + rock["height"]) <= 40, (note, rock)
        expect(shown[0]).to_contain_text("Deine eigenen Handkarten zählen dabei als noch verfügbar")


def test_a_rematch_starts_the_same_match_again_with_the_same_seats(page: Page, server: str) -> None:
    match_id, _ = start_match(page, "caravan", ["bot:normal", "you"], seed=4, clock="5")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.click("#rematch")
    page.wait_for_function("id => !location.hash.includes(id)", arg=match_id)
    settled(page)
    again, token = match_of(page)
    out = api(server, f"/v1/matches/{again}", token)
    assert out["game"] == "caravan" and out["bots"] == ["normal", None] and out["seat"] == 1
    assert out["clock"] == api(server, f"/v1/matches/{match_id}")["clock"] and out["clock"] is not None
    assert out["ranked"] is True  # the server dealt: no seed carried over
    expect(page.locator(".seat-line")).to_have_text("Du sitzt auf Sitz 2.")


def test_a_spectator_reads_who_won_by_name(page: Page, server: str) -> None:
    body = {
        "game": "schotten_totten",
        "seats": [{"kind": "person", "name": "Gerd"}, {"kind": "person", "name": "Hanna"}],
    }
    created = api(server, "/v1/matches", body=body)
    api(server, f"/v1/matches/{created['id']}/resign", created["seats"][1]["token"], body={})
    page.goto(f"/#/match/{created['id']}")
    expect(page.locator("#result .summary")).to_have_text("Gerd gewinnt.")
