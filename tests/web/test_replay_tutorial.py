"""The replay viewer draws the board at every step (from POST …/view) for the public view and
for every seat; each game's tutorial completes when its steps are followed."""

from __future__ import annotations

import json
from typing import Any

import pytest
import spielwerk
from playwright.sync_api import Page, expect

from .conftest import screenshot
from .play import api


def test_the_replay_shows_the_board_of_each_step_and_every_seats_view(page: Page, server: str) -> None:
    body = {"game": "schotten_totten", "seed": 4, "seats": [{"kind": "person"}, {"kind": "person"}]}
    created = api(server, "/v1/matches", body=body)
    match_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    for _ in range(4):
        seat = api(server, f"/v1/matches/{match_id}", tokens[0])["seats_to_move"][0]
        move = api(server, f"/v1/matches/{match_id}/moves", tokens[seat])["moves"][0]["move"]
        version = api(server, f"/v1/matches/{match_id}", tokens[seat])["version"]
        api(server, f"/v1/matches/{match_id}/moves", tokens[seat], body={"version": version, "move": move})
    api(server, f"/v1/matches/{match_id}/resign", tokens[0], body={})
    replay = api(server, f"/v1/matches/{match_id}/replay")
    moves = [a for a in replay["actions"] if a["kind"] == "move"]
    assert len(moves) == 4

    page.goto(f"/#/match/{match_id}")
    page.click("#replay-open")
    board = page.locator("#replay-board")
    total = len(replay["actions"])
    # It opens at the deal; the slider goes to any step, End to the last.
    expect(board).to_have_attribute("data-step", "0")
    page.locator("#replay-slider").fill("2")
    expect(board).to_have_attribute("data-step", "2")
    page.locator("#replay-next").press("End")
    expect(board).to_have_attribute("data-step", str(total))
    # The engine's own state after each step, as the public view shows it: the cards on the
    # stones there and nowhere else.
    game = spielwerk.load_game("schotten_totten")
    for back in range(total, -1, -1):
        state = game.new_initial_state(4)
        for a in replay["actions"][:back]:
            if a["kind"] == "move":
                state.apply_action(a["action"], a["seat"])
        expect(board).to_have_attribute("data-step", str(back))
        stones = state.public_view()["stones"]
        on_stones = sorted(c for stone in stones for side in stone["cards"] for c in side)
        shown = sorted(board.locator(".stones [data-card]").evaluate_all("es => es.map(e => e.dataset.card)"))
        assert shown == on_stones, back
        if back:
            page.click("#replay-prev")
    # Every seat's view after the end: its own hand, and no other.
    page.click("#replay-next")
    for seat in (0, 1):
        page.select_option("#replay-seat", str(seat))
        expect(board).to_have_attribute("data-seat", str(seat))
        hand = api(server, f"/v1/matches/{match_id}", tokens[seat])["view"]["hand"]
        expect(board.locator(".hand [data-card]")).to_have_count(len(hand))
    # Autoplay from the deal: a step a second, the button pressed meanwhile.
    page.locator("#replay-slider").fill("0")
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "true")
    expect(board).to_have_attribute("data-step", "1", timeout=3000)
    page.click("#replay-play")
    expect(page.locator("#replay-play")).to_have_attribute("aria-pressed", "false")
    screenshot(page, "replay-board")


def lessons(page: Page) -> dict[str, Any]:
    page.goto("/")
    table: dict[str, Any] = page.evaluate("async () => (await import('/static/tutorials.js')).TUTORIALS")
    return table


def canonical(move: dict[str, Any]) -> str:
    """api.js's canonical(): keys sorted, no spaces (the boards' data-move)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def make(page: Page, move: dict[str, Any]) -> None:
    """The taught move, as a person makes it on the board: its card first, then its target."""
    board = page.locator("#board")
    if "card" in move and move.get("type") != "seven":
        board.locator(f".hand [data-card='{move['card']}']").first.click()
    elif move.get("type") == "seven" and board.locator(f".hand [data-card='{move['card']}']").count():
        # A seven's first part takes its card from the hand; the later parts are its own.
        board.locator(f".hand [data-card='{move['card']}']").first.click()
    if "marble" in move:  # Dog: a card, then a marble, then a target
        board.locator(f"[data-marble='{move['marble']}']").first.click()
    if move.get("type") == "play" and "stone" in move:  # Schotten Totten: a card, then a stone
        board.locator(f"button.stone[data-stone='{move['stone']}']").click()
    elif move.get("type") == "claim":
        board.locator(f"button.claim[data-stone='{move['stone']}']").click()
    else:
        board.locator(f"[data-move='{canonical(move)}']").first.click()


@pytest.mark.parametrize("game", ["schotten_totten", "caravan", "the_game", "dog"])
def test_each_tutorial_completes_when_followed(page: Page, game: str) -> None:
    lesson = lessons(page)[game]
    page.click(f"#tutorial-{game}")  # the lobby's link
    tutorial = page.locator("#tutorial")
    expect(tutorial).to_have_attribute("data-step", "0")
    expect(page.locator("#tutorial-task")).to_contain_text("Schritt 1 von")  # German by default
    if game == "schotten_totten":
        # A full side is refused with the engine's reason; a legal move that teaches nothing
        # is not played: the prepared position stays.
        board = page.locator("#board")
        board.locator(".hand [data-card='O7']").click()
        board.locator("button.stone[data-stone='4']").click()
        expect(page.locator("#notice.refused")).not_to_be_empty()
        board.locator(".hand [data-card='R8']").click()
        board.locator("button.stone[data-stone='2']").click()
        expect(page.locator("#notice")).to_contain_text("lehrt hier aber nichts")
        expect(board.locator(".hand [data-card]")).to_have_count(6)
        expect(tutorial).to_have_attribute("data-step", "0")
    for n, step in enumerate(lesson["steps"]):
        expect(tutorial).to_have_attribute("data-step", str(n))
        expect(tutorial).to_have_attribute("data-busy", "false")
        expect(page.locator("#tutorial-task")).to_contain_text(step["text"]["de"])
        make(page, step["move"])
        expect(tutorial).to_have_attribute("data-step", str(n + 1))
    expect(tutorial).to_have_attribute("data-done", "true")
    expect(page.locator("#tutorial-task")).to_contain_text("Geschafft")
    screenshot(page, f"tutorial-{game}")
    page.click("#lang")
    expect(page.locator("#tutorial-task")).to_contain_text("Done")
