"""PostgreSQL's own faults, each real on the session's throw-away server: a lock held by another
session, a read-only database, a full disk (a tablespace on a small tmpfs), damaged pages, a missing
database or role, and the server stopping in the middle of play. Each gives the right StoreError with
one clear line naming the server (never its password), and nothing stored is lost or half-written."""

from __future__ import annotations

import os
import pwd
import subprocess
from pathlib import Path

import asyncpg
import pytest

from data import (
    StoreConflict,
    StoreCorrupt,
    StoreError,
    StoreFull,
    StoreLocked,
    StoreReadOnly,
    StoreUnreachable,
)
from data.errors import Violation
from data.pending import PendingWrites
from data.postgres import shown, translate
from data.store import Store
from tests.data.conftest import locked, new_table
from tests.data.schema import execute, fetch
from tests.pgcluster import Cluster


def assert_one_clear_line(error: StoreError, url: str, *words: str) -> None:
    text = str(error)
    assert "\n" not in text
    assert shown(url) in text
    for word in words:
        assert word in text


async def prepared(url: str) -> int:
    """A database with one table and one hand holding two moves; returns the hand id."""
    store = await Store.open(url)
    table = await new_table(store, [1, 2, 3, None])
    hand = await store.start_hand(table.id, 1, {"seed": 1})
    await store.append_action(hand, 0, "0 discard 1m", 5.0)
    await store.append_action(hand, 1, "1 discard 2m", 6.0)
    await store.close()
    return hand


async def moves_in(url: str) -> list[tuple[int, str]]:
    return await fetch(url, "SELECT move_no, action FROM moves ORDER BY move_no")


def database_of(url: str) -> str:
    return url.split("/")[3].split("?")[0]


async def set_read_only(cluster: Cluster, url: str, on: bool) -> None:
    """As an operator would, from another database (a read-only one cannot switch itself back)."""
    admin = await cluster.admin()
    try:
        await admin.execute(
            f'ALTER DATABASE "{database_of(url)}" SET default_transaction_read_only = {"on" if on else "off"}'
        )
    finally:
        await admin.close()


# ---------------------------------------------------------------------- locked


async def test_locked_database_at_start(pg_target: str) -> None:
    await prepared(pg_target)
    async with locked(pg_target, "schema_version"):
        with pytest.raises(StoreLocked) as caught:
            await Store.open(pg_target, busy_timeout=0.1)
    assert_one_clear_line(caught.value, pg_target, "locked", "another session", "end it")


async def test_locked_during_play_stores_nothing_then_works_again(pg_target: str) -> None:
    hand = await prepared(pg_target)
    store = await Store.open(pg_target, busy_timeout=0.1)
    async with locked(pg_target):
        with pytest.raises(StoreLocked):
            await store.append_action(hand, 2, "2 discard 3m", 7.0)
    await store.append_action(hand, 2, "2 discard 3m", 7.0)
    await store.close()
    assert await moves_in(pg_target) == [(0, "0 discard 1m"), (1, "1 discard 2m"), (2, "2 discard 3m")]


# ---------------------------------------------------------------------- read-only


async def test_read_only_database_at_start(pg_target: str, pg_cluster: Cluster) -> None:
    await prepared(pg_target)
    await set_read_only(pg_cluster, pg_target, True)
    with pytest.raises(StoreReadOnly) as caught:
        await Store.open(pg_target)
    assert_one_clear_line(caught.value, pg_target, "read-only", "writable primary")
    assert len(await moves_in(pg_target)) == 2


async def test_read_only_during_play_stores_nothing(pg_target: str, pg_cluster: Cluster) -> None:
    """The operator makes the database read-only; every session opened after that refuses writes."""
    hand = await prepared(pg_target)
    store = await Store.open(pg_target)
    await set_read_only(pg_cluster, pg_target, True)
    await store.driver.pool.expire_connections()
    with pytest.raises(StoreReadOnly):
        await store.append_action(hand, 2, "2 discard 3m", 7.0)
    with pytest.raises(StoreReadOnly):
        await store.finish_hand(
            hand, result={}, deltas=[1, -1, 0, 0], winner=0, loser=1, self_drawn=False, total=1
        )
    await set_read_only(pg_cluster, pg_target, False)
    await store.driver.pool.expire_connections()
    await store.append_action(hand, 2, "2 discard 3m", 7.0)
    await store.close()
    assert [n for n, _ in await moves_in(pg_target)] == [0, 1, 2]
    assert await fetch(pg_target, "SELECT COUNT(*) FROM hand_seats") == [(0,)]


