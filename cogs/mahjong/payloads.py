"""What each message of a table at play shows, built from the table's screens (table/screens.py): the
channel's table picture and line, a person's hand with their buttons, a hand's result text. Reading only;
the host decides when, and asks the session for the screen as it builds.

A screen is a value taken before the builder's first ``await`` (the render runs in a thread), so a move made
while a picture is drawn cannot put a newer caption over an older picture.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

import render
from engine.view import HandResult
from table.lobby import DEFAULT_THEME
from table.screens import HandScreen, Kind, ReadyDiscard, Showing, TableScreen

from ..i18n import t
from . import texts
from .feed import FeedMarks, exchange_text, feed_text
from .live import Payload
from .markdown import shown_names
from .payments import payment_lines
from .pictures import THREADS, Painter
from .prompts import (
    action_view,
    add_eye_button,
    add_toggle_buttons,
    deadline_text,
    exchange_view,
    table_view,
    take_back_view,
    toggles_line,
)
from .standing import marked_tiles, standing_lines


def text_names(names: Sequence[str]) -> list[str]:
    """Seat names escaped for message text: a name never pings nor turns into markup."""
    return shown_names(list(names))


def note_lines(screen: TableScreen, locale: str) -> list[str]:
    names = text_names(screen.names)
    return [t(locale, note.key, name=names[note.seat], what=note.detail) for note in screen.notes]


def table_text(screen: TableScreen, locale: str) -> str:
    view = screen.view
    assert view is not None
    if screen.over:
        return t(locale, "play.table_over", n=view.hand_number)
    deadline = deadline_text(locale, screen.deadline)
    return texts.table_text(view, text_names(screen.names), locale, deadline, note_lines(screen, locale))


async def table_payload(screen: TableScreen, locale: str, painter: Painter = THREADS) -> Payload:
    """The channel's table: the public picture, the status line, and its buttons while it plays. Once the
    hand is settled the picture is of the settled hand (its result: scores after its payments, the winner
    and the winning tile, every hand face up as the public view of a hand over has them), which is what
    the score sheet below it says; while the hand is played it has no result to show."""
    view = screen.view
    assert view is not None
    content = table_text(screen, locale)
    buttons = None if screen.over else table_view(screen.table_id, locale)
    png = await painter.draw(
        render.render_table, view, list(screen.names), locale=locale, result=screen.result, theme=screen.theme
    )
    return Payload(content=content, png=png, filename="table.png", view=buttons)


async def dm_payload(
    screen: HandScreen, marks: FeedMarks, mode: str = "main", painter: Painter = THREADS, theme: str = DEFAULT_THEME
) -> Payload:
    """A person's hand: their picture, one line saying what to do, and their buttons. Which of these the seat
    sees (match over, hand over, 代打, 換牌, a prompt, waiting) is the screen's (table/screens.py)."""
    seat, view, loc, showing = screen.seat, screen.view, screen.locale, screen.showing
    table_id, channel, hand = screen.table_id, screen.channel_id, screen.hand_number
    names = text_names(screen.names)
    header = t(loc, "play.dm_hand", n=hand, rules=t(loc, f"rules.{screen.rules}"), channel=channel)
    buttons: discord.ui.View | None = None
    discard_hints: tuple[ReadyDiscard, ...] = screen.ready_discards
    deadline = deadline_text(loc, screen.deadline, screen.base_seconds, screen.bank_left)
    over = screen.hand_over
    moment = texts.win_moment(screen.result, names, loc) if over else ""
    if screen.take_back:
        buttons = take_back_view(table_id, loc)
    if showing is Showing.MATCH_OVER:
        line = t(loc, "play.dm_match_over", channel=channel)
    elif showing is Showing.HAND_OVER:
        line = t(loc, "play.dm_over", channel=channel)
    elif showing is Showing.AUTO:
        line = t(loc, "play.dm_auto")
    elif showing is Showing.EXCHANGE:
        line = t(loc, "play.dm_exchange", deadline=deadline)
        buttons = exchange_view(table=table_id, hand=hand, move=screen.decision, view=view, locale=loc)
    elif showing is Showing.WAIT:
        line = t(loc, "play.dm_wait")
    else:
        prompt = screen.prompt
        assert prompt is not None
        start = marks.start(seat, hand, screen.decision, screen.event_count)
        feed = feed_text(screen.moves, start, names, loc)
        line = texts.prompt_line(prompt, names, loc, deadline, mode, unit=screen.unit)
        if feed:  # what the others did since this person's previous prompt
            line = f"{feed}\n{line}"
        buttons = action_view(
            table=table_id,
            hand=hand,
            move=screen.decision,
            prompt=prompt,
            view=view,
            locale=loc,
            mode=mode,
            marked=marked_tiles(discard_hints),
        )
    exchanged = exchange_text(screen.exchanged, loc) if not over else ""
    if exchanged:  # 換牌: the tiles that came back, until this person's first move after it
        line = f"{exchanged}\n{line}"
    if over:  # the moves since this person's last prompt, up to the end: what led to the 胡
        start = marks.start(seat, hand, screen.decision, screen.event_count)
        feed = feed_text(screen.moves, start, names, loc)
        if feed:
            line = f"{feed}\n{line}"
    if moment:  # 胡! with the tile, who dealt it in and the value, even where the table won for this player
        line = f"{moment}\n{line}"
    if showing.playing:  # where you stand (standing.py): waits, the discards that keep you ready, 過水
        line = "\n".join([line, *standing_lines(view, discard_hints, loc, hints=screen.hints)])
    if screen.declarations:
        buttons = add_eye_button(buttons, table_id, screen.declarations[0].kind is Kind.MIJI, loc)
    if showing.playing and showing is not Showing.AUTO:  # the auto toggles, shown and switched here (issue 39)
        toggles = toggles_line(screen.toggles, loc)
        if toggles:
            line += "\n" + toggles
        buttons = add_toggle_buttons(buttons, table_id, screen.toggles, loc)
    if view.others:  # 眼牌: the declarer sees the other hands (in the image too; the text names them)
        line += "\n" + texts.others_text(view, names, loc)
    # last: the words above are of this view; the picture (the table from this seat) in the reader's language
    png = await painter.draw(render.render_dm, screen, theme=theme)  # the reader's theme (/mahjong settings)
    return Payload(content=f"{header}\n{line}", png=png, filename="hand.png", view=buttons)


def result_text(screen: TableScreen, result: HandResult, number: int, locale: str) -> str:
    """A hand's outcome, and why each seat pays what it pays (payments.py)."""
    names = text_names(screen.names)
    text = texts.result_text(result, number, names, screen.scores, locale)
    table = screen.view
    if table is None:
        return text
    lines = payment_lines(
        result,
        names,
        locale,
        rules=screen.rules,
        dealer=table.dealer,
        streak=table.dealer_streak,
        options=screen.options,
    )
    return "\n".join([text, *lines])[:1990]
