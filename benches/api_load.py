"""Load on the web API over loopback: requests/s and latency percentiles (issue 10's targets).

    PYTHONPATH=python:api python benches/api_load.py [--workers 2] [--duration 10] [--only check]

Starts ``python -m spielwerk serve --workers N`` on a fresh SQLite file in a temporary folder
(or on ``--database URL``), then, each run bounded in time:

- ``check``: ``POST /v1/games/schotten_totten/check`` with a mid-game Schotten Totten state and
  one of its legal moves, driven by ``wrk`` (Debian's ``wrk``; a Lua script sets the body);
- ``claim-check``: ``POST /v1/schotten_totten/claim-check``, also with ``wrk``;
- ``bot-random``, ``bot-heuristic``, ``bot-ismcts``: the stateless bot endpoint (issue 11),
  ``POST /v1/bots/{game}/{bot}/move`` with the view of the seat to move in a mid-game position of
  ``--bot-game`` (``ismcts`` at 100 iterations, ``--bot-iterations``), also with ``wrk`` and
  ``--bot-connections`` connections: each request deals the unseen cards from the view
  (``state_from_view``) and lets the bot decide;
- ``moves``: committed match moves, ``POST /v1/matches/{id}/moves``. Each move needs the
  match's current version, so ``wrk`` cannot replay one body. Instead ``--clients`` asyncio
  clients play side by side, each its own two-person Schotten Totten matches through the real
  API, one after another, on one kept-alive connection. Before the clock starts, the matches
  are created over the API and played out with the engine (random legal moves of both seats),
  so each move's request, with its version and seat token, is ready; the timed part only sends
  them, each as soon as the previous one is answered, and checks every answer is 200.

- ``abuse`` (only when named, ``--only abuse``; issue 21): cheap requests' p50/p99 first on a
  quiet server, then while strangers load it: ``--abuse-matches`` bots-only matches (search
  bots, each replaced by a new one when it ends), ``--abuse-streams`` idle spectator event
  streams (spread over matches of two persons nobody plays) and ``--abuse-slow`` slow
  clients (each sends a request head one line a second, and reconnects when the server
  cuts it off). The cheap request is ``check`` (as above), sent by ``--abuse-clients``
  clients one after the other on kept-alive connections. Loopback only, every count
  bounded (at most 20,000 streams and slow clients, 200 matches), each phase lasts
  ``--duration`` seconds, and everything stops by itself.

The load generator runs on the same machine as the server and takes its share of the cores:
say so next to the figures. This is a benchmark, never a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import spielwerk

ROOT = Path(__file__).resolve().parent.parent

# issue 10: check and claim-check >= 5,000 req/s with p99 <= 10 ms; moves >= 500/s, p99 <= 25 ms.
# The bot endpoint (issue 11) asks for figures, not a target.
TARGETS: dict[str, tuple[float, float] | None] = {
    "check": (5000.0, 10.0),
    "claim-check": (5000.0, 10.0),
    "moves": (500.0, 25.0),
    "bot-random": None,
    "bot-heuristic": None,
    "bot-ismcts": None,
    "abuse": None,
}
BOTS = ("bot-random", "bot-heuristic", "bot-ismcts")


@dataclass
class Figures:
    name: str
    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    errors: int
    # The server's CPU time per request (all workers): steadier than requests/s on a shared
    # machine, where other processes take cores from both the server and the generator.
    cpu_us: float = 0.0
    # The load generator's CPU time per request (wrk, or this process for the match driver).
    generator_cpu_us: float = 0.0

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    def line(self) -> str:
        text = (
            f"{self.name:13} {self.rate:9,.0f} req/s   p50 {self.p50_ms:6.2f} ms   p99 {self.p99_ms:6.2f} ms"
            "   "
            f"CPU/req: server {self.cpu_us:5.0f} us, generator {self.generator_cpu_us:4.0f} us"
            f"   errors {self.errors}"
        )
        target = TARGETS[self.name]
        if target is None:
            return text
        rate, p99 = target
        verdict = "meets" if self.rate >= rate and self.p99_ms <= p99 and not self.errors else "misses"
        return f"{text}   ({verdict} the target >= {rate:,.0f}/s, p99 <= {p99:.0f} ms)"


# -- request bodies ----------------------------------------------------------------------


def check_body(seed: int = 7, plies: int = 20) -> dict[str, Any]:
    """A mid-game Schotten Totten state (``plies`` random moves in) and one of its legal moves."""
    state = spielwerk.load_game("schotten_totten").new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        state.apply_action(rng.choice(state.legal_actions()))
    move = rng.choice(state.legal_moves())["move"]
    return {"state": state.serialize(), "move": move}


def claim_check_body() -> dict[str, Any]:
    # A color run against two cards of a stronger one still reachable from the table (S5).
    return {
        "mine": ["R1", "R2", "R3"],
        "theirs": ["B5", "B6"],
        "table": ["G1", "B7"],
        "mine_completed_first": True,
    }


def bot_body(game: str, bot: str, iterations: int, seed: int = 7, plies: int = 20) -> dict[str, Any]:
    """The view of the seat to move ``plies`` random moves into a seeded game (the first seed
    from ``seed`` on whose game lasts that long): what an outside game server, which keeps the
    hidden cards, sends to the stateless bot endpoint."""
    for deal in range(seed, seed + 100):
        state = spielwerk.load_game(game).new_initial_state(deal)
        rng = random.Random(deal)
        for _ in range(plies):
            state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                break
        else:
            params = {"iterations": iterations} if bot == "ismcts" else {}
            return {"view": state.view(state.current_player()), "params": params, "seed": deal}
    raise SystemExit(f"no {game} game of seeds {seed}-{seed + 99} lasts {plies} plies: ask for fewer")


# -- the server ----------------------------------------------------------------------------


def start_server(port: int, workers: int, database: str, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    # The worktree's packages first, as when the benchmark is run from the repository (its
    # engine only where it was built there: else the installed one).
    built = any((ROOT / "python" / "spielwerk").glob("_spielwerk*.so"))
    first = [str(ROOT / "python")] if built else []
    env["PYTHONPATH"] = os.pathsep.join([*first, str(ROOT / "api"), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "spielwerk", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--workers", str(workers), "--database", database]
    # Its output goes to a file: a pipe nobody reads would stop the server once it is full.
    with log.open("wb") as out:
        server = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server stopped:\n{log.read_text()[-3000:]}")
        try:
            # Every worker must be up: ask a few times, each answer may come from either.
            if all(
                httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200 for _ in range(4)
            ):
                return server
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    stop_server(server)
    raise SystemExit("the server did not answer within a minute")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGINT)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def server_cpu(pid: int) -> float:
    """CPU seconds (user + system) of the server and its workers so far (Linux /proc)."""
    ticks = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # the process ended meanwhile
            continue
        # After the command: state, ppid, ..., utime and stime are the 12th and 13th fields.
        if int(stat.parent.name) == pid or int(fields[1]) == pid:
            ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


# -- wrk ------------------------------------------------------------------------------------

LUA = """wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local f = assert(io.open("{body}", "rb"))
wrk.body = f:read("*a")
f:close()
"""


def milliseconds(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()  # type: ignore[union-attr]
    return float(value) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def run_wrk(
    name: str, url: str, body: dict[str, Any], seconds: int, threads: int, connections: int, folder: Path
) -> Figures:
    # The body must be exactly what a client sends: check it once before the load.
    answer = httpx.post(url, json=body)
    answer.raise_for_status()
    (folder / f"{name}.json").write_text(json.dumps(body))
    script = folder / f"{name}.lua"
    script.write_text(LUA.format(body=folder / f"{name}.json"))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", str(script), url],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    requests = int(re.search(r"(\d+) requests in ([\d.]+)(s|m)", out).group(1))  # type: ignore[union-attr]
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = milliseconds(re.search(r"\s50%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    p99 = milliseconds(re.search(r"\s99%\s+(\S+)", out).group(1))  # type: ignore[union-attr]
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    broken = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    errors = (int(failed.group(1)) if failed else 0) + (sum(map(int, broken.groups())) if broken else 0)
    figures = Figures(name, requests, requests / rate, p50, p99, errors)
    figures.generator_cpu_us = 1e6 * cpu_between(before, after) / max(1, requests)
    return figures


def cpu_between(before: resource.struct_rusage, after: resource.struct_rusage) -> float:
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


# -- committed moves ------------------------------------------------------------------------


@dataclass
class Script:
    """One match and every move of it, worked out beforehand with the engine (both seats)."""

    match_id: str
    # Each move's whole HTTP request; its body names the version the move is made against.
    requests: list[bytes]


def plan_match(client: httpx.Client, seed: int, host: str) -> Script:
    """Start a two-person match over the API and play it out locally: the moves to send."""
    r = client.post(
        "/v1/matches", json={"game": "schotten_totten", "seed": seed, "seats": [{"kind": "person"}] * 2}
    )
    r.raise_for_status()
    out = r.json()
    tokens = [s["token"] for s in out["seats"]]
    state = spielwerk.load_game("schotten_totten").new_initial_state(seed)
    rng = random.Random(seed)
    requests = []
    version = 0
    while not state.is_terminal():
        seat = state.current_player()
        pick = rng.choice(state.legal_moves())
        body = json.dumps({"version": version, "move": pick["move"]}).encode()
        head = (
            f"POST /v1/matches/{out['id']}/moves HTTP/1.1\r\nHost: {host}\r\n"
            f"Authorization: Bearer {tokens[seat]}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        )
        requests.append(head.encode() + body)
        state.apply_action(pick["action"])
        version += 1  # two persons, no bots: one version per move
    return Script(out["id"], requests)


async def send(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, request: bytes
) -> tuple[int, bytes]:
    """One request on a kept-alive HTTP/1.1 connection; the status and the body."""
    writer.write(request)
    status = int((await reader.readline()).split()[1])
    length = 0
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        if name.lower() == b"content-length":
            length = int(value)
    return status, await reader.readexactly(length)


async def play_scripts(
    port: int, scripts: list[Script], until: float, latencies: list[float], errors: list[str]
) -> None:
    """One client: its matches one after another, each move sent as soon as the last is answered."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        for script in scripts:
            for request in script.requests:
                if time.monotonic() >= until:
                    return
                start = time.perf_counter()
                status, body = await send(reader, writer, request)
                latencies.append(time.perf_counter() - start)
                if status != 200:
                    errors.append(f"{status}: {body[:200]!r}")
                    return
        errors.append("a client ran out of prepared matches: raise --matches")
    finally:
        writer.close()


