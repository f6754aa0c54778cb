"""Issue 39 through the stand-in: /mahjong settings in a DM and in a server (ephemeral, stored), the other
subcommands refused politely in a DM; an auto toggle switched from the hand message answers a decision by
itself (no click, no clock), and the toggles and what is left of a time bank survive a restart."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from cogs.mahjong import live as live_module
from cogs.mahjong.live import TOKEN_LIFE
from data import PlayerPrefs, Store
from devserver.config import RateLimits
from devserver.people import Person
from table.screens import SEATS
from table.toggles import Toggles

from .tablebot import FAST, build_bot, table_runner

QUICK = RateLimits(time_scale=0.02)
# turns of 5 s and claims of 4 s with a 20 s bank, shrunk twentyfold: a clock the test waits out in a second
SHRUNK = replace(FAST, timer_scale=0.05)


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_settings_are_private_stored_and_work_in_a_dm(harness, devserver, tmp_path):
    bot = await harness.start(build_bot(database=str(tmp_path / "m.sqlite3")))
    alice = devserver.member("alice")
    shown = await (await alice.slash("mahjong settings", channel=alice.dm_channel, auto_win=True, theme="ocean")).message()
    assert shown.flags & 64, "answered only to her"
    assert "Auto-win (take every win): on" in shown.content and "Theme: ocean" in shown.content
    again = await (await alice.slash("mahjong settings")).message()  # in the server: the same, global
    assert again.flags & 64 and "Auto-win (take every win): on" in again.content
    assert await bot.store.get_player_prefs(alice.id) == PlayerPrefs(theme="ocean", auto_win=True)
    refused = await (await alice.slash("mahjong tables", channel=alice.dm_channel)).message()
    assert refused.flags & 64 and "not in DMs" in refused.content


@pytest.mark.devserver(members=("alice",), rate_limits=QUICK)
async def test_a_toggle_answers_a_decision_and_toggles_and_bank_survive_a_restart(target, harness, devserver):
    first = await harness.start(build_bot(SHRUNK, database=target, seed=11))
    alice = devserver.member("alice")
    lobby = await (await alice.slash("mahjong create", turn_seconds=5, claim_seconds=4, bank=20)).message()
    await (await alice.click(lobby, "Start")).response()
    runner = table_runner(first, devserver)
    await devserver.recorder.wait_until(lambda: runner.session.game, 5, lambda: "a hand")
    seat = runner.session.seating.seat_of_user(alice.id)
    prompt = await Person(alice).next_prompt(30)
    assert "bank 20 s" in prompt.content, "the prompt shows the bank"
    # she lets her clock run out: base, then the whole bank, spent and stored
    await devserver.recorder.wait_until(lambda: runner.session.bank_left(seat) == 0, 30, lambda: "the bank spent")
    dm = alice.dms()[-1]
    answer = await (await alice.click(dm, "⬜ Auto-discard 摸切")).response()
    assert answer.type == 7, "answered in place on her hand message"
    assert runner.session.toggles[seat] == Toggles(auto_discard=True)
    assert (await first.store.get_player_prefs(alice.id)).auto_discard
    log_before = len(runner.session.game.log)

    def her_auto_discard() -> bool:  # 摸切 played by the toggle: she never clicks, a timed-out turn logs "timeout"
        return any(a.seat == seat and " discard " in str(a) for a in runner.session.game.log[log_before:])

    await devserver.recorder.wait_until(her_auto_discard, 30, lambda: "a turn answered by the toggle")
    assert "Auto-discard 摸切" in alice.dms()[-1].content  # the DM says the toggle is on

    await harness.stop(first)
    second = await harness.start(build_bot(SHRUNK, database=target, seed=11))
    again = table_runner(second, devserver)
    assert again.session.bank_left(seat) == 0, "the spent bank stays spent"
    await devserver.recorder.wait_until(lambda: again.session.toggles.get(seat), 10, lambda: "toggles reloaded")
    assert again.session.toggles[seat] == Toggles(auto_discard=True)
    await harness.stop(second)
    store = await Store.open(target)
    try:
        assert (await store.get_player_prefs(alice.id)).auto_discard
    finally:
        await store.close()


@pytest.mark.devserver(members=("alice", "bob"), rate_limits=QUICK)
async def test_one_show_my_hand_press_stays_live_across_turns_until_its_token_expires(harness, devserver, monkeypatch):
    # the bot's clock moves with the stand-in's, which the test moves: a token's age as the bot reads it
    # (live._token_age) plus the time the test skipped
    age = live_module._token_age
    monkeypatch.setattr(live_module, "_token_age", lambda interaction: age(interaction) + devserver.clock.skipped)
    bot = await harness.start(build_bot())
    alice, bob = devserver.members("alice", "bob")
    devserver.refuse_dms(bob)
    lobby = await (await alice.slash("mahjong create")).message()
    await (await bob.click(lobby, "Join")).response()
    await (await alice.click(lobby, "Start")).response()
    await devserver.wait_for_message(channel="general", predicate=lambda m: bob.mention in m.content)
    runner = table_runner(bot, devserver)
    table = next(m for m in reversed(devserver.channel_messages()) if m.attachments and m.buttons())
    shown = await (await bob.click(table, "Show my hand")).message()  # the one press
    taken = await (await bob.click(shown, "Take back control")).message()
    assert taken.id == shown.id, "answered in place on the private hand"
    seat = runner.session.seating.seat_of_user(bob.id)
    live = runner.hands.private[seat]
    stop = asyncio.Event()
    alice_plays = asyncio.create_task(Person(alice).play(stop))
    person = Person(bob)
    for _ in range(3):  # his turns reach the same private message: no press in between
        await person.act_once(timeout=30)
        if runner.session.game.is_over:
            break
    assert len(person.clicks) >= 2
    clicked_on = {interaction.source_message_id for _, interaction in person.clicks}
    assert clicked_on == {shown.id}, "every turn was played on the one private hand, edited in place"
    assert live.edits > 0, "the table's moves edited it through the token between his clicks"
    # at 14½ minutes (the stand-in refuses the token at 15) the live hand stops editing, without a try. The
    # table is held on alice's decision while the clock jumps
    stop.set()
    await alice_plays
    alice_seat = runner.session.seating.seat_of_user(alice.id)

    def held_on_alice() -> bool:  # and bob's private hand shows it all (no edit of it still on its way)
        waiting = runner.session.game.is_over or runner.session.needs_buttons() == {alice_seat}
        return waiting and live.pending() is None and live.wanted <= live.shown and not live.held

    await devserver.recorder.wait_until(held_on_alice, 30, lambda: "the table waiting on alice")
    assert devserver.config.token_lifetime == 15 * 60
    newest = person.clicks[-1][1]  # his last click: its token is the one that edits the private hand
    # 14½ min old at the stand-in, which still takes it; the bot counts from its own receipt, a little later
    devserver.clock.advance(TOKEN_LIFE + 30 - newest.age)
    edits = live.edits
    live.want(runner.session.screen(SEATS).version + 1)  # the table's next change asks for his hand again
    task = live.pending()
    if task is not None:
        await asyncio.wait_for(task, 30)  # its one step: the token is too old, so the slot closes unsent
    assert live.closed and live.edits == edits, "closed without another edit"
    assert not [m for m in bob.seen() if m.dm_with == bob.id]
    await runner.close()
