"""The time bank and the auto toggles as transcripts on a fake clock (issue 39). The bank: a decision lasts
its base and then what is left of the person's bank, an answer past the base spends what it took, a timeout
the whole bank, and what is left is stored with the table and kept by a restart. The toggles: auto-win
takes a win, no calls passes a 吃/碰/槓 offer (never a win), auto-discard plays the drawn tile — each at
once, without waiting for the clock — and the person's DM says which are on."""

from __future__ import annotations

import pytest

from engine.actions import Kind
from engine.events import Phase
from engine.rules import TableOptions
from engine.tiles import tile_to_str
from table import effects as fx
from table import inputs as ins
from table.lobby import TablePhase
from table.records import banks_of, options_row
from table.session import TableSession
from table.toggles import Toggles

from .test_restore import recorded
from .transcript import ALICE, BOB, TIMING, Host, only, started

CLOCKS = TableOptions(turn_seconds=5, claim_seconds=4)
CLAIM_FIRST = 7  # key 7: ALICE's first decision is a claim window
BOTH_CLAIM = 28  # key 28: a claim window both ALICE and BOB owe, early in hand 1


def banked(seed: int = 3, people: tuple[int, ...] = (ALICE,)) -> Host:
    host = started(people=people, seed=seed, options=CLOCKS, bank=20)
    host.until_owes(ALICE, Phase.TURN)
    return host


def stored_banks(host: Host) -> dict[str, float]:
    rows = only(host.effects, fx.StoreOptions)
    return rows[-1].row.get("banks", {}) if rows else {}  # type: ignore[return-value]


# ------------------------------------------------------------------ the bank


def test_a_decision_lasts_its_base_then_the_persons_bank():
    host = banked()
    assert host.session.deadline == host.now + 5 + 20
    screen = host.session.screen(host.seat(ALICE))
    assert (screen.base_seconds, screen.bank_left, screen.deadline) == (5, 20, host.now + 25)


def test_a_table_without_a_bank_shows_none_and_keeps_its_base():
    host = started(options=CLOCKS)
    host.until_owes(ALICE, Phase.TURN)
    assert host.session.deadline == host.now + 5 and host.session.screen(host.seat(ALICE)).bank_left is None


def test_an_answer_within_the_base_keeps_the_whole_bank():
    host = banked()
    host.click(ALICE, at=host.now + 4.5)
    assert host.session.bank_left(host.seat(ALICE)) == 20 and stored_banks(host) == {}


def test_an_answer_past_the_base_spends_what_it_took_and_stores_it():
    host = banked()
    seat, opened = host.seat(ALICE), host.now
    out = host.click(ALICE, at=opened + 12)
    assert host.session.bank_left(seat) == pytest.approx(13)
    assert only(out, fx.StoreOptions)[0].row["banks"] == {str(seat): 13}
    host.until_owes(ALICE, Phase.TURN)
    assert host.session.deadline == pytest.approx(host.now + 5 + 13)  # the next turn has what is left


def test_a_timeout_spends_the_whole_bank_and_then_each_decision_has_its_base():
    host = banked()
    seat = host.seat(ALICE)
    host.time_out()
    assert host.session.bank_left(seat) == 0
    host.until_owes(ALICE, Phase.TURN)
    assert host.session.deadline == host.now + 5


def test_each_person_has_their_own_bank_in_a_claim_window():
    host = started(people=(ALICE, BOB), seed=BOTH_CLAIM, options=CLOCKS, bank=20)
    host.session.banks[host.seat(ALICE)] = 2.0  # as if spent earlier in the match
    done = lambda h: h.public().phase is Phase.CLAIM and len(h.session.needs_buttons()) == 2  # noqa: E731
    host.run_until(done, playing=(ALICE, BOB))  # each answers at once: no bank spent on the way
    alice, bob = host.seat(ALICE), host.seat(BOB)
    assert host.session.seat_deadlines == {alice: host.now + 4 + 2, bob: host.now + 4 + 20}
    assert host.session.screen(bob).deadline == host.now + 24 and host.session.deadline == host.now + 6
    opened = host.now
    out = host.tick(at=opened + 6)  # ALICE's clock runs out first; BOB still has his
    assert only(out, fx.StoreMove)[0].move == f"{alice} timeout"
    assert host.session.needs_buttons() == {bob} and host.session.deadline == opened + 24


def test_what_is_left_of_a_bank_survives_a_restart():
    host = banked()
    seat = host.seat(ALICE)
    host.click(ALICE, at=host.now + 15)  # 10 s of the bank spent
    host.until_owes(ALICE, Phase.TURN)
    stored = recorded(host)
    options = only(host.effects, fx.StoreOptions)[-1].row

    class Row:  # the stored table row, as table/records.py reads it
        def __init__(self) -> None:
            self.options = options

    banks = banks_of(Row())  # type: ignore[arg-type]
    assert banks == {seat: 10}
    state = host.session.state
    state.seats, state.phase = list(host.session.seating.by_seat), TablePhase.PLAYING
    session, _ = TableSession.restore(
        state, TIMING, stored.header, [stored.hands[n] for n in sorted(stored.hands)], deadline=stored.deadline,
        banks=banks, now=host.now,
    )
    assert session.bank_left(seat) == 10 and session.deadline == stored.deadline == host.now + 15
    assert options_row(state, (), session.banks)["banks"] == {str(seat): 10}


def test_a_bad_bank_is_refused():
    with pytest.raises(ValueError, match="bank"):
        started(bank=-1)


# ------------------------------------------------------------------ the toggles


def test_auto_discard_plays_the_drawn_tile_at_once_without_the_clock():
    host = banked()
    seat = host.seat(ALICE)
    drawn = host.view(ALICE).drawn  # type: ignore[union-attr]
    assert drawn is not None
    out = host.feed(ins.SetToggles(ALICE, Toggles(auto_discard=True)))
    assert fx.ShowHand(seat, host.session.version) in out and fx.WakeAt(host.now) in out
    moved = host.tick()  # the same moment: no clock ran
    assert only(moved, fx.StoreMove)[0].move == f"{seat} discard {tile_to_str(drawn)}"
    assert host.session.bank_left(seat) == 20
    assert host.session.screen(seat).toggles == Toggles(auto_discard=True)


def test_turning_auto_discard_off_gives_the_turn_back_to_the_person():
    host = banked()
    host.feed(ins.SetToggles(ALICE, Toggles(auto_discard=True)))
    host.feed(ins.SetToggles(ALICE, Toggles()))
    assert host.tick() == [fx.WakeAt(host.session.deadline)]  # type: ignore[list-item]
    assert host.owes(ALICE)


def test_no_calls_passes_a_claim_offer_at_once():
    host = started(seed=CLAIM_FIRST, options=CLOCKS)
    host.until_owes(ALICE, Phase.CLAIM)
    seat = host.seat(ALICE)
    kinds = {a.kind for a in host.session.game.legal_actions(seat)}  # type: ignore[union-attr]
    assert kinds & {Kind.CHI, Kind.PON, Kind.KONG} and Kind.WIN not in kinds
    host.feed(ins.SetToggles(ALICE, Toggles(no_calls=True)))
    out = host.tick()
    assert only(out, fx.StoreMove)[0].move == f"{seat} pass"


def test_toggles_of_someone_not_seated_change_nothing():
    host = banked()
    assert host.feed(ins.SetToggles(99, Toggles(auto_discard=True))) == []
