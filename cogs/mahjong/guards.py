"""The checks the /mahjong cogs make before a table opens or a command acts on one: that the channel
can show a table, which table a channel command means, who may manage it; and the password form.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from table.lobby import TableError

from ..i18n import t
from .clicks import hand_to_cog
from .refusals import answer
from .runner import NETWORK_ERRORS

if TYPE_CHECKING:
    from .registry import TableRegistry
    from .runner import TableRunner

log = logging.getLogger(__name__)

# What a table needs from the bot in its channel: the lobby and table messages, pictures, standings
TABLE_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files", "read_message_history")


class PasswordModal(discord.ui.Modal):
    """Asks for the table's four digits; the callback decides what they open (create or join)."""

    def __init__(self, locale: str, on_password: Callable[[discord.Interaction, str], Awaitable[None]]) -> None:
        super().__init__(title=t(locale, "modal.password.title"), timeout=300)
        self.locale = locale
        self.on_password = on_password
        self.password: discord.ui.TextInput = discord.ui.TextInput(
            label=t(locale, "modal.password.label"), min_length=4, max_length=4, custom_id="password"
        )
        self.add_item(self.password)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        password = self.password.value.strip()
        await hand_to_cog(interaction, lambda _cog: self.on_password(interaction, password))

    # discord.py 2.7's own Modal.on_error drops BaseView's item argument: this is Modal's signature
    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:  # type: ignore[override]
        log.exception("password modal failed", exc_info=error)
        await answer(interaction, t(interaction.locale, "err.internal"))


def missing_permissions(permissions: discord.Permissions) -> str:
    """The table permissions the bot lacks, as people read them ("" if none)."""
    return ", ".join(name.replace("_", " ").title() for name in TABLE_PERMISSIONS if not getattr(permissions, name))


def check_bot_permissions(interaction: discord.Interaction) -> None:
    """Refuse a table in a channel where the bot could not show it (an interaction answer needs no
    permission, so without this check a table would open and then play invisibly). In a thread, posting
    takes Send Messages in Threads, not Send Messages (a thread-only or forum setup grants only that)."""
    needed = list(TABLE_PERMISSIONS)
    if isinstance(interaction.channel, discord.Thread):
        needed[needed.index("send_messages")] = "send_messages_in_threads"
    missing = [name for name in needed if not getattr(interaction.app_permissions, name)]
    if missing:
        words = ", ".join(name.replace("_", " ").title() for name in missing)
        raise TableError("err.bot_permissions", missing=words)


async def check_private_thread(interaction: discord.Interaction) -> None:
    """A private thread shows its messages to its members only: the bot must be one, or every post there
    fails (403 50001) though ``app_permissions`` (its channel's) say it may post. Discord is asked
    (GET /channels/{thread}/thread-members/{bot}) unless the interaction said so already."""
    thread = interaction.channel
    if not isinstance(thread, discord.Thread) or thread.type is not discord.ChannelType.private_thread:
        return
    if thread.me is not None or interaction.app_permissions.manage_threads:  # a member, or sees every thread
        return
    client = interaction.client
    assert client.user is not None
    try:
        await thread.fetch_member(client.user.id)
    except (discord.NotFound, discord.Forbidden):
        raise TableError("err.private_thread") from None
    except NETWORK_ERRORS as error:  # cannot tell: the table opens, and a refused post pauses it
        log.info("could not tell whether the bot is in thread %s: %s", thread.id, error)


def runner_here(registry: TableRegistry, interaction: discord.Interaction) -> TableRunner:
    """The table a channel command acts on: a channel holds one player table and any 系統桌 (hall.py),
    and a person's own table there comes first."""
    channel = interaction.channel_id or 0
    runner = (
        registry.seated_runner(interaction.guild_id or 0, interaction.user.id, channel)
        or registry.in_channel(channel)
        or registry.system_table_in(channel)
    )
    if runner is None:
        raise TableError("err.no_table")
    return runner


def table_in_guild(registry: TableRegistry, interaction: discord.Interaction, table_id: int) -> TableRunner:
    """A table of this server by its number (so a deleted or unreadable channel's table can be closed
    from anywhere); another server's table is as unknown as a missing one."""
    runner = registry.get(table_id)
    if runner is None or runner.state.guild_id != interaction.guild_id:
        raise TableError("err.no_such_table", table=table_id)
    return runner


def check_host(interaction: discord.Interaction, runner: TableRunner) -> None:
    """Host commands are for the host, or a member with Manage Server (as Discord resolved it here)."""
    manager = interaction.guild_id is not None and interaction.permissions.manage_guild
    if not runner.state.may_manage(interaction.user.id, manage_guild=manager):
        raise TableError("err.not_host")


def check_free_channel(registry: TableRegistry, interaction: discord.Interaction) -> None:
    """A new table needs a channel without one, and a creator seated nowhere else in the server."""
    if registry.in_channel(interaction.channel_id or 0) is not None:
        raise TableError("err.table_exists")
    where = registry.where_seated(interaction.guild_id or 0, interaction.user.id)
    if where is not None:
        raise TableError("err.already_seated", channel=where)
