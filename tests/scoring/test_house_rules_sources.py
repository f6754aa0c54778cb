"""The family presets reproduce the sources they name (issue 40 item 2): each case is one of the
source's own tests (or a rule of its code), written out in tile notation and scored with the preset.
Sources and clauses: docs/rules/taiwan16.md, "Families of tables".

- ``funclub``: SkyEye-FAST/taiwan-mahjong, profile POCKET_COMMON (TaiwanScoringProfile.kt) and its
  tests PatternRegressionTest.kt / TaiwanScoringTest.kt. Its table has no 莊家 row (the host's
  payment), so the dealer's 莊家 is left out of the comparison.
- ``online``: taiwan-mahjong-no-1/taiwan-mahjong, src/engine/scoring.ts and the cases of
  tests/fixtures/scoring-cases.md (their ids in the test names). Its 咪幾 is the document's Miji.
"""

import pytest

from engine.house_rules import FAMILIES, PRESET_SOURCES, HouseRules
from engine.rules import TableOptions

from ._util import items

FUNCLUB = TableOptions(house_rules=HouseRules.resolve("funclub"))
ONLINE = TableOptions(house_rules=HouseRules.resolve("online"))


def got(options: TableOptions, concealed: str, win: str, melds=(), **flags) -> dict[str, int]:
    scored = items(concealed, win, list(melds), options=options, **flags)
    scored.pop("莊家", None)  # neither source scores 莊家 with the hand
    return scored


FIVE_CHOWS = ["chi:123m", "chi:456m", "chi:789p", "chi:234s", "chi:567s"]


# ---------------------------------------------------------------- funclub (POCKET_COMMON)


def test_funclub_big_four_winds_all_honours_five_concealed_counting_winds_and_dragons():
    # PatternRegressionTest: "11122233344455566z" → 大四喜, 字一色, 五暗刻, not 碰碰胡; 大四喜 and 字一色
    # exclude no wind, 字一色 no dragon
    assert got(FUNCLUB, "111z222z333z444z555z6z", "6z", self_drawn=True, dealer=True) == {
        "門清自摸": 3, "風牌": 2, "三元牌": 1, "獨聽": 1, "字一色": 16, "大四喜": 16, "五暗刻": 8,
    }


def test_funclub_big_four_winds_counts_an_ke():
    assert got(FUNCLUB, "111z222z333z444z123p5m", "5m") == {
        "門清": 1, "風牌": 2, "獨聽": 1, "四暗刻": 5, "大四喜": 16,
    }


def test_funclub_little_four_winds_counts_winds_and_an_ke():
    # "11122233355566644z": 小四喜 with 字一色 and 五暗刻; the seat's and round's 東 and both dragons count
    assert got(FUNCLUB, "111z222z333z555z666z4z", "4z", self_drawn=True, dealer=True) == {
        "門清自摸": 3, "風牌": 2, "三元牌": 2, "獨聽": 1, "字一色": 16, "小四喜": 8, "五暗刻": 8,
    }


def test_funclub_ping_hu_has_no_wait_rule():
    # "123456m123p123789s55p" won on a discard: PINFU (a pair wait, and 獨聽 beside it)
    assert got(FUNCLUB, "123456m123p123789s5p", "5p") == {"門清": 1, "獨聽": 1, "平胡": 2}


def test_funclub_tian_hu_counts_du_ting():
    # openingExclusions: 天胡 excludes 門清自摸, 門清, 自摸 and 槓上開花 — and nothing else
    assert got(FUNCLUB, "111m222p333s444z555z6z", "6z", self_drawn=True, dealer=True, heavenly=True) == {
        "三元牌": 1, "獨聽": 1, "碰碰胡": 4, "五暗刻": 8, "天胡": 24,
    }


def test_funclub_tian_ting_excludes_men_qing_but_not_men_qing_zi_mo():
    ready = dict(declared_ready=True, heavenly_ready=True)
    assert got(FUNCLUB, "111m222p333s444z555z6z", "6z", self_drawn=True, dealer=True, **ready) == {
        "門清自摸": 3, "三元牌": 1, "獨聽": 1, "碰碰胡": 4, "天聽": 16, "五暗刻": 8,
    }
    assert got(FUNCLUB, "123456m123p123789s5p", "5p", dealer=True, **ready) == {"獨聽": 1, "平胡": 2, "天聽": 16}


def test_funclub_di_hu_is_self_drawn_only():
    hand = ("111m222p333s444z555z6z", "6z")
    assert got(FUNCLUB, *hand, seat="S", self_drawn=True, earthly=True)["地胡"] == 16
    assert "地胡" not in got(FUNCLUB, *hand, seat="S", earthly=True)


def test_funclub_quan_qiu_ren_and_ban_qiu_ren_count_du_ting():
    # "11z" with five claimed chows: ALL_FROM_OTHERS on a discard, HALF_FROM_OTHERS + SELF_DRAW drawn
    assert got(FUNCLUB, "1z", "1z", FIVE_CHOWS, seat="S") == {"獨聽": 1, "全求人": 2}
    assert got(FUNCLUB, "1z", "1z", FIVE_CHOWS, seat="S", self_drawn=True) == {"自摸": 1, "獨聽": 1, "半求人": 1}


