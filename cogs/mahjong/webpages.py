"""The watch, replay and leaderboard pages' side in the bot (issue 43): the running tables' spectator screens
(table/screens.py, the same the Discord spectators follow), the stored hands the Discord replay reads
(data/replays.py), the leaderboard's own query and lines (data/store.leaderboard_page, stats.leader_lines),
and the catalogue's words (cogs/i18n) for the pages in web/watch.py, web/replay.py and web/board.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from data import StoreError
from data.replays import StoredHand, stored_hand
from table.screens import SPECTATOR, SpectatorScreen
from web.board import Board, BoardPages, BoardRow
from web.replay import ReplayPages
from web.server import WebTable
from web.watch import WatchPages

from ..i18n import t
from ..i18n.steps import step_line
from .stats import MEDALS, PAGE_SIZE, leader_lines, pages_for


class TableRegistry(Protocol):
    def get(self, table_id: int) -> Any: ...  # the table's runner (runner.py), or None


MENTION = re.compile(r"</([^:>]+):\d+>")


def texts(locale: str, key: str, **values: Any) -> str:
    """The catalogue's text for a web page: a command it names stays the command's name (a mention is
    Discord's, a browser shows its markup)."""
    return MENTION.sub(r"/\1", t(locale, key, **values))


def step_text(locale: str, number: int, events: Sequence[Mapping[str, Any]], names: list[str]) -> str:
    return step_line(locale, number, events, names)


class Spectators:
    """The registry's tables as their spectators may see them."""

    def __init__(self, registry: TableRegistry) -> None:
        self.registry = registry

    def spectating(self, table: int) -> SpectatorScreen | None:
        runner = self.registry.get(table)
        return None if runner is None else runner.session.screen(SPECTATOR)


class StoredBoards:
    """A server's leaderboard as /mahjong leaderboard shows it by default (points, all rules, all time)."""

    def __init__(self, store: Any) -> None:
        self.store = store

    async def __call__(self, guild: int, locale: str, page: int) -> Board | None:
        settings = await self.store.guild_settings(guild)
        if not settings.web_board:
            return None

        def tr(key: str, **values: Any) -> str:
            return t(locale, key, **values)

        rows, count, page = await self.store.leaderboard_page(guild, page=page, size=PAGE_SIZE, min_matches=1)
        shown = []
        for row in rows:
            points, (tier_text, rates), counts = leader_lines(row, tr)
            rank = f"{MEDALS[row.rank]} {row.rank}" if row.rank in MEDALS else f"{row.rank}."  # the number too: not every font has 🥇
            shown.append(BoardRow(rank, row.name, (points + tier_text, rates, counts)))
        filters = tr("lb.filters", rules=tr("lb.all_rules"), period=tr("lb.all_time"))
        return Board(tr("lb.title"), filters, tuple(shown), page, pages_for(count), tr("lb.empty"))


@dataclass(eq=False)
class WebPages:
    watch: WatchPages
    replay: ReplayPages
    board: BoardPages

    def board_link(self, base: str, guild: int) -> str:
        return f"{base}/board/{guild}"


def attach_pages(server: WebTable, registry: TableRegistry, store: Any) -> WebPages:
    """The watch, replay and board routes on the web table's application (before it starts)."""

    def base() -> str:
        return server.base

    async def replays(guild: int, table: int, hand_no: int) -> StoredHand | None:
        return await stored_hand(store, guild, table_id=table, hand_no=hand_no)

    pages = WebPages(
        WatchPages(Spectators(registry), server.signer, texts, base=base, clock=server.clock),
        ReplayPages(replays, server.signer, texts, step_text, base=base),
        BoardPages(StoredBoards(store), texts),
    )
    server.app.add_routes([*pages.watch.routes(), *pages.replay.routes(), *pages.board.routes()])
    return pages


def web_replay(interaction: Any) -> Callable[[StoredHand, int, int], str | None] | None:
    """The web replay's address for a hand at a step and seat, for the Discord replay's link button: only for
    a finished hand of a match that is over (web/replay.py refuses the others), where the web table is on."""
    cog = interaction.client.get_cog("Mahjong") if hasattr(interaction.client, "get_cog") else None
    pages: WebPages | None = getattr(cog, "web_pages", None)
    guild = interaction.guild_id
    if pages is None or guild is None:
        return None

    def link(hand: StoredHand, step: int, seat: int) -> str | None:
        if not (hand.match_over and hand.finished):
            return None
        return pages.replay.link(guild, hand.table_id, hand=hand.hand_no, step=step, seat=seat)

    return link


def watch_line(cog: Any, table: int, locale: Any) -> str:
    """The spectate answer's line with the web watch page's link (nothing where the web table is off)."""
    pages: WebPages | None = getattr(cog, "web_pages", None)
    return "" if pages is None else "\n" + t(locale, "web.watch_link", link=pages.watch.link(table))


async def web_board_link(client: Any, store: Any, guild: int) -> str | None:
    """The server's web board, for /mahjong leaderboard's answer: only where the web table is on and the server
    turned its board on (/mahjong setup web_board)."""
    cog = client.get_cog("Mahjong") if hasattr(client, "get_cog") else None
    pages: WebPages | None = getattr(cog, "web_pages", None)
    web: WebTable | None = getattr(cog, "web", None)
    if pages is None or web is None:
        return None
    try:
        shown = (await store.guild_settings(guild)).web_board
    except StoreError:
        return None  # the answer goes without the link
    return pages.board_link(web.base, guild) if shown else None
