"""The taiwan13 台 table (document 001, 十三张麻将台数计算), item by item and 不计 by 不计.

Hands are 13 tiles + the winning tile, in tile notation. The seat is 南 and the round 東 unless a
test says otherwise, and each hand is built to carry exactly the feature it proves.
"""

from dataclasses import replace

import pytest

from engine.scoring import ScoringError, evaluate, get_rules, score_win
from engine.scoring.core import standard_readings
from engine.scoring.taiwan13 import LIMIT_TAI, form_readings

from ._util import ctx


def score(concealed, win, melds=(), flowers="", seat="S", **kw):
    return score_win(ctx(concealed, win, melds, flowers, seat=seat, **kw), "taiwan13")


def items(concealed, win, melds=(), flowers="", seat="S", **kw):
    """The counted items, as name -> 台 (also for a hand below the 1-台 minimum)."""
    return {i.name: i.value for i in score(concealed, win, melds, flowers, seat, **kw).items}


# an open hand with one pung and three chows: worth nothing
PLAIN = dict(concealed="234m567m45s11z", win="6s", melds=["pon:222p"])


def plain(**kw):
    args = {**PLAIN, **kw}
    return items(args.pop("concealed"), args.pop("win"), args.pop("melds"), **args)


# ---------------------------------------------------------------- the minimum and the table itself


def test_a_hand_without_tai_cannot_win():
    result = score(**PLAIN)
    assert not result.valid and result.items == () and "1 needed" in result.reason


def test_one_tai_is_enough_to_win():
    result = score(**{**PLAIN, "self_drawn": True})
    assert result.valid and result.total == 1 and result.unit == "tai" and result.rules == "taiwan13"


def test_hand_that_is_not_complete_is_not_a_win():
    result = score("234m567m45s11z", "9s", ["pon:222p"])
    assert not result.valid and "not a winning hand" in result.reason


def test_hand_size_is_thirteen():
    with pytest.raises(ScoringError, match="expected 13"):
        score("234m567m345s45s11z", "6s", ["chi:123p"])


# 十三张麻将台数计算, row by row: 名称 台数
DOCUMENT_TABLE = """
门清 1 庄家 1 自摸 1 风牌 1 三元牌 1 海底捞月 1 杠上开花 1 断么九 1 一杯口 1 三色同顺 1 平胡 2 一条龙 2
三暗刻 2 七对子 2 混全带么 2 双杯口 2 全求 2 三色同刻 2 碰碰胡 4 小三元 4 大三元 13 混一色 4 纯全带么 4
混老头 8 清一色 8 小四喜 13 大花胡 13 四暗刻 13 字一色 13 国士无双 13 绿一色 13 九莲宝灯 13 清老头 13
大车轮 13 地胡 13 天胡 13
""".split()


def test_table_is_the_documents_names_values_and_order():
    expected = list(zip(DOCUMENT_TABLE[::2], map(int, DOCUMENT_TABLE[1::2]), strict=True))
    assert [(i.name, i.value) for i in get_rules("taiwan13").items] == expected
    assert len(expected) == 36


# ---------------------------------------------------------------- 门清 庄家 自摸


def test_men_qing_no_chi_no_pon():
    assert items("222p234m567m45s11z", "6s") == {"门清": 1}


def test_an_gang_keeps_men_qing():
    assert items("234m567m45s11z", "6s", ["ankong:2222p"]) == {"门清": 1}


@pytest.mark.parametrize("meld", ["pon:222p", "kong:2222p", "addkong:2222p", "chi:234p"])
def test_claimed_sets_break_men_qing(meld):
    assert "门清" not in items("234m567m45s11z", "6s", [meld])


def test_zhuang_jia_dealer_adds_one():
    assert items("222p234m567m45s11z", "6s", dealer=True) == {"门清": 1, "庄家": 1}


def test_zhuang_jia_alone_reaches_the_one_tai_minimum():
    """Rule 5: 一定要有台数，也就是符合下方…表中的任何一项 — 庄家 is a row of that table."""
    result = score(**{**PLAIN, "dealer": True})
    assert result.valid and [i.name for i in result.items] == ["庄家"] and result.countable == 1
    assert not score(**PLAIN).valid  # a non-dealer with the same hand has no 台


