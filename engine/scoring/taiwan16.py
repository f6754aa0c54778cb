"""Taiwanese 16-tile 台 table (rule document 000, "名稱 台數 說明").

One row per item, in the document's order: name exactly as the document writes it (搶摃 with 摃),
台 per occurrence, a predicate counting occurrences on a reading + context, and what it excludes.
Interpretations are listed in docs/rules/taiwan16.md ("Scoring and settlement").

    >>> from engine.scoring import WinContext, score_win
    >>> from engine.tiles import parse_tiles
    >>> ctx = WinContext(concealed=tuple(parse_tiles("111444777m 222555p 9s")),
    ...                  win_tile=parse_tiles("9s")[0], self_drawn=True)
    >>> [(i.name, i.value) for i in score_win(ctx).items]
    [('門清自摸', 3), ('獨聽', 1), ('五暗刻', 16)]
"""

from __future__ import annotations

from ..forms import is_lugu, winning_tiles
from ..settlement import MAX_STREAK, SettleContext, Settlement, settle_win
from ..tiles import DRAGONS, WINDS, flower_wind, to_counts
from .core import (
    DEALER,
    DUAL_PON,
    NO_CAP,
    NO_MIN,
    READY,
    SINGLE,
    TWO_SIDED,
    Condition,
    HandSet,
    Item,
    Reading,
    RuleSet,
    ScoreResult,
    SwitchSpec,
    WinContext,
    item,
)
from .core import concealed_hand as _concealed_hand
from .core import dragon_triplets as _dragons
from .core import has_honour as _has_honour
from .core import suits as _suits
from .core import wind_triplets as _winds

SEE_WIND_SEE_FLOWER = "see_wind_see_flower"  # 見字見花 (the TableOptions field)
SELF_DRAW_ONLY = "self_draw_only"  # 限自摸
EIGHT_IMMORTALS = "八仙過海"
SEVEN_ROB_ONE = "七搶一"
FLOWER_WINS = (EIGHT_IMMORTALS, SEVEN_ROB_ONE)

# ---------------------------------------------------------------- facts the predicates share







def _seat_and_round_winds(h: Reading, c: WinContext) -> int:
    winds = _winds(h)
    return winds.count(WINDS[c.seat_wind]) + winds.count(WINDS[c.round_wind])


def _full_flower_sets(c: WinContext) -> int:
    fs = set(c.flowers)
    return sum(1 for group in (range(34, 38), range(38, 42)) if fs.issuperset(group))


# 平胡: 有眼睛、無花、無字、無刻、無獨聽、無自摸、聽二洞 — the winning tile completes a two-sided chow
# of a hand waiting on exactly two tiles; a pair already in hand; no pung or kong anywhere. With no
# pung, an honour can only be the pair. Three of the conditions are house rules' to lift.
_PING_HU = (
    Condition(lambda h, c: not c.self_drawn and not h.triplets),
    Condition(lambda h, c: not c.flowers, waived_by="ping_hu_flowers"),
    Condition(lambda h, c: not _has_honour(h), waived_by="ping_hu_honour_pair"),
    # 有眼睛 (the pair is not the wait), 無獨聽 and 聽二洞: the wait rules house rules relax
    Condition(lambda h, c: h.win_in >= 0, waived_by=("ping_hu_no_wait_rule", "ping_hu_pair_wait")),
    Condition(lambda h, c: len(h.waits) != 1, waived_by="ping_hu_no_wait_rule"),
    # 聽二洞: two waits, the winning tile completing a two-sided chow (or, where the pair may be the
    # wait, the pair)
    Condition(
        lambda h, c: len(h.waits) == 2 and (h.wait == TWO_SIDED or h.win_in < 0),
        waived_by=("ping_hu_any_wait", "ping_hu_no_wait_rule"),
    ),
    Condition(lambda h, c: not _concealed_hand(c), required_by="ping_hu_open_only"),  # 門清無平胡
)


def _all_claimed(c: WinContext) -> bool:
    """One tile left in hand (a single wait) and every set claimed (a 暗槓 is not claimed)."""
    return len(c.concealed) == 1 and not any(m.is_concealed for m in c.melds)


def _quan_qiu_ren(c: WinContext) -> bool:
    """全求人: every set claimed, won on a discard."""
    return _all_claimed(c) and not c.self_drawn


