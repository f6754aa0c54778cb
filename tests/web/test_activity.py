"""The web table as a Discord Activity (issue 43, item 4), without a browser: the real bot against the stand-in,
the web table on and the app's OAuth2 client configured; alice alone with three AI, bob in the server but at
no table. Her DM's "Play in Discord" answers with LAUNCH_ACTIVITY; the stand-in refuses it for an app with no
Activity and the bot then says so politely; the Activity's code exchange gives her a seat token, refuses a
code used twice, an expired one, a wrong client secret and a person not seated, each as JSON and no more."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

import bot as entry
from cogs.mahjong.activity import play_in_discord_button
from devserver import Config, DevServer
from devserver.fixtures import Harness
from devserver.oauth import LAUNCH_ACTIVITY
from table.timing import Timing
from web.activity import Activity, ActivitySettings
from web.server import WebTable
from web.tokens import Signer

pytestmark = pytest.mark.asyncio(loop_scope="module")

SLOW = Timing(ai_delay=0.0, hand_pause=0.0, edit_interval=0.0, timer_scale=1.0, hands=1)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def table() -> AsyncIterator[tuple[Harness, Any, Any]]:
    """The bot with the web table and the Activity on; alice's table dealt; (harness, bot, alice)."""
    server = DevServer(Config(), channels=("general",), members=("alice", "bob"))
    async with Harness(server) as harness:
        config = entry.Config(
            token="test-token", database=":memory:", timing=SLOW, seed=7, web="127.0.0.1:0",
            client_id=str(server.world.application_id), client_secret=server.config.client_secret,
        )
        mahjong = await harness.start(entry.MahjongBot(config, guild_ready_timeout=0.05))
        server.config.activity_url = mahjong.get_cog("Mahjong").web.base  # the Developer Portal's URL mapping
        alice = server.member("alice")
        lobby = await (await alice.slash("mahjong create")).message()
        await (await alice.click(lobby, "Start")).response()
        yield harness, mahjong, alice
        problems = harness.problems()
    assert not problems, problems


def cog(mahjong: Any) -> Any:
    return mahjong.get_cog("Mahjong")


async def exchange(base: str, body: Any) -> tuple[int, dict[str, Any], str]:
    async with aiohttp.ClientSession() as client:
        async with client.post(f"{base}/activity/token", json=body) as answer:
            return answer.status, await answer.json(), answer.content_type


async def play_button_dm(alice: Any) -> Any:
    return await alice.wait_for_dm(lambda m: any(b.label == "Play in Discord" for b in m.buttons()), timeout=10)


async def test_play_in_discord_answers_with_the_launch_of_the_activity(table):
    harness, mahjong, alice = table
    server = harness.server
    dm = await play_button_dm(alice)
    click = await alice.click(dm, "Play in Discord")
    response = await click.response()
    assert response.type == LAUNCH_ACTIVITY and response.message is None
    (launch,) = server.oauth.launches_for(alice.id)
    assert launch.channel_id == alice.dm_channel.id and launch.instance_id == response.activity_instance
    assert alice.ephemerals() == [] and alice.failures() == []
    runner = next(iter(cog(mahjong).registry))
    assert cog(mahjong).activity.wanted(alice.id) == runner.session.table_id  # her exchange seats her there


async def test_an_app_without_an_activity_is_refused_the_launch_and_the_person_told(table):
    harness, mahjong, alice = table
    server = harness.server
    server.config.activity_url = None  # no entry point in the Developer Portal
    try:
        before = len(server.oauth.launches)
        click = await alice.click(await play_button_dm(alice), "Play in Discord")
        answer = await click.message()
        assert answer.ephemeral and "not set up" in answer.content
        (refused,) = server.take_violations("invalid_form_body")
        assert "does not have an Activity" in refused.detail
        assert len(server.oauth.launches) == before
    finally:
        server.config.activity_url = cog(mahjong).web.base


async def test_a_button_left_from_when_the_activity_was_on_is_answered_politely(table):
    harness, mahjong, alice = table
    activity = cog(mahjong).activity
    cog(mahjong).activity = None  # the bot restarted without MAHJONG_CLIENT_ID
    try:
        answer = await (await alice.click(await play_button_dm(alice), "Play in Discord")).message()
        assert answer.ephemeral and "not set up on this bot" in answer.content
        assert play_in_discord_button(None, 1, alice.id, "en") is None  # and the DMs drawn now have none
    finally:
        cog(mahjong).activity = activity


