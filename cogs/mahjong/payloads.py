"""What each message of a table at play shows, built from its session: the channel's table picture and
line, a person's hand with their buttons, a hand's result text. Reading only; the host decides when.

Each builder reads every fact it shows before its first ``await`` (the render runs in a thread), so a
move made while a picture is drawn cannot put a newer caption over an older picture.
"""

from __future__ import annotations

import discord

import render
from engine.actions import Kind
from engine.game import Phase
from engine.hints import ReadyDiscard, ready_discards
from engine.prompt import Ask, Prompt
from engine.rulesets import get as rule_set
from engine.view import HandResult
from table.session import TableSession
from table.visibility import PUBLIC, Viewer

from ..i18n import t
from . import texts
from .feed import FeedMarks, exchange_text, feed_text
from .live import Payload
from .markdown import shown_names
from .payments import payment_lines
from .pictures import THREADS, Painter
from .prompts import action_view, add_eye_button, deadline_text, exchange_view, table_view, take_back_view
from .standing import marked_tiles, standing_lines


def text_names(session: TableSession) -> list[str]:
    """Seat names escaped for message text: a name never pings nor turns into markup."""
    return shown_names(session.seating.names())


def note_lines(session: TableSession, locale: str) -> list[str]:
    names = text_names(session)
    return [t(locale, note.key, name=names[note.seat], what=note.detail) for note in session.notes]


def table_text(session: TableSession, locale: str) -> str:
    game = session.game
    assert game is not None
    if session.match_ended():
        return t(locale, "play.table_over", n=game.hand_number)
    deadline = deadline_text(locale, session.deadline)
    view = session.view(PUBLIC)
    assert view is not None
    return texts.table_text(view, text_names(session), locale, deadline, note_lines(session, locale))


async def table_payload(session: TableSession, locale: str, painter: Painter = THREADS) -> Payload:
    """The channel's table: the public picture, the status line, and its buttons while it plays. Once the
    hand is settled the picture is of the settled hand (its result: scores after its payments, the winner
    and the winning tile, every hand face up as the public view of a hand over has them), which is what
    the score sheet below it says; while the hand is played it has no result to show."""
    view = session.view(PUBLIC)
    assert view is not None
    game = session.game
    result = session.result if game is not None and game.is_over else None
    content = table_text(session, locale)
    buttons = None if session.match_ended() else table_view(session.table_id, locale)
    png = await painter.draw(render.render_table, view, session.seating.names(), locale=locale, result=result)
    return Payload(content=content, png=png, filename="table.png", view=buttons)


async def dm_payload(
    session: TableSession, seat: int, marks: FeedMarks, mode: str = "main", painter: Painter = THREADS
) -> Payload:
    """A person's hand: their picture, one line saying what to do, and their buttons."""
    game = session.game
    assert game is not None
    table_id, settings, channel = session.table_id, session.state.settings, session.state.channel_id
    loc = session.seating.by_seat[seat].locale
    view = session.view(Viewer.at(seat))  # table/visibility.py: the seat's own tiles; waits only with hints on
    assert view is not None
    names = text_names(session)
    header = t(loc, "play.dm_hand", n=game.hand_number, rules=t(loc, f"rules.{settings.rules}"), channel=channel)
    buttons: discord.ui.View | None = None
    discard_hints: tuple[ReadyDiscard, ...] = ()
    deadline = deadline_text(loc, session.deadline)
    moment = texts.win_moment(session.result, names, loc) if game.is_over else ""
    auto = seat in game.auto_seats()
    prompt: Prompt | None = None  # the seat's decision point, where one is asked (not at 換牌: hundreds of choices)
    if session.match_ended():
        line = t(loc, "play.dm_match_over", channel=channel)
    elif game.is_over:
        line = t(loc, "play.dm_over", channel=channel)
        if auto and not session.no_hand_follows():  # between hands: the next hand starts in control
            buttons = take_back_view(table_id, loc)
    elif auto:
        line = t(loc, "play.dm_auto")
        buttons = take_back_view(table_id, loc)
    elif view.phase is Phase.EXCHANGE and seat in game.to_act():
        line = t(loc, "play.dm_exchange", deadline=deadline)
        buttons = exchange_view(table=table_id, hand=game.hand_number, move=session.decision, view=view, locale=loc)
    else:
        prompt = game.prompt(seat)
        if settings.hints and prompt.legal and prompt.kind is Ask.DISCARD and not prompt.ready:
            discard_hints = ready_discards(game, seat)
        if not prompt.legal:
            line = t(loc, "play.dm_wait")
        else:
            start = marks.start(seat, game.hand_number, session.decision, len(game.events))
            feed = feed_text(game.events, start, seat, names, loc)
            line = texts.prompt_line(prompt, names, loc, deadline, mode, unit=rule_set(settings.rules).unit)
            if feed:  # what the others did since this person's previous prompt
                line = f"{feed}\n{line}"
            buttons = action_view(
                table=table_id,
                hand=game.hand_number,
                move=session.decision,
                prompt=prompt,
                view=view,
                locale=loc,
                mode=mode,
                marked=marked_tiles(discard_hints),
            )
    exchanged = exchange_text(game.events, seat, loc) if not game.is_over else ""
    if exchanged:  # 換牌: the tiles that came back, until this person's first move after it
        line = f"{exchanged}\n{line}"
    if game.is_over:  # the moves since this person's last prompt, up to the end: what led to the 胡
        start = marks.start(seat, game.hand_number, session.decision, len(game.events))
        feed = feed_text(game.events, start, seat, names, loc)
        if feed:
            line = f"{feed}\n{line}"
    if moment:  # 胡! with the tile, who dealt it in and the value, even where the table won for this player
        line = f"{moment}\n{line}"
    playing = not (session.match_ended() or game.is_over or auto)
    if playing:  # where you stand (standing.py): waits, the discards that keep you ready, 過水
        line = "\n".join([line, *standing_lines(view, discard_hints, loc, hints=settings.hints)])
    declare = (prompt.declarations if prompt is not None else tuple(game.declarations(seat))) if playing else ()
    if declare:
        buttons = add_eye_button(buttons, table_id, declare[0].kind is Kind.MIJI, loc)
    if view.others:  # 眼牌: the declarer sees the other hands (in the image too; the text names them)
        line += "\n" + texts.others_text(view, names, loc)
    # last: the words above are of this view; the picture's labels in the reader's language
    png = await painter.draw(render.render_hand, view, locale=loc)
    return Payload(content=f"{header}\n{line}", png=png, filename="hand.png", view=buttons)


def result_text(session: TableSession, result: HandResult, number: int, locale: str) -> str:
    """A hand's outcome, and why each seat pays what it pays (payments.py)."""
    assert session.match is not None
    game = session.game
    names = text_names(session)
    text = texts.result_text(result, number, names, session.match.scores, locale)
    if game is None:
        return text
    settings = session.state.settings
    table = session.view(PUBLIC)
    assert table is not None
    lines = payment_lines(
        result,
        names,
        locale,
        rules=settings.rules,
        dealer=table.dealer,
        streak=table.dealer_streak,
        options=settings.options,
    )
    return "\n".join([text, *lines])[:1990]
