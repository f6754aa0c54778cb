"""嚦咕嚦咕 as a winning form (engine/forms.py): the form itself, and the cheap near-form test that
lets winning_tiles skip hands that cannot be one tile from it without ever losing a real wait."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.analysis import waits
from engine.forms import is_lugu, is_winning, near_forms, winning_tiles
from engine.tiles import parse_tiles, to_counts


def counts(text: str) -> list[int]:
    return to_counts(parse_tiles(text))


def test_lugu_is_seven_pairs_and_one_triplet():
    assert is_lugu(counts("11m33m55m77m99p22p44s666s"))
    assert is_lugu(counts("1111m55m77m99p22p44s666s"))  # four of a kind is two pairs
    assert not is_lugu(counts("11m33m55m77m99p22p44s66s"))  # 16 tiles
    assert not is_lugu(counts("11m33m55m77m99p22p444s666s"))  # two triplets
    assert not is_winning(counts("11m33m55m77m99p22p44s666s")) and is_winning(
        counts("11m33m55m77m99p22p44s666s"), ("lugu",)
    )


def test_an_eight_pair_hand_waits_on_each_of_its_pairs():
    hand = counts("11m33m55m77m99p22p44s66s")
    assert winning_tiles(hand, ("lugu",)) == parse_tiles("1m3m5m7m2p9p4s6s")
    assert winning_tiles(hand, ()) == []


lugu_hands = st.lists(st.integers(0, 33), min_size=8, max_size=8, unique=True).map(
    lambda kinds: [3 if t == kinds[0] else 2 if t in kinds[1:] else 0 for t in range(34)]
)


@settings(max_examples=300, deadline=None)
@given(lugu_hands, st.data())
def test_removing_any_tile_of_a_lugu_hand_leaves_a_wait_on_it(hand, data):
    assert is_lugu(hand)
    tile = data.draw(st.sampled_from([t for t in range(34) if hand[t]]))
    hand[tile] -= 1
    assert near_forms(hand, ("lugu",)) == ("lugu",)
    assert tile in winning_tiles(hand, ("lugu",))


def near_lugu(hand: list[int], data: st.DataObject) -> list[int]:
    """A lugu hand with two tiles taken out and one put in: 16 tiles, often one tile from the form."""
    for _ in range(2):
        hand[data.draw(st.sampled_from([t for t in range(34) if hand[t]]))] -= 1
    hand[data.draw(st.sampled_from([t for t in range(34) if hand[t] < 4]))] += 1
    return hand


@settings(max_examples=300, deadline=None)
@given(lugu_hands, st.data())
def test_lugu_waits_are_the_standard_waits_plus_tiles_that_make_the_form(lugu, data):
    hand = near_lugu(lugu, data)
    got = set(winning_tiles(hand, ("lugu",)))
    assert set(waits(hand)) <= got
    for t in got - set(waits(hand)):
        hand[t] += 1
        assert is_lugu(hand)
        hand[t] -= 1