def test_lian_zhuang_adds_no_tai_bu_lei_jia():
    assert items("222p234m567m45s11z", "6s", dealer=True, dealer_streak=3) == {"门清": 1, "庄家": 1}


def test_zi_mo_self_draw_adds_one():
    assert plain(self_drawn=True) == {"自摸": 1}


def test_men_qing_and_zi_mo_both_count():
    assert items("222p234m567m45s11z", "6s", self_drawn=True) == {"门清": 1, "自摸": 1}


# ---------------------------------------------------------------- 风牌 三元牌


def test_feng_pai_seat_wind_pung():
    assert plain(melds=["pon:222z"], concealed="234m567m45s99p") == {"风牌": 1}


def test_feng_pai_round_wind_pung():
    assert plain(melds=["pon:111z"], concealed="234m567m45s99p") == {"风牌": 1}


def test_feng_pai_documents_example_north_seat_in_west_round():
    # 胡牌者坐在开门位置玩家的左边 (北), 此圈为西风圈: 北风或西风的刻子就可多加一台
    hand = dict(concealed="234m567m45s99p", seat="N", round="W")
    assert plain(melds=["pon:444z"], **hand) == {"风牌": 1}
    assert plain(melds=["pon:333z"], **hand) == {"风牌": 1}
    assert plain(melds=["pon:111z"], **hand) == {}


def test_feng_pai_seat_and_round_wind_at_once_is_two():
    assert plain(melds=["pon:111z"], concealed="234m567m45s99p", seat="E") == {"风牌": 2}


def test_feng_pai_wind_pair_is_nothing():
    assert plain(concealed="234m567m45s22z") == {}


def test_san_yuan_pai_each_dragon_pung():
    assert plain(melds=["pon:555z"], concealed="234m567m45s99p") == {"三元牌": 1}
    assert items("234m45s99p", "6s", ["pon:555z", "pon:777z"]) == {"三元牌": 2}


# ---------------------------------------------------------------- 海底捞月 杠上开花


def test_hai_di_lao_yue_self_draw_of_the_last_tile():
    assert plain(self_drawn=True, last_tile=True) == {"自摸": 1, "海底捞月": 1}


def test_hai_di_lao_yue_not_on_a_discard():
    assert "海底捞月" not in plain(last_tile=True)


def test_gang_shang_kai_hua_win_on_a_replacement_tile():
    assert plain(self_drawn=True, kong_replacement=True) == {"自摸": 1, "杠上开花": 1}


# ---------------------------------------------------------------- 断么九 一杯口 三色同顺 平胡 一条龙


def test_duan_yao_jiu_no_honour_no_terminal():
    assert items("234m567m45s66p", "3s", ["pon:222p"]) == {"断么九": 1}


def test_duan_yao_jiu_broken_by_a_terminal_in_a_meld():
    assert "断么九" not in items("234m567m45s66p", "3s", ["pon:999p"])


def test_yi_bei_kou_two_identical_chows():
    assert items("234m234m45s11z", "6s", ["pon:222p"]) == {"一杯口": 1}


def test_yi_bei_kou_chows_of_different_suits_are_not():
    assert "一杯口" not in items("234m234s45s11z", "6s", ["pon:222p"])


def test_san_se_tong_shun_same_chow_in_three_suits():
    assert items("234m234s1z", "1z", ["chi:234p", "pon:999p"]) == {"三色同顺": 1}


def test_ping_hu_all_chows():
    assert plain(melds=["chi:123p"]) == {"平胡": 2}


def test_ping_hu_broken_by_a_pung():
    assert "平胡" not in items("234m567m45s11z", "6s", ["pon:111p"], self_drawn=True)


def test_yi_tiao_long_one_to_nine_in_one_suit():
    assert items("123m456m789m1z", "1z", ["pon:222p"]) == {"一条龙": 2}


def test_yi_tiao_long_needs_one_suit():
    assert "一条龙" not in items("123m456p789m1z", "1z", ["pon:222p"], self_drawn=True)


# ---------------------------------------------------------------- 三暗刻 七对子 混全带么 双杯口 全求 三色同刻


