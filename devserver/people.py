"""Simulated mahjong players for the stand-in: each one reads only the messages their Discord user can
see (their DMs, their ephemerals) and clicks the table bot's buttons, as a person at a phone would.

Used by the table bot's end-to-end tests, the sandbox (``python bot.py --sandbox``) and the load
benchmark (``python -m bench.tables``).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from table import ids

from .interactions import Interaction
from .recorder import Button, Message, Select
from .users import SimUser


@dataclass(frozen=True)
class Pick:
    """An answer chosen in a select menu (the 換牌 tiles to give back) rather than with a button."""

    select: Select
    values: tuple[str, ...]

    def labels(self) -> list[str]:
        names = {o["value"]: o.get("label", o["value"]) for o in self.select.options}
        return [names.get(v, v) for v in self.values]


Answer = Button | Pick
Choice = Callable[[Message, list[Button]], Answer | None]


def act_of(button: Button) -> ids.Act | None:
    """What an action button's custom id says (table/ids.py): its decision point and action code."""
    return ids.Act.from_custom_id(button.custom_id or "")


def code_of(button: Button) -> str:
    """The action code of an action button ('' for other buttons)."""
    act = act_of(button)
    return act.code if act is not None else ""


def point_of(button: Button) -> ids.PromptPoint | None:
    """The decision point an action button belongs to (None for other buttons)."""
    act = act_of(button)
    return act.point if act is not None else None


def move_of(button: Button) -> str:
    """The decision point a prompt button belongs to, as a key (table:hand:seat:move)."""
    point = point_of(button)
    return point.to_custom_id() if point is not None else ""


def prompt_buttons(message: Message) -> list[Button]:
    return [b for b in message.buttons() if act_of(b) is not None and not b.disabled]


def is_mode_switch(answer: Answer) -> bool:
    """A button that only shows other buttons for the same decision (聽… and Back): no move is made."""
    return isinstance(answer, Button) and ids.SwitchMode.from_custom_id(answer.custom_id or "") is not None


def steady(message: Message, buttons: list[Button]) -> Button | None:
    """Wins when it can, never claims, discards the tile it drew."""
    by_code = {code_of(b): b for b in buttons}
    if "w" in by_code:
        return by_code["w"]
    if "s" in by_code:
        return by_code["s"]
    drawn = [b for b in buttons if code_of(b).startswith("d") and b.style == 1]  # primary = the drawn tile
    discards = [b for b in buttons if code_of(b).startswith("d")]
    return (drawn or discards or buttons)[0]


def greedy(message: Message, buttons: list[Button]) -> Button | None:
    """Takes everything: 胡, then any kong, 碰, the first 吃; otherwise discards the drawn tile."""
    for prefix in ("w", "n", "x", "k", "p", "c"):
        for b in buttons:
            if code_of(b).startswith(prefix):
                return b
    return steady(message, buttons)


@dataclass
class Attention:
    """How a person who looks away reads their DMs (issue 39): Discord notifies a new message, never an
    edit, so a new message in their DM (or a new ephemeral to them) is noticed at once, an edit only while
    they look at that DM. After each click whose answer asks them nothing more, they look at the table's
    channel for ``look`` seconds (drawn uniformly from ``rng``: real players read the rivers there), then come
    back to the DM. The time is the stand-in's clock, so a test that advances it ends a look at once."""

    look: tuple[float, float] = (2.0, 12.0)
    rng: random.Random = field(default_factory=lambda: random.Random(0))

    def seconds(self) -> float:
        low, high = self.look
        return self.rng.uniform(low, high)


