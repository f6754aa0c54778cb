"""One table from lobby to standings, as a state machine that never does I/O.

The session holds the lobby (``TableState``), the match and the hand in play, the decision point's id
(carried by prompt buttons: the stale-click check), its deadline, the AI seats and 代打, a pause when
everyone is away, a channel permission the table lost. Each entry point takes ``now`` (seconds since
the epoch) and returns the effects the host must carry out, in order; errors a person should read are
``TableError``s. ``tick`` does the next automatic thing (an AI move, a timeout, settling a hand, the
next deal) and says when it wants to be called again.

A host uses four names of it and no other (tests/test_game_reads.py): ``handle(input, now)`` for every
change (table/inputs.py), ``screen(who)`` for what a message shows and who sits where (table/screens.py),
``phase`` for where the table stands (table/phase.py), and ``table_id``. The other methods are the
session's own steps, named for its tests.

    >>> from table.lobby import TableSettings, TableState
    >>> lobby = TableState(1, guild_id=9, channel_id=5, host_id=10, settings=TableSettings())
    >>> session = TableSession(lobby, Timing(ai_delay=0))
    >>> _ = session.join(10, "Ann")
    >>> _ = session.open_seats()
    >>> effects = session.start(key=bytes(32), now=0.0)
    >>> session.game is not None and session.needs_buttons() <= {0, 1, 2, 3}
    True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, overload

from engine.actions import Action, Kind
from engine.events import Event, EventKind
from engine.game import Game, IllegalActionError, Phase
from engine.match import Match
from engine.policy import Policy, make_policy
from engine.scoring import get_rules
from engine.summary import match_summary
from engine.tiles import NotationError
from engine.view import GameView, HandResult

from . import effects as fx
from . import inputs as ins
from .bank import allowance, drained
from .codes import to_action
from .effects import Effect
from .lobby import DEFAULT_AI, Seat, TableError, TablePhase, TableSettings, TableState
from .phase import Phase as TablePlace
from .phase import Stage
from .records import options_row
from .screens import (
    SEATS,
    Board,
    HandReads,
    HandScreen,
    LobbyScreen,
    RevealedHand,
    SeatsScreen,
    SpectatorScreen,
    TableScreen,
    Who,
    revealed_hand,
    screen_of,
)
from .seating import Seating
from .timing import Timing
from .toggles import OFF, Toggles, answer
from .visibility import PUBLIC, Sight, Viewer, live_view, sight, viewer_of

CLAIM_PHASES = (Phase.CLAIM, Phase.ROB_KONG)
CLAIM_KINDS = (Kind.PASS, Kind.CHI, Kind.PON, Kind.KONG, Kind.WIN, Kind.TIMEOUT)
SIMULTANEOUS = (*CLAIM_PHASES, Phase.EXCHANGE)  # several seats answer one decision point
ANSWERS_NOTHING = (Kind.AWAY, Kind.BACK, Kind.EYE, Kind.MIJI)  # no answer to the decision: the bank is not spent
QUIET_EVENTS = (EventKind.EYE, EventKind.AUTO_ON, EventKind.AUTO_OFF)  # change no decision
NOTED_EVENTS = {
    EventKind.AUTO_ON: "play.auto_on",
    EventKind.AUTO_OFF: "play.auto_off",
    EventKind.EYE: "play.eye",
    EventKind.FLOWER_DECLINED: "play.flower_declined",  # 八仙過海 … passed: the hand goes on
}


def opens_a_decision(
    game: Game, action: Action, events: Sequence[Event], before_phase: Phase, before_claim: object
) -> bool | None:
    """Whether ``action`` (just applied, making ``events``) opened a new decision point: not when another
    seat answered the same window (換牌, a claim: one window, several answers); None when it changed
    only who must answer (away / back / 眼牌)."""
    if all(event.kind in QUIET_EVENTS for event in events):
        return None
    same_window = (
        before_phase in SIMULTANEOUS
        and game.phase is before_phase
        and game.claim is before_claim
        and action.kind in (*CLAIM_KINDS, Kind.EXCHANGE)
    )
    return not same_window


def decision_of(game: Game) -> int:
    """The id of ``game``'s current decision point, as a table playing its log move by move gave it
    (the event count when that decision point opened): replayed from the hand's header."""
    fresh = Game.replay(game.header(), [])
    decision = len(fresh.events)
    for action in game.log:
        before_phase, before_claim = fresh.phase, fresh.claim
        events = fresh.apply(action)
        if opens_a_decision(fresh, action, events, before_phase, before_claim):
            decision = len(fresh.events)
    return decision


@dataclass(frozen=True, slots=True)
class Deal:
    """How a table's match is dealt: its secret key, by position (``duplicate``: a tournament round's
    walls) or by hand number, and at most ``hands`` hands (None: its rounds')."""

    key: bytes = field(repr=False)
    duplicate: bool = False
    hands: int | None = None


@dataclass(frozen=True, slots=True)
class Note:
    """A line under the table picture (代打 on/off, 眼牌): the catalogue key, whose, and what."""

    key: str
    seat: int
    detail: str = ""


