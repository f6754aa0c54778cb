"""The hall's storage (migration 0005): server settings, the quick-play queue, and the one write that
turns queued people into a 系統桌 — each scoped to one server, each all-or-nothing."""

from __future__ import annotations

import pytest

from data import GuildSettings, QueueEntry, SeatRecord, StoreConflict
from data.store import Store
from tests.data.conftest import Clock


def entry(user: int, rules: str = "taiwan16", guild: int = 1, at: float = 0.0, channel: int = 10) -> QueueEntry:
    return QueueEntry(guild, user, rules, f"user{user}", "en", "zh-TW", channel, at)


async def test_a_server_without_settings_has_the_defaults(store: Store) -> None:
    assert await store.guild_settings(5) == GuildSettings(5, None, 5, None, False)


async def test_settings_change_only_what_is_given_and_stay_per_server(store: Store) -> None:
    await store.set_guild_settings(1, mahjong_channel_id=99, ai_fill_seconds=120)
    changed = await store.set_guild_settings(1, require_password=True, system_turn_seconds=20)
    assert changed == GuildSettings(1, 99, 20, 120, True)
    assert await store.guild_settings(1) == changed
    assert (await store.set_guild_settings(1, ai_fill_seconds=None)).ai_fill_seconds is None
    assert await store.guild_settings(2) == GuildSettings(2)


async def test_unknown_settings_are_refused_by_name(store: Store) -> None:
    with pytest.raises(ValueError, match="colour"):
        await store.set_guild_settings(1, colour="red")


async def test_the_queue_is_first_come_first_and_one_queue_a_person(store: Store) -> None:
    for user, at in ((3, 2.0), (1, 0.0), (2, 1.0)):
        await store.enqueue(entry(user, at=at))
    await store.enqueue(entry(4, rules="hongkong", at=0.5))
    assert [e.user_id for e in await store.queue(1, "taiwan16")] == [1, 2, 3]
    assert [e.user_id for e in await store.queue(1)] == [1, 4, 2, 3]
    await store.enqueue(entry(1, rules="hongkong", at=5.0))  # queueing again moves them, to the back
    assert [e.user_id for e in await store.queue(1, "taiwan16")] == [2, 3]
    assert [e.user_id for e in await store.queue(1, "hongkong")] == [4, 1]
    assert await store.queued(1, 1) == entry(1, rules="hongkong", at=5.0)


async def test_dequeue_hands_back_what_the_person_had(store: Store) -> None:
    await store.enqueue(entry(7, rules="guangdong"))
    assert await store.dequeue(1, 7) == entry(7, rules="guangdong")
    assert await store.dequeue(1, 7) is None and await store.queued(1, 7) is None


async def test_queues_are_per_server(store: Store) -> None:
    await store.enqueue(entry(1, guild=1))
    await store.enqueue(entry(1, guild=2))
    await store.dequeue(2, 1)
    assert [e.guild_id for e in await store.queue(1)] == [1] and await store.queue(2) == []
    assert await store.waiting_guilds() == [1]


async def test_a_system_table_takes_its_players_out_of_the_queue_in_one_write(store: Store, clock: Clock) -> None:
    group = [entry(u, at=float(u)) for u in (1, 2, 3)]
    for e in [*group, entry(4, at=9.0)]:
        await store.enqueue(e)
    seats = [SeatRecord(i, u, f"user{u}") for i, u in enumerate((1, 2, 3))] + [SeatRecord(3, None, "AI 1", "normal")]
    table = await store.open_system_table(
        group, channel_id=77, host_id=555, rounds=1, options={"locale": "zh-TW"}, seats=seats
    )
    assert (table.kind, table.phase, table.guild_id, table.channel_id, table.rules) == (
        "system", "playing", 1, 77, "taiwan16"
    )
    assert table.created_at == clock.now and table.password_hash is None
    assert (await store.table(table.id)) == table
    assert [e.user_id for e in await store.queue(1)] == [4]


async def test_a_system_table_is_not_stored_when_one_of_its_players_left_the_queue(store: Store) -> None:
    group = [entry(u) for u in (1, 2, 3, 4)]
    for e in group[:3]:
        await store.enqueue(e)
    with pytest.raises(StoreConflict, match="no queued taiwan16 player 4"):
        await store.open_system_table(
            group, channel_id=77, host_id=555, rounds=1, options={}, seats=[SeatRecord(0, 1, "user1")]
        )
    assert [e.user_id for e in await store.queue(1)] == [1, 2, 3]  # nobody taken out
    assert await store.unfinished_tables() == []


async def test_player_tables_are_of_kind_player(store: Store) -> None:
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, rules="taiwan16", rounds=1, options={}, password_hash=None
    )
    assert table.kind == "player" and (await store.unfinished_tables())[0].table.kind == "player"
