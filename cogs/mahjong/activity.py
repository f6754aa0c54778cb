"""The table as a Discord Activity (issue 43, item 4), the bot's side: the seat's "Play in Discord" button,
answered with the interaction response that launches the app's Activity (LAUNCH_ACTIVITY, type 12), and
the Activity's routes on the web table (web/activity.py) wired to this bot: Discord's API base is
discord.py's own, a person's seat is found in the registry, the words are the catalogue's.

On only when the web table is on and the app's OAuth2 client is configured (``MAHJONG_CLIENT_ID`` and
``MAHJONG_CLIENT_SECRET``); the app's Activity itself is set up in the Developer Portal (README, "As a
Discord Activity"). A click on a button left from a time it was on is answered politely.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from table import ids
from web.activity import Activity, ActivitySettings
from web.server import WebTable

from ..i18n import t
from .clicks import TableIdButton, mahjong_cog, new_button
from .refusals import answer, guarded

log = logging.getLogger(__name__)


def start_activity(
    web: WebTable | None, seats: Any, *, client_id: str | None, client_secret: str | None, origins: tuple[str, ...] = ()
) -> Activity | None:
    """The Activity's routes on the web table (before it starts serving), or None where it is off."""
    if web is None or not client_id or not client_secret:
        return None
    settings = ActivitySettings(client_id, client_secret, api=lambda: discord.http.Route.BASE)
    if origins:
        settings = ActivitySettings(client_id, client_secret, settings.api, settings.origins + origins)
    return Activity(web, settings, seats, lambda locale, key: t(locale, f"activity.{key}"))


class PlayInDiscordButton(TableIdButton, key=ids.PlayInDiscord):
    """Launch the Activity: the table, played in a frame of Discord's own."""

    @classmethod
    def make(cls, table: int, locale: str) -> PlayInDiscordButton:
        label = t(locale, "btn.play_in_discord")
        return cls(table, new_button(ids.PlayInDiscord(table).to_custom_id(), label, discord.ButtonStyle.secondary))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = mahjong_cog(interaction)
        if cog is not None:
            await guarded(interaction, launch, interaction, getattr(cog, "activity", None), self.table)


async def launch(interaction: discord.Interaction, activity: Activity | None, table: int) -> None:
    """Launch the Activity for ``table``; where it is not set up (here, or in the Developer Portal) say so,
    politely."""
    if activity is None:
        await answer(interaction, t(interaction.locale, "activity.off"))
        return
    activity.want(interaction.user.id, table)
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as refused:  # the app has no Activity in the Developer Portal
        log.warning("Discord refused to launch the Activity (is it enabled in the Developer Portal?): %s", refused)
        await answer(interaction, t(interaction.locale, "activity.off"))


def play_in_discord_button(activity: Activity | None, table: int, user: int | None, locale: str) -> discord.ui.Button[Any] | None:
    """The DM's "Play in Discord" button, or None where the Activity is off or the seat an AI's."""
    if activity is None or user is None:
        return None
    return PlayInDiscordButton.make(table, locale).item
