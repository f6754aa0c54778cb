"""Hand analysis on 34-entry count arrays: win check, decompositions, waits and shanten.

Every function works for any hand size of the form 3k+1 / 3k+2 (13-tile and 16-tile rule sets
alike): the number of sets to find is derived from the number of concealed tiles, so declared
melds are simply left out of the counts.

Speed comes from per-suit memo tables keyed by the suit's 9 counts as ``bytes``: a hand is four
dictionary look-ups plus a tiny combination step, and a suit pattern seen once is never analysed
again. The tables fill lazily and are bounded by the number of distinct suit patterns.

    >>> from engine.tiles import parse_tiles, to_counts
    >>> is_complete(to_counts(parse_tiles("123456789m 123p 55z")))
    True
    >>> shanten(to_counts(parse_tiles("123456789m 12p 55z 1s")))
    0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .tiles import NUM_KINDS

# ---------------------------------------------------------------- win check per suit

# value: 0 → the pattern is not sets(+pair); 1 → sets only; 2 → sets plus exactly one pair
_SUIT_WIN: dict[bytes, int] = {}
_HONOR_WIN: dict[bytes, int] = {}


def _suit_sets_only(c: list[int]) -> bool:
    """Can the 9 counts be split into chows and pungs only?

    Left to right: copies of a tile not used by the chows started one and two tiles back go into
    pungs, and what is left over (count mod 3) must start that many chows here. Three chows of
    ``i, i+1, i+2`` hold the same tiles as three pungs, so taking pungs first loses nothing."""
    one = two = 0  # chows started one and two tiles back: each needs a copy of this tile
    for i in range(9):
        n = c[i] - one - two
        if n < 0:
            return False
        start = n % 3
        if start and i > 6:
            return False
        two, one = one, start
    return True


def _suit_win_value(key: bytes) -> int:
    c = list(key)
    total = sum(c)
    if total % 3 == 1:
        return 0
    # a chow or a pung adds a multiple of 3 to sum(position * count), so sets alone leave it at 0
    # (mod 3) and sets plus a pair at p leave 2p: a third of the positions can hold the pair (every
    # suit pattern new to the process is worked out here, thousands in its first hands)
    weight = (c[1] + c[4] + c[7] + 2 * (c[2] + c[5] + c[8])) % 3
    if total % 3 == 0:
        return 1 if weight == 0 and _suit_sets_only(c) else 0
    for i in range(2 * weight % 3, 9, 3):  # 2p = weight (mod 3), so p = 2 * weight (mod 3)
        if c[i] >= 2:
            c[i] -= 2
            ok = _suit_sets_only(c)
            c[i] += 2
            if ok:
                return 2
    return 0


def _honor_win_value(key: bytes) -> int:
    pairs = 0
    for n in key:
        if n == 2:
            pairs += 1
        elif n not in (0, 3):
            return 0
    return 0 if pairs > 1 else (2 if pairs else 1)


def is_complete(counts: list[int]) -> bool:
    """True when the concealed tiles form sets plus one pair (the regular winning shape)."""
    pairs = 0
    for lo in (0, 9, 18):
        key = bytes(counts[lo : lo + 9])
        v = _SUIT_WIN.get(key)
        if v is None:
            v = _SUIT_WIN[key] = _suit_win_value(key)
        if v == 0:
            return False
        if v == 2:
            pairs += 1
    key = bytes(counts[27:34])
    v = _HONOR_WIN.get(key)
    if v is None:
        v = _HONOR_WIN[key] = _honor_win_value(key)
    if v == 0:
        return False
    if v == 2:
        pairs += 1
    return pairs == 1


# ---------------------------------------------------------------- decompositions


class Group(NamedTuple):
    """One set of a decomposition: ``kind`` is ``"chi"`` (tile = lowest) or ``"pon"``."""

    kind: str
    tile: int


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of a complete concealed hand: a pair and the concealed sets."""

    pair: int
    groups: tuple[Group, ...]


def _split_sets(c: list[int], start: int, acc: list[Group], out: list[tuple[Group, ...]]) -> None:
    i = start
    while i < NUM_KINDS and c[i] == 0:
        i += 1
    if i == NUM_KINDS:
        out.append(tuple(acc))
        return
    if c[i] >= 3:
        c[i] -= 3
        acc.append(Group("pon", i))
        _split_sets(c, i, acc, out)
        acc.pop()
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        acc.append(Group("chi", i))
        _split_sets(c, i, acc, out)
        acc.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1


def decompositions(counts: list[int]) -> list[Decomposition]:
    """Every distinct (pair, sets) reading of a complete concealed hand; empty if none."""
    if not is_complete(counts):
        return []
    c = list(counts)
    result: list[Decomposition] = []
    for pair in range(NUM_KINDS):
        if c[pair] < 2:
            continue
        c[pair] -= 2
        found: list[tuple[Group, ...]] = []
        _split_sets(c, 0, [], found)
        c[pair] += 2
        # a pung and a chow on the same lowest tile are found in both orders: keep one reading
        distinct = dict.fromkeys(tuple(sorted(groups)) for groups in found)
        result.extend(Decomposition(pair, groups) for groups in distinct)
    return result


