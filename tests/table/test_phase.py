"""Where a table stands (``session.phase``, table/phase.py) and who sits where (``session.screen(SEATS)``): the two
values the host asks in place of the session's flags and entry points (issue 38: the host's session surface is
``handle``, ``screen``, ``table_id`` and ``phase``). Each is walked through a table's life on a fake clock."""

from __future__ import annotations

from table import effects as fx
from table import inputs as ins
from table.phase import Stage
from table.screens import SEATS

from .transcript import ALICE, BOB, STRANGER, Host, only, refusal, seated, started


def stage(host: Host) -> Stage:
    return host.session.phase.stage


def test_a_table_goes_from_lobby_through_dealing_and_play_to_closed():
    host = seated()
    assert stage(host) is Stage.LOBBY and host.session.phase.gone and not host.session.phase.table_wanted
    host.feed(ins.OpenSeats())
    assert stage(host) is Stage.DEALING and not host.session.phase.gone and not host.session.phase.table_wanted
    host.answer(host.feed(ins.Start(bytes(32))))
    assert stage(host) is Stage.PLAYING and host.session.phase.table_wanted
    host.until_settled()
    assert stage(host) is Stage.SETTLED and host.session.phase.table_wanted
    host.feed(ins.Close())
    assert stage(host) is Stage.CLOSED and host.session.phase.closed and host.session.phase.gone


def test_a_match_played_out_is_over_before_its_end_is_told_and_closed_after():
    host = started(rounds=1)
    host.run_until(lambda h: h.session.match is not None and h.session.match.is_over, playing=(ALICE,), limit=50000)
    assert stage(host) is Stage.OVER and not host.session.phase.closed and host.session.phase.gone
    out = host.tick()
    assert only(out, fx.MatchOver) and stage(host) is Stage.CLOSED


def test_the_host_shutting_a_lobby_closes_it():
    host = seated()
    host.feed(ins.Shut())
    assert host.session.phase.closed


def test_a_lost_permission_is_an_overlay_on_the_stage_of_play():
    host = started()
    host.feed(ins.ChannelRefused("send"))
    phase = host.session.phase
    assert phase.stage is Stage.PLAYING and phase.blocked and phase.waits_for_probe and not phase.table_wanted
    host.feed(ins.ChannelOk())
    assert not host.session.phase.blocked and host.session.phase.table_wanted


def test_the_seats_screen_says_who_sits_where_and_a_clicks_seat():
    host = started(people=(ALICE, BOB))
    seats = host.session.screen(SEATS)
    assert seats.seat_of_user(ALICE) == host.seat(ALICE) and seats.seat_for(BOB) == host.seat(BOB)
    assert seats.seated(ALICE) and not seats.seated(STRANGER)
    assert seats.viewer(ALICE).seat == host.seat(ALICE) and seats.viewer(STRANGER).seat is None
    assert seats.version == host.session.version and seats.table_id == host.session.table_id
    assert refusal(lambda: seats.seat_for(STRANGER)) == "err.not_seated"


def test_a_lobby_seat_counts_as_seated_and_a_leaver_does_not():
    host = seated(people=(ALICE, BOB))
    assert host.session.screen(SEATS).seated(BOB) and host.session.screen(SEATS).seat_of_user(BOB) is None
    host.session.left = {BOB}  # as TableSession.restore sets it (records.left_of)
    assert not host.session.screen(SEATS).seated(BOB)


def test_a_message_the_host_reposts_gets_a_new_version():
    host = started()
    before = host.session.screen(SEATS).version
    (answer,) = host.feed(ins.Reposting())
    assert answer == fx.Version(before + 1) and host.session.screen(SEATS).version == before + 1


def test_an_unreadable_exchange_select_is_refused_as_stale_after_the_decision_point_is_checked():
    host = started()
    seat = host.seat(ALICE)
    hand, move = host.public().hand_number, host.session.decision
    assert host.refused(ins.Exchange(ALICE, seat, None, hand, move)) in ("err.stale", "err.not_your_turn")
    assert host.refused(ins.Exchange(BOB, seat, None, hand, move)) == "err.not_your_seat"
