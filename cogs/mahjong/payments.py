"""Why each seat pays what it pays (issue 23): one line per payment of a hand, beside the score
sheet, so the point changes add up — the discarder alone or every seat on a self-draw, the
dealer's 莊家/連莊 (taiwan16, only where the dealer pays or wins), 包牌 (搶槓, 杠開: one seat pays for
all three), guangdong's kong settlements and 买马 (which horse, which seat, and whether it repeats a
win or a kong payment), 眼牌's penalty, and a payment the 24-台 rule cut.
Read from ``HandResult.payments`` (the engine's own settlement); pure formatting."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from engine.rules import TableOptions
from engine.rulesets import get as rule_set
from engine.settlement import dealer_extra
from engine.view import HandResult, Payment

from ..i18n import item_name, t, tile_label

# the engine's reason words → the catalogue's explanation (an unknown one, e.g. a kong line's own
# name such as 明杠 ×1, is explained as a settlement beside the hand)
REASONS = {
    "胡": "pay.discarder",
    "点炮": "pay.discarder_gd",
    "自摸": "pay.self_draw",
    "搶杠": "pay.robbed",
    "抢杠": "pay.robbed",
    "杠開": "pay.kong_discard",
    "眼牌": "pay.eye",
    "买马": "pay.horse",
    "七搶一": "pay.flower",
    "八仙過海": "pay.flower",
}
KONG_WORDS = ("杠", "槓")


WIN_REASONS = ("胡", "自摸", "点炮", "搶杠", "抢杠", "杠開")


def _horse(p: Payment, names: Sequence[str], loc: str) -> str:
    """买马: which horse named which seat, and whose payment the dealer makes or collects again in
    that seat's place — a win's or a kong's (document 004: the dealer settles again that seat's whole
    result)."""
    assert p.horse_seat is not None and p.again is not None
    what = "pay.horse_of_kong" if any(w in p.again for w in KONG_WORDS) else "pay.horse_of_win"
    tile = "" if p.horse is None else tile_label(loc, p.horse)
    why = t(loc, what, reason=item_name(loc, p.again))
    return t(loc, "pay.horse", tile=tile, seat=names[p.horse_seat], why=why)


def _why(
    p: Payment,
    result: HandResult,
    names: Sequence[str],
    rules: str,
    dealer: int,
    streak: int,
    options: TableOptions,
    loc: str,
) -> str:
    if p.reason == "买马" and p.horse_seat is not None and p.again is not None:
        return _horse(p, names, loc)
    key = REASONS.get(p.reason)
    if key is None:
        key = "pay.kong" if any(w in p.reason for w in KONG_WORDS) else "pay.other"
    why = t(loc, key, reason=item_name(loc, p.reason))
    unit = t(loc, f"unit.{result.unit}")
    spec = rule_set(rules)
    if spec.stake_formula and p.reason in ("胡", "自摸"):
        formula = t(loc, "pay.formula", base=options.base, tai=p.tai, per=options.tai)
        if dealer in (p.payer, p.payee):
            extra = dealer_extra(streak)
            formula += t(loc, "pay.dealer", extra=extra, streak=streak, n2=2 * min(streak, 8))
        if p.amount != options.base + p.tai * options.tai:
            formula += t(loc, "pay.limited", amount=p.amount)
        return why + t(loc, "pay.colon") + formula
    if p.reason in WIN_REASONS:
        value = f"{p.tai} {unit}"
        if spec.dealer_counts_a_tai and dealer in (p.payer, p.payee):  # 庄家: the dealer counts one 台 more
            value += t(loc, "pay.dealer13")
        return why + t(loc, "pay.colon") + value
    return why


def payment_lines(
    result: HandResult,
    names: Sequence[str],
    loc: str,
    *,
    rules: str,
    dealer: int,
    streak: int = 0,
    options: TableOptions | None = None,
) -> list[str]:
    """The payments of ``result``, merged per (payer, payee, reason), largest first within a
    reason as the engine listed them; a dealer line names who dealt. Empty when nothing moved."""
    if not result.payments:
        return []
    options = options or TableOptions()
    merged: dict[tuple[int, int, str, int | None, int | None, str | None], list[Payment]] = defaultdict(list)
    for p in result.payments:  # one line per payer, payee and reason (a horse's: per horse and what it repeats)
        merged[(p.payer, p.payee, p.reason, p.horse, p.horse_seat, p.again)].append(p)
    lines = [t(loc, "pay.title", dealer=names[dealer])]
    for (payer, payee, *_), group in merged.items():
        amount = sum(p.amount for p in group)
        why = _why(group[0], result, names, rules, dealer, streak, options, loc)
        if len(group) > 1:
            why = t(loc, "pay.times", why=why, n=len(group))
        lines.append(t(loc, "pay.line", payer=names[payer], payee=names[payee], amount=amount, why=why))
    if result.limited:
        lines.append(t(loc, "pay.limit_note"))
    return lines