# ---------------------------------------------------------------- waits


# per suit pattern: (win value, tiles whose addition makes the suit sets-only, ... sets plus a pair),
# the last two as bit masks over the suit's positions. A tile held four times is never in a mask.
_SUIT_WAIT: dict[bytes, tuple[int, int, int]] = {}
_HONOR_WAIT: dict[bytes, tuple[int, int, int]] = {}
_SUIT_STARTS = ((0, 9), (9, 9), (18, 9), (27, 7))


def _win_value(key: bytes, honors: bool) -> int:
    table = _HONOR_WIN if honors else _SUIT_WIN
    v = table.get(key)
    if v is None:
        v = table[key] = (_honor_win_value if honors else _suit_win_value)(key)
    return v


def _wait_info(key: bytes, honors: bool) -> tuple[int, int, int]:
    table = _HONOR_WAIT if honors else _SUIT_WAIT
    info = table.get(key)
    if info is not None:
        return info
    sets_mask = pair_mask = 0
    c = bytearray(key)
    for i in range(len(c)):
        if c[i] >= 4:
            continue
        c[i] += 1
        v = _win_value(bytes(c), honors)
        c[i] -= 1
        if v == 1:
            sets_mask |= 1 << i
        elif v == 2:
            pair_mask |= 1 << i
    info = table[key] = (_win_value(key, honors), sets_mask, pair_mask)
    return info


def _waits_from(infos: list[tuple[int, int, int]]) -> list[int]:
    """Combine four suits' wait infos: a wait completes its own suit while the others already are."""
    broken = [j for j in range(4) if infos[j][0] == 0]
    if len(broken) > 1:
        return []
    pairs = sum(1 for info in infos if info[0] == 2)
    result: list[int] = []
    for j in broken if broken else range(4):
        v, sets_mask, pair_mask = infos[j]
        others = pairs - (v == 2)
        mask = pair_mask if others == 0 else sets_mask if others == 1 else 0
        start = _SUIT_STARTS[j][0]
        while mask:
            low = mask & -mask
            result.append(start + low.bit_length() - 1)
            mask ^= low
    result.sort()
    return result


def _any_wait(infos: list[tuple[int, int, int]]) -> bool:
    """``bool(_waits_from(infos))`` without listing the waits (the 聽 listing asks per discard)."""
    broken = -1
    pairs = 0
    for j in range(4):
        v = infos[j][0]
        if v == 0:
            if broken >= 0:
                return False
            broken = j
        elif v == 2:
            pairs += 1
    for j in (broken,) if broken >= 0 else range(4):
        v, sets_mask, pair_mask = infos[j]
        others = pairs - (v == 2)
        if (pair_mask if others == 0 else sets_mask if others == 1 else 0):
            return True
    return False


def waits(counts: list[int]) -> list[int]:
    """Tiles that complete a 3k+1 hand (a tile all four of which the hand holds is no wait).

    Each suit is looked up once: a hand with two suits that are not sets (+ pair) is rejected
    on their win values, before any wait is looked up.
    """
    keys = _suit_keys(counts, unfinished=1)
    if keys is None:
        return []
    return _waits_from([_wait_info(keys[j], j == 3) for j in range(4)])


def _suit_keys(counts: list[int], unfinished: int) -> list[bytes] | None:
    """The four suits' keys of ``counts``; None as soon as more than ``unfinished`` suits are not
    sets (+ pair), read from their win values (the cheapest table, and most hands stop here)."""
    keys = []
    hand = bytes(counts)
    for lo, n in _SUIT_STARTS:
        key = hand[lo : lo + n]
        keys.append(key)
        v = (_HONOR_WIN if n == 7 else _SUIT_WIN).get(key)
        if v is None:
            v = _win_value(key, n == 7)
        if not v:
            unfinished -= 1
            if unfinished < 0:
                return None
    return keys


def turn_shape(counts: list[int]) -> tuple[bool, bool]:
    """``(is_complete(counts), may be ready)`` of a 3k+2 hand, its suits read once (a turn asks
    both: may the hand win, and which discards leave it ready). The second is False when three
    suits or more are neither sets nor sets plus a pair: then no discard leaves the hand ready, as
    :func:`ready_discards` says too; when True, :func:`ready_by_shanten` lists the discards."""
    broken = pairs = 0
    hand = bytes(counts)
    for lo, n in _SUIT_STARTS:
        key = hand[lo : lo + n]
        v = (_HONOR_WIN if n == 7 else _SUIT_WIN).get(key)
        if v is None:
            v = _win_value(key, n == 7)
        if not v:
            broken += 1
            if broken > 2:
                return False, False
        elif v == 2:
            pairs += 1
    return broken == 0 and pairs == 1, True


def ready_by_shanten(counts: list[int]) -> list[int]:
    """:func:`ready_discards` read from :func:`discard_shanten` (a discard leaves the hand ready
    exactly when it leaves it at shanten 0; tests/engine/test_analysis.py compares the two): the
    game lists 聽 this way on a turn, and the AI player that then weighs its discards asks for the
    same shanten, which is remembered for it. A hand above shanten 0 has no such discard (a
    discard never lowers shanten), and one shanten costs less than one per discard."""
    if shanten(counts) > 0:  # no discard can do better than the hand's own shanten
        return []
    return [t for t, s in discard_shanten(counts).items() if s == 0]


