"""A table's writes to storage, kept in the order they happened.

The runner records each change as it applies it (``record`` never waits), and a click is answered only
after ``flush()``: the move is stored before the person sees its effect. When storage fails,
``data.PendingWrites`` keeps the writes in order and retries; the table goes on in memory and the
channel is told (``on_failure``/``on_recovered``).

With several processes (ownership.py), a table's lease may pass to another process while this one still
runs the table (its renewal came late, the other took the table over): its next write is refused
(``StoreFenced``, PostgreSQL migration 0015) and the journal is *lost*, as it is when the table is dropped
with writes not yet stored (``discard``). A lost journal writes nothing more, ``on_lost`` tells the
runner to stop running the table, and ``flush`` refuses with "the table is moving, press again": a click
is answered as made only when its move is stored, and the new owner answers the press again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from data import SeatRecord, Store, StoreConflict, StoreError, StoreFenced
from data.pending import PendingWrites
from table import effects as fx
from table.effects import Effect
from table.lobby import Seat, TableError

log = logging.getLogger(__name__)

Write = Callable[[], Awaitable[Any]]


class Journal:
    def __init__(
        self,
        store: Store,
        table_id: int,
        *,
        on_failure: Callable[[StoreError], Any] | None = None,
        on_recovered: Callable[[], Any] | None = None,
        on_lost: Callable[[], Any] | None = None,
        enabled: bool = True,
    ) -> None:
        self.store = store
        self.enabled = enabled  # False: writes are dropped (a benchmark measuring what storage costs)
        self.table_id = table_id
        self.pending = PendingWrites(on_failure=on_failure, on_recovered=on_recovered, name=str(table_id))
        self.hand_ids: dict[int, int] = {}  # hand number → stored hand id (known once its write ran)
        self._queue: deque[Write] = deque()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self.on_lost = on_lost  # another process runs the table now: stop running it here (runner)
        self.lost = False  # a write was refused for the lease, or writes were discarded: nothing more is stored

    # ------------------------------------------------------------------ ordering

    def record(self, write: Write) -> None:
        """Queue one transaction; it runs after every write recorded before it."""
        if not self.enabled or self.lost:
            return
        self._queue.append(write)
        self._idle.clear()
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name=f"journal-{self.table_id}")

    async def _run(self) -> None:
        while self._queue:
            write = self._queue.popleft()
            if isinstance(write, _Moves):  # consecutive moves of one hand go in one transaction
                while self._queue and isinstance(after := self._queue[0], _Moves) and after.hand_no == write.hand_no:
                    self._queue.popleft()
                    write.moves.extend(after.moves)
            try:
                await self.pending.write(write)
            except StoreFenced as error:  # another process holds the lease: it runs the table from now on
                log.warning("table %s: %s; no longer run here", self.table_id, error)
                self._lose()
            except StoreError as error:  # not retryable: a conflict means a bug, the table goes on
                log.error("table %s: a write was refused: %s", self.table_id, error)
        self._idle.set()

    def _lose(self) -> None:
        if self.lost:
            return
        self.lost = True
        self._queue.clear()
        if self.on_lost is not None:
            self.on_lost()

    def discard(self) -> None:
        """Drop what is not yet written: the table is another process's now, which writes from the
        stored moves on (cluster.py); the write under way, if any, still finishes. A click waiting for
        its move to be stored is told to press again (``flush``)."""
        if self._queue:
            self.lost = True
        self._queue.clear()

    async def flush(self) -> None:
        """Wait until everything recorded so far has been stored (or queued for retry while storage
        fails). Raises ``TableError("err.table_moving")`` if the journal is lost: what was recorded may
        not be stored, and the table is another process's (the person presses again, and it answers)."""
        await self._idle.wait()
        if self.lost:
            raise TableError("err.table_moving")

    async def close(self, timeout: float = 5.0) -> None:
        await asyncio.wait_for(self._idle.wait(), timeout)
        await self.pending.drain(timeout)
        await self.pending.close()

    # ------------------------------------------------------------------ what a table writes

    def keep(self, effect: Effect) -> bool:
        """Record ``effect`` if it is a store (table/effects.py): each carries the values written."""
        match effect:
            case fx.StoreSeats(seats):
                self.seats(seat_records(seats))
            case fx.StorePhase(phase):
                self.phase(phase)
            case fx.StoreOptions(row):
                self.options(dict(row))
            case fx.StoreMatch(header, seats):
                self.match(seat_records(seats), dict(header))
            case fx.StoreHand(number, header):
                self.hand(number, dict(header))
            case fx.StoreMove(number, index, move, deadline):
                self.move(number, index, move, deadline)
            case fx.StoreDeadline(number, deadline):
                self.deadline(number, deadline)
            case fx.StoreResult(number, result):
                self.hand_over(
                    number, result.to_dict(), winner=result.winner, loser=result.loser,
                    self_drawn=result.self_drawn, total=result.total, deltas=list(result.deltas),
                )
            case fx.StoreMatchOver(scores, leaver):
                self.match_over(list(scores), leaver=leaver)
            case _:
                return False
        return True

    def seats(self, seats: list[SeatRecord]) -> None:
        self.record(lambda: self.store.set_seats(self.table_id, seats))

    def phase(self, phase: str) -> None:
        self.record(lambda: self.store.set_phase(self.table_id, phase))

    def options(self, options: dict) -> None:
        self.record(lambda: self.store.set_options(self.table_id, options=options))

    def lobby_message(self, message_id: int) -> None:
        self.record(lambda: self.store.set_messages(self.table_id, lobby_message_id=message_id))

    def table_message(self, message_id: int) -> None:
        self.record(lambda: self.store.set_messages(self.table_id, table_message_id=message_id))

    def match(self, seats: list[SeatRecord], header: dict) -> None:
        self.seats(seats)
        self.record(lambda: self.store.start_match(self.table_id, header))

    def hand(self, hand_no: int, header: dict) -> None:
        async def write() -> None:
            self.hand_ids[hand_no] = await self.store.start_hand(self.table_id, hand_no, header)

        self.record(write)

    def move(self, hand_no: int, move_no: int, action: str, deadline: float | None) -> None:
        self.record(_Moves(self, hand_no, [(move_no, action, deadline)]))

    def deadline(self, hand_no: int, deadline: float | None) -> None:
        """The hand's clock moved without a move (a prompt delivered late restarts it)."""
        self.record(lambda: self.store.set_deadline(self.hand_id(hand_no), deadline))

    def hand_over(self, hand_no: int, result: dict, *, winner: int | None, loser: int | None,
                  self_drawn: bool, total: int, deltas: list[int]) -> None:
        self.record(
            lambda: self.store.finish_hand(
                self.hand_id(hand_no),
                result=result,
                deltas=deltas,
                winner=winner,
                loser=loser,
                self_drawn=self_drawn,
                total=total,
            )
        )

    def hand_id(self, hand_no: int) -> int:
        """The stored id of a hand whose start was written; a refusal (not a KeyError that would end the
        writer) when that write was refused: the hand's later writes are refused and logged alike."""
        try:
            return self.hand_ids[hand_no]
        except KeyError:
            raise StoreConflict(self.store.path, f"has no hand {hand_no} of table {self.table_id}") from None

    def match_over(self, scores: list[int], *, leaver: int | None = None) -> None:
        self.record(lambda: self.store.finish_match(self.table_id, scores, leaver=leaver))


class _Moves:
    """A write of one or more consecutive moves of a hand (merged by the writer)."""

    def __init__(self, journal: Journal, hand_no: int, moves: list[tuple[int, str, float | None]]) -> None:
        self.journal = journal
        self.hand_no = hand_no
        self.moves = moves

    def __call__(self) -> Awaitable[None]:
        journal = self.journal
        return journal.store.append_actions(journal.hand_id(self.hand_no), self.moves)


def seat_records(seats: Sequence[Seat]) -> list[SeatRecord]:
    return [SeatRecord(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(seats)]
