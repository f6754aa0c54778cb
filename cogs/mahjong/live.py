"""A message that keeps showing the latest state of something without flooding Discord.

Edits are rate-limited per channel, so a burst of moves must cost one edit: ``LiveMessage`` holds one
pending-edit slot. ``want(version)`` asks for the state at ``version`` to be shown; while an edit is in
flight, later wants merge into one follow-up edit built from the state as it is when it is sent.
A click answered with an update-message response shows a version too (``shown``), so the slot skips an
edit that would only repeat it.

Requests are the capacity lever (Discord allows a bot 50 a second), so an edit costs as little as it can:
- after a person's click on the message, later edits go through that click's interaction token
  (``PATCH /webhooks/{app}/{token}/messages/@original``) while it lives (15 minutes): interaction
  endpoints are not bound to the bot's global limit, nor to the channel's edit bucket;
- an edit whose content, components, embeds and picture equal what the slot last put there is not sent;
- an unchanged picture is kept (the attachment already on the message) instead of uploaded again.

Discord caps edits of messages older than an hour (30046, "try again later": 3 edits per 6 s per
channel). A message the slot has shown for ``FRESH_AFTER`` is not edited through the channel route any
more: the next version goes out as a fresh message, which the slot then keeps up to date (its owner is
told, ``on_replaced``). A 30046 anyway (a message restored from before a restart) does the same, at
once: it is never tried again, so never inside discord.py's retry loop either.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp
import discord

from .skew import discord_now

log = logging.getLogger(__name__)


@dataclass
class Payload:
    """What a message shows: text, an optional PNG, components, embeds."""

    content: str = ""
    png: bytes | None = None
    filename: str = "table.png"
    view: discord.ui.View | None = None
    embeds: list[discord.Embed] = field(default_factory=list)

    def files(self) -> list[discord.File]:
        return [discord.File(io.BytesIO(self.png), self.filename)] if self.png is not None else []

    def edit_kwargs(self) -> dict:
        """Keyword arguments for Message.edit / InteractionResponse.edit_message: replace everything."""
        return {
            "content": self.content,
            "attachments": self.files(),
            "view": self.view,  # None removes every component
            "embeds": self.embeds,
        }

    def png_digest(self) -> str | None:
        return hashlib.sha1(self.png).hexdigest() if self.png is not None else None

    def shows(self) -> tuple:
        """What a reader sees, as a comparable value (the picture by its digest)."""
        components = self.view.to_components() if self.view is not None else None
        return (self.content, repr(components), repr([e.to_dict() for e in self.embeds]), self.png_digest())

    def send_kwargs(self) -> dict:
        kwargs: dict = {"content": self.content, "files": self.files(), "embeds": self.embeds}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


Build = Callable[[], Awaitable[Payload]]


# What a request is for, in the order the budget serves them when it cannot serve all: a prompt a person
# owes a decision on (their hand's DM, sent or edited), a new message in a channel (a table post, a notice),
# a picture nobody waits for (a table picture, a hand's DM while its person owes nothing)
PROMPT, POST, PICTURE = 0, 1, 2
Rank = int | Callable[[], int]  # a rank, or how to tell it when the token is taken (a DM's person may come to owe)


LOOK_EVERY = 0.1  # seconds between a waiting request's looks at the budget, at most (its rank may change)


class PictureTurns:
    """At most ``size`` pictures nobody waits for drawn at once, bot-wide, in the order asked — except a
    finished hand's last table picture, which the next deal waits for (``promote``): it is next in line.
    Letting it skip the line altogether (drawn at once) put the median hand's end at 3 s but its worst
    at 26–41 s in bench.cluster; waiting its turn among a hundred tables' pictures, 10 s."""

    def __init__(self, size: int) -> None:
        self.free = size
        self.line: deque[asyncio.Future[None]] = deque()
        self.first: deque[asyncio.Future[None]] = deque()

    def ask(self) -> asyncio.Future[None]:
        """A turn: done at once when one is free, else when it comes (then ``give_back`` it)."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.free > 0 and not self.line and not self.first:
            self.free -= 1
            turn.set_result(None)
        else:
            self.line.append(turn)
        return turn

    def promote(self, turn: asyncio.Future[None] | None) -> None:
        if turn is not None and turn in self.line:
            self.line.remove(turn)
            self.first.append(turn)

    def give_back(self) -> None:
        self.free += 1
        while self.free > 0 and (self.first or self.line):
            turn = (self.first or self.line).popleft()
            if not turn.done():
                self.free -= 1
                turn.set_result(None)

    def drop(self, turn: asyncio.Future[None]) -> None:
        """Its asker gave up (cancelled): a turn already given is passed on, else it leaves the line."""
        if turn.done() and not turn.cancelled():
            self.give_back()
            return
        turn.cancel()
        for line in (self.first, self.line):
            if turn in line:
                line.remove(turn)


class EditBudget:
    """A bot-wide pace for message edits, under Discord's global limit (50 requests a second).

    discord.py waits out per-route buckets by itself, but not the global limit: with many tables at
    once, edits would run into it. Requests take a token first. ``reserve`` tokens are kept from the
    pictures, and half of them from the channel posts too, so under load prompts go first, posts next:
    taken over by the hundred, a process's 300 new messages once put every person's prompt behind the
    channels' posts (issue 41).
    """

    def __init__(
        self, per_second: float = 40.0, reserve: int = 10, capacity: float | None = None, pictures: int | None = 2
    ) -> None:
        # at most this many pictures that nobody waits for (table images) are drawn at once, bot-wide: with
        # hundreds of tables they would fill the render threads' queue, and a click's hand would wait behind
        self.pictures = PictureTurns(pictures) if pictures is not None else None
        self.rate = per_second
        self.capacity = per_second if capacity is None else capacity
        self.reserve: float = reserve
        self.tokens = self.capacity
        if reserve >= self.capacity:
            raise ValueError("the reserve must leave room under the capacity")
        self.stamp = time.monotonic()
        self.in_flight: set[asyncio.Task[None]] = set()  # every slot's edit task, for a shutdown to wait on
        self._whole = (self.rate, self.capacity, self.reserve)  # the budget of a process alone on the token

    def scale(self, share: float) -> None:
        """This process's ``share`` of the bot token (several processes, cogs/mahjong/tokenshare.py): its
        rate, its burst and its reserve alike, so that all the processes' bursts together are one
        process's. A burst kept at the reserve's floor had let two processes' bursts and rates past
        Discord's 50 requests in a second (429s on nudge deletes in bench.cluster --kill all)."""
        rate, capacity, reserve = self._whole
        self.rate = rate * share
        self.capacity = max(1.0, capacity * share)  # a request needs one token
        self.reserve = min(reserve * share, self.capacity - 1.0)
        self.tokens = min(self.tokens, self.capacity)

    async def settle(self, timeout: float = 5.0) -> None:
        """Shutting down: let the edits under way land (a finished table's last picture among them) while
        the HTTP session still works, then cancel what is left; none meets a closed session."""
        tasks = [task for task in self.in_flight if not task.done()]
        if not tasks:
            return
        _, late = await asyncio.wait(tasks, timeout=timeout)
        for task in late:
            task.cancel()
        if late:
            await asyncio.wait(late)

    async def take(self, rank: Rank) -> None:
        """One request's token, taken just before the request is sent: a token taken earlier (before a
        picture is drawn) would let requests bunch up past the global limit behind a slow render."""
        await self.ready(rank)
        self.tokens -= 1

    def floor(self, rank: Rank) -> float:
        """Tokens a request of ``rank`` leaves for the ranks above it."""
        value = rank() if callable(rank) else rank
        return (0, self.reserve / 2, self.reserve)[value]

    async def ready(self, rank: Rank) -> None:
        """Wait until a token is there, without taking it (what is wanted meanwhile joins the edit); a
        rank told by a callable is asked again at each look."""
        while True:
            now = time.monotonic()
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= self.reserve + 1:  # enough for any rank: a callable one need not be asked
                return
            floor = self.floor(rank)
            if self.tokens >= floor + 1:
                return
            await asyncio.sleep(min(LOOK_EVERY, (floor + 1 - self.tokens) / self.rate))


