"""The hall through the stand-in (issue 31): quick play into 系統桌 with the documents' settings, leaving
the queue, a queue that survives a restart, AI fill after the server's wait, an idle player at a new
系統桌 (代打), and /mahjong tables listing this server's tables only, with Join buttons that seat."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import replace

import pytest

from data import QueueEntry, SeatRecord, Store
from devserver.config import RateLimits
from devserver.people import Person
from devserver.state import MEMBER_PERMISSIONS

from .tablebot import FAST, PrivacyWatch, build_bot

FOUR = ("alice", "bob", "carol", "dave")
QUICK = RateLimits(time_scale=0.02)


def system_tables(bot):
    return [r for r in bot.get_cog("Mahjong").registry if r.state.kind == "system"]


async def one_system_table(bot, devserver):
    found = await devserver.recorder.wait_until(
        lambda: system_tables(bot) or None, 5, lambda: "a 系統桌"
    )
    assert len(found) == 1
    return found[0]


async def answer(interaction):
    return await interaction.message()


async def stored_queue(path, guild_id):
    store = await Store.open(path)
    try:
        return await store.queue(guild_id)
    finally:
        await store.close()


@pytest.mark.devserver(members=(*FOUR, "erin"), channels=("general", "mahjong"), rate_limits=QUICK)
async def test_four_people_queue_and_get_a_system_table_with_the_documents_settings(harness, devserver, monkeypatch):
    privacy = PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot())
    alice, bob, carol, dave, erin = devserver.members(*FOUR, "erin")
    mahjong = devserver.channel("mahjong")

    erin.record.permissions = MEMBER_PERMISSIONS  # an everyday member, without Manage Server
    refused = await answer(await erin.slash("mahjong setup channel", where="mahjong"))
    assert refused.content == "Only a member with Manage Server may change this server's mahjong settings."
    saved = await answer(await alice.slash("mahjong setup channel", where="mahjong"))
    assert saved.ephemeral_to == alice.id and saved.channel_id == devserver.channel("general").id
    assert f"系統桌 open in: <#{mahjong.id}>" in saved.content

    told = []
    for n, person in enumerate((alice, bob, carol), start=1):
        queued = await answer(await person.slash("mahjong play"))
        assert queued.ephemeral_to == person.id
        assert queued.content.startswith(f"You are number {n} in the Taiwanese 16-tile queue · {n} waiting.")
        assert "AI players" not in queued.content  # AI fill is off by default
        assert queued.button("Leave queue")
        told.append(queued)
    assert not system_tables(bot)

    fourth = await answer(await dave.slash("mahjong play"))  # queued in #general: the table opens in #mahjong
    assert fourth.content == f"Four are here: your 系統桌 opens in <#{mahjong.id}>."
    runner = await one_system_table(bot, devserver)
    state = runner.state
    assert state.channel_id == mahjong.id and state.guild_id == devserver.world.guild_id
    assert sorted(s.user_id for s in state.seats) == sorted(p.id for p in (alice, bob, carol, dave))
    options = state.settings.options
    assert (state.settings.rounds, options.turn_seconds, options.may_pass_win) == (1, 5, False)  # 1圈, 5秒, 不可過水
    assert state.password_hash is None

    announced = await devserver.wait_for_message(channel="mahjong", predicate=lambda m: alice.mention in m.content)
    for person in (alice, bob, carol, dave):
        assert announced.content.count(person.mention) == 1  # each mentioned once
    assert f"<#{mahjong.id}>" in announced.content
    assert announced.pings.users == frozenset(p.id for p in (alice, bob, carol, dave))  # they are notified
    assert not announced.pings.roles and not announced.pings.everyone
    embed = announced.embeds[0]
    assert "系統桌" in embed["title"] and "1 round, 5-second turns, 不可過水" in embed["description"]
    for person in (alice, bob, carol, dave):  # and each gets their hand by DM
        await person.wait_for_dm(lambda m: bool(m.attachments), timeout=10)
    assert all(alice.mention not in m.content for m in devserver.channel_messages("general"))

    # seated now: no queue for them, and the queue is empty
    again = await answer(await alice.slash("mahjong play"))
    assert again.content == f"You already sit at a table in <#{mahjong.id}>. Leave it first."
    listing = await answer(await erin.slash("mahjong tables"))
    text = listing.embeds[0]["description"]
    assert f"<#{mahjong.id}>" in text and "系統桌" in text and "playing" in text and "4/4 seated" in text
    assert not listing.buttons()  # nothing to join at a playing table
    assert privacy.check(runner) > 0


@pytest.mark.devserver(members=FOUR, channels=("general", "second"))
async def test_leaving_the_queue_by_button_by_playing_again_and_by_sitting_down(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    bot = await harness.start(build_bot(database=database))
    alice, bob, carol, dave = devserver.members(*FOUR)
    guild = devserver.world.guild_id

    alice_queued = await answer(await alice.slash("mahjong play"))
    await answer(await bob.slash("mahjong play", rules="hongkong"))
    left = await answer(await alice.click(alice_queued, "Leave queue"))
    assert left.content == "You left the Taiwanese 16-tile queue." and not left.buttons()
    again = await answer(await alice.slash("mahjong play"))
    await answer(await alice.slash("mahjong play"))  # out by the command, the button is still there
    stale = await alice.click(again, "Leave queue")
    assert (await stale.response()).ephemeral
    assert (await stale.message()).content == "You are not in a queue."

    out = await answer(await bob.slash("mahjong play"))  # /mahjong play again: out of the queue he is in
    assert out.content == "You left the Hong Kong queue."

    first = await answer(await carol.slash("mahjong play"))
    assert first.content.startswith("You are number 1 in the Taiwanese 16-tile queue · 1 waiting.")
    moved = await answer(await carol.slash("mahjong play", rules="guangdong"))  # one queue at a time
    assert moved.content == "You moved to the Guangdong queue: number 1 · 1 waiting."
    assert [(e.user_id, e.rules) for e in await bot.store.queue(guild)] == [(carol.id, "guangdong")]

    # sitting down at a player table takes a person out of the queue
    lobby = await answer(await dave.slash("mahjong create", channel="second"))
    await (await carol.click(lobby, "Join")).response()
    for _ in range(50):  # taken out in the background, as she sat down
        if not await bot.store.queue(guild):
            break
        await asyncio.sleep(0.05)
    assert await bot.store.queue(guild) == []
    assert not system_tables(bot)


@pytest.mark.devserver(members=(*FOUR, "erin"), channels=("general",), rate_limits=QUICK)
async def test_a_restart_with_people_queued_keeps_their_places(harness, devserver, tmp_path):
    database = str(tmp_path / "mahjong.sqlite3")
    first = await harness.start(build_bot(database=database))
    alice, bob, carol, dave = devserver.members(*FOUR)
    await answer(await alice.slash("mahjong setup turn", seconds=20))  # longer turns for this server
    for person in (alice, bob, carol):
        await answer(await person.slash("mahjong play"))
    await harness.stop(first)
    assert [e.user_id for e in await stored_queue(database, devserver.world.guild_id)] == [alice.id, bob.id, carol.id]

    second = await harness.start(build_bot(database=database))
    listing = await answer(await dave.slash("mahjong tables"))
    assert "Taiwanese 16-tile 3 waiting" in listing.text
    before = [m for m in bob.ephemerals() if m.buttons()][-1]  # his queue message from before the restart
    out = await answer(await bob.click(before, "Leave queue"))  # the old button works, his place was kept
    assert out.content == "You left the Taiwanese 16-tile queue."
    back = await answer(await bob.slash("mahjong play"))
    assert back.content.startswith("You are number 3 in the Taiwanese 16-tile queue · 3 waiting.")
    formed = await answer(await dave.slash("mahjong play"))
    general = devserver.channel("general")
    assert formed.content == f"Four are here: your 系統桌 opens in <#{general.id}>."  # no channel set: here
    runner = await one_system_table(second, devserver)
    assert sorted(s.user_id for s in runner.state.seats) == sorted(p.id for p in (alice, bob, carol, dave))
    assert runner.state.settings.options.turn_seconds == 20
    announced = await devserver.wait_for_message(channel="general", predicate=lambda m: alice.mention in m.content)
    assert "this server gives 20-second turns instead of the documents' 5" in announced.embeds[0]["description"]
    assert await stored_queue(database, devserver.world.guild_id) == []
    await devserver.recorder.wait_until(lambda: runner.session.game, 5, lambda: "the first hand")

    await harness.stop(second)  # the 系統桌 itself comes back as one
    third = await harness.start(build_bot(database=database))
    again = await one_system_table(third, devserver)
    assert again.session.table_id == runner.session.table_id and again.session.game is not None
    assert not [r for r in third.get_cog("Mahjong").registry if r.state.kind != "system"]  # not the channel's player table: one may still open there
    lobby = await answer(await devserver.member("erin").slash("mahjong create"))
    assert lobby.button("Join")


SCALED = replace(FAST, timer_scale=0.01)  # a minute's wait is 0.6 s, a 5-second turn 0.05 s


@pytest.mark.devserver(members=("alice", "bob"), channels=("general",), rate_limits=QUICK)
async def test_ai_fill_a_system_table_after_the_wait_only_when_the_server_allows_it(harness, devserver):
    bot = await harness.start(build_bot(timing=SCALED))
    alice, bob = devserver.members("alice", "bob")
    await answer(await bob.slash("mahjong play"))
    await asyncio.sleep(1.5)  # well past a scaled minute: AI fill is off by default
    assert not system_tables(bot)
    await answer(await bob.slash("mahjong play"))  # out again

    saved = await answer(await alice.slash("mahjong setup ai_fill", minutes=1))
    assert "AI fill a 系統桌: after 1 min of waiting" in saved.content
    started = time.time()
    queued = await answer(await alice.slash("mahjong play"))
    when = re.search(r"<t:(\d+):R>", queued.content)
    assert "If four are not here" in queued.content and "AI players fill the empty seats" in queued.content
    assert when and int(when[1]) >= int(started)
    runner = await one_system_table(bot, devserver)
    assert time.time() - started >= 0.6 * 0.9  # not before the wait
    humans = [s for s in runner.state.seats if not s.is_ai]
    assert [s.user_id for s in humans] == [alice.id] and len(runner.state.seats) == 4
    await devserver.wait_for_message(channel="general", predicate=lambda m: alice.mention in m.content)
    assert await bot.store.queue(devserver.world.guild_id) == []


IDLE = replace(FAST, timer_scale=0.05)  # 5-second turns become 0.25 s


@pytest.mark.devserver(members=FOUR, channels=("general",), rate_limits=QUICK)
async def test_a_player_who_never_answers_their_new_system_table_is_played_for(harness, devserver):
    bot = await harness.start(build_bot(timing=IDLE, seed=3))
    people = devserver.members(*FOUR)
    for person in people:
        await answer(await person.slash("mahjong play"))
    runner = await one_system_table(bot, devserver)
    await devserver.recorder.wait_until(lambda: runner.session.game, 5, lambda: "the first hand")
    dave = people[3]
    seat = runner.session.seating.seat_of_user(dave.id)
    stop = asyncio.Event()
    players = [asyncio.create_task(Person(p).play(stop)) for p in people[:3]]  # dave never clicks
    try:
        await devserver.recorder.wait_until(
            lambda: runner.session.game is not None and seat in runner.session.game.auto_seats(), 30, lambda: "dave on 代打"
        )
    finally:
        stop.set()
        await asyncio.gather(*players)
    assert not runner.session.closed  # the table went on without him
    await dave.wait_for_dm(lambda m: any(b.label == "Take back control" for b in m.buttons()), timeout=10)


@pytest.mark.devserver(members=FOUR, channels=("general", "second"))
async def test_tables_lists_this_servers_tables_only_and_join_seats_asking_for_a_password(
    harness, devserver, tmp_path
):
    database = str(tmp_path / "mahjong.sqlite3")
    guild = devserver.world.guild_id
    store = await Store.open(database)
    try:  # another server's open table, and nine more of this server's in other channels (for paging)
        other = await store.create_table(
            guild_id=guild + 1, channel_id=424242, host_id=7, rules="taiwan16", rounds=1, options={}, password_hash=None
        )
        await store.set_seats(other.id, [SeatRecord(0, 7, "stranger")])
        await store.enqueue(QueueEntry(guild + 1, 8, "taiwan16", "far", "en", "en", 424242, 1.0))
        for n in range(9):
            mine = await store.create_table(
                guild_id=guild, channel_id=500 + n, host_id=600 + n, rules="hongkong", rounds=2, options={},
                password_hash=None,
            )
            await store.set_seats(mine.id, [SeatRecord(0, 600 + n, f"host{n}")])
    finally:
        await store.close()
    bot = await harness.start(build_bot(database=database))
    alice, bob, carol, dave = devserver.members(*FOUR)
    general, second = devserver.channel("general"), devserver.channel("second")
    lobby = await answer(await alice.slash("mahjong create"))
    created = await bob.submit_modal(await bob.slash("mahjong create", channel="second", password=True), {"password": "0427"})
    await created.message()

    listing = await answer(await carol.slash("mahjong tables"))
    assert listing.ephemeral_to == carol.id
    assert "424242" not in listing.text and "stranger" not in listing.text  # never another server's table
    assert listing.embeds[0]["footer"]["text"] == "Page 1/2"  # eleven tables, eight a page
    assert "Taiwanese 16-tile 1 waiting" not in listing.text  # nor its queue
    nxt = await answer(await carol.click(listing, "Next"))
    page2 = nxt.embeds[0]["description"]
    assert f"<#{general.id}>" in page2 and f"<#{second.id}>" in page2  # the newest tables, on page 2
    assert nxt.embeds[0]["footer"]["text"] == "Page 2/2"
    line = next(x for x in page2.splitlines() if f"<#{second.id}>" in x)
    assert "玩家桌" in line and "1/4 seated" in line and "open" in line
    assert "🔒" in page2.split(f"<#{second.id}>")[1]
    joins = [b for b in nxt.buttons() if b.label.startswith("Join")]
    assert [b.label for b in joins] == ["Join 9", "Join 10", "Join 11"]  # eleven tables: three on page 2
    listing_ids = re.findall(r"\*\*(\d+)\.\*\* <#(\d+)>", page2)
    number = {int(channel): n for n, channel in listing_ids}

    joined = await answer(await carol.click(nxt, f"Join {number[general.id]}"))
    assert joined.content == f"You sit at the table in <#{general.id}>."
    await devserver.recorder.wait_until(
        lambda: "carol" in devserver.recorder.get(lobby.id).text, 5, lambda: "carol in the lobby"
    )
    asked = await dave.click(await answer(await dave.slash("mahjong tables")), "Next")
    page = await asked.message()
    opening = await dave.click(page, f"Join {number[second.id]}")
    await opening.modal()  # the table has a password: it is asked for
    wrong = await answer(await dave.submit_modal(opening, {"password": "1111"}))
    assert wrong.content == "That password is not right."
    right = await answer(await dave.submit_modal(await dave.click(page, f"Join {number[second.id]}"), {"password": "0427"}))
    assert right.content == f"You sit at the table in <#{second.id}>."
    table = next(r for r in bot.get_cog("Mahjong").registry if r.state.channel_id == second.id)
    assert [s.user_id for s in table.state.seats] == [bob.id, dave.id]


@pytest.mark.devserver(members=("alice", "erin"), channels=("general", "second"))
async def test_player_table_password_is_optional_unless_the_server_requires_it(harness, devserver):
    await harness.start(build_bot())
    alice, erin = devserver.members("alice", "erin")
    erin.record.permissions = MEMBER_PERMISSIONS
    first = await answer(await erin.slash("mahjong create", channel="second"))  # optional by default
    assert "🔒" not in first.text
    refused = await answer(await erin.slash("mahjong setup password", required=True))
    assert refused.content.startswith("Only a member with Manage Server")
    saved = await answer(await alice.slash("mahjong setup password", required=True))
    assert "玩家桌 need a password: yes (玩家桌必須設密碼)" in saved.content
    opening = await alice.slash("mahjong create")  # no password asked for: the server requires one
    modal = await opening.modal()
    assert modal["title"] == "Table password"
    lobby = await answer(await alice.submit_modal(opening, {"password": "2468"}))
    assert "🔒" in lobby.text
    shown = await answer(await erin.slash("mahjong setup show"))  # anyone may read the settings
    assert "玩家桌 need a password: yes" in shown.content


@pytest.mark.devserver(members=("alice", "bob"), channels=("general", "mahjong", "quiet"))
async def test_quick_play_needs_a_channel_where_the_bot_can_show_the_table(harness, devserver):
    await harness.start(build_bot())
    alice, bob = devserver.members("alice", "bob")
    devserver.set_bot_permissions("quiet", deny=("send_messages",))
    refused = await answer(await bob.slash("mahjong play", channel="quiet"))  # the table could open here
    assert refused.content.startswith("I cannot run a table in this channel: I am missing Send Messages")
    refused = await answer(await alice.slash("mahjong setup channel", channel="quiet"))
    assert refused.content.startswith("I cannot run a table in this channel")
    await answer(await alice.slash("mahjong setup channel", channel="mahjong"))
    queued = await answer(await bob.slash("mahjong play", channel="quiet"))  # tables open in #mahjong now
    assert queued.content.startswith("You are number 1")
    await devserver.delete_channel("mahjong")
    for _ in range(50):
        shown = await answer(await alice.slash("mahjong setup show"))
        if "not set" in shown.content:
            break
        await asyncio.sleep(0.05)
    assert "系統桌 open in: the channel where the fourth person queued (not set)" in shown.content


@pytest.mark.devserver(members=FOUR, channels=("general",), rate_limits=QUICK)
async def test_a_player_who_left_a_system_table_is_free_to_queue_and_stays_free_after_a_restart(
    harness, devserver, tmp_path
):
    database = str(tmp_path / "mahjong.sqlite3")
    first = await harness.start(build_bot(database=database))
    alice, bob, carol, dave = devserver.members(*FOUR)
    for person in (alice, bob, carol, dave):
        await answer(await person.slash("mahjong play"))
    runner = await one_system_table(first, devserver)
    await devserver.recorder.wait_until(lambda: runner.session.game, 5, lambda: "the first hand")
    assert (await answer(await dave.slash("mahjong leave"))).content == "You left the table."

    queued = await answer(await dave.slash("mahjong play"))  # alone in the queue: no table formed
    assert queued.content.startswith("You are number 1 in the Taiwanese 16-tile queue · 1 waiting."), queued.content
    assert system_tables(first) == [runner]
    seated = await answer(await alice.slash("mahjong play"))
    assert seated.content.startswith("You already sit at a table")

    await harness.stop(first)
    second = await harness.start(build_bot(database=database))
    again = await one_system_table(second, devserver)
    moved = await answer(await dave.slash("mahjong play", rules="hongkong"))  # still free after the restart
    assert moved.content == "You moved to the Hong Kong queue: number 1 · 1 waiting.", moved.content
    assert (await answer(await alice.slash("mahjong play"))).content.startswith("You already sit at a table")

    hand = await dave.wait_for_dm(lambda m: any(b.label == "Take back control" for b in m.buttons()), timeout=10)
    await (await dave.click(hand, "Take back control")).response()  # back at his seat: seated there again
    await devserver.recorder.wait_until(
        lambda: again.session.game is not None and again.session.seating.seat_of_user(dave.id) not in again.session.game.auto_seats(),
        5,
        lambda: "dave back in control",
    )
    for _ in range(50):  # out of the queue in the background, as he sat down again
        if not await second.store.queue(devserver.world.guild_id):
            break
        await asyncio.sleep(0.05)
    assert await second.store.queue(devserver.world.guild_id) == []
    assert (await answer(await dave.slash("mahjong play"))).content.startswith("You already sit at a table")
