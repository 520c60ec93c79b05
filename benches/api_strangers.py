"""The web API under strangers (issue 34), run by hand: four figures from one server.

    python benches/api_strangers.py [--duration 20] [--port 18277] [--database URL]

Starts ``python -m spielwerk serve`` (one worker, a fresh SQLite file in a temporary folder
unless ``--database``), loopback only, strangers told apart by their source address
(127.x.y.z, as the server sees them), and stops it by its PID. Each phase is bounded by
``--duration`` (at most 120 s):

1. A person's move against the ``strong`` bot, answered with the bot's reply, timed quiet and
   then while 64 strangers (32 addresses, two searches each: every place of the search queue)
   keep stateless ``ismcts`` searches at the search limit waiting.
2. Cheap requests' p50/p99 (``check``, 8 clients from their own addresses at 80 requests/s
   each, under the per-client rate) quiet and then while 500 spectator streams (8 addresses
   x 64, the most one address may hold) watch a match whose two seats talk as fast as a seat
   may; then the server's CPU with the streams and the talk alone, per message.
3. A lobby read (``GET /v1/matches``) with 10,000 open matches waiting (3,334 addresses, three
   each, the most one may have open).
4. What a match of bots alone costs (Dog, four ``random`` bots, played out in its request):
   server CPU a request, database bytes a match and a ply (SQLite: pages in use), and reading
   such a match uncached (600 other matches pushed it out of the worker's cache) against
   cached.

The load generator shares the machine's cores with the server: say so next to the figures.
This is a benchmark, never a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import httpx
from api_load import (
    bot_body,
    cheap_latencies,
    check_body,
    percentiles,
    raise_open_files,
    server_cpu,
    start_server,
    stop_server,
)


def stranger(port: int, number: int, timeout: float = 60) -> httpx.AsyncClient:
    """A client from its own loopback address, 127.0.0.2 on (the server tells clients apart by it)."""
    address = f"127.{(number + 2) // 65536 % 256}.{(number + 2) // 256 % 256}.{(number + 2) % 256}"
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=timeout)


async def person_move_times(http: httpx.AsyncClient, moves: int) -> list[float]:
    """A person's moves against the ``strong`` bot, each timed until the bot's reply is in its answer."""
    seats = [{"kind": "person"}, {"kind": "bot", "bot": "strong"}]
    times: list[float] = []
    seed = 11
    while len(times) < moves:
        r = await http.post("/v1/matches", json={"game": "schotten_totten", "seed": seed, "seats": seats})
        r.raise_for_status()
        seed += 1
        match_id, token = r.json()["id"], r.json()["seats"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        version = r.json()["version"]
        rng = random.Random(seed)
        while len(times) < moves:
            legal = (await http.get(f"/v1/matches/{match_id}/moves", headers=auth)).json()
            if not legal.get("moves"):
                break
            move = rng.choice(legal["moves"])["move"]
            start = time.perf_counter()
            out = await http.post(
                f"/v1/matches/{match_id}/moves", headers=auth, json={"version": version, "move": move}
            )
            if out.status_code != 200:
                break
            times.append(time.perf_counter() - start)
            version = out.json()["version"]
            if out.json().get("status") != "running":
                break
    return times


async def queued_searches(port: int, strangers: int, until: float, answered: list[int]) -> None:
    """``strangers`` stateless searches waiting or running at any time, two per address."""
    body = bot_body("schotten_totten", "ismcts", 5_000)

    async def search(http: httpx.AsyncClient) -> None:
        while time.monotonic() < until:
            r = await http.post("/v1/bots/schotten_totten/ismcts/move", json=body)
            answered[0 if r.status_code == 200 else 1] += 1
            if r.status_code != 200:
                await asyncio.sleep(min(2.0, float(r.headers.get("retry-after", 1))))

    clients = [stranger(port, i) for i in range((strangers + 1) // 2)]
    try:
        await asyncio.gather(*(search(clients[i // 2]) for i in range(strangers)))
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))


async def drive_strangers(port: int, pid: int, seconds: int, database: str) -> None:
    base = f"http://127.0.0.1:{port}"
    async with httpx.AsyncClient(base_url=base, timeout=120) as person:
        quiet = await person_move_times(person, 10)
        # 1. A person's bot while 64 stateless searches wait in the queue.
        until = time.monotonic() + seconds + 60
        answered = [0, 0]
        searches = asyncio.create_task(queued_searches(port, 64, until, answered))
        await asyncio.sleep(3.0)  # the queue fills
        loaded = await person_move_times(person, 10)
        searches.cancel()
        await asyncio.gather(searches, return_exceptions=True)
    print(
        f"strangers: person's move with the strong bot's reply: median {1000 * sorted(quiet)[5]:.0f} ms,"
        f" max {1000 * max(quiet):.0f} ms quiet; median {1000 * sorted(loaded)[5]:.0f} ms,"
        f" max {1000 * max(loaded):.0f} ms with 64 stateless searches queued"
        f" ({answered[0]} searches answered, {answered[1]} refused meanwhile)",
        flush=True,
    )

    # 2. Cheap requests while 500 spectator streams watch a match whose seats talk.
    body = json.dumps(check_body()).encode()
    request = (
        f"POST /v1/games/schotten_totten/check HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode() + body
    quiet_latencies, quiet_errors = await cheap_latencies(
        port, request, 8, seconds, own_addresses=True, per_second=80
    )
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        r = await http.post(
            "/v1/matches", json={"game": "schotten_totten", "seed": 5, "seats": [{"kind": "person"}] * 2}
        )
        watched, tokens = r.json()["id"], [seat["token"] for seat in r.json()["seats"]]
        opened = [0, 0]
        until = time.monotonic() + 2 * seconds + 30

        async def watch(client: httpx.AsyncClient) -> None:
            try:
                async with client.stream("GET", f"/v1/matches/{watched}/events") as events:
                    opened[0 if events.status_code == 200 else 1] += 1
                    async for _ in events.aiter_bytes():
                        if time.monotonic() > until:
                            break
            except httpx.HTTPError:
                opened[1] += 1

        watchers = [stranger(port, 100 + i, timeout=seconds + 60) for i in range(8)]
        streams = [asyncio.create_task(watch(watchers[i // 64])) for i in range(500)]
        while sum(opened) < 500 and time.monotonic() < until:
            await asyncio.sleep(0.2)
        said = [0]

        async def talk() -> None:
            # Each seat at the rate it may (chat_per_seat_per_minute, 20 by default).
            while time.monotonic() < until:
                for seat, token in enumerate(tokens):
                    out = await http.post(
                        f"/v1/matches/{watched}/chat",
                        headers={"Authorization": f"Bearer {token}"},
                        json={"text": f"Zug {said[0]} von Platz {seat}"},
                    )
                    said[0] += out.status_code < 300
                await asyncio.sleep(3.0)

        talking = asyncio.create_task(talk())
        cpu, start = server_cpu(pid), time.monotonic()
        loud_latencies, errors = await cheap_latencies(
            port, request, 8, seconds, own_addresses=True, per_second=80
        )
        cpu_per_s = (server_cpu(pid) - cpu) / (time.monotonic() - start)
        # The streams and the talk alone: what one message costs the server, fanned out.
        cpu, before = server_cpu(pid), said[0]
        await asyncio.sleep(seconds)
        talk_cpu_s, talked = server_cpu(pid) - cpu, said[0] - before
        for task in [talking, *streams]:
            task.cancel()
        await asyncio.gather(talking, *streams, return_exceptions=True)
        await asyncio.gather(*(c.aclose() for c in watchers))
    q50, q99 = percentiles(quiet_latencies)
    l50, l99 = percentiles(loud_latencies)
    print(
        f"strangers: cheap p50 {q50:.2f} ms, p99 {q99:.2f} ms quiet; p50 {l50:.2f} ms, p99 {l99:.2f} ms"
        f" with {opened[0]} spectator streams ({opened[1]} refused) and {said[0]} chat messages"
        f" ({len(quiet_latencies)}/{len(loud_latencies)} requests, {quiet_errors}/{errors} errors;"
        f" server CPU {cpu_per_s:.2f} cores); streams and talk alone: {talked} messages,"
        f" {1000 * talk_cpu_s:.0f} ms server CPU ({1000 * talk_cpu_s / max(1, talked):.1f} ms a message)",
        flush=True,
    )

    # 3. The lobby with 10,000 open matches.
    open_body = {"game": "schotten_totten", "seats": [{"kind": "person"}, {"kind": "person", "open": True}]}
    made = [0]

    async def open_three(number: int) -> None:
        async with stranger(port, 1000 + number) as client:
            for _ in range(3):
                if made[0] >= 10_000:
                    return
                r = await client.post("/v1/matches", json=open_body)
                made[0] += r.status_code == 201

    begun = time.monotonic()
    for first in range(0, 3334, 50):
        await asyncio.gather(*(open_three(n) for n in range(first, min(3334, first + 50))))
    filled_s = time.monotonic() - begun
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        times = []
        cpu = server_cpu(pid)
        for _ in range(50):
            start = time.perf_counter()
            lobby = await http.get("/v1/matches")
            times.append(time.perf_counter() - start)
        cpu_ms = 1000 * (server_cpu(pid) - cpu) / 50
        listed = len(lobby.json().get("open", []))
    print(
        f"strangers: lobby read with {made[0]} open matches (made in {filled_s:.0f} s): median"
        f" {1000 * sorted(times)[25]:.1f} ms, server CPU {cpu_ms:.1f} ms a read ({listed} listed a page)",
        flush=True,
    )

    # 4. Matches of bots alone: what each costs to make, to keep and to read.
    if database.startswith("sqlite:///"):
        await bots_alone_storage(port, pid, Path(database.removeprefix("sqlite:///")))


def used_bytes(path: Path) -> int:
    """The bytes of an SQLite database's pages in use (freed pages are reused, not counted)."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        pages = (
            conn.execute("PRAGMA page_count").fetchone()[0]
            - conn.execute("PRAGMA freelist_count").fetchone()[0]
        )
        return int(pages * conn.execute("PRAGMA page_size").fetchone()[0])