@dataclass
class Person:
    """One simulated player. ``choose`` picks a button (or select values) from a prompt (None: let the
    clock run); ``on_choice`` hears each answer just before it is sent (the sandbox's transcript).
    ``settle``, when given, is awaited before a prompt is read, and the prompt is read again if anything
    changed meanwhile: the person acts only on a settled prompt (the sandbox: devserver/settled.py).
    ``attention``, when given, makes them look away after their clicks (``Attention``): while they do, only
    a new message brings them back; without it they read every edit the moment it lands."""

    user: SimUser
    choose: Choice = steady
    on_choice: Callable[[Message, Answer], None] | None = None
    settle: Callable[[], Awaitable[None]] | None = None
    answered: set[str] = field(default_factory=set)  # decision points already answered
    clicks: list[tuple[str, Interaction]] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)  # click → interaction response, seconds
    seen_prompts: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)  # (content, codes)
    attention: Attention | None = None
    away_until: float = 0.0  # on the stand-in's clock: until then they look at the channel, not the DM
    away_since: int = 0  # the recorder's mark when they looked away: a message created after it notifies them
    looks: int = 0  # how often they looked away
    woken: int = 0  # how often a new message brought them back before their look was over

    def _pending(self, message: Message) -> bool:
        if message.deleted or not (message.dm_with == self.user.id or message.ephemeral_to == self.user.id):
            return False
        buttons = prompt_buttons(message)
        return bool(buttons) and move_of(buttons[0]) not in self.answered

    def _newest_pending(self) -> Message | None:
        recorder = self.user.server.recorder
        return next((m for m in reversed(recorder.private_to(self.user.id)) if self._pending(m)), None)

    def looking_away(self) -> bool:
        """They look at the table's channel now (``Attention``): an edit of their DM goes unseen."""
        return self.away_until > self.user.server.clock.now()

    def _notified(self) -> bool:
        """A message for them was created since they looked away (Discord notifies it): they look back."""
        for message in reversed(self.user.server.recorder.private_to(self.user.id)):
            if message.created_seq <= self.away_since:
                return False  # the index keeps creation order: nothing newer below
            if not message.deleted:
                return True
        return False

    def look_away(self) -> None:
        """After a click: to the table's channel for a few seconds (``Attention``)."""
        if self.attention is None:
            return
        self.away_until = self.user.server.clock.now() + self.attention.seconds()
        self.away_since = self.user.server.recorder.mark()
        self.looks += 1

    async def _back_at_the_dm(self, deadline: float) -> None:
        """Wait while they look away: until their look is over or a new message for them notifies."""
        recorder, clock, loop = self.user.server.recorder, self.user.server.clock, asyncio.get_running_loop()
        while self.looking_away():
            if self._notified():
                self.away_until = 0.0
                self.woken += 1
                return
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"gave up waiting for a prompt for {self.user.name} (looking away)")
            with contextlib.suppress(TimeoutError):
                await recorder.wait_private(
                    self.user.id, self._notified, min(left, self.away_until - clock.now()), lambda: "a message"
                )

    async def next_prompt(self, timeout: float) -> Message:
        recorder = self.user.server.recorder
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            await self._back_at_the_dm(deadline)
            left = deadline - asyncio.get_running_loop().time()
            message = await recorder.wait_private(
                self.user.id, self._newest_pending, left, lambda: f"a prompt for {self.user.name}"
            )
            if self.settle is None:
                return message
            version = message.updated_seq
            await self.settle()
            if self._newest_pending() is message and message.updated_seq == version:
                return message  # nothing changed while the bot's deliveries landed: this is the prompt

    async def act_once(self, timeout: float = 10.0) -> Interaction | None:
        message = await self.next_prompt(timeout)
        buttons = prompt_buttons(message)
        self.seen_prompts.append((message.content, tuple(code_of(b) for b in buttons)))
        move = move_of(buttons[0])
        self.answered.add(move)
        answer = self.choose(message, buttons)
        if answer is None:
            return None
        if self.on_choice is not None:
            self.on_choice(message, answer)
        started = time.perf_counter()
        if isinstance(answer, Pick):
            interaction = await self.user.select(message, answer.select.custom_id, list(answer.values))
            self.clicks.append(("select:" + ",".join(answer.values), interaction))
        else:
            interaction = await self.user.click(message, answer.custom_id or "")
            self.clicks.append((code_of(answer), interaction))
        await interaction.response(timeout)
        self.latencies.append(time.perf_counter() - started)
        if is_mode_switch(answer):  # the same decision, shown with other buttons: still to answer
            self.answered.discard(move)
        if self._newest_pending() is None:  # the answer asks nothing more of them: they look at the table
            self.look_away()
        return interaction

    async def play(self, stop: asyncio.Event, timeout: float = 30.0) -> None:
        """Answer every prompt until ``stop`` is set."""
        while not stop.is_set():
            waiter = asyncio.ensure_future(self.next_prompt(timeout))
            stopper = asyncio.ensure_future(stop.wait())
            done, _ = await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if stopper in done:
                waiter.cancel()
                with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                    await waiter
                return
            stopper.cancel()
            waiter.result()
            await self.act_once(timeout)