class WindowLimit:
    """At most ``limit`` calls in any ``seconds`` (a sliding window): a burst goes at once, the rest
    waits until the oldest call leaves the window. For opening DM channels, which Discord refuses
    (40003) when a bot opens many quickly."""

    def __init__(self, limit: int = 10, seconds: float = 10.0) -> None:
        self.limit = limit
        self.seconds = seconds
        self.calls: deque[float] = deque()

    async def take(self) -> None:
        while True:
            now = time.monotonic()
            while self.calls and now - self.calls[0] >= self.seconds:
                self.calls.popleft()
            if len(self.calls) < self.limit:
                self.calls.append(now)
                return
            await asyncio.sleep(self.calls[0] + self.seconds - now)


UNLIMITED = EditBudget(per_second=1e9, reserve=0, pictures=None)
TOKEN_LIFE = 14 * 60.0  # an interaction token lives 15 minutes; past this, edits take the channel route
TOKEN_GONE = (10015, 50027)  # Unknown Webhook, Invalid Webhook Token: the click's token cannot edit any more
OLD_MESSAGE_EDITS = 30046  # "Maximum number of edits to messages older than 1 hour reached"
FRESH_AFTER = 55 * 60.0  # seconds a message is edited through the channel route before a fresh one replaces it


RECEIVED = "mahjong_received"  # answers.RECEIVED: time.monotonic() when the cog received the interaction


