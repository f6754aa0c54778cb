"""What a hand reports: its phase and the events each action causes.

Both enums are string enums whose values are the words the logs have always used, so a log line
reads the same and ``event.kind == "discard"`` still holds; code should match on the members
(``EventKind.DISCARD``) so a typo is an AttributeError, not a silent miss.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .frozen import maker
from .tiles import NUM_KINDS, tile_to_str


class Phase(StrEnum):
    EXCHANGE = "exchange"  # 換牌 (table option): every seat chooses 0-3 tiles to give back
    TURN = "turn"  # ``turn`` holds its tiles plus one and must discard (or kong / win)
    CLAIM = "claim"  # the others may claim the discard on the table
    ROB_KONG = "rob_kong"  # the others may rob an added kong (搶槓)
    FLOWER_WIN = "flower_win"  # a flower win (八仙過海 / 七搶一 / 大花胡) the winner may call or decline
    OVER = "over"


class EventKind(StrEnum):
    DICE = "dice"  # the dealer's dice break the wall
    DEAL = "deal"
    FLOWER = "flower"  # a flower set aside (補花)
    DRAW = "draw"  # private to the drawer
    DISCARD = "discard"
    READY = "ready"  # 聽 declared with the discard
    CHI = "chi"
    PON = "pon"
    KONG = "kong"  # 明槓 of a discard
    ANKONG = "ankong"  # the tile stays hidden
    ADDKONG = "addkong"
    KONG_STANDS = "kong_stands"  # nobody robbed the added kong
    PASS_WIN = "pass_win"  # 過水 starts
    PASS_WIN_LIFTED = "pass_win_lifted"  # 過水 ends
    AUTO_ON = "auto_on"  # 代打 starts for the seat
    AUTO_OFF = "auto_off"  # the player took control back
    EXCHANGE = "exchange"  # 換牌: private to the seat (tiles given back, detail: tiles received)
    EXCHANGED = "exchanged"  # 換牌 done: public, ``detail`` says how many tiles each seat exchanged
    EYE = "eye"  # 眼牌 declared (``detail`` "Miji" when declared in the Miji window)
    FLOWER_BONUS = "flower_bonus"  # 八仙過海 / 七搶一 paid at once (house rule); ``detail`` names it
    FLOWER_DECLINED = "flower_declined"  # the flower win was declined (過): the hand goes on; ``detail`` names it
    WIN = "win"
    DRAW_GAME = "draw_game"  # 流局


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened. ``private`` events (a draw) concern only ``seat``."""

    kind: EventKind
    seat: int | None = None
    tile: int | None = None
    tiles: tuple[int, ...] = ()
    private: bool = False
    detail: str = ""

    def __str__(self) -> str:
        parts = [self.kind.value]
        if self.seat is not None:
            parts.append(f"seat={self.seat}")
        if self.tile is not None:
            parts.append(tile_to_str(self.tile))
        if self.tiles:
            parts.append(" ".join(tile_to_str(t) for t in self.tiles))
        if self.detail:
            parts.append(self.detail)
        return " ".join(parts)


def _by_seat_and_tile(kind: EventKind, private: bool = False, detail: str = "") -> tuple[tuple[Event, ...], ...]:
    return tuple(tuple(_make(kind, seat, t, (), private, detail) for t in range(NUM_KINDS)) for seat in range(4))


_make = maker(Event)  # (a few hundred of them at import: without the frozen __init__'s cost)


# The events every turn causes, made once and shared (events are immutable values), indexed
# ``[seat][tile]``: a discard, a live draw and a replacement draw.
DISCARD_EVENTS = _by_seat_and_tile(EventKind.DISCARD)
DRAW_EVENTS = _by_seat_and_tile(EventKind.DRAW, private=True)
REPLACEMENT_DRAW_EVENTS = _by_seat_and_tile(EventKind.DRAW, private=True, detail="replacement")
# a flower set aside, indexed ``[seat][flower - NUM_KINDS]`` (the eight flowers follow the 34 kinds)
FLOWER_EVENTS = tuple(
    tuple(_make(EventKind.FLOWER, seat, t, (), False, "") for t in range(NUM_KINDS, NUM_KINDS + 8)) for seat in range(4)
)
