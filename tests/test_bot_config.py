"""What the bot asks of Discord and of its host at start: the gateway intents it needs and nothing more, and
what it reads from the environment."""

from __future__ import annotations

import discord
import pytest

import bot as entry


def test_the_bot_asks_only_for_the_guilds_intent() -> None:
    """Interactions need no intent; the guilds intent brings channel and server removals (tables end with
    them). Voice states, reactions, typing and messages would only be parsed and thrown away."""
    bot = entry.MahjongBot(entry.Config("t", ":memory:"))
    assert bot.intents == discord.Intents(guilds=True)


def test_the_environment_configures_the_activity(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "t")
    for name in ("MAHJONG_CLIENT_ID", "MAHJONG_CLIENT_SECRET", "MAHJONG_ACTIVITY_ORIGINS"):
        monkeypatch.delenv(name, raising=False)
    config = entry.Config.from_env()
    assert (config.client_id, config.client_secret, config.activity_origins) == (None, None, ())  # off
    monkeypatch.setenv("MAHJONG_CLIENT_ID", " 123456789 ")
    monkeypatch.setenv("MAHJONG_CLIENT_SECRET", "s3cret")
    monkeypatch.setenv("MAHJONG_ACTIVITY_ORIGINS", "https://a.example, ,https://b.example")
    config = entry.Config.from_env()
    assert (config.client_id, config.client_secret) == ("123456789", "s3cret")
    assert config.activity_origins == ("https://a.example", "https://b.example")
