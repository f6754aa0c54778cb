"""A clean shutdown (SIGINT, SIGTERM, ``bot.close()``) that leaves nobody without an answer and logs no
error (issue 37, item 26).

discord.py's own ``close()`` unloads the cogs and then closes the gateway and the HTTP session at once:
a click or command received just before is still being handled and its answer meets a closed session
("Session is closed", "Task exception was never retrieved"), and whatever arrives while the tables
store what they hold is handled by cogs that are going away. :class:`Gate` sits where discord.py
parses each INTERACTION_CREATE (``ConnectionState.parsers``, as the cluster's router does) and:

- while running, counts the tasks discord.py starts for each interaction (the command or component
  handler), so the shutdown knows what is in flight;
- once the shutdown began, hands nothing more to the handlers: each new interaction is answered at
  once with a polite "restarting" line (the person presses again once the bot is back);
- :meth:`settle` waits for the handlers in flight, acknowledging (a deferral) any whose 3 seconds run
  short, so Discord shows no failure; only then may the cogs unload and the HTTP session close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any

import discord

from cogs.i18n import t
from cogs.mahjong.answers import ANSWER_FAILURES, mark_received, time_left

log = logging.getLogger(__name__)

SETTLE_SECONDS = 10.0  # the longest a shutdown waits for the handlers in flight
ACKNOWLEDGE_LEFT = 0.8  # seconds left of an unanswered interaction's 3 when the shutdown acknowledges it
APPLICATION_COMMAND, AUTOCOMPLETE = 2, 4


class Gate:
    """Between the gateway and discord.py's interaction handlers (see the module's docstring)."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.stopping = False
        self.handlers: set[asyncio.Task[Any]] = set()  # the tasks started for interactions not yet done
        self.received: dict[int, discord.Interaction] = {}  # interactions whose handler may still answer
        self.refusals: set[asyncio.Task[None]] = set()
        self._parse: Callable[[dict], None] | None = None

    def install(self) -> None:
        """Take the INTERACTION_CREATE parser (before the cogs load: the cluster's router wraps this one)."""
        parsers = self.client._connection.parsers  # noqa: SLF001 - the gateway reads this very dict
        self._parse = parsers["INTERACTION_CREATE"]
        parsers["INTERACTION_CREATE"] = self.interaction_create

    def interaction_create(self, data: dict) -> None:
        parse = self._parse
        assert parse is not None
        self.run(data, lambda: parse(data))

    def run(self, data: dict, dispatch: Callable[[], None]) -> None:
        """Hand the interaction ``data`` to its handlers (``dispatch``: discord.py's parser, or the
        cluster's delivery of a click forwarded from another process), or refuse it once stopping."""
        if self.stopping:
            task = asyncio.create_task(self._refuse(data), name="shutdown-refusal")
            self.refusals.add(task)
            task.add_done_callback(self.refusals.discard)
            return
        loop = asyncio.get_running_loop()
        factory = loop.get_task_factory()
        loop.set_task_factory(self._counting(factory))  # only while discord.py dispatches this interaction
        try:
            dispatch()
        finally:
            loop.set_task_factory(factory)

    def _counting(self, factory: Any) -> Callable[..., asyncio.Task[Any]]:
        def create(loop: asyncio.AbstractEventLoop, coro: Coroutine[Any, Any, Any], **kwargs: Any) -> asyncio.Task[Any]:
            task = factory(loop, coro, **kwargs) if factory is not None else asyncio.Task(coro, loop=loop, **kwargs)
            self.handlers.add(task)
            task.add_done_callback(self.handlers.discard)
            return task

        return create

    def seen(self, interaction: discord.Interaction) -> None:
        """``on_interaction``: the interaction whose handler runs now (its 3 seconds count from here)."""
        mark_received(interaction)
        for known in [i for i in self.received.values() if i.response.is_done() or time_left(i) < 0]:
            del self.received[known.id]  # answered, or too late for any first answer
        if interaction.type.value != AUTOCOMPLETE:
            self.received[interaction.id] = interaction

    async def _refuse(self, data: dict) -> None:
        interaction = discord.Interaction(data=data, state=self.client._connection)  # type: ignore[arg-type]  # noqa: SLF001
        try:
            if interaction.type.value == AUTOCOMPLETE:
                await interaction.response.autocomplete([])
            elif interaction.type.value >= APPLICATION_COMMAND:
                await interaction.response.send_message(t(interaction.locale, "err.restarting"), ephemeral=True)
        except (*ANSWER_FAILURES, RuntimeError) as error:  # the session closed meanwhile: nothing to do
            log.info("shutting down: interaction %s not answered: %s", interaction.id, error)

    async def settle(self, timeout: float = SETTLE_SECONDS) -> None:
        """No new input from now on; the handlers in flight finish (acknowledged when their time runs
        short), and the refusals are sent. At most ``timeout`` seconds."""
        self.stopping = True
        end = time.monotonic() + timeout
        while self.handlers and time.monotonic() < end:
            for interaction in list(self.received.values()):
                if not interaction.response.is_done() and time_left(interaction) < ACKNOWLEDGE_LEFT:
                    await self._acknowledge(interaction)
            await asyncio.wait(set(self.handlers), timeout=0.05)
        if self.handlers:
            log.warning("shutting down with %d interaction handlers still running", len(self.handlers))
        await self.refused()

    async def refused(self) -> None:
        """Every polite refusal sent so far has reached Discord (or failed)."""
        if self.refusals:
            await asyncio.wait(set(self.refusals), timeout=5)

    async def _acknowledge(self, interaction: discord.Interaction) -> None:
        del self.received[interaction.id]
        with contextlib.suppress(*ANSWER_FAILURES):
            if interaction.type.value == APPLICATION_COMMAND:
                await interaction.response.defer(ephemeral=True, thinking=True)
            else:
                await interaction.response.defer()
