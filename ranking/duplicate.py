"""Duplicate (復式) scores: with every table of a round dealt the same walls, a player is compared with the
players who held the same seat's tiles at the other tables, so the luck of the deal cancels.

A player's duplicate score for a round is their points minus the average points of the same seat at the
other tables of that round. Over the tables of a round the scores of one seat sum to zero (each table's
points count once for itself and, divided by the other tables, once against each of them). A round with
one table has nothing to compare with: every duplicate score is 0. An AI seat is compared like any other
(its points are part of the seat's field) but has no standing of its own.

    >>> duplicate_scores([[300, -100, -100, -100], [100, 100, -100, -100]])
    [[200.0, -200.0, 0.0, 0.0], [-200.0, 200.0, 0.0, 0.0]]
    >>> duplicate_scores([[50, -50, 0, 0]])
    [[0.0, 0.0, 0.0, 0.0]]

Seat means the seat a table's seat draw gave (東 南 西 北 at the match's start): duplicate tables share the
match key, so their draws and every hand's wall are the same.
"""

from __future__ import annotations

from collections.abc import Sequence


def duplicate_scores(points: Sequence[Sequence[int]]) -> list[list[float]]:
    """Per table, per seat: the seat's points minus the mean of that seat at the other tables."""
    tables = len(points)
    if tables < 2:
        return [[0.0 for _ in table] for table in points]
    seats = len(points[0])
    if any(len(table) != seats for table in points):
        raise ValueError("every table of a round has the same seats")
    totals = [sum(table[seat] for table in points) for seat in range(seats)]
    return [
        [table[seat] - (totals[seat] - table[seat]) / (tables - 1) for seat in range(seats)]
        for table in points
    ]
