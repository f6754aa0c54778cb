"""代打 and pauses as transcripts: three own turns timed out hand the seat to the table, TakeBack hands it back
(at once in play, for the next hand between two hands), 代打 carries from hand to hand; a whole hand with
every person away pauses the table, a Resume deals on, a pause nobody answers ends the match."""

from __future__ import annotations

from engine.events import Phase
from table import effects as fx
from table import inputs as ins
from table.lobby import TablePhase

from .transcript import ALICE, BOB, STRANGER, TIMING, Host, kinds, only, started

# key 7: ALICE's first decision is a claim window, so a claim's timeout comes before her turns' timeouts
CLAIM_FIRST = 7


def time_out_turns(host: Host, turns: int) -> list[Phase]:
    """Let ALICE's clock run out until ``turns`` of her own turns have; the phase of each timeout."""
    phases: list[Phase] = []
    while phases.count(Phase.TURN) < turns:
        host.until_owes(ALICE)
        phases.append(host.public().phase)
        host.time_out()
    return phases


def away_then_settled() -> Host:
    """ALICE leaves a taiwan16 table during hand 1 (代打), and hand 1 is scored."""
    host = started()
    host.feed(ins.PlayerLeft(ALICE))
    host.until_settled()
    return host


def paused() -> Host:
    """Hand 2 of a table ALICE left in hand 1: the whole hand auto-played, the table paused after it."""
    host = away_then_settled()
    host.run_until(lambda h: any(isinstance(e, fx.Paused) for e in h.effects))
    return host


# ------------------------------------------------------------------ 代打


def test_three_own_turns_timed_out_hand_the_seat_to_the_table():
    host = started()
    time_out_turns(host, 3)
    seat = host.seat(ALICE)
    assert host.auto(ALICE)
    assert [(n.key, n.seat) for n in host.session.notes] == [("play.auto_on", seat)]
    host.run_until(lambda h: h.public().turn == seat and h.public().phase is Phase.TURN)
    assert not host.owes(ALICE) and host.session.deadline is None  # the table plays her turn, no clock


def test_two_timeouts_are_not_yet_an_absence():
    host = started()
    time_out_turns(host, 2)
    assert not host.auto(ALICE)


def test_a_move_of_ones_own_starts_the_count_again():
    host = started()
    time_out_turns(host, 2)
    host.until_owes(ALICE, Phase.TURN)
    host.click(ALICE)
    time_out_turns(host, 2)
    assert not host.auto(ALICE)  # four timeouts, never three in a row
    time_out_turns(host, 1)
    assert host.auto(ALICE)


def test_an_unanswered_claim_is_no_absence():
    host = started(seed=CLAIM_FIRST)
    phases = time_out_turns(host, 3)
    assert phases[0] is Phase.CLAIM and phases.count(Phase.TURN) == 3  # it took three turns, claims besides
    assert host.auto(ALICE)


def test_taking_back_a_seat_is_stored_and_the_person_owes_their_turns_again():
    host = started()
    time_out_turns(host, 3)
    seat = host.seat(ALICE)
    out = host.feed(ins.TakeBack(ALICE))
    assert only(out, fx.StoreMove)[0].move == f"{seat} back" and not host.auto(ALICE)
    assert ("play.auto_off", seat) in [(n.key, n.seat) for n in host.session.notes]
    host.until_owes(ALICE, Phase.TURN)
    assert host.session.deadline == host.now + 20.0


def test_taking_back_a_seat_on_its_own_turn_gives_the_full_clock():
    host = started()
    host.feed(ins.PlayerLeft(ALICE))
    seat = host.seat(ALICE)
    host.run_until(lambda h: h.public().turn == seat and h.public().phase is Phase.TURN)
    assert host.session.deadline is None
    host.feed(ins.TakeBack(ALICE), at=host.now + 0.3)
    assert host.owes(ALICE) and host.session.deadline == host.now + 20.0


def test_taking_back_a_seat_nobody_plays_for_is_refused():
    host = started()
    assert host.refused(ins.TakeBack(ALICE)) == "err.not_auto"
    assert not host.auto(ALICE)


