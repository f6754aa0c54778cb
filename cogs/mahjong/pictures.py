"""Where the bot's pictures are drawn: in threads, or in worker processes on a machine with cores to spare.

Drawing and PNG-encoding is about 40 % of the bot's CPU. In a thread it holds the event loop's GIL, so
once one core is busy every click waits behind other tables' pictures; a worker process draws on
another core. ``picture_workers`` (``MAHJONG_PICTURE_WORKERS``) chooses: 0 draws in threads (the
default for tests and one-core machines), N starts N ``python -m render.worker`` processes.

The workers are fed through their pipes by the event loop itself (asyncio subprocess streams): the
stdlib's process pool feeds its workers from a thread, and each picture then cost the loop a GIL
hand-off of about 3 ms (measured: 2.4 s of 60 in a 20-table run), as much as drawing it. A worker that
dies or fails a picture is not fatal: that picture is drawn in a thread and the worker started again.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import os
import pickle
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import render
from render.worker import DRAWINGS, HEADER, frame

log = logging.getLogger(__name__)
PROJECT = Path(render.__file__).resolve().parents[1]


def default_workers() -> int:
    """One worker where there is a second core: it takes the pictures off the event loop's core."""
    return 1 if (os.cpu_count() or 1) >= 2 else 0


# what goes first when pictures queue (hundreds of hands starting at once): a hand someone waits for,
# then a score sheet, then the table pictures
PRIORITY = {"render_dm": 0, "render_hand": 0, "render_score": 1, "render_table": 2}
# pictures in a worker's pipe at once: enough that it never idles while the loop hands it the next
# (the answer's reader writes it, in the same turn of the loop); the rest wait in the bot, by priority
DEPTH = 4


class _Worker:
    """One ``render.worker`` process and the pictures asked of it, answered in order."""

    def __init__(self, warm: bool = True) -> None:
        self.warm = warm  # it fills its caches before its first picture (render.warm_up)
        self.process: asyncio.subprocess.Process | None = None
        self.waiting: dict[int, asyncio.Future[bytes]] = {}  # given to the process, not yet answered
        self.queue: list[tuple[int, int, bytes, asyncio.Future[bytes]]] = []  # (priority, number, frame, done)
        self.numbers = itertools.count()
        self.reader: asyncio.Task[None] | None = None
        self.starting: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.starting is None or (self.starting.done() and not self.alive):
            self.starting = asyncio.ensure_future(self._start())
        await self.starting

    async def _start(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()  # a worker whose answers could not be read: start afresh
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "render.worker",
            *(() if self.warm else ("--cold",)),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=PROJECT,  # wherever the bot was started from, ``-m render.worker`` finds this project
        )
        self.reader = asyncio.create_task(self._read(self.process), name="picture-worker-reader")

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None and not self._reader_done

    @property
    def _reader_done(self) -> bool:
        return self.reader is None or self.reader.done()

    @property
    def load(self) -> int:
        return len(self.waiting) + len(self.queue)

    async def draw(self, name: str, args: tuple, kwargs: dict) -> bytes:
        await self.start()
        number = next(self.numbers)
        done: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        heapq.heappush(self.queue, (PRIORITY.get(name, len(PRIORITY)), number, frame((number, name, args, kwargs)), done))
        self._feed()
        try:
            return await done
        finally:
            self.waiting.pop(number, None)  # a picture nobody waits for any more is skipped when its turn comes

    def _feed(self) -> None:
        """Give the process the most urgent pictures while its pipe has room."""
        process = self.process
        while self.queue and len(self.waiting) < DEPTH:
            _, number, data, done = heapq.heappop(self.queue)
            if done.done():
                continue
            if process is None or process.stdin is None or not self.alive:
                done.set_exception(RuntimeError("the picture worker is not running"))
                continue
            self.waiting[number] = done
            process.stdin.write(data)

    async def _read(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None
        try:
            while True:
                header = await process.stdout.readexactly(HEADER)
                number, png, error = pickle.loads(await process.stdout.readexactly(int.from_bytes(header, "big")))
                done = self.waiting.pop(number, None)
                if done is not None and not done.done():
                    if error is None:
                        done.set_result(png)
                    else:
                        done.set_exception(RuntimeError(error))
                self._feed()
        except (asyncio.IncompleteReadError, ConnectionError) as gone:
            for done in [*self.waiting.values(), *(item[3] for item in self.queue)]:
                if not done.done():
                    done.set_exception(RuntimeError(f"the picture worker stopped: {gone}"))
            self.waiting.clear()
            self.queue.clear()

    async def close(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        if process.stdin is not None:
            process.stdin.close()  # the worker's read ends: it exits
        try:
            await asyncio.wait_for(process.wait(), 5)
        except TimeoutError:
            process.kill()
            await process.wait()
        if self.reader is not None:
            self.reader.cancel()


class Painter:
    """``await painter.draw(render.render_dm, screen)``: the drawing function's bytes."""

    def __init__(self, workers: int = 0, *, warm: bool = True) -> None:
        self.workers = [_Worker(warm) for _ in range(workers)]

    async def draw(self, draw: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        name = getattr(draw, "__name__", "")
        if not self.workers or DRAWINGS.get(name) is not draw:
            return await asyncio.to_thread(draw, *args, **kwargs)
        worker = min(self.workers, key=lambda w: w.load)  # the least busy
        try:
            return await worker.draw(name, args, kwargs)
        except (RuntimeError, OSError, pickle.PicklingError) as failed:
            log.warning("a picture worker failed (%s); this picture is drawn here", failed)
            return await asyncio.to_thread(draw, *args, **kwargs)

    async def warm_up(self) -> None:
        """Every worker started and warm (it warms its caches before it reads its first request): the
        first hands after a start are drawn at full speed. Threads share the bot's caches, which the
        bot warms itself."""
        await asyncio.gather(*(worker.draw("ready", (), {}) for worker in self.workers))

    async def close(self) -> None:
        await asyncio.gather(*(worker.close() for worker in self.workers))


THREADS = Painter(0)  # the painter of code that runs without a bot (tests of payloads, tools)
