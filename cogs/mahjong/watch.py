"""/mahjong watch: spectators. What a spectator may see is the table's visibility rule's
(table/visibility.py), for the viewer the table's spectator setting makes them: at a ``public`` table a
spectator gets the public table by DM (what the channel shows: discards, melds, flowers, scores, whose
turn), kept up to date, a fresh message each hand; at a ``delayed`` table nothing of a hand in play,
and each hand with all four hands face up (the animated replay) once it is over, as Tenhou delays its
spectators, so watching cannot help a player. ``off`` refuses watchers; players never watch their own
table.

The watchers of a table follow it from outside: a small task per watched table compares the
table's version with what each spectator was shown, so the table itself knows nothing of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

import render
from engine.events import Phase
from engine.game import Game
from engine.match import Match
from engine.replay import frames
from engine.view import GameView
from render.replay import render_animation
from table.lobby import TableError, TablePhase
from table.session import TableSession
from table.visibility import Viewer, live_view
from table.visibility import spectator as spectator_viewer

from ..i18n import locale_of, t, tile_label
from .live import LiveMessage, Payload
from .mixin import CogMixin
from .runner import NETWORK_ERRORS

if TYPE_CHECKING:
    from . import Mahjong
    from .runner import TableRunner

log = logging.getLogger(__name__)

MODES = ("public", "delayed", "off")
MODE_NAMES = {
    "public": "public",
    "delayed": "delayed (every hand face up once over)",
    "off": "off (no spectators)",
}
SPECTATOR_CHOICES = [app_commands.Choice(name=_(MODE_NAMES[m]), value=m) for m in MODES]
POLL_SECONDS = 0.5  # how often a watched table is compared with what its spectators were shown


# ---------------------------------------------------------------------- what a spectator sees


def spectator_text(
    view: GameView, names: Sequence[str], locale: str, table_id: int, deadline: str = ""
) -> str:
    """The spectator's message text, from the public view only."""
    if view.viewer is not None:
        raise ValueError("a spectator sees the public view only")
    if view.phase == Phase.OVER:
        status = t(locale, "play.status_over")
    elif view.phase == Phase.EXCHANGE:
        status = t(locale, "play.status_exchange", deadline=deadline)
    elif view.phase == Phase.CLAIM and view.last_discard is not None:
        seat, tile = view.last_discard
        status = t(
            locale, "play.status_claim", tile=tile_label(locale, tile), name=names[seat], deadline=deadline
        )
    else:
        status = t(locale, "play.status_turn", name=names[view.turn], deadline=deadline)
    streak = t(locale, "play.streak", n=view.dealer_streak) if view.dealer_streak else ""
    table = t(
        locale,
        "play.table",
        round=t("zh-TW", f"wind.{view.round_wind}"),
        n=view.hand_number,
        streak=streak,
        tiles=view.wall_remaining,
        status=status,
    )
    return t(locale, "watch.header", table=table_id) + "\n" + table


def spectator_payload(
    view: GameView, names: Sequence[str], locale: str, table_id: int, deadline: str = ""
) -> Payload:
    """Text and picture from the public view (CPU work: call it in a thread); no buttons."""
    png = render.render_table(view, list(names))
    return Payload(
        content=spectator_text(view, names, locale, table_id, deadline), png=png, filename="table.png"
    )


def spectator_view(session: TableSession, viewer: Viewer, game: Game) -> GameView | None:
    """What a spectator's live message shows of ``game`` (the hand in play, or one just over): the
    visibility rule's view for the spectator ``viewer`` (None: nothing of it)."""
    return live_view(game, session.sight(viewer))


def revealable(session: TableSession, viewer: Viewer) -> int:
    """How many hands of the match a spectator may be shown face up now (the first n): every finished
    hand where the visibility rule lets this viewer see finished hands, else none."""
    match = session.match
    if match is None or not session.sight(viewer).finished_hands:
        return 0
    return len(match.history)


