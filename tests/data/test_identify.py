"""Turns to IDENTIFY (data/identify.py): processes on one PostgreSQL database take Discord's rate-limit buckets
in turn, a turn held for its hold (long here, so the test decides when it ends by closing the holder)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import asyncpg
import pytest

from data.identify import IDENTIFY_LOCK, IdentifyTurns

LONG = 600.0  # a turn outlasts the test unless its holder lets it go


@pytest.fixture
async def pools(pg_target: str) -> AsyncIterator[list[asyncpg.Pool]]:
    opened = [await asyncpg.create_pool(pg_target, min_size=1, max_size=2) for _ in range(3)]
    yield opened
    for pool in opened:
        pool.terminate()  # a pool whose connection the test ended has nothing to close cleanly


async def waiting_for(pool: asyncpg.Pool, bucket: int) -> None:
    """Until another connection waits for the bucket's lock."""
    query = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = $1 AND objid = $2"
    for _ in range(500):
        if await pool.fetchval(query, IDENTIFY_LOCK, bucket):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"nobody waits for bucket {bucket}")


async def test_a_bucket_is_one_process_at_a_time_and_other_buckets_do_not_wait(pools) -> None:
    first, second = IdentifyTurns(pools[0], hold=LONG), IdentifyTurns(pools[1], hold=LONG)
    try:
        await first.take(0)
        later = asyncio.create_task(second.take(0))
        await waiting_for(pools[2], 0)  # the second process waits in PostgreSQL for the first's turn
        assert not later.done()
        await asyncio.wait_for(second.take(1), 30)  # another bucket: at once
        await first.close()  # the first process's turn ends (its hold, or it stops)
        await asyncio.wait_for(later, 30)
    finally:
        await first.close()
        await second.close()


async def test_a_turn_ends_with_its_connection_when_a_process_dies(pools) -> None:
    first, second = IdentifyTurns(pools[0], hold=LONG), IdentifyTurns(pools[1], hold=LONG)
    try:
        await first.take(3)
        later = asyncio.create_task(second.take(3))
        await waiting_for(pools[2], 3)
        holder = await pools[2].fetchval(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND classid = $1 AND objid = 3",
            IDENTIFY_LOCK,
        )
        await pools[2].execute("SELECT pg_terminate_backend($1)", holder)  # as a SIGKILL ends its connections
        await asyncio.wait_for(later, 30)
    finally:
        await first.close()
        await second.close()


async def test_shards_of_one_process_take_turns_without_a_database() -> None:
    turns = IdentifyTurns(None, hold=LONG)
    try:
        await turns.take(0)
        later = asyncio.create_task(turns.take(0))
        await asyncio.wait_for(turns.take(1), 5)
        assert not later.done()
        await turns.close()
        with pytest.raises(asyncio.CancelledError):  # its turn was let go with the rest at shutdown
            await later
    finally:
        await turns.close()


async def test_a_database_that_cannot_be_reached_still_gives_the_turn(pools, caplog) -> None:
    await pools[0].close()
    turns = IdentifyTurns(pools[0], hold=LONG)
    try:
        with caplog.at_level(logging.WARNING, logger="data.identify"):
            await asyncio.wait_for(turns.take(0), 10)
        assert "identifying anyway" in caplog.text
    finally:
        await turns.close()