def test_san_an_ke_three_concealed_pungs():
    assert items("111m444p777s5s", "5s", ["chi:123p"]) == {"三暗刻": 2}


def test_san_an_ke_pung_completed_by_a_discard_is_not_concealed():
    assert "三暗刻" not in items("111m444p77s55s", "7s", ["chi:123p"])
    assert items("111m444p77s55s", "7s", ["chi:123p"], self_drawn=True) == {"三暗刻": 2, "自摸": 1}


def test_qi_dui_zi_seven_pairs():
    assert items("1122m3344p5566s7z", "7z") == {"门清": 1, "七对子": 2}


def test_qi_dui_zi_needs_seven_different_pairs():
    result = score("1111m3344p5566s7z", "7z")
    assert not result.valid and "not a winning hand" in result.reason


def test_hun_quan_dai_yao_every_set_and_pair_has_a_terminal_or_honour():
    assert items("789m123s999s1z", "1z", ["chi:123p"]) == {"混全带么": 2}


def test_hun_quan_dai_yao_needs_an_honour():
    assert "混全带么" not in items("789m123s999s1p", "1p", ["chi:123p"])


def test_shuang_bei_kou_two_yi_bei_kou_bu_ji_yi_bei_kou():
    got = items("223344m556677p9s", "9s")
    assert got == {"门清": 1, "平胡": 2, "双杯口": 2}
    assert "一杯口" not in got and "七对子" not in got  # the better reading of the same tiles


def test_quan_qiu_single_wait_and_every_set_claimed():
    melds = ["chi:123p", "chi:456m", "pon:777s", "chi:789m"]
    assert items("5p", "5p", melds) == {"全求": 2}


def test_quan_qiu_not_on_a_self_draw():
    melds = ["chi:123p", "chi:456m", "pon:777s", "chi:789m"]
    assert items("5p", "5p", melds, self_drawn=True) == {"自摸": 1}


def test_quan_qiu_broken_by_an_an_gang():
    melds = ["chi:123p", "chi:456m", "ankong:7777s", "chi:789m"]
    assert "全求" not in items("5p", "5p", melds)


def test_san_se_tong_ke_same_pung_in_three_suits():
    assert items("222m222s456m9s", "9s", ["pon:222p"]) == {"三色同刻": 2}


# ---------------------------------------------------------------- 碰碰胡 小三元 混一色 纯全带么 混老头 清一色


def test_peng_peng_hu_all_pungs():
    assert items("333m888m9p", "9p", ["pon:222p", "pon:555s"]) == {"碰碰胡": 4}


def test_xiao_san_yuan_two_dragon_pungs_and_a_dragon_pair_bu_ji_san_yuan_pai():
    got = items("666z234m567p7z", "7z", ["pon:555z"])
    assert got == {"小三元": 4}
    assert "三元牌" not in got


def test_hun_yi_se_one_suit_and_honours():
    assert items("456m888m333z9m", "9m", ["pon:222m"]) == {"混一色": 4}


def test_chun_quan_dai_yao_every_set_and_pair_has_a_terminal_no_honours():
    got = items("789m111s789s9m", "9m", ["chi:123p"])
    assert got == {"纯全带么": 4}
    assert "混全带么" not in got


def test_chun_quan_dai_yao_needs_the_pair_too():
    assert "纯全带么" not in items("789m111s789s5m", "5m", ["chi:123p"])


def test_hun_lao_tou_terminals_and_honours_bu_ji_peng_peng_hu_or_hun_quan_dai_yao():
    got = items("111s333z9s", "9s", ["pon:111m", "pon:999p"])
    assert got == {"混老头": 8}
    assert "碰碰胡" not in got and "混全带么" not in got


def test_hun_lao_tou_as_seven_pairs():
    assert items("1199m1199p11z22z3z", "3z") == {"门清": 1, "七对子": 2, "混老头": 8}


def test_qing_yi_se_one_suit_only():
    got = items("456m678m222m9m", "9m", ["chi:123m"])
    assert got == {"清一色": 8}
    assert "混一色" not in got


# ---------------------------------------------------------------- the 13-台 hands


def test_da_san_yuan_three_dragon_pungs():
    assert items("555z666z777z23m99p", "1m") == {"大三元": 13}


