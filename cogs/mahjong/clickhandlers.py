"""What a click on a table's messages does (a prompt button, the 換牌 select, 眼牌, take back, the pause's
Resume, the fallback hand): each becomes one input fed to the table's session under its host's lock, the
move stored before the person is answered, and the answer (their hand, in place or privately) sent outside
the lock so that others' clicks need not wait. The host is the table's runner (runner.py), through the few
outlets a click needs (``ClickHost``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, Protocol

import discord

from data import PlayerPrefs, StoreError
from engine.tiles import NotationError, tile_from_str
from table import inputs as ins
from table.ids import Mode, PromptPoint
from table.lobby import TableError, TableState
from table.screens import SEATS
from table.session import TableSession
from table.toggles import Toggles

from ..i18n import t
from .answers import acknowledge_if_slow, respond
from .channel import ChannelMessages
from .clock import Clock
from .dms import HandMessages
from .journal import Journal
from .live import Payload

Job = Callable[[], Awaitable[None]]


class PrefsHolder(Protocol):
    """Where a person's preferences are kept (data/prefs.py, mixed into the Store)."""

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs: ...
    async def set_player_prefs(self, user_id: int, **changes: Any) -> PlayerPrefs: ...


class ClickHost(Protocol):
    """What a click needs of its table's host (the runner)."""

    state: TableState
    session: TableSession
    lock: asyncio.Lock
    hands: HandMessages
    journal: Journal
    clock: Clock
    channel: ChannelMessages

    def feed(self, event: ins.Input) -> list[Job]: ...  # one input, the lock held: its network work, to run after
    async def dm_payload(self, seat: int, mode: str = "main") -> Payload: ...


def exchange_tiles(values: Sequence[str]) -> tuple[int, ...]:
    """The tiles an exchange select's values name (``["5m.0", "5m.1"]`` → two 5m); NotationError if odd."""
    return tuple(sorted(tile_from_str(value.partition(".")[0]) for value in values))


async def act(host: ClickHost, interaction: discord.Interaction, point: PromptPoint, code: str) -> None:
    """A prompt button: the session checks it against the live decision point and plays it; the
    move is stored before the player sees it, and the answer shows their new hand."""
    user = interaction.user.id

    def click(answering: int | None) -> ins.Input:
        return ins.Click(user, point.seat, code, point.hand, point.move, answering)

    await _play(host, interaction, point.seat, click)


async def exchange(host: ClickHost, interaction: discord.Interaction, point: PromptPoint, values: list[str]) -> None:
    """換牌 select: the chosen tiles (choosing is confirming), validated like a button."""
    user = interaction.user.id

    def chosen(answering: int | None) -> ins.Input:
        try:
            tiles: tuple[int, ...] | None = exchange_tiles(values)
        except NotationError:
            tiles = None  # the session refuses it as stale, once it has checked the decision point
        return ins.Exchange(user, point.seat, tiles, point.hand, point.move, answering)

    await _play(host, interaction, point.seat, chosen)


async def declare_eye(host: ClickHost, interaction: discord.Interaction) -> None:
    """眼牌 (Miji in its window): any time while the hand is played, from the hand message."""
    user = interaction.user.id
    await _play(host, interaction, None, lambda answering: ins.Declare(user, answering))


async def take_back(host: ClickHost, interaction: discord.Interaction) -> None:
    user = interaction.user.id
    await _play(host, interaction, None, lambda answering: ins.TakeBack(user, answering))


async def _play(
    host: ClickHost, interaction: discord.Interaction, seat: int | None, made: Callable[[int | None], ins.Input]
) -> None:
    """A click that changes the table: fed under the lock and stored before the person sees it, then
    answered (outside the lock: others' clicks need not wait) with their hand in place. ``seat`` is a
    prompt button's own (its message is the clicker's); None: the clicker's seat, from a message that
    may be the channel's (the answer is then a private hand)."""
    prompt = seat is not None
    async with acknowledge_if_slow(interaction, update=prompt or _own_message(interaction)), host.lock:
        at = host.session.screen(SEATS).seat_for(interaction.user.id) if seat is None else seat
        jobs = host.feed(made(host.hands.answering(interaction, at)))
        host.clock.poke()  # the driver waits on the lock: it plays on (AI replies) as soon as this is stored
        await host.journal.flush()
    if prompt or _own_message(interaction):  # in place on the message clicked: their DM or private hand
        await host.hands.answer_in_place(interaction, at)
    else:  # a channel message: a private hand instead
        await host.hands.answer_privately(interaction, at)
    await _run(host, jobs)


