"""RFC 9457 problem details for every error the API answers.

Each problem says what was wrong and what is allowed. A move the rules refuse carries the
engine's ``rule``, ``code``, ``params`` and its reason in the language the client asks for
(``Accept-Language``: German or English). Nothing internal leaks: an unexpected exception is
logged on the server and answered with a bare 500.
"""

from __future__ import annotations

import logging
from typing import Any

import msgspec
import spielwerk
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR

log = logging.getLogger("spielwerk_api")

PROBLEM_JSON = "application/problem+json"

# Where a problem's ``type`` points: one URN per stable code, so a client can branch on it.
TYPE_PREFIX = "urn:spielwerk:problem:"


class ProblemDetails(msgspec.Struct, omit_defaults=True):
    """The body of every error answer (RFC 9457), and its schema in the OpenAPI document.

    Members that do not apply to a problem are left out of its answer.
    """

    type: str
    title: str
    status: int
    detail: str
    # A stable code to branch on; ``type`` is the same code as a URN.
    code: str
    # A move the rules refuse: the engine's ruling, its values and its reason.
    rule: str | None = None
    reason: str | None = None
    params: dict[str, Any] | None = None
    # A stale version (409): the version the match is at now.
    version: int | None = None


class Problem(HTTPException):
    """An error of the API itself (not of the engine), with a stable code."""

    def __init__(
        self,
        status_code: int,
        code: str,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        rule: str | None = None,
        version: int | None = None,
    ) -> None:
        super().__init__(detail=detail, status_code=status_code, headers=headers)
        self.code = code
        self.rule = rule
        self.version = version


# What each error status means in this API, for the OpenAPI document.
PROBLEM_DESCRIPTIONS = {
    400: "The body (code invalid_body) or a path parameter (code invalid_parameter) does not match"
    " its schema",
    401: "No seat's token was sent (code token_required)",
    403: "The token opens no seat of this match (code wrong_token)",
    404: "No such game or match (codes unknown_game, unknown_match)",
    408: "The request's headers or body did not arrive in time (code request_timeout)",
    409: "The match moved on or is over (codes stale_version, match_over, match_running)",
    413: "The request body is too large (code body_too_large)",
    415: "The body is not JSON (code unsupported_media_type)",
    422: "The engine or a match rule refuses it, with the engine's rule, code and reason",
    429: "Too many requests or matches of bots alone; Retry-After says when to try again"
    " (codes too_many_requests, too_many_bot_matches)",
    431: "The request line and headers are too large (code headers_too_large)",
    503: "Every search slot is taken, or the worker holds as many event streams as it may;"
    " Retry-After says when to try again (codes search_busy, too_many_streams)",
}


def problem_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """The problem details a route may answer, by status; any route may answer 400 (a parameter
    or the body does not match its schema) and 431 (headers too large); routes that read a body
    (413) also 408 (read too slowly) and 415 (not JSON)."""
    statuses = (*statuses, 400, 431, *((408, 415) if 413 in statuses else ()))
    return {
        status: ResponseSpec(
            data_container=ProblemDetails,
            media_type=PROBLEM_JSON,
            description=PROBLEM_DESCRIPTIONS[status],
            generate_examples=False,
        )
        for status in sorted(set(statuses))
    }


# Accept-Language is read this far only: a client that prefers German says so in its first
# few entries, and a header of megabytes is never split on the event loop.
LANGUAGE_BYTES = 256
LANGUAGE_ENTRIES = 16


def language(request: Request[Any, Any, Any]) -> str:
    """``"de"`` or ``"en"``, the first of them the client prefers (English if neither)."""
    header = request.headers.get("accept-language", "")[:LANGUAGE_BYTES]
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header.split(",", LANGUAGE_ENTRIES)[:LANGUAGE_ENTRIES]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:8])
            except ValueError:
                q = 0.0
        primary = tag.strip().lower().split("-")[0]
        if primary in ("de", "en") and q > 0:
            ranked.append((-q, i, primary))
    return min(ranked)[2] if ranked else "en"


def engine_status(error: spielwerk.SpielwerkError) -> int:
    """Unknown games are not found; everything else the engine refuses is unprocessable."""
    return 404 if isinstance(error, spielwerk.UnknownGameError) else 422


def engine_fields(error: spielwerk.SpielwerkError, lang: str) -> dict[str, Any]:
    """The engine's rejection as problem members, the reason in the client's language."""
    reason = error.reason_de if lang == "de" and error.reason_de else error.reason
    return {
        "code": error.code,
        "rule": error.rule,
        "params": error.params,
        "reason": reason,
    }


TITLES = {
    "unknown_game": "Unknown game",
    "invalid_option": "Invalid option",
    "invalid_state": "Invalid state",
    "invalid_move": "Invalid move",
}


