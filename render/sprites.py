"""Tile sprites, drawn in code: ivory faces with a jade back edge, classic pip and stick layouts.

Each sprite is drawn once at 4× supersampling (smooth circles and sticks), scaled down, and
cached per ``(tile, scale, variant, rotation)``; everything else only pastes. ``functools.cache``
may build a sprite twice when two threads race, but the result is identical either way.

Geometry is written in tile units: a tile is ``W × H`` = 30 × 40 units including its 3D edge, and
``scale`` is pixels per unit (1× → 30×40 px, 2× → 60×80 px).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from math import cos, pi, sin

from PIL import Image, ImageDraw

from engine.tiles import HIDDEN, number_of, suit_of

from . import fonts
from .theme import FELT_SKIN, TileSkin

W, H = 30, 40  # tile units, edge included
FACE_BOTTOM = 35.0  # the face ends here; below is the tile's thickness
SS = 4  # supersampling factor while drawing

BACK = HIDDEN  # sprite key of a face-down tile (the engine's own marker for hidden tiles)

# Variants: a plain tile, the freshly drawn tile, and a claimable / last-discarded tile.
PLAIN, DRAWN, LAST = "plain", "drawn", "last"
VARIANTS = (PLAIN, DRAWN, LAST)

IVORY = (251, 247, 234)
IVORY_SHADE = (236, 228, 205)
BODY = (222, 211, 182)
JADE = (31, 112, 82)
JADE_DARK = (18, 72, 52)
JADE_LIGHT = (62, 150, 112)
OUTLINE = (92, 82, 62)

BLACK = (24, 24, 28)
RED = (200, 32, 42)
GREEN = (24, 122, 60)
BLUE = (29, 79, 156)
GOLD = (242, 183, 5)
HIGHLIGHT = (255, 92, 30)

NUMERALS = "一二三四五六七八九"
HONOURS = "東南西北白發中"
FLOWERS = "春夏秋冬梅蘭菊竹"
FLOWER_COLOURS = (
    (34, 139, 64),  # 春 spring green
    (206, 40, 40),  # 夏 summer red
    (196, 110, 16),  # 秋 autumn amber
    (36, 86, 170),  # 冬 winter blue
    (200, 30, 100),  # 梅 plum blossom
    (112, 58, 160),  # 蘭 orchid purple
    (190, 140, 0),  # 菊 chrysanthemum gold
    (30, 110, 50),  # 竹 bamboo green
)

Pip = tuple[float, float, tuple[int, int, int]]

# 筒: circle centres (x, y, colour) in tile units, the classic arrangements.
_PIN_LAYOUTS: dict[int, tuple[float, tuple[Pip, ...]]] = {
    2: (6.0, ((15, 10, GREEN), (15, 25.5, BLUE))),
    3: (4.8, ((8, 7.8, BLUE), (15, 17.6, RED), (22, 27.4, GREEN))),
    4: (4.9, ((9.4, 10.8, BLUE), (20.6, 10.8, GREEN), (9.4, 24.6, GREEN), (20.6, 24.6, BLUE))),
    5: (
        4.3,
        ((8.3, 8.6, BLUE), (21.7, 8.6, GREEN), (15, 17.6, RED), (8.3, 26.6, GREEN), (21.7, 26.6, BLUE)),
    ),
    6: (
        4.0,
        (
            (10, 7.6, GREEN),
            (20, 7.6, GREEN),
            (10, 19.2, RED),
            (20, 19.2, RED),
            (10, 28.2, RED),
            (20, 28.2, RED),
        ),
    ),
    7: (
        3.45,
        (
            (7.6, 5.6, GREEN),
            (15, 9.2, GREEN),
            (22.4, 12.8, GREEN),
            (10, 21.0, RED),
            (20, 21.0, RED),
            (10, 29.2, RED),
            (20, 29.2, RED),
        ),
    ),
    8: (3.5, tuple((x, y, BLUE) for y in (6.4, 13.7, 21.0, 28.3) for x in (10, 20))),
    9: (
        3.55,
        tuple((x, y, c) for y, c in ((7.6, BLUE), (17.6, RED), (27.6, GREEN)) for x in (7.6, 15, 22.4)),
    ),
}

Stick = tuple[float, float, tuple[int, int, int], float]  # x, y, colour, tilt in degrees

Upright = tuple[float, float, tuple[int, int, int]]  # x, y, colour of a stick standing straight

# 索: stick centres and colour, plus the stick length, the classic arrangements (drawn upright).
_SOU_LAYOUTS: dict[int, tuple[float, tuple[Upright, ...]]] = {
    2: (12.5, ((15, 10.2, BLUE), (15, 25.2, GREEN))),
    3: (12.5, ((15, 10.2, BLUE), (9, 25.2, GREEN), (21, 25.2, GREEN))),
    4: (12.5, ((9, 10.2, GREEN), (21, 10.2, BLUE), (9, 25.2, BLUE), (21, 25.2, GREEN))),
    5: (
        12.0,
        ((7.6, 10.2, GREEN), (22.4, 10.2, BLUE), (15, 17.7, RED), (7.6, 25.2, BLUE), (22.4, 25.2, GREEN)),
    ),
    6: (12.5, tuple((x, y, GREEN if y < 17 else BLUE) for y in (10.2, 25.2) for x in (7.4, 15, 22.6))),
    7: (
        8.6,
        ((15, 7.0, RED),)
        + tuple((x, y, GREEN if y < 25 else BLUE) for y in (17.7, 28.3) for x in (7.4, 15, 22.6)),
    ),
    9: (
        8.6,
        tuple((x, y, c) for y in (7.0, 17.7, 28.3) for x, c in ((7.4, GREEN), (15, RED), (22.6, BLUE))),
    ),
}
# 8索: an M over a W (|\/| over |/\|).
_SOU_EIGHT: tuple[Stick, ...] = (
    (5.6, 10.2, GREEN, 0),
    (11.6, 10.2, BLUE, 24),
    (18.4, 10.2, BLUE, -24),
    (24.4, 10.2, GREEN, 0),
    (5.6, 25.2, GREEN, 0),
    (11.6, 25.2, BLUE, -24),
    (18.4, 25.2, BLUE, 24),
    (24.4, 25.2, GREEN, 0),
)


def size(scale: float = 1) -> tuple[int, int]:
    """Pixel size of an upright sprite at ``scale`` (pixels per tile unit)."""
    return round(W * scale), round(H * scale)


class _Pen:
    """Draws in tile units on a supersampled RGBA canvas."""

    def __init__(self, scale: float) -> None:
        self.k = round(scale * SS * 4) / 4
        self.im = Image.new("RGBA", (round(W * self.k), round(H * self.k)), (0, 0, 0, 0))
        self.draw = ImageDraw.Draw(self.im)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        k = self.k
        return round(x0 * k), round(y0 * k), round(x1 * k) - 1, round(y1 * k) - 1

    def rrect(self, x0: float, y0: float, x1: float, y1: float, r: float, fill=None, outline=None, width=0.0):
        self.draw.rounded_rectangle(
            self.box(x0, y0, x1, y1),
            round(r * self.k),
            fill=fill,
            outline=outline,
            width=round(width * self.k),
        )

    def circle(self, x: float, y: float, r: float, fill=None, outline=None, width: float = 0.0) -> None:
        self.draw.ellipse(
            self.box(x - r, y - r, x + r, y + r), fill=fill, outline=outline, width=round(width * self.k)
        )

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill) -> None:
        self.draw.ellipse(self.box(x - rx, y - ry, x + rx, y + ry), fill=fill)

    def polygon(self, points: Iterable[tuple[float, float]], fill) -> None:
        self.draw.polygon([(x * self.k, y * self.k) for x, y in points], fill=fill)

    def line(self, points: Iterable[tuple[float, float]], fill, width: float) -> None:
        self.draw.line(
            [(x * self.k, y * self.k) for x, y in points],
            fill=fill,
            width=round(width * self.k),
            joint="curve",
        )

    def char(self, ch: str, x: float, y: float, size_units: float, fill) -> None:
        font = fonts.tile_font(round(size_units * self.k))
        with fonts.LOCK:
            self.draw.text((x * self.k, y * self.k), ch, font=font, fill=fill, anchor="mm")

    def ui_text(self, text: str, x: float, y: float, size_units: float, fill) -> None:
        font = fonts.ui_font(round(size_units * self.k))
        with fonts.LOCK:
            self.draw.text((x * self.k, y * self.k), text, font=font, fill=fill, anchor="mm")

    def paste(self, im: Image.Image, x: float, y: float) -> None:
        """Composite ``im`` centred on (x, y)."""
        self.im.alpha_composite(im, (round(x * self.k - im.width / 2), round(y * self.k - im.height / 2)))

    def done(self, scale: float) -> Image.Image:
        return self.im.resize(size(scale), Image.Resampling.LANCZOS)


def _body(pen: _Pen, face: tuple[int, int, int], face_shade: tuple[int, int, int], edge) -> None:
    """Tile body: the coloured back layer at the bottom, the body, the face with a soft gradient."""
    pen.rrect(0, 0, W, H, 3.6, fill=edge, outline=OUTLINE, width=0.35)
    pen.rrect(0.35, 0.3, W - 0.35, H - 3.0, 3.3, fill=BODY)
    steps = 14
    for i in range(steps):  # a gradient from the lit top-left to the shaded bottom-right
        t = i / (steps - 1)
        colour = tuple(round(a + (b - a) * t) for a, b in zip(face, face_shade, strict=True))
        inset = 0.5 + 0.05 * i
        pen.rrect(
            inset,
            inset * 0.8,
            W - 0.7 - 0.03 * (steps - i),
            FACE_BOTTOM - 0.02 * (steps - i),
            3.0,
            fill=colour,
        )
    pen.rrect(0.5, 0.4, W - 0.7, FACE_BOTTOM, 3.0, outline=(255, 255, 255, 150), width=0.35)


def _circle_pip(pen: _Pen, x: float, y: float, r: float, colour, face=IVORY) -> None:
    """A 筒 coin: coloured disc, ivory ring, coloured core, ivory eye."""
    pen.circle(x, y, r, fill=colour)
    pen.circle(x, y, r * 0.74, fill=face)
    pen.circle(x, y, r * 0.52, fill=colour)
    pen.circle(x, y, r * 0.2, fill=face)


def _one_pin(pen: _Pen, ink=None, face=IVORY) -> None:
    """1筒: one large ornate coin (``ink``: every mark in the suit's one ink)."""
    x, y = 15, 17.7
    pen.circle(x, y, 11.4, fill=ink or GREEN)
    pen.circle(x, y, 10.2, fill=face)
    for i in range(12):
        a = i * pi / 6
        pen.circle(x + 8.3 * cos(a), y + 8.3 * sin(a), 1.45, fill=ink or BLUE)
    pen.circle(x, y, 6.2, fill=ink or RED)
    pen.circle(x, y, 4.6, fill=face)
    pen.circle(x, y, 3.4, fill=ink or GREEN)
    pen.circle(x, y, 1.5, fill=face)


def _stick_image(k: float, length: float, colour, tilt: float, w: float = 5.0) -> Image.Image:
    """One bamboo stick: rounded body, lighter centre line, joints at the ends and middle."""
    im = Image.new("RGBA", (round(w * k) + 2, round(length * k) + 2), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    r = round(w * k / 2)
    d.rounded_rectangle((0, 0, im.width - 1, im.height - 1), r, fill=colour)
    light = tuple(min(255, c + 90) for c in colour)
    cx = im.width / 2
    d.line([(cx, r), (cx, im.height - r)], fill=light, width=max(1, round(0.7 * k)))
    dark = tuple(max(0, c - 60) for c in colour)
    for fy in (0.5,):
        y = im.height * fy
        d.rectangle((0, y - 0.45 * k, im.width, y + 0.45 * k), fill=dark)
    for y in (0.9 * k, im.height - 0.9 * k):
        d.rectangle((0.35 * k, y - 0.3 * k, im.width - 0.35 * k, y + 0.3 * k), fill=dark)
    if tilt:
        im = im.rotate(tilt, resample=Image.Resampling.BICUBIC, expand=True)
    return im


def _sticks(pen: _Pen, sticks: Iterable[Stick], length: float, width: float = 5.0) -> None:
    for x, y, colour, tilt in sticks:
        pen.paste(_stick_image(pen.k, length, colour, tilt, width), x, y)


def _bird(pen: _Pen, ink=None, face=IVORY) -> None:
    """1索: the sparrow (麻雀) perched on a bamboo stick (``ink``: its feathers in the suit's one ink)."""
    BLUE_, GREEN_, RED_ = (ink, ink, ink) if ink else (BLUE, GREEN, RED)
    pen.line([(5, 29.5), (25, 29.5)], fill=ink or (150, 110, 60), width=1.4)  # perch
    for x0, x1, colour in ((3.5, 14, BLUE_), (4.5, 15, GREEN_), (6.5, 15.5, RED_)):  # tail feathers
        pen.polygon(
            [(x1, 20), (x0, 9 + (x1 - x0) * 0.2), (x0 + 2.6, 8.6 + (x1 - x0) * 0.2), (x1 + 1.4, 18.6)],
            fill=colour,
        )
    pen.ellipse(15.5, 20.6, 7.2, 6.0, fill=GREEN_)  # body
    pen.ellipse(17.0, 23.0, 4.6, 3.4, fill=(246, 226, 170) if ink is None else face)  # breast
    pen.ellipse(13.8, 19.6, 4.8, 3.2, fill=(16, 92, 46) if ink is None else (90, 90, 90))  # wing
    pen.line([(11, 19), (16.5, 20.5)], fill=(120, 190, 120) if ink is None else face, width=0.6)
    pen.circle(21.6, 12.8, 3.9, fill=GREEN_)  # head
    pen.polygon([(20, 9.2), (22.2, 5.6), (23.2, 9.6)], fill=RED_)  # crest
    pen.polygon([(24.8, 12.0), (28.4, 13.6), (24.8, 14.6)], fill=(226, 140, 20) if ink is None else ink)  # beak
    pen.circle(22.9, 12.2, 0.95, fill=face)
    pen.circle(23.1, 12.2, 0.55, fill=BLACK)
    for x in (14.5, 17.5):  # legs
        pen.line([(x, 25.8), (x - 0.6, 29.4)], fill=RED_, width=0.8)


def _face(pen: _Pen, tile: int, skin: TileSkin = FELT_SKIN) -> None:
    suit, n = suit_of(tile), number_of(tile)
    ink = skin.ink(suit)
    face = skin.face
    if suit == "m":
        pen.char(NUMERALS[n - 1], 15, 10.4, 15.5, ink or skin.black)
        pen.char("萬", 15, 25.4, 15.5, ink or RED)
    elif suit == "p":
        if n == 1:
            _one_pin(pen, ink, face)
        else:
            r, pips = _PIN_LAYOUTS[n]
            for x, y, colour in pips:
                _circle_pip(pen, x, y, r, ink or colour, face)
    elif suit == "s":
        if n == 1:
            _bird(pen, ink, face)
        elif n == 8:
            _sticks(pen, ((x, y, ink or c, tilt) for x, y, c, tilt in _SOU_EIGHT), 12.0, 4.4)
        else:
            length, sticks = _SOU_LAYOUTS[n]
            _sticks(pen, ((x, y, ink or c, 0.0) for x, y, c in sticks), length)
    elif suit == "z":
        honours = dict(skin.honours)
        if n == 5:  # 白: a blank framed in blue (or the theme's ink)
            frame = honours.get(5, BLUE)
            pen.rrect(5.6, 5.4, W - 5.6, FACE_BOTTOM - 5.2, 1.2, outline=frame, width=1.5)
            pen.rrect(8.0, 7.8, W - 8.0, FACE_BOTTOM - 7.6, 0.6, outline=frame, width=0.7)
        else:
            colour = honours.get(n) or {6: GREEN, 7: RED}.get(n, skin.black)
            pen.char(HONOURS[n - 1], 15, 17.0, 22.5, colour)
    else:  # flowers: a tinted medallion, the character, the number 1-4 in a corner
        colour = FLOWER_COLOURS[n - 1]
        pale = tuple(round(255 - (255 - c) * 0.16) for c in colour)
        pen.circle(15, 19.5, 11.0, fill=pale)
        pen.char(FLOWERS[n - 1], 15, 19.6, 17.5, colour)
        corner = RED if n <= 4 else BLUE
        pen.ui_text(str((n - 1) % 4 + 1), 5.0, 5.0, 7.5, corner)
        pen.ui_text("花", W - 5.0, 5.0, 5.0, (150, 130, 100))


def _back(pen: _Pen, skin: TileSkin = FELT_SKIN) -> None:
    pen.rrect(0, 0, W, H, 3.6, fill=BODY, outline=OUTLINE, width=0.35)
    pen.rrect(0.35, 0.3, W - 0.35, H - 2.2, 3.3, fill=(236, 228, 205))
    steps = 10
    for i in range(steps):
        t = i / (steps - 1)
        colour = tuple(round(a + (b - a) * t) for a, b in zip(skin.back_light, skin.back, strict=True))
        pen.rrect(0.5 + 0.05 * i, 0.4 + 0.04 * i, W - 0.7, FACE_BOTTOM, 3.0, fill=colour)
    pen.rrect(3.2, 3.0, W - 3.4, FACE_BOTTOM - 2.8, 2.0, outline=skin.back_dark, width=0.5)


def _highlight(pen: _Pen, variant: str) -> None:
    if variant == DRAWN:
        pen.rrect(0.2, 0.2, W - 0.2, H - 0.2, 3.6, outline=GOLD, width=1.6)
    elif variant == LAST:  # thick enough to find at a glance on a phone (about 2 px at 390 px)
        pen.rrect(0.1, 0.1, W - 0.1, H - 0.1, 3.6, outline=HIGHLIGHT, width=3.0)


@cache
def _upright(tile: int, scale: float, variant: str, skin: TileSkin) -> Image.Image:
    pen = _Pen(scale)
    if tile == BACK:
        _back(pen, skin)
    else:
        face = (255, 222, 190) if variant == LAST else skin.face
        edge = skin.ink(suit_of(tile)) or skin.back  # a suit's own ink: its edge says the suit too
        _body(pen, face, skin.face_shade, edge)
        _face(pen, tile, skin)
    _highlight(pen, variant)
    return pen.done(scale)


@cache
def sprite(
    tile: int, scale: float = 1, variant: str = PLAIN, rotation: int = 0, skin: TileSkin = FELT_SKIN
) -> Image.Image:
    """The RGBA sprite of ``tile`` (``BACK`` for face down), turned ``rotation`` degrees
    counter-clockwise (0, 90, 180, 270), in a theme's ``skin``. Cached; callers must not modify it."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown sprite variant {variant!r}")
    if not (tile == BACK or 0 <= tile < 42):
        raise ValueError(f"no sprite for tile {tile}")
    im = _upright(tile, scale, variant, skin)
    if rotation % 360:
        im = im.transpose(
            {90: Image.Transpose.ROTATE_90, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_270}[
                rotation % 360
            ]
        )
    return im


def sheet(scale: float = 2, columns: int = 9, skin: TileSkin = FELT_SKIN) -> Image.Image:
    """All 42 tiles plus the back and the highlights on one image, for eyeballing the art."""
    keys = [(t, PLAIN) for t in range(42)] + [(BACK, PLAIN), (0, DRAWN), (9, LAST)]
    w, h = size(scale)
    gap = round(4 * scale)
    rows = -(-len(keys) // columns)
    im = Image.new("RGBA", (columns * (w + gap) + gap, rows * (h + gap) + gap), (20, 90, 60, 255))
    for i, (t, v) in enumerate(keys):
        im.alpha_composite(
            sprite(t, scale, v, skin=skin), (gap + (i % columns) * (w + gap), gap + (i // columns) * (h + gap))
        )
    return im
