"""A clean shutdown (issue 37, item 26): the real bot in a child process (devserver/process.py runs it as
bot.py does), stopped by SIGINT or SIGTERM while commands and a click are in flight. It stops taking
input (what arrives from then on is told the bot is restarting), answers what it had received, stores
its table, closes the HTTP session last, exits 0, and logs no error. Before, the HTTP session closed
under the handlers ("Session is closed", "Task exception was never retrieved"), interactions went
unanswered, and SIGTERM left the process hanging on its database thread.
"""

from __future__ import annotations

import asyncio
import signal

import pytest

from devserver.config import RateLimits
from devserver.process import BotProcess

QUICK = RateLimits(time_scale=0.02)
RESTARTING = "The bot is restarting: nothing was done. Try again in a minute."


@pytest.mark.parametrize("number", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_signal_stops_the_bot_cleanly_with_everything_in_flight_answered(harness, devserver, tmp_path, number):
    where = (devserver.api_url, devserver.gateway_url, devserver.config.token)
    bot = BotProcess(*where, database=str(tmp_path / "m.sqlite3"), shards=None, shard_count=None, name="solo")
    await bot.start()
    try:
        alice, bob = devserver.members("alice", "bob")
        lobby = await (await alice.slash("mahjong create")).message()
        burst = [bob.click(lobby, "Join")]
        for _ in range(4):
            burst += [alice.slash("mahjong tables"), bob.slash("mahjong help"), alice.slash("mahjong stats")]
        sent = list(await asyncio.gather(*burst))
        await devserver.recorder.wait_until(
            lambda: all(i.delivered_at is not None for i in sent) or None, 5, lambda: "the burst delivered"
        )
        assert bot.process is not None
        bot.process.send_signal(number)  # most of the burst is still being handled
        late = list(await asyncio.gather(*(bob.slash("mahjong tables") for _ in range(3))))
        assert await bot.stop(timeout=20) == 0, "a clean exit, not a hang or a kill"
    finally:
        bot.kill()
    for interaction in sent + late:  # each delivered one was answered: no "The application did not respond"
        if interaction.delivered_at is not None:
            assert interaction.initial is not None, f"{interaction!r} was not answered"
    for interaction in late:
        if interaction.delivered_at is not None:
            message = await interaction.message()
            assert message.ephemeral_to == bob.id and (message.text == RESTARTING or message.embeds)
    assert bot.errors == [], "\n".join(bot.errors)
