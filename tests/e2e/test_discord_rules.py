"""Discord behaviour the bot got wrong (issue 37, items 15-20), each as the stand-in models Discord: DMs that
fail for a while, host notices through a DM channel that no longer works, ..."""

from __future__ import annotations

import asyncio
import sys

import pytest

from devserver.config import RateLimits, Window
from devserver.people import Person
from table.timing import Timing

from .tablebot import FAST, build_bot, table_runner

QUICK = RateLimits(time_scale=0.02)


async def _playing_table(bot, devserver, alice, **options):
    lobby = await (await alice.slash("mahjong create", **options)).message()
    await (await alice.click(lobby, "Start")).response()
    await devserver.recorder.wait_until(lambda: table_runner(bot, devserver).session.game, 5, lambda: "a hand")
    return table_runner(bot, devserver)


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_hand_dm_that_failed_every_try_is_tried_again_after_a_back_off(harness, devserver, monkeypatch):
    """Discord refusing a DM for a while (40003, a 5xx) no longer leaves the person without their hand
    for the rest of it: once the tries are spent, a new round follows after a back-off while the hand
    lasts (here it is her turn: no other update would come before her clock ran out), and she plays from
    that DM. The channel is told once."""
    bot = await harness.start(build_bot(FAST, seed=12))
    # the DM module this bot loaded (discord.py imports an extension's modules afresh at each load)
    runner_module = sys.modules["cogs.mahjong.dms"]  # the DM outlet's pauses
    monkeypatch.setattr(runner_module, "DM_RETRY_PAUSES", (0.01, 0.01, 0.01))
    monkeypatch.setattr(runner_module, "DM_BACKOFF", (0.05,))
    alice = devserver.member("alice")
    refused = devserver.inject_error("POST", "/users/@me/channels", status=403, code=40003, times=4)
    await _playing_table(bot, devserver, alice, rounds=1)
    await devserver.wait_for_message(channel="general", predicate=lambda m: "could not reach alice" in m.content)
    await alice.wait_for_dm(lambda m: bool(m.attachments), timeout=15)
    assert len(refused.hits) == 4, "one try and three more, then a new round"
    clicked = await Person(alice).act_once(15)
    assert clicked is not None and (await clicked.response()).type == 7
    assert sum("could not reach alice" in m.content for m in devserver.channel_messages()) == 1


def _settled(live) -> bool:
    return live.pending() is None and live.shown >= live.wanted


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_host_notice_through_a_dm_channel_that_failed_opens_a_fresh_one_next_time(harness, devserver):
    """A DM channel id the bot kept (another token's, say) that fails is forgotten by host notices as by
    hand DMs: the next notice opens the DM afresh instead of failing on the same id for good."""
    timing = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, permission_probe=0.2)
    bot = await harness.start(build_bot(timing, seed=12))
    alice = devserver.member("alice")
    runner = await _playing_table(bot, devserver, alice, rounds=1)
    await devserver.recorder.wait_until(lambda: runner.channel.table is not None, 5, lambda: "the table posted")
    await alice.wait_for_dm(lambda m: bool(m.attachments), timeout=10)
    bot.get_cog("Mahjong").dm_channels[alice.id] = devserver.ids.next()  # a channel Discord does not know
    person = Person(alice)
    for lost in range(2):  # a permission lost twice: each time the host (alice) is told by DM
        await person.next_prompt(15)  # her turn: the edit after her move fails (50013), not the AI's before it
        await devserver.recorder.wait_until(lambda: _settled(runner.channel.table), 5, lambda: "the table's edits landed")
        since = devserver.mark()
        devserver.set_bot_permissions("general", deny=("attach_files",))
        await person.act_once(15)
        await devserver.recorder.wait_until(lambda: runner.session.blocked is not None, 10, lambda: "the table paused")
        if lost:
            told = await devserver.wait_for_message(user=alice, since=since, predicate=lambda m: "is paused" in m.content)
            assert told.dm_with == alice.id
        devserver.set_bot_permissions("general", allow=("attach_files",))
        await devserver.recorder.wait_until(lambda: runner.session.blocked is None, 10, lambda: "the table plays on")
    stale = devserver.take_violations("unknown_channel")
    assert len(stale) == 1, stale


