"""/mahjong watch: spectators. What a spectator may see is the table's visibility rule's
(table/visibility.py), for the viewer the table's spectator setting makes them, and watching costs
Discord the same whatever the number of spectators:

- ``public``: a spectator sees what the channel sees, so they follow the channel's own table message
  (posted afresh each hand, kept up to date): /mahjong watch answers with a link to it. Nothing is sent
  per spectator, nothing is kept, and a spectator is never sent a hand face up.
- ``delayed``: nothing of a hand in play; each hand with all four hands face up (the animated replay) once
  it is over, as Tenhou delays its spectators, so watching cannot help a player. The hands are posted once
  each in the table's spectator thread: a private thread the bot opens off the table's channel with the
  first spectator, whose members are the spectators (at most ``WATCHER_CAP``), so the rule's delayed
  audience sees them and the channel does not. The thread, how many hands it has shown and who watches
  are stored (data: migration 0008): a restart or a takeover keeps them, and the thread is told it goes on.
- ``off``: refused. Players never watch their own table.

A delayed table's spectators follow it from outside: a small task per watched table compares how many of
its hands are over with how many the thread has shown, so the table itself knows nothing of them. The
task stops quietly when the table stops without its match ending (a shutdown, a takeover): a restart
goes on from where the thread stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from data import StoreError
from engine.replay import Frame, frames
from render.replay import render_animation
from table.lobby import DEFAULT_THEME, TableError, TablePhase
from table.screens import SPECTATOR, RevealedHand, SpectatorScreen

from ..i18n import locale_of, t
from ..i18n.steps import step_line
from .answers import acknowledge_if_slow, respond
from .live import PICTURE, POST, Payload
from .refusals import MahjongCog
from .runner import NETWORK_ERRORS
from .webpages import watch_line

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
POLL_SECONDS = 0.5  # how often a watched table is compared with what its thread has shown
WATCHER_CAP = 20  # spectators of one delayed table (members of its thread): README says so, and the refusal
THREAD_ARCHIVE_MINUTES = 10080  # a week without a post: longer than any match, so a thread never archives mid-match
PRIVATE_THREAD = 12


# ---------------------------------------------------------------------- what a spectator sees


def reveal_frames(hand: RevealedHand) -> list[Frame]:
    """A finished hand (table/screens.py says which a spectator may see), every hand face up, from its
    dealer's seat."""
    return list(frames(hand.header, hand.moves, seat=hand.dealer))


def hand_reveal(screen: SpectatorScreen, number: int, locale: str | None = None, theme: str = DEFAULT_THEME) -> bytes:
    """Hand ``number`` of the spectators' ``screen`` (one it may show face up) as the animated replay, every
    hand face up, its lines and labels in ``locale``'s language and in ``theme`` (the table's, as the thread
    it is posted in)."""
    names = list(screen.names)
    shown = reveal_frames(screen.hands[number - 1])
    steps = ((f.view, step_line(locale, f.number, f.events, names)) for f in shown)
    return render_animation(steps, names, locale=locale, theme=theme)


def table_link(runner: TableRunner) -> str:
    """Where a public table's spectators look: its table message (the newest, as the channel shows it),
    or its channel while it has none."""
    state = runner.state
    message = runner.channel.table.message if runner.channel.table is not None and not runner.channel.table.closed else None
    if message is None:
        return f"<#{state.channel_id}>"
    return f"https://discord.com/channels/{state.guild_id}/{state.channel_id}/{message.id}"


# ---------------------------------------------------------------------- a delayed table's thread


