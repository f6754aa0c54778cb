"""The watch and replay pages in a real headless Chromium (issue 43), at a phone's 390 × 844 and a desktop's
1280 × 800, the real bot against the stand-in with the web table on.

A watcher follows: bob, who does not play, asks /mahjong watch at alice's public table, opens the web link of
the answer, and his page follows every change of the table while alice plays the hand out from her DMs; no
message his page got ever held a concealed tile while the hand was played, and the last one is the spectators'
screen as the table ended the hand. A replay link opens at its step: a finished match of the server opened at
hand 2, step 5, from seat 3, shows that frame, steps on and back, and the address it leaves is shareable (a
fresh page opened on it shows the same step); the page speaks the reader's language. No sleeps: every wait is
on the page's own state or the stand-in's."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

import bot as entry
from cogs.i18n import t
from cogs.i18n.steps import step_line
from data.replays import stored_hand
from devserver import Config, DevServer
from devserver.fixtures import Harness
from devserver.people import Person
from engine.replay import frame_at, frame_marks
from table.screens import SPECTATOR
from web.watch import watch_json

from ..data.test_replays import store_a_match
from .browser import DESKTOP, ONE_HAND, PHONE, chromium, need_browser

pytestmark = pytest.mark.asyncio(loop_scope="module")

SIZES = {"phone": PHONE, "desktop": DESKTOP}
SHOTS = "/tmp/shots-webpages"


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Any]:
    need_browser()
    async with chromium() as context:
        yield context


@pytest_asyncio.fixture(loop_scope="module")
async def bot() -> AsyncIterator[tuple[Harness, Any, DevServer]]:
    server = DevServer(Config(), channels=("general",), members=("alice", "bob"))
    async with Harness(server) as harness:
        config = entry.Config(token="test-token", database=":memory:", timing=ONE_HAND, seed=7, web="127.0.0.1:0")
        mahjong = await harness.start(entry.MahjongBot(config, guild_ready_timeout=0.05))
        yield harness, mahjong, server
        problems = harness.problems()
    assert not problems, problems


async def shoot(page: Any, name: str) -> None:
    import os

    os.makedirs(SHOTS, exist_ok=True)
    await page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


# every message the page's socket gets from now on, kept for the test
COLLECT = "() => { mahjong.got = []; mahjong.socket.addEventListener('message', (e) => mahjong.got.push(JSON.parse(e.data))); }"


@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_a_watcher_follows_the_table_and_never_sees_a_hand_in_play(browser, bot, size):
    harness, mahjong, server = bot
    alice, bob = server.member("alice"), server.member("bob")
    lobby = await (await alice.slash("mahjong create")).message()
    await (await alice.click(lobby, "Start")).response()
    runner = mahjong.get_cog("Mahjong").registry.in_channel(server.channel("general").id)
    answer = await (await bob.slash("mahjong watch")).message()
    link = re.search(r"(http://\S+/watch/\S+)", answer.content)
    assert answer.ephemeral_to == bob.id and link is not None, answer.content
    page = await browser.new_page()
    await page.set_viewport_size(SIZES[size])
    assert (await page.goto(link.group(1))).status == 200
    await page.wait_for_function("() => !!mahjong.screen && mahjong.connects >= 1", timeout=10_000)
    await page.evaluate(COLLECT)
    first = await page.evaluate("mahjong.screen")
    assert first["mode"] == "public" and all(s["hand"] is None for s in first["board"]["seats"])
    done = asyncio.Event()
    play = asyncio.create_task(Person(alice).play(done, timeout=30))
    await page.wait_for_function("() => mahjong.got.length >= 3", timeout=30_000)  # it follows, move by move
    await shoot(page, f"watch-{size}-playing")
    await page.wait_for_function("() => mahjong.screen.board.phase === 'over'", timeout=60_000)
    done.set()
    await play
    got = await page.evaluate("mahjong.got")
    playing = [m for m in got if m.get("type") == "watch" and m["board"]["phase"] != "over"]
    assert playing and all(s["hand"] is None for m in playing for s in m["board"]["seats"])
    walls = [m["board"]["wall"] for m in playing]
    assert walls == sorted(walls, reverse=True) and walls[0] > walls[-1]  # the wall goes down as it is drawn
    expected = watch_json(runner.session.screen(SPECTATOR), now=0)
    last = await page.evaluate("mahjong.screen")
    assert last["board"] == expected["board"]  # the spectators' screen as the table ended the hand
    assert all(s["hand"] is not None for s in last["board"]["seats"])  # the end-of-hand reveal
    assert await page.locator("main.view .seat.bottom .hand .t").count() == len(last["board"]["seats"][0]["hand"]) + sum(
        len(m["tiles"]) for m in last["board"]["seats"][0]["melds"]
    )
    await shoot(page, f"watch-{size}-over")
    await page.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_a_delayed_watcher_sees_each_hand_only_once_it_is_over(browser, bot, size):
    harness, mahjong, server = bot
    alice, bob = server.member("alice"), server.member("bob")
    lobby = await (await alice.slash("mahjong create", spectators="delayed")).message()
    await (await alice.click(lobby, "Start")).response()
    answer = await (await bob.slash("mahjong watch")).message()
    link = re.search(r"(http://\S+/watch/\S+)", answer.content)
    assert link is not None, answer.content
    page = await browser.new_page()
    await page.set_viewport_size(SIZES[size])
    await page.goto(link.group(1))
    await page.wait_for_function("() => !!mahjong.screen && mahjong.connects >= 1", timeout=10_000)
    await page.evaluate(COLLECT)
    assert await page.evaluate("[mahjong.screen.mode, mahjong.screen.board, mahjong.screen.last]") == ["delayed", None, None]
    assert await page.locator("main.view").is_hidden()  # nothing of the hand in play is drawn
    done = asyncio.Event()
    play = asyncio.create_task(Person(alice).play(done, timeout=30))
    await page.wait_for_function("() => !!mahjong.screen.last", timeout=60_000)
    done.set()
    await play
    got = await page.evaluate("mahjong.got")
    assert all(m.get("board") is None for m in got)  # never the hand in play, move after move
    last = await page.evaluate("mahjong.screen.last")
    assert last["number"] == 1 and all(s["hand"] is not None for s in last["seats"])  # face up, once over
    assert await page.inner_text("#line") == t("en", "web.watch_finished", n=1)
    await shoot(page, f"watch-delayed-{size}")
    await page.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_a_replay_link_opens_at_its_step(browser, bot, size):
    harness, mahjong, server = bot
    cog = mahjong.get_cog("Mahjong")
    guild = server.world.guild_id
    table, match = await store_a_match(cog.store, hands=2, guild_id=guild)
    link = cog.web_pages.replay.link(guild, table, hand=2, step=5, seat=3)
    page = await browser.new_page()
    await page.set_extra_http_headers({"Accept-Language": "zh-TW,zh;q=0.9,en;q=0.5"})  # a reader in Taiwan
    await page.set_viewport_size(SIZES[size])
    refused = await page.goto(link)  # the match is still being played: nothing of it opens
    assert refused.status == 403 and "還在進行" in await page.inner_text("#notice")
    await cog.store.finish_match(table, match.scores)
    assert (await page.goto(link)).status == 200
    await page.wait_for_function("() => mahjong.loads >= 1", timeout=10_000)
    hand = await stored_hand(cog.store, guild, table_id=table, hand_no=2)
    assert hand is not None
    expected = frame_at(hand.header, hand.moves, 5, seat=3)
    shown = await page.evaluate("mahjong.frame")
    assert (shown["hand"], shown["step"], shown["seat"]) == (2, 5, 3)
    assert shown["board"]["wall"] == expected.view.wall_remaining
    bottom = await page.locator("main.view .seat.bottom").get_attribute("data-seat")
    assert bottom == "3"  # the table turned to seat 3
    assert await page.inner_text("#prev_hand") == t("zh-TW", "replay.prev_hand")  # the reader's language
    assert await page.inner_text("#line") == step_line("zh-TW", expected.number, expected.events, list(hand.names))
    assert shown["locale"] == "zh-TW"
    await shoot(page, f"replay-{size}-step5")
    tap = page.tap if size == "phone" else page.click
    await tap("#next")
    await page.wait_for_function("() => mahjong.loads >= 2", timeout=10_000)
    assert await page.evaluate("mahjong.frame.step") == 6
    assert "step=6" in page.url and "seat=3" in page.url and "hand=2" in page.url
    shared = page.url
    await tap("#last")
    await page.wait_for_function("() => mahjong.loads >= 3", timeout=10_000)
    steps = len(frame_marks(hand.header, hand.moves))
    assert await page.evaluate("mahjong.frame.step") == steps - 1
    assert await page.locator("#next").is_disabled()
    await shoot(page, f"replay-{size}-last")
    other = await browser.new_page()  # the shared address opens at its step
    await other.set_viewport_size(SIZES[size])
    await other.goto(shared)
    await other.wait_for_function("() => mahjong.loads >= 1", timeout=10_000)
    assert await other.evaluate("[mahjong.frame.hand, mahjong.frame.step, mahjong.frame.seat]") == [2, 6, 3]
    await other.close()
    await page.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_a_servers_board_shows_once_turned_on(browser, bot, size):
    harness, mahjong, server = bot
    cog = mahjong.get_cog("Mahjong")
    guild = server.world.guild_id
    table, match = await store_a_match(cog.store, hands=2, guild_id=guild)
    await cog.store.finish_match(table, match.scores)
    page = await browser.new_page()
    await page.set_viewport_size(SIZES[size])
    address = f"{cog.web.base}/board/{guild}"
    off = await page.goto(address)
    assert off.status == 404 and "/mahjong setup web_board" in await page.inner_text("#notice")
    await cog.store.set_guild_settings(guild, web_board=True)
    assert (await page.goto(address)).status == 200
    rows, _, _ = await cog.store.leaderboard_page(guild, page=1, size=10, min_matches=1)
    assert await page.locator("#board li.player .name").all_inner_texts() == [row.name for row in rows]
    await shoot(page, f"board-{size}")
    await page.close()
