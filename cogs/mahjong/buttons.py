"""Buttons that survive a restart: ``discord.ui.DynamicItem``s whose custom id names the table, the hand,
the seat and the decision point. ``from_custom_id`` only parses (it must never raise: discord.py would
log and drop the click) and the callback hands the click to the cog, which answers every refusal itself.

Custom ids (all well under Discord's 100 characters):

* ``mj:l:<table>:<op>``                             lobby: join, leave, ai, start, close
* ``mj:a:<table>:<hand>:<seat>:<move>:<code>``       an action (codes.py)
* ``mj:m:<table>:<hand>:<seat>:<move>:<mode>``       switch the prompt (ready / main)
* ``mj:t:<table>:<op>``                             table: show (my hand), back (take control back),
                                                  eye (declare 眼牌, or Miji in its window),
                                                  resume (a table paused while everyone was away)
* ``mj:e:<table>:<hand>:<seat>:<move>``             換牌: the select of 1-3 tiles to give back
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from table.codes import PATTERN

from .replay_buttons import REPLAY_ITEMS
from .review import REVIEW_ITEMS

if TYPE_CHECKING:
    from . import Mahjong

log = logging.getLogger(__name__)

LOBBY_OPS = ("join", "leave", "ai", "start", "close")
TABLE_OPS = ("show", "back", "eye", "eyeask", "resume")  # eyeask: 眼牌's confirmation first
MODES = ("main", "ready")


def _cog(interaction: discord.Interaction) -> Mahjong | None:
    return interaction.client.get_cog("Mahjong")  # type: ignore[attr-defined,return-value]


class _TableItem(discord.ui.DynamicItem[discord.ui.Button], template=r"mj:_never_"):
    """Shared plumbing: rebuild from the custom id, then let the cog answer (errors included)."""

    def __init__(self, button: discord.ui.Button, fields: dict[str, Any]) -> None:
        super().__init__(button)
        self.fields = fields

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> _TableItem:
        fields = {k: (int(v) if v.isdigit() and k != "code" else v) for k, v in match.groupdict().items()}
        button = discord.ui.Button(style=item.style, label=item.label, custom_id=item.custom_id)
        return cls(button, fields)

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        if cog is None:
            return
        await cog.on_button(interaction, type(self).__name__, self.fields)


def _button(custom_id: str, label: str, style: discord.ButtonStyle, row: int | None) -> discord.ui.Button:
    return discord.ui.Button(style=style, label=label[:80], custom_id=custom_id, row=row)


class LobbyButton(_TableItem, template=r"mj:l:(?P<table>\d+):(?P<op>join|leave|ai|start|close)"):
    @classmethod
    def make(cls, table: int, op: str, label: str, style: discord.ButtonStyle) -> LobbyButton:
        return cls(_button(f"mj:l:{table}:{op}", label, style, None), {"table": table, "op": op})


class ActButton(
    _TableItem,
    template=rf"mj:a:(?P<table>\d+):(?P<hand>\d+):(?P<seat>[0-3]):(?P<move>\d+):(?P<code>{PATTERN})",
):
    @classmethod
    def make(
        cls, table: int, hand: int, seat: int, move: int, code: str, label: str, style: discord.ButtonStyle, row: int
    ) -> ActButton:
        custom_id = f"mj:a:{table}:{hand}:{seat}:{move}:{code}"
        fields = {"table": table, "hand": hand, "seat": seat, "move": move, "code": code}
        return cls(_button(custom_id, label, style, row), fields)


class ModeButton(
    _TableItem,
    template=r"mj:m:(?P<table>\d+):(?P<hand>\d+):(?P<seat>[0-3]):(?P<move>\d+):(?P<mode>main|ready)",
):
    @classmethod
    def make(
        cls, table: int, hand: int, seat: int, move: int, mode: str, label: str, style: discord.ButtonStyle, row: int
    ) -> ModeButton:
        custom_id = f"mj:m:{table}:{hand}:{seat}:{move}:{mode}"
        fields = {"table": table, "hand": hand, "seat": seat, "move": move, "mode": mode}
        return cls(_button(custom_id, label, style, row), fields)


class TableButton(_TableItem, template=r"mj:t:(?P<table>\d+):(?P<op>show|back|eyeask|eye|resume)"):
    @classmethod
    def make(cls, table: int, op: str, label: str, style: discord.ButtonStyle) -> TableButton:
        return cls(_button(f"mj:t:{table}:{op}", label, style, None), {"table": table, "op": op})


class ExchangeSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"mj:e:(?P<table>\d+):(?P<hand>\d+):(?P<seat>[0-3]):(?P<move>\d+)",
):
    """換牌: each option is one tile of the hand (``5m.0``, ``5m.1`` for two 5m); choosing is confirming."""

    def __init__(self, select: discord.ui.Select, fields: dict[str, Any]) -> None:
        super().__init__(select)
        self.fields = fields

    @classmethod
    def make(
        cls, table: int, hand: int, seat: int, move: int, options: list[tuple[str, str]], placeholder: str
    ) -> ExchangeSelect:
        custom_id = f"mj:e:{table}:{hand}:{seat}:{move}"
        select = discord.ui.Select(
            custom_id=custom_id,
            placeholder=placeholder[:150],
            min_values=1,
            max_values=min(3, len(options)),
            options=[discord.SelectOption(label=label[:100], value=value) for value, label in options],
            row=0,
        )
        return cls(select, {"table": table, "hand": hand, "seat": seat, "move": move})

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> ExchangeSelect:
        return cls(item, {k: int(v) for k, v in match.groupdict().items()})

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = _cog(interaction)
        if cog is None:
            return
        await cog.on_button(interaction, "ExchangeSelect", {**self.fields, "values": list(self.item.values)})


DYNAMIC_ITEMS = (LobbyButton, ActButton, ModeButton, TableButton, ExchangeSelect, *REPLAY_ITEMS, *REVIEW_ITEMS)
