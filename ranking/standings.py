"""A tournament's standings: every round's result per entrant summed, ranked, ties broken as stated.

Ranking: by duplicate score when the tournament plays duplicate walls, else by points; ties are broken by
points (when duplicate), then by the sum of placements (``ranking.places.placements``: lower is better), then by the
most first places, then by entrant id (a fixed order anyone can check). A bye counts as a round played
with 0 points, 0 duplicate score and no placement.

    >>> rounds = [RoundResult(1, points=30, duplicate=10.0, place=1), RoundResult(2, points=30, duplicate=-10.0, place=2),
    ...           RoundResult(3, points=-60, duplicate=0.0, place=4)]
    >>> [(s.rank, s.entrant) for s in standings(rounds, duplicate=True)]
    [(1, 1), (2, 3), (3, 2)]
    >>> [(s.rank, s.entrant) for s in standings(rounds, duplicate=False)]
    [(1, 1), (2, 2), (3, 3)]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class RoundResult:
    entrant: int
    points: int
    duplicate: float = 0.0
    place: int | None = None  # 1-4 at the table; None for a bye


@dataclass
class Standing:
    entrant: int
    points: int = 0
    duplicate: float = 0.0
    places: list[int] = field(default_factory=list)
    rounds: int = 0
    rank: int = 0

    @property
    def firsts(self) -> int:
        return self.places.count(1)


def standings(results: Iterable[RoundResult], *, duplicate: bool) -> list[Standing]:
    """Every entrant's totals, best first, with ranks (equal only when every tie-break is equal, which the
    entrant id never is: ranks are 1, 2, 3 …)."""
    table: dict[int, Standing] = {}
    for result in results:
        row = table.setdefault(result.entrant, Standing(result.entrant))
        row.points += result.points
        row.duplicate += result.duplicate
        row.rounds += 1
        if result.place is not None:
            row.places.append(result.place)

    def key(row: Standing) -> tuple:
        first = -row.duplicate if duplicate else -row.points
        return (round(first, 6), -row.points if duplicate else 0, sum(row.places), -row.firsts, row.entrant)

    ordered = sorted(table.values(), key=key)
    for rank, row in enumerate(ordered, start=1):
        row.rank = rank
    return ordered
