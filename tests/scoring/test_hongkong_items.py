"""The hongkong 番 table (document 002, 三、番的牌型規則設定), row by row, with 爆和 and 番起和.

Hands are 13 tiles + the winning tile, in tile notation. Seat 南, round 東 unless a test says
otherwise, so a plain hand has no wind 番.
"""

import pytest

from engine.scoring import ScoringError, TableOptions, get_rules, score_win
from engine.scoring.hongkong import BAO_HE, bonus_tile, fan_paid, points
from engine.tiles import parse_tiles, tile_from_str

from ._util import ctx


def score(concealed, win, melds=(), *, seat="S", options=None, flipped="", **flags):
    indicators = tuple(parse_tiles(flipped))
    c = ctx(
        concealed,
        win,
        melds,
        seat=seat,
        options=options or TableOptions(),
        bonus_indicators=indicators,
        **flags,
    )
    return score_win(c, "hongkong")


def items(*args, **kw):
    result = score(*args, **kw)
    assert result.valid, result.reason
    return {i.name: i.value for i in result.items}


# a claimed chow, a concealed pung, three suits, a single wait on the pair: 雞糊
CHICKEN = ("234m567s999p4m", "4m", ["chi:123p"])


def test_rules_are_registered_in_fan_for_13_tiles():
    rules = get_rules("hongkong")
    assert (rules.name, rules.unit, rules.hand_size) == ("hongkong", "fan", 13)


# ---------------------------------------------------------------- 爆和以內


def test_ji_hu_chicken_hand_is_a_valid_win_worth_zero_fan_and_one_point():
    result = score(*CHICKEN)
    assert result.valid and result.total == 0
    assert {i.name: i.value for i in result.items} == {"雞糊": 0}
    assert points(result) == 1


def test_ping_hu_all_chows_one_fan():
    assert items("234m567s789p4m", "4m", ["chi:123p"]) == {"平胡": 1}


def test_peng_peng_hu_all_pungs_three_fan():
    assert items("333m555s777p9m", "9m", ["pon:222p"]) == {"碰碰胡": 3}


def test_hun_yi_se_one_suit_and_honours_three_fan():
    assert items("456m789m444z5m", "5m", ["chi:123m"]) == {"混一色": 3}


def test_hun_peng_is_five_and_replaces_hun_yi_se_and_peng_peng_hu():
    assert items("222m999m444z5m", "5m", ["pon:111m"]) == {"混碰": 5}


def test_qing_yi_se_one_suit_no_honours_five_fan():
    assert items("456m777m345m9m", "9m", ["chi:123m"]) == {"清一色": 5}


def test_qing_yi_se_adds_ping_hu_within_bao_he():
    result = score("456m789m345m9m", "9m", ["chi:123m"])
    assert {i.name: i.value for i in result.items} == {"平胡": 1, "清一色": 5}
    assert result.total == 6 and fan_paid(result) == BAO_HE and points(result) == 32


def test_bao_he_caps_an_ordinary_hand_at_five_fan_but_total_keeps_every_fan():
    # 清一色 5 + 平胡 1 + 門前清 1 + 自摸 1 = 8 番, paid as 爆和 5 番 = 32
    result = score("123456789m345m9m", "9m", self_drawn=True)
    assert {i.name: i.value for i in result.items} == {"平胡": 1, "清一色": 5, "自摸": 1, "門前清": 1}
    assert result.total == 8
    assert fan_paid(result) == 5 and points(result) == 32


# ---------------------------------------------------------------- 爆和以外


def test_qing_peng_six_fan_sixty_four_points():
    result = score("333m555m777m9m", "9m", ["pon:111m"])
    assert {i.name: i.value for i in result.items} == {"清碰": 6}
    assert points(result) == 64


