"""A taiwan13 table through the stand-in: created with /mahjong create rules=taiwan13, one person and
three AI seats play a whole match on the same game loop and cogs as taiwan16, settled at 20 points
a 台 (document 001), whatever the table's 底/台 options."""

from __future__ import annotations

import asyncio

import pytest

from devserver.config import RateLimits
from devserver.people import Person

from .tablebot import PrivacyWatch, build_bot, table_runner


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_a_taiwan13_table_is_created_and_played_to_the_standings(harness, devserver, monkeypatch):
    privacy = PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot(seed=5))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rules="taiwan13", rounds=1)).message()
    assert "13" in lobby.text and lobby.button("Start")
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    assert runner.match.rules == "taiwan13"
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
    await runner.journal.flush()  # the match's last writes are stored before the bot shuts down
    history = runner.match.history
    assert len(history) >= 4 and sum(runner.match.scores) == 0
    wins = [record.result for record in history if record.result.winner is not None]
    assert wins and all(w.unit == "tai" and w.total >= 1 for w in wins)  # 胡牌时一定要有台数
    for win in wins:
        if win.loser is not None:  # 放枪: the discarder alone pays 台 x 20 (庄家 included)
            assert win.deltas[win.winner] == -win.deltas[win.loser] == 20 * win.total
    assert "alice" in standings.embeds[0]["description"]
    assert person.clicks, "the person played"
    assert privacy.check(runner) > len(history)
