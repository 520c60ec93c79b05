"""The command line of issue 11 §4: `spielwerk tournament` (bots against each other, with a
progress bar and a table of standings) and `spielwerk play GAME --vs BOT` (a person against
a bot in the terminal), called as `main(argv, stdin)` with the output captured."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from typing import Any

import pytest
import spielwerk
from spielwerk.__main__ import main, parse_bots


def run(capsys: pytest.CaptureFixture[str], argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    code = main(argv, stdin=io.StringIO(stdin))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("text", "bots"),
    [
        ("ismcts,heuristic", [("ismcts", {}), ("heuristic", {})]),
        (
            "ismcts:iterations=200,rollout=heuristic,random",
            [("ismcts", {"iterations": 200, "rollout": "heuristic"}), ("random", {})],
        ),
        (
            ' ismcts:{"iterations": 20, "c": 0.5} , heuristic ',
            [("ismcts", {"iterations": 20, "c": 0.5}), ("heuristic", {})],
        ),
        ('[["ismcts", {"time_ms": 5}], "random"]', [("ismcts", {"time_ms": 5}), ("random", {})]),
        ("heuristic:seed=3", [("heuristic", {"seed": 3})]),
    ],
)
def test_bots_are_named_with_their_parameters(text: str, bots: list[tuple[str, dict[str, Any]]]) -> None:
    assert parse_bots(text) == bots


@pytest.mark.parametrize("text", ["", "ismcts:", "ismcts;random", "ismcts:{1: 2}", "[42]", "ismcts,"])
def test_malformed_bots_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        parse_bots(text)


def row(out: str, label: str) -> list[str]:
    """The cells of the table row of the bot `label` (rich draws the cells between │)."""
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("│")]
        if label in cells:
            return cells
    raise AssertionError(f"no row for {label} in\n{out}")


def test_tournament_prints_the_standings_of_evaluate(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--game", "schotten_totten", "--bots", "ismcts:iterations=10,random"]
    code, out, err = run(capsys, [*argv, "--games", "6", "--seed", "4", "--threads", "1"])
    assert code == 0, err
    game = spielwerk.load_game("schotten_totten")
    bots = [spielwerk.bots.make("ismcts", game, 4, iterations=10), spielwerk.bots.make("random", game, 4)]
    ismcts, random = spielwerk.evaluate(game, bots, 6, seed=4)
    cells = row(out, "ismcts:iterations=10")
    assert cells[3:7] == ["6", str(ismcts.wins), str(ismcts.draws), str(ismcts.losses)]
    assert cells[7] == f"{100 * ismcts.win_rate:.1f}"
    lo, hi = ismcts.win_rate_ci
    assert cells[8] == f"[{100 * lo:.1f}, {100 * hi:.1f}]"
    assert row(out, "random")[4] == str(random.wins)
    assert "6 games on this machine" in out and "6/6" in err  # the progress bar's count


def test_tournament_of_the_game_prints_the_cooperative_figures(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "tournament",
        "--game",
        "the_game",
        "--bots",
        "heuristic",
        "--games",
        "20",
        "--options",
        '{"players": 3}',
    ]
    code, out, err = run(capsys, argv)
    assert code == 0, err
    (s,) = spielwerk.evaluate(spielwerk.load_game("the_game", players=3), ["heuristic"], 20)
    assert "perfect %" in out and "mean cards left" in out
    assert row(out, "heuristic")[8] == f"{s.mean_cards_left:.2f}"


def test_tournament_refuses_unknown_bots_and_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, ["tournament", "--game", "caravan", "--bots", "mystery", "--games", "2"])
    assert code == 2 and "unknown bot" in err and "heuristic" in err
    code, _, err = run(
        capsys, ["tournament", "--game", "caravan", "--bots", "ismcts:depth=3", "--games", "2"]
    )
    assert code == 2 and "iterations" in err  # names the allowed parameters
    with pytest.raises(SystemExit):
        main(["tournament", "--game", "caravan", "--bots", "random", "--options", "[1]"])


def test_tournament_on_ray(capsys: pytest.CaptureFixture[str], local_ray: Any) -> None:
    argv = ["tournament", "--game", "caravan", "--bots", "heuristic,random", "--games", "8", "--seed", "2"]
    code, here, _ = run(capsys, argv)
    code_ray, there, err = run(capsys, [*argv, "--ray", "auto"])
    assert code == code_ray == 0, err
    assert row(here, "heuristic")[3:] == row(there, "heuristic")[3:]
    assert "on Ray at auto" in there


def test_play_shows_only_your_view_and_answers_illegal_moves(capsys: pytest.CaptureFixture[str]) -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(seed=5)
    mine, theirs = state.hand(0), state.hand(1)
    absent = next(c for c in theirs if c not in mine)
    legal = state.legal_actions()
    typed = [
        "99",  # no such number
        "fly to the moon",  # not a move
        f"play {absent} at stone 1",  # a move, but not legal: the engine's reason
        '{"type": "nonsense"}',  # a JSON move the engine refuses
        json.dumps(state.action_to_json(legal[1])),  # a JSON move
        "help",
        "quit",
    ]
    code, out, err = run(
        capsys,
        ["play", "schotten_totten", "--vs", "ismcts:iterations=5", "--seed", "5", "--lang", "en"],
        "\n".join(typed),
    )
    assert code == 0, err
    # The engine's board for seat 0: its own hand, the other's size only.
    assert state.render(0, "en") in out
    assert "hand 1: " + " ".join(mine) in out and "hand 2: 6 cards" in out
    assert " ".join(theirs) not in out
    assert "there is no move 99: the moves are numbered 1 to" in out
    assert "'fly to the moon' is not a move" in out
    assert f"Not allowed: S3a: {absent} is not in player 1's hand" in out
    assert f"You: {state.action_to_string(legal[1])}" in out
    assert "Player 2 (ismcts): " in out
    assert out.count("--- your board (player 1) ---") == 3  # at the start, after the bot, on help
    assert "You left the game." in out


def test_play_a_whole_game_to_the_engines_result(capsys: pytest.CaptureFixture[str]) -> None:
    # Always the first listed move (or the text of one), to the end of the game.
    code, out, err = run(
        capsys,
        ["play", "caravan", "--vs", "random", "--seat", "1", "--seed", "2", "--lang", "en"],
        "1\n" * 2000,
    )
    assert code == 0, err
    assert "Game over: " in out and "returns [" in out
    assert "You left the game." not in out


def test_play_hides_the_bots_hidden_moves(capsys: pytest.CaptureFixture[str]) -> None:
    # Dog's exchange: the opponents give cards to each other, out of your sight.
    code, out, err = run(
        capsys, ["play", "dog", "--vs", "random", "--seed", "1", "--lang", "en"], "1\nquit\n"
    )
    assert code == 0, err
    assert "a move you do not see" in out


def test_play_is_german_by_default_with_the_engines_board(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 23 §2.7: the board the watched games draw, as the seat sees it, in German; a move
    # typed by its German text, an illegal one answered with the German reason.
    state = spielwerk.load_game("schotten_totten").new_initial_state(seed=5)
    mine, theirs = state.hand(0), state.hand(1)
    absent = next(c for c in theirs if c not in mine)
    legal = state.legal_actions()
    # A move typed as the German list says it ("Rot 2 an Stein 1 legen": cards by name).
    absent_move = state.action_from_json({"type": "play", "card": absent, "stone": 0})
    absent_de = state.action_to_string(absent_move, "de")
    assert absent_de.endswith(" an Stein 1 legen") and not absent_de.startswith(absent)
    typed = [absent_de, "99", state.action_to_string(legal[2], "de"), "ende"]
    code, out, err = run(
        capsys, ["play", "schotten_totten", "--vs", "random", "--seed", "5"], "\n".join(typed)
    )
    assert code == 0, err
    assert state.render(0, "de") in out
    assert "Stein  Spieler 1" in out and "Hand 2: 6 Karten" in out and " ".join(theirs) not in out
    assert "deine Züge:" in out and state.action_to_string(legal[0], "de") in out
    illegal = state.check_move({"type": "play", "card": absent, "stone": 0}, 0)
    assert illegal is not None
    assert f"Nicht erlaubt: {illegal.rule}: {illegal.reason_de}" in out
    assert "es gibt keinen Zug 99" in out
    assert f"Du: {state.action_to_string(legal[2], 'de')}" in out
    assert "Spieler 2 (random): " in out and "Du hast das Spiel verlassen." in out


@pytest.mark.parametrize("lang", ["de", "en"])
def test_a_watched_game_prints_the_engines_board_and_result(
    capsys: pytest.CaptureFixture[str], lang: str
) -> None:
    code, out, err = run(capsys, ["play", "the_game", "--seed", "3", "--lang", lang])
    assert code == 0, err
    state = spielwerk.load_game("the_game").new_initial_state(seed=3)
    assert state.render(lang=lang) in out
    words = {"de": ("Zug 1, Spieler 1: ", "Spielende: "), "en": ("Turn 1, player 1: ", "Game over: ")}
    assert all(w in out for w in words[lang])


def test_the_command_runs_as_a_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "spielwerk", "tournament", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "ismcts:iterations=200,rollout=heuristic,random" in result.stdout
    assert "--ray ADDRESS" in result.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_tournament_cleanly() -> None:
    argv = ["tournament", "--game", "caravan", "--bots", "ismcts:iterations=30,random", "--games", "100000"]
    child = subprocess.Popen(
        [sys.executable, "-m", "spielwerk", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # Ctrl-C reaches it even where this runs with SIGINT ignored (a background job).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        time.sleep(3)
        child.send_signal(signal.SIGINT)
        # A missed interrupt fails here instead of playing 100,000 games.
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()
    assert child.returncode == 130, err
    # The games finished so far, or none yet on a slow machine; never a traceback.
    assert "interrupted" in out + err and "Traceback" not in err
