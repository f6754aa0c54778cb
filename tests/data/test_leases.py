"""Table leases between bot processes (data/leases.py): one owner at a time, renewed while alive, taken over
(one generation more) once expired, let go at a clean shutdown; the owner's liveness is seen at once."""

from __future__ import annotations

import asyncio

import asyncpg

from data import Store
from data.leases import Leases
from data.mailbox import Mailbox


async def two_tables(store: Store) -> list[int]:
    ids = []
    for channel in (10, 11):
        record = await store.create_table(
            guild_id=1, channel_id=channel, host_id=3, rules="taiwan16", rounds=1, options={}, password_hash=None
        )
        ids.append(record.id)
    return ids


async def test_one_owner_until_the_lease_runs_out_then_a_takeover_counts_a_generation(pg_target: str) -> None:
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        first, second = Leases(pool, "a", ttl=0.6), Leases(pool, "b", ttl=0.6)
        one, two = await two_tables(store)
        assert await first.claim(one) and await first.claim(one)  # claiming one's own again renews it
        assert not await second.claim(one)
        assert await second.claim(two)
        lease = await second.owner_of(one)
        assert lease is not None and (lease.owner, lease.expired, lease.generation) == ("a", False, 1)
        assert await first.expired() == []
        for _ in range(3):  # renewed while alive: never expired, never taken
            await asyncio.sleep(0.3)
            assert await first.renew({one}) == {one} and await second.renew({two}) == {two}
            assert not await second.claim(one)
        await asyncio.sleep(0.8)  # a stops renewing (it died): its table is up for grabs, b's is too
        assert await first.expired() == [one, two]
        assert await second.claim(one)
        lease = await first.owner_of(one)
        assert lease is not None and (lease.owner, lease.generation) == ("b", 2)
        assert await first.renew({one}) == set(), "a learns that its table was taken over"
    finally:
        await store.close()


async def test_finished_tables_are_released_and_a_shutdown_lets_go_at_once(pg_target: str) -> None:
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        first, second = Leases(pool, "a", ttl=60), Leases(pool, "b", ttl=60)
        one, two = await two_tables(store)
        assert await first.claim(one) and await first.claim(two)
        await first.release(one)
        assert await second.owner_of(one) is None and await second.expired() == []
        await first.let_go({two})  # a clean shutdown: no waiting out a minute's lease
        assert await second.expired() == [two] and await second.claim(two)
        await store.set_phase(two, "over")
        await second.let_go({two})
        assert await first.expired() == [], "a finished table is never taken over"
    finally:
        await store.close()


async def test_the_owner_is_seen_gone_the_moment_its_process_is(pg_target: str) -> None:
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        (one, _) = await two_tables(store)
        leases = Leases(pool, "shards 4-7", ttl=60)
        assert await leases.claim(one)
        mailbox = await Mailbox.open(pg_target, name="shards 4-7", on_message=lambda message: None)
        lease = await leases.owner_of(one)
        assert lease is not None and lease.listening and not lease.expired
        await mailbox.close()  # as SIGKILL ends its connections
        for _ in range(50):
            lease = await leases.owner_of(one)
            if lease is not None and not lease.listening:
                break
            await asyncio.sleep(0.05)
        assert lease is not None and not lease.listening and not lease.expired
    finally:
        await store.close()


async def test_a_table_deleted_takes_its_lease_along(pg_target: str) -> None:
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        (one, _) = await two_tables(store)
        assert await Leases(pool, "a").claim(one)
        connection = await asyncpg.connect(pg_target)
        try:
            await connection.execute("DELETE FROM tables WHERE id = $1", one)
            assert await connection.fetchval("SELECT count(*) FROM table_leases") == 0
        finally:
            await connection.close()
    finally:
        await store.close()


