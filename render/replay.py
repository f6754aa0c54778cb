"""Replay pictures: one step of a finished hand (the table from one seat, every hand face up, with
the step's line above it), and a whole hand as one animated GIF sized for Discord's inline preview
(GIF because Discord animates GIFs inline and shows only the first frame of an APNG).

    python -m render.replay FILE --hand N --seat S OUTDIR [--lang en|zh-TW|zh-CN]

writes OUTDIR/step-000.png … (one per step of hand N of the match log FILE, N counted in file order
from 1, seen from seat S), OUTDIR/steps.txt (each step's line) and OUTDIR/hand.gif. Exit 0; 1 when the
log does not check (the first bad move named, as ``python -m engine.log check``); 2 for a file that is
not a log or a hand or seat it does not have (one line on stderr).
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from PIL import Image

from engine.cli import tool_parser
from engine.log import LogError, NotALog, check_log, game_header, read_log
from engine.replay import frames
from engine.view import GameView

from . import encode, fonts
from .canvas import Canvas
from .labels import LOCALES as LANGS
from .table import compose_table
from .theme import Theme, get_theme

BAND = 44  # the line of text above the table, at scale 1
STEP_SCALE = 1.0  # a step picture: the live table's size (its sprites are warmed up at start)
ANIMATION_SCALE = 0.5  # 484 px: inside Discord's inline preview without being scaled down
FRAME_MS = 700
LAST_FRAME_MS = 4000


def compose_step(
    view: GameView,
    names: Sequence[str],
    line: str,
    scale: float = STEP_SCALE,
    locale: object = None,
    theme: Theme | str = "felt",
) -> Canvas:
    """The table from ``view.viewer``'s seat with ``line`` (the step in the reader's words, made by
    cogs/i18n/steps.py) written above it, the table's labels and tiles in ``locale``'s language too
    (None: the pictures' Traditional Chinese), in the reader's ``theme``."""
    look = get_theme(theme)
    table = compose_table(view, names, scale=scale, locale=locale, theme=look)
    band = round(BAND * scale)
    width, height = table.im.size
    cv = Canvas(Image.new("RGB", (width, height + band), look.panel), look)
    cv.paste(table.im, (0, band))
    cv.placed.extend(table.placed)
    cv.written.extend(table.written)
    size = round(20 * scale)
    cv.text((width / 2, band / 2), fonts.fit(line, size, width - round(16 * scale)), size, cv.theme.text, anchor="mm")
    return cv


def render_step(
    view: GameView,
    names: Sequence[str],
    line: str,
    scale: float = STEP_SCALE,
    locale: object = None,
    theme: Theme | str = "felt",
) -> bytes:
    """One replay step as PNG bytes, in the reader's ``theme`` (``PlayerPrefs.theme``; felt by default)."""
    look = get_theme(theme)
    return encode.to_png(compose_step(view, names, line, scale, locale, look).im, theme=look)


def render_animation(
    steps: Iterable[tuple[GameView, str]],
    names: Sequence[str],
    scale: float = ANIMATION_SCALE,
    frame_ms: int = FRAME_MS,
    locale: object = None,
    theme: Theme | str = "felt",
) -> bytes:
    """A whole hand as one looping GIF, from each step's view and line: every step for ``frame_ms``, the
    last one held longer. Frames are mapped to the shared tile palette (no per-frame colour analysis),
    and the GIF writer stores only the part of each frame that changed; ``theme``: the reader's."""
    look = get_theme(theme)
    shared = encode.palette(look)
    pictures = [
        compose_step(view, names, line, scale, locale, look).im.quantize(palette=shared, dither=Image.Dither.NONE)
        for view, line in steps
    ]
    if not pictures:
        raise ValueError("a hand has at least its deal")
    durations = [frame_ms] * len(pictures)
    durations[-1] = LAST_FRAME_MS
    out = io.BytesIO()
    pictures[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=pictures[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return out.getvalue()


# ---------------------------------------------------------------------- command line


def _usage(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    parser = tool_parser("python -m render.replay", __doc__)
    parser.add_argument("file", help="a match log (docs/log-format.md)")
    parser.add_argument("--hand", type=int, required=True, help="the hand, counted from 1 in file order")
    parser.add_argument("--seat", type=int, required=True, choices=range(4), metavar="{0,1,2,3}")
    parser.add_argument("outdir", help="where the pictures go (created if missing)")
    parser.add_argument("--no-animation", action="store_true", help="only the step pictures")
    parser.add_argument("--lang", choices=LANGS, default="en", help="the language of the lines and pictures")
    args = parser.parse_args(argv)
    try:
        data = read_log(Path(args.file).read_bytes())
    except OSError as error:
        return _usage(f"cannot read {args.file}: {error.strerror or error}")
    except NotALog as error:
        return _usage(f"{args.file} is {error}")
    try:
        check_log(data)
    except LogError as error:
        print(f"refused: {error}")  # once, on stdout, as engine.log check says it
        return 1
    found = [(m, h) for m in data["matches"] for h in m["hands"]]
    if not 1 <= args.hand <= len(found):
        return _usage(f"{args.file} has hands 1-{len(found)}, not {args.hand}")
    match, hand = found[args.hand - 1]
    names = [str(s.get("name", f"seat {i}")) for i, s in enumerate(match["seats"])]
    out = Path(args.outdir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        return _usage(f"cannot make {out}: {error.strerror or error}")
    from cogs.i18n.steps import step_line  # the words are the catalogue's (the bot's own replay uses them)

    steps = [
        (f, step_line(args.lang, f.number, f.events, names))
        for f in frames(game_header(match, hand), hand["moves"], seat=args.seat)
    ]
    for f, line in steps:
        (out / f"step-{f.index:03d}.png").write_bytes(render_step(f.view, names, line, locale=args.lang))
    (out / "steps.txt").write_text("".join(f"{f.index:03d} {line}\n" for f, line in steps), encoding="utf-8")
    written = f"{len(steps)} step pictures"
    if not args.no_animation:
        gif = render_animation(((f.view, line) for f, line in steps), names, locale=args.lang)
        (out / "hand.gif").write_bytes(gif)
        written += f" and hand.gif ({len(gif) / 1024:.0f} KB)"
    print(f"hand {args.hand} from seat {args.seat}: {written} in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
