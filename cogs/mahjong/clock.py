"""A table's own clock: one task per table that sleeps until the session's next wake-up (``WakeAt``), or
until anything else changed the table (``poke``), and then lets its host tick the session.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine
from typing import Any


class Clock:
    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.at: float | None = None  # the session's next wake-up, from its last effects
        self.task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        """Something changed the table: tick it again now."""
        self.event.set()

    def want(self, at: float) -> None:
        self.at = at if self.at is None else min(self.at, at)

    def start(self, drive: Coroutine[Any, Any, None], name: str) -> None:
        self.task = asyncio.create_task(drive, name=name)

    async def sleep(self, at: float | None) -> None:
        """Until ``at`` (epoch seconds; None: until poked), or a poke, whichever comes first."""
        left = None if at is None else at - time.time()
        if left is None:
            await self.event.wait()
        else:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(left):  # not wait_for: in 3.11 it loses a cancel that meets a poke
                    await self.event.wait()
        self.event.clear()

    async def stop(self) -> None:
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
