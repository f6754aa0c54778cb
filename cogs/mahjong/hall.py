"""The hall (選桌大廳) of the /mahjong cog: the table list (/mahjong tables), quick play into 系統桌
(/mahjong play, the stored per-server queue, AI fill after a wait) and the server's settings
(/mahjong setup ...). A mixin of the ``Mahjong`` cog, so these commands sit in the /mahjong group; the
rules of a 系統桌 live in system.py, the list in tablelist.py, the storage in data/hall.py.

One lock per server orders every queue change, so four people pressing Play at once form one table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from data import GuildSettings, QueueEntry, StoreConflict, StoreError
from engine.rules import PROFILES
from engine.rulesets import DEFAULT_RULES
from table.lobby import TableError, TableState
from table.timing import Timing

from ..choices import RULE_CHOICES
from ..i18n import locale_of, t
from .cluster import SoleProcess
from .hallbuttons import QueueButton
from .mixin import CogMixin
from .runner import TableRunner, seat_records
from .system import SYSTEM, SYSTEM_TURN_CHOICES, fill_at, place_in, ready_group, system_settings
from .tablelist import table_list

if TYPE_CHECKING:
    from bot import MahjongBot
    from data import Store

    from . import Mahjong

log = logging.getLogger(__name__)

SYSTEM_TURN_OPTIONS = [app_commands.Choice(name=f"{s}s", value=s) for s in SYSTEM_TURN_CHOICES]


def _manager(interaction: discord.Interaction) -> None:
    """Server settings are for members with Manage Server (as Discord resolved it for this interaction)."""
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        raise TableError("err.need_manage")


async def _reply(interaction: discord.Interaction, text: str, view: discord.ui.View | None = None) -> None:
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    await interaction.response.send_message(text, **kwargs)


class Hall(CogMixin):
    """Mixed into ``Mahjong`` (cogs/mahjong/__init__.py), whose tables, seats and store it uses."""

    # what the hall uses of the cog it is mixed into
    bot: MahjongBot
    store: Store
    timing: Timing
    by_id: dict[int, TableRunner]
    seated: dict[tuple[int, int], int]
    cluster: SoleProcess
    if TYPE_CHECKING:

        def background(self, coro: Any) -> None: ...
        async def guarded(self, interaction: discord.Interaction, handler: Any, *args: Any) -> None: ...
        def _register(self, runner: TableRunner) -> None: ...
        def _join(self, interaction: discord.Interaction, runner: TableRunner, password: str | None) -> None: ...
        async def _start_match(self, runner: TableRunner) -> None: ...
        def left_guild(self, guild_id: int) -> bool: ...

    setup_group = app_commands.Group(
        name=_("setup"), description=_("This server's mahjong settings (Manage Server)")
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.hall_settings: dict[int, GuildSettings] = {}  # guild id → its settings, read once
        self.hall_locks: dict[int, asyncio.Lock] = {}  # guild id → the lock of its queues
        self.fill_timers: dict[tuple[int, str], asyncio.Task[None]] = {}  # (guild, rules) → AI fill
        super().__init__(*args, **kwargs)

    # ------------------------------------------------------------------ start and stop

    async def hall_load(self) -> None:
        """After the tables are restored: every stored queue is looked at again (four waiting form a
        table, AI-fill timers are re-armed; a wait that ended while the bot was down fills at once)."""
        for guild_id in await self.store.waiting_guilds():
            self.background(self._recheck(guild_id))

    def hall_unload(self) -> None:
        for task in self.fill_timers.values():
            task.cancel()
        self.fill_timers.clear()

    async def _recheck(self, guild_id: int) -> None:
        await self.bot.wait_until_ready()
        if self.left_guild(guild_id):  # removed while the bot was offline: nobody there can play
            await self.forget_queues(guild_id)
            return
        async with self._hall_lock(guild_id):
            try:
                for rules in sorted({e.rules for e in await self.store.queue(guild_id)}):
                    if await self._form_tables(guild_id, rules, None) is None:
                        await self._arm_fill(guild_id, rules)
            except StoreError as error:  # the queue stays stored; the next Play looks at it again
                log.warning("the queues of %s after the restart: %s", guild_id, error)

    async def forget_queues(self, guild_id: int) -> None:
        """A server that removed the bot: everyone waiting there leaves its queues, no table forms."""
        for rules in [key[1] for key in self.fill_timers if key[0] == guild_id]:
            self.fill_timers.pop((guild_id, rules)).cancel()
        async with self._hall_lock(guild_id):
            try:
                for entry in await self.store.queue(guild_id):
                    await self.store.dequeue(guild_id, entry.user_id)
            except StoreError as error:  # looked at again at the next start
                log.warning("could not empty the queues of %s: %s", guild_id, error)

    # ------------------------------------------------------------------ look-ups

    def _hall_lock(self, guild_id: int) -> asyncio.Lock:
        return self.hall_locks.setdefault(guild_id, asyncio.Lock())

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        known = self.hall_settings.get(guild_id)
        if known is None:
            known = self.hall_settings[guild_id] = await self.store.guild_settings(guild_id)
        return known

    def seated_runner(self, guild_id: int, user_id: int, channel_id: int | None) -> TableRunner | None:
        """The unfinished table in ``channel_id`` (any channel when None) where this person sits (not one
        they left: its seat is auto-played and they are free)."""
        for runner in self.by_id.values():
            state = runner.state
            if state.guild_id != guild_id or runner.session.closed or user_id in runner.session.left:
                continue
            if channel_id is not None and state.channel_id != channel_id:
                continue
            if state.seat_of(user_id) is not None or runner.session.seating.seat_of_user(user_id) is not None:
                return runner
        return None

    def system_table_in(self, channel_id: int) -> TableRunner | None:
        """The newest 系統桌 in a channel (what /mahjong table shows there to someone not seated)."""
        found = [r for r in self.by_id.values() if r.state.channel_id == channel_id and r.state.kind == SYSTEM]
        return max(found, key=lambda r: r.table_id) if found else None

    def took_seat(self, guild_id: int, user_id: int) -> None:
        """A person sat down at a table: they are in no queue any more (never queued while seated)."""
        self.background(self._leave_queue_quietly(guild_id, user_id))

    async def _leave_queue_quietly(self, guild_id: int, user_id: int) -> None:
        async with self._hall_lock(guild_id):
            try:
                entry = await self.store.dequeue(guild_id, user_id)
            except StoreError as error:
                log.warning("could not take %s out of the queue of %s: %s", user_id, guild_id, error)
                return
            if entry is not None:
                await self._arm_fill(guild_id, entry.rules)

    # ------------------------------------------------------------------ /mahjong tables

    @app_commands.command(name=_("tables"), description=_("This server's open and playing tables"))
    @app_commands.describe(rules=_("Rule set"))
    @app_commands.choices(rules=RULE_CHOICES)
    async def list_tables(self, interaction: discord.Interaction, rules: str | None = None) -> None:
        if rules is not None and rules not in PROFILES:
            raise TableError("err.bad_option", name="rules", accepted=", ".join(PROFILES))
        embed, view = await self._table_list(interaction, 1, rules)
        if view is None:
            await interaction.response.send_message(embed=embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def _table_list(
        self, interaction: discord.Interaction, page: int, rules: str | None
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        guild_id = interaction.guild_id
        assert guild_id is not None
        states = [r.state for r in self.by_id.values() if r.state.guild_id == guild_id and not r.session.closed]
        queues: dict[str, int] = {}
        try:
            for entry in await self.store.queue(guild_id):
                queues[entry.rules] = queues.get(entry.rules, 0) + 1
        except StoreError as error:  # the list still shows the tables
            log.info("no queue counts for %s: %s", guild_id, error)
        locale = locale_of(interaction.locale)
        embed, view, _page = table_list(states, page=page, rules=rules, queues=queues, locale=locale)
        return embed, view

    # ------------------------------------------------------------------ /mahjong play

    @app_commands.command(
        name=_("play"), description=_("Queue for a system table (系統桌); again to leave the queue")
    )
    @app_commands.describe(rules=_("Rule set"))
    @app_commands.choices(rules=RULE_CHOICES)
    async def play(self, interaction: discord.Interaction, rules: str | None = None) -> None:
        if rules is not None and rules not in PROFILES:
            raise TableError("err.bad_option", name="rules", accepted=", ".join(PROFILES))
        assert interaction.guild_id is not None
        async with self._hall_lock(interaction.guild_id):
            try:
                text, view = await self._play(interaction, rules)
            except StoreError as error:
                log.warning("quick play in %s: %s", interaction.guild_id, error)
                raise TableError("err.storage") from None
        await _reply(interaction, text, view)  # answered outside the lock: the queue never waits on Discord

    async def _play(
        self, interaction: discord.Interaction, rules: str | None
    ) -> tuple[str, discord.ui.View | None]:
        """In, out or moved (guild lock held); the answer to give."""
        guild_id, user, locale = interaction.guild_id, interaction.user, interaction.locale
        assert guild_id is not None and interaction.channel_id is not None
        current = await self.store.queued(guild_id, user.id)
        if current is not None and rules in (None, current.rules):  # play again: out of the queue
            await self.store.dequeue(guild_id, user.id)
            await self._arm_fill(guild_id, current.rules)
            return t(locale, "ok.unqueued", rules=_rules(interaction, current)), None
        where = self.seated.get((guild_id, user.id))
        if where is not None:
            raise TableError("err.already_seated", channel=where)
        if (await self.guild_settings(guild_id)).mahjong_channel_id is None:
            _table_here(interaction)  # this channel may be where the table opens: the bot must show it here
            from . import _check_private_thread

            await _check_private_thread(interaction)
        entry = QueueEntry(
            guild_id,
            user.id,
            rules or DEFAULT_RULES,
            user.display_name,
            locale_of(locale),
            locale_of(interaction.guild_locale or locale),
            interaction.channel_id,
            time.time(),
        )
        await self.store.enqueue(entry)
        if current is not None:  # moved from another rule set's queue
            await self._arm_fill(guild_id, current.rules)
        await self._form_tables(guild_id, entry.rules, interaction.channel_id)
        formed = self.seated_runner(guild_id, user.id, None)
        if formed is not None:  # they were the fourth (or further on, in a queue of eight)
            return t(locale, "ok.table_formed", channel=f"<#{formed.state.channel_id}>"), None
        queue = await self.store.queue(guild_id, entry.rules)
        due = await self._arm_fill(guild_id, entry.rules)
        key = "ok.queue_moved" if current is not None else "ok.queued"
        text = t(locale, key, rules=_rules(interaction, entry), place=place_in(queue, user.id), count=len(queue))
        if due is not None:
            text += " " + t(locale, "ok.queue_fill", when=f"<t:{int(due + 0.999)}:R>")
        view = discord.ui.View(timeout=None)
        view.add_item(QueueButton.make(t(locale, "btn.leave_queue")))
        return text, view

    async def leave_queue_click(self, interaction: discord.Interaction) -> None:
        """The Leave queue button under a /mahjong play answer."""
        guild_id = interaction.guild_id
        if guild_id is None:
            raise TableError("err.not_queued")
        async with self._hall_lock(guild_id):
            try:
                entry = await self.store.dequeue(guild_id, interaction.user.id)
            except StoreError:
                raise TableError("err.storage") from None
            if entry is None:
                raise TableError("err.not_queued")
            await self._arm_fill(guild_id, entry.rules)
        await interaction.response.edit_message(
            content=t(interaction.locale, "ok.unqueued", rules=_rules(interaction, entry)), view=None
        )

    # ------------------------------------------------------------------ forming 系統桌 (guild lock held)

    async def _form_tables(
        self, guild_id: int, rules: str, channel_id: int | None, *, fill: bool = False
    ) -> TableRunner | None:
        """Open a 系統桌 for each four in the queue, first come first (with ``fill``: one for whoever
        waits, AI in the empty seats); the last table opened, or None. People who sat down meanwhile
        leave the queue first."""
        queue = await self.store.queue(guild_id, rules)
        for entry in [e for e in queue if (guild_id, e.user_id) in self.seated]:
            await self.store.dequeue(guild_id, entry.user_id)
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
            await self._arm_fill(guild_id, rules)
        return opened

    async def _open_system(self, group: list[QueueEntry], channel_id: int) -> TableRunner | None:
        guild_id, rules, locale = group[0].guild_id, group[0].rules, group[0].table_locale
        settings = await self.guild_settings(guild_id)
        assert self.bot.user is not None
        host = self.bot.user.id  # nobody hosts a 系統桌: members with Manage Server may still close it
        state = TableState(0, guild_id, channel_id, host, system_settings(rules, settings.system_turn_seconds))
        state.kind = SYSTEM
        for entry in group:
            state.join(entry.user_id, entry.name, locale=entry.locale)
        state.start()  # AI in the empty seats (AI fill), phase playing
        host_name = t(locale, "hall.kind.system")
        options = {"table": state.settings.options.to_dict(), "locale": locale, "host_name": host_name}
        try:
            record = await self.store.open_system_table(
                group,
                channel_id=channel_id,
                host_id=host,
                rounds=state.settings.rounds,
                options=options,
                seats=seat_records(state.seats),
            )
        except StoreConflict as error:  # someone left the queue in between: the queue is looked at again
            log.info("a 系統桌 in %s was not formed: %s", guild_id, error)
            return None
        try:  # cluster hook: a table this process forms runs here, as one it creates (its DM clicks find it)
            await self.cluster.claim(record.id)
        except StoreError as error:  # its people are seated already: it plays here, and their clicks with it
            log.warning("the 系統桌 %s could not be claimed (%s): it runs here without a lease", record.id, error)
        state.table_id = record.id
        runner = TableRunner(cast("Mahjong", self), state, locale=locale, host_name=host_name)  # mixed into it
        self._register(runner)
        self.background(self._start_system(runner, [e.user_id for e in group]))
        return runner

    async def _start_system(self, runner: TableRunner, mention: list[int] | None) -> None:
        """Say where the table is (each player mentioned once, in the table's channel), then deal."""
        await self.bot.wait_until_ready()
        if mention:
            people = " ".join(f"<@{user_id}>" for user_id in mention)
            content = t(runner.state.locale, "hall.ready", mentions=people, channel=f"<#{runner.state.channel_id}>")
            payload = await runner.lobby_payload()
            # only these four are pinged, whatever the names in the embed say
            allowed = discord.AllowedMentions(users=[discord.Object(u) for u in mention], roles=False, everyone=False)
            await runner.post(content=content, embeds=payload.embeds, allowed_mentions=allowed)
        await self._start_match(runner)

    # ------------------------------------------------------------------ AI fill (guild lock held)

    async def _arm_fill(self, guild_id: int, rules: str) -> float | None:
        """(Re)arm the AI-fill timer of a queue; when it will fire (unix time), None if it will not."""
        key = (guild_id, rules)
        old = self.fill_timers.pop(key, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        settings = await self.guild_settings(guild_id)
        # the tables' timer scale (1 in production) shrinks this wait too, so tests wait a second, not minutes
        due = fill_at(await self.store.queue(guild_id, rules), settings, self.timing.timer_scale)
        if due is not None:
            self.fill_timers[key] = asyncio.create_task(self._fill_when_due(guild_id, rules, due))
        return due

    async def _fill_when_due(self, guild_id: int, rules: str, due: float) -> None:
        await asyncio.sleep(max(0.0, due - time.time()))
        await self.bot.wait_until_ready()
        async with self._hall_lock(guild_id):
            if self.fill_timers.get((guild_id, rules)) is not asyncio.current_task():
                return  # re-armed meanwhile
            del self.fill_timers[(guild_id, rules)]
            try:
                queue = await self.store.queue(guild_id, rules)
                now_due = fill_at(queue, await self.guild_settings(guild_id), self.timing.timer_scale)
                if now_due is not None and now_due <= time.time() + 0.01:
                    await self._form_tables(guild_id, rules, None, fill=True)
                else:  # the first in the queue left, or the wait grew: wait on
                    await self._arm_fill(guild_id, rules)
            except StoreError as error:
                log.warning("AI fill in %s: %s", guild_id, error)

    # ------------------------------------------------------------------ /mahjong setup

    async def _settings_changed(self, interaction: discord.Interaction, **changes: Any) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        async with self._hall_lock(guild_id):
            try:
                settings = await self.store.set_guild_settings(guild_id, **changes)
            except StoreError:
                raise TableError("err.storage") from None
            self.hall_settings[guild_id] = settings
            for rules in PROFILES:  # a new AI-fill wait changes when each queue fills
                await self._arm_fill(guild_id, rules)
        await _reply(interaction, settings_text(settings, interaction.locale))

    @setup_group.command(name=_("channel"), description=_("Where system tables open"))
    @app_commands.describe(where=_("The channel (default: this one)"))
    async def setup_channel(
        self, interaction: discord.Interaction, where: discord.TextChannel | None = None
    ) -> None:
        _manager(interaction)
        if where is None:
            _table_here(interaction)
            chosen = interaction.channel_id
        else:
            if where.guild.id != interaction.guild_id:
                raise TableError("err.bad_option", name="where", accepted="#…")
            me = where.guild.me  # the bot's permissions there, as its cache knows them
            missing = _missing(where.permissions_for(me)) if me is not None else ""
            if missing:
                raise TableError("err.bot_permissions", missing=missing)
            chosen = where.id
        await self._settings_changed(interaction, mahjong_channel_id=chosen)

    @commands.Cog.listener("on_guild_channel_delete")
    async def hall_channel_deleted(self, channel: discord.abc.GuildChannel) -> None:
        """The mahjong channel went away: 系統桌 open where the fourth person queued again."""
        settings = await self.guild_settings(channel.guild.id)
        if settings.mahjong_channel_id == channel.id:
            try:
                self.hall_settings[channel.guild.id] = await self.store.set_guild_settings(
                    channel.guild.id, mahjong_channel_id=None
                )
            except StoreError as error:
                log.warning("could not forget the deleted mahjong channel of %s: %s", channel.guild.id, error)

    @setup_group.command(name=_("turn"), description=_("System tables' turn time (the documents: 5 s)"))
    @app_commands.describe(seconds=_("Seconds"))
    @app_commands.choices(seconds=SYSTEM_TURN_OPTIONS)
    async def setup_turn(self, interaction: discord.Interaction, seconds: int) -> None:
        _manager(interaction)
        if seconds not in SYSTEM_TURN_CHOICES:
            raise TableError(
                "err.bad_option", name="seconds", accepted=", ".join(map(str, SYSTEM_TURN_CHOICES))
            )
        await self._settings_changed(interaction, system_turn_seconds=seconds)

    @setup_group.command(name=_("ai_fill"), description=_("Let AI fill a system table after a wait"))
    @app_commands.describe(minutes=_("Minutes of waiting; 0 turns AI fill off"))
    async def setup_ai_fill(
        self, interaction: discord.Interaction, minutes: app_commands.Range[int, 0, 60]
    ) -> None:
        _manager(interaction)
        if not 0 <= minutes <= 60:
            raise TableError("err.bad_option", name="minutes", accepted="0–60")
        await self._settings_changed(interaction, ai_fill_seconds=minutes * 60 if minutes else None)

    @setup_group.command(
        name=_("password"), description=_("Whether player tables must have a password (玩家桌必須設密碼)")
    )
    @app_commands.describe(required=_("Required"))
    async def setup_password(self, interaction: discord.Interaction, required: bool) -> None:
        _manager(interaction)
        await self._settings_changed(interaction, require_password=required)

    @setup_group.command(name=_("show"), description=_("This server's mahjong settings"))
    async def setup_show(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await _reply(interaction, settings_text(await self.guild_settings(interaction.guild_id), interaction.locale))

    # ------------------------------------------------------------------ the hall's buttons

    async def table_page_click(self, interaction: discord.Interaction, page: int, rules: str | None) -> None:
        embed, view = await self._table_list(interaction, page, rules)
        await interaction.response.edit_message(embed=embed, view=view)

    async def join_listed_click(self, interaction: discord.Interaction, table: int) -> None:
        runner = self.by_id.get(table)
        if runner is None or runner.session.closed or runner.state.guild_id != interaction.guild_id:
            raise TableError("err.table_over")  # another server's table is never reached from here
        await self._join_listed(interaction, runner)

    async def _join_listed(self, interaction: discord.Interaction, runner: TableRunner) -> None:
        """As /mahjong join in the table's channel: a password table asks for the password first."""
        state = runner.state
        channel = f"<#{state.channel_id}>"
        if state.locked and interaction.user.id != state.host_id and state.seat_of(interaction.user.id) is None:

            async def entered(modal_interaction: discord.Interaction, value: str) -> None:
                self._join(modal_interaction, runner, value)
                await modal_interaction.response.send_message(
                    t(modal_interaction.locale, "ok.joined_at", channel=channel), ephemeral=True
                )

            from . import PasswordModal

            await interaction.response.send_modal(PasswordModal(locale_of(interaction.locale), entered))
            return
        self._join(interaction, runner, None)
        await _reply(interaction, t(interaction.locale, "ok.joined_at", channel=channel))


def _table_here(interaction: discord.Interaction) -> None:
    """The bot may show a table in the interaction's channel (the table commands' own check)."""
    from . import _check_bot_permissions

    _check_bot_permissions(interaction)


def _missing(permissions: discord.Permissions) -> str:
    from . import TABLE_PERMISSIONS

    return ", ".join(name.replace("_", " ").title() for name in TABLE_PERMISSIONS if not getattr(permissions, name))


def settings_text(settings: GuildSettings, locale: Any) -> str:
    """/mahjong setup's answer: every hall setting of the server as it now is."""
    minutes = (settings.ai_fill_seconds or 0) // 60
    channel = settings.mahjong_channel_id
    return t(
        locale,
        "setup.show",
        channel=f"<#{channel}>" if channel else t(locale, "setup.channel_unset"),
        turn=settings.system_turn_seconds,
        fill=t(locale, "setup.fill_after", minutes=minutes) if settings.ai_fill_seconds else t(locale, "setup.fill_off"),
        password=t(locale, "setup.required" if settings.require_password else "setup.optional"),
    )


def _rules(interaction: discord.Interaction, entry: QueueEntry) -> str:
    return t(interaction.locale, f"rules.{entry.rules}")
