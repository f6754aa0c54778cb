"""A nudge's delete is sent from a task nobody awaits: whatever the bot's HTTP session meets while it stops
(aiohttp's "Connector is closed", found at the end of a bench.cluster run as "Task exception was never
retrieved") ends the courtesy quietly instead of logging an error."""

from __future__ import annotations

import aiohttp
import discord
import pytest

from cogs.mahjong import nudges


class Budget:
    def __init__(self) -> None:
        self.taken: list[object] = []

    async def take(self, rank: object) -> None:
        self.taken.append(rank)


class Message:
    def __init__(self, error: BaseException) -> None:
        self.error = error

    async def delete(self) -> None:
        raise self.error


@pytest.mark.parametrize(
    "error",
    [aiohttp.ClientConnectionError("Connector is closed."), RuntimeError("Session is closed"), ConnectionResetError()],
)
async def test_a_nudge_deleted_while_the_bot_stops_ends_quietly(error: BaseException) -> None:
    budget = Budget()
    await nudges._delete(Message(error), budget)  # type: ignore[arg-type]
    assert budget.taken == [nudges.PICTURE], "the delete still took its token of the request budget"


async def test_a_bug_under_a_nudge_is_not_swallowed() -> None:
    with pytest.raises(TypeError):
        await nudges._delete(Message(TypeError("a bug")), Budget())  # type: ignore[arg-type]


def test_discord_refusals_are_among_the_quiet_ones() -> None:
    assert issubclass(discord.NotFound, nudges.GONE_WITH_THE_BOT)
