"""/mahjong leaderboard, stats, ledger and server: the numbers a server's players compare.

A cog of its own beside the table commands (its commands join the /mahjong group: __init__.py). Each
one reads records from ``data.Store`` and hands them to ``stats`` (embeds) or ``render.profile`` (the
card); no SQL and no rule here.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from data.records import PlayerFigures
from engine.rules import PROFILES
from engine.rulesets import DEFAULT_RULES
from ranking.rating import PROVISIONAL_MATCHES
from render.profile import ProfileCard, render_profile
from table.lobby import TableError

from ..choices import RULE_CHOICES
from ..i18n import t
from . import stats
from .answers import respond
from .arguments import accepted
from .live import Payload
from .refusals import MahjongCog
from .webpages import web_board_link

if TYPE_CHECKING:
    from data import Store

PERIODS = {"today": 86_400, "week": 7 * 86_400, "month": 30 * 86_400}
PERIOD_CHOICES = [app_commands.Choice(name=_(t("en", f"period.{p}")), value=p) for p in ("all", *PERIODS)]
SORT_CHOICES = [app_commands.Choice(name=_("Rated"), value="rating"), app_commands.Choice(name=_("Points"), value="points")]
# the rated ladder shows established players unless asked otherwise; the points board shows everyone
DEFAULT_MIN_MATCHES = {"rating": PROVISIONAL_MATCHES, "points": 1}


class RankedCommands(MahjongCog):
    """/mahjong leaderboard, stats, ledger and server, read from the store."""


    def __init__(self, store: Store) -> None:
        self.store = store

    @app_commands.command(name=_("leaderboard"), description=_("This server's players by rating or points"))
    @app_commands.describe(
        sort=_("Sort by rating (rated) or points (all)"),
        rules=_("Rule set"),
        period=_("Time period"),
        min_matches=_("Fewest matches to appear"),
        page=_("Page"),
    )
    @app_commands.choices(sort=SORT_CHOICES, rules=RULE_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        sort: str = "points",
        rules: str | None = None,
        period: str = "all",
        min_matches: app_commands.Range[int, 0, 10_000] | None = None,
        page: app_commands.Range[int, 1, 1000] = 1,
    ) -> None:
        assert interaction.guild_id is not None
        accepted("sort", sort, [choice.value for choice in SORT_CHOICES])
        if rules is not None:
            accepted("rules", rules, list(PROFILES))
        accepted("period", period, ["all", *PERIODS])
        accepted("page", page, range(1, 1001))
        if min_matches is not None:
            accepted("min_matches", min_matches, range(0, 10_001))
        tr = partial(t, interaction.locale)
        minimum = DEFAULT_MIN_MATCHES.get(sort, 1) if min_matches is None else min_matches
        guild_id = interaction.guild_id

        async def build() -> Payload:  # queries: within Discord's 3 s, or after a deferral (answers.py)
            shown = await self._board(guild_id, sort, rules, period, minimum, page, tr)
            link = await web_board_link(interaction.client, self.store, guild_id)
            return replace(shown, content=tr("web.board_link", link=link)) if link else shown

        await respond(interaction, build, update=False, ephemeral=False)

    async def _board(
        self, guild_id: int, sort: str, rules: str | None, period: str, minimum: int, page: int, tr: stats.Translate
    ) -> Payload:
        """The leaderboard's page: by rating (per rule set) or by points."""
        if sort == "rating":  # ratings are per rule set: the one asked for, or the server's most rated
            rated = await self.store.rated_rules(guild_id)
            board_rules = rules or (rated[0] if rated else DEFAULT_RULES)
            count = await self.store.rating_board_count(guild_id, board_rules, min_matches=minimum)
            pages = stats.pages_for(count)
            page = min(page, pages)
            rows = await self.store.rating_board(
                guild_id,
                board_rules,
                limit=stats.PAGE_SIZE,
                offset=(page - 1) * stats.PAGE_SIZE,
                min_matches=minimum,
            )
            embed = stats.rating_board_embed(
                rows, page=page, pages=pages, rules=board_rules, min_matches=minimum, t=tr
            )
            return Payload(embeds=[embed])
        since = None if period == "all" else time.time() - PERIODS[period]
        board, count, page = await self.store.leaderboard_page(
            guild_id, rules=rules, since=since, page=page, size=stats.PAGE_SIZE, min_matches=minimum
        )
        pages = stats.pages_for(count)
        embed = stats.leaderboard_embed(
            board,
            page=page,
            pages=pages,
            rules=stats.rules_label(rules, tr) if rules else None,
            period=None if period == "all" else tr(f"period.{period}"),
            t=tr,
            min_matches=minimum,
        )
        return Payload(embeds=[embed])

    @app_commands.command(name=_("stats"), description=_("A player's numbers in this server"))
    @app_commands.describe(
        member=_("Whose numbers (default: yours)"), rules=_("Rule set (default: the one they played most)")
    )
    @app_commands.choices(rules=RULE_CHOICES)
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | None = None, rules: str | None = None
    ) -> None:
        assert interaction.guild_id is not None
        if rules is not None:
            accepted("rules", rules, list(PROFILES))
        tr = partial(t, interaction.locale)
        who = member or interaction.user
        guild_id = interaction.guild_id

        async def build() -> Payload:  # queries and a picture: within 3 s, or after a deferral (answers.py)
            figures = await self.store.player_figures(guild_id, who.id, rules=rules)
            if figures is None:
                key = "stats.no_rules" if rules else "stats.none"
                name = discord.utils.escape_markdown(who.display_name)
                embed = discord.Embed(
                    title=tr("stats.title", name=name),
                    description=tr(key, name=name, rules=stats.rules_label(rules or "", tr)),
                    colour=stats.COLOUR,
                )
                return Payload(embeds=[embed])
            embed = stats.figures_embed(figures, who.display_name, tr)
            png = await asyncio.to_thread(render_profile, profile_card(figures, who.display_name, tr))
            embed.set_image(url="attachment://profile.png")
            return Payload(embeds=[embed], png=png, filename="profile.png")

        await respond(interaction, build, update=False, ephemeral=False)

    @app_commands.command(name=_("ledger"), description=_("Who pays whom for a finished match"))
    @app_commands.describe(match=_("The match's table number (see /mahjong history)"))
    async def ledger(self, interaction: discord.Interaction, match: app_commands.Range[int, 1]) -> None:
        assert interaction.guild_id is not None
        accepted("match", match, range(1, 2**63))
        standings = await self.store.match_standings(interaction.guild_id, match)
        if standings is None:
            raise TableError("err.no_match")
        await interaction.response.send_message(embed=stats.ledger_embed(standings, partial(t, interaction.locale)))

    @app_commands.command(name=_("server"), description=_("This server's most-made items, rarest and biggest hands"))
    @app_commands.describe(rules=_("Rule set"))
    @app_commands.choices(rules=RULE_CHOICES)
    async def server(self, interaction: discord.Interaction, rules: str = DEFAULT_RULES) -> None:
        assert interaction.guild_id is not None
        accepted("rules", rules, list(PROFILES))
        figures = await self.store.server_figures(interaction.guild_id, rules)
        await interaction.response.send_message(embed=stats.server_embed(figures, partial(t, interaction.locale)))


