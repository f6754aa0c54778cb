"""What each viewer of a table is shown now, as plain values: a seat's DM (``HandScreen``), the channel's table
(``TableScreen``), the lobby message (``LobbyScreen``), a spectator (``SpectatorScreen``). The host asks
:meth:`TableSession.screen` for one when it builds a message (a pure, on-demand query: a burst of moves is
still one edit) and turns it into words, buttons and a picture; it reads nothing else of the table.

The decisions "which screen does this seat see", "are its hints computed", "are its waits shown" and "which
hands may this spectator see face up" are made here, from the one visibility rule (table/visibility.py); the
views only translate. No locale and no Discord here: the words are the host's.

    >>> from table.lobby import TableSettings, TableState
    >>> from table.timing import Timing
    >>> from table.session import TableSession
    >>> session = TableSession(TableState(1, guild_id=9, channel_id=5, host_id=10, settings=TableSettings()), Timing())
    >>> session.screen(LOBBY).phase.value, session.screen(TABLE).view is None
    ('lobby', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, Final

from engine.actions import Action, Kind
from engine.events import Event, EventKind, Phase
from engine.game import Game
from engine.hints import ReadyDiscard, Waits, ready_discards
from engine.match import Match
from engine.prompt import Ask, Prompt
from engine.rules import TableOptions
from engine.rulesets import get as rule_set
from engine.view import GameView, HandResult

from .lobby import Seat, TableError, TablePhase, TableSettings, TableState
from .phase import Phase as TablePlace
from .toggles import OFF, Toggles
from .visibility import DELAYED, PUBLIC, Audience, Viewer, viewer_of
from .visibility import spectator as spectator_viewer

if TYPE_CHECKING:
    from .session import Note, TableSession

# the engine's decision values the views read, named here so that no host imports the engine's game modules
__all__ = [
    "DELAYED", "LOBBY", "PUBLIC", "SEATS", "SPECTATOR", "TABLE", "Action", "Ask", "Board", "HandScreen", "Kind", "LobbyScreen",
    "Move", "Prompt", "ReadyDiscard", "RevealedHand", "SeatsScreen", "Showing", "SpectatorScreen", "TableScreen", "Waits", "Who",
]


class Board(Enum):
    """The screens that are no seat's: asked by name (a seat's DM is asked by its seat number)."""

    TABLE = "table"  # the channel's table message: the public view
    LOBBY = "lobby"  # the lobby message: seats and settings, kept after the lobby closes
    SPECTATOR = "spectator"  # a spectator, as the table's spectator setting makes them (watch)
    SEATS = "seats"  # who sits where, where the table stands, and what a click may do now


TABLE: Final = Board.TABLE
LOBBY: Final = Board.LOBBY
SPECTATOR: Final = Board.SPECTATOR
SEATS: Final = Board.SEATS
# who asks: a seat (its DM), a board, or a viewer as the visibility rule names them (seat, public, delayed)
Who = int | Board | Viewer


class Showing(Enum):
    """Which screen a seat's DM shows, in the order they win: a match over says only that, and so on."""

    MATCH_OVER = "match_over"
    HAND_OVER = "hand_over"
    AUTO = "auto"  # 代打 plays the seat: a take-back button
    EXCHANGE = "exchange"  # 換牌: the seat picks its tiles (not from a Prompt: its choices are hundreds)
    PROMPT = "prompt"  # the seat owes a decision: its buttons
    WAIT = "wait"  # another seat's decision

    @property
    def playing(self) -> bool:
        """The seat plays the hand itself now: where it stands (waits, 過水) and 眼牌 are shown."""
        return self in (Showing.EXCHANGE, Showing.PROMPT, Showing.WAIT)


@dataclass(frozen=True, slots=True)
class Move:
    """Another seat's public move, as a DM's feed tells it: its place among the hand's events (a feed starts at
    an index), the event, and for a discard whether it was the tile just drawn (摸切), which everyone sees though
    the draw itself is private."""

    index: int
    event: Event
    tsumogiri: bool = False


