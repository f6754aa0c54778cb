"""Schema migrations on each database: from empty, from every earlier version, refusal of a newer one,
and the two dialects' migrations describing the same tables and columns."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from data import SchemaTooNew, StoreError
from data import postgres as pg
from data.migrate import LATEST, MIGRATIONS, PG_MIGRATIONS, Migration, load_migrations, migrate
from data.postgres import is_server_url
from data.store import Store
from tests.data import schema as db

TABLES = {
    "tables",
    "seats",
    "matches",
    "match_scores",
    "hands",
    "moves",
    "hand_seats",
    "player_names",
    "bot_settings",
}


def own(target: str) -> tuple[Migration, ...]:
    return PG_MIGRATIONS if is_server_url(target) else MIGRATIONS


async def migrate_to(target: str, migrations: tuple[Migration, ...]) -> tuple[int, int]:
    """Apply ``migrations`` with the dialect's own migrate(), as an older bot would have."""
    if is_server_url(target):
        connection = await asyncpg.connect(target)
        try:
            return await pg.migrate(connection, target, migrations)
        finally:
            await connection.close()
    async with aiosqlite.connect(target, isolation_level=None) as connection:
        return await migrate(connection, target, migrations)


async def test_empty_database_gets_the_latest_schema(target: str) -> None:
    store = await Store.open(target)
    await store.close()
    assert await db.version(target) == LATEST
    assert TABLES <= await db.tables(target)
    if not is_server_url(target):
        with sqlite3.connect(target) as connection:
            assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_connection_settings(store: Store) -> None:
    if store.driver.dialect.name == "sqlite":
        connection = (
            store.driver.connection
        )  # the settings live on the connection; no public way to read them
        for pragma, expected in (("foreign_keys", 1), ("synchronous", 1), ("busy_timeout", 200)):
            async with connection.execute(f"PRAGMA {pragma}") as cursor:
                assert (await cursor.fetchone())[0] == expected, pragma
    else:
        async with store.driver.pool.acquire() as connection:
            assert await connection.fetchval("SHOW lock_timeout") == "200ms"
            assert await connection.fetchval("SHOW application_name") == "mahjong"


@pytest.mark.parametrize("start", range(LATEST))
async def test_every_earlier_schema_upgrades_to_the_same_schema_as_a_fresh_one(
    target: str, tmp_path: Path, request: pytest.FixtureRequest, start: int
) -> None:
    if is_server_url(target):
        cluster = request.getfixturevalue("pg_cluster")
        fresh = cluster.url(await cluster.create_database())
    else:
        fresh = str(tmp_path / "fresh.sqlite3")
    await (await Store.open(fresh)).close()
    assert await migrate_to(target, own(target)[:start]) == (0, start)
    if start:
        assert await db.version(target) == start
    await (await Store.open(target)).close()
    assert await db.version(target) == LATEST
    assert await db.schema(target) == await db.schema(fresh)


async def test_reopening_keeps_data_and_applies_nothing(target: str) -> None:
    store = await Store.open(target)
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, rules="taiwan16", rounds=1, options={}, password_hash=None
    )
    await store.close()
    store = await Store.open(target)
    assert await store.table(table.id) == table
    await store.close()
    assert await db.version(target) == LATEST


async def test_newer_database_is_refused_and_left_unchanged(target: str) -> None:
    if is_server_url(target):
        await db.execute(
            target,
            "CREATE TABLE from_the_future (x INTEGER); CREATE TABLE schema_version (version INTEGER NOT NULL);"
            f" INSERT INTO schema_version VALUES ({LATEST + 3})",
        )
    else:
        await db.execute(target, f"CREATE TABLE from_the_future (x); PRAGMA user_version = {LATEST + 3};")
    before = await db.schema(target)
    files_before = sorted(p.name for p in Path(target).parent.iterdir()) if not is_server_url(target) else []
    with pytest.raises(SchemaTooNew) as caught:
        await Store.open(target)
    message = str(caught.value)
    assert "\n" not in message
    assert f"version {LATEST + 3}" in message and f"version {LATEST};" in message
    assert "upgrade the bot" in message
    assert await db.schema(target) == before and await db.version(target) == LATEST + 3
    if is_server_url(target):
        assert pg.shown(target) in message
    else:
        assert target in message
        assert sorted(p.name for p in Path(target).parent.iterdir()) == files_before