def ready_discards(counts: list[int]) -> list[int]:
    """The tiles a 3k+2 hand may discard and be ready (聽) afterwards, in tile order.

    Only the discarded tile's suit changes, so each candidate costs one suit look-up. A discard and
    a draw change at most two suits, so the others must already be sets (+ pair): a hand with three
    suits that are not is turned away on their win values alone (most hands in play are). Which
    discards of one suit leave a wait depends on that suit and on the other three suits' wait
    infos alone (in any order), so it is remembered per (suit, other infos).
    """
    keys = _suit_keys(counts, unfinished=2)
    if keys is None:
        return []
    infos = [_wait_info(keys[j], j == 3) for j in range(4)]
    broken = sum(1 for info in infos if info[0] == 0)
    result: list[int] = []
    for j, (lo, _n) in enumerate(_SUIT_STARTS):
        if broken - (infos[j][0] == 0) > 1:
            continue  # two other suits stay broken whatever leaves this one
        others = tuple(sorted(infos[:j] + infos[j + 1 :]))
        memo = (keys[j], others)
        found = _READY_IN_SUIT.get(memo)
        if found is None:
            found = _READY_IN_SUIT[memo] = _ready_in_suit(keys[j], j == 3, others)
        if found:
            result.extend([lo + i for i in found] if lo else found)
    return result


def _ready_in_suit(key: bytes, honors: bool, others: tuple[tuple[int, int, int], ...]) -> tuple[int, ...]:
    """The positions of ``key`` whose discard leaves a wait, beside three suits of wait infos ``others``."""
    c = bytearray(key)
    found = []
    for i in range(len(c)):
        if c[i]:
            c[i] -= 1
            info = _wait_info(bytes(c), honors)
            c[i] += 1
            if _any_wait([info, *others]):
                found.append(i)
    return tuple(found)


# (suit pattern, the other three suits' wait infos sorted) -> positions whose discard leaves a wait
_READY_IN_SUIT: dict[tuple[bytes, tuple[tuple[int, int, int], ...]], tuple[int, ...]] = {}


# ---------------------------------------------------------------- shanten

# A suit's cost vector: entry k (no pair) / 6+k (with one pair) is the minimum number of tiles that
# must be added for the suit to hold k sets (and the pair). Shanten = min total cost - 1.
_INF = 99
_MAX_SETS = 5
_SUIT_COST: dict[bytes, tuple[int, ...]] = {}
_HONOR_COST: dict[bytes, tuple[int, ...]] = {}
_EMPTY_COST = tuple(3 * k for k in range(6)) + tuple(3 * k + 2 for k in range(6))


def _shift(vec: Sequence[int], dk: int, dp: int, add: int, best: list[int]) -> None:
    """Fold ``vec`` (the rest) plus one more set/pair costing ``add`` into ``best``: entry k (and
    6 + k, with the pair) of ``best`` from entry k - dk of ``vec``, and from its pairless half when
    ``dp`` adds the pair."""
    if dp == 0:
        for k in range(dk, 6):
            v = vec[k - dk] + add
            if v < best[k]:
                best[k] = v
            v = vec[6 + k - dk] + add
            if v < best[6 + k]:
                best[6 + k] = v
    else:
        for k in range(dk, 6):
            v = vec[k - dk] + add
            if v < best[6 + k]:
                best[6 + k] = v


def _exact_cost_vector(key: bytes, honors: bool) -> tuple[int, ...]:
    """The cost vector when no kind may be used more than four times (needed when the suit holds
    four of a kind: ``7777s`` is not ready, a fifth 7s does not exist).

    Left to right over the suit; the state is how many chows still need this tile (started two
    back, one back). A kind's use is the chows through it, a pung and the pair: at most four. At
    most two chows start on one tile: three equal chows hold the tiles of three pungs (the same
    sets from the same tiles, at the same cost), so the search never needs them.
    """
    n = len(key)
    start = [_INF] * 12
    start[0] = 0
    states: dict[tuple[int, int], list[int]] = {(0, 0): start}
    for i in range(n):
        have = key[i]
        nxt: dict[tuple[int, int], list[int]] = {}
        max_new = 0 if honors or i > n - 3 else 2
        for (two_back, one_back), vec in states.items():
            through = two_back + one_back
            for new in range(max_new + 1):
                for pung in (0, 1):
                    for pair in (0, 1):
                        used = through + new + 3 * pung + 2 * pair
                        if used > 4:
                            continue
                        best = nxt.get((one_back, new))
                        if best is None:
                            best = nxt[(one_back, new)] = [_INF] * 12
                        _shift(vec, new + pung, pair, max(0, used - have), best)
        states = nxt
    return tuple(states.get((0, 0), [_INF] * 12))


_CAPPED_CHECKED = 12
_CAPPED: dict[tuple[bytes, int], tuple[int, ...]] = {}