# Discord allows 3 edits of hour-old messages per 6 s a channel; here the window is the whole test, so the
# fourth edit is refused however slowly a loaded machine plays (at 6 s, a slow run never reached a fourth)
@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(old_message_edit=Window(3, 600.0)))
async def test_an_hour_old_table_message_at_discords_edit_cap_is_posted_afresh_and_play_goes_on(harness, devserver):
    """An hour into a hand (a long pause, a slow table), its messages are over an hour old and Discord
    refuses their fourth edit in 6 s (30046, "try again later"). The table message is posted afresh,
    once, and kept up to date from then on; it is never given up for the rest of the hand."""
    bot = await harness.start(build_bot(FAST, seed=12))
    alice = devserver.member("alice")
    runner = await _playing_table(bot, devserver, alice, rounds=1)
    person = Person(alice)
    await person.next_prompt(15)  # no interaction waits for its first response: the clock may jump
    first = runner.channel.table.message.id
    devserver.clock.advance(3700)
    for _ in range(12):  # her moves, and the AI's after each: soon more than three edits of the table in 6 s
        if runner.channel.table.message.id != first:
            break
        await person.act_once(30)
    await devserver.recorder.wait_until(lambda: runner.channel.table.message.id != first, 15, lambda: "a fresh table")
    fresh = runner.channel.table
    await person.act_once(30)
    await devserver.recorder.wait_until(lambda: devserver.recorder.get(fresh.message.id).edited, 15, lambda: "edited")
    assert devserver.recorder.get(fresh.message.id).attachments[0].filename == "table.png"
    assert not fresh.closed and runner.channel.table is fresh
    await harness.stop(bot)  # the hand's DMs may meet the cap too: every request is in once the bot is gone
    taken = devserver.take_violations("old_message_edit_limit")
    refused = [v.detail.split()[1] for v in taken]
    assert first in map(int, refused) and len(refused) == len(set(refused)), "each message refused once, never again"


