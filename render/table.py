"""The public table image, laid out to be read on a phone (about 390 px wide): four sides like a
real table, each seat's river in front of it (the last discard framed in orange), its melds (the
claimed tile turned sideways, showing who it came from) and flowers behind the river (in two lines when
one would be too small to read: four kongs and eight flowers still 14 px at 390), and its name
plate in the corner on its left, where the names have room to be written whole; the round, the hand
number, the tiles left and the face-up 翻寶牌 in the middle.

Only public information is drawn: a seat's concealed tiles are a count on its plate (one back and
"×13"), 暗槓 lies face down, except in the end-of-hand reveal (``GameView.revealed``), where each
hand is laid face up in front of its melds.

The picture of a hand that is over, given its result (``result``: what the score sheet shows, posted to
the same channel), is the hand as settled: each seat's hand laid face up where its river was, as large
as the river's tiles (the river's story is told; the hands are what people look at now), the winning
tile set apart and marked, the plates' scores after the hand's payments with each seat's change beside
them, the winner tagged 胡 or 自摸 and the discarder 放槍, and the middle naming the winning tile (or
the draw). Without a result (a replay's last step) the reveal stays in the row behind the river.

Everything is laid out for the bottom seat in a frame centred on the table, then turned a quarter
at a time for the other seats, with the sprites turned to face their owner; the plates stay
upright, one in each corner (the bottom seat's bottom left, then round the table).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.view import GameView, HandResult, SeatPublic

from . import encode, fonts, sprites
from .canvas import Canvas
from .labels import label, wind, wind_mark
from .melds import Laid, laid_out
from .theme import FELT, Colour, Theme, get_theme

RIVER_SCALE = 1.6  # discards: the most read part of the table (48 px wide at scale 1)
RIVER_SCALES = (RIVER_SCALE, 1.35, 1.1)  # a long river's rows get longer, its tiles smaller (to 30)
RIVER_ROWS = 3  # rows of 6 as on a real table; a longer river makes its rows longer
RIVER_PER_ROW = 6
RIVER_ROOM = 7  # a long river's rows may reach one tile past the six, no further (the plates are there)
ROW_SCALES = (1.3, 1.15, 1.0, 0.85, 0.7, 0.55, 0.45)  # melds and flowers shrink to fit when many
TWO_LINES = 1.11  # where one line would shrink past this, two lines of it: 14 px at 390 (four kongs, eight flowers)
ROW_SCALES_TWO = (TWO_LINES, 1.0, 0.85, 0.7, 0.55, 0.45)
# every scale above is a different number from the rivers', the indicator's and the plates' backs: pictures
# are measured by the scale their tiles were pasted at (render/phone.py)
PLATE_WIDTH = 222  # the plates' width in the corners: room for long names on two lines, the rest of a side for melds
INDICATOR_SCALE = 1.32  # 17 px at 390 on the larger table of two-line rows
BACK_SCALE = 0.75  # the one back beside a plate's tile count (at none of the rows' scales, which measure apart)
GAP = 6
MARGIN = 8
PLATE_DEPTH = 120
NAME_SIZES = (26, 23, 20, 17)  # the largest that writes the name whole, on one line or two


class Layout:
    """Sizes derived from the scale; ``half`` is half the canvas side."""

    def __init__(self, scale: float = 1.0) -> None:
        s = self.scale = scale
        self.river_scale = RIVER_SCALE * scale
        self.rw, self.rh = sprites.size(self.river_scale)
        self.center = RIVER_PER_ROW * self.rw // 2 + round(12 * s)  # half the middle panel
        self.river_y = self.center + round(GAP * s)
        self.row_y = self.river_y + RIVER_ROWS * self.rh + round(6 * s)
        self.line_gap = round(2 * s)
        # the row behind the river: one line of melds and flowers, or two when one would be too small to read
        self.row_h = max(sprites.size(ROW_SCALES[0] * s)[1], 2 * sprites.size(TWO_LINES * s)[1] + self.line_gap)
        self.half = self.row_y + self.row_h + round(8 * s)
        self.size = 2 * self.half
        self.margin = round(MARGIN * s)
        self.gap = round(GAP * s)
        # a plate reaches from its corner at most to a gap short of where the longest river may reach
        river_end = -RIVER_PER_ROW * self.rw // 2 + RIVER_ROOM * self.rw
        self.plate_w = min(self.half - self.margin - river_end - self.gap, round(PLATE_WIDTH * s))
        self.plate_h = round(PLATE_DEPTH * s)
        self.name_x = round(60 * s)  # from the plate's left: the wind's column, then the name
        self.name_room = self.plate_w - self.name_x - round(8 * s)

    def row_span(self, p: int) -> int:
        """Half the room for position ``p``'s melds along its side, between the corner plates."""
        along = self.plate_w if p % 2 == 0 else self.plate_h
        return self.half - self.margin - along - self.gap