def _capped_cost_vector(key: bytes, cap: int, honors: bool) -> tuple[int, ...]:
    """:func:`_exact_cost_vector` for a suit that holds one kind four times (the bit in ``cap``),
    by :func:`_cost_vector`'s recursion with every choice refused that would add a copy of that
    kind. Each (pattern, cap) is worked out once and its smaller patterns are shared, where the
    search costs a third of a millisecond a pattern — and the strong AI asks for a few thousand of
    them per process (the suits one drawn tile would bring to four of a kind). It gives what the
    search gives for every such suit of up to :data:`_CAPPED_CHECKED` tiles (all 92,748 of them
    were compared when it was written; tests/engine/test_analysis.py samples them); two kinds held
    four times, or a longer suit, go to the search."""
    memo = (key, cap)
    found = _CAPPED.get(memo)
    if found is not None:
        return found
    c = bytearray(key)
    n = len(c)
    i = 0
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return _EMPTY_COST
    c[i] -= 1
    best = list(_capped_cost_vector(bytes(c), cap, honors))
    c[i] += 1
    have = c[i]
    capped = cap >> i & 1
    for size, dk, dp in ((3, 1, 0), (2, 0, 1)):
        used = min(have, size)
        if used < size and capped:
            continue
        c[i] -= used
        _shift(_capped_cost_vector(bytes(c), cap, honors), dk, dp, size - used, best)
        c[i] += used
    if not honors:
        for lo in (i - 2, i - 1, i):
            if lo < 0 or lo + 2 > 8:
                continue
            missing = 0
            taken = []
            ok = True
            for t in (lo, lo + 1, lo + 2):
                if c[t]:
                    c[t] -= 1
                    taken.append(t)
                elif cap >> t & 1:
                    ok = False
                else:
                    missing += 1
            if ok:
                _shift(_capped_cost_vector(bytes(c), cap, honors), 1, 0, missing, best)
            for t in taken:
                c[t] += 1
    result = _CAPPED[memo] = tuple(best)
    return result


def _cost_vector(key: bytes, honors: bool) -> tuple[int, ...]:
    table = _HONOR_COST if honors else _SUIT_COST
    cached = table.get(key)
    if cached is not None:
        return cached
    # the costs do not change when the suit is read backwards (9 to 1), nor when honours trade
    # places: each pattern is analysed in one standard form, shared by all its equals
    same = bytes(sorted(key, reverse=True)) if honors else min(key, key[::-1])
    if same != key:
        result = table[key] = _cost_vector(same, honors)
        return result
    if 4 in key:
        if key.count(4) == 1 and sum(key) <= _CAPPED_CHECKED:
            result = table[key] = _capped_cost_vector(key, 1 << key.index(4), honors)
        else:
            result = table[key] = _exact_cost_vector(key, honors)
        return result
    c = bytearray(key)
    n = len(c)
    i = 0
    while i < n and c[i] == 0:
        i += 1
    if i == n:
        return _EMPTY_COST
    # (a) leave one copy of tile i unused
    c[i] -= 1
    best = list(_cost_vector(bytes(c), honors))
    c[i] += 1
    # (b) a pung and (c) a pair of tile i
    have = c[i]
    for size, dk, dp in ((3, 1, 0), (2, 0, 1)):
        used = min(have, size)
        c[i] -= used
        _shift(_cost_vector(bytes(c), honors), dk, dp, size - used, best)
        c[i] += used
    # (d) each chow through tile i (tiles below i are absent, so they cost one each)
    if not honors:
        for lo in (i - 2, i - 1, i):
            if lo < 0 or lo + 2 > 8:
                continue
            missing = 0
            taken = []
            for t in (lo, lo + 1, lo + 2):
                if c[t]:
                    c[t] -= 1
                    taken.append(t)
                else:
                    missing += 1
            _shift(_cost_vector(bytes(c), honors), 1, 0, missing, best)
            for t in taken:
                c[t] += 1
    result = tuple(best)
    table[key] = result
    return result


def _combine(a: tuple[int, ...] | list[int], b: tuple[int, ...], top: int) -> list[int]:
    out = [_INF] * 12
    for k in range(top + 1):
        n = w = _INF
        for i in range(k + 1):
            j = k - i
            v = a[i] + b[j]
            if v < n:
                n = v
            v = a[6 + i] + b[j]
            if v < w:
                w = v
            v = a[i] + b[6 + j]
            if v < w:
                w = v
        out[k] = n
        out[6 + k] = w
    return out


# Cost vectors are interned: the number of distinct vectors is small, so combining two of them is
# memoised by their ids and a warm shanten is a handful of dictionary look-ups.
_VEC_IDS: dict[tuple[int, ...], int] = {}
_VECS: list[tuple[int, ...]] = []
_SUIT_VEC_ID: dict[bytes, int] = {}
_HONOR_VEC_ID: dict[bytes, int] = {}
_PAIR_ID: dict[int, int] = {}
_FINAL: dict[int, int] = {}
_ID_BITS = 24


def _intern(vec: tuple[int, ...]) -> int:
    vid = _VEC_IDS.get(vec)
    if vid is None:
        vid = _VEC_IDS[vec] = len(_VECS)
        _VECS.append(vec)
    return vid


def _suit_id(key: bytes) -> int:
    vid = _SUIT_VEC_ID[key] = _intern(_cost_vector(key, False))
    return vid


