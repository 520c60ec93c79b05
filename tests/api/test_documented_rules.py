"""The document's patterns against the server's own checks, and a key named twice (issue 34).

The OpenAPI document says what a name, a password and a seed in digits may be; the server
checks them in Python. A name or seed the document calls valid must be accepted, and what the
document refuses must be refused, so a client that validates against the document and the
server agree (schemathesis finds the same from outside, slowly: these are the fast, exhaustive
counterparts).
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api.matches.players import checked_name, name_key
from spielwerk_api.problems import Problem
from spielwerk_api.schemas import NAME_MAX, NAME_MIN, NAME_RULE, SEED_MAX, digits_at_most

NAME_PATTERN = re.compile(NAME_RULE["pattern"])


def documented_name(name: str) -> bool:
    return NAME_MIN <= len(name) <= NAME_MAX and NAME_PATTERN.search(name) is not None


def reads_as_a_bot(name: str) -> bool:
    """A name in letters that only look like "Bot" (full width, mathematical bold): the server
    compares names in their compatibility form (NFKC), which no pattern can say, so these are
    the one kind of name the document allows and the server refuses."""
    return re.match(r"bot(?:$|[ _-])", name_key(name)) is not None


def accepted_name(name: str) -> bool:
    try:
        checked_name(name)
    except Problem:
        return False
    return True


@given(st.from_regex(NAME_PATTERN, fullmatch=True).filter(lambda n: NAME_MIN <= len(n) <= NAME_MAX))
@example("Anna")
@example("Jo")
@example("Åsa-Marie K.")
@example("Botanik")  # begins with "bot", but no bot's name
@example("李小龙")
@example("\uff22\uff4f\uff54 Anna")  # full-width "Bot"
@example("\U0001d401\U0001d428\U0001d42d")
def test_a_name_the_document_allows_is_accepted(name: str) -> None:
    assert accepted_name(name) or reads_as_a_bot(name), name


# Names near the edges of the rule: a character set that makes every branch likely.
EDGY = st.text(alphabet=st.sampled_from("aAbBoOtT1_-. é李\u200b\u0301"), min_size=0, max_size=26)


@given(EDGY)
@example("Bot")
@example("bot_3")
@example("BOT-x")
@example("a  b")
@example(" anna")
@example("anna ")
@example("_anna")
@example("a" * 25)
@example("a")
def test_a_name_the_server_accepts_as_sent_is_one_the_document_allows(name: str) -> None:
    # The server trims and composes (NFC) before it checks; a name sent as the server keeps
    # it is the one the document describes.
    if accepted_name(name) and checked_name(name) == name:
        assert documented_name(name), name
    if documented_name(name):
        assert accepted_name(name) or reads_as_a_bot(name), name


@pytest.mark.parametrize("limit", [9, 10, 99, 100, 255, 1000, 2**53 - 1, 2**63 - 1, SEED_MAX])
def test_digits_at_most_is_the_integer_bound(limit: int) -> None:
    pattern = re.compile(digits_at_most(limit))
    top = str(limit)
    near = {0, 1, limit - 1, limit, limit + 1, limit * 10, int(top[0] + "9" * (len(top) - 1))}
    for number in near:
        assert (pattern.fullmatch(str(number)) is not None) == (number <= limit), (limit, number)
    # Leading zeros up to the limit's length read as the number they are.
    assert pattern.fullmatch("0" * (len(top) - 1) + "1")
    assert not pattern.fullmatch("")
    assert not pattern.fullmatch("-1")


@given(st.integers(min_value=0, max_value=2**70))
def test_digits_at_most_agrees_with_int_for_any_number(number: int) -> None:
    assert (re.fullmatch(digits_at_most(SEED_MAX), str(number)) is not None) == (number <= SEED_MAX)


# -- a key twice in one object -------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "body", "key"),
    [
        ("/v1/games/schotten_totten/new", b'{"seed": 1, "seed": 2}', "seed"),
        (
            "/v1/matches",
            b'{"game": "schotten_totten", "seats": [{"kind": "person", "kind": "bot"}, {"kind": "person"}]}',
            "kind",
        ),
        (
            "/v1/schotten_totten/claim-check",
            b'{"mine": ["R1","R2","R3"], "theirs": [], "theirs": ["B1"]}',
            "theirs",
        ),
    ],
)
def test_a_key_named_twice_is_refused_not_guessed(
    client: TestClient[Litestar], path: str, body: bytes, key: str
) -> None:
    """msgspec keeps the last of two equal keys; other parsers keep the first, so the body
    means different things to different readers: refused, in the person's language."""
    headers = {"Content-Type": "application/json"}
    r = client.post(path, content=body, headers=headers)
    assert r.status_code == 400, r.text
    assert r.json()["code"] == "invalid_body" and f'"{key}" appears twice' in r.json()["detail"]
    german = client.post(path, content=body, headers={**headers, "Accept-Language": "de"})
    assert f'Schlüssel "{key}" steht zweimal' in german.json()["detail"]
    # The same body with the key once is read as before.
    once = (
        body.replace(b'"seed": 1, ', b"")
        .replace(b'"kind": "person", "kind"', b'"kind"')
        .replace(b'"theirs": [], ', b"")
    )
    assert client.post(path, content=once, headers=headers).status_code < 400


def test_equal_keys_in_different_objects_are_no_repeat(client: TestClient[Litestar]) -> None:
    body = {"game": "schotten_totten", "seed": 3, "seats": [{"kind": "person"}, {"kind": "person"}]}
    assert (
        client.post(
            "/v1/matches", content=json.dumps(body), headers={"Content-Type": "application/json"}
        ).status_code
        == 201
    )
