"""PendingWrites: while storage fails, writes wait in order, the channel is told once, and the backlog is
retried until it drains; with a fake failing store, and once with a really locked database of each kind."""

from __future__ import annotations

import asyncio
import logging

import pytest

from data import DuplicateMove, StoreError, StoreFull, StoreLocked
from data.pending import PendingWrites
from data.store import Store
from tests.data.conftest import locked, new_table

FAST = (0.001, 0.002, 0.004)


class FakeStore:
    """Stores values in a list; fails every write while ``failure`` is set."""

    def __init__(self) -> None:
        self.stored: list[object] = []
        self.attempts = 0
        self.failure: StoreError | None = None
        self.tried = asyncio.Event()

    async def put(self, value: object) -> object:
        self.attempts += 1
        self.tried.set()
        if self.failure is not None:
            raise self.failure
        self.stored.append(value)
        return value

    async def failed_attempts(self, count: int) -> None:
        """Wait until ``count`` more attempts have been made."""
        for _ in range(count):
            self.tried.clear()
            await asyncio.wait_for(self.tried.wait(), 5)


class Events:
    def __init__(self) -> None:
        self.log: list[str] = []

    def failure(self, error: StoreError) -> None:
        self.log.append(f"failure: {type(error).__name__}")

    async def recovered(self) -> None:
        self.log.append("recovered")


def pending_for(events: Events) -> PendingWrites:
    return PendingWrites(on_failure=events.failure, on_recovered=events.recovered, delays=FAST, name="t")


async def test_healthy_writes_are_stored_at_once() -> None:
    store, events = FakeStore(), Events()
    pending = pending_for(events)
    future = await pending.write(lambda: store.put("a"))
    assert future.done() and future.result() == "a"
    assert store.stored == ["a"] and not pending.failing and events.log == []


async def test_failing_writes_wait_in_order_and_drain_when_storage_works() -> None:
    store, events = FakeStore(), Events()
    pending = pending_for(events)
    await pending.write(lambda: store.put(0))
    store.failure = StoreLocked("x.sqlite3")
    futures = [await pending.write(lambda n=n: store.put(n)) for n in range(1, 6)]
    assert pending.failing and pending.backlog == 5
    assert not any(f.done() for f in futures)
    await store.failed_attempts(3)  # it keeps retrying ...
    assert events.log == ["failure: StoreLocked"]  # ... but tells the channel once
    assert store.stored == [0]
    store.failure = None
    assert await pending.drain(timeout=5)
    assert store.stored == [0, 1, 2, 3, 4, 5]
    assert [f.result() for f in futures] == [1, 2, 3, 4, 5]
    assert events.log == ["failure: StoreLocked", "recovered"]
    assert not pending.failing and pending.last_error is None


async def test_a_later_write_can_use_an_earlier_writes_result() -> None:
    store, events = FakeStore(), Events()
    pending = pending_for(events)
    store.failure = StoreFull("x.sqlite3")
    hand = await pending.write(lambda: store.put(41))
    move = await pending.write(lambda: store.put(("move of hand", hand.result() + 1)))
    store.failure = None
    assert await pending.drain(timeout=5)
    assert move.result() == ("move of hand", 42)


async def test_each_outage_is_reported_once() -> None:
    store, events = FakeStore(), Events()
    pending = pending_for(events)
    for error in (StoreLocked("x"), StoreFull("x")):
        store.failure = error
        await pending.write(lambda: store.put("w"))
        await pending.write(lambda: store.put("w"))
        await store.failed_attempts(2)
        store.failure = None
        assert await pending.drain(timeout=5)
    assert events.log == ["failure: StoreLocked", "recovered", "failure: StoreFull", "recovered"]
    assert store.stored == ["w"] * 4


async def test_a_conflict_is_raised_not_retried() -> None:
    store, events = FakeStore(), Events()
    pending = pending_for(events)
    store.failure = DuplicateMove("x", 1, 0)
    with pytest.raises(DuplicateMove):
        await pending.write(lambda: store.put("again"))
    assert not pending.failing and events.log == [] and store.attempts == 1


async def test_a_write_that_can_never_succeed_is_dropped_from_the_backlog(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store, events = FakeStore(), Events()
    pending = pending_for(events)
    store.failure = StoreLocked("x")
    first = await pending.write(lambda: store.put(1))
    doomed_calls = 0

    async def doomed() -> None:
        nonlocal doomed_calls
        doomed_calls += 1
        raise DuplicateMove("x", 1, 1)

    bad = await pending.write(doomed)
    last = await pending.write(lambda: store.put(3))
    store.failure = None
    with caplog.at_level(logging.ERROR, logger="mahjong.data.pending"):
        assert await pending.drain(timeout=5)
    assert store.stored == [1, 3] and first.result() == 1 and last.result() == 3
    assert isinstance(bad.exception(), DuplicateMove) and doomed_calls == 1
    assert "can never succeed" in caplog.text


async def test_drain_times_out_while_failing_and_close_reports_what_is_lost() -> None:
    store, events = FakeStore(), Events()
    pending = pending_for(events)
    store.failure = StoreLocked("x")
    waiting = [await pending.write(lambda n=n: store.put(n)) for n in range(3)]
    assert not await pending.drain(timeout=0.01)
    assert await pending.close() == 3
    assert all(f.cancelled() for f in waiting)
    assert not pending.failing and store.stored == []


async def test_callback_errors_do_not_break_the_writes(caplog: pytest.LogCaptureFixture) -> None:
    store = FakeStore()

    def broken(error: StoreError) -> None:
        raise RuntimeError("channel gone")

    pending = PendingWrites(on_failure=broken, delays=FAST)
    store.failure = StoreLocked("x")
    with caplog.at_level(logging.ERROR, logger="mahjong.data.pending"):
        await pending.write(lambda: store.put(1))
    store.failure = None
    assert await pending.drain(timeout=5)
    assert store.stored == [1] and "callback" in caplog.text


async def test_a_really_locked_file_keeps_moves_in_memory_then_stores_them_all(target: str) -> None:
    store = await Store.open(target, busy_timeout=0.05)
    table = await new_table(store, [1, 2, 3, 4])
    events = Events()
    pending = pending_for(events)
    hand = await pending.write(lambda: store.start_hand(table.id, 1, {"seed": 1}))
    await pending.write(lambda: store.append_action(hand.result(), 0, "0 discard 1m", 10.0))
    async with locked(target):
        for move in range(1, 4):
            await pending.write(
                lambda move=move: store.append_action(hand.result(), move, f"{move} discard 2m", 10.0 + move)
            )
        assert pending.failing and events.log == ["failure: StoreLocked"]
    assert await pending.drain(timeout=10)
    [saved] = await store.unfinished_tables()
    assert saved.hands[0].actions == ["0 discard 1m", "1 discard 2m", "2 discard 2m", "3 discard 2m"]
    assert saved.hands[0].deadline == 13.0
    assert events.log == ["failure: StoreLocked", "recovered"]
    await store.close()