def _honor_id(key: bytes) -> int:
    vid = _HONOR_VEC_ID[key] = _intern(_cost_vector(key, True))
    return vid


def _pair_id(key: int) -> int:
    first, second = key >> _ID_BITS, key & ((1 << _ID_BITS) - 1)
    # two suits combine the same in either order: the other order's answer, if known, is this one
    vid = _PAIR_ID.get((second << _ID_BITS) | first)
    if vid is None:
        vid = _intern(tuple(_combine(_VECS[first], _VECS[second], _MAX_SETS)))
    _PAIR_ID[key] = vid
    return vid


def _final(key: int) -> int:
    top = key & 7
    rest = key >> 3
    abc = _VECS[rest >> _ID_BITS]
    z = _VECS[rest & ((1 << _ID_BITS) - 1)]
    best = _INF
    for i in range(top + 1):
        j = top - i
        best = min(best, abc[6 + i] + z[j], abc[i] + z[6 + j])
    _FINAL[key] = best - 1
    return best - 1


def shanten(counts: list[int], sets_needed: int | None = None) -> int:
    """Tiles away from ready: -1 complete, 0 ready (聽), 1 one tile away, ...

    Works for 13- and 16-tile hands alike (``sets_needed`` defaults to concealed tiles // 3).
    """
    if sets_needed is None:
        sets_needed = sum(counts) // 3
    suit = _SUIT_VEC_ID
    hand = bytes(counts)
    k = hand[0:9]
    a = suit.get(k)
    if a is None:
        a = _suit_id(k)
    k = hand[9:18]
    b = suit.get(k)
    if b is None:
        b = _suit_id(k)
    k = hand[18:27]
    c = suit.get(k)
    if c is None:
        c = _suit_id(k)
    k = hand[27:34]
    z = _HONOR_VEC_ID.get(k)
    if z is None:
        z = _honor_id(k)
    pairs = _PAIR_ID
    key = (a << _ID_BITS) | b
    ab = pairs.get(key)
    if ab is None:
        ab = _pair_id(key)
    key = (ab << _ID_BITS) | c
    abc = pairs.get(key)
    if abc is None:
        abc = _pair_id(key)
    key = (((abc << _ID_BITS) | z) << 3) | sets_needed
    result = _FINAL.get(key)
    if result is None:
        result = _final(key)
    return result


def table_sizes() -> dict[str, int]:
    """Entries in the memo tables (for benchmarks and memory checks)."""
    return {
        "suit_win": len(_SUIT_WIN),
        "honor_win": len(_HONOR_WIN),
        "suit_cost": len(_SUIT_COST),
        "honor_cost": len(_HONOR_COST),
        "vectors": len(_VECS),
        "vector_pairs": len(_PAIR_ID),
        "finals": len(_FINAL),
        "capped": len(_CAPPED),
        "wait_infos": len(_SUIT_WAIT) + len(_HONOR_WAIT),
        "ready_in_suit": len(_READY_IN_SUIT),
        "lowering": len(_SUIT_LOWER) + len(_HONOR_LOWER),
        "discards": len(_SUIT_DISCARDS) + len(_HONOR_DISCARDS),
        "discard_finals": sum(map(len, _AFTER.values())),
        "optimal_splits": len(_OPTIMAL),
        "helping": sum(map(len, _HELPING.values())),
    }


# ---------------------------------------------------------------- incremental shanten (for players)


def _vec_id(key: bytes, honors: bool) -> int:
    table = _HONOR_VEC_ID if honors else _SUIT_VEC_ID
    vid = table.get(key)
    if vid is None:
        vid = table[key] = _intern(_cost_vector(key, honors))
    return vid


def _shanten_of(ids: list[int], sets_needed: int) -> int:
    pairs = _PAIR_ID
    key = (ids[0] << _ID_BITS) | ids[1]
    ab = pairs.get(key)
    if ab is None:
        ab = _pair_id(key)
    key = (ab << _ID_BITS) | ids[2]
    abc = pairs.get(key)
    if abc is None:
        abc = _pair_id(key)
    key = (((abc << _ID_BITS) | ids[3]) << 3) | sets_needed
    result = _FINAL.get(key)
    if result is None:
        result = _final(key)
    return result


# per suit pattern: (position, mask) for each tile whose addition lowers some entry of the suit's
# cost vector; the mask says which (sets, pair) entries it lowers (by one: a tile saves one draw)
_SUIT_LOWER: dict[bytes, tuple[tuple[int, int], ...]] = {}
_HONOR_LOWER: dict[bytes, tuple[tuple[int, int], ...]] = {}


def _lowering(key: bytes, honors: bool) -> tuple[tuple[int, int], ...]:
    table = _HONOR_LOWER if honors else _SUIT_LOWER
    found = table.get(key)
    if found is None:
        base = _VECS[_vec_id(key, honors)]
        c = bytearray(key)
        out = []
        for i in range(len(c)):
            if c[i] < 4:
                c[i] += 1
                vec = _VECS[_vec_id(bytes(c), honors)]
                c[i] -= 1
                mask = 0
                for e in range(12):
                    if vec[e] < base[e]:
                        mask |= 1 << e
                if mask:
                    out.append((i, mask))
        found = table[key] = tuple(out)
    return found


