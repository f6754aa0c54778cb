"""Quick play into 系統桌: the stored per-server queues, the tables they form and the AI fill after a wait.
The commands that change a queue are the hall's (hall.py) and the server settings' (settings.py); the
rules of a 系統桌 live in system.py, the storage in data/hall.py.

One lock per server orders every queue change, so four people pressing Play at once form one table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

from data import GuildSettings, QueueEntry, SeatRecord, StoreError, TableRecord

from .forming import Sitter, open_system
from .system import fill_at, ready_group, system_settings

if TYPE_CHECKING:
    from .runner import TableRunner
    from .services import Services

log = logging.getLogger(__name__)


class Queues:
    """The quick-play queues of every server this process hears, and the 系統桌 they form."""

    def __init__(self, host: Services) -> None:
        self.host = host
        self.settings: dict[int, GuildSettings] = {}  # guild id → its settings, read once
        self.locks: dict[int, asyncio.Lock] = {}  # guild id → the lock of its queues
        self.fill_timers: dict[tuple[int, str], asyncio.Task[None]] = {}  # (guild, rules) → AI fill

    # ------------------------------------------------------------------ start and stop

    async def load(self) -> None:
        """After the tables are restored: every stored queue is looked at again (four waiting form a
        table, AI-fill timers are re-armed; a wait that ended while the bot was down fills at once)."""
        for guild_id in await self.host.store.waiting_guilds():
            self.host.background(self._recheck(guild_id))

    def stop(self) -> None:
        for task in self.fill_timers.values():
            task.cancel()
        self.fill_timers.clear()

    async def _recheck(self, guild_id: int) -> None:
        await self.host.bot.wait_until_ready()
        if self.host.left_guild(guild_id):  # removed while the bot was offline: nobody there can play
            await self.forget(guild_id)
            return
        async with self.lock(guild_id):
            try:
                for rules in sorted({e.rules for e in await self.host.store.queue(guild_id)}):
                    if await self.form_tables(guild_id, rules, None) is None:
                        await self.arm_fill(guild_id, rules)
            except StoreError as error:  # the queue stays stored; the next Play looks at it again
                log.warning("the queues of %s after the restart: %s", guild_id, error)

    async def forget(self, guild_id: int) -> None:
        """A server that removed the bot: everyone waiting there leaves its queues, no table forms."""
        for rules in [key[1] for key in self.fill_timers if key[0] == guild_id]:
            self.fill_timers.pop((guild_id, rules)).cancel()
        async with self.lock(guild_id):
            try:
                for entry in await self.host.store.queue(guild_id):
                    await self.host.store.dequeue(guild_id, entry.user_id)
            except StoreError as error:  # looked at again at the next start
                log.warning("could not empty the queues of %s: %s", guild_id, error)

    # ------------------------------------------------------------------ look-ups

    def lock(self, guild_id: int) -> asyncio.Lock:
        return self.locks.setdefault(guild_id, asyncio.Lock())

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        known = self.settings.get(guild_id)
        if known is None:
            known = self.settings[guild_id] = await self.host.store.guild_settings(guild_id)
        return known

    def took_seat(self, guild_id: int, user_id: int) -> None:
        """A person sat down at a table: they are in no queue any more (never queued while seated)."""
        self.host.background(self._leave_queue_quietly(guild_id, user_id))

    async def _leave_queue_quietly(self, guild_id: int, user_id: int) -> None:
        async with self.lock(guild_id):
            try:
                entry = await self.host.store.dequeue(guild_id, user_id)
            except StoreError as error:
                log.warning("could not take %s out of the queue of %s: %s", user_id, guild_id, error)
                return
            if entry is not None:
                await self.arm_fill(guild_id, entry.rules)

    # ------------------------------------------------------------------ forming 系統桌 (guild lock held)

    async def form_tables(
        self, guild_id: int, rules: str, channel_id: int | None, *, fill: bool = False
    ) -> TableRunner | None:
        """Open a 系統桌 for each four in the queue, first come first (with ``fill``: one for whoever
        waits, AI in the empty seats); the last table opened, or None. People who sat down meanwhile
        leave the queue first."""
        store, registry = self.host.store, self.host.registry
        queue = await store.queue(guild_id, rules)
        for entry in [e for e in queue if registry.where_seated(guild_id, e.user_id) is not None]:
            await store.dequeue(guild_id, entry.user_id)
            queue.remove(entry)
        settings = await self.guild_settings(guild_id)
        opened = None
        while group := ready_group(queue) or (queue[:4] if fill and opened is None else []):
            where = settings.mahjong_channel_id or channel_id or group[-1].channel_id
            runner = await self._open_system(group, where)
            if runner is None:  # the queue changed under us: leave it to the next look
                break
            opened = runner
            queue = queue[len(group) :]
        if opened is not None:
            await self.arm_fill(guild_id, rules)
        return opened

    async def _open_system(self, group: list[QueueEntry], channel_id: int) -> TableRunner | None:
        guild_id, rules = group[0].guild_id, group[0].rules
        settings = await self.guild_settings(guild_id)

        async def store_table(host_id: int, options: dict, seats: list[SeatRecord], rounds: int) -> TableRecord:
            return await self.host.store.open_system_table(
                group, channel_id=channel_id, host_id=host_id, rounds=rounds, options=options, seats=seats
            )

        return await open_system(
            self.host,
            [Sitter(e.user_id, e.name, e.locale) for e in group],
            guild_id=guild_id,
            channel_id=channel_id,
            settings=system_settings(rules, settings.system_turn_seconds),
            locale=group[0].table_locale,
            store_table=store_table,
        )

    # ------------------------------------------------------------------ AI fill (guild lock held)

    async def arm_fill(self, guild_id: int, rules: str) -> float | None:
        """(Re)arm the AI-fill timer of a queue; when it will fire (unix time), None if it will not."""
        key = (guild_id, rules)
        old = self.fill_timers.pop(key, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        settings = await self.guild_settings(guild_id)
        # the tables' timer scale (1 in production) shrinks this wait too, so tests wait a second, not minutes
        due = fill_at(await self.host.store.queue(guild_id, rules), settings, self.host.timing.timer_scale)
        if due is not None:
            self.fill_timers[key] = asyncio.create_task(self._fill_when_due(guild_id, rules, due))
        return due

    async def _fill_when_due(self, guild_id: int, rules: str, due: float) -> None:
        await asyncio.sleep(max(0.0, due - time.time()))
        await self.host.bot.wait_until_ready()
        async with self.lock(guild_id):
            if self.fill_timers.get((guild_id, rules)) is not asyncio.current_task():
                return  # re-armed meanwhile
            del self.fill_timers[(guild_id, rules)]
            try:
                queue = await self.host.store.queue(guild_id, rules)
                now_due = fill_at(queue, await self.guild_settings(guild_id), self.host.timing.timer_scale)
                if now_due is not None and now_due <= time.time() + 0.01:
                    await self.form_tables(guild_id, rules, None, fill=True)
                else:  # the first in the queue left, or the wait grew: wait on
                    await self.arm_fill(guild_id, rules)
            except StoreError as error:
                log.warning("AI fill in %s: %s", guild_id, error)
