"""The SQLite driver: one file (or ``:memory:``) on one aiosqlite connection, in WAL mode.

One connection serves every task, so an asyncio lock lets one transaction run at a time; writes take
SQLite's write lock at once (``BEGIN IMMEDIATE``), so a locked file is reported when a write starts,
never half-way through it. ``busy_timeout`` is how long a write waits for another program's lock.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from data.dialect import SQLITE
from data.errors import StoreClosed, StoreCorrupt, translate
from data.migrate import Migration, check_version, migrate, schema_version
from data.records import Row


class SqliteSession:
    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self._db = db
        self._path = path

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            cursor = await self._db.execute(sql, params)
        except sqlite3.Error as error:
            raise translate(error, self._path) from error
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            await self._db.executemany(sql, rows)
        except sqlite3.Error as error:
            raise translate(error, self._path) from error

    async def copy(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Many rows into one table at once (bulk loads: bench.history): one executemany in the thread."""
        marks = ", ".join("?" for _ in columns)
        await self.executemany(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            async with self._db.execute(sql, params) as cursor:
                row: Row | None = await cursor.fetchone()
                return row
        except sqlite3.Error as error:
            raise translate(error, self._path) from error

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            async with self._db.execute(sql, params) as cursor:
                return list(await cursor.fetchall())
        except sqlite3.Error as error:
            raise translate(error, self._path) from error


class SqliteDriver:
    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection, path: str) -> None:
        self.connection = db  # for tests that reach SQLite's own switches (PRAGMA query_only, ...)
        self.path = path
        self._lock = asyncio.Lock()  # one transaction at a time on the one connection
        self._closed = False

    @classmethod
    async def open(cls, path: str, *, busy_timeout: float, migrations: Sequence[Migration]) -> SqliteDriver:
        """Open (creating if needed), check, migrate. Raises a ``StoreError`` with one clear line.

        A file newer than ``migrations`` raises ``SchemaTooNew`` before anything is written to it.
        """
        connection = aiosqlite.connect(
            path, isolation_level=None, timeout=busy_timeout, uri=path.startswith("file:")
        )
        try:
            db = await connection
        except sqlite3.Error as error:
            await _worker_stopped(connection)
            raise translate(error, path) from error
        try:
            db.row_factory = aiosqlite.Row
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            await db.execute("PRAGMA foreign_keys = ON")
            # Read-only checks first: a refused file must be left byte for byte as it was.
            check_version(await schema_version(db), path, migrations)
            async with db.execute("PRAGMA quick_check") as cursor:
                verdict = [row[0] for row in await cursor.fetchall()]
            if verdict != ["ok"]:
                raise StoreCorrupt(path, verdict[0] if verdict else "integrity check failed")
            await db.execute("PRAGMA journal_mode = WAL")  # ignored (stays "memory") for :memory:
            await db.execute("PRAGMA synchronous = NORMAL")
            await migrate(db, path, migrations)
            # Prove we may write, so a locked or read-only file is reported at start, not mid-game.
            await db.execute("BEGIN IMMEDIATE")
            try:
                await db.execute(f"PRAGMA user_version = {len(migrations)}")
            finally:
                await db.execute("ROLLBACK")
        except sqlite3.Error as error:
            await _close_quietly(db)
            raise translate(error, path) from error
        except BaseException:
            await _close_quietly(db)
            raise
        return cls(db, path)

    async def close(self) -> None:
        async with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                await self.connection.close()
            except sqlite3.Error as error:
                raise translate(error, self.path) from error

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteSession]:
        async with self._lock:
            self._check_open()
            db = self.connection
            try:
                await db.execute("BEGIN IMMEDIATE")
                try:
                    yield SqliteSession(db, self.path)
                    await db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        await db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                raise translate(error, self.path) from error

    @asynccontextmanager
    async def session(self) -> AsyncIterator[SqliteSession]:
        async with self._lock:
            self._check_open()
            yield SqliteSession(self.connection, self.path)

    # the lock keeps every other statement of this connection out while the reads run
    snapshot = session

    def _check_open(self) -> None:
        if self._closed:
            raise StoreClosed(self.path)


async def _worker_stopped(connection: aiosqlite.Connection) -> None:
    """After a failed connect aiosqlite stops its worker thread without waiting; wait for it here, so the
    thread never reports to an event loop that has gone (seen as "Event loop is closed" in tests)."""
    thread = getattr(connection, "_thread", None)
    if thread is not None and thread.is_alive():
        await asyncio.to_thread(thread.join, 1.0)
    await asyncio.sleep(0)  # let the stop callback it scheduled on this loop run


async def _close_quietly(db: aiosqlite.Connection) -> None:
    try:
        await db.close()
    except Exception:  # the open already failed; that error is the one to report
        pass
