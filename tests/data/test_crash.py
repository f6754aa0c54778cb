"""A process that dies in the middle of a write leaves no half-written move or result behind.

A child process opens the store and is killed (``os._exit``: no close, no rollback, like a power cut
for SQLite's purposes) right before the last statement of a write; the parent reopens the file.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from data.store import Store
from tests.data.conftest import new_table

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import asyncio, os, sys
import aiosqlite
from data.store import Store

path, hand, stop_at, call = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
real_execute, real_executemany = aiosqlite.Connection.execute, aiosqlite.Connection.executemany

def dying(real):
    def wrapper(self, sql, *args, **kwargs):
        if sql.startswith(stop_at):
            os._exit(3)
        return real(self, sql, *args, **kwargs)
    return wrapper

async def main():
    store = await Store.open(path)
    aiosqlite.Connection.execute = dying(real_execute)
    aiosqlite.Connection.executemany = dying(real_executemany)
    if call == "append_action":
        await store.append_action(hand, 2, "2 discard 9s", 99.0)
    else:
        await store.finish_hand(hand, result={"total": 5}, deltas=[15, -5, -5, -5], winner=0, loser=None,
                                self_drawn=True, total=5)
    sys.exit("the write finished: the crash point was never reached")

asyncio.run(main())
"""


def snapshot(path: Path) -> dict[str, list]:
    with sqlite3.connect(path) as db:
        return {
            name: db.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall()
            for name in ("tables", "seats", "matches", "hands", "moves", "hand_seats")
        }


@pytest.mark.parametrize(
    ("call", "stop_at"),
    [
        ("append_action", "UPDATE hands SET deadline"),  # the move row is in, the deadline is not
        ("append_action", "COMMIT"),
        ("finish_hand", "INSERT INTO hand_seats"),  # the hand's result is in, the point changes are not
        ("finish_hand", "COMMIT"),
    ],
)
async def test_crash_mid_transaction_leaves_nothing_half_written(
    db_path: Path, call: str, stop_at: str
) -> None:
    store = await Store.open(db_path)
    table = await new_table(store, [1, 2, 3, 4])
    hand = await store.start_hand(table.id, 1, {"seed": 1})
    await store.append_action(hand, 0, "0 discard 1m", 10.0)
    await store.append_action(hand, 1, "1 discard 2m", 11.0)
    await store.close()
    before = snapshot(db_path)

    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(db_path), str(hand), stop_at, call],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert child.returncode == 3, child.stderr

    assert snapshot(db_path) == before
    store = await Store.open(db_path)  # and the file is healthy: the same move can now be stored
    await store.append_action(hand, 2, "2 discard 9s", 99.0)
    [saved] = await store.unfinished_tables()
    assert saved.hands[0].actions == ["0 discard 1m", "1 discard 2m", "2 discard 9s"]
    await store.close()
