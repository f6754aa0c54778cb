"""/tai: the hand calculator in Discord. A thin shell over ``engine.score.calculate`` — the same
function behind ``python -m engine.score`` — so the bot never re-implements a rule. Every field the
command-line calculator reads has an option here, and the answer speaks the reader's language."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from engine.house_rules import KNOWN_PRESETS, parse_switches
from engine.rules import HAND_SIZES
from engine.rulesets import DEFAULT_RULES
from engine.rulesets import get as rule_set
from engine.score import RequestError, calculate
from engine.scoring import ScoringError
from engine.tiles import NotationError

from .choices import RULE_CHOICES, complete_entries, switch_spellings
from .i18n import item_label, t

log = logging.getLogger(__name__)

WINDS = [app_commands.Choice(name=n, value=v) for n, v in (("東 E", "E"), ("南 S", "S"), ("西 W", "W"), ("北 N", "N"))]
# the flagship's 八仙過海 / 七搶一 (the calculator reads taiwan13's 大花胡 too, typed by hand)
FLOWER_WIN_CHOICES = [app_commands.Choice(name=name, value=name) for name in rule_set(DEFAULT_RULES).flower_wins]
PRESET_CHOICES = [app_commands.Choice(name=name, value=name) for name in KNOWN_PRESETS]
HAND_SIZE_CHOICES = [app_commands.Choice(name=str(n), value=n) for n in HAND_SIZES]
# the calculator's facts of a win that have no option of their own (engine.score), and what each implies
FACTS: dict[str, tuple[str, ...]] = {
    "heavenly": (),  # 天胡
    "earthly": (),  # 地胡
    "human": ("earthly",),  # 人胡 (house rule)
    "last_discard": (),  # 河底撈魚 (house rule)
    "heavenly_ready": ("declared_ready",),  # 天聽: 聽 with the first discard
    "dealt_ready": ("heavenly_ready", "declared_ready"),  # ... a non-dealer's, on the dealt hand
    "after_flower": ("kong_replacement",),  # the replacement was a flower's
    "flower_win_declined": (),  # 八仙過海 / 大花胡 declined: the flowers count as ordinary
    "eye_declared": (),  # 眼牌
    "miji": ("eye_declared",),  # Miji
    "from_dealer": (),  # won on the dealer's discard (hongkong 人和)
}


def parse_facts(text: str) -> dict[str, bool]:
    """``"dealt_ready, after_flower"`` → every fact named and the facts it implies, all true;
    ValueError naming the known facts for a word that is none."""
    out: dict[str, bool] = {}
    for word in text.replace(",", " ").replace("，", " ").split():
        if word not in FACTS:
            raise ValueError(f"unknown fact {word!r} (known: {', '.join(FACTS)})")
        out.update(dict.fromkeys((word, *FACTS[word]), True))
    return out
# the longest each notation can sensibly be (16 concealed tiles written one by one with spaces, five melds
# as addkong:1111m, eight flowers): the client keeps to these, and a forged one is refused in one line
HAND_MAX, WIN_MAX, MELDS_MAX, FLOWERS_MAX = 64, 4, 100, 32
WORDS_MAX = 400  # house_rules and facts: every switch or fact named once, with its value


class Calculator(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name=_("tai"), description=_("Count the 台 (or 番) of a winning hand written in tile notation"))
    @app_commands.describe(
        hand=_("concealed tiles without the winning tile, e.g. 123456789m456p3455s"),
        win=_("the winning tile, e.g. 2s"),
        rules=_("Rule set"),
        melds=_("declared melds, e.g. pon:555z chi:123m"),
        flowers=_("flowers, e.g. f1f5"),
        self_drawn=_("won by self-draw (自摸)"),
        seat_wind=_("your seat wind"),
        round_wind=_("the round wind"),
        dealer=_("you are the dealer (莊家)"),
        streak=_("the dealer's streak n (連n)"),
        last_tile=_("won on the last tile (海底)"),
        kong_replacement=_("won on a kong's replacement tile (槓上開花)"),
        robbing_kong=_("won by robbing a kong (搶槓)"),
        flower_win=_("an instant flower win (八仙過海 / 七搶一)"),
        ready=_("聽 was declared"),
        min3=_("the table needs three 台 to win (三台起胡)"),
        preset=_("the table's house rules (家規 preset or family)"),
        hand_size=_("hongkong: 13 tiles or 16 with flowers"),
        flower_bonus_taken=_("八仙過海 / 七搶一 was already paid as a bonus (no flower 台)"),
        house_rules=_("single house rules on top of the preset, e.g. 字一色計風台, 天胡 24"),
        facts=_("more facts of the win, e.g. dealt_ready, after_flower"),
    )
    @app_commands.choices(
        seat_wind=WINDS,
        round_wind=WINDS,
        rules=RULE_CHOICES,
        flower_win=FLOWER_WIN_CHOICES,
        preset=PRESET_CHOICES,
    )
    @app_commands.choices(hand_size=HAND_SIZE_CHOICES)  # apart: one choices() call takes one value type
    async def tai(
        self,
        interaction: discord.Interaction,
        hand: app_commands.Range[str, 1, HAND_MAX] = "",
        win: app_commands.Range[str, 1, WIN_MAX] = "",
        rules: str = DEFAULT_RULES,
        melds: app_commands.Range[str, 1, MELDS_MAX] = "",
        flowers: app_commands.Range[str, 1, FLOWERS_MAX] = "",
        self_drawn: bool = False,
        seat_wind: str = "E",
        round_wind: str = "E",
        dealer: bool = False,
        streak: app_commands.Range[int, 0, 8] = 0,
        last_tile: bool = False,
        kong_replacement: bool = False,
        robbing_kong: bool = False,
        flower_win: str | None = None,
        ready: bool = False,
        min3: bool = False,
        preset: str | None = None,
        hand_size: int | None = None,
        flower_bonus_taken: bool = False,
        house_rules: str = "",
        facts: str = "",
    ) -> None:
        # Discord's client keeps to the lengths above, Discord itself does not (nor does discord.py)
        for name, value, limit in (
            ("hand", hand, HAND_MAX), ("win", win, WIN_MAX), ("melds", melds, MELDS_MAX), ("flowers", flowers, FLOWERS_MAX),
            ("house_rules", house_rules, WORDS_MAX), ("facts", facts, WORDS_MAX),
        ):
            if len(value) > limit:
                await interaction.response.send_message(
                    t(interaction.locale, "tai.too_long", name=name, limit=limit), ephemeral=True
                )
                return
        try:
            switches, more = parse_switches(house_rules), parse_facts(facts)
        except ValueError as error:
            await interaction.response.send_message(t(interaction.locale, "tai.bad", error=error), ephemeral=True)
            return
        request: dict[str, Any] = {
            "rules": rules,
            "concealed": hand,
            "melds": melds.replace(",", " ").split(),
            "flowers": flowers,
            "self_drawn": self_drawn,
            "seat_wind": seat_wind,
            "round_wind": round_wind,
            "dealer": dealer,
            "dealer_streak": streak,
            "last_tile": last_tile,
            "kong_replacement": kong_replacement,
            "robbing_kong": robbing_kong,
            "declared_ready": ready,
            "flower_win": flower_win,
            "options": {"三台起胡": True} if min3 else {},
            "preset": preset,
            "hand_size": hand_size,
            "flower_bonus_taken": flower_bonus_taken,
            "house_rules": switches,
        }
        for name in more:  # (declared_ready may also come from ``ready``)
            request[name] = True
        if win:
            request["win_tile"] = win
        try:
            result = calculate(request)
        except (RequestError, ScoringError, NotationError) as error:
            await interaction.response.send_message(t(interaction.locale, "tai.bad", error=error), ephemeral=True)
            return
        embed = result_embed(hand, win, result, interaction.locale)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @tai.autocomplete("house_rules")
    async def tai_house_rules(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The switch being typed, after those already written (more than a choice list's 25)."""
        return complete_entries(current, switch_spellings())

    @tai.autocomplete("facts")
    async def tai_facts(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return complete_entries(current, list(FACTS))


def result_embed(hand: str, win: str, result: dict, locale: Any) -> discord.Embed:
    if not result["valid"]:
        return discord.Embed(
            title=t(locale, "tai.not_winning"), description=result["reason"], colour=discord.Colour.red()
        )
    unit_key = result["unit"]
    unit = t(locale, f"unit.{unit_key}")
    lines = [  # each item's name in the reader's script, with its meaning for an English reader (issue 37)
        f"{item_label(locale, item['name'])} — {item[unit_key]} {unit}" for item in result["items"]
    ] or [t(locale, "tai.no_items")]
    title = f"{result['total']} {unit}"
    if "capped_total" in result and result["capped_total"] != result["total"]:
        title += " · " + t(locale, "play.cap_note", paid=result["capped_total"])
    if "points" in result:
        lines.append(t(locale, "tai.points", points=result["points"]))
    embed = discord.Embed(title=title, description="\n".join(lines), colour=discord.Colour.green())
    embed.set_footer(text=f"{hand} + {win}" if win else hand)
    return embed


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Calculator(bot))
