"""The stand-in itself: the real discord.py bot logs in, users act, and Discord's rules are enforced."""

from __future__ import annotations

import json

import aiohttp
import discord
import pytest
from discord.ext import commands

from devserver import Config, DevServer
from devserver.fixtures import Harness, make_bot

from .tinybot import build_bot


@pytest.fixture
async def bot(harness: Harness, devserver: DevServer) -> commands.Bot:
    return await harness.start(build_bot(devserver))


# logging in, syncing, acting ---------------------------------------------------------------


async def test_bot_logs_in_and_syncs_commands(bot: commands.Bot, devserver: DevServer) -> None:
    assert bot.user is not None and bot.user.id == devserver.world.application_id
    guild = bot.get_guild(devserver.world.guild_id)
    assert guild is not None and guild.get_channel(devserver.channel("general").id) is not None
    assert guild.get_member(devserver.member("alice").id) is None  # no members intent, no member list
    assert {"table", "slow", "twice", "hand", "name", "think"} <= set(devserver.commands.names())
    table = devserver.commands.find("table", None)
    assert [o["name"] for o in table["options"]] == ["open", "post"]


async def test_slash_with_options_then_buttons_edit_the_message(
    bot: commands.Bot, devserver: DevServer
) -> None:
    alice, bob = devserver.members("alice", "bob")
    opened = await alice.slash("table open", rules="taiwan16", seats=3)
    table = await opened.message()
    assert table.content == "Table (taiwan16, 3 seats) is open"
    assert [(b.label, b.disabled) for b in table.buttons()] == [
        ("Join", False),
        ("Leave", True),
        ("Boom", False),
    ]
    with pytest.raises(PermissionError):
        await bob.click(table, "Leave")  # a person cannot click a disabled button

    joined = await bob.click(table, "Join")
    assert (await joined.response()).type == 7  # UPDATE_MESSAGE
    assert (await joined.message()).content == "Players: bob"
    assert table.history[0]["content"] == "Table (taiwan16, 3 seats) is open"
    assert not table.button("Leave").disabled

    left = await bob.click(table, "table:leave")
    assert (await left.response()).type == 6  # DEFERRED_UPDATE, then edit of @original
    assert (await left.message()).content == "Players: none"
    assert [m.content for m in alice.seen()] == ["Players: none"]


async def test_bot_hears_message_events_on_the_gateway(bot: commands.Bot, devserver: DevServer) -> None:
    created = bot.wait_for("message", check=lambda m: m.content.startswith("Table"), timeout=5)
    edited = bot.wait_for("raw_message_edit", timeout=5)
    alice = devserver.member("alice")
    table = await (await alice.slash("table open", rules="taiwan16")).message()
    assert (await created).id == table.id
    await alice.click(table, "Join")
    assert (await edited).message_id == table.id


async def test_select_answer_is_ephemeral_to_the_chooser(bot: commands.Bot, devserver: DevServer) -> None:
    alice, carol = devserver.members("alice", "carol")
    table = await (await alice.slash("table open", rules="hongkong")).message()
    with pytest.raises(ValueError):
        await carol.select(table, "table:seat", ["X"])
    chosen = await carol.select(table, "table:seat", ["S"])
    reply = await chosen.message()
    assert reply.content == "You sit S" and reply.ephemeral
    assert reply in carol.ephemerals() and reply not in alice.seen()


async def test_slash_options_are_checked_like_the_client_does(
    bot: commands.Bot, devserver: DevServer
) -> None:
    alice = devserver.member("alice")
    with pytest.raises(ValueError):
        await alice.slash("table open", rules="riichi")
    with pytest.raises(TypeError):
        await alice.slash("table open")
    with pytest.raises(LookupError):
        await alice.slash("no-such-command")


async def test_modal_is_opened_and_submitted(bot: commands.Bot, devserver: DevServer) -> None:
    alice = devserver.member("alice")
    asked = await alice.slash("name")
    modal = await asked.modal()
    assert modal["title"] == "Your name"
    submitted = await alice.submit_modal(asked, {"name": "Alice"})
    assert (await submitted.message()).content == "Hello Alice"


async def test_dm_with_png_and_deferred_ephemeral_followup(bot: commands.Bot, devserver: DevServer) -> None:
    alice, bob = devserver.members("alice", "bob")
    sent = await alice.slash("hand", player=bob)
    assert (await sent.response()).type == 5
    assert (await sent.message()).content == "sent"  # the thinking placeholder was filled in
    [dm] = bob.dms()
    assert dm.content == "Your hand" and dm.attachments[0].filename == "hand.png"
    assert dm.attachments[0].is_png and dm not in alice.seen()


