"""Hand analysis: win check, decompositions, waits and shanten for 13- and 16-tile hands."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from engine import analysis
from engine.analysis import (
    decompositions,
    discard_shanten,
    improving_tiles,
    is_complete,
    ready_discards,
    shanten,
    waits,
)
from engine.tiles import format_tiles, parse_tiles, to_counts


def counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def test_sixteen_tile_hand_with_five_sets_and_a_pair_is_complete():
    assert is_complete(counts("123m456m789m123p456p55z"))


def test_thirteen_tile_hand_with_four_sets_and_a_pair_is_complete():
    assert is_complete(counts("123m456m789m111z22z"))


def test_declared_melds_are_left_out_of_the_counts():
    # two melds declared: 3 sets + pair remain concealed
    assert is_complete(counts("123m456p789s55z"))


def test_incomplete_hands():
    assert not is_complete(counts("123m456m789m123p456p56z"))
    assert not is_complete(counts("123m456m789m123p455p5z"))
    assert not is_complete(counts("1112m"))  # four tiles cannot be sets + pair
    assert not is_complete(counts("11335577m"))  # four pairs, no sets


def test_honours_do_not_form_chows():
    assert not is_complete(counts("123z44z"))


def test_every_decomposition_is_enumerated():
    found = decompositions(counts("111222333m55z"))
    groups = sorted(tuple(sorted(g.kind for g in d.groups)) for d in found)
    assert groups == [("chi", "chi", "chi"), ("pon", "pon", "pon")]
    # 1112345678999m + 5m? the nine gates style hand has several readings of the pair
    assert len(decompositions(counts("11123456789999m"))) >= 1
    assert decompositions(counts("1234m")) == []


def test_waits_of_a_ready_sixteen_tile_hand():
    assert [format_tiles([t]) for t in waits(counts("123m456m789m123p456p5z"))] == ["5z"]
    assert format_tiles(waits(counts("123m456m789m123p55p23s"))) == "14s"
    assert format_tiles(waits(counts("123m456m789m123p55p13s"))) == "2s"  # 中洞
    assert format_tiles(waits(counts("1112345678999m"))) == "123456789m"  # 九蓮


def test_a_tile_held_four_times_is_not_a_wait():
    assert waits(counts("1111m")) == []  # would need a fifth 1m


def test_shanten_values():
    assert shanten(counts("123m456m789m123p456p55z")) == -1
    assert shanten(counts("123m456m789m123p456p5z")) == 0
    assert shanten(counts("123m456m789m123p45p19s")) == 1
    assert shanten(counts("1m")) == 0  # single wait with four melds declared


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False))
def test_shanten_agrees_with_the_mahjong_package_on_14_tile_hands(rnd):
    wall = [t for t in range(34) for _ in range(4)]
    hand = to_counts(rnd.sample(wall, 14))
    assert shanten(hand) == Shanten().calculate_shanten_for_regular_hand(hand)


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False))
def test_shanten_minus_one_exactly_when_complete_on_17_tile_hands(rnd):
    wall = [t for t in range(34) for _ in range(4)]
    hand = to_counts(rnd.sample(wall, 17))
    assert (shanten(hand) == -1) == is_complete(hand)


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False))
def test_ready_hands_have_waits_and_only_ready_hands(rnd):
    wall = [t for t in range(34) for _ in range(4)]
    hand = to_counts(rnd.sample(wall, 16))
    assert (shanten(hand) == 0) == bool(waits(hand))


def test_drawing_a_wait_completes_the_hand():
    rng = random.Random(3)
    for _ in range(300):
        wall = [t for t in range(34) for _ in range(4)]
        hand = to_counts(rng.sample(wall, 16))
        for t in waits(hand):
            hand[t] += 1
            assert is_complete(hand)
            hand[t] -= 1


def test_decompositions_are_distinct_when_a_pung_and_a_chow_share_the_lowest_tile():
    found = decompositions(counts("111123567m11166p"))
    readings = [(d.pair, tuple(sorted(d.groups))) for d in found]
    assert len(readings) == len(set(readings)) == 1


def test_shanten_respects_the_four_copies_limit():
    # 777s + 7s would wait on a fifth 7s: not ready
    assert shanten(counts("7777s")) == 1
    assert waits(counts("7777s")) == []
    assert shanten(counts("1111777m222456p")) == 1
    assert waits(counts("1111777m222456p")) == []
    assert shanten(counts("1111m")) == 1
    # four of a kind that can still be read as a pung plus a chow is ready
    assert shanten(counts("1111234m")) == 0


def test_ready_discards_lists_exactly_the_discards_that_leave_waits():
    hand = counts("123m456m789m123p456p5z9s")
    assert format_tiles(ready_discards(hand)) == "9s5z"
    assert ready_discards(counts("19m19p19s1234567z1m5s")) == []  # far from ready


# ---------------------------------------------------------------- brute force reference

_UNIVERSE = [0, 1, 2, 3, 4, 5, 27]  # 1m-6m and 1z: small, so four of a kind comes up often
_FAR = ("far", -1)  # a set of fresh tiles far from the hand: costs 3, shares no kind


def _relevant_sets(hand: list[int]) -> list[tuple[str, int]]:
    held = {t for t in range(34) if hand[t]}
    sets = [("pon", t) for t in sorted(held)]
    for lo in range(27):
        if lo % 9 <= 6 and held & {lo, lo + 1, lo + 2}:
            sets.append(("chi", lo))
    return sets + [_FAR]


def _targets(hand: list[int]):
    """Every complete shape of the hand's size class that could matter: (pair, sets, tile counts)."""
    import itertools

    k = sum(hand) // 3
    pairs = [t for t in range(34) if hand[t]] + [-1]  # -1: a pair of a fresh kind
    for sets in itertools.combinations_with_replacement(_relevant_sets(hand), k):
        for pair in pairs:
            target = [0] * 34
            far = 0
            for kind, t in sets:
                if kind == "far":
                    far += 3
                elif kind == "pon":
                    target[t] += 3
                else:
                    target[t] += 1
                    target[t + 1] += 1
                    target[t + 2] += 1
            if pair < 0:
                far += 2
            else:
                target[pair] += 2
            if max(target) <= 4:
                yield pair, sets, target, far


