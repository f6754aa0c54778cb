"""Themes: the colours every picture draws with, the tiles' skin and the backdrop's decoration, so the DM
picture, the hand, the table, the score sheet and the replays read as one set in each theme, and each
theme's PNG palette is built from one list (render/encode.py).

Four themes, by the names a person's or a table's setting stores (document 003 promises 「視覺豐富的玩牌
情境,海洋風、櫻花風」):

* ``felt``: the green felt and jade-backed tiles of before (its pictures are byte for byte those of
  before the themes);
* ``ocean`` (海洋): a deep-sea gradient crossed by swells, navy panels edged in aqua, tiles backed in sea
  blue;
* ``sakura`` (櫻花): a dusky rose cloth strewn with blossoms and falling petals, plum panels, tiles backed
  in cherry pink;
* ``contrast``: black and white for low vision, and suits that stay apart for colour-blind players: every
  mark of a suit in one ink, 萬 vermillion, 筒 blue, 索 black, and the tile's edge in its suit's ink as a
  second cue. The three inks stay at least ΔE 45 apart (CIELAB) under simulated protanopia, deuteranopia
  and tritanopia (Machado 2009, full severity; tests/render/test_themes.py measures the drawn tiles).

A picture takes its theme as ``theme``: a ``Theme`` or its name; an unknown name is felt (a stored
setting from a later version draws rather than fails)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from math import pi, sin

from PIL import Image, ImageDraw

Colour = tuple[int, int, int]

WIND_NAMES = "東南西北"


@dataclass(frozen=True, slots=True)
class TileSkin:
    """How a theme's tiles look (render/sprites.py): the face, the coloured back layer and the back, and
    for ``suits`` one ink per suit (``m``, ``p``, ``s``) for every mark of that suit, with the tile's
    edge in it too; empty: the classic red, green and blue of each layout."""

    face: Colour = (251, 247, 234)
    face_shade: Colour = (236, 228, 205)
    back: Colour = (31, 112, 82)
    back_dark: Colour = (18, 72, 52)
    back_light: Colour = (62, 150, 112)
    suits: tuple[tuple[str, Colour], ...] = ()
    honours: tuple[tuple[int, Colour], ...] = ()  # 5: 白's frame, 6: 發, 7: 中; winds: ``black``
    black: Colour = (24, 24, 28)

    def ink(self, suit: str) -> Colour | None:
        return dict(self.suits).get(suit)


FELT_SKIN = TileSkin()


@dataclass(frozen=True, slots=True)
class Theme:
    """A picture's colours, the tiles' skin, and the decoration of its backdrop (``decoration``: none,
    waves or petals). ``felt`` is the cloth the tiles lie on; ``panel`` the boxes and plates; ``paper``,
    ``ink`` and ``rule`` the score sheet's."""

    name: str
    felt: Colour
    felt_dark: Colour
    felt_light: Colour
    tray: Colour
    panel: Colour
    panel_edge: Colour
    text: Colour
    text_dim: Colour
    gold: Colour
    red: Colour
    win: Colour
    loss: Colour
    paper: Colour
    ink: Colour
    ink_dim: Colour
    rule: Colour
    paper_shade: Colour  # the score sheet's payments box
    title: Colour  # the score sheet's winning title
    up: Colour  # the score sheet's gains and losses
    down: Colour
    tiles: TileSkin = field(default_factory=TileSkin)
    decoration: str = "none"
    deep: Colour | None = None  # waves: the bottom of the gradient, from ``felt`` at the top
    motif: Colour | None = None  # waves' crests, petals' blossoms
    sheet_in_palette: bool = True  # the score sheet's own colours in the PNG palette (felt's is that of before)

    @property
    def ui_colours(self) -> tuple[Colour, ...]:
        """Every colour text or boxes are drawn in, for the PNG palette."""
        return (
            self.felt,
            self.felt_dark,
            self.felt_light,
            self.tray,
            self.panel,
            self.panel_edge,
            self.text,
            self.text_dim,
            self.gold,
            self.red,
            self.win,
            self.loss,
            self.paper,
            self.ink,
            self.ink_dim,
            self.rule,
        ) + ((self.paper_shade, self.title, self.up, self.down) if self.sheet_in_palette else ())

    def backdrop(self, width: int, height: int) -> Image.Image:
        """The cloth of a ``width`` × ``height`` picture, decorated (cached: callers copy, never draw on it)."""
        return _backdrop(self, width, height)

    def panel_box(self, im: Image.Image, box: tuple[int, int, int, int], radius: int, outline: Colour, width: int) -> None:
        """A panel on ``im`` (a picture on this theme's backdrop of the same size): flat ``panel`` on an
        undecorated theme; on a decorated one the cloth shows faintly through it, so the waves or the
        blossoms run under the rivers too (text keeps its contrast: the panel covers 80 %)."""
        draw = ImageDraw.Draw(im)
        if self.decoration == "none":
            draw.rounded_rectangle(box, radius, fill=self.panel, outline=outline, width=width)
            return
        x0, y0, x1, y1 = box
        glass = _glass(self, im.width, im.height).crop((x0, y0, x1 + 1, y1 + 1))
        mask = Image.new("L", glass.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, x1 - x0, y1 - y0), radius, fill=255)
        im.paste(glass, (x0, y0), mask)
        draw.rounded_rectangle(box, radius, outline=outline, width=width)


