"""taiwan13 settlement (document 001, rules 7-8 and 胡牌名词): 1 台 = 20 points, a discard is paid
by the discarder alone, a self-draw by all three, the dealer counts one 台 more, and a player who
leaves loses 50 points while the others stay unchanged."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.scoring import score_win
from engine.scoring.taiwan13 import POINTS_PER_TAI, settle, settle_leave
from engine.settlement import SettleContext
from engine.view import ScoreItem

from ._util import ctx

# 门清 1 + 平胡 2 + 一条龙 2 = 5 台 (seat 南: not the dealer)
FIVE = dict(concealed="123m456m789m234p5s", win="5s")


def scored(concealed, win, melds=(), flowers="", seat="S", **kw):
    result = score_win(ctx(concealed, win, melds, flowers, seat=seat, **kw), "taiwan13")
    assert result.valid, result.reason
    return result


def test_one_tai_is_twenty_points():
    assert POINTS_PER_TAI == 20


def test_fang_qiang_only_the_discarder_pays():
    s = settle(scored(**FIVE), SettleContext(winner=1, dealer=0, discarder=2))
    assert s.deltas == (0, 100, -100, 0)
    assert [(p.payer, p.tai, p.amount) for p in s.payments] == [(2, 5, 100)]


def test_zi_mo_all_three_pay():
    result = scored(**FIVE, self_drawn=True)  # 6 台 with 自摸
    s = settle(result, SettleContext(winner=1, dealer=3, discarder=None))
    assert s.deltas == (-120, 380, -120, -140)  # the dealer pays one 台 more


def test_zhuang_jia_dealer_discarding_pays_one_tai_more_and_the_sheet_shows_it():
    s = settle(scored(**FIVE), SettleContext(winner=1, dealer=2, discarder=2))
    assert s.deltas == (0, 120, -120, 0)
    assert s.items[-1] == ScoreItem("庄家", 1) and sum(i.value for i in s.items) == 6


def test_zhuang_jia_dealer_winning_counts_it_once():
    result = scored(**FIVE, seat="E", dealer=True)
    assert result.total == 6
    s = settle(result, SettleContext(winner=0, dealer=0, discarder=3))
    assert s.deltas == (120, 0, 0, -120)
    assert [i.name for i in s.items].count("庄家") == 1


def test_dealer_self_draw_all_three_pay_the_same():
    result = scored(**FIVE, seat="E", dealer=True, self_drawn=True)  # 7 台
    s = settle(result, SettleContext(winner=0, dealer=0, discarder=None))
    assert s.deltas == (420, -140, -140, -140)


def test_lian_zhuang_adds_nothing_to_the_payment():
    a = scored(**FIVE, seat="E", dealer=True)
    b = scored(**FIVE, seat="E", dealer=True, dealer_streak=4)
    assert settle(a, SettleContext(winner=0, dealer=0, discarder=1)) == settle(
        b, SettleContext(winner=0, dealer=0, discarder=1)
    )


def test_si_an_ke_pays_thirteen_times_twenty_as_the_documents_example():
    result = scored("111m444p777s55s22z", "5s", self_drawn=True)
    assert result.total == 13
    s = settle(result, SettleContext(winner=1, dealer=0, discarder=None))
    assert s.deltas == (-280, 800, -260, -260)  # 13 x 20 each, the dealer one 台 more


def test_da_hua_hu_three_pay_thirteen_tai_flat():
    result = scored("", None, flowers="f1f2f3f4f5f6f7f8", flower_win="大花胡", seat="E", dealer=True)
    s = settle(result, SettleContext(winner=0, dealer=0, discarder=None))
    assert s.deltas == (780, -260, -260, -260)
    result = scored("", None, flowers="f1f2f3f4f5f6f7f8", flower_win="大花胡")
    s = settle(result, SettleContext(winner=1, dealer=0, discarder=None))
    assert s.deltas == (-260, 780, -260, -260)  # no dealer extra either way


def test_settling_needs_a_valid_win_and_sane_seats():
    below = score_win(ctx("234m567m45s11z", "6s", ["pon:222p"], seat="S"), "taiwan13")
    with pytest.raises(ValueError, match="invalid"):
        settle(below, SettleContext(winner=1, dealer=0, discarder=2))
    with pytest.raises(ValueError):
        settle(scored(**FIVE), SettleContext(winner=1, dealer=0, discarder=1))
    with pytest.raises(ValueError, match="庄家"):
        settle(scored(**FIVE), SettleContext(winner=0, dealer=0, discarder=1))  # scored as a non-dealer


def test_player_who_leaves_loses_fifty_and_the_others_are_unchanged():
    s = settle_leave(2)
    assert s.deltas == (0, 0, -50, 0) and s.payments == ()
    with pytest.raises(ValueError):
        settle_leave(4)


@given(
    winner=st.integers(0, 3),
    dealer=st.integers(0, 3),
    discarder=st.one_of(st.none(), st.integers(0, 3)),
    self_drawn=st.booleans(),
)
def test_every_win_is_zero_sum_and_only_payers_lose(winner, dealer, discarder, self_drawn):
    if discarder == winner:
        discarder = None
    result = scored(
        **FIVE, seat="E" if winner == dealer else "S", dealer=winner == dealer, self_drawn=self_drawn
    )
    s = settle(result, SettleContext(winner=winner, dealer=dealer, discarder=discarder))
    assert sum(s.deltas) == 0
    payers = {discarder} if discarder is not None else set(range(4)) - {winner}
    assert all((s.deltas[p] < 0) == (p in payers) for p in range(4) if p != winner)
    for p in s.payments:
        assert p.amount == p.tai * POINTS_PER_TAI
        assert p.tai == result.total + (p.payer == dealer)