def _turn(p: int, x: float, y: float) -> tuple[float, float]:
    """Map a point of the bottom seat's frame to position ``p`` (0 bottom, 1 right, 2 top, 3 left)."""
    for _ in range(p):
        x, y = y, -x
    return x, y


def _place(
    cv: Canvas,
    lay: Layout,
    p: int,
    tile: int,
    x: float,
    y: float,
    scale: float,
    variant: str = sprites.PLAIN,
    sideways: bool = False,
) -> None:
    """Paste a tile whose top-left is (x, y) in the bottom frame, at position ``p``; a
    ``sideways`` tile lies turned a quarter (a claimed tile in a meld)."""
    w, h = sprites.size(scale)
    if sideways:
        w, h = h, w
    corners = [_turn(p, x, y), _turn(p, x + w, y + h)]
    sx = min(c[0] for c in corners) + lay.half
    sy = min(c[1] for c in corners) + lay.half
    cv.tile(tile, round(sx), round(sy), scale, variant, rotation=(90 * p + (90 if sideways else 0)) % 360)


def river_scale(n: int, scale: float = 1.0) -> tuple[float, int]:
    """The tile scale and tiles per row of a river of ``n`` discards: rows of six, then longer
    rows of smaller tiles, never past ``RIVER_ROOM`` full-size tiles."""
    per_row = max(RIVER_PER_ROW, -(-n // RIVER_ROWS))
    room = RIVER_ROOM * sprites.size(RIVER_SCALE * scale)[0]
    for rs in RIVER_SCALES:
        if per_row * sprites.size(rs * scale)[0] <= room:
            return rs * scale, per_row
    return RIVER_SCALES[-1] * scale, per_row


def _river(cv: Canvas, lay: Layout, p: int, seat: SeatPublic, last: tuple[int, int] | None) -> None:
    n = len(seat.discards)
    rs, per_row = river_scale(n, lay.scale)
    rw, rh = sprites.size(rs)
    x0 = -RIVER_PER_ROW * lay.rw // 2  # left-aligned, so long rivers grow past the panel without colliding
    highlight = last is not None and last[0] == seat.seat and n and seat.discards[-1] == last[1]
    for i, t in enumerate(seat.discards):
        variant = sprites.LAST if highlight and i == n - 1 else sprites.PLAIN
        _place(cv, lay, p, t, x0 + (i % per_row) * rw, lay.river_y + (i // per_row) * rh, rs, variant)


def _hand_in_front(
    cv: Canvas, lay: Layout, p: int, seat: SeatPublic, hand: tuple[int, ...], result: HandResult
) -> None:
    """A settled hand's tiles in front of the seat, where its river was, at the river's scale: sorted,
    the winner's winning tile apart at the end of the last row and marked (as the score sheet marks it)."""
    tiles = list(hand)
    win = result.win_tile if result.winner == seat.seat else None
    if win is not None and win in tiles:
        tiles.remove(win)
    n = len(tiles) + (win is not None)
    rs, per_row = river_scale(n, lay.scale)
    rw, rh = sprites.size(rs)
    x0 = -RIVER_PER_ROW * lay.rw // 2
    for i, t in enumerate(tiles):
        _place(cv, lay, p, t, x0 + (i % per_row) * rw, lay.river_y + (i // per_row) * rh, rs)
    if win is not None:
        i = len(tiles)
        apart = round(GAP * lay.scale) if i % per_row else 0  # a gap before it, unless it starts a row
        x = x0 + (i % per_row) * rw + apart
        _place(cv, lay, p, win, x, lay.river_y + (i // per_row) * rh, rs, sprites.DRAWN)


def row_groups(seat: SeatPublic, revealed: tuple[int, ...] | None, face_down: bool) -> list[Laid]:
    """The row behind the river, left to right: the hand when revealed here, each meld (a 暗槓 face
    down until the reveal), the flowers."""
    groups: list[Laid] = []
    if revealed is not None:
        groups.append([(t, False) for t in revealed])
    for meld in seat.melds:
        groups.append(laid_out(meld, seat.seat, face_down=face_down))
    if seat.flowers:
        groups.append([(t, False) for t in seat.flowers])
    return [g for g in groups if g]


def _hand_row(
    cv: Canvas, lay: Layout, p: int, seat: SeatPublic, revealed: tuple[int, ...] | None, face_down: bool
) -> None:
    groups = row_groups(seat, revealed, face_down)
    if not groups:
        return
    room = 2 * lay.row_span(p)
    lines, s = row_lines(groups, room, lay.scale)
    w, h = sprites.size(s)
    gap = round(GAP * s)
    y = lay.row_y + lay.row_h - h  # the first line lies along the table's edge, a second inside it
    for line in lines:
        length = sum(h if side else w for g in line for _, side in g) + gap * (len(line) - 1)
        x = -length / 2  # centred on the side
        for group in line:
            for t, side in group:
                if side:
                    _place(cv, lay, p, t, x, y + h - w, s, sideways=True)
                    x += h
                else:
                    _place(cv, lay, p, t, x, y, s)
                    x += w
            x += gap
        y -= h + lay.line_gap


def row_lines(groups: list[Laid], room: int, scale: float = 1.0) -> tuple[list[list[Laid]], float]:
    """The row's groups in lines ``room`` long and the tile scale: one line at the largest of ``ROW_SCALES``
    down to ``TWO_LINES``, else two lines (groups kept whole, the first filled first) at the largest of
    ``ROW_SCALES_TWO`` that holds them (the smallest if none)."""

    def length(line: list[Laid], s: float) -> int:
        w, h = sprites.size(s)
        return sum(h if side else w for g in line for _, side in g) + round(GAP * s) * (len(line) - 1)

    for factor in ROW_SCALES:
        if factor < TWO_LINES:
            break
        if length(groups, factor * scale) <= room:
            return [groups], factor * scale
    first: list[Laid] = []
    rest: list[Laid] = []
    s = ROW_SCALES_TWO[-1] * scale
    for factor in ROW_SCALES_TWO:
        s = factor * scale
        first = []
        for g in groups:
            if first and length([*first, g], s) > room:
                break
            first.append(g)
        rest = groups[len(first) :]
        if length(first, s) <= room and (not rest or length(rest, s) <= room):
            return [line for line in (first, rest) if line], s
    return [line for line in (first, rest) if line], s


@lru_cache(maxsize=16)
def _background(scale: float, th: Theme) -> Image.Image:
    lay = Layout(scale)
    im = th.backdrop(lay.size, lay.size).copy()
    draw = ImageDraw.Draw(im)
    h, c = lay.half, lay.center
    ring = round(4 * scale)
    draw.rounded_rectangle(
        (ring, ring, lay.size - ring, lay.size - ring),
        round(20 * scale),
        outline=th.felt_light,
        width=max(1, round(2 * scale)),
    )
    th.panel_box(im, (h - c, h - c, h + c, h + c), round(16 * scale), th.panel_edge, max(1, round(2 * scale)))
    return im


def plate_box(lay: Layout, p: int) -> tuple[int, int, int, int]:
    """Position ``p``'s plate: upright, in the corner on that seat's left (the bottom seat's
    bottom left, the right seat's bottom right, and so on round the table)."""
    cx, cy = _turn(p, -1, 1)  # the corner's direction from the centre
    m = lay.margin
    x0 = m if cx < 0 else lay.size - m - lay.plate_w
    y0 = m if cy < 0 else lay.size - m - lay.plate_h
    return x0, y0, x0 + lay.plate_w, y0 + lay.plate_h


def name_lines(name: str, width: int, scale: float = 1.0) -> tuple[tuple[str, ...], int]:
    """How a plate writes ``name`` in ``width`` pixels: the largest of ``NAME_SIZES`` that holds it
    whole on one line, else on two; only a name too long for two lines at the smallest size is
    shortened (with an ellipsis at the end of its second line)."""
    sizes = [round(n * scale) for n in NAME_SIZES]
    for lines in (1, 2):
        for size in sizes:
            if (fit := fonts.wrap(name, size, width, lines)) is not None:
                return fit, size
    size = sizes[-1]
    first = fonts.fit(name, size, width)
    first = first[:-1] if first.endswith("…") else first
    k = 0
    for k in range(len(first), 0, -1):  # the most of the name that leaves a line for the rest
        if fonts.wrap(first[:k], size, width, 1) is not None:
            break
    rest = "".join(fonts.clusters(name))[len(first[:k]) :].lstrip()
    return (first[:k], fonts.fit(rest, size, width)), size


def _plate(
    cv: Canvas,
    lay: Layout,
    p: int,
    seat: SeatPublic,
    view: GameView,
    name: str,
    locale: object,
    result: HandResult | None = None,
) -> None:
    s = lay.scale
    x0, y0, x1, y1 = plate_box(lay, p)
    turn = view.turn == seat.seat and view.phase != "over"
    outline = cv.theme.gold if turn else cv.theme.panel_edge
    cv.theme.panel_box(cv.im, (x0, y0, x1, y1), round(10 * s), outline, round((3 if turn else 1.5) * s))
    wind_colour = cv.theme.red if seat.wind == 0 else cv.theme.text
    cv.text(
        (x0 + round(30 * s), y0 + round(36 * s)),
        wind_mark(locale, seat.wind),
        round(42 * s),
        wind_colour,
        anchor="mm",
    )

    left = x0 + lay.name_x
    lines, size = name_lines(name, lay.name_room, s)
    if len(lines) == 1:
        cv.text((left, y0 + round(36 * s)), lines[0], size, cv.theme.text)
    else:
        for i, text in enumerate(lines):
            cv.text((left, y0 + round((22 + 27 * i) * s)), text, size, cv.theme.text)

    change = result.deltas[seat.seat] if result is not None else 0
    points = seat.score + change  # the view's score is the hand's start; settled, its payments are in
    score_colour = cv.theme.win if points > 0 else cv.theme.loss if points < 0 else cv.theme.text
    score = f"{points:+,}" if points else "0"
    mid = y0 + round(80 * s)
    cv.text((x1 - round(12 * s), mid), score, round(26 * s), score_colour, anchor="rm")
    if result is not None and change:  # this hand's change, where the tile count was (the hand is shown)
        colour = cv.theme.win if change > 0 else cv.theme.loss
        cv.text((x0 + round(12 * s), mid), f"{change:+,}", round(22 * s), colour)
    elif seat.concealed_count and view.revealed.get(seat.seat) is None:  # under the wind: one back, ×n
        count = f"×{seat.concealed_count}"
        size = round(26 * s)  # as large as the score: about 12 px on a phone 390 px wide
        bw, bh = sprites.size(BACK_SCALE * s)
        space = round(4 * s)
        bx = x0 + round(12 * s)
        cv.tile(sprites.BACK, bx, round(mid - bh / 2), BACK_SCALE * s)
        cv.text((bx + bw + space, mid), count, size, cv.theme.text_dim)

    status = plate_tags(seat, view, locale, result, cv.theme)
    if turn:
        status.append((label(locale, "table.turn"), cv.theme.gold))
    if status:
        size = round(20 * s)
        space = round(8 * s)
        room = x1 - x0 - round(20 * s)
        while (
            size > round(12 * s) and sum(fonts.text_width(t, size) + space for t, _ in status) - space > room
        ):
            size -= 1
        x = x0 + round(10 * s)
        for text, colour in status:
            x += cv.text((x, y0 + round(105 * s)), text, size, colour) + space


def plate_tags(
    seat: SeatPublic, view: GameView, locale: object, result: HandResult | None = None, th: Theme = FELT
) -> list[tuple[str, Colour]]:
    """The words a seat's plate says of it, in order: 胡/自摸 and 放槍 once settled, 莊 (連n), 聽, 代打;
    the DM picture's plates say the same (render/dm.py)."""
    status: list[tuple[str, Colour]] = []
    if result is not None and result.winner == seat.seat:
        status.append((label(locale, "table.tsumo" if result.self_drawn else "table.win"), th.gold))
    if result is not None and result.loser == seat.seat:
        status.append((label(locale, "table.dealt"), th.red))
    if seat.seat == view.dealer:
        tag = label(locale, "streak", n=view.dealer_streak) if view.dealer_streak else label(locale, "dealer")
        status.append((tag, th.gold))
    if seat.ready:
        status.append((label(locale, "ready"), th.red))
    if seat.auto:
        status.append((label(locale, "table.auto"), th.red))
    return status


def _centre(
    cv: Canvas, lay: Layout, view: GameView, bottom: int, locale: object, result: HandResult | None = None
) -> None:
    s, h, c = lay.scale, lay.half, lay.center
    cv.text(
        (h, h - round(42 * s)),
        label(locale, "table.round", wind=wind(locale, view.round_wind)),
        round(30 * s),
        cv.theme.text,
        anchor="mm",
    )
    cv.text(
        (h, h - round(8 * s)),
        label(locale, "table.hand", n=view.hand_number),
        round(21 * s),
        cv.theme.text_dim,
        anchor="mm",
    )
    if result is not None:
        _outcome(cv, lay, result, locale)
    else:
        cv.text(
            (h, h + round(24 * s)),
            label(locale, "table.left", n=view.wall_remaining),
            round(24 * s),
            cv.theme.text,
            anchor="mm",
        )
    if view.phase == "over" and result is None:
        cv.text((h, h + round(56 * s)), label(locale, "table.over"), round(19 * s), cv.theme.gold, anchor="mm")
    if view.bonus_indicator is not None:
        _bonus_indicator(cv, lay, view.bonus_indicator, locale)
    r = round(20 * s)
    for seat in view.seats:
        p = (seat.seat - bottom) % 4
        bx, by = _turn(p, 0, c - r - round(8 * s))
        bx, by = bx + h, by + h
        turn = seat.seat == view.turn and view.phase != "over"
        fill = cv.theme.gold if turn else cv.theme.felt_dark
        cv.draw.ellipse(
            (bx - r, by - r, bx + r, by + r),
            fill=fill,
            outline=cv.theme.panel_edge,
            width=max(1, round(1.5 * s)),
        )
        colour = cv.theme.panel if turn else cv.theme.red if seat.wind == 0 else cv.theme.text
        cv.text((bx, by), wind_mark(locale, seat.wind), round(24 * s), colour, anchor="mm")


def _outcome(cv: Canvas, lay: Layout, result: HandResult, locale: object) -> None:
    """The middle of a settled hand: 胡 or 自摸 beside the winning tile, or the draw (流局)."""
    s, h = lay.scale, lay.half
    y = h + round(36 * s)
    size = round(26 * s)
    if result.winner is None or result.win_tile is None:
        cv.text((h, y), label(locale, "sheet.draw"), size, cv.theme.gold, anchor="mm")
        return
    words = label(locale, "table.tsumo" if result.self_drawn else "table.win")
    scale = INDICATOR_SCALE * s
    w, th = sprites.size(scale)
    space = round(8 * s)
    width = fonts.text_width(words, size) + space + w
    x = h - width / 2
    x += cv.text((x, y), words, size, cv.theme.gold) + space
    cv.tile(result.win_tile, round(x), round(y - th / 2), scale, sprites.DRAWN)


def _bonus_indicator(cv: Canvas, lay: Layout, tile: int, locale: object) -> None:
    """翻寶牌 (hongkong): the face-up tile everyone sees, in the middle panel's top-left corner, as
    large as a discard (the tile after it is the 寶牌)."""
    s, h, c = lay.scale, lay.half, lay.center
    scale = INDICATOR_SCALE * s
    w, th = sprites.size(scale)
    x = y = h - c + round(12 * s)
    cv.tile(tile, x, y, scale)
    cv.text(
        (x + w + round(6 * s), y + th / 2),
        label(locale, "table.indicator"),
        round(17 * s),
        cv.theme.gold,
        anchor="lm",
    )


def compose_table(
    view: GameView,
    names: Sequence[str],
    bottom: int | None = None,
    scale: float = 1.0,
    locale: object = None,
    result: HandResult | None = None,
    theme: Theme | str = "felt",
) -> Canvas:
    """Lay out the table with ``bottom`` (default: the viewer, else seat 0) at the bottom; ``result``:
    the settled hand's result, for the picture of a hand that is over (ignored while it is played);
    ``theme``: its colours and tiles (the table's option for the channel's picture, a person's own for a
    replay)."""
    th = get_theme(theme)
    if len(names) != len(view.seats):
        raise ValueError(f"need {len(view.seats)} names, got {len(names)}")
    if bottom is None:
        bottom = view.viewer if view.viewer is not None else 0
    if view.phase != "over":
        result = None  # a hand in play has no result (and a picture of it never shows one)
    lay = Layout(scale)
    cv = Canvas(_background(scale, th), th)
    _centre(cv, lay, view, bottom, locale, result)
    for seat in view.seats:
        p = (seat.seat - bottom) % 4
        hand = view.revealed.get(seat.seat)
        if result is not None and hand is not None:
            _hand_in_front(cv, lay, p, seat, hand, result)
            _hand_row(cv, lay, p, seat, None, face_down=False)
        else:
            _river(cv, lay, p, seat, view.last_discard)
            _hand_row(cv, lay, p, seat, hand, face_down=hand is None)
        _plate(cv, lay, p, seat, view, str(names[seat.seat]), locale, result)
    return cv


def table_image(
    view: GameView,
    names: Sequence[str],
    bottom: int | None = None,
    scale: float = 1.0,
    locale: object = None,
    result: HandResult | None = None,
    theme: Theme | str = "felt",
) -> Image.Image:
    """The table as an RGB image (what tests inspect)."""
    return compose_table(view, names, bottom, scale, locale, result, theme).im


def render_table(
    view: GameView,
    names: Sequence[str],
    bottom: int | None = None,
    scale: float = 1.0,
    locale: object = None,
    result: HandResult | None = None,
    theme: Theme | str = "felt",
) -> bytes:
    """The table as PNG bytes, for the channel's table message; ``locale`` is the table's
    language (en, zh-TW, zh-CN; None: Traditional Chinese labels as before); ``result`` the settled
    hand's (its picture once over); ``theme`` the table's (its host's choice, ``TableSettings.theme``)."""
    th = get_theme(theme)
    return encode.to_png(table_image(view, names, bottom, scale, locale, result, th), theme=th)
