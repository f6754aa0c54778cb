"""The profile card: a person's numbers of one rule set as a picture, for people who would rather look
than read — their name, rating and tier, a small chart of how often they placed 1st–4th, the rates
players compare, and their most-made items.

The card is handed labels already in the reader's language (``ProfileCard``), so this module knows
nothing of catalogues or storage; it only lays out and draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from PIL import Image

from .canvas import Canvas
from .encode import to_png
from .fonts import fit, text_width
from .theme import FELT

WIDTH, HEIGHT = 720, 400
PAD = 24
PLACE_COLOURS = (FELT.gold, (196, 204, 210), (205, 127, 50), FELT.loss)  # gold, silver, bronze, red


@dataclass(frozen=True, slots=True)
class ProfileCard:
    name: str
    subtitle: str  # the rule set (and server) these numbers are of
    rating: str  # "1523", or "—" when unrated
    tier: str  # the named rank, or "Provisional 2/5"
    places: tuple[int, int, int, int]  # matches ended 1st..4th
    place_labels: tuple[str, str, str, str] = ("1st", "2nd", "3rd", "4th")
    average_place: str = ""  # "Average place 2.31"
    stats: Sequence[tuple[str, str]] = field(default_factory=tuple)  # (label, value), up to ten
    items_title: str = ""
    items: Sequence[tuple[str, int]] = field(default_factory=tuple)  # (item, count), most made first


def compose_profile(card: ProfileCard) -> Canvas:
    cv = Canvas(Image.new("RGB", (WIDTH, HEIGHT), FELT.felt_dark))
    d = cv.draw
    d.rounded_rectangle((6, 6, WIDTH - 7, HEIGHT - 7), 16, fill=FELT.felt, outline=FELT.panel_edge, width=2)

    # header: name and rule set on the left, rating and tier on the right
    rating_w = cv.text((WIDTH - PAD, 44), card.rating, 40, FELT.gold, anchor="rm")
    cv.text((WIDTH - PAD, 82), fit(card.tier, 20, 220), 20, FELT.text, anchor="rm")
    name_room = WIDTH - 2 * PAD - max(rating_w, 160) - 20
    cv.text((PAD, 44), fit(card.name, 30, name_room), 30, FELT.text)
    cv.text((PAD, 82), fit(card.subtitle, 18, name_room), 18, FELT.text_dim)
    d.line((PAD, 108, WIDTH - PAD, 108), fill=FELT.panel_edge, width=2)

    _placement_chart(cv, card, (PAD, 126, 270, 318))
    _stat_grid(cv, card.stats, (300, 126, WIDTH - PAD, 318))

    # the most-made items along the bottom
    d.line((PAD, 330, WIDTH - PAD, 330), fill=FELT.panel_edge, width=1)
    if card.items:
        title_w = cv.text((PAD, 360), card.items_title, 17, FELT.text_dim) + 14
        room = WIDTH - 2 * PAD - title_w
        shown = [f"{item} ×{n}" for item, n in card.items]
        while len(shown) > 1 and text_width("  ·  ".join(shown), 18) > room:
            shown.pop()  # whole items only
        cv.text((PAD + title_w, 360), fit("  ·  ".join(shown), 18, room), 18, FELT.text)
    return cv


def _placement_chart(cv: Canvas, card: ProfileCard, box: tuple[int, int, int, int]) -> None:
    """Four bars, 1st to 4th: the share of their matches above each (the most common place fills the
    height), the place and the count below."""
    left, top, right, bottom = box
    d = cv.draw
    d.rounded_rectangle(box, 10, fill=FELT.panel)
    total = sum(card.places)
    most = max(card.places) or 1
    base = bottom - 44  # bars stand on this line; labels below it
    tallest = base - top - 58  # room for the share above the tallest bar, and the average at the top
    slot = (right - left - 20) / 4
    width = slot * 0.6
    for i, (count, colour) in enumerate(zip(card.places, PLACE_COLOURS, strict=True)):
        x0 = left + 10 + i * slot + (slot - width) / 2
        share = count / total if total else 0.0
        h = max(2, round(tallest * count / most))
        d.rectangle((x0, base - h, x0 + width, base), fill=colour)
        cv.text((x0 + width / 2, base - h - 12), f"{share:.0%}", 14, FELT.text, anchor="mm")
        cv.text((x0 + width / 2, base + 14), card.place_labels[i], 15, FELT.text_dim, anchor="mm")
        cv.text((x0 + width / 2, base + 32), str(count), 13, FELT.text_dim, anchor="mm")
    if card.average_place:
        cv.text(((left + right) / 2, top + 14), fit(card.average_place, 15, right - left - 16), 15, FELT.text, anchor="mm")


def _stat_grid(cv: Canvas, stats: Sequence[tuple[str, str]], box: tuple[int, int, int, int]) -> None:
    """Label over value, two columns, five rows."""
    left, top, right, bottom = box
    cols, rows = 2, 5
    col_w = (right - left) / cols
    row_h = (bottom - top) / rows
    for n, (label, value) in enumerate(list(stats)[: cols * rows]):
        x = left + (n // rows) * col_w
        y = top + (n % rows) * row_h
        cv.text((x, y + 10), fit(label, 14, round(col_w) - 8), 14, FELT.text_dim)
        cv.text((x, y + 28), fit(value, 19, round(col_w) - 8), 19, FELT.text)


def render_profile(card: ProfileCard) -> bytes:
    """The card as PNG bytes (safe to call from a worker thread)."""
    return to_png(compose_profile(card).im)
