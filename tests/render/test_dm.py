"""The DM picture is the table from your seat (issue 39): readable on a phone for every rule set however full
the table, the latest discard framed, the tile on offer in the drawn tile's place, taken tiles kept in the
rivers, and nothing of another seat's concealed tiles."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.events import EventKind
from engine.match import Match
from engine.meld import MeldKind
from engine.policy import SimpleAI
from render import dm, phone, sprites
from render.demo import crowded, hand_screen, synthetic
from table.screens import rivers_as_discarded

RULES = ("taiwan16", "taiwan13", "hongkong", "guangdong")


def _fullest(rules: str):
    """The viewer with every meld count a hand allows, rivers long to the last tile."""
    most = 5 if synthetic(7, rules=rules).mine.hand_size == 16 else 4
    for own in range(most + 1):
        for river in (0, 12, 30):
            yield crowded(rules, river=river, own_melds=own)


@pytest.mark.parametrize("rules", RULES)
def test_the_dm_picture_fits_one_phone_screen_with_readable_tiles(rules):
    state = synthetic(7, rules=rules)
    many = tuple((t, 2) for t in range(9))  # a nine-sided wait: shown where it fits, else only the text says it
    long = crowded(rules, river=16, own_melds=0)
    bare = tuple(replace(seat, melds=(), concealed_count=long.hand_size + 1) for seat in long.seats)
    eyes = [  # 眼牌 (or a hand over): every other hand face up, beside four kongs and the flowers or with no
        # melds (rivers of 16: with four whole hands, about as many tiles as a wall holds)
        replace(view, others={s.seat: tuple(range(s.concealed_count)) for s in view.seats})
        for view in (long, replace(long, seats=bare))
    ]
    views = (state.mine, state.claim, *eyes, *_fullest(rules), *(replace(v, waits=many) for v in _fullest(rules)))
    for view in views:
        cv = dm.compose_dm(hand_screen(view, locale="en"))
        assert cv.im.width == dm.WIDTH
        assert cv.im.height <= dm.MAX_ASPECT * cv.im.width
        assert phone.tile_width(cv, dm.HAND_SCALES) >= 30
        assert phone.tile_width(cv, [dm.RIVER_SCALE]) >= 14
        assert phone.tile_width(cv, [dm.MELD_SCALE]) >= 14


def test_a_ready_hand_shows_its_waits_and_how_many_of_each_are_unseen():
    state = synthetic(7)
    cv = dm.compose_dm(hand_screen(state.mine, locale="en"))
    for tile, n in state.mine.waits:
        assert tile in cv.faces and f"{n} left" in cv.texts


def test_the_latest_discard_is_framed_in_its_river_and_the_offer_lies_where_the_drawn_tile_would():
    state = synthetic(7)
    seat, tile = state.claim.offer
    cv = dm.compose_dm(hand_screen(state.claim, locale="en"))
    framed = [p for p in cv.placed if p.variant == sprites.LAST]
    assert [(p.tile, p.scale) for p in framed if p.scale == dm.RIVER_SCALE] == [(tile, dm.RIVER_SCALE)]
    assert [p.tile for p in framed if p.scale in dm.HAND_SCALES] == [tile]
    assert any("discarded" in text for text in cv.texts)
    assert not [p for p in cv.placed if p.variant == sprites.DRAWN]  # nothing drawn in a claim window
    own = dm.compose_dm(hand_screen(state.mine, locale="en"))
    assert [p.tile for p in own.placed if p.variant == sprites.DRAWN] == [state.mine.drawn]


def test_another_seats_hidden_tiles_are_one_back_and_a_count():
    state = synthetic(7)
    cv = dm.compose_dm(hand_screen(state.mine, locale="en"))
    for seat in state.mine.seats:
        if seat.seat != state.mine.viewer:
            assert f"×{seat.concealed_count}" in cv.texts
    backs = [p for p in cv.placed if p.tile == sprites.BACK]
    ankongs = sum(len(m.tiles) for s in state.mine.seats for m in s.melds if m.kind is MeldKind.ANKONG)
    assert len(backs) == 3 + ankongs - sum(
        len(m.tiles) for m in state.mine.me.melds if m.kind is MeldKind.ANKONG
    )  # one back per other seat, and their 暗槓 face down (the viewer's own face up)


def _played(rules: str, seed: int = 3):
    """A seeded hand played by the engine's AI, stopping at each of seat 0's views along the way."""
    game = Match(rules, seed=seed).new_hand()
    ai = SimpleAI()
    while not game.is_over:
        yield game
        seat = game.to_act()[0]
        game.apply(ai.choose(game.view(seat), game.legal_actions(seat)))
    yield game


@pytest.mark.parametrize("rules", RULES)
def test_the_picture_shows_no_tile_the_seat_may_not_see(rules):
    """Every face on the picture is one the view holds: the seat's own hand, the open melds, flowers,
    rivers (taken tiles included) and the face-up indicator; never a concealed tile of another seat."""
    for n, game in enumerate(_played(rules)):
        if n % 7:
            continue
        view = game.view(0)
        screen = replace(hand_screen(view), rivers=rivers_as_discarded(game.events, view))
        seen = Counter(view.concealed) + Counter([view.drawn] if view.drawn is not None else [])
        for seat in view.seats:
            seen.update(t for m in seat.melds for t in m.tiles if t != sprites.BACK)
            seen.update(seat.flowers)
        for river in screen.rivers:
            seen.update(t for t, _ in river)
        if view.offer is not None:
            seen[view.offer[1]] += 1
        if view.bonus_indicator is not None:
            seen[view.bonus_indicator] += 1
        seen.update(t for t, _ in view.waits)  # drawn once each beside its count (not a tile anyone holds)
        for hand in (*view.revealed.values(), *view.others.values()):
            seen.update(hand)
        shown = Counter(dm.compose_dm(screen).faces)
        assert not shown - seen, f"{rules}: drawn but not the seat's to see: {shown - seen}"


def test_taken_discards_stay_in_the_river_marked_and_the_rest_is_the_views_river():
    for seed in range(1, 30):
        for game in _played("taiwan16", seed):
            if any(e.kind in (EventKind.PON, EventKind.CHI) for e in game.events):
                break
        else:
            continue
        view = game.view(0)
        rivers = rivers_as_discarded(game.events, view)
        assert any(taken for river in rivers for _, taken in river)
        for seat, river in zip(view.seats, rivers, strict=True):
            assert tuple(t for t, taken in river if not taken) == seat.discards
        return
    pytest.fail("no seeded hand had a claim")


def test_a_settled_hand_shows_the_others_hands_face_up_and_each_seats_change():
    state = synthetic(7)
    hands = {s: tuple(random.Random(s).sample(range(27), 4)) for s in range(4)}
    over = replace(state.mine, phase="over", revealed=hands)
    cv = dm.compose_dm(hand_screen(over, locale="en", result=state.result))
    for seat, hand in hands.items():
        if seat != over.viewer:
            assert Counter(hand) <= Counter(cv.faces)
    winner = state.result.winner
    change = state.result.deltas[winner]
    assert any(f"({change:+,})" in text for text in cv.texts)
