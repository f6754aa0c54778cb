"""Taiwanese 13-tile 台 table (rule document 001, "十三张麻将台数计算"), and its settlement.

One row per item, in the document's order, names exactly as the document writes them (断么九,
混全带么 with 么). The document writes one exclusion (混老头: 碰碰胡不计算在内); the others follow
the same rule — an item does not count again a smaller item its own definition already holds — and
the 13-台 hands are limit hands that stand alone. Every choice is in docs/rules/taiwan13.md.

    >>> from engine.scoring import WinContext, score_win
    >>> from engine.tiles import parse_tiles
    >>> ctx = WinContext(concealed=tuple(parse_tiles("123m456m789m234p5s")),
    ...                  win_tile=parse_tiles("5s")[0], self_drawn=True)
    >>> [(i.name, i.value) for i in score_win(ctx, "taiwan13").items]
    [('门清', 1), ('自摸', 1), ('平胡', 2), ('一条龙', 2)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..analysis import waits as standard_waits
from ..forms import ORPHANS, is_seven_different_pairs, is_thirteen_orphans
from ..settlement import Payment, SettleContext, Settlement
from ..tiles import DRAGONS, GREEN, WINDS, to_counts
from .core import (
    DEALER,
    SINGLE,
    Item,
    Reading,
    RuleSet,
    ScoreItem,
    ScoreResult,
    WinContext,
    item,
    standard_readings,
)
from .core import concealed_hand as _concealed_hand
from .core import dragon_triplets as _dragons
from .core import has_honour as _has_honour
from .core import suits as _suits
from .core import wind_triplets as _winds

LIMIT_TAI = 13  # the 13-台 hands: limit hands, counted alone (see _limit below)
MIN_TAI = 1  # 胡牌时请注意一定要有台数
POINTS_PER_TAI = 20  # 一台是20点积分
LEAVE_PENALTY = 50  # 中断连线之一方会被扣50点积分
BIG_FLOWER_WIN = "大花胡"
FLOWER_WINS = (BIG_FLOWER_WIN,)

SEVEN_PAIRS = "seven_pairs"
THIRTEEN_ORPHANS = "thirteen_orphans"
THIRTEEN_SIDED = "thirteen_sided"  # the wait of 国士无双 holding all thirteen kinds

TERMINALS = ORPHANS[:6]  # 1m 9m 1p 9p 1s 9s; ORPHANS adds the 字牌 (the tiles of 国士无双)
GREEN_TILES = frozenset((19, 20, 21, 23, 25, GREEN))  # 2 3 4 6 8 索 and 发
BIG_WHEEL = tuple(range(10, 17))  # 2p..8p, the pairs of 大车轮


# ---------------------------------------------------------------- special forms


@dataclass(frozen=True, slots=True)
class FormReading(Reading):
    """A reading of a special form: ``form`` names it, ``pairs`` lists seven pairs' tiles. Its
    ``sets`` are empty, so no item about sets (平胡, 碰碰胡, 一杯口 ...) applies to it."""

    form: str = ""
    pairs: tuple[int, ...] = ()


def seven_pairs(counts: list[int]) -> tuple[int, ...]:
    """The seven different pairs of a 14-tile hand, or () (four of a kind is not two pairs here)."""
    return tuple(t for t, n in enumerate(counts) if n == 2) if is_seven_different_pairs(counts) else ()


def form_readings(ctx: WinContext) -> list[FormReading]:
    """Readings of 七对子 and 国士无双 (a fully concealed hand only: a meld leaves too few tiles)."""
    assert ctx.win_tile is not None
    if ctx.melds:
        return []
    tiles = (*ctx.concealed, ctx.win_tile)
    counts = to_counts(tiles)
    before = to_counts(ctx.concealed)
    out = []
    pairs = seven_pairs(counts)
    if pairs:
        hand_waits = tuple(sorted({*standard_waits(before), ctx.win_tile}))
        out.append(FormReading(ctx.win_tile, (), -1, SINGLE, hand_waits, tiles, SEVEN_PAIRS, pairs))
    if is_thirteen_orphans(counts):
        pair = next(t for t in ORPHANS if counts[t] == 2)
        missing = tuple(t for t in ORPHANS if not before[t])
        wait = SINGLE if missing else THIRTEEN_SIDED  # all thirteen in hand: any of them wins
        out.append(FormReading(pair, (), -1, wait, missing or ORPHANS, tiles, THIRTEEN_ORPHANS))
    return out


def readings(ctx: WinContext) -> list[Reading]:
    """Every reading of the hand; when some reading is a limit hand, only the limit readings (a
    player announces 大车轮, not the 双杯口 reading of the same tiles)."""
    found: list[Reading] = [*standard_readings(ctx), *form_readings(ctx)]
    limits = [r for r in found if _limit(r, ctx)]
    return limits or found


# ---------------------------------------------------------------- facts the predicates share


def _form(h: Reading) -> str:
    return h.form if isinstance(h, FormReading) else ""



def _chows(h: Reading) -> list[int]:
    return [s.tile for s in h.sets if s.kind == "chi"]


def _triplets(h: Reading) -> list[int]:
    return [s.tile for s in h.triplets]






def _all_in(h: Reading, allowed: Iterable[int]) -> bool:
    return set(h.tiles) <= set(allowed)


def _groups(h: Reading) -> list[tuple[int, ...]]:
    """The tiles of every set and of the pair (one of each kind is enough for 全带么)."""
    groups: list[tuple[int, ...]] = [(s.tile, s.tile + 1, s.tile + 2) if s.kind == "chi" else (s.tile,) for s in h.sets]
    return [*groups, (h.pair,)]


def _every_group_has(h: Reading, tiles: Iterable[int]) -> bool:
    wanted = set(tiles)
    return not _form(h) and all(wanted.intersection(g) for g in _groups(h))


def _same_chow_pairs(h: Reading) -> int:
    """一杯口 count: pairs of identical chows (two pairs, or four alike, are 双杯口)."""
    return sum(n // 2 for n in Counter(_chows(h)).values())


def _three_colours(tiles: list[int], lows: range) -> bool:
    have = set(tiles)
    return any({n, n + 9, n + 18} <= have for n in lows)


def _dragon_line(h: Reading) -> bool:
    chows = set(_chows(h))
    return any({s, s + 3, s + 6} <= chows for s in (0, 9, 18))


def _seat_and_round_winds(h: Reading, c: WinContext) -> int:
    winds = _winds(h)
    return winds.count(WINDS[c.seat_wind]) + winds.count(WINDS[c.round_wind])


def _all_chows(h: Reading) -> bool:
    return bool(h.sets) and all(s.kind == "chi" for s in h.sets)


def _all_triplets(h: Reading) -> bool:
    return bool(h.sets) and all(s.is_triplet for s in h.sets)


def _all_begged(c: WinContext) -> bool:
    """全求: one tile left in hand, won on a discard, every set 吃 or 碰 (明杠/加杠 too)."""
    return len(c.concealed) == 1 and not c.self_drawn and not any(m.is_concealed for m in c.melds)


def _nine_gates(h: Reading, c: WinContext) -> bool:
    """九莲宝灯: 1112345678999 of 万 plus any 万, all in hand."""
    counts = to_counts(h.tiles)
    return (
        not c.melds
        and _suits(h) == {0}
        and not _has_honour(h)
        and counts[0] >= 3
        and counts[8] >= 3
        and all(counts[1:8])
    )


# ---------------------------------------------------------------- the table

_ROWS = (
    item("门清", 1, lambda h, c: _concealed_hand(c)),
    # a row of the table like any other: it counts toward the 1-台 minimum (docs/rules/taiwan13.md)
    item("庄家", 1, lambda h, c: c.dealer, tags=[DEALER], needs_hand=False),
    item("自摸", 1, lambda h, c: c.self_drawn, needs_hand=False),
    item("风牌", 1, _seat_and_round_winds),
    item("三元牌", 1, lambda h, c: len(_dragons(h))),
    item("海底捞月", 1, lambda h, c: c.last_tile and c.self_drawn),
    item("杠上开花", 1, lambda h, c: c.kong_replacement and c.self_drawn),
    item("断么九", 1, lambda h, c: not set(h.tiles) & set(ORPHANS)),
    item("一杯口", 1, lambda h, c: _same_chow_pairs(h) >= 1),
    item("三色同顺", 1, lambda h, c: _three_colours(_chows(h), range(7))),
    item("平胡", 2, lambda h, c: _all_chows(h)),
    item("一条龙", 2, lambda h, c: _dragon_line(h)),
    item("三暗刻", 2, lambda h, c: h.concealed_triplets >= 3),
    item("七对子", 2, lambda h, c: _form(h) == SEVEN_PAIRS),
    item("混全带么", 2, lambda h, c: _has_honour(h) and _every_group_has(h, ORPHANS)),
    item("双杯口", 2, lambda h, c: _same_chow_pairs(h) >= 2, excludes=["一杯口"]),
    item("全求", 2, lambda h, c: _all_begged(c)),
    item("三色同刻", 2, lambda h, c: _three_colours(_triplets(h), range(9))),
    item("碰碰胡", 4, lambda h, c: _all_triplets(h)),
    item("小三元", 4, lambda h, c: len(_dragons(h)) == 2 and h.pair in DRAGONS, excludes=["三元牌"]),
    item("大三元", LIMIT_TAI, lambda h, c: len(_dragons(h)) == 3),
    item("混一色", 4, lambda h, c: len(_suits(h)) == 1 and _has_honour(h)),
    item("纯全带么", 4, lambda h, c: not _has_honour(h) and _every_group_has(h, TERMINALS)),
    item(
        "混老头",
        8,
        lambda h, c: _all_in(h, ORPHANS) and _has_honour(h) and bool(_suits(h)),
        excludes=["碰碰胡", "混全带么"],
        note="碰碰胡不计算在内 (document); 混全带么 is in its definition too",
    ),
    item("清一色", 8, lambda h, c: (len(_suits(h)) == 1 and not _has_honour(h)) or not _suits(h)),
    item("小四喜", LIMIT_TAI, lambda h, c: len(_winds(h)) == 4 or (len(_winds(h)) == 3 and h.pair in WINDS)),
    item(
        BIG_FLOWER_WIN,
        LIMIT_TAI,
        lambda h, c: c.flower_win == BIG_FLOWER_WIN and len(set(c.flowers)) == 8,
        needs_hand=False,
        note="三家通赔一底十三台: nothing else is counted, 庄家 included",
    ),
    item("四暗刻", LIMIT_TAI, lambda h, c: h.concealed_triplets >= 4),
    item("字一色", LIMIT_TAI, lambda h, c: not _suits(h)),
    item("国士无双", LIMIT_TAI, lambda h, c: _form(h) == THIRTEEN_ORPHANS),
    item("绿一色", LIMIT_TAI, lambda h, c: _all_in(h, GREEN_TILES)),
    item("九莲宝灯", LIMIT_TAI, _nine_gates),
    item("清老头", LIMIT_TAI, lambda h, c: _all_in(h, TERMINALS)),
    item("大车轮", LIMIT_TAI, lambda h, c: isinstance(h, FormReading) and h.form == SEVEN_PAIRS and h.pairs == BIG_WHEEL),
    item("地胡", LIMIT_TAI, lambda h, c: c.earthly, needs_hand=False),
    item("天胡", LIMIT_TAI, lambda h, c: c.heavenly, needs_hand=False),
)


def _with_limit_exclusions(items: tuple[Item, ...]) -> tuple[Item, ...]:
    """A 13-台 hand counts only the 13-台 items (they add up) and 庄家; 大花胡 counts alone."""
    below = [i.name for i in items if i.value < LIMIT_TAI and i.name != "庄家"]
    every = [i.name for i in items if i.name != BIG_FLOWER_WIN]
    return tuple(
        replace(i, excludes=frozenset(every if i.name == BIG_FLOWER_WIN else below))
        if i.value == LIMIT_TAI
        else i
        for i in items
    )


ITEMS = _with_limit_exclusions(_ROWS)
LIMIT_ITEMS = tuple(i for i in ITEMS if i.value == LIMIT_TAI and i.needs_hand)


def _limit(h: Reading, c: WinContext) -> bool:
    return any(i.count(h, c) for i in LIMIT_ITEMS)


RULES = RuleSet(
    name="taiwan13",
    unit="tai",
    items=ITEMS,
    hand_size=13,
    readings=readings,
    min_tai=MIN_TAI,
    eight_flowers=BIG_FLOWER_WIN,  # 只要某一家拿到全部八张的花牌…称为大花胡
)


# ---------------------------------------------------------------- settlement


def settle(result: ScoreResult, ctx: SettleContext) -> Settlement:
    """The settle hook: 台 × 20 points, paid by the discarder alone (放枪) or by all three on a
    self-draw (自摸) and on 大花胡. 庄家: the dealer always counts one 台 more — as the winner the
    scorer lists it; as a payer the dealer pays one 台 more and the sheet shows it. The table's
    底/台/滿台/24-台 options are taiwan16's and do not apply (document 001 has none of them).

        >>> from engine.scoring import score_win
        >>> from engine.tiles import parse_tiles
        >>> hand = WinContext(concealed=tuple(parse_tiles("123m456m789m234p5s")), win_tile=22)
        >>> settle(score_win(hand, "taiwan13"), SettleContext(winner=1, dealer=0, discarder=0)).deltas
        (-120, 120, 0, 0)
    """
    winner, dealer, discarder = ctx.winning_seat(), ctx.dealer, ctx.discarder
    if not result.valid:
        raise ValueError(f"cannot settle an invalid win: {result.reason}")
    for s in (winner, dealer, discarder):
        if s is not None and s not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0..3, got {s}")
    if discarder == winner:
        raise ValueError("the winner cannot have discarded the winning tile")
    flower_win = result.flower_win is not None
    if not flower_win and (result.dealer > 0) != (winner == dealer):
        raise ValueError(f"scored with 庄家 {result.dealer} but winner={winner}, dealer={dealer}")
    if discarder is not None and flower_win:
        raise ValueError("大花胡 is paid by all three")
    payers = [discarder] if discarder is not None else [s for s in range(4) if s != winner]
    reason = BIG_FLOWER_WIN if flower_win else "胡" if discarder is not None else "自摸"
    payments = []
    for p in payers:
        tai = result.total + (1 if p == dealer and not flower_win else 0)
        payments.append(Payment(p, winner, tai, tai * POINTS_PER_TAI, reason))
    extra = (ScoreItem("庄家", 1),) if winner != dealer and dealer in payers and not flower_win else ()
    return Settlement(_deltas(payments), tuple(payments), result.items + extra)


def settle_leave(seat: int, penalty: int = LEAVE_PENALTY) -> Settlement:
    """中断连线: the player who leaves loses 50 points, the other three are unchanged and the game
    ends for the table. Not zero-sum: the points leave the table.

        >>> settle_leave(2).deltas
        (0, 0, -50, 0)
    """
    if seat not in (0, 1, 2, 3):
        raise ValueError(f"seat must be 0..3, got {seat}")
    deltas = [0, 0, 0, 0]
    deltas[seat] = -penalty
    return Settlement((deltas[0], deltas[1], deltas[2], deltas[3]), ())


def _deltas(payments: list[Payment]) -> tuple[int, int, int, int]:
    got = [sum(p.amount for p in payments if p.payee == s) for s in range(4)]
    paid = [sum(p.amount for p in payments if p.payer == s) for s in range(4)]
    return (got[0] - paid[0], got[1] - paid[1], got[2] - paid[2], got[3] - paid[3])
