"""The match summary (issue 23): placements, totals, best hands, wins and deal-ins from a
match's history."""

from __future__ import annotations

from engine.match import HandRecord, Match
from engine.scoring.core import ScoreItem
from engine.summary import match_summary
from engine.view import HandResult


def hand(winner, loser, total, deltas, capped=None):
    return HandResult(
        winner, loser, loser is None and winner is not None, 4, (), (), (), (ScoreItem("門清", 1),), total,
        "tai", deltas, capped_total=capped,
    )


def played(results):
    match = Match("taiwan16", seed=1)
    for number, result in enumerate(results, start=1):
        match.history.append(HandRecord(number, 0, 0, 0, result, (), 0))
        match.scores = [a + b for a, b in zip(match.scores, result.deltas, strict=True)]
    return match


def test_the_summary_ranks_by_total_and_counts_wins_self_draws_and_deal_ins():
    match = played(
        [
            hand(1, 2, 5, (0, 800, -800, 0)),
            hand(1, None, 3, (-600, 1800, -600, -600)),
            hand(None, None, 0, (0, 0, 0, 0)),
            hand(3, 2, 8, (0, 0, -1100, 1100)),
        ]
    )
    rows = match_summary(match)
    assert [(r.seat, r.place, r.score) for r in rows] == [(1, 1, 2600), (3, 2, 500), (0, 3, -600), (2, 4, -2500)]
    first, _, _, last = rows
    assert (first.wins, first.self_draws, first.deal_ins, first.best_hand, first.best.total) == (2, 1, 0, 1, 5)
    assert (last.wins, last.deal_ins, last.best) == (0, 2, None)


def test_equal_totals_share_a_place_and_a_capped_hand_counts_what_it_paid():
    match = played([hand(0, 1, 40, (500, -500, 0, 0), capped=16), hand(2, 3, 20, (0, 0, 500, -500))])
    rows = match_summary(match)
    assert [(r.seat, r.place) for r in rows] == [(0, 1), (2, 1), (1, 3), (3, 3)]
    assert rows[0].best.capped_total == 16
