"""Table ownership between bot processes sharing one PostgreSQL database: one owner per table, seen by
all, and a process that dies (SIGKILL) gives its tables up at once."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

import pytest

from data import StoreUnreachable
from data.ownership import TableOwnership

ROOT = Path(__file__).resolve().parents[2]

CHILD = """
import asyncio, sys
from data.ownership import TableOwnership

async def main():
    owner = await TableOwnership.open(sys.argv[1], name="doomed")
    for table in (1, 2, 3):
        assert await owner.claim(table)
    print("ready", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


async def test_one_owner_per_table_and_everyone_knows_who(pg_target: str) -> None:
    first = await TableOwnership.open(pg_target, name="shards 0-3")
    second = await TableOwnership.open(pg_target, name="shards 4-7")
    try:
        assert await first.claim(1) and await first.claim(1)  # claiming again is harmless
        assert not await second.claim(1)
        assert await second.claim(2)
        assert await second.owner_of(1) == "shards 0-3" and await first.owner_of(2) == "shards 4-7"
        assert await first.owner_of(3) is None
        await first.release(1)  # released once, though claimed twice: nobody owns it
        assert await second.owner_of(1) is None
        assert await second.claim(1) and second.owned == {1, 2}
    finally:
        await first.close()
        await second.close()


async def test_closing_releases_every_table(pg_target: str) -> None:
    first = await TableOwnership.open(pg_target, name="a")
    second = await TableOwnership.open(pg_target, name="b")
    try:
        for table in (5, 6):
            assert await first.claim(table)
        await first.close()
        assert await second.claim(5) and await second.claim(6)
    finally:
        await second.close()


async def test_a_killed_process_gives_its_tables_up_at_once(pg_target: str) -> None:
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, pg_target, cwd=ROOT, stdout=asyncio.subprocess.PIPE
    )
    survivor = await TableOwnership.open(pg_target, name="survivor")
    try:
        assert (await asyncio.wait_for(child.stdout.readline(), 60)).strip() == b"ready"
        assert [await survivor.claim(t) for t in (1, 2, 3)] == [False] * 3
        assert await survivor.owner_of(2) == "doomed"
        child.send_signal(signal.SIGKILL)
        await child.wait()
        killed = time.monotonic()
        while not await survivor.claim(1):
            assert time.monotonic() - killed < 5, "the dead process's claims should end with its connection"
            await asyncio.sleep(0.01)
        assert await survivor.claim(2) and await survivor.claim(3)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
        await survivor.close()


async def test_a_lost_connection_loses_every_claim_and_says_so(pg_target: str, pg_cluster) -> None:
    told: list[str] = []
    owner = await TableOwnership.open(pg_target, name="a", on_lost=lambda: told.append("lost"))
    assert await owner.claim(7)
    pg_cluster.stop()
    try:
        with pytest.raises(StoreUnreachable):
            await owner.claim(8)
        assert owner.lost and told == ["lost"] and owner.owned == frozenset()
    finally:
        pg_cluster.start()
        await owner.close()


async def test_table_ids_beyond_a_lock_key_are_refused(pg_target: str) -> None:
    owner = await TableOwnership.open(pg_target, name="a")
    try:
        with pytest.raises(ValueError, match="32-bit"):
            await owner.claim(2**31)
    finally:
        await owner.close()
