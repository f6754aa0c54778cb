"""What a database holds, read straight from it (not through the Store), for either kind of database."""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg

from data.postgres import is_server_url

# PostgreSQL's own catalog, as (kind, name, definition) rows like sqlite_master's
_PG_SCHEMA = """
SELECT 'column', c.table_name || '.' || c.column_name,
       c.data_type || ' ' || c.is_nullable || ' ' || COALESCE(c.column_default, '') || ' ' || c.ordinal_position
  FROM information_schema.columns c WHERE c.table_schema = current_schema()
UNION ALL SELECT 'index', indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()
UNION ALL SELECT 'trigger', t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t
  JOIN pg_class r ON r.oid = t.tgrelid WHERE NOT t.tgisinternal
UNION ALL SELECT 'constraint', conname, pg_get_constraintdef(oid) FROM pg_constraint
  WHERE connamespace = current_schema()::regnamespace
"""


async def schema(target: str) -> list[tuple[str, str, str]]:
    """Every table, column, index, trigger and constraint, sorted; equal lists mean equal schemas."""
    if is_server_url(target):
        return sorted(tuple(row) for row in await fetch(target, _PG_SCHEMA))
    with sqlite3.connect(target) as db:
        return sorted(db.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"))


async def tables(target: str) -> set[str]:
    if is_server_url(target):
        rows = await fetch(target, "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return {row[0] for row in rows}
    with sqlite3.connect(target) as db:
        return {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


async def version(target: str) -> int:
    if is_server_url(target):
        [(found,)] = await fetch(target, "SELECT version FROM schema_version")
        return int(found)
    with sqlite3.connect(target) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


async def fetch(target: str, sql: str, *params: Any) -> list[tuple]:
    """Rows of one query, as tuples; ``?`` parameters on both kinds of database."""
    if is_server_url(target):
        from data.dialect import numbered

        connection = await asyncpg.connect(target)
        try:
            return [tuple(row) for row in await connection.fetch(numbered(sql), *params)]
        finally:
            await connection.close()
    with sqlite3.connect(target) as db:
        return db.execute(sql, params).fetchall()


async def execute(target: str, sql: str) -> None:
    """Run a script of statements on the database, outside the Store (as an operator would)."""
    if is_server_url(target):
        connection = await asyncpg.connect(target)
        try:
            await connection.execute(sql)
        finally:
            await connection.close()
        return
    with sqlite3.connect(target) as db:
        db.executescript(sql)