def hand_reveal(match: Match, number: int, names: Sequence[str]) -> bytes:
    """Hand ``number`` of ``match`` (already over) as the animated replay, every hand face up."""
    record = match.history[number - 1]
    _, dealt = Match.replay(match.header(), [r.log for r in match.history[: number - 1]] + [[]])
    if dealt is None:
        raise ValueError(f"hand {number} is not a played hand")
    return render_animation(
        frames(dealt.header(), list(record.log), list(names), seat=record.dealer), list(names)
    )


# ---------------------------------------------------------------------- following a table


@dataclass
class Spectator:
    user_id: int
    locale: str
    live: LiveMessage | None = None
    hand: int = 0  # the hand its live message shows


@dataclass
class Watchers:
    """The spectators of one table, and the task that keeps them up to date."""

    cog: Any
    runner: TableRunner
    viewer: Viewer  # what the table's spectator setting makes its spectators (table/visibility.py)
    spectators: dict[int, Spectator] = field(default_factory=dict)
    revealed: int = 0  # hands shown face up so far (delayed tables)
    task: asyncio.Task[None] | None = None
    revealing: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._follow(), name=f"watch-{self.runner.table_id}")

    async def add(self, user_id: int, locale: str) -> None:
        self.spectators[user_id] = Spectator(user_id, locale)
        self.revealed = max(self.revealed, revealable(self.runner.session, self.viewer))  # only hands from now on
        self.start()

    def remove(self, user_id: int) -> None:
        gone = self.spectators.pop(user_id, None)
        if gone is not None and gone.live is not None:
            gone.live.close()

    async def _follow(self) -> None:
        poll = max(0.05, min(POLL_SECONDS, getattr(self.cog.timing, "edit_interval", POLL_SECONDS) or 0.1))
        try:
            while True:  # until the table ends (a table nobody watches costs a comparison a poll)
                await self._catch_up()
                if self.runner.closed or (self.runner.match is not None and self.runner.match.is_over):
                    await self._catch_up()
                    if self.revealing is not None:
                        await self.revealing
                    ready = revealable(self.runner.session, self.viewer)
                    if self.revealed < ready:
                        await self._reveal_upto(ready)
                    break
                await asyncio.sleep(poll)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("watching table %s stopped", self.runner.table_id)
        finally:
            for s in self.spectators.values():
                if s.live is not None:
                    with contextlib.suppress(Exception):
                        if s.live.pending() is not None:
                            await s.live.pending()  # type: ignore[misc]
                    s.live.close()
            if self.cog.watchers.get(self.runner.table_id) is self:
                del self.cog.watchers[self.runner.table_id]

    async def _catch_up(self) -> None:
        runner = self.runner
        game = runner.game
        ready = revealable(runner.session, self.viewer)
        if self.revealed < ready and (self.revealing is None or self.revealing.done()):
            self.revealing = asyncio.create_task(self._reveal_upto(ready))  # a GIF takes a while
        if game is None or not runner.session.sight(self.viewer).live:
            return
        over = runner.session.match_ended()
        for spectator in list(self.spectators.values()):
            if spectator.hand != game.hand_number:
                if not over:  # a new message per hand while the match is played; the standings end it
                    await self._post(spectator)
            elif spectator.live is not None:
                spectator.live.want(runner.version)

    async def _payload(self, locale: str, game: Game) -> Payload:
        """The public table of ``game``: the hand in play, or (for a message of a hand that has
        ended) that hand as it ended."""
        runner = self.runner
        async with runner.lock:
            view = spectator_view(runner.session, self.viewer, game)
            if view is None:  # never reached: only viewers who may see the hand in play get live messages
                raise ValueError("this spectator may not see the hand in play")
            names = runner.seating.names()
            deadline = _deadline(locale, runner.deadline) if game is runner.game else ""
        return await asyncio.to_thread(spectator_payload, view, names, locale, runner.table_id, deadline)

    async def _post(self, spectator: Spectator) -> None:
        """A fresh message for a new hand (messages over an hour old cannot be edited freely); it
        follows that hand to its end."""
        if spectator.live is not None:
            spectator.live.close()
        try:
            channel = await self.cog.dm_channel(spectator.user_id)
            await self.cog.budget.take(urgent=False)
            game = self.runner.game
            assert game is not None
            version = self.runner.version
            payload = await self._payload(spectator.locale, game)
            message = await channel.send(**payload.send_kwargs())
        except NETWORK_ERRORS as error:
            log.info(
                "could not DM spectator %s of table %s: %s", spectator.user_id, self.runner.table_id, error
            )
            self.cog.forget_dm(spectator.user_id)  # a kept channel id may be the failing part: open afresh
            self.remove(spectator.user_id)
            return
        spectator.hand = game.hand_number
        live = LiveMessage(
            message,
            lambda: self._payload(spectator.locale, game),
            min_interval=max(self.cog.timing.edit_interval, 1.0),
            budget=self.cog.budget,
        )
        live.mark_shown(version)
        spectator.live = live
        live.want(self.runner.version)

    async def _reveal_upto(self, ready: int) -> None:
        while self.revealed < ready:
            self.revealed += 1
            await self._reveal(self.revealed)

    async def _reveal(self, number: int) -> None:
        """A delayed table: hand ``number`` with every hand face up, now that it is over and the next
        hand has started."""
        runner = self.runner
        match = runner.match
        if match is None or not self.spectators:
            return
        async with runner.lock:
            names = runner.seating.names()
        try:
            gif = await asyncio.to_thread(hand_reveal, match, number, names)
        except Exception:  # a hand that does not replay is not shown; watching goes on
            log.exception("hand %s of table %s could not be shown face up", number, runner.table_id)
            return
        for spectator in list(self.spectators.values()):
            try:
                channel = await self.cog.dm_channel(spectator.user_id)
                await self.cog.budget.take(urgent=False)
                await channel.send(
                    content=t(spectator.locale, "watch.reveal", n=number, table=runner.table_id),
                    file=discord.File(io.BytesIO(gif), f"hand-{number}.gif"),
                )
            except NETWORK_ERRORS as error:
                log.info("could not DM spectator %s: %s", spectator.user_id, error)
                self.cog.forget_dm(spectator.user_id)  # a kept channel id may be the failing part
                continue


