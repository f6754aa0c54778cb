"""Writes of one table, kept in order while storage fails, so play goes on in memory.

The table runner sends every write through its table's :class:`PendingWrites`:

    hand = await pending.write(lambda: store.start_hand(table_id, 1, header))
    await pending.write(lambda: store.append_action(hand.result(), 0, "0 discard 5m", deadline))

``write`` runs the write at once when nothing is waiting and returns a future that already holds its
result. When the write raises a retryable :class:`~data.errors.StoreError` (locked, read-only, full,
corrupt), the write and every later one wait in memory, in order; ``on_failure(error)`` is called once
(tell the channel results may not be saved), the backlog is retried with backoff, and
``on_recovered()`` is called when it has drained. Each write is one transaction in the store, so a
retried write is never half-stored. Factories are called only when their turn comes, which is why a
later write may read an earlier write's ``future.result()``.

A non-retryable error (a conflict such as a move number used twice) is a bug in the caller: raised at
once when the write runs directly, logged and dropped (its future gets the error) when it runs from the
backlog, so one bad write cannot stall a table forever.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from data.errors import StoreError

log = logging.getLogger("mahjong.data.pending")

T = TypeVar("T")
Write = Callable[[], Awaitable[Any]]
DEFAULT_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)  # then every 30 s until it works


class PendingWrites:
    """An ordered queue of write coroutine factories for one table."""

    def __init__(
        self,
        *,
        on_failure: Callable[[StoreError], Any] | None = None,
        on_recovered: Callable[[], Any] | None = None,
        delays: Sequence[float] = DEFAULT_DELAYS,
        name: str = "",
    ) -> None:
        if not delays:
            raise ValueError("delays must name at least one wait")
        self._on_failure = on_failure
        self._on_recovered = on_recovered
        self._delays = tuple(delays)
        self._name = name
        self._backlog: deque[tuple[Write, asyncio.Future[Any]]] = deque()
        self._lock = asyncio.Lock()  # a direct write and the retry loop never run at once
        self._retry: asyncio.Task[None] | None = None
        self._drained = asyncio.Event()
        self._drained.set()
        self.last_error: StoreError | None = None

    @property
    def failing(self) -> bool:
        """True while writes are waiting for storage to work again."""
        return bool(self._backlog)

    @property
    def backlog(self) -> int:
        return len(self._backlog)

    async def write(self, factory: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        """Store now, or queue behind the writes already waiting. See the module docstring."""
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        if self._backlog:
            self._backlog.append((factory, future))
            return future
        async with self._lock:
            if self._backlog:  # a failure began while we waited for the lock
                self._backlog.append((factory, future))
                return future
            try:
                result = await factory()
            except StoreError as error:
                if not error.retryable:
                    raise
                self._backlog.append((factory, future))
                await self._start_outage(error)
                return future
            future.set_result(result)
            return future

    async def drain(self, timeout: float | None = None) -> bool:
        """Wait until nothing is waiting (e.g. before shutdown); False if ``timeout`` ran out first."""
        try:
            await asyncio.wait_for(self._drained.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def close(self) -> int:
        """Stop retrying; returns how many writes were still waiting (and are now lost)."""
        if self._retry is not None:
            self._retry.cancel()
            try:
                await self._retry
            except asyncio.CancelledError:
                pass
            self._retry = None
        lost = len(self._backlog)
        for _, future in self._backlog:
            future.cancel()
        self._backlog.clear()
        self._drained.set()
        if lost:
            log.warning("table %s: %d writes were never stored", self._name, lost)
        return lost

    # ------------------------------------------------------------------ failure and retries

    async def _start_outage(self, error: StoreError) -> None:
        self.last_error = error
        self._drained.clear()
        log.warning("table %s: storage failing, keeping writes in memory: %s", self._name, error)
        await _call(self._on_failure, error)
        self._retry = asyncio.get_running_loop().create_task(
            self._retry_backlog(), name=f"pending-writes {self._name}"
        )

    async def _retry_backlog(self) -> None:
        attempt = 0
        while self._backlog:
            await asyncio.sleep(self._delays[min(attempt, len(self._delays) - 1)])
            async with self._lock:
                while self._backlog:
                    factory, future = self._backlog[0]
                    try:
                        result = await factory()
                    except StoreError as error:
                        if error.retryable:
                            self.last_error = error
                            attempt += 1
                            log.info("table %s: retry %d failed: %s", self._name, attempt, error)
                            break
                        self._drop(future, error)
                    except Exception as error:  # a bug in a factory: never let it stall the table
                        self._drop(future, error)
                    else:
                        self._backlog.popleft()
                        future.set_result(result)
                        attempt = 0
        self._retry = None
        self.last_error = None
        self._drained.set()
        log.warning("table %s: storage works again; every waiting write is stored", self._name)
        await _call(self._on_recovered)

    def _drop(self, future: asyncio.Future[Any], error: BaseException) -> None:
        self._backlog.popleft()
        log.error("table %s: dropped a write that can never succeed", self._name, exc_info=error)
        future.set_exception(error)
        future.exception()  # retrieved: the log line above is the report


async def _call(callback: Callable[..., Any] | None, *args: Any) -> None:
    """Call a sync or async callback; its own errors are logged, never raised into the write path."""
    if callback is None:
        return
    try:
        outcome = callback(*args)
        if inspect.isawaitable(outcome):
            await outcome
    except Exception:
        log.exception("pending-writes callback %r failed", callback)
