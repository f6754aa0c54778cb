"""The taiwan16 house-rule variants real tables play that the first 24 switches did not offer (issue
28): each with the hand written out, at the document's value and at the variant's. See
docs/rules/taiwan16.md, "House rules"."""

import pytest

from engine.house_rules import FAMILIES, KNOWN_PRESETS, PRESETS, HouseRules
from engine.rules import TableOptions
from engine.scoring import score_win
from engine.settlement import settle_win

from ._util import ctx, items, score

# a concealed hand won on a discard at seat 南: 門清 1 only
CONCEALED = dict(concealed="123p234m567m345s45s11z", win="6s", seat="S")
READY_ON_DEAL = dict(declared_ready=True, heavenly_ready=True)  # 聽 with the first discard
MIJI = dict(miji=True, eye_declared=True)
HEAVENLY = dict(concealed="123m456m789m123p456p1s", win="1s", self_drawn=True, dealer=True, heavenly=True)
EARTHLY = dict(concealed="123m456m789m123p456p1s", win="1s", seat="S", earthly=True)
LUGU = dict(concealed="11m33m55m77m99p22p44s66s", win="6s", seat="S")
# a claimed chow, a two-sided 45s wait, a 99p pair in hand: 平胡 and nothing else
OPEN_PING_HU = dict(concealed="234m567m345s45s99p", win="6s", melds=["chi:123p"], seat="S")
CONCEALED_PING_HU = dict(concealed="123p234m567m345s45s99p", win="6s", seat="S")
# all chows, the winning tile makes the pair (a single wait): no 平胡 in the document
PAIR_WAIT = dict(concealed="234m567m345s678s9p", win="9p", melds=["chi:123p"], seat="S")
# all chows, a closed wait on 7s (獨聽)
CLOSED_WAIT = dict(concealed="234m567m345s99p68s", win="7s", melds=["chi:123p"], seat="S")
ALL_HONOURS = dict(concealed="111z222z333z555z666z4z", win="4z")


def house(**switches) -> TableOptions:
    return TableOptions(house_rules=switches)


def got(hand: dict, options: TableOptions | None = None, **flags) -> dict[str, int]:
    args = {**hand, **flags}
    return items(args.pop("concealed"), args.pop("win"), args.pop("melds", ()), options=options, **args)


# ---------------------------------------------------------------- 天聽 / 地聽 / Miji


def test_tian_ting_replaces_miji_one_declaration_paid_once():
    both = {**READY_ON_DEAL, **MIJI}
    assert got(CONCEALED, house(heavenly_ready_tai=8), **both) == {"Miji": 8, "天聽": 8}
    once = house(heavenly_ready_tai=8, heavenly_ready_replaces_miji=True)
    assert got(CONCEALED, once, **both) == {"門清": 1, "天聽": 8}  # no Miji, so its 不計門清 goes too
    assert got(CONCEALED, once, self_drawn=True, **both) == {"門清自摸": 3, "天聽": 8}
    assert got(CONCEALED, once, **MIJI) == {"Miji": 8}  # Miji alone is still paid


def test_tian_ting_worth_sixteen():
    assert got(CONCEALED, house(heavenly_ready_tai=16), **READY_ON_DEAL) == {"門清": 1, "天聽": 16}


@pytest.mark.parametrize("value", [8, 4])
def test_di_ting_is_a_non_dealers_ready_on_deal_the_dealers_stays_tian_ting(value):
    rules = house(heavenly_ready_tai=16, earthly_ready_tai=value)
    assert got(CONCEALED, rules, **READY_ON_DEAL) == {"門清": 1, "地聽": value}
    dealer = {**CONCEALED, "seat": "E", "dealer": True}
    assert got(dealer, rules, **READY_ON_DEAL) == {"莊家": 1, "門清": 1, "天聽": 16}


def test_di_ting_also_replaces_miji_when_tian_ting_does():
    rules = house(earthly_ready_tai=8, heavenly_ready_replaces_miji=True)
    assert got(CONCEALED, rules, **READY_ON_DEAL, **MIJI) == {"門清": 1, "地聽": 8}


# ---------------------------------------------------------------- 嚦咕嚦咕


def test_lugu_excludes_men_qing_and_men_qing_zi_mo_but_zi_mo_counts():
    assert got(LUGU, house(lugu_tai=8), self_drawn=True) == {"門清自摸": 3, "嚦咕嚦咕": 8}
    no_concealed = house(lugu_tai=8, lugu_no_concealed=True)
    assert got(LUGU, no_concealed, self_drawn=True) == {"自摸": 1, "嚦咕嚦咕": 8}
    assert got(LUGU, no_concealed) == {"嚦咕嚦咕": 8}


# ---------------------------------------------------------------- 天胡 / 地胡


def test_tian_hu_pays_no_zhuang_jia_or_lian_zhuang():
    assert got(HEAVENLY, dealer_streak=2) == {"莊家": 1, "連莊": 4, "天胡": 16}
    options = house(heavenly_no_dealer=True)
    assert got(HEAVENLY, options, dealer_streak=2) == {"天胡": 16}
    c = ctx(HEAVENLY["concealed"], HEAVENLY["win"], self_drawn=True, dealer=True, heavenly=True,
            dealer_streak=2, options=options)
    settled = settle_win(score_win(c), winner=0, dealer=0, dealer_streak=2, discarder=None, options=options)
    assert {p.tai for p in settled.payments} == {16}  # 底 + 16 台 each, no [2n+1]
    assert settled.deltas == (3 * 1900, -1900, -1900, -1900)


