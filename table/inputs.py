"""What a host feeds a table session: every input as a value (h11's events, our direction in).

``TableSession.handle(input, now)`` takes any of these and returns the effects to carry out; the host
never calls anything else to change a table. A person's input names the person (``user``); the
clicks also carry the decision point their button was made for (``hand``, ``move``), so a stale or
foreign click is refused by the session, and ``answering`` says which seat's message the click's own
answer will show (that message then needs no edit of its own).
"""

from __future__ import annotations

from dataclasses import dataclass

from .lobby import DEFAULT_AI, TableSettings
from .toggles import Toggles

# ------------------------------------------------------------------ the lobby


@dataclass(frozen=True, slots=True)
class Opened:
    """A new lobby (its creator, and a rematch's seats, already seated)."""


@dataclass(frozen=True, slots=True)
class Join:
    user: int
    name: str
    password: str | None = None
    locale: str = "en"


@dataclass(frozen=True, slots=True)
class Leave:
    """Leaving the lobby (a person leaving a match in play is :class:`PlayerLeft`)."""

    user: int


@dataclass(frozen=True, slots=True)
class AddAi:
    level: str = DEFAULT_AI


@dataclass(frozen=True, slots=True)
class RemoveAi:
    pass


@dataclass(frozen=True, slots=True)
class SetSettings:
    settings: TableSettings


@dataclass(frozen=True, slots=True)
class OpenSeats:
    """The host pressed Start: empty seats get AI players and the lobby closes (:class:`Start` deals)."""


@dataclass(frozen=True, slots=True)
class Start:
    """Draw seats, throw the dice and deal, every deal from the secret ``key`` (engine.fairness); a
    tournament's table deals by position (``duplicate``) and plays at most ``hands`` hands."""

    key: bytes
    duplicate: bool = False
    hands: int | None = None


@dataclass(frozen=True, slots=True)
class Shut:
    """The host (or a server manager) closed the table."""


@dataclass(frozen=True, slots=True)
class Close:
    """The bot stops running this table here (shutting down, or the table moves to another process)."""


# ------------------------------------------------------------------ a match in play


@dataclass(frozen=True, slots=True)
class Click:
    """A prompt button: the action ``code`` (table/codes.py) for the decision point ``hand``/``move``."""

    user: int
    seat: int
    code: str
    hand: int
    move: int
    answering: int | None = None


@dataclass(frozen=True, slots=True)
class Exchange:
    """換牌: the tiles chosen in the select (choosing is confirming); None: values the select never offered
    (refused as stale, once the decision point is checked)."""

    user: int
    seat: int
    tiles: tuple[int, ...] | None
    hand: int
    move: int
    answering: int | None = None


@dataclass(frozen=True, slots=True)
class Declare:
    """眼牌 (Miji in its window), at any time while the hand is played."""

    user: int
    answering: int | None = None


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Take back control of a seat auto-played (代打)."""

    user: int
    answering: int | None = None


@dataclass(frozen=True, slots=True)
class ResumePaused:
    """The pause's Resume button."""

    user: int


@dataclass(frozen=True, slots=True)
class PlayerLeft:
    user: int


@dataclass(frozen=True, slots=True)
class Substitute:
    """Another person takes ``user``'s seat mid-match (a tournament's replace): ``new`` plays it from now."""

    user: int
    new: int
    name: str
    locale: str = "en"


@dataclass(frozen=True, slots=True)
class Resume:
    """A table restored after a restart: say so, show everything afresh."""


@dataclass(frozen=True, slots=True)
class Tick:
    """Time passed: do the next automatic thing that is due. ``coming`` are the seats whose prompt is
    still on its way to Discord (a deadline waits for them)."""

    coming: frozenset[int] = frozenset()


# ------------------------------------------------------------------ what the host saw happen


@dataclass(frozen=True, slots=True)
class Dealt:
    """The hand's table message is posted and every person's hand sent."""


@dataclass(frozen=True, slots=True)
class Shown:
    """Discord acknowledged the message that shows ``seat`` its prompt at ``version``."""

    seat: int
    version: int


@dataclass(frozen=True, slots=True)
class DmsClosed:
    """The person at ``seat`` cannot be sent DMs (Discord's 50007)."""

    seat: int


@dataclass(frozen=True, slots=True)
class ChannelRefused:
    """The table's channel refused a post or an edit (a lost permission: ``what``)."""

    what: str


@dataclass(frozen=True, slots=True)
class ChannelStillRefused:
    """A probe post was refused again."""


@dataclass(frozen=True, slots=True)
class ChannelOk:
    """A post went through again after the channel refused one."""


@dataclass(frozen=True, slots=True)
class ClicksLost:
    """The gateway session that carries this table's clicks dropped (issue 39: shard 0 for DMs, the guild's
    shard for channel buttons): no decision times out until ``ClicksBack``."""


@dataclass(frozen=True, slots=True)
class ClicksBack:
    """That gateway session is back (RESUMED, or a fresh READY): each open decision gets back the time the
    outage took from it, and is shown again."""


@dataclass(frozen=True, slots=True)
class Reposting:
    """The host (re)posts a message on its own (/mahjong table, a probe, a new hand's table message): it
    shows a new version (handed back as ``Version``)."""


@dataclass(frozen=True, slots=True)
class SetToggles:
    """A person's auto toggles (auto-win, no calls, 摸切) as they now stand: switched from their DM or
    /mahjong settings, or read from their stored preferences when the table starts or resumes. A decision
    the toggles answer is answered at the next tick, without waiting for the clock."""

    user: int
    toggles: Toggles
    answering: int | None = None


Input = (
    Opened
    | Join
    | Leave
    | AddAi
    | RemoveAi
    | SetSettings
    | OpenSeats
    | Start
    | Shut
    | Close
    | Click
    | Exchange
    | Declare
    | TakeBack
    | ResumePaused
    | PlayerLeft
    | Substitute
    | Resume
    | Tick
    | Dealt
    | Shown
    | DmsClosed
    | ChannelRefused
    | ChannelStillRefused
    | ChannelOk
    | ClicksLost
    | ClicksBack
    | Reposting
    | SetToggles
)
