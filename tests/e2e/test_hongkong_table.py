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
    """/mahjong create rules:hongkong hand_size:16 plays document 002's 補花 game: 16 tiles a hand. 無番起和
    (minimum:0): at the default 3番起和 the AI seats seldom reach three 番 with sixteen tiles, and a dealer who
    keeps the deal on every draw game made the round 40 hands long (over two minutes on a loaded machine)."""
    bot = await harness.start(build_bot(seed=5))
    played = await play_match(
        bot, devserver, PrivacyWatch(monkeypatch), rules="hongkong", rounds=1, hand_size=16, minimum=0
    )
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


@pytest.mark.devserver(members=("alice", "bob"))
async def test_a_hongkong_table_plays_three_fan_minimum_unless_the_host_chooses(harness, devserver):
    """3番起和 is what Hong Kong players expect: the default at create; minimum:0 still opens 無番起和."""
    await harness.start(build_bot(seed=1))
    alice, bob = devserver.member("alice"), devserver.member("bob")
    lobby = await (await alice.slash("mahjong create", rules="hongkong")).message()
    assert "3番起和" in lobby.text
    await alice.slash("mahjong close")
    other = await (await bob.slash("mahjong create", rules="hongkong", minimum=0)).message()
    assert "番起和" not in other.text


@pytest.mark.devserver(members=("alice",))
async def test_help_answers_privately_with_the_channels_rule_set(harness, devserver):
    await harness.start(build_bot(seed=1))
    alice = devserver.member("alice")
    await (await alice.slash("mahjong create", rules="hongkong")).message()
    answer = await (await alice.slash("mahjong help")).message()
    assert "Hong Kong" in answer.text and "雞糊 0番" in answer.text and "How to play here" in answer.text
    other = await (await alice.slash("mahjong help", rules="guangdong")).message()
    assert "七小对 6倍" in other.text