async def toggle(host: ClickHost, interaction: discord.Interaction, name: str, store: PrefsHolder) -> None:
    """An auto toggle on the hand message: the clicker's preference flipped and stored (kept across tables
    and restarts), then fed to this table as the toggles now stand; the answer shows their hand in place."""
    user = interaction.user.id
    async with host.lock:
        host.session.screen(SEATS).seat_for(user)  # seated at this table in play, or the refusal
    current = await store.get_player_prefs(user)
    try:
        prefs = await store.set_player_prefs(user, **{name: not getattr(current, name)})
    except StoreError:
        raise TableError("err.storage") from None
    await _play(host, interaction, None, lambda answering: ins.SetToggles(user, toggles_of(prefs), answering))


def toggles_of(prefs: PlayerPrefs) -> Toggles:
    """The table's toggles from a person's stored preferences."""
    return Toggles(prefs.auto_win, prefs.no_calls, prefs.auto_discard)


async def switch_mode(host: ClickHost, interaction: discord.Interaction, point: PromptPoint, mode: Mode) -> None:
    async with host.lock:
        seat = host.session.screen(SEATS).check(interaction.user.id, point.seat, point.hand, point.move)
    if not await respond(interaction, partial(host.dm_payload, seat, mode), update=True):
        host.hands.answer_failed(seat)


async def resume_paused(host: ClickHost, interaction: discord.Interaction) -> None:
    """The pause's Resume button: a seated person takes their seat back and the next hand starts. A
    pause message the table has left behind (the table plays on: a restart while paused posts the pause
    afresh, and the old message kept its button) is answered by saying so on it, its button gone."""
    user = interaction.user.id
    # the lock and the journal's flush can outlast Discord's 3 s under load: acknowledged meanwhile, as
    # the answer will be (a stale pause message is answered in place)
    stale = not host.session.phase.paused
    # a pause message other than the one the table shows now (a restart while paused posts it afresh) is
    # answered in place like a stale one, so no message is left with a live Resume button
    in_place = stale or not host.channel.is_pause(interaction.message)
    async with acknowledge_if_slow(interaction, update=in_place), host.lock:
        seats = host.session.screen(SEATS)
        seat = seats.seat_for(user)  # seated at a table in play, or the refusal
        if not stale:
            jobs = host.feed(ins.ResumePaused(user))
        elif seats.auto_played(seat):  # what Resume is for: the seat back
            jobs = host.feed(ins.TakeBack(user))
        else:
            jobs = []
        host.clock.poke()
        await host.journal.flush()

    async def answer() -> Payload:
        if in_place:
            return Payload(content=t(host.state.locale, "play.unpaused"))
        return Payload(content=t(interaction.locale, "ok.resumed"))

    await respond(interaction, answer, update=in_place)
    await _run(host, jobs)


async def show_hand(host: ClickHost, interaction: discord.Interaction) -> None:
    """The fallback for closed DMs: a fresh ephemeral hand with the same buttons, on every click."""
    async with host.lock:
        seat = host.session.screen(SEATS).seat_for(interaction.user.id)
    await host.hands.answer_privately(interaction, seat)


async def _run(host: ClickHost, jobs: Sequence[Job]) -> None:
    """A click's network work, in order, after its answer; then the driver looks again."""
    for job in jobs:
        await job()
    host.clock.poke()


def _own_message(interaction: discord.Interaction) -> bool:
    """The clicked message is the clicker's alone: in their DMs, or an ephemeral answer to them."""
    message = interaction.message
    return interaction.guild_id is None or (message is not None and message.flags.ephemeral)
