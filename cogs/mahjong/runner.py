"""The host of one table: it carries out what the table's ``TableSession`` (table/session.py) asks and
feeds Discord's answers back. It decides no rule.

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
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import aiohttp
import discord

import render
from data import SavedTable, SeatRecord
from engine.game import Game
from engine.match import Match
from engine.rules import TableOptions
from engine.scoring import get_rules
from engine.summary import match_summary
from engine.tiles import NotationError
from engine.view import HandResult
from render.summary import render_summary
from table import effects as fx
from table.effects import Effect
from table.ids import Mode, PromptPoint
from table.lobby import Seat, TableError, TablePhase, TableSettings, TableState
from table.screens import LOBBY, TABLE
from table.seating import Seating
from table.session import Deal, TableSession
from table.timing import Timing
from table.visibility import PUBLIC

from ..i18n import t
from . import texts
from .answers import acknowledge_if_slow, respond
from .feed import FeedMarks
from .journal import Journal
from .live import LiveMessage, Payload
from .payloads import dm_payload, result_text, table_payload, text_names
from .prompts import exchange_tiles, resume_view
from .rematch import rematch_view
from .replay import replay_view
from .review import standings_view
from .stats import add_ledger
from .system import SYSTEM

if TYPE_CHECKING:
    from . import Mahjong

__all__ = ["NETWORK_ERRORS", "TableRunner", "Timing"]

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[None]]
# Discord's errors after discord.py's own retries, and the connection failing under them
NETWORK_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
DMS_CLOSED = 50007  # "Cannot send messages to this user": the one error that means DMs are closed
CHANNEL_FORBIDDEN = (50001, 50013)  # Missing Access / Missing Permissions in the table's channel
MISSING_ACCESS = 50001  # also what a server that removed the bot answers: the cog checks which
# a thread archived (an edit there: 50083; a post reopens it) or locked (160005): the table waits like
# for a lost permission, and a probe's post plays it on once a moderator reopens it
THREAD_CLOSED = (50083, 160005)
UNKNOWN_CHANNEL = 10003  # the table's channel was deleted
UNKNOWN_MESSAGE = 10008  # a message was deleted (the table message: posted afresh, runner._table_error)
DM_RETRY_PAUSES = (0.5, 1.5, 4.0)  # seconds before trying a failed DM again (transient failures)
# a hand's DM still not sent after those tries gets a new round of tries this long after each failed
# round (the last pause repeats) while the hand lasts: Discord's incidents last minutes, and the person,
# often the one whose turn it is, has no other way to see their hand but Show my hand
DM_BACKOFF = (5.0, 15.0, 30.0, 60.0)


@dataclass
class DmSlot:
    """A person's hand message for the current hand."""

    user_id: int
    live: LiveMessage | None = None
    failed: bool = False  # DMs closed (50007): they play through "Show my hand"
    sending: bool = False  # the hand's DM is on its way
    rounds: int = 0  # rounds of tries that failed (a transient failure: tried again later)

    def coming(self) -> bool:
        """A prompt can still reach the person here (the session's clock waits for it)."""
        return not self.failed and (self.sending or (self.live is not None and not self.live.closed))


