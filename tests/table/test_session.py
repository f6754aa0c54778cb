"""The table session on its own: lobby, clicks of every kind, the clock, 代打, leaving, pausing, a lost
channel permission and restore, driven by a fake clock. No event loop, no stand-in: the session's
decisions are values (effects) and these tests read them."""

from __future__ import annotations

import ast
import pathlib
from dataclasses import replace

import pytest

from table import effects as fx
from table.codes import code_of
from table.lobby import TableError, TablePhase, TableSettings, TableState
from table.screens import SEATS
from table.session import TableSession
from table.timing import Timing

from .transcript import only

ALICE, BOB = 10, 11
TIMING = Timing(ai_delay=0.5, hand_pause=2.0, pause_limit=60.0, permission_probe=5.0, delivery_cap=10.0)


def lobby(rules: str = "taiwan16", **settings: object) -> TableState:
    return TableState(1, guild_id=9, channel_id=5, host_id=ALICE, settings=TableSettings(rules, **settings))


def started(rules: str = "taiwan16", people: tuple[int, ...] = (ALICE,), seed: int = 3, **settings: object) -> TableSession:
    session = TableSession(lobby(rules, **settings), TIMING)
    for user in people:
        session.join(user, f"p{user}")
    session.open_seats()
    session.start(key=seed.to_bytes(32, "big"), now=0.0)
    return session


def kinds(effects: list[fx.Effect]) -> list[type]:
    return [type(e) for e in effects]


def tick_until(session: TableSession, now: float, done, limit: int = 5000, record=None) -> float:
    """Tick on a fake clock, jumping to each wake-up, until ``done(session)``; the Deal is answered as the
    host answers it (``dealt``)."""
    for _ in range(limit):
        if done(session):
            return now
        out = session.tick(now=now)
        if record is not None:
            record(out)
        if any(isinstance(e, fx.Deal) for e in out):
            session.dealt()
        wakes = [e.at for e in out if isinstance(e, fx.WakeAt)]
        if not wakes and not out:
            raise AssertionError("the session has nothing to do and is not done")
        now = max(now, min(wakes)) if wakes else now
    raise AssertionError("not done in time")


def owing(session: TableSession) -> int | None:
    needs = session.needs_buttons()
    return next(iter(needs)) if needs else None


def click_first(session: TableSession, now: float, user: int = ALICE) -> list[fx.Effect]:
    seat = session.seating.seat_of_user(user)
    assert seat is not None and session.game is not None
    action = session.game.prompt(seat).legal[0]
    return session.click(user, seat, code_of(action), hand=session.game.hand_number, move=session.decision, now=now)


# ------------------------------------------------------------------ lobby


def test_lobby_changes_are_stored_and_shown():
    session = TableSession(lobby(), TIMING)
    assert kinds(session.join(ALICE, "Ann")) == [fx.StoreSeats, fx.ShowLobby]
    assert kinds(session.add_ai("easy")) == [fx.StoreSeats, fx.ShowLobby]
    assert kinds(session.remove_ai()) == [fx.StoreSeats, fx.ShowLobby]
    assert [s.name for s in session.state.seats] == ["Ann"]
    with pytest.raises(TableError) as refused:
        session.remove_ai()
    assert refused.value.key == "err.no_ai_seat"


def test_a_locked_lobby_refuses_a_wrong_password_and_nothing_changes():
    from table.lobby import hash_password

    state = lobby()
    state.password_hash = hash_password("1234")
    session = TableSession(state, TIMING)
    with pytest.raises(TableError) as refused:
        session.join(BOB, "Bob", password="9999")
    assert refused.value.key == "err.wrong_password" and session.state.seats == []
    session.join(BOB, "Bob", password="1234")
    assert [s.user_id for s in session.state.seats] == [BOB]


def test_start_needs_a_person_and_fills_empty_seats_with_ai():
    session = TableSession(lobby(), TIMING)
    session.add_ai()
    with pytest.raises(TableError) as refused:
        session.open_seats()
    assert refused.value.key == "err.need_human"
    session.join(ALICE, "Ann")
    session.open_seats()
    assert session.state.phase is TablePhase.PLAYING and len(session.state.seats) == 4
    out = session.start(key=(3).to_bytes(32, "big"), now=0.0)
    assert kinds(out)[:4] == [fx.StoreOptions, fx.StoreMatch, fx.MatchStarted, fx.NewHand]
    assert fx.Deal in kinds(out) and session.game is not None
    with pytest.raises(TableError):
        session.start(key=(3).to_bytes(32, "big"), now=0.0)  # one match per table


