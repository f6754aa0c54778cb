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


class ClaimButton(discord.ui.DynamicItem[discord.ui.Button], template=r"claim:(?P<n>[0-9]+)"):
    """A claim button that survives a restart: any bot instance rebuilds it from its custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Claim {n}", custom_id=f"claim:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(cls, interaction, item, match):  # type: ignore[override]
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(content=f"{interaction.user.name} claimed {self.n}")


BAD_VIEWS = ("no_label", "two_defaults", "empty_custom_id", "option_emoji")


def bad_view(kind: str) -> discord.ui.View:
    """A view with one mistake discord.py lets through and Discord refuses."""
    view = discord.ui.View()
    if kind == "no_label":
        view.add_item(discord.ui.Button(custom_id="x"))
    elif kind == "two_defaults":
        options = [discord.SelectOption(label=w, default=True) for w in ("E", "S")]
        view.add_item(discord.ui.Select(custom_id="seat", options=options, max_values=1))
    elif kind == "empty_custom_id":
        view.add_item(discord.ui.Button(label="Go", custom_id=""))
    elif kind == "option_emoji":
        view.add_item(discord.ui.Select(custom_id="t", options=[discord.SelectOption(label="5m", emoji="m")]))
    return view


class NameModal(discord.ui.Modal, title="Your name"):
    name = discord.ui.TextInput(label="Name", custom_id="name", max_length=32)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"Hello {self.name.value}")


def build_bot(
    server: DevServer, *, view_timeout: float | None = 60.0, slow_delay: float = 0.0
) -> commands.Bot:
    bot = make_bot()
    bot.gate = asyncio.Event()  # type: ignore[attr-defined]  # commands that 'hold' wait for the test to set it
    bot.add_dynamic_items(ClaimButton)
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
    async def think(
        interaction: discord.Interaction, delay: float = 0.0, hold: bool = False, ephemeral: bool = False
    ) -> None:
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        await asyncio.sleep(delay)
        if hold:
            await bot.gate.wait()  # type: ignore[attr-defined]
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

    @bot.tree.command(description="Post n messages in the channel as fast as discord.py lets it")
    async def burst(interaction: discord.Interaction, count: int) -> None:
        await interaction.response.send_message(f"posting {count}", ephemeral=True)
        for i in range(count):
            await interaction.channel.send(f"burst {i + 1}/{count}")

    @bot.tree.command(description="Post a table, then edit it once per move")
    async def moves(interaction: discord.Interaction, count: int) -> None:
        await interaction.response.send_message("moving", ephemeral=True)
        table = await interaction.channel.send("move 0")
        for i in range(count):
            await table.edit(content=f"move {i + 1}")

    @bot.tree.command(description="Edit a message of this channel several times")
    async def reedit(interaction: discord.Interaction, message_id: str, times: int) -> None:
        await interaction.response.send_message("editing", ephemeral=True)
        message = await interaction.channel.fetch_message(int(message_id))
        try:
            for i in range(times):
                await message.edit(content=f"edit {i + 1}")
        except discord.HTTPException as error:
            await interaction.channel.send(f"edit failed: {error.status} {error.code}")

    @bot.tree.command(description="Post a message, then edit it into nothing")
    async def blank(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("blanking", ephemeral=True)
        message = await interaction.channel.send("soon nothing")
        try:
            await message.edit(content=None)
        except discord.HTTPException as error:
            await interaction.channel.send(f"blank failed: {error.status} {error.code}")

    @bot.tree.command(description="Post files, then edit more in")
    async def files(interaction: discord.Interaction, first: int, more: int) -> None:
        await interaction.response.send_message("filing", ephemeral=True)
        made = [discord.File(io.BytesIO(png_bytes()), f"p{i}.png") for i in range(first)]
        message = await interaction.channel.send("files", files=made)
        added = [discord.File(io.BytesIO(png_bytes()), f"q{i}.png") for i in range(more)]
        try:
            await message.edit(attachments=[*message.attachments, *added])
        except discord.HTTPException as error:
            await interaction.channel.send(f"files failed: {error.status} {error.code}")

    @bot.tree.command(description="A button with this emoji")
    async def emoji(interaction: discord.Interaction, emoji: str) -> None:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="Tile", emoji=emoji, custom_id="tile"))
        try:
            await interaction.response.send_message("emoji button", view=view)
        except discord.HTTPException as error:
            await interaction.channel.send(f"emoji failed: {error.code}")

    @bot.tree.command(description="A view with a mistake")
    @app_commands.choices(kind=[app_commands.Choice(name=k, value=k) for k in BAD_VIEWS])
    async def badview(interaction: discord.Interaction, kind: app_commands.Choice[str]) -> None:
        try:
            await interaction.response.send_message("bad view", view=bad_view(kind.value))
        except discord.HTTPException as error:
            await interaction.channel.send(f"{kind.value} failed: {error.code}")

    @bot.tree.command(description="Post claim buttons that outlive the bot")
    async def claims(interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        for n in (1, 2):
            view.add_item(ClaimButton(n))
        await interaction.response.send_message("claims open", view=view)

    @bot.tree.command(description="An ephemeral note the bot edits when told to")
    async def note(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("note v1", ephemeral=True)
        await bot.gate.wait()  # type: ignore[attr-defined]
        try:
            await interaction.edit_original_response(content="note v2")
        except discord.NotFound as error:
            await interaction.channel.send(f"note edit failed: {error.code}")

    @bot.tree.command(description="Answer, replace the answer, take it back, then say so")
    async def vanish(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("here")
        await interaction.edit_original_response(
            content="still here", attachments=[discord.File(io.BytesIO(png_bytes(4)), "dot.png")]
        )
        await interaction.delete_original_response()
        await interaction.followup.send("gone", ephemeral=True)

    @bot.tree.command(description="Where am I, with what permissions")
    async def whereami(interaction: discord.Interaction) -> None:
        where = "dm" if interaction.guild_id is None else "guild"
        await interaction.response.send_message(f"{where} {interaction.app_permissions.value}")

    @bot.tree.command(description="Only in the server")
    @app_commands.guild_only()
    async def seat(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("seated")

    @bot.tree.command(description="Raise")
    async def crash(interaction: discord.Interaction) -> None:
        raise ValueError("the command crashed")

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot
