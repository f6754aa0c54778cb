"""Replay controls that survive a restart (``discord.ui.DynamicItem``): the custom id holds the hand,
the seat and the step, so a click needs nothing but the database. Each item parses its id into typed
attributes and calls one function (replay.py, watch.py).

* ``mj:r:<hand id>:<seat>:<step>:<op>``   step-through: first, prev, next, last, claim, kong, win
                                         (jump to the next one), ph / nh (previous / next hand)
* ``mj:rs:<hand id>:<step>``              the seat select (its value is the seat)
* ``mj:rp:<table>:<hand no>``             Replay, on a score sheet or in /mahjong history
* ``mj:w:<table>``                        Watch, on the table message (watch.py)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import discord

from .clicks import TableIdButton, clicked, hand_to_cog, new_button

SEAT_VALUES = ("0", "1", "2", "3")


class StepOp(StrEnum):
    """What a step-through button does; its value is what the custom id says."""

    FIRST = "first"
    PREV = "prev"
    NEXT = "next"
    LAST = "last"
    CLAIM = "claim"  # the next claim
    KONG = "kong"  # the next kong
    WIN = "win"  # the win
    PREV_HAND = "ph"
    NEXT_HAND = "nh"


@dataclass(frozen=True)
class ReplayFrame:
    """What a replay message shows: a stored hand (its id), from a seat, at a step."""

    hand: int
    seat: int
    step: int


class ReplayStepButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"mj:r:(?P<hand>\d+):(?P<seat>[0-3]):(?P<step>\d+):(?P<op>{'|'.join(StepOp)})",
):
    def __init__(self, frame: ReplayFrame, op: StepOp, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.frame = frame
        self.op = op

    @classmethod
    def make(
        cls, hand: int, seat: int, step: int, op: StepOp, label: str, row: int, disabled: bool = False
    ) -> ReplayStepButton:
        style = discord.ButtonStyle.primary if op in (StepOp.PREV, StepOp.NEXT) else discord.ButtonStyle.secondary
        button = new_button(f"mj:r:{hand}:{seat}:{step}:{op}", label, style, row=row, disabled=disabled)
        return cls(ReplayFrame(hand, seat, step), op, button)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayStepButton:
        frame = ReplayFrame(int(match["hand"]), int(match["seat"]), int(match["step"]))
        return cls(frame, StepOp(match["op"]), clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        from .replay import step_replay

        await hand_to_cog(interaction, lambda cog: step_replay(cog.store, interaction, self.frame, self.op))


class ReplaySeatSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"mj:rs:(?P<hand>\d+):(?P<step>\d+)"):
    """The table turned to another seat at the same step."""

    def __init__(self, hand: int, step: int, select: discord.ui.Select[Any]) -> None:
        super().__init__(select)
        self.hand = hand
        self.step = step

    @classmethod
    def make(cls, hand: int, step: int, seat: int, names: list[str], placeholder: str) -> ReplaySeatSelect:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"mj:rs:{hand}:{step}",
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
        return cls(int(match["hand"]), int(match["step"]), clicked(item, discord.ui.Select))

    @property
    def seat(self) -> int:
        """The seat chosen (seat 0 for a value that names none: a forged click)."""
        values = list(self.item.values)
        return int(values[0]) if values and values[0] in SEAT_VALUES else 0

    async def callback(self, interaction: discord.Interaction) -> None:
        from .replay import step_replay

        frame = ReplayFrame(self.hand, self.seat, self.step)
        await hand_to_cog(interaction, lambda cog: step_replay(cog.store, interaction, frame, None))


class ReplayOpenButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mj:rp:(?P<table>\d+):(?P<hand_no>\d+)"):
    """A fresh private replay of a match's hand (by its number in the match)."""

    def __init__(self, table: int, hand_no: int, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.table = table
        self.hand_no = hand_no

    @classmethod
    def make(cls, table: int, hand_no: int, label: str) -> ReplayOpenButton:
        return cls(table, hand_no, new_button(f"mj:rp:{table}:{hand_no}", label, discord.ButtonStyle.secondary))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayOpenButton:
        return cls(int(match["table"]), int(match["hand_no"]), clicked(item, discord.ui.Button))

    async def callback(self, interaction: discord.Interaction) -> None:
        from .replay import open_replay

        await hand_to_cog(interaction, lambda cog: open_replay(cog.store, interaction, self.table, self.hand_no))


class WatchButton(TableIdButton, template=r"mj:w:(?P<table>\d+)"):
    """Watch the table (or stop watching)."""

    @classmethod
    def make(cls, table: int, label: str) -> WatchButton:
        return cls(table, new_button(f"mj:w:{table}", label, discord.ButtonStyle.secondary))

    async def callback(self, interaction: discord.Interaction) -> None:
        from .watch import on_watch_click

        await hand_to_cog(interaction, lambda cog: on_watch_click(cog, interaction, self.table))


REPLAY_ITEMS = (ReplayStepButton, ReplaySeatSelect, ReplayOpenButton, WatchButton)
