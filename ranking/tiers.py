"""Named ranks (tiers) from the shown rating: eight steps, like the ladders of online mahjong.

The names live in the string catalogue (``cogs/i18n.py``, keys ``tier.0`` … ``tier.7``), in English,
繁體中文 and 简体中文; a provisional player shows ``tier.provisional`` instead.

    >>> tier(1000), tier(1199), tier(1200), tier(2300)
    (0, 0, 1, 7)
"""

from __future__ import annotations

from bisect import bisect_right

# the lowest shown rating of tiers 1..7 (tier 0 is everything below 1200). A new player starts at 1000;
# an average regular settles near 1700 as their sigma shrinks, so the top tiers ask for a real edge.
FLOORS = (1200, 1400, 1550, 1700, 1850, 2000, 2150)
TIERS = len(FLOORS) + 1


def tier(rating: int) -> int:
    """0 (lowest) to 7 (highest)."""
    return bisect_right(FLOORS, rating)