async def test_the_live_processes_are_counted_by_their_mailboxes_with_the_tables_each_runs(pg_target: str) -> None:
    """They share the bot token's global request limit between them, by the unfinished tables each runs."""
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        leases = Leases(pool, "a")
        one, two = await two_tables(store)
        assert await leases.claim(one) and await leases.claim(two)
        assert await leases.tables_by_process() == {"a": 2}  # none listens yet: this one counts, with its tables
        boxes = [await Mailbox.open(pg_target, name=n, on_message=lambda m: None) for n in ("a", "b", "c")]
        assert await Leases(pool, "b").tables_by_process() == {"a": 2, "b": 0, "c": 0}
        await store.set_phase(two, "over")  # a finished table's lease is no load
        assert await leases.tables_by_process() == {"a": 1, "b": 0, "c": 0}
        await boxes[2].close()
        for _ in range(50):
            if len(await leases.tables_by_process()) == 2:
                break
            await asyncio.sleep(0.05)
        assert await leases.tables_by_process() == {"a": 1, "b": 0}
        await boxes[0].close()  # a's mailbox gone: its leases no longer count for a live process
        for _ in range(50):
            if "a" not in await Leases(pool, "b").tables_by_process():
                break
            await asyncio.sleep(0.05)
        assert await Leases(pool, "b").tables_by_process() == {"b": 0}
        await boxes[1].close()
    finally:
        await store.close()


async def test_a_takeover_claims_many_at_once_but_never_a_live_owners_unexpired_lease(pg_target: str) -> None:
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        first, second = Leases(pool, "a", ttl=60), Leases(pool, "b", ttl=60)
        one, two = await two_tables(store)
        assert await first.claim(one)
        assert await second.claim_many([one, two, two]) == {two}, "a's lease holds; the free table is b's"
        assert await second.claim_many([]) == set()
        lease = await first.owner_of(two)
        assert lease is not None and (lease.owner, lease.generation) == ("b", 1)
    finally:
        await store.close()


async def test_a_live_owner_that_renews_late_keeps_its_tables_a_ttl_longer_than_a_dead_one(pg_target: str) -> None:
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        alive, dead, taker = Leases(pool, "alive", ttl=0.5), Leases(pool, "dead", ttl=0.5), Leases(pool, "c", ttl=0.5)
        one, two = await two_tables(store)
        assert await alive.claim(one) and await dead.claim(two)
        mailbox = await Mailbox.open(pg_target, name="alive", on_message=lambda message: None)
        try:
            await asyncio.sleep(0.7)  # both leases ran out; only the dead owner's table is taken at once
            assert await taker.expired() == [two]
            await asyncio.sleep(0.5)  # a ttl later the live one's is too: it is wedged, not merely late
            assert await taker.expired() == [one, two]
        finally:
            await mailbox.close()
    finally:
        await store.close()


async def test_a_shutdown_hands_its_tables_to_a_live_peer_which_owns_them_at_once(pg_target: str) -> None:
    store = await Store.open(pg_target)
    try:
        pool = store.driver.pool  # type: ignore[attr-defined]
        leaving, staying = Leases(pool, "leaving", ttl=60), Leases(pool, "staying", ttl=60)
        one, two = await two_tables(store)
        assert await leaving.claim(one) and await staying.claim(two)
        mailboxes = [
            await Mailbox.open(pg_target, name=name, on_message=lambda message: None) for name in ("leaving", "staying")
        ]
        try:
            assert await leaving.peers() == ["staying"] and await staying.peers() == ["leaving"]
            assert await leaving.hand_over([one, two], "staying") == {one}, "only its own leases are given"
            lease = await leaving.owner_of(one)
            assert lease is not None and (lease.owner, lease.expired, lease.generation) == ("staying", False, 2)
            assert await staying.renew({one, two}) == {one, two}
        finally:
            for mailbox in mailboxes:
                await mailbox.close()
    finally:
        await store.close()


async def test_a_takeover_reads_only_the_tables_it_claimed(pg_target: str) -> None:
    store = await Store.open(pg_target)
    try:
        one, two = await two_tables(store)
        assert [saved.table.id for saved in await store.unfinished_tables(only={two})] == [two]
        assert await store.unfinished_tables(only=set()) == []
        assert [saved.table.id for saved in await store.unfinished_tables()] == [one, two]
    finally:
        await store.close()
