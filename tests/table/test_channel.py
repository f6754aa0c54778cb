"""A lost channel permission as transcripts: ChannelRefused blocks the table (nothing moves, no clock runs),
each tick asks for a Probe every ``Timing.permission_probe``, a probe refused again waits another interval,
and ChannelOk lets the table play on with the clock given back in full."""

from __future__ import annotations

from engine.events import Phase
from table import effects as fx
from table import inputs as ins

from .transcript import ALICE, TIMING, Host, kinds, only, seated, started

PROBE = TIMING.permission_probe


def alice_to_move() -> Host:
    host = started()
    host.until_owes(ALICE, Phase.TURN)
    return host


def test_a_refused_post_blocks_the_table():
    host = alice_to_move()
    assert host.feed(ins.ChannelRefused("Missing Permissions")) == [fx.Blocked("Missing Permissions")]


def test_a_second_refusal_while_blocked_asks_for_nothing_new():
    host = alice_to_move()
    host.feed(ins.ChannelRefused("Missing Permissions"))
    assert host.feed(ins.ChannelRefused("Missing Access"), at=host.now + 1) == []
    assert host.tick() == [fx.WakeAt(host.now - 1 + PROBE)]  # the first refusal's probe still stands


def test_no_clock_runs_out_while_the_table_is_blocked():
    host = alice_to_move()
    deadline = host.session.deadline
    assert deadline is not None
    host.feed(ins.ChannelRefused("Send Messages"))
    shown = host.public()
    for later in (deadline, deadline + 100, deadline + 1000):
        assert only(host.tick(at=later), fx.StoreMove) == []
    assert host.public() == shown and host.owes(ALICE)


def test_no_ai_moves_while_the_table_is_blocked():
    host = started()  # seed 3: the AI dealer moves first, at 0.5
    host.feed(ins.ChannelRefused("Send Messages"))
    assert host.tick(at=0.5) == [fx.WakeAt(PROBE)]
    assert host.tick(at=PROBE + 50) == [fx.Probe()]
    assert host.public().seats[host.public().dealer].discards == ()


def test_a_blocked_table_asks_for_a_probe_every_interval():
    host = alice_to_move()
    blocked = host.now
    host.feed(ins.ChannelRefused("Send Messages"))
    assert host.tick(at=blocked + 1) == [fx.WakeAt(blocked + PROBE)]
    assert host.tick(at=blocked + PROBE) == [fx.Probe()]
    assert host.tick(at=blocked + PROBE + 1) == [fx.WakeAt(blocked + 2 * PROBE)]  # the next one, not sooner


def test_a_probe_refused_again_waits_another_interval():
    host = alice_to_move()
    host.feed(ins.ChannelRefused("Send Messages"))
    host.tick(at=host.now + PROBE)
    refused_at = host.now + 3
    assert host.feed(ins.ChannelStillRefused(), at=refused_at) == []
    assert host.tick() == [fx.WakeAt(refused_at + PROBE)]
    assert host.tick(at=refused_at + PROBE) == [fx.Probe()]


def test_a_post_going_through_gives_the_clock_back_in_full():
    host = alice_to_move()
    host.feed(ins.ChannelRefused("Send Messages"))
    back = host.now + 300
    out = host.feed(ins.ChannelOk(), at=back)
    version = host.session.version
    assert out[0] == fx.ShowTable(version) and out[-1] == fx.Notice("play.unblocked")
    assert fx.ShowHand(host.seat(ALICE), version) in out
    assert host.session.deadline == back + 20.0  # her whole turn, from the moment the table plays again
    assert host.tick() == [fx.WakeAt(back + 20.0)]


def test_clicks_count_again_once_a_post_goes_through():
    host = alice_to_move()
    host.feed(ins.ChannelRefused("Send Messages"))
    assert host.refused(host.button(ALICE)) == "err.table_blocked"
    host.feed(ins.ChannelOk(), at=host.now + 10)
    assert kinds(host.click(ALICE))[0] is fx.StoreMove


def test_the_ais_play_on_once_a_post_goes_through():
    host = started()
    host.feed(ins.ChannelRefused("Send Messages"))
    host.feed(ins.ChannelOk(), at=PROBE)
    assert host.session.deadline is None  # an AI's decision: no clock to give back
    assert only(host.tick(), fx.StoreMove)[0].move.split()[1] == "discard"  # its delay long since passed


def test_a_refusal_outside_a_match_in_play_blocks_nothing():
    lobby = seated()
    assert lobby.feed(ins.ChannelRefused("Send Messages")) == []
    over = started("taiwan13", seed=5)
    over.feed(ins.PlayerLeft(ALICE))  # 中断连线: the match is over
    assert over.feed(ins.ChannelRefused("Send Messages")) == [] and over.tick() == []
