"""The match service as a package, a room per concern:

- ``match``: a match replayed from its plies, its clocks and the match rules (C11, D13);
  pure, tested without a database;
- ``store``: the statements, reads and the conditional commit;
- ``seats``: tokens, the open seats taken on any worker, presence;
- ``chat``: table talk;
- ``bot_driving``: the bots of each match and the search pool;
- ``lifecycle``: heartbeat, outages, resuming, the sweep and the retention rule;
- ``lobby``: the lobby's read;
- ``players``: players, their passwords (Argon2id) and profiles;
- ``ratings``: openskill ratings of ranked matches, the leaderboards;
- ``held``: what the rooms that act on their own ask of the service (a protocol);
- ``service``: ``Matches``, the thin service the routes call.
"""

from .limits import Limits
from .match import BOT_STALLED_S, LANGUAGES, STATUS_DE, Match, Ply, event_data, result_out
from .seats import hash_token, seat_of
from .service import Matches
from .store import MATCHES, Publish

__all__ = [
    "BOT_STALLED_S",
    "LANGUAGES",
    "MATCHES",
    "STATUS_DE",
    "Limits",
    "Match",
    "Matches",
    "Ply",
    "Publish",
    "event_data",
    "hash_token",
    "result_out",
    "seat_of",
]
