"""Tile notation: parse/format round trips and names."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.meld import Meld, MeldKind
from engine.tiles import (
    NotationError,
    format_tiles,
    full_set,
    parse_tiles,
    sorted_tiles,
    tile_from_str,
    tile_name,
    tile_to_str,
    wind_index,
)


def test_parse_suits_honours_and_flowers():
    assert parse_tiles("123m") == [0, 1, 2]
    assert parse_tiles("9p 1s") == [17, 18]
    assert parse_tiles("1234567z") == list(range(27, 34))
    assert parse_tiles("f1f8") == [34, 41]


def test_chinese_names():
    assert [tile_name(t) for t in parse_tiles("5m3p9s")] == ["五萬", "三筒", "九索"]
    assert "".join(tile_name(t) for t in parse_tiles("1234567z")) == "東南西北白發中"
    assert "".join(tile_name(t) for t in parse_tiles("f1f2f3f4f5f6f7f8")) == "春夏秋冬梅蘭菊竹"


@pytest.mark.parametrize("bad", ["8z", "0m", "12x", "f9", "m"])
def test_bad_notation_is_a_typed_error(bad):
    with pytest.raises(NotationError):
        parse_tiles(bad)


def test_full_set_has_144_tiles():
    tiles = full_set()
    assert len(tiles) == 144
    assert all(tiles.count(t) == 4 for t in range(34))
    assert all(tiles.count(t) == 1 for t in range(34, 42))


def test_display_sort_puts_dragons_zhong_fa_bai():
    assert format_tiles(sorted_tiles(parse_tiles("567z1m"))) == "1m765z"


@given(st.lists(st.integers(0, 41), max_size=20))
def test_format_parse_round_trip(tiles):
    assert parse_tiles(format_tiles(tiles)) == tiles
    for t in tiles:
        assert tile_from_str(tile_to_str(t)) == t


def test_meld_notation_round_trip():
    for text in ["chi:123m", "pon:555z", "kong:1111m", "addkong:2222p", "ankong:9999s"]:
        assert str(Meld.from_str(text)) == text
    assert Meld.from_str("ankong:9999s").kind is MeldKind.ANKONG


@pytest.mark.parametrize("bad", ["chi:124m", "chi:789z", "pon:556m", "kong:111m", "foo:123m", "123m"])
def test_bad_meld_is_rejected(bad):
    with pytest.raises(NotationError):
        Meld.from_str(bad)


@pytest.mark.parametrize("value", [None, 5, b"5m", ["5m"]])
def test_tile_notation_of_a_non_string_is_a_notation_error(value):
    with pytest.raises(NotationError):
        parse_tiles(value)
    with pytest.raises(NotationError):
        tile_from_str(value)
    with pytest.raises(NotationError):
        Meld.from_str(value)


def test_wind_letters_are_exactly_one_of_eswn():
    assert [wind_index(w) for w in "ESWNeswn"] == [0, 1, 2, 3, 0, 1, 2, 3]
    for bad in ("", "ES", "Q", "ſ", " E", None, 0):
        with pytest.raises(NotationError):
            wind_index(bad)


def test_a_long_bad_notation_gives_a_short_message():
    with pytest.raises(NotationError) as info:
        parse_tiles("1m" * 1000 + "x" * 1000)
    assert len(str(info.value)) < 200


def test_meld_with_its_claimed_tile_and_source_round_trips_through_its_repr():
    chi = Meld.from_str("chi:345m", claimed="5m", source=1)
    assert (chi.claimed, chi.source) == (parse_tiles("5m")[0], 1)
    assert repr(chi) == "Meld.from_str('chi:345m', claimed='5m', source=1)"
    assert eval(repr(chi)) == chi
    assert repr(Meld.from_str("ankong:9999s")) == "Meld.from_str('ankong:9999s')"
    assert "tiles=(-1, -1, -1, -1)" in repr(Meld.from_str("ankong:9999s").hidden())
    with pytest.raises(NotationError):
        Meld.from_str("pon:555z", claimed="1m")
    with pytest.raises(NotationError):
        Meld.from_str("ankong:9999s", claimed="9s")
