"""A restart as transcripts: the host keeps what the effects told it to store, a new process rebuilds the table
with ``TableSession.restore`` from those records alone, and ``Resume`` shows it again; the rebuilt table shows
every viewer what the old one showed and takes the buttons its people already have."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from table import effects as fx
from table import inputs as ins
from table.lobby import TablePhase
from table.session import TableSession
from table.visibility import DELAYED, PUBLIC, Viewer

from .transcript import ALICE, BOB, TIMING, Host, kinds, only, seated, started


@dataclass
class Stored:
    """What a host's store holds of one table after carrying out its effects."""

    header: dict[str, object] | None = None
    hands: dict[int, list[str]] = field(default_factory=dict)
    results: set[int] = field(default_factory=set)
    deadline: float | None = None

    def carry_out(self, effects: list[fx.Effect]) -> None:
        for e in effects:
            match e:
                case fx.StoreMatch(header, _):
                    self.header = header
                case fx.StoreHand(number, _):
                    self.hands[number] = []
                case fx.StoreMove(number, index, move, deadline):
                    assert index == len(self.hands[number]), "moves are stored in order, none skipped"
                    self.hands[number].append(move)
                    self.deadline = deadline
                case fx.StoreDeadline(_, deadline):
                    self.deadline = deadline
                case fx.StoreResult(number, _):
                    self.results.add(number)

    def restore(self, host: Host, *, drop_results: frozenset[int] = frozenset()) -> Host:
        """The table rebuilt from these records at the host's time, as a new process does; ``drop_results``
        are results the journal lost (their hands' last moves were stored)."""
        # the seats in engine order (the host stores the match's seating with StoreMatch), and a table row
        # that says the match is being played: its end is stored with StoreMatchOver
        state = replace(host.session.state, seats=list(host.session.seating.by_seat), phase=TablePhase.PLAYING)
        numbers = sorted(self.hands)
        session, out = TableSession.restore(
            state, TIMING, self.header, [self.hands[n] for n in numbers],
            results_stored=[n in self.results - drop_results for n in numbers], deadline=self.deadline, now=host.now,
        )
        again = Host(session, now=host.now)
        again.effects += out
        return again


def recorded(host: Host) -> Stored:
    stored = Stored()
    stored.carry_out(host.effects)
    return stored


def viewers() -> list[Viewer]:
    return [Viewer.at(s) for s in range(4)] + [PUBLIC, DELAYED]


def mid_hand() -> Host:
    """Two people, ALICE's clocks run out and BOB plays, some moves into hand 1; ALICE owes a decision."""
    host = started(people=(ALICE, BOB))
    host.run_until(lambda h: len(only(h.effects, fx.StoreMove)) >= 12 and h.owes(ALICE), playing=(BOB,))
    return host


def test_a_restored_lobby_shows_its_seats_again():
    host = seated(people=(ALICE, BOB))
    session, out = TableSession.restore(host.session.state, TIMING, None, [], now=50.0)
    assert out == [] and session.view(PUBLIC) is None
    version = session.version
    seats = tuple(session.state.seats)
    assert Host(session, 50.0).feed(ins.Resume()) == [fx.StoreSeats(seats), fx.ShowLobby(version + 1)]


def test_a_table_restored_mid_hand_shows_every_viewer_what_it_showed():
    host = mid_hand()
    again = recorded(host).restore(host)
    assert [again.session.view(v) for v in viewers()] == [host.session.view(v) for v in viewers()]
    assert again.session.needs_buttons() == host.session.needs_buttons() == {host.seat(ALICE)}
    assert again.seat(ALICE) == host.seat(ALICE) and again.seat(BOB) == host.seat(BOB)


def test_a_restored_table_keeps_its_decision_and_stored_deadline():
    host = mid_hand()
    again = recorded(host).restore(host)
    assert again.session.decision == host.session.decision
    assert again.session.deadline == host.session.deadline


def test_a_table_back_after_its_deadline_passed_gives_the_person_their_time_from_the_resent_prompt():
    """Nobody could act while the table was away (a crash, a move to another process): the stored deadline
    ran out meanwhile, and the prompt the resume sends restarts her clock when it reaches her."""
    host = mid_hand()
    stored = recorded(host)
    assert stored.deadline is not None
    host.now = stored.deadline + 30.0
    again = stored.restore(host)
    again.answer(again.feed(ins.Resume()))
    seat, arrived = again.seat(ALICE), again.now + 0.2
    out = again.feed(ins.Shown(seat, again.session.version), at=arrived)
    assert fx.StoreDeadline(again.public().hand_number, again.session.deadline) in out
    assert again.session.deadline >= arrived + again.session.seconds()
    again.tick(at=again.session.deadline - 0.5)
    assert again.owes(ALICE), "her time had not run out: nothing was played for her"
    assert kinds(again.time_out())[0] is fx.StoreMove  # at the new deadline her clock runs out as usual


def test_the_buttons_people_have_still_count_after_a_restart():
    host = mid_hand()
    button = host.button(ALICE)
    again = recorded(host).restore(host)
    assert kinds(again.feed(button))[0] is fx.StoreMove
    assert kinds(host.feed(button))[0] is fx.StoreMove and again.public() == host.public()


def test_resume_says_where_the_table_resumes_and_deals_the_hand_afresh():
    host = mid_hand()
    again = recorded(host).restore(host)
    out = again.feed(ins.Resume())
    assert out == [fx.Notice("play.resumed", values={"n": 1}), fx.Deal(1, tuple(again.session.seating.by_seat))]
    shown = again.feed(ins.Dealt())
    version = again.session.version
    assert shown[0] == fx.ShowTable(version)
    people = sorted({host.seat(ALICE), host.seat(BOB)})
    assert only(shown, fx.ShowHand) == [fx.ShowHand(s, version) for s in people]


