"""The boards of The Game, Caravan and Dog draw exactly the view's facts, and Schotten Totten
shows the settlement step by step (S9) in the engine's words.

Seeded games against random bots are stepped by random moves sent through the API (as an
outside client would); the page follows through its event stream. At positions where the
page's seat is to move, what the board highlights is compared with the view the API sends
and with the API's legal moves:

- The Game (T4): after choosing each hand card, the piles offered are exactly those whose
  ``takes`` hold it (the card's legal plays), and the ±10 marks exactly ``backward``;
- Caravan (C9): each caravan's range badge is its pair's ``facts.range``, the "sells" badge
  sits where ``sold_by`` is the owner, and a tie is shown where ``facts.tied``;
- Dog (D6-D10): after choosing each card, the movable marbles are exactly the marbles of
  its ``hand_targets``, and after a marble its targets are exactly the places they name,
  each carrying its legal move.
"""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from .conftest import screenshot
from .play import api, settled, start_match
from .test_other_games_page import canonical

STATIC = Path(__file__).resolve().parents[2] / "api" / "spielwerk_api" / "static"


def my_turn(server: str, match_id: str, token: str, seat: int = 0) -> Any:
    """The match once ``seat`` is to move or the game is over (the bots answer at once)."""
    deadline = time.monotonic() + 30
    while True:
        out = api(server, f"/v1/matches/{match_id}", token)
        if out["status"] != "running" or seat in out["seats_to_move"]:
            return out
        assert time.monotonic() < deadline, "the bots did not move within 30 s"
        time.sleep(0.05)


def shown_version(page: Page, version: int) -> None:
    page.wait_for_function(
        """v => { const m = document.querySelector('#match');
                  return m && m.dataset.busy === 'false' && Number(m.dataset.version) >= v; }""",
        arg=version,
    )


def random_move(server: str, match_id: str, token: str, out: Any, rng: random.Random) -> None:
    moves = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
    pick = rng.choice(moves)["move"]
    api(server, f"/v1/matches/{match_id}/moves", token, body={"version": out["version"], "move": pick})


def choose_card(page: Page, card: Any) -> None:
    button = page.locator(f"#board .hand [data-card='{card}']").first
    if button.get_attribute("aria-pressed") != "true":
        button.click()


def test_the_game_piles_show_the_view_facts(page: Page, server: str) -> None:
    # The page decides no ±10 itself: its piles' marks come from the facts alone.
    source = (STATIC / "thegame.js").read_text()
    assert not re.search(r"\.top\s*[-+<>]|[-+<>]\s*\w+\.top\b", source), "thegame.js compares with a top"
    checked = tricks = 0
    # Random play loses The Game quickly, and a trick needs the card exactly 10 against a
    # pile in the hand: games of several seeds, until both are met.
    for seed in range(21, 61):
        if checked >= 60 and tricks >= 1:
            break
        match_id, token = start_match(page, "the_game", ["you", "bot:random"], seed=seed)
        rng = random.Random(seed)
        for _ in range(150):
            out = my_turn(server, match_id, token)
            if out["status"] != "running":
                break
            shown_version(page, out["version"])
            view = out["view"]
            # Each pile's count in German, singular for one card.
            assert page.locator("#board .pile-count").all_inner_texts() == [
                "1 Karte" if p["cards_played"] == 1 else f"{p['cards_played']} Karten" for p in view["piles"]
            ]
            legal = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
            plays = {(m["move"]["card"], m["move"]["pile"]) for m in legal if m["move"]["type"] == "play"}
            facts = {(card, k) for k, pile in enumerate(view["piles"]) for card in pile["takes"]}
            assert facts == plays, "takes are the legal plays on the seat's turn (T3, T4)"
            marked = page.evaluate(
                "() => [...document.querySelectorAll('#board .hand .has-trick')]"
                ".map(b => Number(b.dataset.card))"
            )
            assert sorted(marked) == sorted({c for pile in view["piles"] for c in pile["backward"]})
            for card in view["hand"]:
                choose_card(page, card)
                offered = page.evaluate(
                    "() => [...document.querySelectorAll('#board button.pile.target')]"
                    ".map(b => Number(b.dataset.pile))"
                )
                trick = page.evaluate(
                    "() => [...document.querySelectorAll('#board button.pile.trick')]"
                    ".map(b => Number(b.dataset.pile))"
                )
                assert sorted(offered) == [k for k, p in enumerate(view["piles"]) if card in p["takes"]], card
                assert sorted(trick) == [k for k, p in enumerate(view["piles"]) if card in p["backward"]], (
                    card
                )
                if trick and not tricks:
                    screenshot(page, "the_game_trick_facts")
                tricks += len(trick)
                checked += 1
            page.keyboard.press("Escape")
            random_move(server, match_id, token, out, rng)
    assert checked >= 60 and tricks >= 1, (checked, tricks)


