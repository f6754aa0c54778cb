"""The score sheet explains every payment (issue 23): one line per payer and reason, and the
lines add up to the point changes, for every settlement kind of every rule set."""

from __future__ import annotations

import random

import pytest

from cogs.mahjong.payments import payment_lines
from engine.match import Match
from engine.policy import make_policy
from engine.rules import TableOptions
from engine.scoring.core import ScoreItem
from engine.selfplay import play_hand
from engine.settlement import settle
from engine.view import HandResult, Payment

NAMES = ["Ann", "Bo", "Cy", "Di"]


def result(payments, unit="tai", **kw):
    deltas = [0, 0, 0, 0]
    for p in payments:
        deltas[p.payer] -= p.amount
        deltas[p.payee] += p.amount
    return HandResult(
        kw.pop("winner", 1), kw.pop("loser", None), kw.pop("self_drawn", True), 4, (), (), (),
        (ScoreItem("門清", 1),), 1, unit, tuple(deltas), payments=tuple(payments), **kw,
    )


def test_taiwan16_discarder_alone_pays_base_plus_tai():
    paid = settle(5, winner=1, dealer=0, dealer_streak=0, discarder=2)
    lines = payment_lines(result(paid.payments, self_drawn=False, loser=2), NAMES, "en", rules="taiwan16", dealer=0)
    assert lines == [
        "**Payments** (dealer: Ann)",
        "· Cy → Bo **800**: dealt in (胡): the discarder alone pays: 底 300 + 5 台 × 100",
    ]


def test_taiwan16_self_draw_only_the_dealer_pays_zhuang_and_lian_zhuang():
    paid = settle(5, winner=1, dealer=0, dealer_streak=2, discarder=None)
    lines = payment_lines(result(paid.payments), NAMES, "zh-TW", rules="taiwan16", dealer=0, streak=2)
    assert lines[1] == "· Ann → Bo **1,300**：自摸：其他三家各付，底 300 ＋ 10 台 × 100（含莊家 1 ＋ 連莊 4 ＝ 5 台）"
    assert lines[2] == "· Cy → Bo **800**：自摸：其他三家各付，底 300 ＋ 5 台 × 100"
    assert "莊家" not in lines[3]


def test_a_payment_cut_by_the_24_tai_rule_says_so():
    options = TableOptions()
    cut = Payment(2, 1, 40, 2700, "胡")
    lines = payment_lines(result([cut], limited=True), NAMES, "en", rules="taiwan16", dealer=3, options=options)
    assert lines[1].endswith("底 300 + 40 台 × 100 → 2,700 (24台 limit)")
    assert lines[-1] == "24台 limit: nobody pays more than 底 + 24 台."


@pytest.mark.parametrize(
    ("reason", "words"),
    [
        ("搶杠", "包牌 (搶杠): the robbed kong's owner pays for all three: 4 番"),
        ("杠開", "包牌 (杠開): whoever discarded the kong's tile pays for all three: 4 番"),
    ],
)
def test_hongkong_bao_pai_names_the_one_seat_paying_for_all(reason, words):
    lines = payment_lines(result([Payment(3, 1, 4, 48, reason)], unit="fan"), NAMES, "en", rules="hongkong", dealer=0)
    assert lines[1] == f"· Di → Bo **48**: {words}"


def test_guangdong_kongs_and_horses_are_explained_beside_the_win():
    pays = [
        Payment(0, 1, 2, 2, "自摸"), Payment(2, 1, 2, 2, "自摸"), Payment(3, 1, 2, 2, "自摸"),
        Payment(0, 1, 1, 1, "明杠 ×1"),
    ]
    lines = payment_lines(result(pays, unit="multiplier"), NAMES, "zh-CN", rules="guangdong", dealer=0)
    assert lines[0] == "**付款明细**（庄家：Ann）"
    assert "· Ann → Bo **1**：杠分（明杠 ×1）：其他三家各付杠主" in lines