def test_funclub_five_concealed_still_adds_all_triplets():
    # exclusionsDoNotDoubleCount: "111m222p333s44455566z" self-drawn
    assert got(FUNCLUB, "111m222p333s444z555z6z", "6z", self_drawn=True, seat="S") == {
        "門清自摸": 3, "三元牌": 1, "獨聽": 1, "碰碰胡": 4, "五暗刻": 8,
    }


# ---------------------------------------------------------------- online (scoring.ts, scoring-cases)


def test_online_x09_tian_hu_is_twenty_four_and_nothing_else():
    assert got(ONLINE, "123m456m789m234p78s44z", "6s", self_drawn=True, dealer=True, heavenly=True,
               flowers="f1", dealer_streak=2) == {"天胡": 24}
    assert "莊家" not in items("123m456m789m234p78s44z", "6s", options=ONLINE, self_drawn=True, dealer=True,
                               heavenly=True)  # 不另計莊家


def test_online_t06_miji_counts_men_qing():
    assert got(ONLINE, "123m456m789p234s78s44z", "6s", seat="S", miji=True, eye_declared=True) == {
        "門清": 1, "Miji": 4,
    }


def test_online_t07_tian_ting_is_the_dealers_and_keeps_men_qing():
    ready = dict(declared_ready=True, heavenly_ready=True)
    assert got(ONLINE, "123m456m789p234s78s44z", "6s", dealer=True, **ready) == {"門清": 1, "天聽": 8}
    assert got(ONLINE, "123m456m789p234s78s44z", "6s", seat="S", **ready) == {"門清": 1}  # not a non-dealer's


def test_online_l03_xiao_san_yuan_counts_its_two_dragon_pungs():
    assert got(ONLINE, "123m456p78m55z", "9m", ["pon:777z", "pon:666z"], seat="S") == {"三元牌": 2, "小三元": 4}


def test_online_l07_zi_yi_se_counts_peng_peng_hu_and_dragons():
    melds = ["pon:111z", "pon:222z", "pon:777z", "pon:666z"]
    assert got(ONLINE, "333z4z", "4z", melds, seat="S") == {
        "三元牌": 2, "獨聽": 1, "碰碰胡": 4, "字一色": 16, "小四喜": 8,
    }


def test_online_zi_yi_se_counts_wind_pungs():
    # the 風 block scores 圈風刻 / 門風刻 unless 大四喜 or 小四喜, whatever the suits
    assert got(ONLINE, "111z222z333z555z666z7z", "7z", seat="S") == {
        "門清": 1, "風牌": 2, "三元牌": 2, "獨聽": 1, "碰碰胡": 4, "小三元": 4, "字一色": 16, "五暗刻": 8,
    }


def test_online_four_winds_count_an_ke_but_not_wind_pungs():
    assert got(ONLINE, "111z222z333z444z123p5m", "5m", seat="S") == {"門清": 1, "獨聽": 1, "四暗刻": 5, "大四喜": 16}
    assert got(ONLINE, "111z222z333z123m456m4z", "4z", seat="S") == {
        "門清": 1, "獨聽": 1, "三暗刻": 2, "混一色": 4, "小四喜": 8,
    }


def test_online_kong_bloom_only_after_a_kong():
    flags = dict(seat="S", self_drawn=True, kong_replacement=True)
    assert "槓上開花" not in got(ONLINE, "123m456m789p234s78s44z", "6s", after_flower=True, **flags)
    assert got(ONLINE, "123m456m789p234s78s44z", "6s", **flags) == {"門清自摸": 3, "槓上開花": 1}  # X04


def test_online_ping_hu_on_any_wait_but_du_ting_the_pair_wait_included():
    assert got(ONLINE, "234m567m345p6789s", "9s", ["chi:123p"], seat="S") == {"平胡": 2}
    assert got(ONLINE, "123m456m789p234s79s55p", "8s", seat="S") == {"門清": 1, "獨聽": 1}  # P04


def test_online_x10_di_hu_is_a_first_draw_self_draw_with_men_qing_zi_mo():
    hand = ("123m456m789m234p78s44z", "6s")
    assert got(ONLINE, *hand, seat="S", self_drawn=True, earthly=True) == {"門清自摸": 3, "地胡": 16}
    assert got(ONLINE, *hand, seat="S", earthly=True) == {"門清": 1}  # a discard win is ordinary there


def test_online_g01_eight_flowers_paid_at_once_leave_the_later_win_without_flower_tai():
    assert got(ONLINE, "123m456m789m234p78s44z", "6s", seat="S", self_drawn=True,
               flowers="f1f2f3f4f5f6f7f8", flower_bonus_taken=True) == {"門清自摸": 3}


# ---------------------------------------------------------------- descriptions


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_each_family_names_its_source_and_what_it_cannot_express(name):
    source, missing = PRESET_SOURCES[name]
    assert "/" in source and missing  # a repository named, and the rest said
