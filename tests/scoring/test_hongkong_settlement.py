"""hongkong settlement (document 002): 2^番 after 爆和 per share; 放炮 pays alone, 自摸 三家付,
人和 莊家付, 杠開 包牌 by whoever discarded the kong tile, 搶杠 paid by the kong's owner."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.scoring import TableOptions, score_win
from engine.scoring.hongkong import settle, settle_win
from engine.settlement import SettleContext

from ._util import ctx


def scored(concealed, win, melds=(), seat="S", **flags):
    result = score_win(ctx(concealed, win, melds, seat=seat, options=TableOptions(), **flags), "hongkong")
    assert result.valid, result.reason
    return result


CHICKEN = ("234m567s999p4m", "4m", ["chi:123p"])  # 雞糊 0 番 → 1 point; self-drawn 1 番 → 2
QING_PENG = ("333m555m777m9m", "9m", ["pon:111m"])  # 清碰 6 番 → 64 points


def test_discard_win_only_the_discarder_pays():
    s = settle_win(scored(*QING_PENG), winner=1, discarder=3)
    assert s.deltas == (0, 64, 0, -64)
    assert [(p.payer, p.tai, p.amount, p.reason) for p in s.payments] == [(3, 6, 64, "胡")]


def test_self_draw_three_pay():
    s = settle_win(scored(*CHICKEN, self_drawn=True), winner=2, discarder=None)
    assert s.deltas == (-2, -2, 6, -2)
    assert {p.reason for p in s.payments} == {"自摸"}


def test_payment_is_capped_at_bao_he():
    result = scored("123456789m345m9m", "9m", self_drawn=True)  # 8 番 before the cap
    assert result.total == 8
    assert settle_win(result, winner=0, discarder=None).deltas == (96, -32, -32, -32)


def test_unit_scales_every_share():
    assert settle_win(scored(*QING_PENG), winner=0, discarder=1, unit=10).deltas == (640, -640, 0, 0)


def test_ren_he_the_dealer_who_discarded_pays():
    # 人和: won on the dealer's first discard; 莊家付, 9 番 = 512
    s = settle_win(scored("123p234m567s999p4m", "4m", earthly=True, from_dealer=True), winner=2, discarder=0)
    assert s.deltas == (-512, 0, 512, 0)


def test_tian_he_three_pay_512():
    result = scored("123p234m567s999p4m", "4m", seat="E", dealer=True, self_drawn=True, heavenly=True)
    assert settle_win(result, winner=0, discarder=None).deltas == (1536, -512, -512, -512)


def test_gang_kai_bao_pai_the_kong_tiles_discarder_pays_all_three_shares():
    # 杠開: 雞糊 + 自摸 1 + 杠開 1 = 2 番 = 4 points a share; seat 3 discarded the 1p that was 明杠'd
    result = scored("234m567s999p4m", "4m", ["kong:1111p"], self_drawn=True, kong_replacement=True)
    s = settle_win(result, winner=1, discarder=None, kong_discarder=3)
    assert s.deltas == (0, 12, 0, -12)
    assert [(p.payer, p.amount, p.reason) for p in s.payments] == [(3, 12, "杠開")]


def test_gang_kai_on_a_concealed_kong_is_an_ordinary_self_draw():
    result = scored("234m567s999p4m", "4m", ["ankong:1111p"], self_drawn=True, kong_replacement=True)
    assert settle_win(result, winner=1, discarder=None).deltas == (-8, 24, -8, -8)  # 門前清 too: 3 番


def test_qiang_gang_the_kong_owner_pays_all_three_shares():
    # 搶杠 當自摸: 雞糊 + 自摸 1 = 2 points a share, three shares, 由杠牌人付
    s = settle_win(scored(*CHICKEN, robbing_kong=True), winner=0, discarder=2, robbing_kong=True)
    assert s.deltas == (6, 0, -6, 0)
    assert [(p.payer, p.amount, p.reason) for p in s.payments] == [(2, 6, "搶杠")]


def test_score_sheet_is_the_winners_items():
    result = scored(*QING_PENG)
    assert settle_win(result, winner=1, discarder=3).items == result.items


@pytest.mark.parametrize(
    "kw",
    [
        dict(winner=1, discarder=1),
        dict(winner=1, discarder=None, kong_discarder=1),
        dict(winner=1, discarder=None, robbing_kong=True),
        dict(winner=1, discarder=2, kong_discarder=3),
        dict(winner=4, discarder=None),
    ],
)
def test_impossible_payers_are_rejected(kw):
    with pytest.raises(ValueError):
        settle_win(scored(*CHICKEN), **kw)


def test_invalid_win_cannot_be_settled():
    result = score_win(ctx(*CHICKEN, seat="S", options=TableOptions(min_tai=3)), "hongkong")
    with pytest.raises(ValueError, match="invalid win"):
        settle_win(result, winner=0, discarder=1)


@given(
    winner=st.integers(0, 3),
    other=st.integers(0, 3),
    case=st.sampled_from(["discard", "self", "rob", "kong"]),
    hand=st.sampled_from([CHICKEN, QING_PENG]),
)
def test_settlement_is_zero_sum_and_the_winner_gets_everything(winner, other, case, hand):
    if other == winner:
        other = (winner + 1) % 4
    kw = dict(
        discard=dict(discarder=other),
        self=dict(discarder=None),
        rob=dict(discarder=other, robbing_kong=True),
        kong=dict(discarder=None, kong_discarder=other),
    )[case]
    s = settle_win(scored(*hand), winner=winner, **kw)
    assert sum(s.deltas) == 0
    assert s.deltas[winner] > 0 and all(d <= 0 for i, d in enumerate(s.deltas) if i != winner)
    share = 1 if hand is CHICKEN else 64
    assert s.deltas[winner] == share * (1 if case == "discard" else 3)


def test_settle_hook_reads_the_match_facts():
    # the hook Match calls: SettleContext carries the robbed kong and the 明杠 discarder
    robbed = settle(scored(*CHICKEN, robbing_kong=True), SettleContext(0, 1, discarder=2, robbing_kong=True))
    assert robbed.deltas == (6, 0, -6, 0)
    result = scored("234m567s999p4m", "4m", ["kong:1111p"], self_drawn=True, kong_replacement=True)
    assert settle(result, SettleContext(1, 1, kong_discarder=3)).deltas == (0, 12, 0, -12)
    assert settle(result, SettleContext(1, 1)).deltas == (-4, 12, -4, -4)


def test_settlement_reports_the_fan_paid_when_bao_he_cut_the_hand():
    capped = settle_win(scored("123456789m345m9m", "9m", self_drawn=True), winner=0, discarder=None)
    assert capped.capped_total == 5
    assert settle_win(scored(*QING_PENG), winner=0, discarder=1).capped_total is None
