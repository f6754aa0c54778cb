"""A player leaving mid-hand: taiwan13 ends the table with the leaver's penalty (中断连线); taiwan16
auto-plays the seat instead (代打), so the match has nothing to settle."""

from __future__ import annotations

from engine.match import Match


def test_leaving_a_taiwan13_table_ends_the_match_and_the_leaver_pays_50():
    match = Match("taiwan13", seed=4, rounds=2)
    game = match.new_hand()
    result = match.abandon(game, 2)
    assert result is not None and result.winner is None and result.deltas == (0, 0, -50, 0)
    assert match.scores == [0, 0, -50, 0] and match.is_over
    assert match.history[-1].result is result


def test_leaving_a_taiwan16_table_is_not_a_settlement():
    match = Match("taiwan16", seed=4)
    game = match.new_hand()
    assert match.abandon(game, 1) is None
    assert match.scores == [0, 0, 0, 0] and not match.is_over and match.history == []
