"""Fonts the project controls, and text drawing that never fails on a player's name.

Labels use the small subsets committed in ``render/fonts/`` (see ``build_subset.py`` there).
Player names may hold any character, so text with a character outside the subset is drawn with
the *name faces*: Noto fonts that ``requirements.txt`` installs from PyPI (``noto-cjk-sans-otc``:
Han, kana, Hangul, Latin, Greek, Cyrillic; ``manimgx-fonts``: Noto Sans, Symbols, monochrome
Noto Emoji and 19 other scripts), so a name looks the same on every machine and the repository
stays small. Such text is drawn whole in the name faces (one weight per string, not a patchwork),
a user-perceived character (an emoji sequence, a flag, a letter with its marks) at a time in the
first face that has all of its glyphs; invisible format characters are dropped and what no face
can draw becomes ``?``.

FreeType faces are not safe to use from two threads at once, and the bot renders in worker
threads, so every FreeType call goes through one lock. Runs and glyph look-ups are cached, so a
name costs its font work once per process.
"""

from __future__ import annotations

import importlib.util
import threading
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from math import ceil
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"
TILE_FONT = FONT_DIR / "tiles.otf"
UI_FONT = FONT_DIR / "ui.otf"
REPLACEMENT = "?"
NOTDEF_PROBE = "\U0010fffd"  # a private-use code point no font maps: renders the .notdef glyph
PROBE_SIZE = 24

LOCK = threading.RLock()  # guards every FreeType call (font objects are shared between threads)

Font = ImageFont.FreeTypeFont


@dataclass(frozen=True, slots=True)
class Face:
    """One font file of the name chain. ``scale`` evens out the glyph size against the CJK face;
    ``bold`` picks the variable font's Bold instance, ``faux_bold`` strokes a static Regular face
    (as a fraction of the size) so names keep the weight of the bold labels around them."""

    path: Path
    index: int = 0
    scale: float = 1.0
    bold: bool = False
    faux_bold: float = 0.0
    emoji: bool = False


@dataclass(frozen=True, slots=True)
class Run:
    """Consecutive text drawn with one font."""

    text: str
    font: Font
    stroke: float
    width: float


