"""/mahjong tables: the 選桌大廳 as one message — a server's open and playing tables, a page at a time,
with a Join button per open table. Built from table states only (no I/O), so the caller decides which
tables it may show (this server's, never another's).
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from table.lobby import SEATS, TablePhase, TableState

from ..i18n import t
from .hallbuttons import JoinListedButton, PageButton
from .prompts import settings_parts

PAGE_SIZE = 8  # two rows of Join buttons (at most 5 a row), the page buttons below


def pages_for(count: int) -> int:
    """
    >>> pages_for(0), pages_for(8), pages_for(9)
    (1, 1, 2)
    """
    return max(1, -(-count // PAGE_SIZE))


def listed(states: Sequence[TableState], rules: str | None) -> list[TableState]:
    """The tables to list, open ones first (they can be joined), then playing, each oldest first."""
    shown = [s for s in states if s.phase in (TablePhase.LOBBY, TablePhase.PLAYING)]
    if rules is not None:
        shown = [s for s in shown if s.settings.rules == rules]
    return sorted(shown, key=lambda s: (s.phase is not TablePhase.LOBBY, s.table_id))


def table_list(
    states: Sequence[TableState], *, page: int, rules: str | None, queues: dict[str, int], locale: str
) -> tuple[discord.Embed, discord.ui.View | None, int]:
    """The embed, its buttons and the page actually shown (``page`` clamped to the pages there are)."""
    tables = listed(states, rules)
    pages = pages_for(len(tables))
    page = min(max(page, 1), pages)
    first = (page - 1) * PAGE_SIZE
    title = t(locale, "hall.title_rules", rules=t(locale, f"rules.{rules}")) if rules else t(locale, "hall.title")
    embed = discord.Embed(title=title, colour=discord.Colour.green())
    view = discord.ui.View(timeout=None)
    lines = []
    for n, state in enumerate(tables[first : first + PAGE_SIZE], start=first + 1):
        is_open = state.phase is TablePhase.LOBBY
        lines.append(
            t(
                locale,
                "hall.line",
                n=n,
                channel=f"<#{state.channel_id}>",
                rules=t(locale, f"rules.{state.settings.rules}"),
                kind=t(locale, f"hall.kind.{state.kind}"),
                seated=len(state.seats),
                status=t(locale, "hall.status.open" if is_open else "hall.status.playing"),
            )
            + "\n　"
            + " · ".join(settings_parts(state, locale))
        )
        if is_open and len(state.seats) < SEATS:
            row = len(view.children) // 5
            view.add_item(JoinListedButton.make(state.table_id, t(locale, "btn.join_n", n=n), row))
    embed.description = "\n".join(lines) if lines else t(locale, "hall.none")
    waiting = [
        t(locale, "hall.queue_part", rules=t(locale, f"rules.{r}"), count=c) for r, c in sorted(queues.items()) if c
    ]
    if waiting:
        embed.add_field(name="\u200b", value=t(locale, "hall.queues", queues=" · ".join(waiting)), inline=False)
    if pages > 1:
        embed.set_footer(text=t(locale, "hall.page", page=page, pages=pages))
        row = 2
        view.add_item(PageButton.make(page - 1, rules, t(locale, "btn.previous"), disabled=page <= 1, row=row))
        view.add_item(PageButton.make(page + 1, rules, t(locale, "btn.next"), disabled=page >= pages, row=row))
    return embed, (view if view.children else None), page
