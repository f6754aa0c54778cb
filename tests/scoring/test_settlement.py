"""Settlement (document 000, 胡牌後各方計算 and 滿台計算): each case of the formula, the cap and its
exceptions, the 24-台 rule, 眼牌, 七搶一 / 八仙過海, and zero-sum properties."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rules import TableOptions
from engine.settlement import (
    STAKE_PRESETS,
    dealer_extra,
    eye_penalty,
    settle,
    settle_flower_win,
    settle_win,
)
from engine.view import ScoreItem

from ._util import score

STAKES = TableOptions(base=300, tai=100, bankroll_tai=None)  # 底 300, 台 100, 滿台 16


def test_default_stakes_are_300_base_100_per_tai_capped_at_16():
    assert TableOptions(bankroll_tai=None) == STAKES and STAKES.cap_tai == 16 and STAKES.bankroll_tai is None
    assert STAKE_PRESETS["100/100"] == TableOptions(base=100, tai=100)
    assert STAKE_PRESETS["100/100"].base == STAKE_PRESETS["100/100"].tai


def test_dealer_extra_is_two_n_plus_one():
    assert [dealer_extra(n) for n in (0, 1, 2, 8, 12)] == [1, 3, 5, 17, 17]


def test_xian_jia_hu_xian_jia_base_plus_tai():
    # 閒家胡閒家：底+台數 / 閒家輸閒家：-（底+台數）
    s = settle(5, winner=1, dealer=0, dealer_streak=3, discarder=2, options=STAKES)
    assert s.deltas == (0, 800, -800, 0)
    assert s.items == ()


def test_xian_jia_zi_mo_three_pay_and_the_dealer_pays_two_n_plus_one():
    # 閒家自摸莊家[連n]：(底+台數)×3 + [2n+1]
    s = settle(5, winner=1, dealer=0, dealer_streak=2, discarder=None, options=STAKES)
    assert s.deltas == (-(800 + 500), 800 * 3 + 500, -800, -800)
    assert s.items == (ScoreItem("莊家", 1), ScoreItem("連莊", 4))


def test_xian_jia_hu_zhuang_jia_dealer_pays_two_n_plus_one():
    # 閒家胡莊家[連n]：底+台數+[2n+1] / 莊家輸閒家：-（底+台數+[2n+1]）
    s = settle(5, winner=2, dealer=0, dealer_streak=1, discarder=0, options=STAKES)
    assert s.deltas == (-(300 + 500 + 300), 0, 1100, 0)
    assert s.items == (ScoreItem("莊家", 1), ScoreItem("連莊", 2))


def test_zhuang_jia_zi_mo_all_three_pay_with_two_n_plus_one():
    # 莊家[連n]自摸：(底+台數+[2n+1])×3
    s = settle(5, winner=0, dealer=0, dealer_streak=1, discarder=None, options=STAKES)
    assert s.deltas == (3 * 1100, -1100, -1100, -1100)


def test_zhuang_jia_hu_discarder_pays_two_n_plus_one():
    # 莊家[連n]胡：底+台數+[2n+1] / 閒家輸莊家：-（底+台數+[2n+1]）
    s = settle(5, winner=0, dealer=0, dealer_streak=0, discarder=3, options=STAKES)
    assert s.deltas == (900, 0, 0, -900)


def test_dealer_not_involved_pays_no_extra_on_a_discard():
    # 胡情況非放槍者：0
    s = settle(5, winner=1, dealer=3, dealer_streak=4, discarder=2, options=STAKES)
    assert s.deltas[3] == 0 and s.deltas[0] == 0


def test_scored_dealer_items_are_not_counted_twice():
    # dealer 連二拉二 wins 門清 + 平胡 (3 台) on a discard: items 莊家 1 + 連莊 4 + 3 = 8 台
    result = score("123456789m456p3455s", "2s", dealer=True, dealer_streak=2)
    assert result.total == 8 and result.dealer == 5
    s = settle_win(result, winner=0, dealer=0, dealer_streak=2, discarder=1, options=STAKES)
    assert s.deltas == (300 + 800, -1100, 0, 0)
    assert s.items == result.items  # nothing added: the items already hold 莊家/連莊


def test_non_dealer_winning_off_the_dealer_shows_the_dealers_extras_on_the_sheet():
    result = score("123456789m456p3455s", "2s", seat="S")
    s = settle_win(result, winner=1, dealer=0, dealer_streak=2, discarder=0, options=STAKES)
    assert s.deltas == (-(300 + 300 + 500), 1100, 0, 0)
    assert s.items == result.items + (ScoreItem("莊家", 1), ScoreItem("連莊", 4))


def test_settle_win_refuses_a_result_scored_for_another_dealer():
    result = score("123456789m456p3455s", "2s", dealer=True, dealer_streak=2)
    with pytest.raises(ValueError):
        settle_win(result, winner=0, dealer=0, dealer_streak=1, discarder=1)
    with pytest.raises(ValueError):
        settle_win(result, winner=1, dealer=0, dealer_streak=2, discarder=2)


def test_man_tai_caps_at_sixteen():
    s = settle(24, winner=1, dealer=0, dealer_streak=0, discarder=2, options=STAKES)
    assert s.payments[0].tai == 16 and s.deltas[2] == -(300 + 1600)


def test_man_tai_exceptions_men_qing_zi_mo_yan_pai_and_dealer_on_top():
    # 24 台 of which 門清自摸 3 + 眼牌 1 are outside the cap: 16 + 4; the dealer pays [2n+1] on top
    s = settle(24, winner=1, dealer=0, dealer_streak=2, discarder=None, options=STAKES, uncapped=4)
    by_payer = {p.payer: p.tai for p in s.payments}
    assert by_payer == {0: 20 + 5, 2: 20, 3: 20}


def test_settle_win_applies_the_cap_from_the_scored_items():
    # dealer 連一拉一, 眼牌, 大四喜 16 + 碰碰胡 4 + 獨聽 1 = 21 capped to 16
    result = score("111z222z333z444z5p", "5p", ["pon:999m"], dealer=True, dealer_streak=1, eye_declared=True)
    s = settle_win(result, winner=0, dealer=0, dealer_streak=1, discarder=2, options=STAKES)
    assert s.payments[0].tai == 16 + 1 + 3


def test_no_cap_when_the_table_has_none():
    s = settle(
        30,
        winner=1,
        dealer=0,
        dealer_streak=0,
        discarder=2,
        options=TableOptions(cap_tai=None, bankroll_tai=None),
    )
    assert s.payments[0].tai == 30


def test_bankroll_rule_a_loser_pays_at_most_base_plus_24_tai():
    stakes = TableOptions(base=300, tai=100, cap_tai=None, bankroll_tai=24)
    s = settle(30, winner=1, dealer=0, dealer_streak=0, discarder=2, options=stakes)
    assert s.deltas == (0, 2700, -2700, 0)
    small = settle(5, winner=1, dealer=0, dealer_streak=0, discarder=2, options=stakes)
    assert small.deltas == (0, 800, -800, 0)


def test_yan_pai_penalty_declarers_who_lose_pay_one_tai_to_the_winner():
    s = eye_penalty([0, 2, 1], winner=1, options=STAKES)
    assert s.deltas == (-100, 200, -100, 0)


def test_yan_pai_penalty_folded_into_a_settled_win():
    result = score("123456789m456p3455s", "2s", seat="S")
    s = settle_win(
        result, winner=1, dealer=3, dealer_streak=0, discarder=2, options=STAKES, eye_declarers=[0]
    )
    assert s.deltas == (-100, 300 + 300 + 100, -600, 0)


def test_qi_qiang_yi_the_single_flower_holder_pays_one_base_eight_tai():
    s = settle_flower_win("七搶一", winner=2, single_flower_holder=3, options=STAKES)
    assert s.deltas == (0, 0, 1100, -1100)


def test_ba_xian_guo_hai_all_three_pay_one_base_eight_tai():
    s = settle_flower_win("八仙過海", winner=2, options=STAKES)
    assert s.deltas == (-1100, -1100, 3300, -1100)


def test_flower_win_settled_from_a_scored_result():
    result = score("", None, flowers="f1f2f3f4f5f6f7f8", flower_win="八仙過海", self_drawn=True, dealer=True)
    s = settle_win(result, winner=0, dealer=0, dealer_streak=3, discarder=None, options=STAKES)
    assert s.deltas == (3300, -1100, -1100, -1100)
    with pytest.raises(ValueError):
        settle_flower_win("七搶一", winner=2, options=STAKES)  # who holds the single flower?


def test_settling_an_invalid_result_is_an_error():
    result = score("123456789m456p3455s", "9s")
    with pytest.raises(ValueError):
        settle_win(result, winner=0, dealer=0, dealer_streak=0, discarder=1)


# ---------------------------------------------------------------- properties

seats = st.integers(0, 3)
stakes_st = st.builds(
    TableOptions,
    base=st.integers(0, 1000),
    tai=st.integers(0, 500),
    cap_tai=st.one_of(st.none(), st.integers(0, 32)),
    bankroll_tai=st.one_of(st.none(), st.integers(0, 48)),
)


@st.composite
def wins(draw):
    winner = draw(seats)
    discarder = draw(st.one_of(st.none(), seats.filter(lambda s: s != winner)))
    tai = draw(st.integers(0, 120))
    uncapped = draw(st.integers(0, tai))
    return winner, discarder, tai, uncapped


@given(wins(), seats, st.integers(0, 20), stakes_st)
def test_settlement_is_zero_sum(win, dealer, streak, stakes):
    winner, discarder, tai, uncapped = win
    s = settle(
        tai,
        winner=winner,
        dealer=dealer,
        dealer_streak=streak,
        discarder=discarder,
        options=stakes,
        uncapped=uncapped,
    )
    assert sum(s.deltas) == 0
    assert s.deltas[winner] >= 0
    payers = {p.payer for p in s.payments}
    assert payers == ({discarder} if discarder is not None else set(range(4)) - {winner})
    for seat in range(4):
        if seat != winner and seat not in payers:
            assert s.deltas[seat] == 0
        if seat in payers:
            assert s.deltas[seat] <= 0


@given(wins(), seats, st.integers(0, 20), stakes_st)
def test_the_dealer_pays_or_receives_the_extra_only_when_involved(win, dealer, streak, stakes):
    winner, discarder, tai, uncapped = win
    s = settle(
        tai,
        winner=winner,
        dealer=dealer,
        dealer_streak=streak,
        discarder=discarder,
        options=stakes,
        uncapped=uncapped,
    )
    base_tai = tai if stakes.cap_tai is None else min(tai - uncapped, stakes.cap_tai) + uncapped
    for p in s.payments:
        involved = dealer in (winner, p.payer)
        assert p.tai == base_tai + (dealer_extra(streak) if involved else 0)


@given(wins(), seats, st.integers(0, 20), stakes_st, st.lists(seats, max_size=4))
def test_settlement_with_eye_penalties_is_zero_sum(win, dealer, streak, stakes, declarers):
    winner, discarder, tai, uncapped = win
    s = settle(
        tai,
        winner=winner,
        dealer=dealer,
        dealer_streak=streak,
        discarder=discarder,
        options=stakes,
        uncapped=uncapped,
    )
    pen = eye_penalty(declarers, winner=winner, options=stakes)
    assert sum(s.deltas) + sum(pen.deltas) == 0
    assert pen.deltas[winner] == stakes.tai * len(set(declarers) - {winner})


@given(seats, seats, stakes_st)
def test_flower_wins_are_zero_sum(winner, holder, stakes):
    assert sum(settle_flower_win("八仙過海", winner=winner, options=stakes).deltas) == 0
    if holder != winner:
        s = settle_flower_win("七搶一", winner=winner, single_flower_holder=holder, options=stakes)
        assert sum(s.deltas) == 0 and s.deltas[holder] == -(stakes.base + 8 * stakes.tai)
