"""The variants issue 40 found still without a switch, each with its hand written out, at the
document's value and with the switch on: 小四喜/大四喜 keeping 風台 and 暗刻, 全求人/半求人/天胡 keeping
獨聽, 天胡 alone, 地胡 only self-drawn, 天聽 without 門清, who may have 天聽, 平胡 on a pair wait. See
docs/rules/taiwan16.md, "House rules"."""

import pytest

from engine.rules import TableOptions
from engine.scoring import ScoringError, score_win

from ._util import ctx, items


def house(**switches) -> TableOptions:
    return TableOptions(house_rules=switches)


def got(hand: dict, options: TableOptions | None = None, **flags) -> dict[str, int]:
    args = {**hand, **flags}
    return items(args.pop("concealed"), args.pop("win"), args.pop("melds", ()), options=options, **args)


# 東南西 triplets in hand, 北 the pair (won on it), 123m456m: seat 東 in the 東 round
LITTLE_WINDS = dict(concealed="111z222z333z123m456m4z", win="4z")
# four wind triplets in hand, 123p, a 5m pair wait
BIG_WINDS = dict(concealed="111z222z333z444z123p5m", win="5m")
# every set claimed, one tile left
ALL_CLAIMED = dict(
    concealed="5s", win="5s", melds=["chi:123m", "chi:456m", "pon:777p", "chi:234s", "pon:999s"], seat="S"
)
# a dealer's 天胡 on a pair wait (獨聽)
HEAVENLY = dict(concealed="123m456m789m123p456p1s", win="1s", self_drawn=True, dealer=True, heavenly=True)
# the same with a 東 triplet and the 春 flower: 風牌 2, 花牌 1
HEAVENLY_RICH = dict(
    concealed="111z456m789m123p456p1s", win="1s", flowers="f1", self_drawn=True, dealer=True, heavenly=True
)
# a non-dealer's win on a discard in the first go-round (地胡), on a pair wait
EARTHLY = dict(concealed="123m456m789m123p456p1s", win="1s", seat="S", earthly=True)
# a concealed hand won on a discard at seat 南: 門清 1 only
CONCEALED = dict(concealed="123p234m567m345s45s11z", win="6s", seat="S")
READY_ON_DEAL = dict(declared_ready=True, heavenly_ready=True)  # 聽 with the first discard
# all chows, a claimed 123p, 6789s waiting on 6s or 9s, each completing the pair (not 獨聽)
PAIR_TWO_WAITS = dict(concealed="234m567m345p6789s", win="9s", melds=["chi:123p"], seat="S")
# all chows, the winning tile makes the pair of a single wait (獨聽)
PAIR_SINGLE_WAIT = dict(concealed="234m567m345s678s9p", win="9p", melds=["chi:123p"], seat="S")


# ---------------------------------------------------------------- 小四喜 / 大四喜


def test_little_four_winds_keeps_feng_pai_with_its_switch():
    document = {"門清": 1, "獨聽": 1, "混一色": 4, "小四喜": 16}
    assert got(LITTLE_WINDS) == document  # 不另計風台, 3.4.5暗刻不另計
    assert got(LITTLE_WINDS, house(little_four_winds_with_winds=True)) == {**document, "風牌": 2}


def test_little_four_winds_keeps_an_ke_with_its_switch():
    document = {"門清": 1, "獨聽": 1, "混一色": 4, "小四喜": 16}
    assert got(LITTLE_WINDS, house(little_four_winds_with_concealed=True)) == {**document, "三暗刻": 2}
    both = house(little_four_winds_with_concealed=True, little_four_winds_with_winds=True)
    assert got(LITTLE_WINDS, both) == {**document, "風牌": 2, "三暗刻": 2}


def test_big_four_winds_keeps_feng_pai_with_its_switch():
    document = {"門清": 1, "獨聽": 1, "大四喜": 16}
    assert got(BIG_WINDS) == document
    assert got(BIG_WINDS, house(big_four_winds_with_winds=True)) == {**document, "風牌": 2}
    both = house(big_four_winds_with_winds=True, big_four_winds_with_concealed=True)
    assert got(BIG_WINDS, both) == {**document, "風牌": 2, "四暗刻": 5}