@dataclass(frozen=True, slots=True)
class HandScreen:
    """A seat's DM: its own view and what it is asked, with everything the words under the picture say."""

    table_id: int
    channel_id: int
    rules: str
    unit: str  # what the rule set counts a hand in (tai, fan, ...): what a 聽 costs is said in it
    seat: int
    seats: tuple[Seat, ...]  # who sits where (names as chosen, the language each last used)
    showing: Showing
    view: GameView  # the seat's own, as the visibility rule lets it see now (no waits without hints)
    hand_number: int
    hand_over: bool  # the hand has ended (also at MATCH_OVER, unless the table ended mid-hand)
    decision: int  # the decision point's id its buttons carry (the stale-click check)
    deadline: float | None
    prompt: Prompt | None = None  # at PROMPT and WAIT
    hints: bool = True  # the table names waits and the discards that keep the hand ready
    ready_discards: tuple[ReadyDiscard, ...] = ()  # only where the hints are on, on the seat's own discard
    declarations: tuple[Action, ...] = ()  # 眼牌 / Miji the seat may declare now (only while it plays)
    take_back: bool = False  # 代打 plays the seat and a hand is still to come: "take back control"
    moves: tuple[Move, ...] = ()  # the others' public moves this hand: the DM's feed
    event_count: int = 0  # the hand's events so far: where the next feed starts
    exchanged: tuple[int, ...] | None = None  # 換牌: the tiles that came back (() kept), until the seat's next move
    result: HandResult | None = None  # the hand's, once it is over and scored
    # each seat's river as it was discarded, oldest first: (tile, claimed) with the tiles another seat took
    # kept in their place (the view's rivers drop them); public, like the rivers themselves
    rivers: tuple[tuple[tuple[int, bool], ...], ...] = ()
    # the time bank (table/bank.py): the decision's base seconds and what is left of this seat's bank, in the
    # table's own seconds (None: the table has no bank); ``deadline`` is this seat's own (its base, then its bank)
    base_seconds: float | None = None
    bank_left: float | None = None
    toggles: Toggles = OFF  # the seat's auto toggles (table/toggles.py), shown and switched on the DM

    @property
    def names(self) -> list[str]:
        return [who.name for who in self.seats]

    @property
    def locale(self) -> str:
        """The language the seat's person last used (a stored fact of the seat, not a translation)."""
        return self.seats[self.seat].locale


@dataclass(frozen=True, slots=True)
class TableScreen:
    """The channel's table message: the public view of the hand (None before the first deal)."""

    table_id: int
    names: tuple[str, ...]
    view: GameView | None
    over: bool  # the match has ended (played out, or the table ended): no buttons, "over"
    deadline: float | None
    notes: tuple[Note, ...]
    scores: tuple[int, ...]
    rules: str
    options: TableOptions
    result: HandResult | None = None  # the settled hand's, while the hand is over (the picture draws it)
    theme: str = "felt"  # the table's theme, the host's choice (TableSettings.theme): its picture's colours

    @property
    def hand_number(self) -> int:
        assert self.view is not None
        return self.view.hand_number


@dataclass(frozen=True, slots=True)
class LobbyScreen:
    """The lobby message: who sits, the settings, whether it is open, playing or closed."""

    table_id: int
    kind: str
    phase: TablePhase
    settings: TableSettings
    seats: tuple[Seat, ...]
    locked: bool


@dataclass(frozen=True, slots=True)
class RevealedHand:
    """A finished hand a spectator may see face up: how it was dealt (``Game.header``), the moves that played
    it to its end (not the 代打 switches stored after it), and its dealer, from whose seat it is replayed."""

    number: int
    dealer: int
    header: Mapping[str, Any]
    moves: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SpectatorScreen:
    """What a spectator of the table may see now. ``viewer`` is the one the table's spectator setting makes
    them (None: spectators are off); ``hands`` the finished hands they may see face up, in order."""

    table_id: int
    mode: str  # public | delayed | off
    viewer: Viewer | None
    watchable: bool  # a match is being played here: there is something to watch
    ended: bool  # the match has ended (played out, or the table ended)
    closed: bool  # nothing more happens at this session (also a shutdown, a takeover: the match goes on)
    names: tuple[str, ...]
    view: GameView | None = None  # the hand in play as the viewer may see it (a delayed spectator: nothing)
    hands: tuple[RevealedHand, ...] = ()

    @property
    def revealable(self) -> int:
        """How many hands (the match's first n) may be shown face up."""
        return len(self.hands)


