"""The running tables of this process: what each ``TableRunner`` (runner.py) is handed by the bot — the
store, the request budget, the picture workers, DM channels, background tasks — and the tables' life
around their matches: restored at start-up, ended when their channel or server goes away, stored when
the bot stops.

The ``Mahjong`` cog holds no command of its own; the commands people type sit in the smaller cogs beside
it (seats.py, opening.py, hall.py, ...), which all share its ``TableRegistry`` (registry.py).
"""

from __future__ import annotations

import asyncio
import logging
import random
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from data import SavedTable, Store, StoreError
from engine.fairness import KEY_BYTES
from table import inputs as ins
from table.lobby import TableError, TablePhase, TableState
from table.session import Deal

from ..i18n import t
from .activity import Activity, PlayInDiscordButton, start_activity
from .buttons import TABLE_ITEMS
from .cluster import SoleProcess, open_cluster
from .hallbuttons import HALL_ITEMS
from .help import HELP_ITEMS
from .live import POST, PROMPT, EditBudget, LiveMessage, WindowLimit
from .outages import Outages
from .pictures import THREADS, Painter
from .quickplay import Queues
from .refusals import MahjongCog
from .registration import REGISTRATION_ITEMS
from .registry import TableRegistry
from .rematch import RematchButton, RematchSeed
from .replay_buttons import REPLAY_ITEMS
from .review import REVIEW_ITEMS
from .runner import NETWORK_ERRORS, TableRunner, Timing
from .system import SYSTEM
from .watch import restore_watchers
from .webpages import WebPages, attach_pages
from .webtables import WebTable, start_web

if TYPE_CHECKING:
    from bot import MahjongBot

log = logging.getLogger(__name__)

DYNAMIC_ITEMS = (
    *TABLE_ITEMS, *REPLAY_ITEMS, *REVIEW_ITEMS, *HALL_ITEMS, *HELP_ITEMS, RematchButton, *REGISTRATION_ITEMS,
    PlayInDiscordButton,
)
"""Every button and select that survives a restart, registered with the cog (custom ids: table/ids.py)."""


