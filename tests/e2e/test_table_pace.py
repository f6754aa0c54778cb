"""The AI's pace as a table option (issue 23): chosen at /mahjong create, said in the lobby, kept across a
restart, and the time the session waits between AI discards."""

from __future__ import annotations

import pytest

from .tablebot import FAST, build_bot, table_runner


@pytest.mark.devserver(members=("alice",))
async def test_a_slow_table_says_so_waits_longer_between_ai_discards_and_keeps_its_pace_after_a_restart(
    harness, devserver, tmp_path
):
    database = str(tmp_path / "pace.sqlite")
    timing = FAST.__class__(ai_delay=0.01, hand_pause=0.0, edit_interval=0.0)
    first = await harness.start(build_bot(timing=timing, database=database))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", pace="slow")).message()
    assert "slow AI" in lobby.text
    runner = table_runner(first, devserver)
    assert runner.session.ai_delay() == pytest.approx(0.02)  # twice the bot's pace
    await harness.stop(first)
    second = await harness.start(build_bot(timing=timing, database=database))
    again = table_runner(second, devserver)
    assert again.state.settings.pace == "slow" and again.session.ai_delay() == pytest.approx(0.02)


@pytest.mark.devserver(members=("alice",))
async def test_the_default_pace_goes_unsaid(harness, devserver):
    await harness.start(build_bot())
    lobby = await (await devserver.member("alice").slash("mahjong create")).message()
    assert "fast AI" not in lobby.text and "slow AI" not in lobby.text and "turn 20s" in lobby.text
