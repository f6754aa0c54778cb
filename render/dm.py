"""The DM picture: the whole table seen from one seat, on one phone screen, so a person decides without
leaving the DM (where the 8-second claim windows are). Your hand large at the bottom, the drawn tile apart
at the end of its last row (in a claim window the tile on offer lies there instead, framed orange); above
it your own river, melds, flowers and (once ready) waits with how many of each are unseen; above those the
three other seats where they sit, 對家 across the top, 上家 on the left and 下家 on the right, each with its
plate (wind, name, 莊, 聽, 代打, score), its hidden tiles as one back and a count, its melds and flowers and
its river (the latest discard framed, the tiles another seat took shaded). The round, the hand and the tiles left head the picture.

It is drawn from the seat's screen alone (table/screens.py ``HandScreen``): its view holds only what the seat
may see, so another seat's concealed tiles appear only once the view has them (the end-of-hand reveal,
眼牌). Read at 390 px wide: the hand's tiles 39 px, every other tile about 15 px, the picture at most
1.25 × as tall as wide (render/phone.py)."""

from __future__ import annotations

from PIL import Image

from engine.tiles import sorted_tiles
from table.screens import HandScreen

from . import encode, fonts, sprites
from .canvas import Canvas
from .flow import Group, Piece, Spot, draw, flow, group
from .hand import even_rows, set_apart
from .labels import label, relative, wind, wind_mark
from .table import plate_tags, row_groups
from .theme import Colour, Theme, get_theme

WIDTH = 480
HAND_SCALES = (1.6, 1.4)  # the largest whose two rows fit the width: 13-tile hands 48 px, 16-tile 42 px
TILE_SCALE = 0.6  # rivers, melds and flowers: 18 px, 14.6 px at 390
RIVER_SCALE = MELD_SCALE = TILE_SCALE  # (named apart for what measures them: bench.render, tests)
MAX_ASPECT = 1.25
PAD = 6  # around the picture, between panels
INSET = 5  # inside a panel
TEXT = 15
HEADER_H = 22
PLATE_H = 20
LINE_GAP = 2
HAND_GAP = 2


def hand_scale(per_row: int) -> float:
    """The largest hand scale whose row (and the tile apart) fits the picture."""
    room = WIDTH - 2 * (PAD + INSET)
    for scale in HAND_SCALES:
        tw = sprites.size(scale)[0]
        if per_row * (tw + HAND_GAP) + round(6 * scale) + tw <= room:
            return scale
    return HAND_SCALES[-1]


def _river(screen: HandScreen, seat: int) -> Group:
    view = screen.view
    river = screen.rivers[seat] if screen.rivers else tuple((t, False) for t in view.seats[seat].discards)
    last = view.last_discard
    framed = len(river) - 1 if last is not None and last[0] == seat and river and not river[-1][1] else -1
    return Group(
        tuple(
            Piece(t, variant=sprites.LAST if i == framed else sprites.PLAIN, taken=taken)
            for i, (t, taken) in enumerate(river)
        ),
        breakable=True,
    )


def _rows_of(screen: HandScreen, seat: int, waits: bool = True) -> list[Group]:
    """A seat's hidden hand (one back and a count, or face up where the view has it), melds and flowers."""
    view = screen.view
    seen = view.revealed.get(seat) or view.others.get(seat)
    face = seat == view.viewer or view.revealed.get(seat) is not None  # your own 暗槓 face up: no caption names it
    groups = [group(g) for g in row_groups(view.seats[seat], None, face_down=not face)]
    if seat == view.viewer:  # and once ready, each wait with how many are still unseen
        shown = view.waits if waits else ()
        return groups + [Group((Piece(t),), after=label(screen.locale, "unseen", n=n)) for t, n in shown]
    if seen:
        hidden = Group(tuple(Piece(t) for t in sorted_tiles(seen)))
    else:
        hidden = Group((Piece(sprites.BACK),), after=f"×{view.seats[seat].concealed_count}")
    return [hidden, *groups]