async def test_a_good_code_gives_her_seat_token_and_the_same_code_again_is_refused(table):
    harness, mahjong, alice = table
    server, web = harness.server, cog(mahjong).web
    code = server.oauth.issue(alice.id)
    status, body, _ = await exchange(web.base, {"code": code})
    assert status == 200, body
    grant = web.signer.check(body["token"], now=web.clock())
    runner = next(iter(cog(mahjong).registry))
    assert grant is not None and grant.user == alice.id and grant.table == runner.session.table_id
    assert runner.session.seating.by_seat[grant.seat].user_id == alice.id
    assert body["play"] == f"play/{body['token']}"
    async with aiohttp.ClientSession() as client:
        async with client.get(f"{web.base}/{body['play']}") as page:
            assert page.status == 200  # the play page, as from the DM's link
    status, body, kind = await exchange(web.base, {"code": code})  # used once already
    assert (status, body["error"], kind) == (401, "invalid_code", "application/json")
    assert "already used" in body["message"] and "token" not in body
    assert server.oauth.exchanges[-2:] == [("ok", 200), ("invalid_grant", 400)]


async def test_an_expired_code_and_a_made_up_one_are_refused(table):
    harness, mahjong, alice = table
    server, web = harness.server, cog(mahjong).web
    code = server.oauth.issue(alice.id)
    server.clock.advance(server.config.code_lifetime + 1)
    status, body, _ = await exchange(web.base, {"code": code})
    assert (status, body["error"]) == (401, "invalid_code")
    status, body, _ = await exchange(web.base, {"code": "made-up"})
    assert (status, body["error"]) == (401, "invalid_code")
    for bad in ({}, {"code": ""}, ["code"], {"code": "x" * 500}):
        status, body, _ = await exchange(web.base, bad)
        assert (status, body["error"]) == (400, "bad_request")


async def test_a_person_at_no_table_is_refused_in_their_language(table):
    harness, mahjong, alice = table
    server, web = harness.server, cog(mahjong).web
    bob = server.member("bob")
    server.world.user(bob.id).locale = "zh-TW"
    status, body, _ = await exchange(web.base, {"code": server.oauth.issue(bob.id)})
    assert (status, body["error"]) == (403, "not_seated")
    assert body["message"] == "你目前不在這裡進行中的任何一桌。" and set(body) == {"error", "message"}


async def test_a_wrong_client_secret_is_refused_by_discord_and_the_page_told_it_is_unavailable(table):
    harness, mahjong, alice = table
    server, web = harness.server, cog(mahjong).web
    wrong = WebTable(web.tables, Signer(b"s" * 32), base="http://127.0.0.1")
    settings = ActivitySettings(str(server.world.application_id), "not-the-secret", api=lambda: server.api_url)
    activity = Activity(wrong, settings, cog(mahjong).activity.seats, lambda locale, key: key)
    await wrong.start("127.0.0.1", 0)
    try:
        code = server.oauth.issue(alice.id)
        status, body, _ = await exchange(f"http://127.0.0.1:{wrong.port}", {"code": code})
        assert (status, body) == (502, {"error": "unavailable", "message": "unavailable"})
        assert server.oauth.exchanges[-1] == ("invalid_client", 401) and activity.exchanges[-1] == "unavailable"
        assert code in server.oauth.codes  # Discord refused the client before it looked at the code
    finally:
        await wrong.stop()


async def test_a_flood_of_exchanges_is_answered_busy_and_not_sent_on_to_discord(table):
    harness, mahjong, alice = table
    server, web = harness.server, cog(mahjong).web
    capped = WebTable(web.tables, Signer(b"s" * 32), base="http://127.0.0.1")
    settings = ActivitySettings(str(server.world.application_id), server.config.client_secret,
                                api=lambda: server.api_url, exchanges=2, window=3600.0)
    Activity(capped, settings, cog(mahjong).activity.seats, lambda locale, key: key)
    await capped.start("127.0.0.1", 0)
    try:
        base = f"http://127.0.0.1:{capped.port}"
        asked = len(server.oauth.exchanges)
        statuses = [(await exchange(base, {"code": f"flood-{n}"}))[0] for n in range(4)]
        assert statuses == [401, 401, 429, 429]
        assert len(server.oauth.exchanges) == asked + 2  # the busy ones never reached Discord
        status, body, _ = await exchange(base, {"code": server.oauth.issue(alice.id)})
        assert (status, body["error"]) == (429, "busy")
    finally:
        await capped.stop()
