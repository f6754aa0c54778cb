"""Routes a restarted table bot needs, and the message payload details it reads."""

from __future__ import annotations

import io

import discord
import pytest
from discord.ext import commands

from devserver import DevServer
from devserver.fixtures import Harness

from .tinybot import build_bot, png_bytes


@pytest.fixture
async def bot(harness: Harness, devserver: DevServer) -> commands.Bot:
    return await harness.start(build_bot(devserver))


async def test_fetch_user_member_and_guild(bot: commands.Bot, devserver: DevServer) -> None:
    alice = devserver.member("alice")
    user = await bot.fetch_user(alice.id)
    assert (user.id, user.name, user.bot) == (alice.id, "alice", False)
    guild = await bot.fetch_guild(devserver.world.guild_id)
    assert guild.name == devserver.world.guild_name
    member = await guild.fetch_member(alice.id)
    assert member.id == alice.id and member.guild.id == guild.id
    with pytest.raises(discord.NotFound) as missing_user:
        await bot.fetch_user(4242)
    with pytest.raises(discord.NotFound) as missing_member:
        await guild.fetch_member(devserver.world.bot.id + 4242)
    assert (missing_user.value.code, missing_member.value.code) == (10013, 10007)
    assert [v.code for v in devserver.take_violations()] == [10013, 10007]


async def test_channel_messages_with_files_round_trip(bot: commands.Bot, devserver: DevServer) -> None:
    channel = bot.get_channel(devserver.channel("general").id)
    sent = await channel.send("table", file=discord.File(io.BytesIO(png_bytes(8)), "table.png"))
    fetched = await channel.fetch_message(sent.id)
    [picture] = fetched.attachments
    assert (picture.filename, picture.width, picture.height) == ("table.png", 8, 8)
    assert picture.content_type == "image/png" and await picture.read() == png_bytes(8)

    bigger = discord.File(io.BytesIO(png_bytes(24)), "table.png")
    edited = await fetched.edit(content="table, move 1", attachments=[bigger])
    assert [(a.width, a.height) for a in edited.attachments] == [(24, 24)]
    [stored] = devserver.channel_messages()
    assert stored.content == "table, move 1" and stored.history[0]["attachments"] == ["table.png"]

    await edited.delete()
    assert devserver.channel_messages() == []
    with pytest.raises(discord.NotFound):
        await channel.fetch_message(sent.id)
    assert devserver.take_violations("unknown_message")


async def test_a_dm_opened_by_a_new_bot_instance(harness: Harness, devserver: DevServer) -> None:
    bob = devserver.member("bob")
    first = await harness.start(build_bot(devserver))
    await (await first.fetch_user(bob.id)).send("your hand")
    await harness.stop(first)
    second = await harness.start(build_bot(devserver))
    again = await (await second.fetch_user(bob.id)).create_dm()  # POST /users/@me/channels again
    assert again.id == bob.dm_channel.id
    history = [m.content async for m in again.history()]
    assert history == ["your hand"]


async def test_a_component_answer_is_a_reply_with_interaction_metadata(
    bot: commands.Bot, devserver: DevServer
) -> None:
    alice, carol = devserver.members("alice", "carol")
    opened = await alice.slash("table open", rules="taiwan16")
    table = await opened.message()
    payload = table.payload(devserver.base_url)
    assert payload["type"] == 20
    assert payload["interaction_metadata"]["name"] == "table open"
    assert payload["interaction_metadata"]["user"]["id"] == str(alice.id)
    assert payload["interaction"]["name"] == "table open"

    chosen = await carol.select(table, "table:seat", ["E"])
    reply = await chosen.message()
    payload = reply.payload(devserver.base_url)
    assert payload["type"] == 19 and payload["message_reference"]["message_id"] == str(table.id)
    assert payload["interaction_metadata"]["interacted_message_id"] == str(table.id)
    assert payload["interaction_metadata"]["type"] == 3 and "interaction" not in payload

    seen = [m async for m in bot.get_channel(devserver.channel("general").id).history()]
    assert [m.type for m in seen] == [discord.MessageType.chat_input_command]  # the ephemeral is not listed
    assert seen[0].interaction_metadata.user.id == alice.id


