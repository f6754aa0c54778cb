"""The match summary picture (issue 23): the standings with placements and totals, and for each
player their best hand (its value and hand number, its winning tile drawn) and their wins,
自摸 and deal-ins. Laid out for a phone: one card per player, large type, 720 px wide so that
the words read at about 15 px on a 390-px screen. Public: it shows only finished hands."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.summary import SeatSummary

from . import encode, fonts, sprites
from .canvas import Canvas
from .labels import label
from .scoresheet import UNITS
from .theme import FELT

WIDTH = 720
MEDALS = {1: (212, 160, 23), 2: (150, 150, 160), 3: (176, 110, 60), 4: FELT.ink_dim}
UP, DOWN = (30, 130, 60), (200, 32, 42)


def compose_summary(
    rows: Sequence[SeatSummary], names: Sequence[str], hands: int, unit: str, locale: object = None
) -> Canvas:
    pad, card_h, gap, head = 20, 132, 12, 76
    height = head + len(rows) * (card_h + gap) + pad
    cv = Canvas(Image.new("RGB", (WIDTH, height), FELT.paper))
    d = cv.draw
    cv.text((pad, 38), label(locale, "summary.title"), 38, FELT.ink)
    count = label(locale, "summary.hand1") if hands == 1 else label(locale, "summary.hands", n=hands)
    cv.text((WIDTH - pad, 40), count, 24, FELT.ink_dim, anchor="rm")
    unit_word = UNITS.get(unit, unit) if locale is None or str(locale).startswith("zh") else {
        "tai": "台", "fan": "番", "points": "pts", "multiplier": "×"
    }.get(unit, unit)
    tw, th = sprites.size(0.8)
    for i, row in enumerate(rows):
        top = head + i * (card_h + gap)
        d.rounded_rectangle((pad, top, WIDTH - pad, top + card_h), 14, fill=(255, 252, 244), outline=FELT.rule, width=2)
        medal = MEDALS.get(row.place, FELT.ink_dim)
        d.ellipse((pad + 14, top + 16, pad + 78, top + 80), fill=medal)
        cv.text((pad + 46, top + 48), str(row.place), 34, (255, 255, 255), anchor="mm")
        cv.text((pad + 46, top + 104), label(locale, f"place.{row.place}"), 20, FELT.ink_dim, anchor="mm")
        x = pad + 96
        score = f"{row.score:+,}" if row.score else "0"
        score_w = fonts.text_width(score, 36)
        cv.text((WIDTH - pad - 18, top + 42), score, 36, UP if row.score > 0 else DOWN if row.score < 0 else FELT.ink,
                anchor="rm")
        cv.text((x, top + 40), fonts.fit(names[row.seat], 32, WIDTH - pad - 36 - score_w - x - 12), 32, FELT.ink)
        stats = label(locale, "summary.wins", wins=row.wins, tsumo=row.self_draws, dealt=row.deal_ins)
        cv.text((x, top + 82), fonts.fit(stats, 24, WIDTH - pad - x - 18), 24, FELT.ink_dim)
        if row.best is None or row.best_hand is None:
            cv.text((x, top + 114), label(locale, "summary.no_win"), 24, FELT.ink_dim)
            continue
        value = row.best.capped_total if row.best.capped_total is not None else row.best.total
        best = label(locale, "summary.best", value=value, unit=unit_word, n=row.best_hand)
        width = cv.text((x, top + 114), best, 24, FELT.ink)
        if row.best.win_tile is not None and x + width + 12 + tw < WIDTH - pad - 12:
            cv.tile(row.best.win_tile, x + width + 12, top + card_h - th - 6, 0.8)
    return cv


def summary_image(
    rows: Sequence[SeatSummary], names: Sequence[str], hands: int, unit: str, locale: object = None
) -> Image.Image:
    return compose_summary(rows, names, hands, unit, locale).im


def render_summary(
    rows: Sequence[SeatSummary], names: Sequence[str], hands: int, unit: str, locale: object = None
) -> bytes:
    """The summary as PNG bytes, in the table's language (``locale``)."""
    return encode.to_png(summary_image(rows, names, hands, unit, locale))
