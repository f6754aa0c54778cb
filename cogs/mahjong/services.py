"""What the process's tables cog (tables.py) offers the parts it starts — the cluster's lease side, the
click router and the quick-play queues — as a Protocol, so those parts are typed against these few names
and not against the cog that imports them (tests/test_import_loops.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from discord.ext import commands

    from data import Store
    from table.lobby import TableState
    from table.session import Deal
    from table.timing import Timing

    from .live import EditBudget, WindowLimit
    from .registry import TableRegistry
    from .runner import TableRunner


class Services(Protocol):
    """The store, the request budget and the DM-open pace, background tasks, the registry."""

    @property
    def bot(self) -> commands.Bot: ...
    @property
    def store(self) -> Store: ...
    @property
    def budget(self) -> EditBudget: ...
    @property
    def dm_opens(self) -> WindowLimit: ...
    @property
    def registry(self) -> TableRegistry: ...
    @property
    def timing(self) -> Timing: ...
    @property
    def cluster(self) -> Any: ...  # the process's SoleProcess or PgCluster (cluster.py)

    def background(self, coro: Any) -> None: ...
    def left_guild(self, guild_id: int) -> bool: ...
    async def start_match(self, runner: TableRunner, deal: Deal | None = None) -> None: ...
    def new_runner(self, state: TableState, *, locale: str, host_name: str) -> TableRunner: ...
