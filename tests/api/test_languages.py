"""German first, English on request (issue 23 §1.4): problem titles and details for every
code the API answers with, and the engine's move texts, last move and result line, chosen
per request by Accept-Language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import spielwerk
from litestar import Litestar
from litestar.testing import TestClient
from spielwerk_api import Settings, create_app
from spielwerk_api.problems import GERMAN, TITLES

from .conftest import bearer, new_match
from .test_faults import forged_the_game_view

Client = TestClient[Litestar]
API = Path(__file__).resolve().parents[2] / "api" / "spielwerk_api"
DE = {"Accept-Language": "de"}
JSON = {"content-type": "application/json"}
EN = {"Accept-Language": "en"}


def problem(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = r.json()
    assert body["code"] == code, body
    return body


def test_the_catalogue_names_every_code_the_api_raises() -> None:
    # Every Problem(status, "code", …) in the API's source, and the codes its handlers set.
    source = "\n".join(p.read_text() for p in API.rglob("*.py"))
    raised = set(re.findall(r'Problem\(\s*\d{3},\s*"([a-z_]+)"', source))
    raised |= set(re.findall(r'code="([a-z_]+)"', source))
    raised |= set(re.findall(r'"code": "([a-z_]+)"', source))
    assert raised, "the pattern finds the raise sites"
    missing = sorted((raised | ENGINE_CODES | set(TITLES)) - set(GERMAN))
    assert not missing, f"codes without a German title and detail: {missing}"
    for code, (title, detail) in GERMAN.items():
        assert title.strip() and detail.strip(), code
    # The engine's codes have English titles of their own (the API's are HTTP's phrases).
    assert set(TITLES) == ENGINE_CODES
    assert all(TITLES[code] != GERMAN[code][0] for code in ENGINE_CODES)


# Every code of the engine's errors that reaches Python (Error::code in core; a rejection by
# the rules has its own codes and title).
ENGINE_CODES = {"unknown_game", "invalid_option", "invalid_state", "invalid_view", "invalid_move"}
ENGINE_CODES |= {"invalid_card", "invalid_argument", "unknown_bot", "invalid_bot_params"}

# Words of English details that no German one has (whole words, outside quotes).
ENGLISH = re.compile(
    r"\b(the|is|are|but|not|must|does|exist|and|or|of|with|has|holds|cards?|players?|seats?"
    r"|expected|missing|unknown|field|invalid|request|body|match|move|state|view)\b",
    re.IGNORECASE,
)


def german_only(text: str) -> bool:
    """No English word outside what the text quotes ('x', "x", `x`, JSON) and names."""
    plain = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`|\{.*\}|The Game|Bearer <Token>", " ", text)
    return ENGLISH.search(plain) is None


def requests_for_every_code(client: Client) -> list[tuple[str, int, Any]]:
    """(code, status, a function that provokes it with given headers) for the codes a test
    client reaches."""
    match_id, tokens = new_match(client, "schotten_totten", ["p", "p"])
    over_id, over_tokens = new_match(client, "schotten_totten", ["p", "p"])
    talk_id, talk_tokens = new_match(client, "the_game", ["p", "p"])
    talk0 = bearer(talk_tokens[0])
    waiting = client.post(
        "/v1/matches",
        json={"game": "schotten_totten", "seats": [{"kind": "person"}, {"kind": "person", "open": True}]},
    ).json()
    waiting_id, waiting_token = waiting["id"], waiting["seats"][0]["token"]
    client.cookies.clear()  # (creating sets seat cookies; the cases send their own)
    view0 = spielwerk.load_game("schotten_totten").new_initial_state(1).view(0)
    assert client.post(f"/v1/matches/{over_id}/resign", headers=bearer(over_tokens[0])).status_code == 200
    play = f"/v1/matches/{match_id}/moves"
    t0 = bearer(tokens[0])
    cases: list[tuple[str, int, Any]] = [
        ("unknown_game", 404, lambda h: client.get("/v1/games/go", headers=h)),
        (
            "invalid_option",
            422,
            lambda h: client.post(
                "/v1/games/caravan/new", json={"seed": 1, "options": {"nope": 1}}, headers=h
            ),
        ),
        ("invalid_body", 400, lambda h: client.post("/v1/matches", json=5, headers=h)),
        ("not_found", 404, lambda h: client.get("/nowhere", headers=h)),
        ("method_not_allowed", 405, lambda h: client.delete("/v1/games", headers=h)),
        ("token_required", 401, lambda h: client.get(f"{play}", headers=h)),
        ("wrong_token", 403, lambda h: client.get(play, headers={**h, **bearer("x" * 32)})),
        ("unknown_match", 404, lambda h: client.get("/v1/matches/nonexistent", headers=h)),
        (
            "stale_version",
            409,
            lambda h: client.post(play, json={"version": 99, "move": {"type": "pass"}}, headers={**h, **t0}),
        ),
        (
            "match_over",
            409,
            lambda h: client.post(
                f"/v1/matches/{over_id}/moves",
                json={"version": 1, "move": {"type": "pass"}},
                headers={**h, **bearer(over_tokens[1])},
            ),
        ),
        ("match_running", 409, lambda h: client.get(f"/v1/matches/{match_id}/replay", headers=h)),
        (
            "invalid_move",
            422,
            lambda h: client.post(
                play, json={"version": 0, "move": {"type": "nonsense"}}, headers={**h, **t0}
            ),
        ),
        (
            "unknown_player",
            404,
            lambda h: client.get("/v1/players/Niemand", headers=h),
        ),
        (
            "invalid_name",
            422,
            lambda h: client.post("/v1/players", json={"name": "x", "password": "geheim-123"}, headers=h),
        ),
        # The engine's errors, each with its message from the engine in both languages.
        (
            "invalid_state",
            422,
            lambda h: client.post("/v1/games/schotten_totten/moves", json={"state": "{}"}, headers=h),
        ),
        (
            "invalid_view",
            422,
            lambda h: client.post(
                "/v1/bots/the_game/random/move", json={"view": forged_the_game_view()}, headers=h
            ),
        ),
        (
            "invalid_card",
            422,
            lambda h: client.post(
                "/v1/schotten_totten/claim-check", json={"mine": ["ZZ", "R1", "R2"], "theirs": []}, headers=h
            ),
        ),
        (
            "invalid_argument",
            422,
            lambda h: client.post(
                "/v1/schotten_totten/claim-check", json={"mine": ["R1", "R2"], "theirs": []}, headers=h
            ),
        ),
        (
            "unknown_bot",
            422,
            lambda h: client.post("/v1/bots/schotten_totten/nobody/move", json={"view": view0}, headers=h),
        ),
        (
            "invalid_bot_params",
            422,
            lambda h: client.post(
                "/v1/bots/schotten_totten/ismcts/move", json={"view": view0, "params": {"c": -1}}, headers=h
            ),
        ),
        # The API's own, each with its German detail.
        ("invalid_parameter", 400, lambda h: client.get("/v1/matches/" + "a" * 40, headers=h)),
        (
            "body_too_large",
            413,
            lambda h: client.post(
                "/v1/matches", content=b'{"x": "' + b"x" * 70_000 + b'"}', headers={**h, **JSON}
            ),
        ),
        (
            "unsupported_media_type",
            415,
            lambda h: client.post("/v1/matches", content=b"x", headers={**h, "content-type": "text/plain"}),
        ),
        ("headers_too_large", 431, lambda h: client.get("/v1/games", headers={**h, "x-pad": "x" * 20_000})),
        ("moved", 308, lambda h: client.get("/v1/games/schotten-totten", headers=h, follow_redirects=False)),
        (
            "wrong_seat_count",
            422,
            lambda h: client.post(
                "/v1/matches", json={"game": "schotten_totten", "seats": [{"kind": "person"}]}, headers=h
            ),
        ),
        (
            "invalid_rules",
            422,
            lambda h: client.post(
                "/v1/matches",
                json={
                    "game": "schotten_totten",
                    "seats": [{"kind": "person"}] * 2,
                    "rules": {"playing_time_s": 60},
                },
                headers=h,
            ),
        ),
        (
            "seat_not_open",
            409,
            lambda h: client.post(f"/v1/matches/{match_id}/seats/1/join", json={}, headers=h),
        ),
        (
            "unknown_message",
            404,
            lambda h: client.get(f"/v1/matches/{talk_id}/chat/5", headers=h),
        ),
        (
            "names_number",
            422,
            lambda h: client.post(
                f"/v1/matches/{talk_id}/chat", json={"text": "ich habe die 7"}, headers={**h, **talk0}
            ),
        ),
        (
            "waiting_for_players",
            409,
            lambda h: client.post(
                f"/v1/matches/{waiting_id}/moves",
                json={"version": 0, "move": {"type": "pass"}},
                headers={**h, **bearer(waiting_token)},
            ),
        ),
    ]
    return cases


def test_every_problem_is_german_or_english_by_accept_language(client: Client) -> None:
    cases = requests_for_every_code(client)
    assert {code for code, _, _ in cases} >= ENGINE_CODES, "a case for every code of the engine"
    for code, status, provoke in cases:
        de = problem(provoke(DE), status, code)
        en = problem(provoke(EN), status, code)
        assert de["title"] == GERMAN[code][0], (code, de)
        assert de["title"] != en["title"] and de["detail"] != en["detail"], (code, de, en)
        assert de["type"] == en["type"] == f"urn:spielwerk:problem:{code}"
        # Every text a person reads is German under `de`: the detail and, from the engine,
        # its reason (the engine words both; before, its message was English inside German).
        assert german_only(de["detail"]), (code, de["detail"])
        assert "englisch" not in de["detail"], (code, de["detail"])
        if code in ENGINE_CODES:
            assert en["title"] == TITLES[code], (code, en)
            assert de["reason"] == de["detail"] and en["reason"] == en["detail"], (code, de, en)
        # No header is English, as before (programs that never asked keep their texts).
        assert problem(provoke({}), status, code)["title"] == en["title"]


def test_an_engine_error_carries_its_german_message_through_the_bindings() -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(1)
    with pytest.raises(spielwerk.SpielwerkError) as refused:
        state.check_move({"type": "play", "card": "ZZ", "stone": 0})
    error = refused.value
    assert error.code == "invalid_move" and str(error) == error.detail("en") == error.detail()
    assert error.message_de is not None and error.detail("de") == error.message_de
    assert error.message_de.startswith("ungültiger Zug: ") and "ungültige Karte 'ZZ'" in error.message_de
    assert german_only(error.message_de), error.message_de
    # A rejection by the rules: its German message is its rule and German reason.
    rejection = state.check_move({"type": "claim", "stone": 3})
    assert rejection is not None and rejection.detail("de") == f"{rejection.rule}: {rejection.reason_de}"
    # An error raised by hand has no German: English then.
    assert spielwerk.SpielwerkError("x").detail("de") == "x"


def test_a_move_against_the_rules_gives_the_engines_german_reason(client: Client) -> None:
    match_id, tokens = new_match(client, "the_game", ["p", "b"])
    view = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[0])).json()
    move = {"type": "end_turn"}  # T5: at least two cards first
    body = {"version": view["version"], "move": move}
    r_de = client.post(f"/v1/matches/{match_id}/moves", json=body, headers={**DE, **bearer(tokens[0])})
    r_en = client.post(f"/v1/matches/{match_id}/moves", json=body, headers={**EN, **bearer(tokens[0])})
    assert r_de.status_code == r_en.status_code == 422
    de, en = r_de.json(), r_en.json()
    assert de["code"] == en["code"] and de["rule"] == en["rule"]
    assert de["title"] == "Zug gegen die Regeln" and en["title"] == "Move against the rules"
    assert de["reason"] != en["reason"] and de["detail"] == f"{de['rule']}: {de['reason']}"
    # Table talk that names a number (T7): the German reason, the German title.
    said = client.post(
        f"/v1/matches/{match_id}/chat", json={"text": "ich habe die 7"}, headers={**DE, **bearer(tokens[0])}
    )
    talk = problem(said, 422, "names_number")
    assert talk["title"] == GERMAN["names_number"][0] and "T7" in talk["detail"]


def test_too_many_requests_is_german_too(database_url: str) -> None:
    app = create_app(Settings(database_url=database_url, client_rate_per_s=0.5, client_burst=2))
    with TestClient(app) as client:
        for _ in range(2):
            assert client.get("/v1/games").status_code == 200
        de = problem(client.get("/v1/games", headers=DE), 429, "too_many_requests")
        assert de["title"] == "Zu viele Anfragen" and "Anfragen je Sekunde" in de["detail"]


@pytest.mark.parametrize("game", ["schotten_totten", "caravan", "the_game", "dog"])
def test_moves_last_move_and_result_are_the_engines_in_the_language_asked(client: Client, game: str) -> None:
    n = spielwerk.load_game(game).num_players()
    match_id, tokens = new_match(client, game, ["p"] + ["b"] * (n - 1))
    me = bearer(tokens[0])
    out = client.get(f"/v1/matches/{match_id}", headers=me).json()
    moves = {
        lang: client.get(f"/v1/matches/{match_id}/moves", headers={**me, "Accept-Language": lang}).json()[
            "moves"
        ]
        for lang in ("de", "en")
    }
    assert [m["action"] for m in moves["de"]] == [m["action"] for m in moves["en"]]
    assert moves["de"] and all(d["text"] != e["text"] for d, e in zip(moves["de"], moves["en"], strict=True))
    first = moves["en"][0]
    played = client.post(
        f"/v1/matches/{match_id}/moves",
        json={"version": out["version"], "move": first["move"]},
        headers={**me, **DE},
    )
    assert played.status_code == 200, played.text
    # The last move (the bots may have moved after seat 0) in each language.
    texts = {
        lang: client.get(f"/v1/matches/{match_id}", headers={**me, "Accept-Language": lang}).json()[
            "last_move"
        ]
        for lang in ("de", "en")
    }
    resigned = client.post(f"/v1/matches/{match_id}/resign", headers={**me, **DE}).json()
    en = client.get(f"/v1/matches/{match_id}", headers={**me, **EN}).json()
    # The seats by their names (here none: seat 0 counted from 1, the bot by its name).
    assert resigned["result"]["text"].startswith("Spieler 1 hat aufgegeben: ")
    assert en["result"]["text"].startswith("player 1 resigned: ")
    assert "Bot random" in resigned["result"]["text"] or "die Spieler" in resigned["result"]["text"]
    assert resigned["last_move"] == resigned["result"]["text"] and en["last_move"] == en["result"]["text"]
    replay = {
        lang: client.get(f"/v1/matches/{match_id}/replay", headers={"Accept-Language": lang}).json()
        for lang in ("de", "en")
    }
    assert replay["de"]["result"]["text"] == resigned["result"]["text"]
    # The first ply of seat 0 is the move it played from the listed ones.
    if texts["en"] is not None:  # (None: a Dog pick hidden from seat 0, D4)
        assert texts["de"] != texts["en"]
        for lang in ("de", "en"):
            assert texts[lang] == replay[lang]["actions"][-2]["text"]
    mine = {
        lang: next(a for a in replay[lang]["actions"] if a["seat"] == 0 and a["kind"] == "move")
        for lang in replay
    }
    assert mine["de"]["text"] == moves["de"][0]["text"] and mine["en"]["text"] == first["text"]


def test_the_rule_checks_answer_in_the_language_asked(client: Client) -> None:
    state = spielwerk.load_game("schotten_totten").new_initial_state(4)
    body = {"state": state.serialize(), "options": {}}
    de = client.post("/v1/games/schotten_totten/moves", json=body, headers=DE).json()["moves"]
    en = client.post("/v1/games/schotten_totten/moves", json=body, headers=EN).json()["moves"]
    assert [m["text"] for m in de] == [state.action_to_string(m["action"], "de") for m in de]
    assert [m["text"] for m in en] == [state.action_to_string(m["action"]) for m in en]


def test_the_codes_of_limits_and_faults_are_german_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The codes a test client reaches only under tight limits or a fault: German title and
    detail under ``de``, English ones otherwise (engine_panic, 408 and 431 before routing:
    tests/api/test_review.py and test_abuse.py)."""
    from spielwerk_api import rules
    from spielwerk_api.clock import ManualClock
    from spielwerk_api.matches import Limits

    from .conftest import service

    limits = Limits(chat_messages_per_match=0, bot_matches=0)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'limits.db'}",
        clock=ManualClock(),
        sweep_interval_s=3600,
        client_rate_per_s=0,
        max_streams=0,
        limits=limits,
    )
    with TestClient(create_app(settings)) as client:
        talk_id, talk_tokens = new_match(client, "the_game", ["p", "p"])
        open_match = client.post(
            "/v1/matches",
            json={"game": "schotten_totten", "seats": [{"kind": "person"}, {"kind": "person", "open": True}]},
        ).json()
        client.cookies.clear()
        assert client.post(f"/v1/matches/{open_match['id']}/seats/1/join", json={}).status_code == 200
        client.cookies.clear()
        own = open_match["seats"][0]["token"]
        ismcts = {"kind": "bot", "bot": "ismcts"}
        view0 = spielwerk.load_game("schotten_totten").new_initial_state(1).view(0)

        def fails(*args: Any) -> Any:
            raise RuntimeError("a fault of the server")

        monkeypatch.setattr(rules, "legal_moves", fails)
        monkeypatch.setattr(service(client).pool, "busy", lambda: True)
        cases: list[tuple[str, int, Any]] = [
            (
                "chat_full",
                409,
                lambda h: client.post(
                    f"/v1/matches/{talk_id}/chat",
                    json={"text": "hoch"},
                    headers={**h, **bearer(talk_tokens[0])},
                ),
            ),
            (
                "too_many_bot_matches",
                429,
                lambda h: client.post(
                    "/v1/matches", json={"game": "schotten_totten", "seats": [ismcts] * 2}, headers=h
                ),
            ),
            ("too_many_streams", 503, lambda h: client.get(f"/v1/matches/{talk_id}/events", headers=h)),
            (
                "seat_taken",
                409,
                lambda h: client.post(f"/v1/matches/{open_match['id']}/seats/1/join", json={}, headers=h),
            ),
            (
                "cross_site",
                403,
                lambda h: client.post(
                    f"/v1/matches/{open_match['id']}/seats/0/join",
                    json={"token": own},
                    headers={**h, "Sec-Fetch-Site": "cross-site"},
                ),
            ),
            (
                "internal",
                500,
                lambda h: client.post(
                    "/v1/games/schotten_totten/moves",
                    json={"state": spielwerk.load_game("schotten_totten").new_initial_state(1).serialize()},
                    headers=h,
                ),
            ),
            (
                "search_busy",
                503,
                lambda h: client.post(
                    "/v1/bots/schotten_totten/ismcts/move", json={"view": view0}, headers=h
                ),
            ),
        ]
        for code, status, provoke in cases:
            de = problem(provoke(DE), status, code)
            en = problem(provoke(EN), status, code)
            assert de["title"] == GERMAN[code][0] and en["title"] != de["title"], (code, de, en)
            assert de["detail"] != en["detail"] and german_only(de["detail"]), (code, de, en)
