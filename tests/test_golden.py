"""A golden playthrough: one seeded game pinned as readable text.

Any change to the deal, the rules, the bot's choices or what a player sees shows up as a
diff of tests/golden/schotten_totten_seed7.txt. If the change is intended, regenerate the
file and review the diff:

    SPIELWERK_REGOLD=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

import pytest
import spielwerk

GOLDEN = Path(__file__).parent / "golden" / "schotten_totten_seed7.txt"
SEED = 7
# No game lasts longer (see MAX_ACTIONS in test_schotten_totten_invariants.py).
MAX_ACTIONS = 227


def views_shown_at(index: int) -> bool:
    return index < 3 or index % 10 == 0


def playthrough() -> str:
    game = spielwerk.load_game("schotten_totten")
    state = game.new_initial_state(seed=SEED)
    bot = spielwerk.RandomBot(SEED)
    lines = [
        "# Schotten Totten golden playthrough (RULINGS S1-S10).",
        f'# spielwerk.load_game("schotten_totten").new_initial_state(seed={SEED}), '
        f"every action chosen by spielwerk.RandomBot({SEED}).",
        "# 'action n: player p [id] text' is the n-th action. Both players' views (compact JSON)",
        "# are shown at states 0, 1, 2, every tenth state and the last; state n is after n actions.",
        "# Regenerate after an intended change: SPIELWERK_REGOLD=1 python -m pytest tests/test_golden.py",
        "",
    ]

    def show_views(index: int) -> None:
        lines.append(f"state {index}")
        for player in (0, 1):
            view = json.dumps(state.view(player), sort_keys=True, separators=(",", ":"))
            lines.append(f"  view {player}: {view}")

    index = 0
    show_views(index)
    while not state.is_terminal():
        assert index < MAX_ACTIONS, "the game does not end"
        player: int = state.current_player()
        action: int = bot.step(state)
        text: str = state.action_to_string(action)
        state.apply_action(action)
        index += 1
        lines.append(f"action {index}: player {player} [{action}] {text}")
        if views_shown_at(index) or state.is_terminal():
            show_views(index)
    lines.append("")
    lines.append("final board (all cards shown):")
    lines.extend(f"  {line}" for line in str(state).splitlines())
    lines.append(f"returns: {state.returns()}")
    return "\n".join(lines) + "\n"


def test_golden_playthrough() -> None:
    text = playthrough()
    if os.environ.get("SPIELWERK_REGOLD") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(text, encoding="utf-8")
        pytest.skip(f"SPIELWERK_REGOLD=1: rewrote {GOLDEN}")
    expected = GOLDEN.read_text(encoding="utf-8")
    if text != expected:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True),
            text.splitlines(keepends=True),
            fromfile=str(GOLDEN),
            tofile="this run",
        )
        pytest.fail(
            "the seeded playthrough changed; if that is intended, regenerate with "
            "SPIELWERK_REGOLD=1 and review the diff:\n" + "".join(diff),
            pytrace=False,
        )


def test_playthrough_is_reproducible() -> None:
    assert playthrough() == playthrough()