async def drive_moves(port: int, seconds: int, clients: int, matches: int) -> Figures:
    """``clients`` clients side by side, each with ``matches`` prepared matches of its own."""
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        plans = [
            [plan_match(client, 1000 * c + i, f"127.0.0.1:{port}") for i in range(matches)]
            for c in range(clients)
        ]
    latencies: list[float] = []
    errors: list[str] = []
    start = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_SELF)
    await asyncio.gather(*(play_scripts(port, plan, start + seconds, latencies, errors) for plan in plans))
    elapsed = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_SELF)
    for e in errors[:3]:
        print("  moves: error", e, file=sys.stderr)
    ordered = sorted(latencies)
    return Figures(
        "moves",
        len(ordered),
        elapsed,
        1000 * ordered[len(ordered) // 2],
        1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
        len(errors),
        generator_cpu_us=1e6 * cpu_between(before, after) / max(1, len(ordered)),
    )


# -- abuse (issue 21) --------------------------------------------------------------------------


@dataclass
class Abuse:
    matches: int
    streams: int
    slow: int
    bot: str
    iterations: int
    clients: int


async def cheap_latencies(
    port: int,
    request: bytes,
    clients: int,
    seconds: float,
    *,
    own_addresses: bool = False,
    per_second: float = 0,
) -> tuple[list[float], int]:
    """``clients`` clients sending ``request`` one after the other for ``seconds``; with
    ``own_addresses`` each from its own loopback address (127.0.1.x), with ``per_second``
    each at most that often (under the server's per-client rate, so no answer is a 429)."""
    latencies: list[float] = []
    errors = 0
    until = time.monotonic() + seconds

    async def client(number: int) -> None:
        nonlocal errors
        local = (f"127.0.1.{number + 1}", 0) if own_addresses else None
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local)
        try:
            while time.monotonic() < until:
                start = time.perf_counter()
                status, _ = await send(reader, writer, request)
                latencies.append(time.perf_counter() - start)
                errors += status != 200
                if per_second:
                    await asyncio.sleep(max(0.0, 1 / per_second - (time.perf_counter() - start)))
        finally:
            writer.close()

    await asyncio.gather(*(client(n) for n in range(clients)))
    return latencies, errors


