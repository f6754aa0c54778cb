"""What real Discord does that a friendly stand-in would not (issue 21), each modelled by the stand-in
and met by the bot: pings only for whom a message is for, names that stay text, ..."""

from __future__ import annotations

import asyncio

import pytest

from devserver.config import RateLimits
from devserver.people import Person
from devserver.state import MEMBER_PERMISSIONS
from table.timing import Timing

from .tablebot import FAST, build_bot, table_runner

QUICK = RateLimits(time_scale=0.02)
TRICKY = ("<@&123456789012345678> @everyone", "# Big", "> quote **bold**")


@pytest.mark.devserver(members=TRICKY, rate_limits=QUICK)
async def test_names_never_ping_nor_turn_into_markup_and_only_whom_a_message_is_for_is_pinged(harness, devserver):
    bot = await harness.start(build_bot(FAST, seed=12))
    role_name, big, quote = devserver.members(*TRICKY)
    lobby = await (await role_name.slash("mahjong create", rounds=1)).message()
    for person in (big, quote):
        await (await person.click(lobby, "Join")).response()
    devserver.refuse_dms(quote)  # the one message meant to ping: "quote, I cannot DM you"
    await (await role_name.click(lobby, "Start")).response()
    await devserver.recorder.wait_until(lambda: table_runner(bot, devserver).session.game, 5, lambda: "a hand")
    stop = asyncio.Event()
    players = [asyncio.create_task(Person(p).play(stop)) for p in (role_name, big)]
    await devserver.wait_for_message(
        channel="general", predicate=lambda m: bool(m.attachments) and m.attachments[0].filename == "score.png",
        timeout=60,
    )
    stop.set()
    await asyncio.gather(*players)
    channel = devserver.channel_messages()
    pinged = [m for m in channel if m.pings]
    assert pinged, "the closed-DMs notice pings the person it is for"
    for message in pinged:
        assert not message.pings.roles and not message.pings.everyone, message.content
        assert message.pings.users == frozenset({quote.id}), message.content
    draw = next(m for m in channel if "抓位" in m.content)
    assert "@\u200beveryone" in draw.content and "<@&123456789012345678>" not in draw.content
    assert "\\# Big" in draw.content and "\\> quote \\*\\*bold\\*\\*" in draw.content
    for message in channel:
        assert not any(line.startswith(("# ", "> ")) for line in message.content.splitlines()), message.content


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_only_50007_means_dms_closed_a_refused_dm_open_is_tried_again(harness, devserver):
    bot = await harness.start(build_bot(FAST, seed=12))
    alice = devserver.member("alice")
    fault = devserver.inject_error("POST", "/users/@me/channels", status=403, code=40003, times=2)
    lobby = await (await alice.slash("mahjong create", rounds=1)).message()
    await (await alice.click(lobby, "Start")).response()
    hand = await alice.wait_for_dm(lambda m: bool(m.attachments), timeout=15)
    assert hand.attachments[0].filename == "hand.png" and len(fault.hits) == 2
    runner = table_runner(bot, devserver)
    seat = runner.session.seating.seat_of_user(alice.id)
    assert seat not in runner.session.game.auto_seats() and not runner.hands.slots[seat].failed
    assert not any("direct messages" in m.content for m in devserver.channel_messages())


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_dms_closed_for_real_still_means_closed(harness, devserver):
    bot = await harness.start(build_bot(FAST, seed=12))
    alice = devserver.member("alice")
    devserver.refuse_dms(alice)
    lobby = await (await alice.slash("mahjong create", rounds=1)).message()
    await (await alice.click(lobby, "Start")).response()
    notice = await devserver.wait_for_message(channel="general", predicate=lambda m: "direct messages" in m.content)
    assert notice.pings.users == frozenset({alice.id})
    runner = table_runner(bot, devserver)
    assert runner.hands.slots[runner.session.seating.seat_of_user(alice.id)].failed


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_table_is_refused_where_the_bot_could_not_show_it_naming_what_is_missing(harness, devserver):
    bot = await harness.start(build_bot(FAST, seed=12))
    alice = devserver.member("alice")
    devserver.set_bot_permissions("general", deny=("attach_files", "embed_links"))
    answer = await (await alice.slash("mahjong create")).message()
    assert answer.ephemeral and "Embed Links" in answer.content and "Attach Files" in answer.content
    assert bot.get_cog("Mahjong").registry.in_channel(devserver.channel("general").id) is None
    devserver.set_bot_permissions("general", allow=("attach_files", "embed_links"))
    lobby = await (await alice.slash("mahjong create")).message()
    assert lobby.button("Start")


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_permission_lost_mid_match_pauses_the_table_tells_the_host_and_it_plays_on_when_back(
    harness, devserver
):
    timing = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, permission_probe=0.2)
    bot = await harness.start(build_bot(timing, seed=12))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rounds=1)).message()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    person = Person(alice)
    await devserver.recorder.wait_until(lambda: runner.channel.table is not None, 5, lambda: "the table posted")
    # the table picture after her move fails: 50013 (denied before it, or its edit, with the AI's replies
    # at once, could land before the denial and nothing would change again until her next move)
    devserver.set_bot_permissions("general", deny=("attach_files",))
    await person.act_once(15)
    told = await alice.wait_for_dm(lambda m: "is paused" in m.content, timeout=15)
    assert f"<#{devserver.channel('general').id}>" in told.content and "Missing Permissions" in told.content
    assert runner.session.blocked is not None
    moves = len(runner.session.game.log)
    await asyncio.sleep(0.5)
    assert len(runner.session.game.log) == moves, "nothing moves while the table is paused"
    devserver.set_bot_permissions("general", allow=("attach_files",))
    await devserver.wait_for_message(channel="general", predicate=lambda m: "plays on" in m.content, timeout=15)
    assert runner.session.blocked is None
    await Person(alice).act_once(15)  # and she plays again (a click while paused was refused politely)


