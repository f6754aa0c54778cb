"""The taiwan16 台 table, item by item and exclusion by exclusion (document 000, 名稱 台數 說明).

Hands are 16 tiles + the winning tile, in tile notation. A "plain" hand scores nothing, so each
test adds exactly the feature it proves.
"""

import pytest

from engine.scoring import ScoringError, TableOptions, UnknownRules, get_rules, meets_minimum, score_win

from ._util import ctx, items, score

# a claimed chow, an honour pair, a two-sided wait on 3s/6s, seat 南: worth 0 台
PLAIN = dict(concealed="234m567m345s45s11z", win="6s", melds=["chi:123p"], seat="S")


def plain(**kw):
    args = {**PLAIN, **kw}
    return items(args.pop("concealed"), args.pop("win"), args.pop("melds"), **args)


def test_plain_hand_scores_nothing():
    result = score(**PLAIN)
    assert result.valid and result.total == 0 and result.items == ()
    assert result.unit == "tai"


def test_hand_that_is_not_complete_is_not_a_win():
    result = score("234m567m345s45s11z", "9s", ["chi:123p"])
    assert not result.valid and "not a winning hand" in result.reason


# ---------------------------------------------------------------- 莊家 連莊 自摸 門清


def test_zhuang_jia_dealer_wins_one():
    assert plain(dealer=True) == {"莊家": 1}


def test_lian_zhuang_two_per_streak_so_lian_er_la_er_adds_five():
    assert plain(dealer=True, dealer_streak=1) == {"莊家": 1, "連莊": 2}  # 連一拉一 三台
    got = plain(dealer=True, dealer_streak=2)
    assert got == {"莊家": 1, "連莊": 4} and sum(got.values()) == 5  # 連二拉二 五台


def test_lian_zhuang_stops_at_eight_so_dealer_tai_at_most_seventeen():
    got = plain(dealer=True, dealer_streak=11)
    assert got == {"莊家": 1, "連莊": 16}


def test_lian_zhuang_needs_the_winner_to_be_dealer():
    assert plain(dealer=False, dealer_streak=3) == {}


def test_zi_mo_self_draw_one():
    assert plain(self_drawn=True) == {"自摸": 1}


def test_men_qing_concealed_hand_won_on_discard():
    assert items("123p234m567m345s45s11z", "6s", seat="S") == {"門清": 1}


def test_men_qing_zi_mo_is_three_and_replaces_men_qing_and_zi_mo():
    assert items("123p234m567m345s45s11z", "6s", seat="S", self_drawn=True) == {"門清自摸": 3}


def test_an_gang_does_not_break_men_qing():
    assert items("234m567m345s45s11z", "6s", ["ankong:1111p"], seat="S") == {"門清": 1}


@pytest.mark.parametrize("meld", ["pon:111p", "kong:1111p", "addkong:1111p"])
def test_claimed_sets_break_men_qing(meld):
    assert "門清" not in items("234m567m345s45s11z", "6s", [meld], seat="S")


# ---------------------------------------------------------------- 風牌 花牌 見字見花


def test_feng_pai_seat_wind_pung():
    assert plain(melds=["pon:222z"], concealed="234m567m345s45s11p") == {"風牌": 1}


def test_feng_pai_round_wind_pung():
    got = items("234m567m345s45s11p", "6s", ["pon:111z"], seat="S", round="E")
    assert got == {"風牌": 1}


def test_feng_pai_counts_two_when_seat_and_round_wind_coincide():
    assert items("234m567m345s45s11p", "6s", ["pon:111z"], seat="E", round="E") == {"風牌": 2}


def test_feng_pai_seat_and_round_pungs_both_count():
    got = items("234m567m45s11p", "6s", ["pon:111z", "pon:222z"], seat="S", round="E")
    assert got == {"風牌": 2}


def test_feng_pai_from_a_concealed_triplet():
    assert items("222z234m567m45s11p", "6s", ["chi:123p"], seat="S")["風牌"] == 1


def test_other_wind_pung_is_no_feng_pai():
    assert items("234m567m345s45s11p", "6s", ["pon:444z"], seat="S", round="E") == {}


def test_hua_pai_one_per_flower_of_the_seat():
    assert plain(flowers="f2f6f1") == {"花牌": 2}  # seat 南: 夏 and 蘭
    assert plain(flowers="f1f3") == {}


