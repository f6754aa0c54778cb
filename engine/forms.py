"""Special winning forms beyond "sets + one pair", named by a rule profile's ``win_forms``.

The game's win check, the waits it shows and the claim options it offers all go through
:func:`is_winning` / :func:`winning_tiles`, so a rule set that accepts 七對 or 十三么 says so in its
profile and never forks the turn loop. The predicates read a concealed tile-count vector (34
kinds); a hand with melds has fewer than 14 concealed tiles, so no special form applies to it.

    >>> from engine.tiles import to_counts, parse_tiles, format_tiles
    >>> hand = to_counts(parse_tiles("1122m3344p5566s7z"))
    >>> format_tiles(winning_tiles(hand, ("seven_pairs",)))
    '7z'
    >>> winning_tiles(hand, ())
    []
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import analysis
from .tiles import NUM_KINDS

# the 13 terminal and honour kinds: 1m 9m 1p 9p 1s 9s and the seven honours
ORPHANS = (0, 8, 9, 17, 18, 26, *range(27, 34))


def is_seven_pairs(counts: list[int]) -> bool:
    """七對子: 14 concealed tiles in seven pairs. Four of a kind counts as two pairs (龍七對);
    a rule set that wants seven *different* pairs checks that in its scorer."""
    return sum(counts) == 14 and all(n % 2 == 0 for n in counts)


def is_thirteen_orphans(counts: list[int]) -> bool:
    """十三么: one of each terminal and honour plus a second copy of one of them, nothing else."""
    if sum(counts) != 14:
        return False
    if any(counts[t] for t in range(NUM_KINDS) if t not in ORPHANS):
        return False
    return all(counts[t] >= 1 for t in ORPHANS) and sorted(counts[t] for t in ORPHANS)[-1] == 2


def is_lugu(counts: list[int]) -> bool:
    """嚦咕嚦咕 (a taiwan16 house rule): 17 concealed tiles in seven pairs and one triplet. Four of a
    kind counts as two pairs, as in 七對子."""
    return sum(counts) == 17 and sorted(n for n in counts if n % 2) == [3]


FORMS: dict[str, Callable[[list[int]], bool]] = {
    "seven_pairs": is_seven_pairs,
    "thirteen_orphans": is_thirteen_orphans,
    "lugu": is_lugu,
}


# a cheap test that a hand may be one tile from a form (a 3k+1 hand waiting on it, or a 3k+2 hand
# that could discard into such a wait); only forms that pass it are tried tile by tile. A form
# without a test is always tried.
NEAR: dict[str, Callable[[list[int]], bool]] = {
    # seven pairs and a triplet: 16 or 17 tiles with at most three odd counts
    "lugu": lambda counts: sum(counts) in (16, 17) and sum(n & 1 for n in counts) <= 3,
}


def near_forms(counts: list[int], forms: Iterable[str]) -> tuple[str, ...]:
    """The ``forms`` this hand may be one tile from (see :data:`NEAR`)."""
    return tuple(f for f in forms if f not in NEAR or NEAR[f](counts))


def check_forms(forms: Iterable[str]) -> tuple[str, ...]:
    """``forms`` as a tuple, or ValueError naming a form nobody implements."""
    forms = tuple(forms)
    unknown = [f for f in forms if f not in FORMS]
    if unknown:
        raise ValueError(f"unknown winning form(s) {unknown}; known: {', '.join(sorted(FORMS))}")
    return forms


def is_winning(counts: list[int], forms: Iterable[str] = ()) -> bool:
    """A complete hand: sets + one pair, or one of the special ``forms``."""
    return analysis.is_complete(counts) or any(FORMS[f](counts) for f in forms)


def winning_tiles(counts: list[int], forms: Iterable[str] = ()) -> list[int]:
    """Tiles that complete a 3k+1 hand in any accepted form, sorted (the hand's waits)."""
    result = set(analysis.waits(counts))
    forms = near_forms(counts, forms)
    if forms and sum(counts) % 3 == 1:
        c = list(counts)
        for t in range(NUM_KINDS):
            if t in result or c[t] >= 4:
                continue
            c[t] += 1
            if any(FORMS[f](c) for f in forms):
                result.add(t)
            c[t] -= 1
    return sorted(result)
