"""The custom id of every button and select the bot posts, written once (discord.py's
``dynamic_counter`` example, with the grammar taken out of the item): each kind is a frozen dataclass
whose shape (``mj:a:{point}:{code}``) prints it, parses it back and gives the ``DynamicItem`` its
template, so the items, the cluster's router and the stand-in's simulated person read one grammar.

Buttons already posted must keep working after an upgrade: a shape, once posted, never changes
(tests/table/test_ids.py pins today's ids). All are well under Discord's 100 characters.

    >>> Act(PromptPoint(7, 3, 2, 41), "d5m").to_custom_id()
    'mj:a:7:3:2:41:d5m'
    >>> parse("mj:a:7:3:2:41:d5m")
    Act(point=PromptPoint(table=7, hand=3, seat=2, move=41), code='d5m')
    >>> parse("mj:t:7:eyeask")
    TableClick(table=7, op=<TableOp.EYE_ASK: 'eyeask'>)
    >>> parse("mj:a:7:3:4:41:d5m") is None  # there is no seat 4
    True
    >>> table_of("mj:e:17:2:0:41"), table_of("mj:w:17")  # a Watch click is not a table's own
    (17, None)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Generic, Self, TypeVar

from .codes import PATTERN as ACTION_CODE

T = TypeVar("T")
E = TypeVar("E", bound=StrEnum)

# ---------------------------------------------------------------------- the parts of an id


@dataclass(frozen=True)
class Part(Generic[T]):
    """One field of an id: the text it may be (a regex without groups), read from and written to it."""

    pattern: str
    read: Callable[[str], T]
    write: Callable[[T], str] = str


NUMBER: Part[int] = Part(r"\d+", int)
SEAT: Part[int] = Part(r"[0-3]", int)
CODE: Part[str] = Part(ACTION_CODE, str)  # an action (table/codes.py)


def choice(kind: type[E]) -> Part[E]:
    """One of an enum's values, as the id spells it."""
    return Part("|".join(re.escape(member.value) for member in kind), kind)


def optional(part: Part[T], absent: str) -> Part[T | None]:
    """``part``, or ``absent`` spelling None (``absent`` must be a text ``part`` can be). Any text that
    reads as ``absent`` does means None too: ``00`` as ``0``, as the id was read before it moved here."""
    nothing = part.read(absent)

    def read(text: str) -> T | None:
        value = part.read(text)
        return None if value == nothing else value

    def write(value: T | None) -> str:
        return absent if value is None else part.write(value)

    return Part(part.pattern, read, write)


class Shape:
    """An id's grammar: literal text with ``{field}`` holes, each filled by a part.

    >>> Shape("mj:rs:{hand}:{step}", hand=NUMBER, step=NUMBER).template
    'mj:rs:(?P<hand>\\\\d+):(?P<step>\\\\d+)'
    """

    def __init__(self, text: str, **parts: Part[Any]) -> None:
        self.text = text
        self.parts = parts
        pieces = re.split(r"\{(\w+)\}", text)  # literal, name, literal, name, …, literal
        names = pieces[1::2]
        if sorted(names) != sorted(parts):
            raise ValueError(f"{text!r} has holes {names}, parts {sorted(parts)}")
        self.template = self._regex(pieces, lambda name, part: f"(?P<{name}>{part.pattern})")
        self.bare = self._regex(pieces, lambda name, part: f"(?:{part.pattern})")  # to nest in another shape
        self.compiled = re.compile(self.template)

    def _regex(self, pieces: list[str], hole: Callable[[str, Part[Any]], str]) -> str:
        return "".join(
            hole(piece, self.parts[piece]) if n % 2 else re.escape(piece) for n, piece in enumerate(pieces)
        )

    def write(self, values: dict[str, Any]) -> str:
        return self.text.format(**{name: part.write(values[name]) for name, part in self.parts.items()})

    def read(self, match: re.Match[str]) -> dict[str, Any]:
        return {name: part.read(match[name]) for name, part in self.parts.items()}


