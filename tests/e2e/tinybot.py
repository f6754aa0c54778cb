"""A tiny bot for the stand-in's own tests: one of each thing the mahjong bot does on Discord.

Each handler reports the Discord error it met in a message, so tests observe everything through Discord.
"""

from __future__ import annotations

import asyncio
import io
import logging

import discord
from discord import app_commands
from discord.ext import commands
from PIL import Image

from devserver import DevServer
from devserver.fixtures import make_bot

log = logging.getLogger("tinybot")


def png_bytes(size: int = 8) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (size, size), (0, 128, 0)).save(buffer, format="PNG")
    return buffer.getvalue()


class TableView(discord.ui.View):
    """A table message: Join button, Leave (disabled until joined), a seat select; times out to disabled."""

    def __init__(self, timeout: float | None = 60.0) -> None:
        super().__init__(timeout=timeout)
        self.message: discord.Message | None = None
        self.players: list[str] = []

    @discord.ui.button(label="Join", custom_id="table:join", style=discord.ButtonStyle.primary)
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.players.append(interaction.user.name)
        self.leave.disabled = False
        await interaction.response.edit_message(content=f"Players: {', '.join(self.players)}", view=self)

    @discord.ui.button(label="Leave", custom_id="table:leave", disabled=True)
    async def leave(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.defer()  # DEFERRED_UPDATE, then edit the original (this message)
        self.players.remove(interaction.user.name)
        await interaction.edit_original_response(content=f"Players: {', '.join(self.players) or 'none'}")

    @discord.ui.select(
        custom_id="table:seat",
        placeholder="Pick a seat",
        options=[discord.SelectOption(label=w, value=w) for w in ("E", "S", "W", "N")],
    )
    async def seat(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(f"You sit {select.values[0]}", ephemeral=True)

    @discord.ui.button(label="Boom", custom_id="table:boom", style=discord.ButtonStyle.danger)
    async def boom(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        raise RuntimeError("boom button exploded")

    async def on_timeout(self) -> None:
        for item in self.children:
            item.disabled = True  # type: ignore[attr-defined]
        if self.message is not None:
            await self.message.edit(content="Table closed", view=self)


class HandView(discord.ui.View):
    """Sits on a DM: a click re-renders the hand, replacing the image (a multipart UPDATE_MESSAGE)."""

    @discord.ui.button(label="Sort", custom_id="hand:sort")
    async def sort(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        picture = discord.File(io.BytesIO(png_bytes(16)), "hand.png")
        await interaction.response.edit_message(content="Your hand (sorted)", attachments=[picture])


class NameModal(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="name", max_length=32)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}")


def build_bot(
    server: DevServer, *, view_timeout: float | None = 60.0, slow_delay: float = 0.0
) -> commands.Bot:
    bot = make_bot()
    table = app_commands.Group(name="table", description="Mahjong tables")

    @table.command(name="open", description="Open a table")
    @app_commands.choices(rules=[app_commands.Choice(name=r, value=r) for r in ("taiwan16", "hongkong")])
    async def table_open(
        interaction: discord.Interaction, rules: app_commands.Choice[str], seats: int = 4
    ) -> None:
        view = TableView(timeout=view_timeout)
        await interaction.response.send_message(f"Table ({rules.value}, {seats} seats) is open", view=view)
        view.message = await interaction.original_response()

    @table.command(name="post", description="Post a table message in the channel")
    async def table_post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting", ephemeral=True)
        view = TableView(timeout=view_timeout)
        view.message = await interaction.channel.send("Table via channel", view=view)

    bot.tree.add_command(table)

    @bot.tree.command(description="Answer late")
    async def slow(interaction: discord.Interaction) -> None:
        await asyncio.sleep(slow_delay)
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as error:
            await interaction.channel.send(f"late: {error.code}")

    @bot.tree.command(description="Answer twice")
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        try:  # a fresh InteractionResponse forgets discord.py's own 'already responded' guard
            await discord.InteractionResponse(interaction).send_message("second")
        except discord.HTTPException as error:
            await interaction.followup.send(f"second failed: {error.code}")

    @bot.tree.command(description="DM someone a picture")
    async def hand(interaction: discord.Interaction, player: discord.Member) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            picture = discord.File(io.BytesIO(png_bytes()), "hand.png")
            await player.send("Your hand", file=picture, view=HandView())
        except discord.Forbidden as error:
            await interaction.followup.send(f"DM refused: {error.code}", ephemeral=True)
        else:
            await interaction.followup.send("sent", ephemeral=True)

    @bot.tree.command(description="Say something long")
    async def say(interaction: discord.Interaction, length: int) -> None:
        await interaction.response.defer(ephemeral=True)
        try:
            await interaction.channel.send("x" * length)
        except discord.HTTPException as error:
            await interaction.followup.send(f"rejected: {error.status} {error.code}", ephemeral=True)
        else:
            await interaction.followup.send("said", ephemeral=True)

    @bot.tree.command(description="Upload a file of n bytes")
    async def upload(interaction: discord.Interaction, size: int) -> None:
        try:
            await interaction.response.send_message(file=discord.File(io.BytesIO(b"\0" * size), "blob.bin"))
        except discord.HTTPException as error:
            await interaction.channel.send(f"upload failed: {error.status} {error.code}")

    @bot.tree.command(description="Fetch a message by id")
    async def fetch(interaction: discord.Interaction, message_id: str) -> None:
        try:
            message = await interaction.channel.fetch_message(int(message_id))
        except discord.NotFound as error:
            await interaction.response.send_message(f"fetch failed: {error.code}")
        else:
            await interaction.response.send_message(f"found: {message.content}")

    @bot.tree.command(description="Ask for a name")
    async def name(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(NameModal())

    @bot.tree.command(description="Think, then follow up")
    async def think(interaction: discord.Interaction, delay: float = 0.0) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(delay)
        try:
            await interaction.followup.send("done thinking")
        except discord.HTTPException as error:
            await interaction.channel.send(f"follow-up failed: {error.status} {error.code}")

    @bot.tree.command(description="Big embed")
    async def embed(interaction: discord.Interaction, title_length: int) -> None:
        try:
            await interaction.response.send_message(embed=discord.Embed(title="t" * title_length))
        except discord.HTTPException as error:
            await interaction.channel.send(f"embed failed: {error.code}")

    @bot.tree.command(description="Raise")
    async def crash(interaction: discord.Interaction) -> None:
        raise ValueError("the command crashed")

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot
