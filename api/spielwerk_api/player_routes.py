"""Players, their sessions and the leaderboards.

``POST /v1/players`` registers (and logs in), ``POST /v1/session`` logs in, ``DELETE
/v1/session`` logs out, ``GET /v1/session`` says who is logged in; ``GET /v1/players/{name}``
is a profile and ``GET /v1/ratings/{game}`` a leaderboard. The session is a cookie
(``sessions.py``); a write that carries it comes from this site's own pages only.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from litestar import Controller, Request, Response, delete, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, Parameter

from . import engine, schemas
from .matches import Matches
from .matches.access import refuse_cross_site
from .problems import problem_responses
from .sessions import log_in, player_of


def client_of(request: Request[Any, Any, Any]) -> str:
    return request.client.host if request.client else ""


class PlayerRoutes(Controller):
    path = "/v1"
    tags = ("players",)

    @post(
        "/players",
        status_code=201,
        summary="Register a player (name and password); logs in",
        responses=problem_responses(403, 409, 413, 422, 429),
    )
    async def register(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        data: JSONBody[schemas.Registration],
    ) -> Response[schemas.PlayerOut]:
        refuse_cross_site(request, what="session")
        player = await matches.players.register(data.name, data.password, client_of(request))
        log_in(request, player)
        return Response(
            schemas.PlayerOut(name=player.name),
            status_code=201,
            headers={"Location": f"/v1/players/{player.name}"},
        )

    @post(
        "/session",
        status_code=200,
        summary="Log in: the session cookie",
        responses=problem_responses(401, 403, 413, 422, 429),
    )
    async def login(
        self,
        matches: NamedDependency[Matches],
        request: Request[Any, Any, Any],
        data: JSONBody[schemas.Credentials],
    ) -> schemas.PlayerOut:
        refuse_cross_site(request, what="session")
        player = await matches.players.login(data.name, data.password, client_of(request))
        log_in(request, player)
        return schemas.PlayerOut(name=player.name)

    @get("/session", summary="Who is logged in (null: nobody)", responses=problem_responses())
    async def who(self, request: Request[Any, Any, Any]) -> schemas.SessionOut:
        player = player_of(request)
        return schemas.SessionOut(player=player.name if player else None)

    @delete(
        "/session", status_code=204, summary="Log out: the session ends", responses=problem_responses(403)
    )
    async def logout(self, request: Request[Any, Any, Any]) -> None:
        refuse_cross_site(request, what="session")
        request.clear_session()

    @get(
        "/players/{name:str}",
        summary="A player's profile: ratings per game and pool, their history, the latest matches",
        responses=problem_responses(404),
    )
    async def profile(
        self,
        matches: NamedDependency[Matches],
        name: Annotated[str, Parameter(max_length=64)],
    ) -> schemas.Profile:
        return await matches.players.profile(name, matches.ratings)

    @get(
        "/ratings/{game:str}",
        summary="A game's leaderboard: players by rating, and the engine's bots by their ladder rating",
        responses=problem_responses(404, 422),
    )
    async def leaderboard(
        self,
        matches: NamedDependency[Matches],
        game: Annotated[str, Parameter(max_length=64)],
        pool: Annotated[
            Literal["people", "bots"],
            Parameter(description="people: matches of persons only; bots: with a bot at the table"),
        ] = "people",
    ) -> schemas.Leaderboard:
        return await matches.ratings.board(engine.load_game(game, {}), pool)
