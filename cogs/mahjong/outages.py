"""When Discord drops the gateway session that carries a table's clicks, its clocks stop (issue 39 item 5):
a click on a DM button reaches shard 0 alone, a click on the channel's buttons the guild's shard (API docs,
Gateway → Sharding). While either of those is down here no decision of that table times out; on RESUMED or
a fresh READY each open decision gets back the time it lost and is shown again (table/session.py decides
the time; this only says which tables lost which connection).

A process that does not run shard 0 (a cluster, issue 29) does not hear of shard 0's drops: its tables' DM
clicks come forwarded from the process that does, whose outage it cannot see.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .runner import TableRunner


def carriers(guild_id: int, shard_count: int) -> set[int]:
    """The shards whose gateway sessions carry a table's clicks: 0 (DMs) and the guild's.

    >>> sorted(carriers(1 << 22, 4))
    [0, 1]
    """
    return {0, (guild_id >> 22) % max(1, shard_count)}


class Outages:
    def __init__(self, runners: Callable[[], Iterable[TableRunner]], shard_count: Callable[[], int]) -> None:
        self.runners, self.shard_count = runners, shard_count
        self.down: set[int] = set()  # shards of this process whose gateway session is down

    async def lost(self, shard: int) -> None:
        if shard in self.down:
            return
        self.down.add(shard)
        for runner in list(self.runners()):
            if shard in carriers(runner.state.guild_id, self.shard_count()):
                await runner.clicks_reach(False)

    async def back(self, shard: int) -> None:
        if shard not in self.down:
            return
        self.down.discard(shard)
        for runner in list(self.runners()):
            if not carriers(runner.state.guild_id, self.shard_count()) & self.down:
                await runner.clicks_reach(True)