FELT = Theme(
    "felt",
    felt=(22, 84, 62),
    felt_dark=(15, 62, 45),
    felt_light=(32, 104, 78),
    tray=(18, 70, 52),
    panel=(12, 44, 34),
    panel_edge=(58, 128, 98),
    text=(240, 236, 222),
    text_dim=(160, 190, 174),
    gold=(242, 190, 40),
    red=(224, 64, 56),
    win=(110, 220, 130),
    loss=(255, 120, 110),
    paper=(250, 246, 236),
    ink=(40, 36, 30),
    ink_dim=(120, 110, 95),
    rule=(214, 204, 182),
    paper_shade=(242, 236, 220),
    title=(200, 32, 42),
    up=(30, 140, 70),
    down=(200, 40, 40),
    sheet_in_palette=False,
)

OCEAN = Theme(
    "ocean",
    felt=(20, 92, 138),
    felt_dark=(9, 46, 82),
    felt_light=(78, 170, 205),
    tray=(12, 62, 104),
    panel=(7, 32, 60),
    panel_edge=(70, 160, 200),
    text=(236, 246, 250),
    text_dim=(150, 196, 216),
    gold=(255, 206, 96),
    red=(255, 112, 92),
    win=(120, 230, 190),
    loss=(255, 140, 120),
    paper=(240, 247, 250),
    ink=(16, 40, 60),
    ink_dim=(92, 120, 140),
    rule=(184, 210, 222),
    paper_shade=(222, 236, 244),
    title=(10, 92, 150),
    up=(0, 128, 120),
    down=(206, 70, 50),
    tiles=TileSkin(
        face=(250, 251, 246),
        face_shade=(224, 232, 234),
        back=(24, 96, 160),
        back_dark=(10, 52, 98),
        back_light=(70, 150, 210),
    ),
    decoration="waves",
    deep=(6, 40, 76),
    motif=(120, 200, 230),
)

