"""engine.frozen.maker builds frozen dataclasses that are indistinguishable from their __init__'s."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass

import pytest

from engine.events import Phase
from engine.frozen import maker
from engine.meld import Meld, MeldKind
from engine.rules import TableOptions
from engine.view import GameView, SeatPublic

SEAT = (2, 1, (Meld(MeldKind.PON, (4, 4, 4), 4, 1),), (34,), (5, 27), 13, True, False, False, False, 300)


def test_a_made_seat_is_a_seat_equal_hashable_and_frozen():
    made, built = maker(SeatPublic)(*SEAT), SeatPublic(*SEAT)
    assert type(made) is SeatPublic and made == built and hash(made) == hash(built) and repr(made) == repr(built)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.score = 0  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(made)) == built and copy.deepcopy(made) == built
    assert dataclasses.replace(made, score=5) == SeatPublic(*SEAT[:-1], 5)


def test_a_made_view_equals_the_built_one_field_by_field():
    seat = SeatPublic(*SEAT)
    fields = (2, "taiwan16", 0, 3, 1, 0, 40, (seat,) * 4, 1, Phase.CLAIM, (1, 5), (0, 1, 2), None, ((3, 2),),
              {}, 16, TableOptions(min_tai=3), None, {}, (1, 5), True, (0, "八仙過海"))  # fmt: skip
    made, built = maker(GameView)(*fields), GameView(*fields)
    assert type(made) is GameView and made == built
    assert [getattr(made, f.name) for f in dataclasses.fields(GameView)] == list(fields)


def test_every_field_must_be_given_in_order():
    with pytest.raises(TypeError):
        maker(SeatPublic)(*SEAT[:-1])  # no default is filled in


def test_only_frozen_slotted_dataclasses_without_post_init():
    @dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclass(slots=True)
    class Thawed:
        a: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        a: int

        def __post_init__(self) -> None:
            raise ValueError

    for cls in (NoSlots, Thawed, Checked, int):
        with pytest.raises(TypeError):
            maker(cls)
