"""RFC 9457 problem details for every error the API answers.

Each problem says what was wrong and what is allowed. A move the rules refuse carries the
engine's ``rule``, ``code``, ``params`` and its reason in the language the client asks for
(``?lang=``, else ``Accept-Language``: German or English). Titles and details are German or
English by the same rule: the German catalogue ``GERMAN`` has a title and a detail for
every code the API answers with, ``TITLES`` the English title of every engine code; the
engine's own errors carry their message in both languages (``SpielwerkError.detail``), a
``Problem`` raised with ``de=`` its own German detail (with the values of the English one),
anything else the catalogue's. Nothing internal leaks: an unexpected exception is logged on
the server and answered with a bare 500.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import parse_qs

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
        de: str | None = None,
    ) -> None:
        super().__init__(detail=detail, status_code=status_code, headers=headers)
        self.code = code
        self.rule = rule
        self.version = version
        # The detail in German, with the same values; without it the catalogue's (GERMAN).
        self.de = de


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
    or the body does not match its schema), 429 (the client's requests beyond the worker's
    per-client rate, whatever the route) and 431 (headers too large); routes that read a body
    (413) also 408 (read too slowly) and 415 (not JSON)."""
    statuses = (*statuses, 400, 429, 431, *((408, 415) if 413 in statuses else ()))
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
    """``"de"`` or ``"en"``: the query's ``lang`` where it names one (a browser's
    EventSource cannot set headers), else the first of them the client prefers by
    ``Accept-Language`` (English if neither)."""
    return chosen_language(request.query_params.get("lang"), request.headers.get("accept-language", ""))


def chosen_language(asked: str | None, accept_language: str) -> str:
    """The one rule for every answer, routed or not: the query's ``lang`` where it names
    ``"de"`` or ``"en"``, else the client's preference by ``Accept-Language``."""
    if asked in ("de", "en"):
        return str(asked)
    return preferred_language(accept_language)


# A raw query is searched this far for its ``lang`` (answers sent before routing): the
# whole query of any head the server accepts (16 KiB by default).
QUERY_BYTES = 16 * 1024


def query_language(query: str) -> str | None:
    """The ``lang`` a raw query string names (its first, as Litestar's ``query_params``
    reads it), for answers sent before routing; ``None`` if it names none."""
    return parse_qs(query[:QUERY_BYTES]).get("lang", [None])[0]


def preferred_language(header: str) -> str:
    """``"de"`` or ``"en"`` from an ``Accept-Language`` value (English if neither); for
    answers sent before routing too, which have only the raw headers."""
    header = header[:LANGUAGE_BYTES]
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
    """The engine's rejection as problem members, the reason in the client's language (an
    error that is no rejection: its whole message, which the engine words in both)."""
    if error.rule is None:
        reason = error.detail(lang)
    else:
        reason = error.reason_de if lang == "de" and error.reason_de else error.reason
    return {
        "code": error.code,
        "rule": error.rule,
        "params": error.params,
        "reason": reason,
    }


# The English title of every code of the engine's errors (``Error::code`` in core); the
# German ones are the catalogue's. A rejection by the rules has its own title.
TITLES = {
    "unknown_game": "Unknown game",
    "invalid_option": "Invalid option",
    "invalid_state": "Invalid state",
    "invalid_view": "Invalid view",
    "invalid_move": "Invalid move",
    "invalid_card": "Invalid card",
    "invalid_argument": "Invalid argument",
    "unknown_bot": "Unknown bot",
    "invalid_bot_params": "Invalid bot parameters",
}

