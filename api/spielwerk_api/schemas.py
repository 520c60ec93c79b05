"""Request and response bodies (msgspec Structs; the OpenAPI schema is generated from them).

Moves, views and options are the engine's JSON: their schemas are the games' own
(``GET /v1/games/{game}/schema``), so they are plain objects here.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct, field

JSONObject = dict[str, Any]
# JSON the engine wrote (a view: ``State.view_json``), passed through without a Python object.
EngineJSON = Annotated[
    msgspec.Raw, Meta(description="a JSON object as the engine writes it (the game's view schema)")
]
# A serialized state: `state.serialize()` (readable JSON) or `state.serialize_compact()`.
StateText = Annotated[str, Meta(max_length=60_000, description="state.serialize() of the engine")]
SEED_MAX = 2**64 - 1


def digits_at_most(limit: int) -> str:
    """A regular expression for the decimal numbers 0 to ``limit`` (leading zeros allowed up to
    ``limit``'s length): shorter numbers are any digits, numbers as long as ``limit`` are at
    most it, digit by digit."""
    top = str(limit)
    lines = [top] if len(top) == 1 else [f"[0-9]{{1,{len(top) - 1}}}", top]
    for at, digit in enumerate(top):
        if digit != "0":
            below = "0" if digit == "1" else f"0-{int(digit) - 1}"
            rest = len(top) - at - 1
            lines.append(f"{top[:at]}[{below}]" + (f"[0-9]{{{rest}}}" if rest else ""))
    return "^(" + "|".join(lines) + ")$"


# msgspec checks no integer bound beyond int64, so check_seed checks the top; the document
# says it all the same.
Seed = Annotated[
    int, Meta(ge=0, description="any integer 0 to 2^64 - 1", extra_json_schema={"maximum": SEED_MAX})
]
# The same as a string of digits: JavaScript rounds numbers above 2^53, so answers send seeds
# as strings, and requests may too.
SeedText = Annotated[
    str, Meta(pattern=digits_at_most(SEED_MAX), description="an integer 0 to 2^64 - 1 in digits")
]


# -- stateless rule checks -----------------------------------------------------------


def check_seed(seed: int | str | None, limit: int = SEED_MAX + 1) -> None:
    # msgspec cannot bound integers beyond int64 in the schema, so the upper bound is here;
    # a ValueError in __post_init__ becomes a 400 naming the field.
    if seed is not None and int(seed) >= limit:
        raise ValueError(f"seed {str(seed)[:30]} is too large: seeds are integers from 0 to {limit - 1}")


class NewBody(Struct, forbid_unknown_fields=True):
    options: JSONObject = field(default_factory=dict)
    seed: Seed | SeedText = 0

    def __post_init__(self) -> None:
        check_seed(self.seed)


Seat = Annotated[int, Meta(ge=0, le=7, description="a seat; default: the player to move")]


class StateBody(Struct, forbid_unknown_fields=True):
    state: StateText
    options: JSONObject = field(default_factory=dict)
    seat: Seat | None = None


class MoveBody(Struct, forbid_unknown_fields=True):
    state: StateText
    move: JSONObject
    options: JSONObject = field(default_factory=dict)
    # Where several seats may move (Dog's exchange), the seat that moves.
    seat: Seat | None = None


class ViewStep(Struct, forbid_unknown_fields=True):
    action: int
    # Where several seats may move (Dog's exchange), the seat that moved.
    seat: Seat | None = None


class ViewBody(Struct, forbid_unknown_fields=True):
    """A state, the actions played on it (a replay's plies, in order) and whose view to see."""

    state: StateText
    options: JSONObject = field(default_factory=dict)
    # None: the public view (what a spectator sees).
    seat: Seat | None = None
    # Bounded: a replay's plies; the work is one apply per step.
    actions: Annotated[list[ViewStep], Meta(max_length=4096)] = field(default_factory=list)


class ViewOut(Struct):
    state: str
    view: JSONObject
    terminal: bool
    current_player: int
    seats_to_move: list[int]
    # The engine's text of the last action applied (None when none was).
    last_move: str | None


class StateOut(Struct):
    state: str


class Rejection(Struct):
    """Why a move is refused: the ruling, a stable code, its values and the reason."""

    legal: bool
    reason: str | None = None
    rule: str | None = None
    code: str | None = None
    params: JSONObject | None = None


class Applied(Struct):
    state: str
    terminal: bool
    returns: list[float]
    current_player: int
    seats_to_move: list[int]
    result: str | None


class LegalMove(Struct):
    action: int
    move: JSONObject
    text: str


class Moves(Struct):
    moves: list[LegalMove]


# A Schotten Totten card as the claim check reads it: a colour letter and a value ("B5"). The
# engine names a wrong card in words (422 invalid_card), so the pattern is documented only.
Card = Annotated[str, Meta(max_length=8, extra_json_schema={"pattern": "^[ROYGBP][1-9]$"})]


class ClaimCheckBody(Struct, forbid_unknown_fields=True):
    # A claim needs the claimant's three cards (S5); the engine refuses fewer in words, so
    # msgspec checks only the top and the document says both.
    mine: Annotated[list[Card], Meta(max_length=3, extra_json_schema={"minItems": 3, "uniqueItems": True})]
    theirs: Annotated[list[Card], Meta(max_length=3, extra_json_schema={"uniqueItems": True})]
    table: Annotated[list[Card], Meta(max_length=60, extra_json_schema={"uniqueItems": True})] = field(
        default_factory=list
    )
    mine_completed_first: bool = True


class Formation(Struct):
    cards: list[str]
    formation: str
    sum: int


class ClaimCheckOut(Struct):
    provable: bool
    mine: Formation
    best: Formation | None


class TableTalkBody(Struct, forbid_unknown_fields=True):
    text: Annotated[str, Meta(max_length=2000)]


class TableTalkOut(Struct):
    allowed: bool
    reason: str | None = None


class BotInfo(Struct):
    name: str
    # The bot searches (its work grows with its parameters, bounded by the server).
    searches: bool


class BotLevel(Struct):
    # The level's name, what a seat holds (a BotSeat's `bot`): the engine's levels.
    name: Literal["easy", "normal", "strong"]
    # The engine's bot and settings behind the level.
    bot: str
    params: JSONObject
    # What the engine's ladder measured: for two-sided games `elo` with `low`/`high` (95 %),
    # for The Game the perfect-game rate and cards left at the default player count.
    rating: JSONObject | None
    # Its thread CPU time per move as measured (`median`, `p90`, in ms).
    cpu_ms_per_move: JSONObject | None
    # The rating on the Elo scale (`heuristic` at 1500), for two-sided games.
    elo: float | None = None


class GameInfo(Struct):
    name: str
    players: int
    utility: str
    num_distinct_actions: int
    max_game_length: int
    options: list[JSONObject]
    defaults: JSONObject
    # The options that make a match unranked (C10), as the engine's `ranked()` says.
    variants: list[str]
    # The game has table talk (The Game's T7) / a playing time (Dog's D13).
    table_talk: bool = False
    playing_time: bool = False
    # The bots a seat may hold, by name, and the levels by strength (weakest first).
    bots: list[BotInfo] = field(default_factory=list)
    levels: list[BotLevel] = field(default_factory=list)


class GameList(Struct):
    games: list[GameInfo]


class GameSchemas(Struct):
    view: JSONObject
    move: JSONObject


class BotMoveBody(Struct, forbid_unknown_fields=True):
    """A seat's view (``state.view(seat)``): the bot sees nothing else."""

    view: JSONObject
    options: JSONObject = field(default_factory=dict)
    params: JSONObject = field(default_factory=dict)
    seed: Seed | SeedText = 0

    def __post_init__(self) -> None:
        check_seed(self.seed)


class BotMove(Struct):
    action: int
    move: JSONObject
    text: str


# -- matches -------------------------------------------------------------------------


# A name as players.checked_name takes it: 2 to 24 letters or digits (Python's `\\w`, any
# script), single spaces, '-', '_' and '.', beginning with a letter or a digit, and not read as
# a bot's ("Bot …"). The server says what is wrong in words (422 invalid_name), so the rule is
# only documented here: msgspec would refuse in its own English words (and a bound written in
# Meta would overrule the document's). The body's size limit bounds the text.
NAME_MIN, NAME_MAX = 2, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 128
NAME_RULE: dict[str, Any] = {
    "minLength": NAME_MIN,
    "maxLength": NAME_MAX,
    "pattern": r"^(?![Bb][Oo][Tt](?:$|[ _-]))[^\W_](?:[\w.-]| (?=[\w.-]))*$",
}
DisplayName = Annotated[str, Meta(extra_json_schema=NAME_RULE)]


class PersonSeat(Struct, tag="person", tag_field="kind", forbid_unknown_fields=True):
    # Open: no token now; anyone may take the seat from the lobby (GET /v1/matches).
    open: bool = False
    # The seat of whoever creates the match: it belongs to the logged-in player (the
    # session cookie), or shows `name`, a guest's name.
    me: bool = False
    name: DisplayName | None = None


class BotSeat(Struct, tag="bot", tag_field="kind", forbid_unknown_fields=True):
    bot: str = "random"
    params: JSONObject = field(default_factory=dict)


SeatSpec = PersonSeat | BotSeat


class ClockSpec(Struct, forbid_unknown_fields=True):
    initial_s: Annotated[float, Meta(gt=0, le=86_400)]
    increment_s: Annotated[float, Meta(ge=0, le=3_600)] = 0.0


class MatchRules(Struct, forbid_unknown_fields=True):
    """The match rules of the seeds (C11, D13), each configurable; 0 switches one off."""

    first_move_s: Annotated[float, Meta(ge=0, le=86_400)] = 60.0
    leave_s: Annotated[float, Meta(ge=0, le=86_400)] = 60.0
    untimed_move_s: Annotated[float, Meta(ge=0, le=86_400)] = 300.0
    # Dog's playing time ("nach Ablauf der Spielzeit", D13); 0: none.
    playing_time_s: Annotated[float, Meta(ge=0, le=7 * 86_400)] = 0.0


class NewMatch(Struct, forbid_unknown_fields=True):
    game: Annotated[str, Meta(max_length=64)]
    seats: Annotated[list[SeatSpec], Meta(min_length=1, max_length=8)]
    options: JSONObject = field(default_factory=dict)
    seed: Seed | SeedText | None = None
    clock: ClockSpec | None = None
    rules: MatchRules = field(default_factory=MatchRules)

    def __post_init__(self) -> None:
        check_seed(self.seed)


class SeatOut(Struct):
    seat: int
    kind: Literal["person", "bot"]
    bot: str | None = None
    token: str | None = None
    # The link that takes the seat in a browser (sets its cookie): GET it, or POST the token
    # to it.
    invitation: str | None = None
    # Open to anyone from the lobby (POST …/seats/{seat}/join without a token).
    open: bool = False


class JoinBody(Struct, forbid_unknown_fields=True):
    # The seat's token; without it, an open seat is taken (and its token handed out).
    token: Annotated[str, Meta(min_length=1, max_length=200)] | None = None
    # A guest's name for the seat (a logged-in player's seat shows the player's name).
    name: DisplayName | None = None


class Joined(Struct):
    id: str
    seat: int
    # The token of an open seat just taken (shown only here); null when one was sent.
    token: str | None = None


class LobbyMatch(Struct):
    id: str
    game: str
    options: JSONObject
    status: Literal["running", "finished", "aborted"]
    seats: list[JSONObject]
    free_seats: list[int]
    clock: JSONObject | None
    created_at: float
    # Whether the match counts: not with a variant (C10, the engine's `ranked()`), nor with a
    # deal its creator chose (`seed_chosen`: the creator would know every hidden card).
    ranked: bool
    result: MatchResult | None = None
    seed_chosen: bool = False
    # Finished matches: where their replay is.
    replay: str | None = None


class Lobby(Struct):
    open: list[LobbyMatch]
    finished: list[LobbyMatch]
    limit: int
    offset: int


class MatchCreated(Struct):
    id: str
    version: int
    seats: list[SeatOut]


class MatchResult(Struct):
    returns: list[float]
    reason: Literal["end", "resigned", "time", "left", "no_move", "playing_time", "aborted", "withdrawn"]
    text: str
    seat: int | None = None
    points: list[int] | None = None
    # The ruling that ended the match (C11: the clock, leaving, a missed move; D13: Dog's
    # playing time), for a link to its text; the text itself never carries the id.
    rule: str | None = None


class RuleDue(Struct):
    # A match rule counted down on the page, which words it by its name (i18n.js `due_<rule>`,
    # `due_<rule>_mine` for the reader's own seat): a new rule is a name here, its moment in
    # Match.rules_due and its words there.
    # "left": a person seat not seen for over a third of the match's leave_s (C11); in_s until
    # the match ends for it unless it is back.
    rule: Literal["aborted", "no_move", "withdrawn", "left"]
    seat: int | None
    in_s: float


class MatchOut(Struct):
    id: str
    game: str
    options: JSONObject
    version: int
    status: Literal["running", "finished", "aborted"]
    seat: int | None
    current_player: int
    seats_to_move: list[int]
    # The engine's own bytes (``view_json``), sent as they are: the view of the seat (or the
    # public view), as ``GET /v1/games/{game}/schema`` describes it.
    view: EngineJSON
    clocks: list[float] | None
    result: MatchResult | None
    # Whether the match counts: not with a variant (C10, the engine's `ranked()`), nor with a
    # deal its creator chose (`seed_chosen`: the creator would know every hidden card).
    ranked: bool
    last_move: str | None = None
    seed_chosen: bool = False
    # The person seats still open while the match waits for them (it begins, and its
    # clocks run, once every one is taken); empty once it has begun.
    open_seats: list[int] = []
    # Who sits where, as people read it: a player's or a guest's name (null: none given,
    # or a bot, whose name is its seat's `bot`), and which seats are registered players'.
    names: list[str | None] = []
    players: list[bool] = []
    # Each seat's bot (a level's name such as "strong", or a bot's), null for a person.
    bots: list[str | None] = []
    # The seat whose ply made this version (null: none, or a match rule naming no seat).
    last_seat: int | None = None
    # The time control the match was created with (null: none), as POST /v1/matches takes
    # it: enough to start the same match again (a rematch).
    clock: ClockSpec | None = None
    # The match rules that will end the match unless someone acts (C11: the first move,
    # "aborted"; a move without a clock, "no_move"; an open seat nobody takes, "withdrawn"),
    # each with the seat it concerns and the seconds left from this answer.
    rules_due: list[RuleDue] = []


class PlayBody(Struct, forbid_unknown_fields=True):
    version: Annotated[int, Meta(ge=0)]
    move: JSONObject


class CheckBody(Struct, forbid_unknown_fields=True):
    move: JSONObject


class ChatBody(Struct, forbid_unknown_fields=True):
    text: Annotated[str, Meta(min_length=1, max_length=500)]


class LogEntry(Struct):
    version: int
    # Who made the ply (null: a match rule that names nobody) and its text as this seat may
    # read it (null: an action this seat did not see, such as a card given to a partner, D4).
    seat: int | None
    text: str | None


class MatchLog(Struct):
    # The latest plies, oldest first (at most `limit`).
    entries: list[LogEntry]


class ChatOut(Struct):
    seat: int
    text: str
    at: float
    # The message's number: increasing within a match (the event stream's ids carry it).
    id: int = 0


class StreamEnd(Struct):
    """The event stream's last event: the match is over."""

    status: Literal["finished", "aborted"]
    version: int
    result: MatchResult | None


class ReplayAction(Struct):
    ply: int
    seat: int | None
    kind: str
    action: int | None
    move: JSONObject | None
    text: str
    at: float


class Replay(Struct):
    id: str
    game: str
    options: JSONObject
    # A string: JavaScript would round seeds above 2^53.
    seed: str
    # The engine's serialized states (state.serialize()), as JSON objects.
    initial_state: JSONObject
    final_state: JSONObject
    actions: list[ReplayAction]
    result: MatchResult | None


# -- players, sessions and ratings ------------------------------------------------------


class Credentials(Struct, forbid_unknown_fields=True):
    """A login: any name and password within the lengths (a wrong one is 401)."""

    name: Annotated[str, Meta(min_length=1, max_length=64)]
    password: Annotated[str, Meta(min_length=1, max_length=256)]


class Registration(Struct, forbid_unknown_fields=True):
    """A new player: a name by the name rule, a password of 8 to 128 characters (players.py)."""

    name: DisplayName
    password: Annotated[
        str,
        Meta(extra_json_schema={"minLength": PASSWORD_MIN, "maxLength": PASSWORD_MAX}),
    ]


class PlayerOut(Struct):
    name: str


class SessionOut(Struct):
    # The logged-in player's name; null: nobody (a guest).
    player: str | None


class RatingOut(Struct):
    game: str
    pool: Literal["people", "bots"]
    # On the Elo scale of the bots' ladder (heuristic = 1500); 95 % lie within ± interval.
    rating: int
    interval: int
    matches: int


class RatingStep(Struct):
    game: str
    pool: Literal["people", "bots"]
    match_id: str
    outcome: Literal["win", "loss", "draw"]
    rating: int
    at: float


class PlayedMatch(Struct):
    id: str
    game: str
    status: str
    created_at: float
    seat: int
    # Each seat's name (null: none given) and bot (null: a person), as in MatchOut.
    names: list[str | None]
    bots: list[str | None]
    returns: list[float] | None


class Profile(Struct):
    name: str
    ratings: list[RatingOut]
    # The rating after each rated match, oldest first (the profile's chart).
    history: list[RatingStep]
    # The latest matches, newest first.
    matches: list[PlayedMatch]


class BoardPlayer(Struct):
    name: str
    rating: int
    interval: int
    matches: int


class BoardBot(Struct):
    # The level's name ("stark") as a seat takes it, the bot behind it and its ladder Elo.
    name: str
    bot: str
    rating: float | None


class Leaderboard(Struct):
    game: str
    pool: Literal["people", "bots"]
    # Best first by the rating less three deviations (openskill's ordinal).
    players: list[BoardPlayer]
    bots: list[BoardBot]


def encode(value: Any) -> bytes:
    return msgspec.json.encode(value)