def test_caravan_pairs_show_the_view_facts(page: Page, server: str) -> None:
    match_id, token = start_match(page, "caravan", ["you", "bot:random"], seed=22, clock="20")
    # Caravan's clocks (C11): one per seat, the person's own named "Du".
    expect(page.locator(".clock")).to_have_count(2)
    expect(page.locator('.clock[data-seat="0"]')).to_have_text(re.compile(r"^Du (20:00|19:[0-5]\d)$"))
    rng = random.Random(22)
    checked = 0
    seen: set[str] = set()
    for _ in range(400):
        out = my_turn(server, match_id, token)
        if out["status"] != "running":
            break
        shown_version(page, out["version"])
        view = out["view"]
        for k, pair in enumerate(view["pairs"]):
            facts = pair["facts"]
            for side, caravan in ((0, k), (1, k + 3)):
                box = page.locator(f"#board .caravan[data-caravan='{caravan}']")
                expect(box.locator(".badge.range")).to_have_attribute("data-range", facts["range"][side])
                expect(box.locator(".badge.sold")).to_have_count(int(pair["sold_by"] == side))
                seen.add(facts["range"][side])
            line = page.locator(f"#board .pair[data-pair='{k}']")
            expect(line).to_have_attribute("data-tied", json.dumps(facts["tied"]))
            sold = "" if pair["sold_by"] is None else str(pair["sold_by"])
            expect(line).to_have_attribute("data-sold-by", sold)
        checked += 1
        if "in_range" in seen and checked % 10 == 0:
            screenshot(page, "caravan_sale_facts")
        random_move(server, match_id, token, out, rng)
    assert checked >= 30 and {"below", "in_range"} <= seen, (checked, seen)


def expected_place(to: Any, marble: int) -> str:
    if "ring" in to:
        return f"ring-{to['ring']}"
    return f"goal-{marble // 4}-{to['goal']}"


