"""Turns to IDENTIFY: Discord starts at most one session per rate-limit bucket (``shard_id % max_concurrency``)
every 5 seconds for the whole application, and answers op 9 to the rest, which then wait and try again,
spending one of the day's 1,000 IDENTIFYs each time. Processes that share the database take turns instead:

    turns = IdentifyTurns(pool, hold=5.5)     # pool: the store's asyncpg pool; None: this process alone
    await turns.take(shard_id % max_concurrency)   # returns when this bucket is ours; send IDENTIFY now
    await turns.close()                            # at shutdown: turns held or waited for are let go

A turn is a PostgreSQL advisory lock per bucket, taken in a transaction on one of the pool's connections
and held ``hold`` seconds after it is granted (Discord's 5 s and a margin for the IDENTIFY's own trip), so
the next process's IDENTIFY reaches Discord after the window. A transaction-level lock, not a session-level
one: it works through transaction-mode poolers (pgbouncer), and it ends with its connection, so a process
that dies holding a turn frees it at once (the next IDENTIFY may then come early and be refused once; the
leases' reasons against advisory locks, data/leases.py, are about locks held for hours, not seconds).
Within one process an asyncio lock per bucket keeps its own shards in line, which is all a process
without a shared database needs. A database that cannot be reached, or a wait past ``wait`` seconds,
gives the turn anyway (with a warning): a refused IDENTIFY is retried, a bot that never connects is not.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import asyncpg

from data.postgres import CLUSTER_ERRORS

log = logging.getLogger(__name__)

IDENTIFY_LOCK = 0x6D6A6964  # the advisory locks' first key ("mjid"); the second is the bucket
HOLD = 5.5  # seconds a turn is held after it is granted: Discord's 5 s window and a margin
WAIT = 240.0  # seconds a turn is waited for at most (below discord.py's shard connect timeout, 300 here)


@dataclass
class IdentifyTurns:
    pool: asyncpg.Pool | None
    hold: float = HOLD
    wait: float = WAIT
    _local: dict[int, asyncio.Lock] = field(default_factory=dict)
    _held: set[asyncio.Task[None]] = field(default_factory=set)

    async def take(self, bucket: int) -> float:
        """Wait for the bucket's turn; the seconds waited. The turn is held ``hold`` seconds from now."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        granted: asyncio.Future[None] = loop.create_future()
        task = asyncio.create_task(self._turn(bucket, granted), name=f"identify-turn-{bucket}")
        self._held.add(task)
        task.add_done_callback(self._held.discard)
        try:
            await granted
        except asyncio.CancelledError:
            task.cancel()
            raise
        return loop.time() - began

    async def _turn(self, bucket: int, granted: asyncio.Future[None]) -> None:
        def grant() -> None:
            if not granted.done():
                granted.set_result(None)

        try:
            await self._held_turn(bucket, grant)
        finally:  # let go before its turn came (a shutdown): the waiter is cancelled, not left waiting
            if not granted.done():
                granted.cancel()

    async def _held_turn(self, bucket: int, grant: Callable[[], None]) -> None:
        async with self._local.setdefault(bucket, asyncio.Lock()):
            if self.pool is not None:
                had = False
                try:
                    async with self.pool.acquire() as connection, connection.transaction():
                        await connection.execute(f"SET LOCAL lock_timeout = '{max(1, int(self.wait * 1000))}ms'")
                        await connection.execute("SELECT pg_advisory_xact_lock($1, $2)", IDENTIFY_LOCK, bucket)
                        grant()
                        had = True
                        await asyncio.sleep(self.hold)
                    return
                except CLUSTER_ERRORS as error:
                    if had:  # the turn was had; only its release went wrong (it ends with the connection)
                        return
                    log.warning(
                        "could not take a turn to identify from the database (%s); identifying anyway, "
                        "which Discord may refuse once if another process identifies now",
                        " ".join(str(error).split()) or type(error).__name__,
                    )
            grant()
            await asyncio.sleep(self.hold)

    async def close(self) -> None:
        for task in list(self._held):
            task.cancel()
        if self._held:
            await asyncio.gather(*self._held, return_exceptions=True)
