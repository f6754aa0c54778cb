"""A person leaving a match in play, as transcripts: 代打 where the rule set does that (the leaver may come
back), and taiwan13's 中断连线, which ends the table with the leaver's penalty, at once or, between two
hands, as the next hand is dealt."""

from __future__ import annotations

import pytest

from table import effects as fx
from table import inputs as ins
from table.lobby import TableError, TablePhase

from .transcript import ALICE, BOB, STRANGER, kinds, only, seated, started

LEAVE_PENALTY = 50  # taiwan13 中断连线 (document 001)


def ended_by_leaving(out: list[fx.Effect]) -> None:
    assert kinds(out)[:3] == [fx.StoreResult, fx.Notice, fx.StoreMatchOver] and kinds(out)[-1] is fx.MatchOver


@pytest.mark.parametrize("rules", ["taiwan16", "hongkong", "guangdong"])
def test_leaving_a_match_where_the_rule_set_plays_on_hands_the_seat_to_the_table(rules):
    host = started(rules, people=(ALICE, BOB))
    seat = host.seat(ALICE)
    out = host.feed(ins.PlayerLeft(ALICE))
    assert only(out, fx.StoreMove)[0].move == f"{seat} away" and host.auto(ALICE)
    assert only(out, fx.MatchOver) == [] and host.session.state.phase is TablePhase.PLAYING
    host.run_until(lambda h: h.public().seats[seat].discards != ())  # the table plays her turns
    assert not host.owes(ALICE)


def test_the_leaver_of_a_taiwan16_match_may_take_the_seat_back():
    host = started()
    host.feed(ins.PlayerLeft(ALICE))
    host.feed(ins.TakeBack(ALICE))
    assert not host.auto(ALICE)
    host.until_owes(ALICE)  # her turns are hers again


def test_leaving_twice_changes_nothing_more():
    host = started()
    host.feed(ins.PlayerLeft(ALICE))
    assert host.feed(ins.PlayerLeft(ALICE)) == []


def test_someone_not_at_the_table_leaving_changes_nothing():
    host = started()
    assert host.feed(ins.PlayerLeft(STRANGER)) == []


def test_leaving_a_lobby_through_player_left_changes_nothing():
    lobby = seated(people=(ALICE, BOB))
    assert lobby.feed(ins.PlayerLeft(BOB)) == []  # the lobby's own Leave frees a seat there
    assert lobby.session.state.seat_of(BOB) == 1


def test_leaving_a_taiwan13_match_ends_it_and_the_leaver_pays():
    host = started("taiwan13", people=(ALICE, BOB), seed=5)
    seat = host.seat(ALICE)
    out = host.feed(ins.PlayerLeft(ALICE))
    ended_by_leaving(out)
    (result,) = only(out, fx.StoreResult)
    assert result.number == 1 and result.result.winner is None
    assert result.result.deltas == tuple(-LEAVE_PENALTY if s == seat else 0 for s in range(4))
    (notice,) = only(out, fx.Notice)
    assert (notice.key, notice.seat, notice.values) == ("play.left_ends", seat, {"points": LEAVE_PENALTY})
    (over,) = only(out, fx.StoreMatchOver)
    assert over.leaver == seat and over.scores == result.result.deltas  # not zero-sum: the points leave
    assert host.session.state.phase is TablePhase.OVER and host.tick() == []


def test_leaving_a_taiwan13_match_between_hands_ends_it_as_the_next_hand_is_dealt():
    host = started("taiwan13", seed=5)
    host.until_settled(playing=(ALICE,))
    seat = host.seat(ALICE)
    out = host.feed(ins.PlayerLeft(ALICE))
    assert only(out, fx.StoreMove)[0].move == f"{seat} away" and only(out, fx.MatchOver) == []
    dealt = host.tick()  # at once: no hand pause for a table that is ending
    assert kinds(dealt)[:2] == [fx.NewHand, fx.StoreHand]
    ended_by_leaving([e for e in dealt[2:] if not isinstance(e, fx.WakeAt)])
    assert not only(dealt, fx.Deal)  # the hand is never played
    assert only(dealt, fx.StoreResult)[0].number == 2 and only(dealt, fx.StoreMatchOver)[0].leaver == seat


def test_leaving_a_taiwan16_match_between_hands_hands_the_next_hand_to_the_table():
    host = started()
    host.until_settled(playing=(ALICE,))
    out = host.feed(ins.PlayerLeft(ALICE))
    assert only(out, fx.StoreMove)[0].number == 1  # stored with the finished hand
    host.run_until(lambda h: h.public().hand_number == 2)
    assert host.auto(ALICE) and host.session.state.phase is TablePhase.PLAYING


def test_nothing_changes_once_a_leave_has_ended_the_table():
    host = started("taiwan13", people=(ALICE, BOB), seed=5)
    host.feed(ins.PlayerLeft(ALICE))
    assert host.feed(ins.PlayerLeft(BOB)) == []
    assert host.refused(ins.TakeBack(ALICE)) == "err.table_over"


def test_a_person_who_takes_a_dropped_players_seat_plays_it_from_now_and_is_stored_there():
    """A tournament's replace: Carol takes Alice's seat (played for since she left); the seat's hand is
    Carol's to play and to see, the seats are stored in the match's order with Carol, and Alice's DM stops."""
    carol = 77
    host = started(people=(ALICE, BOB))
    seat = host.seat(ALICE)
    host.feed(ins.PlayerLeft(ALICE))
    out = host.feed(ins.Substitute(ALICE, carol, "carol", "en"))
    (stored,) = only(out, fx.StoreSeats)
    assert stored.seats[seat].user_id == carol and ALICE not in {s.user_id for s in stored.seats}
    assert only(out, fx.Reseated) == [fx.Reseated(seat, stored.seats[seat])]
    assert host.session.seating.seat_of_user(carol) == seat and ALICE not in host.session.left
    assert not host.auto(carol)
    host.until_owes(carol)  # the seat's turns are hers now


def test_a_seat_is_taken_only_from_someone_seated_by_someone_who_is_not():
    host = started(people=(ALICE, BOB))
    with pytest.raises(TableError):
        host.feed(ins.Substitute(STRANGER, 77, "carol", "en"))
    with pytest.raises(TableError):
        host.feed(ins.Substitute(ALICE, BOB, "bob", "en"))