def profile_card(figures: PlayerFigures, name: str, tr: stats.Translate) -> ProfileCard:
    """The profile card's labels in the reader's language."""
    unit = stats.unit_label(figures.rules, tr)
    best = tr("lb.none") if figures.best_tai is None else f"{figures.best_tai} {unit} (#{figures.best_hand})"
    place = "—" if figures.average_place is None else f"{figures.average_place:.2f}"
    return ProfileCard(
        name=name,
        subtitle=stats.rules_label(figures.rules, tr),
        rating="—" if figures.rating is None else str(figures.rating),
        tier=stats.tier_label(figures.rating, figures.rated_matches, tr),
        places=figures.places,
        place_labels=_place_labels(tr),
        average_place=f"{tr('stats.avg_place')} {place}",
        stats=(
            (tr("stats.win_rate"), f"{figures.win_rate:.0%}"),
            (tr("stats.self_draw_rate"), f"{figures.self_draw_rate:.0%}"),
            (tr("stats.deal_in_rate"), f"{figures.deal_in_rate:.0%}"),
            (tr("stats.call_rate"), f"{figures.call_rate:.0%}"),
            (tr("stats.avg_tai"), f"{figures.average_tai:.1f} {unit}"),
            (tr("stats.best"), best),
            (tr("stats.streak"), tr("stats.streak_value", n=figures.longest_streak)),
            (tr("stats.matches"), tr("stats.matches_value", matches=figures.matches, hands=figures.hands)),
            (tr("stats.points"), f"{figures.points:+,}"),
            (tr("stats.rank"), "—" if figures.rank is None else f"#{figures.rank}/{figures.players}"),
        ),
        items_title=tr("stats.top_items"),
        items=tuple((stats.doc_word(item, tr), n) for item, n in figures.top_items),
    )


def _place_labels(tr: stats.Translate) -> tuple[str, str, str, str]:
    first, second, third, fourth = tr("stats.place_labels").split(",")
    return first, second, third, fourth
