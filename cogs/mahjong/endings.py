"""What a table posts when a hand or its match ends: the score sheet with its Replay button, and the
standings with Review my play and Rematch; each waits for the hand's last edits to land first."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import render
from table import effects as fx
from table.screens import TABLE

from . import texts
from .announce import standings_payload
from .live import Payload
from .payloads import result_text
from .rematch import rematch_view
from .replay import replay_view
from .review import standings_view


class EndingHost(Protocol):
    """What the endings need of their table's host (the runner)."""

    cog: Any  # the cog: painter, offer_rematch, table_finished
    state: Any  # the table's TableState: its locale and theme
    session: Any  # the table's TableSession: its table_id and screen(TABLE)
    channel: Any  # the channel outlet (channel.py): post_payload, its table message
    hands: Any  # the hand messages (dms.py): their live slots
    journal: Any  # the stores (journal.py): flushed and closed before the table is forgotten

    def close_hand_messages(self, *, abort: bool = False) -> None: ...


def score_job(runner: EndingHost, score: fx.ShowScore) -> Callable[[], Awaitable[None]]:
    """The score sheet, from the moment the hand was settled (read now, drawn and posted later)."""
    number, result, locale = score.number, score.result, runner.state.locale
    theme = runner.state.settings.theme  # the channel's pictures are in the table's theme
    text = result_text(runner.session.screen(TABLE), result, number, locale)
    house = texts.house_rules_text(score.house_rules, locale)

    async def show() -> None:
        png = await runner.cog.painter.draw(
            render.render_score,
            result,
            list(score.names),
            score.table,
            house_rules=house,
            locale=locale,
            theme=theme,
        )
        buttons = replay_view(runner.session.table_id, number, locale)  # issue 24: a Replay button
        await runner.channel.post_payload(Payload(content=text, png=png, filename="score.png", view=buttons))
        await settle_messages(runner)

    return show


async def finish_match(runner: EndingHost, over: fx.MatchOver) -> None:
    """The standings with the summary picture and the revealed key, Review my play and Rematch; then
    the table is forgotten."""
    table_id, locale = runner.session.table_id, runner.state.locale
    buttons = standings_view(table_id, locale)  # Review my play (issue 26)
    if over.rematch:  # and Rematch: a new table with the same seats
        for item in rematch_view(table_id, locale).children:
            buttons.add_item(item)
    payload = await standings_payload(over, table_id, locale, buttons)
    runner.cog.offer_rematch(runner)  # before the button can be clicked
    await (
        runner.journal.flush()
    )  # the match is stored before anyone is told it is over (a /leaderboard at once shows it)
    await runner.channel.post_payload(payload)
    await settle_messages(runner)
    runner.close_hand_messages()
    # stored before the table is forgotten (and before a shutdown closes storage)
    await runner.journal.close()
    runner.cog.table_finished(runner)


async def settle_messages(runner: EndingHost) -> None:
    """Let the last edits of a finished hand land before its messages are dropped: the next deal waits
    for them, so they go ahead of the other tables' pictures (LiveMessage.hurry)."""
    lives = runner.hands.lives()
    if runner.channel.table is not None:
        lives.append(runner.channel.table)
    pending = []
    for live in lives:
        if (task := live.pending()) is not None:
            live.hurry()
            pending.append(task)
    if pending:
        await asyncio.wait(pending, timeout=10)