SAKURA = Theme(
    "sakura",
    felt=(128, 58, 88),
    felt_dark=(86, 32, 58),
    felt_light=(214, 140, 170),
    tray=(104, 44, 72),
    panel=(58, 20, 40),
    panel_edge=(226, 146, 178),
    text=(255, 242, 246),
    text_dim=(236, 186, 204),
    gold=(255, 214, 110),
    red=(255, 120, 140),
    win=(160, 236, 170),
    loss=(255, 160, 140),
    paper=(255, 246, 248),
    ink=(60, 24, 40),
    ink_dim=(140, 96, 114),
    rule=(236, 200, 212),
    paper_shade=(250, 228, 234),
    title=(190, 30, 80),
    up=(30, 140, 70),
    down=(196, 40, 70),
    tiles=TileSkin(
        face=(255, 250, 244),
        face_shade=(240, 226, 222),
        back=(214, 96, 140),
        back_dark=(150, 48, 92),
        back_light=(240, 160, 190),
    ),
    decoration="petals",
    motif=(255, 196, 214),
)

VERMILLION: Colour = (213, 94, 0)  # Okabe & Ito's, as colour-blind-safe palettes use it
BLUE: Colour = (0, 114, 178)
BLACK: Colour = (0, 0, 0)

CONTRAST = Theme(
    "contrast",
    felt=(18, 18, 18),
    felt_dark=(0, 0, 0),
    felt_light=(150, 150, 150),
    tray=(34, 34, 34),
    panel=(0, 0, 0),
    panel_edge=(200, 200, 200),
    text=(255, 255, 255),
    text_dim=(215, 215, 215),
    gold=(255, 220, 0),
    red=(255, 150, 60),
    win=(110, 200, 255),  # gains sky blue, losses orange: apart for every colour vision, green and red are not
    loss=(255, 170, 60),
    paper=(255, 255, 255),
    ink=(0, 0, 0),
    ink_dim=(70, 70, 70),
    rule=(120, 120, 120),
    paper_shade=(232, 232, 232),
    title=(0, 0, 0),
    up=(0, 90, 170),
    down=(180, 70, 0),
    tiles=TileSkin(
        face=(255, 255, 255),
        face_shade=(238, 238, 238),
        back=(60, 60, 60),
        back_dark=(0, 0, 0),
        back_light=(120, 120, 120),
        suits=(("m", VERMILLION), ("p", BLUE), ("s", BLACK)),
        honours=((5, BLACK), (6, (0, 120, 90)), (7, VERMILLION)),
        black=BLACK,
    ),
)

THEMES: dict[str, Theme] = {t.name: t for t in (FELT, OCEAN, SAKURA, CONTRAST)}
DEFAULT = FELT


def get_theme(theme: Theme | str | None) -> Theme:
    """``theme`` as a ``Theme``: itself, the theme of that name, or felt for None or a name not known."""
    if isinstance(theme, Theme):
        return theme
    return THEMES.get(theme or "", DEFAULT)


# ---------------------------------------------------------------------- backdrops

GLASS = 0.8  # how much of a decorated theme's panel is its own colour, the rest the cloth under it


@lru_cache(maxsize=64)
def _glass(theme: Theme, width: int, height: int) -> Image.Image:
    return Image.blend(_backdrop(theme, width, height), Image.new("RGB", (width, height), theme.panel), GLASS)

SS = 2  # decorations are drawn at twice the size and scaled down: smooth curves and petals


@lru_cache(maxsize=64)  # the DM picture's height varies with its rivers and melds
def _backdrop(theme: Theme, width: int, height: int) -> Image.Image:
    if theme.decoration == "waves":
        return _waves(theme, width, height)
    if theme.decoration == "petals":
        return _petals(theme, width, height)
    return Image.new("RGB", (width, height), theme.felt)


def _gradient(top: Colour, bottom: Colour, width: int, height: int) -> Image.Image:
    column = Image.new("RGB", (1, height))
    for y in range(height):
        t = y / max(1, height - 1)
        column.putpixel((0, y), tuple(round(a + (b - a) * t) for a, b in zip(top, bottom, strict=True)))
    return column.resize((width, height), Image.Resampling.NEAREST)