def lugu_readings(c: WinContext) -> list[Reading]:
    """嚦咕嚦咕 (house rule): seven pairs and one triplet, all 17 tiles in hand. Read as one triplet
    (the set) beside the pairs; ``pair`` is -1 since no single pair is the hand's eye."""
    assert c.win_tile is not None
    counts = to_counts((*c.concealed, c.win_tile))
    if c.melds or not is_lugu(counts):
        return []
    triplet = next(t for t, n in enumerate(counts) if n == 3)
    on_triplet = c.win_tile == triplet
    concealed = not (on_triplet and not c.self_drawn)
    waits = tuple(winning_tiles(to_counts(c.concealed), ("lugu",)))
    tiles = (*c.concealed, c.win_tile)
    wait = DUAL_PON if on_triplet else SINGLE
    sets = (HandSet("pon", triplet, concealed=concealed, melded=False),)
    return [Reading(-1, sets, 0 if on_triplet else -1, wait, waits, tiles, form="lugu")]


def _flowers_unpaid(h: Reading | None, c: WinContext) -> bool:
    """The flowers were not already paid as a 八仙過海/七搶一 bonus (house rule flower_win_as_bonus)."""
    return not c.flower_bonus_taken


_UNPAID = Condition(_flowers_unpaid, required_by="flower_win_as_bonus")


def _flower_win(name: str, flowers: int):
    return lambda h, c: c.flower_win == name and len(set(c.flowers)) == flowers


# the exclusions the document writes (or that we chose, see docs/rules/taiwan16.md)
_WIND_TAI = ("風牌", "見風有台")  # 風台
_ANKE = ("三暗刻", "四暗刻", "五暗刻")  # 3.4.5暗刻
_FLOWER_WIN_EXCLUDES = (
    *("花牌", "花槓", "自摸", "天胡", "地胡"),  # the document
    *("見花有台", "莊家", "連莊", "眼牌", "Miji"),  # ours: a flower win is settled 一底八台 flat
)
_DEALT = ("門清", "自摸", "門清自摸")  # not counted with 天胡/地胡/人胡: the hand was dealt, not played
_ONE_DECLARATION = ("Miji", "眼牌")  # house rule: 天聽/地聽 and Miji are one 報聽, paid once


def _dealt_kept(switch: str) -> dict[SwitchSpec, tuple[str, ...]]:
    """What a 天胡加計 / 地胡加計 switch counts after all: 1 自摸 only, 3 門清/自摸/門清自摸."""
    return {(switch, 1): ("自摸",), (switch, 3): _DEALT}


