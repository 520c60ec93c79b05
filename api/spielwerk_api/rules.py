"""Stateless rule checks: the caller owns the position and sends it with every request.

Every answer is the engine's: ``check_move``, ``apply_action``, ``legal_moves``,
``check_claim`` and ``check_talk``. A refused input is the engine's typed error,
turned into problem details by ``problems.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import spielwerk
from litestar import Controller, Request, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter
from spielwerk.schotten_totten import check_claim
from spielwerk.the_game import check_talk

from . import bots, engine, schemas
from .matches import Matches
from .problems import Problem, engine_fields, language, problem_responses

# Every route naming a game may find no such game; the engine refuses options, states and moves.
GAME_PROBLEMS = problem_responses(404, 422)
GAME_BODY_PROBLEMS = problem_responses(404, 413, 422)

BotName = Annotated[str, Parameter(description="a bot of spielwerk.bots.names(game)", max_length=64)]
GameName = Annotated[str, Parameter(description="a game of GET /v1/games", max_length=64)]


def rejection(error: spielwerk.IllegalActionError | None, lang: str) -> schemas.Rejection:
    if error is None:
        return schemas.Rejection(legal=True)
    f = engine_fields(error, lang)
    return schemas.Rejection(
        legal=False, reason=f["reason"], rule=f["rule"], code=f["code"], params=f["params"]
    )


def legal_moves(state: spielwerk.State, seat: int | None = None, lang: str = "en") -> schemas.Moves:
    """The legal moves of ``seat`` with their texts in ``lang``, from the engine."""
    return schemas.Moves(moves=[schemas.LegalMove(**m) for m in state.legal_moves(seat, lang)])


# The rule texts the engine implements (German: they are the law; RULINGS.md makes them exact).
RULES_TEXTS = Path(__file__).parent / "rules_texts"


class GameRules(Controller):
    path = "/v1/games"
    tags = ("rule checks",)

    @get(
        "/",
        summary="Every game with its players, options, variants and action count",
        responses=problem_responses(),
    )
    async def games(self) -> schemas.GameList:
        return schemas.GameList(
            games=[schemas.GameInfo(**engine.game_info(n)) for n in spielwerk.list_games()]
        )

    @get(
        "/{game:str}",
        summary="One game's players, options, variants and action count",
        responses=GAME_PROBLEMS,
    )
    async def game(self, game: GameName) -> schemas.GameInfo:
        name = engine.load_game(game).name
        return schemas.GameInfo(**engine.game_info(name))

    @get(
        "/{game:str}/rules",
        summary="The game's rules as players read them (German: the text the engine implements)",
        responses=GAME_PROBLEMS,
        media_type="text/plain; charset=utf-8",
    )
    async def rules(self, game: GameName) -> str:
        name = engine.load_game(game).name
        return (RULES_TEXTS / f"{name}.de.txt").read_text(encoding="utf-8")

    @get("/{game:str}/schema", summary="JSON Schemas of the game's views and moves", responses=GAME_PROBLEMS)
    async def schema(self, game: GameName) -> schemas.GameSchemas:
        g = engine.load_game(game)
        return schemas.GameSchemas(view=g.view_schema(), move=g.move_schema())

    @post(
        "/{game:str}/new",
        status_code=200,
        summary="The initial state, as new_initial_state(seed)",
        responses=GAME_BODY_PROBLEMS,
    )
    async def new(self, game: GameName, data: JSONBody[schemas.NewBody]) -> schemas.StateOut:
        g = engine.load_game(game, data.options)
        return schemas.StateOut(state=g.new_initial_state(int(data.seed)).serialize())

    @post(
        "/{game:str}/check",
        status_code=200,
        summary="Is this move legal here, and why not?",
        responses=GAME_BODY_PROBLEMS,
    )
    async def check(
        self, request: Request[Any, Any, Any], game: GameName, data: JSONBody[schemas.MoveBody]
    ) -> schemas.Rejection:
        state = engine.load_game(game, data.options).deserialize_state(data.state)
        return rejection(state.check_move(data.move, data.seat), language(request))

    @post(
        "/{game:str}/apply",
        status_code=200,
        summary="Play a move; 422 with the reason if illegal",
        responses=GAME_BODY_PROBLEMS,
    )
    async def apply(
        self, request: Request[Any, Any, Any], game: GameName, data: JSONBody[schemas.MoveBody]
    ) -> schemas.Applied:
        state = engine.load_game(game, data.options).deserialize_state(data.state)
        state.apply_action(state.action_from_json(data.move), data.seat)
        return schemas.Applied(
            state=state.serialize(),
            terminal=state.is_terminal(),
            returns=state.returns(),
            current_player=state.current_player(),
            seats_to_move=state.seats_to_move(),
            result=state.result_text(language(request)),
        )

    @post(
        "/{game:str}/view",
        status_code=200,
        summary="A seat's view (or the public view) of a state after the given actions",
        description=(
            "For boards drawn from a state the caller holds (a replay's steps, a tutorial's "
            "prepared position): the actions are applied in order, each refused one is a 422 "
            "with the engine's reason, and the answer is the state reached and the view of "
            "`seat` (the public view without one)."
        ),
        responses=GAME_BODY_PROBLEMS,
    )
    async def view(
        self, request: Request[Any, Any, Any], game: GameName, data: JSONBody[schemas.ViewBody]
    ) -> schemas.ViewOut:
        state = engine.load_game(game, data.options).deserialize_state(data.state)
        lang = language(request)
        last_move = None
        for step in data.actions:
            last_move = state.action_to_string(step.action, lang)
            state.apply_action(step.action, step.seat)
        view = state.view(data.seat) if data.seat is not None else state.public_view()
        terminal = state.is_terminal()
        return schemas.ViewOut(
            state=state.serialize(),
            view=view,
            terminal=terminal,
            current_player=state.current_player(),
            seats_to_move=[] if terminal else state.seats_to_move(),
            last_move=last_move,
        )

    @post(
        "/{game:str}/moves",
        status_code=200,
        summary="Every legal move with its action id and text",
        responses=GAME_BODY_PROBLEMS,
    )
    async def moves(
        self, request: Request[Any, Any, Any], game: GameName, data: JSONBody[schemas.StateBody]
    ) -> schemas.Moves:
        state = engine.load_game(game, data.options).deserialize_state(data.state)
        return legal_moves(state, data.seat, language(request))


class BotMoves(Controller):
    path = "/v1/bots"
    tags = ("bots",)

    @post(
        "/{game:str}/{bot:str}/move",
        status_code=200,
        summary="A bot's move for a seat, from that seat's view alone",
        description=(
            "For game servers that keep the hidden cards: send the seat's view "
            "(state.view(seat)); the unseen cards are dealt at random from the seed "
            "(game.state_from_view), and the bot decides from that seat's information state."
        ),
        responses=problem_responses(404, 413, 422, 429, 503),
    )
    async def move(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        game: GameName,
        bot: BotName,
        data: JSONBody[schemas.BotMoveBody],
    ) -> schemas.BotMove:
        g = engine.load_game(game, data.options)
        bots.check(bot, g, data.params)
        seat = data.view.get("player")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise Problem(
                422,
                "invalid_view",
                "the view must be a seat's view (its 'player' is the seat), not the public view",
                de="die Sicht muss die eines Platzes sein (ihr 'player' ist der Platz),"
                " nicht die öffentliche",
            )
        state = g.state_from_view(data.view, int(data.seed))
        # The server's time bound on every search, and a place in the worker's search pool:
        # refused (503) rather than queued without end when it is full.
        params = bots.bounded(bot, g, data.params, matches.limits.search_time_ms)
        if matches.pool.busy() and bots.searches(g.name, bot):
            raise Problem(
                503,
                "search_busy",
                "every search slot of this server is taken; try again in a moment",
                headers={"Retry-After": "2"},
                de="jeder Suchplatz dieses Servers ist belegt; versuche es gleich noch einmal",
            )
        # After every person's match (a person waits for that bot), and a bounded share per
        # client: a stranger's searches never delay a person's bot.
        client = request.client.host if request.client else ""
        with matches.pool.share(client, matches.limits.searches_per_client):
            action, _ = await bots.decide(
                matches.pool, bot, params, state, seat, int(data.seed), 0, priority=bots.STATELESS
            )
        return schemas.BotMove(
            action=action,
            move=state.action_to_json(action),
            text=state.action_to_string(action, language(request)),
        )


class SchottenTottenRules(Controller):
    path = "/v1/schotten_totten"
    tags = ("rule checks",)

    @post(
        "/claim-check",
        status_code=200,
        summary="Can this stone be claimed (S5), and what can the other side reach?",
        responses=problem_responses(413, 422),
    )
    async def claim_check(self, data: JSONBody[schemas.ClaimCheckBody]) -> schemas.ClaimCheckOut:
        c = check_claim(data.mine, data.theirs, data.table, data.mine_completed_first)
        best = None
        if c.best_cards is not None and c.best_formation is not None and c.best_sum is not None:
            best = schemas.Formation(cards=c.best_cards, formation=c.best_formation, sum=c.best_sum)
        mine = schemas.Formation(cards=list(data.mine), formation=c.mine_formation, sum=c.mine_sum)
        return schemas.ClaimCheckOut(provable=c.provable, mine=mine, best=best)


class TheGameRules(Controller):
    path = "/v1/the_game"
    tags = ("rule checks",)

    @post(
        "/table-talk",
        status_code=200,
        summary="May this be said at the table (T7)?",
        responses=problem_responses(413),
    )
    async def table_talk(
        self, request: Request[Any, Any, Any], data: JSONBody[schemas.TableTalkBody]
    ) -> schemas.TableTalkOut:
        refused = check_talk(data.text)
        if refused is None:
            return schemas.TableTalkOut(allowed=True)
        reason = engine_fields(refused, language(request))["reason"]
        return schemas.TableTalkOut(allowed=False, reason=f"{refused.rule}: {reason}")
