"""What everyone saw: every message with its edits, who could see it, and the rule violations, plus waiting."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .limits import BUTTON, SELECT_TYPES
from .media import image_size
from .mentions import Pings
from .snowflake import Snowflakes

EPHEMERAL = 64
LOADING = 128


@dataclass
class Attachment:
    """An uploaded file; `data` holds its bytes (PNG images stay PNG bytes)."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    @property
    def is_png(self) -> bool:
        return self.data.startswith(b"\x89PNG\r\n\x1a\n")

    def payload(self, base_url: str, channel_id: int) -> dict[str, Any]:
        url = f"{base_url}/attachments/{channel_id}/{self.id}/{self.filename}"
        out: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
        }
        if self.content_type:
            out["content_type"] = self.content_type
        size = image_size(self.data)
        if size is not None:
            out["width"], out["height"] = size
        if self.description:
            out["description"] = self.description
        return out


@dataclass(frozen=True)
class Button:
    label: str | None
    custom_id: str | None
    disabled: bool
    style: int
    url: str | None = None


@dataclass(frozen=True)
class Select:
    custom_id: str
    options: tuple[dict[str, Any], ...]
    disabled: bool
    min_values: int
    max_values: int
    placeholder: str | None = None
    type: int = 3

    @property
    def values(self) -> list[str]:
        return [o["value"] for o in self.options]


def _walk(components: Iterable[dict[str, Any]]) -> Iterable[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])
        if isinstance(component.get("component"), dict):
            yield from _walk([component["component"]])