class TableRunner:
    def __init__(self, cog: Mahjong, state: TableState, *, locale: str = "en", host_name: str = "") -> None:
        self.cog = cog
        self.bot = cog.bot
        self.host_name = host_name
        self.locale = locale  # the server's language, for channel messages
        self.session = TableSession(state, cog.timing)
        self.lock = asyncio.Lock()
        self.lobby: LiveMessage | None = None
        self.table_msg: LiveMessage | None = None
        self.dms: dict[int, DmSlot] = {}
        self.dm_closed: set[int] = set()  # people whose DMs failed: they play through "Show my hand"
        self.feed_marks = FeedMarks()  # where each person's action feed starts (feed.py)
        self.pause_msg: discord.Message | None = None  # the paused table's message with its Resume button
        self.reposting: asyncio.Task[None] | None = None  # a fresh table message on its way (a deleted one)
        self.reposted_at = -1e9  # time.monotonic() of the last such post
        self.wake = asyncio.Event()
        self.wake_at: float | None = None  # the session's next wake-up, from its last effects
        self.task: asyncio.Task[None] | None = None
        self.journal = Journal(
            cog.store, state.table_id, on_failure=self._storage_failing, on_recovered=self._storage_back
        )

    # ------------------------------------------------------------------ what the session knows

    @property
    def state(self) -> TableState:
        return self.session.state

    @property
    def table_id(self) -> int:
        return self.session.table_id

    @property
    def timing(self) -> Timing:
        return self.session.timing

    @property
    def game(self) -> Game | None:
        """The hand in play (or just settled): the cog reads it through view()/prompt() and public queries."""
        return self.session.game

    @property
    def match(self) -> Match | None:
        return self.session.match

    @property
    def seating(self) -> Seating:
        return self.session.seating

    @property
    def version(self) -> int:
        return self.session.version

    @property
    def resumed_at(self) -> int:
        return self.session.resumed_at

    @property
    def decision(self) -> int:
        return self.session.decision

    @property
    def deadline(self) -> float | None:
        return self.session.deadline

    @property
    def result(self) -> HandResult | None:
        return self.session.result

    @property
    def closed(self) -> bool:
        return self.session.closed

    @property
    def blocked(self) -> str | None:
        return self.session.blocked

    @property
    def paused_until(self) -> float | None:
        return self.session.paused_until

    @property
    def channel(self) -> discord.abc.Messageable:
        return self.bot.get_partial_messageable(self.state.channel_id, guild_id=self.state.guild_id)

    def text_names(self) -> list[str]:
        return text_names(self.seating.names())

    # ------------------------------------------------------------------ carrying out effects

    def carry_out(self, effects: Sequence[Effect]) -> list[Job]:
        """Do now what touches no network (the lock held by the caller); return the rest, in order."""
        jobs: list[Job] = []
        session = self.session
        for effect in effects:
            match effect:
                case fx.ShowTable():
                    if self.table_msg is not None:
                        self.table_msg.want(session.version)
                case fx.ShowHand(seat):
                    slot = self.dms.get(seat)
                    if slot is not None and slot.live is not None:
                        slot.live.want(session.version)
                case fx.ShowLobby():
                    if self.lobby is not None:
                        self.lobby.want(session.version)
                case fx.StoreSeats():
                    self.journal.seats(seat_records(self.state.seats))
                case fx.StorePhase():
                    self.journal.phase(self.state.phase.value)
                case fx.StoreOptions():
                    self.journal.options(self.stored_options())
                case fx.StoreMatch(header):
                    self.journal.match(seat_records(session.seating.by_seat), dict(header))
                case fx.StoreHand(number, header):
                    self.journal.hand(number, dict(header))
                case fx.StoreMove(number, index, move, deadline):
                    self.journal.move(number, index, move, deadline)
                case fx.StoreDeadline(number, deadline):
                    self.journal.deadline(number, deadline)
                case fx.StoreResult(number, result):
                    self._store_result(number, result)
                case fx.StoreMatchOver(scores, leaver):
                    self.journal.match_over(list(scores), leaver=leaver)
                case fx.WakeAt(at):
                    self.wake_at = at if self.wake_at is None else min(self.wake_at, at)
                case fx.NewHand():
                    self._close_hand_messages()  # now: the last hand's messages never show the new one
                    self.dms = {}
                case fx.Deal():
                    jobs.append(self._show_hand)
                case fx.MatchStarted(commitment):
                    jobs.append(partial(self._announce_seats, commitment))
                case fx.Notice(key, seat, values):
                    name = {} if seat is None else {"name": self.text_names()[seat]}
                    jobs.append(partial(self._post_quietly, t(self.locale, key, **name, **values)))
                case fx.ShowScore(number, result):
                    jobs.append(self._score_job(number, result))
                case fx.Paused(until):
                    jobs.append(partial(self._post_pause, until))
                case fx.Unpaused():
                    message, self.pause_msg = self.pause_msg, None
                    if message is not None:  # in the background: the click that resumed is answered first
                        edit = message.edit(content=t(self.locale, "play.unpaused"), view=None)
                        self.cog.background(self._quietly(edit))
                case fx.PauseEnded():
                    jobs.append(partial(self._edit_pause, "play.pause_ended"))
                case fx.MatchOver(key):
                    jobs.append(partial(self._finish_match, key))
                case fx.Probe():
                    jobs.append(self._probe_channel)
        return jobs

    def carry(self, effects: Sequence[Effect]) -> None:
        """Effects of a call that was not under the lock's await (lobby changes): network work in the
        background, the driver woken."""
        jobs = self.carry_out(effects)
        if jobs:
            self.cog.background(_in_order(jobs))
        if effects:
            self.wake.set()

    async def _run(self, jobs: list[Job]) -> None:
        await _in_order(jobs)
        self.wake.set()

    # ------------------------------------------------------------------ after a restart

    @classmethod
    def restore(cls, cog: Mahjong, saved: SavedTable) -> TableRunner:
        """Rebuild a stored table: its seats and settings, and its match replayed to the last stored move."""
        record = saved.table
        extra = record.options
        settings = TableSettings(
            record.rules,
            record.rounds,
            TableOptions.from_dict(extra.get("table", {})),
            ranking=record.ranking,
            spectators=extra.get("spectators", "public"),
            hints=extra.get("hints", True) is not False,
            pace=extra.get("pace", "normal"),
        )
        locales = extra.get("locales", {})
        seats = [
            Seat(s.user_id, s.name, s.ai_level, locales.get(str(s.user_id), extra.get("locale", "en")))
            for s in record.seats
        ]
        state = TableState(
            record.id,
            record.guild_id,
            record.channel_id,
            record.host_id,
            settings,
            record.password_hash,
            seats,
            TablePhase(record.phase),
            record.kind,
        )
        runner = cls(cog, state, locale=extra.get("locale", "en"), host_name=extra.get("host_name", ""))
        runner.journal.hand_ids = {h.hand_no: h.id for h in saved.hands}
        runner.session, stored = TableSession.restore(
            state,
            cog.timing,
            saved.match_header,
            [h.actions for h in saved.hands],
            results_stored=[h.result is not None for h in saved.hands],
            deadline=saved.hands[-1].deadline if saved.hands else None,
            now=time.time(),
        )
        runner.session.left = {int(user) for user in extra.get("left", [])}
        runner.carry_out(stored)
        if state.phase is TablePhase.LOBBY and record.lobby_message_id is not None:
            runner.lobby = cog.live_message(record.channel_id, record.lobby_message_id, runner.lobby_payload)
        return runner

    async def resume(self) -> None:
        """Tell the channel, show the table and each person's hand afresh, and start the clock again."""
        async with self.lock:
            jobs = self.carry_out(self.cog.cluster.resume_order(self.session.resume(now=time.time())))  # cluster hook
        await _in_order(jobs)
        if self.state.phase is not TablePhase.LOBBY and not self.closed:
            self._start_driver()

    # ------------------------------------------------------------------ lobby

    async def lobby_payload(self) -> Payload:
        from .prompts import lobby_embed, lobby_view

        lobby = self.session.screen(LOBBY)
        return Payload(
            embeds=[lobby_embed(lobby, self.locale, self.host_name)],
            view=lobby_view(lobby, self.locale),
        )

    def stored_options(self) -> dict:
        """What the table row keeps besides the engine's options: the language, the host's name, and who
        left the match."""
        settings = self.state.settings
        return {
            "table": settings.options.to_dict(),
            "spectators": settings.spectators,
            "hints": settings.hints,
            "pace": settings.pace,
            "locale": self.locale,
            "host_name": self.host_name,
            "locales": {str(s.user_id): s.locale for s in self.state.seats if s.user_id is not None},
            "left": sorted(self.session.left),  # people who left the match: free to sit elsewhere
        }

    def _storage_failing(self, error: Exception) -> None:
        self.cog.background(self.post(content=t(self.locale, "play.storage_failing")))

    def _storage_back(self) -> None:
        self.cog.background(self.post(content=t(self.locale, "play.storage_ok")))

    # ------------------------------------------------------------------ starting

    async def start_match(self, deal: Deal | None = None) -> None:
        """Seat draw, dealer dice, first hand: the session decides, this posts them, then the clock runs.
        ``deal``: a tournament's key and walls (else a fresh key)."""
        deal = deal or Deal(self.cog.new_match_key())
        async with self.lock:
            start = self.session.start(key=deal.key, duplicate=deal.duplicate, hands=deal.hands, now=time.time())
            jobs = self.carry_out(start)
        await _in_order(jobs)
        if not self.closed:
            self._start_driver()

    def _start_driver(self) -> None:
        self.task = asyncio.create_task(self._drive(), name=f"table-{self.table_id}")

    async def _announce_seats(self, commitment: str | None) -> None:
        match = self.match
        assert match is not None
        await self.post(content=texts.seat_draw_text(match, self.text_names(), self.locale, commitment))

    async def _show_hand(self) -> None:
        """Post the hand's table message and send each person their hand (outside the lock)."""
        version = self.session.touch()  # no lock: the payload reads its facts before the render's await
        payload = await self._table_payload()
        table = await self.post_payload(payload)
        async with self.lock:
            if table is not None:
                self.follow_table(table, version)
        people = [(seat, who) for seat, who in enumerate(self.seating.by_seat) if who.user_id is not None]
        for seat, who in people:  # every hand is on its way: no clock runs out first
            assert who.user_id is not None
            if who.user_id not in self.dm_closed:
                self.dms.setdefault(seat, DmSlot(who.user_id, sending=True))
        for seat, who in people:
            assert who.user_id is not None
            if who.user_id not in self.dm_closed:
                await self._open_dm(seat, who)
            else:
                self.dms[seat] = DmSlot(who.user_id, failed=True)
        async with self.lock:
            self.carry_out(self.session.dealt())

    async def _open_dm(self, seat: int, who: Seat) -> None:
        """Send the person their hand. Only 50007 means their DMs are closed; anything else (a 5xx, a
        dropped connection, 40003 "opening DMs too fast") is tried again after a pause, and if Discord
        still fails the person plays on through "Show my hand" without being told their DMs are closed."""
        assert who.user_id is not None
        slot = DmSlot(who.user_id, sending=True)
        self.dms[seat] = slot
        try:
            await self._send_dm(seat, who, slot)
        finally:
            slot.sending = False

    async def _send_later(self, seat: int, who: Seat, slot: DmSlot, pause: float) -> None:
        """A new round of tries for a hand's DM Discord did not take, after a back-off: the same slot, so
        the hand's later updates edit the message once it is there."""
        await asyncio.sleep(pause)
        if self.dms.get(seat) is not slot or self.closed or slot.live is not None or slot.failed:
            return  # the hand is over, or they play another way by now
        slot.sending = True
        try:
            await self._send_dm(seat, who, slot)
        finally:
            slot.sending = False

    async def _send_dm(self, seat: int, who: Seat, slot: DmSlot) -> None:
        assert who.user_id is not None
        for attempt, pause in enumerate((*DM_RETRY_PAUSES, None)):
            try:
                channel = await self.cog.dm_channel(who.user_id)
                # no lock: a payload reads every fact before its render's await, at this version
                version = self.version
                payload = await self.dm_payload(seat)
                await self.cog.budget.take(urgent=True)
                message = await channel.send(**payload.send_kwargs())
                break
            except discord.Forbidden as error:
                if error.code == DMS_CLOSED:
                    log.info("seat %s of table %s has DMs closed", seat, self.table_id)
                    await self._dm_failed(seat, who)
                    return
                failure: Exception = error
            except NETWORK_ERRORS as error:
                failure = error
            log.info("DM to seat %s of table %s failed (try %d): %s", seat, self.table_id, attempt + 1, failure)
            self.cog.forget_dm(who.user_id)  # a kept channel id may be the failing part: open afresh
            if pause is None:  # tried again after a back-off, while the hand lasts
                later = DM_BACKOFF[min(slot.rounds, len(DM_BACKOFF) - 1)]
                slot.rounds += 1
                self.cog.background(self._send_later(seat, who, slot, later))
                if slot.rounds == 1:  # said once a hand
                    await self.post(content=t(self.locale, "play.dm_later", name=self.text_names()[seat]))
                return
            await asyncio.sleep(pause)
        async with self.lock:
            if self.dms.get(seat) is not slot:  # the hand ended meanwhile: this DM shows it as it was sent
                return
            slot.live = LiveMessage(
                message,
                lambda: self.dm_payload(seat),
                budget=self.cog.budget,
                urgent=True,
                on_shown=partial(self._prompt_delivered, seat),
            )
            slot.live.mark_shown(version)
            self._prompt_delivered(seat, version)
            slot.live.want(self.version)

    async def _dm_failed(self, seat: int, who: Seat) -> None:
        """DMs closed (50007): the seat is auto-played, the channel tells them how to play on."""
        assert who.user_id is not None
        self.dm_closed.add(who.user_id)
        async with self.lock:
            self.dms[seat].failed = True
            self.carry_out(self.session.dms_closed(seat, now=time.time()))
        self.wake.set()
        await self.post(
            content=t(self.locale, "play.dm_failed", mention=f"<@{who.user_id}>"),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(who.user_id)]),
        )

    def _prompt_delivered(self, seat: int, version: int) -> None:
        """Discord acknowledged a message showing ``seat`` its prompt at ``version``: the session may
        restart that decision's clock from now (the clock starts when the person can act)."""
        self.carry(self.session.prompt_shown(seat, version, now=time.time()))

    # ------------------------------------------------------------------ payloads

    async def _table_payload(self) -> Payload:
        return await table_payload(self.session.screen(TABLE), self.locale, self.cog.painter)

    async def dm_payload(self, seat: int, mode: str = "main") -> Payload:
        return await dm_payload(self.session.screen(seat), self.feed_marks, mode, self.cog.painter)

    def result_text(self, result: HandResult, number: int) -> str:
        return result_text(self.session.screen(TABLE), result, number, self.locale)

    # ------------------------------------------------------------------ clicks

    async def act(self, interaction: discord.Interaction, point: PromptPoint, code: str) -> None:
        """A prompt button: the session checks it against the live decision point and plays it; the
        move is stored before the player sees it, and the answer shows their new hand."""
        seat = point.seat
        async with acknowledge_if_slow(interaction, update=True), self.lock:
            effects = self.session.click(
                interaction.user.id,
                seat,
                code,
                hand=point.hand,
                move=point.move,
                now=time.time(),
                answering=self._answering(interaction, seat),
            )
            jobs = self.carry_out(effects)
            self.wake.set()  # the driver waits on the lock: it plays on (AI replies) as soon as this is stored
            await self.journal.flush()
        await self._answer_with_hand(interaction, seat)  # outside the lock: others' clicks need not wait
        await self._run(jobs)

    async def exchange(self, interaction: discord.Interaction, point: PromptPoint, values: list[str]) -> None:
        """換牌 select: the chosen tiles (choosing is confirming), validated like a button."""
        seat = point.seat
        async with acknowledge_if_slow(interaction, update=True), self.lock:
            self.session.check_prompt(interaction.user.id, seat, point.hand, point.move)
            try:
                tiles = exchange_tiles(values)
            except NotationError:
                raise TableError("err.stale") from None
            effects = self.session.exchange(
                interaction.user.id,
                seat,
                tiles,
                hand=point.hand,
                move=point.move,
                now=time.time(),
                answering=self._answering(interaction, seat),
            )
            jobs = self.carry_out(effects)
            self.wake.set()  # the driver waits on the lock: it plays on (AI replies) as soon as this is stored
            await self.journal.flush()
        await self._answer_with_hand(interaction, seat)
        await self._run(jobs)

    async def declare_eye(self, interaction: discord.Interaction) -> None:
        """眼牌 (Miji in its window): any time while the hand is played, from the hand message."""
        await self._switch(interaction, self.session.declare)

    async def take_back(self, interaction: discord.Interaction) -> None:
        await self._switch(interaction, self.session.take_back)

    async def _switch(self, interaction: discord.Interaction, call: Callable[..., list[Effect]]) -> None:
        async with acknowledge_if_slow(interaction, update=_own_message(interaction)), self.lock:
            seat = self.session.seat_for(interaction.user.id)
            effects = call(interaction.user.id, now=time.time(), answering=self._answering(interaction, seat))
            jobs = self.carry_out(effects)
            self.wake.set()  # the driver waits on the lock: it plays on (AI replies) as soon as this is stored
            await self.journal.flush()
        await self._answer_stored(interaction, seat)
        await self._run(jobs)

    async def switch_mode(self, interaction: discord.Interaction, point: PromptPoint, mode: Mode) -> None:
        async with self.lock:
            seat = self.session.check_prompt(interaction.user.id, point.seat, point.hand, point.move)
        if not await respond(interaction, partial(self.dm_payload, seat, mode=mode), update=True):
            self._answer_failed(seat)

    async def resume_paused(self, interaction: discord.Interaction) -> None:
        """The pause's Resume button: a seated person takes their seat back and the next hand starts. A
        pause message the table has left behind (a restart brings a table back playing, and its old pause
        message kept its button) is answered by saying so on it, its button gone (issue 37, item 29)."""
        user = interaction.user.id
        # the lock and the journal's flush can outlast Discord's 3 s under load: acknowledged meanwhile, as
        # the answer will be (a stale pause message is answered in place)
        stale = self.session.paused_until is None
        async with acknowledge_if_slow(interaction, update=stale), self.lock:
            seat = self.session.seat_for(user)  # seated at a table in play, or the refusal
            if not stale:
                effects = self.session.resume_paused(user, now=time.time())
            elif self.game is not None and seat in self.game.auto_seats():  # what Resume is for: the seat back
                effects = self.session.take_back(user, now=time.time())
            else:
                effects = []
            jobs = self.carry_out(effects)
            self.wake.set()
            await self.journal.flush()

        async def answer() -> Payload:
            if stale:
                return Payload(content=t(self.locale, "play.unpaused"))
            return Payload(content=t(interaction.locale, "ok.resumed"))

        await respond(interaction, answer, update=stale)
        await self._run(jobs)

    async def show_hand(self, interaction: discord.Interaction) -> None:
        """The fallback for closed DMs: a fresh ephemeral hand with the same buttons, on every click."""
        async with self.lock:
            seat = self.session.seat_for(interaction.user.id)
        await self._answer_privately(interaction, seat)

    async def player_left(self, user_id: int) -> None:
        """A person left the server or the table mid-match: the session says what follows."""
        async with self.lock:
            jobs = self.carry_out(self.session.player_left(user_id, now=time.time()))
        self.wake.set()
        await _in_order(jobs)

    def _answering(self, interaction: discord.Interaction, seat: int) -> int | None:
        """``seat`` if the click came from that seat's own hand message (its answer shows the new hand)."""
        slot = self.dms.get(seat)
        live = slot.live if slot is not None else None
        message = interaction.message
        return seat if live is not None and message is not None and message.id == live.message.id else None

    async def _answer_stored(self, interaction: discord.Interaction, seat: int) -> None:
        """The change is stored (the lock released): answer with the seat's hand in place on the message
        clicked (their DM, old or current, or their private hand), which works whatever their DM
        settings; a click on a channel message gets a private hand instead."""
        if not _own_message(interaction):
            await self._answer_privately(interaction, seat)
            return
        await self._answer_with_hand(interaction, seat)

    async def _answer_privately(self, interaction: discord.Interaction, seat: int) -> None:
        version = self.version  # read before the payload: never newer than what it shows
        if await respond(interaction, partial(self.dm_payload, seat), update=False):
            self._prompt_delivered(seat, version)
        else:
            self._answer_failed(seat)

    async def _answer_with_hand(self, interaction: discord.Interaction, seat: int) -> None:
        """Answer (outside the lock, within Discord's 3 s: answers.respond) with the seat's hand in place
        of the clicked message. The version is read before the payload is built, so it is never newer
        than what the answer shows; if the answer fails, the DM is brought up to date instead."""
        version = self.version
        slot = self.dms.get(seat)
        live = slot.live if slot is not None and self._answering(interaction, seat) is not None else None
        edits_before = live.edits if live is not None else 0
        if live is not None:
            live.hold()  # the DM's own edits wait for this answer, which replaces the message
        answered = False
        try:
            answered = await respond(interaction, partial(self.dm_payload, seat), update=True)
        finally:
            if live is not None and not answered:
                live.released()
        if not answered:
            self._answer_failed(seat)
            return
        if live is not None:  # its token carries later edits of the DM (live.py)
            live.answered(version, edits_before, via=interaction)
        self._prompt_delivered(seat, version)

    def _answer_failed(self, seat: int) -> None:
        """The click's answer never reached the person (too late, 10062, a failure): their DM is edited
        through the channel route to the current state, so they never keep an old prompt."""
        slot = self.dms.get(seat)
        if slot is not None and slot.live is not None:
            slot.live.want(self.version)

    # ------------------------------------------------------------------ the driver

    async def _drive(self) -> None:
        """The table's own clock: tick the session, carry out its effects, sleep until it wants waking.
        Network I/O runs outside the lock, so a click never waits behind Discord's rate limits."""
        try:
            while not self.closed:
                async with self.lock:
                    self.wake_at = None
                    coming = frozenset(seat for seat, slot in self.dms.items() if slot.coming())
                    jobs = self.carry_out(self.session.tick(now=time.time(), coming=coming))
                    wake_at: float | None = self.wake_at  # carry_out sets it again (mypy keeps the None above)
                if jobs:
                    await _in_order(jobs)
                    continue
                left = None if wake_at is None else wake_at - time.time()
                if left is not None and left <= 0:
                    continue  # due now (the next AI move of a burst): no wait, as a person sees one update
                if left is None:
                    await self.wake.wait()
                else:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), left)
                self.wake.clear()
        except asyncio.CancelledError:
            raise
        except Exception:
            if not self.closed:
                log.exception("table %s stopped on an unexpected error", self.table_id)

    def _score_job(self, number: int, result: HandResult) -> Job:
        """The score sheet, from the moment the hand was settled (read now, drawn and posted later)."""
        game = self.game
        assert game is not None
        names = self.seating.names()
        text = self.result_text(result, number)
        view = self.session.view(PUBLIC)  # the hand as it ended, every hand revealed (table/visibility.py)
        house = texts.house_rules_text(self.state.settings.options.house_rules, self.locale)

        async def show() -> None:
            png = await self.cog.painter.draw(
                render.render_score, result, names, view, house_rules=house, locale=self.locale
            )
            buttons = replay_view(self.table_id, number, self.locale)  # issue 24: a Replay button
            await self.post_payload(Payload(content=text, png=png, filename="score.png", view=buttons))
            await self._settle_messages()

        return show

    async def _post_pause(self, until: float) -> None:
        self.pause_msg = await self.post(
            content=t(self.locale, "play.paused", until=int(until)), view=resume_view(self.table_id, self.locale)
        )

    async def _edit_pause(self, key: str) -> None:
        message, self.pause_msg = self.pause_msg, None
        if message is not None:
            await self._quietly(message.edit(content=t(self.locale, key), view=None))

    async def _quietly(self, request: Awaitable[object]) -> None:
        try:
            await request
        except NETWORK_ERRORS as error:
            log.info("table %s: an edit failed: %s", self.table_id, error)

    def _store_result(self, number: int, result: HandResult) -> None:
        self.journal.hand_over(
            number,
            result.to_dict(),
            winner=result.winner,
            loser=result.loser,
            self_drawn=result.self_drawn,
            total=result.total,
            deltas=list(result.deltas),
        )

    async def _finish_match(self, key: str | None) -> None:
        """The standings with the summary picture and the revealed key, Review my play and Rematch; then
        the table is forgotten."""
        match = self.match
        assert match is not None
        names = self.text_names()
        lines = [
            t(self.locale, "play.standing_line", rank=rank, name=names[seat], score=score)
            for rank, (seat, score) in enumerate(match.standings(), start=1)
        ]
        embed = discord.Embed(title=t(self.locale, "play.match_over"), description="\n".join(lines))
        add_ledger(embed, names, match.scores, self.state.settings, partial(t, self.locale))
        if key is not None:  # the deals' key, now the match is over: anyone can verify every wall
            embed.add_field(name=t(self.locale, "play.key_title"), value=texts.key_text(key, self.table_id, self.locale), inline=False)
        rows = match_summary(match)
        unit = get_rules(self.state.settings.rules).unit
        png = await asyncio.to_thread(render_summary, rows, names, len(match.history), unit, self.locale)
        embed.set_image(url="attachment://summary.png")
        buttons = standings_view(self.table_id, self.locale)  # Review my play (issue 26)
        if self.state.kind != SYSTEM:  # and Rematch: a new table with the same seats
            for item in rematch_view(self.table_id, self.locale).children:
                buttons.add_item(item)
        self.cog.offer_rematch(self)  # before the button can be clicked
        await self.journal.flush()  # the match is stored before anyone is told it is over (a /leaderboard at once shows it)
        await self.post_payload(Payload(content="", png=png, filename="summary.png", embeds=[embed], view=buttons))
        await self._settle_messages()
        self._close_hand_messages()
        # stored before the table is forgotten (and before a shutdown closes storage)
        await self.journal.close()
        self.cog.table_finished(self)

    async def _settle_messages(self) -> None:
        """Let the last edits of a finished hand land before its messages are dropped."""
        lives = [slot.live for slot in self.dms.values() if slot.live is not None]
        if self.table_msg is not None:
            lives.append(self.table_msg)
        pending = [task for live in lives if (task := live.pending()) is not None]
        if pending:
            await asyncio.wait(pending, timeout=10)

    def _close_hand_messages(self, *, abort: bool = False) -> None:
        """The hand's messages take no more edits (an edit already under way still lands, live.py);
        ``abort``: the table stops here (a shutdown), nothing more is sent."""
        if self.table_msg is not None:
            self.table_msg.close(abort=abort)
        for slot in self.dms.values():
            if slot.live is not None:
                slot.live.close(abort=abort)

    # ------------------------------------------------------------------ channel messages

    async def post(self, **kwargs) -> discord.Message | None:
        try:
            await self.cog.budget.take(urgent=True)  # new messages count toward the global limit too
            return await self.channel.send(**kwargs)
        except NETWORK_ERRORS as error:
            log.warning("table %s could not post in its channel: %s", self.table_id, error)
            await self._channel_error(error)
            return None

    async def _post_quietly(self, content: str) -> None:
        await self.post(content=content)

    def follow_table(self, message: discord.Message | discord.PartialMessage, version: int) -> None:
        """``message`` (showing ``version``) is the table message from now on, kept up to date and stored
        (the lock held by the caller); the one before it takes no more edits."""
        if self.table_msg is not None:
            self.table_msg.close()
        self.table_msg = LiveMessage(
            message, self._table_payload, min_interval=self.timing.edit_interval, budget=self.cog.budget,
            on_error=self._table_error, on_replaced=self._table_replaced,
        )
        self.table_msg.mark_shown(version)
        self.journal.table_message(message.id)

    async def _table_error(self, error: Exception) -> None:
        """An edit of the table message failed. Deleted (10008: a moderator, a purge, a cleanup bot), the
        channel would be left without the table and people with closed DMs without "Show my hand": a fresh
        table message is posted, at most once every ``repost_interval`` seconds (a bot deleting it at once
        again costs one post per interval, not a post per move). Anything else is the channel's error."""
        if isinstance(error, discord.NotFound) and error.code == UNKNOWN_MESSAGE:
            if self.reposting is None or self.reposting.done():
                self.reposting = asyncio.create_task(self._repost_table(), name=f"repost-{self.table_id}")
            return
        await self._channel_error(error)

    async def _repost_table(self) -> None:
        wait = self.reposted_at + self.timing.repost_interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        if self.closed or self.game is None or self.session.match_ended() or self.blocked is not None:
            return
        self.reposted_at = time.monotonic()
        version = self.session.touch()  # no lock: the payload reads its facts before the render's await
        payload = await self._table_payload()
        message = await self.post_payload(payload)
        if message is None:
            return
        log.info("table %s: its table message was deleted; posted a fresh one", self.table_id)
        async with self.lock:
            if self.closed or self.session.match_ended():
                return
            self.follow_table(message, version)
            self.table_msg.want(self.version)  # type: ignore[union-attr]  # follow_table set it

    async def _channel_error(self, error: Exception) -> None:
        """A post or edit in the table's channel failed. A deleted channel (10003) ends the table; a lost
        permission (403 50013 / 50001), or its thread archived (50083) or locked (160005), pauses it with
        nothing lost and tells the host; it plays on once a post goes through again. A 50001 from a server
        that removed the bot ends its tables instead."""
        if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:  # deleted under us
            self.cog.abandon_where(lambda runner: runner is self)
            return
        code = getattr(error, "code", 0)
        thread_closed = isinstance(error, discord.HTTPException) and code in THREAD_CLOSED
        if not thread_closed and (not isinstance(error, discord.Forbidden) or code not in CHANNEL_FORBIDDEN):
            return
        if self.session.blocked is not None or self.closed:  # told already: the table waits for a probe
            return
        guild_id = self.state.guild_id
        if code == MISSING_ACCESS and not await self.cog.still_in_guild(guild_id):  # removed, unheard
            log.info("table %s: the bot is no longer in server %s; closing its tables", self.table_id, guild_id)
            self.cog.guild_gone(guild_id)
            return
        what = getattr(error, "text", "") or str(code)
        if not self.session.block(what, now=time.time()):
            return
        self.wake.set()
        log.info("table %s paused: %s", self.table_id, error)
        key = "play.blocked_thread_host" if thread_closed else "play.blocked_host"  # a moderator's doing, or a permission
        text = t(self.locale, key, table=self.table_id, channel=self.state.channel_id, what=what)
        try:
            channel = await self.cog.dm_channel(self.state.host_id)
            await channel.send(text)
        except NETWORK_ERRORS as dm_error:
            log.info("table %s: could not tell the host: %s", self.table_id, dm_error)
            self.cog.forget_dm(self.state.host_id)  # a kept channel id may be the failing part: open afresh

    def _table_replaced(self, message: discord.Message) -> None:
        """The hour-old table message gave way to a fresh one (live.py): the fresh one is the table's now."""
        self.journal.table_message(message.id)

    async def _probe_channel(self) -> None:
        """Try to show the table again; on success it plays on (the session gives the clock back)."""
        if self.game is None:
            self.session.still_blocked(now=time.time())
            return
        version = self.session.touch()  # no lock: the payload reads its facts before the render's await
        payload = await self._table_payload()
        try:
            await self.cog.budget.take(urgent=True)
            message = await self.channel.send(**payload.send_kwargs())
        except NETWORK_ERRORS as error:
            log.info("table %s still cannot post: %s", self.table_id, error)
            self.session.still_blocked(now=time.time())
            return
        async with self.lock:
            self.follow_table(message, version)
            jobs = self.carry_out(self.session.unblocked(now=time.time()))
        await _in_order(jobs)

    async def post_payload(self, payload: Payload) -> discord.Message | None:
        return await self.post(**payload.send_kwargs())

    async def repost_table(self) -> Payload:
        """The current table for /mahjong table (posted as the command's answer)."""
        if self.game is None:
            return await self.lobby_payload()
        return await self._table_payload()

    async def close(self) -> None:
        """Stop playing (the host closed the table, or the bot shuts down); pending writes are stored first."""
        self.session.close()
        if self.reposting is not None:
            self.reposting.cancel()
        self._close_hand_messages(abort=True)
        if self.lobby is not None:
            self.lobby.close(abort=True)
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        with contextlib.suppress(Exception):
            await self.journal.close()


async def _in_order(jobs: Sequence[Job]) -> None:
    for job in jobs:
        await job()


def _own_message(interaction: discord.Interaction) -> bool:
    """The clicked message is the clicker's alone: in their DMs, or an ephemeral answer to them."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


def seat_records(seats: list[Seat]) -> list[SeatRecord]:
    return [SeatRecord(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(seats)]
