"""A hongkong table through the stand-in: created with /mahjong create, one person and three AI seats
play a whole 13-tile 番 match to the standings."""

from __future__ import annotations

import asyncio

import pytest

from devserver.config import RateLimits
from devserver.people import Person

from .tablebot import PrivacyWatch, build_bot, table_runner


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_a_hongkong_table_is_created_and_played_to_the_standings(harness, devserver, monkeypatch):
    privacy = PrivacyWatch(monkeypatch)
    bot = await harness.start(build_bot(seed=3))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rules="hongkong", rounds=1)).message()
    assert "alice" in lobby.text and lobby.button("Start")
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
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
    channel = devserver.channel_messages()
    sheets = [m for m in channel if m.attachments and m.attachments[0].filename == "score.png"]
    hands = len(runner.match.history)
    assert hands >= 4 and len(sheets) == hands  # a score sheet per hand, at least one per seat as dealer
    assert sum(runner.match.scores) == 0
    results = [r.result for r in runner.match.history]
    assert {r.unit for r in results} == {"fan"}
    assert all(len(r.concealed) + 3 * len(r.melds) == 13 for r in results if r.winner is not None)
    lines = standings.embeds[0]["description"].splitlines()
    assert len(lines) == 4 and "alice" in standings.embeds[0]["description"]
    assert person.clicks, "the person played"
    assert privacy.check(runner) > hands
    # the lobby now says the match started and has no buttons left
    assert not devserver.recorder.get(lobby.id).buttons()
