"""Every table this process runs, in one place: by channel, by id and by seated person, with what a
finished table leaves behind (its rematch, or the channel of one that could not be restored) and the
spectators of each; and, with several processes, the tables this one holds a lease on and those
moving in or out of it.

The cogs (tables, hall, watch, help), the buttons and the cluster all read and change these through
this one object, so "does this table exist, and who sits at it" has one answer. A table is added in one
place (:meth:`TableRegistry.add`) and removed in one (:meth:`TableRegistry.remove`); in between, a
person sits down or stands up through :meth:`sit` and :meth:`stand`.

What the cluster (ownership.py, cluster.py) asks of the tables goes through the three seams at the end:
run a stored table here (``open_stored``), stop one another process runs now (``drop``), and hand one
back to its guild's process (``hand_back``).
"""

from __future__ import annotations

import logging
import time
import weakref
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from table import inputs as ins
from table.screens import SEATS

from .runner import TableRunner
from .system import SYSTEM

if TYPE_CHECKING:
    from data import SavedTable

    from .rematch import RematchSeed
    from .watch import Watchers

log = logging.getLogger(__name__)


class Host(Protocol):
    """What the registry needs of the cog that runs the tables (cogs/mahjong/tables.py)."""

    def open_stored(self, saved: SavedTable) -> TableRunner | None: ...
    def table_finished(self, runner: TableRunner) -> None: ...
    def background(self, coro: Any) -> None: ...


class TableRegistry:
    """The running tables of this process and who sits at them."""

    def __init__(self) -> None:
        self._by_id: dict[int, TableRunner] = {}
        self._by_channel: dict[int, TableRunner] = {}  # channel id → its player table (系統桌 share channels)
        self._seated: dict[tuple[int, int], int] = {}  # (guild id, user id) → channel of their table
        self._every: weakref.WeakSet[TableRunner] = weakref.WeakSet()  # not yet garbage: closing ones too
        self.failed: dict[int, int] = {}  # channel id → a table there that could not be restored
        self.rematches: dict[int, RematchSeed] = {}  # a finished table's id → its rematch (rematch.py)
        self.watchers: dict[int, Watchers] = {}  # table id → its spectators (watch.py)
        self.host: Host | None = None  # the tables cog, once loaded
        # with several processes on one database (ownership.py): the tables this process holds a lease on,
        # and those on their way in or out of it, whose clicks are told to press again
        self.leased: set[int] = set()
        self.restoring: set[int] = set()  # claimed, being rebuilt from the store
        self.leaving: set[int] = set()  # being handed back to their guild's process

    # ------------------------------------------------------------------ adding and removing

    def add(self, runner: TableRunner) -> None:
        """A table created, formed or restored here: findable by id, channel and each person seated."""
        self._every.add(runner)
        state = runner.state
        if state.kind != SYSTEM:  # 系統桌 share the mahjong channel; system_table_in finds them
            self._by_channel[state.channel_id] = runner
        self._by_id[state.table_id] = runner
        left = runner.session.screen(SEATS).left
        for seat in state.seats:
            if seat.user_id is not None and seat.user_id not in left:  # a leaver is free
                self._seated[(state.guild_id, seat.user_id)] = state.channel_id

    def remove(self, runner: TableRunner) -> None:
        """A table that ended here (finished, closed, or run elsewhere now): its people are free, unless
        they sit at another table of the same channel (a 系統桌 beside it). Its messages stay."""
        channel = runner.state.channel_id
        if self._by_channel.get(channel) is runner:
            del self._by_channel[channel]
        self._by_id.pop(runner.session.table_id, None)
        users = {s.user_id for s in (*runner.state.seats, *runner.session.screen(SEATS).seats) if s.user_id is not None}
        elsewhere = {
            s.user_id for other in self._by_id.values() if other.state.channel_id == channel for s in other.state.seats
        }
        for key in [k for k, at in self._seated.items() if at == channel and k[1] in users - elsewhere]:
            del self._seated[key]

    def sit(self, guild_id: int, user_id: int, channel_id: int) -> None:
        """A person took a seat (joined a lobby, or came back to a match they had left)."""
        self._seated[(guild_id, user_id)] = channel_id

    def stand(self, guild_id: int, user_id: int) -> None:
        """A person left their table: free to sit at another."""
        self._seated.pop((guild_id, user_id), None)

    # ------------------------------------------------------------------ look-ups

    def get(self, table_id: int) -> TableRunner | None:
        return self._by_id.get(table_id)

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._by_id

    def __len__(self) -> int:
        return len(self._by_id)

    def __iter__(self) -> Iterator[TableRunner]:
        """The running tables (a copy: a loop may end some)."""
        return iter(list(self._by_id.values()))

    def alive(self) -> list[TableRunner]:
        """Every table not yet garbage, the closing and finishing ones too (whose writes must still land)."""
        return list(self._every)

    def in_channel(self, channel_id: int) -> TableRunner | None:
        """The channel's player table (not a 系統桌 there)."""
        return self._by_channel.get(channel_id)

    def moving(self, table_id: int) -> bool:
        """The table is coming here (rebuilt after a takeover) or going to another process (handed back)."""
        return table_id in self.restoring or table_id in self.leaving

    def where_seated(self, guild_id: int, user_id: int) -> int | None:
        """The channel of the table this person sits at in this server, if any."""
        return self._seated.get((guild_id, user_id))

    def where(self, gone: Callable[[TableRunner], bool]) -> list[TableRunner]:
        return [runner for runner in self._by_id.values() if gone(runner)]

    def seated_runner(self, guild_id: int, user_id: int, channel_id: int | None) -> TableRunner | None:
        """The unfinished table in ``channel_id`` (any channel when None) where this person sits (not one
        they left: its seat is auto-played and they are free)."""
        for runner in self._by_id.values():
            state = runner.state
            if state.guild_id != guild_id or runner.session.phase.closed:
                continue
            if channel_id is not None and state.channel_id != channel_id:
                continue
            if runner.session.screen(SEATS).seated(user_id):
                return runner
        return None

    def system_table_in(self, channel_id: int) -> TableRunner | None:
        """The newest 系統桌 in a channel (what /mahjong table shows there to someone not seated)."""
        found = [r for r in self._by_id.values() if r.state.channel_id == channel_id and r.state.kind == SYSTEM]
        return max(found, key=lambda r: r.session.table_id) if found else None

    # ------------------------------------------------------------------ the cluster's seams (cluster.py)

    def open_stored(self, saved: SavedTable) -> TableRunner | None:
        """Rebuild a stored table here and play it on (start-up, takeover); None if it could not be
        rebuilt (it is then closed, its reason kept and told in its channel)."""
        assert self.host is not None, "the tables cog is not loaded"
        return self.host.open_stored(saved)

    def drop(self, table_id: int, why: str) -> None:
        """Stop running a table another process runs now, storing nothing more: the new owner writes from
        the stored moves on."""
        runner = self._by_id.get(table_id)
        if runner is None or self.host is None:
            return
        log.warning("table %s: no longer run here: %s", table_id, why)
        runner.session.handle(ins.Close(), time.time())
        runner.journal.discard()
        self.host.table_finished(runner)
        self.host.background(runner.close())

    async def hand_back(self, table_id: int) -> None:
        """Stop running a table whose guild another process holds: everything it still holds is stored
        first, for that process to rebuild it from."""
        runner = self._by_id.get(table_id)
        if runner is None or self.host is None:
            return
        await runner.close()
        self.host.table_finished(runner)
