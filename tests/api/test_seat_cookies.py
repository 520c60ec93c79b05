"""Seat access a browser can use (issue 23 §1.1): invitation links set an HttpOnly,
SameSite=Strict cookie scoped to the match; Bearer keeps working; cookie writes from other
sites are refused; CORS stays off unless configured."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api import Settings, create_app
from spielwerk_api.clock import ManualClock

from .conftest import bearer
from .test_matches_api import problem
from .test_streams import sse

ORIGIN = "http://testserver.local"


def created(client: TestClient[Litestar], game: str = "the_game") -> dict[str, Any]:
    r = client.post("/v1/matches", json={"game": game, "seed": 5, "seats": [{"kind": "person"}] * 2})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def cookie_of(r: httpx.Response) -> str:
    header = r.headers["set-cookie"]
    return header.split(";", 1)[0].split("=", 1)[1]


def test_the_invitation_link_sets_a_strict_http_only_cookie_of_the_match(
    client: TestClient[Litestar],
) -> None:
    out = created(client)
    seat = out["seats"][1]
    assert seat["invitation"] == f"/v1/matches/{out['id']}/seats/1/join?token={seat['token']}"
    r = client.get(seat["invitation"], follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/#/match/{out['id']}"
    assert r.headers["referrer-policy"] == "no-referrer" and r.headers["cache-control"] == "no-store"
    attributes = {a.strip().split("=")[0].lower(): a for a in r.headers["set-cookie"].split(";")}
    assert attributes["path"].strip() == f"Path=/v1/matches/{out['id']}"
    assert "httponly" in attributes and attributes["samesite"].strip().lower() == "samesite=strict"
    assert cookie_of(r) == seat["token"]
    client.cookies.clear()
    # The cookie names the seat for reads and writes (same site: no Origin, or its own).
    jar = {"Cookie": f"spielwerk_seat={seat['token']}"}
    assert client.get(f"/v1/matches/{out['id']}", headers=jar).json()["seat"] == 1
    assert client.get(f"/v1/matches/{out['id']}/moves", headers=jar).json()["moves"] == []
    said = client.post(
        f"/v1/matches/{out['id']}/chat",
        headers={**jar, "Origin": ORIGIN, "Sec-Fetch-Site": "same-origin"},
        json={"text": "ich spiele links"},
    )
    assert said.status_code == 201, said.text
    assert said.json()["seat"] == 1
    # Bearer keeps working for programs, from anywhere.
    mine = bearer(out["seats"][0]["token"])
    moves = client.get(f"/v1/matches/{out['id']}/moves", headers=mine).json()["moves"]
    r = client.post(
        f"/v1/matches/{out['id']}/moves",
        headers={**mine, "Origin": "https://elsewhere.example"},
        json={"version": 0, "move": moves[0]["move"]},
    )
    assert r.status_code == 200, r.text


def test_joining_by_post_and_wrong_tokens(client: TestClient[Litestar]) -> None:
    out = created(client)
    token = out["seats"][0]["token"]
    r = client.post(f"/v1/matches/{out['id']}/seats/0/join", json={"token": token})
    assert r.status_code == 200 and r.json() == {"id": out["id"], "seat": 0, "token": None}
    assert cookie_of(r) == token
    client.cookies.clear()
    problem(client.post(f"/v1/matches/{out['id']}/seats/1/join", json={"token": token}), 403, "wrong_token")
    problem(
        client.post(f"/v1/matches/{out['id']}/seats/0/join", json={"token": "nichts"}), 403, "wrong_token"
    )
    problem(
        client.get(f"/v1/matches/{out['id']}/seats/1/join?token={token}", follow_redirects=False),
        403,
        "wrong_token",
    )
    problem(
        client.post(
            f"/v1/matches/{out['id']}/seats/0/join",
            json={"token": token},
            headers={"Sec-Fetch-Site": "cross-site"},
        ),
        403,
        "cross_site",
    )


def test_a_cookie_opens_no_other_match(client: TestClient[Litestar]) -> None:
    first, second = created(client), created(client)
    jar = {"Cookie": f"spielwerk_seat={first['seats'][0]['token']}"}
    # A browser sends it only below the match's path; sent anyway, it opens nothing there.
    problem(client.get(f"/v1/matches/{second['id']}", headers=jar), 403, "wrong_token")
    problem(client.post(f"/v1/matches/{second['id']}/resign", headers=jar), 403, "wrong_token")
    assert client.get(f"/v1/matches/{second['id']}").json()["status"] == "running"


@pytest.mark.parametrize(
    "headers",
    [
        {"Origin": "https://evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Sec-Fetch-Site": "same-site"},
        {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"},
    ],
)
def test_a_cookie_write_from_another_site_is_refused(
    client: TestClient[Litestar], headers: dict[str, str]
) -> None:
    out = created(client)
    jar = {"Cookie": f"spielwerk_seat={out['seats'][0]['token']}", **headers}
    problem(client.post(f"/v1/matches/{out['id']}/resign", headers=jar), 403, "cross_site")
    problem(
        client.post(f"/v1/matches/{out['id']}/chat", headers=jar, json={"text": "hallo"}), 403, "cross_site"
    )
    assert client.get(f"/v1/matches/{out['id']}").json()["status"] == "running"  # nothing changed
    # The same write from the site's own page goes through.
    own = {"Cookie": jar["Cookie"], "Origin": ORIGIN, "Sec-Fetch-Site": "same-origin"}
    assert client.post(f"/v1/matches/{out['id']}/resign", headers=own).status_code == 200


def test_cors_stays_off_unless_configured(client: TestClient[Litestar], tmp_path: Path) -> None:
    asked = {"Origin": "https://page.example", "Access-Control-Request-Method": "POST"}
    r = client.options("/v1/matches", headers=asked)
    assert "access-control-allow-origin" not in r.headers
    assert "access-control-allow-origin" not in client.get("/v1/games", headers=asked).headers
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'cors.db'}",
        clock=ManualClock(),
        sweep_interval_s=3600,
        cors_origins=["https://page.example"],
    )
    with TestClient(create_app(settings)) as other:
        r = other.get("/v1/games", headers={"Origin": "https://page.example"})
        assert r.headers["access-control-allow-origin"] == "https://page.example"
        r = other.get("/v1/games", headers={"Origin": "https://evil.example"})
        assert r.headers.get("access-control-allow-origin") != "https://evil.example"
        # An allowed origin's page may write with the cookie.
        out = created(other)
        jar = {"Cookie": f"spielwerk_seat={out['seats'][0]['token']}", "Origin": "https://page.example"}
        assert other.post(f"/v1/matches/{out['id']}/resign", headers=jar).status_code == 200


def test_the_event_stream_takes_the_cookie(live: str) -> None:
    with httpx.Client(base_url=live, timeout=10) as http:
        out = created_http(http)
        token = out["seats"][1]["token"]
        joined = http.get(out["seats"][1]["invitation"], follow_redirects=False)
        assert joined.status_code == 303
        # httpx keeps the cookie with its path, like a browser.
        with http.stream("GET", f"/v1/matches/{out['id']}/events") as r:
            event, _, first = next(sse(r.iter_lines()))
            assert (event, first["seat"]) == ("version", 1)
        assert http.cookies.get("spielwerk_seat") == token


def created_http(http: httpx.Client) -> dict[str, Any]:
    r = http.post("/v1/matches", json={"game": "the_game", "seed": 5, "seats": [{"kind": "person"}] * 2})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out
