"""Settlement of a taiwan16 hand (document 000, 胡牌後各方計算 / 滿台計算): pure functions from a
scored win to point deltas for the four seats. Every result sums to zero.

Every payer pays ``底 + 台數 × 台``, plus the dealer's ``[2n+1]`` 台 (莊家 1 + 連莊 2n) when the
payer or the winner is the dealer:

==========================  =======================================================
閒家胡閒家                  discarder pays 底 + 台數
閒家自摸 (莊家連n)          each of three pays 底 + 台數; the dealer also pays [2n+1]
閒家胡莊家 (dealer discards) dealer pays 底 + 台數 + [2n+1]
莊家自摸                    each of three pays 底 + 台數 + [2n+1]
莊家胡                      discarder pays 底 + 台數 + [2n+1]
==========================  =======================================================

``台數`` here never contains 莊家/連莊: for a dealer winner the scorer lists them as items, and
:func:`settle_win` takes them out of the total before applying the formula (so they are not
counted twice); for a non-dealer winner it adds them to the score sheet as the dealer's extras.

    >>> settle(5, winner=1, dealer=0, dealer_streak=0, discarder=2).deltas
    (0, 800, -800, 0)
    >>> settle(5, winner=1, dealer=0, dealer_streak=2, discarder=None).deltas
    (-1300, 2900, -800, -800)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .meld import Meld
from .rules import TableOptions
from .scoring.core import ScoreResult, apply_cap
from .view import Payment, ScoreItem

__all__ = ["Payment", "SettleContext", "Settlement"]  # Payment lives beside HandResult, which carries it

MAX_STREAK = 8  # 最多連莊八
FLOWER_WIN_TAI = 8  # 七搶一 / 八仙過海: 一底八台


DEFAULT_OPTIONS = TableOptions()


def payment_limit(options: TableOptions) -> int | None:
    """The 24-台 rule (``bankroll_tai``): players sit down with that many 台 worth of points and a
    winner only wins what the loser has, so no payer pays more than ``底 + bankroll_tai × 台``."""
    if options.bankroll_tai is None:
        return None
    return options.base + options.bankroll_tai * options.tai


# the usual ways a table quotes its stakes (底/台); the 24-台 rule and 滿台 16 stay on
STAKE_PRESETS: dict[str, TableOptions] = {
    "300/100": TableOptions(base=300, tai=100),
    "100/100": TableOptions(base=100, tai=100),
}


@dataclass(frozen=True, slots=True)
class Settlement:
    deltas: tuple[int, int, int, int]
    payments: tuple[Payment, ...]
    items: tuple[ScoreItem, ...] = ()  # the score sheet: the winner's items + the dealer's extras
    capped_total: int | None = None  # the hand's value after 滿台 when the cap changed it
    limited: bool = False  # a payment was cut by the bankroll rule (24 台)
    extras: tuple[ScoreItem, ...] = ()  # settled beside the hand, outside its total (kongs, 买马)


@dataclass(frozen=True, slots=True)
class SettleContext:
    """What a rule set's ``settle(result, ctx)`` hook may need besides the scored win.

    ``winner`` is None only for a draw game (the ``settle_draw`` hook). ``discarder`` is the seat
    that dealt in (the discarder, or the owner of a robbed kong); None for a self-draw and for a
    flower win. ``flower_payer`` is the seat holding the single flower of
    a 七搶一. ``melds`` are every seat's melds at the end of the hand (kong payments, e.g. guangdong).
    """

    winner: int | None
    dealer: int
    dealer_streak: int = 0
    discarder: int | None = None
    options: TableOptions = DEFAULT_OPTIONS
    flower_payer: int | None = None
    eye_declarers: tuple[int, ...] = ()
    melds: tuple[tuple[Meld, ...], ...] = field(default_factory=lambda: ((), (), (), ()))
    robbing_kong: bool = False  # 搶槓: ``discarder`` is the robbed kong's owner
    kong_discarder: int | None = None  # won on a 明槓's replacement: whose discard was 槓'd (包牌)
    horses: tuple[int, ...] = ()  # 买马: the tiles set aside from the wall, revealed at the end

    @property
    def self_drawn(self) -> bool:
        return self.winner is not None and self.discarder is None

    def winning_seat(self) -> int:
        """``winner``, for a settle hook (which settles a win): ValueError for a draw game's context."""
        if self.winner is None:
            raise ValueError("settle needs a winner; a draw game settles through settle_draw")
        return self.winner

    def kong_counts(self) -> tuple[int, int, int, int]:
        """Kongs (明槓, 加槓 and 暗槓) per seat."""
        counts = [sum(1 for m in seat if m.is_kong) for seat in self.melds]
        return (counts[0], counts[1], counts[2], counts[3])