_ROWS: tuple[Item, ...] = (
    item("眼牌", 1, lambda h, c: c.eye_declared, tags=[NO_MIN, NO_CAP], needs_hand=False),
    item("莊家", 1, lambda h, c: c.dealer, tags=[DEALER, NO_MIN, NO_CAP], needs_hand=False),
    item(
        "連莊",
        2,
        lambda h, c: min(c.dealer_streak, MAX_STREAK) if c.dealer else 0,
        tags=[DEALER, NO_MIN, NO_CAP],
        needs_hand=False,
        note="連n拉n: 2 per 連莊, up to 連莊八",
    ),
    item("自摸", 1, lambda h, c: c.self_drawn, needs_hand=False),
    item("門清", 1, lambda h, c: _concealed_hand(c)),
    item(
        "門清自摸",
        3,
        lambda h, c: _concealed_hand(c) and c.self_drawn,
        excludes=["門清", "自摸"],
        tags=[NO_CAP],
        note="門清 1 + 自摸 1 + 1 more: listed as one item of 3 instead of 門清 and 自摸",
    ),
    item("風牌", 1, _seat_and_round_winds, unless_option=SEE_WIND_SEE_FLOWER),
    item("見風有台", 1, lambda h, c: len(_winds(h)), option=SEE_WIND_SEE_FLOWER),
    item(
        "花牌",
        1,
        lambda h, c: sum(1 for f in c.flowers if flower_wind(f) == c.seat_wind),
        tags=[NO_MIN],
        needs_hand=False,
        unless_option=SEE_WIND_SEE_FLOWER,
        conditions=[_UNPAID],
    ),
    item(
        "見花有台",
        1,
        lambda h, c: len(c.flowers),
        tags=[NO_MIN],
        needs_hand=False,
        option=SEE_WIND_SEE_FLOWER,
        conditions=[_UNPAID],
    ),
    item("三元牌", 1, lambda h, c: len(_dragons(h))),
    item("海底撈月", 1, lambda h, c: c.last_tile and c.self_drawn),
    item("河底撈魚", 0, lambda h, c: c.last_discard, needs_hand=False, value_from="river_bottom_tai"),
    item(
        "槓上開花",
        1,
        lambda h, c: c.kong_replacement and c.self_drawn,
        conditions=[Condition(lambda h, c: not c.after_flower, required_by="kong_bloom_kong_only")],
    ),
    item("搶摃", 1, lambda h, c: c.robbing_kong and not c.self_drawn),
    item("獨聽", 1, lambda h, c: len(h.waits) == 1),
    item(
        "花槓",
        1,
        lambda h, c: _full_flower_sets(c),
        tags=[NO_MIN],
        needs_hand=False,
        value_from="flower_kong_tai",
        conditions=[_UNPAID],
    ),
    item("聽牌", 0, lambda h, c: c.declared_ready, tags=[READY], needs_hand=False, value_from="ready_tai"),
    item("平胡", 2, lambda h, c: True, conditions=_PING_HU),
    item("三暗刻", 2, lambda h, c: h.concealed_triplets >= 3),
    item(
        "全求人",
        2,
        lambda h, c: _quan_qiu_ren(c),
        excludes=["獨聽"],
        keeps={"all_claimed_with_single_wait": ["獨聽"]},
    ),
    item(
        "半求人",
        0,
        lambda h, c: _all_claimed(c) and c.self_drawn,
        excludes=["獨聽"],
        value_from="half_self_reliant_tai",
        keeps={"half_claimed_with_single_wait": ["獨聽"]},
    ),
    item("碰碰胡", 4, lambda h, c: all(s.is_triplet for s in h.sets)),
    item(
        "小三元",
        4,
        lambda h, c: len(_dragons(h)) == 2 and h.pair in DRAGONS,
        excludes=["三元牌"],
        keeps={"little_dragons_with_dragons": ["三元牌"]},
    ),
    item("混一色", 4, lambda h, c: len(_suits(h)) == 1 and _has_honour(h)),
    item("四暗刻", 5, lambda h, c: h.concealed_triplets >= 4, excludes=["三暗刻"]),
    item(
        "Miji",
        8,
        lambda h, c: c.miji,
        excludes=["門清", "門清自摸", "眼牌"],
        needs_hand=False,
        value_from="miji_tai",
        keeps={"miji_keeps_concealed": ["門清", "門清自摸"]},
    ),
    item("清一色", 8, lambda h, c: len(_suits(h)) == 1 and not _has_honour(h)),
    item("大三元", 8, lambda h, c: len(_dragons(h)) == 3, excludes=["三元牌"]),
    item(
        SEVEN_ROB_ONE,
        8,
        _flower_win(SEVEN_ROB_ONE, 7),
        excludes=_FLOWER_WIN_EXCLUDES,
        needs_hand=False,
    ),
    item(
        EIGHT_IMMORTALS,
        8,
        _flower_win(EIGHT_IMMORTALS, 8),
        excludes=_FLOWER_WIN_EXCLUDES,
        needs_hand=False,
    ),
    item(
        "天聽",
        0,
        lambda h, c: c.heavenly_ready,
        excludes=["聽牌"],
        tags=[READY],
        value_from="heavenly_ready_tai",
        conditions=[
            # who besides the dealer: anyone (the bot's reading), nobody, or a ready dealt hand (配牌聽)
            Condition(lambda h, c: c.dealer, required_by="earthly_ready_tai", waived_by="heavenly_ready_dealt"),
            Condition(lambda h, c: c.dealer, required_by="heavenly_ready_dealer_only"),
            Condition(lambda h, c: c.dealer or c.dealt_ready, required_by="heavenly_ready_dealt"),
        ],
        drops={"heavenly_ready_replaces_miji": _ONE_DECLARATION, "heavenly_ready_no_concealed": ["門清"]},
    ),
    item(
        "地聽",
        0,
        lambda h, c: c.heavenly_ready and not c.dealer,
        excludes=["聽牌"],
        tags=[READY],
        value_from="earthly_ready_tai",
        conditions=[
            Condition(
                lambda h, c: not c.dealt_ready,  # a ready dealt hand is 天聽 there
                required_by="heavenly_ready_dealt",
                waived_by="heavenly_ready_dealer_only",
            )
        ],
        drops={"heavenly_ready_replaces_miji": _ONE_DECLARATION},
    ),
    item(
        "嚦咕嚦咕",
        0,
        lambda h, c: h.form == "lugu",
        excludes=["碰碰胡"],
        value_from="lugu_tai",
        drops={"lugu_no_concealed": ["門清", "門清自摸"]},
    ),
    item(
        "地胡",
        8,
        lambda h, c: c.earthly,
        excludes=_DEALT,
        needs_hand=False,
        value_from="earthly_tai",
        keeps=_dealt_kept("earthly_adds"),
        conditions=[Condition(lambda h, c: c.self_drawn, required_by="earthly_self_drawn_only")],
    ),
    item(
        "人胡",
        0,
        lambda h, c: c.human,
        excludes=["地胡", *_DEALT],
        needs_hand=False,
        value_from="human_tai",
    ),
    item(
        "五暗刻",
        16,
        lambda h, c: h.concealed_triplets >= 5,
        excludes=["三暗刻", "四暗刻", "碰碰胡"],
        value_from="five_concealed_tai",
        keeps={"five_concealed_with_pongs": ["碰碰胡"]},
    ),
    item(
        "字一色",
        16,
        lambda h, c: not _suits(h),
        excludes=["三元牌", "碰碰胡", *_WIND_TAI],
        value_from="all_honours_worth",
        keeps={
            "all_honours_with_pongs": ["碰碰胡"],
            "all_honours_with_dragons": ["三元牌"],
            "all_honours_with_winds": _WIND_TAI,
        },
    ),
    item(
        "小四喜",
        16,
        lambda h, c: len(_winds(h)) == 3 and h.pair in WINDS,
        excludes=[*_WIND_TAI, *_ANKE],
        value_from="little_four_winds_tai",
        keeps={"little_four_winds_with_winds": _WIND_TAI, "little_four_winds_with_concealed": _ANKE},
    ),
    item(
        "大四喜",
        16,
        lambda h, c: len(_winds(h)) == 4,
        excludes=[*_WIND_TAI, *_ANKE],
        keeps={"big_four_winds_with_concealed": _ANKE, "big_four_winds_with_winds": _WIND_TAI},
    ),
)
# 天胡 last: with 天胡不計他台 it excludes every other row of the hand (its keeps still count)
_NOT_OF_THE_HAND = ("莊家", "連莊", "眼牌", *FLOWER_WINS)  # payments, a declaration, the flower wins
ITEMS: tuple[Item, ...] = (
    *_ROWS,
    item(
        "天胡",
        16,
        lambda h, c: c.heavenly,
        excludes=[*_DEALT, "獨聽", "槓上開花"],
        needs_hand=False,
        value_from="heavenly_tai",
        keeps={**_dealt_kept("heavenly_adds"), "heavenly_with_single_wait": ("獨聽",)},
        drops={
            "heavenly_no_dealer": ["莊家", "連莊"],  # settle_win then adds no [2n+1] either
            "heavenly_alone": [i.name for i in _ROWS if i.name not in _NOT_OF_THE_HAND],
        },
    ),
)


def _refuse(c: WinContext) -> str:
    if c.options.self_draw_only and not c.self_drawn and c.flower_win is None:
        return "this table only allows self-drawn wins (限自摸)"
    return ""


RULES = RuleSet(
    name="taiwan16",
    unit="tai",
    items=ITEMS,
    hand_size=16,
    refuse=_refuse,
    eight_flowers=EIGHT_IMMORTALS,
    form_readings=(("lugu", lugu_readings),),
)


def settle(result: ScoreResult, ctx: SettleContext) -> Settlement:
    """The settle hook: document 000's formula (胡牌後各方計算, 滿台計算), see engine.settlement."""
    return settle_win(
        result,
        winner=ctx.winning_seat(),
        dealer=ctx.dealer,
        dealer_streak=ctx.dealer_streak,
        discarder=ctx.discarder,
        options=ctx.options,
        eye_declarers=ctx.eye_declarers,
        single_flower_holder=ctx.flower_payer,
    )