# Every code the API answers with: its German title and a German detail for when the raise
# site gives none (the English detail's values are then left out). A code missing here is
# a test failure (tests/api/test_languages.py lists every code).
GERMAN: dict[str, tuple[str, str]] = {
    # The engine (422; unknown_game 404).
    "unknown_game": ("Unbekanntes Spiel", "Dieses Spiel gibt es hier nicht"),
    "invalid_option": ("Ungültige Option", "Eine Option des Spiels ist unbekannt oder ihr Wert unzulässig"),
    "invalid_state": ("Ungültige Stellung", "Die Stellung ist nicht lesbar oder in sich nicht stimmig"),
    "invalid_view": ("Ungültige Sicht", "Diese Sicht kann keine Stellung haben"),
    "invalid_move": ("Ungültiger Zug", "Der Zug ist nicht lesbar"),
    "invalid_card": ("Ungültige Karte", "Diese Karte gibt es in diesem Spiel nicht"),
    "invalid_argument": ("Ungültige Angabe", "Eine Angabe ist ungültig"),
    "unknown_bot": ("Unbekannter Bot", "Diesen Bot gibt es nicht"),
    "invalid_bot_params": ("Ungültige Bot-Einstellung", "Eine Einstellung des Bots ist unzulässig"),
    "illegal": ("Zug gegen die Regeln", "Die Regeln erlauben diesen Zug nicht"),
    # Requests (400, 404, 405, 408, 413, 415, 431).
    "invalid_body": ("Ungültige Anfrage", "Der Rumpf der Anfrage passt nicht zu seinem Schema"),
    "invalid_parameter": ("Ungültige Anfrage", "Ein Parameter passt nicht zu seinem Schema"),
    "not_found": ("Nicht gefunden", "Diese Adresse gibt es nicht"),
    "method_not_allowed": ("Methode nicht erlaubt", "Diese Methode ist hier nicht erlaubt"),
    "request_timeout": ("Zeitüberschreitung", "Kopfzeilen oder Rumpf der Anfrage kamen nicht rechtzeitig an"),
    "body_too_large": ("Anfrage zu groß", "Der Rumpf der Anfrage ist zu groß"),
    "unsupported_media_type": ("Falscher Medientyp", "Der Rumpf muss JSON sein"),
    "headers_too_large": ("Kopfzeilen zu groß", "Anfragezeile und Kopfzeilen sind zu groß"),
    "moved": (
        "Dauerhaft verschoben",
        "Spiele werden mit Unterstrichen geschrieben, wie GET /v1/games sie nennt",
    ),
    "engine_panic": (
        "Interner Fehler",
        "Die Engine ist an dieser Eingabe gescheitert, statt sie abzulehnen; der Fehler wurde protokolliert",
    ),
    # Seats (401, 403).
    "token_required": (
        "Token nötig",
        "Dafür braucht es das Token eines Platzes: 'Authorization: Bearer <Token>'",
    ),
    "wrong_token": ("Falsches Token", "Dieses Token öffnet keinen Platz dieser Partie"),
    "cross_site": ("Fremde Seite", "Ein Zug mit dem Platz-Cookie muss von den Seiten dieser Website kommen"),
    # Matches (404, 409, 422).
    "unknown_match": ("Unbekannte Partie", "Eine Partie mit dieser Kennung gibt es nicht"),
    "unknown_message": ("Unbekannte Nachricht", "Diese Nachricht gibt es in dieser Partie nicht"),
    "stale_version": (
        "Veraltete Version",
        "Die Partie ist inzwischen weiter; hole sie neu und versuche es noch einmal",
    ),
    "match_over": ("Partie vorbei", "Die Partie ist vorbei; es gibt keine Züge mehr"),
    "match_running": (
        "Partie läuft noch",
        "Die Wiederholung zeigt jede verdeckte Karte: sie öffnet erst nach dem Ende",
    ),
    "seat_taken": ("Platz vergeben", "Dieser Platz ist schon vergeben"),
    "seat_not_open": ("Platz nicht offen", "Dieser Platz ist nicht offen; er braucht sein Token"),
    "wrong_seat_count": (
        "Falsche Zahl der Plätze",
        "Die Zahl der Plätze passt nicht zum Spiel mit diesen Optionen",
    ),
    "invalid_rules": ("Ungültige Partieregeln", "Eine Regel der Partie passt nicht zu diesem Spiel"),
    # Players and sessions.
    "name_taken": ("Name vergeben", "Diesen Namen hat schon ein Spieler; wähle einen anderen"),
    "invalid_name": (
        "Ungültiger Name",
        "Ein Name hat 2 bis 24 Buchstaben, Ziffern, Leerzeichen, '-', '_' oder '.'",
    ),
    "invalid_password": ("Ungültiges Passwort", "Ein Passwort hat 8 bis 128 Zeichen"),
    "wrong_login": ("Anmeldung fehlgeschlagen", "Kein Spieler hat diesen Namen und dieses Passwort"),
    "too_many_logins": (
        "Zu viele Anmeldungen",
        "Zu viele Anmeldeversuche; Retry-After sagt, wann es wieder geht",
    ),
    "unknown_player": ("Unbekannter Spieler", "Keinen Spieler gibt es unter diesem Namen"),
    "unknown_pool": ("Unbekannte Wertung", "Die Wertungen heißen people und bots"),
    "two_seats_mine": ("Zwei eigene Plätze", "Nur ein Platz einer Partie kann deiner sein ('me')"),
    "too_many_searches": (
        "Zu viele Suchen",
        "Dieser Client hat schon die höchste Zahl an Bot-Suchen wartend oder laufend",
    ),
    "too_many_open_matches": (
        "Zu viele offene Partien",
        "Dieser Client hat schon die höchste Zahl an Partien in der Lobby warten",
    ),
    "seed_with_open_seats": (
        "Austeilen durch den Server",
        "Eine Partie mit offenen Plätzen teilt der Server aus; 'seed' entfällt",
    ),
    "unseen_text": (
        "Unsichtbare Zeichen",
        "Die Nachricht hält Steuer- oder Richtungszeichen oder nichts Sichtbares",
    ),
    "chat_too_fast": ("Zu schnell", "Dieser Platz schreibt zu schnell; warte einen Moment"),
    "chat_full": (
        "Tischgespräch voll",
        "Diese Partie hat die höchste Zahl gespeicherter Nachrichten erreicht",
    ),
    "waiting_for_players": (
        "Warten auf Mitspieler",
        "Die Partie beginnt, sobald jeder Platz für Personen vergeben ist",
    ),
    "names_number": ("Zahl im Tischgespräch", "T7: Im Tischgespräch werden keine Zahlen genannt"),
    # Load (429, 503) and faults (500).
    "too_many_requests": ("Zu viele Anfragen", "Zu viele Anfragen; Retry-After sagt, wann es wieder geht"),
    "too_many_bot_matches": (
        "Zu viele Bot-Partien",
        "Zu viele Partien nur zwischen Such-Bots; Retry-After sagt, wann es wieder geht",
    ),
    "search_busy": (
        "Suche ausgelastet",
        "Jeder Suchplatz dieses Servers ist belegt; versuche es gleich noch einmal",
    ),
    "too_many_streams": (
        "Zu viele Ereignisströme",
        "Dieser Server hält so viele Ereignisströme, wie er darf; versuche es später",
    ),
    "internal": (
        "Interner Serverfehler",
        "Der Server konnte nicht antworten; der Fehler wurde protokolliert",
    ),
}