def test_daida_survives_a_restart():
    host = started(people=(ALICE, BOB))
    host.feed(ins.PlayerLeft(ALICE))
    host.run_until(lambda h: h.owes(BOB))
    again = recorded(host).restore(host)
    assert again.auto(ALICE) and not again.auto(BOB)


def test_a_result_the_journal_lost_is_stored_on_restore():
    host = started()
    host.until_settled()
    stored = recorded(host)
    again = stored.restore(host, drop_results=frozenset({1}))
    (result,) = only(again.effects, fx.StoreResult)
    assert result.number == 1 and result.result == only(host.effects, fx.StoreResult)[0].result
    assert recorded(host).restore(host).effects == []  # nothing lost: nothing to store


def test_a_table_restored_between_two_hands_deals_the_next_once_resumed():
    host = started()
    host.until_settled()
    again = recorded(host).restore(host)
    assert again.feed(ins.Resume()) == [fx.Notice("play.resumed", values={"n": 2})]
    out = again.tick()
    assert kinds(out)[:3] == [fx.NewHand, fx.StoreHand, fx.Deal] and again.public().hand_number == 2


def test_a_match_restored_after_its_last_hand_ends_on_resume():
    host = started()
    host.run_until(lambda h: any(isinstance(e, fx.StoreMatchOver) for e in h.effects), playing=(ALICE,))
    stored = Stored()
    stored.carry_out([e for e in host.effects if not isinstance(e, fx.StoreMatchOver)])  # the last write lost
    again = stored.restore(host)
    out = again.feed(ins.Resume())
    assert out[0] == fx.Notice("play.resumed", values={"n": len(stored.hands) + 1})
    assert fx.StoreMatchOver in kinds(out) and kinds(out)[-1] is fx.MatchOver
    assert only(out, fx.StoreMatchOver)[0].scores == only(host.effects, fx.StoreMatchOver)[0].scores


def test_a_table_restored_mid_hand_still_pauses_after_a_hand_everyone_was_away_for():
    host = started()
    host.feed(ins.PlayerLeft(ALICE))
    host.run_until(lambda h: h.public().hand_number == 2 and len(only(h.effects, fx.StoreMove)) > 60)
    again = recorded(host).restore(host)  # hand 2, dealt with ALICE away, restarted halfway through
    again.feed(ins.Resume())
    again.answer([fx.Deal(2, tuple(again.session.seating.by_seat))])
    again.until_settled()
    assert kinds(again.effects)[-3:] == [fx.ShowScore, fx.Paused, fx.WakeAt]


def test_a_window_restored_after_others_answered_it_keeps_the_id_its_buttons_carry():
    """換牌 is one window every seat answers: the AIs keep their hands at once while ALICE chooses, and her
    select (made when the window opened) must still count after a restart, where the window's id is
    the event count at its opening, not the count after the AIs' answers."""
    from engine.rules import TableOptions

    host = started(options=TableOptions(exchange=True))
    host.run_until(lambda h: h.owes(ALICE) and all(s in h.session.game.exchanges for s in range(4) if s != h.seat(ALICE)))
    game = host.session.game
    assert game is not None and game.phase.value == "exchange" and len(game.exchanges) == 3
    opened = host.session.decision
    assert opened < len(game.events), "the AIs' answers came after the window opened"
    again = recorded(host).restore(host)
    assert again.session.decision == opened
    seat = again.seat(ALICE)
    out = again.feed(ins.Exchange(ALICE, seat, (), hand=game.hand_number, move=opened))
    assert only(out, fx.StoreMove)[0].move == f"{seat} exchange"


def test_a_restored_table_shows_every_screen_it_showed_and_its_spectators_the_same_finished_hands():
    from table.screens import SPECTATOR, TABLE

    host = started(people=(ALICE, BOB), spectators="delayed", rounds=2)
    host.run_until(lambda h: len(h.session.match.history) >= 2 and h.owes(BOB), playing=(BOB,))  # type: ignore[union-attr]
    again = recorded(host).restore(host)
    assert again.session.deal_headers == host.session.deal_headers  # the replay on restore gives each deal's header
    assert again.session.screen(SPECTATOR).hands == host.session.screen(SPECTATOR).hands
    assert len(again.session.screen(SPECTATOR).hands) == 2
    assert again.session.screen(TABLE) == host.session.screen(TABLE)
    for seat in range(4):
        before, after = host.session.screen(seat), again.session.screen(seat)
        assert (after.showing, after.view, after.prompt, after.moves) == (before.showing, before.view, before.prompt, before.moves)


def test_a_table_restarted_while_paused_comes_back_paused_not_playing():
    """A pause is not a stored row of its own: a table restarted while paused (between two hands, the last one
    played with everyone away) is paused again, not dealt a hand nobody is there for."""
    host = started()
    host.feed(ins.PlayerLeft(ALICE))
    host.run_until(lambda h: fx.Paused in kinds(h.effects))
    assert host.session.phase.paused
    again = recorded(host).restore(host)
    out = again.feed(ins.Resume())
    assert again.session.phase.paused, "the restored table waits for a Resume as the old one did"
    assert fx.Paused in kinds(out) and fx.Deal not in kinds(out)
    again.feed(ins.ResumePaused(ALICE))
    assert not again.session.phase.paused