class _Panel:
    """One seat's box: its plate, then its tile lines (melds and flowers, then its river)."""

    def __init__(self, screen: HandScreen, seat: int, width: int, plate: bool = True, waits: bool = True) -> None:
        self.seat, self.width = seat, width
        inner = width - 2 * INSET
        self.rows, n_rows = flow(_rows_of(screen, seat, waits), TILE_SCALE, inner, TEXT)
        river, n_river = flow([_river(screen, seat)], TILE_SCALE, inner, TEXT)
        self.river = river
        self.n_rows, self.n_river = n_rows, n_river
        self.spots = self.rows + [Spot(s.x, s.line + n_rows, s.piece, s.text) for s in river]
        self.lines = n_rows + n_river
        self.plate = plate
        self.height = 2 * INSET + (PLATE_H if plate else 0) + self.lines * line_height() - (LINE_GAP if self.lines else 0)


def line_height() -> int:
    return sprites.size(TILE_SCALE)[1] + LINE_GAP


def _felt(height: int, theme: Theme) -> Image.Image:
    return theme.backdrop(WIDTH, height)  # cached per height: heights vary with the rivers and melds


def _box(cv: Canvas, x0: int, y0: int, width: int, height: int, turn: bool) -> None:
    outline = cv.theme.gold if turn else cv.theme.panel_edge
    cv.theme.panel_box(cv.im, (x0, y0, x0 + width, y0 + height), 6, outline, 3 if turn else 1)


def _score(screen: HandScreen, seat: int, th: Theme) -> tuple[str, Colour]:
    change = screen.result.deltas[seat] if screen.result is not None else 0
    points = screen.view.seats[seat].score + change  # settled: the hand's payments are in
    colour = th.win if points > 0 else th.loss if points < 0 else th.text
    text = f"{points:+,}" if points else "0"
    if change:
        text += f" ({change:+,})"
    return text, colour


def _plate(cv: Canvas, screen: HandScreen, seat: int, x0: int, y: float, width: int, locale: object) -> None:
    """A seat's line: its wind, name and tags on the left, its score on the right."""
    view = screen.view
    public = view.seats[seat]
    score, colour = _score(screen, seat, cv.theme)
    right = x0 + width
    right -= cv.text((right, y), score, TEXT, colour, anchor="rm") + 8
    x = x0
    mark = label(locale, "seat", wind=wind(locale, public.wind)) if seat == view.viewer else wind_mark(locale, public.wind)
    x += cv.text((x, y), mark, TEXT + 1, cv.theme.red if public.wind == 0 else cv.theme.gold) + 5
    tags = plate_tags(public, view, locale, screen.result, cv.theme)
    tag_w = sum(fonts.text_width(t, TEXT) + 5 for t, _ in tags)
    if seat != view.viewer:
        room = max(24, right - x - tag_w)
        x += cv.text((x, y), fonts.fit(screen.names[seat], TEXT, room), TEXT, cv.theme.text) + 5
    for text, tag_colour in tags:
        x += cv.text((x, y), text, TEXT, tag_colour) + 5
    offer = view.offer
    if seat == view.viewer and offer is not None and offer[0] != seat:
        who = label(locale, "who", wind=wind(locale, view.seats[offer[0]].wind), rel=relative(locale, offer[0], seat))
        key = "offer.kong" if view.phase == "rob_kong" else "offer.discard"
        cv.text((x + 4, y), fonts.fit(label(locale, key, who=who), TEXT, max(24, right - x - 4)), TEXT, cv.theme.gold)