@dataclass
class Watchers:
    """A delayed table's spectators, its spectator thread, and the task that posts each finished hand."""

    cog: Any
    runner: TableRunner
    thread_id: int
    spectators: dict[int, str] = field(default_factory=dict)  # user id → language
    revealed: int = 0  # hands the thread has shown face up (the first n of the match)
    task: asyncio.Task[None] | None = None
    stopping: asyncio.Event = field(default_factory=asyncio.Event)  # the bot shuts down

    @property
    def thread(self) -> discord.abc.Messageable:
        return self.cog.bot.get_partial_messageable(self.thread_id, guild_id=self.runner.state.guild_id)

    def stop(self) -> asyncio.Task[None] | None:
        """The bot shuts down: a hand being posted is posted and stored as shown (await the task returned),
        then nothing more; the thread goes on after the restart from there."""
        self.stopping.set()
        return self.task if self.task is not None and not self.task.done() else None

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self._follow(), name=f"watch-{self.runner.session.table_id}")

    async def _follow(self) -> None:
        poll = max(0.05, min(POLL_SECONDS, getattr(self.cog.timing, "edit_interval", POLL_SECONDS) or 0.1))
        runner = self.runner
        try:
            while not self.stopping.is_set():
                screen = runner.session.screen(SPECTATOR)  # one moment: the hands over by then are all there are
                while self.revealed < screen.revealable and not self.stopping.is_set():
                    await self._reveal(self.revealed + 1)
                if self.stopping.is_set():
                    break
                if screen.ended:
                    await self._post(t(runner.state.locale, "watch.match_over", channel=runner.state.channel_id))
                    await self._store(self.cog.store.forget_spectators(runner.session.table_id))
                    break
                if screen.closed:  # a shutdown or a takeover, not the match's end: a restart goes on from here
                    break
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(poll):  # not wait_for: a cancel meeting the stop is kept
                        await self.stopping.wait()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("watching table %s stopped", runner.session.table_id)
        finally:
            if self.cog.registry.watchers.get(runner.session.table_id) is self:
                del self.cog.registry.watchers[runner.session.table_id]

    async def _reveal(self, number: int) -> None:
        """Hand ``number`` with every hand face up, now that it is over: posted once, in the thread."""
        runner = self.runner
        self.revealed = number
        if not self.spectators:  # nobody reads the thread now: no upload (a hand is never shown late)
            await self._store(self.cog.store.spectator_thread_shown(runner.session.table_id, number))
            return
        async with runner.lock:
            screen = runner.session.screen(SPECTATOR)
        try:
            gif = await asyncio.to_thread(hand_reveal, screen, number, runner.state.locale, runner.state.settings.theme)
        except Exception:  # a hand that does not replay is not shown; watching goes on
            log.exception("hand %s of table %s could not be shown face up", number, runner.session.table_id)
        else:
            text = t(runner.state.locale, "watch.reveal", n=number, table=runner.session.table_id)
            await self._post(text, discord.File(io.BytesIO(gif), f"hand-{number}.gif"))
        await self._store(self.cog.store.spectator_thread_shown(runner.session.table_id, number))

    async def _post(self, content: str, file: discord.File | None = None) -> None:
        try:
            await self.cog.budget.take(PICTURE)
            if file is None:
                await self.thread.send(content=content)
            else:
                await self.thread.send(content=content, file=file)
        except NETWORK_ERRORS as error:  # a thread deleted or archived by a moderator: the table plays on
            log.info("table %s: could not post in its spectator thread: %s", self.runner.session.table_id, error)

    async def _store(self, write: Any) -> None:
        try:
            await write
        except StoreError as error:
            log.info("table %s: could not store its spectators: %s", self.runner.session.table_id, error)


async def open_thread(cog: Any, runner: TableRunner) -> Watchers:
    """The delayed table's spectator thread, opened off its channel now (a private thread: its members
    alone read it); hands already over when it opens are not posted (watching shows hands from now on)."""
    state = runner.state
    await cog.budget.take(POST)
    data = await cog.bot.http.start_thread_without_message(
        state.channel_id,
        name=t(runner.state.locale, "watch.thread_name", table=runner.session.table_id)[:100],
        auto_archive_duration=THREAD_ARCHIVE_MINUTES,
        type=PRIVATE_THREAD,
        invitable=False,
    )
    watchers = Watchers(cog, runner, int(data["id"]), revealed=runner.session.screen(SPECTATOR).revealable)
    await watchers._store(cog.store.open_spectator_thread(runner.session.table_id, watchers.thread_id, watchers.revealed))  # noqa: SLF001
    return watchers


async def restore_watchers(cog: Any, runner: TableRunner) -> None:
    """After a restart or a takeover: a delayed table's stored spectators go on watching in its thread,
    which is told so (nobody is dropped without a word)."""
    if table_mode(runner) != "delayed" or runner.state.phase is not TablePhase.PLAYING or runner.session.phase.closed:
        return
    try:
        kept = await cog.store.spectator_thread(runner.session.table_id)
    except StoreError as error:
        log.info("table %s: could not read its spectators: %s", runner.session.table_id, error)
        return
    if kept is None or runner.session.table_id in cog.registry.watchers:
        return
    watchers = Watchers(cog, runner, kept.thread_id, dict(kept.spectators), kept.revealed)
    cog.registry.watchers[runner.session.table_id] = watchers
    await watchers._post(t(runner.state.locale, "watch.resumed", n=kept.revealed + 1))  # noqa: SLF001
    watchers.start()


