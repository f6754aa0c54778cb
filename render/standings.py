"""A tournament's standings as a picture (issue 42): one row a player — rank, name, points, duplicate score
and the placements of every round played — under a title, with the tie-break stated at the foot. Laid
out for a phone as the match summary is (render/summary.py): 720 px wide, so that a 30-px name reads at
about 16 px on a 390-px screen. Public: it shows only rounds that are over.

    >>> rows = [StandingRow(1, "alice", 1200, 800.0, (1, 2)), StandingRow(2, "bob", -1200, -800.0, (4, 3))]
    >>> cv = compose_standings(rows, "Night · standings after round 2", "Ranked by duplicate score", locale="en")
    >>> cv.im.width, "alice" in cv.texts, "+800.0" in cv.texts, "1 · 2" in cv.texts
    (720, True, True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from . import encode, fonts
from .canvas import Canvas
from .labels import label
from .theme import FELT

WIDTH = 720
PAD, HEAD, ROW, FOOT = 20, 124, 84, 90
MOST_ROWS = 64  # a field larger than this is listed to 64 and counted after
MEDALS = {1: (212, 160, 23), 2: (150, 150, 160), 3: (176, 110, 60)}
UP, DOWN = (30, 130, 60), (200, 32, 42)
NAME, FIGURE, SMALL = 30, 30, 24  # type sizes: 16, 16 and 13 px on a phone


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    name: str
    points: int
    duplicate: float | None  # None: the tournament plays without duplicate walls
    places: tuple[int, ...]  # each round's placement at the table (a bye has none)


def compose_standings(
    rows: Sequence[StandingRow], title: str, tie_break: str, locale: object = None
) -> Canvas:
    shown = list(rows[:MOST_ROWS])
    more = len(rows) - len(shown)
    duplicate = any(r.duplicate is not None for r in rows)
    height = HEAD + len(shown) * ROW + (ROW // 2 if more else 0) + FOOT
    cv = Canvas(Image.new("RGB", (WIDTH, height), FELT.paper), FELT)
    d = cv.draw
    cv.text((PAD, 38), fonts.fit(title, 34, WIDTH - 2 * PAD), 34, FELT.ink)
    points_x, dup_x = (WIDTH - PAD - 170, WIDTH - PAD - 12) if duplicate else (WIDTH - PAD - 12, 0)
    header_y = HEAD - 24
    cv.text((PAD + 12, header_y), label(locale, "standings.player"), SMALL, FELT.ink_dim)
    cv.text((points_x, header_y), label(locale, "standings.points"), SMALL, FELT.ink_dim, anchor="rm")
    if duplicate:
        cv.text((dup_x, header_y), label(locale, "standings.duplicate"), SMALL, FELT.ink_dim, anchor="rm")
    d.line((PAD, HEAD - 6, WIDTH - PAD, HEAD - 6), fill=FELT.rule, width=2)
    for i, row in enumerate(shown):
        top = HEAD + i * ROW
        if i % 2:
            d.rectangle((PAD, top, WIDTH - PAD, top + ROW - 1), fill=(244, 238, 224))
        medal = MEDALS.get(row.rank)
        if medal is not None:
            d.ellipse((PAD + 8, top + 14, PAD + 64, top + 70), fill=medal)
        cv.text((PAD + 36, top + ROW // 2), str(row.rank), 30, (255, 255, 255) if medal else FELT.ink, anchor="mm")
        x = PAD + 80
        figures: list[tuple[int, str, float]] = [(points_x, f"{row.points:+,}" if row.points else "0", row.points)]
        if row.duplicate is not None:
            figures.append((dup_x, f"{row.duplicate:+.1f}" if row.duplicate else "0.0", row.duplicate))
        left = min(fx - fonts.text_width(text, FIGURE) for fx, text, _ in figures)
        for fx, text, sign in figures:
            cv.text((fx, top + 30), text, FIGURE, UP if sign > 0 else DOWN if sign < 0 else FELT.ink, anchor="rm")
        cv.text((x, top + 30), fonts.fit(row.name, NAME, left - x - 16), NAME, FELT.ink)
        places = " · ".join(map(str, row.places)) if row.places else "-"
        cv.text((x, top + 64), label(locale, "standings.places"), SMALL, FELT.ink_dim)
        width = fonts.text_width(label(locale, "standings.places"), SMALL)
        cv.text((x + width + 10, top + 64), places, SMALL, FELT.ink)
    y = HEAD + len(shown) * ROW
    if more:
        cv.text((PAD + 12, y + ROW // 4), label(locale, "standings.more", n=more), SMALL, FELT.ink_dim)
        y += ROW // 2
    d.line((PAD, y + 6, WIDTH - PAD, y + 6), fill=FELT.rule, width=2)
    lines = fonts.wrap(tie_break, SMALL, WIDTH - 2 * PAD, max_lines=2) or (fonts.fit(tie_break, SMALL, WIDTH - 2 * PAD),)
    for n, line in enumerate(lines):
        cv.text((PAD, y + 26 + n * 26), line, SMALL, FELT.ink_dim)
    return cv


def render_standings(rows: Sequence[StandingRow], title: str, tie_break: str, locale: object = None) -> bytes:
    """The standings as PNG bytes, in the tournament's language (``locale``)."""
    return encode.to_png(compose_standings(rows, title, tie_break, locale).im)
