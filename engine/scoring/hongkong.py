"""The 番 table of rule document 002 (三、番的牌型規則設定), played with 13 tiles.

One row per item, in the document's order: the 牌型 within 爆和 (雞糊 … 清一色), the 牌型 beyond
爆和 (清碰 … 十三幺), then the 附加情況 (自摸 … 搶杠) and the 寶牌 of 翻寶牌. Names are written
exactly as the document writes them (杠, not 槓). Interpretations are listed in
docs/rules/hongkong.md ("Scoring").

爆和 is the 5-番 ceiling of an ordinary hand: its 番 are added up (``total``) and a payer pays
2^min(番, 5) points. A hand beyond 爆和 is paid at its row's value (the 分值 column), with no
addition on top and only its highest special row counted; those rows are tagged ``NO_CAP`` and
exclude everything they outrank, so ``ScoreResult.capped_total(BAO_HE)`` is the 番 paid.

    >>> from engine.scoring import WinContext, score_win
    >>> from engine.tiles import parse_tiles, tile_from_str
    >>> ctx = WinContext(concealed=tuple(parse_tiles("111999m 111p 555z 9s")), win_tile=tile_from_str("9s"))
    >>> result = score_win(ctx, "hongkong")
    >>> [(i.name, i.value) for i in result.items], points(result)
    ([('混幺九', 6)], 64)
"""

from __future__ import annotations

from dataclasses import replace

from ..forms import ORPHANS, is_thirteen_orphans
from ..settlement import Payment, SettleContext, Settlement
from ..tiles import DRAGONS, WINDS, is_terminal, to_counts
from .core import (
    NO_CAP,
    NO_MIN,
    SINGLE,
    Count,
    Item,
    Reading,
    RuleSet,
    ScoreResult,
    ScoringError,
    WinContext,
    evaluate,
    item,
    standard_readings,
)
from .core import concealed_hand as _concealed_hand
from .core import dragon_triplets as _dragons
from .core import has_honour as _has_honour
from .core import suits as _suits
from .core import wind_triplets as _winds

BAO_HE = 5  # 爆和為5番: the ceiling of an ordinary hand
BONUS = "寶牌"


# ---------------------------------------------------------------- readings


def thirteen_orphans_reading(ctx: WinContext) -> list[Reading]:
    """十三幺 (1、9萬筒索，東南西北中發白, one doubled) as a reading: ``sets`` is empty and ``pair`` is
    the doubled tile. The form itself is engine.forms', which the game's win check uses too."""
    assert ctx.win_tile is not None
    tiles = (*ctx.concealed, ctx.win_tile)
    counts = to_counts(tiles)
    if ctx.melds or not is_thirteen_orphans(counts):
        return []
    pair = next(t for t in ORPHANS if counts[t] == 2)
    held = to_counts(ctx.concealed)
    missing = tuple(t for t in ORPHANS if held[t] == 0)
    return [Reading(pair, (), -1, SINGLE, missing or ORPHANS, tiles)]


def _paid(scored: list[tuple[Item, int]]) -> tuple[int, int, int]:
    """(番 paid after 爆和, total 番, 番 counting toward 番起和) of one evaluated reading."""
    total = sum(v for _, v in scored)
    beyond = sum(v for it, v in scored if NO_CAP in it.tags)
    countable = sum(v for it, v in scored if NO_MIN not in it.tags)
    return min(total - beyond, BAO_HE) + beyond, total, countable


def readings(ctx: WinContext) -> list[Reading]:
    """Every reading of the hand (sets and a pair, or 十三幺), narrowed to those that pay most.

    The evaluation loop keeps the reading with the highest ``total``; with 爆和 that is not always
    the one that pays most (清碰 6 pays 64, a chow reading of the same tiles may add up to 7 番 and
    pay 32), so this hook hands it only the readings a player would choose."""
    found = standard_readings(ctx) + thirteen_orphans_reading(ctx)
    if len(found) <= 1:
        return found
    minimum = ctx.options.min_tai
    table = RULES.sized(ctx.options.hand_size)

    def rank(reading: Reading) -> tuple[bool, int, int, int]:
        paid, total, countable = _paid(evaluate(table, reading, ctx))
        return countable >= minimum, paid, total, countable

    ranks = [rank(r) for r in found]
    best = max(ranks)
    return [r for r, k in zip(found, ranks, strict=True) if k == best]


