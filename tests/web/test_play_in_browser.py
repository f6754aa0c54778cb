"""The web table in a real headless Chromium (issue 43): the real bot against the stand-in with the web
table on, alice alone with three AI. She opens her DM's "Open table" link and plays a whole hand by tapping,
at a phone's 390 × 844 and at a desktop's size; a forged, an expired and a foreign token get 403 and nothing
else; a dropped socket reconnects and catches up; a DM click and a tap on the same decision: the first
counts, the other is answered as stale. No sleeps: every wait is on the page's own state or the stand-in's."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
from playwright.async_api import Error as PlaywrightError

import bot as entry
from devserver import Config, DevServer
from devserver.fixtures import Harness
from devserver.people import code_of
from web.tokens import Grant

from .browser import DESKTOP, ONE_HAND, PHONE, chromium, need_browser, shoot

pytestmark = pytest.mark.asyncio(loop_scope="module")

@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def browser() -> AsyncIterator[Any]:
    need_browser()
    async with chromium() as context:
        yield context


@pytest_asyncio.fixture(loop_scope="module")
async def table() -> AsyncIterator[tuple[Harness, Any, Any]]:
    """The bot with the web table on an ephemeral port; alice's table dealt; (harness, bot, alice)."""
    server = DevServer(Config(), channels=("general",), members=("alice",))
    async with Harness(server) as harness:
        config = entry.Config(token="test-token", database=":memory:", timing=ONE_HAND, seed=7, web="127.0.0.1:0")
        mahjong = await harness.start(entry.MahjongBot(config, guild_ready_timeout=0.05))
        alice = server.member("alice")
        lobby = await (await alice.slash("mahjong create")).message()
        await (await alice.click(lobby, "Start")).response()
        yield harness, mahjong, alice
        problems = harness.problems()
    assert not problems, problems


def cog(mahjong: Any) -> Any:
    return mahjong.get_cog("Mahjong")


async def open_link(alice: Any) -> str:
    """The "Open table" link on alice's hand message (a link button: a URL, no interaction)."""
    dm = await alice.wait_for_dm(lambda m: any(b.url for b in m.buttons()), timeout=10)
    return next(b.url for b in dm.buttons() if b.url)


LIVE = "() => { const s = mahjong.screen; return !!s && (s.hand_over || (s.showing === 'prompt' && mahjong.sent !== s.decision)); }"


async def play_hand(page: Any, *, touch: bool) -> int:
    """Tap through a hand: 胡 whenever offered, else the drawn tile (or the first tile that may go), else 過."""
    taps = 0
    while True:
        await page.wait_for_function(LIVE, timeout=20_000)
        screen = await page.evaluate("mahjong.screen")
        if screen["hand_over"]:
            return taps
        codes = [a["code"] for a in screen["actions"]]
        if "w" in codes:
            target = "#actions button[data-code='w']"
        elif any(code.startswith("d") for code in codes):
            drawn = await page.query_selector("#hand .t.drawn.tap")
            target = "#hand .t.drawn.tap" if drawn is not None else "#hand .t.tap"
        else:
            target = "#actions button.pass"
        await (page.tap(target) if touch else page.click(target))
        taps += 1


@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_a_person_plays_a_whole_hand_by_tapping(browser, table, size):
    harness, mahjong, alice = table
    runner = cog(mahjong).registry.get(next(iter(cog(mahjong).registry)).session.table_id)
    link = await open_link(alice)
    page = await browser.new_page()
    await page.set_viewport_size(PHONE if size == "phone" else DESKTOP)
    assert (await page.goto(link)).status == 200
    await page.wait_for_function("() => !!mahjong.screen", timeout=10_000)
    await shoot(page, f"{size}-start")
    dm_clicks = len([i for i in harness.server.interactions.by_id.values() if i.user_id == alice.id])
    taps = await play_hand(page, touch=size == "phone")
    await shoot(page, f"{size}-over")
    game = runner.session.game
    assert game.is_over and taps > 0
    seat = next(n for n, s in enumerate(runner.session.seating.by_seat) if s.user_id == alice.id)
    played = [a for a in game.log if a.seat == seat and a.kind.value != "timeout"]
    assert len(played) >= taps  # every tap was one of her moves (the rest: draws the table made for her)
    assert len([i for i in harness.server.interactions.by_id.values() if i.user_id == alice.id]) == dm_clicks  # all by taps
    assert await page.evaluate("document.body.dataset.showing") == "hand_over"
    await page.close()


async def test_forged_expired_and_foreign_tokens_get_403_and_nothing_else(browser, table):
    harness, mahjong, alice = table
    web = cog(mahjong).web
    link = await open_link(alice)
    token = link.rsplit("/", 1)[1]
    table_id, seat, user, expires, _ = token.split(".")
    other = (int(seat) + 1) % 4
    forged = f"{table_id}.{other}.{user}.{expires}.{token.rsplit('.', 1)[1]}"
    expired = web.signer.make(Grant(int(table_id), int(seat), int(user), int(web.clock()) - 1))
    foreign = web.signer.make(Grant(int(table_id), other, int(user), int(expires)))  # signed, but not her seat
    page = await browser.new_page()
    for bad in (forged, expired, foreign, "nonsense"):
        with pytest.raises(PlaywrightError, match="ERR_HTTP_RESPONSE_CODE_FAILURE"):  # a 4xx with no body at all
            await page.goto(f"{web.base}/play/{bad}")
        async with aiohttp.ClientSession() as client:
            async with client.get(f"{web.base}/play/{bad}") as response:
                assert response.status == 403 and await response.read() == b""
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(f"{web.base}/ws/{bad}")
            assert refused.value.status == 403
    await shoot(page, "forged")
    await page.close()


async def test_a_dropped_socket_reconnects_and_a_dm_click_first_makes_the_tap_stale(browser, table):
    harness, mahjong, alice = table
    web = cog(mahjong).web
    page = await browser.new_page()
    await page.goto(await open_link(alice))
    await page.wait_for_function(LIVE, timeout=20_000)
    before = await page.evaluate("mahjong.screen.decision")
    for one in list(web.pages[next(iter(web.pages))]):  # the connection drops (a proxy, a phone asleep)
        await one.socket.close()
    await page.wait_for_function("() => mahjong.connects >= 2 && document.body.dataset.connected === 'yes'", timeout=10_000)
    assert await page.evaluate("mahjong.screen.decision") == before  # caught up on the same decision
    # the same decision answered in the DM first: the page's tap is refused as stale
    dm = await alice.wait_for_dm(lambda m: any(b.custom_id and code_of(b) for b in m.buttons()), timeout=10)
    button = next(b for b in dm.buttons() if b.custom_id and code_of(b))
    await page.evaluate("""() => {  // the page does not hear the DM's move yet; it keeps what it is answered
        mahjong.socket.onmessage = null;
        mahjong.socket.addEventListener('message', (e) => { const m = JSON.parse(e.data); if (m.type === 'refused') mahjong.answer = m.text; });
    }""")
    await (await alice.click(dm, button.custom_id)).response()
    await page.evaluate(f"mahjong.socket.send(JSON.stringify({{code: '{code_of(button)}', hand: mahjong.screen.hand, move: {before}}}))")
    text = await (await page.wait_for_function("() => mahjong.answer", timeout=10_000)).json_value()
    assert "no longer current" in text
    await page.close()
