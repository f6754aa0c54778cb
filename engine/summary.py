"""A match at its end, as the summary picture shows it (issue 23): each seat's placement, total,
best hand, wins (自摸 among them) and deal-ins, read from the match's own history. Pure.

>>> from engine.match import Match
>>> rows = match_summary(Match("taiwan16", seed=1))
>>> [(r.seat, r.place, r.score, r.wins, r.deal_ins) for r in rows]
[(0, 1, 0, 0, 0), (1, 1, 0, 0, 0), (2, 1, 0, 0, 0), (3, 1, 0, 0, 0)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .view import HandResult

if TYPE_CHECKING:
    from .match import Match


@dataclass(frozen=True, slots=True)
class SeatSummary:
    seat: int
    place: int  # 1..4; equal scores share a place
    score: int
    wins: int
    self_draws: int
    deal_ins: int
    best: HandResult | None  # the seat's biggest win (its total, ties to the earliest)
    best_hand: int | None  # that hand's number in the match


def match_summary(match: Match) -> tuple[SeatSummary, ...]:
    """One row per seat, from first place to last (seat order among equals)."""
    scores = match.scores
    wins = [0] * 4
    tsumo = [0] * 4
    dealt = [0] * 4
    best: list[tuple[HandResult, int] | None] = [None] * 4
    for record in match.history:
        result = record.result
        if result.winner is None:
            continue
        w = result.winner
        wins[w] += 1
        tsumo[w] += int(result.self_drawn)
        if result.loser is not None and not result.self_drawn:
            dealt[result.loser] += 1
        value = result.capped_total if result.capped_total is not None else result.total
        held = best[w]
        if held is None or value > _value(held[0]):
            best[w] = (result, record.number)
    order = sorted(range(4), key=lambda s: (-scores[s], s))
    rows = []
    for seat in order:
        place = 1 + sum(1 for other in range(4) if scores[other] > scores[seat])
        held = best[seat]
        rows.append(
            SeatSummary(
                seat,
                place,
                scores[seat],
                wins[seat],
                tsumo[seat],
                dealt[seat],
                None if held is None else held[0],
                None if held is None else held[1],
            )
        )
    return tuple(rows)


def _value(result: HandResult) -> int:
    return result.capped_total if result.capped_total is not None else result.total
