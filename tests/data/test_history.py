"""bench.history writes a server's history in bulk for bench.store: the rows must be exactly those the
Store's own calls write hand by hand, or the benchmark would time queries over data the bot never makes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from bench import history
from data.copy import TABLES, table_sum
from data.store import Store
from tests.conftest import _pg_database


def ticking(start: float = 1_700_000_000.0, step: float = 600.0) -> Callable[[], float]:
    """A clock that moves on at every call, so every timestamp tells which call stamped it; ten minutes a
    call, so a table's hands end in different hours."""
    moments = iter(range(1, 10**9))
    return lambda: start + step * next(moments)


@pytest.fixture
async def other(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "sqlite":
        return str(tmp_path / "other.sqlite3")
    return await _pg_database(request)


async def sums(store: Store) -> dict[str, tuple[int, str]]:
    async with store.driver.snapshot() as db:
        found = {}
        for table, key in TABLES:
            summed = await table_sum(db, table, key)
            found[table] = (summed.rows, summed.checksum)
        return found


async def test_the_bulk_history_is_row_for_row_what_the_store_writes_hand_by_hand(target: str, other: str) -> None:
    matches = history.plan(hands=120, players=9, seed=3)  # few people: ratings move match after match
    one_clock, bulk_clock = ticking(), ticking()
    one = await Store.open(target, clock=one_clock)
    bulk = await Store.open(other, clock=bulk_clock)
    try:
        await history.through_store(one, matches)
        await history.in_bulk(bulk, matches, bulk_clock)
        expected, got = await sums(one), await sums(bulk)
        assert expected["hand_seats"][0] == 480 and expected["ratings"][0] == 9
        assert got == expected
        # and the stored ids go on from the bulk rows' (PostgreSQL's sequences were moved on)
        table = await bulk.create_table(
            guild_id=1, channel_id=999, host_id=1, rules="taiwan16", rounds=1, options={}, password_hash=None
        )
        assert table.id == len(matches) + 1
    finally:
        await one.close()
        await bulk.close()


async def test_the_month_board_from_hourly_counts_equals_adding_up_the_months_hands(target: str) -> None:
    """The period board counts tables by whole hours (player_table_hours) plus its first partial hour;
    the plain query counts every table and adds up every hand of the period: the same board."""
    clock = ticking(step=600.0)
    store = await Store.open(target, clock=clock)
    try:
        await history.through_store(store, history.plan(hands=160, players=12, seed=5))
        now = clock()
        for back in (2_000.0, 30_000.0, 100_000.0, 31 * 86_400.0):
            since = now - back
            rows, players, _ = await store.leaderboard_page(1, rules="taiwan16", since=since, size=100)
            async with store.driver.snapshot() as db:
                plain = await db.all(
                    "SELECT user_id, SUM(delta) AS points, COUNT(DISTINCT table_id) AS matches, COUNT(*) AS hands,"
                    " SUM(won) AS wins, MAX(tai) AS best_tai FROM hand_seats"
                    " WHERE guild_id = 1 AND rules = 'taiwan16' AND user_id IS NOT NULL AND finished_at >= ?"
                    " GROUP BY user_id ORDER BY points DESC, wins DESC, hands ASC, user_id ASC",
                    (since,),
                )
            assert plain, back
            assert [(r.user_id, r.points, r.matches, r.hands, r.wins, r.best_tai) for r in rows] == [
                (r["user_id"], r["points"], r["matches"], r["hands"], r["wins"], r["best_tai"]) for r in plain
            ], back
            assert players == len(plain)
    finally:
        await store.close()


async def test_the_player_table_hours_migration_counts_the_tables_of_a_history_as_finish_hand_keeps_them(target: str) -> None:
    """A database upgraded past player_table_hours' migration gets player_table_hours from its player_tables: the same rows that
    finish_hand keeps as tables move from hour to hour."""
    from data.migrate import MIGRATIONS, PG_MIGRATIONS

    store = await Store.open(target, clock=ticking(step=600.0))
    try:
        await history.through_store(store, history.plan(hands=80, players=10, seed=11))
        found = MIGRATIONS if store.driver.dialect.name == "sqlite" else PG_MIGRATIONS
        (migration,) = [m for m in found if m.name == "player_table_hours"]
        backfill = migration.sql[migration.sql.index("INSERT INTO player_table_hours"):]
        columns = ("guild_id", "hour", "rules", "user_id", "matches")
        order = "SELECT * FROM player_table_hours ORDER BY guild_id, hour, rules, user_id"
        async with store.driver.transaction() as db:
            kept = [tuple(row[c] for c in columns) for row in await db.all(order)]
            await db.execute("DELETE FROM player_table_hours")
            await db.execute(backfill)
            filled = [tuple(row[c] for c in columns) for row in await db.all(order)]
        assert len({row[1] for row in kept}) > 3  # the tables ended in several hours
        assert filled == kept
    finally:
        await store.close()
