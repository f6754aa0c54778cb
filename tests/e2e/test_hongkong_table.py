"""A hongkong table through the stand-in: created with /mahjong create, one person and three AI seats
play a whole 13-tile 番 match to the standings."""

from __future__ import annotations

import pytest

from devserver.config import RateLimits

from .tablebot import PrivacyWatch, build_bot, play_match


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_a_hongkong_table_is_created_and_played_to_the_standings(harness, devserver, monkeypatch):
    bot = await harness.start(build_bot(seed=3))
    played = await play_match(bot, devserver, PrivacyWatch(monkeypatch), rules="hongkong", rounds=1)
    results = [r.result for r in played.history]
    assert {r.unit for r in results} == {"fan"}
    assert all(len(r.concealed) + 3 * len(r.melds) == 13 for r in results if r.winner is not None)