def percentiles(latencies: list[float]) -> tuple[float, float]:
    ordered = sorted(latencies)
    return (
        1000 * ordered[len(ordered) // 2],
        1000 * ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))],
    )


async def bots_only_matches(base: str, abuse: Abuse, until: float, created: list[int]) -> None:
    """``abuse.matches`` bots-only matches at any time: a new one when one ends."""
    seat = {"kind": "bot", "bot": abuse.bot, "params": {"iterations": abuse.iterations}}
    if abuse.bot != "ismcts":
        seat["params"] = {}

    async def slot(http: httpx.AsyncClient, i: int) -> None:
        seed = i
        while time.monotonic() < until:
            r = await http.post(
                "/v1/matches", json={"game": "schotten_totten", "seed": seed, "seats": [seat] * 2}
            )
            if r.status_code != 201:
                # Refused (a limit on bots-only matches, 429): wait as long as it asks.
                await asyncio.sleep(min(5.0, float(r.headers.get("retry-after", 1))))
                continue
            created[0] += 1
            seed += abuse.matches
            match_id = r.json()["id"]
            while time.monotonic() < until:
                await asyncio.sleep(1.0)
                if (await http.get(f"/v1/matches/{match_id}")).json().get("status") != "running":
                    break

    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        await asyncio.gather(*(slot(http, i) for i in range(abuse.matches)))