def _brute_shanten(hand: list[int]) -> int:
    best = min(
        sum(max(0, t - h) for t, h in zip(target, hand, strict=True)) + far
        for _p, _s, target, far in _targets(hand)
    )
    return best - 1


def _brute_readings(hand: list[int]) -> set:
    return {
        (pair, tuple(sorted(sets)))
        for pair, sets, target, far in _targets(hand)
        if far == 0 and target == hand
    }


hands_in_a_small_universe = (
    st.lists(st.sampled_from(_UNIVERSE), min_size=1, max_size=11)
    .filter(lambda ts: len(ts) % 3 != 0)
    .map(lambda ts: to_counts(sorted(ts)))
    .filter(lambda c: max(c) <= 4)
)


@settings(max_examples=150, deadline=None)
@given(hands_in_a_small_universe)
def test_shanten_and_waits_agree_with_a_brute_force_analyser(hand):
    assert shanten(hand) == _brute_shanten(hand)
    if sum(hand) % 3 == 1:
        brute = [t for t in range(34) if hand[t] < 4 and _brute_readings(_plus(hand, t))]
        assert waits(hand) == brute
        assert (shanten(hand) == 0) == bool(brute)
    else:
        found = [(d.pair, tuple(sorted((g.kind, g.tile) for g in d.groups))) for d in decompositions(hand)]
        assert len(found) == len(set(found))
        assert set(found) == _brute_readings(hand)
        ready = [t for t in range(34) if hand[t] and waits(_plus(hand, t, -1))]
        assert ready_discards(hand) == ready
        assert analysis.ready_by_shanten(hand) == ready
        complete, may_be_ready = analysis.turn_shape(hand)
        assert complete == is_complete(hand)
        assert may_be_ready or not ready


def near_ready(rnd: random.Random, size: int) -> list[int] | None:
    """Sets and a pair of ``size`` tiles (3k+2), up to three of them swapped for random kinds."""
    tiles: list[int] = []
    while len(tiles) < size - 2:
        if rnd.random() < 0.5:
            tiles += [rnd.randrange(34)] * 3
        else:
            lo = rnd.randrange(3) * 9 + rnd.randrange(7)
            tiles += [lo, lo + 1, lo + 2]
    tiles = (tiles + [rnd.randrange(34)] * 2)[:size]
    for _ in range(rnd.randrange(4)):
        tiles[rnd.randrange(size)] = rnd.randrange(34)
    hand = to_counts(tiles)
    return hand if max(hand) <= 4 else None


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([5, 8, 11, 14, 17]))
def test_the_turns_ready_listing_by_shanten_is_the_listing_by_waits(rnd, size):
    """A game lists 聽 from discard_shanten (shanten 0 after the discard): exactly the discards
    whose hand has a wait, four of a kind held included, and turn_shape's win check is the win check."""
    hand = near_ready(rnd, size)
    if hand is None:
        return
    ready = [t for t in range(34) if hand[t] and waits(_plus(hand, t, -1))]
    assert analysis.ready_by_shanten(hand) == ready_discards(hand) == ready
    complete, may_be_ready = analysis.turn_shape(hand)
    assert complete == is_complete(hand)
    assert may_be_ready or not ready


