"""Where the bot's pictures are drawn: in threads, or in worker processes on a machine with cores to spare.

Drawing and PNG-encoding is about 40 % of the bot's CPU. In a thread it shares the event loop's GIL, so
once one core is busy every click waits behind other tables' pictures; a worker process draws on
another core. ``picture_workers`` (``MAHJONG_PICTURE_WORKERS``) chooses: 0 draws in threads (the
default for tests and one-core machines), N starts N workers that warm their caches first. The workers
are spawned, not forked: the bot's process already runs threads (SQLite's, the gateway heartbeat).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
from collections.abc import Callable
from functools import partial
from typing import Any

import render


def default_workers() -> int:
    """One worker where there is a second core: it takes the pictures off the event loop's core."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


class Painter:
    """``await painter.draw(render.render_hand, view, locale=...)``: the drawing function's bytes."""

    def __init__(self, workers: int = 0) -> None:
        self.workers = workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        if workers > 0:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                workers, mp_context=multiprocessing.get_context("spawn"), initializer=render.warm_up
            )

    async def draw(self, draw: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        if self._pool is None:
            return await asyncio.to_thread(draw, *args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, partial(draw, *args, **kwargs))

    async def warm_up(self) -> None:
        """Every worker started and warm (about 1.5 s each, in parallel); threads share the bot's caches,
        which the bot warms itself."""
        if self._pool is None:
            return
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._pool, abs, n) for n in range(self.workers)))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


THREADS = Painter(0)  # the painter of code that runs without a bot (tests of payloads, tools)
