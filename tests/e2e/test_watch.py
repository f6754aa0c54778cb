"""Spectators through the stand-in: a public table's spectators follow its table message and are sent
nothing; a delayed table's spectators read one private thread where each hand comes face up once it is
over, capped, stored across a restart; players cannot watch their own table, and a table with spectators
off refuses them."""

from __future__ import annotations

import asyncio
import sys

import pytest

from devserver.config import RateLimits
from devserver.people import Person

from .tablebot import build_bot, table_runner

QUICK = RateLimits(time_scale=0.02)


async def start_table(devserver, bot, **create):
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rounds=1, **create)).message()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    await devserver.recorder.wait_until(lambda: runner.session.game is not None, 10, lambda: "a hand dealt")
    await devserver.wait_for_message(  # and shown: the table message is posted once the hand is dealt
        channel="general", predicate=lambda m: bool(m.attachments) and m.attachments[0].filename == "table.png"
    )
    return alice, runner


def thread_gifs(devserver, thread) -> list[str]:
    return [a.filename for m in devserver.recorder.in_channel(thread.id) for a in m.attachments]


@pytest.mark.devserver(members=("alice", "bob", "carol", "dave"), rate_limits=QUICK)
async def test_delayed_spectators_watch_in_one_private_thread_that_a_restart_keeps(
    harness, devserver, monkeypatch, tmp_path
):
    """Issue 37, items 12 and 29: each finished hand is posted face up once, in one private thread per
    table whose members are its spectators (not a DM per spectator); a table has a cap of spectators; they
    are stored, so after a restart the thread goes on and says so; an old pause message's Resume answers."""
    database = str(tmp_path / "mahjong.sqlite3")
    bot = await harness.start(build_bot(seed=21, database=database))
    # the module the bot loaded: each load_extension imports cogs.mahjong afresh (an earlier test's bot
    # unloaded it), so the module this file imported may no longer be the one that runs
    live = sys.modules["cogs.mahjong.watch"]
    monkeypatch.setattr(live, "WATCHER_CAP", 2)
    reveals: list[tuple[int, int]] = []  # (hand shown, hands over by then)
    reveal = live.hand_reveal

    def recorded(screen, number, locale=None, theme="felt"):
        reveals.append((number, screen.revealable))
        return reveal(screen, number, locale, theme)

    monkeypatch.setattr(live, "hand_reveal", recorded)
    alice, runner = await start_table(devserver, bot, rules="hongkong", spectators="delayed")
    bob, carol, dave = devserver.members("bob", "carol", "dave")

    refused = await (await alice.slash("mahjong watch")).message()
    assert "never watch their own table" in refused.content and refused.ephemeral_to == alice.id
    devserver.set_bot_permissions("general", deny=("create_private_threads",))
    no_thread = await (await bob.slash("mahjong watch")).message()
    assert "Create Private Threads" in no_thread.content and not devserver.threads_of("general")
    devserver.set_bot_permissions("general", allow=("create_private_threads",))
    watching = await (await bob.slash("mahjong watch")).message()
    [thread] = devserver.threads_of("general")
    assert watching.ephemeral_to == bob.id and f"<#{thread.id}>" in watching.content and "2 spectators" in watching.content
    assert thread.type == 12 and thread.members == {devserver.world.bot.id, bob.id}
    await (await carol.click(table_message(devserver), "👀 Watch")).message()
    full = await (await dave.slash("mahjong watch")).message()
    assert "already has 2 spectators" in full.content and dave.id not in thread.members
    assert devserver.threads_of("general") == [thread] and thread.members >= {bob.id, carol.id}

    await (await alice.slash("mahjong leave")).response()  # the table plays itself, and pauses after hand 2
    paused = await devserver.wait_for_message(channel="general", predicate=lambda m: "paused" in m.content, timeout=60)
    await devserver.recorder.wait_until(lambda: len(thread_gifs(devserver, thread)) >= 2, 30, lambda: "two hands posted")
    assert thread_gifs(devserver, thread) == ["hand-1.gif", "hand-2.gif"]
    for posted in devserver.recorder.in_channel(thread.id):
        assert posted.visible_to(bob.id) and posted.visible_to(carol.id) and not posted.visible_to(dave.id)
    assert not [m for m in devserver.recorder.seen_by(bob.id) if m.dm_with == bob.id]  # nothing by DM
    assert all(number <= over for number, over in reveals)  # face up only once over

    await harness.stop(bot)
    second = await harness.start(build_bot(seed=21, database=database))
    await devserver.recorder.wait_until(
        lambda: any("is back" in m.content for m in devserver.recorder.in_channel(thread.id)), 10, lambda: "a word"
    )
    assert set(second.get_cog("Mahjong").registry.watchers[runner.session.table_id].spectators) == {bob.id, carol.id}
    # restarted while paused, the table is paused again (the pause is posted afresh), not dealt a hand
    again = await devserver.wait_for_message(
        channel="general", predicate=lambda m: "paused" in m.content and m.id != paused.id and m.buttons(), timeout=30
    )
    assert second.get_cog("Mahjong").registry.get(runner.session.table_id).session.phase.paused
    resumed = await alice.click(paused, "Resume")  # the old pause message still resumes, answered in place
    await resumed.response()
    assert "plays on" in devserver.recorder.get(paused.id).content and not devserver.recorder.get(paused.id).buttons()
    await devserver.recorder.wait_until(
        lambda: not devserver.recorder.get(again.id).buttons(), 10, lambda: "the new pause message closed"
    )
    stopped = await (await bob.slash("mahjong watch")).message()
    assert "stopped watching" in stopped.content and bob.id not in thread.members
    await (await alice.slash("mahjong leave")).response()
    await devserver.recorder.wait_until(lambda: len(thread_gifs(devserver, thread)) >= 3, 30, lambda: "hand 3 posted")
    assert thread_gifs(devserver, thread) == ["hand-1.gif", "hand-2.gif", "hand-3.gif"]