async def idle_streams(port: int, match_ids: list[str], count: int, until: float, held: list[int]) -> None:
    """``count`` spectator streams that read what comes and never ask for anything."""

    async def stream(match_id: str) -> None:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            held[2] += 1
            return
        try:
            writer.write(f"GET /v1/matches/{match_id}/events HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
            status = int((await reader.readline()).split()[1])
            if status != 200:
                held[1] += 1
                return
            held[0] += 1
            while time.monotonic() < until:
                try:
                    if not await asyncio.wait_for(
                        reader.read(65536), timeout=max(0.1, until - time.monotonic())
                    ):
                        break
                except TimeoutError:
                    break
        except (OSError, IndexError, ValueError):
            held[2] += 1
        finally:
            writer.close()

    # Opened a hundred at a time, as strangers arriving, not as one burst.
    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(stream(match_ids[i % len(match_ids)])))
        if i % 100 == 99:
            await asyncio.sleep(0.05)
    await asyncio.gather(*tasks)


async def slow_clients(port: int, count: int, until: float, cut: list[int]) -> None:
    """Clients sending a request's head one line a second (a slowloris), again when cut off."""

    async def client(i: int) -> None:
        await asyncio.sleep(i % 10 / 10)
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(1.0)
                continue
            try:
                writer.write(b"GET /v1/games HTTP/1.1\r\nHost: bench\r\n")
                line = 0
                while time.monotonic() < until:
                    try:
                        answered = await asyncio.wait_for(reader.read(1024), timeout=1.0)
                    except TimeoutError:
                        writer.write(f"X-Slow-{line}: 1\r\n".encode())
                        line += 1
                        continue
                    if not answered or answered.startswith(b"HTTP/1.1 408"):
                        cut[0] += 1
                        break
            except OSError:
                cut[0] += 1
            finally:
                writer.close()

    await asyncio.gather(*(client(i) for i in range(count)))


