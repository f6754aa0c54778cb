"""The hand image a player gets by DM, laid out for a phone (read at about 390 px wide): the
concealed tiles sorted in two rows of half a hand (8 for the 16-tile rule sets, 7 for the 13-tile
ones, ``GameView.hand_size``), the drawn tile set apart at the end of the last row, and below them
the melds (the claimed tile turned sideways, showing who it came from; 暗槓 face down as on a
Taiwanese table), the flowers and, once the hand is ready, the waits with how many of each are
still unseen. In a claim window the tile on offer is shown on top, saying who let it go. A 眼牌
declarer's own view also holds the other hands, drawn below in smaller rows.

Labels follow the reader's language (``locale``: en, zh-TW, zh-CN; see ``render.labels``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.meld import Meld, MeldKind
from engine.tiles import sorted_tiles
from engine.view import GameView

from . import encode, fonts, sprites
from .canvas import Canvas
from .labels import label, relative, tile_word, wind
from .melds import KEYS, Laid, claimed_from, laid_out
from .theme import Theme, get_theme

MELD_SCALE = 0.75  # melds and flowers, below the hand: read less often than the hand itself
WAIT_SCALE = 0.75  # waits are a reminder, as large as the melds
OTHERS_SCALE = 0.45  # 眼牌: the other hands, below one's own, small enough for 17 tiles a row


def meld_caption(meld: Meld, owner: int, locale: object = None) -> str:
    """What a meld's caption says: its kind and who the tile came from (暗槓: which tile, for its
    owner)."""
    kind = label(locale, KEYS[meld.kind])
    if meld.kind is MeldKind.ANKONG:
        return f"{kind} {tile_word(locale, meld.tiles[0])}" if not meld.is_hidden else kind
    rel = claimed_from(meld, owner)
    return label(locale, "from", meld=kind, rel=label(locale, f"rel.{rel}")) if rel else kind


@dataclass(frozen=True, slots=True)
class Geometry:
    """Pixel sizes at one scale (``scale`` pixels per tile unit; 2 gives 60-px hand tiles)."""

    scale: float
    per_row: int  # concealed tiles in a full row

    @property
    def tile(self) -> tuple[int, int]:
        return sprites.size(self.scale)

    def u(self, units: float) -> int:
        return round(units * self.scale)

    @property
    def gap(self) -> int:
        return max(1, round(self.scale))

    @property
    def content_width(self) -> int:
        """A full row, the gap before the drawn tile and the drawn tile."""
        tw = self.tile[0]
        return self.per_row * (tw + self.gap) - self.gap + self.u(10) + tw

    @property
    def width(self) -> int:
        return self.content_width + 2 * self.u(8)


def geometry(view: GameView, scale: float = 2) -> Geometry:
    return Geometry(scale, -(-view.hand_size // 2))


@lru_cache(maxsize=16)  # a few MB: heights vary with melds and waits, widths with the rule set
def _background(
    width: int, height: int, header: int, tray: tuple[int, int, int, int], scale: float, look: Theme
) -> Image.Image:
    im = look.backdrop(width, height).copy()
    draw = ImageDraw.Draw(im)
    draw.rounded_rectangle(tray, round(6 * scale), fill=look.tray)
    draw.rectangle((0, 0, width, header), fill=look.felt_dark)
    return im


@dataclass(slots=True)
class _Group:
    """Melds, flowers or the waits below the hand: tiles in a line with a caption under them."""

    tiles: Laid
    caption: str
    counts: tuple[int, ...] | None = None  # the waits: unseen copies under each tile


def _groups(view: GameView, locale: object) -> list[_Group]:
    me = view.seats[view.viewer or 0]
    out = [_Group(laid_out(m, me.seat), meld_caption(m, me.seat, locale)) for m in me.melds]
    if me.flowers:
        out.append(_Group([(t, False) for t in sorted(me.flowers)], label(locale, "flowers")))
    return out


def set_apart(view: GameView, per_row: int) -> tuple[list[int], int | None]:
    """The concealed tiles and the one shown apart, at the end of the last row: the drawn tile, or for a
    hand one over two rows without one (the dealer's first turn when the last dealt tile was a flower) its
    last tile, so the picture stays two rows."""
    concealed = list(view.concealed)
    apart = view.drawn
    if apart is None and len(concealed) == 2 * per_row + 1:
        apart = concealed.pop()
    return concealed, apart


def even_rows(tiles: list[int], per_row: int) -> list[list[int]]:
    """``tiles`` in as few rows of at most ``per_row`` as hold them, evenly filled (ten tiles are
    two rows of five, not eight and two), the first row the longer."""
    if not tiles:
        return [[]]
    n_rows = max(1, -(-len(tiles) // per_row))
    size = -(-len(tiles) // n_rows)
    return [tiles[i : i + size] for i in range(0, len(tiles), size)] or [[]]


def compose_hand(view: GameView, scale: float = 2, locale: object = None, theme: Theme | str = "felt") -> Canvas:
    """Lay out the viewer's hand in ``theme``; the returned canvas records every sprite and string it drew."""
    look = get_theme(theme)
    if view.viewer is None:
        raise ValueError("the hand image needs a player's view, not the public view")
    me = view.me
    geo = geometry(view, scale)
    u, gap = geo.u, geo.gap
    tw, th = geo.tile
    pad = u(8)
    width = geo.width
    content_w = geo.content_width
    text = u(12)
    cap_size = u(9)
    caption_h = u(13)

    # Header: seat wind, dealer and streak, 聽 on the left; round, hand and tiles left on the right.
    left = [(label(locale, "seat", wind=wind(locale, me.wind)), look.text)]
    if view.dealer == view.viewer:
        tag = label(locale, "streak", n=view.dealer_streak) if view.dealer_streak else label(locale, "dealer")
        left.append((tag, look.gold))
    if me.ready:
        left.append((label(locale, "ready"), look.red))
    info = label(
        locale, "round", wind=wind(locale, view.round_wind), n=view.hand_number, left=view.wall_remaining
    )
    spacing = u(6)
    left_w = sum(fonts.text_width(t, text) for t, _ in left) + spacing * (len(left) - 1)
    one_line = left_w + u(14) + fonts.text_width(info, text) <= content_w
    line_h = u(20)
    header_h = line_h if one_line else 2 * line_h - u(4)

    # The tile on offer in a claim window (not to the one who let it go).
    offer = view.offer if view.offer is not None and view.offer[0] != view.viewer else None
    y = header_h + pad
    y_offer = y
    if offer is not None:
        y += th + pad

    concealed, apart = set_apart(view, geo.per_row)
    rows = even_rows(concealed, geo.per_row)
    y_rows = y
    row_step = th + u(3)
    y = y_rows + len(rows) * row_step - u(3)
    tray = (pad // 2, y_rows - pad // 2, width - pad // 2, y + pad // 2)
    y += pad

    # Below: melds, flowers and waits, flowing left to right in lines as wide as the hand.
    mw, mh = sprites.size(scale * MELD_SCALE)
    ww, wh = sprites.size(scale * WAIT_SCALE)
    groups = _groups(view, locale)
    ready = [(t, n) for t, n in view.waits]
    group_gap = u(10)
    cell_gap = u(4)
    placed: list[tuple[_Group, int, int]] = []  # group, x, line
    x, line = pad, 0

    def group_width(g: _Group) -> int:
        if g.counts is not None:
            cells = [_cell(n) for n in g.counts]
            return fonts.text_width(g.caption, u(12)) + u(8) + sum(cells) - cell_gap
        return max(_tiles_width(g), fonts.text_width(g.caption, cap_size))

    def _tiles_width(g: _Group) -> int:
        return sum((mh if side else mw) + gap for _, side in g.tiles) - gap

    def _cell(n: int) -> int:
        return max(ww, fonts.text_width(label(locale, "unseen", n=n), cap_size)) + cell_gap

    for g in groups:
        w = group_width(g)
        if x > pad and x + w > pad + content_w:
            x, line = pad, line + 1
        placed.append((g, x, line))
        x += w + group_gap
    if ready:
        g = _Group([(t, False) for t, _ in ready], label(locale, "waits"), tuple(n for _, n in ready))
        w = group_width(g)
        if placed and x + w <= pad + content_w:
            placed.append((g, pad + content_w - w, line))  # at the right of the last line
        else:
            line = line + 1 if placed else 0
            placed.append((g, pad, line))
    below_h = max(mh, wh) + caption_h
    y_below = y
    if placed:
        y += (line + 1) * (below_h + u(4))

    # 眼牌: the other hands in turn order after the viewer (下家, 對家, 上家), one row each.
    others = [(s, view.others[s]) for s in ((view.viewer + k) % 4 for k in (1, 2, 3)) if s in view.others]
    ow, oh = sprites.size(scale * OTHERS_SCALE)
    y_others = y
    marks = {s: label(locale, "others", wind=wind(locale, view.seats[s].wind)) for s, _ in others}
    label_w = max((fonts.text_width(m, u(10)) for m in marks.values()), default=0) + u(6)
    if others:
        y += len(others) * (oh + gap * 3)
    height = y + (pad // 2 if others else 0)

    cv = Canvas(_background(width, height, header_h, tray, scale, look), look)

    x = pad
    y_line = line_h / 2
    for words, colour in left:
        x += cv.text((x, y_line), words, text, colour) + spacing
    if one_line:
        cv.text((width - pad, y_line), info, text, cv.theme.text_dim, anchor="rm")
    else:
        cv.text((pad, y_line + line_h - u(4)), info, text, cv.theme.text_dim)

    if offer is not None:
        seat, tile = offer
        cv.tile(tile, pad, y_offer, scale, sprites.LAST)
        who = label(
            locale, "who", wind=wind(locale, view.seats[seat].wind), rel=relative(locale, seat, view.viewer)
        )
        key = "offer.kong" if view.phase == "rob_kong" else "offer.discard"
        cv.text((pad + tw + u(8), y_offer + th / 2), label(locale, key, who=who), u(13), cv.theme.gold)

    for r, row in enumerate(rows):
        x = pad
        for t in row:
            cv.tile(t, x, y_rows + r * row_step, scale)
            x += tw + gap
    if apart is not None:
        x = pad + content_w - tw
        variant = sprites.DRAWN if apart == view.drawn else sprites.PLAIN
        cv.tile(apart, x, y_rows + (len(rows) - 1) * row_step, scale, variant)

    for g, x0, ln in placed:
        top = y_below + ln * (below_h + u(4))
        if g.counts is not None:
            cw = fonts.text_width(g.caption, u(12))
            cv.text((x0, top + wh / 2), g.caption, u(12), cv.theme.red)
            x = x0 + cw + u(8)
            for (t, _), n in zip(g.tiles, g.counts, strict=True):
                cell = _cell(n) - cell_gap
                cv.tile(t, x + (cell - ww) // 2, top, scale * WAIT_SCALE)
                colour = cv.theme.text if n else cv.theme.loss
                cap = label(locale, "unseen", n=n)
                cv.text((x + cell / 2, top + wh + caption_h / 2 + u(1)), cap, cap_size, colour, anchor="mm")
                x += cell + cell_gap
            continue
        x = x0 + (group_width(g) - _tiles_width(g)) // 2  # a caption wider than the tiles centres them
        for t, side in g.tiles:
            if side:  # turned, lying along the bottom edge of the line
                cv.tile(t, x, top + mh - mw, scale * MELD_SCALE, rotation=90)
                x += mh + gap
            else:
                cv.tile(t, x, top, scale * MELD_SCALE)
                x += mw + gap
        mid = (x0 + x - gap) / 2
        cv.text((mid, top + mh + caption_h / 2 + u(1)), g.caption, cap_size, cv.theme.text_dim, anchor="mm")

    for i, (seat, tiles) in enumerate(others):
        y = y_others + i * (oh + gap * 3)
        cv.text((pad, y + oh / 2), marks[seat], u(10), cv.theme.gold)
        x = pad + label_w
        for t in sorted_tiles(tiles):
            cv.tile(t, x, y, scale * OTHERS_SCALE)
            x += ow + gap
    return cv


def hand_image(view: GameView, scale: float = 2, locale: object = None, theme: Theme | str = "felt") -> Image.Image:
    """The viewer's hand as an RGB image (what tests inspect)."""
    return compose_hand(view, scale, locale, theme).im


def render_hand(view: GameView, scale: float = 2, locale: object = None, theme: Theme | str = "felt") -> bytes:
    """The viewer's hand as PNG bytes, ready to attach to a DM; ``locale`` is the reader's
    language (en, zh-TW, zh-CN; None: Traditional Chinese labels as before); ``theme`` the reader's."""
    look = get_theme(theme)
    return encode.to_png(hand_image(view, scale, locale, look), theme=look)