def _package_dir(name: str) -> Path | None:
    """Where an installed font package keeps its files (without importing it)."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


@cache
def name_faces() -> tuple[Face, ...]:
    """The faces tried in order for text outside the label subset: the pip-installed Noto fonts,
    then DejaVu when the host has it (a last resort, never needed for CJK, Latin or emoji)."""
    faces: list[Face] = []
    if (cjk := _package_dir("noto_cjk_sans_otc")) is not None:
        faces.append(Face(cjk / "NotoSansCJK-Regular.ttc", index=3, faux_bold=1 / 40))  # 3: TC face
    if (noto := _package_dir("manimgx_fonts")) is not None:
        faces.append(Face(noto / "NotoSans[wght].ttf", bold=True))
        faces.append(Face(noto / "NotoSansSymbols[wght].ttf", bold=True))
        faces.append(Face(noto / "NotoEmoji[wght].ttf", bold=True, emoji=True))
        scripts = sorted(noto.glob("NotoSans?*[[]wght[]].ttf"))
        faces += [
            Face(p, bold=True)
            for p in scripts
            if p.name.split("[")[0] not in ("NotoSans-Italic", "NotoSansSymbols")
        ]
    dejavu = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")
    if dejavu.exists():
        faces.append(Face(dejavu))
    return tuple(f for f in faces if f.path.exists())


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
def face_font(which: int, size: int) -> Font:
    """Name face ``which`` at ``size`` (before the face's own scale)."""
    face = name_faces()[which]
    with LOCK:
        font = ImageFont.truetype(str(face.path), max(1, round(size * face.scale)), index=face.index)
        if face.bold:
            font.set_variation_by_name("Bold")
    return font


# Code points that join or modify the character before them into one user-perceived character.
_ZWJ = "\u200d"
_KEYCAP = "\u20e3"


def _extends(ch: str) -> bool:
    cp = ord(ch)
    return (
        unicodedata.category(ch) in ("Mn", "Me", "Mc")
        or 0xFE00 <= cp <= 0xFE0F  # variation selectors (VS16 asks for emoji presentation)
        or 0xE0100 <= cp <= 0xE01EF
        or 0x1F3FB <= cp <= 0x1F3FF  # skin tones
        or 0xE0020 <= cp <= 0xE007F  # tag characters (subdivision flags)
        or ch in (_ZWJ, _KEYCAP)
    )


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def clusters(text: str) -> list[str]:
    """``text`` split into user-perceived characters, close enough to UAX #29 for names: emoji
    ZWJ sequences, skin tones, keycaps, flags and combining marks stay with their base;
    whitespace becomes a plain space and invisible control/format characters are dropped."""
    out: list[str] = []
    joined = False  # the previous character was a ZWJ inside a cluster
    for ch in text:
        if ch.isspace():
            out.append(" ")
            joined = False
            continue
        if out and out[-1] != " " and (joined or _extends(ch)):
            out[-1] += ch
        elif out and _regional(ch) and len(out[-1]) == 1 and _regional(out[-1]):
            out[-1] += ch  # the second letter of a flag
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs"):
            joined = False
            continue  # bidi overrides, zero-width spaces, stray joiners: nothing to draw
        else:
            out.append(ch)
        joined = ch == _ZWJ
    return [c.rstrip(_ZWJ) for c in out]  # a joiner with nothing after it joins nothing


def _significant(cluster: str) -> str:
    """The code points of a cluster that need a glyph of their own (not joiners or selectors)."""
    return "".join(
        c for c in cluster if unicodedata.category(c) not in ("Cf",) and not 0xFE00 <= ord(c) <= 0xFE0F
    )


def _is_emoji(cluster: str) -> bool:
    """Clusters the emoji face should draw even if a text face has the base character."""
    cp = ord(cluster[0])
    return (
        0x1F000 <= cp <= 0x1FAFF
        or 0x2600 <= cp <= 0x27BF
        or "\ufe0f" in cluster
        or _ZWJ in cluster
        or _KEYCAP in cluster
    )


@cache
def _notdef(which: int) -> tuple[tuple[int, int], bytes]:
    """Size and pixels of name face ``which``'s .notdef glyph at the probe size."""
    with LOCK:
        mask = face_font(which, PROBE_SIZE).getmask(NOTDEF_PROBE)
    return mask.size, bytes(mask)


@lru_cache(maxsize=4096)
def has_glyph(which: int, ch: str) -> bool:
    """Whether name face ``which`` draws ``ch`` with a real glyph (not its .notdef box)."""
    with LOCK:
        mask = face_font(which, PROBE_SIZE).getmask(ch)
    return (mask.size, bytes(mask)) != _notdef(which)


@lru_cache(maxsize=4096)
def face_for(cluster: str) -> int | None:
    """Index of the first name face with a glyph for every code point of ``cluster``."""
    order = list(range(len(name_faces())))
    if _is_emoji(cluster):
        order.sort(key=lambda i: not name_faces()[i].emoji)
    needed = _significant(cluster) or cluster
    for which in order:
        if all(has_glyph(which, c) for c in needed):
            return which
    return None


def _in_subset(text: str) -> bool:
    chars = ui_chars()
    return all(ch in chars or ch.isspace() for ch in text)


@lru_cache(maxsize=2048)
def runs(text: str, size: int) -> tuple[Run, ...]:
    """``text`` as runs of one font each: the label subset when it has every character, else the
    name faces cluster by cluster (``?`` in the first name face for what none can draw)."""
    if _in_subset(text):
        parts = [("".join(" " if c.isspace() else c for c in text), ui_font(size), 0.0)]
    else:
        faces = name_faces()
        parts = []
        for cl in clusters(text):
            which = 0 if cl == " " else face_for(cl)
            if which is None:
                cl, which = REPLACEMENT, 0
            if not faces:  # no name face installed at all: the subset's '?' box
                parts.append((cl if _in_subset(cl) else REPLACEMENT, ui_font(size), 0.0))
                continue
            font = face_font(which, size)
            stroke = faces[which].faux_bold * size
            if parts and parts[-1][1] is font:
                parts[-1] = (parts[-1][0] + cl, font, stroke)
            else:
                parts.append((cl, font, stroke))
    with LOCK:
        return tuple(Run(t, f, s, f.getlength(t)) for t, f, s in parts if t)


def text_width(text: str, size: int) -> int:
    return round(sum(r.width for r in runs(text, size)))


@lru_cache(maxsize=1024)
def fit(text: str, size: int, max_width: int) -> str:
    """``text`` shortened with an ellipsis so that it fits in ``max_width`` pixels, cutting
    between user-perceived characters (never through an emoji sequence or a flag)."""
    if text_width(text, size) <= max_width:
        return text
    parts = clusters(text)
    while parts and text_width("".join(parts) + "…", size) > max_width:
        parts.pop()
    return "".join(parts).rstrip() + "…"


@lru_cache(maxsize=1024)
def wrap(text: str, size: int, max_width: int, max_lines: int = 2) -> tuple[str, ...] | None:
    """``text`` in at most ``max_lines`` lines of at most ``max_width`` pixels, broken at spaces
    where it can and between user-perceived characters inside a word too long for a line (a
    Chinese name has no spaces); None when it does not fit whole."""
    words = "".join(clusters(text)).split()
    lines: list[str] = []
    line = ""
    for word in words:
        joined = f"{line} {word}" if line else word
        if text_width(joined, size) <= max_width:
            line = joined
            continue
        if line:
            lines.append(line)
            line = ""
        for part in clusters(word):
            if text_width(line + part, size) <= max_width:
                line += part
            elif not line:
                return None  # one character wider than the line
            else:
                lines.append(line)
                line = part
    lines.append(line)
    return tuple(lines) if len(lines) <= max_lines else None


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
    parts = runs(text, size)
    total = sum(r.width for r in parts)
    x, y = xy
    x -= {"l": 0, "m": total / 2, "r": total}[anchor[0]]
    if anchor[1] == "m":
        y -= _mid_offset(size)
    elif anchor[1] == "t":
        y += size * 0.88
    with LOCK:
        for r in parts:
            draw.text(
                (x, y), r.text, font=r.font, fill=fill, anchor="ls", stroke_width=r.stroke, stroke_fill=fill
            )
            x += r.width
    return round(total)


@lru_cache(maxsize=1024)
def _stamp(text: str, size: int) -> tuple[Image.Image, int, int, int]:
    """``text`` rasterised once as a coverage mask: (mask, width, left margin, baseline), so that words a
    picture writes again (names, scores, labels: most of them, every time) are pasted, not drawn again."""
    parts = runs(text, size)
    total = sum(r.width for r in parts)
    margin, base = ceil(size * 0.3), ceil(size * 1.2)  # room for strokes, accents and emoji above the line
    mask = Image.new("L", (ceil(total) + 2 * margin, base + ceil(size * 0.5)), 0)
    draw = ImageDraw.Draw(mask)
    x = float(margin)
    with LOCK:
        for r in parts:
            draw.text((x, base), r.text, font=r.font, fill=255, anchor="ls", stroke_width=r.stroke, stroke_fill=255)
            x += r.width
    return mask, round(total), margin, base


def paste_text(
    im: Image.Image, xy: tuple[float, float], text: str, size: int, fill: tuple[int, ...], anchor: str = "lm"
) -> int:
    """``draw_text`` onto ``im`` from a cached mask (the same pixels, to the nearest pixel); returns the width."""
    mask, total, margin, base = _stamp(text, size)
    x, y = xy
    x -= {"l": 0, "m": total / 2, "r": total}[anchor[0]]
    if anchor[1] == "m":
        y -= _mid_offset(size)
    elif anchor[1] == "t":
        y += size * 0.88
    x0, y0 = round(x) - margin, round(y) - base
    im.paste(fill, (x0, y0, x0 + mask.width, y0 + mask.height), mask)
    return total


def warm(sizes: set[int]) -> None:
    """Open every face at every size in ``sizes`` (and the glyph-probe size), so that the first
    name in a new script costs no font loading."""
    for size in sorted(sizes):
        ui_font(size)
        _mid_offset(size)
        for which in range(len(name_faces())):
            face_font(which, size)
    for which in range(len(name_faces())):
        has_glyph(which, "A")  # loads the face at PROBE_SIZE and renders its .notdef once
