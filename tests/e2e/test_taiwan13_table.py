"""A taiwan13 table through the stand-in: created with /mahjong create rules=taiwan13, one person and
three AI seats play a whole match on the same game loop and cogs as taiwan16, settled at 20 points
a 台 (document 001), whatever the table's 底/台 options."""

from __future__ import annotations

import pytest

from devserver.config import RateLimits

from .tablebot import PrivacyWatch, build_bot, play_match


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_a_taiwan13_table_is_created_and_played_to_the_standings(harness, devserver, monkeypatch):
    bot = await harness.start(build_bot(seed=5))
    played = await play_match(bot, devserver, PrivacyWatch(monkeypatch), rules="taiwan13", rounds=1)
    assert "13" in played.lobby.text
    wins = [record.result for record in played.history if record.result.winner is not None]
    assert wins and all(w.unit == "tai" and w.total >= 1 for w in wins)  # 胡牌时一定要有台数
    for win in wins:
        if win.loser is not None:  # 放枪: the discarder alone pays 台 x 20 (庄家 included)
            assert win.deltas[win.winner] == -win.deltas[win.loser] == 20 * win.total
