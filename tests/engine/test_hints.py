"""The hints of issue 23: a ready hand's waits with their unseen counts, in every rule set and
declared or not; the discards that keep a hand ready; the 過水 flag of a viewer's own view."""

from __future__ import annotations

import pytest

from engine.actions import Action
from engine.game import Game
from engine.hints import ready_discards
from engine.rules import TableOptions
from engine.tiles import tile_to_str


def notation(waits):
    return [(tile_to_str(t), n) for t, n in waits]


def hints(game, seat=0):
    return [(tile_to_str(d.tile), notation(d.waits)) for d in ready_discards(game, seat)]


@pytest.mark.parametrize(
    ("rules", "hand", "waits"),
    [
        # 16 tiles: an edge wait 3p, three left after one went to a river
        ("taiwan16", "123456789m12p11s555z", [("3p", 3)]),
        # 13 tiles: the regular shape, a two-sided wait
        ("taiwan13", "123456789m23p11s", [("1p", 4), ("4p", 4)]),
        # taiwan13's 七对子 waits on its single tile
        ("taiwan13", "1122m3344p5566s7z", [("7z", 3)]),
        # taiwan13's 国士无双, thirteen-sided
        ("taiwan13", "19m19p19s1234567z", [(t, 3) for t in "1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z".split()]),
        ("hongkong", "123456789m12p11s", [("3p", 3)]),
        # guangdong: 七对 is a win form, so a six-pair hand is ready on its single
        ("guangdong", "1122m3344p5566s7z", [("7z", 3)]),
    ],
)
def test_a_ready_hand_shows_its_waits_and_how_many_are_unseen(rules, hand, waits):
    rivers = {1: "3p"} if "12p" in hand else {}
    game = Game.from_position(rules=rules, hands={0: hand}, rivers=rivers, turn=1)
    assert notation(game.view(0).waits) == waits
    assert game.view(None).waits == ()


def test_waits_are_shown_without_declaring_ting():
    game = Game.from_position(hands={0: "123456789m12p11s555z"}, turn=1)
    assert not game.ready[0]
    assert notation(game.view(0).waits) == [("3p", 4)]


def test_a_hand_that_is_not_ready_shows_no_waits():
    game = Game.from_position(hands={0: "123456789m19p11s555z"}, turn=1)
    assert game.view(0).waits == ()


@pytest.mark.parametrize(
    ("rules", "hand", "drawn", "expected"),
    [
        ("taiwan16", "123456789m124p11s555z", "5z", [("1p", [("3p", 4)]), ("4p", [("3p", 4)])]),
        ("taiwan13", "123456789m124p11s", "1s", [("1p", [("3p", 4)]), ("4p", [("3p", 4)])]),
        ("hongkong", "123456789m2349p1s", "9p", [("9p", [("1s", 3)]), ("1s", [("9p", 3)])]),
        ("guangdong", "1122m3344p5566s71z", "1z", [("1z", [("7z", 3)]), ("7z", [("1z", 3)])]),
    ],
)
def test_on_your_turn_the_discards_that_keep_you_ready_are_listed_with_their_waits(rules, hand, drawn, expected):
    game = Game.from_position(rules=rules, hands={0: hand}, turn=0, drawn=drawn)
    assert hints(game) == expected


def test_discard_hints_count_a_wait_seen_in_a_river():
    game = Game.from_position(hands={0: "123456789m124p11s555z"}, rivers={2: "3p3p"}, turn=0, drawn="5z")
    assert hints(game) == [("1p", [("3p", 2)]), ("4p", [("3p", 2)])]


def test_no_discard_hints_when_it_is_not_your_turn():
    game = Game.from_position(hands={0: "123456789m12p11s555z"}, turn=1)
    assert ready_discards(game, 0) == ()


def test_view_says_when_the_viewer_is_in_guo_shui():
    options = TableOptions(may_pass_win=True)
    game = Game.from_position(
        hands={0: "123456789m12p11s555z", 1: "123m456m789m234p5p6p99s1z"}, turn=1, drawn="1z", options=options
    )
    game.apply(Action.from_str("1 discard 3p"))
    assert "0 hu" in [str(a) for a in game.legal_actions(0)]
    assert not game.view(0).passed_win
    game.apply(Action.from_str("0 pass"))
    assert game.view(0).passed_win
    assert not game.view(None).passed_win and not game.view(1).passed_win
