"""A guangdong table through the stand-in: created with /mahjong create rules=guangdong, one person and
three AI seats play a whole match on the same game loop and cogs as taiwan16, settled in 倍 with
kong payments and the dealer's four horses (买马) on every won hand's score sheet."""

from __future__ import annotations

import pytest

from devserver.config import RateLimits
from engine.scoring.guangdong import HAND_TYPES

from .tablebot import PrivacyWatch, build_bot, play_match


@pytest.mark.devserver(members=("alice",), rate_limits=RateLimits(time_scale=0.02))
async def test_a_guangdong_table_is_created_and_played_to_the_standings(harness, devserver, monkeypatch):
    bot = await harness.start(build_bot(seed=5))
    played = await play_match(bot, devserver, PrivacyWatch(monkeypatch), rules="guangdong", rounds=1)
    wins = [record.result for record in played.history if record.result.winner is not None]
    assert wins
    for win in wins:
        assert win.unit == "multiplier" and win.items[0].name in HAND_TYPES
        horses = [line for line in win.extras if line.name.startswith("庄家买马")]
        assert len(horses) == 4  # revealed on every won hand's score sheet
    sheets = [
        m for m in devserver.channel_messages() if m.attachments and m.attachments[0].filename == "score.png"
    ]
    for record, sheet in zip(played.history, sheets, strict=True):
        horses_in_text = sum("庄家买马" in line for line in sheet.text.splitlines())
        assert horses_in_text == (4 if record.result.winner is not None else 0), (
            sheet.text
        )  # the text says it too
    for record in played.history:
        if record.result.winner is None:  # 荒庄: nothing settled, not even kongs
            assert record.result.deltas == (0, 0, 0, 0)