@dataclass(frozen=True, slots=True)
class SeatsScreen:
    """Who sits where and where the table stands, for the host's checks (no picture): a click's seat, whether a
    prompt button is still live, whether a person counts as seated here. The refusals are decided here, once;
    the session checks its inputs with the same value."""

    table_id: int
    version: int  # the session's version now: what a message built now shows
    phase: TablePlace
    lobby_seats: tuple[Seat, ...]  # the lobby's seats, in joining order
    seats: tuple[Seat, ...]  # by seat, once the match drew them (empty before)
    left: frozenset[int]  # people who left the match in play: their seat is auto-played, they are free
    playing: bool  # a hand is at a table in play (not closed): clicks may be played
    hand_number: int = 0
    decision: int = 0
    hand_over: bool = False
    to_act: tuple[int, ...] = ()
    auto: frozenset[int] = frozenset()  # the seats auto-played (代打)

    def button_to_press(self, seat: int) -> tuple[int, int] | None:
        """What the person at ``seat`` has to press on their DM while the hand is played, as (hand, decision
        point): a decision, or Take back while the table plays for them (代打: decision -1, the same button
        the whole hand); None between hands and for AI seats. An edit of that DM bringing it is a prompt,
        not a picture; one to a DM that shows it already is not (cogs/mahjong/dms.py)."""
        if not self.playing or self.hand_over or seat >= len(self.seats) or self.seats[seat].is_ai:
            return None
        if seat in self.auto:
            return (self.hand_number, -1)
        return (self.hand_number, self.decision) if seat in self.to_act else None

    def seat_of_user(self, user_id: int) -> int | None:
        """``user_id``'s seat in the match (None: not seated, or no match drawn yet)."""
        return next((n for n, who in enumerate(self.seats) if who.user_id == user_id), None)

    def seated(self, user_id: int) -> bool:
        """Seated here, in the lobby or the match, and not one who left it."""
        if user_id in self.left:
            return False
        return any(who.user_id == user_id for who in self.lobby_seats) or self.seat_of_user(user_id) is not None

    def viewer(self, user_id: int) -> Viewer:
        """The viewer a person is here: their seat once the match has one for them, else the public."""
        return viewer_of(user_id, [who.user_id for who in self.seats])

    def auto_played(self, seat: int) -> bool:
        return seat in self.auto

    def seat_for(self, user_id: int) -> int:
        """The clicker's seat at a table in play, or the refusal they should read."""
        if not self.playing:
            raise TableError("err.table_over")
        seat = self.seat_of_user(user_id)
        if seat is None:
            raise TableError("err.not_seated")
        return seat

    def check(self, user_id: int, seat: int, hand: int, move: int) -> int:
        """A prompt button's fields against the live decision point; the seat, or why not."""
        if not self.playing:
            raise TableError("err.table_over")
        if self.phase.blocked:
            raise TableError("err.table_blocked")
        if not 0 <= seat < len(self.seats) or self.seats[seat].user_id != user_id:
            raise TableError("err.not_your_seat")
        if hand != self.hand_number or move != self.decision or self.hand_over:
            raise TableError("err.stale")
        if seat not in self.to_act:
            raise TableError("err.not_your_turn")
        return seat


# ---------------------------------------------------------------------- built from a session


def hand_screen(session: TableSession, seat: int) -> HandScreen:
    """Seat ``seat``'s DM now (the hand in play, or the one just over)."""
    game = session.game
    assert game is not None, "no hand has been dealt"
    settings = session.state.settings
    view = session.view(Viewer.at(seat))
    assert view is not None
    auto = seat in game.auto_seats()
    prompt: Prompt | None = None
    hints: tuple[ReadyDiscard, ...] = ()
    take_back = False
    if session.match_ended():
        showing = Showing.MATCH_OVER
    elif game.is_over:
        showing = Showing.HAND_OVER
        take_back = auto and not session.no_hand_follows()  # between hands: the next hand starts in control
    elif auto:
        showing, take_back = Showing.AUTO, True
    elif view.phase is Phase.EXCHANGE and seat in game.to_act():
        showing = Showing.EXCHANGE
    else:
        prompt = game.prompt(seat)
        showing = Showing.PROMPT if prompt.legal else Showing.WAIT
        if settings.hints and prompt.legal and prompt.kind is Ask.DISCARD and not prompt.ready:
            hints = ready_discards(game, seat)
    declarations: tuple[Action, ...] = ()
    if showing.playing:
        declarations = prompt.declarations if prompt is not None else tuple(game.declarations(seat))
    scale = session.timing.timer_scale or 1.0  # the table's own seconds, as its options say them
    return HandScreen(
        table_id=session.table_id,
        channel_id=session.state.channel_id,
        rules=settings.rules,
        unit=rule_set(settings.rules).unit,
        seat=seat,
        seats=tuple(session.seating.by_seat),
        showing=showing,
        view=view,
        hand_number=game.hand_number,
        hand_over=game.is_over,
        decision=session.decision,
        deadline=session.seat_deadlines.get(seat, session.deadline) if session.deadline is not None else None,
        prompt=prompt,
        hints=settings.hints,
        ready_discards=hints,
        declarations=declarations,
        take_back=take_back,
        moves=session.reads.moves(game.events, seat),
        event_count=len(game.events),
        exchanged=session.reads.exchanged(game.events, seat),
        result=session.result if game.is_over else None,
        rivers=session.reads.rivers(game.events, view),
        base_seconds=session.seconds() / scale if not game.is_over else None,
        bank_left=session.bank_left(seat) / scale if settings.bank else None,
        toggles=session.toggles.get(seat, OFF),
    )


