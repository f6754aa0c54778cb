"""Schema migrations: from an empty file, from every earlier version, and refusal of a newer file."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from data import SchemaTooNew, StoreError
from data.migrate import LATEST, MIGRATIONS, Migration, load_migrations, migrate
from data.store import Store


def schema(path: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(path) as db:
        return sorted(db.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))


def user_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("PRAGMA user_version").fetchone()[0]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_empty_file_gets_the_latest_schema_in_wal_mode(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()
    assert user_version(db_path) == LATEST
    names = {name for kind, name, _ in schema(db_path) if kind == "table"}
    assert {"tables", "seats", "matches", "match_scores", "hands", "moves", "hand_seats"} <= names
    with sqlite3.connect(db_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_connection_settings(store: Store) -> None:
    db = store._db  # the settings live on the connection; there is no public way to read them
    for pragma, expected in (("foreign_keys", 1), ("synchronous", 1), ("busy_timeout", 200)):
        async with db.execute(f"PRAGMA {pragma}") as cursor:
            assert (await cursor.fetchone())[0] == expected, pragma


@pytest.mark.parametrize("start", range(LATEST))
async def test_every_earlier_schema_upgrades_to_the_same_schema_as_a_fresh_file(
    tmp_path: Path, start: int
) -> None:
    fresh, old = tmp_path / "fresh.sqlite3", tmp_path / "old.sqlite3"
    await (await Store.open(fresh)).close()
    async with aiosqlite.connect(old, isolation_level=None) as db:
        assert await migrate(db, str(old), MIGRATIONS[:start]) == (0, start)
    assert user_version(old) == start
    await (await Store.open(old)).close()
    assert user_version(old) == LATEST
    assert schema(old) == schema(fresh)


async def test_reopening_keeps_data_and_applies_nothing(db_path: Path) -> None:
    store = await Store.open(db_path)
    table = await store.create_table(
        guild_id=1, channel_id=2, host_id=3, rules="taiwan16", rounds=1, options={}, password_hash=None
    )
    await store.close()
    store = await Store.open(db_path)
    assert await store.table(table.id) == table
    await store.close()
    assert user_version(db_path) == LATEST


async def test_newer_file_is_refused_and_left_unchanged(db_path: Path) -> None:
    with sqlite3.connect(db_path) as db:
        db.execute("CREATE TABLE from_the_future (x)")
        db.execute(f"PRAGMA user_version = {LATEST + 3}")
    before = digest(db_path)
    files_before = sorted(p.name for p in db_path.parent.iterdir())
    with pytest.raises(SchemaTooNew) as caught:
        await Store.open(db_path)
    message = str(caught.value)
    assert "\n" not in message
    assert f"version {LATEST + 3}" in message and f"version {LATEST};" in message
    assert str(db_path) in message and "upgrade the bot" in message
    assert digest(db_path) == before
    assert sorted(p.name for p in db_path.parent.iterdir()) == files_before


async def test_pending_migrations_are_one_transaction(db_path: Path) -> None:
    """A failing file undoes the files before it in the same batch: the version stays where it was."""
    await (await Store.open(db_path)).close()
    broken = (
        *MIGRATIONS,
        Migration(LATEST + 1, "good", "CREATE TABLE added_by_good (x);"),
        Migration(LATEST + 2, "bad", "CREATE TABLE broken (;"),
    )
    with pytest.raises(StoreError):
        await Store.open(db_path, migrations=broken)
    assert user_version(db_path) == LATEST
    assert "added_by_good" not in {name for _, name, _ in schema(db_path)}


async def test_only_pending_migrations_run_and_data_survives(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.create_table(
        guild_id=1, channel_id=2, host_id=3, rules="taiwan16", rounds=1, options={}, password_hash=None
    )
    await store.close()
    newer = (*MIGRATIONS, Migration(LATEST + 1, "notes", "ALTER TABLE tables ADD COLUMN note TEXT;"))
    store = await Store.open(db_path, migrations=newer)
    await store.close()
    assert user_version(db_path) == LATEST + 1
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT rules, note FROM tables").fetchall() == [("taiwan16", None)]


def test_migration_files_are_numbered_without_gaps(tmp_path: Path) -> None:
    assert [m.version for m in load_migrations()] == list(range(1, LATEST + 1))
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(RuntimeError, match="without gaps"):
        load_migrations(tmp_path)


async def test_matches_finished_before_ranked_play_get_their_places(db_path: Path) -> None:
    store = await Store.open(db_path, migrations=MIGRATIONS[:2])
    await store.close()
    with sqlite3.connect(db_path) as db:  # a match finished by the version-2 code: no places
        db.execute(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, rules, rounds, phase, created_at)"
            " VALUES (7, 1, 2, 3, 'taiwan13', 1, 'over', 0)"
        )
        db.execute("INSERT INTO matches (table_id, header, started_at, finished_at) VALUES (7, '{}', 0, 5)")
        db.executemany(
            "INSERT INTO match_scores (table_id, seat, user_id, name, score) VALUES (7, ?, ?, ?, ?)",
            [(i, 10 + i, f"p{i}", score) for i, score in enumerate([40, -20, 40, -60])],
        )
        db.execute(  # one won hand: seat 2 dealt at 連2 and won with two items
            "INSERT INTO hands (id, table_id, hand_no, header, started_at, finished_at, result, winner, total)"
            " VALUES (70, 7, 1, '{\"dealer\": 2, \"dealer_streak\": 2}', 0, 4,"
            " '{\"items\": [[\"门清\", 1], [\"七对子\", 2]]}', 2, 3)"
        )
        db.executemany(
            "INSERT INTO hand_seats (hand_id, seat, user_id, name, delta, won, self_drew, dealt_in, tai, guild_id,"
            " rules, table_id, finished_at) VALUES (70, ?, ?, ?, ?, ?, 0, 0, ?, 1, 'taiwan13', 7, 4)",
            [(i, 10 + i, f"p{i}", 60 if i == 2 else -20, int(i == 2), 3 if i == 2 else None) for i in range(4)],
        )
        db.executemany(
            "INSERT INTO player_names (guild_id, user_id, name, updated_at) VALUES (1, ?, ?, 4)",
            [(10 + i, f"p{i}") for i in range(4)],
        )
    store = await Store.open(db_path)
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
