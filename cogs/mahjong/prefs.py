"""/mahjong settings: a person's own preferences (data/prefs.py), in a DM with the bot or in any server:
the nudge DM, their pictures' theme, and the auto toggles (auto-win, no calls, 摸切). Always answered
privately; a toggle changed here reaches every table this process runs where they sit (the hand message has
the same toggles as buttons).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from data import THEMES, PlayerPrefs, StoreError
from table.lobby import TableError
from table.screens import SEATS

from ..i18n import t
from .refusals import MahjongCog

if TYPE_CHECKING:
    from .tables import Mahjong

log = logging.getLogger(__name__)

THEME_OPTIONS = [app_commands.Choice(name=name, value=name) for name in THEMES]
SWITCHES = ("nudge", "auto_win", "no_calls", "auto_discard")


def prefs_text(prefs: PlayerPrefs, locale: Any) -> str:
    """/mahjong settings' answer: every preference as it now is."""
    def onoff(value: bool) -> str:
        return t(locale, "prefs.yes" if value else "prefs.no")

    return t(
        locale,
        "prefs.show",
        nudge=onoff(prefs.nudge),
        theme=t(locale, f"prefs.theme.{prefs.theme}"),
        auto_win=onoff(prefs.auto_win),
        no_calls=onoff(prefs.no_calls),
        auto_discard=onoff(prefs.auto_discard),
    )


class PlayerSettings(MahjongCog):
    """/mahjong settings."""

    def __init__(self, tables: Mahjong) -> None:
        self.tables = tables
        self.store = tables.store

    @app_commands.command(name=_("settings"), description=_("Your own settings: nudges, theme, auto toggles"))
    @app_commands.describe(
        nudge=_("A short new DM when a decision waits on you"),
        theme=_("The theme of your pictures"),
        auto_win=_("Take every win offered"),
        no_calls=_("Pass every 吃/碰/槓 offer (never a win)"),
        auto_discard=_("Discard the drawn tile (摸切) until turned off"),
    )
    @app_commands.choices(theme=THEME_OPTIONS)
    async def settings(
        self,
        interaction: discord.Interaction,
        nudge: bool | None = None,
        theme: str | None = None,
        auto_win: bool | None = None,
        no_calls: bool | None = None,
        auto_discard: bool | None = None,
    ) -> None:
        given = {"nudge": nudge, "theme": theme, "auto_win": auto_win, "no_calls": no_calls, "auto_discard": auto_discard}
        changes = {name: value for name, value in given.items() if value is not None}
        if "theme" in changes and changes["theme"] not in THEMES:  # a modified client: not one of the choices
            raise TableError("prefs.bad_theme", themes=", ".join(THEMES))
        user = interaction.user.id
        try:
            prefs = (
                await self.store.set_player_prefs(user, **changes) if changes else await self.store.get_player_prefs(user)
            )
        except StoreError:
            raise TableError("err.storage") from None
        await interaction.response.send_message(prefs_text(prefs, interaction.locale), ephemeral=True)
        if changes.keys() & {"auto_win", "no_calls", "auto_discard", "theme"}:
            await self._tables_take(user, prefs)

    async def _tables_take(self, user: int, prefs: PlayerPrefs) -> None:
        """Every table this process runs where ``user`` sits plays by their toggles (and draws their DM in
        their theme) from now on."""
        for runner in self.tables.registry.alive():
            if runner.session.screen(SEATS).seat_of_user(user) is not None:
                await runner.take_prefs(user, prefs)
