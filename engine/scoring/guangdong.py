"""Guangdong 推倒胡 (rule document 004): the 牌型倍率 table, kong payments, 抢杠 and 买马.

"胡牌后只计自摸，不计番数": a hand is worth its one largest 牌型 (they never add up), so every
牌型 row excludes the rows below it; only 海底 (+1) is added on top. Seven 牌型 may also be won
on a discard (点炮) and say what the discarder pays (:data:`DISCARD_PAYS`); the others 必须自摸,
which the ``refuse`` hook enforces, and the game asks the scorer before it offers 胡
(``RuleProfile.scorer_vets_wins``). One 倍 is one point (抢杠's example: 普通胡 → 6 分).
Every reading of the document we chose is in docs/rules/guangdong.md.

    >>> from engine.scoring import WinContext, score_win
    >>> from engine.tiles import parse_tiles, tile_from_str
    >>> ctx = WinContext(concealed=tuple(parse_tiles("123m456p789s1155z")), win_tile=tile_from_str("5z"),
    ...                  self_drawn=True)
    >>> result = score_win(ctx, "guangdong")
    >>> [(i.name, i.value) for i in result.items], result.total
    ([('普通自摸胡', 2)], 2)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..forms import ORPHANS, is_seven_pairs, is_thirteen_orphans
from ..meld import MeldKind
from ..settlement import Payment, SettleContext, Settlement
from ..tiles import DRAGONS, WINDS, is_terminal, tile_name, to_counts
from .core import (
    SINGLE,
    Count,
    Item,
    Reading,
    RuleSet,
    ScoreItem,
    ScoreResult,
    WinContext,
    item,
    standard_readings,
)

UNIT = "multiplier"  # 倍
POINTS_PER_MULTIPLIER = 1  # 抢杠's example: 普通胡牌 (2 倍) × 3 家 = 6 分
CONCEALED_KONG = 2  # 暗杠: each of the other three pays 2
EXPOSED_KONG = 1  # 明杠 (claimed, or added to a 碰): each of the other three pays 1
SEA_BOTTOM = "海底"

# 有点炮: (what the discarder pays, what each of the other two pays); a 牌型 not listed 必须自摸
DISCARD_PAYS: dict[str, tuple[int, int]] = {
    "字一色": (30, 0),
    "超豪华七小对": (30, 0),
    "全幺九": (30, 0),
    "超超豪华七小对": (60, 0),
    "十八罗汉": (36, 18),
    "十三幺": (30, 0),
    "地胡": (30, 0),
}


# ---------------------------------------------------------------- readings


@dataclass(frozen=True, slots=True)
class FormReading(Reading):
    """七小对 or 十三幺: no sets. ``quads`` counts four-alike kept in hand as two pairs
    (豪华 1, 超豪华 2, 超超豪华 3: "暗杠未开杠的 7 小对")."""

    form: str = ""
    quads: int = 0


SEVEN_PAIRS, THIRTEEN_ORPHANS = "七小对", "十三幺"


def form_readings(ctx: WinContext) -> list[Reading]:
    """Readings of 七小对 and 十三幺 — a fully concealed 14-tile hand only (engine.forms agrees)."""
    assert ctx.win_tile is not None
    if ctx.melds:
        return []
    tiles = (*ctx.concealed, ctx.win_tile)
    counts = to_counts(tiles)
    out: list[Reading] = []
    if is_seven_pairs(counts):
        quads = sum(1 for n in counts if n == 4)
        out.append(FormReading(ctx.win_tile, (), -1, SINGLE, (), tiles, SEVEN_PAIRS, quads))
    if is_thirteen_orphans(counts):
        pair = next(t for t in ORPHANS if counts[t] == 2)
        out.append(FormReading(pair, (), -1, SINGLE, (), tiles, THIRTEEN_ORPHANS))
    return out


def readings(ctx: WinContext) -> list[Reading]:
    return [*standard_readings(ctx), *form_readings(ctx)]


# ---------------------------------------------------------------- facts the rows share


def _form(h: Reading) -> str:
    return h.form if isinstance(h, FormReading) else ""


def _quads(h: Reading) -> int:
    return h.quads if isinstance(h, FormReading) and h.form == SEVEN_PAIRS else -1


def _all_triplets(h: Reading) -> bool:
    return bool(h.sets) and all(s.is_triplet for s in h.sets)


def _honours_only(h: Reading) -> bool:
    return all(t >= 27 for t in h.tiles)


def _one_suit(h: Reading) -> bool:
    return len({t // 9 for t in h.tiles}) == 1 and not _honours_only(h)


def _kongs(c: WinContext) -> int:
    return sum(1 for m in c.melds if m.is_kong)


def _earthly(c: WinContext) -> bool:
    """地胡: 庄家打出的第一张牌 won by another player (the engine's ``earthly``: nobody has claimed
    anything yet, in the first go-round — so the dealer's discard is their first)."""
    return c.earthly and not c.self_drawn and not c.robbing_kong and c.from_dealer


# ---------------------------------------------------------------- the table

# 十一、牌型倍率说明, in the document's order: (name, 倍, count)
_ROWS: tuple[tuple[str, int, Count], ...] = (
    ("普通自摸胡", 2, lambda h, c: True),
    ("碰碰胡", 4, lambda h, c: _all_triplets(h)),
    ("七小对", 6, lambda h, c: _form(h) == SEVEN_PAIRS),
    ("清一色", 8, lambda h, c: _one_suit(h)),
    ("风幺九", 10, lambda h, c: all(t >= 27 or is_terminal(t) for t in h.tiles)),
    ("豪华七小对", 10, lambda h, c: _quads(h) == 1),
    ("坎坎胡", 10, lambda h, c: _all_triplets(h) and not c.melds),
    ("字一色", 20, lambda h, c: _honours_only(h)),
    ("超豪华七小对", 20, lambda h, c: _quads(h) == 2),
    ("全幺九", 20, lambda h, c: all(is_terminal(t) for t in h.tiles)),
    ("超超豪华七小对", 40, lambda h, c: _quads(h) == 3),
    ("十八罗汉", 36, lambda h, c: _kongs(c) == 4),
    ("十三幺", 20, lambda h, c: _form(h) == THIRTEEN_ORPHANS),
    ("天胡", 20, lambda h, c: c.heavenly),
    ("地胡", 20, lambda h, c: _earthly(c)),
)
HAND_TYPES = tuple(name for name, _, _ in _ROWS)


def _only_the_largest(rows: Iterable[tuple[str, int, Count]]) -> tuple[Item, ...]:
    """不计番数: each 牌型 excludes every row it outranks (larger 倍 first, the document's order
    between equals), so exactly one 牌型 is counted."""
    rows = tuple(rows)
    rank = sorted(range(len(rows)), key=lambda i: (-rows[i][1], i))
    below = {rows[i][0]: [rows[j][0] for j in rank[pos + 1 :]] for pos, i in enumerate(rank)}
    return tuple(item(name, value, count, excludes=below[name]) for name, value, count in rows)


ITEMS = (
    *_only_the_largest(_ROWS),
    item(SEA_BOTTOM, 1, lambda h, c: c.last_tile and c.self_drawn, note="胡牌墩的最后一张牌: +1 倍"),
)


def _refuse(c: WinContext) -> str:
    """必须自摸: a win on a discard needs a 牌型 that the document lets a discarder pay for.
    抢杠 counts as a self-draw (the robbed player pays for all three)."""
    if c.flowers or c.flower_win is not None:
        return "guangdong is played without flowers"
    if c.self_drawn or c.robbing_kong:
        return ""
    allowed = [i for i in ITEMS if i.name in DISCARD_PAYS]
    if any(i.count(r, c) for r in readings(c) for i in allowed):
        return ""
    return "必须自摸: this hand may win only by self-draw (only " + "、".join(DISCARD_PAYS) + " on a discard)"


RULES = RuleSet(name="guangdong", unit=UNIT, items=ITEMS, hand_size=13, readings=readings, refuse=_refuse)


def hand_type(result: ScoreResult) -> str:
    """The one 牌型 a scored win counts."""
    return next(i.name for i in result.items if i.name in HAND_TYPES)


# ---------------------------------------------------------------- settlement


def settle(result: ScoreResult, ctx: SettleContext) -> Settlement:
    """The settle hook: the win, then every kong on the table, then the dealer's horses.

    - 自摸 (杠上开花 and 天胡 too): each of the other three pays the hand's 倍;
    - 抢杠: the robbed player pays all three shares (3 × 倍), "与其他人无关";
    - 点炮 of a 牌型 that allows it: :data:`DISCARD_PAYS` (字一色 30 from the discarder, 十八罗汉
      36 from the discarder and 18 from each other player ...);
    - kongs, because someone won: 暗杠 2 and 明杠 1 from each other player, per kong;
    - 买马: each horse names a seat; the dealer settles again that seat's whole result (胡 and 杠).

        >>> from engine.scoring import score_win
        >>> from engine.tiles import parse_tiles
        >>> hand = WinContext(concealed=tuple(parse_tiles("123m456p789s1155z")), win_tile=31,
        ...                   self_drawn=True)
        >>> settle(score_win(hand, "guangdong"), SettleContext(winner=1, dealer=0)).deltas
        (-2, 6, -2, -2)
    """
    winner = ctx.winner
    if winner is None:
        raise ValueError("settle needs a winner; a draw game (荒庄) settles nothing")
    if not result.valid:
        raise ValueError(f"cannot settle an invalid win: {result.reason}")
    for s in (winner, ctx.dealer, ctx.discarder):
        if s is not None and s not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0..3, got {s}")
    if ctx.discarder == winner:
        raise ValueError("the winner cannot pay for their own win")
    payments = win_payments(result, winner, ctx.discarder, robbing_kong=ctx.robbing_kong)
    kongs, kong_lines = kong_payments(ctx)
    base = payments + kongs
    horses, horse_lines = horse_payments(base, ctx.horses, ctx.dealer)
    every = base + horses
    return Settlement(_deltas(every), every, result.items, extras=kong_lines + horse_lines)


def win_payments(
    result: ScoreResult, winner: int, discarder: int | None, *, robbing_kong: bool = False
) -> tuple[Payment, ...]:
    """Who pays the win itself (see :func:`settle`)."""
    value = result.total
    others = [s for s in range(4) if s != winner]
    if robbing_kong:
        if discarder is None:
            raise ValueError("抢杠 needs the robbed kong's owner as discarder")
        return (_pay(discarder, winner, value, 3 * value, "抢杠"),)
    if discarder is None:
        return tuple(_pay(p, winner, value, value, "自摸") for p in others)
    name = hand_type(result)
    if name not in DISCARD_PAYS:
        raise ValueError(f"{name} 必须自摸: it cannot be paid on a discard")
    own, rest = DISCARD_PAYS[name]
    pays = [_pay(discarder, winner, value, own, "点炮")]
    pays += [_pay(p, winner, value, rest, "点炮") for p in others if p != discarder and rest]
    return tuple(pays)


def kong_payments(ctx: SettleContext) -> tuple[tuple[Payment, ...], tuple[ScoreItem, ...]]:
    """暗杠 2 and 明杠 1 (claimed or added) from each other player, per kong, and one score-sheet
    line per kind and owner (its value: what the owner collects). A robbed kong is a 碰 again."""
    payments: list[Payment] = []
    lines: list[ScoreItem] = []
    for owner, melds in enumerate(ctx.melds):
        for name, kinds, each in (
            ("暗杠", (MeldKind.ANKONG,), CONCEALED_KONG),
            ("明杠", (MeldKind.KONG, MeldKind.ADDKONG), EXPOSED_KONG),
        ):
            n = sum(1 for m in melds if m.kind in kinds)
            if not n:
                continue
            for payer in (s for s in range(4) if s != owner):
                payments.append(_pay(payer, owner, each * n, each * n, name))
            lines.append(ScoreItem(f"{name} ×{n}", 3 * each * n * POINTS_PER_MULTIPLIER, owner))
    return tuple(payments), tuple(lines)


def horse_seat(tile: int, dealer: int) -> int:
    """The seat a horse names, counted from the dealer (一 庄家, 二 下家, 三 对家, 四 上家, 五 庄家 …);
    字牌 in the order 东 南 西 北 中 发 白.

        >>> from engine.tiles import tile_from_str
        >>> [horse_seat(tile_from_str(t), 0) for t in ("1m", "2p", "7s", "4z", "7z", "6z", "5z")]
        [0, 1, 2, 3, 0, 1, 2]
    """
    if tile < 27:
        return (dealer + tile % 9) % 4
    order = (*WINDS, DRAGONS[2], DRAGONS[1], DRAGONS[0])  # 东南西北 中发白
    return (dealer + order.index(tile)) % 4


def horse_payments(
    base: Iterable[Payment], horses: Iterable[int], dealer: int
) -> tuple[tuple[Payment, ...], tuple[ScoreItem, ...]]:
    """买马: for each horse, every payment of the seat it names is made again with the dealer in that
    seat's place ("马买中的玩家总合计赢多少，庄家就相赢多少 … 输了，则庄家也同该玩家一起进行输的结算").
    A payment between that seat and the dealer would be the dealer paying themselves and drops out.
    One line per horse: the dealer's gain or loss from it (0 when the seat broke even, 平)."""
    base = tuple(base)
    payments: list[Payment] = []
    lines: list[ScoreItem] = []
    for tile in horses:
        seat = horse_seat(tile, dealer)
        again = []
        for p in base:
            if seat not in (p.payer, p.payee):
                continue
            payer = dealer if p.payer == seat else p.payer
            payee = dealer if p.payee == seat else p.payee
            if payer != payee:
                again.append(
                    replace(p, payer=payer, payee=payee, reason="买马", horse=tile, horse_seat=seat, again=p.reason)
                )
        gain = _deltas(again)[dealer]
        payments.extend(again)
        lines.append(ScoreItem(f"庄家买马 {tile_name(tile)}", gain, seat))
    return tuple(payments), tuple(lines)


def _pay(payer: int, payee: int, multiplier: int, amount: int, reason: str) -> Payment:
    return Payment(payer, payee, multiplier, amount * POINTS_PER_MULTIPLIER, reason)


def _deltas(payments: Iterable[Payment]) -> tuple[int, int, int, int]:
    d = [0, 0, 0, 0]
    for p in payments:
        d[p.payer] -= p.amount
        d[p.payee] += p.amount
    return (d[0], d[1], d[2], d[3])
