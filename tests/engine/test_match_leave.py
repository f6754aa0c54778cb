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


def test_the_taiwan13_table_owner_deals_first_and_taiwan16_rolls_for_it():
    for seed in range(20):
        owner_first = Match("taiwan13", seed=seed)
        assert owner_first.first_dealer == owner_first.seat_of_player[0] == owner_first.dealer  # 庄家由东家开始
        dice = Match("taiwan16", seed=seed)
        assert dice.first_dealer == (sum(dice.dealer_dice) - 1) % 4
