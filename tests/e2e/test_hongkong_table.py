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


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_a_sixteen_tile_hongkong_table_is_created_and_played(harness, devserver, monkeypatch):
    """/mahjong create rules:hongkong hand_size:16 plays document 002's 補花 game: 16 tiles a hand."""
    bot = await harness.start(build_bot(seed=5))
    played = await play_match(bot, devserver, PrivacyWatch(monkeypatch), rules="hongkong", rounds=1, hand_size=16)
    results = [r.result for r in played.history]
    assert {r.unit for r in results} == {"fan"}
    assert all(len(r.concealed) + 3 * len(r.melds) == 16 for r in results if r.winner is not None)


@pytest.mark.devserver(members=("alice",))
async def test_options_that_do_not_go_together_are_refused_politely(harness, devserver):
    await harness.start(build_bot(seed=1))
    alice = devserver.member("alice")
    answer = await (await alice.slash("mahjong create", rules="hongkong", hand_size=16, bonus_tile=True)).message()
    assert "do not go together" in answer.text and "十三張麻將才有" in answer.text
    refused = await (await alice.slash("mahjong create", rules="taiwan13", hand_size=16)).message()
    assert "do not go together" in refused.text
