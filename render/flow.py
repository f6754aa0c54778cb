"""Tiles in lines as wide as a panel: groups (a hand, a meld, the flowers, a river) laid left to right, a new
line where the next group would pass the edge; a river, which has no parts, breaks between any two tiles.
The DM picture's panels are laid out with it (render/dm.py); a claimed tile lies sideways along the line's
bottom edge, as in the hand and table pictures."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache

from PIL import Image

from . import fonts, sprites
from .canvas import Canvas
from .melds import Laid

GAP = 6  # between groups, at scale 1 (scaled with the tiles)
SHADE = (0, 0, 0, 120)  # over a river's tile another seat took: still there to read, plainly gone


@dataclass(frozen=True, slots=True)
class Piece:
    tile: int  # sprites.BACK for a face-down tile
    sideways: bool = False  # a claimed tile in a meld
    variant: str = sprites.PLAIN
    taken: bool = False  # a river's tile another seat claimed


@dataclass(frozen=True, slots=True)
class Group:
    pieces: tuple[Piece, ...]
    breakable: bool = False  # a river: it may go on on the next line
    after: str = ""  # words after the tiles (a hidden hand's ×13)


@dataclass(frozen=True, slots=True)
class Spot:
    """Where one piece (or one group's words) lies: ``x`` from the panel's left, ``line`` from its top."""

    x: int
    line: int
    piece: Piece | None = None
    text: str = ""


def group(laid: Laid) -> Group:
    """A meld or the flowers as render.melds lays them out."""
    return Group(tuple(Piece(t, side) for t, side in laid))


def _width(piece: Piece, w: int, h: int) -> int:
    return h if piece.sideways else w


def flow(groups: Iterable[Group], scale: float, width: int, text_size: int) -> tuple[list[Spot], int]:
    """``groups`` in lines ``width`` wide at ``scale``: the spots and how many lines they take (0: none)."""
    w, h = sprites.size(scale)
    gap = round(GAP * scale)
    space = round(3 * scale)
    spots: list[Spot] = []
    x, line, used = 0, 0, False
    for g in groups:
        if not g.pieces:
            continue
        words = fonts.text_width(g.after, text_size) + space if g.after else 0
        length = sum(_width(p, w, h) for p in g.pieces) + words
        breakable = g.breakable or length > width  # a hand laid face up may be longer than a line
        if used and not breakable and x + gap + length > width:
            x, line = 0, line + 1
        elif used:
            x += gap
            if breakable and x + _width(g.pieces[0], w, h) > width:
                x, line = 0, line + 1
        for p in g.pieces:
            pw = _width(p, w, h)
            if breakable and x and x + pw > width:
                x, line = 0, line + 1
            spots.append(Spot(x, line, p))
            x += pw
        if g.after:
            spots.append(Spot(x + space, line, text=g.after))
            x += words
        used = True
    return spots, line + 1 if used else 0


@cache
def _shade(w: int, h: int) -> Image.Image:
    return Image.new("RGBA", (w, h), SHADE)


def draw(
    cv: Canvas, spots: Sequence[Spot], x0: int, y0: int, scale: float, line_h: int, text_size: int
) -> None:
    """Paste ``spots`` with the panel's top-left corner at (x0, y0), lines ``line_h`` apart."""
    w, h = sprites.size(scale)
    for s in spots:
        x, y = x0 + s.x, y0 + s.line * line_h
        if s.piece is None:
            cv.text((x, y + h / 2), s.text, text_size, cv.theme.text_dim)
        elif s.piece.sideways:  # turned, lying along the bottom edge of the line
            cv.tile(s.piece.tile, x, y + h - w, scale, s.piece.variant, rotation=90)
        else:
            cv.tile(s.piece.tile, x, y, scale, s.piece.variant)
            if s.piece.taken:
                cv.paste(_shade(w, h), (x, y))
