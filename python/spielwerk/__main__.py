"""The command line: ``python -m spielwerk play schotten_totten --seed 1``.

``play`` prints a seeded game between two random bots turn by turn; ``simulate`` plays a
batch of random games on all cores and prints the summary; ``games`` lists the games;
``serve`` starts the web API (the package ``spielwerk-api`` in ``api/``).
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

import spielwerk


def outcome_line(state: spielwerk.State) -> str:
    """The result as the engine words it, with the returns (R1)."""
    return f"Game over: {state.result_text()}; returns {state.returns()}"


def play(game_name: str, seed: int, options: dict[str, Any]) -> None:
    game = spielwerk.load_game(game_name, **options)
    state = game.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    print(f"{game!r}, seed {seed}; both players are random bots\n")
    print(state, end="\n\n")
    turn = 0
    while not state.is_terminal():
        player = state.current_player()
        turn += 1
        lines = []
        # One turn: every action of the player to move.
        while not state.is_terminal() and state.current_player() == player:
            action = bot.step(state)
            lines.append(state.action_to_string(action))
            state.apply_action(action)
        print(f"Turn {turn}, player {player}: " + "; ".join(lines))
        print(state, end="\n\n")
    print(outcome_line(state))


def parse_option(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"option '{text}' must be NAME=VALUE")
    parsed: Any = value
    if value.lower() in ("true", "false"):
        parsed = value.lower() == "true"
    elif value.lstrip("-").isdigit():
        parsed = int(value)
    return name, parsed


def serve(args: argparse.Namespace) -> int:
    # The web API is a package of its own (api/), so the engine installs without the web's
    # dependencies; it is looked up only when asked for.
    try:
        cli = importlib.import_module("spielwerk_api.cli")
    except ImportError:
        print("error: the web API is the package spielwerk-api: pip install -e ./api", file=sys.stderr)
        return 2
    cli.serve(args.host, args.port, args.workers, args.database, access_log=args.access_log)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spielwerk", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play", help="print a seeded game between random bots, turn by turn")
    p.add_argument("game", choices=spielwerk.list_games())
    p.add_argument("--seed", type=int, default=0, help="deal and bots (default 0)")
    p.add_argument("--option", type=parse_option, action="append", default=[], help="NAME=VALUE")
    s = sub.add_parser("simulate", help="play random games on all cores and print the summary")
    s.add_argument("game", choices=spielwerk.list_games())
    s.add_argument("--games", type=int, default=10_000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--threads", type=int, default=None)
    sub.add_parser("games", help="list the games")
    w = sub.add_parser("serve", help="start the web API (needs the spielwerk-api package from api/)")
    w.add_argument("--host", default="127.0.0.1")
    w.add_argument("--port", type=int, default=8000)
    w.add_argument("--workers", type=int, default=1)
    w.add_argument(
        "--database",
        default=None,
        help="sqlite:///path/to/file.db or postgresql://user@host/db "
        "(default: $DATABASE_URL, else sqlite:///spielwerk.db in the working folder)",
    )
    w.add_argument(
        "--access-log", action="store_true", help="log a line per request (off: it costs throughput)"
    )
    args = parser.parse_args(argv)
    if args.command == "serve":
        return serve(args)
    try:
        if args.command == "play":
            play(args.game, args.seed, dict(args.option))
        elif args.command == "simulate":
            print(spielwerk.simulate(args.game, args.games, seed=args.seed, threads=args.threads))
        else:
            print("\n".join(spielwerk.list_games()))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
