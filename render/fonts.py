"""Fonts the project controls, and text drawing that never fails on a player's name.

The CJK glyphs come from the subsets in ``render/fonts/`` (see ``build_subset.py`` there), so the
images look the same on every machine. Player names may hold any character: characters outside
the subset are drawn with DejaVu Sans when the machine has it and has the glyph, else as ``?``.

FreeType faces are not safe to use from two threads at once, and the bot renders in worker
threads, so every FreeType call goes through one lock.
"""

from __future__ import annotations

import threading
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
TILE_FONT = FONT_DIR / "tiles.otf"
UI_FONT = FONT_DIR / "ui.otf"
# Tried in order for characters outside the subset (names): a full CJK face when the host has
# one (Debian: fonts-noto-cjk), then DejaVu for Latin/Cyrillic/Greek/symbols. (path, face index)
FALLBACK_FONTS: tuple[tuple[Path, int], ...] = (
    (Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"), 3),
    (Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"), 3),
    (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"), 0),
    (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), 0),
)
REPLACEMENT = "?"

LOCK = threading.RLock()  # guards every FreeType call (font objects are shared between threads)

Font = ImageFont.FreeTypeFont
Run = tuple[str, Font]


@cache
def ui_chars() -> frozenset[str]:
    """The characters the UI subset holds (written by build_subset.py next to the font)."""
    text = (FONT_DIR / "ui_chars.txt").read_text(encoding="utf-8")
    return frozenset(text.replace("\n", ""))


@cache
def tile_font(size: int) -> Font:
    """Serif face for the characters carved on tiles."""
    return ImageFont.truetype(str(TILE_FONT), size)


@cache
def ui_font(size: int) -> Font:
    """Sans face for labels, names and score items."""
    return ImageFont.truetype(str(UI_FONT), size)


@cache
def _fallbacks() -> tuple[tuple[Path, int], ...]:
    return tuple((path, index) for path, index in FALLBACK_FONTS if path.exists())


@cache
def fallback_font(which: int, size: int) -> Font:
    path, index = _fallbacks()[which]
    return ImageFont.truetype(str(path), size, index=index)


@cache
def _fallback_for(ch: str) -> int | None:
    """Index of the first fallback face with a real glyph for ``ch`` (not its .notdef box)."""
    for which in range(len(_fallbacks())):
        font = fallback_font(which, 24)
        with LOCK:
            mask = font.getmask(ch)
            notdef = font.getmask("\U0010fffd")
        if mask.size != notdef.size or bytes(mask) != bytes(notdef):
            return which
    return None


def _runs(text: str, size: int) -> list[Run]:
    """Split text into runs of one font each, replacing what no font can draw."""
    chars = ui_chars()
    primary = ui_font(size)
    runs: list[list] = []
    for ch in text:
        if ch in chars:
            font = primary
        elif ch.isspace():
            ch, font = " ", primary
        elif (which := _fallback_for(ch)) is not None:
            font = fallback_font(which, size)
        else:
            ch, font = REPLACEMENT, primary
        if runs and runs[-1][1] is font:
            runs[-1][0] += ch
        else:
            runs.append([ch, font])
    return [(t, f) for t, f in runs]


def text_width(text: str, size: int) -> int:
    with LOCK:
        return round(sum(font.getlength(t) for t, font in _runs(text, size)))


@lru_cache(maxsize=1024)
def fit(text: str, size: int, max_width: int) -> str:
    """``text`` shortened with an ellipsis so that it fits in ``max_width`` pixels."""
    if text_width(text, size) <= max_width:
        return text
    while text and text_width(text + "…", size) > max_width:
        text = text[:-1]
    return text + "…"


@cache
def _mid_offset(size: int) -> float:
    """Distance from the baseline up to the middle of a CJK glyph, for vertical centring."""
    with LOCK:
        top, bottom = ui_font(size).getbbox("中", anchor="ls")[1::2]
    return (top + bottom) / 2


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, ...] | str,
    anchor: str = "lm",
) -> int:
    """Draw ``text`` with fallback; ``anchor`` is horizontal l/m/r + vertical t/m/s (baseline).
    Returns the width drawn."""
    with LOCK:
        runs = _runs(text, size)
        widths = [font.getlength(t) for t, font in runs]
        total = sum(widths)
        x, y = xy
        x -= {"l": 0, "m": total / 2, "r": total}[anchor[0]]
        if anchor[1] == "m":
            y -= _mid_offset(size)
        elif anchor[1] == "t":
            y += size * 0.88
        for (t, font), w in zip(runs, widths, strict=True):
            draw.text((x, y), t, font=font, fill=fill, anchor="ls")
            x += w
    return round(total)
