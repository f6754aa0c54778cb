"""The tile art for the page: every tile the DM pictures draw (render/sprites.py), on one sprite sheet PNG with
a JSON map of where each tile sits, drawn once per process and cached (the page caches it too: it never
changes while the bot runs).

    >>> png, places = sheet()
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n", places["5m"][2:], places["??"] == places["back"]
    (True, [60, 80], True)
"""

from __future__ import annotations

import io
import json
from functools import cache

from PIL import Image

from engine.tiles import HIDDEN
from render.sprites import size, sprite

from .wire import tile

SCALE = 2  # 60 × 80 px a tile: sharp on a phone's 3× screen at the page's sizes


@cache
def sheet() -> tuple[bytes, dict[str, list[int]]]:
    """The sheet's PNG bytes and ``{tile: [x, y, w, h]}`` (one row: the 42 tiles, then the back)."""
    keys = [*range(42), HIDDEN]
    w, h = size(SCALE)
    image = Image.new("RGBA", (w * len(keys), h), (0, 0, 0, 0))
    places: dict[str, list[int]] = {}
    for i, key in enumerate(keys):
        image.alpha_composite(sprite(key, SCALE), (i * w, 0))
        places[tile(key)] = [i * w, 0, w, h]
    places["back"] = places["??"]
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue(), places


def sheet_json() -> bytes:
    return json.dumps(sheet()[1], separators=(",", ":")).encode()
