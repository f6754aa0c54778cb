"""Rate limits as Discord applies them: headers on every reply, 429s for a bot that ignores them, counts."""

from __future__ import annotations

import aiohttp
import discord
import pytest
from discord.ext import commands

from devserver import Config, DevServer
from devserver.config import RateLimits, Window
from devserver.fixtures import Harness

from .tinybot import build_bot

FAST = RateLimits(
    time_scale=0.02
)  # Discord's counts, windows 50 times shorter: 5 per 5 s becomes 5 per 0.1 s


@pytest.fixture
async def bot(harness: Harness, devserver: DevServer) -> commands.Bot:
    return await harness.start(build_bot(devserver))


async def _post(session: aiohttp.ClientSession, server: DevServer, path: str, body: dict | None = None):
    headers = {"Authorization": f"Bot {server.config.token}"}
    method = "POST" if body is not None else "GET"
    async with session.request(method, f"{server.api_url}{path}", json=body, headers=headers) as r:
        return r.status, dict(r.headers), await r.json()


def test_rate_limits_are_on_by_default_with_discords_numbers() -> None:
    limits = Config().rate_limits
    assert limits.enabled and limits.time_scale == 1.0
    assert limits.message_create == Window(5, 5.0) and limits.message_edit == Window(5, 5.0)
    assert limits.global_limit == Window(50, 1.0)


async def test_a_bot_ignoring_the_headers_gets_429_on_the_sixth_message(harness: Harness) -> None:
    server = harness.server
    path = f"/channels/{server.channel('general').id}/messages"
    async with aiohttp.ClientSession() as session:
        replies = [await _post(session, server, path, {"content": f"m{i}"}) for i in range(6)]
    assert [status for status, _, _ in replies] == [200] * 5 + [429]
    assert [h["X-RateLimit-Remaining"] for _, h, _ in replies[:5]] == ["4", "3", "2", "1", "0"]
    assert len({h["X-RateLimit-Bucket"] for _, h, _ in replies}) == 1
    assert all(0 < float(h["X-RateLimit-Reset-After"]) <= 5 for _, h, _ in replies)
    _, headers, body = replies[5]
    assert body["global"] is False and 0 < body["retry_after"] <= 5 and headers["Via"]
    assert [m.content for m in server.channel_messages()] == [f"m{i}" for i in range(5)]
    [violation] = server.take_violations("rate_limited")
    assert "message_create" in violation.detail
    assert server.request_count("message_create", "general") == 5


async def test_each_channel_has_its_own_bucket_and_the_clock_refills_it(harness: Harness) -> None:
    server = harness.server
    general, other = (f"/channels/{server.channel(n).id}/messages" for n in ("general", "other"))
    async with aiohttp.ClientSession() as session:
        for i in range(5):
            await _post(session, server, general, {"content": f"g{i}"})
        assert (await _post(session, server, other, {"content": "o"}))[0] == 200  # another channel
        server.clock.advance(5.0)  # the window has passed, without sleeping
        assert (await _post(session, server, general, {"content": "g5"}))[0] == 200
    assert server.request_count("message_create", "general") == 6
    assert server.request_count("message_create") == 7


@pytest.mark.devserver(rate_limits=RateLimits(global_limit=Window(3, 1.0)))
async def test_the_global_limit_spans_routes(harness: Harness) -> None:
    server = harness.server
    async with aiohttp.ClientSession() as session:
        replies = [
            await _post(session, server, path)
            for path in ("/users/@me", "/gateway", "/users/@me", "/gateway")
        ]
    status, headers, body = replies[-1]
    assert [r[0] for r in replies] == [200, 200, 200, 429]
    assert body["global"] is True and headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert server.take_violations("global_rate_limit")


@pytest.mark.devserver(rate_limits=FAST)
async def test_discord_py_waits_on_the_headers_and_is_never_refused(
    bot: commands.Bot, devserver: DevServer
) -> None:
    await devserver.member("alice").slash("burst", count=12)
    await devserver.wait_for_message(channel="general", predicate=lambda m: m.content == "burst 12/12")
    assert [m.content for m in devserver.channel_messages()] == [f"burst {i}/12" for i in range(1, 13)]
    assert devserver.request_count("message_create", "general") == 12
    bucket = devserver.limiter.buckets[("message_create", str(devserver.channel("general").id))]
    assert bucket.refused == 0  # slowed by discord.py itself; the teardown check finds no violation


