"""The web table's aiohttp application: the play page, the tile sheet, and one WebSocket per open page.

Routes (``base`` is the public address, e.g. behind a reverse proxy that ends HTTPS):

* ``GET /play/{token}`` — the play page; ``GET /ws/{token}`` — its socket. A token that is malformed,
  signed with another secret, altered, expired, or whose person no longer sits at that seat of that table
  running here gets 403 with an empty body, and nothing else.
* ``GET /static/{name}`` — the page's script and style; ``GET /tiles.png``, ``GET /tiles.json`` — the sheet.

A page's socket receives the seat's whole screen (web/wire.py) at once (a reconnect is a catch-up) and
again after every change of its table (``changed``, which the table's host calls with each batch of
effects it carried out: one push for a burst). A seat's screen is built and serialised once per version
of its table (``Tables.stamp``) however many of its pages are open and however often the host says
"changed"; the page's clock (``now``) is written into it as it is sent, and a page is sent nothing when
its screen has not changed. A page sends ``{"code", "hand", "move"}``, the same input
as the DM button of that decision point; the session takes whichever comes first, and the other is
answered ``{"type": "refused", "text": …}`` (stale). Sends are latest-wins per socket: a slow page never
holds up the table or the other pages.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from aiohttp import WSMsgType, web

from .sheet import sheet, sheet_json
from .tokens import Grant, Signer, expiry

log = logging.getLogger(__name__)

STATIC = Path(__file__).with_name("static")
_TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html"}
HEARTBEAT = 20.0  # aiohttp pings each socket this often: a dead connection behind a proxy is noticed


class Tables(Protocol):
    """What the web table needs of the bot's running tables (the cog's side: cogs/mahjong/webtables.py)."""

    def seated(self, grant: Grant) -> bool: ...  # the person sits at that seat of that table, running here
    # a value that changes whenever any seat's screen may: the table's SEATS screen (its version is bumped by every
    # change, and it holds what changes without a new one: a deal, a table shut); None: not run here
    def stamp(self, table: int) -> Hashable | None: ...
    # the seat's page JSON; None: no hand yet, or the grant's person no longer sits there
    def screen(self, grant: Grant, now: float) -> dict[str, Any] | None: ...
    async def play(self, grant: Grant, code: str, hand: int, move: int) -> str | None: ...  # None, or the refusal


@dataclass(frozen=True, slots=True)
class Text:
    """A message for a page, serialised once: a screen gets the page's clock (``now``) as it is sent."""

    body: str
    clocked: bool = False

    def at(self, now: float) -> str:
        return f'{{"now":{float(now)!r},{self.body[1:]}' if self.clocked else self.body


def text_of(message: dict[str, Any]) -> Text:
    """``message`` as a page reads it; its ``now``, if any, is left for the moment it is sent."""
    clocked = message.pop("now", None) is not None
    return Text(json.dumps(message, ensure_ascii=False, separators=(",", ":")), clocked)


@dataclass(eq=False)
class Page:
    """One open page: its grant, its socket and the latest message not yet sent (latest wins)."""

    grant: Grant
    socket: web.WebSocketResponse
    pending: Text | None = None
    last: str | None = None  # the body of the last message sent
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    ending: bool = False  # told the table ended: nothing after that (a push already scheduled included)

    def offer(self, text: Text) -> None:
        if self.ending:
            return
        if text.body == self.last:
            self.pending = None  # the page shows it already: anything older still pending is not sent
        else:
            self.pending = text
            self.ready.set()

    def end(self) -> None:
        """After what is pending: "closed", then the socket closes."""
        self.ending = True
        self.ready.set()