def test_jian_feng_you_tai_every_wind_pung_and_no_feng_pai():
    opts = TableOptions(see_wind_see_flower=True)
    got = items("234m567m45s11p", "6s", ["pon:111z", "pon:444z"], seat="E", round="E", options=opts)
    assert got == {"見風有台": 2}


def test_jian_hua_you_tai_every_flower_and_no_hua_pai():
    opts = TableOptions(see_wind_see_flower=True)
    assert plain(flowers="f2f3f8", options=opts) == {"見花有台": 3}


def test_hua_gang_full_season_set_and_hua_pai_counted_apart():
    assert plain(flowers="f1f2f3f4") == {"花牌": 1, "花槓": 1}
    assert plain(flowers="f5f6f7f8f1") == {"花牌": 1, "花槓": 1}
    assert plain(flowers="f1f2f3f8") == {"花牌": 1}


# ---------------------------------------------------------------- 三元牌 小三元 大三元


def test_san_yuan_pai_one_per_dragon_pung_or_kong():
    assert items("234m567m345s45s11p", "6s", ["pon:777z"], seat="S") == {"三元牌": 1}
    got = items("234m567m45s11p", "6s", ["pon:777z", "kong:6666z"], seat="S")
    assert got == {"三元牌": 2}


def test_xiao_san_yuan_four():
    got = items("234m345s45s77z", "6s", ["pon:555z", "pon:666z"], seat="S")
    assert got == {"小三元": 4}


def test_xiao_san_yuan_does_not_also_count_san_yuan_pai():
    assert "三元牌" not in items("234m345s45s77z", "6s", ["pon:555z", "pon:666z"], seat="S")


def test_da_san_yuan_eight_and_no_san_yuan_pai():
    got = items("234m45s11p", "6s", ["pon:555z", "pon:666z", "pon:777z"], seat="S")
    assert got == {"大三元": 8}


# ---------------------------------------------------------------- 海底撈月 槓上開花 搶摃


def test_hai_di_lao_yue_self_draw_of_the_last_tile_plus_zi_mo():
    assert plain(self_drawn=True, last_tile=True) == {"自摸": 1, "海底撈月": 1}


def test_last_tile_won_on_a_discard_is_no_hai_di_lao_yue():
    assert plain(last_tile=True) == {}


def test_gang_shang_kai_hua_replacement_draw_wins():
    got = items(
        "234m567m45s11z", "6s", ["chi:123p", "kong:9999p"], seat="S", self_drawn=True, kong_replacement=True
    )
    assert got == {"自摸": 1, "槓上開花": 1}


def test_gang_shang_kai_hua_after_a_flower_replacement():
    assert plain(self_drawn=True, kong_replacement=True, flowers="f1") == {"自摸": 1, "槓上開花": 1}


def test_hai_di_lao_yue_adds_up_with_gang_shang_kai_hua():
    got = plain(self_drawn=True, kong_replacement=True, last_tile=True)
    assert got == {"自摸": 1, "海底撈月": 1, "槓上開花": 1}


def test_qiang_gang_robbing_a_kong_is_spelt_as_the_table_spells_it():
    assert plain(robbing_kong=True) == {"搶摃": 1}


# ---------------------------------------------------------------- 獨聽


def test_du_ting_waiting_on_the_pair_document_example():
    # 「123456789」萬 + 「123456」筒 + 3索，只聽3索
    assert items("123456789m123456p3s", "3s") == {"門清": 1, "獨聽": 1}


def test_du_ting_edge_wait_89_waits_7():
    assert items("123456m345p11s789s89m", "7m") == {"門清": 1, "獨聽": 1}


def test_du_ting_closed_wait_13_waits_2():
    assert items("456789m345p11s789s13m", "2m") == {"門清": 1, "獨聽": 1}


def test_no_du_ting_when_two_tiles_complete_the_hand():
    assert "獨聽" not in items("123456789m456p1112s", "2s")  # waits 2s and 3s


# ---------------------------------------------------------------- 平胡: the document's six examples


def test_ping_hu_example_1_no_pair_no_ping_hu():
    # 「123456789萬」，456筒，2345索，沒眼睛，所以沒平胡
    for win in ("2s", "5s"):
        assert "平胡" not in items("123456789m456p2345s", win)