async def test_a_file_newer_than_this_bot_is_left_byte_for_byte(db_path: Path) -> None:
    with sqlite3.connect(db_path) as connection:
        connection.execute("CREATE TABLE from_the_future (x)")
        connection.execute(f"PRAGMA user_version = {LATEST + 3}")
    before = db_path.read_bytes()
    with pytest.raises(SchemaTooNew):
        await Store.open(db_path)
    assert db_path.read_bytes() == before


async def test_pending_migrations_are_one_transaction(target: str) -> None:
    """A failing file undoes the files before it in the same batch: the version stays where it was."""
    await (await Store.open(target)).close()
    broken = (
        *own(target),
        Migration(LATEST + 1, "good", "CREATE TABLE added_by_good (x INTEGER);"),
        Migration(LATEST + 2, "bad", "CREATE TABLE broken (;"),
    )
    with pytest.raises(StoreError):
        await Store.open(target, migrations=broken)
    assert await db.version(target) == LATEST
    assert "added_by_good" not in await db.tables(target)


async def test_only_pending_migrations_run_and_data_survives(target: str) -> None:
    store = await Store.open(target)
    await store.create_table(
        guild_id=1, channel_id=2, host_id=3, rules="taiwan16", rounds=1, options={}, password_hash=None
    )
    await store.close()
    newer = (*own(target), Migration(LATEST + 1, "notes", "ALTER TABLE tables ADD COLUMN note TEXT;"))
    store = await Store.open(target, migrations=newer)
    await store.close()
    assert await db.version(target) == LATEST + 1
    assert await db.fetch(target, "SELECT rules, note FROM tables") == [("taiwan16", None)]


def test_migration_files_are_numbered_without_gaps(tmp_path: Path) -> None:
    assert [m.version for m in load_migrations()] == list(range(1, LATEST + 1))
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(RuntimeError, match="without gaps"):
        load_migrations(tmp_path)


