"""The score sheet after a hand: the winning hand, each 台/番 item with its value, the total and
every player's point change; a draw game (流局) shows only the point changes. Lines settled beside
the hand (``result.extras``: guangdong's kongs and 买马) follow the total, each naming its seat and the
points it moved, so the point changes add up on the sheet.

When 滿台 limited the hand the total reads ``32 台 → 滿台 16 台`` (what the hand is worth, then
what was paid), and when the 24-台 rule cut a payment a note under the total says so, so that
players can check the point changes against the items. A table playing house rules gets a last line
naming them (``家規 common: 天胡 24 · …``), so a sheet is never read against the wrong table."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image

from engine.meld import MeldKind
from engine.tiles import sorted_tiles
from engine.view import GameView, HandResult

from . import encode, fonts, sprites
from .canvas import Canvas
from .labels import label, locale_of, tile_words, wind
from .script import in_script
from .theme import Theme, get_theme

UNITS = {"tai": "台", "fan": "番", "points": "分", "multiplier": "倍"}
WIDTH = 760
# text sizes at scale 1: a phone shows the 760-px sheet about 390 px wide (×0.51), so every word is
# at least 20 px here, 10 px or more on the phone, and the items and names 12 px (24 here)
TEXT = {"sub": 24, "where": 20, "item": 24, "line": 38, "mark": 20, "note": 20, "name": 22, "delta": 28, "house": 20}
DELTAS_HEIGHT = 90  # the box of the four point changes: a name above its change
TILE_SCALES = (
    1.2,
    1.1,
    1.0,
    0.9,
    0.8,
    0.7,
    0.6,
)  # the largest that fits the hand (few steps: warm_up draws them all)
TILE_SCALE = TILE_SCALES[0]


def _hand_groups(result: HandResult) -> list[list[int]]:
    groups: list[list[int]] = [sorted_tiles(result.concealed)]
    for meld in result.melds:
        if meld.kind is MeldKind.ANKONG:  # revealed at the end, but still marked as concealed
            groups.append([sprites.BACK, meld.tiles[1], meld.tiles[2], sprites.BACK])
        else:
            groups.append(list(meld.tiles))
    if result.flowers:
        groups.append(sorted(result.flowers))
    return [g for g in groups if g]


def total_text(result: HandResult, unit: str, locale: object = None) -> tuple[str, str | None]:
    """The total as written on the sheet: (what was paid, the hand's own total when 滿台 cut it)."""
    if result.capped_total is not None and result.capped_total != result.total:
        return f"{label(locale, 'sheet.cap')} {result.capped_total} {unit}", f"{result.total} {unit} →"
    return f"{result.total} {unit}", None


LIMIT_NOTE = "24台 上限：每家最多付 底 + 24 台"


def _title(result: HandResult, names: Sequence[str], locale: object = None) -> tuple[str, str]:
    if result.winner is None:
        return label(locale, "sheet.draw"), label(locale, "sheet.no_winner")
    who = names[result.winner]
    if result.self_drawn:
        return "自摸", label(locale, "sheet.tsumo", who=who)
    loser = names[result.loser] if result.loser is not None else "?"
    return "胡", label(locale, "sheet.ron", who=who, loser=loser)


def compose_score(
    result: HandResult,
    names: Sequence[str],
    view: GameView | None = None,
    scale: float = 1.0,
    house_rules: str = "",
    locale: object = None,
    theme: Theme | str = "felt",
) -> Canvas:
    """``locale``: the reader's language for the sheet's own words (None: Traditional Chinese, as
    the sheet always was); the 台/番 item names are the rule documents' words, in the reader's script
(render/script.py: 庄家 for zh-CN, 莊家 for zh-TW); ``theme``: the paper, inks and tiles (the table's)."""
    look = get_theme(theme)
    s = scale
    width = round(WIDTH * s)
    pad = round(24 * s)
    groups = _hand_groups(result) if result.winner is not None else []
    gap = round(10 * s)
    n_tiles = sum(len(g) for g in groups) + (1 if result.win_tile is not None else 0)
    n_gaps = len(groups) + (1 if result.win_tile is not None else 0)
    for tile_scale in (ts * s for ts in TILE_SCALES):  # a long hand: smaller tiles
        tw, th = sprites.size(tile_scale)
        if n_tiles * tw + n_gaps * gap <= width - 2 * pad:
            break
    unit = UNITS.get(result.unit, result.unit)
    items = list(result.items)
    cols = 2 if len(items) > 6 else 1
    per_col = -(-len(items) // cols) if items else 0
    line = round(TEXT["line"] * s)

    y_title = pad + round(20 * s)
    y_hand = y_title + round(40 * s)
    y_items = y_hand + (th + round(24 * s) if groups else 0)
    y_total = y_items + per_col * line + (round(12 * s) if items else 0)
    y_extras = y_total + (round(52 * s) if result.winner is not None else 0)
    y_note = y_extras + len(result.extras) * line
    y_deltas = y_note + (round(38 * s) if result.limited else 0)
    y_house = y_deltas + round(DELTAS_HEIGHT * s) + round(22 * s)
    height = y_deltas + round((DELTAS_HEIGHT + 6) * s) + pad + (round(34 * s) if house_rules else 0)

    cv = Canvas(Image.new("RGB", (width, height), look.paper), look)
    d = cv.draw
    d.rounded_rectangle(
        (round(6 * s), round(6 * s), width - round(7 * s), height - round(7 * s)),
        round(14 * s),
        outline=cv.theme.rule,
        width=max(1, round(2 * s)),
    )
    big, sub = _title(result, names, locale)
    colour = cv.theme.ink_dim if result.winner is None else cv.theme.title
    x = pad + cv.text((pad, y_title), big, round(34 * s), colour) + round(14 * s)
    cv.text((x, y_title + round(3 * s)), sub, round(TEXT["sub"] * s), cv.theme.ink)
    if view is not None:
        where = label(locale, "sheet.where", wind=wind(locale, view.round_wind), n=view.hand_number)
        cv.text((width - pad, y_title), where, round(TEXT["where"] * s), cv.theme.ink_dim, anchor="rm")

    if groups:
        x = pad
        for group in groups:
            for t in group:
                cv.tile(t, x, y_hand, tile_scale)
                x += tw
            x += gap
        if result.win_tile is not None:
            cv.tile(result.win_tile, x + gap, y_hand, tile_scale, sprites.DRAWN)
            mark = "自摸" if result.self_drawn else "胡"
            cv.text(
                (x + gap + tw / 2, y_hand + th + round(10 * s)),
                mark,
                round(TEXT["mark"] * s),
                (200, 32, 42),
                anchor="mm",
            )

    col_w = (width - 2 * pad - round(30 * s) * (cols - 1)) // cols
    size = round(TEXT["item"] * s)
    for i, item in enumerate(items):
        col, row = divmod(i, per_col)
        x0 = pad + col * (col_w + round(30 * s))
        y = y_items + row * line + line / 2
        cv.text((x0, y), fonts.fit(in_script(locale_of(locale), item.name), size, col_w - round(70 * s)), size, cv.theme.ink)
        cv.text((x0 + col_w, y), f"{item.value} {unit}", size, cv.theme.ink, anchor="rm")
        d.line((x0, y + line / 2 - 1, x0 + col_w, y + line / 2 - 1), fill=cv.theme.rule, width=1)

    if result.winner is not None:
        d.line(
            (pad, y_total - round(4 * s), width - pad, y_total - round(4 * s)),
            fill=cv.theme.ink_dim,
            width=max(1, round(1.5 * s)),
        )
        cv.text((pad, y_total + round(20 * s)), label(locale, "sheet.total"), round(22 * s), cv.theme.ink)
        paid, before = total_text(result, unit, locale)
        x = width - pad
        x -= cv.text((x, y_total + round(20 * s)), paid, round(26 * s), (200, 32, 42), anchor="rm")
        if before is not None:
            cv.text(
                (x - round(10 * s), y_total + round(20 * s)),
                before,
                round(22 * s),
                cv.theme.ink_dim,
                anchor="rm",
            )
    for i, extra in enumerate(result.extras):
        y = y_extras + i * line + line / 2
        who = f" · {names[extra.seat]}" if extra.seat is not None else ""
        cv.text((pad, y), fonts.fit(tile_words(locale, extra.name) + who, size, width - 2 * pad - round(90 * s)), size, cv.theme.ink)
        pts = label(locale, "sheet.points")
        cv.text((width - pad, y), f"{extra.value:+} {pts}" if extra.value else f"0 {pts}", size, cv.theme.ink, anchor="rm")
    if result.limited:
        note = LIMIT_NOTE if locale is None else label(locale, "sheet.limit")
        cv.text((width - pad, y_note + round(14 * s)), note, round(TEXT["note"] * s), cv.theme.title, anchor="rm")

    cell = (width - 2 * pad) // 4
    d.rounded_rectangle(
        (pad, y_deltas, width - pad, y_deltas + round(DELTAS_HEIGHT * s)), round(10 * s), fill=cv.theme.paper_shade
    )
    for seat, delta in enumerate(result.deltas):
        cx = pad + cell * seat + cell / 2
        tag = ""
        if seat == result.winner:
            tag = label(locale, "sheet.tag_tsumo" if result.self_drawn else "sheet.tag_win")
        elif seat == result.loser:
            tag = label(locale, "sheet.tag_dealt")
        room = cell - round(12 * s)
        # the largest size that writes the name whole, down to 16 (then it is shortened with …)
        name_size = next(
            (round(n * s) for n in range(TEXT["name"], 15, -2) if fonts.text_width(tag + names[seat], round(n * s)) <= room),
            round(16 * s),
        )
        cv.text(
            (cx, y_deltas + round(26 * s)),
            fonts.fit(tag + names[seat], name_size, room),
            name_size,
            cv.theme.ink_dim,
            anchor="mm",
        )
        colour = cv.theme.up if delta > 0 else cv.theme.down if delta < 0 else cv.theme.ink_dim
        cv.text(
            (cx, y_deltas + round(64 * s)),
            f"{delta:+,}" if delta else "0",
            round(TEXT["delta"] * s),
            colour,
            anchor="mm",
        )
    if house_rules:
        size = round(TEXT["house"] * s)
        words = fonts.fit(label(locale, "sheet.house", rules=house_rules), size, width - 2 * pad)
        cv.text((pad, y_house), words, size, cv.theme.ink_dim, anchor="lm")
    return cv


def score_image(
    result: HandResult,
    names: Sequence[str],
    view: GameView | None = None,
    scale: float = 1.0,
    house_rules: str = "",
    locale: object = None,
    theme: Theme | str = "felt",
) -> Image.Image:
    """The score sheet as an RGB image (what tests inspect)."""
    return compose_score(result, names, view, scale, house_rules, locale, theme).im


def render_score(
    result: HandResult,
    names: Sequence[str],
    view: GameView | None = None,
    scale: float = 1.0,
    house_rules: str = "",
    locale: object = None,
    theme: Theme | str = "felt",
) -> bytes:
    """The score sheet as PNG bytes. ``view`` (optional) adds the round and hand number;
    ``house_rules`` (cogs.mahjong.texts.house_rules_text, "" at a document table) adds a line naming them;
    ``locale`` the readers' language (the channel's); ``theme`` the table's."""
    look = get_theme(theme)
    return encode.to_png(score_image(result, names, view, scale, house_rules, locale, look), theme=look)