def test_ping_hu_example_2_five_suo_pair():
    # 「123456789萬」，456筒，3455索，5索當眼睛，所以有平胡
    for win in ("2s", "5s"):
        assert items("123456789m456p3455s", win) == {"門清": 1, "平胡": 2}


def test_ping_hu_example_3_five_tong_pair():
    # 「123456789萬」，45556筒，34索，5筒當眼睛，所以有平胡
    for win in ("2s", "5s"):
        assert items("123456789m45556p34s", win) == {"門清": 1, "平胡": 2}


def test_ping_hu_example_4_three_waits_no_ping_hu():
    # 「123456789萬」，456筒，3334索，聽三洞，沒有平胡
    for win in ("2s", "4s", "5s"):
        assert "平胡" not in items("123456789m456p3334s", win)


def test_ping_hu_example_5_three_waits_no_ping_hu():
    # 「123456789萬」，1134567索，聽三洞，沒有平胡
    for win in ("2s", "5s", "8s"):
        assert "平胡" not in items("123456789m1134567s", win)


def test_ping_hu_example_6_single_waits_no_ping_hu():
    # 「123456789萬」，456筒，1112索，聽單張，沒有平胡
    for win in ("2s", "3s"):
        assert "平胡" not in items("123456789m456p1112s", win)


def test_ping_hu_with_claimed_chows():
    assert items("456789m345p11s23s", "4s", ["chi:123m"]) == {"平胡": 2}


def test_ping_hu_needs_no_self_draw():
    assert items("123456789m456p3455s", "2s", self_drawn=True) == {"門清自摸": 3}


def test_ping_hu_needs_no_flowers():
    assert "平胡" not in items("123456789m456p3455s", "2s", flowers="f3")


def test_ping_hu_needs_no_honours():
    assert "平胡" not in items("123456789m456p34s77z", "2s")


@pytest.mark.parametrize("meld", ["pon:999p", "ankong:9999p"])
def test_ping_hu_needs_no_pung_or_kong(meld):
    assert "平胡" not in items("456789m345p11s23s", "4s", [meld])


# ---------------------------------------------------------------- 暗刻


def test_san_an_ke_three_concealed_triplets():
    assert items("111m222p456p33s99s", "3s", ["chi:789s"], self_drawn=True)["三暗刻"] == 2


def test_triplet_completed_on_a_discard_is_not_concealed():
    assert "三暗刻" not in items("111m222p456p33s99s", "3s", ["chi:789s"])


def test_an_gang_counts_as_an_an_ke():
    assert items("222p333s456p9p", "9p", ["chi:789s", "ankong:1111m"])["三暗刻"] == 2


def test_exposed_kong_is_not_an_an_ke():
    assert "三暗刻" not in items("222p333s456p9p", "9p", ["chi:789s", "kong:1111m"])


def test_an_ke_reading_that_maximises_the_score_is_taken():
    # 111222333m reads as three chows or three triplets: the triplets score more
    assert items("111222333m456p9p", "9p", ["chi:789s"])["三暗刻"] == 2


def test_si_an_ke_five_and_does_not_count_san_an_ke():
    got = items("111m222p333s555s9p", "9p", ["chi:789s"])
    assert got["四暗刻"] == 5 and "三暗刻" not in got


def test_wu_an_ke_sixteen_not_three_four_an_ke_nor_peng_peng_hu():
    got = items("111m444m777m222p555p9s", "9s", self_drawn=True)
    assert got == {"門清自摸": 3, "獨聽": 1, "五暗刻": 16}


def test_wu_an_ke_on_two_pairs_needs_self_draw():
    drawn = items("111m444m777m222p55p99s", "9s", self_drawn=True)
    assert drawn["五暗刻"] == 16
    ron = items("111m444m777m222p55p99s", "9s")
    assert "五暗刻" not in ron and ron["四暗刻"] == 5 and ron["碰碰胡"] == 4


# ---------------------------------------------------------------- 全求人 碰碰胡


QQR_MELDS = ["chi:123m", "pon:555p", "kong:7777s", "chi:789p", "addkong:2222s"]


def test_quan_qiu_ren_single_wait_on_a_discard_all_claimed():
    assert items("9m", "9m", QQR_MELDS) == {"全求人": 2}


def test_quan_qiu_ren_does_not_also_count_du_ting():
    assert "獨聽" not in items("9m", "9m", QQR_MELDS)


