"""Forming a 系統桌: its people seated (AI in the seats left empty), stored, claimed by this process, posted
with each player mentioned once, and dealt. The quick-play queues (quickplay.py) form them from a queue,
a tournament (tournament_rounds.py) from a round's seating: one path, two ways to store the table.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord

from data import SeatRecord, StoreConflict, StoreError, TableRecord
from table.lobby import TableSettings, TableState
from table.records import settings_options
from table.session import Deal

from ..i18n import t
from .runner import TableRunner, seat_records
from .system import SYSTEM

if TYPE_CHECKING:
    from .services import Services

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Sitter:
    """A person who sits down at a 系統桌 being formed."""

    user_id: int
    name: str
    locale: str  # their own language (their DMs)


# stores the formed table (host id, the row's options, its seats, its rounds); StoreConflict: it cannot be
StoreTable = Callable[[int, dict, list[SeatRecord], int], Awaitable[TableRecord]]


async def open_system(
    host: Services, people: Sequence[Sitter | None], *, guild_id: int, channel_id: int, settings: TableSettings,
    locale: str, store_table: StoreTable, deal: Deal | None = None,
) -> TableRunner | None:  # fmt: skip
    """Seat ``people`` in this order (None: an AI seat; AI fill the seats left), store the table, and start
    it in the background; the runner, or None when ``store_table`` met a conflict (nothing is stored)."""
    assert host.bot.user is not None
    host_id = host.bot.user.id  # nobody hosts a 系統桌: members with Manage Server may still close it
    state = TableState(0, guild_id, channel_id, host_id, settings)
    state.kind = SYSTEM
    for who in people:
        if who is None:
            state.add_ai()
        else:
            state.join(who.user_id, who.name, locale=who.locale)
    state.start()  # AI in the empty seats (AI fill), phase playing
    host_name = t(locale, "hall.kind.system")
    options = {**settings_options(state.settings, locale), "host_name": host_name}  # as opening.py writes it
    try:
        record = await store_table(host_id, options, seat_records(state.seats), state.settings.rounds)
    except StoreConflict as error:  # the queue or the round changed in between: looked at again
        log.info("a 系統桌 in %s was not formed: %s", guild_id, error)
        return None
    try:  # cluster hook: a table this process forms runs here, as one it creates (its DM clicks find it)
        await host.cluster.claim(record.id)
    except StoreError as error:  # its people are seated already: it plays here, and their clicks with it
        log.warning("the 系統桌 %s could not be claimed (%s): it runs here without a lease", record.id, error)
    state.table_id = record.id
    runner = host.new_runner(state, locale=locale, host_name=host_name)
    host.registry.add(runner)
    mention = [who.user_id for who in people if who is not None]
    host.background(_start_system(host, runner, mention, deal))
    return runner


async def _start_system(host: Services, runner: TableRunner, mention: list[int], deal: Deal | None) -> None:
    """Say where the table is (each player mentioned once, in the table's channel), then deal."""
    await host.bot.wait_until_ready()
    try:
        await _announce_and_deal(host, runner, mention, deal)
    except RuntimeError:  # the bot stopped meanwhile (its HTTP session is closed): the next start restores it
        if not host.bot.is_closed():
            raise


async def _announce_and_deal(host: Services, runner: TableRunner, mention: list[int], deal: Deal | None) -> None:
    if mention:
        people = " ".join(f"<@{user_id}>" for user_id in mention)
        content = t(runner.state.locale, "hall.ready", mentions=people, channel=f"<#{runner.state.channel_id}>")
        payload = await runner.lobby_payload()
        # only these people are pinged, whatever the names in the embed say
        allowed = discord.AllowedMentions(users=[discord.Object(u) for u in mention], roles=False, everyone=False)
        await runner.post(content=content, embeds=payload.embeds, allowed_mentions=allowed)
    await host.start_match(runner, deal)
