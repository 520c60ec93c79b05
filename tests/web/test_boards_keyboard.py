"""The Game played to its end by keyboard alone on its board (Tab to a control, Enter), an
illegal attempt answered with the engine's reason and nothing changed, the page in German
and English, and the step-by-step replay after the end."""

from __future__ import annotations

import random

from playwright.sync_api import Page, expect

from .conftest import screenshot
from .play import api, settled, start_match
from .test_other_games_page import canonical

MAX_MOVES = 200


def tab_to(page: Page, selector: str, presses: int = 120) -> None:
    """Presses Tab until the focused element matches ``selector`` (keyboard only)."""
    for _ in range(presses):
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


def test_the_game_by_keyboard_with_a_refusal_both_languages_and_the_replay(page: Page, server: str) -> None:
    match_id, token = start_match(page, "the_game", ["you", "bot:random"], seed=11)
    # The table talk (T7): a number is refused with the engine's reason, a word is said.
    page.fill("#talk-input", "Ich lege gleich die 41")
    page.click("#talk-send")
    why = api(server, "/v1/the_game/table-talk", body={"text": "Ich lege gleich die 41"})
    assert why["allowed"] is False
    expect(page.locator("#notice")).to_contain_text(why["reason"].split(": ", 1)[-1])
    expect(page.locator("#talk-list li")).to_have_count(0)
    page.fill("#talk-input", "Achtung, ganz knapp")
    page.click("#talk-send")
    expect(page.locator("#talk-list li")).to_have_text(["Du: Achtung, ganz knapp"])
    rng = random.Random(11)
    refused = False
    made = 0
    for _ in range(MAX_MOVES):
        shown = settled(page)
        if shown["status"] != "running":
            break
        truth = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
        view = api(server, f"/v1/matches/{match_id}", token)["view"]
        if not refused:
            # A card and a pile that does not take it: the engine's reason, nothing changed.
            for card in view["hand"]:
                takes = {m["move"]["pile"] for m in truth if m["move"].get("card") == card}
                if len(takes) < 4:
                    pile = min(set(range(4)) - takes)
                    tab_to(page, f"#board .hand [data-card='{card}']")
                    page.keyboard.press("Enter")
                    tab_to(page, f"#board button.pile[data-pile='{pile}']")
                    page.keyboard.press("Enter")
                    why = api(
                        server,
                        f"/v1/matches/{match_id}/check",
                        token,
                        body={"move": {"type": "play", "card": card, "pile": pile}},
                    )
                    assert not why["legal"]
                    expect(page.locator("#notice")).to_contain_text(f"Nicht erlaubt: {why['reason']}")
                    assert api(server, f"/v1/matches/{match_id}", token)["version"] == shown["version"]
                    screenshot(page, "the_game_refused")
                    page.keyboard.press("Escape")
                    refused = True
                    break
        move = rng.choice(truth)["move"]
        if move["type"] == "play":
            tab_to(page, f"#board .hand [data-card='{move['card']}']")
            page.keyboard.press("Enter")
        tab_to(page, f"#board [data-move='{canonical(move)}']")
        page.keyboard.press("Enter")
        settled(page, after_version=shown["version"])
        made += 1
    else:
        raise AssertionError(f"The Game did not end within {MAX_MOVES} moves")
    assert refused and made > 3
    out = api(server, f"/v1/matches/{match_id}", token)
    expect(page.locator("#result-text")).to_have_text(out["result"]["text"])

    # The replay, step by step, by keyboard.
    tab_to(page, "#replay-open")
    page.keyboard.press("Enter")
    replay = api(server, f"/v1/matches/{match_id}/replay")
    total = len(replay["actions"])
    expect(page.locator("#replay-step")).to_contain_text(f"Schritt {total} von {total}")
    tab_to(page, "#replay-prev")
    page.keyboard.press("Enter")
    expect(page.locator("#replay-step")).to_contain_text(f"Schritt {total - 1} von {total}")
    expect(page.locator("#replay-step")).to_contain_text(replay["actions"][total - 2]["text"])

    # English on request: the page's labels and the engine's texts.
    page.click("#lang")
    settled(page)
    expect(page.locator("#turn")).to_have_text("The match is over.")
    english = api(server, f"/v1/matches/{match_id}", token, lang="en")
    expect(page.locator("#result-text")).to_have_text(english["result"]["text"])
    screenshot(page, "the_game_end_en")
    page.click("#lang")
    settled(page)
    expect(page.locator("#turn")).to_have_text("Die Partie ist vorbei.")


def test_boards_in_english(page: Page, server: str) -> None:
    """Every board's labels and the engine's move texts switch to English and back."""
    for game, seats in (
        ("caravan", ["you", "bot:random"]),
        ("dog", ["you", "bot:random", "bot:random", "bot:random"]),
    ):
        match_id, token = start_match(page, game, seats, seed=5)
        expect(page.locator("#board .hand-title")).to_have_text("Deine Hand")
        page.click("#lang")
        settled(page)
        expect(page.locator("#board .hand-title")).to_have_text("Your hand")
        moves = api(server, f"/v1/matches/{match_id}/moves", token, lang="en")["moves"]
        # The first move's card chosen: its buttons carry the engine's English text.
        first = moves[0]["move"]
        if "card" in first:
            page.locator(f"#board .hand [data-card='{first['card']}']").first.click()
        if "marble" in first:
            page.locator(f"#board [data-marble='{first['marble']}']").click()
        titles = page.evaluate(
            "() => [...document.querySelectorAll('#board button[data-move]')].map(b => b.title)"
        )
        assert titles and set(titles) <= {m["text"] for m in moves}
        screenshot(page, f"{game}_en")
        page.click("#lang")
        settled(page)
        expect(page.locator("#board .hand-title")).to_have_text("Deine Hand")