class TableSession:
    def __init__(self, state: TableState, timing: Timing) -> None:
        self.state = state
        self.timing = timing
        self.match: Match | None = None
        self.game: Game | None = None
        self.seating = Seating()
        self.policies: dict[int, Policy] = {}
        self.version = 0  # bumped on every change; the host's messages show versions
        self.decision = 0  # the decision point's id, carried by prompt buttons (stale-click check)
        self.deadline: float | None = None  # when the current human decision times out (its first seat's)
        self.seat_deadlines: dict[int, float] = {}  # each owing seat's own, its base and its bank (table/bank.py)
        self.banks: dict[int, float] = {}  # what is left of a seat's time bank this match (absent: full)
        self.toggles: dict[int, Toggles] = {}  # each person seat's auto toggles (table/toggles.py)
        self.decision_opened = 0.0
        self.prompt_version = 0  # the first version showing the current decision's prompts
        self.delivered: set[int] = set()  # seats whose prompt for this decision Discord acknowledged
        self.ai_ready_at = 0.0
        self.prompted: set[int] = set()  # seats whose message shows action buttons
        self.notes: list[Note] = []
        self.closed = False  # nothing more happens at this table
        self.result: HandResult | None = None  # the finished hand's result, until the next deal
        self.next_hand_at = 0.0
        self.resumed_at = 0  # the hand a restored table resumes at
        self.away_at_start: set[int] = set()  # seats auto-played when the hand was dealt
        self.paused_until: float | None = None  # everyone away for a whole hand: the table waits until then
        self.leavers: set[int] = set()  # seats that left between hands where leaving ends the table
        # people who left the match in play (/mahjong leave): their seat is auto-played and they are free
        # to sit elsewhere, until they take it back; stored with the table's options (StoreOptions)
        self.left: set[int] = set()
        self.reads = HandReads()  # the hand's events as the screens read them, each walked once (table/screens.py)
        self.blocked: str | None = None  # a channel permission the table lost: nothing moves
        self.next_probe_at = 0.0
        self.clicks_lost_at: float | None = None  # the gateway carrying the clicks is down since then
        self.leaver: int | None = None  # the seat whose leaving ended the match (taiwan13), placed last
        self.deal_headers: dict[int, Mapping[str, Any]] = {}  # hand number → its deal's header (spectators' replays)
        self._revealed: tuple[RevealedHand, ...] = ()  # the finished hands replayable face up, so far

    @property
    def table_id(self) -> int:
        return self.state.table_id

    @property
    def phase(self) -> TablePlace:
        """Where the table stands (table/phase.py): the one value the host asks in place of the flags."""
        return TablePlace(self._stage(), blocked=self.blocked is not None)

    def _stage(self) -> Stage:
        if self.closed:
            return Stage.CLOSED
        if self.state.phase is TablePhase.LOBBY:
            return Stage.LOBBY
        if self.match_ended():
            return Stage.OVER
        if self.game is None:
            return Stage.DEALING
        if not self.game.is_over:
            return Stage.PLAYING
        return Stage.PAUSED if self.paused_until is not None else Stage.SETTLED

    # ------------------------------------------------------------------ the one entry point

    def handle(self, event: ins.Input, now: float) -> list[Effect]:
        """Feed the session one input (table/inputs.py); the effects to carry out, in order. A refusal
        the person should read is a ``TableError``."""
        match event:
            case ins.Opened():
                return self.opened()
            case ins.Join(user, name, password, locale):
                return self.join(user, name, password=password, locale=locale)
            case ins.Leave(user):
                return self.leave(user)
            case ins.AddAi(level):
                return self.add_ai(level)
            case ins.RemoveAi():
                return self.remove_ai()
            case ins.SetSettings(settings):
                return self.set_settings(settings)
            case ins.OpenSeats():
                return self.open_seats()
            case ins.Start(key, duplicate, hands):
                return self.start(key=key, now=now, duplicate=duplicate, hands=hands)
            case ins.Shut():
                return self.shut()
            case ins.Close():
                return self.close()
            case ins.Click(user, seat, code, hand, move, answering):
                return self.click(user, seat, code, hand=hand, move=move, now=now, answering=answering)
            case ins.Exchange(user, seat, tiles, hand, move, answering):
                if tiles is None:  # values the select never offered: stale, once the point is checked
                    self.check_prompt(user, seat, hand, move)
                    raise TableError("err.stale")
                return self.exchange(user, seat, tiles, hand=hand, move=move, now=now, answering=answering)
            case ins.Declare(user, answering):
                return self.declare(user, now=now, answering=answering)
            case ins.TakeBack(user, answering):
                return self.take_back(user, now=now, answering=answering)
            case ins.ResumePaused(user):
                return self.resume_paused(user, now=now)
            case ins.PlayerLeft(user):
                return self.player_left(user, now=now)
            case ins.Substitute(user, new, name, locale):
                return self.substitute(user, new, name, locale, now=now)
            case ins.Resume():
                return self.resume(now=now)
            case ins.Tick(coming):
                return self.tick(now=now, coming=coming)
            case ins.Dealt():
                return self.dealt()
            case ins.Shown(seat, version):
                return self.prompt_shown(seat, version, now=now)
            case ins.DmsClosed(seat):
                return self.dms_closed(seat, now=now)
            case ins.ChannelRefused(what):
                return [fx.Blocked(what)] if self.block(what, now=now) else []
            case ins.ChannelStillRefused():
                self.still_blocked(now=now)
                return []
            case ins.ChannelOk():
                return self.unblocked(now=now)
            case ins.ClicksLost():
                if self.clicks_lost_at is None:
                    self.clicks_lost_at = now
                return []
            case ins.ClicksBack():
                return self.clicks_back(now=now)
            case ins.Reposting():
                return [fx.Version(self.touch())]
            case ins.SetToggles(user, toggles, answering):
                return self.set_toggles(user, toggles, now=now, answering=answering)
        raise TypeError(f"not a table input: {event!r}")

    # ------------------------------------------------------------------ questions

    def match_ended(self) -> bool:
        return self.state.phase is not TablePhase.PLAYING or (self.match is not None and self.match.is_over)

    def has_hand(self) -> bool:
        """A hand was dealt here (in play, or the one just settled): there is a table picture to show."""
        return self.game is not None

    def table_wanted(self) -> bool:
        """The channel should have this hand's table message now: a hand is at the table, the match goes
        on, and the channel takes posts."""
        return not self.closed and self.game is not None and not self.match_ended() and self.blocked is None

    def paused(self) -> bool:
        """Everyone was away for a whole hand: the table waits for a Resume."""
        return self.paused_until is not None

    def auto_played(self, seat: int) -> bool:
        """``seat`` is auto-played (代打) in the hand at the table."""
        return self.game is not None and seat in self.game.auto_seats()

    # ------------------------------------------------------------------ who sees what (table/visibility.py)

    def viewer(self, user_id: int) -> Viewer:
        """The viewer a person is here: their seat once the match has one for them, else the public."""
        return viewer_of(user_id, [who.user_id for who in self.seating.by_seat])

    def sight(self, viewer: Viewer) -> Sight:
        """What ``viewer`` may see now. The match is over once played to its end or once the table ended
        (its host closed it, it was abandoned: ``match_ended``); a session merely closed by a shutdown or
        handed to another process is not over: its match goes on there (issue 37, item 27)."""
        return sight(viewer, over=self.match_ended())

    def view(self, viewer: Viewer) -> GameView | None:
        """The hand at the table (in play, or the one just over) as ``viewer`` may see it."""
        if self.game is None:
            return None
        return live_view(self.game, self.sight(viewer), hints=self.state.settings.hints)

    @overload
    def screen(self, who: int) -> HandScreen: ...
    @overload
    def screen(self, who: Literal[Board.TABLE]) -> TableScreen: ...
    @overload
    def screen(self, who: Literal[Board.LOBBY]) -> LobbyScreen: ...
    @overload
    def screen(self, who: Literal[Board.SPECTATOR]) -> SpectatorScreen: ...
    @overload
    def screen(self, who: Literal[Board.SEATS]) -> SeatsScreen: ...
    @overload
    def screen(self, who: Viewer) -> HandScreen | TableScreen | SpectatorScreen: ...
    def screen(self, who: Who) -> HandScreen | TableScreen | LobbyScreen | SpectatorScreen | SeatsScreen:
        """What ``who`` is shown now (table/screens.py): a seat (its number) its DM, ``TABLE`` the channel's
        table, ``LOBBY`` the lobby message, ``SPECTATOR`` what the table's spectators may see; a viewer as the
        visibility rule names them gets theirs (a seat its DM, the public the table, a delayed spectator the
        spectators'), ``SEATS`` who sits where and what a click may do. Pure and asked on demand, when a message is built."""
        return screen_of(self, who)

    def revealed_hands(self) -> tuple[RevealedHand, ...]:
        """Every finished hand of the match, ready to replay face up (whoever may see them: the screen
        decides). Each is worked out once, when it is first asked for after its end."""
        match = self.match
        if match is None:
            return ()
        done = self._revealed
        if len(done) < len(match.history):
            fresh = tuple(
                revealed_hand(match, n, self.deal_headers.get(n)) for n in range(len(done) + 1, len(match.history) + 1)
            )
            done = self._revealed = done + fresh
        return done[: len(match.history)]

    def robot(self, seat: int) -> bool:
        """An AI seat or one auto-played (代打): the table moves for it."""
        assert self.game is not None
        return self.seating.by_seat[seat].is_ai or seat in self.game.auto_seats()

    def needs_buttons(self) -> set[int]:
        """Person seats that owe a decision now."""
        game = self.game
        if game is None or game.is_over or self.closed or self.match_ended():
            return set()
        return {s for s in game.to_act() if not self.robot(s)}

    def seat_for(self, user_id: int) -> int:
        """The clicker's seat at a table in play, or the refusal they should read (table/screens.py)."""
        return self.screen(SEATS).seat_for(user_id)

    def check_prompt(self, user_id: int, seat: int, hand: int, move: int) -> int:
        """A prompt button's fields against the live decision point; the seat, or why not."""
        return self.screen(SEATS).check(user_id, seat, hand, move)

    def seconds(self) -> float:
        """The current decision's base time (換牌 takes a turn's), scaled by the bot's timing."""
        assert self.game is not None
        options = self.state.settings.options
        seconds = options.claim_seconds if self.game.phase in CLAIM_PHASES else options.turn_seconds
        return seconds * self.timing.timer_scale

    def bank_left(self, seat: int) -> float:
        """What is left of ``seat``'s time bank this match, scaled like the base (0 at a table without one)."""
        full = self.state.settings.bank * self.timing.timer_scale
        return min(full, self.banks.get(seat, full))

    def _seat_deadline(self, seat: int, now: float) -> float:
        return now + allowance(self.seconds(), self.bank_left(seat))

    def _set_deadlines(self, now: float) -> None:
        """A deadline for each seat owing the decision from ``now``: its base and its bank."""
        owing = self.needs_buttons()
        self.seat_deadlines = {seat: self._seat_deadline(seat, now) for seat in owing}
        self._earliest()

    def _earliest(self) -> None:
        """The session's deadline is the first of the owing seats' own (None when nobody owes)."""
        owing = self.needs_buttons()
        own = [at for seat, at in self.seat_deadlines.items() if seat in owing]
        self.deadline = min(own) if own else None

    def _spend_bank(self, seat: int, now: float) -> list[Effect]:
        """``seat`` answered its decision at ``now``: what it used of its bank past the base is gone,
        stored with the table (so a restart keeps it)."""
        at = self.seat_deadlines.get(seat)
        full = self.state.settings.bank * self.timing.timer_scale
        if at is None or full <= 0:
            return []
        left = self.bank_left(seat)
        base_end = at - left
        after = drained(left, base_end=base_end, answered=min(now, at))
        if after >= left:
            return []
        self.banks[seat] = after
        return [self._store_options()]

    def ai_delay(self) -> float:
        """Between AI discards: the bot's pace times the table's pace option."""
        return self.timing.ai_delay * self.state.settings.pace_factor

    # ------------------------------------------------------------------ lobby

    def _lobby_changed(self) -> list[Effect]:
        self.version += 1
        return [fx.StoreSeats(tuple(self.state.seats)), fx.ShowLobby(self.version)]

    def _store_options(self) -> fx.StoreOptions:
        """The table row's options as they stand (table/records.py)."""
        return fx.StoreOptions(options_row(self.state, self.left, self.banks))

    def opened(self) -> list[Effect]:
        """A new lobby (its creator seated, a rematch's seats too): stored with its settings, shown."""
        return [self._store_options(), *self._lobby_changed()]

    def join(self, user_id: int, name: str, *, password: str | None = None, locale: str = "en") -> list[Effect]:
        self.state.join(user_id, name, password=password, locale=locale)
        return self._lobby_changed()

    def leave(self, user_id: int) -> list[Effect]:
        """Leaving the lobby frees the seat (leaving a match in play is ``player_left``)."""
        self.state.leave(user_id)
        return self._lobby_changed()

    def add_ai(self, level: str = DEFAULT_AI) -> list[Effect]:
        self.state.add_ai(level)
        return self._lobby_changed()

    def remove_ai(self) -> list[Effect]:
        self.state.remove_ai()
        return self._lobby_changed()

    def set_settings(self, settings: TableSettings) -> list[Effect]:
        """The host changed a setting in the lobby (a house rule): stored with the table, shown."""
        if self.state.phase is not TablePhase.LOBBY:
            raise TableError("err.not_lobby")
        self.state.settings = settings
        return [self._store_options(), *self._lobby_changed()]

    def open_seats(self) -> list[Effect]:
        """The host pressed Start: empty seats get AI players and the lobby closes (``start`` deals)."""
        self.state.start()
        return self._lobby_changed()

    def shut(self) -> list[Effect]:
        """The host (or a server manager) closed the table: nothing more happens here."""
        self.state.phase = TablePhase.CLOSED
        self.closed = True
        return [fx.StorePhase(self.state.phase.value)]

    def start(self, *, key: bytes, now: float, duplicate: bool = False, hands: int | None = None) -> list[Effect]:
        """Draw seats (抓位), throw the dealer's dice, deal the first hand (the lobby has closed). Every
        deal of the match comes from the secret ``key`` (engine.fairness): the channel is shown its
        commitment now and the key itself once the match is over. A tournament's table passes its round's
        key with ``duplicate`` (walls by position) and its ``hands`` (at most that many)."""
        if self.state.phase is not TablePhase.PLAYING or self.match is not None:
            raise TableError("err.not_lobby")
        settings = self.state.settings
        match = Match(
            settings.rules, rounds=settings.rounds, options=settings.options, key=key, duplicate=duplicate, hands=hands
        )
        self.match = match
        by_seat: list[Seat | None] = [None] * 4
        for player, seat in enumerate(match.seat_of_player):
            by_seat[seat] = self.state.seats[player]
        self.seating = Seating([who for who in by_seat if who is not None])
        self._make_policies()
        dice = None if match.profile.host_deals_first else tuple(match.dealer_dice)
        out: list[Effect] = [
            self._store_options(),
            fx.StoreMatch(match.header(), tuple(self.seating.by_seat)),
            fx.MatchStarted(fx.SeatDraw(tuple(self.seating.names()), match.first_dealer, dice), match.commitment),
        ]
        return out + self._deal(now)

    def _make_policies(self) -> None:
        for seat, who in enumerate(self.seating.by_seat):
            if who.is_ai:
                rng = random.Random(self.match.ai_seed(seat) if self.match else seat)
                self.policies[seat] = make_policy(who.ai_level or DEFAULT_AI, rng)

    # ------------------------------------------------------------------ after a restart

    @classmethod
    def restore(
        cls,
        state: TableState,
        timing: Timing,
        header: dict[str, object] | None,
        hand_logs: Sequence[Sequence[str]],
        *,
        results_stored: Sequence[bool] = (),
        deadline: float | None = None,
        left: Iterable[int] = (),
        banks: Mapping[int, float] | None = None,
        now: float,
    ) -> tuple[TableSession, list[Effect]]:
        """A stored table rebuilt: its match replayed to the last stored move, ``left`` the people who had
        left it (records.left_of). The effects store what the journal lost (a hand's result whose last
        move was stored)."""
        session = cls(state, timing)
        session.left = set(left)
        session.banks = dict(banks or {})
        if state.phase is TablePhase.LOBBY:
            return session, []
        assert header is not None
        deals: dict[int, dict[str, Any]] = {}
        session.match, session.game = Match.replay(header, [list(log) for log in hand_logs], deals=deals)
        session.deal_headers.update(deals)
        match = session.match
        session.seating = Seating(list(state.seats))
        session._make_policies()
        session.resumed_at = len(match.history) + 1  # the hand in play, or the next one
        out: list[Effect] = []
        for hand, stored in zip(match.history, results_stored, strict=False):
            if not stored:  # the last move was stored, its result was not: store it now
                out.append(fx.StoreResult(hand.number, hand.result))
        if session.game is not None:
            session._new_decision(now)
            # the decision point's id as the table had it (buttons posted before the restart carry it): in
            # a window several seats answer (換牌, a claim) the id is the one the window opened with
            session.decision = decision_of(session.game)
            # when its prompts reached their people is not stored, and while the table was away (a crash, a move
            # to another process) nobody could act: the prompts the resume sends count as late deliveries, so
            # each restarts its seat's clock when the stored deadline has less left (prompt_shown; issue 21)
            session.decision_opened = float("-inf")
            # the stored deadline; none stored (stopped before the decision's first move or delivery wrote
            # one, as a hand just dealt): a fresh one from now (_new_decision's), else the clock never runs
            if deadline is not None or not session.needs_buttons():
                session._restore_deadline(deadline)
            # who was auto-played at the deal (the hand's header says), so a hand everyone was away for
            # still pauses the table when it was restarted halfway through
            session.away_at_start = set(session.game.header()["auto"])
        elif not match.is_over:  # between two hands: the finished one still takes 代打 switches
            session.game = match.finished_hand
            session.result = match.history[-1].result if match.history else None
            if session.game is not None:  # so a table paused after it is paused again (resume)
                session.away_at_start = set(session.game.header()["auto"])
        return session, out

    def _restore_deadline(self, deadline: float | None) -> None:
        """The stored deadline (the decision's first seat's) back: each owing seat's own keeps its
        difference of banks from that first one."""
        owing = self.needs_buttons()
        if deadline is None or not owing:
            self.seat_deadlines, self.deadline = {}, None
            return
        first = min(self.bank_left(seat) for seat in owing)
        self.seat_deadlines = {seat: deadline + self.bank_left(seat) - first for seat in owing}
        self._earliest()

    def resume(self, *, now: float) -> list[Effect]:
        """What a restored table does first: say so, then show the hand again (or end, or wait to deal)."""
        if self.state.phase is TablePhase.LOBBY:
            return self._lobby_changed()
        out: list[Effect] = [fx.Notice("play.resumed", values={"n": self.resumed_at})]
        if self.match is not None and self.match.is_over and self.game is None:
            return out + self._end_match()
        if self.game is None or self.game.is_over:
            self.next_hand_at = 0.0
            if self.game is not None and self._everyone_away(self.game):  # it was paused: the pause is not stored
                self.paused_until = now + self.timing.pause_limit
                out.append(fx.Paused(self.paused_until))
            return out
        return [*out, self._deal_effect()]

    # ------------------------------------------------------------------ dealing

    def _deal_effect(self) -> fx.Deal:
        assert self.game is not None
        return fx.Deal(self.game.hand_number, tuple(self.seating.by_seat))

    def _deal(self, now: float) -> list[Effect]:
        """The next hand (代打 carries over until the player is back); a seat that left between hands
        where leaving ends the table (taiwan13) ends it now, with this hand."""
        match = self.match
        assert match is not None
        game = self.game = match.new_hand()
        self.deal_headers[game.hand_number] = game.header()
        self.away_at_start = set(game.auto_seats())
        self.result = None
        self.prompted.clear()
        self.notes.clear()
        self._new_decision(now)
        out: list[Effect] = [fx.NewHand(game.hand_number), fx.StoreHand(game.hand_number, game.header())]
        if self.leavers:
            return out + self._abandon(min(self.leavers))
        return [*out, self._deal_effect()]

    def dealt(self) -> list[Effect]:
        """The host posted the hand's table message and sent the hands: every message shows it now."""
        return self._refresh(actor=None)

    # ------------------------------------------------------------------ decisions and moves

    def _new_decision(self, now: float) -> None:
        """A new decision point: a new stale-click id, a new deadline for the people who owe it."""
        game = self.game
        assert game is not None
        self.decision = len(game.events)
        self.decision_opened = now
        self.prompt_version = self.version
        self.delivered = set()
        self._set_deadlines(now)
        self.ai_ready_at = now + (self.ai_delay() if game.phase is Phase.TURN else 0.0)

    def _rearm_deadline(self, now: float) -> None:
        """Who must answer changed (away / back / 眼牌, the window's other answers): a seat newly owing
        gets its time from now; no deadline once nobody owes."""
        owing = self.needs_buttons()
        if not owing:
            self.deadline = None
            return
        if self.deadline is None:
            self.seat_deadlines = {}
        for seat in owing:
            if seat not in self.seat_deadlines:
                self.seat_deadlines[seat] = self._seat_deadline(seat, now)
        self._earliest()

    def _apply(self, action: Action, now: float, *, answering: int | None = None) -> list[Effect]:
        """Play one action; store it; show it to every message it changes."""
        game = self.game
        assert game is not None
        before_phase, before_claim = game.phase, game.claim
        answered = action.seat in self.needs_buttons() and action.kind not in ANSWERS_NOTHING
        events = game.apply(action)
        self.version += 1
        spent = self._spend_bank(action.seat, now) if answered else []
        opens = opens_a_decision(game, action, events, before_phase, before_claim)
        if opens is None or not opens:
            self._rearm_deadline(now)  # the same decision point: only who must answer changed
        else:
            self._new_decision(now)
        out: list[Effect] = [
            fx.StoreMove(game.hand_number, len(game.log) - 1, str(game.log[-1]), self.deadline), *spent
        ]
        self._note(events)
        return out + self._refresh(actor=action.seat, answering=answering)

    def _note(self, events: Sequence[Event]) -> None:
        for event in events:
            key = NOTED_EVENTS.get(event.kind)
            if key is not None and event.seat is not None:
                self.notes.append(Note(key, event.seat, str(event.detail or "")))

    def _refresh(self, actor: int | None, answering: int | None = None) -> list[Effect]:
        """The table, and every hand whose picture or buttons changed. ``answering`` is the seat whose click
        is being answered: the click's own answer shows their hand, so no edit for it."""
        out: list[Effect] = [fx.ShowTable(self.version)]
        now_prompted = self.needs_buttons()
        changed = now_prompted | self.prompted
        if actor is not None:
            changed.add(actor)
        game = self.game
        if game is not None and (game.is_over or actor is None):
            changed |= self.seating.people()
        if game is not None:
            changed |= {s for s in range(4) if game.eye[s]}  # 眼牌: their text lists the other hands
        changed.discard(answering)  # type: ignore[arg-type]  # None is never a seat
        out += [fx.ShowHand(seat, self.version) for seat in sorted(changed)]
        self.prompted = now_prompted
        return out

    def prompt_shown(self, seat: int, version: int, *, now: float) -> list[Effect]:
        """Discord acknowledged the message showing ``seat`` its prompt at ``version``. Delivered later
        than the grace after the decision opened (an upload, a DM at its edit limit), the clock restarts
        from now: stored and shown afresh, once per seat and decision, so the refresh cannot loop."""
        if self.game is None or self.deadline is None or version < self.prompt_version or seat in self.delivered:
            return []
        owing = self.needs_buttons()
        if seat not in owing:
            return []
        self.delivered.add(seat)
        if now - self.decision_opened <= self.timing.delivery_grace:
            return []
        fresh = now + self.seconds() + min(self.bank_left(s) for s in owing)
        if fresh <= self.deadline:
            return []
        shift = fresh - self.deadline
        self.seat_deadlines = {s: at + shift for s, at in self.seat_deadlines.items()}
        self.deadline = fresh
        self.version += 1  # the countdown shown is the one enforced: the prompts and the table say so
        out: list[Effect] = [fx.StoreDeadline(self.game.hand_number, fresh), fx.ShowTable(self.version)]
        return out + [fx.ShowHand(s, self.version) for s in sorted(owing)]

    def _prompt_on_its_way(self, coming: frozenset[int], now: float) -> bool:
        """Someone who owes the decision has a prompt coming that Discord has not yet acknowledged for this
        decision; past ``delivery_cap`` beyond the deadline the table stops waiting."""
        assert self.deadline is not None
        if now > self.deadline + self.timing.delivery_cap:
            return False
        return any(seat not in self.delivered and seat in coming for seat in self.needs_buttons())

    # ------------------------------------------------------------------ clicks

    def click(
        self, user_id: int, seat: int, code: str, *, hand: int, move: int, now: float, answering: int | None = None
    ) -> list[Effect]:
        """A prompt button: checked against the live decision point, then played."""
        seat = self.check_prompt(user_id, seat, hand, move)
        try:
            action = to_action(seat, code)
        except NotationError:
            raise TableError("err.stale") from None
        return self._play(action, now, answering)

    def exchange(
        self, user_id: int, seat: int, tiles: tuple[int, ...], *, hand: int, move: int, now: float,
        answering: int | None = None,
    ) -> list[Effect]:
        """換牌: the tiles chosen in the select (choosing is confirming), checked like a button."""
        seat = self.check_prompt(user_id, seat, hand, move)
        return self._play(Action(seat, Kind.EXCHANGE, None, tiles), now, answering)

    def _play(self, action: Action, now: float, answering: int | None) -> list[Effect]:
        assert self.game is not None
        if not self.game.is_legal(action):
            raise TableError("err.illegal")
        try:
            return self._apply(action, now, answering=answering)
        except IllegalActionError:
            raise TableError("err.illegal") from None

    def declare(self, user_id: int, *, now: float, answering: int | None = None) -> list[Effect]:
        """眼牌 (Miji in its window): any time while the hand is played."""
        seat = self.seat_for(user_id)
        game = self.game
        assert game is not None
        offered = [] if game.is_over or seat in game.auto_seats() else game.declarations(seat)
        if not offered:
            raise TableError("err.illegal")
        return self._apply(offered[0], now, answering=answering)

    def take_back(self, user_id: int, *, now: float, answering: int | None = None) -> list[Effect]:
        """"Take back control": 代打 off, now or (between hands) from the next hand. Pressed after the
        match's last hand ended, before the table ends, there is nothing to take back: refused politely."""
        seat = self.seat_for(user_id)
        if self.no_hand_follows():
            raise TableError("err.last_hand")
        out = self._switch_auto(seat, away=False, now=now, answering=answering)
        if out is None:
            raise TableError("err.not_auto")
        if self.paused_until is not None:  # someone is back: the table plays on
            out += self._unpause()
        return out + self._came_back(user_id)

    def _came_back(self, user_id: int) -> list[Effect]:
        """A person who had left took their seat back: seated here again."""
        if user_id not in self.left:
            return []
        self.left.discard(user_id)
        return [self._store_options()]

    def resume_paused(self, user_id: int, *, now: float) -> list[Effect]:
        """The pause's Resume button: a seated person takes their seat back and the next hand starts."""
        seat = self.seat_for(user_id)
        if self.paused_until is None:
            raise TableError("err.not_paused")
        out = self._switch_auto(seat, away=False, now=now, answering=None) or []
        return out + self._unpause() + self._came_back(user_id)

    def _switch_auto(self, seat: int, *, away: bool, now: float, answering: int | None) -> list[Effect] | None:
        """代打 on or off for ``seat``, stored like a move. Between two hands the settled hand takes it
        (Match.between_hands), so the next hand starts that way and a replay agrees. None when the seat
        already is that way, or when the match's last hand has ended (no hand would take it)."""
        game, match = self.game, self.match
        assert game is not None and match is not None
        if (seat in game.auto_seats()) == away or self.no_hand_follows():
            return None
        action = Action(seat, Kind.AWAY if away else Kind.BACK)
        if game.is_over and self.result is not None:  # settled: the switch is for the next hand
            match.between_hands(action)
            self.version += 1
            return [
                fx.StoreMove(game.hand_number, len(game.log) - 1, str(action), None),
                *self._refresh(actor=seat, answering=answering),
            ]
        return self._apply(action, now, answering=answering)

    def no_hand_follows(self) -> bool:
        """The hand in play has ended and it is the match's last (settled or about to be)."""
        game, match = self.game, self.match
        if game is None or match is None or not game.is_over:
            return False
        return match.is_over if self.result is not None else match.ends_with(game)

    def dms_closed(self, seat: int, *, now: float) -> list[Effect]:
        """The person's DMs are closed (50007): their seat is auto-played while the hand is in play."""
        game = self.game
        if game is None or game.is_over or self.closed or seat in game.auto_seats():
            return []
        return self._apply(Action(seat, Kind.AWAY), now)

    def player_left(self, user_id: int, *, now: float) -> list[Effect]:
        """A person leaves mid-match: their seat is auto-played to the end (they may take it back), or,
        where the rule set says so (taiwan13 中断连线), the table ends and the leaver pays. Anything
        arriving once the table has ended changes nothing. A leaver is in :attr:`left` (stored) until
        they take their seat back: the hall no longer counts them as seated here."""
        seat = self.seating.seat_of_user(user_id)
        game, match = self.game, self.match
        if seat is None or game is None or match is None or self.closed or match.is_over or self.no_hand_follows():
            return []
        if not match.ends_on_leave:
            out = self._switch_auto(seat, away=True, now=now, answering=None) or []
            if user_id in self.left:
                return out
            self.left.add(user_id)
            return [*out, self._store_options()]
        if game.is_over:  # between hands: stored as 代打 now, the table ends as the next hand is dealt
            out = self._switch_auto(seat, away=True, now=now, answering=None) or []
            self.leavers.add(seat)
            self.next_hand_at = 0.0
            return out
        return self._abandon(seat)

    def substitute(self, user_id: int, new: int, name: str, locale: str, *, now: float) -> list[Effect]:
        """Another person takes ``user_id``'s seat in the match in play (a tournament organiser's replace):
        the seat is theirs from now — its hand, its score so far, its DMs — and 代打 (the leaver's, or
        the dropped player's) stops with the next decision. The seats are stored in the match's order.
        Refused (TableError) when ``user_id`` has no seat here, ``new`` has one, or no hand follows."""
        seat = self.seating.seat_of_user(user_id)
        match = self.match
        if seat is None or match is None or self.closed or match.is_over or self.no_hand_follows():
            raise TableError("err.not_seated")
        if self.seating.seat_of_user(new) is not None:
            raise TableError("err.not_seated")  # the host checks first; a seat is one person's
        taken = Seat(new, name, locale=locale)
        self.seating.by_seat[seat] = taken
        self.state.seats = [taken if s.user_id == user_id else s for s in self.state.seats]
        self.left.discard(user_id)
        self.version += 1
        out: list[Effect] = [fx.StoreSeats(tuple(self.seating.by_seat)), self._store_options(), fx.Reseated(seat, taken)]
        out += self._switch_auto(seat, away=False, now=now, answering=None) or []
        if self.paused_until is not None:  # someone is back: the table plays on
            out += self._unpause()
        return out + self._refresh(actor=seat)

    def _abandon(self, seat: int) -> list[Effect]:
        """The leaver's penalty ends the table."""
        game, match = self.game, self.match
        assert game is not None and match is not None
        result = match.abandon(game, seat)
        assert result is not None
        self.closed = True
        self.leaver = seat
        self.deadline = None
        self.version += 1
        name = self.seating.by_seat[seat].name
        notice = fx.Notice("play.left_ends", seat=seat, values={"points": -result.deltas[seat]}, name=name)
        return [fx.StoreResult(game.hand_number, result), notice, *self._end_match()]

    # ------------------------------------------------------------------ the channel

    def block(self, what: str, *, now: float) -> bool:
        """The table's channel refused a post or an edit (a lost permission): nothing moves (no AI, no
        clock) until a post goes through again. False if it already waits, or is not in play."""
        if self.blocked is not None or self.closed or self.state.phase is not TablePhase.PLAYING:
            return False
        self.blocked = what
        self.next_probe_at = now + self.timing.permission_probe
        return True

    def still_blocked(self, *, now: float) -> None:
        self.next_probe_at = now + self.timing.permission_probe

    def unblocked(self, *, now: float) -> list[Effect]:
        """A post went through again: the table plays on, the clock given back in full."""
        self.blocked = None
        if self.deadline is not None:
            self.deadline = None
            self._rearm_deadline(now)
        self.version += 1
        return [*self._refresh(actor=None), fx.Notice("play.unblocked")]

    def clicks_back(self, *, now: float) -> list[Effect]:
        """The gateway is back: the open decision's deadline moves on by the part of the outage it ran
        through (from the drop, or from its opening if it opened meanwhile), stored and shown afresh."""
        lost_at, self.clicks_lost_at = self.clicks_lost_at, None
        if lost_at is None or self.game is None or self.deadline is None or self.closed:
            return []
        lost = max(0.0, now - max(lost_at, self.decision_opened))
        self.seat_deadlines = {s: at + lost for s, at in self.seat_deadlines.items()}  # each seat's own (bank)
        self.deadline += lost
        self.version += 1  # the countdown shown is the one enforced
        out: list[Effect] = [fx.StoreDeadline(self.game.hand_number, self.deadline), fx.ShowTable(self.version)]
        return out + [fx.ShowHand(s, self.version) for s in sorted(self.needs_buttons())] + [fx.WakeAt(now)]

    # ------------------------------------------------------------------ auto toggles (table/toggles.py)

    def set_toggles(self, user_id: int, toggles: Toggles, *, now: float, answering: int | None = None) -> list[Effect]:
        """A person's auto toggles as they now stand. Before the match has seats (or for someone not seated)
        they are only kept for later; a decision they answer is played at the next tick."""
        seat = self.seating.seat_of_user(user_id) if self.match is not None else None
        if seat is None:
            return []
        if self.toggles.get(seat, OFF) == toggles:
            return []
        self.toggles[seat] = toggles
        self.version += 1
        shown = [] if answering == seat else [fx.ShowHand(seat, self.version)]
        return [*shown, fx.WakeAt(now)]

    def toggle_answer(self, seat: int) -> Action | None:
        """What ``seat``'s toggles play at the decision it owes now, if anything (not while 代打 plays it)."""
        game = self.game
        if game is None or seat not in self.toggles or self.robot(seat):
            return None
        return answer(game, seat, self.toggles[seat])

    def touch(self) -> int:
        """A new version for a message the host (re)posts on its own (/mahjong table, a probe)."""
        self.version += 1
        return self.version

    # ------------------------------------------------------------------ the clock

    def tick(self, *, now: float, coming: frozenset[int] = frozenset()) -> list[Effect]:
        """The next automatic thing, if it is due. ``coming`` are the seats whose prompt the host still has
        on its way to Discord: a deadline waits for them (the clock starts when the person can act)."""
        game, match = self.game, self.match
        if self.closed or match is None:
            return []
        if self.blocked is not None:
            if now < self.next_probe_at:
                return [fx.WakeAt(self.next_probe_at)]
            self.next_probe_at = now + self.timing.permission_probe
            if game is None:  # no hand to post (restored between hands): try again at the next probe
                return [fx.WakeAt(self.next_probe_at)]
            return [fx.Probe()]
        if game is None:  # restored between two hands
            return self._deal(now) if not match.is_over else []
        if game.is_over:
            return self._between_hands(now)
        pending = game.to_act()
        robots = [s for s in pending if self.robot(s)]
        if robots:
            seat = robots[0]
            if self.seating.by_seat[seat].is_ai and game.phase is Phase.TURN and now < self.ai_ready_at:
                return [fx.WakeAt(self.ai_ready_at)]
            action = self._robot_action(seat)
            out = self._apply(action, now)
            if action.kind in (Kind.DISCARD, Kind.READY):
                out += self._ai_declares(seat, now)
            return [*out, fx.WakeAt(now)]
        for seat in pending:  # a person's auto toggle answers their decision at once (no clock)
            chosen = self.toggle_answer(seat)
            if chosen is not None:
                return [*self._apply(chosen, now), fx.WakeAt(now)]
        if self.deadline is not None:
            if self.clicks_lost_at is not None:
                return []  # no click can reach the table: its clock stands still until ClicksBack
            if now < self.deadline:
                return [fx.WakeAt(self.deadline)]
            if self._prompt_on_its_way(coming, now):
                return [fx.WakeAt(now + self.timing.delivery_poll)]
            late = next((s for s in pending if self.seat_deadlines.get(s, self.deadline) <= now), pending[0])
            return [*self._apply(Action(late, Kind.TIMEOUT), now), fx.WakeAt(now)]
        return []

    def _between_hands(self, now: float) -> list[Effect]:
        assert self.match is not None and self.game is not None
        if self.result is None:
            return [*self._finish_hand(now), fx.WakeAt(now)]
        if self.match.is_over:
            return self._end_match()
        if self.paused_until is not None:  # everyone away: wait for a Resume, or end the table
            if now < self.paused_until:
                return [fx.WakeAt(self.paused_until)]
            self.paused_until = None
            return [fx.PauseEnded(), *self._end_match()]
        if now < self.next_hand_at:
            return [fx.WakeAt(self.next_hand_at)]
        if self.timing.hands is not None and len(self.match.history) >= self.timing.hands:
            return []  # played its hands: idle (Timing.hands)
        return [*self._deal(now), fx.WakeAt(now)]

    def _robot_action(self, seat: int) -> Action:
        game = self.game
        assert game is not None
        policy = self.policies.get(seat)
        if policy is None or seat in game.auto_seats():  # 代打 (it keeps the hand at 換牌)
            return game.auto_action(seat)
        return policy.choose(game.view(seat), game.legal_actions(seat))

    def _ai_declares(self, seat: int, now: float) -> list[Effect]:
        """A strong AI may declare 眼牌 / Miji after its discard, when the expected 台 pay for the risk."""
        game = self.game
        declare = getattr(self.policies.get(seat), "declare", None)
        if game is None or game.is_over or declare is None or seat in game.auto_seats():
            return []
        offered = game.declarations(seat)
        chosen = declare(game.view(seat), offered) if offered else None
        return self._apply(chosen, now) if chosen is not None else []

    def _finish_hand(self, now: float) -> list[Effect]:
        """Score and settle; the score sheet is posted, and a table everyone left alone pauses."""
        match, game = self.match, self.game
        assert match is not None and game is not None
        result = self.result = match.finish_hand(game)
        self.version += 1
        self.deadline = None
        out: list[Effect] = [fx.StoreResult(game.hand_number, result), *self._refresh(actor=None)]
        self.next_hand_at = now + self.timing.hand_pause
        table = self.view(PUBLIC)  # the hand as it ended, every hand revealed (table/visibility.py)
        assert table is not None
        names = tuple(self.seating.names())
        out.append(fx.ShowScore(game.hand_number, result, names, table, self.state.settings.options.house_rules))
        if not match.is_over and self._everyone_away(game):
            self.paused_until = now + self.timing.pause_limit
            out.append(fx.Paused(self.paused_until))
        return out

    def _everyone_away(self, game: Game) -> bool:
        """Every person at the table was auto-played (away, left, DMs closed) through this whole hand."""
        people = self.seating.people()
        return bool(people) and people <= self.away_at_start and people <= set(game.auto_seats())

    def _unpause(self) -> list[Effect]:
        self.paused_until = None
        self.next_hand_at = 0.0
        return [fx.Unpaused()]

    def _end_match(self) -> list[Effect]:
        """The match is over: stored, and every message says so with no live buttons."""
        assert self.match is not None
        self.state.phase = TablePhase.OVER
        self.closed = True
        self.deadline = None
        self.paused_until = None
        self.version += 1
        stored = fx.StoreMatchOver(tuple(self.match.scores), self.leaver)
        return [stored, *self._refresh(actor=None), self._match_over()]

    def _match_over(self) -> fx.MatchOver:
        """The standings, the summary and the revealed key: all the channel is told of the match."""
        match = self.match
        assert match is not None
        settings = self.state.settings
        return fx.MatchOver(
            key=self._revealed_key(),
            names=tuple(self.seating.names()),
            standings=tuple(match.standings()),
            scores=tuple(match.scores),
            summary=match_summary(match),
            hands=len(match.history),
            unit=get_rules(settings.rules).unit,
            settings=settings,
            rematch=self.state.rematch,
        )

    def _revealed_key(self) -> str | None:
        """The key of a match that is over, to show beside its standings (None: dealt from a seed, or
        dealt by position: a duplicate tournament table's key is its whole round's, which other tables may
        still be playing; the tournament shows it once ``Tournament.key_may_show``, table/tournament.py)."""
        assert self.match is not None and self.sight(PUBLIC).secrets
        return None if self.match.key is None or self.match.duplicate else self.match.key.hex()

    def close(self) -> list[Effect]:
        """The host closed the table, or the bot shuts down: nothing more happens here."""
        self.closed = True
        return []