def test_quan_qiu_ren_not_when_self_drawn():
    assert items("9m", "9m", QQR_MELDS, self_drawn=True) == {"自摸": 1, "獨聽": 1}


def test_quan_qiu_ren_not_with_an_gang():
    melds = ["chi:123m", "pon:555p", "ankong:7777s", "chi:789p", "pon:222s"]
    assert "全求人" not in items("9m", "9m", melds)


def test_peng_peng_hu_all_pungs():
    got = items("999p11s22s", "1s", ["pon:555m", "pon:222p", "kong:3333s"])
    assert got == {"碰碰胡": 4}


# ---------------------------------------------------------------- 一色


def test_hun_yi_se_one_suit_with_honours():
    assert items("234m567m345m45m11z", "6m", ["chi:123m"], seat="S") == {"混一色": 4}


def test_qing_yi_se_one_suit_only():
    got = items("234m567m345m45m99m", "6m", ["chi:123m"])
    assert got == {"平胡": 2, "清一色": 8}


def test_zi_yi_se_sixteen():
    got = items("333z666z7z", "7z", ["pon:111z", "pon:222z", "pon:555z"], seat="E", round="E")
    assert got["字一色"] == 16


def test_zi_yi_se_does_not_count_san_yuan_pai_peng_peng_hu_or_feng_pai():
    got = items("333z666z5z", "5z", ["pon:111z", "pon:222z", "pon:777z"], seat="E", round="E")
    assert got["小三元"] == 4
    assert not {"三元牌", "碰碰胡", "風牌"} & set(got)


def test_zi_yi_se_does_not_count_jian_feng_you_tai():
    opts = TableOptions(see_wind_see_flower=True)
    got = items("333z666z5z", "5z", ["pon:111z", "pon:222z", "pon:777z"], options=opts)
    assert "見風有台" not in got


# ---------------------------------------------------------------- 四喜


def test_xiao_si_xi_three_wind_pungs_and_a_wind_pair():
    got = items("123m456p4z", "4z", ["pon:111z", "pon:222z", "pon:333z"], seat="E", round="E")
    assert got == {"獨聽": 1, "小四喜": 16}


def test_xiao_si_xi_does_not_count_feng_pai_or_an_ke():
    got = items("111z222z333z123m4z", "4z", ["chi:456p"], seat="E", round="E")
    assert got == {"獨聽": 1, "小四喜": 16}


def test_da_si_xi_sixteen_no_feng_pai():
    got = items("123m5p", "5p", ["pon:111z", "pon:222z", "pon:333z", "pon:444z"], seat="E", round="E")
    assert got == {"獨聽": 1, "大四喜": 16}


def test_da_si_xi_does_not_count_an_ke_but_keeps_peng_peng_hu():
    got = items("111z222z333z444z5p", "5p", ["pon:999m"], self_drawn=False)
    assert "四暗刻" not in got and "三暗刻" not in got
    assert got["大四喜"] == 16 and got["碰碰胡"] == 4


def test_da_si_xi_with_five_concealed_triplets_counts_peng_peng_hu_not_wu_an_ke():
    got = items("111z222z333z444z999m5p", "5p", self_drawn=True)
    assert got == {"門清自摸": 3, "獨聽": 1, "碰碰胡": 4, "大四喜": 16}


# ---------------------------------------------------------------- 天胡 地胡


def test_tian_hu_sixteen_no_men_qing_zi_mo_or_du_ting():
    got = items("123p234m567m345s45s11z", "6s", seat="E", dealer=True, self_drawn=True, heavenly=True)
    assert got == {"莊家": 1, "天胡": 16}


def test_di_hu_on_a_discard_does_not_count_men_qing():
    got = items("123p234m567m345s45s11z", "6s", seat="S", earthly=True)
    assert got == {"地胡": 8}


def test_di_hu_self_drawn_does_not_count_zi_mo():
    got = items("123p234m567m345s45s11z", "6s", seat="S", earthly=True, self_drawn=True)
    assert got == {"地胡": 8}


# ---------------------------------------------------------------- 八仙過海 七搶一


