"""Reading a long match anew (issue 34): the server's ``Matches.get`` of a Dog match of four
random bots (about 1,400 plies) with the worker's cache emptied first, CPU per read, median
of 40. Run by hand, before and after a change, from each worktree:

    PYTHONPATH=api:python python3 benches/match_replay.py LABEL
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from typing import Any

from spielwerk_api import db, schemas
from spielwerk_api.clock import ManualClock
from spielwerk_api.matches import Matches


async def nothing(*_args: Any) -> None:
    return None


async def main() -> None:
    path = f"/tmp/spielwerk-replay-{os.getpid()}.db"
    e = db.create_engine(f"sqlite:///{path}")
    await db.migrate(e)
    m = Matches(e, ManualClock(), nothing)
    ids = []
    for seed in range(5):
        c = await m.create(
            schemas.NewMatch(game="dog", seed=seed, seats=[schemas.BotSeat(bot="random")] * 4),
            client=f"x{seed}",
        )
        ids.append(c.id)
    times: list[float] = []
    for _ in range(8):
        for i in ids:
            m.cache.clear()
            t = time.process_time()
            await m.get(i)
            times.append(time.process_time() - t)
    print(
        sys.argv[1],
        "uncached get of a Dog match of four random bots:",
        f"median {statistics.median(times) * 1000:.2f} ms CPU over {len(times)}",
    )
    await e.dispose()
    os.remove(path)


if __name__ == "__main__":
    asyncio.run(main())