def test_dog_highlights_exactly_the_view_targets(page: Page, server: str) -> None:
    match_id, token = start_match(
        page, "dog", ["you", "bot:random", "bot:random", "bot:random"], seed=23, options={"max_turns": 200}
    )
    rng = random.Random(23)
    checked = protected = 0
    kinds: set[str] = set()
    for _ in range(120):
        out = my_turn(server, match_id, token)
        if out["status"] != "running":
            break
        shown_version(page, out["version"])
        view = out["view"]
        legal = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
        moving = {canonical(m["move"]) for m in legal if m["move"]["type"] not in ("exchange", "sit_out")}
        text_of = {canonical(m["move"]): m["text"] for m in legal}
        targets = view["hand_targets"]
        assert {canonical(x["move"]) for e in targets for x in e["targets"]} == moving
        # Protected marbles (D6: on their own start field after leaving the kennel) ringed.
        ringed = page.evaluate(
            "() => [...document.querySelectorAll('#board g.marble')]"
            ".map(g => [Number(g.dataset.marble), g.classList.contains('protected')])"
        )
        assert sorted(ringed) == [[k, m["protected"]] for k, m in enumerate(view["marbles"])]
        protected += sum(m["protected"] for m in view["marbles"])
        for entry in targets:
            if entry["card"] in view["hand"]:
                choose_card(page, entry["card"])
            marbles = sorted({x["marble"] for x in entry["targets"]})
            movable = page.evaluate(
                "() => [...document.querySelectorAll('#board g.marble.movable')]"
                ".map(g => Number(g.dataset.marble))"
            )
            assert sorted(movable) == marbles, entry["card"]
            for marble in marbles[:2]:
                page.locator(f"#board g.marble[data-marble='{marble}']").click()
                mine = [x for x in entry["targets"] if x["marble"] == marble]
                fields = page.evaluate(
                    """() => [...document.querySelectorAll('#board .target-field')]
                        .map(e => [e.dataset.target, e.dataset.move])"""
                )
                assert {f for f, _ in fields} == {expected_place(x["to"], marble) for x in mine}
                assert {m for _, m in fields} <= {canonical(x["move"]) for x in mine}
                buttons = page.evaluate(
                    "() => [...document.querySelectorAll('#board .targets button')].map(b => b.dataset.move)"
                )
                assert sorted(buttons) == sorted(canonical(x["move"]) for x in mine)
                # The board names the marble as the engine's move texts do ("rot 1 fährt 4
                # vorwärts"): the same colour word (capitalised on its own) and number.
                name = page.locator(f"#board g.marble[data-marble='{marble}'] title").text_content()
                assert name is not None
                name = name.split(",")[0].lower()
                for x in mine:
                    text = text_of[canonical(x["move"])]
                    assert name in text.lower() or "starten" in text, (name, text)
                kinds.update(x["move"]["type"] for x in mine)
                page.locator(f"#board g.marble[data-marble='{marble}']").click()  # let go
            checked += 1
        if "jack" in kinds or "seven" in kinds:
            screenshot(page, "dog_target_facts")
        page.keyboard.press("Escape")
        random_move(server, match_id, token, out, rng)
    assert checked >= 20 and {"start", "move"} <= kinds and protected > 0, (checked, kinds, protected)


def test_schotten_totten_shows_the_settlement_step_by_step(page: Page, server: str) -> None:
    """A seeded game ended by the settlement: the page lists the four steps in the engine's
    German and, switched, English words, and marks every stone with the step that decided it."""
    for seed in range(40, 80):
        match_id, token = start_match(page, "schotten_totten", ["you", "bot:random"], seed=seed)
        rng = random.Random(seed)
        out = my_turn(server, match_id, token)
        while out["status"] == "running":
            moves = api(server, f"/v1/matches/{match_id}/moves", token)["moves"]
            # Claims are declined, so the stones stay free for the settlement.
            plays = [m for m in moves if m["move"]["type"] != "claim"]
            pick = rng.choice(plays)["move"]
            api(
                server, f"/v1/matches/{match_id}/moves", token, body={"version": out["version"], "move": pick}
            )
            out = my_turn(server, match_id, token)
        settlement = out["view"].get("settlement")
        if settlement:
            break
    else:
        raise AssertionError("no game of 40 seeds ended by the settlement")
    settled(page)
    shown_version(page, out["version"])
    steps = page.locator("#settlement .settlement-steps li")
    expect(steps).to_have_text([s["text"]["de"] for s in settlement["steps"]])
    expect(page.locator("#settlement-title")).to_have_text("Endabrechnung")
    for step in settlement["steps"]:
        for stone in step["stones"]:
            badge = page.locator(f".stone-col[data-stone='{stone['stone']}'] .badge.settled")
            expect(badge).to_have_attribute("data-step", str(step["step"]))
            expect(badge).to_have_attribute("data-by", stone["by"])
    decided = {s["stone"] for step in settlement["steps"] for s in step["stones"]}
    expect(page.locator(".badge.settled")).to_have_count(len(decided))
    assert settlement["steps"][3]["text"]["de"].startswith("4. Zählen")
    screenshot(page, "schotten_totten_settlement")
    page.click("#lang")
    settled(page)
    expect(steps).to_have_text([s["text"]["en"] for s in settlement["steps"]])
    expect(page.locator("#settlement-title")).to_have_text("Settlement")
    page.click("#lang")
    settled(page)
