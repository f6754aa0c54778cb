"""The hand image a player gets by DM: their concealed tiles sorted, the drawn tile set apart,
their melds (暗槓 face down, as it lies on a Taiwanese table), flowers, and the waits once 聽; a
眼牌 declarer's own view also holds the other hands, drawn below in smaller rows."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from engine.meld import Meld, MeldKind
from engine.tiles import sorted_tiles, tile_name
from engine.view import GameView

from . import encode, sprites, theme
from .canvas import Canvas

MELD_CAPTIONS = {MeldKind.CHI: "吃", MeldKind.PON: "碰", MeldKind.KONG: "明槓", MeldKind.ADDKONG: "加槓"}
WAIT_SCALE = 0.75  # waits are a reminder, smaller than the hand
OTHERS_SCALE = 0.6  # 眼牌: the other hands, below one's own, smaller


def meld_tiles(meld: Meld) -> list[int]:
    """What a meld shows: 暗槓 as four backs (its owner reads which tile in the caption)."""
    if meld.kind is MeldKind.ANKONG:
        return [sprites.BACK] * len(meld.tiles)
    return list(meld.tiles)


def meld_caption(meld: Meld, *, owner: bool) -> str:
    if meld.kind is MeldKind.ANKONG:
        return f"暗槓 {tile_name(meld.tiles[0])}" if owner else "暗槓"
    return MELD_CAPTIONS[meld.kind]


@lru_cache(maxsize=32)
def _background(width: int, height: int, tray: tuple[int, int, int, int], scale: float) -> Image.Image:
    im = Image.new("RGB", (width, height), theme.FELT)
    draw = ImageDraw.Draw(im)
    draw.rounded_rectangle(tray, round(6 * scale), fill=theme.TRAY)
    draw.rectangle((0, 0, width, round(18 * scale)), fill=theme.FELT_DARK)
    return im


def compose_hand(view: GameView, scale: float = 2) -> Canvas:
    """Lay out the viewer's hand; the returned canvas records every sprite it pasted."""
    if view.viewer is None:
        raise ValueError("the hand image needs a player's view, not the public view")
    me = view.seats[view.viewer]
    tw, th = sprites.size(scale)
    pad = round(8 * scale)
    gap = max(1, round(scale))
    group_gap = round(7 * scale)
    drawn_gap = round(10 * scale)
    header_h = round(18 * scale)
    caption = round(8 * scale)
    wait_w, wait_h = sprites.size(scale * WAIT_SCALE)

    concealed = sorted_tiles(view.concealed)
    n_row1 = max(len(concealed) + 1, 14 if view.rules in ("taiwan13", "guangdong") else 17)
    row1_w = n_row1 * (tw + gap) + drawn_gap
    groups = [(meld_tiles(m), meld_caption(m, owner=True)) for m in me.melds]
    if me.flowers:
        groups.append((list(me.flowers), "花"))
    row2_w = sum(len(t) * (tw + gap) for t, _ in groups) + group_gap * max(0, len(groups) - 1)
    waits_w = (len(view.waits) * (wait_w + gap) + round(22 * scale)) if view.waits else 0
    content_w = max(row1_w, row2_w + (group_gap * 2 + waits_w if waits_w else 0))
    width = content_w + 2 * pad

    # 眼牌: the other hands in turn order after the viewer (下家, 對家, 上家), one row each
    others = [(s, view.others[s]) for s in ((view.viewer + k) % 4 for k in (1, 2, 3)) if s in view.others]
    ow, oh = sprites.size(scale * OTHERS_SCALE)
    label_w = round(34 * scale)
    if others:
        width = max(width, 2 * pad + label_w + max(len(t) for _, t in others) * (ow + gap))

    y1 = header_h + pad
    y2 = y1 + th + round(10 * scale)
    has_row2 = bool(groups or view.waits)
    height = (y2 + max(th, wait_h + caption) + caption + pad) if has_row2 else y1 + th + pad
    y_others = height
    height += len(others) * (oh + gap * 3) + (pad // 2 if others else 0)
    tray = (pad // 2, y1 - pad // 2, width - pad // 2, y1 + th + pad // 2)
    cv = Canvas(_background(width, height, tray, scale))

    # Header: seat wind, dealer and streak, round, tiles left.
    text = round(10.5 * scale)
    x = pad
    x += cv.text((x, header_h / 2), f"{theme.WIND_NAMES[me.wind]}家", text, theme.TEXT) + round(5 * scale)
    if view.dealer == view.viewer:
        badge = "莊" + (f" 連{view.dealer_streak}" if view.dealer_streak else "")
        x += cv.text((x, header_h / 2), badge, text, theme.GOLD) + round(5 * scale)
    if me.ready:
        x += cv.text((x, header_h / 2), "聽", text, theme.RED) + round(5 * scale)
    info = f"{theme.WIND_NAMES[view.round_wind]}風圈 第{view.hand_number}局 · 剩 {view.wall_remaining} 張"
    cv.text((width - pad, header_h / 2), info, text, theme.TEXT_DIM, anchor="rm")

    # Row 1: concealed tiles, then the drawn tile apart and highlighted.
    x = pad
    for t in concealed:
        cv.tile(t, x, y1, scale)
        x += tw + gap
    if view.drawn is not None:
        cv.tile(view.drawn, x + drawn_gap, y1, scale, sprites.DRAWN)

    # Row 2: melds and flowers with captions, waits at the right.
    x = pad
    cap_size = round(7.5 * scale)
    for tiles, cap in groups:
        x0 = x
        for t in tiles:
            cv.tile(t, x, y2, scale)
            x += tw + gap
        cv.text(((x0 + x) / 2, y2 + th + caption * 0.75), cap, cap_size, theme.TEXT_DIM, anchor="mm")
        x += group_gap
    if view.waits:
        x = width - pad - waits_w
        cv.text((x, y2 + wait_h / 2), "聽", round(11 * scale), theme.RED)
        x += round(22 * scale)
        for t, unseen in view.waits:
            cv.tile(t, x, y2, scale * WAIT_SCALE)
            colour = theme.TEXT if unseen else theme.LOSS
            cv.text(
                (x + wait_w / 2, y2 + wait_h + caption * 0.75), f"×{unseen}", cap_size, colour, anchor="mm"
            )
            x += wait_w + gap
    for i, (seat, tiles) in enumerate(others):
        y = y_others + i * (oh + gap * 3)
        wind = theme.WIND_NAMES[view.seats[seat].wind]
        cv.text((pad, y + oh / 2), f"{wind}家", round(10 * scale), theme.GOLD)
        x = pad + label_w
        for t in sorted_tiles(tiles):
            cv.tile(t, x, y, scale * OTHERS_SCALE)
            x += ow + gap
    return cv


def hand_image(view: GameView, scale: float = 2) -> Image.Image:
    """The viewer's hand as an RGB image (what tests inspect)."""
    return compose_hand(view, scale).im


def render_hand(view: GameView, scale: float = 2) -> bytes:
    """The viewer's hand as PNG bytes, ready to attach to a DM."""
    return encode.to_png(hand_image(view, scale))