def test_closed_dms_hand_the_seat_to_the_table_once():
    host = started()
    seat = host.seat(ALICE)
    out = host.feed(ins.DmsClosed(seat))
    assert only(out, fx.StoreMove)[0].move == f"{seat} away" and host.auto(ALICE)
    assert host.feed(ins.DmsClosed(seat)) == []


def test_daida_carries_to_the_next_hand():
    host = away_then_settled()
    host.run_until(lambda h: h.public().hand_number == 2)
    assert host.auto(ALICE)  # dealt auto-played: she has not come back


def test_taking_back_between_two_hands_is_stored_with_the_finished_hand_and_holds_for_the_next():
    host = away_then_settled()
    seat = host.seat(ALICE)
    out = host.feed(ins.TakeBack(ALICE))
    (move,) = only(out, fx.StoreMove)
    assert (move.number, move.move) == (1, f"{seat} back")
    stored = [e for e in host.effects if isinstance(e, fx.StoreMove) and e.number == 1]
    assert move.index == len(stored) - 1  # the finished hand's next index
    host.run_until(lambda h: h.public().hand_number == 2)
    assert not host.auto(ALICE)


def test_a_take_back_between_hands_deals_no_earlier():
    host = away_then_settled()
    host.feed(ins.TakeBack(ALICE))
    assert host.tick() == [fx.WakeAt(host.now + TIMING.hand_pause)] and host.public().hand_number == 1


# ------------------------------------------------------------------ pauses


def test_someone_away_for_only_part_of_a_hand_does_not_pause_it():
    host = away_then_settled()  # she left after the deal of hand 1
    assert only(host.effects, fx.Paused) == []


def test_a_whole_hand_everyone_was_away_for_pauses_the_table_after_its_score():
    host = paused()
    (pause,) = only(host.effects, fx.Paused)
    assert kinds(host.effects)[-3:] == [fx.ShowScore, fx.Paused, fx.WakeAt]  # posted with the score sheet
    assert pause.until == host.now + TIMING.pause_limit
    assert host.tick(at=host.now + 30) == [fx.WakeAt(pause.until)]  # no next deal meanwhile
    assert host.public().hand_number == 2


def test_a_table_with_someone_present_never_pauses():
    host = started(people=(ALICE, BOB))
    host.feed(ins.PlayerLeft(ALICE))
    host.run_until(lambda h: h.public().hand_number == 3, playing=(BOB,))  # BOB plays every hand through
    assert host.auto(ALICE) and only(host.effects, fx.Paused) == []


def test_resume_takes_the_seat_back_and_the_next_hand_is_dealt_at_once():
    host = paused()
    seat = host.seat(ALICE)
    out = host.feed(ins.ResumePaused(ALICE), at=host.now + 5)
    assert only(out, fx.StoreMove)[0].move == f"{seat} back" and fx.Unpaused in kinds(out)
    dealt = host.tick()
    assert kinds(dealt)[:3] == [fx.NewHand, fx.StoreHand, fx.Deal]
    assert host.public().hand_number == 3 and not host.auto(ALICE)


def test_taking_a_seat_back_during_a_pause_ends_the_pause():
    host = paused()
    out = host.feed(ins.TakeBack(ALICE))
    assert fx.Unpaused() in out
    assert kinds(host.tick())[0] is fx.NewHand


def test_resume_is_refused_when_the_table_is_not_paused():
    host = started()
    assert host.refused(ins.ResumePaused(ALICE)) == "err.not_paused"


def test_resume_is_for_the_people_at_the_table():
    host = paused()
    assert host.refused(ins.ResumePaused(STRANGER)) == "err.not_seated"
    assert host.tick() == [fx.WakeAt(only(host.effects, fx.Paused)[0].until)]


def test_a_pause_nobody_answers_ends_the_match_with_its_standings_and_key():
    host = paused()
    until = only(host.effects, fx.Paused)[0].until
    out = host.tick(at=until)
    assert kinds(out)[:2] == [fx.PauseEnded, fx.StoreMatchOver] and kinds(out)[-1] is fx.MatchOver
    (over,) = only(out, fx.MatchOver)
    assert over.key is not None and host.session.state.phase is TablePhase.OVER
    assert host.tick() == [] and host.refused(ins.ResumePaused(ALICE)) == "err.table_over"
