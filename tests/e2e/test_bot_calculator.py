"""The real bot (bot.MahjongBot) logs into the stand-in, syncs /tai and answers it."""

from __future__ import annotations

import bot as entry


def build_bot() -> entry.MahjongBot:
    config = entry.Config(token="test-token", database=entry.Path(":memory:"))
    return entry.MahjongBot(config, guild_ready_timeout=0.05)


async def test_tai_command_counts_a_ping_hu_hand(harness, devserver):
    await harness.start(build_bot())
    alice = devserver.member("alice")
    reply = await (await alice.slash("tai", hand="123456789m456p3455s", win="2s")).message()
    assert reply.ephemeral_to == alice.id
    embed = reply.embeds[0]
    assert embed["title"] == "3 台"
    assert "平胡 — 2 台" in embed["description"] and "門清 — 1 台" in embed["description"]
    # nobody else sees someone's calculator query
    assert reply not in devserver.member("bob").seen()


async def test_tai_command_answers_bad_notation_politely(harness, devserver):
    await harness.start(build_bot())
    alice = devserver.member("alice")
    reply = await (await alice.slash("tai", hand="12x", win="2s")).message()
    assert reply.ephemeral_to == alice.id
    assert "could not read that hand" in reply.content


async def test_tai_command_says_when_a_hand_does_not_win(harness, devserver):
    await harness.start(build_bot())
    reply = await (await devserver.member("bob").slash("tai", hand="123456789m456p3459s", win="1z")).message()
    assert reply.embeds[0]["title"] == "Not a winning hand"
