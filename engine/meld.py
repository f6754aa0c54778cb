"""Declared melds and their notation (``chi:123m``, ``pon:555z``, ``kong:1111m``, ``addkong:1111m``,
``ankong:9999s``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .tiles import HIDDEN, NotationError, format_tiles, parse_tiles, tile_to_str


class MeldKind(Enum):
    CHI = "chi"
    PON = "pon"
    KONG = "kong"  # 明槓: claimed from a discard
    ADDKONG = "addkong"  # 加槓: a fourth tile added to a pon
    ANKONG = "ankong"  # 暗槓: concealed

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.ADDKONG, MeldKind.ANKONG)


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. ``claimed`` is the tile taken from a discard (None for 暗槓) and
    ``source`` the seat it came from (None when not claimed)."""

    kind: MeldKind
    tiles: tuple[int, ...]
    claimed: int | None = None
    source: int | None = None

    @classmethod
    def from_str(cls, text: str, *, claimed: str | None = None, source: int | None = None) -> Meld:
        """``Meld.from_str("pon:555z")``; ``Meld.from_str("chi:345m", claimed="4m", source=3)`` for a
        meld whose claimed tile and discarder matter (the claimed tile defaults to the lowest)."""
        if not isinstance(text, str):
            raise NotationError(f"meld notation must be text, got {type(text).__name__}")
        try:
            kind_text, tiles_text = text.strip().split(":", 1)
            kind = MeldKind(kind_text.strip().lower())
        except ValueError:
            raise NotationError(f"bad meld notation {text!r} (expected e.g. chi:123m, pon:555z)") from None
        tiles = tuple(sorted(parse_tiles(tiles_text)))
        meld = cls(kind, tiles, claimed=None if kind is MeldKind.ANKONG else tiles[0] if tiles else None)
        meld.validate()
        if claimed is not None or source is not None:
            taken = parse_tiles(claimed) if claimed is not None else [] if meld.claimed is None else [meld.claimed]
            if kind is MeldKind.ANKONG or len(taken) != 1 or taken[0] not in tiles:
                raise NotationError(f"{text!r} cannot have claimed {claimed!r}")
            meld = cls(kind, tiles, taken[0], source)
        return meld

    def validate(self) -> None:
        t = self.tiles
        if any(x >= 34 for x in t):
            raise NotationError(f"a meld cannot hold flowers: {self}")
        if self.kind is MeldKind.CHI:
            ok = (
                len(t) == 3 and t[0] < 27 and t[0] // 9 == t[2] // 9 and t[1] == t[0] + 1 and t[2] == t[0] + 2
            )
        elif self.kind is MeldKind.PON:
            ok = len(t) == 3 and t[0] == t[1] == t[2]
        else:
            ok = len(t) == 4 and t[0] == t[1] == t[2] == t[3]
        if not ok:
            raise NotationError(f"{self.kind.value}:{format_tiles(t)} is not a valid {self.kind.value}")

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @property
    def is_concealed(self) -> bool:
        return self.kind is MeldKind.ANKONG

    @property
    def is_triplet(self) -> bool:
        """Pon or any kong (counts as a 刻子 for scoring)."""
        return self.kind is not MeldKind.CHI

    @property
    def first(self) -> int:
        return self.tiles[0]

    def __str__(self) -> str:
        if self.is_hidden:
            return f"{self.kind.value}:hidden"
        return f"{self.kind.value}:{format_tiles(self.tiles)}"

    def __repr__(self) -> str:
        """``Meld.from_str('pon:555z', source=2)``: test failures and logs read like notation, not
        like a dataclass dump (a hidden or hand-built odd meld falls back to its fields)."""
        try:
            text = str(self)
            kwargs: dict[str, Any] = {}
            if self.claimed is not None and self.claimed != self.tiles[0]:
                kwargs["claimed"] = tile_to_str(self.claimed)
            if self.source is not None:
                kwargs["source"] = self.source
            if Meld.from_str(text, **kwargs) == self:
                args = [repr(text), *(f"{k}={v!r}" for k, v in kwargs.items())]
                return f"Meld.from_str({', '.join(args)})"
        except Exception:  # no notation for this meld
            pass
        return (
            f"Meld(kind={self.kind}, tiles={self.tiles!r}, claimed={self.claimed!r}, source={self.source!r})"
        )

    @property
    def is_hidden(self) -> bool:
        """A 暗槓 as the other players see it: four face-down tiles."""
        return bool(self.tiles) and self.tiles[0] == HIDDEN

    def hidden(self) -> Meld:
        return Meld(self.kind, (HIDDEN,) * len(self.tiles))


def parse_melds(items: list[str] | str) -> list[Meld]:
    if isinstance(items, str):
        items = [x for x in items.replace(",", " ").split() if x]
    return [Meld.from_str(x) for x in items]
