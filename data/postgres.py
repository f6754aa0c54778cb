"""The PostgreSQL driver: a server database, shared by every bot process, through an asyncpg pool.

    MAHJONG_DB=postgresql://mahjong:secret@db.example/mahjong python bot.py

Transactions of different tables run side by side on the pool's connections (PostgreSQL's row locks
keep them apart); ``busy_timeout`` becomes the server's ``lock_timeout``. The schema version lives in
the one-row table ``schema_version`` (PostgreSQL has no ``user_version``); migrations hold an advisory
lock, so processes starting at once migrate once. Errors are translated by SQLSTATE into the same
:class:`~data.errors.StoreError`s as SQLite's, plus :class:`~data.errors.StoreUnreachable` for a
server that does not answer, which is retried like a locked file.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeAlias
from urllib.parse import urlsplit, urlunsplit

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from data.dialect import POSTGRESQL, numbered
from data.errors import (
    StoreClosed,
    StoreConflict,
    StoreCorrupt,
    StoreError,
    StoreFenced,
    StoreFull,
    StoreLocked,
    StoreReadOnly,
    StoreUnreachable,
    Violation,
)
from data.migrate import Migration, check_version
from data.records import Row

Connection: TypeAlias = asyncpg.Connection | PoolConnectionProxy  # a pool lends proxies
SCHEMES = ("postgresql://", "postgres://")
POOL_SIZE = 8  # connections per process: enough for every table's write to start at once under load
CONNECT_TIMEOUT = 10.0
_MIGRATION_LOCK = 0x6D6A6462  # advisory lock key for migrations ("mjdb")
_DRIVER_ERRORS = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
)

# what a connection of a pool outside the Store (leases, mailbox, claims, identify turns) can raise
CLUSTER_ERRORS = (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError)


async def fetch_rows(pool: asyncpg.Pool, path: str, sql: str, *args: Any) -> list[Any]:
    """One statement on a connection of ``pool``, its rows; a driver error as the StoreError it means."""
    try:
        async with pool.acquire() as connection:
            return list(await connection.fetch(sql, *args))
    except CLUSTER_ERRORS as error:
        raise translate(error, path) from error


_LOCKED = {"55P03", "40P01", "40001", "55006"}  # lock_not_available, deadlock, serialization, in use
_UNREACHABLE = {"57P01", "57P02", "57P03"}  # admin/crash shutdown, cannot connect now (starting)
_CORRUPT = {"XX001", "XX002"}  # data_corrupted, index_corrupted
_CONSTRAINT = {"23505": "duplicate", "23503": "missing"}
FENCED = "MJ409"  # migration 0015: a hand's write from a process whose table's lease another holds now


def is_server_url(target: str) -> bool:
    return target.startswith(SCHEMES)


def shown(url: str) -> str:
    """The URL as error messages and logs show it: without its password.

    >>> shown("postgresql://bot:s3cret@db:5432/mahjong")
    'postgresql://bot@db:5432/mahjong'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc}" if user else netloc))


def translate(error: BaseException, path: str) -> StoreError:
    """The :class:`StoreError` for an asyncpg or socket error, chosen by its SQLSTATE."""
    text = (str(error).splitlines() or [type(error).__name__])[0] or type(error).__name__
    state = getattr(error, "sqlstate", None) or ""
    if isinstance(error, asyncpg.DataError):  # a value the column's type refuses: a bug in the caller
        return StoreConflict(path, f"refused a value of the wrong type ({text})", text)
    if state == FENCED:
        return StoreFenced(path, text)
    if state in _CONSTRAINT or state.startswith("23"):
        return Violation(path, _CONSTRAINT.get(state, "other"), text)
    if state in _LOCKED:
        return StoreLocked(
            path, text, advice="(a long transaction in another session, an open psql?); end it and retry"
        )
    if state == "25006" or state == "42501":
        return StoreReadOnly(
            path,
            text,
            advice="point MAHJONG_DB at a writable primary server and let the bot's role write to its tables",
        )
    if state == "53100":
        return StoreFull(path, text)
    if state in _CORRUPT:
        return StoreCorrupt(path, text, advice="restore it from a backup, and check the server's disk")
    if state == "3D000":
        return StoreError(
            path, f"does not exist ({text}); create it (createdb) or fix the name in MAHJONG_DB", text
        )
    if state.startswith("28"):
        return StoreError(
            path, f"refused the bot's login ({text}); check the user and password in MAHJONG_DB", text
        )
    if state == "53300":
        return StoreError(
            path, f"has no connection left ({text}); raise max_connections or run fewer bots", text
        )
    closed = isinstance(error, asyncpg.InterfaceError) and "closed" in text  # "connection is closed"
    if (
        state.startswith("08")
        or state in _UNREACHABLE
        or closed
        or isinstance(error, (OSError, TimeoutError))
    ):
        return StoreUnreachable(path, text)
    return StoreError(path, f"failed: {text}", text)


def _changed(status: str) -> int:
    """Rows changed, from a command status such as ``UPDATE 1`` or ``INSERT 0 4``."""
    last = status.rpartition(" ")[2]
    return int(last) if last.isdigit() else 0


