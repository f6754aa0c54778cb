"""A person who looks away (issue 39): the stand-in's attention model notices a new message at once but an edit
only while the person looks at their DM; the bot nudges a person slow to act with a new DM, deleted once they
act; and while the gateway session carrying a table's clicks is down its clocks stand still, the time lost
given back when it resumes (or READYs afresh)."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import replace

import pytest

from devserver.people import Attention, Person, prompt_buttons
from table import inputs as ins

from .tablebot import FAST, build_bot, table_runner

NEVER_BACK = (1e6, 1e6)  # a look at the channel that outlasts the test: only a new message brings them back


def alice_timeouts(runner, user_id: int) -> int:
    session = runner.session
    seat = session.seating.seat_of_user(user_id)
    game = session.game
    return 0 if game is None else sum(str(a) == f"{seat} timeout" for a in game.log)


def nudges(devserver, user) -> list:
    return [m for m in devserver.recorder.private_to(user.id) if m.content.startswith("▶") and not m.components]


async def started(harness, devserver, timing):
    bot = await harness.start(build_bot(timing=timing))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create")).message()
    await (await alice.click(lobby, "Start")).response()
    return bot, alice, table_runner(bot, devserver)


@pytest.mark.devserver(members=("alice",))
async def test_a_person_looking_away_is_nudged_by_a_new_dm_that_is_deleted_once_they_act(harness, devserver):
    timing = replace(FAST, ai_delay=0.3, nudge_after=0.2)  # her prompts come after she looked away
    _, alice, runner = await started(harness, devserver, timing)
    person = Person(alice, attention=Attention(look=NEVER_BACK))
    stop = asyncio.Event()
    play = asyncio.create_task(person.play(stop, timeout=60))
    try:
        await devserver.recorder.wait_until(
            lambda: person.woken >= 2 and all(m.deleted for m in nudges(devserver, alice)), 60,
            lambda: f"two nudges answered; nudges {nudges(devserver, alice)}, woken {person.woken}",
        )
    finally:
        stop.set()
        await play
    sent = nudges(devserver, alice)
    assert len(sent) >= 2 and all(m.dm_with == alice.id for m in sent)
    assert all(m.deleted_by == "bot" for m in sent)  # deleted by the bot once she acted
    assert any(" s" in m.content and "Your turn" in m.content for m in sent)  # "▶ Your turn · 19 s"
    assert person.looks >= 2 and person.woken >= 2  # she never came back on her own: the nudges woke her
    assert alice_timeouts(runner, alice.id) == 0  # and she answered every decision herself


@pytest.mark.devserver(members=("alice",))
async def test_an_edit_alone_does_not_wake_a_person_looking_away_and_their_clock_plays(harness, devserver):
    timing = replace(FAST, ai_delay=0.3, timer_scale=0.1, nudge_after=0.2)  # 2 s turns, 0.8 s claims
    bot, alice, runner = await started(harness, devserver, timing)

    # she turns nudges off in /mahjong settings (stored; read when a nudge is due)
    off = await (await alice.slash("mahjong settings", channel=alice.dm_channel, nudge=False)).message()
    assert off.ephemeral_to == alice.id or off.dm_with == alice.id
    person = Person(alice, attention=Attention(look=NEVER_BACK))
    stop = asyncio.Event()
    play = asyncio.create_task(person.play(stop, timeout=60))
    try:
        await devserver.recorder.wait_until(
            lambda: len(person.clicks) >= 1 and alice_timeouts(runner, alice.id) >= 1, 60,
            lambda: f"her clock to play a decision; clicks {person.clicks}",
        )
    finally:
        stop.set()
        await play
    seat = str(runner.session.seating.seat_of_user(alice.id))
    match = runner.session.match
    first = match.history[0].log if match.history else tuple(str(a) for a in runner.session.game.log)
    hers = [move.partition(" ")[2] for move in first if move.partition(" ")[0] == seat]
    clicked = [c for c, i in person.clicks if i.data["custom_id"].split(":")[3] == "1"]  # hand 1's clicks
    # she clicked once on hand 1 (its first DM is a new message), looked away, and her next prompt came as
    # an edit of that DM: it did not bring her back, and the clock played her next decision
    assert len(clicked) == 1 and hers[0] != "timeout" and hers[1] == "timeout", hers
    assert nudges(devserver, alice) == []  # she turned nudges off: nothing new came to bring her back


@pytest.mark.parametrize("resume", [True, False], ids=["resumed", "fresh-ready"])
@pytest.mark.devserver(members=("alice",))
async def test_a_gateway_drop_freezes_the_clocks_and_gives_the_lost_time_back(harness, devserver, monkeypatch, resume):
    timing = replace(FAST, nudge_after=60.0)  # a 20 s turn, 8 s claims; no nudge in the way
    _, alice, runner = await started(harness, devserver, timing)
    heard: list[tuple[bool, float]] = []
    changed = asyncio.Event()
    reach = type(runner).clicks_reach

    async def watched(self, reaches: bool) -> None:
        await reach(self, reaches)
        heard.append((reaches, time.time()))
        changed.set()

    monkeypatch.setattr(type(runner), "clicks_reach", watched)
    seat = runner.session.seating.seat_of_user(alice.id)

    def her_prompt():
        dm = next((m for m in devserver.recorder.private_to(alice.id) if m.dm_with == alice.id and not m.deleted), None)
        owes = runner.session.deadline is not None and seat in runner.session.needs_buttons()
        return dm if dm is not None and owes and prompt_buttons(dm) else None

    dm = await devserver.recorder.wait_until(her_prompt, 30, lambda: "alice's first prompt")
    before = runner.session.deadline
    await devserver.drop_gateway(0)
    await asyncio.wait_for(changed.wait(), 30)
    changed.clear()
    assert heard[-1][0] is False
    lost_at = heard[-1][1]
    # while it is down, the clock stands still: long past her deadline the table plays nothing for her
    assert runner.session.handle(ins.Tick(), before + 600.0) == []
    assert alice_timeouts(runner, alice.id) == 0
    shown = dm.updated_seq
    devserver.restore_gateway(0, resume=resume)
    await asyncio.wait_for(changed.wait(), 30)
    assert heard[-1][0] is True
    back_at = heard[-1][1]
    after = runner.session.deadline
    assert after is not None and after - before == pytest.approx(back_at - lost_at, abs=0.5) and after > before
    # and her prompt is shown again, with the countdown the table now keeps (no earlier than the one given back:
    # a prompt acknowledged only now restarts its clock from now, table/session.py prompt_shown)

    def shown_again():
        countdown = re.search(r"<t:(\d+):R>", dm.content)
        edited = dm.updated_seq > shown or int(after + 0.999) == int(before + 0.999)  # same second: no edit due
        return dm if edited and countdown and int(countdown[1]) >= int(after + 0.999) else None

    again = await devserver.recorder.wait_until(
        shown_again, 30, lambda: f"her DM shown again with {after}; it says {dm.content!r}"
    )
    interaction = await alice.click(again, prompt_buttons(again)[0].custom_id or "")
    await interaction.response()  # clicks reach the table again
    assert alice_timeouts(runner, alice.id) == 0, heard


@pytest.mark.devserver(members=("alice",))
async def test_a_nudge_through_a_dm_channel_that_failed_opens_a_fresh_one_next_time(harness, devserver):
    """A nudge through a kept DM channel id that Discord does not know (another token's, say) fails once; the
    id is forgotten, so the next nudge opens the DM afresh and reaches her, instead of every nudge failing."""
    timing = replace(FAST, ai_delay=0.3, nudge_after=0.2)
    bot, alice, runner = await started(harness, devserver, timing)
    await alice.wait_for_dm(lambda m: bool(m.attachments), timeout=10)  # her hand is out: edits from here on
    bot.get_cog("Mahjong").dm_channels[alice.id] = devserver.ids.next()
    person = Person(alice, attention=Attention(look=NEVER_BACK))
    stop = asyncio.Event()
    play = asyncio.create_task(person.play(stop, timeout=60))
    try:
        await devserver.recorder.wait_until(
            lambda: devserver.violations and nudges(devserver, alice), 60, lambda: "a failed nudge, then one delivered"
        )
    finally:
        stop.set()
        await play
    assert len(devserver.take_violations("unknown_channel")) == 1, "the stale id was tried once, then forgotten"
    assert all(m.dm_with == alice.id for m in nudges(devserver, alice))