def _pair(a: int, b: int) -> int:
    key = (a << _ID_BITS) | b
    vid = _PAIR_ID.get(key)
    return _pair_id(key) if vid is None else vid


# per suit pattern: (position, vector id of the pattern with one copy of it discarded) for each
# held position, so a discard costs two look-ups instead of analysing the smaller pattern's key
_SUIT_DISCARDS: dict[bytes, tuple[tuple[int, int], ...]] = {}
_HONOR_DISCARDS: dict[bytes, tuple[tuple[int, int], ...]] = {}


def _discards(key: bytes, honors: bool) -> tuple[tuple[int, int], ...]:
    table = _HONOR_DISCARDS if honors else _SUIT_DISCARDS
    found = table.get(key)
    if found is None:
        c = bytearray(key)
        out = []
        for i in range(len(c)):
            if c[i]:
                c[i] -= 1
                out.append((i, _vec_id(bytes(c), honors)))
                c[i] += 1
        found = table[key] = tuple(out)
    return found


def discard_shanten(counts: list[int]) -> dict[int, int]:
    """Shanten after discarding each held tile of a 3k+2 hand, in tile order (only that tile's suit
    is redone). The last few answers are remembered by the hand: a turn's 聽 listing and the player
    weighing its discards ask for the same hand one after the other. A new dict every call."""
    key = bytes(counts)
    found = _DISCARD_SHANTEN.get(key)
    if found is None:
        if len(_DISCARD_SHANTEN) >= _DISCARD_SHANTEN_KEPT:
            _DISCARD_SHANTEN.clear()
        found = _DISCARD_SHANTEN[key] = _discard_shanten(key)
    return dict(found)


