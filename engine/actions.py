"""Player actions, with a notation that round-trips (``"2 discard 5m"``, ``"1 chi 345m"``).

Like python-chess moves, actions are small immutable values; ``Game.legal_actions(seat)`` lists
them and ``Game.apply(action)`` plays one. The notation is exact: ``Action.from_str(text)``
accepts only the text ``str()`` prints (seat ``0``-``3``, one space, the kind, and the tile where
the kind takes one), so a log line means one action and prints back to itself.

    >>> Action.from_str("1 chi 345m")
    Action.from_str('1 chi 345m')
    >>> str(Action.from_str("2 pon"))
    '2 pon'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, cast

from .frozen import maker
from .tiles import NUM_KINDS, NotationError, format_tiles, parse_tiles, tile_from_str, tile_to_str


class Kind(Enum):
    DISCARD = "discard"
    READY = "ting"  # discard and declare 聽
    CHI = "chi"
    PON = "pon"
    KONG = "kong"  # 明槓 from a discard
    ANKONG = "ankong"
    ADDKONG = "addkong"
    WIN = "hu"
    PASS = "pass"
    TIMEOUT = "timeout"  # the player's clock ran out: auto-play decides
    AWAY = "away"  # the player left or cannot be reached: the seat is auto-played (代打) at once
    BACK = "back"  # the player takes control of an auto-played seat back
    EXCHANGE = "exchange"  # 換牌: the 0-3 tiles (``tiles``) the player gives back after the deal
    EYE = "eye"  # 眼牌: declared at any time; the declarer sees the other hands, the hand is fixed
    MIJI = "miji"  # 眼牌 declared in the Miji window (first eight discards, nobody has claimed)


# claim priority on one discard: 胡 > 槓 > 碰 > 吃 (行動限制7)
CLAIM_RANK = {Kind.WIN: 3, Kind.KONG: 2, Kind.PON: 1, Kind.CHI: 0}

# which kinds name a tile: always, or optionally (``"1 pon"`` claims the discard on the table);
# every other kind (hu, pass, timeout, away, ...) names none. Only 換牌 names ``tiles``.
TILE_REQUIRED = frozenset({Kind.DISCARD, Kind.READY, Kind.CHI, Kind.ANKONG, Kind.ADDKONG})
TILE_OPTIONAL = frozenset({Kind.PON, Kind.KONG})
EXCHANGE_MAX_TILES = 3

SEATS = ("0", "1", "2", "3")


def _show(value: Any) -> str:
    """A short repr that cannot fail (for messages about values of any type)."""
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__, an int too long to print
        return f"<{type(value).__name__}>"
    return text if len(text) <= 40 else text[:37] + "..."


def _is_hand_tile(value: object) -> bool:
    return type(value) is int and 0 <= value < NUM_KINDS


def shape_problem(action: object) -> str:
    """Why ``action`` is not a well-formed :class:`Action` ("" when it is): the seat an ``int``
    0-3 (not a bool), the kind a :class:`Kind`, the tile ``None`` or an ``int`` of the right range
    for that kind (a chi names its lowest tile, 1-7 of a suit), ``tiles`` a tuple of at most three
    hand tiles on a 換牌 and empty otherwise. Never raises."""
    if not isinstance(action, Action):
        return f"not an Action: {_show(action)}"
    seat, kind, tile, tiles = action.seat, action.kind, action.tile, action.tiles
    if type(seat) is not int or not 0 <= seat <= 3:
        return f"seat must be an int 0-3, got {_show(seat)}"
    if not isinstance(kind, Kind):
        return f"kind must be a Kind, got {_show(kind)}"
    if kind is Kind.EXCHANGE:
        if type(tiles) is not tuple or len(tiles) > EXCHANGE_MAX_TILES or not all(map(_is_hand_tile, tiles)):
            return f"an exchange gives back a tuple of at most three tiles (no flowers), got {_show(tiles)}"
    elif type(tiles) is not tuple or tiles:
        return f"{kind.value} names no tiles, got {_show(tiles)}"
    if tile is None:
        if kind in TILE_REQUIRED:
            return f"{kind.value} needs a tile"
        return ""
    if kind not in TILE_REQUIRED and kind not in TILE_OPTIONAL:
        return f"{kind.value} takes no tile, got {_show(tile)}"
    if not _is_hand_tile(tile):
        return f"tile must be an int 0-{NUM_KINDS - 1} (no flowers), got {_show(tile)}"
    if kind is Kind.CHI and not (tile < 27 and tile % 9 <= 6):
        return f"a chi names the lowest of three suited tiles in a row, got {tile_to_str(tile)}"
    return ""


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    kind: Kind
    tile: int | None = None  # discard / kong tile; lowest tile of a chi
    tiles: tuple[int, ...] = ()  # 換牌: the tiles given back, in tile order (empty: keep the hand)

    @property
    def named_tile(self) -> int:
        """``tile``, for a kind that names one (a discard, 聽, 吃, a kong; a 碰 once its tile is
        filled in): ValueError for an action naming none, so no caller indexes a hand with None."""
        tile = self.tile
        if tile is None:
            raise ValueError(f"{self} names no tile")
        return tile

    def __str__(self) -> str:
        text = _LISTED_TEXT.get(id(self))  # one of the shared instances below, printed before
        if text is not None:
            return text
        if shape_problem(self):
            return self.__repr__()  # a malformed action has no notation; never fail in a log line
        text = self._notation()
        if id(self) in _LISTED_IDS:
            _LISTED_TEXT[id(self)] = text
        return text

    def _notation(self) -> str:
        text = f"{self.seat} {self.kind.value}"
        if self.kind is Kind.EXCHANGE:
            return f"{text} {format_tiles(sorted(self.tiles))}" if self.tiles else text
        if self.tile is None:
            return text
        if self.kind is Kind.CHI:
            return f"{text} {format_tiles((self.tile, self.tile + 1, self.tile + 2))}"
        return f"{text} {tile_to_str(self.tile)}"

    def __repr__(self) -> str:
        if shape_problem(self):
            fields = f"seat={_show(self.seat)}, kind={_show(self.kind)}, tile={_show(self.tile)}"
            return f"Action({fields}, tiles={_show(self.tiles)})" if self.tiles != () else f"Action({fields})"
        return f"Action.from_str({str(self)!r})"

    @classmethod
    def from_str(cls, text: str) -> Action:
        """``Action.from_str("0 discard 5m")``; ``"3 chi 345m"``; ``"1 pon"``; ``"2 hu"``;
        ``"2 exchange 5m7p9s"`` (換牌, up to three tiles in tile order; ``"2 exchange"`` keeps the hand).

        Raises :class:`NotationError` for anything but the exact text ``str()`` prints.

        >>> str(Action.from_str("2 exchange 5m7p9s"))
        '2 exchange 5m7p9s'
        """
        if not isinstance(text, str):
            raise NotationError(f"action notation must be text, got {_show(text)}")
        parts = text.split(" ")
        if len(parts) not in (2, 3) or parts[0] not in SEATS:
            raise NotationError(f"bad action notation {_show(text)} (expected e.g. '0 discard 5m')")
        try:
            kind = Kind(parts[1])
        except ValueError:
            raise NotationError(f"unknown action {_show(parts[1])} in {_show(text)}") from None
        tile = None
        tiles: tuple[int, ...] = ()
        if len(parts) == 3:
            if kind is Kind.EXCHANGE:
                tiles = tuple(sorted(parse_tiles(parts[2])))
            elif kind is Kind.CHI:
                chi = sorted(parse_tiles(parts[2]))
                if len(chi) != 3 or chi[1] != chi[0] + 1 or chi[2] != chi[0] + 2:
                    raise NotationError(f"a chi names three tiles in a row, e.g. '1 chi 345m': {_show(text)}")
                tile = chi[0]
            else:
                tile = tile_from_str(parts[2])
        action = cls(int(parts[0]), kind, tile, tiles)
        problem = shape_problem(action)
        if problem:
            raise NotationError(f"{problem}: {_show(text)}")
        if str(action) != text:
            raise NotationError(f"{_show(text)} is not exact action notation (did you mean {str(action)!r}?)")
        return action


def _listed(kind: Kind) -> tuple[tuple[Action, ...], ...]:
    """``Action(seat, kind, tile)`` for every seat and tile, indexed ``[seat][tile]``."""
    return tuple(tuple(_make(seat, kind, t, ()) for t in range(NUM_KINDS)) for seat in range(4))


_make = maker(Action)  # (a thousand of them at import: without the frozen __init__'s cost)

# The actions a game lists on every turn and every discard, made once: actions are immutable
# values, so ``Game.legal_actions`` hands out these shared instances instead of building new ones
# (a chi by its lowest tile, 1-7 of a suit).
DISCARDS = _listed(Kind.DISCARD)
READIES = _listed(Kind.READY)
ANKONGS = _listed(Kind.ANKONG)
ADDKONGS = _listed(Kind.ADDKONG)
PONS = _listed(Kind.PON)
KONGS = _listed(Kind.KONG)
CHIS = tuple({t: _make(seat, Kind.CHI, t, ()) for t in range(27) if t % 9 <= 6} for seat in range(4))
WINS = tuple(_make(seat, Kind.WIN, None, ()) for seat in range(4))
PASSES = tuple(_make(seat, Kind.PASS, None, ()) for seat in range(4))

# Their notation, keyed by identity, printed the first time it is asked for (a game's log is
# printed after every hand): the shared instances live as long as the module, so no other object
# can have one of these ids.
_LISTED_IDS = frozenset(
    id(a)
    for table in (DISCARDS, READIES, ANKONGS, ADDKONGS, PONS, KONGS, [c.values() for c in CHIS], (WINS, PASSES))
    for row in table
    for a in row
)
_LISTED_TEXT: dict[int, str] = {}


def notations(actions: Iterable[Action]) -> tuple[str, ...]:
    """``str`` of each action, the shared instances' read straight from their table (a hand's
    whole log is printed when it is settled: this costs less than ``__str__`` called per action).

    >>> notations([DISCARDS[2][4], Action(1, Kind.PON)])
    ('2 discard 5m', '1 pon')
    """
    actions = list(actions)
    texts = list(map(_LISTED_TEXT.get, map(id, actions)))  # (None: not a shared instance, or not printed yet)
    if None in texts:
        return tuple([t or str(a) for t, a in zip(texts, actions, strict=True)])
    return tuple(cast("list[str]", texts))
