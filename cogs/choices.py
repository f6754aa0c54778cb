"""Choice lists that several slash commands offer (the /mahjong group's and /tai's), written once."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from engine.rules import PROFILES

from .i18n import t

# every rule set, named in English (the command translator words it for each Discord language)
RULE_CHOICES = [app_commands.Choice(name=_(t("en", f"rules.{r}")), value=r) for r in PROFILES]