def compose_dm(screen: HandScreen, theme: Theme | str = "felt") -> Canvas:
    """Lay out seat ``screen.seat``'s DM picture in ``theme`` (the person's own: render/theme.py); the canvas
    records every sprite and string drawn."""
    look = get_theme(theme)
    view, me, locale = screen.view, screen.seat, screen.locale
    turn = view.turn if view.phase != "over" else None
    full = WIDTH - 2 * PAD
    half = (full - PAD) // 2
    across = _Panel(screen, (me + 2) % 4, full)
    left = _Panel(screen, (me + 3) % 4, half)
    right = _Panel(screen, (me + 1) % 4, full - PAD - half)
    own = _Panel(screen, me, full)

    per_row = -(-view.hand_size // 2)
    scale = hand_scale(per_row)
    tw, th = sprites.size(scale)
    concealed, apart = set_apart(view, per_row)
    offer = view.offer if view.offer is not None and view.offer[0] != me else None
    variant = sprites.DRAWN if apart is not None and apart == view.drawn else sprites.PLAIN
    if apart is None and offer is not None:
        apart, variant = offer[1], sprites.LAST
    rows = even_rows(concealed, per_row)
    hand_h = len(rows) * (th + HAND_GAP) - HAND_GAP

    header_h = HEADER_H if view.bonus_indicator is None else sprites.size(TILE_SCALE)[1] + 6  # 翻寶牌 as large as a discard
    sides = max(left.height, right.height)
    y_across = header_h
    y_sides = y_across + across.height + PAD
    y_own = y_sides + sides + PAD
    own_h = own.height + INSET + hand_h + LINE_GAP
    height = y_own + own_h + PAD
    if height > MAX_ASPECT * WIDTH and view.waits:  # the rare hand whose waits would not fit: the text names them
        own = _Panel(screen, me, full, waits=False)
        own_h = own.height + INSET + hand_h + LINE_GAP
        height = y_own + own_h + PAD
    cv = Canvas(_felt(height, look), look)

    # the header: where the hand stands; hongkong's face-up 翻寶牌 on the right
    cv.draw.rectangle((0, 0, WIDTH, header_h - 4), fill=cv.theme.felt_dark)
    info = label(locale, "round", wind=wind(locale, view.round_wind), n=view.hand_number, left=view.wall_remaining)
    cv.text((PAD + INSET, (header_h - 4) / 2), info, TEXT, cv.theme.text)
    if view.bonus_indicator is not None:
        bw, bh = sprites.size(TILE_SCALE)
        x = WIDTH - PAD - bw
        cv.tile(view.bonus_indicator, x, round((header_h - 4 - bh) / 2), TILE_SCALE)
        cv.text((x - 4, (header_h - 4) / 2), label(locale, "table.indicator"), TEXT - 2, cv.theme.gold, anchor="rm")

    for panel, x0, y0, h in (
        (across, PAD, y_across, across.height),
        (left, PAD, y_sides, sides),
        (right, WIDTH - PAD - right.width, y_sides, sides),
        (own, PAD, y_own, own_h),
    ):
        _box(cv, x0, y0, panel.width, h, panel.seat == turn)
        if panel is not own:
            _plate(cv, screen, panel.seat, x0 + INSET, y0 + INSET + PLATE_H / 2 - 1, panel.width - 2 * INSET, locale)
            draw(cv, panel.spots, x0 + INSET, y0 + INSET + PLATE_H, TILE_SCALE, line_height(), TEXT)

    # your own: the river, your plate, your melds and flowers, then the hand
    lh = line_height()
    x, y = PAD + INSET, y_own + INSET
    draw(cv, own.river, x, y, TILE_SCALE, lh, TEXT)
    y += own.n_river * lh
    _plate(cv, screen, me, x, y + PLATE_H / 2 - 1, full - 2 * INSET, locale)
    y += PLATE_H
    draw(cv, own.rows, x, y, TILE_SCALE, lh, TEXT)
    y += own.n_rows * lh + INSET
    for r, row in enumerate(rows):
        x = PAD + INSET
        for t in row:
            cv.tile(t, x, y + r * (th + HAND_GAP), scale)
            x += tw + HAND_GAP
    if apart is not None:
        cv.tile(apart, WIDTH - PAD - INSET - tw, y + (len(rows) - 1) * (th + HAND_GAP), scale, variant)
    return cv


def dm_image(screen: HandScreen, theme: Theme | str = "felt") -> Image.Image:
    """The picture as an RGB image (what tests inspect)."""
    return compose_dm(screen, theme).im


def render_dm(screen: HandScreen, theme: Theme | str = "felt") -> bytes:
    """The picture as PNG bytes, for the seat's DM; its labels in the seat's language (``screen.locale``),
    its colours and tiles in ``theme``: the person's own theme (``PlayerPrefs.theme``, a name; felt by
    default and for a name not known)."""
    th = get_theme(theme)
    return encode.to_png(dm_image(screen, th), theme=th)
