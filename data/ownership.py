"""Which bot process owns which table, when several share one PostgreSQL database.

    owner = await TableOwnership.open("postgresql://bot@db/mahjong", name="shards 0-3 on host-a")
    if await owner.claim(table_id):        # this process runs the table from now on
        ...
    await owner.owner_of(table_id)         # "shards 0-3 on host-a", or another process's name, or None
    await owner.close()                    # every table released

A claim is a session-level advisory lock, ``pg_try_advisory_lock(NAMESPACE, table_id)``, held on one
connection of its own, named by ``application_name``. Chosen over a lease row with an expiry: the
server releases every lock of a process the moment its connection ends, so when a process dies
(SIGKILL, a crash, its machine gone once TCP keepalives notice) another may take its tables over at
once instead of after a lease's expiry; nothing needs renewing while alive, and nothing is written
per claim. A process that loses its connection has lost every claim with it: ``on_lost`` is called,
and it must stop serving those tables (another process may already have taken them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import asyncpg

from data.postgres import CONNECT_TIMEOUT, shown, translate

NAMESPACE = 0x6D6A  # the first key of every table claim; the second is the table id
_KEEPALIVE = {"tcp_keepalives_idle": "5", "tcp_keepalives_interval": "2", "tcp_keepalives_count": "3"}


class TableOwnership:
    def __init__(self, connection: asyncpg.Connection, name: str, path: str) -> None:
        self._connection = connection
        self.name = name
        self.path = path
        self._owned: set[int] = set()
        self.lost = False

    @classmethod
    async def open(cls, url: str, *, name: str, on_lost: Callable[[], Any] | None = None) -> TableOwnership:
        path = shown(url)
        try:
            connection = await asyncpg.connect(
                url, timeout=CONNECT_TIMEOUT, server_settings={"application_name": name, **_KEEPALIVE}
            )
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as error:
            raise translate(error, path) from error
        owner = cls(connection, name, path)

        def ended(_: object) -> None:
            owner.lost = True
            owner._owned.clear()
            if on_lost is not None:
                on_lost()

        connection.add_termination_listener(ended)
        return owner

    @property
    def owned(self) -> frozenset[int]:
        return frozenset(self._owned)

    async def claim(self, table_id: int) -> bool:
        """Own the table unless another process does; True when this process owns it now."""
        if table_id in self._owned:
            return True  # advisory locks count: taking it twice would need two releases
        got = await self._call("SELECT pg_try_advisory_lock($1, $2)", _key(table_id))
        if got:
            self._owned.add(table_id)
        return bool(got)

    async def release(self, table_id: int) -> None:
        if table_id in self._owned:
            self._owned.discard(table_id)
            await self._call("SELECT pg_advisory_unlock($1, $2)", _key(table_id))

    async def owner_of(self, table_id: int) -> str | None:
        """The name of the process that owns the table, None when no process does."""
        return await self._call(
            "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            _key(table_id),
        )

    async def close(self) -> None:
        """Release every table (the server does when the connection ends)."""
        self._owned.clear()
        if not self._connection.is_closed():
            await self._connection.close()

    async def _call(self, sql: str, key: tuple[int, int]) -> Any:
        try:
            return await self._connection.fetchval(sql, *key)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError, TimeoutError) as error:
            raise translate(error, self.path) from error


def _key(table_id: int) -> tuple[int, int]:
    if not 0 < table_id < 2**31:
        raise ValueError(f"table id {table_id} does not fit an advisory lock's 32-bit key")
    return NAMESPACE, table_id
