"""The public table image: four sides like a real table, each seat's river in front of it, its
hand (face down), melds and flowers behind the river, its name plate behind that, and the round, the hand number and the tiles left in the middle.

Only public information is drawn: a seat's concealed tiles appear as backs (``concealed_count``)
and 暗槓 face down, except in the end-of-hand reveal (``GameView.revealed``).

Everything is laid out for the bottom seat in a frame centred on the table, then turned a
quarter at a time for the other seats, with the sprites turned to face their owner.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.meld import MeldKind
from engine.view import GameView, SeatPublic

from . import encode, fonts, sprites, theme
from .canvas import Canvas

RIVER_SCALE = 1.35  # discards: the most read part of the table
ROW_SCALES = (1.1, 1.0, 0.9, 0.8, 0.7, 0.6)  # hand rows shrink to fit when long
RIVER_ROWS = 3  # rows of 6 as on a real table; a longer river makes its rows longer
RIVER_PER_ROW = 6
GAP = 6
ROW_DEPTH = 44  # the hand row's tile height at its largest scale
PLATE_DEPTH = 112  # name plates: depth from the row to the edge, and length along the side
PLATE_WIDE = 300
PLATE_TALL = 168


class Layout:
    """Sizes derived from the scale; ``half`` is half the canvas side."""

    def __init__(self, scale: float = 1.0) -> None:
        self.scale = scale
        self.river_scale = RIVER_SCALE * scale
        self.rw, self.rh = sprites.size(self.river_scale)
        self.center = RIVER_PER_ROW * self.rw // 2 + round(12 * scale)  # half the middle panel
        self.river_y = self.center + round(GAP * scale)
        self.row_y = self.river_y + RIVER_ROWS * self.rh + round(2 * GAP * scale)
        self.row_len = 2 * self.row_y - round(2 * GAP * scale)
        self.half = self.row_y + round((ROW_DEPTH + GAP + PLATE_DEPTH + 10) * scale)
        self.size = 2 * self.half


def _turn(p: int, x: float, y: float) -> tuple[float, float]:
    """Map a point of the bottom seat's frame to position ``p`` (0 bottom, 1 right, 2 top, 3 left)."""
    for _ in range(p):
        x, y = y, -x
    return x, y


def _place(
    cv: Canvas, lay: Layout, p: int, tile: int, x: float, y: float, scale: float, variant: str
) -> None:
    """Paste a tile whose top-left is (x, y) in the bottom frame, at position ``p``."""
    w, h = sprites.size(scale)
    corners = [_turn(p, x, y), _turn(p, x + w, y + h)]
    sx = min(c[0] for c in corners) + lay.half
    sy = min(c[1] for c in corners) + lay.half
    cv.tile(tile, round(sx), round(sy), scale, variant, rotation=90 * p)


