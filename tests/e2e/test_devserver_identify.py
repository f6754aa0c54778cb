"""The stand-in starts sessions as Discord does (devserver/identify.py; API docs, Gateway → Identifying,
Rate Limiting, Sharding): one IDENTIFY per rate-limit bucket ``shard_id % max_concurrency`` per 5 s for the
whole application (op 9 Invalid Session past it), close code 4011 for a session that would hold more than
2,500 guilds, GET /gateway/bot recommending a shard count and counting the day's IDENTIFYs, and the token
reset past them. Spoken to over a raw websocket, the stand-in's clock pushed forward instead of waiting."""

from __future__ import annotations

import json
from typing import Any

import aiohttp
import discord
import pytest

from devserver import DevServer
from devserver.fixtures import Harness, make_bot
from devserver.identify import Start

FIVE_SECONDS = dict(identify_window=5.0)


class Socket:
    """One gateway connection, driven by hand."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    async def identify(self, server: DevServer, shard: list[int] | None = None) -> dict[str, Any] | int:
        """Send IDENTIFY; the first payload back (READY's dispatch, op 9), or the close code."""
        data: dict[str, Any] = {"token": server.config.token, "intents": 1, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await self.ws.send_str(json.dumps({"op": 2, "d": data}))
        message = await self.ws.receive(timeout=5)
        if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return self.ws.close_code or 0
        return json.loads(message.data)


async def connect(http: aiohttp.ClientSession, server: DevServer) -> Socket:
    ws = await http.ws_connect(server.gateway_url)
    hello = json.loads((await ws.receive(timeout=5)).data)
    assert hello["op"] == 10
    return Socket(ws)


async def gateway_bot(http: aiohttp.ClientSession, server: DevServer) -> dict[str, Any]:
    headers = {"Authorization": f"Bot {server.config.token}"}
    async with http.get(f"{server.api_url}/gateway/bot", headers=headers) as answer:
        return await answer.json()


def ready(payload: dict[str, Any] | int) -> bool:
    return isinstance(payload, dict) and payload.get("t") == "READY"


def invalid_session(payload: dict[str, Any] | int) -> bool:
    return isinstance(payload, dict) and payload.get("op") == 9 and payload.get("d") is False


@pytest.mark.devserver(**FIVE_SECONDS)
async def test_a_second_identify_within_five_seconds_gets_op_9_whichever_process_sends_it(
    devserver: DevServer,
) -> None:
    async with aiohttp.ClientSession() as http:
        first, second = await connect(http, devserver), await connect(http, devserver)
        assert ready(await first.identify(devserver, [0, 2]))
        assert invalid_session(await second.identify(devserver, [1, 2]))  # max_concurrency 1: one bucket
        devserver.clock.advance(5.0)
        third = await connect(http, devserver)
        assert ready(await third.identify(devserver, [1, 2]))
    assert [i.start for i in devserver.gateway.starts.identifies] == [Start.READY, Start.TOO_SOON, Start.READY]


@pytest.mark.devserver(max_concurrency=2, **FIVE_SECONDS)
async def test_each_bucket_of_max_concurrency_starts_one_session_per_window(devserver: DevServer) -> None:
    async with aiohttp.ClientSession() as http:
        sockets = [await connect(http, devserver) for _ in range(4)]
        answers = [await s.identify(devserver, [shard, 4]) for s, shard in zip(sockets, (0, 1, 2, 3), strict=True)]
    # shards 0 and 1 fill buckets 0 and 1; 2 and 3 are in the same buckets (2 % 2, 3 % 2) and must wait
    assert [ready(a) for a in answers] == [True, True, False, False]
    assert all(invalid_session(a) for a in answers[2:])
    assert [i.shard_id for i in devserver.gateway.starts.refused()] == [2, 3]


@pytest.mark.devserver(guilds=2600, **FIVE_SECONDS)
async def test_an_unsharded_session_past_2500_guilds_is_closed_4011_and_the_recommendation_shards_it(
    devserver: DevServer,
) -> None:
    async with aiohttp.ClientSession() as http:
        before = await gateway_bot(http, devserver)
        assert before["shards"] == 3  # about one shard per 1,000 guilds
        assert before["session_start_limit"] == {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        assert await (await connect(http, devserver)).identify(devserver) == 4011
        assert await (await connect(http, devserver)).identify(devserver, [0, 1]) == 4011  # one shard of one: the same
        assert ready(await (await connect(http, devserver)).identify(devserver, [0, 3]))  # 867 guilds a shard
        after = await gateway_bot(http, devserver)
    assert after["session_start_limit"]["remaining"] == 997  # refused IDENTIFYs are spent too
    assert 0 < after["session_start_limit"]["reset_after"] <= 24 * 3600 * 1000


@pytest.mark.devserver(identify_limit=2)
async def test_past_the_days_identifies_every_session_ends_and_the_token_is_reset(devserver: DevServer) -> None:
    async with aiohttp.ClientSession() as http:
        first = await connect(http, devserver)
        assert ready(await first.identify(devserver, [0, 2]))
        assert ready(await (await connect(http, devserver)).identify(devserver, [1, 2]))
        assert await (await connect(http, devserver)).identify(devserver, [0, 2]) == 4004
        closing = await first.ws.receive(timeout=5)  # the session that was running ends as well
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED) and first.ws.close_code == 4004
    [reset] = devserver.take_violations("identify_limit")
    assert "more than 2 IDENTIFYs" in reset.detail


@pytest.mark.devserver(guilds=2600)
async def test_discord_py_unsharded_is_refused_4011_and_does_not_retry(harness: Harness) -> None:
    bot = make_bot()
    try:
        with pytest.raises(discord.ConnectionClosed) as closed:  # start() ends: no crash loop inside discord.py
            await bot.start(harness.server.config.token)
    finally:
        await bot.close()
    assert closed.value.code == 4011
    assert len(harness.server.gateway.starts.identifies) == 1
