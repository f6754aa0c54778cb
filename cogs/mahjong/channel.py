"""A table's channel: its posts, the table message kept up to date, the pause message, and what a
refusing channel means.

A deleted table message (10008) is posted afresh, at most once every ``repost_interval``. A lost
permission (403 50013 / 50001) or a closed thread (50083 archived, 160005 locked) pauses the table: the
outlet answers its host with ``ChannelRefused`` and tells the table's host by DM; the session then asks
for a ``Probe`` now and then, and a probe that posts answers ``ChannelOk``. A deleted channel (10003), or
a server that removed the bot, ends the table.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from table.lobby import TableState
from table.session import TableSession
from table.timing import Timing

from ..i18n import t
from .dms import NETWORK_ERRORS
from .live import POST, LiveMessage, Payload

log = logging.getLogger(__name__)

CHANNEL_FORBIDDEN = (50001, 50013)  # Missing Access / Missing Permissions in the table's channel
MISSING_ACCESS = 50001  # also what a server that removed the bot answers: the cog checks which
# a thread archived (an edit there: 50083; a post reopens it) or locked (160005): the table waits like
# for a lost permission, and a probe's post plays it on once a moderator reopens it
THREAD_CLOSED = (50083, 160005)
UNKNOWN_CHANNEL = 10003  # the table's channel was deleted
UNKNOWN_MESSAGE = 10008  # a message was deleted (the table message: posted afresh)


class ChannelHost(Protocol):
    """What the channel outlet needs of its table's host (the runner)."""

    cog: Any
    state: TableState
    session: TableSession  # asked only its phase (table/phase.py): whether a table message is wanted, gone, waits
    lock: asyncio.Lock

    def fresh_version(self) -> int: ...  # a version for a message posted on the host's own
    def version(self) -> int: ...
    async def table_payload(self) -> Payload: ...
    def stored_table_message(self, message_id: int) -> None: ...
    def refused(self, what: str) -> bool: ...  # fed ChannelRefused: True if the table now waits
    def still_refused(self) -> None: ...
    def channel_ok(self) -> list[Callable[[], Awaitable[None]]]: ...  # fed ChannelOk (the lock held): what follows
    def abandon(self) -> None: ...  # the channel is gone: the table ends


