"""What a table session asks its host to do. Values only: the host matches on the type and carries each
out (a message edit, a post, a journal write, a timer); the session never waits for any of it.

Every effect carries what the host needs to carry it out (h11's events carry their content): the host
never reads the session back to learn which seats, which row, which standings.

Showing is by version: ``ShowTable``/``ShowHand`` ask for ``version`` (the session's version as the
change was made) to reach that message, so ten moves in a burst cost one edit. Stores are in the order
given, which is the order the moves were made; each carries the stored values themselves
(``table/records.py`` builds the table row).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.house_rules import HouseRules
from engine.summary import SeatSummary
from engine.view import GameView, HandResult

from .lobby import Seat, TableSettings

# ------------------------------------------------------------------ showing


@dataclass(frozen=True, slots=True)
class ShowLobby:
    """The lobby message shows the seats and settings as of ``version``."""

    version: int


@dataclass(frozen=True, slots=True)
class ShowTable:
    """The channel's table message shows ``version`` (or a later one)."""

    version: int


@dataclass(frozen=True, slots=True)
class ShowHand:
    """``seat``'s hand message (their DM) shows ``version`` (or a later one)."""

    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class NewHand:
    """Hand ``number`` was dealt: the last hand's messages are done (they never show the new one)."""

    number: int


@dataclass(frozen=True, slots=True)
class Deal:
    """Post hand ``number``'s table message and send every person among ``seats`` (in seat order) their
    hand; then feed ``Dealt``."""

    number: int
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class SeatDraw:
    """抓位 as it fell: the names in seat order, the first dealer (East), and the dealer's dice (None
    where the rule set seats the host as dealer: taiwan13)."""

    names: tuple[str, ...]
    dealer: int
    dice: tuple[int, ...] | None

    def wind(self, seat: int) -> int:
        """``seat``'s wind in the first hand (0 is East, the dealer's)."""
        return (seat - self.dealer) % 4


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The seat draw and the dealer's dice happened: tell the channel, with the deals' ``commitment``
    (the SHA-256 of the match key: engine.fairness; None for a match dealt from a plain seed)."""

    draw: SeatDraw
    commitment: str | None = None


@dataclass(frozen=True, slots=True)
class Notice:
    """A line for the channel in the table's language; ``name`` (``seat``'s, if any) fills ``{name}``."""

    key: str
    seat: int | None = None
    values: dict[str, object] = field(default_factory=dict)
    name: str | None = None


@dataclass(frozen=True, slots=True)
class ShowScore:
    """Hand ``number`` is settled: post its score sheet (the hand as it ended, every hand revealed:
    ``table``; the seats' ``names``; the table's ``house_rules``), then let the hand's last edits land."""

    number: int
    result: HandResult
    names: tuple[str, ...]
    table: GameView
    house_rules: HouseRules


@dataclass(frozen=True, slots=True)
class Paused:
    """Everyone was away for a whole hand: post the pause with its Resume button (ends at ``until``)."""

    until: float


@dataclass(frozen=True, slots=True)
class Unpaused:
    """Someone came back: the pause message (the host's own) says so and loses its button."""


@dataclass(frozen=True, slots=True)
class PauseEnded:
    """Nobody came back in time: the pause message (the host's own) says the table ended."""


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match ended (all rounds, a leave that ends it, a pause that ran out): post the standings and the
    summary with the revealed match ``key`` (hex; None for a match dealt from a plain seed), close the
    hand's messages, store the last writes and forget the table. ``standings`` are (seat, score), best
    first; ``summary`` is engine.summary's per seat over ``hands`` hands, in points of ``unit``;
    ``settings`` give the ledger its stakes; ``rematch``: the table may be played again (not a 系統桌)."""

    key: str | None
    names: tuple[str, ...]
    standings: tuple[tuple[int, int], ...]
    scores: tuple[int, ...]
    summary: tuple[SeatSummary, ...]
    hands: int
    unit: str
    settings: TableSettings
    rematch: bool


@dataclass(frozen=True, slots=True)
class Blocked:
    """The table's channel refused it ``what`` (a permission): nothing moves until a post goes through
    again; tell the host."""

    what: str


@dataclass(frozen=True, slots=True)
class Probe:
    """The table lost a channel permission: try to post its hand's table again (answer with
    ``ChannelOk`` or ``ChannelStillRefused``). Only asked while there is a hand to show."""


# ------------------------------------------------------------------ storing


@dataclass(frozen=True, slots=True)
class StoreSeats:
    """The lobby's seats changed: these, in lobby order."""

    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class StorePhase:
    """The table's phase changed outside a match's course (closed by its host): ``phase``'s value."""

    phase: str


@dataclass(frozen=True, slots=True)
class StoreOptions:
    """The table's settings changed (or a match begins with them, or a leaver left or came back): the
    table row's options as stored (``table/records.py``)."""

    row: dict[str, object]


@dataclass(frozen=True, slots=True)
class StoreMatch:
    """A match began: its seats in engine order and its header (its key, rules, options: the table's
    secret until the match is over)."""

    header: dict[str, object]
    seats: tuple[Seat, ...]


@dataclass(frozen=True, slots=True)
class StoreHand:
    number: int
    header: dict[str, object]


@dataclass(frozen=True, slots=True)
class StoreMove:
    """Move ``index`` of hand ``number`` (an engine notation string), with the deadline it leaves."""

    number: int
    index: int
    move: str
    deadline: float | None


@dataclass(frozen=True, slots=True)
class StoreDeadline:
    number: int
    deadline: float | None


@dataclass(frozen=True, slots=True)
class StoreResult:
    number: int
    result: HandResult


@dataclass(frozen=True, slots=True)
class StoreMatchOver:
    scores: tuple[int, ...]
    leaver: int | None


# ------------------------------------------------------------------ the clock


@dataclass(frozen=True, slots=True)
class Reseated:
    """Another person sits at ``seat`` mid-match (a tournament's replace): the hand's DM of the one who sat
    there stops at once (it must never show the newcomer's view), and the newcomer gets their own."""

    seat: int
    who: Seat


@dataclass(frozen=True, slots=True)
class Version:
    """The version a message the host posts on its own shows (the answer to ``Reposting``)."""

    version: int


@dataclass(frozen=True, slots=True)
class WakeAt:
    """Call ``tick`` again at ``at`` (or sooner, after anything else changed the table)."""

    at: float


Effect = (
    ShowLobby
    | ShowTable
    | ShowHand
    | NewHand
    | Deal
    | MatchStarted
    | Notice
    | ShowScore
    | Paused
    | Unpaused
    | PauseEnded
    | MatchOver
    | Blocked
    | Probe
    | StoreSeats
    | StoreOptions
    | StorePhase
    | StoreMatch
    | StoreHand
    | StoreMove
    | StoreDeadline
    | StoreResult
    | StoreMatchOver
    | WakeAt
    | Version
    | Reseated
)
