"""Caravan, The Game and Dog played to their end through the page's generic screen."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .conftest import screenshot
from .play import api, settled, start_match

# Dog against random bots can run for thousands of turns: its max_turns option stops it like
# a match clock after 80 turns (D13: a point per marble home, nobody wins), some twenty
# moves of the person seat. Caravan and The Game end by their own rules.
GAMES: dict[str, dict[str, Any]] = {
    "caravan": {"seats": ["you", "bot:random"], "options": {}},
    "the_game": {"seats": ["you", "bot:random"], "options": {}},
    "dog": {"seats": ["you", "bot:random", "bot:random", "bot:random"], "options": {"max_turns": 80}},
}
MAX_MOVES = 300


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_through_the_generic_screen(page: Page, server: str, game: str) -> None:
    spec = GAMES[game]
    match_id, token = start_match(page, game, spec["seats"], seed=4, options=spec["options"])
    expect(page.locator(".board-later")).to_be_visible()
    rng = random.Random(4)
    made = 0
    for _ in range(MAX_MOVES):
        shown = settled(page)
        if shown["status"] != "running":
            break
        # The buttons are exactly the API's legal moves, with the engine's texts.
        truth = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
        buttons = page.locator(".move-list button")
        assert buttons.all_inner_texts() == [m["text"] for m in truth]
        assert truth, "the page's seat is to move but has no move"
        if made == 3:
            screenshot(page, f"{game}_generic")
        buttons.nth(rng.randrange(len(truth))).click()
        settled(page, after_version=shown["version"])
        made += 1
    else:
        raise AssertionError(f"{game} did not end within {MAX_MOVES} moves of the page's seat")
    out = api(server, f"/v1/matches/{match_id}", token)
    assert out["status"] == "finished" and out["result"]["reason"] == "end"
    assert made > 3
    expect(page.locator("#result-text")).to_have_text(out["result"]["text"])
    expect(page.locator(".move-list")).to_have_count(0)
    expect(page.locator("#turn")).to_have_text("Die Partie ist vorbei.")
    screenshot(page, f"{game}_end")
