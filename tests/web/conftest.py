"""Fixtures of the browser tests: one API server and one headless Chromium for the session.

The server is ``python3 -m spielwerk serve`` on a free loopback port and a temporary SQLite
file, stopped by its PID; the browser is Debian's ``chromium`` (scripts/test installs it
with apt-get when missing), driven by Playwright. Screenshots go to ``artifacts/web/``.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

CHROMIUM = os.environ.get("SPIELWERK_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "web"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    database = tmp_path_factory.mktemp("web") / "spielwerk.db"
    log = (tmp_path_factory.getbasetemp() / "server.log").open("w")
    # Streams look at the leave rule's countdown on each heartbeat: every 2 s, not 15.
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "SPIELWERK_STREAM_HEARTBEAT_S": "2"}
    # The worktree's API package first, so the page served is the one under test.
    api = str(Path(__file__).resolve().parents[2] / "api")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (api, env.get("PYTHONPATH")) if p)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "spielwerk",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{database}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the server stopped: see server.log in pytest's temp folder"
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not start within 60 s"
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip("needs Debian's chromium: apt-get install -y chromium (scripts/test does)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def page(browser: Browser, server: str) -> Iterator[Page]:
    """A fresh browser context (its own sessionStorage and localStorage) on the page."""
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    try:
        yield pg
    finally:
        context.close()
    assert not errors, f"the page threw: {errors}"


def screenshot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
