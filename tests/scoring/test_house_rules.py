"""House rules (engine/house_rules.py): every switch at the document's value and at its other values,
with the hand written out. Each hand is 16 tiles + the winning tile; see docs/rules/taiwan16.md,
"House rules"."""

import pytest

from engine.house_rules import BY_NAME, PRESETS, SWITCHES, HouseRules
from engine.rules import TableOptions
from engine.scoring import get_rules

from ._util import items, score


def house(**switches) -> TableOptions:
    return TableOptions(house_rules=switches)


# a dealer's 天胡: a dealt hand, won on the first draw
HEAVENLY = dict(concealed="123m456m789m123p456p1s", win="1s", self_drawn=True, dealer=True, heavenly=True)
# a non-dealer wins on a discard in the first go-round (地胡; 人胡 too when before their first draw)
EARTHLY = dict(concealed="123m456m789m123p456p1s", win="1s", seat="S", earthly=True)
# five concealed triplets, self-drawn on the pair
FIVE_CONCEALED = dict(concealed="111m222m333m444p555p6s", win="6s", self_drawn=True)
# 字一色 + 小四喜: 東南西 triplets, 北 pair, 白 發 triplets
HONOURS_FOUR_WINDS = dict(concealed="111z222z333z555z666z4z", win="4z")
# 字一色 + 大三元 with a claimed 東 pon (no 五暗刻): the 東 pon is worth 風牌 2 at seat 東 in 東風
HONOURS_THREE_DRAGONS = dict(concealed="222z555z666z777z3z", win="3z", melds=["pon:111z"])
# 小三元: 白 發 triplets, 中 pair
LITTLE_DRAGONS = dict(concealed="123m456m789m555z666z7z", win="7z")
# 大四喜 from four concealed wind triplets
BIG_FOUR_WINDS = dict(concealed="111z222z333z444z123p5m", win="5m")
# a claimed chow, an honour pair, a two-sided wait on 3s/6s, seat 南: worth 0 台 (as in the item tests)
PLAIN = dict(concealed="234m567m345s45s11z", win="6s", melds=["chi:123p"], seat="S")
# the same shape, concealed (門清 1)
CONCEALED = dict(concealed="123p234m567m345s45s11z", win="6s", seat="S")
# every set claimed, one tile left, self-drawn
ALL_CLAIMED = dict(
    concealed="5s", win="5s", melds=["chi:123m", "chi:456m", "pon:777p", "chi:234s", "pon:999s"], seat="S"
)
# seven pairs and a triplet (嚦咕嚦咕), no reading as sets + a pair
LUGU = dict(concealed="11m33m55m77m99p22p44s66s", win="6s", seat="S")


def got(hand: dict, options: TableOptions | None = None, **flags) -> dict[str, int]:
    args = {**hand, **flags}
    return items(args.pop("concealed"), args.pop("win"), args.pop("melds", ()), options=options, **args)


# ---------------------------------------------------------------- the switches as data


def test_every_switch_defaults_to_the_document():
    assert HouseRules({s.name: s.default for s in SWITCHES}) == HouseRules()
    assert TableOptions().house_rules.is_document and TableOptions().house_rules.preset_name() == "document"


def test_an_item_valued_by_a_switch_shows_the_documents_value_in_its_row():
    for it in get_rules("taiwan16").items:
        if it.value_from is not None:
            assert it.value == BY_NAME[it.value_from].default, it.name


def test_every_switch_is_read_by_the_table_or_adds_a_form():
    read = {s for it in get_rules("taiwan16").items for s in it.switches()}
    by_the_game = {s.name for s in SWITCHES if s.adds_form or s.game}
    assert {s.name for s in SWITCHES} == read | by_the_game
    assert not read & {s.name for s in SWITCHES if s.game}  # a game switch is the game's alone


def test_unknown_switch_and_unknown_value_are_refused_by_name():
    with pytest.raises(ValueError, match="known: .*heavenly_tai"):
        HouseRules({"heavenly": 24})
    with pytest.raises(ValueError, match="must be one of 16, 24"):
        HouseRules({"heavenly_tai": 20})
    with pytest.raises(ValueError, match="must be one of false, true"):
        HouseRules({"ping_hu_flowers": 1})
    with pytest.raises(ValueError, match="known: common, document"):
        HouseRules.resolve("app")