# ---------------------------------------------------------------- facts the predicates share






def _all_pungs(h: Reading) -> bool:
    """碰碰胡: four 刻子 (or 槓) and a pair; 十三幺 has no sets and is not one."""
    return bool(h.sets) and all(s.is_triplet for s in h.sets)


def _all_chows(h: Reading) -> bool:
    return bool(h.sets) and not h.triplets


def _one_suit_with_honours(h: Reading) -> bool:
    return len(_suits(h)) == 1 and _has_honour(h)


def _one_suit(h: Reading) -> bool:
    return len(_suits(h)) == 1 and not _has_honour(h)


def _terminals_and_honours(h: Reading) -> bool:
    """混幺九: only 幺九 and honour tiles, both present."""
    return all(t >= 27 or is_terminal(t) for t in h.tiles) and _has_honour(h) and bool(_suits(h))


def _seat_and_round_winds(h: Reading, c: WinContext) -> int:
    winds = _winds(h)
    return winds.count(WINDS[c.seat_wind]) + winds.count(WINDS[c.round_wind])



def _bonus_count(h: Reading, c: WinContext) -> int:
    return sum(h.tiles.count(bonus_tile(i)) for i in c.bonus_indicators)


# ---------------------------------------------------------------- the table

ORDINARY = ("雞糊", "平胡", "碰碰胡", "混一色", "混碰", "清一色")
ADDITIONS = ("自摸", "風牌刻", "三元牌", "門前清", "海底撈月", "杠開", BONUS)  # 爆和內 only
SPECIAL_ROWS = (  # 爆和以外的牌型, lowest first: each outranks (excludes) the ones before it
    ("清碰", 6, lambda h, c: _one_suit(h) and _all_pungs(h)),
    ("混幺九", 6, lambda h, c: _terminals_and_honours(h)),
    ("小三元", 7, lambda h, c: len(_dragons(h)) == 2 and h.pair in DRAGONS),
    ("小四喜", 7, lambda h, c: len(_winds(h)) == 3 and h.pair in WINDS),
    ("字一色", 8, lambda h, c: not _suits(h)),
    ("清幺九", 8, lambda h, c: all(is_terminal(t) for t in h.tiles)),
    ("大三元", 9, lambda h, c: len(_dragons(h)) == 3),
    ("大四喜", 9, lambda h, c: len(_winds(h)) == 4),
    ("十三幺", 9, lambda h, c: not h.sets and set(h.tiles) == set(ORPHANS)),
)
SPECIALS = tuple(name for name, _, _ in SPECIAL_ROWS)
FIRST_GO = ("天和", "人和", "地和")  # 當十三幺計算, 9番: the whole hand is paid as 9 番


def _special(i: int) -> Item:
    name, value, count = SPECIAL_ROWS[i]
    return item(name, value, count, excludes=[*ORDINARY, *ADDITIONS, *SPECIALS[:i]], tags=[NO_CAP])


def _first_go(name: str, count: Count) -> Item:
    return item(name, 9, count, excludes=[*ORDINARY, *ADDITIONS, *SPECIALS], tags=[NO_CAP])


ITEMS = (
    # 一、爆和(封頂)以內的牌型番種
    item("雞糊", 0, lambda h, c: True, note="什麼牌都可以和: listed when no other 牌型 applies"),
    item("平胡", 1, lambda h, c: _all_chows(h), excludes=["雞糊"]),
    item("碰碰胡", 3, lambda h, c: _all_pungs(h), excludes=["雞糊"]),
    item("混一色", 3, lambda h, c: _one_suit_with_honours(h), excludes=["雞糊"]),
    item(
        "混碰",
        5,
        lambda h, c: _one_suit_with_honours(h) and _all_pungs(h),
        excludes=["雞糊", "混一色", "碰碰胡"],
    ),
    item("清一色", 5, lambda h, c: _one_suit(h), excludes=["雞糊"]),
    # 二、爆和以外的牌型(特殊牌型)
    *(_special(i) for i in range(len(SPECIAL_ROWS))),
    # 附加情況
    item("自摸", 1, lambda h, c: c.self_drawn or c.robbing_kong, note="搶杠 is 當自摸"),
    item("風牌刻", 1, _seat_and_round_winds, note="seat wind +1, round wind +1 (both for one 刻)"),
    item("三元牌", 1, lambda h, c: len(_dragons(h))),
    item("門前清", 1, lambda h, c: _concealed_hand(c)),
    _first_go("天和", lambda h, c: c.heavenly),
    _first_go("人和", lambda h, c: c.earthly and not c.self_drawn and c.from_dealer),
    _first_go("地和", lambda h, c: c.earthly and c.self_drawn),
    item("海底撈月", 1, lambda h, c: c.last_tile and c.self_drawn),
    item("杠開", 1, lambda h, c: c.kong_replacement and c.self_drawn),
    item("搶杠", 0, lambda h, c: c.robbing_kong, note="當自摸, 不加+1番: paid by the kong's owner"),
    # 翻寶牌 (十三張麻將才有)
    item(BONUS, 1, _bonus_count, tags=[NO_MIN], note="+1 番 per 寶牌 in the hand; not a 番起和 番"),
)


def _refuse(c: WinContext) -> str:
    if c.flowers or c.flower_win is not None:
        raise ScoringError("hongkong is played with 13 tiles and no flowers (補花: 十六張麻將才有)")
    if any(not 0 <= b < 34 for b in c.bonus_indicators):
        raise ScoringError("翻寶牌 indicators must be suited or honour tiles")
    return ""


def _refuse_16(c: WinContext) -> str:
    if c.flower_win is not None:
        raise ScoringError("document 002 has no flower win: flowers are only set aside (補花)")
    if c.bonus_indicators:
        raise ScoringError("翻寶牌 is 13-tile play (十三張麻將才有): no 寶牌 with 16 tiles")
    return ""


# what cannot occur with 16 tiles: 十三幺 (fourteen tiles) and the 寶牌 of 翻寶牌 (十三張麻將才有)
THIRTEEN_ONLY = ("十三幺", BONUS)


def _without(items: tuple[Item, ...], names: tuple[str, ...]) -> tuple[Item, ...]:
    return tuple(replace(i, excludes=i.excludes - set(names)) for i in items if i.name not in names)


def fan_paid(result: ScoreResult) -> int:
    """The 番 a payer pays for: an ordinary hand stops at 爆和 (5), a special hand is its value."""
    return result.capped_total(BAO_HE)


def points(result: ScoreResult) -> int:
    """分值: 2^番 after 爆和 (雞糊 0 番 → 1, 爆和 → 32, 十三幺 → 512)."""
    return 2 ** fan_paid(result)


def bonus_tile(indicator: int) -> int:
    """翻寶牌: the tile after the flipped one is the 寶牌 — 3萬 → 4萬, 9筒 → 1筒, 北 → 東, 中 → 白
    (四風 東南西北 in order, 三元 白發中 in order)."""
    if indicator < 27:
        suit, n = divmod(indicator, 9)
        return suit * 9 + (n + 1) % 9
    if indicator in WINDS:
        return WINDS[(WINDS.index(indicator) + 1) % 4]
    if indicator in DRAGONS:
        return DRAGONS[(DRAGONS.index(indicator) + 1) % 3]
    raise ValueError(f"no 寶牌 follows tile {indicator}")


# ---------------------------------------------------------------- settlement


