"""A table's hand messages: each person's DM for the hand in play, sent once a hand is dealt and kept up
to date as a ``LiveMessage``.

Only 50007 means a person's DMs are closed: they are told once in the channel and play through "Show my
hand" (their host feeds ``DmsClosed``). Anything else (a 5xx, a dropped connection, 40003 "opening DMs
too fast") is tried again after a pause, then in rounds of back-off while the hand lasts. The outlet is
handed a ``Deal`` and answers its host (``DmHost``) with what Discord said: delivered, or closed.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

import aiohttp
import discord

from table import effects as fx
from table.lobby import Seat, TableState
from table.session import TableSession

from ..i18n import t
from .answers import respond
from .feed import FeedMarks
from .live import PICTURE, PROMPT, LiveMessage, Payload
from .markdown import shown_name

log = logging.getLogger(__name__)

# Discord's errors after discord.py's own retries, and the connection failing under them
NETWORK_ERRORS = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)
DMS_CLOSED = 50007  # "Cannot send messages to this user": the one error that means DMs are closed
DM_RETRY_PAUSES = (0.5, 1.5, 4.0)  # seconds before trying a failed DM again (transient failures)
# a hand's DM still not sent after those tries gets a new round of tries this long after each failed
# round (the last pause repeats) while the hand lasts: Discord's incidents last minutes, and the person,
# often the one whose turn it is, has no other way to see their hand but Show my hand
DM_BACKOFF = (5.0, 15.0, 30.0, 60.0)


@dataclass
class DmSlot:
    """A person's hand message for the current hand."""

    user_id: int
    name: str = ""  # as the seat is called (the channel's "your hand comes later" names them)
    live: LiveMessage | None = None
    failed: bool = False  # DMs closed (50007): they play through "Show my hand"
    sending: bool = False  # the hand's DM is on its way
    rounds: int = 0  # rounds of tries that failed (a transient failure: tried again later)
    built: tuple[int, int] | None = None  # what the edit under way asks them to press (HandMessages._rank)
    shown: tuple[int, int] | None = None  # what the message Discord last acknowledged asks them to press

    def coming(self) -> bool:
        """A prompt can still reach the person here (the session's clock waits for it)."""
        return not self.failed and (self.sending or (self.live is not None and not self.live.closed))


class DmHost(Protocol):
    """What the hand messages need of their table's host (the runner)."""

    cog: Any
    state: TableState
    session: TableSession  # asked only its phase: nothing more is sent once the table is closed
    lock: asyncio.Lock

    def version(self) -> int: ...  # what a payload built now shows
    async def dm_payload(self, seat: int, mode: str = "main") -> Payload: ...
    def delivered(self, seat: int, version: int, *, notified: bool = False) -> None: ...  # notified: a new message
    def dms_closed(self, seat: int) -> None: ...  # 50007: fed to the table (the lock held)
    def owes(self, seat: int) -> tuple[int, int] | None: ...  # what the seat's person has to press (a decision, Take back)
    async def post(self, **kwargs: Any) -> discord.Message | None: ...


