"""The channel's posts made from a table's effects alone: the seat draw (``MatchStarted``) and the
standings (``MatchOver``). Each is built from the effect's own fields, never from the session.
"""

from __future__ import annotations

import asyncio
from functools import partial

import discord

from render.summary import render_summary
from table import effects as fx

from ..i18n import t
from . import texts
from .live import Payload
from .markdown import shown_names
from .stats import add_ledger


def seat_draw_text(started: fx.MatchStarted, locale: str) -> str:
    """The match's first message: 抓位 (each person with their wind in the first hand, from the dealer
    round the table, the dealer marked), who deals first (the dice, or taiwan13's host), and the
    commitment to the deals (engine.fairness) that the key revealed at the end must match."""
    draw = started.draw
    names = shown_names(list(draw.names))
    order = sorted(range(len(names)), key=draw.wind)
    lines = "\n".join(
        t(
            locale,
            "play.seat_line",
            wind=t(locale, f"wind.{draw.wind(seat)}") + (" " + t(locale, "play.dealer_tag") if seat == draw.dealer else ""),
            name=names[seat],
        )
        for seat in order
    )
    dealer = names[draw.dealer]
    if draw.dice is None:
        first = t(locale, "play.host_deals", name=dealer)
    else:
        first = t(locale, "play.dice", dice=" ".join(map(str, draw.dice)), total=sum(draw.dice), name=dealer)
    out = [t(locale, "play.seat_draw", lines=lines), first]
    if started.commitment is not None:
        out.append(t(locale, "play.commitment", hash=started.commitment))
    return "\n".join(out)


async def standings_payload(over: fx.MatchOver, table_id: int, locale: str, buttons: discord.ui.View) -> Payload:
    """The standings with the summary picture and the revealed key, under ``buttons`` (Review my play,
    and Rematch where ``over.rematch``)."""
    names = shown_names(list(over.names))
    lines = [
        t(locale, "play.standing_line", rank=rank, name=names[seat], score=score)
        for rank, (seat, score) in enumerate(over.standings, start=1)
    ]
    embed = discord.Embed(title=t(locale, "play.match_over"), description="\n".join(lines))
    add_ledger(embed, names, over.scores, over.settings, partial(t, locale))
    if over.key is not None:  # the deals' key, now the match is over: anyone can verify every wall
        embed.add_field(name=t(locale, "play.key_title"), value=texts.key_text(over.key, table_id, locale), inline=False)
    png = await asyncio.to_thread(render_summary, over.summary, names, over.hands, over.unit, locale)
    embed.set_image(url="attachment://summary.png")
    return Payload(content="", png=png, filename="summary.png", embeds=[embed], view=buttons)