def _waves(theme: Theme, width: int, height: int) -> Image.Image:
    """Ocean: light from the surface fading to the deep, swells rolling across it, a few bubbles rising."""
    assert theme.deep is not None and theme.motif is not None
    im = _gradient(theme.felt, theme.deep, width, height).convert("RGBA")
    layer = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    rng = random.Random(width * 7919 + height)  # the same picture size, the same sea
    spacing = 34
    for row, y0 in enumerate(range(-spacing // 2, height + spacing, spacing)):
        wavelength = 90 + 20 * (row % 3)
        amplitude = 5 + 2 * (row % 2)
        phase = rng.uniform(0, 2 * pi)
        alpha = 46 if row % 2 else 30
        points = [
            (x * SS, (y0 + amplitude * sin(2 * pi * x / wavelength + phase)) * SS) for x in range(0, width + 4, 3)
        ]
        d.line(points, fill=(*theme.motif, alpha), width=2 * SS, joint="curve")
        crest = [(x, y + 4 * SS) for x, y in points]
        d.line(crest, fill=(*theme.motif, alpha // 2), width=SS, joint="curve")
    for _ in range(max(6, width * height // 9000)):
        x, y, r = rng.uniform(0, width), rng.uniform(0, height), rng.uniform(1.5, 4.0)
        d.ellipse(((x - r) * SS, (y - r) * SS, (x + r) * SS, (y + r) * SS), outline=(*theme.motif, 70), width=SS)
    im.alpha_composite(layer.resize((width, height), Image.Resampling.LANCZOS))
    return im.convert("RGB")


def _blossom(d: ImageDraw.ImageDraw, x: float, y: float, r: float, colour: Colour, alpha: int, turn: float) -> None:
    """A five-petalled cherry blossom centred on (x, y), in supersampled pixels."""
    from math import cos

    for k in range(5):
        a = turn + k * 2 * pi / 5
        px, py = x + 0.55 * r * cos(a), y + 0.55 * r * sin(a)
        pr = 0.5 * r
        d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=(*colour, alpha))
        nx, ny = x + 1.02 * r * cos(a), y + 1.02 * r * sin(a)  # the notch at each petal's tip
        nr = 0.16 * r
        d.ellipse((nx - nr, ny - nr, nx + nr, ny + nr), fill=(0, 0, 0, 0))
    c = 0.22 * r
    d.ellipse((x - c, y - c, x + c, y + c), fill=(200, 70, 110, min(255, alpha + 60)))


def _petals(theme: Theme, width: int, height: int) -> Image.Image:
    """Sakura: blossoms scattered over a rose cloth, more in the corners, and single petals falling."""
    assert theme.motif is not None
    im = _gradient(theme.felt, theme.felt_dark, width, height).convert("RGBA")
    layer = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    rng = random.Random(width * 6007 + height)
    for _ in range(max(8, width * height // 7000)):
        x, y = rng.uniform(0, width), rng.uniform(0, height)
        r = rng.uniform(6, 15)
        _blossom(d, x * SS, y * SS, r * SS, theme.motif, rng.randint(80, 140), rng.uniform(0, 2 * pi))
    for _ in range(max(10, width * height // 5000)):  # falling petals: small tilted ovals
        x, y = rng.uniform(0, width) * SS, rng.uniform(0, height) * SS
        rx, ry = rng.uniform(2.5, 4.5) * SS, rng.uniform(1.4, 2.4) * SS
        petal = Image.new("RGBA", (round(2 * rx) + 2, round(2 * ry) + 2), (0, 0, 0, 0))
        ImageDraw.Draw(petal).ellipse((1, 1, 2 * rx, 2 * ry), fill=(*theme.motif, rng.randint(60, 110)))
        petal = petal.rotate(rng.uniform(0, 180), expand=True, resample=Image.Resampling.BICUBIC)
        layer.alpha_composite(petal, (max(0, round(x)), max(0, round(y))))
    im.alpha_composite(layer.resize((width, height), Image.Resampling.LANCZOS))
    return im.convert("RGB")
