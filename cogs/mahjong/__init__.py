"""/mahjong: open a table in a channel, take seats, play. One extension of small cogs, one per concern
(RoboDanny's shape), sharing one ``TableRegistry`` (registry.py):

* ``Mahjong`` (tables.py) — what the running tables share, and their life around their matches;
* ``Seats`` (seats.py) — join, leave, ai, start, close, table, and the lobby's and tables' buttons;
* ``Opening`` (opening.py) — create, houserule, rematch;
* ``Hall`` (hall.py) and ``ServerSettings`` (settings.py) — the table list, quick play, /mahjong setup;
* ``History``, ``RankedCommands``, ``ReplayCommands``, ``ReviewCommands`` — what the store remembers;
* ``WatchCommands`` and ``HelpCommands``;
* ``Tournaments`` (tournament.py) — league nights: registration, rounds of 系統桌, standings.

Their commands are the subcommands of one /mahjong group, in the order ``GROUP`` lists them: the order
is part of what Discord is sent, so the bot would sync again if it changed (tests/cogs/test_command_tree.py).
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from .hall import Hall
from .help import HelpCommands
from .history import History
from .opening import Opening
from .prefs import PlayerSettings
from .ranked import RankedCommands
from .registry import TableRegistry
from .replay import ReplayCommands
from .review import ReviewCommands
from .seats import Seats
from .settings import ServerSettings
from .tables import DYNAMIC_ITEMS, Mahjong
from .tournament import Tournaments
from .watch import WatchCommands

__all__ = ["COGS", "DYNAMIC_ITEMS", "GROUP", "GROUP_DESCRIPTION", "GROUP_NAME", "Mahjong", "TableRegistry", "mahjong_group"]

# every cog of the extension, in the order setup() loads them (the tables first: restored before the rest)
COGS = (
    Mahjong, Seats, Opening, Hall, ServerSettings, History, RankedCommands, ReplayCommands, ReviewCommands,
    WatchCommands, HelpCommands, Tournaments, PlayerSettings,
)
# the /mahjong subcommands, in the order Discord is sent them
GROUP = (
    "help", "watch", "review", "replay", "export", "leaderboard", "stats", "ledger", "server", "setup", "settings",
    "tables", "play", "ai", "create", "houserule", "join", "leave", "start", "close", "table", "history", "hand",
    "tournament",
)


GROUP_NAME, GROUP_DESCRIPTION = _("mahjong"), _("Mahjong tables in this server")


IN_DMS = frozenset({"settings"})  # the /mahjong subcommands that work in a DM with the bot too


class MahjongGroup(app_commands.Group):
    """/mahjong, offered in servers and in DMs with the bot (Discord's contexts are the whole group's): a
    subcommand other than those of ``IN_DMS`` typed in a DM is refused politely (err.guild_only)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        command = interaction.command
        if interaction.guild_id is None and (command is None or command.name not in IN_DMS):
            raise app_commands.NoPrivateMessage()
        return True


def mahjong_group() -> app_commands.Group:
    """The /mahjong group, empty; in servers and in DMs with the bot (its allowed contexts say so)."""
    group = MahjongGroup(name=GROUP_NAME, description=GROUP_DESCRIPTION)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)(group)


async def setup(bot: commands.Bot) -> None:
    """Load the cogs, then gather their commands under /mahjong (a cog's commands arrive at the top of the
    command tree; none of them is synced before the group takes them)."""
    registry = TableRegistry()
    tables = Mahjong(bot, registry)  # type: ignore[arg-type]
    seats = Seats(tables)
    cogs: tuple[commands.Cog, ...] = (
        tables,
        seats,
        Opening(tables),
        Hall(tables, seats),
        ServerSettings(tables),
        History(tables.store),
        RankedCommands(tables.store),
        ReplayCommands(tables.store),
        ReviewCommands(tables.store),
        WatchCommands(tables),
        HelpCommands(registry),
        Tournaments(tables),
        PlayerSettings(tables),
    )
    for cog in cogs:
        await bot.add_cog(cog)
    found = {}
    for cog in cogs:
        for command in cog.get_app_commands():
            bot.tree.remove_command(command.name)
            found[command.name] = command
    group = mahjong_group()
    for name in GROUP:
        group.add_command(found.pop(name))
    assert not found, f"commands missing from GROUP: {sorted(found)}"
    bot.tree.add_command(group)


async def teardown(bot: commands.Bot) -> None:
    bot.tree.remove_command("mahjong")
