"""Which bot process answers an interaction that Discord delivered to several of them.

    claims = Claims(pool, "host-b shards 1 of 2")
    if await claims.claim(interaction_id) == claims.owner:   # in exactly one process
        ...answer it...
    await claims.purge()                     # ids older than an interaction's 15-minute token

Discord routes a gateway event by the sharding formula alone, and every session the formula picks hears it
(``devserver/gateway.py`` quotes the docs): every session identified with shard 0 hears every DM click. A
process that runs a *standby* shard-0 session beside its own shards (``--shard0-standby``) therefore hears
every DM click that shard 0's own process hears, and goes on hearing them when that process dies — DM play
has no single point of failure. Each interaction must still be answered once (a second callback is
refused with 40060), so the processes that heard it race to store its id: the one whose INSERT made the
row answers; the others drop it.

A row rather than an advisory lock: ``pg_try_advisory_lock`` goes with its session, so the lock would have
to be held (a pooled connection pinned) until the answer, and transaction-mode poolers do not keep it; a
transaction-scoped one ends with the INSERT's transaction, after which a late process would win it again.
A primary key decides the race in one round trip, whatever pooler is in between, and an operator reads
``SELECT * FROM interaction_claims`` to see who answered what. Rows outlive their use by at most the
15 minutes an interaction's token lives (:meth:`purge`, called from the lease renewal).
"""

from __future__ import annotations

from typing import Any

import asyncpg

from data.postgres import fetch_rows

TOKEN_LIFE = 900.0  # seconds an interaction's token lives: past this, nobody can answer it anyway
_NOW = "extract(epoch FROM clock_timestamp())"


class Claims:
    def __init__(self, pool: asyncpg.Pool, owner: str, *, path: str = "postgresql") -> None:
        self.pool = pool
        self.owner = owner
        self.path = path

    async def claim(self, interaction_id: int) -> str:
        """The process that answers the interaction: this one if it is the first to claim it, else the
        one that did (one round trip either way: the no-op update returns the row that was there)."""
        rows = await self._fetch(
            "INSERT INTO interaction_claims (interaction_id, owner, claimed_at) VALUES ($1, $2, " + _NOW + ")"
            " ON CONFLICT (interaction_id) DO UPDATE SET owner = interaction_claims.owner RETURNING owner",
            interaction_id,
            self.owner,
        )
        return str(rows[0][0])

    async def owner_of(self, interaction_id: int) -> str | None:
        """The process that claimed the interaction (None: none yet)."""
        rows = await self._fetch("SELECT owner FROM interaction_claims WHERE interaction_id = $1", interaction_id)
        return str(rows[0][0]) if rows else None

    async def hearers(self, within: float = 60.0) -> set[str]:
        """The other processes that claimed an interaction lately: they hear shard 0 too."""
        rows = await self._fetch(
            "SELECT DISTINCT owner FROM interaction_claims WHERE claimed_at > " + _NOW + " - $1 AND owner <> $2",
            within,
            self.owner,
        )
        return {str(row[0]) for row in rows}

    async def purge(self, older_than: float = TOKEN_LIFE) -> None:
        """Forget the claims of interactions whose token is dead (nobody can answer them any more)."""
        await self._fetch("DELETE FROM interaction_claims WHERE claimed_at < " + _NOW + " - $1", older_than)

    async def _fetch(self, sql: str, *args: Any) -> list[Any]:
        return await fetch_rows(self.pool, self.path, sql, *args)
