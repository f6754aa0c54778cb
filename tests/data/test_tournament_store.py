"""Tournaments' storage (migration 0009) on each database: registration with its limit, check-in, the start
that drops who did not check in, rounds and their tables opened as 系統桌, recorded points — and the key kept
out of every repr."""

from __future__ import annotations

import pytest

from data import SeatRecord, StoreConflict, TournamentRecord
from data.store import Store
from tests.data.conftest import Clock

KEY = bytes(range(32))


async def new_tournament(store: Store, *, limit: int | None = None, duplicate: bool = True) -> TournamentRecord:
    return await store.create_tournament(
        guild_id=1, channel_id=10, organiser_id=99, name="League night", rules="taiwan16", rounds=2, hands=1,
        duplicate=duplicate, ai_fill=True, max_entrants=limit, starts_at=5000.0, locale="zh-TW", key=KEY,
    )  # fmt: skip


async def test_a_tournament_is_stored_with_its_key_that_no_repr_shows(store: Store, clock: Clock) -> None:
    made = await new_tournament(store)
    assert await store.tournament(made.id) == made
    assert (made.name, made.hands, made.duplicate, made.phase, made.created_at) == (
        "League night", 1, True, "registration", clock.now
    )
    assert made.key == KEY and KEY.hex() not in repr(made)
    assert await store.live_tournaments() == [made] and await store.tournaments_of(1) == [made]
    assert await store.tournaments_of(2) == []


async def test_registration_keeps_its_limit_and_order_and_closes_at_the_start(store: Store, clock: Clock) -> None:
    made = await new_tournament(store, limit=3)
    for user in (3, 1, 2):
        clock.advance()
        assert await store.register(made.id, user, f"user{user}", "en")
    assert not await store.register(made.id, 1, "user1", "en")  # twice is once
    with pytest.raises(StoreConflict, match="full"):
        await store.register(made.id, 4, "user4", "en")
    assert await store.unregister(made.id, 2) and not await store.unregister(made.id, 2)
    assert await store.register(made.id, 4, "user4", "en")
    assert [e.user_id for e in await store.entrants(made.id)] == [3, 1, 4]
    assert await store.check_in(made.id, 3) and await store.check_in(made.id, 4)
    assert not await store.check_in(made.id, 7)  # not entered
    playing = await store.start_tournament(made.id)
    assert [e.user_id for e in playing] == [3, 4]
    statuses = {e.user_id: (e.status, e.dropped_round) for e in await store.entrants(made.id)}
    assert statuses == {3: ("checked_in", None), 1: ("dropped", 0), 4: ("checked_in", None)}
    with pytest.raises(StoreConflict, match="not registering"):
        await store.register(made.id, 5, "user5", "en")
    assert not await store.unregister(made.id, 3) and not await store.check_in(made.id, 1)
    with pytest.raises(StoreConflict):
        await store.start_tournament(made.id)
    assert await store.drop_entrant(made.id, 4, after_round=1)
    assert not await store.drop_entrant(made.id, 1, after_round=1)  # never played


async def test_a_round_is_seated_its_tables_open_as_system_tables_and_their_points_are_kept(store: Store) -> None:
    made = await new_tournament(store)
    await store.seat_round(made.id, 1, [(1, 2, 3, 4), (5, 6, 7, None)], byes=[8])
    assert await store.round_byes(made.id) == {1: (8,)}
    seats = [SeatRecord(i, u, f"user{u}") for i, u in enumerate((5, 6, 7))] + [SeatRecord(3, None, "AI 1", "normal")]
    table = await store.open_tournament_table(
        made.id, 1, 1, guild_id=1, channel_id=10, host_id=555, rules="taiwan16", rounds=1, options={}, seats=seats
    )
    assert (table.kind, table.phase) == ("system", "playing")
    with pytest.raises(StoreConflict):  # one 系統桌 a round's table
        await store.open_tournament_table(
            made.id, 1, 1, guild_id=1, channel_id=10, host_id=555, rules="taiwan16", rounds=1, options={}, seats=seats
        )
    assert await store.tournament_table(table.id) == (made.id, 1, 1)
    assert await store.tournament_table(table.id + 100) is None
    assert await store.reopen_tournament_table(made.id, 1, 1)  # its 系統桌 ended unfinished: a new one may open
    assert (await store.round_tables(made.id))[1].table_id is None
    table = await store.open_tournament_table(
        made.id, 1, 1, guild_id=1, channel_id=10, host_id=555, rules="taiwan16", rounds=1, options={}, seats=seats
    )
    assert not await store.round_over_for(table.id)  # table 0 of the round has no points yet
    assert await store.record_table(made.id, 1, 1, [100, -50, -25, -25])
    assert not await store.reopen_tournament_table(made.id, 1, 1)
    assert not await store.round_over_for(table.id) and await store.round_over_for(table.id + 100)
    assert not await store.record_table(made.id, 1, 1, [0, 0, 0, 0])  # recorded once
    first, second = await store.round_tables(made.id)
    assert (first.seats, first.table_id, first.points) == ((1, 2, 3, 4), None, None)
    assert (second.seats, second.table_id, second.points) == ((5, 6, 7, None), table.id, (100, -50, -25, -25))
    assert await store.record_table(made.id, 1, 0, [0, 0, 0, 0]) and await store.round_over_for(table.id)


async def test_phase_and_message_change_and_a_finished_tournament_is_no_longer_live(store: Store) -> None:
    made = await new_tournament(store)
    await store.set_tournament(made.id, message_id=1234)
    await store.set_tournament(made.id, phase="over")
    again = await store.tournament(made.id)
    assert again is not None and (again.message_id, again.phase) == (1234, "over")
    assert await store.live_tournaments() == []
    with pytest.raises(ValueError):
        await store.set_tournament(made.id, secret_key="00")


async def test_a_tournaments_table_settings_threads_and_the_organisers_role_are_stored(store: Store) -> None:
    """Migration 0012: every table's turn and claim times, the house rules, threads on, a table's thread,
    and a server's organisers' role."""
    made = await store.create_tournament(
        guild_id=1, channel_id=10, organiser_id=99, name="Threads", rules="taiwan16", rounds=1, hands=None,
        duplicate=False, ai_fill=False, max_entrants=None, starts_at=None, locale="en", key=KEY, turn_seconds=8,
        claim_seconds=10, preset="common", house_rules={"heavenly_tai": 24}, threads=True,
    )  # fmt: skip
    again = await store.tournament(made.id)
    assert again == made
    assert (again.turn_seconds, again.claim_seconds, again.preset, again.house_rules, again.threads) == (
        8, 10, "common", {"heavenly_tai": 24}, True
    )
    plain = await new_tournament(store)
    assert (plain.turn_seconds, plain.house_rules, plain.threads) == (None, {}, False)
    await store.register(made.id, 1, "a", "en")
    await store.check_in(made.id, 1)
    await store.start_tournament(made.id)
    await store.seat_round(made.id, 1, [(1, None, None, None)], [])
    await store.set_table_thread(made.id, 1, 0, 777)
    (table,) = await store.round_tables(made.id)
    assert table.thread_id == 777 and table.table_id is None
    assert (await store.guild_settings(1)).organiser_role_id is None
    assert (await store.set_guild_settings(1, organiser_role_id=555)).organiser_role_id == 555
    assert (await store.set_guild_settings(1, organiser_role_id=None)).organiser_role_id is None
