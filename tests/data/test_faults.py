"""A locked, read-only, full or corrupt file gives the right StoreError with one clear line, and
nothing already stored is lost or half-written.

What is real and what is simulated:
- locked: real, another connection holds the lock.
- read-only: real at start when ``chattr +i`` works here (root ignores file modes, not the immutable
  flag); SQLite's own read-only open (``mode=ro``) otherwise; during play SQLite's ``query_only``
  switch, which fails writes with the same SQLITE_READONLY code.
- full: ``PRAGMA max_page_count``, which fails writes with the same SQLITE_FULL code as a full disk.
- corrupt: real garbage bytes written over the file.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from data import StoreCorrupt, StoreError, StoreFull, StoreLocked, StoreReadOnly
from data.store import Store
from tests.data.conftest import new_table


def assert_one_clear_line(error: StoreError, path: Path | str, *words: str) -> None:
    text = str(error)
    assert "\n" not in text
    assert str(path) in text
    for word in words:
        assert word in text


async def make_file(path: Path) -> int:
    """A store file with one table and one hand holding two moves; returns the hand id."""
    store = await Store.open(path)
    table = await new_table(store, [1, 2, 3, None])
    hand = await store.start_hand(table.id, 1, {"seed": 1})
    await store.append_action(hand, 0, "0 discard 1m", 5.0)
    await store.append_action(hand, 1, "1 discard 2m", 6.0)
    await store.close()
    return hand


def moves_in(path: Path) -> list[tuple[int, str]]:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT move_no, action FROM moves ORDER BY move_no").fetchall()


@pytest.fixture
def locker(db_path: Path) -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(db_path, isolation_level=None)
    yield db
    if db.in_transaction:
        db.execute("ROLLBACK")
    db.close()


# ---------------------------------------------------------------------- locked


async def test_locked_file_at_start(db_path: Path, locker: sqlite3.Connection) -> None:
    await make_file(db_path)
    locker.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreLocked) as caught:
        await Store.open(db_path, busy_timeout=0.1)
    assert_one_clear_line(caught.value, db_path, "locked", "close it")


async def test_new_file_locked_exclusively_by_another_program(
    db_path: Path, locker: sqlite3.Connection
) -> None:
    locker.execute("PRAGMA locking_mode = EXCLUSIVE")
    locker.execute("CREATE TABLE squatter (x)")  # the first write takes the lock and keeps it
    with pytest.raises(StoreLocked):
        await Store.open(db_path, busy_timeout=0.1)


async def test_locked_during_play_stores_nothing_then_works_again(
    db_path: Path, locker: sqlite3.Connection
) -> None:
    hand = await make_file(db_path)
    store = await Store.open(db_path, busy_timeout=0.1)
    locker.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StoreLocked):
        await store.append_action(hand, 2, "2 discard 3m", 7.0)
    locker.execute("ROLLBACK")
    await store.append_action(hand, 2, "2 discard 3m", 7.0)
    await store.close()
    assert moves_in(db_path) == [(0, "0 discard 1m"), (1, "1 discard 2m"), (2, "2 discard 3m")]


# ---------------------------------------------------------------------- read-only


async def test_read_only_file_at_start(db_path: Path) -> None:
    """Real: the immutable flag, which even root cannot write through (root ignores chmod)."""
    await make_file(db_path)
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(db_path)]).returncode != 0:
        pytest.skip("cannot set the immutable flag here; test_read_only_open_at_start still runs")
    try:
        with pytest.raises(StoreReadOnly) as caught:
            await Store.open(db_path)
    finally:
        subprocess.run(["chattr", "-i", str(db_path)], check=True)
    assert_one_clear_line(caught.value, db_path, "read-only", "write permission")
    assert len(moves_in(db_path)) == 2


async def test_read_only_open_at_start(db_path: Path) -> None:
    await make_file(db_path)
    uri = f"file:{db_path}?mode=ro"
    with pytest.raises(StoreReadOnly) as caught:
        await Store.open(uri)
    assert_one_clear_line(caught.value, uri, "read-only")


async def test_read_only_during_play_stores_nothing(db_path: Path) -> None:
    hand = await make_file(db_path)
    store = await Store.open(db_path)
    await store.driver.connection.execute("PRAGMA query_only = ON")
    with pytest.raises(StoreReadOnly):
        await store.append_action(hand, 2, "2 discard 3m", 7.0)
    with pytest.raises(StoreReadOnly):
        await store.finish_hand(
            hand, result={}, deltas=[1, -1, 0, 0], winner=0, loser=1, self_drawn=False, total=1
        )
    await store.driver.connection.execute("PRAGMA query_only = OFF")
    await store.append_action(hand, 2, "2 discard 3m", 7.0)
    await store.close()
    assert [n for n, _ in moves_in(db_path)] == [0, 1, 2]


# ---------------------------------------------------------------------- full


async def test_full_file_refuses_whole_writes_only(db_path: Path) -> None:
    hand = await make_file(db_path)
    store = await Store.open(db_path)
    async with store.driver.connection.execute("PRAGMA page_count") as cursor:
        pages = (await cursor.fetchone())[0]
    await store.driver.connection.execute(f"PRAGMA max_page_count = {pages}")
    stored = 2
    with pytest.raises(StoreFull) as caught:
        for move in range(2, 100_000):
            await store.append_action(hand, move, "0 discard 1m" + " " * 400, float(move))
            stored += 1
    assert_one_clear_line(caught.value, db_path, "full", "free some space")
    await store.close()
    rows = moves_in(db_path)
    assert [n for n, _ in rows] == list(range(stored))  # every accepted move, nothing of the refused one
    with sqlite3.connect(db_path) as db:
        assert db.execute("SELECT deadline FROM hands WHERE id = ?", (hand,)).fetchone()[0] == float(
            stored - 1
        )


# ---------------------------------------------------------------------- corrupt


async def test_garbage_file_is_reported_corrupt(db_path: Path) -> None:
    db_path.write_bytes(b"this is not a database, it is a grocery list\n" * 200)
    before = db_path.read_bytes()
    with pytest.raises(StoreCorrupt) as caught:
        await Store.open(db_path)
    assert_one_clear_line(caught.value, db_path, "corrupt", "backup")
    assert db_path.read_bytes() == before


async def test_damaged_pages_are_reported_corrupt(db_path: Path) -> None:
    await make_file(db_path)
    data = bytearray(db_path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    assert len(data) >= 3 * page
    data[page : 3 * page] = b"\xa5" * (2 * page)  # pages 2 and 3: the schema's tables, now noise
    db_path.write_bytes(bytes(data))
    with pytest.raises(StoreCorrupt) as caught:
        await Store.open(db_path)
    assert_one_clear_line(caught.value, db_path, "corrupt")


async def test_missing_folder_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "no" / "such" / "folder" / "mahjong.sqlite3"
    with pytest.raises(StoreError) as caught:
        await Store.open(path)
    assert_one_clear_line(caught.value, path, "cannot be opened", "folder")


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (5, StoreLocked),  # SQLITE_BUSY
        (517, StoreLocked),  # SQLITE_BUSY_SNAPSHOT
        (6, StoreLocked),  # SQLITE_LOCKED
        (8, StoreReadOnly),  # SQLITE_READONLY
        (1032, StoreReadOnly),  # SQLITE_READONLY_DBMOVED
        (13, StoreFull),  # SQLITE_FULL
        (11, StoreCorrupt),  # SQLITE_CORRUPT
        (26, StoreCorrupt),  # SQLITE_NOTADB
        (778, StoreError),  # SQLITE_IOERR_WRITE, e.g. a checkpoint into a file made immutable under us
    ],
)
def test_driver_errors_map_by_their_primary_code(code: int, kind: type[StoreError]) -> None:
    from data.errors import translate

    error = sqlite3.OperationalError("driver words")
    error.sqlite_errorcode = code
    translated = translate(error, "x.sqlite3")
    assert type(translated) is kind and translated.retryable
    assert "\n" not in str(translated) and str(translated).startswith("database x.sqlite3 ")
