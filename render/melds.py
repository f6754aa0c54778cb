"""How a declared meld lies on the table, shared by the hand and the table pictures: the claimed
tile turned sideways at the place that says who it came from (上家 on the left, 對家 in the
middle, 下家 on the right, as on a riichi table and in the apps players know), 暗槓 face down."""

from __future__ import annotations

from engine.meld import Meld, MeldKind

from . import sprites

Laid = list[tuple[int, bool]]  # (tile, turned sideways), left to right

KEYS = {
    MeldKind.CHI: "chi",
    MeldKind.PON: "pon",
    MeldKind.KONG: "kong",
    MeldKind.ADDKONG: "addkong",
    MeldKind.ANKONG: "ankong",
}


def laid_out(meld: Meld, owner: int, *, face_down: bool = True) -> Laid:
    """``meld`` left to right in front of ``owner``; a 暗槓 as four backs unless ``face_down``
    is False (the end-of-hand reveal)."""
    if meld.kind is MeldKind.ANKONG or meld.is_hidden:
        if face_down or meld.is_hidden:
            return [(sprites.BACK, False)] * len(meld.tiles)
        return [(t, False) for t in meld.tiles]
    tiles = list(meld.tiles)
    rel = claimed_from(meld, owner)
    if rel is None or meld.claimed not in tiles:
        return [(t, False) for t in tiles]
    tiles.remove(meld.claimed)
    at = {3: 0, 2: 1, 1: len(tiles)}[rel]
    out: Laid = [(t, False) for t in tiles]
    out.insert(at, (meld.claimed, True))
    return out


def claimed_from(meld: Meld, owner: int) -> int | None:
    """Where the claimed tile came from, seen from ``owner``: 1 下家, 2 對家, 3 上家 (None: not
    claimed, or the source is not known)."""
    if meld.claimed is None or meld.source is None or meld.kind is MeldKind.ANKONG:
        return None
    rel = (meld.source - owner) % 4
    return rel or None