def table_mode(runner: TableRunner) -> str:
    return runner.state.settings.spectators


# ---------------------------------------------------------------------- the command


class WatchCommands(MahjongCog):
    """/mahjong watch, on the tables the registry holds."""

    def __init__(self, tables: Mahjong) -> None:
        self.tables = tables

    @app_commands.command(name=_("watch"), description=_("Watch this channel's table (again: stop watching)"))
    async def watch(self, interaction: discord.Interaction) -> None:
        runner = self.tables.registry.in_channel(interaction.channel_id or 0)
        if runner is None:
            raise TableError("err.no_table")
        await toggle_watching(self.tables, interaction, runner)

    async def watch_click(self, interaction: discord.Interaction, table_id: int) -> None:
        """The Watch button on a table message (replay_buttons.WatchButton)."""
        await on_watch_click(self.tables, interaction, table_id)


async def on_watch_click(cog: Mahjong, interaction: discord.Interaction, table: int) -> None:
    """The Watch button on a table message."""
    runner = cog.registry.get(table)
    if runner is None or runner.session.phase.closed:
        raise TableError("err.table_over")
    await toggle_watching(cog, interaction, runner)


async def toggle_watching(cog: Any, interaction: discord.Interaction, runner: TableRunner) -> None:
    """Start watching ``runner``'s table, or stop if already watching; refusals are polite."""
    user = interaction.user.id
    if runner.state.seat_of(user) is not None:
        raise TableError("watch.player")
    screen = runner.session.screen(SPECTATOR)
    if screen.viewer is None:
        raise TableError("watch.off")
    if not screen.watchable:
        raise TableError("watch.not_playing")
    if screen.mode == "public":  # what the channel shows: the table message itself, nothing per spectator
        text = t(interaction.locale, "watch.public", link=table_link(runner), channel=runner.state.channel_id)
        text += watch_line(cog, runner.session.table_id, interaction.locale)
        await interaction.response.send_message(text, ephemeral=True)
        return
    async with acknowledge_if_slow(interaction, update=False):  # a thread to open, a member to add, a row
        text = await _toggle_delayed(cog, interaction, runner)
    await respond(interaction, _payload(text), update=False)


def _payload(text: str) -> Any:
    async def build() -> Payload:
        return Payload(content=text)

    return build


async def _toggle_delayed(cog: Any, interaction: discord.Interaction, runner: TableRunner) -> str:
    """Join or leave the delayed table's spectator thread; the answer's text."""
    user, locale = interaction.user.id, interaction.locale
    watchers: Watchers | None = cog.registry.watchers.get(runner.session.table_id)
    if watchers is not None and user in watchers.spectators:
        del watchers.spectators[user]
        try:
            await cog.bot.http.remove_user_from_thread(watchers.thread_id, user)
        except NETWORK_ERRORS as error:
            log.info("table %s: could not take %s out of its thread: %s", runner.session.table_id, user, error)
        await watchers._store(cog.store.remove_spectator(runner.session.table_id, user))  # noqa: SLF001
        return t(locale, "watch.stopped")
    if watchers is not None and len(watchers.spectators) >= WATCHER_CAP:
        raise TableError("watch.full", cap=WATCHER_CAP)
    if isinstance(interaction.channel, discord.Thread):
        raise TableError("watch.in_thread")
    permissions = interaction.app_permissions
    if not (permissions.create_private_threads and permissions.send_messages_in_threads):
        raise TableError("watch.no_thread_permission")
    try:
        if watchers is None:
            watchers = await open_thread(cog, runner)
            cog.registry.watchers[runner.session.table_id] = watchers
        await cog.budget.take(POST)
        await cog.bot.http.add_user_to_thread(watchers.thread_id, user)
    except NETWORK_ERRORS as error:
        log.info("table %s: could not seat spectator %s in its thread: %s", runner.session.table_id, user, error)
        raise TableError("watch.thread_failed") from None
    watchers.spectators[user] = locale_of(locale)
    await watchers._store(cog.store.add_spectator(runner.session.table_id, user, locale_of(locale)))  # noqa: SLF001
    watchers.start()
    started = t(locale, "watch.started_delayed", thread=watchers.thread_id, cap=WATCHER_CAP)
    return started + watch_line(cog, runner.session.table_id, locale)
