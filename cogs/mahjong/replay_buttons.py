"""Replay controls that survive a restart (``discord.ui.DynamicItem``): the custom id holds the hand,
the seat and the step, so a click needs nothing but the database. Each item parses its id into typed
attributes and calls one method of a cog (replay.py's ``ReplayCommands``, watch.py's ``WatchCommands``):
through the cog, not an import, since the replay and the table message make these buttons.

Their custom ids (step-through, seat select, Replay, Watch) are written once, in table/ids.py.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from table import ids
from table.ids import ReplayFrame, StepOp

from .clicks import TableIdButton, clicked, hand_to_named, new_button

SEAT_VALUES = ("0", "1", "2", "3")


class ReplayStepButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.ReplayStep.TEMPLATE):
    def __init__(self, frame: ReplayFrame, op: StepOp, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.frame = frame
        self.op = op

    @classmethod
    def make(
        cls, hand: int, seat: int, step: int, op: StepOp, label: str, row: int, disabled: bool = False
    ) -> ReplayStepButton:
        style = discord.ButtonStyle.primary if op in (StepOp.PREV, StepOp.NEXT) else discord.ButtonStyle.secondary
        key = ids.ReplayStep(ReplayFrame(hand, seat, step), op)
        return cls(key.frame, key.op, new_button(key.to_custom_id(), label, style, row=row, disabled=disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayStepButton:
        key = ids.ReplayStep.from_match(match)
        return cls(key.frame, key.op, clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "ReplayCommands", lambda cog: cog.replay_step_click(interaction, self.frame, self.op))


class ReplaySeatSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.ReplaySeat.TEMPLATE):
    """The table turned to another seat at the same step."""

    def __init__(self, hand: int, step: int, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)
        self.hand = hand
        self.step = step

    @classmethod
    def make(cls, hand: int, step: int, seat: int, names: list[str], placeholder: str) -> ReplaySeatSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=ids.ReplaySeat(hand, step).to_custom_id(),
            placeholder=placeholder[:150],
            options=[
                discord.SelectOption(label=name[:100], value=str(s), default=s == seat)
                for s, name in enumerate(names)
            ],
            row=2,
        )
        return cls(hand, step, select)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplaySeatSelect:
        key = ids.ReplaySeat.from_match(match)
        return cls(key.hand, key.step, clicked(item, discord.ui.Select))

    @property
    def seat(self) -> int:
        """The seat chosen (seat 0 for a value that names none: a forged click)."""
        values = list(self.item.values)
        return int(values[0]) if values and values[0] in SEAT_VALUES else 0

    async def callback(self, interaction: discord.Interaction) -> None:
        frame = ReplayFrame(self.hand, self.seat, self.step)
        await hand_to_named(interaction, "ReplayCommands", lambda cog: cog.replay_step_click(interaction, frame, None))


class ReplayOpenButton(discord.ui.DynamicItem[discord.ui.Button], template=ids.ReplayOpen.TEMPLATE):
    """A fresh private replay of a match's hand (by its number in the match)."""

    def __init__(self, table: int, hand_no: int, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.table = table
        self.hand_no = hand_no

    @classmethod
    def make(cls, table: int, hand_no: int, label: str) -> ReplayOpenButton:
        custom_id = ids.ReplayOpen(table, hand_no).to_custom_id()
        return cls(table, hand_no, new_button(custom_id, label, discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayOpenButton:
        key = ids.ReplayOpen.from_match(match)
        return cls(key.table, key.hand_no, clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "ReplayCommands", lambda cog: cog.replay_open_click(interaction, self.table, self.hand_no))


class WatchButton(TableIdButton, key=ids.Watch):
    """Watch the table (or stop watching)."""

    @classmethod
    def make(cls, table: int, label: str) -> WatchButton:
        return cls(table, new_button(ids.Watch(table).to_custom_id(), label, discord.ButtonStyle.secondary))

    async def callback(self, interaction: discord.Interaction) -> None:
        await hand_to_named(interaction, "WatchCommands", lambda cog: cog.watch_click(interaction, self.table))


REPLAY_ITEMS = (ReplayStepButton, ReplaySeatSelect, ReplayOpenButton, WatchButton)
