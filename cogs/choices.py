"""Choice lists that several slash commands offer (the /mahjong group's and /tai's), written once."""

from __future__ import annotations

from discord import app_commands
from discord.app_commands import locale_str as _

from engine.house_rules import SWITCHES
from engine.rules import PROFILES

from .i18n import t

# every rule set, named in English (the command translator words it for each Discord language)
RULE_CHOICES = [app_commands.Choice(name=_(t("en", f"rules.{r}")), value=r) for r in PROFILES]

CHOICE_TEXT = 100  # a choice's name and value: at most 100 characters
CHOICES = 25  # at most 25 choices an autocomplete answer


def switch_spellings() -> list[str]:
    """Every house-rule switch as a host writes it: its label (a value switch with its document
    value, ``天胡 16``), then its name."""
    out = [s.label if isinstance(s.default, bool) else f"{s.label} {s.default}" for s in SWITCHES]
    return out + [s.name for s in SWITCHES]


def complete_entries(current: str, words: list[str]) -> list[app_commands.Choice[str]]:
    """Autocomplete for a comma-separated list: the entries already written stay, the one being
    typed is completed from ``words`` (those holding what was typed, case aside)."""
    head, sep, typed = current.rpartition(",")
    prefix = f"{head}{sep} " if sep else ""
    typed = typed.strip().lower()
    found = [w for w in words if typed in w.lower()]
    choices = [prefix + w for w in found if len(prefix + w) <= CHOICE_TEXT]
    return [app_commands.Choice(name=c, value=c) for c in choices[:CHOICES]]