def test_switches_override_the_preset():
    hr = HouseRules.resolve("common", {"heavenly_tai": 16})
    assert hr["heavenly_tai"] == 16 and hr["earthly_tai"] == 16 and hr.preset_name() is None
    assert "天胡 16" not in hr.describe() and "地胡 16" in hr.describe()


def test_house_rules_round_trip_through_table_options():
    opts = TableOptions(house_rules=HouseRules.resolve("common"))
    data = opts.to_dict()
    assert data["house_rules"] == PRESETS["common"]
    assert TableOptions.from_dict(data) == opts
    assert TableOptions.from_dict({k: v for k, v in data.items() if k != "house_rules"}) == TableOptions()
    with pytest.raises(ValueError, match="unknown house rule"):
        TableOptions.from_dict({**data, "house_rules": {"nope": 1}})


def test_the_document_preset_scores_exactly_as_no_house_rules():
    document = TableOptions(house_rules=HouseRules.resolve("document"))
    for hand in (HEAVENLY, EARTHLY, FIVE_CONCEALED, HONOURS_FOUR_WINDS, LITTLE_DRAGONS, PLAIN, CONCEALED):
        assert got(hand, document) == got(hand)


# ---------------------------------------------------------------- limit hands


@pytest.mark.parametrize("value", [16, 24])
def test_heavenly_tai_sets_tian_hu(value):
    assert got(HEAVENLY, house(heavenly_tai=value)) == {"莊家": 1, "天胡": value}


def test_heavenly_with_self_draw_adds_men_qing_zi_mo():
    assert got(HEAVENLY) == {"莊家": 1, "天胡": 16}
    assert got(HEAVENLY, house(heavenly_with_self_draw=True)) == {"莊家": 1, "門清自摸": 3, "天胡": 16}


@pytest.mark.parametrize("value", [8, 16])
def test_earthly_tai_sets_di_hu(value):
    assert got(EARTHLY, house(earthly_tai=value))["地胡"] == value


def test_human_win_is_di_hu_in_the_document():
    assert got(EARTHLY, human=True) == {"獨聽": 1, "地胡": 8}


@pytest.mark.parametrize("value", [8, 16])
def test_human_tai_scores_ren_hu_instead_of_di_hu(value):
    assert got(EARTHLY, house(human_tai=value), human=True) == {"獨聽": 1, "人胡": value}


def test_human_tai_leaves_an_earthly_win_after_ones_first_draw_as_di_hu():
    assert got(EARTHLY, house(human_tai=8)) == {"獨聽": 1, "地胡": 8}


@pytest.mark.parametrize("value", [16, 8])
def test_five_concealed_tai_sets_wu_an_ke_without_peng_peng_hu(value):
    assert got(FIVE_CONCEALED, house(five_concealed_tai=value)) == {"門清自摸": 3, "獨聽": 1, "五暗刻": value}


def test_five_concealed_with_pongs_adds_peng_peng_hu():
    assert got(FIVE_CONCEALED, house(five_concealed_tai=8, five_concealed_with_pongs=True)) == {
        "門清自摸": 3,
        "獨聽": 1,
        "碰碰胡": 4,
        "五暗刻": 8,
    }


@pytest.mark.parametrize("value", [16, 8])
def test_little_four_winds_tai_sets_xiao_si_xi(value):
    assert got(HONOURS_FOUR_WINDS, house(little_four_winds_tai=value))["小四喜"] == value


@pytest.mark.parametrize("value", [1, 2])
def test_flower_kong_tai_sets_hua_gang(value):
    assert got(PLAIN, house(flower_kong_tai=value), flowers="f1f2f3f4") == {"花牌": 1, "花槓": value}


# ---------------------------------------------------------------- stacking


def test_all_honours_excludes_pongs_dragons_and_winds_in_the_document():
    assert got(HONOURS_FOUR_WINDS) == {"門清": 1, "獨聽": 1, "字一色": 16, "小四喜": 16}
    assert got(HONOURS_THREE_DRAGONS) == {"獨聽": 1, "四暗刻": 5, "大三元": 8, "字一色": 16}


def test_all_honours_with_pongs_adds_peng_peng_hu():
    assert got(HONOURS_FOUR_WINDS, house(all_honours_with_pongs=True))["碰碰胡"] == 4


