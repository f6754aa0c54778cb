"""A session's screens read the hand's events incrementally (table/screens.py ``HandReads``, issue 43): after
every move of real hands, for every seat, what it reads is what a walk of the whole history reads. The
reference walks below are the whole-history versions the screens used before."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engine.events import Event, EventKind
from engine.game import Game
from engine.policy import make_policy
from engine.rules import TableOptions
from engine.view import GameView
from table.screens import HandReads, Move, exchanged_tiles, feed_moves, rivers_as_discarded

from .transcript import ALICE, started

_FED = {EventKind.DISCARD, EventKind.CHI, EventKind.PON, EventKind.KONG, EventKind.ANKONG, EventKind.ADDKONG,
        EventKind.READY, EventKind.EYE}
_MELDED = (EventKind.CHI, EventKind.PON, EventKind.KONG, EventKind.ANKONG, EventKind.ADDKONG)
_CLAIMS = (EventKind.CHI, EventKind.PON, EventKind.KONG)


def whole_feed(events: Sequence[Event], viewer: int) -> tuple[Move, ...]:
    drawn: list[int | None] = [None] * 4
    out = []
    for i, event in enumerate(events):
        seat = event.seat
        if seat is None:
            continue
        tsumogiri = False
        if event.kind is EventKind.DRAW:
            drawn[seat] = event.tile
        elif event.kind is EventKind.DISCARD:
            tsumogiri = drawn[seat] is not None and drawn[seat] == event.tile
            drawn[seat] = None
        elif event.kind in _MELDED:
            drawn[seat] = None
        if seat != viewer and event.kind in _FED:
            out.append(Move(i, Event(EventKind.ANKONG, seat) if event.kind is EventKind.ANKONG else event, tsumogiri))
    return tuple(out)


def whole_rivers(events: Sequence[Event], view: GameView) -> tuple[tuple[tuple[int, bool], ...], ...]:
    made: list[list[list[Any]]] = [[] for _ in view.seats]
    last: list[Any] | None = None
    for event in events:
        if event.kind is EventKind.DISCARD and event.seat is not None and event.tile is not None:
            last = [event.tile, False]
            made[event.seat].append(last)
        elif event.kind in _CLAIMS and last is not None:
            last[1], last = True, None
    for seat, river in zip(view.seats, made, strict=True):
        left = iter(seat.discards)
        want = next(left, None)
        for item in river:
            if item[1]:
                continue
            if item[0] == want:
                want = next(left, None)
            else:
                item[1] = True
    return tuple(tuple((t, c) for t, c in river) for river in made)


def whole_exchanged(events: Sequence[Event], viewer: int) -> tuple[int, ...] | None:
    drawn: tuple[int, ...] | None = None
    done = False
    for event in events:
        if event.kind is EventKind.DRAW and event.detail == "換牌" and event.seat == viewer:
            drawn = event.tiles
        elif event.kind is EventKind.EXCHANGED:
            done = True
        elif done and event.seat == viewer and event.kind in (*_MELDED, EventKind.DISCARD):
            return None
    return (drawn or ()) if done else None


def played(rules: str, seed: int, options: TableOptions) -> tuple[set[EventKind], int]:
    """Play one hand with random seats, checking every seat's reads after every move; the kinds of event met."""
    game = Game(rules, seed=seed, options=options)
    policies = [make_policy("random", random.Random(seed * 4 + n)) for n in range(4)]
    reads = HandReads()
    kinds: set[EventKind] = set()
    checks = 0
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(policies[seat].choose(game.view(seat), game.legal_actions(seat)))
        for viewer in range(4):
            view = game.view(viewer)
            assert reads.moves(game.events, viewer) == whole_feed(game.events, viewer)
            assert reads.rivers(game.events, view) == whole_rivers(game.events, view)
            assert reads.exchanged(game.events, viewer) == whole_exchanged(game.events, viewer)
            checks += 1
    kinds.update(e.kind for e in game.events)
    return kinds, checks


@pytest.mark.parametrize("rules", ["taiwan16", "hongkong", "guangdong"])
def test_reading_a_hand_move_by_move_reads_what_its_whole_history_says(rules):
    kinds: set[EventKind] = set()
    for seed in range(6):
        met, checks = played(rules, seed, TableOptions())
        kinds |= met
        assert checks > 20
    assert {EventKind.CHI if rules != "guangdong" else EventKind.PON, EventKind.PON, EventKind.DISCARD} <= kinds


def test_after_the_exchange_each_seat_reads_what_came_back_until_its_first_move():
    kinds: set[EventKind] = set()
    for seed in range(4):
        kinds |= played("taiwan16", seed, TableOptions(exchange=True))[0]
    assert EventKind.EXCHANGED in kinds


def test_another_list_or_one_not_grown_from_the_last_is_read_afresh():
    game = Game(seed=3)
    policies = [make_policy("random", random.Random(n)) for n in range(4)]
    for _ in range(30):
        seat = game.to_act()[0]
        game.apply(policies[seat].choose(game.view(seat), game.legal_actions(seat)))
    reads = HandReads()
    events = list(game.events)
    assert reads.moves(events, 0) == feed_moves(events, 0)
    shorter = events[:-5]  # another list
    assert reads.moves(shorter, 0) == feed_moves(shorter, 0)
    events[len(events) // 2 :] = []  # the same list, cut: not the list read before, grown
    assert reads.moves(events, 1) == feed_moves(events, 1)
    events.append(Event(EventKind.DISCARD, 2, 5))
    events.insert(0, Event(EventKind.DISCARD, 3, 9))  # changed in front, one longer again
    assert reads.moves(events, 0) == feed_moves(events, 0)
    view = game.view(0)
    assert reads.rivers(game.events, view) == rivers_as_discarded(game.events, view)
    assert reads.exchanged(game.events, 0) == exchanged_tiles(game.events, 0) is None


def test_a_sessions_screens_read_each_new_hand_from_its_own_events():
    host = started()
    seat = host.seat(ALICE)
    host.run_until(lambda h: len(h.session.screen(seat).moves) >= 4)
    first = host.session.game
    assert first is not None
    assert host.session.screen(seat).moves == whole_feed(first.events, seat)
    hand = first.hand_number
    host.run_until(lambda h: h.session.game is not None and h.session.game.hand_number > hand)
    game = host.session.game
    assert game is not None and game is not first
    screen = host.session.screen(seat)
    assert screen.moves == whole_feed(game.events, seat)
    assert screen.rivers == whole_rivers(game.events, screen.view)