def test_qing_peng_is_chosen_over_a_chow_reading_that_adds_up_to_more_fan():
    # read as chows: 清一色 5 + 門前清 1 + 自摸 1 = 7 番 → 爆和 → 32; read as pungs: 清碰 → 64
    result = score("111222333m555m9m", "9m", self_drawn=True)
    assert {i.name: i.value for i in result.items} == {"清碰": 6}
    assert points(result) == 64


def test_hun_yao_jiu_terminals_and_honours_six_fan():
    assert items("999p111s444z9s", "9s", ["pon:111m"]) == {"混幺九": 6}


def test_xiao_san_yuan_two_dragon_pungs_and_a_dragon_pair_seven_fan():
    result = score("666z123m456m7z", "7z", ["pon:555z"])
    assert {i.name: i.value for i in result.items} == {"小三元": 7}  # not 三元牌 2 on top
    assert points(result) == 128


def test_xiao_si_xi_three_wind_pungs_and_a_wind_pair_seven_fan():
    assert items("222z333z4z789m", "4z", ["pon:111z"]) == {"小四喜": 7}


def test_zi_yi_se_all_honours_eight_fan():
    assert items("222z333z555z7z", "7z", ["pon:111z"]) == {"字一色": 8}


def test_zi_yi_se_outranks_xiao_san_yuan_in_the_same_hand():
    assert items("222z555z666z7z", "7z", ["pon:111z"]) == {"字一色": 8}


def test_qing_yao_jiu_only_ones_and_nines_eight_fan():
    assert items("999m111p999p1s", "1s", ["pon:111m"]) == {"清幺九": 8}


def test_da_san_yuan_three_dragon_pungs_nine_fan():
    result = score("666z777z123m9p", "9p", ["pon:555z"])
    assert {i.name: i.value for i in result.items} == {"大三元": 9}
    assert points(result) == 512


def test_da_si_xi_four_wind_pungs_nine_fan():
    assert items("222z333z444z5m", "5m", ["pon:111z"]) == {"大四喜": 9}


def test_da_si_xi_outranks_zi_yi_se():
    assert items("222z333z444z7z", "7z", ["pon:111z"]) == {"大四喜": 9}


def test_shi_san_yao_thirteen_way_wait_nine_fan():
    result = score("19m19p19s1234567z", "1m")
    assert {i.name: i.value for i in result.items} == {"十三幺": 9}
    assert result.reading is not None and len(result.reading.waits) == 13
    assert points(result) == 512


def test_shi_san_yao_with_the_pair_in_hand_waits_on_the_missing_tile():
    result = score("119m19p19s123456z", "7z")
    assert {i.name: i.value for i in result.items} == {"十三幺": 9}
    assert result.reading is not None and result.reading.waits == (tile_from_str("7z"),)


def test_shi_san_yao_needs_every_orphan():
    assert not score("119m19p19s123455z", "7z").valid


@pytest.mark.parametrize(
    "flags",
    [dict(self_drawn=True), dict(self_drawn=True, last_tile=True), dict(robbing_kong=True)],
)
def test_no_addition_is_added_beyond_bao_he(flags):
    assert items("333m555m777m9m", "9m", ["pon:111m"], **flags).keys() - {"搶杠"} == {"清碰"}


def test_no_wind_or_dragon_addition_beyond_bao_he():
    # 東 pung as 東家 in 東圈 would be 風牌刻 2, plus 門前清: neither is added to 混幺九
    assert items("111z999p555z111s9s", "9s", seat="E") == {"混幺九": 6}


# ---------------------------------------------------------------- 附加情況


def test_zi_mo_self_draw_adds_one_fan():
    assert items(*CHICKEN, self_drawn=True) == {"雞糊": 0, "自摸": 1}


def test_feng_pai_ke_seat_wind_pung_one_fan():
    assert items("234m567s999p4m", "4m", ["pon:222z"]) == {"雞糊": 0, "風牌刻": 1}


def test_feng_pai_ke_round_wind_pung_one_fan():
    assert items("234m567s999p4m", "4m", ["pon:111z"]) == {"雞糊": 0, "風牌刻": 1}


