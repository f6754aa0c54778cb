"""What real Discord does that a friendly stand-in would not (issue 21), each modelled by the stand-in
and met by the bot: pings only for whom a message is for, names that stay text, ..."""

from __future__ import annotations

import asyncio

import pytest

from devserver.config import RateLimits
from devserver.people import Person

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
    await devserver.recorder.wait_until(lambda: table_runner(bot, devserver).game, 5, lambda: "a hand")
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
    seat = runner.seating.seat_of_user(alice.id)
    assert seat not in runner.game.auto_seats() and not runner.dms[seat].failed
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
    assert runner.dms[runner.seating.seat_of_user(alice.id)].failed
