"""What the bot asks of Discord and of its host at start: the gateway intents it needs and nothing more."""

from __future__ import annotations

import discord

import bot as entry


def test_the_bot_asks_only_for_the_guilds_intent() -> None:
    """Interactions need no intent; the guilds intent brings channel and server removals (tables end with
    them). Voice states, reactions, typing and messages would only be parsed and thrown away."""
    bot = entry.MahjongBot(entry.Config("t", ":memory:"))
    assert bot.intents == discord.Intents(guilds=True)