async def test_button_on_a_dm_replaces_the_image(bot: commands.Bot, devserver: DevServer) -> None:
    alice, bob = devserver.members("alice", "bob")
    await (await alice.slash("hand", player=bob)).message()
    [dm] = bob.dms()
    before = dm.attachments[0].data
    sorted_ = await bob.click(dm, "Sort")
    assert (await sorted_.response()).type == 7
    assert (
        dm.content == "Your hand (sorted)" and dm.attachments[0].is_png and dm.attachments[0].data != before
    )
    assert [a.filename for a in dm.attachments] == ["hand.png"]
    with pytest.raises(PermissionError):
        await alice.click(dm, "Sort")  # someone else's DM


async def test_members_are_listed_only_with_the_members_intent(
    harness: Harness, devserver: DevServer
) -> None:
    intents = discord.Intents.default()
    intents.members = True
    nosy = await harness.start(make_bot(intents=intents, member_cache_flags=discord.MemberCacheFlags.all()))
    guild = nosy.get_guild(devserver.world.guild_id)
    assert guild is not None and guild.get_member(devserver.member("alice").id) is not None
    joined = nosy.wait_for("member_join", timeout=5)
    zed = devserver.member("zed")  # joins now: GUILD_MEMBER_ADD goes out before the next event
    await devserver.flush()
    assert (await joined).id == zed.id


async def test_unimplemented_routes_are_reported(bot: commands.Bot, devserver: DevServer) -> None:
    guild = bot.get_guild(devserver.world.guild_id)
    assert guild is not None
    with pytest.raises(discord.NotFound):
        await guild.fetch_roles()
    [violation] = devserver.take_violations("unsupported_route")
    assert "/roles" in violation.detail


async def test_view_timeout_disables_the_components(harness: Harness, devserver: DevServer) -> None:
    await harness.start(build_bot(devserver, view_timeout=0.1))
    alice = devserver.member("alice")
    await alice.slash("table post")
    closed = await devserver.wait_for_message(
        channel="general", predicate=lambda m: m.content == "Table closed"
    )
    assert all(b.disabled for b in closed.buttons()) and closed.selects()[0].disabled
    with pytest.raises(PermissionError):
        await alice.click(closed, "Join")


# Discord's rules ---------------------------------------------------------------------------


@pytest.mark.devserver(response_deadline=0.2)
async def test_response_after_the_deadline_is_a_violation(harness: Harness, devserver: DevServer) -> None:
    await harness.start(build_bot(devserver, slow_delay=0.4))
    await devserver.member("alice").slash("slow")
    late = await devserver.wait_for_message(
        channel="general", predicate=lambda m: m.content.startswith("late")
    )
    assert late.content == "late: 10062"
    [violation] = devserver.take_violations("response_deadline")
    assert "did not respond" in violation.detail


async def test_second_initial_response_gets_40060(bot: commands.Bot, devserver: DevServer) -> None:
    twice = await devserver.member("alice").slash("twice")
    assert (await twice.message()).content == "first"
    assert (await twice.followup()).content == "second failed: 40060"
    assert [v.code for v in devserver.take_violations("already_acknowledged")] == [40060]


async def test_dm_to_refusing_user_gives_forbidden_50007(bot: commands.Bot, devserver: DevServer) -> None:
    alice, bob = devserver.members("alice", "bob")
    devserver.refuse_dms(bob)
    sent = await alice.slash("hand", player=bob)
    assert (await sent.message()).content == "DM refused: 50007"
    assert bob.dms() == [] and devserver.violations == []  # closed DMs are Discord's normal behaviour


async def test_injected_429s_are_ridden_out(bot: commands.Bot, devserver: DevServer) -> None:
    fault = devserver.inject_429("POST", "/channels/{channel_id}/messages", times=2, retry_after=0.05)
    await devserver.member("alice").slash("table post")
    posted = await devserver.wait_for_message(
        channel="general", predicate=lambda m: m.content == "Table via channel"
    )
    assert len(fault.hits) == 2 and posted.buttons()[0].label == "Join"


async def test_over_long_content_is_rejected_with_50035(bot: commands.Bot, harness: Harness) -> None:
    alice = harness.server.member("alice")
    assert (await (await alice.slash("say", length=2000)).message()).content == "said"
    rejected = await alice.slash("say", length=2001)
    assert (await rejected.message()).content == "rejected: 400 50035"
    assert any("invalid_form_body" in p for p in harness.problems())  # would fail the test if not taken
    [violation] = harness.server.take_violations("invalid_form_body")
    assert "content" in violation.detail


async def test_over_long_embed_title_is_rejected(bot: commands.Bot, devserver: DevServer) -> None:
    await devserver.member("alice").slash("embed", title_length=257)
    await devserver.wait_for_message(predicate=lambda m: m.content == "embed failed: 50035")
    assert "embeds.0.title" in devserver.take_violations("invalid_form_body")[0].detail


