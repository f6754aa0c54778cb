"""Pillow pictures of engine state: tile sprites, the hand image (DM), the table image (channel)
and the score sheet. Reads ``engine.view`` objects only and never changes them; every function is
safe to call from worker threads (``asyncio.to_thread``)."""

from __future__ import annotations

from .hand import hand_image, render_hand
from .scoresheet import render_score, score_image
from .table import render_table, table_image


def warm_up() -> None:
    """Fill the sprite and palette caches (about 0.3 s) so the first real render is fast."""
    from . import encode, sprites

    encode.palette()
    for scale in (1.0, 2.0, 1.35, 1.1):
        for tile in [*range(42), sprites.BACK]:
            sprites.sprite(tile, scale)


__all__ = [
    "hand_image",
    "render_hand",
    "render_score",
    "render_table",
    "score_image",
    "table_image",
    "warm_up",
]
