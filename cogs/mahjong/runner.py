"""The host of one table: it feeds the table's ``TableSession`` (table/session.py) its inputs
(``session.handle``), carries out the effects it hands back from their own fields, and feeds Discord's
answers back as inputs; what it needs to know it asks ``session.screen(who)`` and ``session.phase``, and
nothing else of the session (tests/test_game_reads.py). It decides no rule. A click on its messages is
``clickhandlers.py``'s. Its outlets do the talking: ``channel.py`` (posts, the table
and lobby messages, refusals and probes), ``dms.py`` (each person's hand message and a click's answer),
``journal.py`` (the stores), ``clock.py`` (the driver), ``announce.py`` (the seat draw, the standings),
``endings.py`` (what a hand's and a match's end post);
the bot's ``observer`` (observer.py) may watch every effect and delivery.

One lock per table: every call into the session (clicks, the clock, a DM that failed) holds it, and
the effects it returns that touch no network (journal writes, wanting a message edit) are carried out
before it is released, so the stored order is the played order. Effects that post or send (a new hand's
messages, the score sheet, the standings) run after, outside the lock, so a click never waits behind
Discord's rate limits. One driver task per table sleeps until the session's next wake-up and ticks it.
Messages that show state (the table image, each DM hand) are ``LiveMessage``s: a burst of moves costs
one edit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from data import PlayerPrefs, SavedTable, StoreError
from table import effects as fx
from table import inputs as ins
from table.effects import Effect
from table.lobby import DEFAULT_THEME, TablePhase, TableState
from table.records import banks_of, left_of, state_of
from table.screens import LOBBY, SEATS, TABLE
from table.session import Deal, TableSession
from table.timing import Timing
from table.toggles import Toggles

from ..i18n import t
from . import endings
from .activity import play_in_discord_button
from .announce import seat_draw_text
from .channel import ChannelMessages
from .clickhandlers import toggles_of
from .clock import Clock
from .dms import NETWORK_ERRORS, HandMessages
from .journal import Journal, seat_records
from .live import Payload
from .markdown import shown_name
from .nudges import Nudges
from .observer import observer_of
from .payloads import dm_payload, table_payload
from .prompts import resume_view
from .webtables import add_open_table, open_table_button

if TYPE_CHECKING:
    from . import Mahjong

__all__ = ["NETWORK_ERRORS", "TableRunner", "Timing", "seat_records"]

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]


class TableRunner:
    def __init__(self, cog: Mahjong, state: TableState, *, locale: str = "en", host_name: str = "") -> None:
        state.locale, state.host_name = locale, host_name  # stored with the table (table/records.py)
        self.cog = cog
        self.state = state  # the lobby's seats and settings (the session's own; the cog reads them)
        self.session = TableSession(state, cog.timing)  # its table_id is the table's
        self.lock = asyncio.Lock()
        self.channel = ChannelMessages(self, cog.timing)  # the table's posts and its table message (channel.py)
        self.hands = HandMessages(self)  # each person's DM (dms.py)
        self.clock = Clock()  # the table's driver (clock.py)
        self.themes: dict[int, str] = {}  # each person's pictures' theme (data/prefs.py), by user id
        self.hands_first_deal = False  # taken over between two hands: its next deal is as resume's (runner.resume)
        self.nudges = Nudges(self)  # a new DM for a person slow to act on an edited prompt (nudges.py)
        self.journal = Journal(
            cog.store, state.table_id, on_failure=self._storage_failing, on_recovered=self._storage_back,
            on_lost=lambda: self.cog.cluster.lost(self.state.table_id),  # cluster hook: another process runs it now
            enabled=observer_of(cog.bot).stores,
        )

    # ------------------------------------------------------------------ carrying out effects

    def carry_out(self, effects: Sequence[Effect]) -> list[Job]:
        """Do now what touches no network (the lock held by the caller); return the rest, in order. Each
        effect carries what it takes: the session is not read here."""
        jobs: list[Job] = []
        for effect in effects:
            if self.journal.keep(effect):  # a Store*: written in order (journal.py)
                continue
            match effect:
                case fx.ShowTable(version):
                    self.channel.want_table(version)
                case fx.ShowHand(seat, version):
                    self.hands.want(seat, version)
                case fx.Reseated(seat, who):
                    self.hands.reseat(seat, who)
                    jobs.append(partial(self.hands.send_to, seat, who))
                case fx.ShowLobby(version):
                    self.channel.want_lobby(version)
                case fx.WakeAt(at):
                    self.clock.want(at)
                case fx.NewHand():
                    self.close_hand_messages()  # now: the last hand's messages never show the new one
                    self.hands.new_hand()
                case fx.Deal():
                    jobs.append(partial(self._show_hand, effect))
                case fx.MatchStarted():
                    jobs.append(partial(self.channel.say, seat_draw_text(effect, self.state.locale)))
                case fx.Notice(key, _, values, name):
                    named = {} if name is None else {"name": shown_name(name)}
                    jobs.append(partial(self.channel.say, t(self.state.locale, key, **named, **values)))
                case fx.ShowScore():
                    jobs.append(endings.score_job(self, effect))
                case fx.Paused(until):
                    jobs.append(partial(self.channel.post_pause, until, resume_view(self.session.table_id, self.state.locale)))
                case fx.Unpaused():
                    self.channel.unpaused()
                case fx.PauseEnded():
                    jobs.append(partial(self.channel.end_pause, "play.pause_ended"))
                case fx.MatchOver():
                    jobs.append(partial(endings.finish_match, self, effect))
                case fx.Probe():
                    jobs.append(self.channel.probe)
        if self.nudges.open:
            self.nudges.check()
        observer_of(self.cog.bot).carried(self.session, effects)
        web = getattr(self.cog, "web", None)
        if web is not None and effects:
            web.changed(self.session.table_id)  # every open page of this table (web/server.py)
            pages = getattr(self.cog, "web_pages", None)
            if pages is not None:
                pages.watch.changed(self.session.table_id)  # and every watcher's (web/watch.py)
        return jobs

    def feed(self, event: ins.Input) -> list[Job]:
        """One input into the session now (the lock held by the caller); its network work, to run after."""
        return self.carry_out(self.session.handle(event, time.time()))

    def change(self, event: ins.Input) -> None:
        """A lobby input (a seat taken, a setting changed, the table shut): carried at once, not under the lock."""
        self.carry(self.session.handle(event, time.time()))

    def carry(self, effects: Sequence[Effect]) -> None:
        """Effects of a call that was not under the lock's await (lobby changes): network work in the
        background, the driver woken."""
        jobs = self.carry_out(effects)
        if jobs:
            self.cog.background(_in_order(jobs))
        if effects:
            self.clock.poke()

    # ------------------------------------------------------------------ after a restart

    @classmethod
    def restore(cls, cog: Mahjong, saved: SavedTable) -> TableRunner:
        """Rebuild a stored table: its seats and settings, and its match replayed to the last stored move."""
        record = saved.table
        state = state_of(record)  # table/records.py
        runner = cls(cog, state, locale=state.locale, host_name=state.host_name)
        runner.journal.hand_ids = {h.hand_no: h.id for h in saved.hands}
        runner.session, stored = TableSession.restore(
            state,
            cog.timing,
            saved.match_header,
            [h.actions for h in saved.hands],
            results_stored=[h.result is not None for h in saved.hands],
            deadline=saved.hands[-1].deadline if saved.hands else None,
            left=left_of(record),
            banks=banks_of(record),
            now=time.time(),
        )
        runner.carry_out(stored)
        if state.phase is TablePhase.LOBBY and record.lobby_message_id is not None:
            runner.channel.lobby = cog.live_message(record.channel_id, record.lobby_message_id, runner.lobby_payload)
        return runner

    async def resume(self) -> None:
        """Tell the channel, show the table and each person's hand afresh, and start the clock again.

        Taken over by the hundred (cluster hook ``hands_first``), the table plays on as soon as its people
        have their hands: its table post and the channel's "resumes at hand" follow from a task of their
        own, in that order. Its clock waiting for them put the last of a hundred tables 300 posts behind
        the first under Discord's global limit."""
        async with self.lock:
            effects = self.session.handle(ins.Resume(), time.time())
            deal = next((e for e in effects if isinstance(e, fx.Deal)), None) if self.cog.cluster.hands_first else None
            jobs = self.carry_out([e for e in effects if e is not deal])
        if deal is not None:
            await self.hands.send(deal)
            async with self.lock:
                self.feed(ins.Dealt())
            self.cog.background(self._posts_after_prompts(jobs))
        elif self.cog.cluster.hands_first:  # between two hands: its next deal sends the hands first too
            self.hands_first_deal = True
            self.cog.background(_in_order(jobs))
        else:
            await _in_order(jobs)
        await self.load_prefs()
        if self.state.phase is not TablePhase.LOBBY and not self.session.phase.closed:
            self._start_driver()

    async def _posts_after_prompts(self, jobs: Sequence[Job]) -> None:
        """A taken-over table's channel posts, once its people have their hands: the table, then the rest
        (none once the table stopped, nor a table message once the next hand posted its own)."""
        if self.session.phase.closed:
            return
        if self.channel.table is None:
            await self._post_table(replace=False)
        await _in_order(jobs)

    # ------------------------------------------------------------------ lobby

    async def lobby_payload(self) -> Payload:
        from .prompts import lobby_embed, lobby_view

        lobby = self.session.screen(LOBBY)
        return Payload(
            embeds=[lobby_embed(lobby, self.state.locale, self.state.host_name)],
            view=lobby_view(lobby, self.state.locale),
        )

    def _storage_failing(self, error: Exception) -> None:
        self.cog.background(self.post(content=t(self.state.locale, "play.storage_failing")))

    def _storage_back(self) -> None:
        self.cog.background(self.post(content=t(self.state.locale, "play.storage_ok")))

    # ------------------------------------------------------------------ starting

    async def start_match(self, deal: Deal | None = None) -> None:
        """Seat draw, dealer dice, first hand: the session decides, this posts them, then the clock runs.
        ``deal``: a tournament's key and walls (else a fresh key)."""
        deal = deal or Deal(self.cog.new_match_key())
        async with self.lock:
            jobs = self.feed(ins.Start(deal.key, deal.duplicate, deal.hands))
        await _in_order(jobs)
        await self.load_prefs()
        if not self.session.phase.closed:
            self._start_driver()

    async def load_prefs(self) -> None:
        """Each seated person's stored preferences (data/prefs.py): their auto toggles fed to the table and
        their pictures' theme, kept across tables and restarts. A store that cannot answer leaves the
        defaults (the table plays on)."""
        people = [who.user_id for who in self.session.screen(SEATS).seats if who.user_id is not None]
        for user in people:
            try:
                prefs = await self.cog.store.get_player_prefs(user)
            except StoreError:
                log.warning("table %s: no stored preferences for %s", self.session.table_id, user)
                continue
            await self.take_prefs(user, prefs)

    async def take_prefs(self, user: int, prefs: PlayerPrefs) -> None:
        """A person's preferences as they now stand (/mahjong settings, a start, a resume)."""
        self.themes[user] = prefs.theme  # their DM pictures from the next one on
        await self.set_toggles(user, toggles_of(prefs))

    async def set_toggles(self, user: int, toggles: Toggles) -> None:
        """A person's toggles as they now stand (/mahjong settings, a start, a resume)."""
        async with self.lock:
            jobs = self.feed(ins.SetToggles(user, toggles))
        self.clock.poke()
        await _in_order(jobs)

    def _start_driver(self) -> None:
        self.clock.start(self._drive(), name=f"table-{self.session.table_id}")

    async def _show_hand(self, deal: fx.Deal) -> None:
        """Post the hand's table message and send each person their hand (outside the lock); the first deal
        of a table taken over between two hands sends the hands first, as ``resume`` does."""
        hands_first, self.hands_first_deal = self.hands_first_deal, False
        if not hands_first:
            await self._post_table()
        await self.hands.send(deal)
        async with self.lock:
            self.feed(ins.Dealt())
        if hands_first:
            self.cog.background(self._posts_after_prompts(()))

    async def _post_table(self, *, replace: bool = True) -> None:
        """A fresh table message, kept up to date from now on; without ``replace``, not over the one a newer
        hand posted meanwhile."""
        version = self.fresh_version()  # no lock: the payload reads its facts before the render's await
        table = await self.channel.post_payload(await self.table_payload())
        async with self.lock:
            if table is not None and (replace or self.channel.table is None):
                self.channel.follow_table(table, version)

    # ------------------------------------------------------------------ what the hand messages ask (dms.DmHost)

    def version(self) -> int:
        return self.session.screen(SEATS).version

    def dms_closed(self, seat: int) -> None:
        self.feed(ins.DmsClosed(seat))  # the seat is auto-played
        self.clock.poke()

    def owes(self, seat: int) -> tuple[int, int] | None:
        """What the seat's person has to press now, (hand, decision point), or None: until their DM shows
        it, its edits rank as prompts (dms.py)."""
        return self.session.screen(SEATS).button_to_press(seat)

    def delivered(self, seat: int, version: int, *, notified: bool = False) -> None:
        """Discord acknowledged a message showing ``seat`` its prompt at ``version``: the session may
        restart that decision's clock from now (the clock starts when the person can act). ``notified``:
        a new message showed it, which Discord notified (no nudge then)."""
        self.carry(self.session.handle(ins.Shown(seat, version), time.time()))
        self.nudges.shown(seat, notified=notified)
        observer_of(self.cog.bot).delivered(self.session, seat, version)

    # ------------------------------------------------------------------ payloads

    async def table_payload(self) -> Payload:
        return await table_payload(self.session.screen(TABLE), self.state.locale, self.cog.painter)

    async def dm_payload(self, seat: int, mode: str = "main") -> Payload:
        screen = self.session.screen(seat)
        theme = self.themes.get(screen.seats[seat].user_id or 0, DEFAULT_THEME)  # the reader's own (prefs)
        payload = await dm_payload(screen, self.hands.marks, mode, self.cog.painter, theme)
        link = open_table_button(getattr(self.cog, "web", None), screen.table_id, seat, screen.seats[seat].user_id, screen.locale)
        payload.view = add_open_table(payload.view, link)  # the same table in a browser (webtables.py)
        inside = play_in_discord_button(getattr(self.cog, "activity", None), screen.table_id, screen.seats[seat].user_id, screen.locale)
        payload.view = add_open_table(payload.view, inside)  # and in Discord's own frame (activity.py)
        return payload

    async def clicks_reach(self, reach: bool) -> None:
        """The gateway carrying this table's clicks dropped (False) or is back (True): outages.py."""
        async with self.lock:
            jobs = self.feed(ins.ClicksBack() if reach else ins.ClicksLost())
        self.clock.poke()
        await _in_order(jobs)

    async def player_left(self, user_id: int) -> None:
        """A person left the server or the table mid-match: the session says what follows."""
        async with self.lock:
            jobs = self.feed(ins.PlayerLeft(user_id))
        self.clock.poke()
        await _in_order(jobs)

    async def substitute(self, user_id: int, new: int, name: str, locale: str) -> None:
        """Another person takes ``user_id``'s seat mid-match (a tournament's replace; TableError if not)."""
        async with self.lock:
            jobs = self.feed(ins.Substitute(user_id, new, name, locale))
        self.clock.poke()
        await _in_order(jobs)

    # ------------------------------------------------------------------ the driver

    async def _drive(self) -> None:
        """The table's own clock: tick the session, carry out its effects, sleep until it wants waking.
        Network I/O runs outside the lock, so a click never waits behind Discord's rate limits."""
        try:
            while not self.session.phase.closed:
                async with self.lock:
                    self.clock.at = None
                    jobs = self.feed(ins.Tick(self.hands.coming()))
                    at = self.clock.at  # carry_out set it again
                if jobs:
                    await _in_order(jobs)
                    continue
                if at is not None and at <= time.time():
                    continue  # due now (the next AI move of a burst): no wait, as a person sees one update
                await self.clock.sleep(at)
        except asyncio.CancelledError:
            raise
        except Exception:
            if not self.session.phase.closed:
                log.exception("table %s stopped on an unexpected error", self.session.table_id)

    def close_hand_messages(self, *, abort: bool = False) -> None:
        """The hand's messages take no more edits (an edit already under way still lands, live.py);
        ``abort``: the table stops here (a shutdown), nothing more is sent."""
        if self.channel.table is not None:
            self.channel.table.close(abort=abort)
        self.hands.close(abort=abort)

    # ------------------------------------------------------------------ what the channel asks (channel.ChannelHost)

    def fresh_version(self) -> int:
        """A new version for a message posted on the host's own (the table message of a new hand, a probe)."""
        (answer,) = self.session.handle(ins.Reposting(), time.time())
        assert isinstance(answer, fx.Version)
        return answer.version

    def stored_table_message(self, message_id: int) -> None:
        self.journal.table_message(message_id)

    def refused(self, what: str) -> bool:
        if not any(isinstance(e, fx.Blocked) for e in self.session.handle(ins.ChannelRefused(what), time.time())):
            return False
        self.clock.poke()
        return True

    def still_refused(self) -> None:
        self.session.handle(ins.ChannelStillRefused(), time.time())

    def channel_ok(self) -> list[Job]:
        return self.feed(ins.ChannelOk())

    def abandon(self) -> None:
        self.cog.abandon_where(lambda runner: runner is self)

    async def post(self, **kwargs: Any) -> discord.Message | None:
        return await self.channel.post(**kwargs)

    async def repost_table(self) -> Payload:
        """The current table for /mahjong table (posted as the command's answer)."""
        if self.session.screen(TABLE).view is None:  # no hand dealt yet: the lobby
            return await self.lobby_payload()
        return await self.table_payload()

    async def close(self) -> None:
        """Stop playing (the host closed the table, or the bot shuts down); pending writes are stored first."""
        self.session.handle(ins.Close(), time.time())
        self.channel.close()
        self.nudges.close()
        self.close_hand_messages(abort=True)
        await self.clock.stop()
        with contextlib.suppress(Exception):
            await self.journal.close()


async def _in_order(jobs: Sequence[Job]) -> None:
    for job in jobs:
        await job()

