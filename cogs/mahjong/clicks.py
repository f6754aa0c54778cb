"""What the buttons and selects that survive a restart (``discord.ui.DynamicItem``) share: the clicked
component as its own kind, the cog the click reached, and handing the click to one of its methods so that
refusals are answered politely and bugs are logged (``refusals.guarded``).

Each item parses its custom id into typed attributes in ``from_custom_id`` (which must not fail for an
id its template matched: discord.py would log and drop the click) and its ``callback`` calls one method.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeVar

import discord
from discord.ext import commands

from table.ids import OfTable

from .refusals import guarded

if TYPE_CHECKING:
    from . import Mahjong

ItemT = TypeVar("ItemT", bound="discord.ui.Item[Any]")


def clicked(item: discord.ui.Item[Any], kind: type[ItemT]) -> ItemT:
    """The component a template matched, as the kind the template is for. discord.py looks it up by
    component type and custom id, so a button's template only ever receives a button, but it types the
    argument as any ``Item``; anything else is a bug (raised, so discord.py logs it)."""
    if not isinstance(item, kind):
        raise TypeError(f"{item!r} is not a {kind.__name__}")
    return item


def mahjong_cog(interaction: discord.Interaction, name: str = "Mahjong") -> Any:
    """The /mahjong cog the click reached (the tables cog unless named); None while it is unloaded (a
    click during shutdown)."""
    client = interaction.client
    if not isinstance(client, commands.Bot):
        return None
    # not isinstance: each load_extension executes cogs/mahjong/__init__.py afresh, so two bots in
    # one process (the tests) hold cogs built by two different runs of it
    return client.get_cog(name)


def new_button(
    custom_id: str, label: str, style: discord.ButtonStyle, *, row: int | None = None, disabled: bool = False
) -> discord.ui.Button[Any]:
    """A button as a message shows it (its label cut to Discord's 80 characters)."""
    return discord.ui.Button(style=style, label=label[:80], custom_id=custom_id, row=row, disabled=disabled)


class TableIdButton(discord.ui.DynamicItem[discord.ui.Button], template=r"mj:_table_id_never_"):
    """A button whose custom id names one table, typed ``table``. Subclasses give the kind of id
    (``key=``, table/ids.py: its template is the kind's) and ``callback``; this class is never registered."""

    key: ClassVar[type[OfTable]]

    def __init_subclass__(cls, *, key: type[OfTable], **kwargs: Any) -> None:
        super().__init_subclass__(template=key.TEMPLATE, **kwargs)
        cls.key = key

    def __init__(self, table: int, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(cls.key.from_match(match).table, clicked(item, discord.ui.Button))


async def hand_to_cog(interaction: discord.Interaction, act: Callable[[Mahjong], Awaitable[None]]) -> None:
    """Run ``act(cog)`` for a click, refusals (``TableError``) answered and bugs logged."""
    await hand_to_named(interaction, "Mahjong", act)


async def hand_to_named(interaction: discord.Interaction, name: str, act: Callable[[Any], Awaitable[None]]) -> None:
    """As :func:`hand_to_cog`, for a click another /mahjong cog answers (the hall's, say)."""
    cog = mahjong_cog(interaction, name)
    if cog is not None:
        await guarded(interaction, act, cog)
