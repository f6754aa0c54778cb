"""A process that dies in the middle of a write leaves no half-written move or result behind.

A child process opens the store and is killed with ``os._exit`` (no close, no rollback: for SQLite
this is a power cut of the process) either before a given statement of a write, or after a given
number of SQLite virtual-machine steps of it (a progress handler), i.e. inside the statement itself.
The parent reopens the file: it holds either everything the write stores or nothing of it.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
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

path, hand, call, how, where = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]

def die(*args):
    os._exit(3)

def dying(real):
    def wrapper(self, sql, *args, **kwargs):
        if sql.startswith(where):
            die()
        return real(self, sql, *args, **kwargs)
    return wrapper

async def main():
    store = await Store.open(path)
    if how == "statement":
        aiosqlite.Connection.execute = dying(aiosqlite.Connection.execute)
        aiosqlite.Connection.executemany = dying(aiosqlite.Connection.executemany)
    else:
        await store.driver.connection.set_progress_handler(die, int(where))
    if call == "append_action":
        await store.append_action(hand, 2, "2 discard 9s", 99.0)
    else:
        await store.finish_hand(hand, result={"total": 5}, deltas=[15, -5, -5, -5], winner=0, loser=None,
                                self_drawn=True, total=5)
    await store.driver.connection.set_progress_handler(None, 1)
    await store.close()

asyncio.run(main())
"""


def snapshot(path: Path) -> dict[str, list]:
    with sqlite3.connect(path) as db:
        return {
            name: db.execute(f"SELECT * FROM {name} ORDER BY 1, 2").fetchall()
            for name in ("tables", "seats", "matches", "hands", "moves", "hand_seats")
        }


def write_is_complete(path: Path, hand: int, call: str) -> bool:
    with sqlite3.connect(path) as db:
        if call == "append_action":
            moved = db.execute(
                "SELECT action FROM moves WHERE hand_id = ? AND move_no = 2", (hand,)
            ).fetchall()
            deadline = db.execute("SELECT deadline FROM hands WHERE id = ?", (hand,)).fetchone()[0]
            return moved == [("2 discard 9s",)] and deadline == 99.0
        result = db.execute("SELECT result FROM hands WHERE id = ?", (hand,)).fetchone()[0]
        deltas = db.execute(
            "SELECT delta FROM hand_seats WHERE hand_id = ? ORDER BY seat", (hand,)
        ).fetchall()
        return result is not None and [d for (d,) in deltas] == [15, -5, -5, -5]


async def prepared_file(path: Path) -> int:
    """A file with a seated table and a hand of two moves; returns the hand id."""
    store = await Store.open(path)
    table = await new_table(store, [1, 2, 3, 4])
    hand = await store.start_hand(table.id, 1, {"seed": 1})
    await store.append_action(hand, 0, "0 discard 1m", 10.0)
    await store.append_action(hand, 1, "1 discard 2m", 11.0)
    await store.close()
    return hand


async def run_children(
    tmp_path: Path, call: str, how: str, points: list[str]
) -> list[tuple[Path, int, int, str]]:
    """One child per kill point, each on its own copy of a prepared file, all at once."""
    base = tmp_path / "base.sqlite3"
    hand = await prepared_file(base)
    paths = []
    for n, _ in enumerate(points):
        path = tmp_path / f"copy{n}.sqlite3"
        shutil.copyfile(base, path)
        paths.append(path)
    children = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            CHILD,
            str(path),
            str(hand),
            call,
            how,
            where,
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for path, where in zip(paths, points, strict=True)
    ]
    outcomes = []
    for path, child in zip(paths, children, strict=True):
        _, err = await asyncio.wait_for(child.communicate(), 60)
        outcomes.append((path, hand, child.returncode, err.decode()))
    return outcomes


@pytest.mark.parametrize(
    ("call", "how", "points"),
    [
        # Before a statement of the write: the hand's result is in, its point changes are not; or before COMMIT.
        ("finish_hand", "statement", ["INSERT INTO hand_seats", "COMMIT"]),
        # After n SQLite VM steps, inside the statements (a move is ~60 steps with its trigger, a result ~330).
        ("append_action", "steps", [str(n) for n in range(1, 70, 9)] + ["100000"]),
        ("finish_hand", "steps", [str(n) for n in range(1, 360, 45)] + ["100000"]),
    ],
)
async def test_killed_mid_write_leaves_all_or_nothing(
    tmp_path: Path, call: str, how: str, points: list[str]
) -> None:
    outcomes = await run_children(tmp_path, call, how, points)
    before = snapshot(tmp_path / "base.sqlite3")
    nothing = everything = 0
    for path, hand, code, err in outcomes:
        assert code in (0, 3), err
        if snapshot(path) == before:
            assert code == 3  # only a killed child may have stored nothing
            nothing += 1
        else:
            assert write_is_complete(path, hand, call)  # killed after its commit, or not killed at all
            everything += 1
        store = await Store.open(path)  # the file is healthy after the crash
        if call == "append_action" and not write_is_complete(path, hand, call):
            await store.append_action(hand, 2, "2 discard 9s", 99.0)
        await store.close()
        if call == "append_action":
            assert write_is_complete(path, hand, call)
    assert nothing >= 1
    if how == "steps":
        assert everything >= 1  # the sweep reached past the end of the write, so it covered all of it