@pytest.mark.parametrize(
    ("adds", "on_top"), [(0, {}), (1, {"自摸": 1}), (3, {"門清自摸": 3})]
)
def test_tian_hu_adds_nothing_zi_mo_only_or_men_qing_zi_mo(adds, on_top):
    assert got(HEAVENLY, house(heavenly_adds=adds)) == {"莊家": 1, **on_top, "天胡": 16}


def test_heavenly_with_self_draw_is_read_as_tian_hu_adding_men_qing_zi_mo():
    assert HouseRules({"heavenly_with_self_draw": True}) == HouseRules({"heavenly_adds": 3})
    assert HouseRules({"heavenly_with_self_draw": False}) == HouseRules()
    assert HouseRules({"heavenly_with_self_draw": True}).to_dict() == {"heavenly_adds": 3}
    with pytest.raises(ValueError, match="heavenly_with_self_draw"):
        HouseRules({"heavenly_with_self_draw": 3})


@pytest.mark.parametrize(
    ("adds", "self_drawn", "on_top"),
    [
        (0, True, {}),
        (1, True, {"自摸": 1}),
        (3, True, {"門清自摸": 3}),
        (1, False, {}),
        (3, False, {"門清": 1}),  # on a discard 門清 is what applies
    ],
)
def test_di_hu_adds_nothing_zi_mo_only_or_men_qing_zi_mo(adds, self_drawn, on_top):
    assert got(EARTHLY, house(earthly_adds=adds), self_drawn=self_drawn) == {**on_top, "獨聽": 1, "地胡": 8}


# ---------------------------------------------------------------- 平胡


def test_ping_hu_only_with_an_open_hand_men_qing_wu_ping_hu():
    assert got(CONCEALED_PING_HU) == {"門清": 1, "平胡": 2}  # the document: 門清亦有平胡
    assert got(CONCEALED_PING_HU, house(ping_hu_open_only=True)) == {"門清": 1}
    assert got(OPEN_PING_HU, house(ping_hu_open_only=True)) == {"平胡": 2}


def test_ping_hu_without_a_wait_rule_allows_a_pair_wait_and_du_ting():
    for hand in (PAIR_WAIT, CLOSED_WAIT):
        assert got(hand) == {"獨聽": 1}
        assert got(hand, house(ping_hu_any_wait=True)) == {"獨聽": 1}  # still not 獨聽, pair in hand
        assert got(hand, house(ping_hu_no_wait_rule=True)) == {"獨聽": 1, "平胡": 2}
    # the other conditions stay: no self-draw
    assert "平胡" not in got(PAIR_WAIT, house(ping_hu_no_wait_rule=True), self_drawn=True)


# ---------------------------------------------------------------- values


def test_zi_yi_se_worth_eight():
    assert got(ALL_HONOURS)["字一色"] == 16
    assert got(ALL_HONOURS, house(all_honours_worth=8)) == {"門清": 1, "獨聽": 1, "字一色": 8, "小四喜": 16}


# ---------------------------------------------------------------- families of tables


def test_family_presets_differ_from_common_and_resolve_by_name():
    assert set(FAMILIES) == {"funclub", "online"} and set(PRESETS) == {"document", "common"}
    for name in FAMILIES:
        rules = HouseRules.resolve(name)
        assert rules.preset_name() == name and rules != HouseRules.resolve("common")
        assert HouseRules(KNOWN_PRESETS[name]) == rules


def test_funclub_preset_scores_tian_ting_sixteen_di_ting_eight_and_ting_pai():
    funclub = TableOptions(house_rules=HouseRules.resolve("funclub"))
    assert got(CONCEALED, funclub, **READY_ON_DEAL) == {"門清": 1, "地聽": 8}
    assert got({**CONCEALED, "seat": "E"}, funclub, dealer=True, **READY_ON_DEAL) == {
        "莊家": 1, "天聽": 16  # its 天聽 excludes 門清 (POCKET_COMMON)
    }
    assert got(CONCEALED, funclub, declared_ready=True) == {"門清": 1, "聽牌": 1}
    lugu = {k: v for k, v in LUGU.items() if k not in ("concealed", "win")}
    assert not score(LUGU["concealed"], LUGU["win"], options=funclub, **lugu).valid  # no 嚦咕嚦咕 there


def test_online_preset_pays_tian_ting_instead_of_miji_four_and_lugu_without_men_qing():
    online = TableOptions(house_rules=HouseRules.resolve("online"))
    assert got(CONCEALED, online, **MIJI) == {"門清": 1, "Miji": 4}  # its T06: 門清 1、咪幾 4
    dealer = {**CONCEALED, "seat": "E", "dealer": True}  # 天聽：莊家打出第一張牌就報聽
    assert got(dealer, online, **READY_ON_DEAL, **MIJI) == {"莊家": 1, "門清": 1, "天聽": 8}
    assert got(LUGU, online, self_drawn=True) == {"自摸": 1, "嚦咕嚦咕": 8}
    assert got(EARTHLY, online, self_drawn=True) == {"門清自摸": 3, "獨聽": 1, "地胡": 16}
