"""The Activity in a real headless Chromium (issue 43, item 4): the stand-in's Discord client frame
(devserver/oauth.py) embeds the bot's Activity page as Discord does, through its proxy (the URL mapping, on
an origin of its own) with the launch's query, and speaks the
Embedded App SDK's postMessage protocol to it. Alice launches it from her DM's "Play in Discord": the page
handshakes, is READY, authorizes, posts the code, and plays her seat inside the frame by tapping, a whole
hand. Bob, at no table, launches it too and is told so; opened outside Discord the page says where to open
it. No sleeps: every wait is on the pages' own state or the stand-in's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

import bot as entry
from devserver import Config, DevServer
from devserver.fixtures import Harness
from devserver.oauth import LAUNCH_ACTIVITY

from .browser import ONE_HAND, chromium, need_browser, shoot
from .test_play_in_browser import play_hand

pytestmark = pytest.mark.asyncio(loop_scope="module")

@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Any]:
    need_browser()
    async with chromium() as context:
        yield context


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def table() -> AsyncIterator[tuple[Harness, Any, Any]]:
    server = DevServer(Config(), channels=("general",), members=("alice", "bob"))
    async with Harness(server) as harness:
        config = entry.Config(
            token="test-token", database=":memory:", timing=ONE_HAND, seed=7, web="127.0.0.1:0",
            client_id=str(server.world.application_id), client_secret=server.config.client_secret,
            activity_origins=(server.base_url,),  # the stand-in's client frame, where Discord's would be
        )
        mahjong = await harness.start(entry.MahjongBot(config, guild_ready_timeout=0.05))
        server.config.activity_url = mahjong.get_cog("Mahjong").web.base
        alice = server.member("alice")
        lobby = await (await alice.slash("mahjong create")).message()
        await (await alice.click(lobby, "Start")).response()
        yield harness, mahjong, alice
        problems = harness.problems()
    assert not problems, problems


async def launched(server: DevServer, person: Any, message: Any) -> str:
    """``person`` clicks "Play in Discord": the address of the client frame the launch opened."""
    response = await (await person.click(message, "Play in Discord")).response()
    assert response.type == LAUNCH_ACTIVITY
    launch = server.oauth.launches[response.activity_instance]
    return server.oauth.frame_url(launch)


async def activity_frame(page: Any) -> Any:
    await page.wait_for_function("() => window.activity && window.activity.handshakes >= 1", timeout=10_000)
    return next(f for f in page.frames if f is not page.main_frame)


async def test_she_launches_the_activity_authorizes_and_plays_a_whole_hand_inside_the_frame(browser, table):
    harness, mahjong, alice = table
    server = harness.server
    dm = await alice.wait_for_dm(lambda m: any(b.label == "Play in Discord" for b in m.buttons()), timeout=10)
    page = await browser.new_page()
    assert (await page.goto(await launched(server, alice, dm))).status == 200
    frame = await activity_frame(page)
    await frame.wait_for_url("**/play/**", timeout=10_000)  # authorized, exchanged, then the play page
    assert frame.url.startswith(server.oauth.discordsays_url + "/.proxy/play/")  # through Discord's proxy
    await frame.wait_for_function("() => !!window.mahjong && !!mahjong.screen", timeout=10_000)
    heard = await page.evaluate("window.activity.heard")
    assert [opcode for opcode, _ in heard] == [0, 1]  # the handshake, then AUTHORIZE
    handshake, authorize = heard[0][1], heard[1][1]
    assert handshake["client_id"] == str(server.world.application_id) and handshake["v"] == 1
    assert authorize["cmd"] == "AUTHORIZE" and authorize["args"]["scope"] == ["identify"] and authorize["nonce"]
    assert server.oauth.exchanges[-1] == ("ok", 200)
    await shoot(page, "activity-start")
    runner = next(iter(mahjong.get_cog("Mahjong").registry))
    taps = await play_hand(frame, touch=False)
    await shoot(page, "activity-over")
    assert runner.session.game.is_over and taps > 0
    assert await frame.evaluate("document.body.dataset.showing") == "hand_over"
    await page.close()


async def test_a_person_at_no_table_is_told_so_inside_the_frame(browser, table):
    harness, mahjong, alice = table
    server = harness.server
    bob = server.member("bob")
    # he opens the app from Discord's App Launcher in the table's channel: Discord never asks the bot
    frame_url = server.oauth.frame_url(server.oauth.start(bob.id, server.channel("general").id))
    page = await browser.new_page()
    await page.goto(frame_url)
    frame = await activity_frame(page)
    await frame.wait_for_function("() => window.activity && window.activity.step === 'refused'", timeout=10_000)
    assert await frame.evaluate("window.activity.error") == "not_seated"
    assert "not seated" in await frame.inner_text("#status")
    assert "/play/" not in frame.url
    await shoot(page, "activity-not-seated")
    await page.close()


async def test_outside_discord_the_page_says_where_to_open_it(browser, table):
    harness, mahjong, alice = table
    page = await browser.new_page()
    assert (await page.goto(mahjong.get_cog("Mahjong").web.base + "/")).status == 200
    await page.wait_for_function("() => window.activity && window.activity.step === 'outside'", timeout=10_000)
    assert "Play in Discord" in await page.inner_text("#status")
    await page.close()


async def test_the_page_hears_no_frame_but_discords(browser, table):
    """Opened with a launch's query by a frame that is not Discord's (here: none, the page is its own parent),
    the page's handshake gets no answer and a READY it did not get from Discord is ignored."""
    harness, mahjong, alice = table
    page = await browser.new_page()
    await page.goto(mahjong.get_cog("Mahjong").web.base + "/?frame_id=f1&instance_id=i1&platform=desktop")
    await page.wait_for_function("() => window.activity && window.activity.step === 'connecting'", timeout=10_000)
    await page.evaluate("""() => new Promise((done) => {
        window.addEventListener('message', (e) => { if (e.data[0] === 1) setTimeout(done, 0); });
        window.postMessage([1, { cmd: 'DISPATCH', evt: 'READY', nonce: null, data: { v: 1 } }], '*');
    })""")  # delivered (the listener above heard it) and then ignored: still waiting for Discord
    assert await page.evaluate("window.activity.step") == "connecting"
    await page.close()