def test_feng_pai_ke_seat_and_round_wind_pung_counts_twice():
    assert items("234m567s999p4m", "4m", ["pon:111z"], seat="E") == {"雞糊": 0, "風牌刻": 2}


def test_feng_pai_ke_other_wind_pung_is_nothing():
    assert items("234m567s999p4m", "4m", ["pon:444z"]) == {"雞糊": 0}


def test_san_yuan_pai_one_fan_per_dragon_pung():
    assert items("234m567s999p4m", "4m", ["pon:777z"]) == {"雞糊": 0, "三元牌": 1}
    assert items("234m666z999p4m", "4m", ["pon:777z"]) == {"雞糊": 0, "三元牌": 2}


def test_men_qian_qing_concealed_hand_one_fan():
    assert items("123p234m567s999p4m", "4m") == {"雞糊": 0, "門前清": 1}


def test_men_qian_qing_kept_by_a_concealed_kong():
    assert items("234m567s999p4m", "4m", ["ankong:1111p"]) == {"雞糊": 0, "門前清": 1}


@pytest.mark.parametrize("meld", ["chi:123p", "pon:111p", "kong:1111p", "addkong:1111p"])
def test_men_qian_qing_broken_by_any_claim(meld):
    assert "門前清" not in items("234m567s999p4m", "4m", [meld])


def test_tian_he_dealer_heavenly_hand_is_counted_as_shi_san_yao():
    result = score("123p234m567s999p4m", "4m", seat="E", dealer=True, self_drawn=True, heavenly=True)
    assert {i.name: i.value for i in result.items} == {"天和": 9}
    assert points(result) == 512


def test_ren_he_win_on_the_dealers_first_discard_nine_fan():
    assert items("123p234m567s999p4m", "4m", earthly=True, from_dealer=True) == {"人和": 9}


def test_ren_he_needs_the_dealers_discard():
    # a first-round win on another non-dealer's first discard is an ordinary win
    assert items("123p234m567s999p4m", "4m", earthly=True) == {"雞糊": 0, "門前清": 1}


def test_di_he_non_dealer_self_draws_first_tile_nine_fan():
    assert items("123p234m567s999p4m", "4m", earthly=True, self_drawn=True) == {"地和": 9}


def test_hai_di_lao_yue_last_tile_self_drawn_one_fan_and_zi_mo():
    assert items(*CHICKEN, self_drawn=True, last_tile=True) == {"雞糊": 0, "自摸": 1, "海底撈月": 1}


def test_hai_di_needs_a_self_draw():
    assert "海底撈月" not in items(*CHICKEN, last_tile=True)


def test_gang_kai_kong_replacement_win_is_zi_mo_plus_one():
    got = items("234m567s999p4m", "4m", ["kong:1111p"], self_drawn=True, kong_replacement=True)
    assert got == {"雞糊": 0, "自摸": 1, "杠開": 1}


def test_qiang_gang_counts_as_zi_mo_without_the_extra_fan():
    assert items(*CHICKEN, robbing_kong=True) == {"雞糊": 0, "自摸": 1, "搶杠": 0}


def test_bao_pai_one_fan_per_copy_in_the_hand():
    assert items(*CHICKEN, flipped="3m") == {"雞糊": 0, "寶牌": 3}  # 234m and the 44m pair
    assert items(*CHICKEN, flipped="1m") == {"雞糊": 0, "寶牌": 1}
    assert items(*CHICKEN, flipped="8p") == {"雞糊": 0, "寶牌": 3}


def test_bao_pai_counts_in_melds():
    assert items("234m567s999p4m", "4m", ["kong:1111p"], flipped="9p") == {"雞糊": 0, "寶牌": 4}


def test_bao_pai_absent_from_the_hand_is_nothing():
    assert items(*CHICKEN, flipped="6z") == {"雞糊": 0}


def test_bao_pai_is_not_added_beyond_bao_he():
    assert items("333m555m777m9m", "9m", ["pon:111m"], flipped="2m") == {"清碰": 6}