def problem_response(
    status: int, body: dict[str, Any], headers: dict[str, str] | None = None
) -> Response[Any]:
    # Built as the Struct the OpenAPI document names, so the answer and its schema never drift.
    problem = ProblemDetails(status=status, **body)
    return Response(content=problem, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def on_engine_error(request: Request[Any, Any, Any], error: spielwerk.SpielwerkError) -> Response[Any]:
    lang = language(request)
    fields = engine_fields(error, lang)
    if isinstance(error, spielwerk.IllegalActionError):
        title = "Move against the rules"
        detail = f"{error.rule}: {fields['reason']}" if error.rule else fields["reason"]
    else:
        title = TITLES.get(error.code, "Refused by the engine")
        detail = str(error)
    status = engine_status(error)
    return problem_response(
        status,
        {"type": TYPE_PREFIX + error.code, "title": title, "detail": detail, **fields},
    )


def on_http_error(request: Request[Any, Any, Any], error: HTTPException) -> Response[Any]:
    status = error.status_code
    if isinstance(error, Problem):
        body: dict[str, Any] = {
            "type": TYPE_PREFIX + error.code,
            "title": _phrase(status),
            "detail": error.detail,
            "code": error.code,
            "rule": error.rule,
            "version": error.version,
        }
        return problem_response(status, body, error.headers)
    body = {"type": "about:blank", "title": _phrase(status), "detail": error.detail}
    if isinstance(error, ValidationException):
        # msgspec says what it expected ("Expected `object`, got `int`") and Litestar names
        # the field ("move"; "data" is the body as a whole) and where it came from.
        extra = [e for e in (error.extra or []) if isinstance(e, dict)]
        # Litestar's ParamType is an enum of the parameter's place ("path", "query", ...).
        parameters = [
            (str(getattr(e.get("source"), "value", e.get("source"))), e)
            for e in extra
            if e.get("source") not in (None, "body")
        ]
        if parameters:
            body.update(
                code="invalid_parameter",
                detail="; ".join(
                    f"invalid {place} parameter {str(e.get('key', ''))[:40]}: {e.get('message', '')}"
                    for place, e in parameters
                ),
            )
            body["type"] = TYPE_PREFIX + "invalid_parameter"
            return problem_response(status, body, error.headers)
        errors = [
            (f"{e['key']}: " if e.get("key") not in (None, "data") else "") + str(e.get("message", ""))
            for e in extra
        ]
        body.update(
            type=TYPE_PREFIX + "invalid_body",
            code="invalid_body",
            detail="invalid request body: " + ("; ".join(e for e in errors if e) or error.detail),
        )
    elif status == 400:
        # The body is no JSON at all (Litestar's decoder says where it broke).
        body.update(
            type=TYPE_PREFIX + "invalid_body",
            code="invalid_body",
            detail=f"invalid request body: {error.detail}",
        )
    elif status == 413:
        body.update(type=TYPE_PREFIX + "body_too_large", code="body_too_large")
        body["detail"] = f"request body too large: at most {request.app.request_max_body_size} bytes"
    elif status == 404:
        body.update(code="not_found", detail=f"no such resource: {request.url.path[:200]}")
    elif status == 405:
        method = "HEAD" if request.scope.get("spielwerk.head") else request.method
        body.update(code="method_not_allowed", detail=f"{method} is not allowed here")
    else:
        body["code"] = "http_" + str(status)
    body["type"] = TYPE_PREFIX + body["code"]
    return problem_response(status, body, error.headers)


def on_too_deep(request: Request[Any, Any, Any], error: RecursionError) -> Response[Any]:
    # msgspec guards its recursion: JSON nested thousands deep ends here, not in a crash.
    return problem_response(
        400,
        {
            "type": TYPE_PREFIX + "invalid_body",
            "title": "Bad Request",
            "detail": "invalid request body: nested too deeply"
            " (moves, options and views are a few levels deep)",
            "code": "invalid_body",
        },
    )


def on_unexpected(request: Request[Any, Any, Any], error: Exception) -> Response[Any]:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return problem_response(
        HTTP_500_INTERNAL_SERVER_ERROR,
        {
            "type": TYPE_PREFIX + "internal",
            "title": "Internal Server Error",
            "detail": "the server failed to answer; the error was logged",
            "code": "internal",
        },
    )


def _phrase(status: int) -> str:
    from http import HTTPStatus

    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


EXCEPTION_HANDLERS: Any = {
    spielwerk.SpielwerkError: on_engine_error,
    HTTPException: on_http_error,
    RecursionError: on_too_deep,
    Exception: on_unexpected,
}

__all__ = [
    "EXCEPTION_HANDLERS",
    "PROBLEM_JSON",
    "Problem",
    "ProblemDetails",
    "engine_fields",
    "language",
    "problem_responses",
]
