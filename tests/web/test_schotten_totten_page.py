"""Schotten Totten played through the page in a real browser, checked against the API."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import screenshot
from .play import api, claim_stones, page_stones, settled, start_match

# Enough for any game: 54 cards and nine stones bound the number of turns (S2).
MAX_STEPS = 400


def unchanged(out: dict[str, Any]) -> dict[str, Any]:
    """The match as a refused attempt must leave it: everything but the seconds a match
    rule has left, which run on by themselves (``rules_due``'s ``in_s``)."""
    return {**out, "rules_due": [{k: v for k, v in r.items() if k != "in_s"} for r in out["rules_due"]]}


def api_claims(server: str, match_id: str, token: str) -> list[int]:
    moves = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
    return sorted(m["move"]["stone"] for m in moves if m["move"]["type"] == "claim")


def one_turn(page: Page, rng: random.Random, claim_chance: float) -> None:
    """One step through the page: a claim, a card onto a stone, or another move (end turn)."""
    version = settled(page)["version"]
    claims = page.locator("button.claim")
    if claims.count() and rng.random() < claim_chance:
        claims.nth(rng.randrange(claims.count())).click()
    elif page.locator(".other-moves button").count():
        page.locator(".other-moves button").first.click()
    else:
        cards = page.locator(".hand button.card")
        cards.nth(rng.randrange(cards.count())).click()
        targets = page.locator("button.stone.target")
        assert targets.count() > 0, "a card in hand and no stone to take it"
        targets.nth(rng.randrange(targets.count())).click()
    settled(page, after_version=version)


def test_a_whole_game_against_the_random_bot(page: Page, server: str) -> None:
    match_id, token = start_match(page, "schotten_totten", ["you", "bot:random"], seed=11)
    screenshot(page, "schotten_totten_start")
    expect(page.locator("#turn")).to_have_text("Du bist am Zug.")
    assert len(page.locator(".hand button.card").all()) == 6
    rng = random.Random(11)
    for step in range(MAX_STEPS):
        if settled(page)["status"] != "running":
            break
        one_turn(page, rng, claim_chance=1.0)
        if step == 12:
            screenshot(page, "schotten_totten_middle")
            # A reload keeps the seat: the token is in this tab's sessionStorage.
            page.reload()
            settled(page)
            expect(page.locator(".seat-line")).to_have_text("Du sitzt auf Sitz 1.")
    else:
        raise AssertionError("the game did not end")
    # Colours are not the only mark: every card on the board shows its value, its
    # colour's letter in German (Gelb and Grün by two letters, never the notation's Y and
    # G) and a shape of its own per colour (readable without colour vision).
    letters_de = {"R": "R", "O": "O", "Y": "Ge", "G": "Gr", "B": "B", "P": "L"}
    faces = page.locator("#board .card").evaluate_all(
        """cs => cs.map(c => [c.dataset.card, c.querySelector('.card-value').textContent,
                              c.querySelector('.card-letter').textContent,
                              c.querySelector('.card-symbol').textContent])"""
    )
    assert len(faces) >= 20
    shapes: dict[str, set[str]] = {}
    for code, value, letter, shape in faces:
        assert (letter, value) == (letters_de[code[0]], code[1:]) and shape, (code, value, letter, shape)
        shapes.setdefault(letter, set()).add(shape)
    # One shape per colour, and no two colours with the same shape.
    assert all(len(s) == 1 for s in shapes.values())
    assert len(set.union(*shapes.values())) == len(shapes)
    out = api(server, f"/v1/matches/{match_id}", token)
    assert out["status"] == "finished" and out["result"]["reason"] == "end"
    expect(page.locator("#result-text")).to_have_text(out["result"]["text"])
    mine = out["result"]["returns"][0]
    expect(page.locator("#result .summary")).to_have_text(
        "Du hast gewonnen." if mine > 0 else "Du hast verloren." if mine < 0 else "Unentschieden."
    )
    # The page draws every card where the engine has it.
    view = out["view"]
    assert page_stones(page) == [[s["cards"][1], s["cards"][0]] for s in view["stones"]]
    assert page.locator(".hand button.card").count() == len(view["hand"])
    assert page.locator("button.claim").count() == 0
    # The page's own moves and the bot's answers between them reached it through the event
    # stream (a move's answer carries only the newest version): the history has every ply
    # since the reload, in order, as the replay has them.
    # Each ply names who made it ("Du", the bot by its name).
    who = {0: "Du", 1: "Bot random"}
    replay = [
        f"{who[a['seat']]}: {a['text']}" for a in api(server, f"/v1/matches/{match_id}/replay")["actions"]
    ]
    page.locator("#history summary").click()  # the history is folded away until asked for
    history = page.locator("#history-list li")
    expect(history.last).to_have_text(replay[-1])
    texts = history.all_inner_texts()
    assert len(texts) > 20 and texts == replay[-len(texts) :]
    screenshot(page, "schotten_totten_end")


def test_nehmen_exactly_where_the_api_lists_a_claim(page: Page, server: str) -> None:
    """At every position of two games, the page's "Nehmen" buttons are the API's claim moves;
    claims are taken only now and then, so ripe stones pile up."""
    checked = with_claims = 0
    for seed in (21, 22):
        match_id, token = start_match(page, "schotten_totten", ["you", "bot:random"], seed=seed)
        rng = random.Random(seed)
        for _ in range(MAX_STEPS):
            if settled(page)["status"] != "running":
                break
            expected = api_claims(server, match_id, token)
            assert claim_stones(page) == expected
            for stone in expected:
                expect(page.locator(f'.stone-col[data-stone="{stone}"] button.claim')).to_have_text("Nehmen")
            checked += 1
            with_claims += bool(expected)
            one_turn(page, rng, claim_chance=0.3)
        else:
            raise AssertionError("the game did not end")
    assert checked >= 40 and with_claims >= 5, (checked, with_claims)


def fill_stone(page: Page, stone: int, cards: int) -> None:
    """Plays ``cards`` cards of the hand at ``stone``, ending turns that offer claims."""
    for _ in range(cards):
        version = settled(page)["version"]
        page.locator(".hand button.card").first.click()
        page.locator(f'button.stone[data-stone="{stone}"]').click()
        settled(page, after_version=version)
        if page.locator(".other-moves button").count():  # a claim is possible: end the turn
            version = settled(page)["version"]
            page.locator(".other-moves button").first.click()
            settled(page, after_version=version)


def test_an_illegal_attempt_shows_the_engines_reason_and_changes_nothing(page: Page, server: str) -> None:
    match_id, token = start_match(page, "schotten_totten", ["you", "bot:random"], seed=5)
    # Without a card the page asks for one (its own text; nothing is sent).
    page.locator('button.stone[data-stone="0"]').click()
    expect(page.locator("#notice")).to_have_text("Wähle zuerst eine Karte aus deiner Hand.")
    fill_stone(page, 0, 3)
    before = unchanged(api(server, f"/v1/matches/{match_id}", token))
    shown = settled(page)
    card = page.locator(".hand button.card").first
    code = card.get_attribute("data-card")
    card.click()
    # A full stone takes no card: it is no target, and trying it asks the engine why.
    assert page.locator('button.stone[data-stone="0"].target').count() == 0
    page.locator('button.stone[data-stone="0"]').click()
    settled(page)
    truth = api(
        server,
        f"/v1/matches/{match_id}/check",
        token,
        body={"move": {"type": "play", "card": code, "stone": 0}},
    )
    assert truth["legal"] is False and truth["reason"]
    # The reason in words; the ruling only as a "Regel" link to the rules, never "(S3a)".
    expect(page.locator("#notice")).to_have_text(f"Nicht erlaubt: {truth['reason']} Regel")
    link = page.locator("#notice a.rule-link")
    expect(link).to_have_attribute("data-rule", truth["rule"])
    expect(link).to_have_attribute("href", "#/rules/schotten_totten")
    expect(page.locator("#notice")).to_have_class("notice refused")
    assert settled(page) == shown
    assert unchanged(api(server, f"/v1/matches/{match_id}", token)) == before
    assert page.locator(".hand button.card").count() == len(before["view"]["hand"])
    expect(page.locator(f'.hand button.card[data-card="{code}"]')).to_have_attribute("aria-pressed", "true")
    screenshot(page, "schotten_totten_refused")


def test_a_card_dragged_onto_a_stone_is_played_or_refused_with_the_reason(page: Page, server: str) -> None:
    """Drag and drop plays as a click does: onto a stone that takes the card it is played;
    onto a full stone the engine's reason is shown and nothing changes."""
    match_id, token = start_match(page, "schotten_totten", ["you", "bot:random"], seed=5)
    version = settled(page)["version"]
    card = page.locator(".hand button.card").first
    code = card.get_attribute("data-card")
    card.drag_to(page.locator('.stone-col[data-stone="6"]'))
    settled(page, after_version=version)
    view = api(server, f"/v1/matches/{match_id}", token)["view"]
    assert code in view["stones"][6]["cards"][0], "the dragged card lies at stone 7"
    assert code not in view["hand"]
    assert page_stones(page)[6][1] == view["stones"][6]["cards"][0]

    fill_stone(page, 6, 2)  # stone 7 now holds three of my cards
    before = unchanged(api(server, f"/v1/matches/{match_id}", token))
    shown = settled(page)
    card = page.locator(".hand button.card").first
    code = card.get_attribute("data-card")
    card.drag_to(page.locator('.stone-col[data-stone="6"]'))
    truth = api(
        server,
        f"/v1/matches/{match_id}/check",
        token,
        body={"move": {"type": "play", "card": code, "stone": 6}},
    )
    assert truth["legal"] is False
    expect(page.locator("#notice")).to_have_text(f"Nicht erlaubt: {truth['reason']} Regel")
    assert settled(page) == shown
    assert unchanged(api(server, f"/v1/matches/{match_id}", token)) == before


def test_the_page_in_german_and_in_english(page: Page, server: str) -> None:
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#start")).to_have_text("Partie starten")
    match_id, token = start_match(page, "schotten_totten", ["you", "bot:random"], seed=8)
    expect(page.locator("#turn")).to_have_text("Du bist am Zug.")
    expect(page.locator("#resign")).to_have_text("Aufgeben")
    fill_stone(page, 4, 3)
    move = {
        "type": "play",
        "card": page.locator(".hand button.card").first.get_attribute("data-card"),
        "stone": 4,
    }
    truth = {
        lang: api(server, f"/v1/matches/{match_id}/check", token, lang=lang, body={"move": move})
        for lang in ("de", "en")
    }
    reasons = {lang: answer["reason"] for lang, answer in truth.items()}
    assert reasons["de"] != reasons["en"]
    page.locator(".hand button.card").first.click()
    page.locator('button.stone[data-stone="4"]').click()
    expect(page.locator("#notice")).to_contain_text(reasons["de"])

    page.click("#lang")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    settled(page)
    expect(page.locator("#lang")).to_have_text("Deutsch")
    expect(page.locator("#turn")).to_have_text("Your turn.")
    expect(page.locator("#resign")).to_have_text("Resign")
    expect(page.locator(".hand-title")).to_have_text("Your hand")
    # The selected card stays selected across the switch; the same attempt, in English.
    expect(page.locator(".hand button.card").first).to_have_attribute("aria-pressed", "true")
    page.locator('button.stone[data-stone="4"]').click()
    expect(page.locator("#notice")).to_have_text(f"Not allowed: {reasons['en']} rule")
    screenshot(page, "schotten_totten_english")
    # The choice of language outlives a reload; the lobby is English too.
    page.click("#lobby-link")
    expect(page.locator("#start")).to_have_text("Start match")
    page.reload()
    expect(page.locator("#start")).to_have_text("Start match")


def test_keyboard_only_play(page: Page, server: str) -> None:
    page.goto("/")
    page.wait_for_selector("#start")
    # Tab to the start button (the defaults: Schotten Totten, you against the random bot).
    for _ in range(40):
        if page.evaluate("() => document.activeElement.id") == "start":
            break
        page.keyboard.press("Tab")
    else:
        raise AssertionError("Tab never reached the start button")
    page.keyboard.press("Enter")
    page.wait_for_url("**/#/match/*")
    shown = settled(page)

    def tab_to(selector: str) -> None:
        for _ in range(60):
            if page.evaluate("s => document.activeElement.matches(s)", selector):
                return
            page.keyboard.press("Tab")
        raise AssertionError(f"Tab never reached {selector}")

    # A card by Enter, its stone by a digit key.
    tab_to(".hand button.card")
    focused = page.evaluate("() => getComputedStyle(document.activeElement).outlineWidth")
    assert focused == "3px"  # the focus is visible
    screenshot(page, "schotten_totten_keyboard_focus")
    page.keyboard.press("Enter")
    expect(page.locator(".hand button.card[aria-pressed=true]")).to_have_count(1)
    page.keyboard.press("3")
    shown = settled(page, after_version=shown["version"])
    assert len(page_stones(page)[2][1]) == 1
    # The focus stays on the board: then a card by Space, a stone by the arrow keys and Enter.
    for _ in range(2):
        if page.locator(".other-moves button").count():
            tab_to(".other-moves button")
            page.keyboard.press("Enter")
            shown = settled(page, after_version=shown["version"])
        tab_to(".hand button.card")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("Space")
        expect(page.locator(".hand button.card[aria-pressed=true]")).to_have_count(1)
        page.keyboard.press("Shift+Tab")  # from the hand back to the stones' row
        for _ in range(20):
            if page.evaluate("() => document.activeElement.matches('button.stone')"):
                break
            page.keyboard.press("Shift+Tab")
        page.keyboard.press("Home")
        page.keyboard.press("ArrowRight")
        expect(page.locator("button.stone:focus")).to_have_attribute("data-stone", "1")
        page.keyboard.press("Enter")
        shown = settled(page, after_version=shown["version"])
    assert sum(len(s[1]) for s in page_stones(page)) == 3