async def _playing_table(bot, devserver, alice, **options):
    lobby = await (await alice.slash("mahjong create", **options)).message()
    await (await alice.click(lobby, "Start")).response()
    await devserver.recorder.wait_until(lambda: table_runner(bot, devserver).session.game, 5, lambda: "a hand")
    return table_runner(bot, devserver)


@pytest.mark.devserver(members=("alice",), channels=("general", "other"), rate_limits=QUICK)
async def test_a_deleted_channel_ends_its_table_frees_its_seats_and_is_never_restored(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    bot = await harness.start(build_bot(FAST, database=database, seed=12))
    alice = devserver.member("alice")
    runner = await _playing_table(bot, devserver, alice, rounds=1)
    await devserver.delete_channel("general")
    cog = bot.get_cog("Mahjong")
    await devserver.recorder.wait_until(lambda: runner.session.table_id not in cog.registry, 5, lambda: "the table closed")
    await devserver.recorder.wait_until(lambda: runner.clock.task is None or runner.clock.task.done(), 5, lambda: "timers stop")
    assert runner.session.closed
    lobby = await (await alice.slash("mahjong create", channel="other")).message()  # her seat is free
    assert lobby.button("Start")
    await runner.journal.flush()
    assert [s.table.id for s in await bot.store.unfinished_tables()] != [runner.session.table_id]
    assert (await bot.store.table(runner.session.table_id)).phase == "closed"


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_server_that_removed_the_bot_ends_its_tables(harness, devserver):
    bot = await harness.start(build_bot(FAST, seed=12))
    runner = await _playing_table(bot, devserver, devserver.member("alice"), rounds=1)
    await devserver.remove_bot_from_guild()
    await devserver.recorder.wait_until(lambda: runner.session.closed, 5, lambda: "the table closed")
    assert not bot.get_cog("Mahjong").registry


@pytest.mark.devserver(members=("alice", "bob", "mod"), channels=("general", "other"), rate_limits=QUICK)
async def test_a_member_with_manage_server_closes_any_table_of_the_server_from_any_channel(harness, devserver):
    bot = await harness.start(build_bot(FAST, seed=12))
    alice, bob, mod = devserver.members("alice", "bob", "mod")
    alice.record.permissions = bob.record.permissions = MEMBER_PERMISSIONS  # no Manage Server; mod has it
    runner = await _playing_table(bot, devserver, alice, rounds=1)
    refused = await (await bob.slash("mahjong close", channel="other", table=runner.session.table_id)).message()
    assert refused.ephemeral and runner.session.table_id in bot.get_cog("Mahjong").registry  # the host or Manage Server only
    unknown = await (await mod.slash("mahjong close", channel="other", table=999)).message()
    assert "no open table #999" in unknown.content
    closed = await (await mod.slash("mahjong close", channel="other", table=runner.session.table_id)).message()
    assert closed.ephemeral and runner.session.closed and runner.session.table_id not in bot.get_cog("Mahjong").registry


@pytest.mark.parametrize(("creator", "language", "expected"), [("zh-TW", None, "起莊骰子"), ("zh-TW", "en", "seat draw"), ("en-US", "zh-CN", "起庄骰子")])
@pytest.mark.devserver(members=("ming",), rate_limits=QUICK)
async def test_the_channel_speaks_the_tables_language_chosen_at_create_or_the_creators(
    harness, devserver, creator, language, expected
):
    """guild_locale is en-US on a server that is not a Community server: it decides nothing."""
    await harness.start(build_bot(FAST, seed=12))
    ming = devserver.member("ming")
    ming.record.locale = creator
    options = {"language": language} if language else {}
    lobby = await (await ming.slash("mahjong create", rounds=1, **options)).message()
    await (await ming.slash("mahjong start")).response()
    assert lobby.buttons()
    draw = await devserver.wait_for_message(channel="general", predicate=lambda m: "抓位" in m.content)
    assert expected in draw.content


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_dm_channels_are_opened_once_and_reused_after_a_restart(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    first = await harness.start(build_bot(FAST, database=database, seed=12))
    alice = devserver.member("alice")
    await _playing_table(first, devserver, alice, rounds=2)
    await alice.wait_for_dm(lambda m: bool(m.attachments), timeout=10)
    opens = lambda: sum(1 for line in devserver.recorder.log if line == "POST /users/@me/channels")  # noqa: E731
    assert opens() == 1
    await harness.stop(first)
    second = await harness.start(build_bot(FAST, database=database, seed=12))
    await devserver.wait_for_message(channel="general", predicate=lambda m: "I restarted" in m.content)
    runner = table_runner(second, devserver)
    seat = runner.session.seating.seat_of_user(alice.id)
    await devserver.recorder.wait_until(lambda: runner.hands.slots.get(seat) and runner.hands.slots[seat].live, 10, lambda: "her DM")
    assert opens() == 1, "the stored DM channel is used again"


@pytest.mark.devserver(members=tuple(f"p{i}" for i in range(130)), rate_limits=QUICK)
async def test_more_than_128_dm_channels_are_all_kept(harness, devserver):
    """discord.py keeps 128 DM channels; the bot keeps every one it opened."""
    from cogs.mahjong.live import WindowLimit

    bot = await harness.start(build_bot(FAST, seed=12))
    cog = bot.get_cog("Mahjong")
    cog.dm_opens = WindowLimit(limit=10, seconds=0.25)  # Discord's 10 per 10 s, at the stand-in's time scale
    people = devserver.members(*(f"p{i}" for i in range(130)))
    first = [await cog.dm_channel(p.id) for p in people]
    again = [await cog.dm_channel(p.id) for p in people]
    assert [c.id for c in first] == [c.id for c in again]
    assert sum(1 for line in devserver.recorder.log if line == "POST /users/@me/channels") == 130


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_member_who_leaves_the_server_mid_match_is_auto_played_once_a_dm_to_them_fails(harness, devserver):
    bot = await harness.start(build_bot(FAST, seed=12))
    alice, bob = devserver.members("alice", "bob")
    lobby = await (await alice.slash("mahjong create", rules="hongkong", rounds=1)).message()
    await (await bob.click(lobby, "Join")).response()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    await devserver.recorder.wait_until(lambda: runner.session.game, 5, lambda: "a hand")
    await devserver.member_leaves(bob)  # no event reaches the bot (no members intent)
    stop = asyncio.Event()
    play = asyncio.create_task(Person(alice).play(stop))
    notice = await devserver.wait_for_message(
        channel="general", predicate=lambda m: "direct messages" in m.content, timeout=60
    )  # the next hand's DM to bob: 50007
    stop.set()
    await play
    assert notice.pings.users == frozenset({bob.id})
    assert runner.session.seating.seat_of_user(bob.id) in runner.session.game.auto_seats()
