"""A drawing surface that pastes cached sprites and writes text, and remembers both.

The record is how tests prove that a public image holds no concealed tile and says what it
should: they read which sprites and which strings went onto the picture instead of guessing
from pixels."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import fonts, sprites
from .theme import FELT, Theme


@dataclass(frozen=True, slots=True)
class Placed:
    """One sprite on the picture: ``tile`` is ``sprites.BACK`` for a face-down tile."""

    tile: int
    x: int
    y: int
    scale: float
    variant: str
    rotation: int


@dataclass(frozen=True, slots=True)
class Written:
    """One string on the picture, exactly as drawn (after any shortening to fit)."""

    text: str
    x: float
    y: float
    size: int


class Canvas:
    """``theme``: the colours and the tiles' skin the picture is drawn in (render/theme.py)."""

    def __init__(self, background: Image.Image, theme: Theme = FELT) -> None:
        self.theme = theme
        self.im = background.copy()
        self.im.load()
        self._core = self.im.im
        self.draw = ImageDraw.Draw(self.im)
        self.placed: list[Placed] = []
        self.written: list[Written] = []

    def tile(
        self, tile: int, x: int, y: int, scale: float, variant: str = sprites.PLAIN, rotation: int = 0
    ) -> tuple[int, int]:
        """Paste one tile with its top-left corner at (x, y); returns its pixel size."""
        im = sprites.sprite(tile, scale, variant, rotation, self.theme.tiles)
        # Pillow's core paste: Image.paste's checks cost three times the paste of a small sprite, and a
        # crowded picture pastes hundreds (the canvas is a copy, loaded and mutable; the sprite is RGBA)
        self._core.paste(im.im, (x, y, x + im.width, y + im.height), im.im)
        self.placed.append(Placed(tile, x, y, scale, variant, rotation))
        return im.size

    def text(self, xy: tuple[float, float], text: str, size: int, fill, anchor: str = "lm") -> int:
        """Write ``text`` (see ``fonts.draw_text``); returns its width in pixels."""
        self.written.append(Written(text, xy[0], xy[1], size))
        return fonts.paste_text(self.im, xy, text, size, fill, anchor)

    def paste(self, im: Image.Image, xy: tuple[int, int]) -> None:
        self.im.paste(im, xy, im if im.mode == "RGBA" else None)

    @property
    def faces(self) -> list[int]:
        """Tiles shown face up, in paste order."""
        return [p.tile for p in self.placed if p.tile != sprites.BACK]

    @property
    def texts(self) -> list[str]:
        """Strings written, in drawing order."""
        return [w.text for w in self.written]