def test_xiao_si_xi_three_wind_pungs_and_a_wind_pair():
    assert items("333z44z56m", "4m", ["pon:111z", "pon:222z"]) == {"小四喜": 13}


def test_xiao_si_xi_four_wind_pungs_counts_as_xiao_si_xi():
    # the table has no 大四喜: four wind pungs are at least 小四喜
    assert items("333z444z5m", "5m", ["pon:111z", "pon:222z"]) == {"小四喜": 13}


def test_da_hua_hu_all_eight_flowers_wins_at_once():
    got = items("", None, flowers="f1f2f3f4f5f6f7f8", flower_win="大花胡")
    assert got == {"大花胡": 13}


def test_da_hua_hu_needs_all_eight_flowers():
    result = score("", None, flowers="f1f2f3f4f5f6f7", flower_win="大花胡")
    assert not result.valid


def test_si_an_ke_four_concealed_pungs_is_thirteen_as_the_documents_example():
    # 如果胡牌者是以“四暗刻”来胡牌 … 四暗刻是13台
    assert items("111m444p777s55s22z", "5s", self_drawn=True) == {"四暗刻": 13}


def test_si_an_ke_not_when_the_fourth_pung_is_a_discard():
    assert items("111m444p777s55s22z", "5s") == {"门清": 1, "三暗刻": 2, "碰碰胡": 4}


def test_zi_yi_se_all_honours():
    assert items("222z333z555z6z", "6z", ["pon:111z"]) == {"字一色": 13}


def test_zi_yi_se_as_seven_pairs():
    assert items("1122334455667z", "7z") == {"字一色": 13}


def test_guo_shi_wu_shuang_thirteen_orphans():
    assert items("19m19p19s1234567z", "9m") == {"国士无双": 13}


def test_guo_shi_wu_shuang_thirteen_sided_wait():
    assert items("119m19p19s234567z", "1z") == {"国士无双": 13}


def test_lu_yi_se_two_three_four_six_eight_sou_and_fa():
    assert items("22334466688s66z", "6z") == {"绿一色": 13}


def test_jiu_lian_bao_deng_nine_gates_in_wan():
    assert items("1112345678999m", "5m") == {"九莲宝灯": 13}
    assert items("1112345678999m", "9m") == {"九莲宝灯": 13}


def test_jiu_lian_bao_deng_is_wan_only():
    assert "九莲宝灯" not in items("1112345678999p", "5p")


def test_jiu_lian_bao_deng_needs_a_concealed_hand():
    assert "九莲宝灯" not in items("2345678999m", "1m", ["pon:111m"])


def test_qing_lao_tou_terminals_only():
    assert items("999m111p999s1s", "1s", ["pon:111m"]) == {"清老头": 13}


def test_da_che_lun_seven_pairs_of_two_to_eight_pin():
    assert items("2233445566778p", "8p") == {"大车轮": 13}


def test_di_hu_non_dealer_wins_in_the_first_go_round():
    assert items("222p234m567m45s11z", "6s", earthly=True) == {"地胡": 13}


def test_tian_hu_dealer_wins_on_the_deal():
    got = items("222p234m567m45s11z", "6s", seat="E", dealer=True, self_drawn=True, heavenly=True)
    assert got == {"庄家": 1, "天胡": 13}


def test_thirteen_tai_hands_add_up():
    got = items("555z666z777z111z2z", "2z", seat="S", self_drawn=True)
    assert got == {"大三元": 13, "四暗刻": 13, "字一色": 13}


def test_dealer_keeps_zhuang_jia_with_a_thirteen_tai_hand():
    assert items("19m19p19s1234567z", "9m", seat="E", dealer=True) == {"庄家": 1, "国士无双": 13}


# ---------------------------------------------------------------- 不计: what a 13-台 hand leaves out

