"""Golden playthroughs: one seeded game per game pinned as readable text.

Any change to the deal, the rules, the bot's choices or what a player sees shows up as a
diff of a file in tests/golden/. If the change is intended, regenerate the files and review
the diff:

    SPIELWERK_REGOLD=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import spielwerk

GOLDEN_DIR = Path(__file__).parent / "golden"


@dataclass(frozen=True)
class Golden:
    game: str
    title: str  # the game and the rulings it follows, for the file's first line
    seed: int
    file: str
    # No game lasts longer (see MAX_ACTIONS in the game's invariants test).
    max_actions: int
    options: dict[str, Any] = field(default_factory=dict)
    # Views are shown at the first three states and then every `view_every`-th.
    view_every: int = 10


GOLDENS = [
    Golden(
        "schotten_totten",
        "Schotten Totten golden playthrough (RULINGS S1-S10)",
        7,
        "schotten_totten_seed7.txt",
        227,
    ),
    Golden(
        "the_game",
        "The Game golden playthrough, three players (RULINGS T1-T6)",
        7,
        "the_game_3p_seed7.txt",
        196,
        {"players": 3},
    ),
    Golden(
        "caravan",
        "Caravan golden playthrough, standard rules (RULINGS C1-C9)",
        7,
        "caravan_seed7.txt",
        1296,
    ),
    Golden(
        "schotten_totten",
        "Schotten Totten golden playthrough, player 1 first (RULINGS S1-S10)",
        11,
        "schotten_totten_first1_seed11.txt",
        227,
        {"first_player": 1},
    ),
    Golden(
        "the_game",
        "The Game golden playthrough, five players, pro variant (RULINGS T1-T6)",
        7,
        "the_game_5p_pro_seed7.txt",
        196,
        {"players": 5, "pro": True},
    ),
    Golden(
        "the_game",
        "The Game golden playthrough, one player (RULINGS T1-T6)",
        7,
        "the_game_1p_seed7.txt",
        196,
        {"players": 1},
    ),
    Golden(
        "caravan",
        "Caravan golden playthrough, variants: reshuffle, fresh hand, quick sale, short deck (C10)",
        7,
        "caravan_reshuffle_fresh_quick_short_seed7.txt",
        1296,
        {"reshuffle": True, "fresh_hand": True, "quick_sale": True, "short_deck": True},
        view_every=20,
    ),
    Golden(
        "caravan",
        "Caravan golden playthrough, variants: double deck and the face-card variants (C10)",
        7,
        "caravan_double_faces_seed7.txt",
        2600,
        {
            "double_deck": True,
            "queens_anywhere": True,
            "kings_add": True,
            "founding_suit": True,
            "unlimited_face_cards": True,
            "queens_shield": True,
            "fixed_course": True,
            "protected_joker": True,
        },
        view_every=20,
    ),
    Golden(
        "dog",
        "Dog golden playthrough (RULINGS D1-D13)",
        7,
        "dog_seed7.txt",
        80004,
        view_every=100,
    ),
]


def views_shown_at(index: int, every: int) -> bool:
    return index < 3 or index % every == 0


def playthrough(golden: Golden) -> str:
    game = spielwerk.load_game(golden.game, **golden.options)
    state = game.new_initial_state(seed=golden.seed)
    bot = spielwerk.RandomBot(golden.seed)
    players = range(game.num_players())
    call = ", ".join([json.dumps(golden.game)] + [f"{k}={v!r}" for k, v in golden.options.items()])
    whose = "Both players'" if len(players) == 2 else f"All {len(players)} players'"
    lines = [
        f"# {golden.title}.",
        f"# spielwerk.load_game({call}).new_initial_state(seed={golden.seed}), "
        f"every action chosen by spielwerk.RandomBot({golden.seed}).",
        f"# 'action n: player p [id] text' is the n-th action. {whose} views (compact JSON)",
        f"# are shown at states 0, 1, 2, every {golden.view_every}th state and the last; "
        "state n is after n actions.",
        "# Regenerate after an intended change: SPIELWERK_REGOLD=1 python -m pytest tests/test_golden.py",
        "",
    ]

    def show_views(index: int) -> None:
        lines.append(f"state {index}")
        for player in players:
            view = json.dumps(state.view(player), sort_keys=True, separators=(",", ":"))
            lines.append(f"  view {player}: {view}")
        public = json.dumps(state.public_view(), sort_keys=True, separators=(",", ":"))
        lines.append(f"  public: {public}")

    index = 0
    show_views(index)
    while not state.is_terminal():
        assert index < golden.max_actions, "the game does not end"
        player: int = state.current_player()
        action: int = bot.step(state)
        text: str = state.action_to_string(action)
        state.apply_action(action)
        index += 1
        lines.append(f"action {index}: player {player} [{action}] {text}")
        if views_shown_at(index, golden.view_every) or state.is_terminal():
            show_views(index)
    lines.append("")
    lines.append("final board (all cards shown):")
    lines.extend(f"  {line}" for line in str(state).splitlines())
    lines.append(f"result: {state.result_text()}")
    lines.append(f"returns: {state.returns()}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.file for g in GOLDENS])
def test_golden_playthrough(golden: Golden) -> None:
    path = GOLDEN_DIR / golden.file
    text = playthrough(golden)
    if os.environ.get("SPIELWERK_REGOLD") == "1":
        GOLDEN_DIR.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
        pytest.skip(f"SPIELWERK_REGOLD=1: rewrote {path}")
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True),
            text.splitlines(keepends=True),
            fromfile=str(path),
            tofile="this run",
        )
        pytest.fail(
            "the seeded playthrough changed; if that is intended, regenerate with "
            "SPIELWERK_REGOLD=1 and review the diff:\n" + "".join(diff),
            pytrace=False,
        )


@pytest.mark.parametrize("golden", GOLDENS, ids=[g.file for g in GOLDENS])
def test_playthrough_is_reproducible(golden: Golden) -> None:
    assert playthrough(golden) == playthrough(golden)
