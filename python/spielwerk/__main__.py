"""The command line: ``spielwerk play schotten_totten --vs ismcts`` (or ``python -m spielwerk``).

``ladder`` rates ``random``, ``heuristic`` and each level (easy, normal, strong);
``tournament`` plays bots against each other (``spielwerk.evaluate``, on all cores or a Ray
cluster) with a progress bar and prints their standings; ``play --vs BOT`` lets you play
against a bot in the terminal (without ``--vs`` it prints a seeded game between two random
bots turn by turn; both draw the engine's board, in German unless ``--lang en``);
``simulate`` plays a batch of random games on all cores and prints the summary; ``games``
lists the games; ``serve`` runs the web API's own command line (``python -m spielwerk_api``,
the package ``spielwerk-api`` in ``api/``), which the engine never imports.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import spielwerk
from spielwerk.evaluation import play_in_parts

BOTS_HELP = """\
Bots are given as a comma-separated list; a bot's parameters follow its name after a
colon as KEY=VALUE pairs (also separated by commas) or as one JSON object:

  ismcts,heuristic
  'ismcts:iterations=200,rollout=heuristic,random'
  'ismcts:{"iterations": 200, "c": 0.5},heuristic'
  '[["ismcts", {"iterations": 200}], "heuristic"]'     (a JSON list of names or pairs)

Values are read as JSON where they parse (200, 0.5, true), else as text (heuristic).
The key seed sets the bot's own seed (default: --seed). The bots of a game:
spielwerk.bots.names(game), e.g. random, heuristic, ismcts, pimc; and each game's levels
by strength, easy, normal and strong (spielwerk.bots.levels(game)), which take no
parameters:

  strong,heuristic
"""

#: A bot as the command line names it: its name and its parameters.
BotArg = tuple[str, dict[str, Any]]


#: The terminal game's own words (the engine words the moves, boards and results), German
#: first: ``--lang`` picks the language.
MESSAGES: dict[str, dict[str, str]] = {
    "de": {
        "over": "Spielende: {result}; Ergebnis {returns}",
        "watched": "{game}, Seed {seed}; beide Spieler sind Zufallsbots\n",
        "turn": "Zug {turn}, Spieler {player}: ",
        "intro": "{game}, Seed {seed}: du bist Spieler {seat}, jeder andere Platz ist {bot}.",
        "how": "Tippe die Nummer eines Zugs, seinen Text wie aufgelistet oder einen JSON-Zug; "
        "'hilfe' listet die Züge noch einmal, 'ende' beendet.",
        "board": "\n--- dein Spielfeld (Spieler {seat}) ---",
        "moves": "deine Züge:",
        "left": "\nDu hast das Spiel verlassen.",
        "refused": "Nicht erlaubt: {why}",
        "you": "Du: {move}",
        "bot": "Spieler {seat} ({bot}): {move}",
        "unseen": "ein Zug, den du nicht siehst",
        "no_number": "es gibt keinen Zug {number}: die Züge sind von 1 bis {count} nummeriert",
        "no_json": "kein JSON-Zug: {error}",
        "no_move": "{text!r} ist kein Zug: tippe die Nummer eines Zugs, seinen Text wie aufgelistet "
        "oder einen JSON-Zug ('hilfe' listet sie)",
    },
    "en": {
        "over": "Game over: {result}; returns {returns}",
        "watched": "{game}, seed {seed}; both players are random bots\n",
        "turn": "Turn {turn}, player {player}: ",
        "intro": "{game}, seed {seed}: you are player {seat}, every other seat is {bot}.",
        "how": "Type a move's number, its text as listed, or a JSON move; 'help' lists the moves again, "
        "'quit' ends.",
        "board": "\n--- your board (player {seat}) ---",
        "moves": "your moves:",
        "left": "\nYou left the game.",
        "refused": "Not allowed: {why}",
        "you": "You: {move}",
        "bot": "Player {seat} ({bot}): {move}",
        "unseen": "a move you do not see",
        "no_number": "there is no move {number}: the moves are numbered 1 to {count}",
        "no_json": "not a JSON move: {error}",
        "no_move": "{text!r} is not a move: type a move's number, its text as listed, or a JSON move"
        " ('help' lists them)",
    },
}

QUIT = ("quit", "exit", "q", "ende", "beenden")
HELP = ("help", "?", "", "hilfe")


def say(lang: str, key: str, **values: Any) -> str:
    # Seats in these texts are counted from 1, as a person counts them (and as the engine's
    # texts count them); ``--seat`` and the API take the ids from 0.
    return MESSAGES[lang][key].format(**values)


def outcome_line(state: spielwerk.State, lang: str = "en") -> str:
    """The result as the engine words it, with the returns (R1)."""
    return say(lang, "over", result=state.result_text(lang), returns=state.returns())


def refusal(refused: spielwerk.SpielwerkError, lang: str) -> str:
    """The engine's reason for a refused or malformed move, in ``lang``."""
    return refused.detail(lang)