def test_settings_change_only_in_the_lobby():
    session = TableSession(lobby(), TIMING)
    session.join(ALICE, "Ann")
    out = session.set_settings(replace(session.state.settings, pace="slow"))
    assert kinds(out) == [fx.StoreOptions, fx.StoreSeats, fx.ShowLobby]
    assert session.ai_delay() == TIMING.ai_delay * 2
    session.open_seats()
    with pytest.raises(TableError):
        session.set_settings(session.state.settings)


# ------------------------------------------------------------------ clicks


def until_alice_owes(session: TableSession, now: float = 0.0, record=None) -> float:
    seat = session.seating.seat_of_user(ALICE)
    return tick_until(session, now, lambda s: seat in s.needs_buttons(), record=record)


def test_a_legal_click_is_stored_then_shown_and_opens_a_new_decision():
    session = started()
    now = until_alice_owes(session)
    decision = session.decision
    out = click_first(session, now)
    assert isinstance(out[0], fx.StoreMove) and fx.ShowTable in kinds(out)
    assert session.decision != decision


@pytest.mark.parametrize(
    ("change", "key"),
    [
        (lambda seat, hand, move: (BOB, seat, hand, move), "err.not_your_seat"),
        (lambda seat, hand, move: (ALICE, seat, hand + 1, move), "err.stale"),
        (lambda seat, hand, move: (ALICE, seat, hand, move - 1), "err.stale"),
        (lambda seat, hand, move: (ALICE, (seat + 1) % 4, hand, move), "err.not_your_seat"),
    ],
)
def test_a_click_that_is_not_for_the_live_decision_changes_nothing(change, key):
    session = started()
    now = until_alice_owes(session)
    game = session.game
    assert game is not None
    seat = session.seating.seat_of_user(ALICE)
    assert seat is not None
    code = code_of(game.legal_actions(seat)[0])
    log = list(game.log)
    user, seat_, hand, move = change(seat, game.hand_number, session.decision)
    with pytest.raises(TableError) as refused:
        session.click(user, seat_, code, hand=hand, move=move, now=now)
    assert refused.value.key == key and list(game.log) == log


def test_an_illegal_or_unknown_code_is_refused():
    session = started()
    now = until_alice_owes(session)
    game = session.game
    assert game is not None
    seat = session.seating.seat_of_user(ALICE)
    assert seat is not None
    args = {"hand": game.hand_number, "move": session.decision, "now": now}
    with pytest.raises(TableError) as unknown:
        session.click(ALICE, seat, "q", **args)
    assert unknown.value.key == "err.stale"
    legal = {code_of(a) for a in game.legal_actions(seat) if not a.tiles}
    illegal = next(c for c in ("k1z", "w", "p9s", "c1m", "d9z") if c not in legal)
    with pytest.raises(TableError) as refused:
        session.click(ALICE, seat, illegal, **args)
    assert refused.value.key == "err.illegal"


def test_the_answering_seat_gets_no_edit_of_its_own():
    session = started()
    now = until_alice_owes(session)
    seat = session.seating.seat_of_user(ALICE)
    game = session.game
    assert game is not None and seat is not None
    out = session.click(
        ALICE, seat, code_of(game.legal_actions(seat)[0]), hand=game.hand_number, move=session.decision, now=now,
        answering=seat,
    )
    assert fx.ShowHand(seat, session.version) not in out


# ------------------------------------------------------------------ the clock and 代打


def test_the_deadline_fires_a_timeout_and_three_make_the_seat_auto_played():
    session = started()
    seat = session.seating.seat_of_user(ALICE)
    now = 0.0
    for _ in range(200):
        now = until_alice_owes(session, now)
        assert session.deadline is not None
        assert session.tick(now=session.deadline - 0.1) == [fx.WakeAt(session.deadline)]
        now = session.deadline
        out = session.tick(now=now)
        assert isinstance(out[0], fx.StoreMove) and out[0].move.endswith("timeout")
        if seat in session.game.auto_seats():
            break
    assert seat in session.game.auto_seats()
    notes = [n.key for n in session.notes]
    assert "play.auto_on" in notes
    back = session.take_back(ALICE, now=now)
    assert any(isinstance(e, fx.StoreMove) and e.move.endswith("back") for e in back)
    with pytest.raises(TableError) as refused:
        session.take_back(ALICE, now=now)
    assert refused.value.key == "err.not_auto"