async def bots_alone_storage(port: int, pid: int, path: Path, matches: int = 100) -> None:
    seats = [{"kind": "bot", "bot": "random"}] * 4
    used, cpu = used_bytes(path), server_cpu(pid)
    made: list[tuple[str, int]] = []
    for first in range(0, matches, 50):  # 50 a client: under its bots-alone matches an hour
        async with stranger(port, 30_000 + first) as client:
            for i in range(first, min(matches, first + 50)):
                r = await client.post("/v1/matches", json={"game": "dog", "seed": i, "seats": seats})
                r.raise_for_status()
                made.append((r.json()["id"], r.json()["version"]))
    cpu_ms = 1000 * (server_cpu(pid) - cpu) / len(made)
    stored = used_bytes(path) - used
    plies = sum(version for _, version in made)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        # Pushed out of the worker's cache (512 matches) by 600 others, cheap ones of persons.
        for _ in range(600):
            r = await http.post(
                "/v1/matches", json={"game": "schotten_totten", "seats": [{"kind": "person"}] * 2}
            )
            r.raise_for_status()
        uncached: list[float] = []
        cached: list[float] = []
        for match_id, _ in made[:20]:
            for times in (uncached, cached):
                start = time.perf_counter()
                (await http.get(f"/v1/matches/{match_id}")).raise_for_status()
                times.append(time.perf_counter() - start)
    print(
        f"strangers: a Dog match of four random bots: {cpu_ms:.0f} ms server CPU a request,"
        f" {stored / len(made) / 1000:.1f} KB stored a match ({stored / plies:.1f} bytes a ply,"
        f" {plies / len(made):.0f} plies a match); reading one: median {1000 * sorted(uncached)[10]:.1f} ms"
        f" uncached, {1000 * sorted(cached)[10]:.1f} ms cached",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=18277)
    parser.add_argument("--duration", type=int, default=20, help="seconds each phase lasts (at most 120)")
    parser.add_argument("--database", default=None, help="default: a fresh SQLite file in a temporary folder")
    args = parser.parse_args()
    raise_open_files(4096)
    folder = Path(tempfile.mkdtemp(prefix="spielwerk-strangers-"))
    database = args.database or f"sqlite:///{folder / 'bench.db'}"
    server = start_server(args.port, 1, database, folder / "server.log")
    print(f"server: 1 worker, {database}; the load generator shares its cores", flush=True)
    try:
        asyncio.run(drive_strangers(args.port, server.pid, max(1, min(args.duration, 120)), database))
    finally:
        stop_server(server)
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
