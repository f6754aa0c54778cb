"""A whole taiwan16 match through the stand-in: one person and three AI seats, to the standings."""

from __future__ import annotations

import pytest

from devserver.config import RateLimits

from .tablebot import PrivacyWatch, build_bot, play_match


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_one_person_and_three_ai_play_a_whole_match(harness, devserver, monkeypatch):
    bot = await harness.start(build_bot(seed=3))
    played = await play_match(bot, devserver, PrivacyWatch(monkeypatch), rules="taiwan16", rounds=1)
    assert {h.result.unit for h in played.history} == {"tai"}
