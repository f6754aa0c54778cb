"""Rematch (issue 23): the match summary carries a button that opens a new table in the same
channel with the same seats — the same people (those not seated elsewhere by then) and the same AI
levels — and the same settings; whoever clicks hosts it and starts it as usual. What a finished table
leaves for its rematch is kept in memory until it is used (a restart forgets it: the click is then
answered politely, and /mahjong create still works)."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from table import ids
from table.lobby import Seat, TableSettings

from ..i18n import t
from .clicks import TableIdButton, hand_to_named, new_button


class RematchButton(TableIdButton, key=ids.Rematch):
    """Under a finished match's summary: a new table with its seats and settings."""

    @classmethod
    def make(cls, table: int, label: str) -> RematchButton:
        return cls(table, new_button(ids.Rematch(table).to_custom_id(), label, discord.ButtonStyle.success))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "Opening", lambda opening: opening.rematch_click(interaction, self.table))


@dataclass(frozen=True)
class RematchSeed:
    """What a finished match leaves for its rematch."""

    settings: TableSettings
    seats: tuple[Seat, ...]  # the lobby's seats, in the order they sat down
    locale: str  # the channel's language

    def may_open(self, user_id: int) -> bool:
        """Only someone who played may call the rematch."""
        return any(s.user_id == user_id for s in self.seats)


def rematch_view(table_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton.make(table_id, t(locale, "btn.rematch")))
    return view
