"""schemathesis against the app's own OpenAPI schema: no 5xx, and every answer as documented.

Every operation of ``/schema/openapi.json`` gets generated requests (valid ones and ones that
break the schema), sent in process to the ASGI app on a fresh SQLite database. Each answer
must not be a 5xx, must have a status code the schema lists for the operation, and its body
must match that status code's schema (problem details included).

Derandomized with a fixed number of examples per operation, so a run is repeatable and short.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.python.asgi import shutdown_lifespans
from spielwerk_api import Settings, create_app

# Per operation; about 30 operations, so a run stays well under two minutes.
MAX_EXAMPLES = 40

CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
]


# Built at import, because schemathesis makes one test per operation when the module is
# collected (its lazy fixture loader does not work with pytest 9). Building the app touches no
# database: the lifespan runs on the first request, and the fixture below ends it.
FOLDER = Path(tempfile.mkdtemp(prefix="spielwerk-fuzz-"))
# The sweeper's own loop sleeps for an hour: nothing but the generated requests runs.
APP = create_app(Settings(database_url=f"sqlite:///{FOLDER / 'spielwerk.db'}", sweep_interval_s=3600))
# The document the app serves at /schema/openapi.json (test_rules_api checks it is served).
schema = schemathesis.openapi.from_dict(APP.openapi_schema.to_schema())
schema.app = APP


@pytest.fixture(scope="module", autouse=True)
def fresh_database() -> Iterator[None]:
    yield
    # schemathesis started the app's lifespan on its first request and keeps it running.
    shutdown_lifespans()
    shutil.rmtree(FOLDER, ignore_errors=True)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_as_documented(case: schemathesis.Case[Any]) -> None:
    case.call_and_validate(checks=CHECKS)


def test_every_operation_documents_its_problems() -> None:
    """What the fuzzing relies on: every route is in the document, with its problem details.

    A route left out of the schema would not be fuzzed at all, and an error status documented
    as Litestar's default body would let a wrong problem body through unnoticed.
    """
    doc = APP.openapi_schema.to_schema()
    served = {
        (method.lower(), route.path.replace("{game:str}", "{game}").replace("{id:str}", "{id}"))
        for route in APP.routes
        for handler in getattr(route, "route_handlers", [])
        if handler.include_in_schema
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
    required = set(doc["components"]["schemas"]["ProblemDetails"]["required"])
    assert required == {"type", "title", "status", "detail", "code"}
