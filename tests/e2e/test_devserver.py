import discord

from devserver.fixtures import make_bot


async def test_smoke(harness):
    server = harness.server
    bot = make_bot()

    @bot.tree.command(description="ping")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    async def setup_hook() -> None:
        await bot.tree.sync()

    bot.setup_hook = setup_hook
    await harness.start(bot)
    alice = server.member("alice")
    inter = await alice.slash("ping")
    msg = await inter.message()
    assert msg.content == "pong"