def settle(result: ScoreResult, ctx: SettleContext) -> Settlement:
    """The settle hook (engine.scoring.get_settle): :func:`settle_win` with the match's facts; one
    point is worth one point of the match score (the 分值 column is the payment)."""
    return settle_win(
        result,
        winner=ctx.winning_seat(),
        discarder=ctx.discarder,
        robbing_kong=ctx.robbing_kong,
        kong_discarder=ctx.kong_discarder,
    )


def settle_win(
    result: ScoreResult,
    *,
    winner: int,
    discarder: int | None,
    robbing_kong: bool = False,
    kong_discarder: int | None = None,
    unit: int = 1,
) -> Settlement:
    """Who pays what for a scored win; every payer pays ``points(result) × unit`` per share.

    - a win on a discard: the discarder pays one share (隻有算放炮者輸; 人和: the dealer, 莊家付);
    - 自摸 (海底撈月, 地和, 天和 too): each of the other three pays a share (三家付);
    - 搶杠 (``robbing_kong``; ``discarder`` is the kong's owner): 當自摸, and 由杠牌人付 — the
      owner pays all three shares;
    - 杠開 on the replacement of a 明杠 claimed from a discard (``kong_discarder`` = who discarded
      that tile): 由打出杠牌的人包付三家帳 — the discarder pays all three shares. A 暗杠 or 加杠
      replacement is an ordinary 自摸.

        >>> from engine.scoring import WinContext, score_win
        >>> from engine.tiles import parse_tiles, tile_from_str
        >>> ctx = WinContext(concealed=tuple(parse_tiles("19m19p19s1234567z")), win_tile=tile_from_str("7z"))
        >>> settle_win(score_win(ctx, "hongkong"), winner=1, discarder=0).deltas
        (-512, 512, 0, 0)
    """
    if not result.valid:
        raise ValueError(f"cannot settle an invalid win: {result.reason}")
    for seat in (winner, discarder, kong_discarder):
        if seat is not None and seat not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0..3, got {seat}")
    if winner in (discarder, kong_discarder):
        raise ValueError("the winner cannot pay for their own win")
    if robbing_kong and discarder is None:
        raise ValueError("搶杠 needs the robbed kong's owner as discarder")
    if kong_discarder is not None and (discarder is not None or robbing_kong):
        raise ValueError("杠開 包牌 is a self-drawn win: no discarder")
    share = points(result) * unit
    fan = fan_paid(result)
    others = [s for s in range(4) if s != winner]
    if robbing_kong:
        assert discarder is not None
        payments = [Payment(discarder, winner, fan, share * 3, "搶杠")]
    elif discarder is not None:
        payments = [Payment(discarder, winner, fan, share, "胡")]
    elif kong_discarder is not None:
        payments = [Payment(kong_discarder, winner, fan, share * 3, "杠開")]
    else:
        payments = [Payment(p, winner, fan, share, "自摸") for p in others]
    deltas = [0, 0, 0, 0]
    for p in payments:
        deltas[p.payer] -= p.amount
        deltas[p.payee] += p.amount
    capped = fan if fan != result.total else None  # 爆和 paid less than the hand's 番
    return Settlement((deltas[0], deltas[1], deltas[2], deltas[3]), tuple(payments), result.items, capped)


# document 002's 16-tile game (補花, 五組麵子以及一組對子): the same 番 table without what cannot occur;
# flowers score nothing, a win on a flower's replacement is 杠開 (「若補進之牌恰巧胡牌，也算杠上開花」)
RULES_16 = RuleSet(
    name="hongkong",
    unit="fan",
    items=_without(ITEMS, THIRTEEN_ONLY),
    hand_size=16,
    readings=readings,
    refuse=_refuse_16,
    points=points,
)
RULES = RuleSet(
    name="hongkong",
    unit="fan",
    items=ITEMS,
    hand_size=13,
    readings=readings,
    refuse=_refuse,
    points=points,
    sizes=((16, RULES_16),),
)