def test_all_honours_with_dragons_adds_san_yuan_pai():
    assert got(HONOURS_FOUR_WINDS, house(all_honours_with_dragons=True))["三元牌"] == 2


def test_all_honours_with_winds_adds_feng_pai():
    assert got(HONOURS_THREE_DRAGONS, house(all_honours_with_winds=True))["風牌"] == 2


def test_all_honours_with_winds_adds_jian_feng_you_tai_when_seeing_winds():
    opts = TableOptions(see_wind_see_flower=True, house_rules={"all_honours_with_winds": True})
    assert "見風有台" not in got(HONOURS_THREE_DRAGONS, TableOptions(see_wind_see_flower=True))
    assert got(HONOURS_THREE_DRAGONS, opts)["見風有台"] == 2  # 東 and 南


def test_little_dragons_with_dragons_adds_its_two_san_yuan_pai():
    assert got(LITTLE_DRAGONS) == {"門清": 1, "獨聽": 1, "小三元": 4, "混一色": 4}
    assert got(LITTLE_DRAGONS, house(little_dragons_with_dragons=True))["三元牌"] == 2


def test_big_four_winds_with_concealed_adds_si_an_ke():
    assert got(BIG_FOUR_WINDS) == {"門清": 1, "獨聽": 1, "大四喜": 16}
    with_anke = got(BIG_FOUR_WINDS, house(big_four_winds_with_concealed=True))
    assert with_anke["四暗刻"] == 5 and "三暗刻" not in with_anke and "風牌" not in with_anke


# ---------------------------------------------------------------- extra items


def test_river_bottom_tai_scores_he_di_lao_yu_on_the_last_discard():
    assert got(PLAIN, last_discard=True) == {}
    assert got(PLAIN, house(river_bottom_tai=1), last_discard=True) == {"河底撈魚": 1}
    assert got(PLAIN, house(river_bottom_tai=1)) == {}


def test_half_self_reliant_tai_scores_ban_qiu_ren_instead_of_du_ting():
    assert got(ALL_CLAIMED, self_drawn=True) == {"自摸": 1, "獨聽": 1}
    assert got(ALL_CLAIMED, house(half_self_reliant_tai=1), self_drawn=True) == {"自摸": 1, "半求人": 1}


def test_half_self_reliant_is_not_a_win_on_a_discard():
    assert got(ALL_CLAIMED, house(half_self_reliant_tai=1)) == {"全求人": 2}


def test_ready_tai_scores_ting_pai_for_a_declared_hand():
    assert got(PLAIN, declared_ready=True) == {}
    assert got(PLAIN, house(ready_tai=1), declared_ready=True) == {"聽牌": 1}
    assert got(PLAIN, house(ready_tai=1)) == {}


def test_heavenly_ready_tai_scores_tian_ting_instead_of_ting_pai():
    flags = dict(declared_ready=True, heavenly_ready=True)
    assert got(CONCEALED, **flags) == {"門清": 1}
    assert got(CONCEALED, house(heavenly_ready_tai=8, ready_tai=1), **flags) == {"門清": 1, "天聽": 8}
    assert got(CONCEALED, house(heavenly_ready_tai=8), declared_ready=True) == {"門清": 1}


@pytest.mark.parametrize("value", [8, 4])
def test_miji_tai_sets_miji(value):
    assert got(CONCEALED, house(miji_tai=value), miji=True) == {"Miji": value}


def test_miji_keeps_concealed_adds_men_qing():
    assert got(CONCEALED, house(miji_tai=4, miji_keeps_concealed=True), miji=True) == {"門清": 1, "Miji": 4}
    got_self = got(CONCEALED, house(miji_keeps_concealed=True), miji=True, self_drawn=True)
    assert got_self == {"門清自摸": 3, "Miji": 8}


# ---------------------------------------------------------------- 嚦咕嚦咕


def test_lugu_is_not_a_win_in_the_document():
    result = score(LUGU["concealed"], LUGU["win"], seat="S")
    assert not result.valid and result.code == "not_winning"


@pytest.mark.parametrize("value", [8, 16])
def test_lugu_tai_makes_seven_pairs_and_a_triplet_a_win(value):
    assert got(LUGU, house(lugu_tai=value)) == {"門清": 1, "嚦咕嚦咕": value}


