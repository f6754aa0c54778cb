"""A bot process that dies in the middle of a PostgreSQL write leaves no half-written move or result.

A child process opens the store and is killed with ``os._exit`` (no close, no rollback: the server
sees its connection drop) before a given statement of a write, or right after sending it, before the
answer comes back. The parent reads the database: it holds either everything the write stores or
nothing of it, and the store opens and goes on as before. (SQLite's version, tests/data/test_crash.py,
also kills inside statements; on a server a statement runs in another process, atomic by itself.)
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from data.store import Store
from tests.data.conftest import new_table
from tests.data.schema import fetch
from tests.pgcluster import Cluster

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import asyncio, os, sys
import asyncpg.connection
from data.store import Store

url, hand, call, where = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
sent = where.startswith("sent:")
prefix = where.removeprefix("sent:")

def dying(real):
    async def wrapper(self, sql, *args, **kwargs):
        if sql.startswith(prefix):
            if not sent:
                os._exit(3)
            asyncio.get_running_loop().call_soon(os._exit, 3)  # after the statement went out
        return await real(self, sql, *args, **kwargs)
    return wrapper

async def main():
    store = await Store.open(url)
    for name in ("execute", "executemany", "fetch", "fetchrow"):
        setattr(asyncpg.connection.Connection, name, dying(getattr(asyncpg.connection.Connection, name)))
    if call == "append_action":
        await store.append_action(hand, 2, "2 discard 9s", 99.0)
    else:
        await store.finish_hand(hand, result={"total": 5}, deltas=[15, -5, -5, -5], winner=0, loser=None,
                                self_drawn=True, total=5)
    await store.close()

asyncio.run(main())
"""

TABLES = ("tables", "seats", "matches", "hands", "moves", "hand_seats", "player_names")


async def snapshot(url: str) -> dict[str, list]:
    return {name: await fetch(url, f"SELECT * FROM {name} ORDER BY 1, 2") for name in TABLES}


async def write_is_complete(url: str, hand: int, call: str) -> bool:
    if call == "append_action":
        moved = await fetch(url, "SELECT action FROM moves WHERE hand_id = ? AND move_no = 2", hand)
        [(deadline,)] = await fetch(url, "SELECT deadline FROM hands WHERE id = ?", hand)
        return moved == [("2 discard 9s",)] and deadline == 99.0
    [(result,)] = await fetch(url, "SELECT result FROM hands WHERE id = ?", hand)
    deltas = await fetch(url, "SELECT delta FROM hand_seats WHERE hand_id = ? ORDER BY seat", hand)
    names = await fetch(url, "SELECT COUNT(*) FROM player_names")
    return result is not None and [d for (d,) in deltas] == [15, -5, -5, -5] and names == [(4,)]


async def prepared(url: str) -> int:
    store = await Store.open(url)
    table = await new_table(store, [1, 2, 3, 4])
    hand = await store.start_hand(table.id, 1, {"seed": 1})
    await store.append_action(hand, 0, "0 discard 1m", 10.0)
    await store.append_action(hand, 1, "1 discard 2m", 11.0)
    await store.close()
    return hand


@pytest.mark.parametrize(
    ("call", "points"),
    [
        ("append_action", ["INSERT INTO moves", "sent:INSERT INTO moves", "never"]),
        (
            "finish_hand",
            [
                "BEGIN",
                "SELECT h.table_id",
                "SELECT * FROM seats",
                "UPDATE hands",
                "INSERT INTO hand_seats",
                "INSERT INTO player_names",
                "COMMIT",
                "sent:COMMIT",
                "never",
            ],
        ),
    ],
)
async def test_killed_mid_write_leaves_all_or_nothing(
    pg_cluster: Cluster, call: str, points: list[str]
) -> None:
    base = await pg_cluster.create_database()
    hand = await prepared(pg_cluster.url(base))
    before = await snapshot(pg_cluster.url(base))
    copies = [await pg_cluster.create_database(f"{base}_{n}", template=base) for n in range(len(points))]
    try:
        children = [
            await asyncio.create_subprocess_exec(
                sys.executable,
                "-c",
                CHILD,
                pg_cluster.url(name),
                str(hand),
                call,
                where,
                cwd=ROOT,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            for name, where in zip(copies, points, strict=True)
        ]
        nothing = everything = 0
        for name, where, child in zip(copies, points, children, strict=True):
            _, err = await asyncio.wait_for(child.communicate(), 60)
            url = pg_cluster.url(name)
            assert child.returncode == (0 if where == "never" else 3), err.decode()
            if await snapshot(url) == before:
                nothing += 1
            else:
                assert await write_is_complete(url, hand, call), where  # committed whole, or not at all
                everything += 1
            store = await Store.open(url)  # the database goes on after the crash
            if call == "append_action" and not await write_is_complete(url, hand, call):
                await store.append_action(hand, 2, "2 discard 9s", 99.0)
            await store.close()
            if call == "append_action":
                assert await write_is_complete(url, hand, call)
        assert (
            nothing >= 1 and everything >= 1
        )  # "never" stores it; dying before the first statement does not
    finally:
        for name in (*copies, base):
            await pg_cluster.drop_database(name)
