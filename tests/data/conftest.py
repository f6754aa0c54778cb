"""Fixtures for the storage tests: a store with a clock the test moves by hand, on each database.

``target`` (tests/conftest.py) is a fresh empty database: an SQLite file in the test's folder, or a
new database on the session's throw-away PostgreSQL server; tests that take ``store`` or ``target``
run once on each.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import asyncpg
import pytest

from data import SeatRecord, Store, TableRecord


class Clock:
    """Stands in for time.time so that "since" filters and history order are exact."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float = 1.0) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "mahjong.sqlite3"


@pytest.fixture
async def store(target: str, clock: Clock) -> AsyncIterator[Store]:
    opened = await Store.open(target, clock=clock, busy_timeout=0.2)
    yield opened
    await opened.close()


def seats_for(users: Sequence[int | None], names: Sequence[str] | None = None) -> list[SeatRecord]:
    """Seat records in seat order; a None user is an AI seat."""
    names = names or [f"user{u}" if u is not None else f"AI {i}" for i, u in enumerate(users)]
    return [
        SeatRecord(seat=i, user_id=u, name=n, ai_level=None if u is not None else "simple")
        for i, (u, n) in enumerate(zip(users, names, strict=True))
    ]


async def new_table(
    store: Store,
    users: Sequence[int | None],
    *,
    guild_id: int = 1,
    channel_id: int = 10,
    rules: str = "taiwan16",
    names: Sequence[str] | None = None,
) -> TableRecord:
    """A seated table whose match has started."""
    table = await store.create_table(
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=users[0] or 0,
        rules=rules,
        rounds=1,
        options={},
        password_hash=None,
    )
    await store.set_seats(table.id, seats_for(users, names))
    await store.start_match(table.id, {"rules": rules, "rounds": 1})
    return table


async def play_hand(
    store: Store,
    table_id: int,
    hand_no: int,
    *,
    deltas: Sequence[int],
    winner: int | None,
    loser: int | None = None,
    total: int = 0,
    moves: int = 3,
) -> int:
    """Start a hand, store a few moves and finish it; returns the hand id."""
    hand_id = await store.start_hand(table_id, hand_no, {"rules": "taiwan16", "seed": hand_no})
    for move in range(moves):
        await store.append_action(hand_id, move, f"{move % 4} discard {move % 9 + 1}m", 100.0 + move)
    await store.finish_hand(
        hand_id,
        result={"winner": winner, "total": total},
        deltas=deltas,
        winner=winner,
        loser=loser,
        self_drawn=winner is not None and loser is None,
        total=total,
    )
    return hand_id


@asynccontextmanager
async def locked(target: str, table: str = "moves") -> AsyncIterator[None]:
    """Another program holds a lock that keeps the store from writing ``table`` until the block ends:
    an exclusive SQLite transaction, or a PostgreSQL session's ACCESS EXCLUSIVE lock on the table."""
    if target.startswith("postgresql://"):
        other = await asyncpg.connect(target)
        try:
            async with other.transaction():
                await other.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
                yield
        finally:
            await other.close()
        return
    db = sqlite3.connect(target, isolation_level=None)
    try:
        db.execute("BEGIN EXCLUSIVE")
        yield
        db.execute("ROLLBACK")
    finally:
        db.close()
