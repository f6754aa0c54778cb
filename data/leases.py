"""Which bot process runs each table, when several share one PostgreSQL database: a lease per table.

    leases = Leases(pool, owner="host-a:812 shards 0-3", ttl=8.0)
    await leases.claim(table_id)           # True: this process runs the table until its lease runs out
    await leases.claim_many(tables)        # the same for many at once (a takeover)
    await leases.renew(owned)              # the tables still ours (every few seconds while alive)
    await leases.owner_of(table_id)        # Lease(owner, expired, generation, listening) or None
    await leases.expired()                 # unfinished tables whose owner stopped renewing: take them over
    await leases.silent()                  # (table, owner) whose owner stopped listening: dead, most likely
    await leases.release(table_id)         # finished or closed
    await leases.let_go(owned)             # shutting down: others may take them at once
    await leases.hand_over(tables, to)     # theirs now: a clean shutdown, a guild's tables sent home

A lease is a row of ``table_leases`` (migration 0007): the owner's process name and an expiry on the
database server's clock (so hosts whose clocks disagree still agree on it). Chosen over session-level
advisory locks (an earlier ``data.ownership`` held those) because:

* a connection that drops for a moment (a network blip, a server restart, a pooler) would release every
  advisory lock of the process at once while it keeps running its tables, and another process would
  run them too; a lease outlives the blip and is renewed over any new connection;
* the owner is a plain row: the process that receives a click finds the owner with one indexed read,
  without ``pg_locks``/``pg_stat_activity`` (which a restricted role may not see in full), and an
  operator reads it with ``SELECT * FROM table_leases``;
* advisory locks do not survive transaction-mode poolers (pgbouncer), which most hosted PostgreSQL uses.

The price is the wait: a process that may be alive keeps its tables until their lease runs out (``ttl``,
8 s by default, renewed every ``ttl / 4``); one whose mailbox connection is gone (:meth:`silent`: killed,
most likely) is taken over at once. A process that cannot renew in time must stop running its tables
itself (the caller's renew loop does): by then another may own them. The lease also fences the writes:
a process names itself on its store's connections (``PgDriver.fence``) and a hand's write from one that
no longer holds the table's lease is refused (migration 0015, ``StoreFenced``), so nothing is stored
behind a new owner's back, whatever the clocks and the event loops did.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import asyncpg

from data.mailbox import application_name
from data.postgres import fetch_rows

TTL = 8.0  # seconds a lease lasts unless renewed (every ttl / 4)
_NOW = "extract(epoch FROM clock_timestamp())"
_UNFINISHED = "('lobby', 'playing')"
MAILBOX_SUFFIX = application_name("")  # what the owner's listening connection adds to its name
# a claim holds the table's fence lock (migration 0015) until it commits: it waits for the old owner's write
# under way, and the old owner's writes after it find the lease another's and are refused
_FENCE = "pg_advisory_xact_lock(27498, (t % 2147483648)::integer) AS fenced"
# a lease that may be claimed ($2: the claimer, $3: the ttl, $4: MAILBOX_SUFFIX): one's own, or one run out
# whose owner is gone (its mailbox connection closed), or run out a ttl ago though its owner is alive (a
# process renewing late, its event loop starved, keeps its tables meanwhile: see expired()). A process
# starting again claims the stored tables with this too, so it never takes one a live process still plays.
_TAKEABLE = (
    "table_leases.owner = EXCLUDED.owner OR table_leases.expires_at < " + _NOW + " - $3"
    " OR (table_leases.expires_at < " + _NOW + " AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a"
    " WHERE a.application_name = table_leases.owner || $4 AND a.datname = current_database()))"
)
# and a lease whose owner no longer listens, run out or not (a takeover of a process seen gone a while)
_TAKEABLE_SILENT = (
    _TAKEABLE + " OR NOT EXISTS (SELECT 1 FROM pg_stat_activity a"
    " WHERE a.application_name = table_leases.owner || $4 AND a.datname = current_database())"
)


@dataclass(frozen=True, slots=True)
class Lease:
    owner: str
    expired: bool
    generation: int
    listening: bool  # the owner's mailbox connection is up (data.mailbox): its process is alive


class Leases:
    def __init__(self, pool: asyncpg.Pool, owner: str, *, path: str = "postgresql", ttl: float = TTL) -> None:
        self.pool = pool
        self.owner = owner
        self.path = path
        self.ttl = ttl

    async def claim(self, table_id: int) -> bool:
        """Own the table unless another process holds its lease: unexpired, or expired less than a ttl ago
        while that process still listens (``_TAKEABLE``). Taking one over counts a new generation;
        claiming one's own table again renews it."""
        row = await self._fetchval(
            "WITH fenced AS (SELECT t, " + _FENCE + " FROM (SELECT $1::bigint AS t) AS one)"
            " INSERT INTO table_leases (table_id, owner, expires_at) SELECT t, $2, " + _NOW + " + $3 FROM fenced"
            " ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at,"
            " generation = table_leases.generation + (table_leases.owner <> EXCLUDED.owner)::int"
            " WHERE " + _TAKEABLE + " RETURNING table_id",
            table_id,
            self.owner,
            self.ttl,
            MAILBOX_SUFFIX,
        )
        return row is not None

    async def claim_many(self, tables: Iterable[int], *, silent: bool = False) -> set[int]:
        """:meth:`claim` for many tables in one statement (a takeover claims a dead process's tables at
        once, rather than one round trip each); returns those now this process's. ``silent``: a lease
        whose owner no longer listens is taken before it runs out (the caller saw that owner silent for a
        while: :meth:`silent`)."""
        wanted = sorted(set(tables))
        if not wanted:
            return set()
        rows = await self._fetch(
            "WITH fenced AS (SELECT t, " + _FENCE + " FROM unnest($1::bigint[]) AS t ORDER BY t)"
            " INSERT INTO table_leases (table_id, owner, expires_at) SELECT t, $2, " + _NOW + " + $3 FROM fenced"
            " ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, expires_at = EXCLUDED.expires_at,"
            " generation = table_leases.generation + (table_leases.owner <> EXCLUDED.owner)::int"
            " WHERE " + (_TAKEABLE_SILENT if silent else _TAKEABLE) + " RETURNING table_id",
            wanted,
            self.owner,
            self.ttl,
            MAILBOX_SUFFIX,
        )
        return {int(row[0]) for row in rows}

    async def hand_over(self, tables: Iterable[int], to: str) -> set[int]:
        """Give this process's leases to the live process ``to`` (a clean shutdown, or a guild's tables
        sent home): they are its at once, one generation more, for a full ttl in which it renews them;
        returns those given. If ``to`` dies meanwhile, they run out as any of its leases would."""
        wanted = sorted(set(tables))
        if not wanted:
            return set()
        rows = await self._fetch(
            "UPDATE table_leases SET owner = $3, expires_at = " + _NOW + " + $4, generation = generation + 1"
            " WHERE owner = $1 AND table_id = ANY($2::bigint[]) RETURNING table_id",
            self.owner,
            wanted,
            to,
            self.ttl,
        )
        return {int(row[0]) for row in rows}

    async def renew(self, tables: Iterable[int]) -> set[int]:
        """Extend this process's leases; returns those it still holds (the others were taken over)."""
        wanted = sorted(set(tables))
        if not wanted:
            return set()
        rows = await self._fetch(
            "UPDATE table_leases SET expires_at = " + _NOW + " + $3"
            " WHERE owner = $1 AND table_id = ANY($2::bigint[]) RETURNING table_id",
            self.owner,
            wanted,
            self.ttl,
        )
        return {int(row[0]) for row in rows}

    async def release(self, table_id: int) -> None:
        await self._fetch("DELETE FROM table_leases WHERE table_id = $1 AND owner = $2", table_id, self.owner)

    async def let_go(self, tables: Iterable[int]) -> None:
        """Shutting down: the leases run out now, so another process takes the tables at its next look
        once this one's connections are gone (a live owner's are taken a ttl later: :meth:`expired`)."""
        await self._fetch(
            "UPDATE table_leases SET expires_at = " + _NOW + " - 1 WHERE owner = $1 AND table_id = ANY($2::bigint[])",
            self.owner,
            sorted(set(tables)),
        )

    async def owner_of(self, table_id: int) -> Lease | None:
        """Who runs the table, and whether that process still listens (a process killed a moment ago
        holds its lease until it runs out, but its connections are gone at once)."""
        rows = await self._fetch(
            "SELECT owner, expires_at < " + _NOW + ", generation, EXISTS (SELECT 1 FROM pg_stat_activity a"
            " WHERE a.application_name = owner || $2 AND a.datname = current_database())"
            " FROM table_leases WHERE table_id = $1",
            table_id,
            MAILBOX_SUFFIX,
        )
        return Lease(str(rows[0][0]), bool(rows[0][1]), int(rows[0][2]), bool(rows[0][3])) if rows else None

    async def expired(self, *, grace: float = 0.0) -> list[int]:
        """Unfinished tables whose lease ran out: their owner died, lost the database, shut down or handed
        them back. A dead owner's (its mailbox connection gone) are taken at once; a live owner's only a
        ttl later: a process that renews late (its event loop starved of CPU) must not find its tables
        run by another while it still plays them, which would answer clicks whose moves the other stores
        too. Those this process let go itself come after ``grace`` seconds more (another process is meant
        to take them). (A table with no lease at all — its process died between storing it and claiming
        it — is picked up by the next process that starts, never while its creator may still claim it.)"""
        rows = await self._fetch(
            "SELECT l.table_id FROM table_leases l JOIN tables t ON t.id = l.table_id"
            " WHERE l.expires_at < " + _NOW + " AND t.phase IN " + _UNFINISHED +
            " AND (CASE WHEN l.owner = $1 THEN l.expires_at < " + _NOW + " - $2"
            " WHEN EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = l.owner || $4"
            " AND a.datname = current_database()) THEN l.expires_at < " + _NOW + " - $3"
            " ELSE true END) ORDER BY l.table_id",
            self.owner,
            grace,
            self.ttl,
            MAILBOX_SUFFIX,
        )
        return [int(row[0]) for row in rows]

    async def silent(self) -> list[tuple[int, str]]:
        """(table, owner) of the unfinished tables whose lease, not yet run out, is held by another process
        that no longer listens (its mailbox connection is gone: SIGKILLed, most likely, a moment ago). Safe
        to take before the lease runs out: a process that is in fact alive (its mailbox connection broke)
        stores nothing more of a table another claimed (migration 0015's fence) and stops running it."""
        rows = await self._fetch(
            "SELECT l.table_id, l.owner FROM table_leases l JOIN tables t ON t.id = l.table_id"
            " WHERE l.owner <> $1 AND l.expires_at >= " + _NOW + " AND t.phase IN " + _UNFINISHED +
            " AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = l.owner || $2"
            " AND a.datname = current_database()) ORDER BY l.table_id",
            self.owner,
            MAILBOX_SUFFIX,
        )
        return [(int(r[0]), str(r[1])) for r in rows]

    async def held_elsewhere(self) -> list[tuple[int, int, str]]:
        """(table, guild, owner) of every unfinished table another live process runs: a process asks for
        the tables of its own guilds back (cogs/mahjong/cluster.py)."""
        rows = await self._fetch(
            "SELECT l.table_id, t.guild_id, l.owner FROM table_leases l JOIN tables t ON t.id = l.table_id"
            " WHERE l.owner <> $1 AND l.expires_at >= " + _NOW + " AND t.phase IN " + _UNFINISHED +
            " AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = l.owner || $2"
            " AND a.datname = current_database()) ORDER BY l.table_id",
            self.owner,
            MAILBOX_SUFFIX,
        )
        return [(int(r[0]), int(r[1]), str(r[2])) for r in rows]

    async def peers(self) -> list[str]:
        """The names of the other bot processes listening on this database now (a process shutting down
        hands its tables to one of them)."""
        rows = await self._fetch(
            "SELECT DISTINCT left(application_name, length(application_name) - length($1))"
            " FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE '%' || $1",
            MAILBOX_SUFFIX,
        )
        return sorted(name for (name,) in rows if name != self.owner)

    async def tables_by_process(self) -> dict[str, int]:
        """Each bot process listening on this database now (this one always among them), with the number of
        unfinished tables it holds a live lease of: they share the bot token's global request limit by it
        (cogs/mahjong/tokenshare.py)."""
        rows = await self._fetch(
            "SELECT p.name, (SELECT count(*) FROM table_leases l JOIN tables t ON t.id = l.table_id"
            " WHERE l.owner = p.name AND l.expires_at >= " + _NOW + " AND t.phase IN " + _UNFINISHED + ")"
            " FROM (SELECT left(application_name, length(application_name) - length($1)) AS name"
            " FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE '%' || $1"
            " UNION SELECT $2) p",  # this one counts even before its mailbox listens
            MAILBOX_SUFFIX,
            self.owner,
        )
        return {str(name): int(count) for name, count in rows}

    async def _fetch(self, sql: str, *args: Any) -> list[Any]:
        return await fetch_rows(self.pool, self.path, sql, *args)

    async def _fetchval(self, sql: str, *args: Any) -> Any:
        rows = await self._fetch(sql, *args)
        return rows[0][0] if rows else None