# (hand, the 13-台 items, the items the same tiles would count without the limit rule)
LIMIT_HANDS = [
    (dict(concealed="555z666z777z23m99p", win="1m"), {"大三元"}, {"门清", "三元牌", "三暗刻"}),
    (dict(concealed="333z44z56m", win="4m", melds=["pon:111z", "pon:222z"]), {"小四喜"}, {"风牌", "混一色"}),
    (
        dict(
            concealed="",
            win=None,
            flowers="f1f2f3f4f5f6f7f8",
            flower_win="大花胡",
            self_drawn=True,
            dealer=True,
        ),
        {"大花胡"},
        {"庄家", "自摸"},
    ),
    (
        dict(concealed="111m444p777s55s22z", win="5s", self_drawn=True),
        {"四暗刻"},
        {"门清", "自摸", "三暗刻", "碰碰胡"},
    ),
    (
        dict(concealed="222z333z555z6z", win="6z", melds=["pon:111z"]),
        {"字一色"},
        {"三元牌", "碰碰胡", "清一色"},
    ),
    (dict(concealed="19m19p19s1234567z", win="9m"), {"国士无双"}, {"门清", "混老头"}),
    (dict(concealed="22334466688s66z", win="6z"), {"绿一色"}, {"门清", "混一色", "一杯口"}),
    (dict(concealed="1112345678999m", win="5m"), {"九莲宝灯"}, {"门清", "清一色"}),
    (
        dict(concealed="111p111s999m9p", win="9p", melds=["pon:111m"]),
        {"清老头"},
        {"碰碰胡", "纯全带么", "三色同刻", "三暗刻"},
    ),
    (
        dict(concealed="2233445566778p", win="8p"),
        {"大车轮"},
        {"门清", "七对子", "清一色", "断么九", "平胡", "双杯口"},
    ),
    (
        dict(concealed="222p234m567m45s11z", win="6s", earthly=True, self_drawn=True),
        {"地胡"},
        {"门清", "自摸"},
    ),
    (
        dict(concealed="222p234m567m45s11z", win="6s", seat="E", dealer=True, self_drawn=True, heavenly=True),
        {"天胡"},
        {"门清", "自摸"},
    ),
]


def _limit_ctx(hand):
    hand = dict(hand)
    args = (hand.pop("concealed"), hand.pop("win"), hand.pop("melds", ()), hand.pop("flowers", ""))
    return ctx(*args, seat=hand.pop("seat", "S"), **hand)


def _counted_without_limit_rule(c):
    """Every item any reading of ``c`` counts when the 13-台 items exclude nothing."""
    table = get_rules("taiwan13")
    bare = replace(
        table,
        items=tuple(replace(i, excludes=frozenset()) if i.value == LIMIT_TAI else i for i in table.items),
    )
    readings = [None] if c.flower_win else [*standard_readings(c), *form_readings(c)]
    return set().union(*({it.name for it, _ in evaluate(bare, r, c)} for r in readings))


_IDS = [sorted(h[1])[0] for h in LIMIT_HANDS]


@pytest.mark.parametrize(("hand", "limit", "left_out"), LIMIT_HANDS, ids=_IDS)
def test_thirteen_tai_hand_bu_ji_the_smaller_items(hand, limit, left_out):
    result = score_win(_limit_ctx(hand), "taiwan13")
    got = {i.name for i in result.items}
    assert result.valid and got - {"庄家"} == limit
    assert not got & left_out


@pytest.mark.parametrize(("hand", "limit", "left_out"), LIMIT_HANDS, ids=_IDS)
def test_the_left_out_items_are_there_without_the_limit_rule(hand, limit, left_out):
    """Each 不计 above is real: the same tiles, with the limit items excluding nothing, count
    every left-out item."""
    assert left_out <= _counted_without_limit_rule(_limit_ctx(hand))


def test_every_thirteen_tai_item_excludes_every_smaller_item_but_zhuang_jia():
    table = get_rules("taiwan13")
    smaller = {i.name for i in table.items if i.value < LIMIT_TAI} - {"庄家"}
    for it in table.items:
        if it.value == LIMIT_TAI and it.name != "大花胡":
            assert it.excludes == smaller, it.name
    assert table.find("大花胡").excludes == {i.name for i in table.items} - {"大花胡"}


def test_smaller_items_exclude_only_what_their_definition_holds():
    table = get_rules("taiwan13")
    excluding = {i.name: set(i.excludes) for i in table.items if i.excludes and i.value < LIMIT_TAI}
    assert excluding == {"双杯口": {"一杯口"}, "小三元": {"三元牌"}, "混老头": {"碰碰胡", "混全带么"}}