async def _until(check, timeout: float = 5.0) -> None:
    for _ in range(int(timeout / 0.05)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{check.__name__} did not come true in {timeout} s")


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_server_that_removed_the_bot_while_it_was_offline_loses_its_tables_and_queues_at_ready(
    harness, devserver, tmp_path
):
    """No GUILD_DELETE reaches a bot that is down: READY no longer lists the server. Its tables end there
    and then (before, each resumed, paused on its first post with 403 50001, probed with a 403 every 30 s
    for good and told the host a permission was lost) and its quick-play queues are emptied (before,
    they formed tables there)."""
    database = str(tmp_path / "mahjong.sqlite3")
    bot = await harness.start(build_bot(FAST, database=database, seed=12))
    alice, bob = devserver.members("alice", "bob")
    runner = await _playing_table(bot, devserver, alice, rounds=1)
    await (await bob.slash("mahjong play")).response()  # bob waits for a 系統桌
    await harness.stop(bot)
    await devserver.remove_bot_from_guild()  # while the bot is offline
    refused = devserver.invalid_requests.total
    since = devserver.mark()
    again = await harness.start(build_bot(FAST, database=database, seed=12))
    guild = devserver.world.guild_id

    async def table_closed() -> bool:
        return (await again.store.table(runner.session.table_id)).phase == "closed"

    async def queue_empty() -> bool:
        return await again.store.queue(guild) == []

    await _until(table_closed)
    await _until(queue_empty)
    assert not again.get_cog("Mahjong").registry and await again.store.unfinished_tables() == []
    await asyncio.sleep(0.3)  # a resumed table would have posted (and been refused) by now
    assert devserver.invalid_requests.total == refused, "not one 403 after the restart"
    assert [m for m in devserver.recorder.messages.values() if m.updated_seq > since] == []


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_channel_post_refused_with_50001_asks_discord_whether_the_bot_is_still_in_the_server(
    harness, devserver
):
    """A removal whose GUILD_DELETE this process never heard (in a cluster it goes to the server's own
    process): the table's next post gets 403 50001, which is what a lost View Channel says too. The bot
    asks Discord (GET /guilds/{id}: 403 50001 for a server it is not in) and ends the table rather than
    pausing it and probing with 403s for good."""
    timing = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, permission_probe=0.2)
    bot = await harness.start(build_bot(timing, seed=12))
    alice = devserver.member("alice")
    runner = await _playing_table(bot, devserver, alice, rounds=1)
    await devserver.recorder.wait_until(lambda: runner.channel.table is not None, 5, lambda: "the table posted")
    await Person(alice).next_prompt(15)
    await devserver.remove_bot_from_guild(announce=False)
    await Person(alice).act_once(15)  # answered in place (her click's own token); the table's edit after it fails
    await devserver.recorder.wait_until(lambda: runner.session.closed, 5, lambda: "the table closed")
    assert runner.session.blocked is None and not bot.get_cog("Mahjong").registry
    assert devserver.recorder.log.count("GET /guilds/{guild_id}") == 1


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_thread_where_the_bot_may_send_messages_in_threads_only_hosts_a_table(harness, devserver):
    """A thread-only setup (Send Messages denied in the channel, Send Messages in Threads allowed) is what
    counts in a thread: the table opens there and plays (before: refused for Send Messages)."""
    thread = devserver.thread("mahjong night")
    devserver.set_bot_permissions("general", deny=("send_messages",))
    bot = await harness.start(build_bot(FAST, seed=12))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", channel=thread, rounds=1)).message()
    assert lobby.button("Start") and lobby.channel_id == thread.id
    await (await alice.click(lobby, "Start")).response()
    await devserver.wait_for_message(channel=thread, predicate=lambda m: any(a.filename == "table.png" for a in m.attachments))
    clicked = await Person(alice).act_once(15)
    assert clicked is not None and (await clicked.response()).type == 7
    assert bot.get_cog("Mahjong").registry.in_channel(thread.id).session.blocked is None


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_private_thread_without_the_bot_is_refused_and_one_it_joined_hosts_a_table(harness, devserver):
    """A private thread's messages reach its members only: where the bot has not been added, a table
    would open and then every post fail (403 50001) though app_permissions said yes. It is refused
    with what to do; once the bot is in the thread, the table opens."""
    alice = devserver.member("alice")
    outside = devserver.thread("just us", private=True, members=(alice,))
    inside = devserver.thread("with the bot", private=True, members=(alice,), bot_joined=True)
    devserver.set_bot_permissions("general", deny=("manage_threads",))  # as invited: no Manage Threads
    bot = await harness.start(build_bot(FAST, seed=12))
    refused = await (await alice.slash("mahjong create", channel=outside)).message()
    assert refused.ephemeral_to == alice.id and "not in this private thread" in refused.content
    assert bot.get_cog("Mahjong").registry.in_channel(outside.id) is None
    lobby = await (await alice.slash("mahjong create", channel=inside)).message()
    assert lobby.button("Start")


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_thread_archived_or_locked_mid_match_pauses_the_table_and_it_plays_on_once_reopened(
    harness, devserver
):
    """A moderator archives the table's thread: its next edit is refused (50083); the table pauses, the
    host is told, and the probe's post reopens the thread (a post unarchives it) and it plays on. Locked
    (160005), it waits until a moderator unlocks it (before: both went unnoticed, the table played on
    invisibly with every edit refused)."""
    thread = devserver.thread("mahjong night")
    devserver.set_bot_permissions("general", deny=("manage_threads",))
    timing = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, permission_probe=0.2)
    bot = await harness.start(build_bot(timing, seed=12))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", channel=thread, rounds=1)).message()
    await (await alice.click(lobby, "Start")).response()
    runner = bot.get_cog("Mahjong").registry.in_channel(thread.id)
    await devserver.recorder.wait_until(lambda: runner.channel.table is not None, 5, lambda: "the table posted")
    person = Person(alice)
    for closing, code in (({"archived": True}, "archived"), ({"archived": True, "locked": True}, "locked")):
        await person.next_prompt(15)
        await devserver.recorder.wait_until(lambda: _settled(runner.channel.table), 5, lambda: "the table's edits landed")
        since = devserver.mark()
        await devserver.set_thread(thread, **closing)
        await person.act_once(15)  # answered in place through her click; the table's edit after it is refused
        told = await devserver.wait_for_message(user=alice, since=since, predicate=lambda m: "archived or locked" in m.content)
        assert told.dm_with == alice.id and runner.session.blocked is not None, code
        if code == "locked":
            await asyncio.sleep(0.5)  # probes meanwhile are refused: it stays paused
            assert runner.session.blocked is not None and thread.locked
            await devserver.set_thread(thread, locked=False)
        await devserver.recorder.wait_until(lambda: runner.session.blocked is None, 10, lambda: "the table plays on")
        assert not thread.archived, "the probe's post reopened the thread"
