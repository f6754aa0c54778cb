"""The hall's buttons: ``DynamicItem``s that survive a restart, whose custom id says all the click needs
(the server comes with the click, never from the id). Each parses its id into typed attributes and calls
one method of the hall (hall.py). Their custom ids (leave the queue, join a listed table, a page of the
list) are written once, in table/ids.py.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from engine.rules import PROFILES
from table import ids

from .clicks import TableIdButton, clicked, hand_to_named, new_button


class QueueButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.LeaveQueue.TEMPLATE):
    """Leave the quick-play queue the clicker is in."""

    @classmethod
    def make(cls, label: str) -> QueueButton:
        return cls(new_button(ids.LeaveQueue().to_custom_id(), label, discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> QueueButton:
        return cls(clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "Hall", lambda hall: hall.leave_queue_click(interaction))


class JoinListedButton(TableIdButton, key=ids.JoinListed):
    """Take a seat at a listed table."""

    @classmethod
    def make(cls, table: int, label: str, row: int) -> JoinListedButton:
        return cls(table, new_button(ids.JoinListed(table).to_custom_id(), label, discord.ButtonStyle.primary, row=row))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "Hall", lambda hall: hall.join_listed_click(interaction, self.table))


class PageButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.TablePage.TEMPLATE):
    """Another page of the table list; ``rules`` None lists every rule set."""

    def __init__(self, page: int, rules: str | None, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.page = page
        self.rules = rules

    @classmethod
    def make(cls, page: int, rules: str | None, label: str, *, disabled: bool, row: int) -> PageButton:
        # the two page buttons of one message differ by page; a disabled one still needs its own id
        custom_id = ids.TablePage(page, rules).to_custom_id()
        button = new_button(custom_id, label, discord.ButtonStyle.secondary, row=row, disabled=disabled)
        return cls(page, rules, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        # every rule set for "all", and for an id no longer offered (a button older than the change)
        key = ids.TablePage.from_match(match)
        return cls(key.page, key.rules if key.rules in PROFILES else None, clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "Hall", lambda hall: hall.table_page_click(interaction, self.page, self.rules))


HALL_ITEMS = (QueueButton, JoinListedButton, PageButton)
