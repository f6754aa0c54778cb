"""Buttons that survive a restart: ``discord.ui.DynamicItem``s whose custom id names the table, the hand,
the seat and the decision point. Each parses its id into typed attributes in ``from_custom_id`` (which
must never raise for an id its template matched: discord.py would log and drop the click) and its
callback hands the click to one method of the table's runner (or of the cog, for the lobby and the table
buttons); a click for a table this process does not run is answered by the cog (``Mahjong.running``).

Custom ids (all well under Discord's 100 characters):

* ``mj:l:<table>:<op>``                             lobby: join, leave, ai, start, close
* ``mj:a:<table>:<hand>:<seat>:<move>:<code>``       an action (codes.py)
* ``mj:m:<table>:<hand>:<seat>:<move>:<mode>``       switch the prompt (ready / main)
* ``mj:t:<table>:<op>``                             table: show (my hand), back (take control back),
                                                  eye (declare 眼牌, or Miji in its window),
                                                  eyeask (what 眼牌 does and costs, first),
                                                  resume (a table paused while everyone was away)
* ``mj:e:<table>:<hand>:<seat>:<move>``             換牌: the select of 1-3 tiles to give back
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

import discord

from table.codes import PATTERN

from .clicks import TableIdButton, clicked, hand_to_cog, hand_to_named, new_button
from .replay_buttons import REPLAY_ITEMS
from .review import REVIEW_ITEMS

if TYPE_CHECKING:
    from .runner import TableRunner


class LobbyOp(StrEnum):
    """What a lobby button does; its value is what the custom id says."""

    JOIN = "join"
    LEAVE = "leave"
    AI = "ai"
    START = "start"
    CLOSE = "close"


class TableOp(StrEnum):
    """What a table button does (not tied to a decision point)."""

    SHOW = "show"  # my hand, ephemerally (the fallback for closed DMs)
    BACK = "back"  # take control back from 代打
    EYE_ASK = "eyeask"  # 眼牌's confirmation first
    EYE = "eye"  # declare 眼牌 (Miji in its window)
    RESUME = "resume"  # a table paused while everyone was away


class Mode(StrEnum):
    """Which buttons a prompt shows: every action, or one 聽 button per tile that keeps the hand ready."""

    MAIN = "main"
    READY = "ready"


@dataclass(frozen=True)
class PromptPoint:
    """The decision point a prompt's buttons were made for: checked against the live one on a click."""

    table: int
    hand: int
    seat: int
    move: int


_POINT = r"(?P<table>\d+):(?P<hand>\d+):(?P<seat>[0-3]):(?P<move>\d+)"


def _point(match: re.Match[str]) -> PromptPoint:
    return PromptPoint(int(match["table"]), int(match["hand"]), int(match["seat"]), int(match["move"]))


async def hand_to_table(
    interaction: discord.Interaction, table: int, act: Callable[[TableRunner], Awaitable[None]]
) -> None:
    """Run ``act(runner)`` for a click on a table this process runs (the cog answers one it does not)."""
    await hand_to_cog(interaction, lambda cog: act(cog.running(table)))


class LobbyButton(TableIdButton, template=r"mj:l:(?P<table>\d+):(?P<op>join|leave|ai|start|close)"):
    def __init__(self, table: int, op: LobbyOp, button: discord.ui.Button[Any]) -> None:
        super().__init__(table, button)
        self.op = op

    @classmethod
    def make(cls, table: int, op: LobbyOp, label: str, style: discord.ButtonStyle) -> LobbyButton:
        return cls(table, op, new_button(f"mj:l:{table}:{op}", label, style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LobbyButton:
        return cls(int(match["table"]), LobbyOp(match["op"]), clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "Seats", lambda seats: seats.lobby_click(interaction, self.table, self.op))


class ActButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"mj:a:{_POINT}:(?P<code>{PATTERN})"):
    """One legal action of a prompt (its code, codes.py)."""

    def __init__(self, point: PromptPoint, code: str, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.point = point
        self.code = code

    @classmethod
    def make(
        cls, table: int, hand: int, seat: int, move: int, code: str, label: str, style: discord.ButtonStyle, row: int
    ) -> ActButton:
        button = new_button(f"mj:a:{table}:{hand}:{seat}:{move}:{code}", label, style, row=row)
        return cls(PromptPoint(table, hand, seat, move), code, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ActButton:
        return cls(_point(match), match["code"], clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_table(interaction, self.point.table, lambda runner: runner.act(interaction, self.point, self.code))


class ModeButton(discord.ui.DynamicItem[discord.ui.Button], template=rf"mj:m:{_POINT}:(?P<mode>main|ready)"):
    """The prompt again in the other mode (the 聽… button and its way back)."""

    def __init__(self, point: PromptPoint, mode: Mode, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.point = point
        self.mode = mode

    @classmethod
    def make(
        cls, table: int, hand: int, seat: int, move: int, mode: Mode, label: str, style: discord.ButtonStyle, row: int
    ) -> ModeButton:
        button = new_button(f"mj:m:{table}:{hand}:{seat}:{move}:{mode}", label, style, row=row)
        return cls(PromptPoint(table, hand, seat, move), mode, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ModeButton:
        return cls(_point(match), Mode(match["mode"]), clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_table(
            interaction, self.point.table, lambda runner: runner.switch_mode(interaction, self.point, self.mode)
        )


class TableButton(TableIdButton, template=r"mj:t:(?P<table>\d+):(?P<op>show|back|eyeask|eye|resume)"):
    def __init__(self, table: int, op: TableOp, button: discord.ui.Button[Any]) -> None:
        super().__init__(table, button)
        self.op = op

    @classmethod
    def make(cls, table: int, op: TableOp, label: str, style: discord.ButtonStyle) -> TableButton:
        return cls(table, op, new_button(f"mj:t:{table}:{op}", label, style))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(int(match["table"]), TableOp(match["op"]), clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "Seats", lambda seats: seats.table_click(interaction, self.table, self.op))


class ExchangeSelect(discord.ui.DynamicItem[discord.ui.Select], template=rf"mj:e:{_POINT}"):
    """換牌: each option is one tile of the hand (``5m.0``, ``5m.1`` for two 5m); choosing is confirming."""

    def __init__(self, point: PromptPoint, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)
        self.point = point

    @classmethod
    def make(
        cls, table: int, hand: int, seat: int, move: int, options: list[tuple[str, str]], placeholder: str
    ) -> ExchangeSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"mj:e:{table}:{hand}:{seat}:{move}",
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
        return cls(_point(match), clicked(item, discord.ui.Select))

    @property
    def values(self) -> list[str]:
        """The options chosen (the runner refuses values that name no tile)."""
        return list(self.item.values)

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_table(
            interaction, self.point.table, lambda runner: runner.exchange(interaction, self.point, self.values)
        )


DYNAMIC_ITEMS = (LobbyButton, ActButton, ModeButton, TableButton, ExchangeSelect, *REPLAY_ITEMS, *REVIEW_ITEMS)