def test_the_clock_waits_for_a_prompt_still_on_its_way_but_not_forever():
    session = started()
    until_alice_owes(session)
    seat = session.seating.seat_of_user(ALICE)
    assert session.deadline is not None and seat is not None
    late = session.deadline + 1
    waiting = session.tick(now=late, coming=frozenset({seat}))
    assert waiting == [fx.WakeAt(late + TIMING.delivery_poll)]
    beyond = session.deadline + TIMING.delivery_cap + 1
    fired = session.tick(now=beyond, coming=frozenset({seat}))
    assert isinstance(fired[0], fx.StoreMove) and fired[0].move.endswith("timeout")


def test_a_prompt_delivered_late_restarts_its_clock_once():
    session = started()
    now = until_alice_owes(session)
    seat = session.seating.seat_of_user(ALICE)
    assert seat is not None and session.deadline is not None
    arrived = now + 5.0
    out = session.prompt_shown(seat, session.version, now=arrived)
    assert isinstance(out[0], fx.StoreDeadline) and out[0].deadline == arrived + session.seconds()
    assert session.deadline == arrived + session.seconds()
    assert session.prompt_shown(seat, session.version, now=arrived + 1) == []  # once per decision


def test_ai_discards_wait_for_the_tables_pace():
    session = started(pace="slow")
    game = session.game
    assert game is not None
    now = 0.0
    for _ in range(400):
        out = session.tick(now=now)
        if any(isinstance(e, fx.Deal) for e in out):
            session.dealt()
        waits = [e.at for e in out if isinstance(e, fx.WakeAt)]
        if out and waits and not any(isinstance(e, fx.StoreMove) for e in out) and session.ai_ready_at == waits[0] and waits[0] > now:
            assert waits[0] - session.decision_opened == pytest.approx(TIMING.ai_delay * 2)
            return
        if session.needs_buttons():
            now = session.deadline or now
        elif waits:
            now = max(now, min(waits))
    pytest.fail("no AI discard waited for the pace")


# ------------------------------------------------------------------ leaving, pausing, the channel


def test_leaving_a_taiwan16_match_hands_the_seat_to_the_table():
    session = started()
    out = session.player_left(ALICE, now=0.0)
    seat = session.seating.seat_of_user(ALICE)
    assert seat in session.game.auto_seats()
    assert any(isinstance(e, fx.StoreMove) for e in out) and not session.closed


def test_a_leaver_is_free_until_they_take_their_seat_back_and_that_is_stored():
    session = started()
    out = session.player_left(ALICE, now=0.0)
    assert session.left == {ALICE} and [e.row["left"] for e in only(out, fx.StoreOptions)] == [[ALICE]]
    assert not only(session.player_left(ALICE, now=0.0), fx.StoreOptions)  # leaving twice changes nothing
    back = session.take_back(ALICE, now=1.0)
    assert session.left == set() and [e.row["left"] for e in only(back, fx.StoreOptions)] == [[]]


def test_leaving_a_taiwan13_match_ends_it_and_the_leaver_pays():
    session = started("taiwan13")
    out = session.player_left(ALICE, now=0.0)
    seat = session.seating.seat_of_user(ALICE)
    assert kinds(out)[:3] == [fx.StoreResult, fx.Notice, fx.StoreMatchOver] and kinds(out)[-1] is fx.MatchOver
    assert session.closed and session.leaver == seat and session.state.phase is TablePhase.OVER
    scores = session.match.scores
    assert scores[seat] < 0 and all(score == 0 for other, score in enumerate(scores) if other != seat)  # 中断连线
    assert session.player_left(ALICE, now=1.0) == []  # once ended, nothing changes


def test_a_table_everyone_left_alone_pauses_then_ends_or_resumes():
    session = started()
    session.player_left(ALICE, now=0.0)  # away for the whole hand
    now = tick_until(session, 0.0, lambda s: s.paused_until is not None)
    assert session.result is not None
    until = session.paused_until
    assert until == pytest.approx(now + TIMING.pause_limit, abs=1.0)
    assert session.tick(now=now + 1) == [fx.WakeAt(until)]
    resumed = session.resume_paused(ALICE, now=now + 1)
    assert fx.Unpaused() in resumed and session.paused_until is None
    seat = session.seating.seat_of_user(ALICE)
    assert seat not in session.game.auto_seats()  # back for the next hand