def table_screen(session: TableSession) -> TableScreen:
    game, match = session.game, session.match
    settings = session.state.settings
    return TableScreen(
        table_id=session.table_id,
        names=tuple(session.seating.names()),
        view=session.view(PUBLIC),
        over=session.match_ended(),
        deadline=session.deadline,
        notes=tuple(session.notes),
        scores=tuple(match.scores) if match is not None else (0, 0, 0, 0),
        rules=settings.rules,
        options=settings.options,
        result=session.result if game is not None and game.is_over else None,
        theme=settings.theme,
    )


def lobby_screen(state: TableState) -> LobbyScreen:
    return LobbyScreen(
        table_id=state.table_id,
        kind=state.kind,
        phase=state.phase,
        settings=state.settings,
        seats=tuple(state.seats),
        locked=state.locked,
    )


def spectator_screen(session: TableSession, viewer: Viewer | None) -> SpectatorScreen:
    """``viewer`` None: the table's own spectator setting decides who a spectator is."""
    mode = session.state.settings.spectators
    if viewer is None:
        viewer = spectator_viewer(mode)
    match = session.match
    seen = session.sight(viewer) if viewer is not None else None
    return SpectatorScreen(
        table_id=session.table_id,
        mode=mode,
        viewer=viewer,
        watchable=session.state.phase is TablePhase.PLAYING and match is not None and not session.closed,
        ended=session.match_ended(),
        closed=session.closed,
        names=tuple(session.seating.names()),
        view=session.view(viewer) if viewer is not None and viewer.audience is not Audience.SEAT else None,
        hands=session.revealed_hands() if seen is not None and seen.finished_hands else (),
    )


def seats_screen(session: TableSession) -> SeatsScreen:
    game = session.game
    playing = game is not None and not session.closed and session.state.phase is TablePhase.PLAYING
    facts = SeatsScreen(
        table_id=session.table_id,
        version=session.version,
        phase=session.phase,
        lobby_seats=tuple(session.state.seats),
        seats=tuple(session.seating.by_seat),
        left=frozenset(session.left),
        playing=playing,
    )
    if game is None:
        return facts
    return replace(
        facts, hand_number=game.hand_number, decision=session.decision, hand_over=game.is_over,
        to_act=tuple(game.to_act()), auto=frozenset(game.auto_seats()),
    )


def screen_of(
    session: TableSession, who: Who
) -> HandScreen | TableScreen | LobbyScreen | SpectatorScreen | SeatsScreen:
    if isinstance(who, int):
        return hand_screen(session, who)
    if who is TABLE:
        return table_screen(session)
    if who is LOBBY:
        return lobby_screen(session.state)
    if who is SPECTATOR:
        return spectator_screen(session, None)
    if who is SEATS:
        return seats_screen(session)
    assert isinstance(who, Viewer)
    if who.audience is Audience.SEAT:
        assert who.seat is not None
        return hand_screen(session, who.seat)
    if who == DELAYED:
        return spectator_screen(session, DELAYED)
    return table_screen(session)


# ---------------------------------------------------------------------- a seat's feed (what it may know of the others)

_FED = frozenset({
    EventKind.DISCARD, EventKind.CHI, EventKind.PON, EventKind.KONG, EventKind.ANKONG, EventKind.ADDKONG,
    EventKind.READY, EventKind.EYE,
})
_MELDED = (EventKind.CHI, EventKind.PON, EventKind.KONG, EventKind.ANKONG, EventKind.ADDKONG)
_OWN_MOVES = frozenset({*_MELDED, EventKind.DISCARD})
_CLAIMS = (EventKind.CHI, EventKind.PON, EventKind.KONG)  # the melds that take the discard on the table


