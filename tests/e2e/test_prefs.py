"""Issue 39 through the stand-in: /mahjong settings in a DM and in a server (ephemeral, stored), the other
subcommands refused politely in a DM; an auto toggle switched from the hand message answers a decision by
itself (no click, no clock), and the toggles and what is left of a time bank survive a restart."""

from __future__ import annotations

from dataclasses import replace

import pytest

from data import PlayerPrefs, Store
from devserver.config import RateLimits
from devserver.people import Person
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
