"""PNG encoding tuned for speed and size: a fixed 256-colour palette per theme, built once from every
sprite and UI colour of the theme (and its decorated backdrop), so each image is mapped (cheap) instead
of analysed (costly), and a low zlib level, which on flat palette images costs little size."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw

from . import fonts, sprites
from .theme import FELT, Theme

COMPRESS_LEVEL = 3


def palette(theme: Theme = FELT) -> Image.Image:
    """A 'P' image whose palette covers ``theme``'s tiles (all kinds, variants, both scales), its UI and,
    for a decorated theme, its backdrop (built once per theme)."""
    return _palette(theme)


@cache
def _palette(theme: Theme) -> Image.Image:
    sheets = [sprites.sheet(1, 15, theme.tiles), sprites.sheet(2, 15, theme.tiles)]
    swatch_h = 40
    width = max(s.width for s in sheets)
    colours = theme.ui_colours
    backdrop = theme.backdrop(width, 240) if theme.decoration != "none" else None
    height = sum(s.height for s in sheets) + swatch_h * len(colours) + (backdrop.height if backdrop else 0)
    src = Image.new("RGB", (width, height), theme.felt)
    y = 0
    for s in sheets:
        src.paste(s, (0, y), s)
        y += s.height
    draw = ImageDraw.Draw(src)
    for bg in colours:  # antialiased text of every colour on every background
        draw.rectangle((0, y, width, y + swatch_h), fill=bg)
        x = 4
        for fg in colours:
            x += fonts.draw_text(draw, (x, y + swatch_h / 2), "東9", 18, fg) + 6
        y += swatch_h
    if backdrop is not None:
        src.paste(backdrop, (0, y))
    return src.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def to_png(im: Image.Image, compress_level: int = COMPRESS_LEVEL, theme: Theme = FELT) -> bytes:
    """Encode an RGB image as a palette PNG, on ``theme``'s palette."""
    if im.mode != "RGB":
        im = im.convert("RGB")
    mapped = im.quantize(palette=palette(theme), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    mapped.save(buf, "PNG", compress_level=compress_level)
    return buf.getvalue()
