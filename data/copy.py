"""Move a bot's data between databases: SQLite to PostgreSQL when it outgrows one process, or back.

    python -m data.copy mahjong.sqlite3 postgresql://bot@db/mahjong
    python -m data.copy postgresql://bot@db/mahjong mahjong.sqlite3

Both databases are opened as the bot opens them (so both are migrated to this bot's schema), but a
source file that does not exist is refused, not created; the destination must hold no rows. Every
table is read in key order in batches, as one snapshot of the source, and written in one transaction
on the destination. Before that transaction commits, the destination is read back and each table's
row count and SHA-256 checksum (over its rows in key order, each value as JSON) must equal the source's: a copy that does not match is rolled back and
leaves the destination empty. Stop the bot while copying: a source that changes under the copy is
copied as of the moment the copy began.

Exit status: 0 copied and verified; 1 the checksums differ (nothing committed); 2 a database cannot
be used, or the destination is not empty.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

from data.driver import Session
from data.errors import StoreError
from data.store import Store
from engine.cli import tool_parser

# Tables not copied: who answered an interaction (data/claims.py) means nothing after 15 minutes, and a
# copy is made with every process stopped.
NOT_COPIED: tuple[str, ...] = ("interaction_claims",)
# Every other table of the schema, parents before children, with the key that orders its rows.
TABLES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("tables", ("id",)),
    ("table_failures", ("table_id",)),
    ("table_leases", ("table_id",)),
    ("seats", ("table_id", "seat")),
    ("matches", ("table_id",)),
    ("match_scores", ("table_id", "seat")),
    ("hands", ("id",)),
    ("moves", ("hand_id", "move_no")),
    ("hand_seats", ("hand_id", "seat")),
    ("hand_items", ("hand_id", "item")),
    ("match_ratings", ("table_id", "seat")),
    ("ratings", ("guild_id", "rules", "user_id")),
    ("player_totals", ("guild_id", "rules", "user_id")),
    ("player_hours", ("guild_id", "hour", "rules", "user_id")),
    ("player_tables", ("guild_id", "user_id", "table_id")),
    ("player_table_hours", ("guild_id", "hour", "rules", "user_id")),
    ("server_totals", ("guild_id", "rules")),
    ("item_totals", ("guild_id", "rules", "item")),
    ("player_names", ("guild_id", "user_id")),
    ("bot_settings", ("key",)),
    ("dm_channels", ("user_id",)),
    ("player_prefs", ("user_id",)),
    ("play_queue", ("guild_id", "user_id")),
    ("guild_settings", ("guild_id",)),
    ("spectator_threads", ("table_id",)),
    ("spectators", ("table_id", "user_id")),
    ("tournaments", ("id",)),
    ("tournament_entrants", ("tournament_id", "user_id")),
    ("tournament_rounds", ("tournament_id", "round")),
    ("tournament_tables", ("tournament_id", "round", "table_no")),
)
BATCH = 5000


class NotEmpty(Exception):
    pass


class Mismatch(Exception):
    pass


@dataclass(frozen=True, slots=True)
class TableSum:
    table: str
    rows: int
    checksum: str


async def batches(db: Session, table: str, key: Sequence[str], size: int = BATCH) -> AsyncIterator[list[Any]]:
    """The table's rows in key order, ``size`` at a time (keyset paging: each batch starts after the last key)."""
    order = ", ".join(key)
    after: tuple[Any, ...] | None = None
    while True:
        if after is None:
            rows = await db.all(f"SELECT * FROM {table} ORDER BY {order} LIMIT ?", (size,))
        else:
            marks = ", ".join("?" for _ in key)
            rows = await db.all(
                f"SELECT * FROM {table} WHERE ({order}) > ({marks}) ORDER BY {order} LIMIT ?", (*after, size)
            )
        if not rows:
            return
        yield rows
        after = tuple(rows[-1][k] for k in key)
        if len(rows) < size:
            return


