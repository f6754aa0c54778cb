"""The web table's side in the bot (issue 43): the running tables as ``web.server.Tables`` — who sits where,
a seat's screen as its page draws it, and a tap played as the DM button of the same decision point would
be (the same ``ins.Click``, under the table's lock, stored before the move is shown) — and the server's
start and stop with the bot. Off unless the bot's config has ``web`` (``MAHJONG_WEB=host:port``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Hashable
from typing import Any, Protocol

import discord

from table import inputs as ins
from table.lobby import TableError
from table.screens import SEATS
from web.server import WebTable
from web.tokens import Grant, Signer
from web.wire import hand_json

from ..i18n import t


class TableRegistry(Protocol):
    """The one thing asked of the registry (registry.py; not imported: the runner imports this module)."""

    def get(self, table_id: int) -> Any: ...  # the table's runner (runner.py), or None
    def __iter__(self) -> Any: ...  # every runner here

log = logging.getLogger(__name__)


class RunningTables:
    """The registry's tables, as the web server asks about them."""

    def __init__(self, registry: TableRegistry) -> None:
        self.registry = registry
        self._words: dict[str, dict[str, str]] = {}  # each locale's page words, looked up once

    def seated(self, grant: Grant) -> bool:
        runner = self.registry.get(grant.table)
        if runner is None:
            return False
        seats = runner.session.screen(SEATS)
        return 0 <= grant.seat < len(seats.seats) and seats.seats[grant.seat].user_id == grant.user

    def seat_of(self, user: int, channel: int | None, table: int | None = None) -> tuple[int, int] | None:
        """``user``'s (table, seat) at a table running here (one a server: they may sit in several servers):
        ``table`` first (the one whose "Play in Discord" they clicked), then the one in ``channel`` (where the
        Activity runs), else their latest."""
        found = []
        for runner in self.registry:
            seats = runner.session.screen(SEATS)
            seat = seats.seat_of_user(user)
            if seat is not None and user not in seats.left and not runner.session.phase.closed:
                found.append((seats.table_id == table, runner.state.channel_id == channel, seats.table_id, seat))
        return max(found)[2:] if found else None

    def stamp(self, table: int) -> Hashable | None:
        runner = self.registry.get(table)
        return None if runner is None else runner.session.screen(SEATS)

    def screen(self, grant: Grant, now: float) -> dict[str, Any] | None:
        runner = self.registry.get(grant.table)
        if runner is None:
            return None
        seats = runner.session.screen(SEATS)
        if seats.hand_number == 0 or not (0 <= grant.seat < len(seats.seats)) or seats.seats[grant.seat].user_id != grant.user:
            return None  # no hand dealt yet, or another person sits there now
        screen = runner.session.screen(grant.seat)
        shown = hand_json(screen, now=now)
        shown["locale"] = screen.locale
        shown["words"] = self._words.get(screen.locale) or self._words.setdefault(screen.locale, words(screen.locale))
        return shown

    async def play(self, grant: Grant, code: str, hand: int, move: int) -> str | None:
        runner = self.registry.get(grant.table)
        locale = "en"
        if runner is None or runner.session.phase.closed:
            return t(locale, "err.table_over")
        seats = runner.session.screen(SEATS).seats
        locale = seats[grant.seat].locale if grant.seat < len(seats) else locale
        try:
            async with runner.lock:
                jobs = runner.feed(ins.Click(grant.user, grant.seat, code, hand, move))
                runner.clock.poke()  # the driver plays on (AI replies) as soon as this is stored
                await runner.journal.flush()
        except TableError as refused:
            return t(locale, refused.key, **refused.values)
        for job in jobs:
            await job()
        runner.clock.poke()
        return None


_WORDS = ("win", "self_draw", "pon", "chi", "kong", "pass", "ready", "back")
_PAGE = ("your_turn", "your_claim", "waiting", "hand_over", "match_over", "auto", "exchange", "wall", "reconnecting", "closed")


def words(locale: str) -> dict[str, str]:
    """The page's words in the seat's language (the catalogue's, cogs/i18n)."""
    out = {f"btn.{key}": t(locale, f"btn.{key}", tile="", tiles="").strip() for key in _WORDS}
    out.update({f"web.{key}": t(locale, f"web.{key}") for key in _PAGE})
    return out


def open_table_button(web: WebTable | None, table: int, seat: int, user: int | None, locale: str) -> discord.ui.Button[Any] | None:
    """The DM's "Open table" link (a fresh signed token), or None where the web table is off or the seat an AI's."""
    if web is None or user is None:
        return None
    return discord.ui.Button(style=discord.ButtonStyle.link, label=t(locale, "btn.open_table"), url=web.link(table, seat, user))


def add_open_table(view: discord.ui.View | None, button: discord.ui.Button[Any] | None) -> discord.ui.View | None:
    """The link button on a DM's buttons where a row has room (a full prompt keeps every move: the link is
    on the message's other versions)."""
    if button is None:
        return view
    view = view if view is not None else discord.ui.View(timeout=None)
    try:
        view.add_item(button)
    except ValueError:
        pass
    return view


async def start_web(
    spec: str | None, registry: TableRegistry, *, base: str | None, secret: str | None,
    before: Callable[[WebTable, RunningTables], object] | None = None,
) -> WebTable | None:
    """The web table on ``spec`` (``host:port``), or None when it is off; ``before`` adds routes (the
    Activity's, activity.py) before it serves."""
    if not spec:
        return None
    host, _, port = spec.rpartition(":")
    key = secret.encode() if secret else secrets.token_bytes(32)
    if not secret:
        log.info("MAHJONG_WEB_SECRET is not set: links last until the bot restarts")
    tables = RunningTables(registry)
    server = WebTable(tables, Signer(key), base=base or f"http://{spec}")
    if before is not None:
        before(server, tables)
    await server.start(host or "127.0.0.1", int(port))
    if not base:
        server.base = f"http://{host or '127.0.0.1'}:{server.port}"
    return server