@pytest.mark.parametrize(
    ("indicator", "bonus"),
    [("3m", "4m"), ("9p", "1p"), ("9s", "1s"), ("1z", "2z"), ("4z", "1z"), ("5z", "6z"), ("7z", "5z")],
)
def test_bao_pai_is_the_tile_after_the_flipped_one(indicator, bonus):
    # 翻開三萬時, 四萬即為帶寶牌; 翻開九筒時, 一筒即為帶寶牌; 東南西北 and 白發中 in order
    assert bonus_tile(tile_from_str(indicator)) == tile_from_str(bonus)


# ---------------------------------------------------------------- 番起和 servers


def test_fan_minimum_applies_only_when_the_options_name_one():
    assert score(*CHICKEN).valid  # 無番起和 by default: 雞糊 is a win


@pytest.mark.parametrize(("server", "minimum"), [("3番起和", 3), ("1番起和", 1), ("無番起和", 0)])
def test_three_servers_refuse_hands_below_their_minimum(server, minimum):
    opts = TableOptions(min_tai=minimum)
    assert score(*CHICKEN, options=opts).valid == (minimum == 0)
    assert score("234m567s789p4m", "4m", ["chi:123p"], options=opts).valid == (minimum <= 1)  # 平胡
    assert score("333m555s777p9m", "9m", ["pon:222p"], options=opts).valid  # 碰碰胡 3


def test_bao_pai_does_not_count_toward_the_fan_minimum():
    result = score(*CHICKEN, options=TableOptions(min_tai=1), flipped="8p")
    assert not result.valid and "below the table minimum" in result.reason


def test_special_hand_meets_the_three_fan_minimum():
    assert score("19m19p19s1234567z", "1m", options=TableOptions(min_tai=3)).valid


# ---------------------------------------------------------------- impossible contexts


def test_sixteen_tile_hand_is_rejected():
    with pytest.raises(ScoringError, match="wrong hand size"):
        score("234m567m345s45s11z", "6s", ["chi:123p"])


def test_flowers_are_rejected_in_13_tile_play():
    with pytest.raises(ScoringError, match="no flowers"):
        score_win(ctx(*CHICKEN, flowers="f1", seat="S"), "hongkong")


# ---------------------------------------------------------------- the 16-tile game (hand_size 16)

SIXTEEN = TableOptions(hand_size=16)


def test_sixteen_tile_table_leaves_out_shi_san_yao_and_bao_pai():
    """十三幺 cannot be made of 17 tiles and 寶牌 is 「十三張麻將才有」: neither is a row of the
    16-tile table; every other row is the same."""
    thirteen, sixteen = get_rules("hongkong"), get_rules("hongkong").sized(16)
    assert sixteen.hand_size == 16
    assert {i.name for i in thirteen.items} - {i.name for i in sixteen.items} == {"十三幺", "寶牌"}


def test_sixteen_tile_hand_scores_five_sets_and_a_pair_with_flowers_for_nothing():
    got = items("123m456m789m123p456p1s", "1s", options=SIXTEEN, flowers="f1f2", self_drawn=True)
    assert got == {"平胡": 1, "自摸": 1, "門前清": 1}


def test_sixteen_tile_win_on_a_flower_replacement_is_gang_kai():
    """「若補進之牌恰巧胡牌，也算杠上開花」."""
    got = items("123m456m789m123p456p1s", "1s", options=SIXTEEN, flowers="f3", self_drawn=True,
                kong_replacement=True, after_flower=True)
    assert got["杠開"] == 1


def test_sixteen_tile_game_refuses_bao_pai_and_a_thirteen_tile_hand():
    with pytest.raises(ScoringError, match="十三張麻將才有"):
        score("123m456m789m123p456p1s", "1s", options=SIXTEEN, flipped="3m")
    with pytest.raises(ScoringError, match="wrong hand size"):
        score(*CHICKEN, options=SIXTEEN)