def best_discard_shanten(counts: list[int]) -> int:
    """``min(discard_shanten(counts).values())`` of a 3k+2 hand (99 for no tiles): the lowest
    shanten a discard can leave, as a player weighing a claim asks it.

    When no kind is held four times it is the hand's own shanten (0 for a complete hand), one
    shanten instead of one per discard: a discard cannot bring the hand nearer the sets and pair an
    optimal reading aims for, and an incomplete hand holds a tile that reading does not use, whose
    discard leaves it as near. A kind held four times is read under the five-copies limit, which
    its discard lifts, so such a hand asks :func:`discard_shanten` (tests/engine/test_analysis.py
    compares the two)."""
    if 4 in counts or not any(counts):
        return min(discard_shanten(counts).values(), default=99)
    s = shanten(counts, (sum(counts) - 1) // 3)
    return s if s > 0 else 0


def best_discards(counts: list[int]) -> tuple[int, tuple[int, ...]]:
    """The lowest shanten a discard leaves a 3k+2 hand at and the tiles whose discard leaves it
    there, in tile order: what :func:`discard_shanten` says, for a player that wants only its best
    discards (no dict per call; remembered with it). ``(99, ())`` for no tiles."""
    key = bytes(counts)
    best = _BEST_DISCARDS.get(key)
    if best is None:
        found = _DISCARD_SHANTEN.get(key)
        if found is None:
            if len(_DISCARD_SHANTEN) >= _DISCARD_SHANTEN_KEPT:
                _DISCARD_SHANTEN.clear()
            found = _DISCARD_SHANTEN[key] = _discard_shanten(key)
        if len(_BEST_DISCARDS) >= _DISCARD_SHANTEN_KEPT:
            _BEST_DISCARDS.clear()
        low = min(found.values(), default=99)
        best = _BEST_DISCARDS[key] = (low, tuple([t for t, v in found.items() if v == low]))
    return best


# discard_shanten's last answers, by the hand (a few, so a long process keeps no more than this)
_DISCARD_SHANTEN: dict[bytes, dict[int, int]] = {}
_DISCARD_SHANTEN_KEPT = 64
_BEST_DISCARDS: dict[bytes, tuple[int, tuple[int, ...]]] = {}  # best_discards' last answers


def _discard_shanten(hand: bytes) -> dict[int, int]:
    sets_needed = (sum(hand) - 1) // 3
    suit_ids, suit_discards, pairs = _SUIT_VEC_ID, _SUIT_DISCARDS, _PAIR_ID
    # each suit's vector id and (position, id after discarding it) pairs (_vec_id and _discards,
    # inline: a few a turn)
    k0, k1, k2, k3 = hand[0:9], hand[9:18], hand[18:27], hand[27:34]
    a = suit_ids.get(k0)
    if a is None:
        a = _vec_id(k0, False)
    b = suit_ids.get(k1)
    if b is None:
        b = _vec_id(k1, False)
    c = suit_ids.get(k2)
    if c is None:
        c = _vec_id(k2, False)
    honors = _HONOR_VEC_ID.get(k3)
    if honors is None:
        honors = _vec_id(k3, True)
    held0 = suit_discards.get(k0)
    if held0 is None:
        held0 = _discards(k0, False)
    held1 = suit_discards.get(k1)
    if held1 is None:
        held1 = _discards(k1, False)
    held2 = suit_discards.get(k2)
    if held2 is None:
        held2 = _discards(k2, False)
    b_c = pairs.get((b << _ID_BITS) | c)
    if b_c is None:
        b_c = _pair_id((b << _ID_BITS) | c)
    a_c = pairs.get((a << _ID_BITS) | c)
    if a_c is None:
        a_c = _pair_id((a << _ID_BITS) | c)
    a_b = pairs.get((a << _ID_BITS) | b)
    if a_b is None:
        a_b = _pair_id((a << _ID_BITS) | b)
    tail = (honors << 3) | sets_needed  # a final key is (suits << _ID_BITS | honors) << 3 | sets
    result = {}
    for lo, discards, rest in ((0, held0, b_c), (9, held1, a_c), (18, held2, a_b)):
        if not discards:
            continue
        memo_key = (rest << _AFTER_SHIFT) | tail
        after = _AFTER.get(memo_key)
        if after is None:
            after = _AFTER[memo_key] = {}
        for i, vid in discards:
            v = after.get(vid)
            if v is None:
                fkey = (_pair(rest, vid) << _AFTER_SHIFT) | tail
                v = _FINAL.get(fkey)
                v = after[vid] = _final(fkey) if v is None else v
            result[lo + i] = v
    held3 = _HONOR_DISCARDS.get(k3)
    if held3 is None:
        held3 = _discards(k3, True)
    if held3:
        abc = _pair(a_b, c) << _ID_BITS
        final = _FINAL
        for i, vid in held3:
            fkey = ((abc | vid) << 3) | sets_needed
            v = final.get(fkey)
            result[27 + i] = _final(fkey) if v is None else v
    return result


# a suited discard's shanten by the other two suits' pair id with the honours id and sets, then by
# the discard's suit vector id: per tile one look-up by a small number instead of two (the two
# suits' pair, then the final)
_AFTER: dict[int, dict[int, int]] = {}
_AFTER_SHIFT = _ID_BITS + 3


def improving_tiles(counts: list[int]) -> list[int]:
    """Tiles whose draw lowers the shanten of a 3k+1 hand (its 進張), in tile order.

    A drawn tile lowers one suit's costs by at most one, so it helps exactly when it lowers an entry
    that an optimal split of the sets between the suits uses: one rest-of-hand vector per suit and
    a mask test per tile, instead of a shanten per tile.
    """
    hand = bytes(counts)
    keys = [hand[lo : lo + n] for lo, n in _SUIT_STARTS]
    return _improving(keys, [_vec_id(keys[j], j == 3) for j in range(4)], sum(counts) // 3)


def improving_by_discard(counts: list[int], tiles: Iterable[int]) -> dict[int, list[int]]:
    """``improving_tiles`` of the 3k+1 hand left by each discard in ``tiles`` from the 3k+2 hand
    ``counts`` (a player weighing its discards): the suits a discard leaves alone are read once."""
    hand = bytes(counts)
    keys = [hand[lo : lo + n] for lo, n in _SUIT_STARTS]
    ids = [_vec_id(keys[j], j == 3) for j in range(4)]
    sets_needed = (sum(counts) - 1) // 3
    result = {}
    for t in tiles:
        j = 3 if t >= 27 else t // 9
        lo = _SUIT_STARTS[j][0]
        key = bytearray(keys[j])
        key[t - lo] -= 1
        left = bytes(key)
        saved_key, saved_id = keys[j], ids[j]
        keys[j], ids[j] = left, _vec_id(left, j == 3)
        result[t] = _improving(keys, ids, sets_needed)
        keys[j], ids[j] = saved_key, saved_id
    return result


def _improving(keys: list[bytes], ids: list[int], sets_needed: int) -> list[int]:
    i0, i1, i2, i3 = ids
    # each suit's rest of the hand: the other three suits combined in suit order (the first two
    # shared by the last two suits)
    p01 = _pair(i0, i1)
    rests = (_pair(_pair(i1, i2), i3), _pair(_pair(i0, i2), i3), _pair(p01, i3), _pair(p01, i2))
    result: list[int] = []
    for j in range(4):
        key = (((rests[j] << _ID_BITS) | ids[j]) << 3) | sets_needed
        optimal = _OPTIMAL.get(key)
        if optimal is None:
            optimal = _optimal_entries(key)
        if optimal:
            suit = keys[j]
            by_optimal = _HELPING.get(suit)
            if by_optimal is None:
                by_optimal = _HELPING[suit] = {}
            helping = by_optimal.get(optimal)
            if helping is None:
                helping = by_optimal[optimal] = tuple(i for i, mask in _lowering(suit, j == 3) if mask & optimal)
            if helping:
                lo = _SUIT_STARTS[j][0]
                result.extend([lo + i for i in helping] if lo else helping)
    result.sort()
    return result


# per suit pattern, per mask of optimal entries: the positions whose draw lowers one of them
_HELPING: dict[bytes, dict[int, tuple[int, ...]]] = {}


_OPTIMAL: dict[int, int] = {}


def _optimal_entries(key: int) -> int:
    """Bit mask of the (sets, pair) entries of a suit's vector that some optimal split uses, given
    the rest of the hand's vector (both ids and the sets needed packed in ``key``)."""
    sets_needed = key & 7
    both = key >> 3
    rest = _VECS[both >> _ID_BITS]
    vec = _VECS[both & ((1 << _ID_BITS) - 1)]
    total = min(
        min(vec[k] + rest[6 + sets_needed - k], vec[6 + k] + rest[sets_needed - k])
        for k in range(sets_needed + 1)
    )
    optimal = 0
    for k in range(sets_needed + 1):
        r = sets_needed - k
        if vec[k] + rest[6 + r] == total:
            optimal |= 1 << k
        if vec[6 + k] + rest[r] == total:
            optimal |= 1 << (6 + k)
    _OPTIMAL[key] = optimal
    return optimal



def live_by_discard(counts: list[int], tiles: Iterable[int], weights: Sequence[int]) -> dict[int, int]:
    """For each discard ``t`` in ``tiles`` from the 3k+2 hand ``counts``: the sum of ``weights``
    (a player's unseen copies) over :func:`improving_tiles` of the hand it leaves — the number a
    player weighing its discards wants, without the lists.

    A discard changes one suit: that suit's rest of the hand (the other three combined) is the
    same for every discard from it, and each other suit's rest is the two suits left alone
    (combined once) with the changed one. Combining cost vectors is commutative and associative and
    vectors are interned, so these are the ids :func:`improving_by_discard` reaches in its own
    order. An unchanged suit's helping tiles depend on its optimal entries alone: their weight is
    summed once per call."""
    keys = [bytes(counts[0:9]), bytes(counts[9:18]), bytes(counts[18:27]), bytes(counts[27:34])]
    ids = [_vec_id(keys[0], False), _vec_id(keys[1], False), _vec_id(keys[2], False), _vec_id(keys[3], True)]
    i0, i1, i2, i3 = ids
    sets_needed = (sum(counts) - 1) // 3
    p01, p02, p03 = _pair(i0, i1), _pair(i0, i2), _pair(i0, i3)
    p12, p13, p23 = _pair(i1, i2), _pair(i1, i3), _pair(i2, i3)
    # an optimal-entries key is (rest << _ID_BITS | suit) << 3 | sets: its high part for the
    # changed suit j (the other three suits, combined once), and the low part of every other suit
    high = (
        _pair(p12, i3) << (_ID_BITS + 3),
        _pair(p02, i3) << (_ID_BITS + 3),
        _pair(p01, i3) << (_ID_BITS + 3),
        _pair(p01, i2) << (_ID_BITS + 3),
    )
    weighed: list[dict[int, int]] = [{}, {}, {}, {}]  # an unchanged suit: its weight by optimal mask
    # by the changed suit j: each other suit k, with the two suits that are neither (combined once,
    # shifted to take the changed suit's id), k's low key part, its pattern and its weights so far
    b = _ID_BITS
    others = (
        ((1, p23 << b, (i1 << 3) | sets_needed), (2, p13 << b, (i2 << 3) | sets_needed), (3, p12 << b, (i3 << 3) | sets_needed)),
        ((0, p23 << b, (i0 << 3) | sets_needed), (2, p03 << b, (i2 << 3) | sets_needed), (3, p02 << b, (i3 << 3) | sets_needed)),
        ((0, p13 << b, (i0 << 3) | sets_needed), (1, p03 << b, (i1 << 3) | sets_needed), (3, p01 << b, (i3 << 3) | sets_needed)),
        ((0, p12 << b, (i0 << 3) | sets_needed), (1, p02 << b, (i1 << 3) | sets_needed), (2, p01 << b, (i2 << 3) | sets_needed)),
    )
    shift = _ID_BITS + 3
    pairs = _PAIR_ID
    optimal_of = _OPTIMAL
    result = {}
    for t in tiles:
        j = 3 if t >= 27 else t // 9
        key = bytearray(keys[j])
        key[t - (27 if j == 3 else 9 * j)] -= 1
        left = bytes(key)
        left_id = _vec_id(left, j == 3)
        okey = high[j] | (left_id << 3) | sets_needed
        optimal = optimal_of.get(okey)
        if optimal is None:
            optimal = _optimal_entries(okey)
        total = _weigh(left, j, optimal, weights) if optimal else 0
        for k, two, low in others[j]:
            pkey = two | left_id
            rest = pairs.get(pkey)
            if rest is None:
                rest = _pair_id(pkey)
            okey = (rest << shift) | low
            optimal = optimal_of.get(okey)
            if optimal is None:
                optimal = _optimal_entries(okey)
            if optimal:
                known = weighed[k]
                w = known.get(optimal)
                if w is None:
                    w = known[optimal] = _weigh(keys[k], k, optimal, weights)
                total += w
        result[t] = total
    return result


def _weigh(suit: bytes, j: int, optimal: int, weights: Sequence[int]) -> int:
    """The weights of the tiles of suit ``j`` (pattern ``suit``) that lower an optimal entry."""
    by_optimal = _HELPING.get(suit)
    if by_optimal is None:
        by_optimal = _HELPING[suit] = {}
    helping = by_optimal.get(optimal)
    if helping is None:
        helping = by_optimal[optimal] = tuple(i for i, mask in _lowering(suit, j == 3) if mask & optimal)
    lo = 27 if j == 3 else 9 * j
    return sum([weights[lo + i] for i in helping])
