"""What people do that a bot must survive: clicking while it is offline, dismissing, DMs, restarts."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands

from devserver import DevServer
from devserver.fixtures import Harness
from devserver.state import DM_APP_PERMISSIONS

from .tinybot import build_bot


@pytest.fixture
async def bot(harness: Harness, devserver: DevServer) -> commands.Bot:
    return await harness.start(build_bot(devserver))


async def test_clicks_while_the_bot_is_offline_fail_and_a_restarted_bot_answers(
    harness: Harness, devserver: DevServer
) -> None:
    first = await harness.start(build_bot(devserver))
    alice, bob = devserver.members("alice", "bob")
    claims = await (await alice.slash("claims")).message()
    await harness.stop(first)

    offline = await bob.click(claims, "Claim 1")
    assert offline.failed == "This interaction failed" and bob.failures() == [offline]
    with pytest.raises(AssertionError, match="This interaction failed"):
        await offline.response()
    assert claims.content == "claims open" and devserver.violations == []  # not the bot's fault

    second = await harness.start(
        build_bot(devserver)
    )  # a new instance: only the dynamic item knows the button
    assert second is not first
    claimed = await bob.click(claims, "Claim 2")
    assert (await claimed.message()).content == "bob claimed 2"
    assert bob.failures() == [offline]


async def test_a_slash_command_while_offline_did_not_respond(harness: Harness, devserver: DevServer) -> None:
    await harness.stop(await harness.start(build_bot(devserver)))
    asked = await devserver.member("alice").slash("think")
    assert asked.failed == "The application did not respond"


@pytest.mark.devserver(response_deadline=0.1)
async def test_an_unanswered_click_fails_for_the_person(harness: Harness, devserver: DevServer) -> None:
    await harness.start(build_bot(devserver))
    alice = devserver.member("alice")
    table = await (await alice.slash("table open", rules="taiwan16")).message()
    boom = await alice.click(table, "Boom")  # the callback raises: no response ever comes
    await harness.wait_for_error("boom button exploded")
    await devserver.wait_for_violation("response_deadline")
    assert boom.failed == "This interaction failed" and alice.failures() == [boom]
    assert harness.errors.take("boom button exploded") and devserver.take_violations("response_deadline")


async def test_editing_a_dismissed_ephemeral_gets_10008(bot: commands.Bot, devserver: DevServer) -> None:
    alice = devserver.member("alice")
    noted = await alice.slash("note")
    note = await noted.message()
    assert note.content == "note v1" and note in alice.ephemerals()
    with pytest.raises(PermissionError):
        devserver.member("bob").dismiss(note)
    alice.dismiss(note)
    assert note not in alice.ephemerals()
    bot.gate.set()
    failed = await devserver.wait_for_message(predicate=lambda m: m.content.startswith("note edit failed"))
    assert failed.content == "note edit failed: 10008"
    assert devserver.violations == []  # the person dismissed it: Discord's normal behaviour


async def test_followup_after_the_thinking_placeholder_was_dismissed_gets_10008(
    bot: commands.Bot, devserver: DevServer
) -> None:
    alice = devserver.member("alice")
    thinking = await alice.slash("think", hold=True, ephemeral=True)
    assert (await thinking.response()).message.loading
    alice.dismiss(thinking)
    bot.gate.set()
    failed = await devserver.wait_for_message(predicate=lambda m: m.content.startswith("follow-up failed"))
    assert failed.content == "follow-up failed: 404 10008"


async def test_followup_after_a_moderator_deleted_the_placeholder_gets_10008(
    bot: commands.Bot, devserver: DevServer
) -> None:
    thinking = await devserver.member("alice").slash("think", hold=True)
    placeholder = (await thinking.response()).message
    deleted = bot.wait_for("raw_message_delete", timeout=5)
    devserver.delete_message(placeholder)
    assert (await deleted).message_id == placeholder.id  # the bot hears of it, as on Discord
    bot.gate.set()
    failed = await devserver.wait_for_message(predicate=lambda m: m.content.startswith("follow-up failed"))
    assert failed.content == "follow-up failed: 404 10008"


async def test_a_token_expires_on_the_server_clock(bot: commands.Bot, devserver: DevServer) -> None:
    thinking = await devserver.member("alice").slash("think", hold=True)
    await thinking.response()
    devserver.clock.advance(devserver.config.token_lifetime + 1)
    bot.gate.set()
    failed = await devserver.wait_for_message(predicate=lambda m: m.content.startswith("follow-up failed"))
    assert failed.content == "follow-up failed: 401 50027"
    assert devserver.take_violations("token_expired")


async def test_guild_only_commands_are_not_offered_in_dms(bot: commands.Bot, devserver: DevServer) -> None:
    alice = devserver.member("alice")
    assert (await (await alice.slash("seat")).message()).content == "seated"
    with pytest.raises(PermissionError, match="guild-only"):
        await alice.slash("seat", channel=alice.dm_channel)
    with pytest.raises(PermissionError):
        await devserver.member("bob").slash("whereami", channel=alice.dm_channel)


async def test_commands_in_a_dm_carry_dm_app_permissions(bot: commands.Bot, devserver: DevServer) -> None:
    alice = devserver.member("alice")
    answer = await (await alice.slash("whereami", channel=alice.dm_channel)).message()
    assert answer.content == f"dm {DM_APP_PERMISSIONS}" and answer in alice.dms()
    permissions = discord.Permissions(int(DM_APP_PERMISSIONS))
    assert permissions.send_messages and permissions.attach_files and not permissions.manage_messages
    in_guild = await (await alice.slash("whereami")).message()
    assert in_guild.content.startswith("guild ") and in_guild.content != answer.content
