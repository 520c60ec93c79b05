"""Schotten Totten helpers: formations (S4) and the claim proof (S5, S6).

Cards are written colour letter + value (S1): colours R O Y G B P, values 1-9, e.g. ``"B5"``.

``formation(cards)`` gives ``(kind, sum)`` for exactly three cards, with kind one of
``"color_run"``, ``"three_of_a_kind"``, ``"color"``, ``"run"``, ``"sum"``.

``check_claim(mine, theirs, table, mine_completed_first=True)`` decides a claim: ``mine``
are the claimant's three cards, ``theirs`` the other side's 0-3 cards and ``table`` every
card lying at any stone (it may or may not repeat ``mine`` and ``theirs``). All other cards
are available to the other side (S5). The result's ``best_cards``, ``best_formation`` and
``best_sum`` describe the strongest completion the other side can still reach (S6), or are
``None`` if it can never complete.
"""

from spielwerk._spielwerk import ClaimCheck
from spielwerk._spielwerk import st_check_claim as check_claim
from spielwerk._spielwerk import st_formation as formation

__all__ = ["ClaimCheck", "check_claim", "formation"]