def test_each_guangdong_horse_line_says_which_horse_which_seat_and_which_payment_it_repeats():
    """Issue 37: every payment a horse repeated read "a horse drawn for the winner makes this seat pay the
    win again", for a horse on a loser's seat and for a repeated kong payment too."""
    from engine.meld import Meld
    from engine.scoring import score_win
    from engine.scoring.core import WinContext
    from engine.scoring.guangdong import settle
    from engine.settlement import SettleContext
    from engine.tiles import parse_tiles, tile_from_str

    hand = WinContext(concealed=tuple(parse_tiles("456p789s234s5z")), win_tile=31, self_drawn=True,
                      melds=(Meld.from_str("kong:1111m"),))
    # the dealer is Ann (0), Bo (1) wins; horse 2p names Bo (下家), horse 3s names Cy (对家), a loser
    ctx = SettleContext(winner=1, dealer=0, melds=((), (Meld.from_str("kong:1111m"),), (), ()),
                        horses=(tile_from_str("2p"), tile_from_str("3s")))
    settled = settle(score_win(hand, "guangdong"), ctx)
    lines = payment_lines(result(list(settled.payments), unit="multiplier"), NAMES, "en", rules="guangdong", dealer=0)
    horse_lines = [line for line in lines if "买马" in line]
    assert horse_lines and not any("pay the win again" in line for line in lines)
    bo = [line for line in horse_lines if "2 Dot names Bo" in line]
    cy = [line for line in horse_lines if "3 Bam names Cy" in line]
    assert bo and cy  # each horse says which tile and whose seat it names
    assert any("a kong (明杠)" in line for line in bo) and any("the win (自摸)" in line for line in bo)
    assert all("Cy's place" in line for line in cy) and any("→ Ann" not in line for line in cy)
    kong = [line for line in lines if "kong settlement" in line]
    assert kong and all("买马" not in line for line in kong)  # a kong payment gives its own reason
    zh = payment_lines(result(list(settled.payments), unit="multiplier"), NAMES, "zh-TW", rules="guangdong", dealer=0)
    assert any("買馬：馬牌 二筒 中 Bo" in line and "槓（明槓）" in line for line in zh)


def test_eye_penalty_and_flower_bonus_lines():
    pays = [Payment(2, 1, 1, 100, "眼牌"), Payment(3, 0, 8, 1100, "八仙過海")]
    lines = payment_lines(result(pays), NAMES, "en", rules="taiwan16", dealer=0)
    assert lines[1] == "· Cy → Bo **100**: 眼牌 penalty: a declarer who did not win pays 1 台"
    assert lines[2] == "· Di → Ann **1,100**: 八仙過海: paid at once"


def test_taiwan13_dealer_pays_one_tai_more_and_says_so():
    pays = [Payment(0, 1, 3, 60, "自摸"), Payment(2, 1, 2, 40, "自摸")]
    lines = payment_lines(result(pays), NAMES, "en", rules="taiwan13", dealer=0)
    assert lines[1].endswith("3 台 (庄家 1 台 included: the dealer pays or wins)")
    assert lines[2].endswith(": 2 台")


@pytest.mark.parametrize("rules", ["taiwan16", "taiwan13", "hongkong", "guangdong"])
def test_every_hands_payments_add_up_to_its_point_changes(rules):
    kinds = set()
    for seed in range(12):
        match = Match(rules, seed=seed, rounds=1)
        policies = [make_policy("easy", random.Random(seed * 4 + i)) for i in range(4)]
        while not match.is_over:
            game = match.new_hand()
            play_hand(game, policies, False)
            hand = match.finish_hand(game)
            moved = [0, 0, 0, 0]
            for p in hand.payments:
                moved[p.payer] -= p.amount
                moved[p.payee] += p.amount
                kinds.add(p.reason)
            assert tuple(moved) == hand.deltas
            lines = payment_lines(hand, NAMES, "en", rules=rules, dealer=game.dealer, streak=game.dealer_streak)
            merged = {(p.payer, p.payee, p.reason, p.horse, p.horse_seat, p.again) for p in hand.payments}
            assert len(lines) == (1 + len(merged) if hand.payments else 0) + (
                1 if hand.limited else 0
            )
    assert "自摸" in kinds
    if rules != "guangdong":  # guangdong's easy AIs rarely win on a discard (most hands must self-draw)
        assert "胡" in kinds
    else:
        assert "买马" in kinds
