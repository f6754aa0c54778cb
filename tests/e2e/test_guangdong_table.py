"""A guangdong table through the stand-in: created with /mahjong create rules=guangdong, one person and
three AI seats play a whole match on the same game loop and cogs as taiwan16, settled in 倍 with
kong payments and the dealer's four horses (买马) on every won hand's score sheet."""

from __future__ import annotations

import asyncio

import pytest

from devserver.config import RateLimits
from devserver.people import Person
from engine.scoring.guangdong import HAND_TYPES

from .tablebot import PrivacyWatch, build_bot, table_runner


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_a_guangdong_table_is_created_and_played_to_the_standings(harness, devserver, monkeypatch):
    privacy = PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot(seed=5))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rules="guangdong", rounds=1)).message()
    assert lobby.button("Start")
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    assert runner.match.rules == "guangdong"
    done = asyncio.Event()
    person = Person(alice)
    play = asyncio.create_task(person.play(done, timeout=30))
    standings = await devserver.wait_for_message(
        channel="general",
        predicate=lambda m: any("Match over" in (e.get("title") or "") for e in m.embeds),
        timeout=120,
    )
    done.set()
    await play
    history = runner.match.history
    sheets = [
        m for m in devserver.channel_messages() if m.attachments and m.attachments[0].filename == "score.png"
    ]
    assert len(history) >= 4 and len(sheets) == len(history) and sum(runner.match.scores) == 0
    wins = [record.result for record in history if record.result.winner is not None]
    assert wins
    for win in wins:
        assert win.unit == "multiplier" and win.items[0].name in HAND_TYPES
        horses = [line for line in win.extras if line.name.startswith("庄家买马")]
        assert len(horses) == 4  # revealed on every won hand's score sheet
    for record in history:
        if record.result.winner is None:  # 荒庄: nothing settled, not even kongs
            assert record.result.deltas == (0, 0, 0, 0)
    assert "alice" in standings.embeds[0]["description"]
    assert person.clicks, "the person played"
    assert privacy.check(runner) > len(history)
