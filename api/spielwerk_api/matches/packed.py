"""A finished match's plies packed into one value of its row (issue 34: bounded storage per
anonymous request).

While a match runs, each ply is a row of ``plies``: one insert per move, the primary key
refusing a second writer. Once it has ended no ply comes any more, and a row per ply only
costs room (about 100 bytes each with its index; a Dog match of four bots: 131 KB). The
commit that ends a match stores all of its plies here instead and deletes their rows, in
the same transaction.

The packing keeps every value exactly: the actions, seats and ending kinds as msgpack
integers and strings; each ply's time as the float64 the clock gave, its 8 bytes stored
column by column (every ply's first byte, then every second byte, …), where the high bytes
of times close together are the same and compress to almost nothing; then zlib.
"""

from __future__ import annotations

import struct
import zlib
from typing import NamedTuple

import msgspec

from .match import Ply

# The first byte of a packed record: its layout, so that a later one can be told apart.
LAYOUT = 1


class StoredPly(NamedTuple):
    """A ply as read back, with its number (like a row of ``plies``)."""

    ply: int
    kind: str
    seat: int | None
    action: int | None
    at: float
    thought_s: float | None


class Packed(msgspec.Struct, array_like=True, forbid_unknown_fields=True):
    seats: list[int | None]
    actions: list[int | None]
    # The float64 times, byte column by byte column (see the module's text).
    at: bytes
    # The plies that are not a move ("resigned", "time", …: how the match ended), by index.
    kinds: dict[int, str]
    # A search bot's thinking seconds, by index (most plies have none).
    thought: dict[int, float]


ENCODER = msgspec.msgpack.Encoder()
DECODER = msgspec.msgpack.Decoder(Packed)


def pack(plies: list[Ply]) -> bytes:
    """Every ply of a match, packed (read back exactly by ``unpack``)."""
    times = struct.pack(f"<{len(plies)}d", *(p.at for p in plies))
    by_column = b"".join(times[i::8] for i in range(8))
    packed = Packed(
        seats=[p.seat for p in plies],
        actions=[p.action for p in plies],
        at=by_column,
        kinds={i: p.kind for i, p in enumerate(plies) if p.kind != "move"},
        thought={i: p.thought for i, p in enumerate(plies) if p.thought is not None},
    )
    return bytes([LAYOUT]) + zlib.compress(ENCODER.encode(packed), 6)


def unpack(data: bytes) -> list[StoredPly]:
    """The plies ``pack`` packed, numbered from 1 (``ValueError`` for anything else)."""
    if not data or data[0] != LAYOUT:
        raise ValueError(f"not a packed record of plies (layout {data[:1]!r}, this server reads {LAYOUT})")
    try:
        packed = DECODER.decode(zlib.decompress(data[1:]))
    except (zlib.error, msgspec.DecodeError) as e:
        raise ValueError(f"a packed record of plies that cannot be read: {e}") from None
    n = len(packed.seats)
    if len(packed.actions) != n or len(packed.at) != 8 * n:
        raise ValueError("a packed record of plies whose columns differ in length")
    interleaved = bytearray(8 * n)
    for i in range(8):
        interleaved[i::8] = packed.at[i * n : (i + 1) * n]
    times = struct.unpack(f"<{n}d", interleaved)
    return [
        StoredPly(i + 1, packed.kinds.get(i, "move"), seat, action, at, packed.thought.get(i))
        for i, (seat, action, at) in enumerate(zip(packed.seats, packed.actions, times, strict=True))
    ]
