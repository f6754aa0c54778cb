"""What a table session asks its host to do. Values only: the host matches on the type and carries each
out (a message edit, a post, a journal write, a timer); the session never waits for any of it.

Showing is by version: ``ShowTable``/``ShowHand`` ask for the session's current ``version`` to reach
that message, so ten moves in a burst cost one edit. Stores are in the order given, which is the order
the moves were made.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.view import HandResult

# ------------------------------------------------------------------ showing


@dataclass(frozen=True, slots=True)
class ShowLobby:
    """The lobby message shows the seats and settings as they are now."""


@dataclass(frozen=True, slots=True)
class ShowTable:
    """The channel's table message shows the current version."""


@dataclass(frozen=True, slots=True)
class ShowHand:
    """``seat``'s hand message (their DM) shows the current version."""

    seat: int


@dataclass(frozen=True, slots=True)
class NewHand:
    """A hand was dealt: the last hand's messages are done (they never show the new one)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Post the hand's table message and send every person their hand; then call ``dealt``."""


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The seat draw and the dealer's dice happened: tell the channel, with the deals' ``commitment``
    (the SHA-256 of the match key: engine.fairness; None for a match dealt from a plain seed)."""

    commitment: str | None = None


@dataclass(frozen=True, slots=True)
class Notice:
    """A line for the channel in the table's language; ``seat`` (if any) fills ``{name}``."""

    key: str
    seat: int | None = None
    values: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ShowScore:
    """Hand ``number`` is settled: post its score sheet, then let the hand's last edits land."""

    number: int
    result: HandResult


@dataclass(frozen=True, slots=True)
class Paused:
    """Everyone was away for a whole hand: post the pause with its Resume button (ends at ``until``)."""

    until: float


@dataclass(frozen=True, slots=True)
class Unpaused:
    """Someone came back: the pause message says so and loses its button."""


@dataclass(frozen=True, slots=True)
class PauseEnded:
    """Nobody came back in time: the pause message says the table ended."""


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match ended (all rounds, a leave that ends it, a pause that ran out): post the standings and the
    summary with the revealed match ``key`` (hex; None for a match dealt from a plain seed), close the
    hand's messages, store the last writes and forget the table."""

    key: str | None = None


@dataclass(frozen=True, slots=True)
class Blocked:
    """The table's channel refused it ``what`` (a permission): nothing moves until a post goes through
    again; tell the host."""

    what: str


@dataclass(frozen=True, slots=True)
class Probe:
    """The table lost a channel permission: try to post the table again (answer with ``unblocked`` or
    ``still_blocked``)."""


# ------------------------------------------------------------------ storing


@dataclass(frozen=True, slots=True)
class StoreSeats:
    """The lobby's seats changed."""


@dataclass(frozen=True, slots=True)
class StorePhase:
    """The table's phase changed outside a match's course (closed by its host)."""


@dataclass(frozen=True, slots=True)
class StoreOptions:
    """The table's settings changed (or a match begins with them): stored with the table row."""


@dataclass(frozen=True, slots=True)
class StoreMatch:
    """A match began: its seats in engine order and its header (its key, rules, options: the table's
    secret until the match is over)."""

    header: dict[str, object]


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
)