# ---------------------------------------------------------------------- full


@pytest.fixture
def small_disk(pg_cluster: Cluster):
    """A 256 KB tmpfs the server may write to; skipped where this machine does not let us mount one."""
    folder = pg_cluster.folder / "small"  # where the server's user may reach it
    folder.mkdir()
    owner = pwd.getpwnam(pg_cluster.user) if pg_cluster.user else pwd.getpwuid(os.getuid())
    mounted = subprocess.run(
        [
            "mount",
            "-t",
            "tmpfs",
            "-o",
            f"size=256k,uid={owner.pw_uid},gid={owner.pw_gid},mode=0700",
            "tmpfs",
            str(folder),
        ],
        capture_output=True,
    )
    if mounted.returncode != 0:
        pytest.skip(
            f"cannot mount a small tmpfs here ({mounted.stderr.decode().strip()}); the SQLite full test still runs"
        )
    yield folder
    subprocess.run(["umount", "-l", str(folder)], check=False)
    folder.rmdir()


async def test_full_disk_refuses_whole_writes_only(
    pg_target: str, pg_cluster: Cluster, small_disk: Path
) -> None:
    hand = await prepared(pg_target)
    space = f"small_{database_of(pg_target)}"
    admin = await pg_cluster.admin()
    await admin.execute(f"CREATE TABLESPACE {space} LOCATION '{small_disk}'")
    try:
        await execute(pg_target, f"ALTER TABLE moves SET TABLESPACE {space}")
        store = await Store.open(pg_target)
        stored = 2
        with pytest.raises(StoreFull) as caught:
            for move in range(2, 100_000):
                await store.append_action(hand, move, "0 discard 1m" + " " * 400, float(move))
                stored += 1
        assert_one_clear_line(caught.value, pg_target, "full", "free some space")
        await store.close()
        rows = await moves_in(pg_target)
        assert [n for n, _ in rows] == list(range(stored))  # every accepted move, nothing of the refused one
        assert stored > 10
        assert await fetch(pg_target, "SELECT deadline FROM hands WHERE id = ?", hand) == [
            (float(stored - 1),)
        ]
    finally:
        await pg_cluster.drop_database(database_of(pg_target))
        await admin.execute(f"DROP TABLESPACE IF EXISTS {space}")
        await admin.close()


# ---------------------------------------------------------------------- corrupt


async def test_damaged_pages_are_reported_corrupt(pg_target: str, pg_cluster: Cluster) -> None:
    await prepared(pg_target)
    [(relative,)] = await fetch(pg_target, "SELECT pg_relation_filepath('moves')")
    pg_cluster.stop()  # the server writes its pages out and forgets them
    try:
        path = pg_cluster.data / relative
        size = path.stat().st_size
        assert size >= 8192
        path.write_bytes(b"\xa5" * size)  # every page of the moves: noise
    finally:
        pg_cluster.start()
    store = await Store.open(pg_target)
    try:
        with pytest.raises(StoreCorrupt) as caught:
            await store.unfinished_tables()
    finally:
        await store.close()
    assert_one_clear_line(caught.value, pg_target, "corrupt", "backup")


# ---------------------------------------------------------------------- server gone, wrong address