@pytest.mark.devserver(rate_limits=FAST)
async def test_edits_per_move_are_counted_per_channel(bot: commands.Bot, devserver: DevServer) -> None:
    await devserver.member("alice").slash("moves", count=7)
    await devserver.wait_for_message(channel="general", predicate=lambda m: m.content == "move 7")
    assert devserver.request_count("message_edit", "general") == 7
    assert devserver.request_count("message_create", "general") == 1


async def test_interaction_responses_are_outside_the_channel_buckets(
    bot: commands.Bot, devserver: DevServer
) -> None:
    alice, bob = devserver.members("alice", "bob")
    table = await (await alice.slash("table open", rules="taiwan16")).message()
    for _ in range(4):  # join/leave eight times: eight edits by interaction response, no channel bucket
        await (await bob.click(table, "Join")).message()
        await (await bob.click(table, "Leave")).message()
    assert devserver.request_count("message_edit", "general") == 0
    assert devserver.request_count("message_create", "general") == 0
    # each Leave edits @original on its own token's bucket; /table open fetched its @original once
    assert devserver.request_count("webhook") == 5


@pytest.mark.devserver(rate_limits=RateLimits(dm_open=Window(2, 10.0)))
async def test_opening_dms_too_fast_gets_40003(bot: commands.Bot, devserver: DevServer) -> None:
    alice, bob, carol, dave = devserver.members("alice", "bob", "carol", "dave")
    for player in (bob, carol):
        assert (await (await alice.slash("hand", player=player)).message()).content == "sent"
    refused = await alice.slash("hand", player=dave)
    assert (await refused.message()).content == "DM refused: 40003"
    assert dave.dms() == []
    [violation] = devserver.take_violations("dm_open_too_fast")
    assert violation.code == 40003


async def test_editing_an_hour_old_message_is_capped_with_30046(
    bot: commands.Bot, devserver: DevServer
) -> None:
    alice = devserver.member("alice")
    await alice.slash("table post")
    posted = await devserver.wait_for_message(
        channel="general", predicate=lambda m: m.content == "Table via channel"
    )
    devserver.clock.advance(devserver.config.old_message_age + 1)
    await alice.slash("reedit", message_id=str(posted.id), times=4)
    failed = await devserver.wait_for_message(
        channel="general", predicate=lambda m: m.content.startswith("edit failed")
    )
    assert failed.content == "edit failed: 429 30046"
    assert posted.content == "edit 3"  # three edits per window went through
    [violation] = devserver.take_violations("old_message_edit_limit")
    assert violation.code == 30046


async def test_a_young_message_takes_more_edits(bot: commands.Bot, devserver: DevServer) -> None:
    alice = devserver.member("alice")
    await alice.slash("table post")
    posted = await devserver.wait_for_message(
        channel="general", predicate=lambda m: m.content == "Table via channel"
    )
    devserver.clock.advance(devserver.config.old_message_age - 60)
    await alice.slash("reedit", message_id=str(posted.id), times=4)
    await devserver.wait_for_message(channel="general", predicate=lambda m: m.content == "edit 4")


@pytest.mark.devserver(rate_limits=RateLimits(dm_open=Window(1, 10.0)))
async def test_reopening_a_known_dm_is_not_opening_one(harness: Harness, devserver: DevServer) -> None:
    bob = devserver.member("bob")
    first = await harness.start(build_bot(devserver))
    await (await first.fetch_user(bob.id)).create_dm()
    await harness.stop(first)
    second = await harness.start(build_bot(devserver))  # knows no DM channels: asks Discord again
    assert (await (await second.fetch_user(bob.id)).create_dm()).id == bob.dm_channel.id
    with pytest.raises(discord.Forbidden) as refused:
        await (await second.fetch_user(devserver.member("carol").id)).create_dm()
    assert refused.value.code == 40003
    assert devserver.take_violations("dm_open_too_fast")


async def test_other_routes_have_a_bucket_each(harness: Harness) -> None:
    server = harness.server
    alice = server.member("alice")
    async with aiohttp.ClientSession() as session:
        users = [await _post(session, server, f"/users/{alice.id}") for _ in range(11)]
        channel = await _post(session, server, f"/channels/{server.channel('general').id}")
    assert [status for status, _, _ in users] == [200] * 10 + [429]
    assert channel[0] == 200 and channel[1]["X-RateLimit-Bucket"] != users[0][1]["X-RateLimit-Bucket"]
    assert server.request_count("GET /users/{user_id}") == 10
    assert server.take_violations("rate_limited")
