"""Leaderboards (points, the rated ladder), player stats, the server view, the settlement ledger and
match history as embeds: formatting only (no SQL, no I/O).

The cog fetches records from ``data.Store`` and passes them here with ``t(key, **kw) -> str``, e.g.
``functools.partial(cogs.i18n.t, interaction.locale)``; the strings (keys ``lb.*``, ``stats.*``,
``hist.*``, ``tier.*``, ``ledger.*``, ``server.*``) live in the one catalogue, ``cogs/i18n.py``.
Built for a phone: one short block per player, each line well under 40 columns of CJK text, and
pages of ten.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import discord

from data.records import (
    LeaderRow,
    MatchStandings,
    MatchSummary,
    PlayerFigures,
    RatingRow,
    ServerFigures,
)
from engine.rulesets import DEFAULT_RULES
from engine.scoring import get_rules
from ranking.ledger import settle
from ranking.rating import PROVISIONAL_MATCHES
from ranking.tiers import tier

from ..i18n import item_name
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


def doc_word(name: str, t: Translate) -> str:
    """A scoring item as the rule document names it, in the script of the reader ``t`` writes for (a
    ``partial(i18n.t, locale)``): 莊家 to zh-TW, 庄家 to zh-CN, as written in English (issue 37)."""
    locale = t.args[0] if isinstance(t, partial) and t.args else None
    return item_name(locale, name)


def unit_label(rules: str | None, t: Translate) -> str:
    """A rule set's unit as players write it: 台 in taiwan16/13, 番 in hongkong, × in guangdong."""
    try:
        unit = get_rules(rules or DEFAULT_RULES).unit
    except (KeyError, ValueError):
        unit = "tai"
    return t(f"unit.{unit}")


def _best(row: LeaderRow, t: Translate) -> str:
    """The biggest hand in its own unit."""
    if row.best_tai is None:
        return t("lb.none")
    return t("lb.best", n=row.best_tai, unit=unit_label(row.best_rules, t))


def tier_label(rating: int | None, matches: int, t: Translate) -> str:
    """The named rank of a rating; provisional for the first rated matches, unrated before any."""
    if rating is None or matches == 0:
        return t("tier.unrated")
    if matches < PROVISIONAL_MATCHES:
        return t("tier.provisional", n=matches, of=PROVISIONAL_MATCHES)
    return t(f"tier.{tier(rating)}")


