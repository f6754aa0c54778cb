"""What one player may see. Images and messages are built only from these objects, so no layer
can leak another player's concealed tiles by accident: a view simply does not hold them (except
``revealed`` once a hand is over)."""

from __future__ import annotations

from dataclasses import dataclass, field

from .events import Phase
from .meld import Meld


@dataclass(frozen=True, slots=True)
class SeatPublic:
    """Everything about one seat that the whole table can see."""

    seat: int  # physical seat 0..3 (turn order is seat, seat+1, ...)
    wind: int  # seat wind this hand: 0=E (dealer) .. 3=N
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    discards: tuple[int, ...]  # the river, oldest first; tiles claimed by others are removed
    concealed_count: int  # tiles in hand, the drawn tile included
    ready: bool = False  # declared 聽
    auto: bool = False  # being auto-played (代打)
    score: int = 0  # match points so far


@dataclass(frozen=True, slots=True)
class GameView:
    """One viewer's picture of a hand in progress. ``viewer`` None is the public (table) view."""

    viewer: int | None
    rules: str
    round_wind: int  # 0=E .. 3=N
    hand_number: int  # 1-based count of hands in the match
    dealer: int
    dealer_streak: int  # n of 連n
    wall_remaining: int  # tiles that can still be drawn before the draw game
    seats: tuple[SeatPublic, ...]
    turn: int  # seat whose move it is (or who discarded, during a claim window)
    phase: Phase  # a string enum: "turn", "claim", "rob_kong", "over"
    last_discard: tuple[int, int] | None = None  # (seat, tile) while it can still be claimed
    concealed: tuple[int, ...] = ()  # the viewer's own tiles, sorted, drawn tile excluded
    drawn: int | None = None  # the viewer's freshly drawn tile, shown apart
    waits: tuple[tuple[int, int], ...] = ()  # (tile, unseen count) when the viewer is ready
    revealed: dict[int, tuple[int, ...]] = field(default_factory=dict)  # end-of-hand reveal only
    hand_size: int = 16  # the rule set's tiles in hand before the draw (16, or 13)


@dataclass(frozen=True, slots=True)
class ScoreItem:
    name: str  # exactly as the rule document writes it
    value: int  # 台 / 番 / multiplier, per ``unit``


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of one hand, as the score sheet shows it."""

    winner: int | None  # None for a draw game
    loser: int | None  # the discarder; None for self-draw or draw game
    self_drawn: bool
    win_tile: int | None
    concealed: tuple[int, ...]  # the winner's concealed tiles without the winning tile
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    items: tuple[ScoreItem, ...]
    total: int
    unit: str  # "tai", "fan", "points"
    deltas: tuple[int, int, int, int]  # point change per seat; sums to zero
    capped_total: int | None = None  # the 台 paid when 滿台 limited the hand (None: no cap applied)
    limited: bool = False  # the 24-台 bankroll rule reduced at least one payment
