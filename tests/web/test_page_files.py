"""The page as files: served at / and /static, self-contained (works offline), no build step."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

# The files of this checkout, as the server the tests start serves them (conftest.py).
STATIC = Path(__file__).resolve().parents[2] / "api" / "spielwerk_api" / "static"


def fetch(url: str) -> tuple[str, str]:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.headers["content-type"], r.read().decode()


def test_the_front_door_is_the_page_and_every_file_it_loads_is_served(server: str) -> None:
    kind, html = fetch(f"{server}/")
    assert kind.startswith("text/html") and 'type="module" src="/static/app.js"' in html
    types = {".js": "javascript", ".css": "text/css", ".html": "text/html"}
    for path in sorted(STATIC.iterdir()):
        kind, body = fetch(f"{server}/static/{path.name}")
        assert types[path.suffix] in kind, (path.name, kind)
        assert body == path.read_text()
    # The API's documentation moved off the front door, not away.
    assert fetch(f"{server}/schema/openapi.json")[0].startswith("application/")


def test_the_modules_load_nothing_from_outside() -> None:
    """Only relative imports and the page's own API: the page works on a machine without
    internet, and whatever it does an outside client can do."""
    names = {p.name for p in STATIC.glob("*.js")}
    calls = 0
    for path in STATIC.iterdir():
        text = path.read_text()
        # (SVG's namespace is a name, never fetched.)
        assert not re.search(r"https?://(?!www\.w3\.org/2000/svg\")", text), path.name
        for target in re.findall(r'^import .* from "([^"]+)";$', text, flags=re.M):
            assert target.startswith("./") and target[2:] in names, (path.name, target)
        for url in re.findall(r'(?:request|fetch)\(\s*[`"](/[^`"$]*)', text):
            assert url.startswith("/v1/"), (path.name, url)
            calls += 1
    assert calls >= 7  # the pattern finds the page's calls of the API
