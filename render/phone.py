"""How large a picture's parts come out on a phone: Discord shows an attachment at most as wide as
the chat, about 390 px on a common phone held upright, scaling a wider picture down (never a
narrower one up). The targets (DESIGN.md): hand tiles ≥ 36 px, the table's discards ≥ 16 px."""

from __future__ import annotations

from collections.abc import Iterable

from . import sprites
from .canvas import Canvas

PHONE_WIDTH = 390
HAND_TILE_MIN = 36
DISCARD_MIN = 16


def on_screen(pixels: float, image_width: int, display: int = PHONE_WIDTH) -> float:
    """``pixels`` of a picture ``image_width`` wide, as shown ``display`` px wide at most."""
    return pixels * min(1.0, display / image_width)


def tile_width(cv: Canvas, scales: Iterable[float], display: int = PHONE_WIDTH) -> float | None:
    """On-screen width of the narrowest tile face pasted at one of ``scales`` (a sideways tile
    counts its short side), None when there is none."""
    wanted = {round(s, 6) for s in scales}
    widths = [sprites.size(p.scale)[0] for p in cv.placed if round(p.scale, 6) in wanted]
    return on_screen(min(widths), cv.im.width, display) if widths else None
