"""Replays through the stand-in: a finished match stepped through privately from each seat, the
buttons still working after a restart, the Replay buttons on score sheets and in the history, the
animated hand, /mahjong export's match log checking clean, and what a match in progress allows."""

from __future__ import annotations

import asyncio
import io
import json
import math

import pytest
from PIL import Image

from cogs.i18n.steps import step_line
from devserver.config import RateLimits
from devserver.people import Person
from engine.log import Sealed, check_log, read_log
from engine.replay import frames
from render.theme import FELT, OCEAN
from tests.chinese import wrong_script

from .tablebot import PrivacyWatch, build_bot, play_match, table_runner

QUICK = RateLimits(time_scale=0.02)


def _top_middle(png: bytes) -> tuple[int, int, int]:
    im = Image.open(io.BytesIO(png)).convert("RGB")
    return im.getpixel((im.width // 2, 3))


def last_line(message) -> str:
    return message.content.splitlines()[-1].strip("*")


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_finished_match_replays_step_by_step_from_each_seat_after_a_restart_too(
    harness, devserver, monkeypatch, tmp_path
):
    database = str(tmp_path / "mahjong.sqlite3")
    bot = await harness.start(build_bot(database=database, seed=5))
    played = await play_match(bot, devserver, PrivacyWatch(monkeypatch), rules="taiwan16", rounds=1)
    runner = played.runner
    ids = dict(runner.journal.hand_ids)
    record = max(played.history, key=lambda r: len(r.log))  # the longest hand: claims, maybe a kong
    hand_id = ids[record.number]
    names = runner.session.seating.names()
    alice, bob = devserver.member("alice"), devserver.member("bob")

    await bot.get_cog("Mahjong").store.set_player_prefs(alice.id, theme="ocean")  # /mahjong settings theme
    opened = await alice.slash("mahjong replay", hand=hand_id)
    message = await opened.message()
    assert message.ephemeral_to == alice.id and message.attachments[0].filename == "replay.png"
    panel = _top_middle(message.attachments[0].data)  # her replays come in her theme
    assert math.dist(panel, OCEAN.panel) < math.dist(panel, FELT.panel)
    seat = runner.session.seating.seat_of_user(alice.id)
    assert f"seen from {names[seat]}" in message.content
    assert last_line(message).startswith("Deal · ")  # in the reader's language (issue 37)
    assert message.button("⏮").disabled and message.button("◀").disabled

    from data.replays import stored_hand

    stored = await stored_hand(bot.get_cog("Mahjong").store, devserver.world.guild_id, hand_id=hand_id)
    assert stored is not None and list(stored.moves) == list(record.log)
    index = 0
    for s in range(4):  # every seat: the select turns the table at the same step, ▶ steps on
        expected = [step_line("en", f.number, f.events, names) for f in frames(stored.header, stored.moves, seat=s)]
        turned = await alice.select(message, None, [str(s)])
        assert (await turned.response()).type == 7
        message = await turned.message()
        assert f"seen from {names[s]}" in message.content and last_line(message) == expected[index]
        for _ in range(2):
            step = await alice.click(message, "▶")
            message = await step.message()
            index += 1
            assert last_line(message) == expected[index]
    end = await (await alice.click(message, "⏭")).message()
    assert last_line(end) == expected[-1] and end.button("▶").disabled
    assert any(w in last_line(end) for w in ("wins", "self-draws", "Draw game"))
    if not end.button("Next claim").disabled:
        raise AssertionError("no claim can follow the last step")

    first = await (await alice.click(end, "⏮")).message()
    claimed = [i for i, f in enumerate(frames(stored.header, stored.moves)) if "claim" in f.marks]
    where = 0
    if claimed:
        where = claimed[0]
        jumped = await (await alice.click(first, "Next claim")).message()
        assert last_line(jumped) == frames_line(stored, names, 3, claimed[0])

    await harness.stop(bot)  # the replay message keeps its buttons; a fresh bot answers them
    bot = await harness.start(build_bot(database=database, seed=5))
    again = await alice.click(first, "▶")
    assert (await again.response()).type == 7
    assert last_line(await again.message()) == frames_line(stored, names, 3, where + 1)

    # the match is over: anyone in the server may replay it, from the winner's seat by default
    seen = await (await bob.slash("mahjong replay", hand=hand_id)).message()
    assert seen.ephemeral_to == bob.id and last_line(seen).startswith("Deal · ")
    bob.record.locale = "zh-CN"  # the replay follows the reader's language, in its own script (issue 37)
    zh = await (await bob.click(seen, "▶")).message()
    assert "从" in zh.content and last_line(zh).startswith("第 1 手 · ") and not wrong_script("zh-CN", zh.content)
    bob.record.locale = "en-US"

    # the score sheet's Replay button, and the history's
    sheets = [
        m for m in devserver.channel_messages() if m.attachments and m.attachments[0].filename == "score.png"
    ]
    assert len(sheets) == len(played.history) and all(m.button("▶ Replay") for m in sheets)
    from_sheet = await (await bob.click(sheets[1], "▶ Replay")).message()
    assert from_sheet.ephemeral_to == bob.id and f"hand 2 of table {runner.session.table_id}" in from_sheet.content
    nxt = await (await bob.click(from_sheet, "Hand ▶")).message()
    assert f"hand 3 of table {runner.session.table_id}" in nxt.content
    history = await (await bob.slash("mahjong history")).message()
    from_history = await (await bob.click(history, f"▶ Replay #{runner.session.table_id}")).message()
    assert f"hand 1 of table {runner.session.table_id}" in from_history.content

    # the animated hand, posted for the channel
    shared = await (await alice.slash("mahjong replay", hand=hand_id, animated=True)).message(timeout=30)
    assert shared.ephemeral_to is None and shared.attachments[0].filename.endswith(".gif")
    assert shared.attachments[0].data[:6] == b"GIF89a" and len(shared.attachments[0].data) < 8 * 1024 * 1024

    # the match as a log: it checks, and it is the match that was played
    exported = await (await bob.slash("mahjong export", match=runner.session.table_id)).message()
    log = read_log(exported.attachments[0].data)
    summary = check_log(log)
    assert summary.hands == len(played.history)
    assert log["matches"][0]["final_scores"] == runner.session.match.scores
    assert [h["moves"] for h in log["matches"][0]["hands"]] == [list(r.log) for r in played.history]
    assert json.loads(exported.attachments[0].data)["matches"][0]["seats"][seat]["user_id"] == str(alice.id)


def frames_line(stored, names, seat, index):
    return [step_line("en", f.number, f.events, names) for f in frames(stored.header, stored.moves, seat=seat)][index]


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_a_match_in_progress_replays_only_for_its_players_and_only_finished_hands(harness, devserver):
    bot = await harness.start(build_bot(seed=9))
    alice, bob = devserver.member("alice"), devserver.member("bob")
    lobby = await (await alice.slash("mahjong create", rounds=1)).message()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(bot, devserver)
    person = Person(alice)
    stop = asyncio.Event()
    play = asyncio.create_task(person.play(stop))
    await devserver.recorder.wait_until(
        lambda: len(runner.session.match.history) >= 1, 120, lambda: "a finished hand"
    )
    stop.set()  # alice stops answering: hand 2 stays in play (her turn waits on its clock)
    await play
    await devserver.recorder.wait_until(lambda: 2 in runner.journal.hand_ids, 10, lambda: "hand 2 stored")
    finished, playing = runner.journal.hand_ids[1], runner.journal.hand_ids[2]
    await devserver.recorder.wait_until(
        lambda: runner.session.game is not None and runner.session.game.hand_number == 2, 10, lambda: "hand 2 dealt"
    )

    refused = await (await bob.slash("mahjong replay", hand=finished)).message()
    assert (
        refused.ephemeral_to == bob.id and "only its players" in refused.content and not refused.attachments
    )
    no_export = await (await bob.slash("mahjong export", match=runner.session.table_id)).message()
    assert "only its players" in no_export.content and not no_export.attachments

    mine = await (await alice.slash("mahjong replay", hand=finished)).message()
    assert mine.ephemeral_to == alice.id and mine.attachments and mine.button("Hand ▶").disabled is False
    onward = await alice.click(mine, "Hand ▶")  # hand 2 is still being played: refused, nothing shown
    answer = await onward.message()
    assert "There is no other finished hand" in answer.content and answer.ephemeral_to == alice.id
    in_play = await (await alice.slash("mahjong replay", hand=playing)).message()
    assert "still being played" in in_play.content and not in_play.attachments
    own = await (await alice.slash("mahjong export", match=runner.session.table_id)).message()
    assert own.ephemeral_to == alice.id and "sealed" in own.content
    log = read_log(own.attachments[0].data)
    record = log["matches"][0]
    assert record["sealed"] is True and record["complete"] is False and len(record["hands"]) == 1
    assert "key" not in record and not {"seed", "wall"} & set(record["hands"][0])
    with pytest.raises(Sealed):  # nothing to replay it from until the match is over
        check_log(log)
