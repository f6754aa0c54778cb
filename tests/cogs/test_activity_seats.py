"""Which seat the Activity opens (cogs/mahjong/webtables.py ``seat_of``): a person sits at one table a server,
so in several servers at several; the table whose "Play in Discord" they clicked comes first, then the one in
the channel the Activity runs in, else their latest. A table that closed, or one they left, is no seat."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cogs.mahjong.webtables import RunningTables

ALICE = 42


def running(table: int, channel: int, seat: int | None, *, closed: bool = False, left: bool = False) -> Any:
    """A runner as ``seat_of`` reads it: its seats screen, its phase and its channel."""
    seats = SimpleNamespace(
        table_id=table,
        left=frozenset({ALICE}) if left else frozenset(),
        seat_of_user=lambda user: seat if user == ALICE else None,
    )
    session = SimpleNamespace(screen=lambda who: seats, phase=SimpleNamespace(closed=closed))
    return SimpleNamespace(session=session, state=SimpleNamespace(channel_id=channel))


class Registry:
    def __init__(self, *runners: Any) -> None:
        self.runners = runners

    def get(self, table_id: int) -> Any:
        return next((r for r in self.runners if r.session.screen(0).table_id == table_id), None)

    def __iter__(self) -> Any:
        return iter(self.runners)


def test_the_launched_table_then_the_channel_then_the_latest() -> None:
    seats = RunningTables(Registry(running(3, 100, 1), running(7, 200, 2), running(5, 300, 0)))
    assert seats.seat_of(ALICE, None) == (7, 2)  # her latest
    assert seats.seat_of(ALICE, 300) == (5, 0)  # the Activity's channel
    assert seats.seat_of(ALICE, 300, table=3) == (3, 1)  # the table whose button she clicked
    assert seats.seat_of(ALICE, None, table=99) == (7, 2)  # a table she no longer sits at: her latest
    assert seats.seat_of(ALICE + 1, 100) is None  # someone at no table


def test_a_closed_table_and_one_she_left_are_not_her_seat() -> None:
    seats = RunningTables(Registry(running(3, 100, 1, closed=True), running(7, 200, 2, left=True)))
    assert seats.seat_of(ALICE, 100, table=3) is None
    assert RunningTables(Registry(running(3, 100, None))).seat_of(ALICE, 100) is None
