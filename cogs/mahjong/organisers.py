"""Who runs a server's tournaments, and what a tournament's tables are set to (issue 42).

Members with Manage Server create and run tournaments, and so do members with the role a server chose in
``/mahjong setup organisers`` (``GuildSettings.organiser_role_id``); anyone else is refused politely,
privately. ``/mahjong tournament create``'s table options are checked here as /mahjong create's are
(arguments.py): turn and claim times from the 系統桌's choices (system-table times by default: the server's
系統桌 turn, the rule set's claim time), a house-rules preset with switches on top.
"""

from __future__ import annotations

from typing import Any

import discord

from data import GuildSettings
from engine.house_rules import KNOWN_PRESETS, HouseRules, parse_switches
from engine.rules import get_profile
from table.lobby import CLAIM_SECONDS, TableError

from .arguments import accepted
from .system import SYSTEM_TURN_CHOICES


def is_organiser(interaction: discord.Interaction, settings: GuildSettings) -> bool:
    """Manage Server (as Discord resolved it for this interaction), or the server's organisers' role."""
    if interaction.guild_id is None:
        return False
    if interaction.permissions.manage_guild:
        return True
    role = settings.organiser_role_id
    user = interaction.user
    return role is not None and isinstance(user, discord.Member) and any(r.id == role for r in user.roles)


def check_organiser(interaction: discord.Interaction, settings: GuildSettings) -> None:
    """Refuse (a TableError the cog answers privately) anyone who may not run tournaments here."""
    if not is_organiser(interaction, settings):
        if settings.organiser_role_id is None:
            raise TableError("tn.need_manage")
        raise TableError("tn.need_organiser", role=f"<@&{settings.organiser_role_id}>")


def table_choices(
    rules: str, settings: GuildSettings, *, turn_seconds: int | None, claim_seconds: int | None, preset: str,
    house_rules: str,
) -> dict[str, Any]:  # fmt: skip
    """The stored table settings of a new tournament (``create_tournament``'s keywords): its turn and claim
    times (the 系統桌's when not chosen) and its house rules; a value its choices do not allow is refused.

        >>> from engine.rulesets import DEFAULT_RULES
        >>> table_choices(DEFAULT_RULES, GuildSettings(1, system_turn_seconds=8), turn_seconds=None,
        ...               claim_seconds=None, preset="document", house_rules="天胡 24")
        {'turn_seconds': 8, 'claim_seconds': 8, 'preset': 'document', 'house_rules': {'heavenly_tai': 24}}
    """
    turn = settings.system_turn_seconds if turn_seconds is None else turn_seconds
    claim = get_profile(rules).options.claim_seconds if claim_seconds is None else claim_seconds
    accepted("turn_seconds", turn, SYSTEM_TURN_CHOICES)
    accepted("claim_seconds", claim, CLAIM_SECONDS)
    accepted("preset", preset, list(KNOWN_PRESETS))
    try:
        chosen = HouseRules.resolve(preset, parse_switches(house_rules))
    except ValueError as error:
        raise TableError("err.house_rules", reason=str(error)) from None
    return {"turn_seconds": turn, "claim_seconds": claim, "preset": preset, "house_rules": chosen.to_dict()}
