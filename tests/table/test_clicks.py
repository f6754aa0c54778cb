"""Clicks as transcripts: a legal one is stored, then shown; a stale or foreign one is a TableError with its
catalogue key, hands back no effect and changes nothing the table shows."""

from __future__ import annotations

from engine.events import Phase
from engine.tiles import tile_to_str
from table import effects as fx
from table import inputs as ins
from table.visibility import PUBLIC

from .transcript import ALICE, BOB, STRANGER, Host, kinds, only, seated, started

# key 7: ALICE's first decision is a claim window (she may 碰 the 中 seat 1 discards)
CLAIM_FIRST = 7
# key 28: a claim window both ALICE and BOB owe at once (about 43 s in, every clock before it run out)
BOTH_CLAIM = 28


def table_as_shown(host: Host) -> tuple[object, ...]:
    """Everything a refused click must leave as it was."""
    session = host.session
    return (session.decision, session.deadline, session.needs_buttons(), host.public(), host.view(ALICE))


def alice_to_move() -> Host:
    host = started()
    host.until_owes(ALICE, Phase.TURN)
    return host


def refused_and_unchanged(host: Host, click: ins.Input) -> str:
    before = table_as_shown(host)
    key = host.refused(click)
    assert table_as_shown(host) == before
    return key


# ------------------------------------------------------------------ the click that counts


def test_a_legal_click_is_stored_before_it_is_shown_and_opens_the_next_decision():
    host = alice_to_move()
    seat, decision, code = host.seat(ALICE), host.session.decision, host.code(ALICE)
    out = host.click(ALICE)
    move = out[0]
    assert isinstance(move, fx.StoreMove) and move.move == f"{seat} discard {code[1:]}"
    assert move.number == 1 and move.deadline == host.session.deadline
    assert kinds(out)[1] is fx.ShowTable and fx.ShowHand(seat, host.session.version) in out
    assert host.session.decision != decision and not host.owes(ALICE)
    assert code[1:] in [tile_to_str(t) for t in host.public().seats[seat].discards]


def test_the_seat_whose_click_is_answered_gets_no_edit_of_its_own():
    host = alice_to_move()
    seat = host.seat(ALICE)
    out = host.click(ALICE, answering=seat)
    assert seat not in [e.seat for e in only(out, fx.ShowHand)] and only(out, fx.ShowTable)


def test_the_same_click_twice_counts_once():
    host = alice_to_move()
    click = host.button(ALICE)
    host.feed(click)
    assert refused_and_unchanged(host, click) == "err.stale"


def test_a_click_from_an_earlier_hand_is_stale():
    host = alice_to_move()
    assert refused_and_unchanged(host, host.button(ALICE, hand=0)) == "err.stale"
    assert refused_and_unchanged(host, host.button(ALICE, hand=2)) == "err.stale"


def test_a_click_for_an_earlier_decision_is_stale():
    host = alice_to_move()
    assert refused_and_unchanged(host, host.button(ALICE, move=host.session.decision - 1)) == "err.stale"


def test_a_click_whose_clock_ran_out_is_stale():
    host = alice_to_move()
    late = host.button(ALICE)
    host.time_out()
    assert refused_and_unchanged(host, late) == "err.stale"


def test_a_click_on_another_persons_seat_is_refused():
    host = started(people=(ALICE, BOB))
    host.until_owes(ALICE, Phase.TURN)
    assert refused_and_unchanged(host, host.button(BOB, seat=host.seat(ALICE), code=host.code(ALICE))) == (
        "err.not_your_seat"
    )


def test_a_click_on_an_ai_seat_or_no_seat_is_refused():
    host = alice_to_move()
    ai_seat = (host.seat(ALICE) + 1) % 4
    assert refused_and_unchanged(host, host.button(ALICE, seat=ai_seat)) == "err.not_your_seat"
    assert refused_and_unchanged(host, host.button(ALICE, seat=7)) == "err.not_your_seat"


def test_a_click_by_someone_not_at_the_table_is_refused():
    host = alice_to_move()
    click = host.button(ALICE)
    stranger = ins.Click(STRANGER, click.seat, click.code, click.hand, click.move)
    assert refused_and_unchanged(host, stranger) == "err.not_your_seat"


def test_a_click_out_of_turn_is_refused():
    host = started()  # seed 3: an AI seat deals, ALICE owes nothing yet
    assert not host.owes(ALICE) and host.session.needs_buttons() == set()
    assert refused_and_unchanged(host, host.button(ALICE, code="d1m")) == "err.not_your_turn"


def test_a_code_no_button_carries_is_stale():
    host = alice_to_move()
    for code in ("q", "", "d0m", "d5x", "zz"):
        assert refused_and_unchanged(host, host.button(ALICE, code=code)) == "err.stale", code