def feed_moves(events: Sequence[Event], viewer: int) -> tuple[Move, ...]:
    """The others' public moves in ``events``, each discard with its 摸切 flag. The draws are walked from the
    hand's first event so the flag is right from any start; a concealed kong keeps its tiles hidden."""
    return HandReads().moves(events, viewer)


def rivers_as_discarded(events: Sequence[Event], view: GameView) -> tuple[tuple[tuple[int, bool], ...], ...]:
    """Each seat's discards in order with whether another seat took it (吃, 碰, 槓, or a win on it), so a
    picture can show where a claimed tile lay. Claims are read from the events; what they do not say (a win
    on a discard) is what the view's river, which drops taken tiles, no longer holds.

        >>> from engine.events import DISCARD_EVENTS
        >>> from engine.rulesets import DEFAULT_RULES
        >>> from engine.view import SeatPublic
        >>> seats = tuple(SeatPublic(s, s, (), (), (4,) if s == 0 else (), 13) for s in range(4))
        >>> view = GameView(0, DEFAULT_RULES, 0, 1, 0, 0, 50, seats, 1, Phase.TURN)
        >>> taken = [DISCARD_EVENTS[0][3], Event(EventKind.PON, 2, 3), DISCARD_EVENTS[0][4]]
        >>> rivers_as_discarded(taken, view)[0]
        ((3, True), (4, False))
    """
    return HandReads().rivers(events, view)


def exchanged_tiles(events: Sequence[Event], viewer: int) -> tuple[int, ...] | None:
    """What 換牌 brought ``viewer``, from the exchange until the viewer's own first move after it: the tiles that
    came back from the wall (the engine's private DRAW "換牌" event), () when the hand was kept; None before the
    exchange, after that first move, and at a table without 換牌."""
    return HandReads().exchanged(events, viewer)


