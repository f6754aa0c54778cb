"""A message that keeps showing the latest state of something without flooding Discord.

Edits are rate-limited per channel, so a burst of moves must cost one edit: ``LiveMessage`` holds one
pending-edit slot. ``want(version)`` asks for the state at ``version`` to be shown; while an edit is in
flight, later wants merge into one follow-up edit built from the state as it is when it is sent.
A click answered with an update-message response shows a version too (``shown``), so the slot skips an
edit that would only repeat it.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import aiohttp
import discord

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

    def send_kwargs(self) -> dict:
        kwargs: dict = {"content": self.content, "files": self.files(), "embeds": self.embeds}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs


Build = Callable[[], Awaitable[Payload]]


class EditBudget:
    """A bot-wide pace for message edits, under Discord's global limit (50 requests a second).

    discord.py waits out per-route buckets by itself, but not the global limit: with many tables at
    once, edits would run into it. Edits take a token first; ``reserve`` tokens are kept for the
    prompts people are waiting for, so the table pictures are the ones that wait.
    """

    def __init__(self, per_second: float = 40.0, reserve: int = 10, capacity: float | None = None) -> None:
        self.rate = per_second
        self.capacity = per_second if capacity is None else capacity
        self.reserve = reserve
        self.tokens = self.capacity
        if reserve >= self.capacity:
            raise ValueError("the reserve must leave room under the capacity")
        self.stamp = time.monotonic()

    async def take(self, *, urgent: bool) -> None:
        floor = 0 if urgent else self.reserve
        while True:
            now = time.monotonic()
            self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.rate)
            self.stamp = now
            if self.tokens >= floor + 1:
                self.tokens -= 1
                return
            await asyncio.sleep((floor + 1 - self.tokens) / self.rate)


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


UNLIMITED = EditBudget(per_second=1e9, reserve=0)


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
        urgent: bool = False,
        on_shown: Callable[[int], None] | None = None,
    ) -> None:
        self.message = message
        self.budget = budget
        self.urgent = urgent  # a prompt someone waits for (a DM), not a picture to refresh
        self._build = build
        self.min_interval = min_interval
        self._on_error = on_error
        self._on_shown = on_shown  # told each version once Discord acknowledged the edit showing it
        self.wanted = 0  # newest version asked for
        self.shown = 0  # newest version on Discord
        self._task: asyncio.Task[None] | None = None
        self.edits = 0  # edits sent (for tests and benchmarks)
        self.closed = False

    def want(self, version: int) -> None:
        if self.closed:
            return
        self.wanted = max(self.wanted, version)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name=f"live-message-{self.message.id}")

    def mark_shown(self, version: int) -> None:
        """A click response already put ``version`` on the message."""
        self.shown = max(self.shown, version)

    def answered(self, version: int, edits_before: int) -> None:
        """A click's answer put ``version`` on the message in place. If one of our edits landed while that
        answer was on its way (``edits`` moved past ``edits_before``), the answer replaced what the edit
        showed, newer or not: the message shows ``version`` now, and anything newer is edited in again."""
        if self.edits == edits_before:
            self.mark_shown(version)
            return
        self.shown = version
        if self.wanted > version:
            self.want(self.wanted)

    async def _run(self) -> None:
        while not self.closed and self.wanted > self.shown:
            target = self.wanted
            await self.budget.take(urgent=self.urgent)
            target = max(target, self.wanted)  # whatever was asked while we waited goes in this edit
            try:
                payload = await self._build()
                await self.message.edit(**payload.edit_kwargs())
                self.edits += 1
                if self._on_shown is not None:
                    self._on_shown(target)
            except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
                # 10008 (deleted), 30046 (too old), 5xx after retries: the table goes on without it
                self.closed = getattr(error, "code", 0) in (10008, 30046, 50001, 50007)
                log.info("edit of message %s failed: %s", self.message.id, error)
                if self._on_error is not None:
                    await self._on_error(error)
                if self.closed:
                    return
            self.shown = max(self.shown, target)
            if self.min_interval:
                await asyncio.sleep(self.min_interval)

    def pending(self) -> asyncio.Task[None] | None:
        """The edit in flight, if any (to wait for it)."""
        task = self._task
        return task if task is not None and not task.done() else None

    def close(self) -> None:
        self.closed = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
