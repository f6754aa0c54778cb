"""One table at play: the only async, I/O-doing wrapper around the engine's Match and Game.

Every change goes through ``self.lock`` (clicks, timers, AI moves), so four fast players and the clock
never race. A driver task plays AI and auto-played seats and fires deadlines; clicks apply at once and
are answered with an update of the message they came from. Messages that show state (the table image,
each DM hand) are ``LiveMessage``s, so a burst of moves costs one edit.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

import aiohttp
import discord

import render
from data import SavedTable, SeatRecord
from engine.actions import Action, Kind
from engine.events import EventKind
from engine.game import Game, IllegalActionError, Phase
from engine.hints import ReadyDiscard, ready_discards
from engine.match import Match
from engine.policy import make_policy
from engine.rules import TableOptions
from engine.scoring import get_rules
from engine.summary import match_summary
from engine.tiles import NotationError
from engine.view import HandResult
from render.summary import render_summary

from ..i18n import t, tile_label
from . import texts
from .answers import respond
from .codes import to_action
from .feed import FeedMarks, feed_text
from .journal import Journal
from .live import LiveMessage, Payload
from .markdown import shown_names
from .payments import payment_lines
from .prompts import (
    action_view,
    add_eye_button,
    deadline_text,
    exchange_tiles,
    exchange_view,
    resume_view,
    table_view,
    take_back_view,
)
from .rematch import rematch_view
from .replay import replay_view
from .review import standings_view
from .standing import marked_tiles, standing_lines
from .state import DEFAULT_AI, Seat, TableError, TablePhase, TableSettings, TableState
from .stats import add_ledger
from .system import SYSTEM

if TYPE_CHECKING:
    from . import Mahjong

log = logging.getLogger(__name__)

CLAIM_PHASES = texts.CLAIM_PHASES
CLAIM_KINDS = (Kind.PASS, Kind.CHI, Kind.PON, Kind.KONG, Kind.WIN, Kind.TIMEOUT)
SIMULTANEOUS = (*CLAIM_PHASES, Phase.EXCHANGE)  # several seats answer one decision point
QUIET_EVENTS = (EventKind.EYE, EventKind.AUTO_ON, EventKind.AUTO_OFF)  # change no decision
Job = Callable[[], Awaitable[None]]
# Discord's errors after discord.py's own retries, and the connection failing under them
NETWORK_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
DMS_CLOSED = 50007  # "Cannot send messages to this user": the one error that means DMs are closed
CHANNEL_FORBIDDEN = (50001, 50013)  # Missing Access / Missing Permissions in the table's channel
UNKNOWN_CHANNEL = 10003  # the table's channel was deleted
DM_RETRY_PAUSES = (0.5, 1.5, 4.0)  # seconds before trying a failed DM again (transient failures)


@dataclass(frozen=True, slots=True)
class Timing:
    """How the table paces itself; tests shrink everything."""

    ai_delay: float = 0.8  # between AI discards, so people can follow the table
    hand_pause: float = 4.0  # between the score sheet and the next hand
    # at most one edit per message per interval (Discord rate-limits edits): the table picture merges about
    # four moves an edit, since each person's DM already lists every move since their last prompt (issue 30)
    edit_interval: float = 3.0
    timer_scale: float = 1.0  # multiplies the table's turn and claim seconds
    pause_limit: float = 600.0  # a table paused because everyone is away ends after this long
    permission_probe: float = 30.0  # a table that lost a channel permission tries to post again this often
    # a prompt delivered later than this after its decision point opened restarts that decision's clock
    # from its delivery (issue 21: the clock starts when the person can act)
    delivery_grace: float = 1.0
    # a deadline does not fire while someone's prompt is still on its way, for at most this long past it
    delivery_cap: float = 30.0


@dataclass
class DmSlot:
    """A person's hand message for the current hand."""

    user_id: int
    live: LiveMessage | None = None
    failed: bool = False
    sending: bool = False  # the hand's first DM is on its way

    def coming(self) -> bool:
        """A prompt can still reach the person here (for the clock: _prompt_on_its_way)."""
        return not self.failed and (self.sending or (self.live is not None and not self.live.closed))


@dataclass
class Seating:
    """Who sits in each engine seat (the match's 抓位 decides)."""

    by_seat: list[Seat] = field(default_factory=list)

    def names(self) -> list[str]:
        """As people chose them: for pictures."""
        return [s.name for s in self.by_seat]

    def text_names(self) -> list[str]:
        """Escaped for message text: a name never pings nor turns into markup."""
        return shown_names(self.names())

    def seat_of_user(self, user_id: int) -> int | None:
        return next((i for i, s in enumerate(self.by_seat) if s.user_id == user_id), None)