def _river(cv: Canvas, lay: Layout, p: int, seat: SeatPublic, last: tuple[int, int] | None) -> None:
    n = len(seat.discards)
    per_row = max(RIVER_PER_ROW, -(-n // RIVER_ROWS))
    x0 = -RIVER_PER_ROW * lay.rw / 2  # left-aligned, so long rivers grow past the panel without colliding
    highlight = last is not None and last[0] == seat.seat and n and seat.discards[-1] == last[1]
    for i, t in enumerate(seat.discards):
        variant = sprites.LAST if highlight and i == n - 1 else sprites.PLAIN
        _place(
            cv,
            lay,
            p,
            t,
            x0 + (i % per_row) * lay.rw,
            lay.river_y + (i // per_row) * lay.rh,
            lay.river_scale,
            variant,
        )


def _row_groups(seat: SeatPublic, revealed: tuple[int, ...] | None) -> list[list[int]]:
    """The hand row left to right: the hand (backs unless revealed), each meld, the flowers."""
    groups = [list(revealed) if revealed is not None else [sprites.BACK] * seat.concealed_count]
    for meld in seat.melds:
        if meld.kind is MeldKind.ANKONG and revealed is None:
            groups.append([sprites.BACK] * len(meld.tiles))
        else:
            groups.append(list(meld.tiles))
    if seat.flowers:
        groups.append(list(seat.flowers))
    return [g for g in groups if g]


def _hand_row(cv: Canvas, lay: Layout, p: int, seat: SeatPublic, revealed: tuple[int, ...] | None) -> None:
    groups = _row_groups(seat, revealed)
    n = sum(len(g) for g in groups)
    for scale in ROW_SCALES:
        s = scale * lay.scale
        w, _ = sprites.size(s)
        gap = round(GAP * s)
        if n * w + gap * (len(groups) - 1) <= lay.row_len:
            break
    x = -lay.row_y + round(GAP * lay.scale)
    for group in groups:
        for t in group:
            _place(cv, lay, p, t, x, lay.row_y, s, sprites.PLAIN)
            x += w
        x += gap


@lru_cache(maxsize=8)
def _background(scale: float) -> Image.Image:
    lay = Layout(scale)
    im = Image.new("RGB", (lay.size, lay.size), theme.FELT)
    draw = ImageDraw.Draw(im)
    h, c = lay.half, lay.center
    ring = round(12 * scale)
    draw.rounded_rectangle(
        (ring, ring, lay.size - ring, lay.size - ring),
        round(24 * scale),
        outline=theme.FELT_LIGHT,
        width=max(1, round(2 * scale)),
    )
    draw.rounded_rectangle(
        (h - c, h - c, h + c, h + c),
        round(16 * scale),
        fill=theme.PANEL,
        outline=theme.PANEL_EDGE,
        width=max(1, round(2 * scale)),
    )
    return im


def _plate_box(lay: Layout, p: int) -> tuple[int, int, int, int]:
    """Behind position ``p``'s hand row, centred on its side: wide at the top and bottom,
    tall at the left and right so the text stays upright."""
    s = lay.scale
    depth = round(PLATE_DEPTH * s)
    along = round((PLATE_WIDE if p % 2 == 0 else PLATE_TALL) * s)
    mid = lay.row_y + round((ROW_DEPTH + GAP) * s) + depth / 2
    cx, cy = _turn(p, 0, mid)
    w, h = (along, depth) if p % 2 == 0 else (depth, along)
    x0, y0 = round(lay.half + cx - w / 2), round(lay.half + cy - h / 2)
    return x0, y0, x0 + w, y0 + h


def _plate(cv: Canvas, lay: Layout, p: int, seat: SeatPublic, view: GameView, name: str) -> None:
    s = lay.scale
    x0, y0, x1, y1 = _plate_box(lay, p)
    turn = view.turn == seat.seat and view.phase != "over"
    cv.draw.rounded_rectangle(
        (x0, y0, x1, y1),
        round(10 * s),
        fill=theme.PANEL,
        outline=theme.GOLD if turn else theme.PANEL_EDGE,
        width=round((3 if turn else 1.5) * s),
    )
    wind_colour = theme.RED if seat.wind == 0 else theme.TEXT
    tag = (
        ("莊" + (f" 連{view.dealer_streak}" if view.dealer_streak else ""))
        if seat.seat == view.dealer
        else ""
    )
    score_colour = theme.WIN if seat.score > 0 else theme.LOSS if seat.score < 0 else theme.TEXT
    score = f"{seat.score:+,}" if seat.score else "0"
    status = " ".join(x for x, on in (("聽", seat.ready), ("代打", seat.auto), ("▶ 輪到", turn)) if on)
    status_colour = theme.GOLD if turn else theme.RED
    name_size = round(20 * s)
    if p % 2 == 0:  # wide: wind and dealer tag on the left, name, score and status on the right
        lx = x0 + round(42 * s)
        cy = (y0 + y1) / 2
        cv.text(
            (lx, cy - round(12 * s) if tag else cy),
            theme.WIND_NAMES[seat.wind],
            round(34 * s),
            wind_colour,
            anchor="mm",
        )
        if tag:
            cv.text((lx, cy + round(26 * s)), tag, round(14 * s), theme.GOLD, anchor="mm")
        rx = (x0 + round(84 * s) + x1) / 2
        room = x1 - x0 - round(96 * s)
        cv.text(
            (rx, y0 + round(26 * s)), fonts.fit(name, name_size, room), name_size, theme.TEXT, anchor="mm"
        )
        cv.text((rx, y0 + round(58 * s)), score, round(25 * s), score_colour, anchor="mm")
        if status:
            cv.text((rx, y0 + round(88 * s)), status, round(16 * s), status_colour, anchor="mm")
    else:  # tall: everything stacked
        cx = (x0 + x1) / 2
        room = x1 - x0 - round(12 * s)
        cv.text(
            (cx, y0 + round(28 * s)), theme.WIND_NAMES[seat.wind], round(32 * s), wind_colour, anchor="mm"
        )
        if tag:
            cv.text((cx, y0 + round(58 * s)), tag, round(14 * s), theme.GOLD, anchor="mm")
        cv.text(
            (cx, y0 + round(86 * s)),
            fonts.fit(name, round(17 * s), room),
            round(17 * s),
            theme.TEXT,
            anchor="mm",
        )
        cv.text((cx, y0 + round(116 * s)), score, round(22 * s), score_colour, anchor="mm")
        if status:
            cv.text((cx, y0 + round(146 * s)), status, round(15 * s), status_colour, anchor="mm")


def _centre(cv: Canvas, lay: Layout, view: GameView, bottom: int) -> None:
    s, h, c = lay.scale, lay.half, lay.center
    cv.text(
        (h, h - round(40 * s)),
        f"{theme.WIND_NAMES[view.round_wind]}風圈",
        round(26 * s),
        theme.TEXT,
        anchor="mm",
    )
    cv.text((h, h - round(8 * s)), f"第 {view.hand_number} 局", round(17 * s), theme.TEXT_DIM, anchor="mm")
    cv.text((h, h + round(22 * s)), f"剩 {view.wall_remaining} 張", round(19 * s), theme.TEXT, anchor="mm")
    if view.phase == "over":
        cv.text((h, h + round(50 * s)), "本局結束", round(15 * s), theme.GOLD, anchor="mm")
    if view.bonus_indicator is not None:
        _bonus_indicator(cv, lay, view.bonus_indicator)
    r = round(17 * s)
    for seat in view.seats:
        p = (seat.seat - bottom) % 4
        bx, by = _turn(p, 0, c - r - round(8 * s))
        bx, by = bx + h, by + h
        turn = seat.seat == view.turn and view.phase != "over"
        fill = theme.GOLD if turn else theme.FELT_DARK
        cv.draw.ellipse(
            (bx - r, by - r, bx + r, by + r),
            fill=fill,
            outline=theme.PANEL_EDGE,
            width=max(1, round(1.5 * s)),
        )
        colour = theme.PANEL if turn else theme.RED if seat.wind == 0 else theme.TEXT
        cv.text((bx, by), theme.WIND_NAMES[seat.wind], round(20 * s), colour, anchor="mm")


def _bonus_indicator(cv: Canvas, lay: Layout, tile: int) -> None:
    """翻寶牌 (hongkong): the face-up tile everyone sees, in the centre's top-left corner (the tile
    after it is the 寶牌)."""
    s, h = lay.scale, lay.half
    scale = 0.55 * s
    w, th = sprites.sprite(tile, scale).size
    x, y = h - round(120 * s), h - round(118 * s)
    cv.tile(tile, x, y, scale)
    cv.text((x + w + round(5 * s), y + th / 2), "翻寶牌", round(14 * s), theme.GOLD, anchor="lm")


def compose_table(
    view: GameView, names: Sequence[str], bottom: int | None = None, scale: float = 1.0
) -> Canvas:
    """Lay out the table with ``bottom`` (default: the viewer, else seat 0) at the bottom."""
    if len(names) != len(view.seats):
        raise ValueError(f"need {len(view.seats)} names, got {len(names)}")
    if bottom is None:
        bottom = view.viewer if view.viewer is not None else 0
    lay = Layout(scale)
    cv = Canvas(_background(scale))
    _centre(cv, lay, view, bottom)
    for seat in view.seats:
        p = (seat.seat - bottom) % 4
        _river(cv, lay, p, seat, view.last_discard)
        _hand_row(cv, lay, p, seat, view.revealed.get(seat.seat))
        _plate(cv, lay, p, seat, view, str(names[seat.seat]))
    return cv


def table_image(
    view: GameView, names: Sequence[str], bottom: int | None = None, scale: float = 1.0
) -> Image.Image:
    """The table as an RGB image (what tests inspect)."""
    return compose_table(view, names, bottom, scale).im


def render_table(
    view: GameView, names: Sequence[str], bottom: int | None = None, scale: float = 1.0
) -> bytes:
    """The table as PNG bytes, for the channel's table message."""
    return encode.to_png(table_image(view, names, bottom, scale))
