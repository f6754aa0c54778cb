"""/mahjong setup ...: a server's mahjong settings (where 系統桌 open, their turn time, the AI-fill wait,
whether player tables need a password, which role runs tournaments besides Manage Server, whether the
leaderboard is on the web table's /board page), for members
with Manage Server. Stored in data/hall.py; a change re-arms the quick-play queues' AI fill (quickplay.py).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from data import GuildSettings, StoreError
from engine.rules import PROFILES
from table.lobby import TableError

from ..i18n import t
from .guards import check_bot_permissions, missing_permissions
from .refusals import MahjongCog
from .system import SYSTEM_TURN_CHOICES

if TYPE_CHECKING:
    from .tables import Mahjong

log = logging.getLogger(__name__)

SYSTEM_TURN_OPTIONS = [app_commands.Choice(name=f"{s}s", value=s) for s in SYSTEM_TURN_CHOICES]


def _manager(interaction: discord.Interaction) -> None:
    """Server settings are for members with Manage Server (as Discord resolved it for this interaction)."""
    if interaction.guild_id is None or not interaction.permissions.manage_guild:
        raise TableError("err.need_manage")


async def _reply(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)


class ServerSettings(MahjongCog):
    """/mahjong setup channel, turn, ai_fill, password, organisers, web_board and show."""

    setup_group = app_commands.Group(
        name=_("setup"), description=_("This server's mahjong settings (Manage Server)")
    )

    def __init__(self, tables: Mahjong) -> None:
        self.store = tables.store
        self.queues = tables.queues

    async def _settings_changed(self, interaction: discord.Interaction, **changes: Any) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        async with self.queues.lock(guild_id):
            try:
                settings = await self.store.set_guild_settings(guild_id, **changes)
            except StoreError:
                raise TableError("err.storage") from None
            self.queues.settings[guild_id] = settings
            for rules in PROFILES:  # a new AI-fill wait changes when each queue fills
                await self.queues.arm_fill(guild_id, rules)
        await _reply(interaction, settings_text(settings, interaction.locale))

    @setup_group.command(name=_("channel"), description=_("Where system tables open"))
    @app_commands.describe(where=_("The channel (default: this one)"))
    async def setup_channel(
        self, interaction: discord.Interaction, where: discord.TextChannel | None = None
    ) -> None:
        _manager(interaction)
        if where is None:
            check_bot_permissions(interaction)  # the bot may show a table here (the table commands' own check)
            chosen = interaction.channel_id
        else:
            if where.guild.id != interaction.guild_id:
                raise TableError("err.bad_option", name="where", accepted="#…")
            me = where.guild.me  # the bot's permissions there, as its cache knows them
            missing = missing_permissions(where.permissions_for(me)) if me is not None else ""
            if missing:
                raise TableError("err.bot_permissions", missing=missing)
            chosen = where.id
        await self._settings_changed(interaction, mahjong_channel_id=chosen)

    @commands.Cog.listener("on_guild_channel_delete")
    async def hall_channel_deleted(self, channel: discord.abc.GuildChannel) -> None:
        """The mahjong channel went away: 系統桌 open where the fourth person queued again."""
        settings = await self.queues.guild_settings(channel.guild.id)
        if settings.mahjong_channel_id == channel.id:
            try:
                self.queues.settings[channel.guild.id] = await self.store.set_guild_settings(
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

    @setup_group.command(name=_("organisers"), description=_("Who creates and runs tournaments besides Manage Server"))
    @app_commands.describe(role=_("Members with this role run tournaments too (leave out: Manage Server only)"))
    async def setup_organisers(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        _manager(interaction)
        if role is not None and (role.guild.id != interaction.guild_id or role.is_default()):
            raise TableError("err.bad_option", name="role", accepted="@role")
        await self._settings_changed(interaction, organiser_role_id=None if role is None else role.id)

    @setup_group.command(name=_("web_board"), description=_("Whether this server's leaderboard is on the web table"))
    @app_commands.describe(shown=_("Shown on the web"))
    async def setup_web_board(self, interaction: discord.Interaction, shown: bool) -> None:
        _manager(interaction)
        await self._settings_changed(interaction, web_board=shown)

    @setup_group.command(name=_("show"), description=_("This server's mahjong settings"))
    async def setup_show(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await _reply(interaction, settings_text(await self.queues.guild_settings(interaction.guild_id), interaction.locale))


def settings_text(settings: GuildSettings, locale: Any) -> str:
    """/mahjong setup's answer: every hall setting of the server as it now is."""
    minutes = (settings.ai_fill_seconds or 0) // 60
    channel = settings.mahjong_channel_id
    role = settings.organiser_role_id
    organisers = t(locale, "setup.organisers", role=f"<@&{role}>") if role else t(locale, "setup.organisers_manage")
    shown = t(
        locale,
        "setup.show",
        channel=f"<#{channel}>" if channel else t(locale, "setup.channel_unset"),
        turn=settings.system_turn_seconds,
        fill=t(locale, "setup.fill_after", minutes=minutes) if settings.ai_fill_seconds else t(locale, "setup.fill_off"),
        password=t(locale, "setup.required" if settings.require_password else "setup.optional"),
    )
    board = t(locale, "setup.web_board_on" if settings.web_board else "setup.web_board_off")
    return f"{shown}\n{organisers}\n{board}"
