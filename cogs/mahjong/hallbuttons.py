"""The hall's buttons, in buttons.py's style: ``DynamicItem``s that survive a restart, whose custom id
says all the click needs (the server comes with the click, never from the id).

* ``mj:q:leave``                     quick play: leave the queue you are in
* ``mj:h:j:<table>``                 the table list: take a seat at that table (as /mahjong join would)
* ``mj:h:p:<page>:<rules|all>``      the table list: show that page
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from . import Mahjong


class _HallItem(discord.ui.DynamicItem[discord.ui.Button], template=r"mj:_hall_never_"):
    def __init__(self, button: discord.ui.Button, fields: dict[str, Any]) -> None:
        super().__init__(button)
        self.fields = fields

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> _HallItem:
        fields = {k: (int(v) if v.isdigit() else v) for k, v in match.groupdict().items()}
        return cls(discord.ui.Button(style=item.style, label=item.label, custom_id=item.custom_id), fields)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: Mahjong | None = interaction.client.get_cog("Mahjong")  # type: ignore[attr-defined]
        if cog is not None:
            await cog.on_hall_click(interaction, type(self).__name__, self.fields)


class QueueButton(_HallItem, template=r"mj:q:(?P<op>leave)"):
    @classmethod
    def make(cls, label: str) -> QueueButton:
        button = discord.ui.Button(style=discord.ButtonStyle.secondary, label=label[:80], custom_id="mj:q:leave")
        return cls(button, {"op": "leave"})


class JoinListedButton(_HallItem, template=r"mj:h:j:(?P<table>\d+)"):
    @classmethod
    def make(cls, table: int, label: str, row: int) -> JoinListedButton:
        button = discord.ui.Button(
            style=discord.ButtonStyle.primary, label=label[:80], custom_id=f"mj:h:j:{table}", row=row
        )
        return cls(button, {"table": table})


class PageButton(_HallItem, template=r"mj:h:p:(?P<page>\d+):(?P<rules>[a-z0-9]+)"):
    @classmethod
    def make(cls, page: int, rules: str | None, label: str, *, disabled: bool, row: int) -> PageButton:
        # the two page buttons of one message differ by page; a disabled one still needs its own id
        button = discord.ui.Button(
            style=discord.ButtonStyle.secondary,
            label=label[:80],
            custom_id=f"mj:h:p:{page}:{rules or 'all'}",
            disabled=disabled,
            row=row,
        )
        return cls(button, {"page": page, "rules": rules or "all"})


HALL_ITEMS = (QueueButton, JoinListedButton, PageButton)
