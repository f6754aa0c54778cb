"""A server's leaderboard page, for a server that turned it on (/mahjong setup web_board; off by default).

``GET /board/{guild}?page=P`` shows the ranking /mahjong leaderboard shows by default (by points, every
rule set, all time: the store's same query, data/store.leaderboard_page), the cog side turning its rows into
the same lines as the command's embed in the reader's language. A server that did not turn it on, or that
the bot does not know: 404, and the page says the board is not shown (nothing of the server is read out).
Drawn on the server: no script.
"""

from __future__ import annotations

import html
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Protocol

from aiohttp import web

from .pages import Texts, locale_of, notice


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: str  # "🥇" or "4."
    name: str
    lines: tuple[str, ...]  # the command's lines for the player (points and tier; rates; counts)


@dataclass(frozen=True, slots=True)
class Board:
    title: str
    filters: str
    rows: tuple[BoardRow, ...]
    page: int
    pages: int
    empty: str  # what an empty board says


class Boards(Protocol):
    """One page of a server's board in ``locale`` (None: the server does not show its board on the web)."""

    def __call__(self, guild: int, locale: str, page: int) -> Awaitable[Board | None]: ...


def board_html(board: Board, guild: int, locale: str, texts: Texts) -> str:
    e = html.escape
    items = "".join(
        f'<li class="player"><span class="rank">{e(row.rank)}</span><div><b class="name">{e(row.name)}</b>'
        + "".join(f"<div>{e(line)}</div>" for line in row.lines)
        + "</div></li>"
        for row in board.rows
    )
    nav = []
    if board.page > 1:
        nav.append(f'<a rel="prev" href="{guild}?page={board.page - 1}">◀</a>')
    nav.append(f"<span>{e(texts(locale, 'web.board_page', page=board.page, pages=board.pages))}</span>")
    if board.page < board.pages:
        nav.append(f'<a rel="next" href="{guild}?page={board.page + 1}">▶</a>')
    body = f'<ol id="board">{items}</ol>' if board.rows else f'<p id="board" class="empty">{e(board.empty)}</p>'
    return (
        f'<!doctype html><html lang="{locale}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{e(board.title)}</title><link rel="stylesheet" href="../static/play.css"><link rel="stylesheet" href="../static/pages.css"></head>'
        f'<body class="board"><main><h1>{e(board.title)}</h1><p class="filters">{e(board.filters)}</p>{body}'
        f'<nav>{"".join(nav)}</nav></main></body></html>'
    )


class BoardPages:
    def __init__(self, boards: Boards, texts: Texts) -> None:
        self.boards = boards
        self.texts = texts

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/board/{guild}", self._page)]

    async def _page(self, request: web.Request) -> web.StreamResponse:
        locale = locale_of(request)
        title = self.texts(locale, "lb.title")
        try:
            guild = int(request.match_info["guild"])
            page = int(request.query.get("page", 1))
        except ValueError:
            raise notice(404, title, self.texts(locale, "web.board_off"), locale) from None
        board = await self.boards(guild, locale, max(1, min(page, 1000))) if 0 < guild < 2**63 else None
        if board is None:
            raise notice(404, title, self.texts(locale, "web.board_off"), locale)
        return web.Response(
            text=board_html(board, guild, locale, self.texts), content_type="text/html",
            headers={"Cache-Control": "no-cache"},
        )
