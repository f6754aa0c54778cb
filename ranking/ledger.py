"""Who owes whom at the end of a match: the fewest transfers that settle the standings, in integers.

Standings are each seat's points at the table's 底/台 (what ``Match.scores`` holds). Players whose
balances add up to zero can settle among themselves; a group of k such players needs k-1 transfers,
so the fewest transfers for n players with a non-zero balance is n minus the largest number of
disjoint zero-sum groups they split into. Four seats make that a search over 16 subsets.

    >>> [str(t) for t in settle([1500, -1200, -300, 0])]
    ['1 pays 0 1200', '2 pays 0 300']
    >>> [str(t) for t in settle([100, 50, -100, -50])]  # two pairs: two transfers, not three
    ['2 pays 0 100', '3 pays 1 50']

Standings that do not add up to zero (taiwan13's 中断连线: the leaver's 50 points leave the table)
settle with the table itself: ``payee`` (or ``payer``) is None for that remainder.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` (> 0) points; None is the table (points that leave or enter it)."""

    payer: int | None
    payee: int | None
    amount: int

    def __str__(self) -> str:
        return f"{_who(self.payer)} pays {_who(self.payee)} {self.amount}"


def _who(seat: int | None) -> str:
    return "table" if seat is None else str(seat)


def settle(balances: Sequence[int]) -> list[Transfer]:
    """The fewest transfers that bring every balance to zero (payers first by seat, then the largest
    debt to the largest credit). A non-zero total is settled against the table (seat None)."""
    if any(type(b) is not int for b in balances):
        raise TypeError("balances are integers (points)")
    left = list(balances)
    transfers: list[Transfer] = []
    rest = sum(left)
    if rest:
        # the remainder goes to or comes from the table, through the seat whose balance it shrinks most
        seat = max(range(len(left)), key=lambda s: left[s]) if rest > 0 else min(range(len(left)), key=lambda s: left[s])
        amount = abs(rest)
        transfers.append(Transfer(seat, None, amount) if rest < 0 else Transfer(None, seat, amount))
        left[seat] -= rest
    for group in _groups(tuple(left)):
        transfers.extend(_settle_group(left, group))
    return sorted(transfers, key=lambda t: (t.payer is not None, t.payer or 0, t.payee or 0))


def minimum_transfers(balances: Sequence[int]) -> int:
    """How many transfers a zero-sum set of balances needs at the least."""
    if sum(balances):
        raise ValueError("balances must add up to zero")
    groups = _groups(tuple(balances))
    return sum(len(g) - 1 for g in groups)


def _groups(balances: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The non-zero seats split into the most disjoint zero-sum groups."""
    seats = tuple(s for s, b in enumerate(balances) if b)
    best = _best_split(tuple(balances[s] for s in seats), (1 << len(seats)) - 1)
    return [tuple(seats[i] for i in range(len(seats)) if mask >> i & 1) for mask in best]


@cache
def _best_split(values: tuple[int, ...], mask: int) -> tuple[int, ...]:
    """Masks of the most zero-sum groups covering ``mask`` (whose values add up to zero)."""
    if mask == 0:
        return ()
    low = mask & -mask  # the group holding the lowest seat left: try every zero-sum subset with it
    best: tuple[int, ...] = (mask,)
    sub = mask
    while sub:
        if sub & low and sub != mask and _total(values, sub) == 0:
            split = (sub, *_best_split(values, mask ^ sub))
            if len(split) > len(best):
                best = split
        sub = (sub - 1) & mask
    return best


def _total(values: tuple[int, ...], mask: int) -> int:
    return sum(v for i, v in enumerate(values) if mask >> i & 1)


def _settle_group(balances: list[int], group: tuple[int, ...]) -> list[Transfer]:
    """k-1 transfers for a zero-sum group: the largest debtor pays the largest creditor, again and again
    (each transfer clears at least one of the two, and the last clears both)."""
    left = {s: balances[s] for s in group}
    out = []
    while any(left.values()):
        payer = min(left, key=lambda s: (left[s], s))
        payee = max(left, key=lambda s: (left[s], -s))
        amount = min(-left[payer], left[payee])
        out.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return out
