"""What the browser tests do with the page, and the API they check it against."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import urllib.request
from typing import Any

from playwright.sync_api import Page


def api(server: str, path: str, token: str | None = None, lang: str = "de", body: Any = None) -> Any:
    """The public API, as an outside client (not the page) asks it."""
    headers = {"Accept-Language": lang, "Accept": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body).encode()
    req = urllib.request.Request(f"{server}{path}", data=data, headers=headers)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def settled(page: Page, after_version: int | None = None) -> dict[str, Any]:
    """Waits until the match screen has nothing in flight (and, if given, has moved past
    ``after_version``); returns what it shows: version, status, seat."""
    page.wait_for_function(
        """v => {
            const m = document.querySelector('#match');
            return m && m.dataset.busy === 'false' && m.dataset.version !== undefined
                && (v === null || Number(m.dataset.version) > v);
        }""",
        arg=after_version,
    )
    state: dict[str, Any] = page.evaluate(
        """() => { const m = document.querySelector('#match').dataset;
                   return { version: Number(m.version), status: m.status, seat: m.seat }; }"""
    )
    return state


def start_match(
    page: Page,
    game: str,
    seats: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
    clock: str = "none",
) -> tuple[str, str]:
    """Fills the lobby (``seats``: "you" or "bot:NAME" per seat) and starts the match;
    returns its id and the seat's token as the page keeps it."""
    page.goto("/")
    page.check(f"#game-{game}")
    for name, value in (options or {}).items():
        field = page.locator(f"#opt-{name}")
        if isinstance(value, bool):
            field.set_checked(value)
        elif field.evaluate("e => e.tagName") == "SELECT":
            field.select_option(json.dumps(value))
        else:
            field.fill(str(value))
            field.dispatch_event("change")
    for s, choice in enumerate(seats):
        page.select_option(f"#seat-{s}", choice)
    page.select_option("#clock", clock)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_url("**/#/match/*")
    settled(page)
    match_id, token = match_of(page)
    assert token is not None  # the creator's tab keeps its token
    return match_id, token


def match_of(page: Page) -> tuple[str, str | None]:
    match_id = page.evaluate("() => location.hash.split('/')[2]")
    # None where the tab keeps no token (a seat taken by its invitation link: its cookie).
    token = page.evaluate(
        "id => (JSON.parse(sessionStorage.getItem('spielwerk.match.' + id)) || {}).token ?? null", match_id
    )
    return match_id, token


def claim_stones(page: Page) -> list[int]:
    """The stones with a "Nehmen" button on the page."""
    stones: list[int] = page.evaluate(
        "() => [...document.querySelectorAll('button.claim')].map(b => Number(b.dataset.stone))"
    )
    return sorted(stones)


def page_stones(page: Page) -> list[list[list[str]]]:
    """Every stone's cards as the page draws them: [theirs, mine] per stone."""
    stones: list[list[list[str]]] = page.evaluate(
        """() => [...document.querySelectorAll('.stone-col')].map(col => ['theirs', 'mine'].map(
            side => [...col.querySelectorAll(`.side.${side} .card`)].map(c => c.dataset.card)))"""
    )
    return stones


class Line:
    """A loopback TCP proxy to the server, a browser context's line that a test can cut:
    `cut()` closes every connection through it (the event stream's too, which the
    browser's offline mode leaves open) and refuses new ones until `restore()`."""

    def __init__(self, server: str) -> None:
        self.target = ("127.0.0.1", int(server.rsplit(":", 1)[1]))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}"
        self.open = True
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            # Decided under the lock, so that a connection accepted while `cut()` runs is
            # either refused here or in the list `cut()` closes.
            with self.lock:
                if not self.open:
                    client.close()
                    continue
                try:
                    upstream = socket.create_connection(self.target)
                except OSError:
                    client.close()  # the server is gone: the browser sees a cut line
                    continue
                self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for s in (source, sink):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def cut(self) -> None:
        with self.lock:
            self.open = False
            cut, self.sockets = self.sockets, []
        for s in cut:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()

    def restore(self) -> None:
        with self.lock:
            self.open = True

    def close(self) -> None:
        self.listener.close()
        self.cut()