def _token_age(interaction: discord.Interaction) -> float:
    """Seconds since Discord created the interaction: from its snowflake, by Discord's clock (skew.py), or,
    where that disagrees beyond reason (negative, or older than a token lives), from when the cog received
    it (as answers.py)."""
    age = (discord_now(interaction.client) - interaction.created_at).total_seconds()
    if 0.0 <= age <= TOKEN_LIFE + 60.0:
        return age
    received = interaction.extras.get(RECEIVED)
    return time.monotonic() - received if received is not None else TOKEN_LIFE + 1.0


class LiveMessage:
    """One message shown at its latest version; at most one edit in flight."""

    def __init__(
        self,
        message: discord.Message | discord.PartialMessage,
        build: Build,
        *,
        min_interval: float = 0.0,
        on_error: Callable[[Exception], Awaitable[None]] | None = None,
        budget: EditBudget = UNLIMITED,
        rank: Rank = PICTURE,
        on_shown: Callable[[int], None] | None = None,
        on_replaced: Callable[[discord.Message], None] | None = None,
        born: float | None = None,
        via: discord.Interaction | None = None,
        token_only: bool = False,
    ) -> None:
        self.message = message
        # time.monotonic() when the message was posted (by default: now, as the slot is made for a message
        # just sent); not its snowflake, whose clock a host cannot trust to the minute
        self.born = time.monotonic() if born is None else born
        self._on_replaced = on_replaced  # told the fresh message that replaces an hour-old one
        self.budget = budget
        self.rank = rank  # what its edits are for (PROMPT: a DM whose person owes a decision)
        self._build = build
        self.min_interval = min_interval
        self._on_error = on_error
        self._on_shown = on_shown  # told each version once Discord acknowledged the edit showing it
        self.wanted = 0  # newest version asked for
        self.shown = 0  # newest version on Discord
        self._task: asyncio.Task[None] | None = None
        self.edits = 0  # edits sent (for tests and benchmarks)
        self.skipped = 0  # edits not sent: they would have shown what the message already shows
        self.closed = False
        self._finishing = False  # closed, but the edits already wanted are still made (close(finish=True))
        self._editing = False  # an edit is under way: its payload being built or its request sent
        self.held = 0  # clicks whose in-place answer is on its way: edits wait for it (answered/released)
        self._via: discord.Interaction | None = via  # the latest click on this message: its token edits it
        # an ephemeral message (issue 39, Show my hand with DMs closed): only an interaction token edits it, so
        # once the newest token is past TOKEN_LIFE (or Discord says it is gone) the slot closes instead
        self.token_only = token_only
        self._shown: tuple | None = None  # what the slot's last edit put on the message (Payload.shows)
        self._picture: tuple[str, discord.Attachment] | None = None  # (digest, attachment) on the message
        self._hurried = False  # hurry(): the table waits on this message's edits under way
        self._waiting_turn: asyncio.Future[None] | None = None  # its place in the pictures' line, if any

    def want(self, version: int) -> None:
        if self.closed:
            return
        self.wanted = max(self.wanted, version)
        if self._task is None or self._task.done():
            self._hurried = False  # hurry() was for the edits then under way (a private hand lives on)
            self._task = task = asyncio.create_task(self._run(), name=f"live-message-{self.message.id}")
            self.budget.in_flight.add(task)
            task.add_done_callback(self.budget.in_flight.discard)

    def mark_shown(self, version: int, via: discord.Interaction | None = None) -> None:
        """A click response already put ``version`` on the message; ``via`` is that click, whose token
        then carries this message's later edits (outside the global limit) while it lives."""
        self.shown = max(self.shown, version)
        self._shown = self._picture = None  # the answer changed the message: compare with nothing
        if via is not None:
            self._via = via

    def hold(self) -> None:
        """A click's answer will replace this message in place: no edit starts until it has (an edit
        landing first would be overwritten by the older answer)."""
        self.held += 1

    def released(self) -> None:
        """The answer failed: edits go on as before."""
        self.held = max(0, self.held - 1)
        if self.wanted > self.shown:
            self.want(self.wanted)

    def answered(self, version: int, edits_before: int, via: discord.Interaction | None = None) -> None:
        """A click's answer put ``version`` on the message in place; what was wanted meanwhile is edited in
        after it. If an edit already in flight at the hold landed while that answer was on its way
        (``edits`` moved past ``edits_before``), the answer replaced it: the message shows ``version``."""
        clicked = getattr(via, "message", None)
        if clicked is not None and clicked.id != self.message.id:  # posted afresh while the answer was on its way:
            self.wanted = max(self.wanted, version)  # the answer went to the old message: the fresh one
            self.released()  # is brought up to date
            return
        self.held = max(0, self.held - 1)
        raced = self.edits != edits_before
        in_flight = self.pending() is not None
        self.mark_shown(version, via=via)
        if raced:
            self.shown = version
        if in_flight:  # an edit built before the click is still on its way: it lands over the answer,
            # so this version is shown once more after it (found by the sandbox's person, devserver/settled.py)
            self.wanted, self.shown = max(self.wanted, version), version - 1
        if self.wanted > self.shown:
            self.want(self.wanted)

    async def _run(self) -> None:
        while (not self.closed or self._finishing) and not self.held and self.wanted > self.shown:
            target = self.wanted
            if self.token_only and self._token() is None:  # no channel route to an ephemeral: done
                self.closed, self._finishing = True, False
                return
            if self._token() is None:  # the interaction route is outside the global limit
                await self.budget.ready(self._rank)
            target = max(target, self.wanted)  # whatever was asked while we waited goes in this edit
            self._editing = True
            try:
                payload = await self._build_in_turn()
                shows = payload.shows()
                if shows == self._shown:  # nothing changed for the reader
                    self.skipped += 1
                else:
                    await self._edit(payload)
                    if self.token_only and self.closed:  # its token had run out: nothing was sent
                        return
                    self._shown = shows
                    self.edits += 1
                if self._on_shown is not None:
                    self._on_shown(target)
            except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
                # 10008 (deleted), 5xx after retries: the table goes on without it (30046: _edit posts afresh)
                self._editing = False
                gone = getattr(error, "code", 0) in (10008, 50001, 50007)
                log.info("edit of message %s failed: %s", self.message.id, error)
                if gone:
                    self.closed, self._finishing = True, False
                if self._on_error is not None:
                    await self._on_error(error)
                if gone:
                    return
            self._editing = False
            self.shown = max(self.shown, target)
            if self.min_interval and (not self.closed or (self._finishing and self.wanted > self.shown)):
                await asyncio.sleep(self.min_interval)  # closed with nothing more to make: no wait

    def _token(self) -> discord.Interaction | None:
        via = self._via
        if via is not None and _token_age(via) > TOKEN_LIFE:
            self._via = via = None
        return via

    async def _edit(self, payload: Payload) -> None:
        """One edit: through the latest click's token if it lives, else the channel route; the picture
        kept when it is the one already on the message."""
        kwargs = payload.edit_kwargs()
        digest = payload.png_digest()
        if digest is not None and self._picture is not None and self._picture[0] == digest:
            kwargs["attachments"] = [self._picture[1]]
        via = self._token()
        edited: object = None
        if via is None and self.token_only:  # the token aged while this edit was built: an ephemeral is done
            self.closed, self._finishing = True, False
            return
        if via is None:
            await self.budget.take(self._rank)
        if via is not None:
            try:
                edited = await via.edit_original_response(**kwargs)
            except discord.HTTPException as error:
                if error.code == OLD_MESSAGE_EDITS:  # the click's own message is an hour old
                    log.info("message %s is past Discord's edits of hour-old messages: posting it afresh", self.message.id)
                    await self._post_afresh(payload)
                    return
                if error.code not in TOKEN_GONE and error.status not in (401, 404):
                    raise
                log.info("message %s: the click's token no longer edits it (%s)", self.message.id, error)
                self._via = None
                if self.token_only:  # an ephemeral: nothing else can edit it
                    self.closed, self._finishing = True, False
                    return
                await self.budget.take(self._rank)
                kwargs = payload.edit_kwargs()  # a fresh upload: the kept attachment may be what failed
        if self._via is None and time.monotonic() - self.born > FRESH_AFTER:  # Discord caps its edits now
            await self._post_afresh(payload)
            return
        if self._via is None:
            try:
                edited = await self.message.edit(**kwargs)
            except discord.HTTPException as error:
                if error.code != OLD_MESSAGE_EDITS:
                    raise
                log.info("message %s is past Discord's edits of hour-old messages: posting it afresh", self.message.id)
                await self._post_afresh(payload)
                return
        attachments = getattr(edited, "attachments", None) or []
        self._picture = (digest, attachments[0]) if digest is not None and attachments else None

    async def _post_afresh(self, payload: Payload) -> None:
        """This version as a new message in the same channel, which the slot keeps up to date from now on
        (the old one stays as it was: its buttons answer as stale)."""
        await self.budget.take(self._rank)
        message = await self.message.channel.send(**payload.send_kwargs())
        self.message, self.born, self._via = message, time.monotonic(), None
        attachments = message.attachments
        digest = payload.png_digest()
        self._picture = (digest, attachments[0]) if digest is not None and attachments else None
        if self._on_replaced is not None:
            self._on_replaced(message)

    def hurry(self) -> None:
        """The table waits on this message's edits under way (a finished hand's last, before the next
        deal): its picture is next in the pictures' line (PictureTurns)."""
        self._hurried = True
        if self.budget.pictures is not None:
            self.budget.pictures.promote(self._waiting_turn)

    async def _build_in_turn(self) -> Payload:
        """The payload; a picture nobody waits for (a table message's) in its turn among the few drawn at
        once, bot-wide (a DM's and a post's at once)."""
        turns = self.budget.pictures
        if callable(self.rank) or self.rank != PICTURE or turns is None:
            return await self._build()
        turn = self._waiting_turn = turns.ask()
        if self._hurried:
            turns.promote(turn)
        try:
            await turn
        except asyncio.CancelledError:
            turns.drop(turn)
            raise
        finally:
            self._waiting_turn = None
        try:
            return await self._build()
        finally:
            turns.give_back()

    def _rank(self) -> int:
        """This request's rank now (the budget asks again at each look): hurried, a table message's edit
        goes with the posts, ahead of the pictures."""
        rank = self.rank() if callable(self.rank) else self.rank
        return min(rank, POST) if self._hurried else rank

    def pending(self) -> asyncio.Task[None] | None:
        """The edit in flight, if any (to wait for it)."""
        task = self._task
        return task if task is not None and not task.done() else None

    def close(self, *, finish: bool = False, abort: bool = False) -> None:
        """No more wants. An edit already under way (its payload built from the state it was asked for,
        its request on its way) is never cancelled: a new hand's message replaces this one as the hand
        ends, and cancelling would lose the hand's last edit (spectators and players were left with a
        hand that never reached "Hand over"). ``finish``: the edits already wanted are made too (for a
        message whose build is bound to what it shows, such as a hand that is over). ``abort``: stop
        everything now (the bot shuts down and its connection is about to close)."""
        self.closed = True
        self._finishing = finish and not abort
        task = self._task
        if task is None or task.done():
            return
        if abort or not (self._editing or (self._finishing and self.wanted > self.shown)):
            task.cancel()
