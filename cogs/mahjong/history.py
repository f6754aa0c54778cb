"""/mahjong history and /mahjong hand: a server's recent matches, each with a Replay button, and a
finished hand's score sheet again. The embeds are stats.py's, the score picture render's.
"""

from __future__ import annotations

import asyncio
from functools import partial

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

import render
from data import Store
from engine.view import HandResult
from table.lobby import TableError

from ..i18n import t
from . import stats
from .answers import respond
from .live import Payload
from .refusals import MahjongCog
from .replay import history_view, reader_theme, replay_view


class History(MahjongCog):
    """A server's finished matches and hands, from the store."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @app_commands.command(name=_("history"), description=_("Recent matches in this server"))
    async def history(self, interaction: discord.Interaction) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None

        async def build() -> Payload:  # queries: within Discord's 3 s, or after a deferral (answers.py)
            matches = await self.store.history(guild_id, limit=10)
            embed = stats.history_embed(matches, partial(t, interaction.locale))
            return Payload(embeds=[embed], view=history_view(matches, interaction.locale))  # a Replay button a match

        await respond(interaction, build, update=False, ephemeral=False)

    @app_commands.command(name=_("hand"), description=_("A finished hand's score sheet again"))
    @app_commands.describe(hand_id=_("The hand's number in the history"))
    async def hand(self, interaction: discord.Interaction, hand_id: app_commands.Range[int, 1]) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        if hand_id < 1:
            raise TableError("err.bad_option", name="hand_id", accepted="1, 2, 3 …")

        async def build() -> Payload:  # a query and a picture: within 3 s, or after a deferral (answers.py)
            found = await self.store.finished_hand(guild_id, hand_id)
            if found is None:
                raise TableError("err.no_hand")
            result = HandResult.from_dict(found.result)
            theme = await reader_theme(self.store, interaction.user.id)
            png = await asyncio.to_thread(partial(render.render_score, result, list(found.names), theme=theme))
            return Payload(
                content=t(interaction.locale, "hist.hand", id=found.id, hand=found.hand_no, table=found.table_id),
                png=png,
                filename="score.png",
                view=replay_view(found.table_id, found.hand_no, interaction.locale),
            )

        await respond(interaction, build, update=False, ephemeral=False)