class WebTable:
    def __init__(self, tables: Tables, signer: Signer, *, base: str, clock: Callable[[], float] = time.time) -> None:
        self.tables = tables
        self.signer = signer
        self.base = base.rstrip("/")
        self.clock = clock
        self.pages: dict[int, set[Page]] = {}  # table id → its open pages
        self._due: set[int] = set()  # tables with a push scheduled
        self._built: dict[int, tuple[Hashable, dict[int, Text]]] = {}  # table → its stamp and each seat's screen then
        self._runner: web.AppRunner | None = None
        self.app = web.Application()
        self.app.add_routes([
            web.get("/play/{token}", self._play_page),
            web.get("/ws/{token}", self._socket),
            web.get("/static/{name}", self._static),
            web.get("/tiles.png", self._tiles_png),
            web.get("/tiles.json", self._tiles_json),
        ])
        self.port: int | None = None

    # ------------------------------------------------------------------ life

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        log.info("web table on %s:%s (links: %s)", host, self.port, self.base)

    async def stop(self) -> None:
        for pages in list(self.pages.values()):
            for page in list(pages):
                await page.socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def open_pages(self) -> int:
        return sum(len(p) for p in self.pages.values())

    # ------------------------------------------------------------------ links

    def link(self, table: int, seat: int, user: int) -> str:
        token = self.signer.make(Grant(table, seat, user, expiry(self.clock())))
        return f"{self.base}/play/{token}"

    def _grant(self, request: web.Request) -> Grant:
        grant = self.signer.check(request.match_info["token"], now=self.clock())
        if grant is None or not self.tables.seated(grant):
            raise web.HTTPForbidden(body=b"")  # empty: nothing about why
        return grant

    # ------------------------------------------------------------------ pushing changes

    def changed(self, table_id: int) -> None:
        """Table ``table_id`` changed: every open page of it gets its new screen (one push per burst)."""
        if table_id in self.pages and table_id not in self._due:
            self._due.add(table_id)
            asyncio.get_running_loop().call_soon(self._push, table_id)

    def ended(self, table_id: int) -> None:
        """The table is no longer run here: its pages get their last screen, then are told and closed."""
        self._built.pop(table_id, None)  # built afresh: whatever ended it, the last screen says so
        self._push(table_id)
        for page in self.pages.get(table_id, ()):
            page.end()

    def _push(self, table_id: int) -> None:
        self._due.discard(table_id)
        for page in self.pages.get(table_id, ()):
            page.offer(self._screen_text(page.grant))

    def _screen_text(self, grant: Grant) -> Text:
        """The seat's screen now: built once per stamp of its table (every open page of the seat shares it)."""
        stamp = self.tables.stamp(grant.table)
        built = self._built.get(grant.table)
        if stamp is None:
            built = None
        elif built is None or built[0] != stamp:
            built = self._built[grant.table] = (stamp, {})
        if built is not None and grant.seat in built[1]:
            return built[1][grant.seat]
        screen = self.tables.screen(grant, self.clock())
        text = text_of({"type": "waiting", "table": grant.table, "seat": grant.seat} if screen is None else screen)
        if built is not None:
            built[1][grant.seat] = text
        return text

    # ------------------------------------------------------------------ handlers

    async def _play_page(self, request: web.Request) -> web.StreamResponse:
        self._grant(request)
        return web.FileResponse(STATIC / "play.html", headers={"Cache-Control": "no-store"})

    async def _static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        path = STATIC / name
        if "/" in name or name.startswith(".") or path.suffix not in _TYPES or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={"Content-Type": _TYPES[path.suffix], "Cache-Control": "no-cache"})

    async def _tiles_png(self, request: web.Request) -> web.StreamResponse:
        png, _ = await asyncio.to_thread(sheet)
        return web.Response(body=png, content_type="image/png", headers={"Cache-Control": "public, max-age=86400"})

    async def _tiles_json(self, request: web.Request) -> web.StreamResponse:
        body = await asyncio.to_thread(sheet_json)
        return web.Response(body=body, content_type="application/json", headers={"Cache-Control": "public, max-age=86400"})

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        grant = self._grant(request)  # refused before the upgrade
        socket = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=4096)
        await socket.prepare(request)
        page = Page(grant, socket)
        self.pages.setdefault(grant.table, set()).add(page)
        writer = asyncio.create_task(self._write(page), name=f"web-page-{grant.table}-{grant.seat}")
        try:
            page.offer(self._screen_text(grant))  # at once: a reconnect catches up here
            async for message in socket:
                if message.type is not WSMsgType.TEXT:
                    continue
                answer = await self._move(grant, message.data)
                if answer is not None:
                    await socket.send_str(json.dumps(answer, ensure_ascii=False))
        finally:
            writer.cancel()
            await asyncio.gather(writer, return_exceptions=True)
            pages = self.pages.get(grant.table)
            if pages is not None:
                pages.discard(page)
                if not pages:
                    del self.pages[grant.table]
                    self._built.pop(grant.table, None)
        return socket

    async def _write(self, page: Page) -> None:
        await write(page, self.clock)

    async def _move(self, grant: Grant, data: str) -> dict[str, Any] | None:
        """A tap: ``{"code", "hand", "move", "id"}``; answered only when refused (the screen push says the rest)."""
        try:
            move = json.loads(data)
            code, hand, number = str(move["code"]), int(move["hand"]), int(move["move"])
        except (ValueError, KeyError, TypeError):
            return {"type": "refused", "text": "?", "id": None}
        if not self.tables.seated(grant):
            return {"type": "closed"}
        refusal = await self.tables.play(grant, code[:8], hand, number)
        if refusal is None:
            return None
        return {"type": "refused", "text": refusal, "id": move.get("id")}


async def write(page: Page, clock: Callable[[], float]) -> None:
    """A page's socket: the latest text offered (a screen clocked as it is sent), then "closed" once told its
    table ended; the play and watch pages both write this way."""
    while True:
        await page.ready.wait()
        page.ready.clear()
        text, page.pending = page.pending, None
        try:
            if text is not None and text.body != page.last:
                page.last = text.body
                await page.socket.send_str(text.at(clock()))
            if page.ending and page.pending is None:
                await page.socket.send_str(json.dumps({"type": "closed"}))
                await page.socket.close()
                return
        except (ConnectionError, RuntimeError):
            return