class CustomId:
    """A kind of custom id; a subclass is a frozen dataclass whose fields are its shape's holes."""

    SHAPE: ClassVar[Shape]
    TEMPLATE: ClassVar[str]  # the regex a DynamicItem takes as its template (matched in full)

    def __init_subclass__(cls, shape: Shape | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if shape is not None:
            cls.SHAPE = shape
            cls.TEMPLATE = shape.template

    def to_custom_id(self) -> str:
        return self.SHAPE.write({name: getattr(self, name) for name in self.SHAPE.parts})

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """The id a match of ``TEMPLATE`` spells (never raises for one: discord.py would drop the click)."""
        return cls(**cls.SHAPE.read(match))

    @classmethod
    def from_custom_id(cls, custom_id: str) -> Self | None:
        """None for an id of another kind, or outside the grammar."""
        match = cls.SHAPE.compiled.fullmatch(custom_id)
        return cls.from_match(match) if match else None


class OfTable(CustomId):
    """A kind whose id names one table (and says no more than which, or what to do at it)."""

    table: int


def nested(kind: type[CustomId]) -> Part[Any]:
    """A value that has a shape of its own, as one field of a bigger id (the prompt's decision point)."""
    return Part(kind.SHAPE.bare, kind.from_custom_id, lambda value: value.to_custom_id())


# ---------------------------------------------------------------------- what the ids say


class LobbyOp(StrEnum):
    """What a lobby button does."""

    JOIN = "join"
    LEAVE = "leave"
    AI = "ai"
    START = "start"
    CLOSE = "close"


class TableOp(StrEnum):
    """What a table button does (not tied to a decision point)."""

    SHOW = "show"  # my hand, ephemerally (the fallback for closed DMs)
    BACK = "back"  # take control back from 代打
    EYE_ASK = "eyeask"  # 眼牌's confirmation first
    EYE = "eye"  # declare 眼牌 (Miji in its window)
    RESUME = "resume"  # a table paused while everyone was away
    AUTO_WIN = "autowin"  # the clicker's auto toggles (table/toggles.py), on the hand message: one each
    NO_CALLS = "nocalls"
    AUTO_DISCARD = "autodiscard"


# the toggle a table button switches (the PlayerPrefs field of the same name, data/prefs.py)
TOGGLE_OPS = {TableOp.AUTO_WIN: "auto_win", TableOp.NO_CALLS: "no_calls", TableOp.AUTO_DISCARD: "auto_discard"}


class Mode(StrEnum):
    """Which buttons a prompt shows: every action, or one 聽 button per tile that keeps the hand ready."""

    MAIN = "main"
    READY = "ready"


class StepOp(StrEnum):
    """What a replay's step-through button does."""

    FIRST = "first"
    PREV = "prev"
    NEXT = "next"
    LAST = "last"
    CLAIM = "claim"  # the next claim
    KONG = "kong"  # the next kong
    WIN = "win"  # the win
    PREV_HAND = "ph"
    NEXT_HAND = "nh"


@dataclass(frozen=True)
class PromptPoint(
    CustomId, shape=Shape("{table}:{hand}:{seat}:{move}", table=NUMBER, hand=NUMBER, seat=SEAT, move=NUMBER)
):
    """The decision point a prompt's buttons were made for: checked against the live one on a click."""

    table: int
    hand: int
    seat: int
    move: int


@dataclass(frozen=True)
class ReplayFrame(CustomId, shape=Shape("{hand}:{seat}:{step}", hand=NUMBER, seat=SEAT, step=NUMBER)):
    """What a replay message shows: a stored hand (its id), from a seat, at a step."""

    hand: int
    seat: int
    step: int


POINT = nested(PromptPoint)

# -- a running table's own clicks (routed by the cluster to the process that runs the table)


@dataclass(frozen=True)
class LobbyClick(OfTable, shape=Shape("mj:l:{table}:{op}", table=NUMBER, op=choice(LobbyOp))):
    """A lobby button: join, leave, ai, start, close."""

    table: int
    op: LobbyOp


@dataclass(frozen=True)
class Act(CustomId, shape=Shape("mj:a:{point}:{code}", point=POINT, code=CODE)):
    """One legal action of a prompt, as its code."""

    point: PromptPoint
    code: str

    @property
    def table(self) -> int:
        return self.point.table


@dataclass(frozen=True)
class SwitchMode(CustomId, shape=Shape("mj:m:{point}:{mode}", point=POINT, mode=choice(Mode))):
    """The prompt again in the other mode (the 聽… button and its way back)."""

    point: PromptPoint
    mode: Mode

    @property
    def table(self) -> int:
        return self.point.table


@dataclass(frozen=True)
class TableClick(OfTable, shape=Shape("mj:t:{table}:{op}", table=NUMBER, op=choice(TableOp))):
    """A table button: show, back, eyeask, eye, resume, and the three auto toggles."""

    table: int
    op: TableOp


@dataclass(frozen=True)
class Exchange(CustomId, shape=Shape("mj:e:{point}", point=POINT)):
    """換牌: the select of 1-3 tiles to give back."""

    point: PromptPoint

    @property
    def table(self) -> int:
        return self.point.table


# -- everything else (answered wherever the click arrives: the database has what it needs)


@dataclass(frozen=True)
class Watch(OfTable, shape=Shape("mj:w:{table}", table=NUMBER)):
    """Watch the table (or stop watching)."""

    table: int


@dataclass(frozen=True)
class Rematch(OfTable, shape=Shape("mj:r:{table}", table=NUMBER)):
    """Under a finished match's summary: a new table with its seats and settings."""

    table: int


@dataclass(frozen=True)
class PlayInDiscord(OfTable, shape=Shape("mj:pd:{table}", table=NUMBER)):
    """Play the table inside Discord: the Activity (web/activity.py) launched from the seat's DM."""

    table: int


@dataclass(frozen=True)
class ReplayStep(CustomId, shape=Shape("mj:r:{frame}:{op}", frame=nested(ReplayFrame), op=choice(StepOp))):
    """A replay's step-through button."""

    frame: ReplayFrame
    op: StepOp


@dataclass(frozen=True)
class ReplaySeat(CustomId, shape=Shape("mj:rs:{hand}:{step}", hand=NUMBER, step=NUMBER)):
    """A replay's seat select (its value is the seat)."""

    hand: int
    step: int


@dataclass(frozen=True)
class ReplayOpen(CustomId, shape=Shape("mj:rp:{table}:{hand_no}", table=NUMBER, hand_no=NUMBER)):
    """Replay, on a score sheet or in /mahjong history: a match's hand by its number."""

    table: int
    hand_no: int


@dataclass(frozen=True)
class ReviewStep(
    CustomId,
    shape=Shape(
        "mj:vr:{table}:{hand_no}:{seat}:{step}", table=NUMBER, hand_no=NUMBER, seat=SEAT, step=NUMBER
    ),
):
    """A costly decision of a reviewed match: its hand (by number in the match), the seat, the step."""

    table: int
    hand_no: int
    seat: int
    step: int


@dataclass(frozen=True)
class ReviewShare(
    CustomId,
    shape=Shape("mj:vs:{table}:{only}:{user}", table=NUMBER, only=optional(NUMBER, "0"), user=NUMBER),
):
    """Whose review is shared, of which match (and hand: None, spelled 0, for the whole match)."""

    table: int
    only: int | None
    user: int


@dataclass(frozen=True)
class ReviewOpen(OfTable, shape=Shape("mj:vo:{table}", table=NUMBER)):
    """Review my play, under the standings."""

    table: int


@dataclass(frozen=True)
class LeaveQueue(CustomId, shape=Shape("mj:q:leave")):
    """Quick play: leave the queue you are in."""


@dataclass(frozen=True)
class JoinListed(OfTable, shape=Shape("mj:h:j:{table}", table=NUMBER)):
    """The table list: take a seat at that table."""

    table: int


ALL_RULES = "all"  # the page id of a list of every rule set


@dataclass(frozen=True)
class TablePage(
    CustomId,
    shape=Shape("mj:h:p:{page}:{rules}", page=NUMBER, rules=optional(Part(r"[a-z0-9]+", str), ALL_RULES)),
):
    """The table list: that page, of one rule set (None: every rule set, spelled ``all``)."""

    page: int
    rules: str | None


@dataclass(frozen=True)
class HelpPage(CustomId, shape=Shape("mj:hp:{rules}", rules=Part(r"[a-z0-9_]+", str))):
    """The page select of one rule set's help."""

    rules: str


class EntryOp(StrEnum):
    """What a tournament's registration message offers."""

    JOIN = "join"
    LEAVE = "leave"
    CHECK_IN = "in"


@dataclass(frozen=True)
class TournamentEntry(
    CustomId, shape=Shape("mj:tn:{tournament}:{op}", tournament=NUMBER, op=choice(EntryOp))
):
    """A tournament's registration message: join, leave, or check in before the start."""

    tournament: int
    op: EntryOp


TABLE_CLICKS: tuple[type[LobbyClick | Act | SwitchMode | TableClick | Exchange], ...] = (
    LobbyClick,
    Act,
    SwitchMode,
    TableClick,
    Exchange,
)
KINDS: tuple[type[CustomId], ...] = (
    *TABLE_CLICKS, Watch, Rematch, PlayInDiscord, ReplayStep, ReplaySeat, ReplayOpen,
    ReviewStep, ReviewShare, ReviewOpen, LeaveQueue, JoinListed, TablePage, HelpPage, TournamentEntry,
)  # fmt: skip


def parse(custom_id: str) -> CustomId | None:
    """The id a custom id spells, of whichever kind (None: not one of ours). No two kinds share an id."""
    for kind in KINDS:
        found = kind.from_custom_id(custom_id)
        if found is not None:
            return found
    return None


def table_of(custom_id: str) -> int | None:
    """The running table a click acts on (None: not a table's own click, such as Watch or a replay)."""
    for kind in TABLE_CLICKS:
        found = kind.from_custom_id(custom_id)
        if found is not None:
            return found.table
    return None