def play(game_name: str, seed: int, options: dict[str, Any], lang: str = "en") -> None:
    game = spielwerk.load_game(game_name, **options)
    state = game.new_initial_state(seed=seed)
    bot = spielwerk.RandomBot(seed)
    print(say(lang, "watched", game=repr(game), seed=seed))
    print(state.render(lang=lang), end="\n\n")
    turn = 0
    while not state.is_terminal():
        player = state.current_player()
        turn += 1
        lines = []
        # One turn: every action of the player to move.
        while not state.is_terminal() and state.current_player() == player:
            action = bot.step(state)
            lines.append(state.action_to_string(action, lang))
            state.apply_action(action)
        print(say(lang, "turn", turn=turn, player=player + 1) + "; ".join(lines))
        print(state.render(lang=lang), end="\n\n")
    print(outcome_line(state, lang))


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


def serve(argv: list[str]) -> int:
    """Runs the web API's own command line with ``argv``, in this process's place (the same
    PID, so a supervisor's signals reach the server itself).

    The web API is a package of its own (api/): the engine installs without the web's
    dependencies, and it only looks for the API here, never imports it.
    """
    if importlib.util.find_spec("spielwerk_api") is None:
        print("error: the web API is the package spielwerk-api: pip install -e ./api", file=sys.stderr)
        return 2
    os.execv(sys.executable, [sys.executable, "-m", "spielwerk_api", *argv])


