"""A table's clock stops when it is stopped (cogs/mahjong/clock.py)."""

from __future__ import annotations

import asyncio
import time

from cogs.mahjong.clock import Clock


async def test_a_table_clock_cancelled_in_the_turn_it_is_poked_stops():
    """Python 3.11's wait_for lost a cancel that met the awaited event in the same turn of the loop: a
    table's driver stopped (a shutdown, a table handed to another process) just as a click poked it went on
    ticking the table. Its sleep now keeps the cancel."""
    clock = Clock()
    ticks = 0

    async def drive() -> None:
        nonlocal ticks
        while True:
            await clock.sleep(time.time() + 900)
            ticks += 1

    clock.start(drive(), name="table-1")
    await asyncio.sleep(0)  # the driver sleeps now
    clock.poke()
    assert clock.task is not None
    clock.task.cancel()  # in the same turn as the poke
    for _ in range(5):
        await asyncio.sleep(0)
    assert clock.task.cancelled() and ticks == 0
