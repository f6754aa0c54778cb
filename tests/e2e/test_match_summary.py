"""The end of a match (issue 23): the standings carry the summary picture and a Rematch button that
opens a new table in the channel with the same seats and settings."""

from __future__ import annotations

import pytest

from devserver.config import RateLimits

from .tablebot import PrivacyWatch, build_bot, play_match


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=RateLimits(time_scale=0.02))
async def test_the_match_summary_has_a_picture_and_a_rematch_with_the_same_seats(harness, devserver, monkeypatch):
    bot = await harness.start(build_bot(seed=3))
    played = await play_match(bot, devserver, PrivacyWatch(monkeypatch), rules="taiwan13", rounds=1, hints=False)
    standings = played.standings
    assert standings.attachments and standings.attachments[0].filename == "summary.png"
    assert standings.button("🔁 Rematch")
    bob = devserver.member("bob")
    refused = await (await bob.click(standings, "🔁 Rematch")).message()
    assert "Only the players of that match" in refused.text
    alice = devserver.member("alice")
    lobby = await (await alice.click(standings, "🔁 Rematch")).message()
    assert "alice" in lobby.text and lobby.text.count("AI ") >= 3 and "Taiwanese 13-tile" in lobby.text
    assert "no hints" in lobby.text  # the settings came along
    again = await (await alice.click(standings, "🔁 Rematch")).message()
    assert "no longer available" in again.text
