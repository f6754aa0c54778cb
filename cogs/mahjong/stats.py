"""Leaderboard, player stats and match history as embeds: formatting only (no SQL, no I/O).

The cog fetches records from ``data.Store`` and passes them here with ``t(key, **kw) -> str``, e.g.
``functools.partial(cogs.i18n.t, interaction.locale)``; the strings (keys ``lb.*``, ``stats.*``,
``hist.*``) live in the one catalogue, ``cogs/i18n.py``.
Built for a phone: one short block per player, each line well under 40 columns of CJK text, and
pages of ten.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import discord

from data.records import LeaderRow, MatchSummary, PlayerStats
from engine.scoring import get_rules

from .markdown import shown_name

Translate = Callable[..., str]

COLOUR = discord.Colour.from_rgb(0x1F, 0x7A, 0x4D)  # felt green
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
PAGE_SIZE = 10  # players per leaderboard page: 3 short lines each


def pages_for(count: int, size: int = PAGE_SIZE) -> int:
    """How many pages ``count`` players take (at least one, so an empty board still has page 1/1)."""
    return max(1, -(-count // size))


_name = shown_name


def _percent(rate: float) -> str:
    return f"{rate:.0%}"


def _best(row: LeaderRow, t: Translate) -> str:
    """The biggest hand in its own unit: 台 in taiwan16/13, 番 in hongkong, × in guangdong."""
    if row.best_tai is None:
        return t("lb.none")
    try:
        unit = get_rules(row.best_rules or "taiwan16").unit
    except (KeyError, ValueError):
        unit = "tai"
    return t("lb.best", n=row.best_tai, unit=t(f"unit.{unit}"))


def rules_label(rules: str, t: Translate) -> str:
    """A rule set's display name (the id itself for one this catalogue does not know)."""
    try:
        return t(f"rules.{rules}")
    except KeyError:
        return rules


def leaderboard_embed(
    rows: Sequence[LeaderRow], *, page: int, pages: int, rules: str | None, period: str | None, t: Translate
) -> discord.Embed:
    """One page of the leaderboard. ``rules``/``period`` are labels the caller has localised (None: all)."""
    embed = discord.Embed(
        title=t("lb.title"),
        colour=COLOUR,
        description=None,
    )
    filters = t("lb.filters", rules=rules or t("lb.all_rules"), period=period or t("lb.all_time"))
    blocks = []
    for row in rows:
        rank = MEDALS.get(row.rank, f"{row.rank}.")
        blocks.append(
            "\n".join(
                (
                    t("lb.player", rank=rank, name=_name(row.name), points=f"{row.points:+,}"),
                    t(
                        "lb.rates",
                        win=_percent(row.win_rate),
                        self_draw=_percent(row.self_draw_rate),
                        deal_in=_percent(row.deal_in_rate),
                    ),
                    t("lb.counts", matches=row.matches, hands=row.hands, best=_best(row, t)),
                )
            )
        )
    body = "\n\n".join(blocks) if blocks else t("lb.empty")
    embed.description = f"*{filters}*\n\n{body}"
    embed.set_footer(text=t("lb.page", page=page, pages=pages))
    return embed


def stats_embed(stats: PlayerStats | None, member_name: str, t: Translate) -> discord.Embed:
    """A player's numbers in this server, as inline fields (two or three to a row on a phone)."""
    name = _name(member_name)
    embed = discord.Embed(title=t("stats.title", name=name), colour=COLOUR)
    if stats is None:
        embed.description = t("stats.none", name=name)
        return embed
    for key, value in (
        ("stats.rank", t("stats.rank_value", rank=stats.rank, players=stats.players)),
        ("stats.points", f"{stats.points:+,}"),
        ("stats.matches", str(stats.matches)),
        ("stats.hands", str(stats.hands)),
        ("stats.win_rate", _percent(stats.win_rate)),
        ("stats.self_draw_rate", _percent(stats.self_draw_rate)),
        ("stats.deal_in_rate", _percent(stats.deal_in_rate)),
        ("stats.best", _best(stats, t)),
    ):
        embed.add_field(name=t(key), value=value, inline=True)
    return embed


def history_embed(matches: Sequence[MatchSummary], t: Translate) -> discord.Embed:
    """Recent finished matches, a field each: rules, hands, when, and the standings best first."""
    embed = discord.Embed(title=t("hist.title"), colour=COLOUR)
    if not matches:
        embed.description = t("hist.empty")
        return embed
    for match in matches[:25]:  # Discord's limit on fields
        lines = []
        for place, (name, user_id, score) in enumerate(match.standings, start=1):
            tag = f" {t('hist.ai')}" if user_id is None else ""
            medal = MEDALS.get(place, f"{place}.")
            lines.append(f"{medal} {_name(name)}{tag} · {score:,}")
        lines.append(t("hist.when", when=f"<t:{int(match.finished_at)}:R>"))
        embed.add_field(
            name=t("hist.match", table=match.table_id, rules=rules_label(match.rules, t), hands=match.hands),
            value="\n".join(lines),
            inline=False,
        )
    return embed
