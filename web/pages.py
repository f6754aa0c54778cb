"""What the watch, replay and leaderboard pages share (web/watch.py, web/replay.py, web/board.py): the reader's
language, a table drawn from one ``GameView`` as JSON, and the plain page that says why there is nothing to show.

A view is drawn only from what the one visibility rule (table/visibility.py) put in it: the public's view holds
no concealed tile but the end-of-hand reveal, a replay frame (engine.replay) every hand face up (only ever of a
hand that is over). The words come from the bot's catalogue (cogs/i18n) through ``Texts``, which the cog side
provides: no discord import here.

    >>> reader_locale("zh-HK,zh;q=0.9,en;q=0.5"), reader_locale("zh-Hans"), reader_locale("fr, en"), reader_locale(None)
    ('zh-TW', 'zh-CN', 'en', 'en')
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from aiohttp import web

from engine.view import GameView

from .wire import tile, tiles

LOCALES = ("en", "zh-TW", "zh-CN")


class Texts(Protocol):
    """The catalogue's words (cogs/i18n), as the cog side gives them."""

    def __call__(self, locale: str, key: str, **values: Any) -> str: ...


def reader_locale(accept: str | None, chosen: str | None = None) -> str:
    """The reader's language: ``?lang=`` when it names one we have, else the browser's Accept-Language
    (zh-TW for Traditional Chinese and Hong Kong/Macau/Taiwan, zh-CN for other Chinese), else English."""
    if chosen in LOCALES:
        return chosen
    tags = []
    for part in (accept or "").split(","):
        tag, _, weight = part.strip().partition(";q=")
        try:
            q = float(weight) if weight else 1.0
        except ValueError:
            q = 0.0
        if tag:
            tags.append((q, tag.lower()))
    for _, tag in sorted(tags, key=lambda x: -x[0]):
        if tag.startswith("zh"):
            return "zh-TW" if any(k in tag for k in ("tw", "hk", "mo", "hant")) else "zh-CN"
        if tag.startswith("en"):
            return "en"
    return "en"


def locale_of(request: web.Request) -> str:
    return reader_locale(request.headers.get("Accept-Language"), request.query.get("lang"))


def board_json(view: GameView, names: Sequence[str]) -> dict[str, Any]:
    """A table as a watcher or a replay draws it: every seat from above, with the tiles ``view`` holds face up
    (``hand``: a seat's concealed tiles where the view reveals them, else None and only their count)."""
    seats = []
    for n, seat in enumerate(view.seats):
        shown = view.revealed.get(n)
        seats.append({
            "name": names[n] if n < len(names) else "",
            "wind": seat.wind,
            "melds": [{"kind": m.kind.value, "tiles": tiles(m.tiles)} for m in seat.melds],
            "flowers": tiles(seat.flowers),
            "river": tiles(seat.discards),
            "count": seat.concealed_count,
            "ready": seat.ready,
            "auto": seat.auto,
            "score": seat.score,
            "hand": tiles(shown) if shown is not None else None,
        })
    return {
        "hand": view.hand_number,
        "round_wind": view.round_wind,
        "dealer": view.dealer,
        "wall": view.wall_remaining,
        "turn": view.turn,
        "phase": str(view.phase.value),
        "last_discard": [view.last_discard[0], tile(view.last_discard[1])] if view.last_discard else None,
        "seats": seats,
    }


def notice(status: int, title: str, text: str, locale: str) -> web.HTTPException:
    """A plain page that says why there is nothing to show (no script, nothing of any table), to raise."""
    body = (
        f'<!doctype html><html lang="{locale}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><link rel="stylesheet" href="../static/play.css"><link rel="stylesheet" href="../static/pages.css"></head>'
        f'<body class="notice"><main><h1>{html.escape(title)}</h1><p id="notice">{html.escape(text)}</p></main></body></html>'
    )
    kind = {403: web.HTTPForbidden, 404: web.HTTPNotFound}.get(status, web.HTTPBadRequest)
    return kind(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})


def words(texts: Texts, locale: str, keys: Mapping[str, str]) -> dict[str, str]:
    """``{name: the catalogue's text for key}`` in ``locale``: the words a page's script draws."""
    return {name: texts(locale, key) for name, key in keys.items()}