def test_ba_xian_guo_hai_eight_flowers_win_without_a_complete_hand():
    result = score(
        "1m3m5m7m9m1p3p5p7p9p1s3s5s7s9s1z",
        None,
        flowers="f1f2f3f4f5f6f7f8",
        flower_win="八仙過海",
        self_drawn=True,
        dealer=True,
        dealer_streak=2,
    )
    assert result.valid
    assert {i.name: i.value for i in result.items} == {"八仙過海": 8}


def test_ba_xian_guo_hai_does_not_count_hua_pai_hua_gang_or_zi_mo():
    got = items("", None, flowers="f1f2f3f4f5f6f7f8", flower_win="八仙過海", self_drawn=True)
    assert not {"花牌", "花槓", "自摸"} & set(got)


def test_qi_qiang_yi_seven_flowers_eight_no_hua_pai_or_hua_gang():
    got = items("", None, flowers="f1f2f3f4f5f6f7", flower_win="七搶一")
    assert got == {"七搶一": 8}


def test_eight_flowers_are_ba_xian_guo_hai_without_a_flag():
    """只要某一家拿到全部八张的花牌: a hand holding all eight is the flower win, whatever its tiles."""
    got = items("123m456m789m123p456p1s", "1s", flowers="f1f2f3f4f5f6f7f8", self_drawn=True, dealer=True)
    assert got == {"八仙過海": 8}


def test_eight_flowers_paid_as_a_bonus_count_no_hua_pai_or_hua_gang_on_the_later_win():
    """House rule flower_win_as_bonus: the 8 台 were paid at once; the hand that later wins counts
    its tiles only."""
    bonus = TableOptions(house_rules={"flower_win_as_bonus": True})
    got = items("123m456m789m123p456p1s", "1s", flowers="f1f2f3f4f5f6f7f8", flower_bonus_taken=True, options=bonus)
    assert got == {"門清": 1, "獨聽": 1}
    seen = TableOptions(see_wind_see_flower=True, house_rules={"flower_win_as_bonus": True})
    got = items("123m456m789m123p456p1s", "1s", flowers="f1f2f3f4f5f6f7", flower_bonus_taken=True, options=seen)
    assert got == {"門清": 1, "獨聽": 1}
    unpaid = items("123m456m789m123p456p1s", "1s", flowers="f1f2f3f4f5f6f7", options=bonus)
    assert unpaid == {"門清": 1, "花牌": 2, "獨聽": 1, "花槓": 1}  # bonus not (yet) taken: they count


def test_flower_bonus_taken_needs_seven_or_eight_flowers():
    with pytest.raises(ScoringError, match="flower_bonus_taken"):
        score("123m456m789m123p456p1s", "1s", flowers="f1f2", flower_bonus_taken=True)


def test_flower_win_with_the_wrong_flowers_is_not_a_win():
    result = score("", None, flowers="f1f2f3", flower_win="八仙過海")
    assert not result.valid


# ---------------------------------------------------------------- 眼牌 Miji


def test_yan_pai_declared_and_winning_one():
    assert plain(eye_declared=True) == {"眼牌": 1}


def test_miji_eight_can_add_zi_mo_but_not_men_qing():
    got = items("123p234m567m345s45s11z", "6s", seat="S", miji=True, eye_declared=True, self_drawn=True)
    assert got == {"自摸": 1, "Miji": 8}
    got = items("123p234m567m345s45s11z", "6s", seat="S", miji=True)
    assert got == {"Miji": 8}


# ---------------------------------------------------------------- options, minimum, cap


def test_san_tai_qi_hu_excludes_dealer_flowers_and_yan_pai():
    opts = TableOptions(min_tai=3)
    result = score(
        **{**PLAIN, "win": "6s"},
        dealer=True,
        dealer_streak=3,
        flowers="f2f6f1f3f4",
        eye_declared=True,
        options=opts,
    )
    assert not result.valid and "minimum" in result.reason
    assert result.total == 1 + 6 + 2 + 1 + 1 and result.countable == 0
    assert not meets_minimum(result, 3)


def test_san_tai_qi_hu_met_by_men_qing_zi_mo():
    result = score("123p234m567m345s45s11z", "6s", seat="S", self_drawn=True, options=TableOptions(min_tai=3))
    assert result.valid and meets_minimum(result, 3)


def test_minimum_is_only_applied_when_asked():
    result = score(**PLAIN)
    assert result.valid and not meets_minimum(result, 3) and meets_minimum(result, 0)