def parse_value(text: str) -> Any:
    """A parameter's value: JSON where it parses (numbers, true, null), else the text."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


_NAME = re.compile(r"\s*([A-Za-z_][\w-]*)\s*")
_PAIR = re.compile(r"\s*([A-Za-z_]\w*)\s*=([^,]*)")


def parse_bots(text: str) -> list[BotArg]:
    """The bots of ``--bots`` / ``--vs`` (the syntax is ``BOTS_HELP``'s)."""
    text = text.strip()
    if text.startswith("["):
        items = json.loads(text)
        if not isinstance(items, list):
            raise ValueError("a JSON list of bots must be a list")
        bots: list[BotArg] = []
        for item in items:
            if isinstance(item, str):
                bots.append((item, {}))
            elif (
                isinstance(item, list)
                and len(item) == 2
                and isinstance(item[0], str)
                and isinstance(item[1], dict)
            ):
                bots.append((item[0], dict(item[1])))
            else:
                raise ValueError(f"{json.dumps(item)} is not a bot: give a name or [name, {{params}}]")
        return bots
    bots = []
    i = 0
    while True:
        name = _NAME.match(text, i)
        if not name:
            raise ValueError(f"expected a bot's name at {text[i:]!r} in {text!r}")
        i = name.end()
        params: dict[str, Any] = {}
        if text.startswith(":", i):
            rest = text[i + 1 :].lstrip()
            if rest.startswith("{"):
                start = len(text) - len(rest)
                try:
                    obj, i = json.JSONDecoder().raw_decode(text, start)
                except json.JSONDecodeError as e:
                    raise ValueError(f"the parameters of {name.group(1)} are not JSON: {e}") from e
                if not isinstance(obj, dict):
                    raise ValueError(f"the parameters of {name.group(1)} must be a JSON object")
                params = obj
            else:
                i += 1
                # KEY=VALUE pairs until a part without '=': the next bot's name.
                while pair := _PAIR.match(text, i):
                    params[pair.group(1)] = parse_value(pair.group(2).strip())
                    i = pair.end()
                    if not (text.startswith(",", i) and _PAIR.match(text, i + 1)):
                        break
                    i += 1
                if not params:
                    raise ValueError(f"expected KEY=VALUE after '{name.group(1)}:' in {text!r}")
        bots.append((name.group(1), params))
        i = len(text) - len(text[i:].lstrip())
        if i == len(text):
            return bots
        if not text.startswith(",", i):
            raise ValueError(f"expected ',' between bots at {text[i:]!r} in {text!r}")
        i += 1


def make_bots(game: spielwerk.Game, bots: list[BotArg], seed: int) -> list[spielwerk.bots.Bot]:
    """Each bot made for ``game``; a ``seed`` parameter is its own seed, else ``seed``."""
    made = []
    for name, params in bots:
        params = dict(params)
        bot_seed = params.pop("seed", seed)
        if not isinstance(bot_seed, int) or bot_seed < 0:
            raise ValueError(f"the seed of {name} must be a whole number 0 or more, got {bot_seed!r}")
        made.append(spielwerk.bots.make(name, game, bot_seed, **params))
    return made


def bot_label(name: str, params: dict[str, Any]) -> str:
    """A bot as given on the command line (its parameters, not every default)."""
    shown = ",".join(f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in params.items())
    return f"{name}:{shown}" if shown else name


def parse_options_json(text: str) -> dict[str, Any]:
    try:
        options = json.loads(text)
    except json.JSONDecodeError as e:
        raise argparse.ArgumentTypeError(f"--options must be a JSON object: {e}") from e
    if not isinstance(options, dict):
        raise argparse.ArgumentTypeError("--options must be a JSON object, e.g. '{\"players\": 3}'")
    return options


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """``--options JSON`` and the ``--option NAME=VALUE`` given after it."""
    options = dict(args.options or {})
    options.update(dict(getattr(args, "option", [])))
    return options


def interval(ci: tuple[float, float] | None, percent: bool) -> str:
    if ci is None:
        return ""
    lo, hi = ci
    return f"[{100 * lo:.1f}, {100 * hi:.1f}]" if percent else f"[{lo:.3f}, {hi:.3f}]"


def standings_table(
    game: spielwerk.Game, labels: list[str], standings: list[spielwerk.BotStanding], title: str
) -> Any:
    """The standings as a rich table: counts, rates with their 95% intervals."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("bot", overflow="fold")
    table.add_column("games", justify="right")
    cooperative = game.utility() == "cooperative"
    if cooperative:
        # The Game: the team of bots plays against the deck (T6).
        for column in ("perfect %", "95% CI", "under 10 left %", "95% CI", "mean cards left", "95% CI"):
            table.add_column(column, justify="right")
    else:
        for column in ("wins", "draws", "losses", "win rate %", "95% CI", "mean return", "95% CI"):
            table.add_column(column, justify="right")
    for i, (label, s) in enumerate(zip(labels, standings, strict=True)):
        if cooperative:
            cells = [
                f"{100 * (s.perfect_rate or 0):.1f}",
                interval(s.perfect_rate_ci, True),
                f"{100 * (s.under_10_rate or 0):.1f}",
                interval(s.under_10_ci, True),
                f"{s.mean_cards_left or 0:.2f}",
                interval(s.mean_cards_left_ci, False),
            ]
        else:
            cells = [
                str(s.wins),
                str(s.draws),
                str(s.losses),
                f"{100 * s.win_rate:.1f}",
                interval(s.win_rate_ci, True),
                f"{s.mean_return:.3f}",
                interval(s.mean_return_ci, False),
            ]
        table.add_row(str(i + 1), label, str(s.games), *cells)
    return table


def tournament(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    game = spielwerk.load_game(args.game, **game_options(args))
    given = parse_bots(args.bots)
    bots = make_bots(game, given, args.seed)
    labels = [bot_label(name, params) for name, params in given]
    backend = "ray" if args.ray else "local"
    parts = play_in_parts(game, bots, args.games, args.seed, args.threads, backend, args.ray)
    total: spielwerk.EvaluationPart | None = None
    interrupted = False
    errors = Console(file=sys.stderr)
    try:
        with Progress(
            TextColumn(f"{args.game}: " + " vs ".join(labels)),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=errors,
        ) as progress:
            task = progress.add_task("games", total=args.games)
            for part in parts:
                total = part if total is None else total.merge(part)
                progress.advance(task, part.games)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        parts.close()  # cancels the Ray tasks not yet played
    # Not a terminal (a file, a pipe): wide enough that no bot's name is cut.
    out = Console(file=sys.stdout)
    if not out.is_terminal:
        out = Console(file=sys.stdout, width=200)
    where = f"Ray at {args.ray}" if args.ray else "this machine"
    if total is None:
        print("interrupted before any game finished", file=sys.stderr)
        return 130
    given_options = game_options(args)
    shown = f" {json.dumps(given_options)}" if given_options else ""
    title = f"{args.game}{shown}, seed {args.seed}, {total.games} games on {where}"
    if interrupted:
        title += f" (interrupted: {total.games} of {args.games} games)"
    out.print(standings_table(game, labels, total.standings(), title))
    return 130 if interrupted else 0


def ladder(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from spielwerk import ladder as ladders

    errors = Console(file=sys.stderr)
    players = [int(p) for p in args.players.split(",") if p.strip()]
    seed = ladders.SEED if args.seed is None else args.seed
    record = ladders.run(
        args.game, args.games, seed, args.threads, players, args.positions, lambda line: errors.print(line)
    )
    out = Console(file=sys.stdout, width=None if sys.stdout.isatty() else 160)
    counts = record["players"].items() if args.game == "the_game" else [(None, record)]
    for count, part in counts:
        title = f"{args.game}" + (f", {count} players" if count else "") + f": {record['command']}"
        table = Table(title=title, title_justify="left")
        cooperative = count is not None
        columns = (
            ("bot", "perfect %", "95% CI", "cards left", "95% CI", "ms/move median", "p90")
            if cooperative
            else ("bot", "Elo", "95% CI", "ms/move median", "p90")
        )
        for column in columns:
            table.add_column(column, justify="left" if column == "bot" else "right")
        for name, r in part["ratings"].items():
            cpu = part["cpu_ms_per_move"][name]
            if cooperative:
                cells = [
                    f"{100 * r['perfect_rate']:.1f}",
                    f"[{100 * r['perfect_low']:.1f}, {100 * r['perfect_high']:.1f}]",
                    f"{r['cards_left']:.2f}",
                    f"[{r['cards_left_low']:.2f}, {r['cards_left_high']:.2f}]",
                ]
            else:
                cells = [f"{r['elo']:.0f}", f"[{r['low']:.0f}, {r['high']:.0f}]"]
            table.add_row(name, *cells, f"{cpu['median']:.2f}", f"{cpu['p90']:.2f}")
        out.print(table)
    if args.write:
        ladders.write(args.write, args.game, record)
    return 0


def in_columns(entries: list[str], width: int = 100) -> str:
    """The entries in as many columns as fit in ``width``, numbered down each column."""
    cell = max(map(len, entries), default=0) + 2
    columns = max(1, width // cell)
    rows = -(-len(entries) // columns)
    lines = []
    for r in range(rows):
        line = "".join(entries[i].ljust(cell) for i in range(r, len(entries), rows))
        lines.append(line.rstrip())
    return "\n".join(lines)


def normalized(text: str) -> str:
    return " ".join(text.lower().split())


def read_move(state: spielwerk.State, seat: int, text: str, lang: str = "en") -> int | str:
    """The action typed for ``seat``: the number of a listed move, a move's text as listed
    (in either language), or a JSON move. Anything else is answered with why, in ``lang``
    (the engine's reason where the text names a move that is not legal now)."""
    legal = state.legal_actions(seat)
    text = text.strip()
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return say(lang, "no_number", number=number, count=len(legal))
    wanted = normalized(text)

    def named(action: int) -> bool:
        return any(normalized(state.action_to_string(action, lg)) == wanted for lg in MESSAGES)

    for action in legal:
        if named(action):
            return action
    if text.startswith("{"):
        try:
            move = json.loads(text)
        except json.JSONDecodeError as e:
            return say(lang, "no_json", error=e)
        try:
            refused = state.check_move(move, seat)
        except spielwerk.SpielwerkError as e:
            return refusal(e, lang)
        return refusal(refused, lang) if refused is not None else state.action_from_json(move)
    # A move in the game's notation that is not legal now: the engine says why.
    for action in range(state.game.num_distinct_actions()):
        if named(action):
            refused = state.check_move(state.action_to_json(action), seat)
            if refused is not None:
                return refusal(refused, lang)
    return say(lang, "no_move", text=text)


def play_against(args: argparse.Namespace, stdin: TextIO) -> int:
    """A person at ``--seat`` against the bot ``--vs`` at every other seat."""
    game = spielwerk.load_game(args.game, **game_options(args))
    given = parse_bots(args.vs)
    if len(given) != 1:
        raise ValueError(f"--vs takes one bot, got {len(given)}")
    (bot,) = make_bots(game, given, args.seed)
    seat = args.seat
    if not 0 <= seat < game.num_players():
        raise ValueError(f"--seat must be 0 to {game.num_players() - 1}")
    state = game.new_initial_state(seed=args.seed)
    lang = args.lang
    print(say(lang, "intro", game=repr(game), seed=args.seed, seat=seat + 1, bot=bot_label(*given[0])))
    print(say(lang, "how"))
    show = True
    while not state.is_terminal():
        seats = state.seats_to_move()
        if seat in seats:
            # You move first where several seats may (Dog's exchange): nothing of theirs yet.
            legal = state.legal_actions(seat)
            if show:
                # The board the watched games print, as this seat sees it (the engine's).
                print(say(lang, "board", seat=seat + 1))
                print(state.render(seat, lang))
                print(say(lang, "moves"))
                print(
                    in_columns([f"{n:>3}. {state.action_to_string(a, lang)}" for n, a in enumerate(legal, 1)])
                )
                show = False
            print("> ", end="", flush=True)
            line = stdin.readline()
            if not line or line.strip().lower() in QUIT:
                print(say(lang, "left"))
                return 0
            if line.strip().lower() in HELP:
                show = True
                continue
            chosen = read_move(state, seat, line, lang)
            if isinstance(chosen, str):
                print(say(lang, "refused", why=chosen))
                continue
            print(say(lang, "you", move=state.action_to_string(chosen, lang)))
            state.apply_action(chosen, seat)
            show = True
            continue
        other = seats[0]
        action = bot.step(state, other)
        text = state.action_to_string(action, lang)
        state.apply_action(action, other)
        # What you see of the bot's move: hidden moves (a card given to a partner) stay hidden.
        seen = state.history_for(seat)[-1] is not None
        print(say(lang, "bot", seat=other + 1, bot=bot.name, move=text if seen else say(lang, "unseen")))
    print()
    print(state.render(seat, lang))
    print(outcome_line(state, lang))
    return 0


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="spielwerk", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser(
        "play",
        help="play against a bot in the terminal (--vs BOT), or watch a seeded game of random bots",
        description="With --vs BOT you play at --seat against BOT at every other seat: you see "
        "the board as your seat sees it (the same board the watched games print, other hands as "
        "their sizes), and type a move's number, its text as listed (e.g. 'Gelb 8 an Stein 3 legen' or "
        "'play Y8 at stone 3') or a JSON move; illegal moves are answered with the engine's reason. "
        "Texts are German unless --lang en. Without --vs it prints a seeded game between two "
        "random bots, turn by turn.\n\n" + BOTS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("game", choices=spielwerk.list_games())
    p.add_argument(
        "--vs", metavar="BOT", help="the bot to play against, e.g. ismcts or 'ismcts:iterations=200'"
    )
    p.add_argument("--seat", type=int, default=0, help="your seat with --vs (default 0: you begin)")
    p.add_argument(
        "--lang",
        choices=("de", "en"),
        default="de",
        help="the language of moves, board and result (default de: German; en: English)",
    )
    p.add_argument("--seed", type=int, default=0, help="deal and bots (default 0)")
    p.add_argument("--options", type=parse_options_json, default=None, help="the game's options as JSON")
    p.add_argument("--option", type=parse_option, action="append", default=[], help="NAME=VALUE")
    t = sub.add_parser(
        "tournament",
        help="play bots against each other and print their standings",
        description="Plays --games seeded games between the bots with the seats rotated (two-player "
        "games: each deal twice, swapped; spielwerk.evaluate) on all cores or on a Ray cluster, "
        "with a progress bar, and prints per bot: games, wins, draws, losses, win rate and mean "
        "return with their 95%% intervals (The Game: perfect games, under 10 cards left and mean "
        "cards left). The figures depend on --seed only, not on --threads or --ray. Ctrl-C stops "
        "and prints the games finished so far.\n\n" + BOTS_HELP.replace("%", "%%"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    t.add_argument("--game", required=True, choices=spielwerk.list_games())
    t.add_argument("--bots", required=True, help="e.g. ismcts,heuristic (see above)")
    t.add_argument("--games", type=int, default=2000, help="how many games (default 2000)")
    t.add_argument("--seed", type=int, default=0, help="the deals and the bots' seeds (default 0)")
    t.add_argument(
        "--threads", type=int, default=None, help="threads (default: all cores; with --ray: per task, 1)"
    )
    t.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="play on a Ray cluster (pip install 'spielwerk[ray]'): its address (ray://host:10001, "
        "host:6379), auto for the one running here, local for a new one on this machine",
    )
    t.add_argument("--options", type=parse_options_json, default=None, help="the game's options as JSON")
    lad = sub.add_parser(
        "ladder",
        help="rate random, heuristic and every level: a seat-balanced round robin and its Elo fit",
        description="Plays a seat-balanced round robin of random, heuristic and each level "
        "(easy, normal, strong) on seeds nobody tuned on, and fits ratings by maximum likelihood "
        "(Bradley-Terry on the Elo scale, heuristic anchored at 1500) with 95%% intervals; for The "
        "Game, each bot's perfect-game rate and mean cards left at each player count. It times each "
        "bot's moves on one core too. --write merges the result into a ladder file (the engine's "
        "is core/src/bots/ladder.json: what spielwerk.bots.levels() reports).",
    )
    lad.add_argument("--game", required=True, choices=spielwerk.list_games())
    lad.add_argument("--games", type=int, default=1000, help="games per pair (The Game: deals per bot)")
    lad.add_argument("--seed", type=int, default=None, help="the first seed (default: the ladder's own)")
    lad.add_argument("--threads", type=int, default=None, help="threads (default: all cores)")
    lad.add_argument(
        "--players", default="1,2,3,4,5", help="The Game: the player counts, comma-separated (default 1-5)"
    )
    lad.add_argument("--positions", type=int, default=200, help="positions timed per bot (default 200)")
    lad.add_argument("--write", metavar="PATH", default=None, help="merge the result into this ladder file")
    s = sub.add_parser("simulate", help="play random games on all cores and print the summary")
    s.add_argument("game", choices=spielwerk.list_games())
    s.add_argument("--games", type=int, default=10_000)
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--threads", type=int, default=None)
    sub.add_parser("games", help="list the games")
    sub.add_parser(
        "serve",
        help="start the web API: python -m spielwerk_api (the spielwerk-api package from api/)",
        add_help=False,
    )
    args, rest = parser.parse_known_args(argv)
    if args.command == "serve":
        return serve(rest)
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        if args.command == "play" and args.vs is not None:
            return play_against(args, stdin or sys.stdin)
        if args.command == "play":
            play(args.game, args.seed, game_options(args), args.lang)
        elif args.command == "tournament":
            return tournament(args)
        elif args.command == "ladder":
            return ladder(args)
        elif args.command == "simulate":
            print(spielwerk.simulate(args.game, args.games, seed=args.seed, threads=args.threads))
        else:
            print("\n".join(spielwerk.list_games()))
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