def test_lugu_on_a_pair_tile_self_drawn_is_not_peng_peng_hu():
    hand = dict(concealed="11m33m55m77m99p22p4s666s", win="4s", seat="S", self_drawn=True)
    assert got(hand, house(lugu_tai=8)) == {"門清自摸": 3, "獨聽": 1, "嚦咕嚦咕": 8}


def test_lugu_counts_colour_items():
    hand = dict(concealed="11m22m33m44m55m66m77m88m", win="8m", seat="S")
    scored = got(hand, house(lugu_tai=8))
    assert scored["清一色"] == 8 and scored["嚦咕嚦咕"] == 8


def test_lugu_or_sets_whichever_pays_more():
    # 112233m 445566m 77m 888p reads as four chows + 77m + 888p, or as 嚦咕嚦咕
    hand = dict(concealed="11223344556677m88p", win="8p", seat="S")
    assert "嚦咕嚦咕" not in got(hand)
    assert got(hand, house(lugu_tai=8)) == {"門清": 1, "嚦咕嚦咕": 8}


# ---------------------------------------------------------------- 平胡 variants


def test_ping_hu_honour_pair_allows_an_honour_eye():
    assert got(PLAIN) == {}
    assert got(PLAIN, house(ping_hu_honour_pair=True)) == {"平胡": 2}


def test_ping_hu_flowers_allows_flowers():
    hand = {**PLAIN, "concealed": "234m567m345s45s11p"}
    assert got(hand) == {"平胡": 2}
    assert got(hand, flowers="f1") == {}
    assert got(hand, house(ping_hu_flowers=True), flowers="f1") == {"平胡": 2}


def test_ping_hu_any_wait_allows_a_three_sided_wait():
    hand = {**PLAIN, "concealed": "234m567m99p34567s", "win": "2s"}
    assert got(hand) == {}
    assert got(hand, house(ping_hu_any_wait=True)) == {"平胡": 2}


def test_ping_hu_any_wait_still_refuses_a_single_wait_and_a_self_draw():
    closed = {**PLAIN, "concealed": "234m567m99p24s567s", "win": "3s"}
    assert got(closed, house(ping_hu_any_wait=True)) == {"獨聽": 1}
    three_sided = {**PLAIN, "concealed": "234m567m99p34567s", "win": "2s", "self_drawn": True}
    assert got(three_sided, house(ping_hu_any_wait=True)) == {"自摸": 1}


# ---------------------------------------------------------------- 槓上開花


def test_kong_bloom_counts_a_flower_replacement_in_the_document():
    flags = dict(self_drawn=True, kong_replacement=True, after_flower=True)
    assert got(CONCEALED, **flags) == {"門清自摸": 3, "槓上開花": 1}


def test_kong_bloom_kong_only_drops_a_flower_replacement():
    flags = dict(self_drawn=True, kong_replacement=True)
    kong_only = house(kong_bloom_kong_only=True)
    assert got(CONCEALED, kong_only, after_flower=True, **flags) == {"門清自摸": 3}
    assert got(CONCEALED, kong_only, **flags) == {"門清自摸": 3, "槓上開花": 1}


# ---------------------------------------------------------------- the common preset


def test_common_preset_scores_the_published_values():
    common = TableOptions(house_rules=HouseRules.resolve("common"))
    assert got(HEAVENLY, common)["天胡"] == 24
    assert got(EARTHLY, common, human=True)["人胡"] == 8
    assert got(EARTHLY, common)["地胡"] == 16
    assert got(FIVE_CONCEALED, common) == {"門清自摸": 3, "獨聽": 1, "碰碰胡": 4, "五暗刻": 8}
    assert got(PLAIN, common, flowers="f1f2f3f4", last_discard=True) == {"花牌": 1, "河底撈魚": 1, "花槓": 2}
    assert got(LUGU, common)["嚦咕嚦咕"] == 8


def test_rules_notes_list_every_switch_with_its_document_and_common_values():
    from pathlib import Path

    notes = (Path(__file__).resolve().parents[2] / "docs/rules/taiwan16.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(" `"): line for line in notes.splitlines() if line.startswith("| `")}

    def show(v):
        return str(v).lower() if isinstance(v, bool) else str(v)

    for s in SWITCHES:
        cells = [c.strip() for c in rows[s.name].split("|")[1:-1]]
        common = PRESETS["common"].get(s.name, s.default)
        assert cells[1:] == [s.label, show(s.default), " / ".join(map(show, s.choices)), show(common)], s.name
