"""Replay controls that survive a restart (``discord.ui.DynamicItem``): the custom id holds the hand,
the seat and the step, so a click needs nothing but the database.

* ``mj:r:<hand id>:<seat>:<step>:<op>``   step-through: first, prev, next, last, claim, kong, win
                                         (jump to the next one), ph / nh (previous / next hand)
* ``mj:rs:<hand id>:<step>``              the seat select (its value is the seat)
* ``mj:rp:<table>:<hand no>``             Replay, on a score sheet or in /mahjong history
* ``mj:w:<table>``                        Watch, on the table message (watch.py)
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from . import Mahjong

STEP_OPS = ("first", "prev", "next", "last", "claim", "kong", "win", "ph", "nh")


def _cog(interaction: discord.Interaction) -> Mahjong | None:
    return interaction.client.get_cog("Mahjong")  # type: ignore[attr-defined,return-value]


async def _hand_to(interaction: discord.Interaction, kind: str, fields: dict[str, Any]) -> None:
    from .replay import on_replay_click

    cog = _cog(interaction)
    if cog is not None:
        await cog.guarded(interaction, on_replay_click, cog, interaction, kind, fields)


class ReplayStepButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"mj:r:(?P<hand>\d+):(?P<seat>[0-3]):(?P<step>\d+):(?P<op>first|prev|next|last|claim|kong|win|ph|nh)",
):
    def __init__(self, button: discord.ui.Button, fields: dict[str, Any]) -> None:
        super().__init__(button)
        self.fields = fields

    @classmethod
    def make(
        cls, hand: int, seat: int, step: int, op: str, label: str, row: int, disabled: bool = False
    ) -> ReplayStepButton:
        style = discord.ButtonStyle.primary if op in ("prev", "next") else discord.ButtonStyle.secondary
        button = discord.ui.Button(
            style=style,
            label=label[:80],
            custom_id=f"mj:r:{hand}:{seat}:{step}:{op}",
            row=row,
            disabled=disabled,
        )
        return cls(button, {"hand": hand, "seat": seat, "step": step, "op": op})

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ReplayStepButton:
        fields = {k: (v if k == "op" else int(v)) for k, v in match.groupdict().items()}
        return cls(item, fields)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _hand_to(interaction, "step", self.fields)


class ReplaySeatSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"mj:rs:(?P<hand>\d+):(?P<step>\d+)"
):
    def __init__(self, select: discord.ui.Select, fields: dict[str, Any]) -> None:
        super().__init__(select)
        self.fields = fields

    @classmethod
    def make(cls, hand: int, step: int, seat: int, names: list[str], placeholder: str) -> ReplaySeatSelect:
        select = discord.ui.Select(
            custom_id=f"mj:rs:{hand}:{step}",
            placeholder=placeholder[:150],
            options=[
                discord.SelectOption(label=name[:100], value=str(s), default=s == seat)
                for s, name in enumerate(names)
            ],
            row=2,
        )
        return cls(select, {"hand": hand, "step": step})

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str], /
    ) -> ReplaySeatSelect:
        return cls(item, {k: int(v) for k, v in match.groupdict().items()})

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(self.item.values)
        seat = int(values[0]) if values and values[0] in ("0", "1", "2", "3") else 0
        await _hand_to(interaction, "seat", {**self.fields, "seat": seat})


class ReplayOpenButton(
    discord.ui.DynamicItem[discord.ui.Button], template=r"mj:rp:(?P<table>\d+):(?P<hand_no>\d+)"
):
    def __init__(self, button: discord.ui.Button, fields: dict[str, Any]) -> None:
        super().__init__(button)
        self.fields = fields

    @classmethod
    def make(cls, table: int, hand_no: int, label: str) -> ReplayOpenButton:
        button = discord.ui.Button(
            style=discord.ButtonStyle.secondary, label=label[:80], custom_id=f"mj:rp:{table}:{hand_no}"
        )
        return cls(button, {"table": table, "hand_no": hand_no})

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> ReplayOpenButton:
        return cls(item, {k: int(v) for k, v in match.groupdict().items()})

    async def callback(self, interaction: discord.Interaction) -> None:
        await _hand_to(interaction, "open", self.fields)


class WatchButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mj:w:(?P<table>\d+)"):
    def __init__(self, button: discord.ui.Button, fields: dict[str, Any]) -> None:
        super().__init__(button)
        self.fields = fields

    @classmethod
    def make(cls, table: int, label: str) -> WatchButton:
        button = discord.ui.Button(
            style=discord.ButtonStyle.secondary, label=label[:80], custom_id=f"mj:w:{table}"
        )
        return cls(button, {"table": table})

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str], /
    ) -> WatchButton:
        return cls(item, {"table": int(match["table"])})

    async def callback(self, interaction: discord.Interaction) -> None:
        from .watch import on_watch_click

        cog = _cog(interaction)
        if cog is not None:
            await cog.guarded(interaction, on_watch_click, cog, interaction, self.fields)


REPLAY_ITEMS = (ReplayStepButton, ReplaySeatSelect, ReplayOpenButton, WatchButton)
