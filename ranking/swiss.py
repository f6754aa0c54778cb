"""Seating a tournament round: four to a table, round 1 drawn from the tournament's committed key, later
rounds Swiss (tables by standing) with repeat opponents avoided where the field allows.

A round's seating is a value: the tables (each four entrant ids in seat order, ``None`` for an AI seat)
and the entrants sitting out (byes). Pure: it takes the standings order and the pairs already met,
and a seed, and nothing else.

    >>> first = seat_round(list(range(1, 9)), met=set(), seed=7, number=1)
    >>> sorted(p for table in first.tables for p in table)
    [1, 2, 3, 4, 5, 6, 7, 8]
    >>> second = seat_round([1, 2, 3, 4, 5, 6, 7, 8], met=pairs_of(first.tables), seed=7, number=2)
    >>> repeat_pairs([*first.tables, *second.tables])
    4

Eight entrants at two tables cannot avoid repeats in round 2 (each new table takes two of each old one at
best, one repeat pair each): the pairing finds that fewest, 4 pairs. With 32 entrants
and three rounds it finds none (tests/ranking/test_tournament_rounds.py).

Entrants not a multiple of four: with AI seats allowed, the last tables (the lowest standings) take one
AI seat each, so no table has more than one while the field allows; without them, the lowest-ranked
entrants who have not yet sat out get a bye (in round 1 the draw decides who).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

TABLE = 4
Pair = frozenset[int]


@dataclass(frozen=True)
class Seating:
    tables: tuple[tuple[int | None, ...], ...]  # four seats each, in the order the table seats them
    byes: tuple[int, ...] = ()  # entrants who sit this round out


def pairs_of(tables: Iterable[Sequence[int | None]]) -> set[Pair]:
    """Every pair of entrants who sat at one table (AI seats are nobody)."""
    met: set[Pair] = set()
    for table in tables:
        people = [p for p in table if p is not None]
        met.update(frozenset(pair) for pair in itertools.combinations(people, 2))
    return met


def repeat_pairs(tables: Iterable[Sequence[int | None]]) -> int:
    """How many pairs of entrants met more than once over these tables (a pair met three times counts twice)."""
    seen: dict[Pair, int] = {}
    for table in tables:
        people = [p for p in table if p is not None]
        for pair in itertools.combinations(people, 2):
            key = frozenset(pair)
            seen[key] = seen.get(key, 0) + 1
    return sum(count - 1 for count in seen.values() if count > 1)


def seat_round(
    standing: Sequence[int],
    *,
    met: set[Pair],
    seed: int,
    number: int,
    ai_seats: bool = True,
    had_bye: Iterable[int] = (),
) -> Seating:
    """Round ``number``'s tables. ``standing``: the entrants, best first (any order for round 1, which is
    drawn); ``met``: pairs who already sat together; ``seed``: from the tournament key, for the draw and
    the seat order within each table; ``had_bye``: entrants who already sat a round out."""
    rng = random.Random(seed)
    order = list(standing)
    if number == 1:
        order = sorted(order)
        rng.shuffle(order)
    playing, byes = _split_byes(order, ai_seats, set(had_bye), rng if number == 1 else None)
    tables = (
        _swiss(playing, met)
        if number > 1
        else [playing[i : i + TABLE] for i in range(0, len(playing), TABLE)]
    )
    seated = _with_ai_seats(tables, ai_seats)
    shuffled = []
    for table in seated:  # who sits East at a table is drawn too (the match's own seat draw follows)
        seats = list(table)
        rng.shuffle(seats)
        shuffled.append(tuple(seats))
    return Seating(tuple(shuffled), tuple(byes))


def _split_byes(
    order: list[int], ai_seats: bool, had_bye: set[int], rng: random.Random | None
) -> tuple[list[int], list[int]]:
    short = (-len(order)) % TABLE
    if ai_seats or short == 0:
        return order, []
    count = len(order) % TABLE  # without AI seats the remainder sits out
    fresh = [p for p in reversed(order) if p not in had_bye]  # the lowest standing first
    if rng is not None:  # round 1: nobody has a standing yet, the draw decides
        fresh = sorted(fresh)
        rng.shuffle(fresh)
    again = [p for p in reversed(order) if p in had_bye]  # once everyone has sat out, it goes round again
    byes = (fresh + again)[:count]
    return [p for p in order if p not in byes], byes


def _with_ai_seats(tables: list[list[int]], ai_seats: bool) -> list[tuple[int | None, ...]]:
    """Fill the last tables so each has four seats, one AI seat per table from the bottom up."""
    if not ai_seats or not tables or len(tables[-1]) == TABLE:
        return [tuple(t) for t in tables]
    people = [p for t in tables for p in t]
    count = -(-len(people) // TABLE)
    ais = count * TABLE - len(people)
    sizes = [TABLE] * count
    for i in range(ais):  # one AI seat a table, the lowest tables first (several only if the field is tiny)
        sizes[count - 1 - (i % count)] -= 1
    out: list[tuple[int | None, ...]] = []
    start = 0
    for size in sizes:
        out.append((*people[start : start + size], *([None] * (TABLE - size))))
        start += size
    return out


def _swiss(order: list[int], met: set[Pair]) -> list[list[int]]:
    """Tables of four by standing: each table takes the best unseated entrant and the three nearest below
    who add the fewest repeat pairs; then swaps between tables that lower the repeats without moving
    anyone far from their standing."""
    rank = {p: i for i, p in enumerate(order)}
    left = list(order)
    tables: list[list[int]] = []
    while left:
        head, rest = left[0], left[1:]
        if len(rest) < TABLE - 1:
            tables.append(left)
            break
        window = rest[: max(TABLE * 3, TABLE - 1)]
        best = min(
            itertools.combinations(window, TABLE - 1),
            key=lambda group: (_repeats((head, *group), met), sum(rank[p] for p in group)),
        )
        table = [head, *best]
        tables.append(table)
        left = [p for p in left if p not in table]
    _improve(tables, met, reach=2)  # first among neighbours, so standings stay close
    _improve(tables, met, reach=len(tables))  # then anywhere, where a repeat is still left
    for table in tables:
        table.sort(key=rank.__getitem__)
    return tables


def _repeats(table: Sequence[int], met: set[Pair]) -> int:
    return sum(1 for pair in itertools.combinations(table, 2) if frozenset(pair) in met)


def _improve(tables: list[list[int]], met: set[Pair], *, reach: int) -> None:
    """Swap one entrant between two tables at most ``reach`` apart while that lowers the repeat pairs."""
    improved = True
    while improved:
        improved = False
        for a, b in itertools.combinations(range(len(tables)), 2):
            if b - a > reach:
                continue
            before = _repeats(tables[a], met) + _repeats(tables[b], met)
            if before == 0:
                continue
            for i, j in itertools.product(range(len(tables[a])), range(len(tables[b]))):
                x, y = tables[a][i], tables[b][j]
                tables[a][i], tables[b][j] = y, x
                if _repeats(tables[a], met) + _repeats(tables[b], met) < before:
                    improved = True
                    break
                tables[a][i], tables[b][j] = x, y
            if improved:
                break
