"""What /mahjong create offers: the choice lists of its options (as Discord shows them, each label a
catalogue key the translator turns into the reader's language) and the house-rule switches /mahjong
houserule offers."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from discord import app_commands
from discord.app_commands import locale_str as _

from engine.house_rules import KNOWN_PRESETS, SWITCHES, HouseRules, parse_switches
from engine.rules import HAND_SIZES, PROFILES, TableOptions, get_profile
from engine.rulesets import DEFAULT_MINIMUM
from ranking import RANKINGS
from table.bank import BANK_SECONDS
from table.lobby import CLAIM_SECONDS, PACES, THEMES, TURN_SECONDS, TableError

from ..i18n import SUPPORTED, t
from .arguments import accepted

DEFAULTS = TableOptions()
SWITCH_CHOICES = [app_commands.Choice(name=f"{sw.label} ({sw.name})"[:100], value=sw.name) for sw in SWITCHES]
MINIMUM_CHOICES = [app_commands.Choice(name=_(name), value=n) for name, n in (("0", 0), ("1", 1), ("3", 3))]
RULE_CHOICES = [app_commands.Choice(name=_(t("en", f"rules.{r}")), value=r) for r in PROFILES]
TURN_CHOICES = [app_commands.Choice(name=f"{s}s", value=s) for s in TURN_SECONDS]
BANK_CHOICES = [app_commands.Choice(name=f"{s}s", value=s) for s in BANK_SECONDS]
CLAIM_CHOICES = [app_commands.Choice(name=f"{s}s", value=s) for s in CLAIM_SECONDS]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=name, value=value)
    for name, value in (("English", "en"), ("繁體中文", "zh-TW"), ("简体中文", "zh-CN"))
]
PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in KNOWN_PRESETS]  # house rules, families too
HAND_SIZE_CHOICES = [app_commands.Choice(name=str(n), value=n) for n in HAND_SIZES]  # hongkong
RANKING_CHOICES = [app_commands.Choice(name=_(t("en", f"ranking.{r}")), value=r) for r in RANKINGS]
PACE_CHOICES = [app_commands.Choice(name=_(t("en", f"pace.{p}")), value=p) for p in PACES]
THEME_CHOICES = [app_commands.Choice(name=_(t("en", f"theme.{name}")), value=name) for name in THEMES]


def table_options(
    rules: str, *, base: int | None, tai: int | None, hand_size: int | None, **chosen: Any
) -> TableOptions:
    """The rule set's own stakes and caps (taiwan13: 20 a 台), with what the host chose on top; base, tai
    and hand size only where the host set them."""
    for name, value in (("base", base), ("tai", tai), ("hand_size", hand_size)):
        if value is not None:
            chosen[name] = value
    return replace(get_profile(rules).options, **chosen)


def checked_arguments(
    rules: str,
    preset: str,
    house_rules: str,
    rounds: int,
    turn_seconds: int,
    claim_seconds: int,
    pace: str,
    minimum: int | None,
    hand_size: int | None,
    language: str | None,
    base: int | None,
    tai: int | None,
    theme: str = "felt",
) -> tuple[HouseRules, int]:
    """/mahjong create's arguments checked (TableError on one its choices and ranges do not allow): the
    house rules they name, and the minimum to win (the rule set's own when the host said nothing)."""
    accepted("rules", rules, list(PROFILES))
    accepted("preset", preset, list(KNOWN_PRESETS))
    try:  # the preset with the switches written on top (engine.house_rules.parse_switches)
        table_rules = HouseRules.resolve(preset, parse_switches(house_rules))
    except ValueError as error:
        raise TableError("err.house_rules", reason=str(error)) from None
    accepted("rounds", rounds, range(1, 5))
    accepted("turn_seconds", turn_seconds, TURN_SECONDS)
    accepted("claim_seconds", claim_seconds, CLAIM_SECONDS)
    accepted("pace", pace, list(PACES))
    accepted("theme", theme, list(THEMES))
    if minimum is None:  # what players of the rule set expect when the host says nothing
        minimum = DEFAULT_MINIMUM.get(rules, 0)
    accepted("minimum", minimum, [choice.value for choice in MINIMUM_CHOICES])
    if hand_size is not None:
        accepted("hand_size", hand_size, [choice.value for choice in HAND_SIZE_CHOICES])
    if language is not None:
        accepted("language", language, SUPPORTED)
    for name, value in (("base", base), ("tai", tai)):
        if value is not None:
            accepted(name, value, range(0, 100_001))
    return table_rules, minimum
