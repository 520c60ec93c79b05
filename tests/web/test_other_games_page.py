"""Caravan, The Game and Dog played to their end through their own boards on the page.

Each move is made the way a person makes it on the board: the hand card first (and in Dog
the marble), then the target; the board offers exactly the API's legal moves for that choice.
"""

from __future__ import annotations

import json
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


def canonical(move: Any) -> str:
    """The page's canonical JSON of a move (keys sorted, no spaces)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def make_on_board(page: Page, move: dict[str, Any]) -> None:
    """Chooses the move's card (and marble) on the board, then clicks the move's target."""
    target = page.locator(f"#board [data-move='{canonical(move)}']")
    if "card" in move and not target.count():
        card = page.locator(f"#board .hand [data-card='{move['card']}']").first
        if card.count() and card.get_attribute("aria-pressed") != "true":
            card.click()
        if "marble" in move and not target.count():
            page.locator(f"#board [data-marble='{move['marble']}']").click()
    target.first.click()


def offered(page: Page) -> set[str]:
    """Every move the board offers without a choice made (buttons carrying a move)."""
    found: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#board [data-move]')].map(e => e.dataset.move)"
    )
    return set(found)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_on_its_board(page: Page, server: str, game: str) -> None:
    spec = GAMES[game]
    match_id, token = start_match(page, game, spec["seats"], seed=4, options=spec["options"])
    expect(page.locator(".board-later")).to_have_count(0)
    rng = random.Random(4)
    made = 0
    for _ in range(MAX_MOVES):
        shown = settled(page)
        if shown["status"] != "running":
            break
        truth = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
        assert truth, "the page's seat is to move but has no move"
        legal = {canonical(m["move"]) for m in truth}
        # Whatever the board offers is a legal move.
        assert offered(page) <= legal
        if made == 3:
            screenshot(page, f"{game}_board")
        make_on_board(page, rng.choice(truth)["move"])
        settled(page, after_version=shown["version"])
        made += 1
    else:
        raise AssertionError(f"{game} did not end within {MAX_MOVES} moves of the page's seat")
    out = api(server, f"/v1/matches/{match_id}", token)
    assert out["status"] == "finished" and out["result"]["reason"] == "end"
    assert made > 3
    expect(page.locator("#result-text")).to_have_text(out["result"]["text"])
    if game == "dog":  # the team score when the playing time ends (D13)
        a, b = out["result"]["points"]
        expect(page.locator("#team-points")).to_have_text(f"Punkte der Teams: {a} : {b}")
    expect(page.locator("#board [data-move]")).to_have_count(0)
    expect(page.locator("#turn")).to_have_text("Die Partie ist vorbei.")
    screenshot(page, f"{game}_end")