class HandMessages:
    def __init__(self, host: DmHost) -> None:
        self.host = host
        self.slots: dict[int, DmSlot] = {}  # seat → this hand's DM
        self.closed: set[int] = set()  # people whose DMs failed: they play through "Show my hand"
        self.marks = FeedMarks()  # where each person's action feed starts (feed.py)
        # DMs closed: the ephemeral hand of their last Show my hand press, kept live through its token (issue 39)
        self.private: dict[int, LiveMessage] = {}

    # ------------------------------------------------------------------ what the host asks

    def live(self, seat: int) -> LiveMessage | None:
        slot = self.slots.get(seat)
        if slot is not None and slot.live is not None:
            return slot.live
        private = self.private.get(seat)
        return private if private is not None and not private.closed else None

    def want(self, seat: int, version: int) -> None:
        live = self.live(seat)
        if live is not None:
            live.want(version)

    def coming(self) -> frozenset[int]:
        """Seats whose prompt is still on its way, or can still reach them (the clock waits for it)."""
        return frozenset(seat for seat, slot in self.slots.items() if slot.coming())

    def nudgeable(self, seat: int) -> bool:
        """The seat's hand message is in their DMs (not closed, not played through Show my hand)."""
        slot = self.slots.get(seat)
        return slot is not None and not slot.failed and slot.live is not None and not slot.live.closed

    def lives(self) -> list[LiveMessage]:
        return [slot.live for slot in self.slots.values() if slot.live is not None] + list(self.private.values())

    def close(self, *, abort: bool = False) -> None:
        """The hand's DMs take no more edits. A live private hand (DMs closed) goes on into the next hand
        while its token lasts; only a stop (``abort``) closes it too."""
        for slot in self.slots.values():
            if slot.live is not None:
                slot.live.close(abort=abort)
        if abort:
            for live in self.private.values():
                live.close(abort=True)

    def new_hand(self) -> None:
        """The last hand's messages are done (closed by then): the next hand's start afresh."""
        self.slots = {}

    # ------------------------------------------------------------------ sending

    async def send(self, deal: fx.Deal) -> None:
        """Send every person at the table their hand, one after another."""
        people = [(seat, who) for seat, who in enumerate(deal.seats) if who.user_id is not None]
        for seat, who in people:  # every hand is on its way: no clock runs out first
            assert who.user_id is not None
            if who.user_id not in self.closed:
                self.slots.setdefault(seat, DmSlot(who.user_id, who.name, sending=True))
        for seat, who in people:
            assert who.user_id is not None
            if who.user_id not in self.closed:
                await self._open(seat, who)
            else:
                self.slots[seat] = DmSlot(who.user_id, who.name, failed=True)

    def reseat(self, seat: int, who: Seat) -> None:
        """Another person sits at ``seat`` (the lock held): the last one's hand message stops now, before
        anything could edit it to the newcomer's view; ``send_to`` then sends the newcomer theirs."""
        old = self.slots.pop(seat, None)
        if old is not None and old.live is not None:
            old.live.close(abort=True)
        assert who.user_id is not None
        self.closed.discard(who.user_id)
        self.slots[seat] = DmSlot(who.user_id, who.name, sending=True)

    async def send_to(self, seat: int, who: Seat) -> None:
        await self._open(seat, who)

    async def _open(self, seat: int, who: Seat) -> None:
        assert who.user_id is not None
        slot = DmSlot(who.user_id, who.name, sending=True)
        self.slots[seat] = slot
        try:
            await self._send(seat, who, slot)
        finally:
            slot.sending = False

    async def _send_later(self, seat: int, who: Seat, slot: DmSlot, pause: float) -> None:
        """A new round of tries for a hand's DM Discord did not take, after a back-off: the same slot, so
        the hand's later updates edit the message once it is there."""
        await asyncio.sleep(pause)
        if self.slots.get(seat) is not slot or self.host.session.phase.closed or slot.live is not None or slot.failed:
            return  # the hand is over, or they play another way by now
        slot.sending = True
        try:
            await self._send(seat, who, slot)
        finally:
            slot.sending = False

    async def _send(self, seat: int, who: Seat, slot: DmSlot) -> None:
        assert who.user_id is not None
        host, cog, table_id = self.host, self.host.cog, self.host.state.table_id
        for attempt, pause in enumerate((*DM_RETRY_PAUSES, None)):
            try:
                # no lock: a payload reads every fact before its render's await, at this version
                version, asks = host.version(), host.owes(seat)
                payload = await host.dm_payload(seat)
                message = await cog.send_dm(who.user_id, **payload.send_kwargs())
                break
            except discord.Forbidden as error:
                if error.code == DMS_CLOSED:
                    log.info("seat %s of table %s has DMs closed", seat, table_id)
                    await self._failed(seat, who)
                    return
                failure: Exception = error
            except NETWORK_ERRORS as error:
                failure = error
            log.info("DM to seat %s of table %s failed (try %d): %s", seat, table_id, attempt + 1, failure)
            if pause is None:  # tried again after a back-off, while the hand lasts
                later = DM_BACKOFF[min(slot.rounds, len(DM_BACKOFF) - 1)]
                slot.rounds += 1
                cog.background(self._send_later(seat, who, slot, later))
                if slot.rounds == 1:  # said once a hand
                    await host.post(content=t(host.state.locale, "play.dm_later", name=shown_name(slot.name)))
                return
            await asyncio.sleep(pause)
        async with host.lock:
            if self.slots.get(seat) is not slot:  # the hand ended meanwhile: this DM shows it as it was sent
                return
            slot.live = LiveMessage(
                message,
                partial(self._payload, slot, seat),
                budget=cog.budget,
                rank=partial(self._rank, slot, seat),
                on_shown=partial(self._shown, slot, seat),
            )
            slot.shown = asks
            slot.live.mark_shown(version)
            host.delivered(seat, version, notified=True)  # a new message: Discord notified them of it
            slot.live.want(host.version())

    async def _payload(self, slot: DmSlot, seat: int) -> Payload:
        slot.built = self.host.owes(seat)  # read with the payload's facts, before its render's await
        return await self.host.dm_payload(seat)

    def _shown(self, slot: DmSlot, seat: int, version: int) -> None:
        slot.shown = slot.built
        self.host.delivered(seat, version)

    def _rank(self, slot: DmSlot, seat: int) -> int:
        """An edit of a hand's DM goes before the channels' posts while its person has something to press (a
        decision, or Take back: ranked a picture, it waits out every prompt and post under load) that the
        message does not show yet; else it waits with the table pictures (after a takeover, a hundred DMs
        were edited through the channel route at every AI move, ahead of the prompts people were waiting
        for). A prompt already there, edited again (its clock restarted because it was delivered late, as
        every hand a takeover sends afresh is), shows a countdown that ends sooner than the one enforced
        until the edit lands: a person is never hurried past their time, and a hundred such edits no longer
        go ahead of the prompts still on their way (a 100-table takeover's prompt-rank DM edits: 213, then 118)."""
        asks = self.host.owes(seat)
        return PROMPT if asks is not None and asks != slot.shown else PICTURE

    async def _failed(self, seat: int, who: Seat) -> None:
        """DMs closed (50007): the seat is auto-played, the channel tells them how to play on."""
        assert who.user_id is not None
        self.closed.add(who.user_id)
        async with self.host.lock:
            self.slots[seat].failed = True
            self.host.dms_closed(seat)
        await self.host.post(
            content=t(self.host.state.locale, "play.dm_failed", mention=f"<@{who.user_id}>"),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(who.user_id)]),
        )

    # ------------------------------------------------------------------ a click's answer

    def answering(self, interaction: discord.Interaction, seat: int) -> int | None:
        """``seat`` if the click came from that seat's own hand message (its answer shows the new hand)."""
        live = self.live(seat)
        message = interaction.message
        return seat if live is not None and message is not None and message.id == live.message.id else None

    async def answer_privately(self, interaction: discord.Interaction, seat: int) -> None:
        """A fresh ephemeral hand (closed DMs' Show my hand, a click on a channel message)."""
        version = self.host.version()  # read before the payload: never newer than what it shows
        if await respond(interaction, partial(self.host.dm_payload, seat), update=False):
            self.host.delivered(seat, version)
            if interaction.user.id in self.closed:
                await self._keep_live(interaction, seat, version)
        else:
            self.answer_failed(seat)

    async def _keep_live(self, interaction: discord.Interaction, seat: int, version: int) -> None:
        """DMs closed: the ephemeral hand just sent stays live, edited in place through this press's token
        (and any later click's on it) for as long as Discord lets a token edit (live.TOKEN_LIFE), instead
        of one press per turn. A newer press replaces it."""
        try:
            message = await interaction.original_response()
        except discord.HTTPException as error:
            log.info("seat %s: no live private hand (%s)", seat, error)
            return
        host = self.host
        live = LiveMessage(
            message,
            lambda: host.dm_payload(seat),
            budget=host.cog.budget,
            rank=PROMPT,
            on_shown=partial(host.delivered, seat),
            via=interaction,
            token_only=True,
        )
        live.mark_shown(version, via=interaction)
        old = self.private.get(seat)
        if old is not None:
            old.close()
        self.private[seat] = live
        if host.version() > version:
            live.want(host.version())

    async def answer_in_place(self, interaction: discord.Interaction, seat: int) -> None:
        """Answer (outside the lock, within Discord's 3 s: answers.respond) with the seat's hand in place
        of the clicked message. The version is read before the payload is built, so it is never newer
        than what the answer shows; if the answer fails, the DM is brought up to date instead."""
        version, asks = self.host.version(), self.host.owes(seat)  # the click already played: what it shows
        live = self.live(seat) if self.answering(interaction, seat) is not None else None
        edits_before = live.edits if live is not None else 0
        if live is not None:
            live.hold()  # the DM's own edits wait for this answer, which replaces the message
        answered = False
        try:
            answered = await respond(interaction, partial(self.host.dm_payload, seat), update=True)
        finally:
            if live is not None and not answered:
                live.released()
        if not answered:
            self.answer_failed(seat)
            return
        if live is not None:  # its token carries later edits of the DM (live.py)
            live.answered(version, edits_before, via=interaction)
            slot = self.slots.get(seat)
            if slot is not None and slot.live is live:
                slot.shown = asks
        self.host.delivered(seat, version)

    def answer_failed(self, seat: int) -> None:
        """The click's answer never reached the person (too late, 10062, a failure): their DM is edited
        through the channel route to the current state, so they never keep an old prompt."""
        self.want(seat, self.host.version())