def _plus(hand: list[int], t: int, n: int = 1) -> list[int]:
    out = list(hand)
    out[t] += n
    return out


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([1, 4, 7, 10, 13, 16]))
def test_improving_tiles_and_discard_shanten_match_shanten_tile_by_tile(rnd, size):
    wall = [t for t in range(34) for _ in range(4)]
    hand = to_counts(rnd.sample(wall, size))
    now = shanten(hand)
    assert improving_tiles(hand) == [t for t in range(34) if hand[t] < 4 and shanten(_plus(hand, t)) < now]
    full = _plus(hand, rnd.choice(range(34)))
    if max(full) <= 4:
        assert discard_shanten(full) == {t: shanten(_plus(full, t, -1)) for t in range(34) if full[t]}


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([2, 5, 8, 11, 14, 17]))
def test_best_discards_are_the_discards_of_lowest_shanten(rnd, size):
    """best_discard_shanten (the hand's own shanten when no kind is held four times) and
    best_discards say what discard_shanten says: its lowest value and the tiles that reach it."""
    hand = near_ready(rnd, size) if rnd.random() < 0.5 else to_counts(rnd.sample([t for t in range(34) for _ in range(4)], size))
    if hand is None:
        return
    after = discard_shanten(hand)
    low = min(after.values())
    assert analysis.best_discard_shanten(hand) == low
    assert analysis.best_discards(hand) == (low, tuple(t for t in range(34) if after.get(t) == low))


def test_best_discard_shanten_of_a_complete_hand_is_zero_and_of_four_of_a_kind_exact():
    assert analysis.best_discard_shanten(counts("123m456m789m123p456p55z")) == 0
    hand = counts("1111m258p369s1234z")
    assert analysis.best_discard_shanten(hand) == min(discard_shanten(hand).values())
    assert analysis.best_discard_shanten([0] * 34) == 99
    assert analysis.best_discards([0] * 34) == (99, ())


def cost_vector_by_search(key: bytes, honors: bool) -> tuple[int, ...]:
    """A suit's cost vector by a left-to-right search over every way of taking chows, a pung and
    the pair at each tile, no kind used more than four times, up to four equal chows (the engine
    stops at two): entry k (6 + k with the pair) is the fewest tiles to add."""
    inf = 99
    start = [inf] * 12
    start[0] = 0
    states = {(0, 0): start}
    for i, have in enumerate(key):
        nxt: dict[tuple[int, int], list[int]] = {}
        for (two_back, one_back), vec in states.items():
            for new in range((0 if honors or i > len(key) - 3 else 4) + 1):
                for pung in (0, 1):
                    for pair in (0, 1):
                        used = two_back + one_back + new + 3 * pung + 2 * pair
                        if used > 4:
                            continue
                        best = nxt.setdefault((one_back, new), [inf] * 12)
                        add = max(0, used - have)
                        for k in range(new + pung, 6):
                            src = k - new - pung
                            if pair:
                                best[6 + k] = min(best[6 + k], vec[src] + add)
                            else:
                                best[k] = min(best[k], vec[src] + add)
                                best[6 + k] = min(best[6 + k], vec[6 + src] + add)
        states = nxt
    return tuple(states.get((0, 0), [inf] * 12))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=9, max_size=9), st.booleans())
def test_cost_vector_of_a_suit_holding_four_of_a_kind_is_the_searched_one(suit, honors):
    """With four of a kind no fifth copy is ever counted as drawable, and leaving out three or four
    equal chows loses no split: the engine's vector is the one of a search over every split."""
    key = bytes(suit[:7] if honors else suit)
    if 4 not in key or sum(key) > 17:
        return
    assert analysis._cost_vector(key, honors) == cost_vector_by_search(key, honors)


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([2, 5, 8, 11, 14, 17]))
def test_improving_tiles_of_every_discard_read_at_once_are_those_of_each_hand_left(rnd, size):
    hand = [0] * 34
    for t in rnd.sample([t for t in range(34) for _ in range(4)], size):
        hand[t] += 1
    held = [t for t in range(34) if hand[t]]
    together = analysis.improving_by_discard(hand, held)
    for t in held:
        hand[t] -= 1
        assert together[t] == improving_tiles(hand)
        hand[t] += 1


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from([2, 5, 8, 11, 14, 17]))
def test_live_improving_tiles_of_every_discard_weigh_the_improving_tiles_of_each_hand_left(rnd, size):
    hand = [0] * 34
    for t in rnd.sample([t for t in range(34) for _ in range(4)], size):
        hand[t] += 1
    unseen = [rnd.randint(0, 4) for _ in range(34)]
    held = [t for t in range(34) if hand[t]]
    live = analysis.live_by_discard(hand, held, unseen)
    for t in held:
        hand[t] -= 1
        assert live[t] == sum(unseen[u] for u in improving_tiles(hand))
        hand[t] += 1