class ChannelMessages:
    def __init__(self, host: ChannelHost, timing: Timing) -> None:
        self.host = host
        self.timing = timing  # its edit pace and how often a deleted table message is posted afresh
        self.lobby: LiveMessage | None = None  # the lobby message (the cog posts it)
        self.table: LiveMessage | None = None  # the hand's table message
        self.pause: discord.Message | None = None  # the paused table's message with its Resume button
        self.reposting: asyncio.Task[None] | None = None  # a fresh table message on its way (a deleted one)
        self.reposted_at = -1e9  # time.monotonic() of the last such post

    @property
    def table_id(self) -> int:
        return self.host.state.table_id

    def messageable(self) -> discord.abc.Messageable:
        state = self.host.state
        return self.host.cog.bot.get_partial_messageable(state.channel_id, guild_id=state.guild_id)

    # ------------------------------------------------------------------ posts

    async def post(self, **kwargs: Any) -> discord.Message | None:
        try:
            await self.host.cog.budget.take(POST)  # new messages count toward the global limit too
            return await self.messageable().send(**kwargs)
        except NETWORK_ERRORS as error:
            log.warning("table %s could not post in its channel: %s", self.table_id, error)
            await self.error(error)
            return None

    async def say(self, content: str) -> None:
        await self.post(content=content)

    async def post_payload(self, payload: Payload) -> discord.Message | None:
        return await self.post(**payload.send_kwargs())

    async def quietly(self, request: Awaitable[object]) -> None:
        try:
            await request
        except NETWORK_ERRORS as error:
            log.info("table %s: an edit failed: %s", self.table_id, error)

    # ------------------------------------------------------------------ the pause message

    async def post_pause(self, until: float, resume: discord.ui.View) -> None:
        """The pause, with its ``resume`` button."""
        self.pause = await self.post(content=t(self.host.state.locale, "play.paused", until=int(until)), view=resume)

    def is_pause(self, message: discord.Message | None) -> bool:
        """The pause message this process posted (not one left behind by an earlier pause or process)."""
        return message is not None and self.pause is not None and message.id == self.pause.id

    def unpaused(self) -> None:
        """In the background: the click that resumed is answered first."""
        message, self.pause = self.pause, None
        if message is not None:
            edit = message.edit(content=t(self.host.state.locale, "play.unpaused"), view=None)
            self.host.cog.background(self.quietly(edit))

    async def end_pause(self, key: str) -> None:
        message, self.pause = self.pause, None
        if message is not None:
            await self.quietly(message.edit(content=t(self.host.state.locale, key), view=None))

    # ------------------------------------------------------------------ the table message

    def follow_table(self, message: discord.Message | discord.PartialMessage, version: int) -> None:
        """``message`` (showing ``version``) is the table message from now on, kept up to date and stored
        (the lock held by the caller); the one before it takes no more edits."""
        if self.table is not None:
            self.table.close()
        host = self.host
        self.table = LiveMessage(
            message, host.table_payload, min_interval=self.timing.edit_interval, budget=host.cog.budget,
            on_error=self._table_error, on_replaced=self._table_replaced,
        )
        self.table.mark_shown(version)
        host.stored_table_message(message.id)

    def want_lobby(self, version: int) -> None:
        if self.lobby is not None:
            self.lobby.want(version)

    def want_table(self, version: int) -> None:
        if self.table is not None:
            self.table.want(version)

    async def _table_error(self, error: Exception) -> None:
        """An edit of the table message failed. Deleted (10008: a moderator, a purge, a cleanup bot), the
        channel would be left without the table and people with closed DMs without "Show my hand": a fresh
        table message is posted, at most once every ``repost_interval`` seconds (a bot deleting it at once
        again costs one post per interval, not a post per move). Anything else is the channel's error."""
        if isinstance(error, discord.NotFound) and error.code == UNKNOWN_MESSAGE:
            if self.reposting is None or self.reposting.done():
                self.reposting = asyncio.create_task(self._repost_table(), name=f"repost-{self.table_id}")
            return
        await self.error(error)

    async def _repost_table(self) -> None:
        host = self.host
        wait = self.reposted_at + self.timing.repost_interval - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        if not host.session.phase.table_wanted:
            return
        self.reposted_at = time.monotonic()
        version = host.fresh_version()  # no lock: the payload reads its facts before the render's await
        payload = await host.table_payload()
        message = await self.post_payload(payload)
        if message is None:
            return
        log.info("table %s: its table message was deleted; posted a fresh one", self.table_id)
        async with host.lock:
            if host.session.phase.gone:  # the match ended or the table closed meanwhile
                return
            self.follow_table(message, version)
            self.want_table(host.version())

    def _table_replaced(self, message: discord.Message) -> None:
        """The hour-old table message gave way to a fresh one (live.py): the fresh one is the table's now."""
        self.host.stored_table_message(message.id)

    async def probe(self) -> None:
        """Try to show the table again; on success it plays on (the session gives the clock back)."""
        host = self.host
        version = host.fresh_version()  # no lock: the payload reads its facts before the render's await
        payload = await host.table_payload()
        try:
            await host.cog.budget.take(POST)
            message = await self.messageable().send(**payload.send_kwargs())
        except NETWORK_ERRORS as error:
            log.info("table %s still cannot post: %s", self.table_id, error)
            host.still_refused()
            return
        async with host.lock:
            self.follow_table(message, version)
            jobs = host.channel_ok()
        for job in jobs:
            await job()

    def close(self) -> None:
        """The table stops here: no repost, no more lobby edits (the hand's messages are closed apart)."""
        if self.reposting is not None:
            self.reposting.cancel()
        if self.lobby is not None:
            self.lobby.close(abort=True)

    # ------------------------------------------------------------------ a refusing channel

    async def error(self, error: Exception) -> None:
        """A post or edit in the table's channel failed. A deleted channel (10003) ends the table; a lost
        permission (403 50013 / 50001), or its thread archived (50083) or locked (160005), pauses it with
        nothing lost and tells the host; it plays on once a post goes through again. A 50001 from a server
        that removed the bot ends its tables instead."""
        host = self.host
        if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:  # deleted under us
            host.abandon()
            return
        code = getattr(error, "code", 0)
        thread_closed = isinstance(error, discord.HTTPException) and code in THREAD_CLOSED
        if not thread_closed and (not isinstance(error, discord.Forbidden) or code not in CHANNEL_FORBIDDEN):
            return
        if host.session.phase.waits_for_probe:  # told already: the table waits for a probe
            return
        state, cog = host.state, host.cog
        if code == MISSING_ACCESS and not await cog.still_in_guild(state.guild_id):  # removed, unheard
            log.info("table %s: the bot is no longer in server %s; closing its tables", self.table_id, state.guild_id)
            cog.guild_gone(state.guild_id)
            return
        what = getattr(error, "text", "") or str(code)
        if not host.refused(what):
            return
        log.info("table %s paused: %s", self.table_id, error)
        key = "play.blocked_thread_host" if thread_closed else "play.blocked_host"  # a moderator's doing, or a permission
        text = t(state.locale, key, table=self.table_id, channel=state.channel_id, what=what)
        try:
            await cog.send_dm(state.host_id, POST, content=text)
        except NETWORK_ERRORS as dm_error:
            log.info("table %s: could not tell the host: %s", self.table_id, dm_error)
