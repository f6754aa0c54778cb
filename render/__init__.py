"""Pillow pictures of engine state: tile sprites, the DM picture (the table from a seat), the hand
image, the table image (channel) and the score sheet. Reads ``engine.view`` objects only and never changes them; every function is
safe to call from worker threads (``asyncio.to_thread``)."""

from __future__ import annotations

import threading

from .dm import dm_image, render_dm
from .hand import hand_image, render_hand
from .scoresheet import render_score, score_image
from .table import render_table, table_image


def sprite_uses() -> list[tuple[float, str, int]]:
    """Every (scale, variant, rotation) the three pictures paste at their default scale."""
    from . import dm, hand, scoresheet, sprites, table

    turns = (0, 90, 180, 270)
    uses = [(s, v, 0) for s in dm.HAND_SCALES for v in sprites.VARIANTS]  # the DM picture: its hand, the offer
    uses += [(dm.TILE_SCALE, v, 0) for v in (sprites.PLAIN, sprites.LAST)] + [(dm.TILE_SCALE, sprites.PLAIN, 90)]
    uses += [(2.0, v, 0) for v in sprites.VARIANTS]  # hand_image's default scale; LAST: the tile on offer
    uses += [(2.0 * hand.MELD_SCALE, sprites.PLAIN, r) for r in (0, 90)]  # 90: a claimed tile
    uses += [(2.0 * s, sprites.PLAIN, 0) for s in (hand.WAIT_SCALE, hand.OTHERS_SCALE)]
    # the river's scales: discards (LAST: the latest), and a settled hand in the river's place (DRAWN: the winning tile)
    uses += [(s, v, r) for s in table.RIVER_SCALES for v in sprites.VARIANTS for r in turns]
    uses += [(s, sprites.PLAIN, r) for s in {*table.ROW_SCALES, *table.ROW_SCALES_TWO} for r in turns]
    uses += [(table.INDICATOR_SCALE, v, 0) for v in (sprites.PLAIN, sprites.DRAWN)]  # DRAWN: a settled hand's tile
    uses += [(table.BACK_SCALE, sprites.PLAIN, 0)]
    uses += [(s, v, 0) for s in scoresheet.TILE_SCALES for v in (sprites.PLAIN, sprites.DRAWN)]
    return sorted(set(uses))


def warm_up(themes: tuple[str, ...] = ("felt",), stop: threading.Event | None = None) -> None:
    """Fill every cache a first hand, table and score render touches (about 10 s of one core, once per
    process; call it from the bot's ``setup_hook`` in a worker thread, and set ``stop`` to end it early: a
    bot shutting down does not wait for pictures nobody will see): the PNG palette of every theme, every sprite at
    every scale, variant and turn used in the skin of each of ``themes``, and the fonts at every text size,
    including each name face, by drawing the demo pictures once. Only felt's sprites by default: each
    other theme's cost 2 s and 45 MB more, and a theme's first picture builds the sprites it needs
    (bench.render prints each theme's first-picture time)."""
    from dataclasses import replace

    from engine.events import Phase

    from . import encode, fonts, labels, sprites, table
    from .demo import crowded, hand_screen, synthetic
    from .dm import compose_dm
    from .hand import compose_hand
    from .scoresheet import compose_score
    from .table import compose_table
    from .theme import THEMES

    def stopped() -> bool:
        return stop is not None and stop.is_set()

    looks = [THEMES[name] for name in themes]
    # the themes warmed first: the others' palettes are the least likely to be needed soon
    for look in [*looks, *THEMES.values()]:
        if stopped():
            return
        encode.palette(look)
    for look in looks:
        for scale, variant, rotation in sprite_uses():
            if stopped():
                return
            for tile in [*range(42), sprites.BACK]:
                sprites.sprite(tile, scale, variant, rotation, look.tiles)
    if stopped():
        return
    state = synthetic()
    over = replace(state.public, phase=Phase.OVER, revealed={state.mine.me.seat: state.mine.concealed})
    capped = replace(state.result, capped_total=state.result.total // 2, limited=True)
    drawn = replace(state.result, winner=None, loser=None, win_tile=None, items=(), total=0)
    offer = replace(state.mine, phase=Phase.CLAIM, drawn=None, offer=(1, 5), bonus_indicator=4)
    canvases = [compose_score(capped, state.names, state.public), compose_score(drawn, state.names)]
    for locale in (None, *labels.LOCALES):  # every label size in every language's words
        if stopped():
            return
        canvases += [
            compose_dm(hand_screen(state.mine, state.names, locale)),
            compose_dm(hand_screen(offer, state.names, locale)),
            compose_dm(hand_screen(crowded(), state.names, locale)),
            compose_hand(state.mine, locale=locale),
            compose_hand(offer, locale=locale),
            compose_table(state.public, state.names, locale=locale),
            compose_table(replace(over, bonus_indicator=4), state.names, locale=locale),
            compose_table(over, state.names, locale=locale, result=state.result),  # a settled hand
            compose_table(over, state.names, locale=locale, result=drawn),
        ]
    sizes = {w.size for cv in canvases for w in cv.written}
    sizes |= set(table.NAME_SIZES) | set(range(12, 21))  # every size a plate may pick for a name or status
    fonts.warm(sizes)
    for cv in canvases:
        if stopped():
            return
        encode.to_png(cv.im)
    for look in THEMES.values():  # each theme's cloth at the table picture's size
        if look.decoration != "none":
            look.backdrop(table.Layout().size, table.Layout().size)


__all__ = [
    "dm_image",
    "hand_image",
    "render_dm",
    "render_hand",
    "render_score",
    "render_table",
    "score_image",
    "table_image",
    "warm_up",
]
