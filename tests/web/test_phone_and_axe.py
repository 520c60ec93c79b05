"""Every game's board at a phone's width without sideways scrolling (issue 35, item 8), and
axe-core on every screen with no serious or critical violation (item 9)."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, Page, ViewportSize

from .conftest import screenshot
from .play import api, settled

SEATS = {"schotten_totten": 2, "caravan": 2, "the_game": 3, "dog": 4}
PHONE: ViewportSize = {"width": 390, "height": 844}
AXE = Axe()


def open_seat(page: Page, server: str, game: str) -> str:
    """A match with a person at seat 0 and random bots elsewhere, opened by its invitation."""
    n = SEATS[game]
    body: dict[str, Any] = {
        "game": game,
        "seed": 3,
        "seats": [{"kind": "person"}] + [{"kind": "bot", "bot": "random"}] * (n - 1),
    }
    if game == "the_game":
        body["options"] = {"players": n}
    created = api(server, "/v1/matches", body=body)
    page.goto(created["seats"][0]["invitation"])
    page.wait_for_url("**/#/match/*")
    settled(page)
    match_id: str = created["id"]
    return match_id


def serious(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page as it is, each with its nodes."""
    results = AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("game", list(SEATS))
def test_each_board_fits_a_phone_and_has_no_serious_accessibility_violation(
    browser: Browser, server: str, game: str
) -> None:
    context = browser.new_context(base_url=server, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        open_seat(page, server, game)
        wide = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        screenshot(page, f"phone-{game}")
        assert wide[0] <= wide[1], f"{game} scrolls sideways at 390 px: {wide[0]} px wide"
        assert serious(page) == [], game
    finally:
        context.close()


SCREENS = ["/#/", "/#/login", "/#/ratings/schotten_totten", "/#/tutorial/schotten_totten", "/#/rules/dog"]


@pytest.mark.parametrize("screen", SCREENS)
def test_the_other_screens_have_no_serious_accessibility_violation(page: Page, screen: str) -> None:
    page.goto(screen)
    page.wait_for_selector("main#app > *")
    page.wait_for_timeout(300)  # (the lobby's lists and the leaderboard arrive after the frame)
    assert serious(page) == [], screen
