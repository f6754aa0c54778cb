"""Messages and components Discord refuses: empty edits, too many files, bad emoji, malformed buttons/selects."""

from __future__ import annotations

import json

import aiohttp
import pytest
from discord.ext import commands

from devserver import DevServer
from devserver.fixtures import Harness

from .tinybot import BAD_VIEWS, build_bot


@pytest.fixture
async def bot(harness: Harness, devserver: DevServer) -> commands.Bot:
    return await harness.start(build_bot(devserver))


async def test_editing_a_message_into_nothing_gets_50006(bot: commands.Bot, devserver: DevServer) -> None:
    await devserver.member("alice").slash("blank")
    failed = await devserver.wait_for_message(predicate=lambda m: m.content.startswith("blank failed"))
    assert failed.content == "blank failed: 400 50006"
    [kept] = [m for m in devserver.channel_messages() if m.content == "soon nothing"]
    assert kept.history == []  # the refused edit changed nothing
    assert devserver.take_violations("empty_message")


async def test_more_than_ten_attachments_after_an_edit_gets_50035(
    bot: commands.Bot, devserver: DevServer
) -> None:
    alice = devserver.member("alice")
    await alice.slash("files", first=6, more=4)
    await devserver.wait_for_message(predicate=lambda m: len(m.attachments) == 10 and m.edited)
    await alice.slash("files", first=6, more=5)
    failed = await devserver.wait_for_message(predicate=lambda m: m.content.startswith("files failed"))
    assert failed.content == "files failed: 400 50035"
    assert "attachments" in devserver.take_violations("invalid_form_body")[0].detail


@pytest.mark.parametrize("emoji", ["🀄", "👍🏽", "1️⃣", "🇹🇼"])
async def test_real_emoji_are_accepted_on_buttons(
    bot: commands.Bot, devserver: DevServer, emoji: str
) -> None:
    sent = await (await devserver.member("alice").slash("emoji", emoji=emoji)).message()
    assert sent.buttons()[0].label == "Tile" and sent.components[0]["components"][0]["emoji"]["name"] == emoji


@pytest.mark.parametrize("emoji", ["🀇", "m", ":mahjong:", "<:ghost:123456789012345678>"])
async def test_invalid_emoji_on_a_button_gets_50035(
    bot: commands.Bot, devserver: DevServer, emoji: str
) -> None:
    await devserver.member("alice").slash("emoji", emoji=emoji)
    await devserver.wait_for_message(predicate=lambda m: m.content == "emoji failed: 50035")
    [violation] = devserver.take_violations("invalid_form_body")
    assert "emoji" in violation.detail


async def test_a_known_custom_emoji_is_accepted(harness: Harness, devserver: DevServer) -> None:
    dragon = devserver.add_emoji("red_dragon")  # before the bot connects: it arrives in GUILD_CREATE
    bot = await harness.start(build_bot(devserver))
    assert [e.name for e in bot.get_guild(devserver.world.guild_id).emojis] == ["red_dragon"]
    sent = await (await devserver.member("alice").slash("emoji", emoji=dragon)).message()
    assert sent.components[0]["components"][0]["emoji"]["name"] == "red_dragon"


@pytest.mark.parametrize("kind", BAD_VIEWS)
async def test_views_discord_py_builds_but_discord_refuses(
    bot: commands.Bot, devserver: DevServer, kind: str
) -> None:
    await devserver.member("alice").slash("badview", kind=kind)
    await devserver.wait_for_message(predicate=lambda m: m.content == f"{kind} failed: 50035")
    assert len(devserver.take_violations("invalid_form_body")) == 1


BUTTON = {"type": 2, "style": 1, "label": "b", "custom_id": "b"}
BAD_BUTTONS = {
    "link with custom_id": {"type": 2, "style": 5, "label": "l", "url": "https://x.test", "custom_id": "l"},
    "link without url": {"type": 2, "style": 5, "label": "l"},
    "unknown style": BUTTON | {"style": 7},
    "empty label": BUTTON | {"label": ""},
    "empty custom_id": BUTTON | {"custom_id": ""},
    "neither label nor emoji": {"type": 2, "style": 1, "custom_id": "b"},
    "url on a non-link": BUTTON | {"url": "https://x.test"},
    "emoji not an emoji": BUTTON | {"emoji": {"name": "x", "id": None}},
}


@pytest.mark.parametrize("button", BAD_BUTTONS.values(), ids=BAD_BUTTONS)
async def test_malformed_buttons_get_50035(harness: Harness, devserver: DevServer, button: dict) -> None:
    url = f"{devserver.api_url}/channels/{devserver.channel('general').id}/messages"
    headers = {"Authorization": f"Bot {devserver.config.token}", "Content-Type": "application/json"}
    payload = {"content": "c", "components": [{"type": 1, "components": [button]}]}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=json.dumps(payload), headers=headers) as r,
    ):
        assert r.status == 400 and (await r.json())["code"] == 50035
    assert devserver.channel_messages() == []
    assert len(devserver.take_violations("invalid_form_body")) == 1
