"""Nudges (issue 39): Discord notifies a new message, never an edit, and after a hand's first DM every prompt
is an edit. So when a person's prompt reached them and they have not acted a few seconds later, a short new
DM ("▶ your turn · 12 s") notifies them; it is deleted once they act or the decision closes: at most two
requests a nudge (its post and its delete), sent from a task of its own, so no table waits for it.

When to nudge is the table's rule (table/nudge.py, on the host's clock); whether a person wants nudges is
the cog's ``wants_nudge`` hook (an async callable, user id → bool; absent: everyone is nudged).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp
import discord

from table.nudge import nudge_at, seconds_left
from table.screens import HandScreen, Showing

from ..i18n import t
from .live import PICTURE


class NudgeHost(Protocol):
    """What the nudges need of their table's host (the runner)."""

    session: Any  # the table's TableSession: its screen(seat) only
    cog: Any  # the cog: timing, send_dm, budget, background, the wants_nudge hook
    hands: Any  # the hand messages (dms.py): nudgeable(seat)

log = logging.getLogger(__name__)

Key = tuple[int, int]  # (hand, decision point): one nudge at most per seat and decision
WantsNudge = Callable[[int], Awaitable[bool]]
# what a nudge's post or delete can meet besides Discord's refusals: the bot stopping under it (its HTTP
# session closed: RuntimeError, or aiohttp's "Connector is closed"), or the network
GONE_WITH_THE_BOT = (discord.HTTPException, aiohttp.ClientError, OSError, RuntimeError)


async def everyone(user_id: int) -> bool:
    """The default hook: nudges are on for everyone."""
    return True


def owed(screen: HandScreen) -> Key | None:
    """The decision the seat owes now and whose clock runs, or None."""
    if screen.showing not in (Showing.PROMPT, Showing.EXCHANGE) or screen.deadline is None:
        return None
    return (screen.hand_number, screen.decision)


@dataclass(eq=False)
class Nudge:
    key: Key
    user_id: int
    task: asyncio.Task[None] | None = None
    message: discord.Message | None = None
    sending: bool = False
    over: bool = False  # they acted or the decision closed: delete once it is there


class Nudges:
    """One table's nudges, one at most per seat."""

    def __init__(self, runner: NudgeHost) -> None:
        self.runner = runner
        self.open: dict[int, Nudge] = {}

    def shown(self, seat: int, *, notified: bool = False) -> None:
        """Discord acknowledged ``seat``'s prompt: a nudge is due a little later, unless they act first.
        ``notified``: the prompt came in a new message (a hand sent afresh after a takeover or a restart),
        which Discord notified; a nudge for that decision would be a second notification of one turn, and
        after a takeover nudges took 4-12 of the 35 requests a second while a hundred hands were still
        going out (bench.cluster)."""
        screen = self.runner.session.screen(seat)
        key, user_id = owed(screen), screen.seats[seat].user_id
        current = self.open.get(seat)
        if key is None or user_id is None or (current is not None and current.key == key):
            return
        if current is not None:
            self._end(seat)
        if notified:  # held as done: later edits showing this decision nudge no more
            self.open[seat] = Nudge(key, user_id, over=True)
            return
        at = nudge_at(time.time(), screen.deadline, after=self.runner.cog.timing.nudge_after)
        if at is None:
            return
        nudge = Nudge(key, user_id)
        nudge.task = asyncio.create_task(self._run(seat, nudge, at), name=f"nudge-{self.runner.session.table_id}-{seat}")
        self.open[seat] = nudge

    def check(self) -> None:
        """After every change of the table: a nudge whose decision its seat no longer owes goes."""
        for seat, nudge in list(self.open.items()):
            if owed(self.runner.session.screen(seat)) != nudge.key:
                self._end(seat)

    def close(self) -> None:
        for seat in list(self.open):
            self._end(seat)

    def _end(self, seat: int) -> None:
        nudge = self.open.pop(seat)
        nudge.over = True
        if nudge.message is not None:
            self.runner.cog.background(_delete(nudge.message, self.runner.cog.budget))
        elif not nudge.sending and nudge.task is not None:
            nudge.task.cancel()  # not sent yet: nothing to delete

    async def _run(self, seat: int, nudge: Nudge, at: float) -> None:
        cog = self.runner.cog
        await asyncio.sleep(max(0.0, at - time.time()))
        wants: WantsNudge = getattr(cog, "wants_nudge", None) or everyone
        if nudge.over or not await wants(nudge.user_id) or nudge.over:
            return
        screen = self.runner.session.screen(seat)
        if owed(screen) != nudge.key or screen.deadline is None or not self.runner.hands.nudgeable(seat):
            return
        key = "play.nudge_claim" if screen.prompt is not None and screen.prompt.claim_tile is not None else "play.nudge_turn"
        text = t(screen.locale, key, seconds=seconds_left(screen.deadline, time.time()))
        nudge.sending = True
        try:
            nudge.message = await cog.send_dm(
                nudge.user_id, content=text, allowed_mentions=discord.AllowedMentions.none()
            )
        # a nudge is a courtesy: the prompt itself is on the DM (RuntimeError, aiohttp's "Connector is
        # closed": the bot stopped meanwhile, its HTTP session closed under a nudge on its way; found at the
        # end of bench.cluster runs)
        except GONE_WITH_THE_BOT as error:
            log.info("nudge to seat %s of table %s failed: %s", seat, self.runner.session.table_id, error)
            return
        finally:
            nudge.sending = False
        if nudge.over:  # they acted while it was on its way
            await _delete(nudge.message, cog.budget)


async def _delete(message: discord.Message, budget: Any) -> None:
    """A delete counts toward Discord's global limit like any message request: it takes a token of the
    bot's request budget, and nobody waits for it (found as 429s when a takeover nudged a hundred people)."""
    await budget.take(PICTURE)
    with contextlib.suppress(*GONE_WITH_THE_BOT):
        await message.delete()
