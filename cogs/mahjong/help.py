"""/mahjong help: how to play at this bot, the rule set's special rules and its 台/番 table with what
every item means, in the reader's language (an ephemeral answer: it is one person's question). A cog
of its own, like ranked.py; the item table is the engine's own (engine.scoring),
so the help can never disagree with the scorer. Item names stay as the rule documents write them;
their meanings live in the catalogue (``item.<rules>.<name>``).

The answer is pages within Discord's limits: page 0 is how to play, the special rules and every item
at a glance; the next pages hold the items with their meanings, as many as fit a phone screen. One
select under the message turns the pages (a persistent DynamicItem: it works after a restart)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from engine.house_rules import KNOWN_PRESETS, SWITCHES, VARIANT_OF, HouseRules
from engine.rules import PROFILES
from engine.rulesets import DEFAULT_RULES
from engine.scoring import get_rules
from table import ids

from ..choices import RULE_CHOICES
from ..i18n import item_name, locale_of, t
from .arguments import accepted
from .refusals import MahjongCog

if TYPE_CHECKING:
    from .registry import TableRegistry

UNIT_WORDS = {"tai": "台", "fan": "番", "points": "分", "multiplier": "倍"}
COLOUR = 0xC8202A
# Discord's limits (an embed field, a description, the whole embed, a select option's texts)
FIELD_LIMIT = 1024
DESCRIPTION_LIMIT = 4096
EMBED_LIMIT = 6000
OPTION_TEXT_LIMIT = 100
SELECT_OPTIONS = 25
PAGE_BUDGET = 1500  # characters of item lines on one page: about a phone screen, well within 4096


def _unit(rules: str) -> str:
    table = get_rules(rules)
    return UNIT_WORDS.get(table.unit, table.unit)


def item_lines(rules: str, loc: str | None = None) -> list[str]:
    """``門清 1台`` … every row of the rule set's table at document values (one line each), each name in
    the reader's script (门清 for zh-CN)."""
    unit = _unit(rules)
    document = HouseRules()
    return [f"{item_name(loc, item.name)} {item.value_for(document)}{unit}" for item in get_rules(rules).items]


def meaning_lines(rules: str, loc: str) -> list[str]:
    """``**門清** 1台 — 沒有吃、碰、明槓…`` for every item: its name, document value and meaning."""
    items = get_rules(rules).items
    return [f"**{line.rsplit(' ', 1)[0]}** {line.rsplit(' ', 1)[1]} — {t(loc, f'item.{rules}.{item.name}')}"
            for item, line in zip(items, item_lines(rules, loc), strict=True)]




def house_lines(loc: str) -> list[str]:
    """The presets and every house-rule switch (``heavenly_tai`` 天胡 (16 / 24) — its meaning), the
    document's value first: the label is how players write it, the name what a command takes."""
    presets = [f"**{name}** — {t(loc, f'house.preset.{name}')}" for name in KNOWN_PRESETS]
    switches = []
    for sw in SWITCHES:
        values = "" if isinstance(sw.default, bool) else " (" + " / ".join(map(str, sw.choices)) + ")"
        switches.append(f"`{sw.name}` {sw.label}{values} — {t(loc, f'house.{sw.name}')}")
    return [*presets, *switches]