def _deadline(locale: str, deadline: float | None) -> str:
    from .prompts import deadline_text

    return deadline_text(locale, deadline)


def table_mode(runner: TableRunner) -> str:
    return runner.state.settings.spectators


# ---------------------------------------------------------------------- the command


class WatchCommands(CogMixin):
    """/mahjong watch, mixed into the Mahjong group cog."""

    tables: dict[int, TableRunner]
    watchers: dict[int, Watchers]

    @app_commands.command(name=_("watch"), description=_("Watch this channel's table (again: stop watching)"))
    async def watch(self, interaction: discord.Interaction) -> None:
        runner = self.tables.get(interaction.channel_id or 0)
        if runner is None:
            raise TableError("err.no_table")
        await toggle_watching(self, interaction, runner)


async def on_watch_click(cog: Mahjong, interaction: discord.Interaction, table: int) -> None:
    """The Watch button on a table message."""
    runner = cog.by_id.get(table)
    if runner is None or runner.closed:
        raise TableError("err.table_over")
    await toggle_watching(cog, interaction, runner)


async def toggle_watching(cog: Any, interaction: discord.Interaction, runner: TableRunner) -> None:
    """Start watching ``runner``'s table, or stop if already watching; refusals are polite."""
    user = interaction.user.id
    if runner.state.seat_of(user) is not None:
        raise TableError("watch.player")
    mode = table_mode(runner)
    viewer = spectator_viewer(mode)
    if viewer is None:
        raise TableError("watch.off")
    if runner.state.phase is not TablePhase.PLAYING or runner.match is None or runner.closed:
        raise TableError("watch.not_playing")
    watchers = cog.watchers.get(runner.table_id)
    if watchers is not None and user in watchers.spectators:
        watchers.remove(user)
        await interaction.response.send_message(t(interaction.locale, "watch.stopped"), ephemeral=True)
        return
    if watchers is None:
        watchers = cog.watchers[runner.table_id] = Watchers(cog, runner, viewer)
    await interaction.response.send_message(
        t(interaction.locale, "watch.started" if mode == "public" else "watch.started_delayed"),
        ephemeral=True,
    )
    await watchers.add(user, locale_of(interaction.locale))