def test_a_pause_nobody_answers_ends_the_match_with_its_standings():
    session = started()
    session.player_left(ALICE, now=0.0)
    tick_until(session, 0.0, lambda s: s.paused_until is not None)
    assert session.paused_until is not None
    out = session.tick(now=session.paused_until)
    assert kinds(out)[0] is fx.PauseEnded and kinds(out)[-1] is fx.MatchOver and session.closed


def test_a_lost_permission_stops_the_table_until_a_probe_goes_through():
    session = started()
    now = until_alice_owes(session)
    assert session.block("Missing Permissions", now=now)
    assert not session.block("again", now=now)  # already waiting
    log = list(session.game.log)
    assert session.tick(now=now + 1) == [fx.WakeAt(now + TIMING.permission_probe)]
    assert session.tick(now=now + 100) == [fx.Probe()]
    assert list(session.game.log) == log  # no clock ran out meanwhile
    session.still_blocked(now=now + 100)
    out = session.unblocked(now=now + 200)
    assert fx.Notice("play.unblocked") in out and session.blocked is None
    assert session.deadline == pytest.approx(now + 200 + session.seconds())  # the clock given back in full


def test_dms_closed_make_the_seat_auto_played():
    session = started()
    seat = session.seating.seat_of_user(ALICE)
    assert seat is not None
    session.dms_closed(seat, now=0.0)
    assert seat in session.game.auto_seats()
    assert session.dms_closed(seat, now=0.0) == []


def test_a_closed_table_refuses_clicks():
    session = started()
    session.shut()
    with pytest.raises(TableError) as refused:
        session.seat_for(ALICE)
    assert refused.value.key == "err.table_over" and session.tick(now=0.0) == []


# ------------------------------------------------------------------ a whole match, and restore


@pytest.mark.parametrize("rules", ["taiwan16", "taiwan13", "hongkong", "guangdong"])
def test_a_whole_match_timed_out_by_its_person_ends_zero_sum(rules):
    """The person lets every clock run out, and takes their seat back whenever 代打 takes over."""
    session = started(rules, rounds=1)
    seat = session.seating.seat_of_user(ALICE)
    stored: list[fx.Effect] = []
    now = 0.0
    for _ in range(20000):
        if session.closed:
            break
        game = session.game
        if game is not None and seat in game.auto_seats() and session.paused_until is None:
            if not session.no_hand_follows():  # the button is not offered once the last hand has ended
                session.take_back(ALICE, now=now)
        out = session.tick(now=now)
        stored += [e for e in out if isinstance(e, (fx.StoreResult, fx.StoreMatchOver))]
        if any(isinstance(e, fx.Deal) for e in out):
            session.dealt()
        waits = [e.at for e in out if isinstance(e, fx.WakeAt)]
        now = max(now, min(waits)) if waits else now + 1
    assert session.closed and session.state.phase is TablePhase.OVER
    assert sum(session.match.scores) == 0
    results = [e for e in stored if isinstance(e, fx.StoreResult)]
    assert len(results) == len(session.match.history) >= 4
    assert isinstance(stored[-1], fx.StoreMatchOver)


def test_restore_rebuilds_the_table_from_its_stored_moves_and_deadline():
    session = TableSession(lobby(), TIMING)
    session.join(ALICE, "Ann")
    session.open_seats()
    hands: dict[int, list[str]] = {}

    def record(out: list[fx.Effect]) -> None:
        for e in out:
            if isinstance(e, fx.StoreHand):
                hands[e.number] = []
            elif isinstance(e, fx.StoreMove):
                hands[e.number].append(e.move)

    record(session.start(key=(11).to_bytes(32, "big"), now=0.0))
    header = session.match.header()
    now = 0.0
    for _ in range(40):
        now = until_alice_owes(session, now, record)
        record(click_first(session, now))
    before = session.game
    assert before is not None
    restored, stored = TableSession.restore(
        replace(session.state, seats=list(session.seating.by_seat)),  # stored in engine order (StoreMatch)
        TIMING,
        header,
        [hands[n] for n in sorted(hands)],
        results_stored=[True] * len(hands),
        deadline=session.deadline,
        now=now,
    )
    assert stored == []
    after = restored.game
    assert after is not None and after.hand_number == before.hand_number
    assert [str(a) for a in after.log] == [str(a) for a in before.log]
    assert restored.match.scores == session.match.scores
    assert restored.deadline == session.deadline and restored.decision == session.decision
    assert restored.needs_buttons() == session.needs_buttons()
    assert fx.Deal(after.hand_number, tuple(restored.seating.by_seat)) in restored.resume(now=now)


