"""The Game played to its end by keyboard alone on its board (Tab to a control, Enter), an
illegal attempt answered with the engine's reason and nothing changed, the page in German
and English, and the step-by-step replay after the end."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import screenshot
from .play import api, settled, start_match
from .test_board_facts_page import my_turn, shown_version
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
    # It opens at the deal; the next step by Enter, the last by End.
    expect(page.locator("#replay-step")).to_contain_text(f"Schritt 0 von {total}")
    tab_to(page, "#replay-next")
    page.keyboard.press("Enter")
    expect(page.locator("#replay-step")).to_contain_text(f"Schritt 1 von {total}")
    expect(page.locator("#replay-step")).to_contain_text(replay["actions"][0]["text"])
    page.keyboard.press("End")
    expect(page.locator("#replay-step")).to_contain_text(f"Schritt {total} von {total}")

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


def keyboard_move(page: Page, move: dict[str, Any], marble_first: bool = True) -> None:
    """Makes ``move`` by keyboard alone: its hand card, in Dog its marble, then its target
    (a caravan, number card, field or button carrying the move), each reached by Tab and
    pressed with Enter."""
    target = f"#board [data-move='{canonical(move)}']"
    if "card" in move and not page.locator(target).count():
        card = page.locator(f"#board .hand [data-card='{move['card']}']")
        if card.count() and card.first.get_attribute("aria-pressed") != "true":
            tab_to(page, f"#board .hand [data-card='{move['card']}']")
            page.keyboard.press("Enter")
    if "marble" in move and marble_first and not page.locator(target).count():
        tab_to(page, f"#board g.marble[data-marble='{move['marble']}']")
        page.keyboard.press("Enter")
    tab_to(page, target)
    page.keyboard.press("Enter")


def is_face(move: dict[str, Any]) -> bool:
    card = str(move.get("card", ""))
    return move["type"] == "play" and (card.startswith("JK") or card[:-1] in ("J", "Q", "K"))


def test_caravan_by_keyboard_with_a_face_card(page: Page, server: str) -> None:
    """Caravan's board by keyboard alone: number cards onto caravans, a face card onto a
    number card (C6), each chosen on the board and checked on the API's table."""
    match_id, token = start_match(page, "caravan", ["you", "bot:random"], seed=12)
    rng = random.Random(12)
    faces = made = 0
    for _ in range(120):
        out = my_turn(server, match_id, token)
        if out["status"] != "running" or (faces and made >= 12):
            break
        shown_version(page, out["version"])
        shown = settled(page)
        truth = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
        face_moves = [m["move"] for m in truth if is_face(m["move"])]
        move = rng.choice(face_moves) if face_moves else rng.choice(truth)["move"]
        keyboard_move(page, move)
        settled(page, after_version=shown["version"])
        made += 1
        if is_face(move):
            faces += 1
            # The face card lies on the number card it was played onto (C6, C7).
            view = api(server, f"/v1/matches/{match_id}", token)["view"]
            caravan = view["caravans"][move["caravan"]]
            on_table = [f["card"] for slot in caravan["cards"] for f in slot["faces"]]
            assert move["card"] in on_table or move["card"][:-1] == "J" or move["card"].startswith("JK"), (
                move,
                caravan,
            )
            if faces == 1:
                screenshot(page, "caravan_keyboard_face")
    assert faces >= 1 and made >= 8, (faces, made)


def test_dog_by_keyboard_with_a_kennel_exit_and_a_split_seven(page: Page, server: str) -> None:
    """Dog's board by keyboard alone: the partner exchange, a marble out of the kennel by
    choosing the card, the kennel marble and its start field (D6), and a seven split into
    parts where one comes (D8), every step highlighted from the view's targets."""
    match_id, token = start_match(
        page, "dog", ["you", "bot:random", "bot:random", "bot:random"], seed=6, options={"max_turns": 400}
    )
    rng = random.Random(6)
    done: set[str] = set()
    for _ in range(160):
        out = my_turn(server, match_id, token)
        if out["status"] != "running" or {"start", "seven"} <= done:
            break
        shown_version(page, out["version"])
        shown = settled(page)
        truth = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
        targets = [x for e in out["view"]["hand_targets"] for x in e["targets"]]
        starts = [x for x in targets if x["move"]["type"] == "start"]
        sevens = [x for x in targets if x["move"]["type"] == "seven"]
        if starts and "start" not in done:
            # Out of the kennel: the card, the kennel marble the view names, its start field.
            x = starts[0]
            tab_to(page, f"#board .hand [data-card='{x['move']['card']}']")
            page.keyboard.press("Enter")
            tab_to(page, f"#board g.marble[data-marble='{x['marble']}']")
            page.keyboard.press("Enter")
            tab_to(page, f"#board .target-field[data-target='ring-{x['to']['ring']}']")
            page.keyboard.press("Enter")
            settled(page, after_version=shown["version"])
            view = api(server, f"/v1/matches/{match_id}", token)["view"]
            assert view["marbles"][x["marble"]]["place"] == x["to"], "the marble left the kennel"
            screenshot(page, "dog_keyboard_start")
            done.add("start")
            continue
        if sevens:
            # A part of a seven: the card (or, once split, the card already chosen), the
            # marble, then the field its part ends on.
            x = rng.choice(sevens)
            keyboard_move(page, x["move"])
            settled(page, after_version=shown["version"])
            view = api(server, f"/v1/matches/{match_id}", token)["view"]
            if view["seven"] is not None:
                done.add("seven")
                screenshot(page, "dog_keyboard_seven")
            continue
        move = rng.choice(truth)["move"]
        keyboard_move(page, move)
        settled(page, after_version=shown["version"])
    assert "start" in done, done
    assert "seven" in done, f"no seven was split in this seeded game: {done}"
