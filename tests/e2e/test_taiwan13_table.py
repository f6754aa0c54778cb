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
    assert any("alice**, the table's owner, sits East" in m.content for m in devserver.channel_messages())
    wins = [record.result for record in played.history if record.result.winner is not None]
    assert wins and all(w.unit == "tai" and w.total >= 1 for w in wins)  # 胡牌时一定要有台数
    for win in wins:
        if win.loser is not None:  # 放枪: the discarder alone pays 台 x 20 (庄家 included)
            assert win.deltas[win.winner] == -win.deltas[win.loser] == 20 * win.total


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=RateLimits(time_scale=0.02))
async def test_a_player_who_leaves_a_taiwan13_table_ends_it_and_loses_50_points(harness, devserver, tmp_path):
    from .tablebot import table_runner

    bot = await harness.start(build_bot(seed=5, database=str(tmp_path / "t13.sqlite3")))
    alice, bob = devserver.members("alice", "bob")
    lobby = await (await alice.slash("mahjong create", rules="taiwan13", rounds=1)).message()
    await (await bob.click(lobby, "Join")).response()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    await devserver.recorder.wait_until(lambda: runner.session.game is not None, 5, lambda: "the first hand")
    seat = runner.session.seating.seat_of_user(bob.id)
    left = await (await bob.slash("mahjong leave")).message()
    assert "You left" in left.content
    notice = await devserver.wait_for_message(channel="general", predicate=lambda m: "table ends" in m.content)
    assert "bob" in notice.content and "50" in notice.content
    standings = await devserver.wait_for_message(
        channel="general", predicate=lambda m: any("Match over" in (e.get("title") or "") for e in m.embeds)
    )
    scores = runner.session.match.scores
    assert scores[seat] == -50 and all(scores[s] == 0 for s in range(4) if s != seat)  # 中断连线
    assert "bob · -50" in standings.embeds[0]["description"]
    assert await bot.store.unfinished_tables() == []