def table_message(devserver):
    return [m for m in devserver.channel_messages() if m.attachments and m.attachments[0].filename == "table.png"][-1]


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_public_tables_spectator_follows_the_table_message_and_gets_no_dm_even_at_a_shutdown(
    harness, devserver, tmp_path
):
    """Issue 37, items 9, 12 and 27: a public table's spectator sees what the channel sees, so they are
    pointed at the channel's table message instead of sent a DM per move and a face-up GIF per hand; a
    clean shutdown mid-match (taken for the match's end) sent them every finished hand face up."""
    bot = await harness.start(build_bot(seed=22, database=str(tmp_path / "mahjong.sqlite3")))
    alice, runner = await start_table(devserver, bot)
    bob = devserver.member("bob")
    table = [
        m for m in devserver.channel_messages() if m.attachments and m.attachments[0].filename == "table.png"
    ][-1]
    watching = await (await bob.click(table, "👀 Watch")).message()  # the table message's button
    link = f"https://discord.com/channels/{devserver.world.guild_id}/{table.channel_id}/{table.id}"
    assert watching.ephemeral_to == bob.id and link in watching.content, watching.content
    stop = asyncio.Event()
    play = asyncio.create_task(Person(alice).play(stop, timeout=30))
    await devserver.recorder.wait_until(lambda: len(runner.session.match.history) >= 1, 60, lambda: "a hand played")
    again = await (await bob.slash("mahjong watch")).message()  # the command too, with the newest message
    newest = runner.channel.table.message.id
    assert f"/{table.channel_id}/{newest}" in again.content
    stop.set()
    await play
    await harness.stop(bot)  # a clean shutdown mid-match
    assert not [m for m in devserver.recorder.seen_by(bob.id) if m.dm_with == bob.id]

    second = await harness.start(build_bot(seed=22, database=str(tmp_path / "mahjong.sqlite3")))
    await (await alice.slash("mahjong close")).response()
    await (await alice.slash("mahjong create", rounds=1, spectators="off")).message()
    refused = await (await bob.slash("mahjong watch")).message()
    assert "takes no spectators" in refused.content
    await harness.stop(second)
    assert not [m for m in devserver.recorder.seen_by(bob.id) if m.dm_with == bob.id]


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_the_lobby_says_when_spectators_are_delayed_or_off(harness, devserver):
    await harness.start(build_bot(seed=23))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", spectators="delayed")).message()
    assert "delayed (every hand face up once over)" in lobby.embeds[0]["fields"][1]["value"]
    await (await alice.slash("mahjong close")).response()
    off = await (await alice.slash("mahjong create", spectators="off")).message()
    assert "no spectators" in off.embeds[0]["fields"][1]["value"]
    await (await alice.slash("mahjong close")).response()
    plain = (await (await alice.slash("mahjong create")).message()).embeds[0]["fields"][1]["value"]
    assert "delayed" not in plain and "no spectators" not in plain


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_the_spectators_setting_survives_a_restart(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    first = await harness.start(build_bot(seed=24, database=database))
    alice, bob = devserver.member("alice"), devserver.member("bob")
    await (await alice.slash("mahjong create", spectators="off")).message()
    await harness.stop(first)
    second = await harness.start(build_bot(seed=24, database=database))
    runner = table_runner(second, devserver)
    assert runner.state.settings.spectators == "off"
    lobby = await (await alice.slash("mahjong table")).message()
    await (await alice.click(lobby, "Start")).response()
    await devserver.recorder.wait_until(lambda: runner.session.game is not None, 10, lambda: "a hand dealt")
    refused = await (await bob.slash("mahjong watch")).message()
    assert "takes no spectators" in refused.content
    await harness.stop(second)
    third = await harness.start(build_bot(seed=24, database=database))  # mid-match now
    assert table_runner(third, devserver).state.settings.spectators == "off"
