"""Numbered schema migrations, applied at start, with SQLite's ``PRAGMA user_version`` as the version.

Files are ``data/migrations/NNNN_name.sql``, numbered from 1 without gaps; file N brings the schema
from version N-1 to N. PostgreSQL's files, with the same numbers, names, tables and columns, are in
``data/migrations/postgresql/`` (applied by :mod:`data.postgres`). Every pending file runs in one transaction together with the new version
number, so a failure leaves the file exactly as it was. A file whose version is newer than the newest
migration was written by a newer bot: it is refused before anything is written to it.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

from data.errors import SchemaTooNew, translate

FOLDER = Path(__file__).with_name("migrations")
PG_FOLDER = FOLDER / "postgresql"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(folder: Path = FOLDER) -> tuple[Migration, ...]:
    """The migrations in ``folder``, in order; a gap or a duplicate number is a packaging bug."""
    found = []
    for path in folder.iterdir():
        match = _NAME.match(path.name) if path.is_file() else None
        if match:
            found.append(Migration(int(match[1]), match[2], path.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    expected = list(range(1, len(found) + 1))
    if [m.version for m in found] != expected:
        raise RuntimeError(
            f"migrations in {folder} must be numbered 1..N without gaps: {[m.version for m in found]}"
        )
    return tuple(found)


MIGRATIONS = load_migrations()
PG_MIGRATIONS = load_migrations(PG_FOLDER)
LATEST = len(MIGRATIONS)


async def schema_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return 0 if row is None else int(row[0])  # the pragma always answers; None only to the type checker


def check_version(found: int, path: str, migrations: Sequence[Migration] = MIGRATIONS) -> None:
    """Raise :class:`SchemaTooNew` when the file is newer than this code."""
    if found > len(migrations):
        raise SchemaTooNew(path, found, len(migrations))


async def migrate(
    db: aiosqlite.Connection, path: str, migrations: Sequence[Migration] = MIGRATIONS
) -> tuple[int, int]:
    """Bring the schema up to ``len(migrations)``; returns (version before, version after).

    ``db`` must be in autocommit mode (``isolation_level=None``). Driver errors become ``StoreError``s.
    """
    try:
        before = await schema_version(db)
        check_version(before, path, migrations)
        pending = migrations[before:]
        if not pending:
            return before, before
        script = "\n".join(m.sql for m in pending)
        # executescript runs statements as written: our BEGIN/COMMIT make the whole batch one transaction.
        try:
            await db.executescript(
                f"BEGIN IMMEDIATE;\n{script}\n;PRAGMA user_version = {len(migrations)};\nCOMMIT;"
            )
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise
        return before, len(migrations)
    except sqlite3.Error as error:
        raise translate(error, path) from error