def dealer_extra(dealer_streak: int) -> int:
    """[2n+1] in 台: 莊家 1 + 連莊 2n (n capped at 連莊八)."""
    return 2 * min(max(dealer_streak, 0), MAX_STREAK) + 1


def dealer_items(dealer_streak: int) -> tuple[ScoreItem, ...]:
    """The dealer's extras as score-sheet items: 莊家 1 and, when n > 0, 連莊 2n."""
    n = min(max(dealer_streak, 0), MAX_STREAK)
    return (ScoreItem("莊家", 1),) + ((ScoreItem("連莊", 2 * n),) if n else ())


def _check_seats(*seats: int | None) -> None:
    for s in seats:
        if s is not None and s not in (0, 1, 2, 3):
            raise ValueError(f"seat must be 0..3, got {s}")


def _deltas(payments: Iterable[Payment]) -> tuple[int, int, int, int]:
    d = [0, 0, 0, 0]
    for p in payments:
        d[p.payer] -= p.amount
        d[p.payee] += p.amount
    return (d[0], d[1], d[2], d[3])


def settle(
    tai: int,
    *,
    winner: int,
    dealer: int,
    dealer_streak: int,
    discarder: int | None,
    options: TableOptions = DEFAULT_OPTIONS,
    uncapped: int = 0,
    no_dealer_extra: bool = False,
) -> Settlement:
    """The document's formula. ``tai`` is the hand's 台數 WITHOUT 莊家/連莊 (the formula adds
    [2n+1] itself, unless ``no_dealer_extra``); ``uncapped`` is the part of ``tai`` that 滿台 does
    not limit (門清自摸, 眼牌). ``discarder`` None means a self-draw, paid by all three."""
    _check_seats(winner, dealer, discarder)
    if discarder == winner:
        raise ValueError("the winner cannot have discarded the winning tile")
    if tai < 0 or not 0 <= uncapped <= tai:
        raise ValueError("tai must be >= 0 and uncapped within it")
    hand = apply_cap(tai, uncapped, options.cap_tai)
    extra = 0 if no_dealer_extra else dealer_extra(dealer_streak)
    limit = payment_limit(options)
    payers = [discarder] if discarder is not None else [s for s in range(4) if s != winner]
    reason = "胡" if discarder is not None else "自摸"
    payments = []
    limited = False
    for p in payers:
        t = hand + (extra if dealer in (winner, p) else 0)
        amount = options.base + t * options.tai
        if limit is not None and amount > limit:
            amount = limit
            limited = True
        payments.append(Payment(p, winner, t, amount, reason))
    items = dealer_items(dealer_streak) if winner != dealer and dealer in payers and extra else ()
    return Settlement(_deltas(payments), tuple(payments), items, limited=limited)