def test_discarding_a_tile_one_does_not_hold_is_illegal():
    host = alice_to_move()
    view = host.view(ALICE)
    assert view is not None
    held = {*view.concealed, view.drawn}
    missing = next(t for t in range(34) if t not in held)
    assert refused_and_unchanged(host, host.button(ALICE, code="d" + tile_to_str(missing))) == "err.illegal"
    assert refused_and_unchanged(host, host.button(ALICE, code="d")) == "err.illegal"  # no tile at all


def test_a_claim_the_hand_cannot_make_is_illegal():
    host = started(seed=CLAIM_FIRST)
    host.until_owes(ALICE, Phase.CLAIM)
    assert refused_and_unchanged(host, host.button(ALICE, code="w")) == "err.illegal"  # not a winning hand
    assert refused_and_unchanged(host, host.button(ALICE, code="d1m")) == "err.illegal"  # no discard in a claim


def test_answering_a_claim_window_another_person_still_owes_keeps_its_decision_and_clock():
    host = started(people=(ALICE, BOB), seed=BOTH_CLAIM)
    host.run_until(lambda h: h.public().phase is Phase.CLAIM and {h.seat(ALICE), h.seat(BOB)} <= h.session.needs_buttons())
    decision, deadline = host.session.decision, host.session.deadline
    out = host.click(ALICE, "s")
    assert only(out, fx.StoreMove)[0].move == f"{host.seat(ALICE)} pass"
    assert host.session.needs_buttons() == {host.seat(BOB)} and not host.owes(ALICE)
    assert (host.session.decision, host.session.deadline) == (decision, deadline)  # BOB's buttons still count
    assert host.refused(host.button(ALICE, "s", move=decision)) == "err.not_your_turn"  # ALICE answered already


def test_an_exchange_for_a_stale_decision_is_refused():
    host = _exchange_table()
    seat = host.seat(ALICE)
    stale = ins.Exchange(ALICE, seat, (), host.public().hand_number, host.session.decision + 1)
    assert refused_and_unchanged(host, stale) == "err.stale"


def _exchange_table() -> Host:
    from engine.rules import TableOptions

    host = started(options=TableOptions(exchange=True))
    host.until_owes(ALICE, Phase.EXCHANGE)
    return host


# ------------------------------------------------------------------ tables where nothing can be clicked


def test_a_click_before_the_match_is_dealt_is_refused():
    host = seated()
    assert host.refused(ins.Click(ALICE, 0, "d1m", 1, 0)) == "err.table_over"


def test_a_click_on_a_table_whose_channel_refused_it_is_refused():
    host = alice_to_move()
    click = host.button(ALICE)
    host.feed(ins.ChannelRefused("Send Messages"))
    assert refused_and_unchanged(host, click) == "err.table_blocked"


def test_a_click_on_a_table_its_host_closed_is_refused():
    host = alice_to_move()
    click = host.button(ALICE)
    assert kinds(host.feed(ins.Shut())) == [fx.StorePhase]
    assert host.refused(click) == "err.table_over"
    assert host.refused(ins.TakeBack(ALICE)) == "err.table_over"
    assert host.tick() == []  # and the clock stopped with it


def test_a_click_on_a_finished_match_is_refused():
    host = started("taiwan13", seed=5)
    host.until_owes(ALICE)
    click = host.button(ALICE)
    host.feed(ins.PlayerLeft(ALICE))
    assert host.refused(click) == "err.table_over"
    assert host.session.needs_buttons() == set() and host.session.deadline is None


# ------------------------------------------------------------------ declarations and take-backs


def test_a_declaration_the_rule_set_has_no_such_thing_as_is_illegal():
    host = started("hongkong")
    assert refused_and_unchanged(host, ins.Declare(ALICE)) == "err.illegal"  # 眼牌 is document 000's


def test_declaring_is_for_the_people_at_the_table():
    host = started()
    assert host.refused(ins.Declare(STRANGER)) == "err.not_seated"
    assert host.refused(ins.TakeBack(STRANGER)) == "err.not_seated"


def test_a_declared_eye_is_stored_noted_and_offered_only_once():
    host = started()  # seed 3: the Miji window is open at the deal
    seat = host.seat(ALICE)
    out = host.feed(ins.Declare(ALICE))
    assert only(out, fx.StoreMove)[0].move == f"{seat} miji"
    assert host.public().seats[seat].eye and host.public().seats[seat].miji
    assert [(n.key, n.seat) for n in host.session.notes] == [("play.eye", seat)]
    assert host.refused(ins.Declare(ALICE)) == "err.illegal"


def test_after_an_eye_the_declarer_alone_sees_the_other_hands():
    host = started()
    seat = host.seat(ALICE)
    assert host.view(ALICE).others == {}  # type: ignore[union-attr]
    host.feed(ins.Declare(ALICE))
    others = host.view(ALICE).others  # type: ignore[union-attr]
    assert sorted(others) == [s for s in range(4) if s != seat] and all(others.values())
    assert host.session.view(PUBLIC).others == {}  # type: ignore[union-attr]
