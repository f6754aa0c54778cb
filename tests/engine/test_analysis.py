"""Hand analysis: win check, decompositions, waits and shanten for 13- and 16-tile hands."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong.shanten import Shanten

from engine.analysis import decompositions, is_complete, shanten, waits
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
    assert (shanten(hand) == 0) == bool(waits(hand)) or any(c == 4 for c in hand)


def test_drawing_a_wait_completes_the_hand():
    rng = random.Random(3)
    for _ in range(300):
        wall = [t for t in range(34) for _ in range(4)]
        hand = to_counts(rng.sample(wall, 16))
        for t in waits(hand):
            hand[t] += 1
            assert is_complete(hand)
            hand[t] -= 1
