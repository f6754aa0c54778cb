"""Answering a click within Discord's 3 seconds, whatever the work (issue 21, item 1).

An interaction must get its first response within 3 s of its creation, counted by Discord, not from
when the bot received it. The age comes from the interaction's snowflake (``created_at``); a clock that
disagrees with it beyond reason (the age negative or older than a token lives) is not trusted and the
age counts from receipt instead (``received``, stamped by the cog). With less than ``MARGIN`` left for
the answer's own upload, the bot acknowledges first (a deferred update, type 6, or a deferred
ephemeral) and edits the answer in afterwards. With nothing left by the clock (a click delivered late, a
replay after a gateway RESUME) it still tries a deferral at once: the clock may be what is wrong (a host
whose clock runs ahead; skew.py measures by how much, and the age is read by Discord's clock), and a
deferral that really is too late costs one 404. ``respond`` says whether the answer reached the person,
so the caller can bring their DM up to date through the channel route instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import aiohttp
import discord

from .live import Payload
from .skew import discord_now

log = logging.getLogger(__name__)

DEADLINE = 3.0  # Discord's seconds to the first response
MARGIN = 1.2  # seconds kept for the answer itself (an upload of the hand's picture, a slow round trip)
LATE = 0.25  # less than this left by the clock: the answer's work waits behind a deferral sent at once
UNTRUSTED_AGE = 15 * 60.0  # an age beyond a token's lifetime means the clocks disagree, not a real age
RECEIVED = "mahjong_received"  # Interaction.extras key: time.monotonic() when the bot received it
GONE = "mahjong_gone"  # Interaction.extras key: a deferral got 10062, the interaction can no longer be answered
ANSWER_FAILURES = (discord.HTTPException, aiohttp.ClientError, OSError, asyncio.TimeoutError)


def mark_received(interaction: discord.Interaction) -> None:
    interaction.extras.setdefault(RECEIVED, time.monotonic())


def time_left(interaction: discord.Interaction) -> float:
    """Seconds until Discord stops accepting this interaction's first response."""
    received = interaction.extras.get(RECEIVED, time.monotonic())
    now = discord_now(interaction.client)  # Discord's clock, as far as its replies' Date headers tell (skew.py)
    at_receipt = (received - time.monotonic()) + (now - interaction.created_at).total_seconds()
    if not 0.0 <= at_receipt <= UNTRUSTED_AGE:
        at_receipt = 0.0
    return DEADLINE - at_receipt - (time.monotonic() - received)


async def respond(
    interaction: discord.Interaction,
    build: Callable[[], Awaitable[Payload]],
    *,
    update: bool,
    ephemeral: bool = True,
) -> bool:
    """Answer with ``build()``'s payload: in place of the clicked message (``update``) or as a new
    message, ephemeral unless told (a command's answer for the channel). Acknowledges first when the
    payload or its upload could miss the deadline. False when the answer did not reach the person (too
    late, or Discord refused it). A refusal ``build`` raises (``TableError``) goes to the caller, which
    answers it, after the deferral if there was one."""
    left = time_left(interaction)
    deferred = interaction.response.is_done()  # acknowledged while its move was being stored (acknowledge_if_slow)
    if interaction.extras.get(GONE):  # acknowledge_if_slow's deferral found it too late already
        return False
    if left < LATE and not deferred:  # never left unanswered on the clock alone: it may be the clock that is off
        log.info("interaction %s arrived with %.2fs left by the clock: deferred at once", interaction.id, left)
        try:
            await _defer(interaction, update=update, ephemeral=ephemeral)
        except ANSWER_FAILURES as error:  # 10062: it really was too late
            log.info("interaction %s: too late to answer (%s)", interaction.id, error)
            return False
        deferred = True
    task = asyncio.ensure_future(build())
    try:
        ready: Payload | None = None
        if not deferred:
            try:
                ready = await asyncio.wait_for(asyncio.shield(task), timeout=max(0.0, left - MARGIN))
            except TimeoutError:
                ready = None
            if ready is None or time_left(interaction) < MARGIN:
                await _defer(interaction, update=update, ephemeral=ephemeral)
                deferred = True
        payload = ready if ready is not None else await task
        if update and deferred:
            await interaction.edit_original_response(**payload.edit_kwargs())
        elif update:
            await interaction.response.edit_message(**payload.edit_kwargs())
        elif deferred and not ephemeral:  # the channel's "thinking…" becomes the answer
            await interaction.edit_original_response(**payload.edit_kwargs())
        elif deferred:
            await interaction.followup.send(ephemeral=True, **payload.send_kwargs())
        else:
            await interaction.response.send_message(ephemeral=ephemeral, **payload.send_kwargs())
        return True
    except ANSWER_FAILURES as error:
        log.info("interaction %s: the answer failed (%s)", interaction.id, error)
        return False
    finally:
        if not task.done():
            task.cancel()


async def _defer(interaction: discord.Interaction, *, update: bool, ephemeral: bool = True) -> None:
    """Acknowledge now, answer later: a deferred update (type 6) or a deferred message (type 5, ephemeral
    unless told). Discord saying the interaction is gone (10062) is remembered: nothing more is tried on it."""
    try:
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.NotFound:
        interaction.extras[GONE] = True
        raise


@asynccontextmanager
async def acknowledge_if_slow(interaction: discord.Interaction, *, update: bool) -> AsyncIterator[None]:
    """The work before a click's answer (waiting for the table, storing the move) normally takes
    milliseconds; if it outlasts what the 3 s leave for the answer itself, the click is acknowledged
    meanwhile (a deferred update, or a deferred ephemeral) and ``respond`` edits the answer in after."""
    acknowledging = asyncio.Event()

    async def acknowledge() -> None:
        await asyncio.sleep(max(0.0, time_left(interaction) - MARGIN))
        acknowledging.set()
        if interaction.response.is_done():
            return
        with contextlib.suppress(*ANSWER_FAILURES):
            await _defer(interaction, update=update)

    task = asyncio.create_task(acknowledge(), name=f"acknowledge-{interaction.id}")
    try:
        yield
    finally:
        if acknowledging.is_set():
            await task  # its request is on its way: the answer must come after it
        else:
            task.cancel()
