"""A match's log (issue 35: what just happened): who made each ply and its text, in the
language asked, as the asking seat may read it (D4: a card given to the partner stays the
giver's and the partner's)."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import TestClient

from .conftest import bearer, new_match


def test_the_log_names_who_moved_and_hides_what_a_seat_did_not_see(client: TestClient[Litestar]) -> None:
    match_id, tokens = new_match(client, "dog", ["p", "b", "p", "b"], seed=4)
    out = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[0])).json()
    assert out["bots"] == [None, "random", None, "random"]
    for seat in (0, 2):
        move = client.get(f"/v1/matches/{match_id}/moves", headers=bearer(tokens[seat])).json()["moves"][0]
        version = client.get(f"/v1/matches/{match_id}", headers=bearer(tokens[seat])).json()["version"]
        r = client.post(
            f"/v1/matches/{match_id}/moves",
            headers=bearer(tokens[seat]),
            json={"version": version, "move": move["move"]},
        )
        assert r.status_code == 200, r.text
    logs = {
        who: client.get(
            f"/v1/matches/{match_id}/log", headers={**bearer(token), "Accept-Language": "de"}
        ).json()
        for who, token in (("0", tokens[0]), ("2", tokens[2]), ("spectator", None))
    }
    versions = [e["version"] for e in logs["0"]["entries"]]
    assert versions == list(range(1, len(versions) + 1))
    by_seat = {w: {e["seat"]: e["text"] for e in log["entries"]} for w, log in logs.items()}
    # Seat 0 reads its own pick (in German), not an opponent's; a spectator reads no pick.
    assert by_seat["0"][0] is not None and "Partner" in by_seat["0"][0]
    assert by_seat["0"][1] is None and by_seat["spectator"][0] is None
    assert client.get(f"/v1/matches/{match_id}/log?limit=201").status_code == 400
