"""The table's clocks as transcripts on a fake clock: the turn, claim and 換牌 windows from the table's options
and the bot's timer scale, a timeout at the deadline and not before, a prompt delivered late restarting its
clock (past the delivery grace, once per decision), a deadline waiting for a prompt still on its way (up to
the cap), and the AI's pace."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.events import Phase
from engine.rules import TableOptions
from table import effects as fx
from table import inputs as ins

from .transcript import ALICE, TIMING, Host, kinds, only, started

SLOW_CLOCKS = TableOptions(turn_seconds=30, claim_seconds=10)
HALF = replace(TIMING, timer_scale=0.5)
# key 7: ALICE's first decision is a claim window (the 中 seat 1 discards)
CLAIM_FIRST = 7
# key 1: ALICE's second discard opens a claim window for the AI after her (it passes)
AI_CLAIMS_AFTER_ALICE = 1


def alice_owes(phase: Phase, **settings: object) -> Host:
    seed = CLAIM_FIRST if phase is Phase.CLAIM else 3
    host = started(seed=seed, **settings)
    host.until_owes(ALICE, phase)
    return host


# ------------------------------------------------------------------ how long a decision lasts


def test_a_turn_lasts_the_tables_turn_seconds_times_the_timer_scale():
    host = alice_owes(Phase.TURN, options=SLOW_CLOCKS, timing=HALF)
    assert host.session.deadline == host.now + 15.0  # 30 s × 0.5, from the moment the decision opened


def test_a_claim_window_lasts_the_tables_claim_seconds_times_the_timer_scale():
    host = alice_owes(Phase.CLAIM, options=SLOW_CLOCKS, timing=HALF)
    assert host.session.deadline == host.now + 5.0  # 10 s × 0.5


def test_the_exchange_runs_on_a_turns_time():
    host = started(options=replace(SLOW_CLOCKS, exchange=True), timing=HALF)
    assert host.public().phase is Phase.EXCHANGE and host.owes(ALICE)
    assert host.session.deadline == 0.0 + 15.0  # 換牌 is dealt at 0, on the turn clock, not the claim's


def test_a_decision_nobody_owes_has_no_deadline():
    host = started()  # seed 3: an AI deals first
    assert host.session.needs_buttons() == set() and host.session.deadline is None


# ------------------------------------------------------------------ running out


def test_the_clock_runs_out_at_the_deadline_and_not_before():
    host = alice_owes(Phase.TURN)
    deadline = host.session.deadline
    assert deadline is not None
    assert host.tick(at=deadline - 0.01) == [fx.WakeAt(deadline)]
    out = host.tick(at=deadline)
    assert only(out, fx.StoreMove)[0].move == f"{host.seat(ALICE)} timeout"
    assert not host.owes(ALICE) and kinds(out)[-1] is fx.WakeAt


def test_a_turn_that_times_out_is_played_for_the_person():
    host = alice_owes(Phase.TURN)
    seat, before = host.seat(ALICE), len(host.public().seats[host.seat(ALICE)].discards)
    host.time_out()
    assert len(host.public().seats[seat].discards) == before + 1  # the table discarded for her


def test_a_claim_window_left_unanswered_is_a_pass():
    host = alice_owes(Phase.CLAIM)
    seat = host.seat(ALICE)
    out = host.time_out()
    assert only(out, fx.StoreMove)[0].move == f"{seat} timeout"
    assert host.public().seats[seat].melds == ()  # no 碰 for her: she passed, and draws (she sits next)
    assert host.public().phase is Phase.TURN and host.public().turn == seat


def test_an_exchange_not_chosen_in_time_keeps_the_dealt_hand():
    host = started(options=TableOptions(exchange=True))  # seed 3: ALICE does not deal
    dealt = host.view(ALICE).concealed  # type: ignore[union-attr]
    out = host.run_until(lambda h: h.public().phase is not Phase.EXCHANGE)
    assert f"{host.seat(ALICE)} timeout" in [e.move for e in only(out, fx.StoreMove)]
    assert host.view(ALICE).concealed == dealt  # type: ignore[union-attr]


def test_an_exchange_chosen_is_stored_and_the_hand_plays_on_when_all_have_chosen():
    host = started(options=TableOptions(exchange=True))  # seed 3: an AI deals
    view = host.view(ALICE)
    assert view is not None
    give = tuple(sorted(view.concealed[:2]))
    seat = host.seat(ALICE)
    out = host.feed(ins.Exchange(ALICE, seat, give, view.hand_number, host.session.decision))
    assert only(out, fx.StoreMove)[0].move.startswith(f"{seat} exchange ")
    host.run_until(lambda h: h.public().phase is not Phase.EXCHANGE)
    assert host.public().phase is Phase.TURN and host.session.deadline is None  # the AI dealer's turn


# ------------------------------------------------------------------ a prompt that arrives late


def test_a_prompt_shown_within_the_delivery_grace_keeps_its_clock():
    host = alice_owes(Phase.TURN)
    deadline = host.session.deadline
    assert host.feed(ins.Shown(host.seat(ALICE), host.session.version), at=host.now + TIMING.delivery_grace) == []
    assert host.session.deadline == deadline


def test_a_prompt_shown_past_the_delivery_grace_restarts_its_clock_from_then():
    host = alice_owes(Phase.TURN)
    seat = host.seat(ALICE)
    arrived = host.now + 4.0
    out = host.feed(ins.Shown(seat, host.session.version), at=arrived)
    fresh = arrived + 20.0  # the table's 20 s turn, from the moment she could act
    version = host.session.version
    assert out == [fx.StoreDeadline(1, fresh), fx.ShowTable(version), fx.ShowHand(seat, version)]
    assert host.session.deadline == fresh
    assert host.tick(at=fresh - 0.5) == [fx.WakeAt(fresh)]  # the old deadline passed: nothing ran out


def test_a_late_prompt_restarts_the_clock_once_per_decision():
    host = alice_owes(Phase.TURN)
    seat = host.seat(ALICE)
    host.feed(ins.Shown(seat, host.session.version), at=host.now + 4.0)
    deadline = host.session.deadline
    assert host.feed(ins.Shown(seat, host.session.version), at=host.now + 3.0) == []  # an edit acknowledged again
    assert host.session.deadline == deadline


def test_an_older_message_shown_late_restarts_nothing():
    host = started()
    stale = host.session.version  # the version her hand message showed at the deal, before her turn
    host.until_owes(ALICE, Phase.TURN)
    deadline = host.session.deadline
    assert host.feed(ins.Shown(host.seat(ALICE), stale), at=host.now + 5.0) == []
    assert host.session.deadline == deadline


def test_a_message_shown_late_to_a_seat_that_owes_nothing_restarts_nothing():
    host = started(people=(ALICE,))  # seed 3: the AI dealer's decision
    host.tick(at=0.25)
    assert host.feed(ins.Shown(host.seat(ALICE), host.session.version), at=5.0) == []
    assert host.session.deadline is None


def test_the_deadline_waits_for_a_prompt_still_on_its_way():
    host = alice_owes(Phase.TURN)
    seat, deadline = host.seat(ALICE), host.session.deadline
    assert deadline is not None
    late = deadline + 2.0
    assert host.tick(at=late, coming={seat}) == [fx.WakeAt(late + TIMING.delivery_poll)]
    assert host.owes(ALICE)  # nothing was played for her


def test_the_deadline_waits_for_a_prompt_on_its_way_no_longer_than_the_cap():
    host = alice_owes(Phase.TURN)
    seat, deadline = host.seat(ALICE), host.session.deadline
    assert deadline is not None
    out = host.tick(at=deadline + TIMING.delivery_cap + 0.01, coming={seat})
    assert only(out, fx.StoreMove)[0].move == f"{seat} timeout"


def test_a_prompt_already_acknowledged_does_not_hold_the_clock():
    host = alice_owes(Phase.TURN)
    seat = host.seat(ALICE)
    host.feed(ins.Shown(seat, host.session.version), at=host.now + 0.5)  # in time: delivered, no restart
    assert host.session.deadline is not None
    out = host.tick(at=host.session.deadline, coming={seat})  # a later edit of hers is still on its way
    assert only(out, fx.StoreMove)[0].move == f"{seat} timeout"


def test_a_prompt_on_its_way_to_someone_who_owes_nothing_does_not_hold_the_clock():
    host = alice_owes(Phase.TURN)
    assert host.session.deadline is not None
    out = host.tick(at=host.session.deadline, coming={(host.seat(ALICE) + 1) % 4})
    assert only(out, fx.StoreMove)[0].move == f"{host.seat(ALICE)} timeout"


# ------------------------------------------------------------------ the AI's pace


@pytest.mark.parametrize(("pace", "factor"), [("fast", 0.4), ("normal", 1.0), ("slow", 2.0)])
def test_an_ai_discard_waits_the_bots_delay_times_the_tables_pace(pace, factor):
    host = started(pace=pace)  # seed 3: an AI deals at 0
    ready = TIMING.ai_delay * factor
    assert host.tick(at=0.0) == [fx.WakeAt(ready)]
    assert host.tick(at=ready - 0.01) == [fx.WakeAt(ready)]
    out = host.tick(at=ready)
    assert only(out, fx.StoreMove)[0].move.split()[1] == "discard"


def test_each_ai_discard_waits_from_the_move_before_it():
    host = started(pace="slow")  # seed 3: the AI dealer (seat 3) discards, then the AI at seat 0 draws
    host.tick(at=1.0)
    while (out := host.tick()) != [fx.WakeAt(host.now + 1.0)]:  # claims answered at once, then the draw
        assert kinds(out)[0] is fx.StoreMove and not host.owes(ALICE)
    assert host.public().phase is Phase.TURN and host.public().turn == 0 and host.now == 1.0


def test_an_ai_answers_a_claim_window_at_once():
    host = started(seed=AI_CLAIMS_AFTER_ALICE)
    for _ in range(2):
        host.until_owes(ALICE, Phase.TURN)
        host.click(ALICE)
    assert host.public().phase is Phase.CLAIM and not host.owes(ALICE)
    out = host.tick()  # at the very moment of her discard
    assert kinds(out)[0] is fx.StoreMove and only(out, fx.StoreMove)[0].move.endswith("pass")


def test_a_seat_the_table_plays_for_moves_without_the_ais_delay():
    host = started(pace="slow")
    host.feed(ins.PlayerLeft(ALICE))  # 代打 from now on
    seat = host.seat(ALICE)
    host.run_until(lambda h: h.public().turn == seat and h.public().phase is Phase.TURN)
    out = host.tick()  # at once, where an AI seat would wait a second
    assert only(out, fx.StoreMove)[0].move.startswith(f"{seat} ")


# ------------------------------------------------------------------ the gateway that carries the clicks drops (issue 39)


def test_while_the_clicks_cannot_reach_the_table_no_decision_times_out():
    host = alice_owes(Phase.TURN)
    deadline = host.session.deadline
    assert deadline is not None
    assert host.feed(ins.ClicksLost(), at=host.now + 5.0) == []
    assert host.tick(at=deadline + 60.0) == []  # long past the deadline: nothing played for her, nothing to wake for
    assert host.owes(ALICE)


def test_when_the_clicks_come_back_the_decision_gets_back_the_time_the_outage_took_and_is_shown_again():
    host = alice_owes(Phase.TURN)
    seat, deadline = host.seat(ALICE), host.session.deadline
    assert deadline is not None
    host.feed(ins.ClicksLost(), at=host.now + 5.0)  # 15 s of her 20 s were left
    out = host.feed(ins.ClicksBack(), at=host.now + 40.0)
    fresh = deadline + 40.0  # the 40 s the gateway was down are given back: 15 s left, from now
    version = host.session.version
    assert out == [fx.StoreDeadline(1, fresh), fx.ShowTable(version), fx.ShowHand(seat, version), fx.WakeAt(host.now)]
    assert host.tick(at=fresh - 0.5) == [fx.WakeAt(fresh)]
    assert only(host.tick(at=fresh), fx.StoreMove)[0].move == f"{seat} timeout"


def test_a_decision_that_opened_during_the_outage_gets_back_only_its_own_share():
    host = alice_owes(Phase.TURN)
    opened = host.now
    host.feed(ins.ClicksLost(), at=opened - 0.0)
    host.feed(ins.ClicksBack(), at=opened + 7.0)
    assert host.session.deadline == opened + 20.0 + 7.0  # lost from its opening, not from the drop


def test_a_second_drop_report_keeps_the_first_drops_time_and_a_return_without_a_drop_changes_nothing():
    host = alice_owes(Phase.TURN)
    deadline = host.session.deadline
    assert deadline is not None
    assert host.feed(ins.ClicksBack(), at=host.now + 1.0) == []
    host.feed(ins.ClicksLost(), at=host.now + 1.0)
    host.feed(ins.ClicksLost(), at=host.now + 3.0)  # shard 0 and the guild's shard both dropped
    host.feed(ins.ClicksBack(), at=host.now + 2.0)
    assert host.session.deadline == deadline + 5.0