def _line(row: Any, columns: Sequence[str]) -> bytes:
    return json.dumps([row[c] for c in columns], ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


async def table_sum(db: Session, table: str, key: Sequence[str]) -> TableSum:
    """Row count and checksum of one table, read in key order."""
    digest, count = hashlib.sha256(), 0
    async for rows in batches(db, table, key):
        columns = list(rows[0].keys())
        for row in rows:
            digest.update(_line(row, columns))
        count += len(rows)
    return TableSum(table, count, digest.hexdigest())


async def copy(source: Store, destination: Store) -> list[TableSum]:
    """Copy every row of ``source`` into the empty ``destination``; returns the verified sums."""
    sums = []
    async with source.driver.snapshot() as read, destination.driver.transaction() as write:
        for table, _ in TABLES:
            found = await write.one(f"SELECT COUNT(*) AS n FROM {table}")
            if found is not None and found["n"]:
                raise NotEmpty(f"{destination.path} is not empty: its table {table} holds {found['n']} rows")
        deadlines: list[tuple[Any, Any]] = []
        for table, key in TABLES:
            digest, count = hashlib.sha256(), 0
            async for rows in batches(read, table, key):
                columns = list(rows[0].keys())
                values = [[row[c] for c in columns] for row in rows]
                await write.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})",
                    values,
                )
                for row in rows:
                    digest.update(_line(row, columns))
                count += len(rows)
                if table == "hands":
                    deadlines += [(row["deadline"], row["id"]) for row in rows]
            if (
                table == "moves"
            ):  # the trigger set each hand's deadline to its last move's: put back the stored one
                await write.executemany("UPDATE hands SET deadline = ? WHERE id = ?", deadlines)
            sums.append(TableSum(table, count, digest.hexdigest()))
        follow = destination.driver.dialect.follow_ids
        if follow is not None:
            for table in ("tables", "hands"):
                await write.one(follow.format(table=table))
        for expected in sums:
            got = await table_sum(write, expected.table, dict(TABLES)[expected.table])
            if got != expected:
                raise Mismatch(
                    f"table {expected.table}: {got.rows} rows, checksum {got.checksum[:16]} in {destination.path}"
                    f" but {expected.rows} rows, checksum {expected.checksum[:16]} in {source.path}"
                )
    return sums


async def run(source_target: str, destination_target: str) -> int:
    if source_target == destination_target:
        print("data.copy: the source and the destination are the same database", file=sys.stderr)
        return 2
    try:
        source = await Store.open(source_target, create=False)
    except StoreError as error:
        print(f"data.copy: the source cannot be used: {error}", file=sys.stderr)
        return 2
    try:
        destination = await Store.open(destination_target)
    except StoreError as error:
        await source.close()
        print(f"data.copy: the destination cannot be used: {error}", file=sys.stderr)
        return 2
    try:
        sums = await copy(source, destination)
    except NotEmpty as error:
        print(f"data.copy: {error}; copy only into a new, empty database", file=sys.stderr)
        return 2
    except Mismatch as error:
        print(f"data.copy: the copy does not match, nothing was committed: {error}", file=sys.stderr)
        return 1
    except StoreError as error:
        print(f"data.copy: {error}", file=sys.stderr)
        return 2
    finally:
        await source.close()
        await destination.close()
    for entry in sums:
        print(f"{entry.table:<13} {entry.rows:>9} rows  sha256 {entry.checksum}")
    total = sum(entry.rows for entry in sums)
    print(
        f"copied {total} rows of {len(sums)} tables from {source.path} to {destination.path};"
        " every count and checksum matches"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = tool_parser("python -m data.copy", __doc__)
    parser.add_argument("source", help="an SQLite file or a postgresql:// URL")
    parser.add_argument("destination", help="an SQLite file or a postgresql:// URL, holding no rows")
    options = parser.parse_args(argv)
    return asyncio.run(run(options.source, options.destination))


if __name__ == "__main__":
    sys.exit(main())
