"""When a person who has not acted on their prompt is nudged, and what the nudge says of their clock
(issue 39): pure arithmetic on the host's clock value, so the host decides no rule of time.

>>> nudge_at(100.0, 120.0, after=3.0)  # a 20 s turn: after 3 s
103.0
>>> nudge_at(100.0, 105.0, after=3.0)  # a 5 s claim window: half-way, so half of it is left to act
102.5
>>> nudge_at(100.0, 101.5, after=3.0) is None  # too little left for a nudge to help
True
>>> seconds_left(120.0, 103.2)
16
"""

from __future__ import annotations

LEAST_LEFT = 1.5  # seconds a nudge must leave the person, else none is sent


def nudge_at(shown: float, deadline: float | None, *, after: float) -> float | None:
    """The moment to nudge a person whose prompt reached them at ``shown``: ``after`` seconds later, or
    half-way to the deadline if that comes first; None when no clock runs or too little would be left."""
    if deadline is None:
        return None
    at = shown + min(after, (deadline - shown) / 2)
    return at if deadline - at >= LEAST_LEFT else None


def seconds_left(deadline: float, now: float) -> int:
    """The whole seconds a nudge says are left (never below 0)."""
    return max(0, int(deadline - now))