async def test_both_databases_get_the_same_tables_columns_and_keys(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """data.copy moves rows column by column: the dialects' migrations must agree on every name."""
    assert [(m.version, m.name) for m in PG_MIGRATIONS] == [(m.version, m.name) for m in MIGRATIONS]
    lite = str(tmp_path / "lite.sqlite3")
    await (await Store.open(lite)).close()
    cluster = request.getfixturevalue("pg_cluster")
    server = cluster.url(await cluster.create_database())
    await (await Store.open(server)).close()

    def lite_columns(table: str) -> list[tuple[str, bool, int]]:
        with sqlite3.connect(lite) as connection:
            return [
                (name, bool(notnull), pk)
                for _, name, _, notnull, _, pk in connection.execute(f"PRAGMA table_info({table})")
            ]

    every_table = await db.tables(lite)
    assert every_table == await db.tables(server) - {"schema_version"}  # PostgreSQL's version is a table
    for table in sorted(every_table):
        rows = await db.fetch(
            server,
            "SELECT a.attname, a.attnotnull,"
            " COALESCE(array_position(i.indkey::int2[], a.attnum) - array_lower(i.indkey::int2[], 1) + 1, 0)"
            " FROM pg_attribute a LEFT JOIN pg_index i ON i.indrelid = a.attrelid AND i.indisprimary"
            " WHERE a.attrelid = ?::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum",
            table,
        )
        lite_rows = lite_columns(table)
        # SQLite reports an INTEGER PRIMARY KEY as nullable; PostgreSQL's primary keys are NOT NULL
        assert [(n, pk) for n, _, pk in rows] == [(n, pk) for n, _, pk in lite_rows], table
        assert [nn for _, nn, pk in rows if not pk] == [nn for _, nn, pk in lite_rows if not pk], table
    lite_indexes = {name for kind, name, _ in await db.schema(lite) if kind == "index"}
    server_indexes = {
        name for kind, name, _ in await db.schema(server) if kind == "index" and not name.endswith("_pkey")
    }
    assert lite_indexes == server_indexes - {f"{t}_table_id_hand_no_key" for t in ("hands",)}


async def test_bots_starting_at_once_on_one_server_migrate_it_once(pg_target: str) -> None:
    """Several processes share one PostgreSQL database: their migrations take turns (an advisory lock)."""
    import asyncio

    stores = await asyncio.gather(*(Store.open(pg_target, busy_timeout=10) for _ in range(4)))
    try:
        assert await db.version(pg_target) == LATEST
        table = await stores[0].create_table(
            guild_id=1, channel_id=2, host_id=3, rules="taiwan16", rounds=1, options={}, password_hash=None
        )
        assert [await s.table(table.id) for s in stores[1:]] == [table] * 3  # one database, seen by all
    finally:
        for store in stores:
            await store.close()


async def test_matches_finished_before_ranked_play_get_their_places(target: str) -> None:
    store = await Store.open(target, migrations=own(target)[:2])
    await store.close()
    scores = ", ".join(f"(7, {i}, {10 + i}, 'p{i}', {score})" for i, score in enumerate([40, -20, 40, -60]))
    seats = ", ".join(
        f"(70, {i}, {10 + i}, 'p{i}', {60 if i == 2 else -20}, {int(i == 2)}, 0, 0, {3 if i == 2 else 'NULL'},"
        " 1, 'taiwan13', 7, 4)"
        for i in range(4)
    )
    names = ", ".join(f"(1, {10 + i}, 'p{i}', 4)" for i in range(4))
    await db.execute(  # a match finished by the version-2 code: no places, items or 連莊 counts
        target,
        "INSERT INTO tables (id, guild_id, channel_id, host_id, rules, rounds, phase, created_at)"
        " VALUES (7, 1, 2, 3, 'taiwan13', 1, 'over', 0);"
        " INSERT INTO matches (table_id, header, started_at, finished_at) VALUES (7, '{}', 0, 5);"
        f" INSERT INTO match_scores (table_id, seat, user_id, name, score) VALUES {scores};"
        # one won hand: seat 2 dealt at 連2 and won with two items
        " INSERT INTO hands (id, table_id, hand_no, header, started_at, finished_at, result, winner, total)"
        " VALUES (70, 7, 1, '{\"dealer\": 2, \"dealer_streak\": 2}', 0, 4,"
        " '{\"items\": [[\"门清\", 1], [\"七对子\", 2]]}', 2, 3);"
        " INSERT INTO hand_seats (hand_id, seat, user_id, name, delta, won, self_drew, dealt_in, tai, guild_id,"
        f" rules, table_id, finished_at) VALUES {seats};"
        f" INSERT INTO player_names (guild_id, user_id, name, updated_at) VALUES {names};",
    )
    store = await Store.open(target)
    try:
        standings = await store.match_standings(1, 7)
        assert standings is not None and standings.places == (1, 3, 1, 4) and standings.rules == "taiwan13"
        p2 = await store.player_figures(1, 12)
        assert p2 is not None and p2.longest_streak == 2 and p2.top_items == (("七对子", 1), ("门清", 1))
        assert p2.places == (1, 0, 0, 0) and p2.points == 60
        server = await store.server_figures(1, "taiwan13")
        assert (server.hands, server.wins, len(server.most_made)) == (1, 1, 2)
        board = await store.leaderboard(1)
        assert [(r.user_id, r.points, r.matches) for r in board][0] == (12, 60, 1)
    finally:
        await store.close()