def test_xian_zi_mo_table_refuses_a_discard_win():
    opts = TableOptions(self_draw_only=True)
    assert not score(**PLAIN, options=opts).valid
    assert score(**PLAIN, options=opts, self_drawn=True).valid


def test_man_tai_cap_keeps_dealer_men_qing_zi_mo_and_yan_pai_on_top():
    result = score(
        "111z222z333z444z5p", "5p", ["pon:999m"], dealer=True, dealer_streak=1, eye_declared=True, seat="E"
    )
    # 大四喜 16 + 碰碰胡 4 + 獨聽 1 (四暗刻 not: 大四喜 excludes it) = 21, capped to 16;
    # 莊家 1 + 連莊 2 + 眼牌 1 on top
    assert result.total == 1 + 2 + 1 + 21
    assert result.capped_total(16) == 16 + 1 + 2 + 1
    assert result.capped_total(None) == result.total


# ---------------------------------------------------------------- impossible contexts, registry


def test_five_copies_of_a_tile_is_an_error():
    with pytest.raises(ScoringError):
        score_win(ctx("11111m234m567m45s11z", "6s", ["chi:123p"]))


def test_wrong_hand_size_is_an_error():
    with pytest.raises(ScoringError):
        score_win(ctx("234m567m345s45s11z", "6s"))


def test_heavenly_win_must_be_the_dealers_self_draw():
    with pytest.raises(ScoringError):
        score_win(ctx("123p234m567m345s45s11z", "6s", heavenly=True))


def test_unknown_rules_are_refused():
    with pytest.raises(UnknownRules):
        score_win(ctx(**PLAIN), "mahjong-soul")


def test_table_names_are_written_as_the_document_writes_them():
    names = [i.name for i in get_rules("taiwan16").items if i.value]  # value 0: only a house rule adds it
    assert names == [
        "眼牌", "莊家", "連莊", "自摸", "門清", "門清自摸", "風牌", "見風有台", "花牌", "見花有台",
        "三元牌", "海底撈月", "槓上開花", "搶摃", "獨聽", "花槓", "平胡", "三暗刻", "全求人", "碰碰胡",
        "小三元", "混一色", "四暗刻", "Miji", "清一色", "大三元", "七搶一", "八仙過海", "地胡", "五暗刻",
        "字一色", "小四喜", "大四喜", "天胡",
    ]  # fmt: skip


def test_table_values_match_the_document():
    values = {i.name: i.value for i in get_rules("taiwan16").items}
    assert values["連莊"] == 2 and values["門清自摸"] == 3 and values["平胡"] == 2
    assert values["四暗刻"] == 5 and values["五暗刻"] == 16 and values["天胡"] == 16 and values["地胡"] == 8


def test_ba_xian_guo_hai_does_not_count_tian_hu():
    got = items(
        "",
        None,
        flowers="f1f2f3f4f5f6f7f8",
        flower_win="八仙過海",
        self_drawn=True,
        dealer=True,
        heavenly=True,
    )
    assert got == {"八仙過海": 8}


def test_di_hu_not_counted_with_ba_xian_guo_hai():
    got = items(
        "", None, flowers="f1f2f3f4f5f6f7f8", flower_win="八仙過海", self_drawn=True, earthly=True, seat="S"
    )
    assert got == {"八仙過海": 8}


def test_si_xi_does_not_count_jian_feng_you_tai():
    opts = TableOptions(see_wind_see_flower=True)
    got = items("123m456p4z", "4z", ["pon:111z", "pon:222z", "pon:333z"], options=opts)
    assert got == {"獨聽": 1, "小四喜": 16}
    got = items("123m5p", "5p", ["pon:111z", "pon:222z", "pon:333z", "pon:444z"], options=opts)
    assert got == {"獨聽": 1, "大四喜": 16}


def test_qiang_gang_keeps_men_qing():
    assert items("123p234m567m345s45s11z", "6s", seat="S", robbing_kong=True) == {"門清": 1, "搶摃": 1}


def test_tian_hu_after_the_opening_flower_replacement_is_no_gang_shang_kai_hua():
    got = items(
        "123p234m567m345s45s11z",
        "6s",
        flowers="f1",
        seat="E",
        dealer=True,
        self_drawn=True,
        heavenly=True,
        kong_replacement=True,
    )
    assert got == {"莊家": 1, "花牌": 1, "天胡": 16}