async def test_server_stopped_during_play_keeps_moves_in_memory_then_stores_them_all(
    pg_target: str, pg_cluster: Cluster
) -> None:
    hand = await prepared(pg_target)
    store = await Store.open(pg_target)
    failures: list[StoreError] = []
    pending = PendingWrites(on_failure=failures.append, delays=(0.05, 0.1), name="t")
    pg_cluster.stop()
    try:
        for move in range(2, 5):
            await pending.write(
                lambda move=move: store.append_action(hand, move, f"{move} discard 3m", 10.0 + move)
            )
        assert pending.failing and pending.backlog == 3
        [failure] = failures
        assert isinstance(failure, StoreUnreachable) and failure.retryable
        assert_one_clear_line(failure, pg_target, "cannot be reached", "server is running")
    finally:
        pg_cluster.start()
    assert await pending.drain(timeout=20)
    [saved] = await store.unfinished_tables()
    assert saved.hands[0].actions == [
        "0 discard 1m",
        "1 discard 2m",
        "2 discard 3m",
        "3 discard 3m",
        "4 discard 3m",
    ]
    assert saved.hands[0].deadline == 14.0
    await store.close()


async def test_missing_database_is_reported(pg_cluster: Cluster) -> None:
    url = pg_cluster.url("no_such_database")
    with pytest.raises(StoreError) as caught:
        await Store.open(url)
    assert_one_clear_line(caught.value, url, "does not exist", "createdb")


async def test_unknown_role_is_reported_without_its_password(pg_cluster: Cluster) -> None:
    url = pg_cluster.url().replace("postgresql://mahjong@", "postgresql://nobody_here:s3cret@")
    with pytest.raises(StoreError) as caught:
        await Store.open(url)
    assert_one_clear_line(caught.value, url, "refused the bot's login", "MAHJONG_DB")
    assert "s3cret" not in str(caught.value)


async def test_no_server_at_the_address(tmp_path: Path) -> None:
    url = f"postgresql://mahjong@/mahjong?host={tmp_path}&port=5432"
    with pytest.raises(StoreUnreachable) as caught:
        await Store.open(url)
    assert_one_clear_line(caught.value, url, "cannot be reached")


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (asyncpg.exceptions.LockNotAvailableError("x"), StoreLocked),
        (asyncpg.exceptions.DeadlockDetectedError("x"), StoreLocked),
        (asyncpg.exceptions.SerializationError("x"), StoreLocked),
        (asyncpg.exceptions.ReadOnlySQLTransactionError("x"), StoreReadOnly),
        (asyncpg.exceptions.InsufficientPrivilegeError("x"), StoreReadOnly),
        (asyncpg.exceptions.DiskFullError("x"), StoreFull),
        (asyncpg.exceptions.DataCorruptedError("x"), StoreCorrupt),
        (asyncpg.exceptions.IndexCorruptedError("x"), StoreCorrupt),
        (asyncpg.exceptions.AdminShutdownError("x"), StoreUnreachable),
        (asyncpg.exceptions.CannotConnectNowError("x"), StoreUnreachable),
        (asyncpg.exceptions.ConnectionDoesNotExistError("x"), StoreUnreachable),
        (ConnectionRefusedError("x"), StoreUnreachable),
        (TimeoutError(), StoreUnreachable),
        (asyncpg.exceptions.TooManyConnectionsError("x"), StoreError),
        (asyncpg.InterfaceError("connection is closed"), StoreUnreachable),
        (asyncpg.InterfaceError("cannot perform operation: another operation is in progress"), StoreError),
        (asyncpg.exceptions.OutdatedSchemaCacheError("cached statement plan is invalid"), StoreError),
    ],
)
def test_driver_errors_map_by_their_sqlstate(error: BaseException, kind: type[StoreError]) -> None:
    translated = translate(error, "postgresql://bot@db/mahjong")
    assert type(translated) is kind and translated.retryable
    assert "\n" not in str(translated) and str(translated).startswith("database postgresql://bot@db/mahjong ")


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (asyncpg.exceptions.UniqueViolationError("x"), "duplicate"),
        (asyncpg.exceptions.ForeignKeyViolationError("x"), "missing"),
        (asyncpg.exceptions.CheckViolationError("x"), "other"),
    ],
)
def test_constraint_errors_are_conflicts_that_say_which(error: BaseException, kind: str) -> None:
    translated = translate(error, "postgresql://bot@db/mahjong")
    assert isinstance(translated, Violation) and translated.kind == kind and not translated.retryable
    assert isinstance(translate(asyncpg.DataError("bad value"), "x"), StoreConflict)
