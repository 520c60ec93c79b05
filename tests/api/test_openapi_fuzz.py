"""schemathesis against the app's own OpenAPI schema: no 5xx, and every answer as documented.

Every operation of ``/schema/openapi.json`` gets generated requests (valid ones and ones that
break the schema), sent in process to the ASGI app on a fresh SQLite database. Each answer
must not be a 5xx, must have a status code the schema lists for the operation, and its body
must match that status code's schema (problem details included).

Also, a request the document calls valid is accepted (ST202: the document says what the server
refuses, up to the exceptions ``schemathesis.toml`` names), and ``OPTIONS`` lists the methods
the document has for the path (ST205).

Derandomized with a fixed number of examples per operation, so a run is repeatable and short.
"""

from __future__ import annotations

import random
import re
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import spielwerk
from hypothesis import HealthCheck, settings
from requests.structures import CaseInsensitiveDict
from schemathesis.config import SchemathesisConfig
from schemathesis.python.asgi import get_client, shutdown_lifespans
from spielwerk_api import Settings, create_app

# Per operation; about 30 operations, so a run stays well under two minutes.
MAX_EXAMPLES = 40

CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
    schemathesis.checks.positive_data_acceptance,
    schemathesis.checks.allow_header_conformance,
]


# Built at import, because schemathesis makes one test per operation when the module is
# collected (its lazy fixture loader does not work with pytest 9). Building the app touches no
# database: the lifespan runs on the first request, and the fixture below ends it. The folder
# is only named here and made by the fixture, so a run that skips these tests leaves nothing.
FOLDER = Path(tempfile.gettempdir()) / f"spielwerk-fuzz-{uuid.uuid4().hex}"
# The sweeper's own loop sleeps for an hour: nothing but the generated requests runs.
APP = create_app(Settings(database_url=f"sqlite:///{FOLDER / 'spielwerk.db'}", sweep_interval_s=3600))
# The document the app serves at /schema/openapi.json (test_rules_api checks it is served).
# The expected refusals the document cannot say (the engine's own JSON), for the CLI as well.
CONFIG = SchemathesisConfig.from_path(Path(__file__).parents[2] / "schemathesis.toml")
schema = schemathesis.openapi.from_dict(APP.openapi_schema.to_schema(), config=CONFIG)
schema.app = APP


@pytest.fixture(scope="module", autouse=True)
def fresh_database() -> Iterator[None]:
    FOLDER.mkdir()
    yield
    # schemathesis started the app's lifespan on its first request and keeps it running.
    shutdown_lifespans()
    shutil.rmtree(FOLDER, ignore_errors=True)


# Repeatable: the same examples every run, none kept between runs, no time limit per example.
SETTINGS: dict[str, Any] = {
    "derandomize": True,
    "deadline": None,
    "database": None,
    "suppress_health_check": list(HealthCheck),
}


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, **SETTINGS)
def test_every_operation_answers_as_documented(case: schemathesis.Case[Any]) -> None:
    case.call_and_validate(checks=CHECKS)


# Random ids and states are refused at the door (404, 422 invalid_state): the routes behind it
# get the same generated requests once more, on a real match with a real seat's token and on
# a real mid-game state, so the engine's own checks meet the generated moves.
# Each gets the document cut to its paths: `schema.include` cannot narrow a schema that the
# configuration's `[[operations]]` entries already filter (it would add to their filter).
def routes(pattern: str) -> schemathesis.schemas.BaseSchema:
    doc = APP.openapi_schema.to_schema()
    doc["paths"] = {path: item for path, item in doc["paths"].items() if re.search(pattern, path)}
    narrowed = schemathesis.openapi.from_dict(doc, config=CONFIG)
    narrowed.app = APP
    return narrowed


match_routes = routes(r"^/v1/matches/\{id\}")
state_routes = routes(r"^/v1/games/\{game\}/(check|apply|moves)$")


def real_position() -> str:
    """Schotten Totten 20 random plies in: cards on the stones, hands, a pile."""
    state = spielwerk.load_game("schotten_totten").new_initial_state(3)
    rng = random.Random(3)
    for _ in range(20):
        state.apply_action(rng.choice(state.legal_actions()))
    return state.serialize()


POSITION = real_position()


@pytest.fixture(scope="module")
def real_seat() -> tuple[str, str]:
    """A running two-person match on the fuzzed app: its id and the first seat's token."""
    body: dict[str, Any] = {"game": "schotten_totten", "seed": 3, "seats": [{"kind": "person"}] * 2}
    with get_client(APP) as client:  # type: ignore[arg-type]  # schemathesis types ASGI apps narrowly
        created = client.post("/v1/matches", json=body).json()
    return created["id"], created["seats"][0]["token"]


@match_routes.parametrize()
@settings(max_examples=MAX_EXAMPLES // 2, **SETTINGS)
def test_match_operations_on_a_real_match(case: schemathesis.Case[Any], real_seat: tuple[str, str]) -> None:
    match_id, token = real_seat
    case.path_parameters["id"] = match_id
    if case.headers is None:
        case.headers = CaseInsensitiveDict()
    case.headers["Authorization"] = f"Bearer {token}"
    # The event stream of a running match never ends: keep what arrives in the first second.
    case.call_and_validate(checks=CHECKS, timeout=1.0)


@state_routes.parametrize()
@settings(max_examples=MAX_EXAMPLES // 2, **SETTINGS)
def test_rule_checks_on_a_real_position(case: schemathesis.Case[Any]) -> None:
    case.path_parameters["game"] = "schotten_totten"
    if isinstance(case.body, dict):
        case.body["state"] = POSITION
        case.body.pop("options", None)
    case.call_and_validate(checks=CHECKS)


def test_every_operation_documents_its_problems() -> None:
    """What the fuzzing relies on: every route is in the document, with its problem details.

    A route left out of the schema would not be fuzzed at all, and an error status documented
    as Litestar's default body would let a wrong problem body through unnoticed.
    """
    doc = APP.openapi_schema.to_schema()
    served = {
        (method.lower(), re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path))
        for route in APP.routes
        for handler in getattr(route, "route_handlers", [])
        if handler.resolve_include_in_schema()  # as the document does: the page's static files are not in it
        for method in handler.http_methods
        if method not in ("HEAD", "OPTIONS") and not route.path.startswith("/schema")
    }
    documented = {(method, path) for path, item in doc["paths"].items() for method in item}
    assert served == documented
    problem = {"$ref": "#/components/schemas/ProblemDetails"}
    for method, path in sorted(documented):
        responses = doc["paths"][path][method]["responses"]
        errors = {status: r for status, r in responses.items() if status.startswith("4")}
        operation = doc["paths"][path][method]
        if operation.get("parameters") or "requestBody" in operation:
            assert "400" in errors, (method, path)
        # A body over the limit is refused before it is read: 413 wherever a body is read.
        assert ("413" in errors) == ("requestBody" in operation), (method, path)
        for status, r in errors.items():
            assert r["content"] == {"application/problem+json": {"schema": problem}}, (method, path, status)
    # The event stream is documented as one, not as JSON (schemathesis found it on a real match).
    events = doc["paths"]["/v1/matches/{id}/events"]["get"]["responses"]["200"]
    assert list(events["content"]) == ["text/event-stream"]
    required = set(doc["components"]["schemas"]["ProblemDetails"]["required"])
    assert required == {"type", "title", "status", "detail", "code"}