# ------------------------------------------------------------------ purity


def test_the_table_package_imports_only_the_engine_and_pure_names():
    allowed = {"engine", "ranking", "table"}
    stdlib = {"__future__", "dataclasses", "random", "collections", "enum", "typing", "hashlib", "hmac", "secrets", "re"}
    for path in pathlib.Path("table").glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                root = name.split(".")[0]
                assert root in allowed | stdlib, f"{path} imports {name}"


def test_take_back_after_the_last_hand_ended_is_answered_politely_and_changes_nothing():
    """"Take back control" pressed once the match's last hand has ended (before and after it is
    settled), before the table ends: a polite refusal, nothing stored, and the match ends as it would."""
    session = started("guangdong", rounds=1)
    seat = session.seating.seat_of_user(ALICE)
    assert seat is not None
    now, seen = 0.0, set()
    for _ in range(20000):
        if session.closed:
            break
        game, match = session.game, session.match
        if game is not None and not game.is_over and len(game.log) > 8 and seat not in game.auto_seats():
            session.dms_closed(seat, now=now)  # auto-played from here to the hand's end
        if game is not None and game.is_over and seat in game.auto_seats():
            last = match.ends_with(game) if session.result is None else match.is_over
            if not last:
                session.take_back(ALICE, now=now)  # back for the next hand: no pause
            else:
                seen.add(session.result is not None)
                before = (session.version, list(game.log), [r.log for r in match.history], set(match.auto_seats))
                with pytest.raises(TableError) as refused:
                    session.take_back(ALICE, now=now)
                assert refused.value.key == "err.last_hand"
                assert session.player_left(ALICE, now=now) == []
                assert (session.version, list(game.log), [r.log for r in match.history], set(match.auto_seats)) == before
        out = session.tick(now=now)
        if any(isinstance(e, fx.Deal) for e in out):
            session.dealt()
        waits = [e.at for e in out if isinstance(e, fx.WakeAt)]
        now = max(now, min(waits)) if waits else now + 1
    assert seen == {False, True}  # refused before the settlement and after it
    assert session.closed and session.state.phase is TablePhase.OVER and sum(session.match.scores) == 0


def test_a_person_has_a_button_to_press_while_deciding_and_while_the_table_plays_for_them():
    """What ranks their DM's edits as prompts: a decision of theirs, or Take back under 代打 (an edit
    offering it, ranked a picture, waits behind every prompt and post under a hundred tables' load)."""
    session = started()
    seat = session.seating.seat_of_user(ALICE)
    assert seat is not None
    others = [s for s in range(4) if s != seat]
    seats = session.screen(SEATS)
    assert (seats.button_to_press(seat) is not None) == (seat in session.needs_buttons())
    assert not any(seats.button_to_press(s) is not None for s in others), "an AI seat has no person to press"
    session.dms_closed(seat, now=0.0)  # the table plays for them now
    assert seat not in session.needs_buttons() and session.screen(SEATS).button_to_press(seat) is not None


def test_what_a_person_has_to_press_names_the_decision_and_take_back_is_one_button_a_hand():
    """The key a DM's edits are ranked by (cogs/mahjong/dms.py): a decision point of theirs while they owe
    it, (hand, -1) while the table plays for them, None otherwise."""
    from .transcript import started as host_started

    host = host_started(seed=3)
    seat = host.seat(ALICE)
    assert host.session.screen(SEATS).button_to_press(seat) is None  # the AI deal's first moves: nothing yet
    host.run_until(lambda h: h.owes(ALICE))
    seats = host.session.screen(SEATS)
    first = seats.button_to_press(seat)
    assert first == (seats.hand_number, seats.decision) == (seats.hand_number, host.session.decision)
    assert all(seats.button_to_press(s) is None for s in range(4) if s != seat), "AI seats press nothing"
    host.run_until(lambda h: not h.owes(ALICE))  # her clock ran out: a move was played for her
    host.run_until(lambda h: h.owes(ALICE) or h.auto(ALICE))
    later = host.session.screen(SEATS).button_to_press(seat)
    assert later is not None and later != first, "each decision is a new thing to press"
    host.session.dms_closed(seat, now=host.now)  # the table plays for her from now
    seats = host.session.screen(SEATS)
    assert seats.button_to_press(seat) == (seats.hand_number, -1)