def _paged(lines: list[str]) -> list[list[str]]:
    """``lines`` in order, on as few pages as ``PAGE_BUDGET`` allows, evened out so that the last
    page is not a stub (each page is cut at the line nearest its share of the characters)."""
    sizes = [len(line) + 1 for line in lines]
    count = -(-sum(sizes) // PAGE_BUDGET)
    while True:
        share = sum(sizes) / count
        pages: list[list[str]] = [[]]
        done = 0
        for line, size in zip(lines, sizes, strict=True):
            if pages[-1] and done + size / 2 > share * len(pages):
                pages.append([])
            pages[-1].append(line)
            done += size
        if all(len("\n".join(page)) <= PAGE_BUDGET for page in pages):
            return pages
        count += 1


def item_pages(rules: str, loc: str) -> list[list[str]]:
    """The meaning lines of the rule set's items, paged (:func:`_paged`)."""
    return _paged(meaning_lines(rules, loc))


def house_pages(rules: str, loc: str) -> list[list[str]]:
    """The house rules' pages: taiwan16's, whose variants they are; none for another rule set."""
    return _paged(house_lines(loc)) if rules == VARIANT_OF else []


def _pages(rules: str, loc: str) -> list[tuple[str, list[str]]]:
    """Every page after the overview with its title key: the items', then the house rules'."""
    return [("help.page_items", p) for p in item_pages(rules, loc)] + [
        ("help.page_house", p) for p in house_pages(rules, loc)
    ]


def help_embed(rules: str, loc: str) -> discord.Embed:
    """Page 0: how to play, the special rules, and the item table at a glance (fields of ≤ 1024)."""
    embed = discord.Embed(title=t(loc, "help.title", rules=t(loc, f"rules.{rules}")), colour=COLOUR)
    embed.add_field(name=t(loc, "help.how"), value=t(loc, "help.how_text"), inline=False)
    embed.add_field(name=t(loc, "help.special_title"), value=t(loc, f"help.special.{rules}"), inline=False)
    lines = item_lines(rules, loc)
    chunks: list[list[str]] = [[]]
    for line in lines:
        if len(" · ".join([*chunks[-1], line])) > FIELD_LIMIT:
            chunks.append([])
        chunks[-1].append(line)
    for i, chunk in enumerate(chunks):
        name = t(loc, "help.items", unit=_unit(rules), n=len(lines)) if i == 0 else "\u200b"
        embed.add_field(name=name, value=" · ".join(chunk), inline=False)
    embed.set_footer(text=t(loc, "help.meanings_hint"))
    return embed


def _page_span(rules: str, loc: str, page: int) -> tuple[int, int]:
    """The lines' numbers (from 1) on page ``page`` (from 1), counted within its kind (the items, or
    the house rules)."""
    pages = _pages(rules, loc)
    key = pages[page - 1][0]
    before = [p for k, p in pages[: page - 1] if k == key]
    first = sum(len(p) for p in before) + 1
    return first, first + len(pages[page - 1][1]) - 1


def _page_title(rules: str, loc: str, page: int) -> str:
    first, last = _page_span(rules, loc, page)
    key = _pages(rules, loc)[page - 1][0]
    return t(loc, key, unit=_unit(rules), first=first, last=last)


def help_pages(rules: str, loc: str) -> list[discord.Embed]:
    """Every page of the help for one rule set: page 0 (help_embed), the items' meanings, then (for
    taiwan16) the house rules' presets and switches with theirs."""
    pages = _pages(rules, loc)
    count = len(pages) + 1
    embeds = [help_embed(rules, loc)]
    first_house = next((n for n, (kind, _lines) in enumerate(pages, start=1) if kind == "help.page_house"), None)
    for n, (_kind, lines) in enumerate(pages, start=1):
        intro = [t(loc, "help.house_intro")] if n == first_house else []  # how a host chooses them
        embed = discord.Embed(
            title=t(loc, "help.title", rules=t(loc, f"rules.{rules}")),
            description=f"### {_page_title(rules, loc, n)}\n" + "\n".join([*intro, *lines]),
            colour=COLOUR,
        )
        embed.set_footer(text=t(loc, "help.page_footer", page=n + 1, pages=count))
        embeds.append(embed)
    embeds[0].set_footer(text=f"{t(loc, 'help.meanings_hint')} · {t(loc, 'help.page_footer', page=1, pages=count)}")
    return embeds


def _line_name(line: str) -> str:
    """What a help line is about: the bold item or preset name, a switch's label, or the line's start."""
    bold = re.match(r"^\*\*(.+?)\*\*", line)
    if bold:
        return bold.group(1)
    switch = re.match(r"^`[^`]+` (\S+)", line)
    return switch.group(1) if switch else line[:20]


def _clip(text: str) -> str:
    return text if len(text) <= OPTION_TEXT_LIMIT else text[: OPTION_TEXT_LIMIT - 1] + "…"


class HelpPageSelect(discord.ui.DynamicItem[discord.ui.Select], template=ids.HelpPage.TEMPLATE):
    """The pages of one rule set's help; the reader's language is read from each click."""

    def __init__(self, select: discord.ui.Select[Any], rules: str) -> None:
        super().__init__(select)
        self.rules = rules

    @classmethod
    def make(cls, rules: str, loc: str, page: int) -> HelpPageSelect:
        pages = _pages(rules, loc)
        options = [discord.SelectOption(label=_clip(t(loc, "help.page_overview")), value="0", default=page == 0)]
        for n, (_kind, lines) in enumerate(pages, start=1):
            names = [_line_name(line) for line in (lines[0], lines[-1])]
            options.append(
                discord.SelectOption(
                    label=_clip(_page_title(rules, loc, n)),
                    description=_clip(f"{names[0]} … {names[1]}"),
                    value=str(n),
                    default=page == n,
                )
            )
        select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
            custom_id=ids.HelpPage(rules).to_custom_id(), placeholder=_clip(t(loc, "help.choose_page")), options=options[:SELECT_OPTIONS]
        )
        return cls(select, rules)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> HelpPageSelect:
        assert isinstance(item, discord.ui.Select)  # the template matches only our select's custom id
        return cls(item, ids.HelpPage.from_match(match).rules)

    async def callback(self, interaction: discord.Interaction) -> None:
        loc = locale_of(interaction.locale)
        if self.rules not in PROFILES:  # a forged or outdated custom id: say so, change nothing
            names = ", ".join(PROFILES)
            await interaction.response.send_message(t(loc, "err.bad_option", name="rules", accepted=names), ephemeral=True)
            return
        values = list(self.item.values)
        embeds = help_pages(self.rules, loc)
        page = int(values[0]) if values and values[0].isdigit() and int(values[0]) < len(embeds) else 0
        await interaction.response.edit_message(embed=embeds[page], view=help_view(self.rules, loc, page))


HELP_ITEMS = (HelpPageSelect,)


def help_view(rules: str, loc: str, page: int = 0) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(HelpPageSelect.make(rules, loc, page))
    return view


class HelpCommands(MahjongCog):
    """/mahjong help, in the rule set of the channel's table if there is one."""

    def __init__(self, registry: TableRegistry) -> None:
        self.registry = registry

    @app_commands.command(
        name=_("help"), description=_("How to play here, this rule set's special rules and its 台/番 items")
    )
    @app_commands.describe(rules=_("Rule set (default: this channel's table, else Taiwanese 16-tile)"))
    @app_commands.choices(rules=RULE_CHOICES)
    async def help(self, interaction: discord.Interaction, rules: str | None = None) -> None:
        if rules is None:
            runner = self.registry.in_channel(interaction.channel_id or 0)
            rules = runner.state.settings.rules if runner is not None else DEFAULT_RULES
        accepted("rules", rules, list(PROFILES))
        loc = locale_of(interaction.locale)
        embed = help_pages(rules, loc)[0]
        await interaction.response.send_message(embed=embed, view=help_view(rules, loc), ephemeral=True)
