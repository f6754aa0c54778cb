"""Nothing lost: a bot stopped mid-hand, and a fresh bot on the same database picks the table up."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from data import Store
from devserver.config import RateLimits
from devserver.people import Person, code_of, move_of, prompt_buttons
from engine.match import Match

from .tablebot import FAST, PrivacyWatch, build_bot, table_runner

QUICK = RateLimits(time_scale=0.02)


async def prompt_of_kind(person: Person, kind: str):
    """Play on until a prompt of ``kind`` ('claim' or 'turn') waits for the person; return it unanswered."""
    while True:
        message = await person.next_prompt(30)
        codes = [code_of(b) for b in prompt_buttons(message)]
        is_claim = "s" in codes
        if (kind == "claim") == is_claim:
            return message
        await person.act_once(10)


@pytest.mark.parametrize("when", ["claim", "turn"])
@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_restarted_bot_resumes_mid_hand_old_buttons_work_and_the_result_is_the_replay(
    target, harness, devserver, monkeypatch, when
):  # target first: its database outlives the bots
    """On each database (``target``: an SQLite file, or a database on the throw-away PostgreSQL server)."""
    privacy = PrivacyWatch(monkeypatch)
    database = target
    first = await harness.start(build_bot(database=database, seed=11))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rounds=1)).message()
    await (await alice.click(lobby, "Start")).response()
    person = Person(alice)
    await devserver.recorder.wait_until(lambda: table_runner(first, devserver).session.game, 5, lambda: "a hand")
    waiting = await prompt_of_kind(person, when)
    hand_before = table_runner(first, devserver).session.game.hand_number
    button = prompt_buttons(waiting)[-1]

    await harness.stop(first)  # as a crash or a deploy would: the DM keeps its buttons
    second = await harness.start(build_bot(database=database, seed=11))
    runner = table_runner(second, devserver)
    assert runner.session.game is not None and runner.session.game.hand_number == hand_before
    await devserver.wait_for_message(channel="general", predicate=lambda m: "I restarted" in m.content)

    clicked = await alice.click(waiting, button.custom_id or "")  # a button posted before the restart
    answer = await clicked.response()
    assert answer.type == 7, "the old button still plays"
    person.answered.add(move_of(button))

    stop = asyncio.Event()
    play = asyncio.create_task(person.play(stop))
    standings = await devserver.wait_for_message(
        channel="general",
        predicate=lambda m: any("Match over" in (e.get("title") or "") for e in m.embeds),
        timeout=120,
    )
    stop.set()
    await play
    # the match, replayed without interruption from its header and every stored move, ends the same
    logs = [record.log for record in runner.session.match.history]
    again, pending = Match.replay(runner.session.match.header(), logs)
    assert pending is None and again.scores == runner.session.match.scores
    score = runner.session.match.scores[runner.session.seating.seat_of_user(alice.id)]
    assert f"alice · {score}" in standings.embeds[0]["description"]
    assert privacy.check(runner) > 0

    board = await (await alice.slash("mahjong leaderboard")).message()
    assert "alice" in board.embeds[0]["description"] and f"{score:+,}" in board.embeds[0]["description"]
    history = await (await alice.slash("mahjong history")).message()
    assert "alice" in history.text
    await harness.stop(second)
    store = await Store.open(database)
    try:
        assert await store.unfinished_tables() == []
        assert [m.standings for m in await store.history(devserver.world.guild_id)][0][0].score == max(
            runner.session.match.scores
        )
    finally:
        await store.close()


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_table_taken_over_between_two_hands_sends_the_next_hand_before_its_table_post(
    pg_target, harness, devserver
):
    """On PostgreSQL a process rebuilds tables as a takeover does, by the hundred (``hands_first``): it
    shows people their hands before the table picture nobody acts on, at its first deal too."""
    database = pg_target
    first = await harness.start(build_bot(replace(FAST, hands=1), database=database, seed=11))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", rounds=1)).message()
    await (await alice.click(lobby, "Start")).response()
    person, stop = Person(alice), asyncio.Event()
    play = asyncio.create_task(person.play(stop))
    runner = table_runner(first, devserver)
    await devserver.recorder.wait_until(
        lambda: runner.session.match is not None and len(runner.session.match.history) == 1, 60, lambda: "a hand"
    )
    stop.set()
    await play
    await harness.stop(first)  # idle between its first and second hand (Timing.hands)

    mark = devserver.mark()
    second = await harness.start(build_bot(database=database, seed=11))
    runner = table_runner(second, devserver)
    await devserver.recorder.wait_until(
        lambda: runner.session.game is not None and runner.session.game.hand_number == 2, 30, lambda: "hand 2"
    )
    posted = await devserver.wait_for_message(
        channel="general", predicate=lambda m: m.created_seq > mark and "tiles left" in m.content
    )
    dealt = next(m for m in devserver.recorder.private_to(alice.id) if m.created_seq > mark and m.dm_with == alice.id)
    assert dealt.created_seq < posted.created_seq, "the hand reached its person before the table was posted"
    await harness.stop(second)
