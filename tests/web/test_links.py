"""Where Discord already offers a replay, the web replay's link is offered beside it: the real bot against the
stand-in with the web table on. A finished match's Discord replay carries a link button to the same hand,
step and seat on the web page, which opens there; each step's message carries the link of its own step."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import aiohttp
import pytest
import pytest_asyncio

import bot as entry
from devserver import Config, DevServer
from devserver.fixtures import Harness
from table.timing import Timing

from ..data.test_replays import store_a_match

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module")
async def bot() -> AsyncIterator[tuple[Harness, Any, DevServer]]:
    server = DevServer(Config(), channels=("general",), members=("alice",))
    async with Harness(server) as harness:
        config = entry.Config(token="test-token", database=":memory:", timing=Timing(ai_delay=0.0), seed=7, web="127.0.0.1:0")
        mahjong = await harness.start(entry.MahjongBot(config, guild_ready_timeout=0.05))
        yield harness, mahjong, server
        problems = harness.problems()
    assert not problems, problems


def web_link(message: Any) -> str | None:
    return next((b.url for b in message.buttons() if b.url and "/replay/" in b.url), None)


async def test_a_finished_matchs_discord_replay_links_to_the_same_step_on_the_web(bot):
    harness, mahjong, server = bot
    cog = mahjong.get_cog("Mahjong")
    guild = server.world.guild_id
    table, match = await store_a_match(cog.store, hands=2, guild_id=guild)
    await cog.store.finish_match(table, match.scores)
    from data.replays import stored_hand

    hand = await stored_hand(cog.store, guild, table_id=table, hand_no=2)
    assert hand is not None
    alice = server.member("alice")
    message = await (await alice.slash("mahjong replay", hand=hand.id)).message()
    link = web_link(message)
    assert link is not None and link.startswith(cog.web.base)
    where = parse_qs(urlparse(link).query)
    assert (where["hand"], where["step"]) == (["2"], ["0"])
    stepped = await (await alice.click(message, "▶")).message()
    on = parse_qs(urlparse(web_link(stepped) or "").query)
    assert on["step"] == ["1"] and on["seat"] == where["seat"]
    async with aiohttp.ClientSession() as client:
        async with client.get(link) as page:
            assert page.status == 200
        frame_url = link.replace("?", "/frame?", 1)
        async with client.get(frame_url) as frame:
            shown = await frame.json()
    assert (shown["hand"], shown["step"], str(shown["seat"])) == (2, 0, where["seat"][0])


async def test_the_leaderboard_answer_links_to_the_web_board_only_once_the_server_turned_it_on(bot):
    harness, mahjong, server = bot
    cog = mahjong.get_cog("Mahjong")
    guild = server.world.guild_id
    alice = server.member("alice")
    table, match = await store_a_match(cog.store, hands=1, guild_id=guild)
    await cog.store.finish_match(table, match.scores)
    off = await (await alice.slash("mahjong leaderboard")).message()
    assert "/board/" not in off.content
    setup = await (await alice.slash("mahjong setup web_board", shown=True)).message()
    assert setup.ephemeral_to == alice.id and "shown" in setup.content
    on = await (await alice.slash("mahjong leaderboard")).message()
    assert f"{cog.web.base}/board/{guild}" in on.content
    async with aiohttp.ClientSession() as client:
        async with client.get(f"{cog.web.base}/board/{guild}") as page:
            assert page.status == 200 and "user1" in await page.text()