async def drive_abuse(port: int, pid: int, seconds: int, abuse: Abuse) -> None:
    base = f"http://127.0.0.1:{port}"
    body = json.dumps(check_body()).encode()
    request = (
        f"POST /v1/games/schotten_totten/check HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    quiet, quiet_errors = await cheap_latencies(port, request, abuse.clients, seconds)
    q50, q99 = percentiles(quiet)
    print(
        f"abuse: quiet     cheap p50 {q50:6.2f} ms  p99 {q99:7.2f} ms"
        f"  ({len(quiet)} requests, {quiet_errors} errors)",
        flush=True,
    )
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        watched = []
        for i in range(max(1, abuse.streams // 200)):
            r = await http.post(
                "/v1/matches", json={"game": "schotten_totten", "seed": i, "seats": [{"kind": "person"}] * 2}
            )
            r.raise_for_status()
            watched.append(r.json()["id"])
    # The streams open a hundred at a time, within a minute at most; then 5 s without
    # requests, then the measured window. The abusers stop at `until` at the latest.
    opening = 60.0 + abuse.streams / 1000
    begun = time.monotonic()
    until = begun + opening + 5.0 + seconds
    created, held, cut = [0], [0, 0, 0], [0]
    load = [
        asyncio.create_task(bots_only_matches(base, abuse, until, created)),
        asyncio.create_task(idle_streams(port, watched, abuse.streams, until, held)),
        asyncio.create_task(slow_clients(port, abuse.slow, until, cut)),
    ]
    while held[0] + held[1] + held[2] < abuse.streams and time.monotonic() < begun + opening:
        await asyncio.sleep(0.2)
    opened_s = time.monotonic() - begun
    # What the abusers alone cost the server: a few seconds without cheap requests.
    cpu, start = server_cpu(pid), time.monotonic()
    await asyncio.sleep(5.0)
    idle_cpu = (server_cpu(pid) - cpu) / (time.monotonic() - start)
    cpu = server_cpu(pid)
    start = time.monotonic()
    loud, loud_errors = await cheap_latencies(port, request, abuse.clients, seconds)
    cpu_per_s = (server_cpu(pid) - cpu) / (time.monotonic() - start)
    for task in load:
        task.cancel()
    await asyncio.gather(*load, return_exceptions=True)
    a50, a99 = percentiles(loud)
    print(
        f"abuse: loaded    cheap p50 {a50:6.2f} ms  p99 {a99:7.2f} ms"
        f"  ({len(loud)} requests, {loud_errors} errors)"
        f"  p99 {a99 / q99:.1f}x quiet",
        flush=True,
    )
    print(
        f"abuse: {abuse.matches} bots-only matches at a time ({created[0]} created, {abuse.bot}"
        f" {abuse.iterations} iterations), {held[0]} idle streams held ({held[1]} refused,"
        f" {held[2]} failed; open after {opened_s:.1f} s),"
        f" {abuse.slow} slow clients (cut off {cut[0]} times);"
        f" server CPU {idle_cpu:.2f} cores with the abusers alone, {cpu_per_s:.2f} while measured",
        flush=True,
    )


def raise_open_files(needed: int) -> None:
    """Room for every stream and slow client's socket, here and in the server (a child)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = needed if hard == resource.RLIM_INFINITY else min(hard, needed)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


# -- main -------------------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=18200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--duration", type=int, default=10, help="seconds per run")
    parser.add_argument("--threads", type=int, default=2, help="wrk threads")
    parser.add_argument("--connections", type=int, default=32, help="wrk connections")
    parser.add_argument("--clients", type=int, default=16, help="clients playing matches side by side")
    parser.add_argument("--matches", type=int, default=40, help="matches prepared per client")
    parser.add_argument("--bot-game", default="schotten_totten", help="the game of the bot runs")
    parser.add_argument("--bot-iterations", type=int, default=100, help="ismcts iterations per move")
    parser.add_argument("--bot-connections", type=int, default=8, help="wrk connections for the bot runs")
    parser.add_argument("--database", default=None, help="default: a fresh SQLite file in a temporary folder")
    parser.add_argument(
        "--only", choices=sorted(TARGETS), action="append", help="run only these (repeatable)"
    )
    parser.add_argument("--keep-server", action="store_true", help="leave the server running (to profile it)")
    parser.add_argument("--abuse-matches", type=int, default=20, help="bots-only matches at a time")
    parser.add_argument("--abuse-streams", type=int, default=2000, help="idle event streams")
    parser.add_argument("--abuse-slow", type=int, default=200, help="slow clients")
    parser.add_argument("--abuse-bot", default="ismcts", help="the bots of the bots-only matches")
    parser.add_argument("--abuse-iterations", type=int, default=1000, help="their iterations per move")
    parser.add_argument("--abuse-clients", type=int, default=4, help="clients sending cheap requests")
    args = parser.parse_args()
    runs = args.only or [name for name in TARGETS if name != "abuse"]
    if shutil.which("wrk") is None and set(runs) - {"moves", "abuse"}:
        raise SystemExit("wrk is missing: apt-get install -y wrk")
    abuse = Abuse(
        matches=max(0, min(200, args.abuse_matches)),
        streams=max(0, min(20_000, args.abuse_streams)),
        slow=max(0, min(20_000, args.abuse_slow)),
        bot=args.abuse_bot,
        iterations=args.abuse_iterations,
        clients=max(1, min(64, args.abuse_clients)),
    )
    if "abuse" in runs:
        raise_open_files(abuse.streams + abuse.slow + 1024)
    folder = Path(tempfile.mkdtemp(prefix="spielwerk-load-"))
    database = args.database or f"sqlite:///{folder / 'bench.db'}"
    server = start_server(args.port, args.workers, database, folder / "server.log")
    base = f"http://127.0.0.1:{args.port}"
    print(
        f"server: {args.workers} worker(s), {database}; {os.cpu_count()} cores shared with the load generator"
    )
    try:
        for name in runs:
            cpu = server_cpu(server.pid)
            if name == "abuse":
                asyncio.run(drive_abuse(args.port, server.pid, min(args.duration, 120), abuse))
                continue
            if name == "moves":
                figures = asyncio.run(drive_moves(args.port, args.duration, args.clients, args.matches))
            elif name in BOTS:
                bot = name.removeprefix("bot-")
                url = f"{base}/v1/bots/{args.bot_game}/{bot}/move"
                body = bot_body(args.bot_game, bot, args.bot_iterations)
                figures = run_wrk(name, url, body, args.duration, args.threads, args.bot_connections, folder)
            else:
                path = (
                    "/v1/games/schotten_totten/check"
                    if name == "check"
                    else "/v1/schotten_totten/claim-check"
                )
                body = check_body() if name == "check" else claim_check_body()
                figures = run_wrk(
                    name, base + path, body, args.duration, args.threads, args.connections, folder
                )
            figures.cpu_us = 1e6 * (server_cpu(server.pid) - cpu) / max(1, figures.requests)
            print(figures.line(), flush=True)
        if args.keep_server:
            print(f"server pid {server.pid} left running; stop it with: kill -INT {server.pid}")
            return 0
    finally:
        if not args.keep_server:
            stop_server(server)
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