# German titles by status, for codes the catalogue does not name (http_<status>).
STATUS_DE = {
    400: "Ungültige Anfrage",
    401: "Nicht angemeldet",
    403: "Verboten",
    404: "Nicht gefunden",
    405: "Methode nicht erlaubt",
    408: "Zeitüberschreitung",
    409: "Konflikt",
    413: "Anfrage zu groß",
    415: "Falscher Medientyp",
    422: "Nicht verarbeitbar",
    429: "Zu viele Anfragen",
    431: "Kopfzeilen zu groß",
    500: "Interner Serverfehler",
    503: "Dienst nicht verfügbar",
}


def german(code: str, status: int) -> tuple[str, str]:
    """The German title and detail of ``code`` (by its status where the catalogue has none)."""
    if code in GERMAN:
        return GERMAN[code]
    title = STATUS_DE.get(status, "Fehler")
    return title, title


def titled(body: dict[str, Any], status: int, lang: str, de: str | None = None) -> dict[str, Any]:
    """``body`` with its title and detail in ``lang``: German from the catalogue (the raise
    site's own German detail ``de`` first), English as the body has them."""
    if lang == "de":
        title, detail = german(str(body.get("code", "")), status)
        body["title"] = title
        body["detail"] = de or detail
    return body


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
        title = "Zug gegen die Regeln" if lang == "de" else "Move against the rules"
        detail = f"{error.rule}: {fields['reason']}" if error.rule else fields["reason"]
    else:
        # The engine words its message in both languages.
        english = TITLES.get(error.code, "Refused by the engine")
        title = german(error.code, engine_status(error))[0] if lang == "de" else english
        detail = error.detail(lang)
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
            # One title per code, whoever raised it: the engine's where the code is its own.
            "title": TITLES.get(error.code, _phrase(status)),
            "detail": error.detail,
            "code": error.code,
            "rule": error.rule,
            "version": error.version,
        }
        # A rejection the engine worded (it has a rule) is in the request's language already.
        de = error.de or (error.detail if error.rule else None)
        return problem_response(status, titled(body, status, language(request), de), error.headers)
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
            return problem_response(status, titled(body, status, language(request)), error.headers)
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
    return problem_response(status, titled(body, status, language(request)), error.headers)


def on_too_deep(request: Request[Any, Any, Any], error: RecursionError) -> Response[Any]:
    # msgspec guards its recursion: JSON nested thousands deep ends here, not in a crash.
    body = {
        "type": TYPE_PREFIX + "invalid_body",
        "title": "Bad Request",
        "detail": "invalid request body: nested too deeply (moves, options and views are a few levels deep)",
        "code": "invalid_body",
    }
    de = (
        "Ungültiger Rumpf der Anfrage: zu tief verschachtelt"
        " (Züge, Optionen und Sichten sind wenige Ebenen tief)"
    )
    return problem_response(400, titled(body, 400, language(request), de))


def on_unexpected(request: Request[Any, Any, Any], error: Exception) -> Response[Any]:
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    body = {
        "type": TYPE_PREFIX + "internal",
        "title": "Internal Server Error",
        "detail": "the server failed to answer; the error was logged",
        "code": "internal",
    }
    return problem_response(
        HTTP_500_INTERNAL_SERVER_ERROR, titled(body, HTTP_500_INTERNAL_SERVER_ERROR, language(request))
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
    "german",
    "language",
    "problem_responses",
]
