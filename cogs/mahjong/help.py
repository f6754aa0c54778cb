"""/mahjong help: how to play at this bot, the rule set's special rules and its 台/番 table, in
the reader's language (an ephemeral answer: it is one person's question). A mixin of the
``Mahjong`` GroupCog like ranked.py; the item table is the engine's own (engine.scoring), so the
help can never disagree with the scorer. Item names stay as the rule documents write them."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from engine.house_rules import HouseRules
from engine.rules import PROFILES
from engine.scoring import get_rules

from ..i18n import locale_of, t
from .arguments import accepted

if TYPE_CHECKING:
    from .runner import TableRunner

RULE_CHOICES = [app_commands.Choice(name=_(t("en", f"rules.{r}")), value=r) for r in PROFILES]
UNIT_WORDS = {"tai": "台", "fan": "番", "points": "分", "multiplier": "倍"}
FIELD_LIMIT = 1024  # characters in one embed field


def item_lines(rules: str) -> list[str]:
    """``門清 1`` … every row of the rule set's table at document values (one line each)."""
    table = get_rules(rules)
    unit = UNIT_WORDS.get(table.unit, table.unit)
    document = HouseRules()
    return [f"{item.name} {item.value_for(document)}{unit}" for item in table.items]


def help_embed(rules: str, loc: str) -> discord.Embed:
    """The whole help for one rule set; the item table split over fields of at most 1024 characters."""
    embed = discord.Embed(title=t(loc, "help.title", rules=t(loc, f"rules.{rules}")), colour=0xC8202A)
    embed.add_field(name=t(loc, "help.how"), value=t(loc, "help.how_text"), inline=False)
    embed.add_field(name=t(loc, "help.special_title"), value=t(loc, f"help.special.{rules}"), inline=False)
    lines = item_lines(rules)
    unit = UNIT_WORDS.get(get_rules(rules).unit, "")
    chunks: list[list[str]] = [[]]
    for line in lines:
        if len(" · ".join([*chunks[-1], line])) > FIELD_LIMIT:
            chunks.append([])
        chunks[-1].append(line)
    for i, chunk in enumerate(chunks):
        name = t(loc, "help.items", unit=unit, n=len(lines)) if i == 0 else "\u200b"
        embed.add_field(name=name, value=" · ".join(chunk), inline=False)
    return embed


class HelpCommands:
    """Mixed into ``Mahjong``: expects ``self.tables`` (channel → runner)."""

    tables: dict[int, TableRunner]

    @app_commands.command(
        name=_("help"), description=_("How to play here, this rule set's special rules and its 台/番 items")
    )
    @app_commands.describe(rules=_("Rule set (default: this channel's table, else Taiwanese 16-tile)"))
    @app_commands.choices(rules=RULE_CHOICES)
    async def help(self, interaction: discord.Interaction, rules: str | None = None) -> None:
        if rules is None:
            runner = self.tables.get(interaction.channel_id or 0)
            rules = runner.state.settings.rules if runner is not None else "taiwan16"
        accepted("rules", rules, list(PROFILES))
        embed = help_embed(rules, locale_of(interaction.locale))
        await interaction.response.send_message(embed=embed, ephemeral=True)