async def test_followups_and_modal_answers_name_their_origin(bot: commands.Bot, devserver: DevServer) -> None:
    alice = devserver.member("alice")
    twice = await alice.slash("twice")
    first = await twice.message()
    followup = await twice.followup()
    meta = followup.payload(devserver.base_url)["interaction_metadata"]
    assert meta["original_response_message_id"] == str(first.id)
    devserver.take_violations("already_acknowledged")

    asked = await alice.slash("name")
    answered = await (await alice.submit_modal(asked, {"name": "Alice"})).message()
    meta = answered.payload(devserver.base_url)["interaction_metadata"]
    assert meta["type"] == 5 and meta["triggering_interaction_metadata"]["id"] == str(asked.id)


async def test_messages_made_after_a_clock_jump_carry_the_later_time(
    bot: commands.Bot, devserver: DevServer
) -> None:
    channel = bot.get_channel(devserver.channel("general").id)
    before = await channel.send("before")
    devserver.clock.advance(7200)
    after = await channel.send("after")
    gap = (after.created_at - before.created_at).total_seconds()
    assert 7200 <= gap < 7201


async def test_the_original_response_is_edited_with_a_file_and_deleted(
    bot: commands.Bot, devserver: DevServer
) -> None:
    alice = devserver.member("alice")
    vanished = await alice.slash("vanish")
    assert (await vanished.followup()).content == "gone"
    original = devserver.recorder.get(vanished.original_message_id)
    assert original.deleted and original.content == "still here" and original.attachments[0].is_png
    assert devserver.channel_messages() == [] and devserver.request_count("webhook", vanished) == 3


async def test_a_private_thread_off_a_channel_is_seen_by_its_members_only(bot: commands.Bot, devserver: DevServer) -> None:
    """The routes a spectator thread needs (devserver/threads.py), with Discord's refusals."""
    alice, bob = devserver.member("alice"), devserver.member("bob")
    general = devserver.channel("general")
    data = await bot.http.start_thread_without_message(
        general.id, name="👀 Table #1", auto_archive_duration=10080, type=12, invitable=False
    )
    [thread] = devserver.threads_of("general")
    assert (int(data["id"]), data["parent_id"], thread.members) == (thread.id, str(general.id), {devserver.world.bot.id})
    await bot.http.add_user_to_thread(thread.id, alice.id)
    await bot.get_partial_messageable(thread.id).send("hand 1, face up")
    [posted] = devserver.recorder.in_channel(thread.id)
    assert posted.visible_to(alice.id) and not posted.visible_to(bob.id)
    await bot.http.remove_user_from_thread(thread.id, alice.id)
    assert not posted.visible_to(alice.id)
    with pytest.raises(discord.HTTPException) as off_a_thread:
        await bot.http.start_thread_without_message(thread.id, name="x", auto_archive_duration=60, type=12)
    with pytest.raises(discord.NotFound) as stranger:
        await bot.http.add_user_to_thread(thread.id, 4242)
    devserver.set_bot_permissions("general", deny=("create_private_threads",))
    with pytest.raises(discord.Forbidden) as denied:
        await bot.http.start_thread_without_message(general.id, name="x", auto_archive_duration=60, type=12)
    assert (off_a_thread.value.code, stranger.value.code, denied.value.code) == (50024, 10007, 50013)
    devserver.take_violations()


async def test_a_thread_is_archived_by_its_creator_and_only_manage_threads_locks_or_reopens_a_locked_one(
    bot: commands.Bot, devserver: DevServer
) -> None:
    general = devserver.channel("general")
    mine = await bot.http.start_thread_without_message(general.id, name="Round 1 · Table 1", auto_archive_duration=1440, type=11)
    devserver.set_bot_permissions("general", deny=("manage_threads",))
    edited = await bot.http.edit_channel(int(mine["id"]), archived=True)  # its creator archives it
    [thread] = devserver.threads_of("general")
    assert thread.archived and edited["thread_metadata"]["archived"] is True
    with pytest.raises(discord.Forbidden) as lock:
        await bot.http.edit_channel(thread.id, locked=True)
    other = devserver.thread("a member's", general)
    with pytest.raises(discord.Forbidden) as not_its:
        await bot.http.edit_channel(other.id, archived=True)
    await devserver.set_thread(other, archived=True, locked=True)  # a moderator closed it
    with pytest.raises(discord.Forbidden) as locked:
        await bot.http.edit_channel(other.id, archived=False)
    assert (lock.value.code, not_its.value.code, locked.value.code) == (50013, 50013, 50013)
    assert other.archived and other.locked and not thread.locked
    devserver.take_violations()
