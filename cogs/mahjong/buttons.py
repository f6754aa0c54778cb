"""Buttons that survive a restart: ``discord.ui.DynamicItem``s whose custom id names the table, the hand,
the seat and the decision point. Each parses its id into typed attributes in ``from_custom_id`` (which
must never raise for an id its template matched: discord.py would log and drop the click) and its
callback hands the click to one method of the table's runner (or of the cog, for the lobby and the table
buttons); a click for a table this process does not run is answered by the cog (``Mahjong.running``).

Their custom ids (lobby, action, mode, table, 換牌) are written once, in table/ids.py: each item takes its
template from there, prints its id and reads it back through it.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from table import ids
from table.ids import LobbyOp, Mode, PromptPoint, TableOp

from . import clickhandlers
from .clicks import TableIdButton, clicked, hand_to_cog, hand_to_named, new_button


class LobbyButton(TableIdButton, key=ids.LobbyClick):
    def __init__(self, table: int, op: LobbyOp, button: discord.ui.Button[Any]) -> None:
        super().__init__(table, button)
        self.op = op

    @classmethod
    def make(cls, table: int, op: LobbyOp, label: str, style: discord.ButtonStyle) -> LobbyButton:
        return cls(table, op, new_button(ids.LobbyClick(table, op).to_custom_id(), label, style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        key = ids.LobbyClick.from_match(match)
        return cls(key.table, key.op, clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "Seats", lambda seats: seats.lobby_click(interaction, self.table, self.op))


class ActButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.Act.TEMPLATE):
    """One legal action of a prompt (its code, codes.py)."""

    def __init__(self, point: PromptPoint, code: str, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.point = point
        self.code = code

    @classmethod
    def make(
        cls, table: int, hand: int, seat: int, move: int, code: str, label: str, style: discord.ButtonStyle, row: int
    ) -> ActButton:
        key = ids.Act(PromptPoint(table, hand, seat, move), code)
        return cls(key.point, key.code, new_button(key.to_custom_id(), label, style, row=row))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        key = ids.Act.from_match(match)
        return cls(key.point, key.code, clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_cog(
            interaction, lambda cog: clickhandlers.act(cog.running(self.point.table), interaction, self.point, self.code)
        )


class ModeButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.SwitchMode.TEMPLATE):
    """The prompt again in the other mode (the 聽… button and its way back)."""

    def __init__(self, point: PromptPoint, mode: Mode, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.point = point
        self.mode = mode

    @classmethod
    def make(
        cls, table: int, hand: int, seat: int, move: int, mode: Mode, label: str, style: discord.ButtonStyle, row: int
    ) -> ModeButton:
        key = ids.SwitchMode(PromptPoint(table, hand, seat, move), mode)
        return cls(key.point, key.mode, new_button(key.to_custom_id(), label, style, row=row))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ModeButton:
        key = ids.SwitchMode.from_match(match)
        return cls(key.point, key.mode, clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_cog(
            interaction, lambda cog: clickhandlers.switch_mode(cog.running(self.point.table), interaction, self.point, self.mode)
        )


class TableButton(TableIdButton, key=ids.TableClick):
    def __init__(self, table: int, op: TableOp, button: discord.ui.Button[Any]) -> None:
        super().__init__(table, button)
        self.op = op

    @classmethod
    def make(cls, table: int, op: TableOp, label: str, style: discord.ButtonStyle) -> TableButton:
        return cls(table, op, new_button(ids.TableClick(table, op).to_custom_id(), label, style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        key = ids.TableClick.from_match(match)
        return cls(key.table, key.op, clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "Seats", lambda seats: seats.table_click(interaction, self.table, self.op))


class ExchangeSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.Exchange.TEMPLATE):
    """換牌: each option is one tile of the hand (``5m.0``, ``5m.1`` for two 5m); choosing is confirming."""

    def __init__(self, point: PromptPoint, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)
        self.point = point

    @classmethod
    def make(
        cls, table: int, hand: int, seat: int, move: int, options: list[tuple[str, str]], placeholder: str
    ) -> ExchangeSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=ids.Exchange(PromptPoint(table, hand, seat, move)).to_custom_id(),
            placeholder=placeholder[:150],
            min_values=1,
            max_values=min(3, len(options)),
            options=[discord.SelectOption(label=label[:100], value=value) for value, label in options],
            row=0,
        )
        return cls(PromptPoint(table, hand, seat, move), select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ExchangeSelect:
        return cls(ids.Exchange.from_match(match).point, clicked(item, discord.ui.Select))

    @property
    def values(self) -> list[str]:
        """The options chosen (the runner refuses values that name no tile)."""
        return list(self.item.values)

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_cog(
            interaction, lambda cog: clickhandlers.exchange(cog.running(self.point.table), interaction, self.point, self.values)
        )


TABLE_ITEMS = (LobbyButton, ActButton, ModeButton, TableButton, ExchangeSelect)