@pytest.mark.devserver(attachment_size_limit=1000)
async def test_attachment_over_the_limit_gets_413(bot: commands.Bot, devserver: DevServer) -> None:
    alice = devserver.member("alice")
    ok = await alice.slash("upload", size=1000)
    assert len((await ok.message()).attachments[0].data) == 1000
    await alice.slash("upload", size=1001)
    await devserver.wait_for_message(predicate=lambda m: m.content == "upload failed: 413 40005")
    assert devserver.take_violations("attachment_too_large")


async def test_unknown_message_and_channel(bot: commands.Bot, devserver: DevServer) -> None:
    fetched = await devserver.member("alice").slash("fetch", message_id="12345")
    assert (await fetched.message()).content == "fetch failed: 10008"
    with pytest.raises(discord.NotFound) as error:
        await bot.fetch_channel(424242)
    assert error.value.code == 10003
    assert [v.code for v in devserver.take_violations()] == [10008, 10003]


async def test_deferred_response_filled_by_first_followup(bot: commands.Bot, devserver: DevServer) -> None:
    thought = await devserver.member("alice").slash("think")
    response = await thought.response()
    assert response.type == 5 and response.message is not None
    message = await thought.message()
    assert message.content == "done thinking" and not message.loading
    assert (await thought.followup()).id == message.id


@pytest.mark.devserver(token_lifetime=0.2)
async def test_followup_after_token_expiry_gets_50027(harness: Harness, devserver: DevServer) -> None:
    await harness.start(build_bot(devserver))
    await devserver.member("alice").slash("think", delay=0.3)
    failed = await devserver.wait_for_message(predicate=lambda m: m.content.startswith("follow-up failed"))
    assert failed.content == "follow-up failed: 401 50027"
    assert devserver.take_violations("token_expired")


BAD_COMPONENTS = {
    "six rows": [
        {"type": 1, "components": [{"type": 2, "label": "b", "custom_id": f"r{i}"}]} for i in range(6)
    ],
    "six buttons": [
        {"type": 1, "components": [{"type": 2, "label": "b", "custom_id": f"b{i}"} for i in range(6)]}
    ],
    "select with button": [
        {
            "type": 1,
            "components": [
                {"type": 3, "custom_id": "s", "options": [{"label": "a", "value": "a"}]},
                {"type": 2, "label": "b", "custom_id": "b"},
            ],
        }
    ],
    "26 options": [
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": "s",
                    "options": [{"label": str(i), "value": str(i)} for i in range(26)],
                }
            ],
        }
    ],
    "long custom_id": [{"type": 1, "components": [{"type": 2, "label": "b", "custom_id": "x" * 101}]}],
}
BAD_EMBEDS = {
    "11 embeds": [{"title": "t"}] * 11,
    "26 fields": [{"fields": [{"name": "n", "value": "v"}] * 26}],
    "description": [{"description": "d" * 4097}],
    "6000 total": [{"description": "d" * 4000}, {"description": "d" * 2001}],
}


@pytest.mark.parametrize(
    "payload",
    [{"content": "c", "components": c} for c in BAD_COMPONENTS.values()]
    + [{"embeds": e} for e in BAD_EMBEDS.values()],
    ids=[*BAD_COMPONENTS, *BAD_EMBEDS],
)
async def test_message_limits_give_50035(harness: Harness, devserver: DevServer, payload: dict) -> None:
    url = f"{devserver.api_url}/channels/{devserver.channel('general').id}/messages"
    headers = {"Authorization": f"Bot {devserver.config.token}", "Content-Type": "application/json"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, data=json.dumps(payload), headers=headers) as r,
    ):
        assert r.status == 400 and r.headers["Content-Type"] == "application/json"
        assert (await r.json())["code"] == 50035
    assert devserver.channel_messages() == []
    assert len(devserver.take_violations("invalid_form_body")) == 1


# failing tests where Discord or the bot would ---------------------------------------------------


async def test_exceptions_in_commands_and_views_are_caught(bot: commands.Bot, harness: Harness) -> None:
    alice = harness.server.member("alice")
    await alice.slash("crash")
    table = await (await alice.slash("table open", rules="taiwan16")).message()
    await alice.click(table, "Boom")
    await harness.wait_for_error("the command crashed")
    await harness.wait_for_error("boom button exploded")
    problems = harness.problems()
    assert any("the command crashed" in p for p in problems)
    assert any("boom button exploded" in p for p in problems)
    assert harness.errors.take("the command crashed") and harness.errors.take("boom button exploded")


async def test_harness_restores_discord_and_ids_are_deterministic() -> None:
    base, gateway = discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    first = DevServer(Config(), members=("alice",))
    async with Harness(first) as harness:
        assert discord.http.Route.BASE == first.api_url
        await harness.start(make_bot())
    assert (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == (base, gateway)
    second = DevServer(Config(), members=("alice",))
    assert (first.world.guild_id, first.member("alice").id) == (
        second.world.guild_id,
        second.member("alice").id,
    )
