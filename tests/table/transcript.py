"""A fake host for table-rule transcripts: every input goes through ``TableSession.handle(input, now)`` at
a ``now`` the test advances itself (no event loop, no Discord, no sleeps), and every effect handed back is
kept in order. Tests assert on those effects and on what the session then shows through its questions
(``view``, ``sight``, ``needs_buttons``, ``deadline``, ``decision``).

The host answers a ``Deal`` with ``Dealt`` the way the real one does once the hand's messages are out; the
rest it only records. A click is made from what the person sees: the hand number and decision id their
buttons carry, and a code read off their own view (the drawn tile, or 過 in a claim window).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from engine.events import Phase
from engine.tiles import tile_to_str
from engine.view import GameView
from table import effects as fx
from table import inputs as ins
from table.effects import Effect
from table.lobby import TableError, TableSettings, TableState, hash_password
from table.session import TableSession
from table.timing import Timing
from table.visibility import PUBLIC, Viewer

ALICE, BOB, CAROL, DAVE = 10, 11, 12, 13
STRANGER = 99  # a member of the server who sits at no seat
HOST = ALICE
# short and distinct, so a wake-up says which clock it is: the AI's 0.5 s, the hand pause's 2 s, ...
TIMING = Timing(
    ai_delay=0.5, hand_pause=2.0, pause_limit=60.0, permission_probe=5.0, delivery_grace=1.0, delivery_cap=10.0,
    delivery_poll=0.25,
)

E = TypeVar("E", bound=Effect)


def key(n: int) -> bytes:
    """A match key (engine.fairness) that a test can name by a number."""
    return n.to_bytes(32, "big")


def lobby(rules: str = "taiwan16", *, password: str | None = None, **settings: object) -> TableState:
    state = TableState(1, guild_id=9, channel_id=5, host_id=HOST, settings=TableSettings(rules, **settings))  # type: ignore[arg-type]
    if password is not None:
        state.password_hash = hash_password(password)
    return state


def kinds(effects: Iterable[Effect]) -> list[type]:
    return [type(e) for e in effects]


def only(effects: Iterable[Effect], kind: type[E]) -> list[E]:
    return [e for e in effects if isinstance(e, kind)]


def refusal(call: Callable[[], object]) -> str:
    """The catalogue key of the TableError ``call`` raises (the test fails if it raises none)."""
    try:
        call()
    except TableError as error:
        return error.key
    raise AssertionError("no TableError")


class Host:
    """Feeds one session at a fake clock and records what it asked for."""

    def __init__(self, session: TableSession, now: float = 0.0) -> None:
        self.session = session
        self.now = now
        self.effects: list[Effect] = []

    # ------------------------------------------------------------------ feeding

    def feed(self, event: ins.Input, *, at: float | None = None) -> list[Effect]:
        """``event`` at ``at`` (default: the clock as it stands); exactly the effects handed back."""
        if at is not None:
            assert at >= self.now, "the fake clock never runs backwards"
            self.now = at
        out = self.session.handle(event, self.now)
        self.effects += out
        return out

    def refused(self, event: ins.Input, *, at: float | None = None) -> str:
        """``event`` must be refused: its TableError's key (no effect can have been handed back)."""
        before = len(self.effects)
        key_ = refusal(lambda: self.feed(event, at=at))
        assert len(self.effects) == before
        return key_

    def answer(self, out: list[Effect]) -> list[Effect]:
        """What the host does on its own after ``out``: a Deal is posted, then ``Dealt`` is fed."""
        if any(isinstance(e, fx.Deal) for e in out):
            return self.feed(ins.Dealt())
        return []

    def tick(self, *, at: float | None = None, coming: Iterable[int] = ()) -> list[Effect]:
        out = self.feed(ins.Tick(frozenset(coming)), at=at)
        self.answer(out)
        return out

    def run_until(self, done: Callable[[Host], bool], *, playing: Iterable[int] = (), limit: int = 5000) -> list[Effect]:
        """Tick, jumping the clock to each wake-up asked for, until ``done(self)``; every effect of the way.
        The people ``playing`` press a button whenever they owe one (the others let their clocks run out)."""
        start = len(self.effects)
        for _ in range(limit):
            if done(self):
                return self.effects[start:]
            present = [user for user in playing if self.owes(user)]
            if present:
                self.click(present[0])
                continue
            out = self.tick()
            wakes = [e.at for e in out if isinstance(e, fx.WakeAt)]
            if not out:
                raise AssertionError("the table has nothing more to do, and the test's moment never came")
            if wakes:
                self.now = max(self.now, min(wakes))
        raise AssertionError("the test's moment never came")

    # ------------------------------------------------------------------ what a person sees

    def seat(self, user: int) -> int:
        seat = self.session.viewer(user).seat
        assert seat is not None, f"{user} has no seat"
        return seat

    def view(self, who: int | Viewer) -> GameView | None:
        viewer = self.session.viewer(who) if isinstance(who, int) else who
        return self.session.view(viewer)

    def public(self) -> GameView:
        view = self.session.view(PUBLIC)
        assert view is not None
        return view

    def owes(self, user: int) -> bool:
        return self.seat(user) in self.session.needs_buttons()

    def auto(self, user: int) -> bool:
        """The seat is auto-played (代打), as the table picture says."""
        return self.public().seats[self.seat(user)].auto

    def until_owes(self, user: int, phase: Phase | None = None) -> list[Effect]:
        """Until ``user`` owes a decision (at ``phase``, if given), every clock before it run out."""
        return self.run_until(lambda h: h.owes(user) and (phase is None or h.public().phase is phase))

    def until_settled(self, *, playing: Iterable[int] = ()) -> list[Effect]:
        """Until the hand in play is scored (its score sheet posted)."""
        start = len(self.effects)
        return self.run_until(lambda h: any(isinstance(e, fx.ShowScore) for e in h.effects[start:]), playing=playing)

    def code(self, user: int) -> str:
        """A button the person has now, read off their own view: discard the drawn tile (the last one of
        the hand when they drew none), or 過 in a claim window."""
        view = self.view(user)
        assert view is not None
        if view.phase is Phase.TURN:
            return "d" + tile_to_str(view.drawn if view.drawn is not None else view.concealed[-1])
        return "s"

    def click(
        self, user: int, code: str | None = None, *, seat: int | None = None, hand: int | None = None,
        move: int | None = None, answering: int | None = None, at: float | None = None,
    ) -> list[Effect]:
        """``user`` presses a button; by default one for the live decision at their own seat."""
        return self.feed(self.button(user, code, seat=seat, hand=hand, move=move, answering=answering), at=at)

    def button(
        self, user: int, code: str | None = None, *, seat: int | None = None, hand: int | None = None,
        move: int | None = None, answering: int | None = None,
    ) -> ins.Click:
        return ins.Click(
            user,
            self.seat(user) if seat is None else seat,
            self.code(user) if code is None else code,
            self.public().hand_number if hand is None else hand,
            self.session.decision if move is None else move,
            answering,
        )

    def time_out(self) -> list[Effect]:
        """The clock of the decision owed runs out."""
        assert self.session.deadline is not None
        return self.tick(at=max(self.now, self.session.deadline))


def seated(
    rules: str = "taiwan16", people: tuple[int, ...] = (ALICE,), *, timing: Timing = TIMING,
    password: str | None = None, **settings: object,
) -> Host:
    """A lobby with ``people`` seated (through Join), not yet started."""
    host = Host(TableSession(lobby(rules, password=password, **settings), timing))
    for user in people:
        host.feed(ins.Join(user, f"p{user}", password))
    return host


def started(
    rules: str = "taiwan16", people: tuple[int, ...] = (ALICE,), *, seed: int = 3, timing: Timing = TIMING,
    **settings: object,
) -> Host:
    """A table in play: ``people`` joined, the empty seats given to AIs, the first hand dealt from ``key(seed)``
    and its messages sent."""
    host = seated(rules, people, timing=timing, **settings)
    host.feed(ins.OpenSeats())
    host.answer(host.feed(ins.Start(key(seed))))
    return host