class PgSession:
    def __init__(self, connection: Connection, path: str) -> None:
        self._connection = connection
        self._path = path

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        try:
            return _changed(await self._connection.execute(numbered(sql), *params))
        except _DRIVER_ERRORS as error:
            raise translate(error, self._path) from error

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        try:
            await self._connection.executemany(numbered(sql), rows)
        except _DRIVER_ERRORS as error:
            raise translate(error, self._path) from error

    async def copy(self, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        """Many rows into one table at once, through COPY (bulk loads: bench.history)."""
        if not rows:
            return
        try:
            await self._connection.copy_records_to_table(table, records=rows, columns=list(columns))
        except _DRIVER_ERRORS as error:
            raise translate(error, self._path) from error

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        try:
            row: Row | None = await self._connection.fetchrow(numbered(sql), *params)
            return row
        except _DRIVER_ERRORS as error:
            raise translate(error, self._path) from error

    async def all(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(await self._connection.fetch(numbered(sql), *params))
        except _DRIVER_ERRORS as error:
            raise translate(error, self._path) from error


class PgDriver:
    dialect = POSTGRESQL

    def __init__(self, pool: asyncpg.Pool, path: str) -> None:
        self.pool = pool  # for tests and tools that reach the server directly
        self.path = path
        self.owner: str | None = None  # the process whose leases fence this store's writes (fence)
        self._url, self._settings = path, dict[str, str]()  # how the pool connects (open)
        self._closed = False

    @classmethod
    async def open(cls, url: str, *, busy_timeout: float, migrations: Sequence[Migration]) -> PgDriver:
        """Connect, check, migrate; a database newer than ``migrations`` is refused before any write."""
        path = shown(url)
        settings = {"lock_timeout": f"{max(1, int(busy_timeout * 1000))}ms", "application_name": "mahjong"}
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT, reset=_keep_session,
                server_settings=settings,
            )
        except _DRIVER_ERRORS as error:
            raise translate(error, path) from error
        try:
            async with pool.acquire() as connection:
                check_version(await schema_version(connection), path, migrations)
                await migrate(connection, path, migrations)
                # Prove we may write, so a read-only server or role is reported at start, not mid-game.
                proof = connection.transaction()
                await proof.start()
                try:
                    await connection.execute("UPDATE schema_version SET version = version")
                finally:
                    await proof.rollback()
        except _DRIVER_ERRORS as error:
            await pool.close()
            raise translate(error, path) from error
        except BaseException:
            await pool.close()
            raise
        driver = cls(pool, path)
        driver._url, driver._settings = url, settings
        return driver

    async def fence(self, owner: str) -> None:
        """Name this process in every connection from now on (the session setting ``mahjong.owner``), so
        that a hand's write on a table whose lease another process holds is refused with
        :class:`StoreFenced` (migration 0015) instead of stored behind the new owner's back. The
        connections open now are replaced as they come back to the pool."""
        self.owner = owner
        self.pool.set_connect_args(
            self._url, timeout=CONNECT_TIMEOUT, server_settings={**self._settings, "mahjong.owner": owner}
        )
        try:
            await self.pool.expire_connections()
        except _DRIVER_ERRORS as error:
            raise translate(error, self.path) from error

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            await self.pool.close()
        except _DRIVER_ERRORS as error:
            raise translate(error, self.path) from error

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgSession]:
        async with self._connection() as connection:
            async with connection.transaction():
                yield PgSession(connection, self.path)

    @asynccontextmanager
    async def session(self) -> AsyncIterator[PgSession]:
        async with self._connection() as connection:
            yield PgSession(connection, self.path)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[PgSession]:
        async with self._connection() as connection:
            async with connection.transaction(isolation="repeatable_read", readonly=True):
                yield PgSession(connection, self.path)

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        if self._closed:
            raise StoreClosed(self.path)
        try:
            async with self.pool.acquire() as connection:
                yield connection
        except StoreError:
            raise
        except _DRIVER_ERRORS as error:  # connecting, BEGIN, COMMIT, ROLLBACK
            raise translate(error, self.path) from error


async def _keep_session(connection: Connection) -> None:
    """The pool's reset between uses: nothing. The store never leaves session state behind (no SET or
    LISTEN; the migration's advisory lock is released before the connection goes back), and asyncpg's
    default reset would cost a round trip on every write."""


async def schema_version(connection: Connection) -> int:
    """The stored schema version; 0 for an empty database. Reads only."""
    if await connection.fetchval("SELECT to_regclass('schema_version') IS NULL"):
        return 0
    version = await connection.fetchval("SELECT version FROM schema_version")
    return int(version or 0)


async def migrate(connection: Connection, path: str, migrations: Sequence[Migration]) -> tuple[int, int]:
    """Bring the schema up to ``len(migrations)`` in one transaction; returns (version before, after).

    Processes starting at once take turns on an advisory lock, taken before the transaction begins: a
    transaction begun before another's migration committed could still see the old catalog.
    """
    before = await schema_version(connection)
    check_version(before, path, migrations)
    if before == len(migrations):
        return before, before
    await connection.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
    try:
        async with connection.transaction():
            before = await schema_version(connection)  # another process may have migrated meanwhile
            check_version(before, path, migrations)
            if before == len(migrations):
                return before, before
            await connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL);"
                " INSERT INTO schema_version SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schema_version)"
            )
            for migration in migrations[before:]:
                await connection.execute(migration.sql)
            await connection.execute("UPDATE schema_version SET version = $1", len(migrations))
    finally:
        await connection.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
    return before, len(migrations)