def _place(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def rules_label(rules: str, t: Translate) -> str:
    """A rule set's display name (the id itself for one this catalogue does not know)."""
    try:
        return t(f"rules.{rules}")
    except KeyError:
        return rules


def leader_lines(row: LeaderRow, t: Translate) -> tuple[str, tuple[str, str], str]:
    """One player's figures as the leaderboard writes them (the embed, and the web board, web/board.py):
    their points, (the tier after them or "", the rates line), the counts line."""
    tier_text = "" if row.rating is None else " · " + t("lb.tier", tier=tier_label(row.rating, row.rated_matches, t), rating=row.rating)
    rates = t("lb.rates", win=_percent(row.win_rate), self_draw=_percent(row.self_draw_rate), deal_in=_percent(row.deal_in_rate))
    counts = t("lb.counts", matches=row.matches, hands=row.hands, best=_best(row, t))
    return f"{row.points:+,}", (tier_text, rates), counts


def leaderboard_embed(
    rows: Sequence[LeaderRow],
    *,
    page: int,
    pages: int,
    rules: str | None,
    period: str | None,
    t: Translate,
    min_matches: int = 0,
) -> discord.Embed:
    """One page of the leaderboard. ``rules``/``period`` are labels the caller has localised (None: all)."""
    embed = discord.Embed(
        title=t("lb.title"),
        colour=COLOUR,
        description=None,
    )
    filters = t("lb.filters", rules=rules or t("lb.all_rules"), period=period or t("lb.all_time"))
    if min_matches > 1:
        filters += " · " + t("lb.min", n=min_matches)
    blocks = []
    for row in rows:
        points, rates, counts = leader_lines(row, t)
        rank = MEDALS.get(row.rank, f"{row.rank}.")
        blocks.append("\n".join((t("lb.player", rank=rank, name=_name(row.name), points=points) + rates[0], rates[1], counts)))
    body = "\n\n".join(blocks) if blocks else t("lb.empty")
    embed.description = f"*{filters}*\n\n{body}"
    embed.set_footer(text=t("lb.page", page=page, pages=pages))
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
            shown = _name(name) if user_id is not None else t("lobby.ai_seat", name=_name(name))  # 🤖 AI 2
            medal = MEDALS.get(place, f"{place}.")
            lines.append(f"{medal} {shown} · {score:,}")
        lines.append(t("hist.when", when=f"<t:{int(match.finished_at)}:R>"))
        embed.add_field(
            name=t("hist.match", table=match.table_id, rules=rules_label(match.rules, t), hands=match.hands),
            value="\n".join(lines),
            inline=False,
        )
    return embed


def rating_board_embed(
    rows: Sequence[RatingRow], *, page: int, pages: int, rules: str, min_matches: int, t: Translate
) -> discord.Embed:
    """One page of the rated ladder of one rule set: rating, tier, rated matches, average place."""
    embed = discord.Embed(title=t("lb.rating_title"), colour=COLOUR)
    filters = rules_label(rules, t) + (" · " + t("lb.min", n=min_matches) if min_matches > 1 else "")
    blocks = [
        "\n".join(
            (
                t(
                    "lb.rating_player",
                    rank=MEDALS.get(row.rank, f"{row.rank}."),
                    name=_name(row.name),
                    rating=row.rating,
                    tier=tier_label(row.rating, row.matches, t),
                ),
                t("lb.rating_line", matches=row.matches, place=_place(row.average_place)),
            )
        )
        for row in rows
    ]
    body = "\n\n".join(blocks) if blocks else t("lb.rating_empty", n=max(1, min_matches))
    embed.description = f"*{filters}*\n\n{body}"
    embed.set_footer(text=t("lb.page", page=page, pages=pages))
    return embed


def figures_embed(figures: PlayerFigures, member_name: str, t: Translate) -> discord.Embed:
    """A person's numbers of one rule set, as inline fields (two or three to a row on a phone)."""
    name = _name(member_name)
    embed = discord.Embed(
        title=t("stats.title", name=name), description=rules_label(figures.rules, t), colour=COLOUR
    )
    unit = unit_label(figures.rules, t)
    rating = t("tier.unrated")
    if figures.rating is not None:
        rating = t(
            "stats.rating_value",
            rating=figures.rating,
            tier=tier_label(figures.rating, figures.rated_matches, t),
        )
        if figures.rank is not None:
            rating += "\n" + t("stats.rating_rank", rank=figures.rank, players=figures.players)
    best = t("lb.none") if figures.best_tai is None else f"{figures.best_tai} {unit} (#{figures.best_hand})"
    items = "\n".join(f"{doc_word(item, t)} ×{n}" for item, n in figures.top_items) or t("lb.none")
    for key, value, inline in (
        ("stats.rating", rating, True),
        ("stats.points", f"{figures.points:+,}", True),
        ("stats.matches", t("stats.matches_value", matches=figures.matches, hands=figures.hands), True),
        ("stats.places", " / ".join(str(n) for n in figures.places), True),
        ("stats.avg_place", _place(figures.average_place), True),
        ("stats.win_rate", _percent(figures.win_rate), True),
        ("stats.self_draw_rate", _percent(figures.self_draw_rate), True),
        ("stats.deal_in_rate", _percent(figures.deal_in_rate), True),
        ("stats.call_rate", _percent(figures.call_rate), True),
        ("stats.avg_tai", f"{figures.average_tai:.1f} {unit}", True),
        ("stats.best", best, True),
        ("stats.streak", t("stats.streak_value", n=figures.longest_streak), True),
        ("stats.top_items", items, False),
    ):
        embed.add_field(name=t(key), value=value, inline=inline)
    if figures.other_rules:
        embed.set_footer(text=t("stats.also", rules=", ".join(rules_label(r, t) for r in figures.other_rules)))
    return embed


def server_embed(figures: ServerFigures, t: Translate) -> discord.Embed:
    """A server's most-made items, rarest items and biggest hands of one rule set."""
    embed = discord.Embed(title=t("server.title", rules=rules_label(figures.rules, t)), colour=COLOUR)
    if not figures.wins:
        embed.description = t("server.empty")
        return embed
    embed.description = t("server.counts", hands=figures.hands, wins=figures.wins)
    unit = unit_label(figures.rules, t)
    embed.add_field(
        name=t("server.most"),
        value="\n".join(t("server.item", item=doc_word(c.item, t), n=c.hands) for c in figures.most_made)
        or t("lb.none"),
        inline=True,
    )
    embed.add_field(
        name=t("server.rarest"),
        value="\n".join(
            t("server.rare", item=doc_word(c.item, t), n=c.hands, name=_name(c.last_name), hand=c.last_hand)
            for c in figures.rarest
        )
        or t("lb.none"),
        inline=False,
    )
    embed.add_field(
        name=t("server.biggest"),
        value="\n".join(
            t("server.big", n=b.total, unit=unit, name=_name(b.name), hand=b.hand_id) for b in figures.biggest
        ),
        inline=False,
    )
    return embed


def ledger_lines(names: Sequence[str], scores: Sequence[int], t: Translate) -> list[str]:
    """Who pays whom, fewest transfers first computed by ``ranking.ledger.settle``."""
    lines = []
    for transfer in settle(list(scores)):
        if transfer.payee is None:
            assert transfer.payer is not None
            lines.append(t("ledger.to_table", payer=_name(names[transfer.payer]), amount=f"{transfer.amount:,}"))
        elif transfer.payer is None:
            lines.append(t("ledger.from_table", payee=_name(names[transfer.payee]), amount=f"{transfer.amount:,}"))
        else:
            lines.append(
                t(
                    "ledger.line",
                    payer=_name(names[transfer.payer]),
                    payee=_name(names[transfer.payee]),
                    amount=f"{transfer.amount:,}",
                )
            )
    return lines or [t("ledger.even")]


def stakes_label(rules: str, options: dict, t: Translate) -> str:
    """The rule set with the table's 底/台 where its points are paid in 台."""
    label = rules_label(rules, t)
    if unit_label(rules, t) != t("unit.tai") or "base" not in options:
        return label
    return t("ledger.stakes", rules=label, base=options.get("base", 0), tai=options.get("tai", 0))


def add_ledger(
    embed: discord.Embed, names: Sequence[str], scores: Sequence[int], settings: Any, t: Translate
) -> None:
    """The end-of-match standings get their ledger: who pays whom at the table's 底/台."""
    options = settings.options
    embed.add_field(
        name="💰 " + stakes_label(settings.rules, {"base": options.base, "tai": options.tai}, t),
        value="\n".join(ledger_lines(names, scores, t)),
        inline=False,
    )


def ledger_embed(standings: MatchStandings, t: Translate) -> discord.Embed:
    """/mahjong ledger: the fewest transfers that settle a finished match, and what it did to ratings."""
    embed = discord.Embed(
        title=t("ledger.title", table=standings.table_id),
        description=stakes_label(standings.rules, standings.options, t),
        colour=COLOUR,
    )
    names = standings.names
    order = sorted(range(len(names)), key=lambda s: (standings.places[s] or 9, s))
    embed.add_field(
        name=t("play.match_over"),
        value="\n".join(
            f"{MEDALS.get(standings.places[s] or 0, f'{standings.places[s]}.')} {_name(names[s])} · {standings.scores[s]:,}"
            for s in order
        ),
        inline=False,
    )
    embed.add_field(name=t("ledger.pays"), value="\n".join(ledger_lines(names, standings.scores, t)), inline=False)
    if standings.rating_changes:
        embed.add_field(
            name=t("ledger.ratings"),
            value="\n".join(
                t("ledger.rating", name=_name(names[seat]), before=before, after=after)
                for seat, before, after in standings.rating_changes
            ),
            inline=False,
        )
    return embed
