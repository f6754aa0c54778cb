"""Many small writes that arrive together, stored in one round trip (group commit).

Every click stores its move before the person sees it. With one SQLite connection, hundreds of tables'
moves took turns at it one statement at a time, and each turn costs a hop to the database thread and
back through a busy event loop: at 200 tables a click waited seconds behind the others' moves. Here the
requests that arrive while a batch is being written wait for the next batch, and a batch is one
transaction, so the wait is at most one batch whatever the number of tables.

A batch that is refused (a move stored twice: a bug somewhere) is rolled back whole and its requests are
written one by one, so each gets exactly the answer it would have got alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

Request = TypeVar("Request")


class GroupWriter(Generic[Request]):
    """``write_many`` stores a list of requests in one transaction (all or none); ``write_one`` stores one
    request alone, with its own errors. ``submit`` returns once its request is stored."""

    def __init__(
        self,
        write_many: Callable[[list[Request]], Awaitable[None]],
        write_one: Callable[[Request], Awaitable[None]],
    ) -> None:
        self._write_many = write_many
        self._write_one = write_one
        self._waiting: list[tuple[Request, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None

    async def submit(self, request: Request) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((request, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="group-writer")
        await done

    async def _run(self) -> None:
        batch: list[tuple[Request, asyncio.Future[None]]] = []
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                await self._write(batch)
        except asyncio.CancelledError:  # the store is going away: nobody waits for ever
            for _, done in batch + self._waiting:
                done.cancel()
            raise

    async def _write(self, batch: list[tuple[Request, asyncio.Future[None]]]) -> None:
        if len(batch) > 1:
            try:
                await self._write_many([request for request, _ in batch])
            except Exception:  # noqa: BLE001 - each request is written alone below and gets its own answer
                pass
            else:
                for _, done in batch:
                    if not done.done():
                        done.set_result(None)
                return
        for request, done in batch:
            try:
                await self._write_one(request)
            except Exception as error:  # noqa: BLE001 - handed to the one who asked
                if not done.done():
                    done.set_exception(error)
            else:
                if not done.done():
                    done.set_result(None)
