"""The stand-in shards as Discord does: two real discord.py processes' worth of bots, each owning one shard
of the same application. The guild's events reach only the shard it belongs to, and a click on a DM
button — an event with no guild — reaches shard 0 alone, whichever bot sent the DM."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands

from devserver import Config, DevServer
from devserver.fixtures import Harness
from devserver.gateway import shard_of


class DealView(discord.ui.View):
    def __init__(self, name: str, heard: list[str]) -> None:
        super().__init__(timeout=None)
        self.name, self.heard = name, heard

    @discord.ui.button(label="Take", custom_id="deal:take")
    async def take(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        self.heard.append(self.name)
        await interaction.response.edit_message(content=f"taken, answered by {self.name}", view=None)


def shard_bot(name: str, shard_id: int, shard_count: int, heard: list[str], *, commands_too: bool) -> commands.Bot:
    bot = commands.AutoShardedBot(
        command_prefix=commands.when_mentioned,
        intents=discord.Intents.default(),
        guild_ready_timeout=0.05,
        chunk_guilds_at_startup=False,
        member_cache_flags=discord.MemberCacheFlags.none(),
        shard_ids=[shard_id],
        shard_count=shard_count,
    )

    @app_commands.command(name="deal", description="DM the caller a button")
    async def deal(interaction: discord.Interaction) -> None:
        heard.append(f"{name}: /deal")
        await interaction.user.send("Your tile", view=DealView(name, heard))
        await interaction.response.send_message("sent", ephemeral=True)

    async def setup_hook() -> None:
        bot.add_view(DealView(name, heard))  # every process knows the button, as after a restart
        if commands_too:
            bot.tree.add_command(deal)
            await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


def split(guild_id: int) -> tuple[int, int]:
    """A shard count that puts the guild on a shard other than 0, and that shard."""
    for count in range(2, 64):
        if shard_of(guild_id, count) != 0:
            return count, shard_of(guild_id, count)
    raise AssertionError("no shard count puts the guild off shard 0")


async def test_guild_events_go_to_their_shard_and_dm_clicks_to_shard_0(harness: Harness, devserver: DevServer) -> None:
    guild_id = devserver.world.guild_id
    count, owner = split(guild_id)
    heard: list[str] = []
    zero = await harness.start(shard_bot("shard 0", 0, count, heard, commands_too=False))
    other = await harness.start(shard_bot(f"shard {owner}", owner, count, heard, commands_too=True))
    assert zero.get_guild(guild_id) is None  # READY and GUILD_CREATE went to the guild's shard only
    assert other.get_guild(guild_id) is not None
    assert sorted(devserver.gateway.sessions) == [0, owner]

    alice = devserver.member("alice")
    assert (await (await alice.slash("deal")).response()).type == 4
    assert heard == [f"shard {owner}: /deal"]  # a guild interaction: the guild's shard
    [dm] = alice.dms()
    clicked = await alice.click(dm, "Take")
    assert (await clicked.response()).type == 7
    assert heard[-1] == "shard 0" and dm.content == "taken, answered by shard 0"  # a DM click: shard 0


async def test_a_click_for_a_shard_that_is_down_fails(harness: Harness, devserver: DevServer) -> None:
    count, owner = split(devserver.world.guild_id)
    heard: list[str] = []
    await harness.start(shard_bot("shard 0", 0, count, heard, commands_too=True))  # the guild's shard never comes
    assert not devserver.gateway.reaches({"guild_id": str(devserver.world.guild_id)})
    assert devserver.gateway.reaches({})  # DMs: shard 0 is up
    sent = await devserver.member("alice").slash("deal")
    assert sent.failed and heard == []


@pytest.mark.devserver(shards=4)
async def test_gateway_bot_recommends_the_configured_shard_count(devserver: DevServer) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.get(
            f"{devserver.api_url}/gateway/bot", headers={"Authorization": f"Bot {devserver.config.token}"}
        ) as answer:
            body = await answer.json()
    assert body["shards"] == 4 and body["url"] == devserver.gateway_url


def test_shard_of_is_discords_formula() -> None:
    assert shard_of(41771983423143937, 1) == 0
    assert shard_of(41771983423143937, 4) == (41771983423143937 >> 22) % 4
    assert Config().shards == 1


async def test_every_session_of_shard_0_hears_a_dm_click(harness: Harness, devserver: DevServer) -> None:
    """Discord routes by the sharding formula alone and allows several sessions of one shard: each session
    identified as shard 0 hears every DM click (a standby's, cogs/mahjong/cluster.py), and still only one
    answer per interaction is accepted. Here the second session only listens."""
    count, owner = split(devserver.world.guild_id)
    heard: list[str] = []
    await harness.start(shard_bot("shard 0", 0, count, heard, commands_too=False))
    standby = shard_bot("standby", 0, count, [], commands_too=False)

    async def on_interaction(interaction: discord.Interaction) -> None:
        heard.append(f"standby heard {(interaction.data or {}).get('custom_id')}")

    standby.add_listener(on_interaction)
    standby.setup_hook = lambda: asyncio.sleep(0)  # type: ignore[method-assign]  # no view: it never answers
    await harness.start(standby)
    await harness.start(shard_bot(f"shard {owner}", owner, count, heard, commands_too=True))
    shard_0 = [s for s in devserver.gateway.every if s.shard_id == 0 and not s.ws.closed]
    assert len(shard_0) == 2 and len({s.session_id for s in shard_0}) == 2, "two sessions of shard 0, each its own"

    alice = devserver.member("alice")
    await (await alice.slash("deal")).response()
    assert not any(h.startswith("standby") for h in heard), "a guild's command goes to its own shard only"
    [dm] = alice.dms()
    clicked = await alice.click(dm, "Take")
    assert (await clicked.response()).type == 7
    assert "shard 0" in heard and "standby heard deal:take" in heard  # both sessions of shard 0 heard it