# ---------------------------------------------------------------- 獨聽 with 全求人 / 半求人 / 天胡


def test_quan_qiu_ren_keeps_du_ting_with_its_switch():
    assert got(ALL_CLAIMED) == {"全求人": 2}  # the document: 獨聽不另計台
    assert got(ALL_CLAIMED, house(all_claimed_with_single_wait=True)) == {"獨聽": 1, "全求人": 2}


def test_ban_qiu_ren_keeps_du_ting_with_its_switch():
    assert got(ALL_CLAIMED, self_drawn=True) == {"自摸": 1, "獨聽": 1}  # no 半求人 in the document
    half = house(half_self_reliant_tai=1)
    assert got(ALL_CLAIMED, half, self_drawn=True) == {"自摸": 1, "半求人": 1}
    keeps = house(half_self_reliant_tai=1, half_claimed_with_single_wait=True)
    assert got(ALL_CLAIMED, keeps, self_drawn=True) == {"自摸": 1, "獨聽": 1, "半求人": 1}


def test_tian_hu_keeps_du_ting_with_its_switch():
    assert got(HEAVENLY) == {"莊家": 1, "天胡": 16}
    assert got(HEAVENLY, house(heavenly_with_single_wait=True)) == {"莊家": 1, "獨聽": 1, "天胡": 16}


def test_tian_hu_alone_counts_nothing_else_of_the_hand():
    assert got(HEAVENLY_RICH) == {"莊家": 1, "風牌": 2, "花牌": 1, "天胡": 16}
    assert got(HEAVENLY_RICH, house(heavenly_alone=True)) == {"莊家": 1, "天胡": 16}
    online = house(heavenly_alone=True, heavenly_no_dealer=True, heavenly_tai=24)
    assert got(HEAVENLY_RICH, online, dealer_streak=2) == {"天胡": 24}  # 固定 24 台，不另計莊家與其他台
    # a switch that keeps an item wins over 天胡不計他台
    assert got(HEAVENLY, house(heavenly_alone=True, heavenly_with_single_wait=True)) == {
        "莊家": 1, "獨聽": 1, "天胡": 16
    }


# ---------------------------------------------------------------- 地胡


def test_di_hu_self_drawn_only_leaves_a_discard_win_ordinary():
    assert got(EARTHLY) == {"獨聽": 1, "地胡": 8}
    only = house(earthly_self_drawn_only=True)
    assert got(EARTHLY, only) == {"門清": 1, "獨聽": 1}  # 地胡 is not counted, nor its 不計門清
    assert got(EARTHLY, only, self_drawn=True) == {"獨聽": 1, "地胡": 8}


def test_di_hu_self_drawn_only_leaves_ren_hu_on_a_discard():
    rules = house(earthly_self_drawn_only=True, human_tai=8)
    assert got(EARTHLY, rules, human=True) == {"獨聽": 1, "人胡": 8}


# ---------------------------------------------------------------- 天聽


def test_tian_ting_without_men_qing():
    rules = house(heavenly_ready_tai=16, heavenly_ready_no_concealed=True)
    assert got(CONCEALED, house(heavenly_ready_tai=16), **READY_ON_DEAL) == {"門清": 1, "天聽": 16}
    assert got(CONCEALED, rules, **READY_ON_DEAL) == {"天聽": 16}
    # self-drawn, 門清自摸 stays: the switch takes out the item 門清, not the composite
    assert got(CONCEALED, rules, self_drawn=True, **READY_ON_DEAL) == {"門清自摸": 3, "天聽": 16}


def test_non_dealer_tian_ting_only_on_a_ready_dealt_hand():
    rules = house(heavenly_ready_tai=8, heavenly_ready_dealt=True)
    assert got(CONCEALED, house(heavenly_ready_tai=8), **READY_ON_DEAL) == {"門清": 1, "天聽": 8}
    assert got(CONCEALED, rules, **READY_ON_DEAL) == {"門清": 1}  # ready only after the first draw
    assert got(CONCEALED, rules, dealt_ready=True, **READY_ON_DEAL) == {"門清": 1, "天聽": 8}
    dealer = {**CONCEALED, "seat": "E", "dealer": True}
    assert got(dealer, rules, **READY_ON_DEAL) == {"莊家": 1, "門清": 1, "天聽": 8}


def test_with_di_ting_a_ready_dealt_hand_is_tian_ting_and_the_rest_di_ting():
    rules = house(heavenly_ready_tai=16, earthly_ready_tai=8, heavenly_ready_dealt=True)
    assert got(CONCEALED, rules, **READY_ON_DEAL) == {"門清": 1, "地聽": 8}
    assert got(CONCEALED, rules, dealt_ready=True, **READY_ON_DEAL) == {"門清": 1, "天聽": 16}


def test_tian_ting_for_the_dealer_only():
    rules = house(heavenly_ready_tai=8, heavenly_ready_dealer_only=True)
    assert got(CONCEALED, rules, **READY_ON_DEAL) == {"門清": 1}
    assert got(CONCEALED, rules, dealt_ready=True, **READY_ON_DEAL) == {"門清": 1}
    dealer = {**CONCEALED, "seat": "E", "dealer": True}
    assert got(dealer, rules, **READY_ON_DEAL) == {"莊家": 1, "門清": 1, "天聽": 8}


def test_dealt_ready_is_a_non_dealers_tian_ting():
    with pytest.raises(ScoringError, match="dealt_ready"):
        score_win(ctx(CONCEALED["concealed"], CONCEALED["win"], seat="S", dealt_ready=True))
    with pytest.raises(ScoringError, match="dealt_ready"):
        score_win(ctx(CONCEALED["concealed"], CONCEALED["win"], dealer=True, dealt_ready=True, **READY_ON_DEAL))


# ---------------------------------------------------------------- 平胡


def test_ping_hu_on_a_pair_wait_still_refusing_du_ting():
    assert got(PAIR_TWO_WAITS) == {}  # the document: 有眼睛 (the pair must be in hand)
    assert got(PAIR_TWO_WAITS, house(ping_hu_any_wait=True)) == {}
    assert got(PAIR_TWO_WAITS, house(ping_hu_pair_wait=True)) == {"平胡": 2}
    assert got(PAIR_SINGLE_WAIT, house(ping_hu_pair_wait=True)) == {"獨聽": 1}  # 無獨聽 stays
    assert "平胡" not in got(PAIR_TWO_WAITS, house(ping_hu_pair_wait=True), self_drawn=True)


# ---------------------------------------------------------------- 八仙過海 declined


def test_eight_flowers_of_a_declined_flower_win_count_as_ordinary_flowers():
    flowers = "f1f2f3f4f5f6f7f8"
    assert got(CONCEALED, flowers=flowers) == {"八仙過海": 8}  # the hand with all eight is the flower win
    assert got(CONCEALED, flowers=flowers, flower_win_declined=True) == {"門清": 1, "花牌": 2, "花槓": 2}
    assert got(CONCEALED, flowers=flowers[:-2], flower_win_declined=True) == {"門清": 1, "花牌": 2, "花槓": 1}
    with pytest.raises(ScoringError, match="flower_win_declined"):
        score_win(ctx(CONCEALED["concealed"], CONCEALED["win"], flowers="f1", flower_win_declined=True))


def test_calculator_scores_a_declined_da_hua_hu_as_an_ordinary_taiwan13_hand():
    from engine.score import calculate

    request = {"rules": "taiwan13", "concealed": "123m456m789m45p99s", "flowers": "f1f2f3f4f5f6f7f8", "win_tile": "3p"}
    assert [i["name"] for i in calculate(request)["items"]] == ["大花胡"]
    declined = calculate({**request, "flower_win_declined": True})
    assert "大花胡" not in [i["name"] for i in declined["items"]] and declined["valid"]
