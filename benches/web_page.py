"""The page's figures (issue 23), run by hand: page weight, time to first interaction on
loopback, and the time from one seat's move to the other seat's screen showing it.

    python3 benches/web_page.py [--moves 200] [--loads 20]

Starts ``python3 -m spielwerk serve`` on a free loopback port and a temporary SQLite file
(stopped by its PID), drives Debian's chromium headless with Playwright. The latency: two
browser contexts, each a person seat of a Caravan match (seat 0 the creator's cookie, seat 1
its invitation link); the seat to move posts a legal move through the API with its token,
and the time runs from just before the POST until the other context's screen has drawn the
new version (a MutationObserver on ``#match[data-version]`` stamps it with the browser's
``performance.timeOrigin + performance.now()``, on the same machine clock as Python's
``time.time()``). A finished match is followed by a new one until ``--moves`` are measured.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("SPIELWERK_CHROMIUM", "/usr/bin/chromium")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


STAMP = """() => {
  window.__shown = {};
  const m = document.querySelector('#match');
  new MutationObserver(() => {
    const v = m.dataset.version;
    if (m.dataset.busy === 'false' && !(v in window.__shown))
      window.__shown[v] = performance.timeOrigin + performance.now();
  }).observe(m, { attributes: true, attributeFilter: ['data-version', 'data-busy'] });
}"""


def call(url: str, path: str, token: str | None = None, body: Any = None) -> Any:
    headers = {"Accept": "application/json", "Accept-Language": "de"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    with urllib.request.urlopen(
        urllib.request.Request(url + path, data=data, headers=headers), timeout=30
    ) as r:
        return json.loads(r.read())


def shown_at(page: Page, version: int) -> float:
    page.wait_for_function(
        "v => window.__shown && (String(v) in window.__shown)", arg=version, timeout=30_000
    )
    return float(page.evaluate("v => window.__shown[String(v)]", version)) / 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--loads", type=int, default=20)
    args = parser.parse_args()
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    tmp = tempfile.mkdtemp()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT / "api"), os.environ.get("PYTHONPATH")) if p),
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "spielwerk", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--database", f"sqlite:///{tmp}/bench.db"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(f"{url}/health", timeout=2).close()
                break
            except OSError:
                time.sleep(0.2)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
            # Page weight: every HTML, CSS and JS response of the lobby and a match screen.
            weight: dict[str, int] = {}
            ctx = browser.new_context(base_url=url)
            page = ctx.new_page()

            def count(response: Any) -> None:
                kind = response.headers.get("content-type", "")
                if any(k in kind for k in ("html", "css", "javascript")):
                    weight[response.url] = len(response.body())

            page.on("response", count)
            page.goto("/")
            page.wait_for_selector("#start")
            for module in ("caravan.js", "thegame.js", "dog.js", "board.js", "replay.js"):
                page.evaluate("m => import('/static/' + m)", module)
            page.wait_for_timeout(300)
            ctx.close()
            by_kind = {
                k: sum(n for u, n in weight.items() if u.endswith(k) or (k == "html" and u.endswith("/")))
                for k in ("html", "css", "js")
            }
            print(f"page weight: {sum(weight.values())} bytes in {len(weight)} files {by_kind}")

            # Time to first interaction: navigation start until the lobby's start button works.
            loads = []
            for _ in range(args.loads):
                ctx = browser.new_context(base_url=url)
                page = ctx.new_page()
                page.goto("/")
                page.wait_for_selector("#start:enabled")
                loads.append(page.evaluate("() => performance.now()"))
                ctx.close()
            print(
                f"first interaction: median {statistics.median(loads):.0f} ms,"
                f" max {max(loads):.0f} ms over {args.loads} loads"
            )

            latencies: list[float] = []
            while len(latencies) < args.moves:
                created = call(
                    url,
                    "/v1/matches",
                    body={"game": "caravan", "seats": [{"kind": "person"}, {"kind": "person"}]},
                )
                mid = created["id"]
                tokens, pages = {}, {}
                for seat in (0, 1):
                    info = created["seats"][seat]
                    link = (
                        info.get("invitation") or f"/v1/matches/{mid}/seats/{seat}/join?token={info['token']}"
                    )
                    query = urllib.parse.parse_qs(urllib.parse.urlparse(link).query)
                    tokens[seat] = info.get("token") or query["token"][0]
                    ctx = browser.new_context(base_url=url)
                    pg = ctx.new_page()
                    pg.goto(link)  # the invitation link: the seat's cookie, then the match screen
                    pg.wait_for_selector("#match[data-busy='false'][data-version]")
                    pg.wait_for_function("() => document.querySelector('#stream-status').textContent !== ''")
                    pg.evaluate(STAMP)
                    pages[seat] = pg
                out = call(url, f"/v1/matches/{mid}", tokens[0])
                while out["status"] == "running" and len(latencies) < args.moves:
                    seat = out["seats_to_move"][0]
                    move = call(url, f"/v1/matches/{mid}/moves", tokens[seat])["moves"][0]["move"]
                    sent = time.time()
                    out = call(
                        url,
                        f"/v1/matches/{mid}/moves",
                        tokens[seat],
                        {"version": out["version"], "move": move},
                    )
                    latencies.append(shown_at(pages[1 - seat], out["version"]) - sent)
                for pg in pages.values():
                    pg.context.close()
            ms = sorted(x * 1000 for x in latencies)
            p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
            print(
                f"move to the other screen: p50 {statistics.median(ms):.1f} ms,"
                f" p99 {p99:.1f} ms over {len(ms)} moves"
            )
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