def settle_win(
    result: ScoreResult,
    *,
    winner: int,
    dealer: int,
    dealer_streak: int,
    discarder: int | None,
    options: TableOptions = DEFAULT_OPTIONS,
    eye_declarers: Iterable[int] = (),
    single_flower_holder: int | None = None,
) -> Settlement:
    """Settle a scored taiwan16 win.

    The scorer's 莊家/連莊 items (present when the winner is the dealer) are taken out of the total
    and paid as [2n+1] by the formula; when a non-dealer wins and the dealer pays, the returned
    ``items`` (the score sheet) gain 莊家/連莊 items showing the dealer's extras. ``eye_declarers``
    are the seats that declared 眼牌/Miji: every one of them who is not the winner pays the 眼牌
    penalty. ``single_flower_holder`` is the seat that pays a 七搶一.
    """
    if not result.valid:
        raise ValueError(f"cannot settle an invalid win: {result.reason}")
    _check_seats(winner, dealer, discarder, single_flower_holder)
    if result.flower_win is not None:
        settlement = settle_flower_win(
            result.flower_win, winner=winner, single_flower_holder=single_flower_holder, options=options
        )
        sheet = result.items
    else:
        # house rule 天胡不計莊家: the dealer's 天胡 pays no [2n+1] (the scorer listed no 莊家/連莊)
        waived = bool(options.house_rules["heavenly_no_dealer"]) and any(i.name == "天胡" for i in result.items)
        expected = dealer_extra(dealer_streak) if winner == dealer and not waived else 0
        if result.dealer != expected:
            raise ValueError(
                f"scored with 莊家/連莊 worth {result.dealer} 台 but winner={winner}, dealer={dealer}, "
                f"streak={dealer_streak} gives {expected}"
            )
        settlement = settle(
            result.total - result.dealer,
            winner=winner,
            dealer=dealer,
            dealer_streak=dealer_streak,
            discarder=discarder,
            options=options,
            uncapped=result.uncapped,
            no_dealer_extra=waived,
        )
        sheet = result.items + settlement.items
    reduction = result.total - result.capped_total(options.cap_tai)
    capped = sum(i.value for i in sheet) - reduction if reduction > 0 else None
    penalty = eye_penalty(eye_declarers, winner=winner, options=options)
    payments = settlement.payments + penalty.payments
    return Settlement(_deltas(payments), payments, sheet, capped, settlement.limited)


def settle_flower_win(
    kind: str,
    *,
    winner: int,
    single_flower_holder: int | None = None,
    options: TableOptions = DEFAULT_OPTIONS,
) -> Settlement:
    """八仙過海: the other three each pay 一底八台. 七搶一: the player holding the single flower
    pays 一底八台. No dealer extras, no cap (8 台 is below it)."""
    _check_seats(winner, single_flower_holder)
    amount = options.base + FLOWER_WIN_TAI * options.tai
    if kind == "八仙過海":
        payers = [s for s in range(4) if s != winner]
    elif kind == "七搶一":
        if single_flower_holder is None or single_flower_holder == winner:
            raise ValueError("七搶一 needs the seat holding the single flower")
        payers = [single_flower_holder]
    else:
        raise ValueError(f"unknown flower win {kind!r}")
    payments = tuple(Payment(p, winner, FLOWER_WIN_TAI, amount, kind) for p in payers)
    return Settlement(_deltas(payments), payments)


def settle_flower_bonus(
    kind: str,
    *,
    receiver: int,
    payer: int | None = None,
    options: TableOptions = DEFAULT_OPTIONS,
) -> Settlement:
    """House rule flower_win_as_bonus: 八仙過海 / 七搶一 paid at once while the hand goes on —
    8 台 and no 底, by each of the other three (八仙過海) or by the single flower's holder (七搶一).

        >>> settle_flower_bonus("七搶一", receiver=1, payer=3).deltas
        (0, 800, 0, -800)
    """
    _check_seats(receiver, payer)
    if kind == "七搶一":
        if payer is None or payer == receiver:
            raise ValueError("七搶一 needs the seat holding the single flower")
        payers = [payer]
    elif kind == "八仙過海":
        payers = [s for s in range(4) if s != receiver]
    else:
        raise ValueError(f"unknown flower win {kind!r}")
    amount = FLOWER_WIN_TAI * options.tai
    payments = tuple(Payment(p, receiver, FLOWER_WIN_TAI, amount, kind) for p in payers)
    return Settlement(_deltas(payments), payments)


def eye_penalty(
    declarers: Iterable[int], *, winner: int, options: TableOptions = DEFAULT_OPTIONS
) -> Settlement:
    """眼牌 (and Miji) penalty: a declarer who does not win, when someone else wins (胡 or 自摸),
    pays one 台 to the winner. A draw game has no winner and no penalty — do not call this then."""
    _check_seats(winner)
    payers = sorted({d for d in declarers if d != winner})
    _check_seats(*payers)
    payments = tuple(Payment(p, winner, 1, options.tai, "眼牌") for p in payers)
    return Settlement(_deltas(payments), payments)