class TableRunner:
    def __init__(self, cog: Mahjong, state: TableState, *, locale: str = "en", host_name: str = "") -> None:
        self.cog = cog
        self.host_name = host_name
        self.bot = cog.bot
        self.state = state
        self.locale = locale  # the server's language, for channel messages
        self.timing: Timing = cog.timing
        self.lock = asyncio.Lock()
        self.lobby: LiveMessage | None = None
        self.match: Match | None = None
        self.game: Game | None = None
        self.seating = Seating()
        self.policies: dict[int, object] = {}
        self.version = 0  # bumped on every change; LiveMessages show versions
        self.decision = 0  # the decision point's id, carried by prompt buttons (stale-click check)
        self.deadline: float | None = None  # unix time the current human decision times out
        self.decision_opened = 0.0  # unix time the current decision point opened
        self.prompt_version = 0  # the first version showing the current decision's prompts
        self.delivered: set[int] = set()  # seats whose prompt for this decision Discord acknowledged
        self.ai_ready_at = 0.0
        self.feed_marks = FeedMarks()  # where each person's action feed starts (feed.py)
        self.table_msg: LiveMessage | None = None
        self.dms: dict[int, DmSlot] = {}
        self.prompted: set[int] = set()  # seats whose message shows action buttons
        self.notes: list[str] = []  # recent table notices (代打 on/off), shown under the table image
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        self.closed = False
        self.result: HandResult | None = None  # the finished hand's result, until the next hand starts
        self.next_hand_at = 0.0
        self.resumed_at = 0  # the hand a restored table resumes at
        self.dm_closed: set[int] = set()  # people whose DMs failed: they play through "Show my hand"
        self.away_at_start: set[int] = set()  # seats auto-played when the hand was dealt
        self.paused_until: float | None = None  # everyone away for a whole hand: the table waits until then
        self.leavers: set[int] = set()  # seats that left between hands where leaving ends the table
        self.pause_msg: discord.Message | None = None  # the paused table's message with its Resume button
        self.blocked: str | None = None  # a channel permission the table lost (403 50013/50001): it waits
        self.next_probe_at = 0.0
        self.leaver: int | None = None  # the seat whose leaving ended the match (taiwan13), placed last
        self.journal = Journal(
            cog.store, state.table_id, on_failure=self._storage_failing, on_recovered=self._storage_back
        )

    @property
    def table_id(self) -> int:
        return self.state.table_id

    @property
    def channel(self) -> discord.abc.Messageable:
        return self.bot.get_partial_messageable(self.state.channel_id, guild_id=self.state.guild_id)

    # ------------------------------------------------------------------ after a restart

    @classmethod
    def restore(cls, cog: Mahjong, saved: SavedTable) -> TableRunner:
        """Rebuild a stored table: its seats and settings, and its match replayed to the last stored move."""
        record = saved.table
        extra = record.options
        options = TableOptions.from_dict(extra.get("table", {}))
        settings = TableSettings(
            record.rules,
            record.rounds,
            options,
            ranking=record.ranking,
            spectators=extra.get("spectators", "public"),
            hints=extra.get("hints", True) is not False,
        )
        locales = extra.get("locales", {})
        seats = [
            Seat(s.user_id, s.name, s.ai_level, locales.get(str(s.user_id), extra.get("locale", "en")))
            for s in record.seats
        ]
        phase = TablePhase(record.phase)
        state = TableState(
            record.id,
            record.guild_id,
            record.channel_id,
            record.host_id,
            settings,
            record.password_hash,
            seats,
            phase,
            record.kind,
        )
        runner = cls(cog, state, locale=extra.get("locale", "en"), host_name=extra.get("host_name", ""))
        runner.journal.hand_ids = {h.hand_no: h.id for h in saved.hands}
        if phase is TablePhase.LOBBY:
            if record.lobby_message_id is not None:
                runner.lobby = cog.live_message(
                    record.channel_id, record.lobby_message_id, runner.lobby_payload
                )
            return runner
        assert saved.match_header is not None
        runner.match, runner.game = Match.replay(saved.match_header, [h.actions for h in saved.hands])
        runner.seating = Seating(list(seats))
        runner._ai_policies()
        runner.resumed_at = len(runner.match.history) + 1  # the hand in play, or the next one
        for hand, record_ in zip(runner.match.history, saved.hands, strict=False):
            if record_.result is None:  # the last move was stored, its result was not: store it now
                runner._store_result(hand.number, hand.result)
        if runner.game is not None:
            runner._new_decision()
            runner.deadline = saved.hands[-1].deadline if runner._needs_buttons() else None
        elif not runner.match.is_over:  # between two hands: the finished one still takes 代打 switches
            runner.game = runner.match.finished_hand
            runner.result = runner.match.history[-1].result if runner.match.history else None
        return runner

    async def resume(self) -> None:
        """Tell the channel, show the table and each person's hand afresh, and start the clock again."""
        if self.state.phase is TablePhase.LOBBY:
            self.lobby_changed()
            return
        await self.post(content=t(self.locale, "play.resumed", n=self.resumed_at))
        if self.match is not None and self.match.is_over and self.game is None:
            await self._finish_match()
            return
        if self.game is None or self.game.is_over:
            self.next_hand_at = 0.0
        else:
            await self._show_hand()
        self.task = asyncio.create_task(self._drive(), name=f"table-{self.table_id}")

    # ------------------------------------------------------------------ lobby

    async def lobby_payload(self) -> Payload:
        from .prompts import lobby_embed, lobby_view

        return Payload(
            embeds=[lobby_embed(self.state, self.locale, self.host_name)],
            view=lobby_view(self.state, self.locale),
        )

    def lobby_changed(self) -> None:
        self.version += 1
        self.journal.seats(seat_records(self.state.seats))
        if self.lobby is not None:
            self.lobby.want(self.version)

    def stored_options(self) -> dict:
        """What the table row keeps besides the engine's options: the language and the host's name."""
        return {
            "table": self.state.settings.options.to_dict(),
            "spectators": self.state.settings.spectators,
            "hints": self.state.settings.hints,
            "locale": self.locale,
            "host_name": self.host_name,
            "locales": {str(s.user_id): s.locale for s in self.state.seats if s.user_id is not None},
        }

    def _storage_failing(self, error: Exception) -> None:
        self.cog.background(self.post(content=t(self.locale, "play.storage_failing")))

    def _storage_back(self) -> None:
        self.cog.background(self.post(content=t(self.locale, "play.storage_ok")))

    # ------------------------------------------------------------------ starting

    async def start_match(self) -> None:
        """Seat draw, dealer dice, first hand. The lobby has already been moved to PLAYING."""
        state = self.state
        s = state.settings
        self.match = Match(s.rules, seed=self.cog.rng.getrandbits(62), rounds=s.rounds, options=s.options)
        by_seat: list[Seat | None] = [None] * 4
        for player, seat in enumerate(self.match.seat_of_player):
            by_seat[seat] = state.seats[player]
        self.seating = Seating([x for x in by_seat if x is not None])
        self.journal.options(self.stored_options())
        self.journal.match(seat_records(self.seating.by_seat), self.match.header())
        self._ai_policies()
        names = self.seating.text_names()
        lines = texts.seat_lines(self.match, names, self.locale)
        dice = self.match.dealer_dice
        dealer = names[self.match.first_dealer]
        if self.match.profile.host_deals_first:
            first = t(self.locale, "play.host_deals", name=dealer)
        else:
            first = t(self.locale, "play.dice", dice=" ".join(map(str, dice)), total=sum(dice), name=dealer)
        text = t(self.locale, "play.seat_draw", lines=lines) + "\n" + first
        await self.post(content=text)
        await self._start_hand()
        self.task = asyncio.create_task(self._drive(), name=f"table-{self.table_id}")

    def _ai_policies(self) -> None:
        for seat, who in enumerate(self.seating.by_seat):
            if who.is_ai:
                rng = random.Random(self.match.seed + seat if self.match else seat)
                self.policies[seat] = make_policy(who.ai_level or DEFAULT_AI, rng)

    async def _start_hand(self) -> None:
        """Deal (under the lock), then post the table and send the DMs (outside it)."""
        async with self.lock:
            assert self.match is not None
            self._close_hand_messages()
            self.game = self.match.new_hand()  # 代打 carries over (Match.auto_seats) until the player is back
            self.away_at_start = set(self.game.auto_seats())
            self.journal.hand(self.game.hand_number, self.game.header())
            self.result = None
            self.prompted.clear()
            self.notes.clear()
            self.dms = {}
            self._new_decision()
            leaver = min(self.leavers) if self.leavers else None
            ended = self._abandon(leaver) if leaver is not None else None
        if leaver is not None and ended is not None:  # left between hands: the table ends as this one is dealt
            await self._announce_abandon(leaver, ended)
            return
        await self._show_hand()

    async def _show_hand(self) -> None:
        """Post the hand's table message and send each person their hand (outside the lock)."""
        async with self.lock:
            self.version += 1
            payload = await self._table_payload()
        table = await self.post_payload(payload)
        async with self.lock:
            if table is not None:
                self.table_msg = LiveMessage(
                    table,
                    self._table_payload,
                    min_interval=self.timing.edit_interval,
                    budget=self.cog.budget,
                    on_error=self._channel_error,
                )
                self.table_msg.mark_shown(self.version)
                self.journal.table_message(table.id)
        for seat, who in enumerate(self.seating.by_seat):  # every hand is on its way: no clock runs out first
            if who.user_id is not None and who.user_id not in self.dm_closed:
                self.dms.setdefault(seat, DmSlot(who.user_id, sending=True))
        for seat, who in enumerate(self.seating.by_seat):
            if who.user_id is not None and who.user_id not in self.dm_closed:
                await self._open_dm(seat, who)
            elif who.user_id is not None:
                self.dms[seat] = DmSlot(who.user_id, failed=True)
        async with self.lock:
            self._refresh(actor=None)
            self.wake.set()

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

    async def _send_dm(self, seat: int, who: Seat, slot: DmSlot) -> None:
        assert who.user_id is not None
        for attempt, pause in enumerate((*DM_RETRY_PAUSES, None)):
            try:
                channel = await self.cog.dm_channel(who.user_id)
                async with self.lock:
                    payload = await self.dm_payload(seat)
                    version = self.version
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
            if pause is None:
                await self.post(content=t(self.locale, "play.dm_later", name=self.seating.text_names()[seat]))
                return
            await asyncio.sleep(pause)
        async with self.lock:
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
        self.dm_closed.add(who.user_id)
        async with self.lock:
            self.dms[seat].failed = True
            game = self.game
            if game is not None and not game.is_over and seat not in game.auto_seats():
                self._apply(Action(seat, Kind.AWAY))
        await self.post(
            content=t(self.locale, "play.dm_failed", mention=f"<@{who.user_id}>"),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(who.user_id)]),
        )

    # ------------------------------------------------------------------ payloads

    async def _table_payload(self) -> Payload:
        """The picture and its caption from one moment: both are read before the render's await, so a
        move made while the picture is drawn cannot put a newer caption over an older picture."""
        game = self.game
        assert game is not None
        view = game.view(None)
        content = self.table_text()
        buttons = None if self._match_ended() else table_view(self.table_id, self.locale)
        png = await asyncio.to_thread(render.render_table, view, self.seating.names(), locale=self.locale)
        return Payload(content=content, png=png, filename="table.png", view=buttons)

    def _match_ended(self) -> bool:
        return self.state.phase is not TablePhase.PLAYING or (self.match is not None and self.match.is_over)

    def table_text(self) -> str:
        assert self.game is not None
        if self._match_ended():
            return t(self.locale, "play.table_over", n=self.game.hand_number)
        deadline = deadline_text(self.locale, self.deadline)
        return texts.table_text(self.game, self.seating.text_names(), self.locale, deadline, self.notes)

    async def dm_payload(self, seat: int, mode: str = "main") -> Payload:
        """A person's hand: their picture, one line saying what to do, and their buttons."""
        game = self.game
        assert game is not None
        who = self.seating.by_seat[seat]
        loc = who.locale
        view = game.view(seat)
        header = t(
            loc,
            "play.dm_hand",
            n=game.hand_number,
            rules=t(loc, f"rules.{self.state.settings.rules}"),
            channel=self.state.channel_id,
        )
        buttons: discord.ui.View | None = None
        discard_hints: tuple[ReadyDiscard, ...] = ()
        deadline = deadline_text(loc, self.deadline)
        moment = texts.win_moment(self.result, self.seating.text_names(), loc) if game.is_over else ""
        if self._match_ended():
            line = t(loc, "play.dm_match_over", channel=self.state.channel_id)
        elif game.is_over:
            line = t(loc, "play.dm_over", channel=self.state.channel_id)
            if seat in game.auto_seats():  # between hands: the next hand starts in control
                buttons = take_back_view(self.table_id, loc)
        elif seat in game.auto_seats():
            line = t(loc, "play.dm_auto")
            buttons = take_back_view(self.table_id, loc)
        elif game.phase is Phase.EXCHANGE and seat in game.to_act():
            line = t(loc, "play.dm_exchange", deadline=deadline)
            tiles = list(view.concealed) + ([view.drawn] if view.drawn is not None else [])
            buttons = exchange_view(
                table=self.table_id,
                hand=game.hand_number,
                seat=seat,
                move=self.decision,
                tiles=tiles,
                locale=loc,
            )
        else:
            legal = game.legal_actions(seat)
            hints_on = self.state.settings.hints
            if hints_on and legal and game.phase is Phase.TURN and not game.ready[seat]:
                discard_hints = ready_discards(game, seat)
            if not legal:
                line = t(loc, "play.dm_wait")
            else:
                names = self.seating.text_names()
                start = self.feed_marks.start(seat, game.hand_number, self.decision, len(game.events))
                feed = feed_text(game.events, start, seat, names, loc)
                if game.phase is Phase.TURN:
                    key = (
                        "play.dm_ready_pick"
                        if mode == "ready"
                        else "play.dm_turn_ready"
                        if game.ready[seat]
                        else "play.dm_turn"
                    )
                    line = t(loc, key, deadline=deadline)
                    if mode == "ready":  # choosing the tile is the confirmation: say what 聽 costs first
                        line += "\n" + t(loc, "play.ready_cost")
                else:
                    claim = game.claim
                    assert claim is not None
                    key = "play.dm_rob" if claim.rob_kong else "play.dm_claim"
                    line = t(
                        loc,
                        key,
                        name=names[claim.discarder],
                        tile=tile_label(loc, claim.tile),
                        deadline=deadline,
                    )
                if feed:  # what the others did since this person's previous prompt
                    line = f"{feed}\n{line}"
                buttons = action_view(
                    table=self.table_id,
                    hand=game.hand_number,
                    seat=seat,
                    move=self.decision,
                    legal=legal,
                    drawn=view.drawn,
                    locale=loc,
                    mode=mode,
                    self_draw_turn=game.phase is Phase.TURN,
                    marked=marked_tiles(discard_hints),
                )
        if moment:  # 胡! with the tile and the value, even where the table won for this player
            line = f"{moment}\n{line}"
        playing = not (self._match_ended() or game.is_over or seat in game.auto_seats())
        if playing:  # where you stand (standing.py): waits, the discards that keep you ready, 過水
            line = "\n".join([line, *standing_lines(view, discard_hints, loc, hints=self.state.settings.hints)])
            if not self.state.settings.hints:
                view = replace(view, waits=())  # the picture keeps the secret too
        declare = game.declarations(seat) if playing else []
        if declare:
            buttons = add_eye_button(buttons, self.table_id, declare[0].kind is Kind.MIJI, loc)
        if view.others:  # 眼牌: the declarer sees the other hands (in the image too; the text names them)
            line += "\n" + texts.others_text(view, self.seating.text_names(), loc)
        # last: the words above are of this view; the picture's labels in the reader's language
        png = await asyncio.to_thread(render.render_hand, view, locale=loc)
        return Payload(content=f"{header}\n{line}", png=png, filename="hand.png", view=buttons)

    # ------------------------------------------------------------------ applying moves

    def _robot(self, seat: int) -> bool:
        game = self.game
        assert game is not None
        return self.seating.by_seat[seat].is_ai or seat in game.auto_seats()

    def _needs_buttons(self) -> set[int]:
        """Human seats that owe a decision now."""
        game = self.game
        if game is None or game.is_over or self.closed or self._match_ended():
            return set()
        return {s for s in game.to_act() if not self._robot(s)}

    def _new_decision(self) -> None:
        """A new decision point: new stale-click id, new deadline for the people who owe it."""
        game = self.game
        assert game is not None
        self.decision = len(game.events)
        self.decision_opened = time.time()
        self.prompt_version = self.version
        self.delivered = set()
        humans = self._needs_buttons()
        if humans:
            seconds = self._seconds(game)
            self.deadline = time.time() + seconds * self.timing.timer_scale
        else:
            self.deadline = None
        self.ai_ready_at = time.monotonic() + (self.timing.ai_delay if game.phase is Phase.TURN else 0.0)

    def _seconds(self, game: Game) -> int:
        options = self.state.settings.options
        return (
            options.claim_seconds if game.phase in CLAIM_PHASES else options.turn_seconds
        )  # 換牌: a turn's time

    def _prompt_delivered(self, seat: int, version: int) -> None:
        """Discord acknowledged the message showing ``seat`` its prompt at ``version``. Delivered later
        than the grace after the decision opened (an upload, a DM at its edit limit), the clock restarts
        from now: stored, and shown afresh (once per seat and decision, so the refresh cannot loop)."""
        game = self.game
        if game is None or self.deadline is None or version < self.prompt_version or seat in self.delivered:
            return
        if seat not in self._needs_buttons():
            return
        self.delivered.add(seat)
        now = time.time()
        if now - self.decision_opened <= self.timing.delivery_grace:
            return
        fresh = now + self._seconds(game) * self.timing.timer_scale
        if fresh <= self.deadline:
            return
        self.deadline = fresh
        self.journal.deadline(game.hand_number, fresh)
        self.version += 1  # the countdown shown is the one enforced: the prompts and the table say so
        if self.table_msg is not None:
            self.table_msg.want(self.version)
        for owing in self._needs_buttons():
            slot = self.dms.get(owing)
            if slot is not None and slot.live is not None:
                slot.live.want(self.version)
        self.wake.set()

    def _prompt_on_its_way(self) -> bool:
        """Someone who owes the decision has a DM coming (sent or being edited) that Discord has not yet
        acknowledged for this decision; past ``delivery_cap`` beyond the deadline the table stops waiting."""
        assert self.deadline is not None
        if time.time() > self.deadline + self.timing.delivery_cap:
            return False
        for seat in self._needs_buttons():
            slot = self.dms.get(seat)
            if seat not in self.delivered and slot is not None and slot.coming():
                return True
        return False

    def _rearm_deadline(self) -> None:
        game = self.game
        assert game is not None
        if not self._needs_buttons():
            self.deadline = None
        elif self.deadline is None:
            seconds = self._seconds(game)
            self.deadline = time.time() + seconds * self.timing.timer_scale

    def _apply(self, action: Action, *, answering: int | None = None) -> list:
        """Play one action (lock held) and schedule every message it changes."""
        game = self.game
        assert game is not None
        before_phase, before_claim = game.phase, game.claim
        events = game.apply(action)
        self.version += 1
        stored = str(game.log[-1])
        same_window = (
            before_phase in SIMULTANEOUS
            and game.phase is before_phase
            and game.claim is before_claim
            and action.kind in (*CLAIM_KINDS, Kind.EXCHANGE)
        )
        if all(event.kind in QUIET_EVENTS for event in events):
            self._rearm_deadline()  # away / back / 眼牌: same decision point, only who must answer changed
        elif not same_window:
            self._new_decision()
        self.journal.move(game.hand_number, len(game.log) - 1, stored, self.deadline)
        names = self.seating.text_names()
        for event in events:
            kind = getattr(event.kind, "value", event.kind)
            if kind == "auto_on":
                self.notes.append(t(self.locale, "play.auto_on", name=names[event.seat]))
            elif kind == "auto_off":
                self.notes.append(t(self.locale, "play.auto_off", name=names[event.seat]))
            elif kind == "eye":
                self.notes.append(t(self.locale, "play.eye", name=names[event.seat], what=event.detail))
        self._refresh(actor=action.seat, answering=answering)
        self.wake.set()
        return events

    def _refresh(self, actor: int | None, answering: int | None = None) -> None:
        """Schedule the table edit and the DMs whose picture or buttons changed. ``answering`` is the seat
        whose click is being answered: the click's own response shows their hand, so no edit for it."""
        if self.table_msg is not None:
            self.table_msg.want(self.version)
        now_prompted = self._needs_buttons()
        changed = now_prompted | self.prompted
        if actor is not None:
            changed.add(actor)
        game = self.game
        if game is not None and (game.is_over or actor is None):
            changed |= set(self.dms)
        if game is not None:
            changed |= {s for s in range(4) if game.eye[s]}  # 眼牌: their text lists the other hands
        changed.discard(answering)  # type: ignore[arg-type]
        for seat in changed:
            slot = self.dms.get(seat)
            if slot is not None and slot.live is not None:
                slot.live.want(self.version)
        self.prompted = now_prompted

    # ------------------------------------------------------------------ clicks

    async def act(self, interaction: discord.Interaction, fields: dict) -> None:
        """A prompt button: validate against the live decision point, apply, answer with the new hand."""
        async with self.lock:
            seat = self._check_prompt(interaction, fields)
            try:
                action = to_action(seat, fields["code"])
            except NotationError:
                raise TableError("err.stale") from None
            game = self.game
            assert game is not None
            if not game.is_legal(action):
                raise TableError("err.illegal")
            try:
                self._apply(action, answering=seat if self._from_dm(interaction, seat) else None)
            except IllegalActionError:
                raise TableError("err.illegal") from None
            await self.journal.flush()  # the move is stored before the player sees it
        await self._answer_with_hand(interaction, seat)  # outside the lock: others' clicks need not wait

    async def exchange(self, interaction: discord.Interaction, fields: dict) -> None:
        """換牌 select: the chosen tiles (choosing is confirming), validated like a button."""
        async with self.lock:
            seat = self._check_prompt(interaction, fields)
            try:
                action = Action(seat, Kind.EXCHANGE, None, exchange_tiles(fields["values"]))
            except NotationError:
                raise TableError("err.stale") from None
            game = self.game
            assert game is not None
            if not game.is_legal(action):
                raise TableError("err.illegal")
            self._apply(action, answering=seat if self._from_dm(interaction, seat) else None)
            await self.journal.flush()  # the move is stored before the player sees it
        await self._answer_with_hand(interaction, seat)

    async def declare_eye(self, interaction: discord.Interaction) -> None:
        """眼牌 (Miji in its window): any time while the hand is played, from the hand message."""
        async with self.lock:
            seat = self._seat_for(interaction)
            game = self.game
            assert game is not None
            if game.is_over or seat in game.auto_seats() or not game.declarations(seat):
                raise TableError("err.illegal")
            self._apply(
                game.declarations(seat)[0], answering=seat if self._from_dm(interaction, seat) else None
            )
            await self.journal.flush()
        await self._answer_stored(interaction, seat)

    async def switch_mode(self, interaction: discord.Interaction, fields: dict) -> None:
        async with self.lock:
            seat = self._check_prompt(interaction, fields)
        if not await respond(interaction, partial(self.dm_payload, seat, mode=fields["mode"]), update=True):
            self._answer_failed(seat)

    def _check_prompt(self, interaction: discord.Interaction, fields: dict) -> int:
        game = self.game
        if game is None or self.closed or self.state.phase is not TablePhase.PLAYING:
            raise TableError("err.table_over")
        if self.blocked is not None:
            raise TableError("err.table_blocked")
        seat = int(fields["seat"])
        if self.seating.by_seat[seat].user_id != interaction.user.id:
            raise TableError("err.not_your_seat")
        if fields["hand"] != game.hand_number or fields["move"] != self.decision or game.is_over:
            raise TableError("err.stale")
        if seat not in game.to_act():
            raise TableError("err.not_your_turn")
        return seat

    def _from_dm(self, interaction: discord.Interaction, seat: int) -> bool:
        slot = self.dms.get(seat)
        live = slot.live if slot is not None else None
        return (
            live is not None and interaction.message is not None and interaction.message.id == live.message.id
        )

    async def _answer_stored(self, interaction: discord.Interaction, seat: int) -> None:
        """The change is stored (the lock released): answer with the seat's hand in place on the message
        clicked (their DM, old or current, or their private hand), which works whatever their DM
        settings; a click on a channel message gets a private hand instead."""
        if not _own_message(interaction):  # a click on a channel message: the hand goes privately
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
        if not await respond(interaction, partial(self.dm_payload, seat), update=True):
            self._answer_failed(seat)
            return
        slot = self.dms.get(seat)
        if slot is not None and slot.live is not None and interaction.message is not None:
            if interaction.message.id == slot.live.message.id:  # its token carries later edits (live.py)
                slot.live.mark_shown(version, via=interaction)
        self._prompt_delivered(seat, version)

    def _answer_failed(self, seat: int) -> None:
        """The click's answer never reached the person (too late, 10062, a failure): their DM is edited
        through the channel route to the current state, so they never keep an old prompt."""
        slot = self.dms.get(seat)
        if slot is not None and slot.live is not None:
            slot.live.want(self.version)

    async def take_back(self, interaction: discord.Interaction) -> None:
        async with self.lock:
            seat = self._seat_for(interaction)
            if not self._switch_auto(seat, away=False, answering=self._answering(interaction, seat)):
                raise TableError("err.not_auto")
            if self.paused_until is not None:  # someone is back: the table plays on
                self._unpause()
            await self.journal.flush()
        await self._answer_stored(interaction, seat)

    async def resume_paused(self, interaction: discord.Interaction) -> None:
        """The pause's Resume button: a seated person takes their seat back and the next hand starts."""
        async with self.lock:
            seat = self._seat_for(interaction)
            if self.paused_until is None:
                raise TableError("err.not_paused")
            self._switch_auto(seat, away=False, answering=None)
            self._unpause()
            await self.journal.flush()
        await interaction.response.send_message(t(interaction.locale, "ok.resumed"), ephemeral=True)

    def _switch_auto(self, seat: int, *, away: bool, answering: int | None) -> bool:
        """代打 on or off for ``seat`` (lock held), stored like a move. Between two hands the settled
        hand takes it (Match.between_hands), so the next hand starts that way and a replay agrees.
        False when the seat already is that way."""
        game, match = self.game, self.match
        assert game is not None and match is not None
        if (seat in game.auto_seats()) == away:
            return False
        action = Action(seat, Kind.AWAY if away else Kind.BACK)
        if game.is_over and self.result is not None:  # settled: the switch is for the next hand
            match.between_hands(action)
            self.version += 1
            self.journal.move(game.hand_number, len(game.log) - 1, str(action), None)
            self._refresh(actor=seat, answering=answering)
        else:
            self._apply(action, answering=answering)
        return True

    def _answering(self, interaction: discord.Interaction, seat: int) -> int | None:
        return seat if self._from_dm(interaction, seat) else None

    async def show_hand(self, interaction: discord.Interaction) -> None:
        """The fallback for closed DMs: a fresh ephemeral hand with the same buttons, on every click."""
        async with self.lock:
            seat = self._seat_for(interaction)
        await self._answer_privately(interaction, seat)

    def _seat_for(self, interaction: discord.Interaction) -> int:
        if self.game is None or self.closed or self.state.phase is not TablePhase.PLAYING:
            raise TableError("err.table_over")
        seat = self.seating.seat_of_user(interaction.user.id)
        if seat is None:
            raise TableError("err.not_seated")
        return seat

    async def player_left(self, user_id: int) -> None:
        """A person leaves mid-match: their seat is auto-played to the end (they may take it back), or,
        where the rule set says so (taiwan13 中断连线), the table ends and the leaver pays. Anything
        arriving once the table has ended changes nothing."""
        async with self.lock:
            seat = self.seating.seat_of_user(user_id)
            game, match = self.game, self.match
            if seat is None or game is None or match is None or self.closed or match.is_over:
                return
            if not match.ends_on_leave:
                self._switch_auto(seat, away=True, answering=None)
                return
            if game.is_over:  # between hands: stored as 代打 now, the table ends as the next hand is dealt
                self._switch_auto(seat, away=True, answering=None)
                self.leavers.add(seat)
                self.next_hand_at = 0.0
                self.wake.set()
                return
            result = self._abandon(seat)
        await self._announce_abandon(seat, result)

    def _abandon(self, seat: int) -> HandResult:
        """The leaver's penalty ends the table (lock held); the caller announces it."""
        game, match = self.game, self.match
        assert game is not None and match is not None
        result = match.abandon(game, seat)
        assert result is not None
        self.closed = True  # the driver stops: the table ends here
        self.leaver = seat
        self.wake.set()
        self.deadline = None
        self.version += 1
        self._store_result(game.hand_number, result)
        return result

    async def _announce_abandon(self, seat: int, result: HandResult) -> None:
        name = self.seating.text_names()[seat]
        await self.post(content=t(self.locale, "play.left_ends", name=name, points=-result.deltas[seat]))
        await self._finish_match()

    # ------------------------------------------------------------------ the driver

    async def _drive(self) -> None:
        """Plays robots, fires deadlines, ends hands: the table's own clock. Network I/O (new messages,
        DMs) runs outside the lock, so a click never waits behind Discord's rate limits."""
        try:
            while not self.closed:
                async with self.lock:
                    wait, job = self._advance()
                if job is not None:
                    await job()
                    continue
                if wait is None:
                    await self.wake.wait()
                elif wait > 0:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self.wake.wait(), wait)
                self.wake.clear()
        except asyncio.CancelledError:
            raise
        except Exception:
            if not self.closed:
                log.exception("table %s stopped on an unexpected error", self.table_id)

    def _advance(self) -> tuple[float | None, Job | None]:
        """Do the next automatic thing (lock held); return how long to wait, or I/O to do unlocked."""
        game = self.game
        if self.closed or self.match is None:
            return None, None
        if self.blocked is not None:  # nothing moves (no AI, no clock) until the channel takes posts again
            left = self.next_probe_at - time.time()
            return (left, None) if left > 0 else (0, self._probe_channel)
        if game is None:  # restored between two hands
            return (0, self._start_hand) if not self.match.is_over else (None, None)
        if game.is_over:
            if self.result is None:
                return 0, self._finish_hand()
            if self.paused_until is not None:  # everyone away: wait for a Resume, or end the table
                left = self.paused_until - time.time()
                return (left, None) if left > 0 else (0, self._end_paused)
            left = self.next_hand_at - time.monotonic()
            if left > 0:
                return left, None
            return 0, self._start_hand
        pending = game.to_act()
        robots = [s for s in pending if self._robot(s)]
        if robots:
            seat = robots[0]
            if self.seating.by_seat[seat].is_ai and game.phase is Phase.TURN:
                wait = self.ai_ready_at - time.monotonic()
                if wait > 0:
                    return wait, None
            action = self._robot_action(seat)
            self._apply(action)
            if action.kind in (Kind.DISCARD, Kind.READY):
                self._ai_declares(seat)
            return 0, None
        if self.deadline is not None:
            left = self.deadline - time.time()
            if left <= 0 and self._prompt_on_its_way():
                return 0.25, None  # the clock starts when the prompt arrives (_prompt_delivered)
            if left <= 0:
                self._apply(Action(pending[0], Kind.TIMEOUT))
                return 0, None
            return left, None
        return None, None

    def _ai_declares(self, seat: int) -> None:
        """A strong AI may declare 眼牌 / Miji after its discard, when the expected 台 pay for the risk."""
        game = self.game
        policy = self.policies.get(seat)
        declare = getattr(policy, "declare", None)
        if game is None or game.is_over or declare is None or seat in game.auto_seats():
            return
        offered = game.declarations(seat)
        if offered:
            chosen = declare(game.view(seat), offered)
            if chosen is not None:
                self._apply(chosen)

    def _robot_action(self, seat: int) -> Action:
        game = self.game
        assert game is not None
        policy = self.policies.get(seat)
        if policy is None or seat in game.auto_seats():  # 代打 (it keeps the hand at 換牌)
            return game.auto_action(seat)
        return policy.choose(game.view(seat), game.legal_actions(seat))

    def _finish_hand(self) -> Job:
        """Score and settle now (lock held); the returned job shows the sheet and the standings."""
        match, game = self.match, self.game
        assert match is not None and game is not None
        result = match.finish_hand(game)
        self.result = result
        self._store_result(game.hand_number, result)
        self.version += 1
        self.deadline = None
        self._refresh(actor=None)
        self.next_hand_at = time.monotonic() + self.timing.hand_pause
        names = self.seating.names()
        text = self.result_text(result, game.hand_number)
        view = game.view(None)
        over = match.is_over
        pause = not over and self._everyone_away(game)
        if pause:
            self.paused_until = time.time() + self.timing.pause_limit

        async def show() -> None:
            house = self.state.settings.options.house_rules.summary()
            png = await asyncio.to_thread(
                render.render_score, result, names, view, house_rules=house, locale=self.locale
            )
            replay = replay_view(self.table_id, game.hand_number, self.locale)  # issue 24: a Replay button
            await self.post_payload(Payload(content=text, png=png, filename="score.png", view=replay))
            await self._settle_messages()
            if over:
                await self._finish_match()
            elif pause and self.paused_until is not None:
                self.pause_msg = await self.post(
                    content=t(self.locale, "play.paused", until=int(self.paused_until)),
                    view=resume_view(self.table_id, self.locale),
                )

        return show

    def _everyone_away(self, game: Game) -> bool:
        """Every person at the table was auto-played (away, left, DMs closed) through this whole hand."""
        people = {seat for seat, who in enumerate(self.seating.by_seat) if not who.is_ai}
        return bool(people) and people <= self.away_at_start and people <= set(game.auto_seats())

    def _unpause(self) -> None:
        self.paused_until = None
        self.next_hand_at = 0.0
        self.wake.set()
        message, self.pause_msg = self.pause_msg, None
        if message is not None:
            content = t(self.locale, "play.unpaused")
            self.cog.background(self._quietly(message.edit(content=content, view=None)))

    async def _end_paused(self) -> None:
        """Nobody came back in time: the match ends with the standings as they are."""
        message, self.pause_msg = self.pause_msg, None
        if message is not None:
            await self._quietly(message.edit(content=t(self.locale, "play.pause_ended"), view=None))
        await self._finish_match()

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

    def result_text(self, result: HandResult, number: int) -> str:
        assert self.match is not None
        game = self.game
        names = self.seating.text_names()
        text = texts.result_text(result, number, names, self.match.scores, self.locale)
        if game is None:
            return text
        settings = self.state.settings
        lines = payment_lines(  # why each seat pays what it pays (payments.py)
            result,
            names,
            self.locale,
            rules=settings.rules,
            dealer=game.dealer,
            streak=game.dealer_streak,
            options=settings.options,
        )
        return "\n".join([text, *lines])[:1990]

    async def _finish_match(self) -> None:
        match = self.match
        assert match is not None
        names = self.seating.text_names()
        lines = [
            t(self.locale, "play.standing_line", rank=rank, name=names[seat], score=score)
            for rank, (seat, score) in enumerate(match.standings(), start=1)
        ]
        embed = discord.Embed(title=t(self.locale, "play.match_over"), description="\n".join(lines))
        add_ledger(embed, names, match.scores, self.state.settings, partial(t, self.locale))
        self.journal.match_over(list(match.scores), leaver=self.leaver)
        self.state.phase = TablePhase.OVER
        self.closed = True
        self.deadline = None
        self.paused_until = None
        self.version += 1
        self._refresh(actor=None)  # the table message and every DM say it ended, with no live buttons
        # the summary picture (placements, totals, best hands, wins and deal-ins) inside the standings
        rows = match_summary(match)
        unit = get_rules(self.state.settings.rules).unit
        png = await asyncio.to_thread(render_summary, rows, names, len(match.history), unit, self.locale)
        embed.set_image(url="attachment://summary.png")
        buttons = standings_view(self.table_id, self.locale)  # Review my play (issue 26)
        if self.state.kind != SYSTEM:  # and Rematch: a new table with the same seats
            for item in rematch_view(self.table_id, self.locale).children:
                buttons.add_item(item)
        self.cog.offer_rematch(self)  # before the button can be clicked
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

    def _close_hand_messages(self) -> None:
        if self.table_msg is not None:
            self.table_msg.close()
        for slot in self.dms.values():
            if slot.live is not None:
                slot.live.close()

    # ------------------------------------------------------------------ channel messages

    async def post(self, **kwargs) -> discord.Message | None:
        try:
            await self.cog.budget.take(urgent=True)  # new messages count toward the global limit too
            return await self.channel.send(**kwargs)
        except NETWORK_ERRORS as error:
            log.warning("table %s could not post in its channel: %s", self.table_id, error)
            await self._channel_error(error)
            return None

    async def _channel_error(self, error: Exception) -> None:
        """A post or edit in the table's channel failed. A deleted channel (10003) ends the table; a lost
        permission (403 50013 / 50001) pauses it with nothing lost and tells the host; it plays on once
        a post goes through again."""
        if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:  # deleted under us
            self.cog.abandon_where(lambda runner: runner is self)
            return
        if not isinstance(error, discord.Forbidden) or error.code not in CHANNEL_FORBIDDEN:
            return
        if self.blocked is not None or self.closed or self.state.phase is not TablePhase.PLAYING:
            return
        self.blocked = error.text or str(error.code)
        self.next_probe_at = time.time() + self.timing.permission_probe
        self.wake.set()
        log.info("table %s paused: %s", self.table_id, error)
        text = t(self.locale, "play.blocked_host", table=self.table_id, channel=self.state.channel_id, what=self.blocked)
        try:
            channel = await self.cog.dm_channel(self.state.host_id)
            await channel.send(text)
        except NETWORK_ERRORS as dm_error:
            log.info("table %s: could not tell the host: %s", self.table_id, dm_error)

    async def _probe_channel(self) -> None:
        """Try to show the table again; on success it plays on, the clock given back in full."""
        if self.game is None:
            self.next_probe_at = time.time() + self.timing.permission_probe
            return
        async with self.lock:
            self.version += 1
            payload = await self._table_payload()
        try:
            await self.cog.budget.take(urgent=True)
            message = await self.channel.send(**payload.send_kwargs())
        except NETWORK_ERRORS as error:
            log.info("table %s still cannot post: %s", self.table_id, error)
            self.next_probe_at = time.time() + self.timing.permission_probe
            return
        async with self.lock:
            self.blocked = None
            if self.table_msg is not None:
                self.table_msg.close()
            self.table_msg = LiveMessage(
                message, self._table_payload, min_interval=self.timing.edit_interval, budget=self.cog.budget,
                on_error=self._channel_error,
            )
            self.table_msg.mark_shown(self.version)
            self.journal.table_message(message.id)
            if self.deadline is not None:  # the time the pause took is given back
                self.deadline = None
                self._rearm_deadline()
            self.version += 1
            self._refresh(actor=None)
            self.wake.set()
        await self.post(content=t(self.locale, "play.unblocked"))

    async def post_payload(self, payload: Payload) -> discord.Message | None:
        return await self.post(**payload.send_kwargs())

    async def repost_table(self) -> Payload:
        """The current table for /mahjong table (posted as the command's answer)."""
        async with self.lock:
            if self.game is None:
                return await self.lobby_payload()
            return await self._table_payload()

    async def close(self) -> None:
        """Stop playing (the host closed the table, or the bot shuts down); pending writes are stored first."""
        self.closed = True
        self._close_hand_messages()
        if self.lobby is not None:
            self.lobby.close()
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        with contextlib.suppress(Exception):
            await self.journal.close()


def _own_message(interaction: discord.Interaction) -> bool:
    """The clicked message is the clicker's alone: in their DMs, or an ephemeral answer to them."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)


def seat_records(seats: list[Seat]) -> list[SeatRecord]:
    return [SeatRecord(i, s.user_id, s.name, s.ai_level) for i, s in enumerate(seats)]
