"""Player actions, with a notation that round-trips (``"2 discard 5m"``, ``"1 chi 345m"``).

Like python-chess moves, actions are small immutable values; ``Game.legal_actions(seat)`` lists
them and ``Game.apply(action)`` plays one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .tiles import NotationError, format_tiles, parse_tiles, tile_from_str, tile_to_str


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


@dataclass(frozen=True, slots=True)
class Action:
    seat: int
    kind: Kind
    tile: int | None = None  # discard / kong tile; lowest tile of a chi
    tiles: tuple[int, ...] = ()  # 換牌: the tiles given back, in tile order (empty: keep the hand)

    def __str__(self) -> str:
        text = f"{self.seat} {self.kind.value}"
        if self.kind is Kind.EXCHANGE:
            return f"{text} {format_tiles(self.tiles)}" if self.tiles else text
        if self.kind is Kind.CHI and self.tile is not None:
            return f"{text} {format_tiles((self.tile, self.tile + 1, self.tile + 2))}"
        if self.tile is not None:
            return f"{text} {tile_to_str(self.tile)}"
        return text

    @classmethod
    def from_str(cls, text: str) -> Action:
        """``Action.from_str("0 discard 5m")``; ``"3 chi 345m"``; ``"1 pon"``; ``"2 hu"``;
        ``"2 exchange 5m7p9s"`` (換牌, up to three tiles; ``"2 exchange"`` keeps the hand).

        >>> str(Action.from_str("2 exchange 9s5m7p"))
        '2 exchange 5m7p9s'
        """
        parts = text.split()
        try:
            seat = int(parts[0])
            kind = Kind(parts[1])
        except (IndexError, ValueError):
            raise NotationError(f"bad action notation {text!r}") from None
        if not 0 <= seat <= 3:
            raise NotationError(f"seat must be 0-3 in {text!r}")
        tile = None
        if kind is Kind.EXCHANGE:
            if len(parts) > 3:
                raise NotationError(f"an exchange names its tiles in one group, e.g. '2 exchange 5m7p': {text!r}")
            tiles = tuple(sorted(parse_tiles(parts[2]))) if len(parts) > 2 else ()
            if len(tiles) > 3:
                raise NotationError(f"an exchange gives back at most three tiles: {text!r}")
            return cls(seat, kind, None, tiles)
        if len(parts) > 2:
            if kind is Kind.CHI:
                tiles = sorted(parse_tiles(parts[2]))
                if len(tiles) != 3:
                    raise NotationError(f"a chi names its three tiles, e.g. '1 chi 345m': {text!r}")
                tile = tiles[0]
            else:
                tile = tile_from_str(parts[2])
        return cls(seat, kind, tile)
