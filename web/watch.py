"""The watch page: a table's spectators in a browser, as the table's spectator setting lets them see it.

What a watcher sees is the table's ``SpectatorScreen`` (table/screens.py), the screen the Discord spectators
already follow, cut by the one visibility rule (table/visibility.py) for the viewer the table's setting makes
a spectator: ``public``, what the channel sees (the hand in play with no concealed tile but the end-of-hand
reveal); ``delayed``, nothing of the hand in play and each finished hand face up once it is over; ``off``,
nothing at all (the page says the table takes no spectators, 403). No second rule is written here.

Routes, beside the play page's (web/server.py), ``token`` a signed watch token (web/tokens.make_link, kind
"watch": the table and an expiry), handed out in the spectate answer (/mahjong watch, the Watch button):

* ``GET /watch/{token}`` — the page; ``GET /watch/{token}/ws`` — its socket, which gets the whole watch JSON
  at once and again after each change of the table (``changed``: one push for a burst, latest wins per
  socket, the play page's mechanism). A bad token: 403 with an empty body. A table not running here: 404.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from aiohttp import web

from engine.replay import frame_at
from table.screens import SpectatorScreen

from .pages import Texts, board_json, locale_of, notice, words
from .server import HEARTBEAT, Page, Text, write
from .tokens import Grant, Signer, check_link, expiry, make_link

STATIC = Path(__file__).with_name("static")
KIND = "watch"
WORDS = {
    "delayed": "web.watch_delayed", "waiting": "web.watch_waiting", "ended": "web.match_over",
    "closed": "web.closed", "wall": "web.wall", "reconnecting": "web.reconnecting", "hand_over": "web.hand_over",
}


class Spectating(Protocol):
    """What the watch page needs of the bot's running tables (the cog's side: cogs/mahjong/webpages.py)."""

    def spectating(self, table: int) -> SpectatorScreen | None: ...  # None: the table is not run here


def watch_json(screen: SpectatorScreen, *, now: float, last: dict[str, Any] | None = None) -> dict[str, Any]:
    """What a watcher's page draws: the hand in play as the spectator's viewer may see it (``board``, None for
    a delayed spectator), and how many finished hands they may see face up (``finished``; ``last``, the
    latest of them at its end, for a delayed page). Built from ``screen`` alone."""
    return {
        "type": "watch",
        "now": now,
        "table": screen.table_id,
        "mode": screen.mode,
        "watchable": screen.watchable,
        "ended": screen.ended,
        "closed": screen.closed,
        "names": list(screen.names),
        "board": board_json(screen.view, screen.names) if screen.view is not None else None,
        "finished": screen.revealable,
        "last": last,
    }


def last_hand_json(screen: SpectatorScreen) -> dict[str, Any] | None:
    """The latest finished hand the screen may show face up, as it ended (every hand revealed)."""
    if not screen.hands:
        return None
    hand = screen.hands[-1]
    frame = frame_at(hand.header, hand.moves, 10**9, seat=hand.dealer)  # clamped: its last frame
    return {"number": hand.number, **board_json(frame.view, screen.names)}


class WatchPages:
    def __init__(
        self, tables: Spectating, signer: Signer, texts: Texts, *, base: Callable[[], str],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.tables = tables
        self.signer = signer
        self.texts = texts
        self.base = base
        self.clock = clock
        self.pages: dict[int, set[Page]] = {}
        self._due: set[int] = set()
        self._last: dict[int, tuple[int, dict[str, Any] | None]] = {}  # table → (finished hands, the last one drawn)
        self.locales: dict[Page, str] = {}  # each watcher's language (its browser's)

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/watch/{token}", self._page), web.get("/watch/{token}/ws", self._socket)]

    def link(self, table: int) -> str:
        return f"{self.base()}/watch/{make_link(self.signer, KIND, table, expiry(self.clock()))}"

    # ------------------------------------------------------------------ who may watch

    def _table(self, request: web.Request) -> int:
        found = check_link(self.signer, KIND, request.match_info["token"])
        if found is None or len(found) != 2 or self.clock() >= found[1]:
            raise web.HTTPForbidden(text="")  # forged, altered, another kind's or expired: nothing about why
        return found[0]

    def _screen(self, request: web.Request, table: int) -> SpectatorScreen:
        """The table's spectator screen, or the page that says why there is none to watch."""
        screen = self.tables.spectating(table)
        locale = locale_of(request)
        title = self.texts(locale, "web.watch_title", table=table)
        if screen is None:
            raise notice(404, title, self.texts(locale, "web.watch_gone"), locale)
        if screen.viewer is None:
            raise notice(403, title, self.texts(locale, "watch.off"), locale)
        return screen

    async def close(self) -> None:
        """Every watcher's socket closed (the bot stops: the pages reconnect to the next one)."""
        for pages in list(self.pages.values()):
            for page in list(pages):
                await page.socket.close()

    # ------------------------------------------------------------------ pushing changes

    def changed(self, table: int) -> None:
        if table in self.pages and table not in self._due:
            self._due.add(table)
            asyncio.get_running_loop().call_soon(self._push, table)

    def ended(self, table: int) -> None:
        self._push(table)
        for page in self.pages.get(table, ()):
            page.end()
        self._last.pop(table, None)

    def _push(self, table: int) -> None:
        self._due.discard(table)
        built: dict[str, Text] = {}
        for page in self.pages.get(table, ()):
            locale = self.locales.get(page, "en")
            text = built.get(locale)
            if text is None:
                text = built[locale] = self._text(table, locale)
            page.offer(text)

    def _text(self, table: int, locale: str) -> Text:
        screen = self.tables.spectating(table)
        if screen is None or screen.viewer is None:  # gone, or turned off meanwhile: nothing more is shown
            return Text(json.dumps({"type": "closed"}))
        finished, last = self._last.get(table, (-1, None))
        if finished != screen.revealable:
            last = last_hand_json(screen)
            self._last[table] = (screen.revealable, last)
        shown = watch_json(screen, now=self.clock(), last=last)
        shown["words"] = words(self.texts, locale, WORDS)
        shown["words"]["title"] = self.texts(locale, "web.watch_title", table=table)
        if last is not None:
            shown["words"]["finished"] = self.texts(locale, "web.watch_finished", n=last["number"])
        return Text(json.dumps(shown, ensure_ascii=False, separators=(",", ":")))  # its clock is in it

    # ------------------------------------------------------------------ handlers

    async def _page(self, request: web.Request) -> web.StreamResponse:
        self._screen(request, self._table(request))
        return web.FileResponse(STATIC / "watch.html", headers={"Cache-Control": "no-store"})

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        table = self._table(request)
        self._screen(request, table)  # refused before the upgrade
        socket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=1024)
        await socket.prepare(request)
        page = Page(Grant(table, 0, 0, 0), socket)  # a watcher: the table only (no seat, no person)
        self.pages.setdefault(table, set()).add(page)
        self.locales[page] = locale_of(request)
        writer = asyncio.create_task(write(page, self.clock), name=f"web-watch-{table}")
        try:
            page.offer(self._text(table, self.locales[page]))
            async for _ in socket:  # a watcher sends nothing that counts
                pass
        finally:
            writer.cancel()
            await asyncio.gather(writer, return_exceptions=True)
            self.locales.pop(page, None)
            pages = self.pages.get(table)
            if pages is not None:
                pages.discard(page)
                if not pages:
                    del self.pages[table]
        return socket