class HandReads:
    """``feed_moves``, ``rivers_as_discarded`` and ``exchanged_tiles`` of one hand's event list as it grows,
    each event walked once: a session keeps one, so a screen asked after every move costs the new events, not
    the hand's whole history (issue 43: the web table builds every open seat's screen after each move).
    Another list, or one that is not the same list grown (a new hand, a restored game), starts the walk afresh.

        >>> from engine.events import DISCARD_EVENTS, DRAW_EVENTS
        >>> reads, events = HandReads(), [DRAW_EVENTS[1][7], DISCARD_EVENTS[1][7]]
        >>> [(m.index, m.tsumogiri) for m in reads.moves(events, 0)]
        [(1, True)]
        >>> events += [DRAW_EVENTS[2][3], DISCARD_EVENTS[2][5]]
        >>> [(m.index, m.tsumogiri) for m in reads.moves(events, 0)], reads.moves(events, 1)[0].event.seat
        ([(1, True), (3, False)], 2)
    """

    __slots__ = ("_events", "_last", "_read", "_drawn", "_fed", "_moves", "_rivers", "_taken", "_came", "_done", "_moved",
                 "_rivers_key", "_rivers_shown")

    def __init__(self) -> None:
        self._events: Sequence[Event] | None = None
        self._read = 0

    def _start(self, events: Sequence[Event]) -> None:
        self._events = events
        self._last: Event | None = None
        self._read = 0
        self._drawn: dict[int, int | None] = {}  # each seat's tile just drawn (摸切), until it plays
        self._fed: list[Move] = []  # every seat's public moves (a viewer's feed leaves out its own)
        self._moves: dict[int, list[Move]] = {}  # the feeds asked for so far, kept up as events come
        self._rivers: list[list[list[Any]]] = [[] for _ in range(4)]  # [tile, claimed] as discarded
        self._taken: list[Any] | None = None  # the last discard, until the next one or a claim of it
        self._rivers_key: tuple[int, list[Any]] | None = None  # what the last rivers were read at
        self._rivers_shown: tuple[tuple[tuple[int, bool], ...], ...] = ()
        self._came: dict[int, tuple[int, ...]] = {}  # 換牌: what came back to each seat
        self._done = False  # 換牌 is over
        self._moved: set[int] = set()  # seats that have played since 換牌

    def _catch_up(self, events: Sequence[Event]) -> None:
        read = self._read
        if events is not self._events or len(events) < read or (read and events[read - 1] is not self._last):
            self._start(events)
            read = 0
        for i in range(read, len(events)):
            self._walk(i, events[i])
        if len(events) > read:
            self._read = len(events)
            self._last = events[-1]

    def _walk(self, i: int, event: Event) -> None:
        kind, seat = event.kind, event.seat
        if kind is EventKind.DRAW and event.detail == "換牌" and seat is not None:
            self._came[seat] = event.tiles
        elif kind is EventKind.EXCHANGED:
            self._done = True
        elif self._done and seat is not None and kind in _OWN_MOVES:
            self._moved.add(seat)
        if kind is EventKind.DISCARD and seat is not None and event.tile is not None:
            self._taken = [event.tile, False]
            self._rivers[seat].append(self._taken)
        elif kind in _CLAIMS and self._taken is not None:
            self._taken[1], self._taken = True, None
        if seat is None:
            return
        tsumogiri = False
        if kind is EventKind.DRAW:
            self._drawn[seat] = event.tile
        elif kind is EventKind.DISCARD:
            drawn = self._drawn.get(seat)
            tsumogiri = drawn is not None and drawn == event.tile
            self._drawn[seat] = None
        elif kind in _MELDED:
            self._drawn[seat] = None
        if kind in _FED:
            move = Move(i, Event(EventKind.ANKONG, seat) if kind is EventKind.ANKONG else event, tsumogiri)
            self._fed.append(move)
            for viewer, feed in self._moves.items():
                if viewer != seat:
                    feed.append(move)

    def moves(self, events: Sequence[Event], viewer: int) -> tuple[Move, ...]:
        """``feed_moves(events, viewer)``."""
        self._catch_up(events)
        feed = self._moves.get(viewer)
        if feed is None:
            feed = self._moves[viewer] = [m for m in self._fed if m.event.seat != viewer]
        return tuple(feed)

    def rivers(self, events: Sequence[Event], view: GameView) -> tuple[tuple[tuple[int, bool], ...], ...]:
        """``rivers_as_discarded(events, view)``: public, so every seat's screen of one moment shares it."""
        self._catch_up(events)
        key = (self._read, [seat.discards for seat in view.seats])
        if key == self._rivers_key:
            return self._rivers_shown
        made = self._rivers
        if len(made) < len(view.seats):
            made += [[] for _ in range(len(view.seats) - len(made))]
        if any(made[n] for n in range(len(view.seats), len(made))):
            raise ValueError("a discard by a seat the view does not have")
        out = []
        for seat, river in zip(view.seats, made, strict=False):
            left = iter(seat.discards)
            want = next(left, None)
            shown = []
            for tile, claimed in river:
                if not claimed:
                    if tile == want:
                        want = next(left, None)
                    else:
                        claimed = True  # not on the table any more: taken without a claim event (a win on it)
                shown.append((tile, claimed))
            out.append(tuple(shown))
        self._rivers_key, self._rivers_shown = key, tuple(out)
        return self._rivers_shown

    def exchanged(self, events: Sequence[Event], viewer: int) -> tuple[int, ...] | None:
        """``exchanged_tiles(events, viewer)``."""
        self._catch_up(events)
        if not self._done or viewer in self._moved:
            return None
        return self._came.get(viewer) or ()


# ---------------------------------------------------------------------- finished hands, face up


def played_moves(dealt: Game, log: Sequence[str]) -> tuple[str, ...]:
    """The moves of ``log`` that played the hand ``dealt`` (freshly dealt) to its end. A 代打 switch made
    between two hands (a take-back, a leave) is stored at the end of the settled hand's log
    (Match.between_hands) and decides the next hand, not this one: it is not part of the hand's replay."""
    game = Game.replay(dealt.header(), [])
    moves: list[str] = []
    for text in log:
        if game.is_over:
            break
        game.apply(Action.from_str(text))
        moves.append(text)
    return tuple(moves)


def revealed_hand(match: Match, number: int, dealt: Mapping[str, Any] | None = None) -> RevealedHand:
    """Hand ``number`` of ``match`` (already over), ready to replay face up. ``dealt``: its deal's header
    when known (the session keeps each one it dealt); else the match is replayed up to that deal."""
    record = match.history[number - 1]
    if dealt is None:
        _, game = Match.replay(match.header(), [r.log for r in match.history[: number - 1]] + [[]])
        if game is None:
            raise ValueError(f"hand {number} is not a played hand")
        dealt = game.header()
    fresh = Game.replay(dealt, [])
    return RevealedHand(number, record.dealer, dealt, played_moves(fresh, record.log))