@dataclass
class Message:
    """A message as it stands now (edits applied); `history` keeps each earlier version."""

    id: int
    channel_id: int
    author: dict[str, Any]
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    guild_id: int | None = None
    dm_with: int | None = None  # the user whose DM channel holds it
    ephemeral_to: int | None = None  # the only user who sees it
    interaction_id: int | None = None
    webhook_id: int | None = None
    deleted: bool = False
    deleted_by: str | None = (
        None  # "bot", or "user" (dismissed) / "moderator": then 10008 is not the bot's fault
    )
    created_at: float = 0.0  # on the server clock: how old the message is for Discord's edit limits
    edited_at: float = 0.0  # on the server clock: when the latest edit landed (0: never edited)
    origin: dict[str, Any] = field(default_factory=dict)  # type, interaction_metadata, message_reference
    history: list[dict[str, Any]] = field(default_factory=list)
    created_seq: int = 0
    updated_seq: int = 0
    edited: bool = False
    pings: Pings = field(default_factory=Pings)  # whom Discord notified when it was posted (devserver.mentions)
    audience: set[int] | None = None  # a private thread's members (the thread's own set): only they see it

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred 'is thinking…' response not yet filled in."""
        return bool(self.flags & LOADING)

    def visible_to(self, user_id: int) -> bool:
        if self.deleted:
            return False
        if self.dm_with is not None:
            return self.dm_with == user_id
        if self.audience is not None and user_id not in self.audience:
            return False
        return self.ephemeral_to is None or self.ephemeral_to == user_id

    # components ---------------------------------------------------------
    def buttons(self) -> list[Button]:
        return [
            Button(
                c.get("label"), c.get("custom_id"), bool(c.get("disabled")), c.get("style", 1), c.get("url")
            )
            for c in _walk(self.components)
            if c.get("type") == BUTTON
        ]

    def selects(self) -> list[Select]:
        return [
            Select(
                c["custom_id"],
                tuple(c.get("options") or ()),
                bool(c.get("disabled")),
                c.get("min_values", 1),
                c.get("max_values", 1),
                c.get("placeholder"),
                c.get("type", 3),
            )
            for c in _walk(self.components)
            if c.get("type") in SELECT_TYPES
        ]

    def button(self, label_or_custom_id: str) -> Button:
        for b in self.buttons():
            if label_or_custom_id in (b.label, b.custom_id):
                return b
        names = [b.label or b.custom_id for b in self.buttons()]
        raise LookupError(f"no button {label_or_custom_id!r} on message {self.id}; buttons: {names}")

    def select(self, custom_id: str | None = None) -> Select:
        for s in self.selects():
            if custom_id is None or s.custom_id == custom_id:
                return s
        raise LookupError(
            f"no select {custom_id!r} on message {self.id}; selects: {[s.custom_id for s in self.selects()]}"
        )

    @property
    def text(self) -> str:
        """Content plus embed titles and descriptions: what a reader takes in at a glance."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            parts += [f"{f.get('name')}: {f.get('value')}" for f in e.get("fields") or []]
        return "\n".join(p for p in parts if p)

    def snapshot(self) -> dict[str, Any]:
        return copy.deepcopy(
            {
                "content": self.content,
                "embeds": self.embeds,
                "components": self.components,
                "attachments": [a.filename for a in self.attachments],
                "flags": self.flags,
                "at": self.edited_at or self.created_at,  # when this version began to show
            }
        )

    def payload(self, base_url: str) -> dict[str, Any]:
        """The message object as the REST API and the gateway return it."""
        out: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "type": 0,
            "author": self.author,
            "content": self.content,
            "timestamp": Snowflakes.timestamp(self.id),
            "edited_timestamp": Snowflakes.timestamp(self.id) if self.edited else None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(base_url, self.channel_id) for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "pinned": False,
            "flags": self.flags,
        }
        out.update(copy.deepcopy(self.origin))
        if self.guild_id is not None:
            out["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            out["webhook_id"] = str(self.webhook_id)
            out["application_id"] = str(self.webhook_id)
        return out

    def __repr__(self) -> str:
        where = f"dm:{self.dm_with}" if self.dm_with else f"#{self.channel_id}"
        eph = f" ephemeral->{self.ephemeral_to}" if self.ephemeral_to else ""
        files = f" files={[a.filename for a in self.attachments]}" if self.attachments else ""
        return f"<Message {self.id} {where}{eph} {self.text[:60]!r} buttons={[b.label for b in self.buttons()]}{files}>"


@dataclass(frozen=True)
class Violation:
    """A Discord rule the bot broke (the request Discord would have refused, or a missed deadline)."""

    rule: str
    code: int | None
    detail: str
    route: str = ""
    at: float = 0.0  # wall time (time.time()) it was seen, for a benchmark to place it among its events


class Recorder:
    """Stores messages and violations, and wakes waiters whenever anything changes."""

    def __init__(self) -> None:
        self.messages: dict[int, Message] = {}
        self.violations: list[Violation] = []
        self.log: list[str] = []  # one line per request, for failure messages
        # each person's own messages (their DMs, their ephemerals), oldest first, and a wake-up per person:
        # a simulated person looks only here, so a change at one table wakes and costs only its own people
        self._private: dict[int, dict[int, Message]] = {}
        self._private_ticks: dict[int, asyncio.Event] = {}
        self._seq = 0
        self._tick = asyncio.Event()

    # writing -------------------------------------------------------------
    def bump(self) -> int:
        self._seq += 1
        self._tick.set()
        self._tick = asyncio.Event()
        return self._seq

    def add(self, message: Message) -> Message:
        message.created_seq = message.updated_seq = self.bump()
        self.messages[message.id] = message
        owner = _private_owner(message)
        if owner is not None:
            self._private.setdefault(owner, {})[message.id] = message
        self._wake_private(message)
        return message

    def touched(self, message: Message) -> None:
        message.updated_seq = self.bump()
        self._wake_private(message)

    def _wake_private(self, message: Message) -> None:
        owner = _private_owner(message)
        tick = self._private_ticks.pop(owner, None) if owner is not None else None
        if tick is not None:
            tick.set()

    def violation(self, rule: str, code: int | None, detail: str, route: str = "") -> None:
        self.violations.append(Violation(rule, code, detail, route, time.time()))
        self.bump()

    # reading -------------------------------------------------------------
    def mark(self) -> int:
        """A point in time: waiters given since=mark only consider what changed after it."""
        return self._seq

    def get(self, message_id: int) -> Message | None:
        return self.messages.get(message_id)

    def seen_by(self, user_id: int) -> list[Message]:
        return [m for m in self.messages.values() if m.visible_to(user_id)]

    def private_to(self, user_id: int) -> list[Message]:
        """The user's own messages (DMs with them, ephemerals to them, deleted ones too), oldest first:
        found through the per-person index, not by a scan of every message stored."""
        return list(self._private.get(user_id, {}).values())

    def in_channel(self, channel_id: int) -> list[Message]:
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted]

    async def wait_until(self, check: Callable[[], Any], timeout: float, describe: Callable[[], str]) -> Any:
        """Re-run check after every change until it returns something truthy; no polling, no sleeps."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result:
                return result
            tick = self._tick
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"gave up after {timeout}s waiting for {describe()}")
            await _tick_or_timeout(tick, remaining)

    async def wait_private(
        self, user_id: int, check: Callable[[], Any], timeout: float, describe: Callable[[], str]
    ) -> Any:
        """As ``wait_until``, re-running ``check`` only when one of ``user_id``'s own messages changed
        (for checks that read nothing else, such as a simulated person waiting for their prompt)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            result = check()
            if result:
                return result
            tick = self._private_ticks.get(user_id)
            if tick is None:
                tick = self._private_ticks[user_id] = asyncio.Event()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"gave up after {timeout}s waiting for {describe()}")
            await _tick_or_timeout(tick, remaining)

    def find(
        self,
        *,
        channel_id: int | None = None,
        user_id: int | None = None,
        predicate: Callable[[Message], bool] | None = None,
        since: int = 0,
        include_loading: bool = False,
    ) -> Message | None:
        """The earliest live message that matches (changed after `since`)."""
        for m in self.messages.values():
            if m.deleted or m.updated_seq <= since or (m.loading and not include_loading):
                continue
            if channel_id is not None and m.channel_id != channel_id:
                continue
            if user_id is not None and not m.visible_to(user_id):
                continue
            if predicate is None or predicate(m):
                return m
        return None


async def _tick_or_timeout(tick: asyncio.Event, seconds: float) -> None:
    """Until the next change or ``seconds``; not wait_for: in 3.11 it loses a cancel that meets a tick."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            await tick.wait()


def _private_owner(message: Message) -> int | None:
    """The one user a message is for (a DM's recipient, an ephemeral's user), or None for a channel's."""
    return message.dm_with if message.dm_with is not None else message.ephemeral_to
