"""Refusals answered politely and bugs apologised for, in every /mahjong cog: a refusal is a ``TableError``
raised anywhere below a command or a click; the cog's error handler (``MahjongCog``) or ``guarded`` (for
buttons and forms) turns it into an ephemeral answer in the reader's language.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from table.lobby import TableError

from ..i18n import t
from .answers import mark_received

log = logging.getLogger(__name__)


async def answer(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException as error:
        log.info("could not answer interaction %s: %s", interaction.id, error)


async def guarded(interaction: discord.Interaction, handler: Any, *args: Any) -> None:
    """Run a click or modal handler: refusals are answered politely, bugs are logged and apologised for."""
    mark_received(interaction)  # the 3-second budget counts from here when Discord's clock is not trusted
    try:
        await handler(*args)
    except TableError as error:
        await answer(interaction, t(interaction.locale, error.key, **error.values))
    except Exception:
        log.exception("handling %s failed", interaction.data)
        await answer(interaction, t(interaction.locale, "err.internal"))


class MahjongCog(commands.Cog):
    """A cog whose commands sit in the /mahjong group (cogs/mahjong/__init__.py puts them there)."""

    async def cog_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        original = getattr(error, "original", error)
        if isinstance(original, TableError):
            await answer(interaction, t(interaction.locale, original.key, **original.values))
            return
        if isinstance(error, app_commands.NoPrivateMessage):
            await answer(interaction, t(interaction.locale, "err.guild_only"))
            return
        log.error("command %s failed", interaction.command and interaction.command.qualified_name, exc_info=original)
        await answer(interaction, t(interaction.locale, "err.internal"))
