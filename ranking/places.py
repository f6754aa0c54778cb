"""Placements from a finished match's final scores.

Equal scores share a place, and the next place is skipped ("1224", as sports tables rank ties): a
tie is a tie for the rating too. A player who ended the table by leaving (taiwan13's 中断连线, the
one rule set whose leave ends the match) is placed last whatever the scores, and alone there.

    >>> placements([300, -100, -100, -100])
    (1, 2, 2, 2)
    >>> placements([0, 0, -50, 0], leaver=2)
    (1, 1, 4, 1)
"""

from __future__ import annotations

from collections.abc import Sequence


def placements(scores: Sequence[int], leaver: int | None = None) -> tuple[int, ...]:
    """Each seat's place, 1 = first; ``leaver`` (a seat) is last."""
    if leaver is not None and not 0 <= leaver < len(scores):
        raise ValueError(f"leaver must be a seat 0..{len(scores) - 1}, got {leaver}")
    stayed = [s for s in range(len(scores)) if s != leaver]
    places = [0] * len(scores)
    for seat in stayed:
        places[seat] = 1 + sum(1 for other in stayed if scores[other] > scores[seat])
    if leaver is not None:
        places[leaver] = len(scores)
    return tuple(places)