class Mahjong(MahjongCog):
    """What every table of this process shares, and the life of the tables around their matches."""

    def __init__(self, bot: MahjongBot, registry: TableRegistry) -> None:
        self.bot = bot
        self.registry = registry
        registry.host = self
        self.painter: Painter = getattr(bot, "painter", THREADS)  # where table, hand and score pictures are drawn
        self.store: Store = bot.store
        self.timing: Timing = getattr(bot, "timing", Timing())
        seed = getattr(getattr(bot, "config", None), "seed", None)
        # match keys (engine.fairness) from the operating system's generator; a seeded bot (tests, the
        # sandbox) deals the same matches every run
        self.rng = random.Random(seed) if seed is not None else random.SystemRandom()
        self.dm_channels: dict[int, int] = {}  # user id → their DM channel's id (also in the store)
        self.skip_stored_dm: set[int] = set()  # people whose stored DM channel failed: open a new one
        self._tasks: set[asyncio.Task[None]] = set()
        self.cluster: SoleProcess = SoleProcess(registry, self)  # cluster hook: replaced in cog_load (cluster.py)
        self.budget = EditBudget(per_second=35, capacity=8, reserve=4)  # every request, under Discord's 50/s
        # opening DM channels fast is refused (40003): a gentle pace, and each channel is opened once.
        # A slot taken is not yet a request arrived (the request pace above may hold it back, and
        # Discord counts arrivals), so the window is a second longer than the one Discord keeps
        self.dm_opens = WindowLimit(limit=10, seconds=11.0)
        self.queues = Queues(self)  # the quick-play queues of 系統桌 (quickplay.py)
        self.web: WebTable | None = None  # the web table (webtables.py), once started in cog_load
        self.activity: Activity | None = None  # the web table as a Discord Activity (activity.py), with it
        self.web_pages: WebPages | None = None  # its watch, replay and board pages (webpages.py)
        # the gateway sessions that carry the tables' clicks, down or back: the clocks stop meanwhile (outages.py)
        self.outages = Outages(lambda: self.registry, lambda: getattr(self.bot, "shard_count", None) or 1)

    async def wants_nudge(self, user_id: int) -> bool:
        """Whether ``user_id`` is nudged when a decision waits on them (/mahjong settings; nudges.py). A store
        that cannot answer: yes, the default."""
        try:
            return (await self.store.get_player_prefs(user_id)).nudge
        except StoreError:
            return True

    def new_match_key(self) -> bytes:
        """A new match's secret key: every deal of the match follows from it (table/session.py)."""
        return self.rng.randbytes(KEY_BYTES)

    async def cog_load(self) -> None:
        """Register the buttons, then bring back every table that was open when the bot stopped: the
        runners exist before the first click can arrive, their messages go out once we are connected."""
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        config = getattr(self.bot, "config", None)
        self.web = await start_web(
            getattr(config, "web", None), self.registry,
            base=getattr(config, "web_url", None), secret=getattr(config, "web_secret", None),
            before=self._more_pages,
        )
        self.cluster = await open_cluster(self.registry, self)  # cluster hook (issue 29): which tables run here
        for saved in await self.store.unfinished_tables():
            await self.cluster.adopt(saved)  # cluster hook: claims it, restores it (open_stored), resumes it
        await self.queues.load()  # the quick-play queues (quickplay.py)
        self.cluster.start(self.bot)  # cluster hook: route clicks, renew leases, take over dead processes' tables

    def _more_pages(self, server: WebTable, seats: Any) -> None:
        """The web table's other routes, before it serves: the watch, replay and board pages (webpages.py),
        and the Activity's, off without the app's OAuth2 client (activity.py)."""
        self.web_pages = attach_pages(server, self.registry, self.store)
        config = getattr(self.bot, "config", None)
        self.activity = start_activity(
            server, seats, client_id=getattr(config, "client_id", None),
            client_secret=getattr(config, "client_secret", None), origins=getattr(config, "activity_origins", ()),
        )

    def open_stored(self, saved: SavedTable) -> TableRunner | None:
        """Rebuild a stored table and play it on; one that cannot be rebuilt is closed, its reason kept."""
        try:
            if saved.problem is not None:
                raise ValueError(saved.problem)
            runner = TableRunner.restore(self, saved)
        except Exception as error:  # a bug, a newer version's rows, a corrupt row: never a stuck table
            log.warning("table %s could not be restored", saved.table.id, exc_info=True)
            locale = str(saved.table.options.get("locale", "en"))
            self.background(self._restore_failed(saved.table.id, saved.table.channel_id, error, locale))
            return None
        self.registry.add(runner)
        self.background(self._resume(runner))
        return runner

    async def _resume(self, runner: TableRunner) -> None:
        await self.bot.wait_until_ready()
        if self.left_guild(runner.state.guild_id):  # removed while the bot was offline: nothing to resume
            self.guild_gone(runner.state.guild_id)
            return
        try:
            await runner.resume()
        except NETWORK_ERRORS as error:
            log.warning("table %s could not resume: %r", runner.session.table_id, error)
        except Exception as error:
            log.warning("table %s could not resume", runner.session.table_id, exc_info=True)
            self.shut(runner)
            await runner.close()
            await self._restore_failed(runner.session.table_id, runner.state.channel_id, error, runner.state.locale)
            return
        await restore_watchers(self, runner)  # a delayed table's spectators go on in its thread (watch.py)

    async def _restore_failed(self, table_id: int, channel_id: int, error: Exception, locale: str) -> None:
        """Close the table in the store with the reason (its seats free, its moves kept) and say so in
        its channel; ``/mahjong close`` there acknowledges it."""
        reason = f"{type(error).__name__}: {error}"[:500]
        self.registry.failed[channel_id] = table_id
        try:
            await self.store.fail_table(table_id, reason)
        except StoreError as store_error:
            log.warning("could not mark table %s as failed: %s", table_id, store_error)
        await self.bot.wait_until_ready()
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            await self.budget.take(POST)
            await channel.send(t(locale, "play.restore_failed", table=table_id, reason=reason))
        except NETWORK_ERRORS as send_error:
            log.info("could not tell channel %s about table %s: %s", channel_id, table_id, send_error)

    async def cog_unload(self) -> None:
        """Shutting down: every table stores what it still holds, then the background work stops."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        self.queues.stop()
        # spectators first: a hand being posted in a thread is posted and stored as shown, then they stop
        # (a table closing for a shutdown is no match's end: the threads go on after the restart)
        watchers = list(self.registry.watchers.values())
        watching = [task for watching in watchers if (task := watching.stop()) is not None]
        if watching:
            _, late = await asyncio.wait(watching, timeout=5)
            for task in late:
                task.cancel()
        for runner in self.registry.alive():  # the closing and finishing ones too: their writes land first
            await runner.close()
        await self.budget.settle()  # a finished table's last edits land before the HTTP session closes
        await self.cluster.stop()  # cluster hook: the leases run out now, for another process to take over
        if self.web_pages is not None:
            await self.web_pages.watch.close()  # watchers' sockets first: the server's stop waits for none
        if self.web is not None:
            await self.web.stop()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)

    # ------------------------------------------------------------------ channels and servers that go away

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        self.abandon_where(lambda runner: runner.state.channel_id == channel.id)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        self.abandon_where(lambda runner: runner.state.channel_id == payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.guild_gone(guild.id)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """A fresh READY (the first, or after a session Discord would not resume) lists the servers the bot
        is in: one removed meanwhile sent no GUILD_DELETE to this bot, and its tables and queues end now."""
        for guild_id in {runner.state.guild_id for runner in self.registry}:
            if self.left_guild(guild_id):
                self.guild_gone(guild_id)

    def _one_connection(self) -> bool:
        return getattr(self.bot, "shard_count", None) is None  # unsharded: shard 0 carries everything

    @commands.Cog.listener()
    async def on_disconnect(self) -> None:
        if self._one_connection():
            await self.outages.lost(0)

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        if self._one_connection():
            await self.outages.back(0)

    @commands.Cog.listener()
    async def on_connect(self) -> None:  # a fresh READY
        if self._one_connection():
            await self.outages.back(0)

    @commands.Cog.listener()
    async def on_shard_disconnect(self, shard_id: int) -> None:
        await self.outages.lost(shard_id)

    @commands.Cog.listener("on_shard_resumed")
    async def on_shard_back(self, shard_id: int) -> None:
        await self.outages.back(shard_id)

    @commands.Cog.listener()
    async def on_shard_connect(self, shard_id: int) -> None:  # a fresh READY
        await self.outages.back(shard_id)

    def hears(self, guild_id: int) -> bool:
        """This process holds the guild's shard, so its READY and cache say whether the bot is there."""
        ids, count = getattr(self.bot, "shard_ids", None), getattr(self.bot, "shard_count", None)
        return not ids or not count or (guild_id >> 22) % count in ids

    def left_guild(self, guild_id: int) -> bool:
        """The bot is not in this server any more, by READY's list (an unavailable server, in an outage, is
        still listed); False when this process cannot tell (another process holds its shard)."""
        return self.bot.is_ready() and self.hears(guild_id) and self.bot.get_guild(guild_id) is None

    async def still_in_guild(self, guild_id: int) -> bool:
        """Asked by a channel post that got 403 50001: is the bot still in the server (a lost permission),
        or removed (its GUILD_DELETE missed, or sent to another process)? READY's list if it says it is gone,
        else Discord itself (GET /guilds/{id}: 403 50001 or 404 10004 for a server the bot is not in)."""
        if self.left_guild(guild_id):
            return False
        try:
            await self.budget.take(POST)
            await self.bot.fetch_guild(guild_id, with_counts=False)
        except (discord.Forbidden, discord.NotFound):
            return False
        except NETWORK_ERRORS as error:  # cannot tell: taken as a lost permission (the table waits)
            log.info("could not look server %s up: %s", guild_id, error)
        return True

    def guild_gone(self, guild_id: int) -> None:
        """The bot was removed from a server: its tables end (stored closed, never restored) and its quick-play
        queues are emptied, without a word to a channel the bot can no longer reach."""
        self.abandon_where(lambda runner: runner.state.guild_id == guild_id)
        self.background(self.queues.forget(guild_id))

    def abandon_where(self, gone: Any) -> None:
        """Tables whose channel or server went away end as closed: stored so (never restored again),
        their seats free, their timers stopped."""
        for runner in self.registry.where(gone):
            log.info("table %s: its channel or server went away; closing it", runner.session.table_id)
            self.shut(runner)
            self.background(runner.close())

    # ------------------------------------------------------------------ a table's end

    def running(self, table_id: int) -> TableRunner:
        """The table a click names, if this process runs it; TableError otherwise (the match is over, or
        another process runs the table now: the cluster says which)."""
        runner = self.registry.get(table_id)
        if runner is None or runner.session.phase.closed:
            raise TableError(self.cluster.gone(table_id))  # cluster hook: over, or moving process
        return runner

    def shut(self, runner: TableRunner) -> bool:
        """Close the table at once (no I/O, so the click is answered in time); True if mid-match."""
        mid_match = runner.state.phase is TablePhase.PLAYING
        runner.change(ins.Shut())
        self.table_finished(runner)
        return mid_match

    def offer_rematch(self, runner: TableRunner) -> None:
        """A table played to its end leaves its seats and settings for the summary's Rematch button."""
        if runner.state.kind != SYSTEM:
            seed = RematchSeed(runner.state.settings, tuple(runner.state.seats), runner.state.locale)
            self.registry.rematches[runner.session.table_id] = seed

    def table_finished(self, runner: TableRunner) -> None:
        """Forget a table whose match ended (its messages stay in the channel)."""
        self.cluster.release(runner.session.table_id)  # cluster hook: no process runs it any more
        if self.web is not None:
            self.web.ended(runner.session.table_id)  # its open pages show the end, then close
        if self.web_pages is not None:
            self.web_pages.watch.ended(runner.session.table_id)  # and its watchers' pages
        self.registry.remove(runner)
        self.bot.dispatch("mahjong_table_finished", runner)  # a tournament's round may be over (tournament.py)

    def new_runner(self, state: TableState, *, locale: str, host_name: str) -> TableRunner:
        """A new table's host, run by this process (the quick-play queues form 系統桌 through it)."""
        return TableRunner(self, state, locale=locale, host_name=host_name)

    async def start_match(self, runner: TableRunner, deal: Deal | None = None) -> None:
        try:
            await runner.start_match(deal)
        except NETWORK_ERRORS as error:
            log.warning("table %s could not start: %r", runner.session.table_id, error)
        except Exception:
            if runner.session.phase.closed:  # shutting down while dealing
                return
            log.exception("table %s could not start", runner.session.table_id)

    # ------------------------------------------------------------------ what the runners use

    async def dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """The DM channel with a person: opened once ever (its id is kept, in memory and in the store,
        for more people than discord.py's 128 and across restarts), opened at Discord's pace."""
        known = self.dm_channels.get(user_id)
        if known is None and user_id not in self.skip_stored_dm:
            try:
                known = await self.store.dm_channel_of(user_id)
            except StoreError as error:
                log.info("could not read the DM channel of %s: %s", user_id, error)
        if known is not None:
            self.dm_channels[user_id] = known
            return self.bot.get_partial_messageable(known, type=discord.ChannelType.private)
        await self.dm_opens.take()
        await self.budget.take(PROMPT)
        channel = await self.bot.create_dm(discord.Object(user_id))
        self.dm_channels[user_id] = channel.id
        self.skip_stored_dm.discard(user_id)
        try:  # once per person ever: kept before it is used
            await self.store.remember_dm_channel(user_id, channel.id)
        except StoreError as error:
            log.info("could not store the DM channel of %s: %s", user_id, error)
        return channel

    async def send_dm(self, user_id: int, rank: int = PROMPT, **kwargs: Any) -> discord.Message:
        """Send a DM through the kept channel, at ``rank`` of the request budget. A send that fails forgets
        the kept channel id (another bot token's, say, or one Discord no longer knows), so the next DM opens
        one afresh instead of failing on the same id for good; the error is the caller's to answer."""
        channel = await self.dm_channel(user_id)
        await self.budget.take(rank)
        try:
            return await channel.send(**kwargs)
        except (discord.HTTPException, OSError):
            self.forget_dm(user_id)
            raise

    def forget_dm(self, user_id: int) -> None:
        """A stored DM channel that failed (another bot token's, say): the next send opens one afresh."""
        self.dm_channels.pop(user_id, None)
        self.skip_stored_dm.add(user_id)

    def background(self, coro: Any) -> None:
        """Run I/O that must not hold up an answer; the task is kept until it ends."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def live_message(self, channel_id: int, message_id: int, build: Any) -> LiveMessage:
        partial = self.bot.get_partial_messageable(channel_id).get_partial_message(message_id)
        return LiveMessage(partial, build, min_interval=self.timing.edit_interval, budget=self.budget)
