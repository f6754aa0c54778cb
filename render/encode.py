"""PNG encoding tuned for speed and size: a fixed 256-colour palette built once from every
sprite and UI colour, so each image is mapped (cheap) instead of analysed (costly), and a low
zlib level, which on flat palette images costs little size."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image, ImageDraw

from . import fonts, sprites, theme

COMPRESS_LEVEL = 3


@cache
def palette() -> Image.Image:
    """A 'P' image whose palette covers the tiles (all kinds, variants, both scales) and the UI."""
    sheets = [sprites.sheet(1, 15), sprites.sheet(2, 15)]
    swatch_h = 40
    width = max(s.width for s in sheets)
    height = sum(s.height for s in sheets) + swatch_h * len(theme.UI_COLOURS)
    src = Image.new("RGB", (width, height), theme.FELT)
    y = 0
    for s in sheets:
        src.paste(s, (0, y), s)
        y += s.height
    draw = ImageDraw.Draw(src)
    for bg in theme.UI_COLOURS:  # antialiased text of every colour on every background
        draw.rectangle((0, y, width, y + swatch_h), fill=bg)
        x = 4
        for fg in theme.UI_COLOURS:
            x += fonts.draw_text(draw, (x, y + swatch_h / 2), "東9", 18, fg) + 6
        y += swatch_h
    return src.quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def to_png(im: Image.Image, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """Encode an RGB image as a palette PNG."""
    if im.mode != "RGB":
        im = im.convert("RGB")
    mapped = im.quantize(palette=palette(), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    mapped.save(buf, "PNG", compress_level=compress_level)
    return buf.getvalue()
